"""C hygiene (issue 13 item 6): the core checks what it is given, a failing call
changes nothing, counters cannot wrap, every output buffer has a capacity, and errors
arrive as typed exceptions (ValueError subclasses) that quote the bad input."""

import pytest

from sim.core import (CapacityError, CellOccupiedError, CoreArgumentError, TileMisfitError,
                       check, ffi, lib)
from sim.engine.board import MAX_SEGS, Board, Catalogue
from sim.engine.game import Game
from sim.errors import CoreError
from sim.engine.rules import Rules
from sim.formats.tiles import distinct_rotations, parse_line, tile_set

CAT = Catalogue(tile_set("base"))
T = CAT.index


def _defs(line: str):
    """cc_tiledef[4] of a tile line, as Catalogue fills it."""
    tile = parse_line(line)
    defs = ffi.new("cc_tiledef[4]")
    for r in range(4):
        Catalogue._fill(defs[r], tile.rotated(r), r in distinct_rotations(tile))
    return defs


def _add(defs) -> int:
    ts = ffi.gc(lib.cc_tileset_new(4), lib.cc_tileset_free)
    first = lib.cc_tileset_add(ts, _defs("B x4 FFFF C:- R:- F:Nw,Ne,En,Es,Se,Sw,Ws,Wn/- X:mon"))
    assert first == 0
    rc = lib.cc_tileset_add(ts, defs)
    if rc < 0:  # refused: the set is as it was, the next good tile gets index 1
        assert lib.cc_tileset_add(ts, _defs("C x1 CCCC C:NESW*1 R:- F:- X:-")) == 1
    return rc


def test_shipped_tile_kinds_are_accepted():
    assert _add(_defs("D x4 CRFR C:N R:E-W F:Wn,En/N;Es,Se,Sw,Ws/- X:-")) == 1


def _corrupt(change):
    defs = _defs("D x4 CRFR C:N R:E-W F:Wn,En/N;Es,Se,Sw,Ws/- X:-")
    change(defs)
    return _add(defs)


def _city_edge_without_city(d):
    d[0].edges[2] = lib.CC_EDGE_CITY  # S: a city edge ...
    d[0].seg_mask[3] &= ~0b00110000  # ... and no field on its halves: no segment at all


# D r0 shows N city, E road, S field, W road; segments 0 city N, 1 road E-W,
# 2 field Wn,En, 3 field Es,Se,Sw,Ws
@pytest.mark.parametrize("what,change", [
    ("city segment on a field edge", lambda d: d[0].seg_mask.__setitem__(0, 0b0101)),
    ("road segment on a city edge", lambda d: d[0].seg_mask.__setitem__(1, 0b1011)),
    ("city edge with no city segment", _city_edge_without_city),
    ("field on a city edge", lambda d: d[0].seg_mask.__setitem__(2, 0b10000011)),
    ("coats of arms on a road", lambda d: d[0].seg_coats.__setitem__(1, 1)),
    ("field bordering a road as a city", lambda d: d[0].seg_cities.__setitem__(2, 0b10)),
    ("field bordering a segment beyond the tile", lambda d: d[0].seg_cities.__setitem__(2, 1 << 9)),
    ("city bits on a road", lambda d: d[0].seg_cities.__setitem__(1, 1)),
    ("segment kinds differ between rotations", lambda d: d[1].seg_kind.__setitem__(1, lib.CC_CITY)),
    ("two segments on one half-edge", lambda d: d[0].seg_mask.__setitem__(3, 0b11110000)),
    ("unknown edge type", lambda d: d[2].edges.__setitem__(0, 9)),
    ("monastery on an edge", lambda d: d[0].seg_kind.__setitem__(3, lib.CC_MONASTERY)),
    ("too many segments", lambda d: setattr(d[0], "nseg", 13)),
])
def test_tileset_add_refuses_inconsistent_tiles(what, change):
    assert _corrupt(change) == lib.CC_ERR_ARG, what


def test_place_with_too_small_buffer_changes_nothing():
    b = Board(CAT, 10)
    b.place(T["D"], 0, 0, 0)
    out = ffi.new("int32_t[]", 1)
    rc = lib.cc_place(b._ptr, T["E"], 0, 1, 2, out, 1)  # E r2 closes D's city: 1 feature
    assert rc == lib.CC_ERR_FULL
    assert len(b) == 1 and b.tile_at(0, 1) is None
    assert b.place(T["E"], 0, 1, 2) != []  # with room, the same call completes the city


def test_failing_placements_raise_typed_errors_and_change_nothing():
    b = Board(CAT, 10)
    b.place(T["D"], 0, 0, 0)
    with pytest.raises(TileMisfitError, match=r"type \d+ at 0,1 r0"):
        b.place(T["E"], 0, 1, 0)  # E's field south against D's city north
    with pytest.raises(CellOccupiedError):
        b.place(T["E"], 0, 0, 0)
    assert len(b) == 1 and b.tile_at(0, 1) is None
    assert issubclass(TileMisfitError, ValueError) and issubclass(TileMisfitError, CoreError)


def test_strength_cannot_wrap():
    """A road of 31 tiles carrying a strength-9 figure on each: 279 > 255 (the old
    uint8 aggregate wrapped to 23)."""
    b = Board(CAT, 40)
    b.place(T["U"], 0, 0, 0)  # U: a road E-W
    for x in range(1, 31):
        b.place(T["U"], x, 0, 0)
    road = 1  # U's local road segment
    for i in range(31):
        b.add_figure(0, 0, 9, i * MAX_SEGS + road)
    counts, strengths = b.strength(road)
    assert counts[0] == 31 and strengths[0] == 279
    fig = b.figures_on(road)[0]
    b.set_figure(fig, 0, True)
    assert b.strength(road)[1][0] == 270


def test_output_buffers_have_capacities():
    b = Board(CAT, 10)
    b.place(T["D"], 0, 0, 0)
    small = ffi.new("int32_t[]", 3)
    assert lib.cc_tile_info(b._ptr, 0, small, 3) == lib.CC_ERR_FULL
    assert lib.cc_feature_info(b._ptr, 0, small, 3) == lib.CC_ERR_FULL
    assert lib.cc_feature_strength(b._ptr, 0, small, 3) == lib.CC_ERR_FULL
    assert lib.cc_figure_info(b._ptr, 0, small, 3) == lib.CC_ERR_FULL
    assert lib.cc_legal_placements(b._ptr, T["E"], small, 3) == lib.CC_ERR_FULL


def test_check_names_the_call_and_quotes_the_input():
    with pytest.raises(CoreArgumentError, match=r"cc_x\(seed=5, tile='Q'\): bad argument \(code -1\)"):
        check(lib.CC_ERR_ARG, "cc_x", seed=5, tile="Q")
    with pytest.raises(CapacityError):
        check(lib.CC_ERR_FULL, "cc_y")
    assert check(3, "cc_z") == 3


def test_game_refuses_bad_configs_and_keeps_state_on_bad_answers():
    c = Game(Rules(players=2, expansions=("messages",)), 1)
    status = c._state()
    assert lib.cc_game_apply(c._ptr, 10**6) == lib.CC_ERR_ARG
    assert lib.cc_game_apply(c._ptr, -1) == lib.CC_ERR_ARG
    assert c._state() == status  # nothing changed
    cfg = ffi.new("cc_game_config *")
    cfg.nplayers, cfg.followers, cfg.expansions = 2, 7, lib.CC_X_MESSAGES
    cfg.start_type = T["D"]
    cfg.dark_every, cfg.deck_n = 5, 8  # R-BASE-10's spacing, the deck's 8 tiles (R-MSG-11)
    for i in range(8):
        cfg.deck[i] = min(i, 4)  # message 5 four times: over the 3 copies a deck may hold
    stack = ffi.new("int32_t[]", [T["E"]])
    flags = bytes(len(CAT.types))
    states = ffi.new("uint64_t[]", 2)
    seats = ffi.new("cc_seat_policy[]", 2)
    out = ffi.new("cc_game **")
    assert lib.cc_game_new(CAT._ts, cfg, stack, 1, flags, len(flags), states, seats, out) == lib.CC_ERR_ARG
    assert out[0] == ffi.NULL
    for i in range(4, 8):
        cfg.deck[i] = i
    seats[1].messages = 99  # no such policy
    assert lib.cc_game_new(CAT._ts, cfg, stack, 1, flags, len(flags), states, seats, out) == lib.CC_ERR_ARG
    seats[1].messages = lib.CC_POL_GREEDY
    stack[0] = len(CAT.types)  # no such tile type
    assert lib.cc_game_new(CAT._ts, cfg, stack, 1, flags, len(flags), states, seats, out) == lib.CC_ERR_ARG
    stack[0] = T["E"]
    assert lib.cc_game_new(CAT._ts, cfg, stack, 1, flags, len(flags), states, seats, out) == 0
    lib.cc_game_free(out[0])


def test_road_ends_are_checked_before_they_are_kept():
    """cc_tileset_set_road_ends (R-MM-6's junctions and gates): an end on a segment that
    is no road, a gate into a segment that is no city, or the wrong segment count is
    refused and the tile set keeps what it had."""
    ts = ffi.gc(lib.cc_tileset_new(2), lib.cc_tileset_free)
    # segments: 0 city N, 1 road E-W, 2 field Wn,En, 3 field Es,Se,Sw,Ws
    d = lib.cc_tileset_add(ts, _defs("D x4 CRFR C:N R:E-W F:Wn,En/N;Es,Se,Sw,Ws/- X:-"))

    def ends(*v):
        return lib.cc_tileset_set_road_ends(ts, d, ffi.new("int8_t[]", list(v)), len(v))

    assert ends(0, lib.CC_END_GATE + 0, 0, 0) == 0  # the road enters city 0 by its gate
    assert ends(lib.CC_END_VILLAGE, 0, 0, 0) == lib.CC_ERR_ARG  # a city has no road end
    assert ends(0, lib.CC_END_GATE + 2, 0, 0) == lib.CC_ERR_ARG  # segment 2 is a field
    assert ends(0, lib.CC_END_GATE + 9, 0, 0) == lib.CC_ERR_ARG  # no segment 9
    assert ends(0, -1, 0, 0) == lib.CC_ERR_ARG
    assert ends(0, 0, 0) == lib.CC_ERR_ARG  # 3 ends for 4 segments
    assert lib.cc_tileset_set_road_ends(ts, d + 5, ffi.new("int8_t[]", 4), 4) == lib.CC_ERR_ARG


def test_mayors_game_refuses_a_bad_town_hall_or_road_figure():
    from sim.engine.deal import catalogue_for, dealt, tile_flags
    from sim.engine.game import _seat_policies
    from strategies import player

    rules = Rules(players=2, expansions=("mayors",))
    cat = catalogue_for(rules)
    cfg, stack, n = dealt(rules, 0)
    flags = tile_flags(rules)
    states = ffi.new("uint64_t[]", 2)
    seats = _seat_policies(rules, [player("greedy"), player("random")])
    out = ffi.new("cc_game **")

    def new() -> int:
        return lib.cc_game_new(cat._ts, cfg, stack, n, flags, len(flags), states, seats, out)

    cfg.town_hall_type = len(cat.types)  # no such tile type
    assert new() == lib.CC_ERR_ARG and out[0] == ffi.NULL
    cfg.town_hall_type = cat.index["townhall"]
    seats[0].road_figure[1] = 1 + lib.CC_FIG_MAYOR  # only a follower or a messenger
    assert new() == lib.CC_ERR_ARG
    seats[0].road_figure[1] = 0
    seats[1].ride = lib.CC_POL_SPREAD  # a scoring-figure policy, not an M&M one
    assert new() == lib.CC_ERR_ARG
    seats[1].ride = lib.CC_POL_RANDOM
    assert new() == 0
    lib.cc_game_free(out[0])


# ---------------------------------------------------------------- damaged saves
# cc_game_load must refuse a blob whose structure play could not have built: the
# union-find and the features' circular lists are walked without bounds (find,
# shared_tiles, unite's relinking), so a wrong link there hangs the process or reads
# outside the board rather than giving a wrong answer.

SEG_SIZE = 52  # sizeof(seg_t), internal.h: the offsets below are this build's layout
SEG = {"parent": (0, "<i"), "next": (4, "<i"), "tile": (8, "<h"), "ntiles": (12, "<h"),
       "open": (14, "<h"), "nfig": (16, "<h"), "coats": (20, "<i"), "nsegs": (24, "<i"),
       "count0": (28, "<H")}
FIG_SIZE, NFIGS = 8, 192  # figure_t {player, kind, strength, scores: int8; seg: int32}


class Blob:
    """A saved game, its board's arrays located by the board struct's counts (found
    as max_tiles, ntiles, dim, origin) and checked against what the live board says."""

    def __init__(self, game):
        import struct

        self.game, self.struct = game, struct
        n = lib.cc_game_save(game._ptr, ffi.NULL, 0)
        buf = ffi.new("uint8_t[]", n)
        assert lib.cc_game_save(game._ptr, buf, n) == n
        self.data = bytearray(ffi.buffer(buf, n))
        self.board_size = struct.unpack_from("<i", self.data, 12)[0]
        b = lib.cc_game_board(game._ptr)
        self.ntiles, m = lib.cc_board_ntiles(b), lib.cc_board_max_tiles(b)
        self.dim = 2 * m + 3
        at = self.data.rfind(struct.pack("<iiii", m, self.ntiles, self.dim, m + 1))
        self.board = at - 8  # after the tile set pointer
        self.nfront = struct.unpack_from("<i", self.data, at + 16)[0]
        cells = self.dim * self.dim
        self.grid = self.board + self.board_size
        self.need = self.grid + 2 * cells
        self.in_front = self.need + 2 * cells
        self.front = self.in_front + cells
        self.segs = self.front + 4 * self.nfront + 8 * self.ntiles
        assert self.segs + SEG_SIZE * 12 * self.ntiles == len(self.data)
        # the figures, then nfig_slots and the fields pointer (padded: 16 bytes on LP64)
        self.figs = self.board + self.board_size - 16 - FIG_SIZE * NFIGS
        info = ffi.new("int32_t[5]")
        for f in range(NFIGS):  # the layout is read right: the figures are the board's
            assert lib.cc_figure_info(b, f, info, 5) == 0
            at = self.figs + FIG_SIZE * f
            assert struct.unpack_from("<bbi", self.data, at)[:2] == (info[0], info[1])
            assert struct.unpack_from("<i", self.data, at + 4)[0] == info[3]
        for s in self.used():  # the layout is read right: the roots are the board's
            r = s
            while self.seg(r, "parent") != r:
                r = self.seg(r, "parent")
            assert r == lib.cc_find(b, s)

    def seg(self, s, field, value=None):
        off, fmt = SEG[field]
        if value is None:
            return self.struct.unpack_from(fmt, self.data, self.segs + SEG_SIZE * s + off)[0]
        self.struct.pack_into(fmt, self.data, self.segs + SEG_SIZE * s + off, value)

    def used(self):
        return [s for s in range(12 * self.ntiles) if self.seg(s, "tile") >= 0]

    def roots(self):
        return [s for s in self.used() if self.seg(s, "parent") == s]

    def members(self, r):
        return [s for s in self.used() if lib.cc_find(lib.cc_game_board(self.game._ptr), s) == r]

    def load(self):
        from sim.engine.game import _load

        g = self.game
        return _load(g.rules, g.seed, bytes(self.data))


def _mid_game(seed=3, decisions=24):
    """A base game some turns in: features joined across tiles, followers on them."""
    from strategies import player

    g = Game(Rules(players=2), seed)
    first = player("first")
    for _ in range(decisions):
        g.apply(first.choose(g, g.decision))
    return g


def _joined(b):
    """A root of more than one segment, and one of its other members."""
    for r in b.roots():
        rest = [s for s in b.members(r) if s != r]
        if rest:
            return r, rest[0]
    raise AssertionError("no joined feature")


def _unused(b):
    return next(s for s in range(12 * b.ntiles) if b.seg(s, "tile") < 0)


def _next_into_unused(b):  # the reviewer's reproducer, on a joined feature
    r, _ = _joined(b)
    b.seg(r, "next", _unused(b))
    b.seg(r, "nsegs", 0)


def _lists_cross(b):  # next stays one to one, but two features' lists swap tails
    r1, m1 = _joined(b)
    r2 = next(r for r in b.roots() if r != r1)
    n1, n2 = b.seg(m1, "next"), b.seg(r2, "next")
    b.seg(m1, "next", n2)
    b.seg(r2, "next", n1)


def _parent_cycle(b):
    r, m = _joined(b)
    b.seg(m, "parent", r)
    b.seg(r, "parent", m)


def _parent_other_kind(b):
    r, m = _joined(b)
    kind = b.data[b.segs + SEG_SIZE * r + 10]
    other = next(s for s in b.roots() if b.data[b.segs + SEG_SIZE * s + 10] != kind)
    b.seg(m, "parent", other)


def _unused_joined(b):
    b.seg(_unused(b), "parent", b.roots()[0])


def _off_by_one(field):
    def change(b):
        r, _ = _joined(b)
        b.seg(r, field, b.seg(r, field) + 1)
    return change


def _city_coats(b):
    r = next(r for r in b.roots() if b.data[b.segs + SEG_SIZE * r + 10] == lib.CC_CITY)
    b.seg(r, "coats", b.seg(r, "coats") + 1)


def _count_without_figure(b):
    occupied = {b.struct.unpack_from("<i", b.data, b.figs + FIG_SIZE * f + 4)[0] for f in range(NFIGS)}
    r = next(r for r in b.roots() if r not in occupied and b.seg(r, "nfig") == 0)
    b.seg(r, "count0", 1)


def _grid_second_cell(b):  # an empty cell far from the tiles names tile 0 too
    b.struct.pack_into("<h", b.data, b.grid + 2 * (2 * b.dim + 2), 0)


def _need_changed(b):
    c = b.struct.unpack_from("<i", b.data, b.front)[0]
    need = b.struct.unpack_from("<H", b.data, b.need + 2 * c)[0]
    b.struct.pack_into("<H", b.data, b.need + 2 * c, (need + 1) % 1296)


def _frontier_flag_without_entry(b):  # frontier_remove would move a negative length
    b.data[b.in_front + 2 * b.dim + 2] = 1


def _frontier_entry_dropped(b):
    del b.data[b.front:b.front + 4]
    b.struct.pack_into("<i", b.data, b.board + 8 + 16, b.nfront - 1)


def _figure_field(offset, value):
    def change(b):
        f = next(f for f in range(NFIGS)
                 if b.struct.unpack_from("<i", b.data, b.figs + FIG_SIZE * f + 4)[0] >= 0)
        if offset == 4:
            b.struct.pack_into("<i", b.data, b.figs + FIG_SIZE * f + 4, value(b))
        else:
            b.data[b.figs + FIG_SIZE * f + offset] = value(b)
    return change


@pytest.mark.parametrize("what,change", [
    ("next into an unused slot", _next_into_unused),
    ("lists of two features crossed", _lists_cross),
    ("parent cycle", _parent_cycle),
    ("parent of another kind", _parent_other_kind),
    ("unused slot joined to a feature", _unused_joined),
    ("segment count off by one", _off_by_one("nsegs")),
    ("tile count off by one", _off_by_one("ntiles")),
    ("open edges off by one", _off_by_one("open")),
    ("figure count off by one", _off_by_one("nfig")),
    ("coats of arms off by one", _city_coats),
    ("presence without a figure", _count_without_figure),
    ("two cells name one tile", _grid_second_cell),
    ("a side's need changed", _need_changed),
    ("frontier flag without its entry", _frontier_flag_without_entry),
    ("frontier entry dropped", _frontier_entry_dropped),
    ("figure of a seat not playing", _figure_field(0, lambda b: 3)),
    ("figure kind unknown", _figure_field(1, lambda b: 9)),  # indexes a supply by kind
    ("figure strength out of range", _figure_field(2, lambda b: 100)),
    ("figure on an unused slot", _figure_field(4, _unused)),
    ("figure below a free slot", _figure_field(4, lambda b: -7)),
], ids=lambda v: v if isinstance(v, str) else "")
def test_a_damaged_board_is_refused(what, change):
    g = _mid_game()
    b = Blob(g)
    b.load()  # the undamaged save loads
    change(b)
    with pytest.raises(CoreArgumentError, match="cc_game_load"):
        b.load()


def test_a_loaded_board_with_longer_paths_has_every_parent_a_root():
    """Play keeps every segment's parent its feature's root (unite), so a find is one load
    (find_const); a saved board whose paths are longer (every member of a feature chained
    to the next, the last to the root: acyclic, of its kind, so accepted) loads with them
    made one step, and the game plays on as the original."""
    from strategies import player

    g = _mid_game(decisions=40)
    b = Blob(g)
    r, rest = next((r, rest) for r in b.roots()
                   for rest in [[s for s in b.members(r) if s != r]] if len(rest) >= 2)
    for s, up in zip(rest, [*rest[1:], r]):  # rest[0] -> rest[1] -> ... -> r
        b.seg(s, "parent", up)
    loaded = b.load()
    board, original = lib.cc_game_board(loaded._ptr), lib.cc_game_board(g._ptr)
    assert [lib.cc_find(board, s) for s in rest] == [r] * len(rest)
    assert all(lib.cc_find(board, s) == lib.cc_find(original, s) for s in b.used())
    first = player("first")
    for game in (g, loaded):
        while game.decision is not None:
            game.apply(first.choose(game, game.decision))
    assert loaded.result() == g.result()


def test_the_reviewers_hang_is_refused_without_hanging():
    """The reproducer: segment 0's next at an unused self-linked slot, its nsegs 0. Load
    accepted it and apply() never returned (shared_tiles walked b->segs[-12..-1]).
    Run in a subprocess under a timeout so that a hang fails rather than stalls."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent("""
        import struct
        from sim.core import CoreArgumentError, ffi, lib
        from sim.engine.game import Game, _load
        from sim.engine.rules import Rules
        g = Game(Rules(), 0, stack=["E", "U"])
        n = lib.cc_game_save(g._ptr, ffi.NULL, 0)
        buf = ffi.new("uint8_t[]", n)
        lib.cc_game_save(g._ptr, buf, n)
        data = bytearray(ffi.buffer(buf, n))
        base = n - 12 * 52
        seg = g.catalogue.variant(g.catalogue.index["D"], 0).segment_at("city N")
        struct.pack_into("<i", data, base + 52 * seg + 4, 11)
        struct.pack_into("<i", data, base + 52 * seg + 24, 0)
        try:
            h = _load(g.rules, g.seed, bytes(data))
        except CoreArgumentError as e:
            print("refused", e)
        else:
            h.apply((0, 1, 2, -1, -1))
            print("accepted")
    """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith("refused") and "cc_game_load" in run.stdout, run.stdout


def _every_combination():
    import itertools

    from sim.expansions import NAMES

    for k in range(len(NAMES) + 1):
        yield from itertools.combinations(NAMES, k)


@pytest.mark.parametrize("expansions", list(_every_combination()), ids="+".join)
def test_every_state_play_builds_loads(expansions):
    """The checks refuse nothing play makes: a save at every decision of a game loads,
    at the same decision, and the last one cloned plays on to the same scores (every
    expansion combination; 3 seats of every policy kind)."""
    from strategies import player

    import pickle

    rules = Rules(players=3, expansions=expansions)
    seats = [player(p) for p in ("greedy", "random", "first")]
    for seed in (11, 12, 13):
        g = Game(rules, seed)
        while g.decision is not None:
            h = pickle.loads(pickle.dumps(g))  # through cc_game_load
            assert h.decision == g.decision
            g.apply(seats[g.decision.seat].choose(g, g.decision))
        # a loaded game clones (its arrays as large as cc_game_new's, issue 13) and
        # plays on to the same end as the game it came from
        h = h.clone()
        while h.decision is not None:
            h.apply(seats[h.decision.seat].choose(h, h.decision))
        assert h.scores == g.scores


# ---------------------------------------------------------------- a damaged game struct
# The game struct's fields, as this build lays them out: worked out by compiling a probe
# against sim/csrc/game.h with the build's compiler (checked against the blob's own
# sizeof(cc_game)), so a damaged blob changes exactly the field named. A unit's fields
# ("msg.in_hand") lie in the game's shared state area, typed in the unit's own file
# (game.h names no unit's state): the probe includes that file and asks game_state where
# its part of the area is, linked with the other sources of the core.

GAME_FIELDS = ("msg.in_hand", "msg.nchoices", "msg.deck", "msg.deck_head", "msg.edition",
               "drawn_type", "nrows", "seats", "cfg.expansions", "cfg.edition", "cfg.followers",
               "cfg.river_edge", "cfg.start_type", "scores", "points", "courier.x", "ntypes", "nstack",
               "msg.players[1].position", "river.x", "river.y", "turn", "ndecisions",
               "courier.nmoved", "courier.moved_fig", "courier.moved_seg", "agenda", "nagenda",
               "dec_kind", "abbot.players[0].supply", "abbot.players[0].fig")
# a unit's prefix in GAME_FIELDS: its file, its state's type, its expansion_t
UNIT_STATES = {"msg": ("messages.c", "msg_state_t", "messages_expansion"),
               "river": ("river.c", "river_state_t", "river_expansion"),
               "courier": ("courier.c", "courier_state_t", "courier_expansion"),
               "abbot": ("abbot.c", "abbot_state_t", "abbot_expansion")}


@pytest.fixture(scope="module")
def game_layout(tmp_path_factory):
    import subprocess

    from sim.core.build import CSRC, SOURCES, compiler

    cc = compiler()
    if subprocess.run([*cc, "--version"], capture_output=True).returncode != 0:
        pytest.skip("no C compiler to read the game struct's layout")
    tmp = tmp_path_factory.mktemp("layout")
    own = [f for f in GAME_FIELDS if f.split(".")[0] not in UNIT_STATES]
    lines = "".join(f'    printf("{f} %zu\\n", offsetof(cc_game, {f}));\n' for f in own)
    calls = "".join(f"    probe_{unit}();\n" for unit in UNIT_STATES)
    decls = "".join(f"void probe_{unit}(void);\n" for unit in UNIT_STATES)
    (tmp / "probe.c").write_text(
        '#include <stddef.h>\n#include <stdio.h>\n#include "game.h"\n' + decls + 'int main(void) {\n'
        '    printf("size %zu\\n", sizeof(cc_game));\n'
        '    printf("seat %zu\\n", sizeof(cc_seat_policy));\n' + lines + calls + "    return 0;\n}\n")
    probes = []
    for unit, (source, state, expansion) in UNIT_STATES.items():
        fields = [f for f in GAME_FIELDS if f.split(".")[0] == unit]
        lines = "".join(f'    printf("{f} %zu\\n", at + offsetof({state}, {f.split(".", 1)[1]}));\n'
                        for f in fields)
        probe = tmp / f"probe_{unit}.c"
        probe.write_text(
            f'#include <stddef.h>\n#include <stdio.h>\n#include "{source}"\nvoid probe_{unit}(void) {{\n'
            "    cc_game *g = calloc(1, sizeof *g);\n"
            f"    size_t at = (size_t)((const uint8_t *)game_state(g, &{expansion}) - (const uint8_t *)g);\n"
            + lines + "    free(g);\n}\n")
        probes.append(str(probe))
    units = {source for source, _, _ in UNIT_STATES.values()}
    others = [str(CSRC / name) for name in SOURCES if name not in units]
    subprocess.run([*cc, "-std=c11", "-I", str(CSRC), "-o", str(tmp / "probe"), str(tmp / "probe.c"),
                    *probes, *others, "-lm"], check=True)
    out = subprocess.run([str(tmp / "probe")], capture_output=True, text=True, check=True).stdout
    return {k: int(v) for k, v in (line.split() for line in out.splitlines())}


def _reach(expansions, kind, seed=5, spec="greedy"):
    """A 2-seat game at its first decision of `kind` (greedy seats by default: they
    score enough to draw messages; random ones place scarecrows)."""
    from strategies import player

    first = player(spec)
    g = Game(Rules(players=2, expansions=expansions), seed)
    while g.decision is not None and g.decision.kind != kind:
        g.apply(first.choose(g, g.decision))
    assert g.decision is not None, f"no {kind} decision"
    return g


def _put(field, value, at=0):
    def change(data, layout):
        import struct

        struct.pack_into("<i", data, 16 + layout[field] + 4 * at, value)  # 16: the header
    return change


def _deck_twice(data, layout):  # the deck's top message also stands in the next place
    import struct

    deck, head = 16 + layout["msg.deck"], 16 + layout["msg.deck_head"]
    h = struct.unpack_from("<i", data, head)[0]
    top = struct.unpack_from("<i", data, deck + 4 * h)[0]
    struct.pack_into("<i", data, deck + 4 * ((h + 1) % 8), top)


def _no_rows(data, layout):  # a place decision with its rows cut out of the blob
    import struct

    get = lambda f: struct.unpack_from("<i", data, 16 + layout[f])[0]  # noqa: E731
    rows = 16 + layout["size"] + get("ntypes") + 4 * get("nstack")
    del data[rows:rows + 20 * get("nrows")]
    struct.pack_into("<i", data, 16 + layout["nrows"], 0)


def _row(i, code=None, a=None):
    """Row i of the waiting Messengers & Mayors decision: its code, its first value."""
    def change(data, layout):
        import struct

        get = lambda f: struct.unpack_from("<i", data, 16 + layout[f])[0]  # noqa: E731
        row = 16 + layout["size"] + get("ntypes") + 4 * get("nstack") + 20 * i
        for k, v in enumerate((code, a)):
            if v is not None:
                struct.pack_into("<i", data, row + 4 * k, v)
    return change


def _seat_policy(data, layout):  # seat 1's place policy an unknown code
    import struct

    struct.pack_into("<i", data, 16 + layout["seats"] + layout["seat"], 99)


@pytest.mark.parametrize("expansions,kind,change", [
    (("messages",), "messages", _put("msg.in_hand", -1)),  # indexed taken[-1]
    (("messages",), "messages", _put("msg.nchoices", 0)),
    ((), "place", _put("drawn_type", -1)),
    ((), "place", _no_rows),
    (("messages",), "place", _deck_twice),
    (("messages",), "place", _put("msg.edition", 5)),
    ((), "place", _seat_policy),
    ((), "place", _put("cfg.expansions", 1 << 12)),
    (("messages",), "place", _put("cfg.edition", 7)),
    ((), "place", _put("cfg.followers", -1)),
    (("river",), "place", _put("cfg.river_edge", 9)),
    ((), "place", _put("cfg.start_type", -1)),
    ((), "place", _put("scores", 2**31 - 1, at=1)),  # game_add_points would overflow
    ((), "place", _put("points", 2**31 - 1, at=3)),
    (("courier",), "place", _put("courier.x", -2**31)),  # abs(INT_MIN) in a distance
    # Messengers & Mayors rows hold only their own decision's codes (mayors.c): a
    # scarecrow row with CC_MM_TARGET made apply_scarecrow write scarecrows[-1]
    (("mayors",), "scarecrow", _row(0, lib.CC_MM_TARGET)),
    (("mayors",), "scarecrow", _row(0, lib.CC_MM_CELL)),
    (("mayors",), "town_hall", _row(1, lib.CC_MM_LIE)),  # taken for a cell
    (("mayors",), "town_hall", _row(1, a=2**31 - 1)),  # x + 1 overflows next to the cell
    (("mayors",), "ride", _row(0, lib.CC_MM_FARMER)),
    # The Messages: a figure's space takes the points (position += points)
    (("messages",), "place", _put("msg.players[1].position", 2**31 - 1)),
    (("messages",), "place", _put("msg.players[1].position", -5, at=1)),
    (("river",), "place", _put("river.x", 2**31 - 1)),  # its next square, x + 1
    (("river",), "place", _put("river.y", -2**31)),
    ((), "place", _put("turn", 2**31 - 1)),  # turn++ at the next draw
    ((), "place", _put("turn", -1)),
    ((), "place", _put("ndecisions", 2**31 - 1)),  # ndecisions++ at the next choice
    ((), "place", _put("ndecisions", -1)),
], ids=["in_hand -1 at a message", "message without choices", "place without a tile",
        "place without rows", "a message twice in the deck", "edition unknown",
        "seat policy unknown", "expansion bit unknown", "config edition unknown",
        "followers negative", "river edge out of range", "start tile out of range",
        "score at INT_MAX", "points at INT_MAX", "courier off the board",
        "scarecrow row with a favour's code", "scarecrow row with a town hall's code",
        "town hall row with a scarecrow's code", "town hall cell off the grid",
        "ride row with a scarecrow's code", "scoring figure at INT_MAX",
        "scoring figure below 0", "river end off the grid", "river end below the grid",
        "turn at INT_MAX", "turn negative", "decisions at INT_MAX", "decisions negative"])
def test_a_damaged_game_is_refused(game_layout, expansions, kind, change):
    from sim.engine.game import _load

    g = _reach(expansions, kind, spec="random" if kind == "scarecrow" else "greedy",
               seed=1 if kind == "scarecrow" else 5)
    b = Blob(g)
    assert struct_size(b.data) == game_layout["size"]  # the probe's layout is the build's
    b.load()  # the undamaged save loads
    change(b.data, game_layout)
    with pytest.raises(CoreArgumentError, match="cc_game_load"):
        _load(g.rules, g.seed, bytes(b.data))


def struct_size(data):
    import struct

    return struct.unpack_from("<i", data, 8)[0]  # the header's sizeof(cc_game)


def test_a_step_or_decision_of_a_unit_out_of_play_is_refused(game_layout):
    """A loaded agenda's steps are the base game's or those of a unit in play, and a
    waiting decision is the place decision or one of a unit in play (game.h: a unit's
    step kinds follow the base game's three in registry order, The Messages' two
    first). A Messages game whose agenda held a step of the Courier or M&M loaded, and
    failed at that step in play; one waiting at an M&M decision loaded with no choices."""
    import struct

    from sim.engine.game import _load

    g = _reach(("messages",), "scoring_figure")
    b = Blob(g)
    b.load()
    get = lambda f: struct.unpack_from("<i", b.data, 16 + game_layout[f])[0]  # noqa: E731
    assert get("nagenda") >= 1  # the turn's round of scoring ends below the award

    def with_(field, value):
        data = bytearray(b.data)
        struct.pack_into("<i", data, 16 + game_layout[field], value)
        return bytes(data)

    _load(g.rules, g.seed, with_("agenda", 3))  # The Messages' own first step: it loads
    for kind in range(5, 11):  # the Courier's step, then M&M's five
        with pytest.raises(CoreArgumentError, match="cc_game_load"):
            _load(g.rules, g.seed, with_("agenda", kind))
    for kind in ("TOWN_HALL", "FAVOUR", "SCARECROW", "RIDE", "FIGURE"):
        with pytest.raises(CoreArgumentError, match="cc_game_load"):
            _load(g.rules, g.seed, with_("dec_kind", getattr(lib, "CC_DEC_" + kind)))


def _abbot_standing(seed=3):
    """A 2-seat Abbot game of greedy seats at seat 0's place decision with seat 0's
    abbot on the board (its take-back rows among the choices)."""
    from sim.expansions.abbot import RECALL
    from strategies import player

    greedy = player("greedy")
    g = Game(Rules(players=2, expansions=("abbot",)), seed)
    while g.decision is not None:
        d = g.decision
        if d.kind == "place" and d.seat == 0 and any(r[4] == RECALL for r in d.choices):
            return g
        g.apply(greedy.choose(g, d))
    raise AssertionError("seat 0's abbot never stood on the board")


def _play_out(g):
    from strategies import player

    greedy = player("greedy")
    while g.decision is not None:
        g.apply(greedy.choose(g, g.decision))
    return g.scores, g.events


@pytest.mark.parametrize("hint", [-1, 2**31 - 1, "a follower", "another seat's abbot"])
def test_the_abbot_is_found_whatever_its_figure_hint_says(game_layout, hint):
    """R-ABB-5: which figure is a seat's abbot is the board's fact; abbot.c keeps the
    figure id it was placed as only to find it without a scan (abbot_of). A loaded game
    whose id is wrong (out of range, another figure) offers the same take-back rows and
    plays on, greedy valuing them, to the same end as the game it was saved from."""
    import struct

    from sim.engine.game import _load

    g = _abbot_standing()
    b = Blob(g)
    at = 16 + game_layout["abbot.players[0].fig"]
    fig = struct.unpack_from("<i", b.data, at)[0]
    kinds = {f: (b.data[b.figs + FIG_SIZE * f], b.data[b.figs + FIG_SIZE * f + 1])
             for f in range(NFIGS) if struct.unpack_from("<i", b.data, b.figs + FIG_SIZE * f + 4)[0] >= 0}
    assert kinds[fig] == (0, lib.CC_FIG_ABBOT)  # the hint names seat 0's abbot, as placed
    if hint == "a follower":
        hint = next(f for f, (_, kind) in kinds.items() if kind == lib.CC_FIG_FOLLOWER)
    elif hint == "another seat's abbot":
        hint = next((f for f, k in kinds.items() if k == (1, lib.CC_FIG_ABBOT)), None)
        if hint is None:
            pytest.skip("seat 1's abbot is not on the board in this game")
    struct.pack_into("<i", b.data, at, hint)
    h = _load(g.rules, g.seed, bytes(b.data))
    assert h.decision == g.decision  # the take-back rows found
    assert _play_out(h) == _play_out(g)


@pytest.mark.parametrize("supply", [1, 2])
def test_an_abbot_both_home_and_on_the_board_is_refused(game_layout, supply):
    """R-ABB-1: a seat has one abbot, in supply or on the board; abbot.c trusts a
    supply of 1 to mean it is not on the board, so a loaded game that says both is
    refused."""
    import struct

    from sim.engine.game import _load

    g = _abbot_standing()
    b = Blob(g)
    _load(g.rules, g.seed, bytes(b.data))  # undamaged, it loads
    struct.pack_into("<i", b.data, 16 + game_layout["abbot.players[0].supply"], supply)
    with pytest.raises(CoreArgumentError, match="cc_game_load"):
        _load(g.rules, g.seed, bytes(b.data))
