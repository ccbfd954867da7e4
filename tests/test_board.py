"""The C core against the pure-Python reference (tests/reference.py).

Perft-style exact counts (STYLE.md rule 10) along fixed draw orders are pinned in
tests/perft.txt; a mismatch prints the count per first move.
"""

from pathlib import Path

import pytest
from reference import RefBoard

from sim.engine.board import MAX_SEGS, Board, Catalogue
from sim.errors import CoreError
from sim.engine.game import Game
from sim.engine.rng import Stream
from sim.engine.rules import Rules
from sim.formats.tiles import tile_set

CAT = Catalogue(tile_set("base"))
BY_ID = {t.id: t for t in CAT.types}
PERFT = Path(__file__).resolve().parent / "perft.txt"


def start():
    b, r = Board(CAT, 80), RefBoard()
    b.place(CAT.index["D"], 0, 0, 0)
    r.place(BY_ID["D"], 0, 0, 0)
    return b, r


def perft_c(board, order, figures):
    if not order:
        return 1
    t = CAT.index[order[0]]
    total = 0
    for (x, y, rot) in board.legal_placements(t):
        b = board.clone()
        b.place(t, x, y, rot)
        idx = len(b) - 1
        total += perft_c(b, order[1:], figures)
        if figures:
            for local in b.free_segments(idx):
                bf = b.clone()
                bf.add_figure(0, 0, 1, idx * MAX_SEGS + local)
                total += perft_c(bf, order[1:], figures)
    return total


def perft_ref(ref, order, figures):
    if not order:
        return 1
    tile = BY_ID[order[0]]
    total = 0
    for (x, y, rot) in ref.legal(tile):
        r = RefBoard()
        r.tiles, r.figures = dict(ref.tiles), set(ref.figures)
        r.place(tile, x, y, rot)
        total += perft_ref(r, order[1:], figures)
        if figures:
            for local in r.free(x, y):
                rf = RefBoard()
                rf.tiles, rf.figures = dict(r.tiles), r.figures | {(x, y, local)}
                total += perft_ref(rf, order[1:], figures)
    return total


def load_perft():
    rows = []
    for line in PERFT.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            order, figures, count = line.split()
            rows.append((order.split(","), figures == "figures", int(count)))
    return rows


@pytest.mark.parametrize("order, figures, count", load_perft())
def test_perft(order, figures, count):
    board, ref = start()
    got, want = perft_c(board, order, figures), perft_ref(ref, order, figures)
    if got != count or want != count:
        per_move = []
        for (x, y, rot) in board.legal_placements(CAT.index[order[0]]):
            b = board.clone()
            b.place(CAT.index[order[0]], x, y, rot)
            r = RefBoard()
            r.tiles = dict(ref.tiles)
            r.place(BY_ID[order[0]], x, y, rot)
            per_move.append(f"{order[0]} {x},{y} r{rot}: C {perft_c(b, order[1:], False)} "
                            f"ref {perft_ref(r, order[1:], False)}")
        pytest.fail(f"perft {order}: C {got}, reference {want}, pinned {count}\n" + "\n".join(per_move))


def test_turn_options_match_reference_along_random_games():
    """Every turn's placements equal the reference scan, and every placement's figure
    options are exactly the reference's free segments after that placement (R-BASE-3/4),
    along 12 seeded random games with figures."""
    for seed in range(12):
        g = Game(Rules(), seed)
        ref = RefBoard()
        ref.place(BY_ID["D"], 0, 0, 0)
        rng = Stream(seed)
        while g.decision is not None:
            d = g.decision
            placements = sorted({c[:3] for c in d.choices}, key=lambda p: (p[1], p[0], p[2]))
            assert placements == ref.legal(BY_ID[d.tile]), (seed, g.turn)
            if g.turn % 5 == 0:
                for (x, y, rot) in placements:
                    trial = RefBoard()
                    trial.tiles, trial.figures = dict(ref.tiles), ref.figures
                    trial.place(BY_ID[d.tile], x, y, rot)
                    offered = [c[4] for c in d.choices if c[:3] == (x, y, rot) and c[3] >= 0]
                    expected = trial.free(x, y) if g.supply[d.seat] else []  # R-BASE-4
                    assert offered == expected, (seed, g.turn, x, y, rot)
            choice = rng.choice(d.choices)
            ref.place(BY_ID[d.tile], *choice[:3])
            if choice[3] >= 0:
                ref.figures.add((choice[0], choice[1], choice[4]))
            g.apply(choice)
            # figures of completed features went back: mirror the engine's board
            ref.figures = {(x, y, l) for _, f in g.board.figures()
                           for (x, y, l) in [_place(g, f.segment)]}


def _place(g, seg):
    t, _, x, y = g.board.tile(seg // MAX_SEGS)
    return x, y, seg % MAX_SEGS


def test_feature_aggregates_match_reference():
    """Union-find aggregates (tiles, open edges, coats, completion, segment count, and
    which segments share a feature) equal a breadth-first search, in 15 full games."""
    for seed in range(15):
        g = Game(Rules(), 100 + seed)
        rng = Stream(seed)
        while g.decision is not None:
            g.apply(rng.choice(g.decision.choices))
        ref = RefBoard()
        for (t, rot, x, y) in g.board.tiles():
            ref.tiles[(x, y)] = CAT.types[t].rotated(rot)
        roots = {}
        for i, (t, rot, x, y) in enumerate(g.board.tiles()):
            for local in range(len(CAT.types[t].segments)):
                seg = i * MAX_SEGS + local
                f = g.board.feature(seg)
                want = ref.info((x, y, local))
                got = dict(kind=f.kind, tiles=f.tiles, open=f.open, coats=f.coats,
                           complete=f.complete, segments=f.segments)
                assert got == want, (seed, x, y, local)
                roots.setdefault(f.root, set()).add((x, y, local))
        for members in roots.values():
            some = next(iter(members))
            if ref.tiles[some[:2]].segments[some[2]].kind != "monastery":
                assert ref.feature(some) == members


def test_feature_values_by_hand():
    """cc_feature_value, the one value scoring, the messages, the Courier and greedy use
    (R-BASE-6: road 1 a tile, city 2 a tile in play; R-BASE-8: city 1, monastery 1 a
    tile, field 3 a completed city bordered)."""
    b, _ = start()
    seg = lambda i, tile, rot, where: i * MAX_SEGS + CAT.variant(CAT.index[tile], rot).segment_at(where)
    road, city = seg(0, "D", 0, "road E"), seg(0, "D", 0, "city N")
    assert (b.value(road, final=False), b.value(city, final=True)) == (1, 1)
    b.place(CAT.index["U"], 1, 0, 0)  # the road: D + U
    b.place(CAT.index["E"], 0, 1, 2)  # E's city S closes D's city N: 2 tiles, no coat
    b.place(CAT.index["B"], 0, -1, 0)  # a monastery; D above it, U diagonally (1, 0)
    assert b.value(road, final=False) == 2
    assert (b.value(city, final=False), b.value(city, final=True)) == (4, 2)
    assert b.value(seg(3, "B", 0, "monastery"), final=True) == 1 + 2
    assert b.value(seg(0, "D", 0, "field Wn"), final=True) == 3  # borders the closed city
    assert b.value(seg(0, "D", 0, "field Es"), final=True) == 0  # borders no city
    with pytest.raises(CoreError, match="cc_feature_value"):
        b.value(10_000, final=True)


def test_clone_is_independent():
    b, _ = start()
    c = b.clone()
    c.place(CAT.index["E"], 0, 1, 2)
    assert len(b) == 1 and len(c) == 2
    assert b.tile_at(0, 1) is None and c.tile_at(0, 1) == 1


def test_bad_calls_raise_instead_of_crashing():
    b, _ = start()
    with pytest.raises(CoreError, match="does not fit"):
        b.place(CAT.index["C"], 1, 0, 0)  # city edge against D's road
    with pytest.raises(CoreError, match="already holds a tile"):
        b.place(CAT.index["D"], 0, 0, 0)
    with pytest.raises(CoreError, match="outside the board"):
        b.place(CAT.index["E"], 10_000, 0, 0)
    with pytest.raises(CoreError, match="bad argument"):
        b.place(999, 0, 1, 0)
    with pytest.raises(CoreError, match="bad argument"):
        b.place(CAT.index["E"], 0, 1, 7)
    with pytest.raises(CoreError, match="bad argument"):
        b.feature(10_000)
    with pytest.raises(CoreError, match="bad argument"):
        b.add_figure(6, 0, 1, 0)
    with pytest.raises(CoreError, match="bad argument"):
        b.remove_figure(3)
    with pytest.raises(CoreError, match="bad argument"):
        b.legal_placements(-1)
    assert b.misfit(CAT.index["E"], 5, 5, 0) == 5  # touches no tile
    assert b.misfit(CAT.index["E"], 1, 0, 0) == 4  # its W edge is field, D's E is road
    assert b.misfit(CAT.index["E"], 0, 1, 2) == 0


def test_board_full_refuses_more_tiles():
    b = Board(CAT, 2)
    b.place(CAT.index["D"], 0, 0, 0)
    b.place(CAT.index["U"], 1, 0, 0)
    assert b.legal_placements(CAT.index["U"]) == []
    with pytest.raises(CoreError, match="capacity"):
        b.place(CAT.index["U"], -1, 0, 0)
