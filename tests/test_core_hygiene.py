"""C hygiene (issue 13 item 6): the core checks what it is given, a failing call
changes nothing, counters cannot wrap, every output buffer has a capacity, and errors
arrive as typed exceptions (ValueError subclasses) that quote the bad input."""

import pytest

from sim._core import (CapacityError, CellOccupiedError, CoreArgumentError, TileMisfitError,
                       check, ffi, lib)
from sim.board import MAX_SEGS, Board, Catalogue
from sim.game import Game
from sim.errors import CoreError
from sim.rules import Rules
from sim.tiles import distinct_rotations, parse_line, tile_set

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
    for i in range(8):
        cfg.deck[i] = min(i, 6)  # message 7 twice: not a deck
    stack = ffi.new("int32_t[]", [T["E"]])
    flags = bytes(len(CAT.types))
    states = ffi.new("uint64_t[]", 2)
    seats = ffi.new("cc_seat_policy[]", 2)
    out = ffi.new("cc_game **")
    assert lib.cc_game_new(CAT._ts, cfg, stack, 1, flags, len(flags), states, seats, out) == lib.CC_ERR_ARG
    assert out[0] == ffi.NULL
    cfg.deck[7] = 7
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
    from sim.cdeal import catalogue_for, dealt, tile_flags
    from sim.game import _seat_policies
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
