"""Figure placement rules in the C core, ready for Messengers & Mayors: per-kind
segment kinds and occupancy (R-BASE-4, R-MM-1/5/7), non-scoring presence (R-MM-9),
town halls closing features (R-MM-10/13)."""

from sim.engine.board import MAX_SEGS, Board, Catalogue, majority
from sim.formats.tiles import ANY_EDGE, Tile, tile_set

FOLLOWER = (0, 0b1111, 1, 1, 1)
MAYOR_LIKE = (1, 0b0001, 0, 0, 1)  # cities only, occupied or not, strength 0
MESSENGER_LIKE = (2, 0b0010, 1, 1, 1)  # roads only, free only
SCARECROW_LIKE = (3, 0b0100, 0, 0, 0)  # fields, occupied or not, never scores
TOWN_HALL = Tile("townhall", 1, ANY_EDGE * 4, (), ("townhall",))

CAT = Catalogue(list(tile_set("base")) + [TOWN_HALL])
T = CAT.index


def board():
    b = Board(CAT, 20)
    b.place(T["D"], 0, 0, 0)
    return b


def offered(b, tile, at, rules):
    rows, _ = b.turn_options(T[tile], rules)
    return [(r[3], CAT.variant(T[tile], r[2]).segments[r[4]].where()) for r in rows
            if r[:3] == at and r[3] >= 0]


def test_rules_choose_segment_kinds_and_occupancy():
    b = board()
    b.place(T["G"], 0, 1, 1)  # band N-S on D's cap
    g_city = CAT.variant(T["G"], 1).segment_at("city N")
    b.add_figure(0, 0, 1, 1 * MAX_SEGS + g_city)  # a knight: the city is occupied
    rules = (FOLLOWER, MAYOR_LIKE, MESSENGER_LIKE, SCARECROW_LIKE)
    # N r2 at 0,2 continues the occupied city (its city touches E and S); its field is free
    assert offered(b, "N", (0, 2, 2), rules) == [(1, "city E"), (0, "field Nw"), (3, "field Nw")]
    # U r0 at 1,0 continues D's free road
    assert offered(b, "U", (1, 0, 0), rules) == [
        (0, "road E"), (2, "road E"), (0, "field Nw"), (3, "field Nw"), (0, "field Es"), (3, "field Es")]


def test_non_scoring_presence_occupies_but_never_wins():
    b = board()
    b.place(T["U"], 1, 0, 0)
    field = 1 * MAX_SEGS + CAT.variant(T["U"], 0).segment_at("field Nw")
    fig = b.add_figure(1, 3, 0, field, scores=False)  # a standing scarecrow
    assert b.feature(field).figures == 1
    assert field % MAX_SEGS not in b.free_segments(1)  # occupied for farmers (R-MM-7)
    counts, strengths = b.strength(field)
    assert majority(counts[:2], strengths[:2]) == []  # R-MM-9: never scores
    b.set_figure(fig, 1, True)  # lying down: a farmer of strength 1 (R-MM-8)
    counts, strengths = b.strength(field)
    assert majority(counts[:2], strengths[:2]) == [1]
    b.add_figure(0, 1, 0, field)  # strength-0 presence loses to strength 1 (R-MM-4)
    counts, strengths = b.strength(field)
    assert majority(counts[:2], strengths[:2]) == [1]


def test_town_hall_closes_a_road_and_fits_anywhere():
    b = board()
    b.place(T["U"], 1, 0, 0)
    b.place(T["U"], -1, 0, 0)
    road = b.find(0 * MAX_SEGS + CAT.variant(T["D"], 0).segment_at("road E"))
    assert b.feature(road).open == 2
    assert b.misfit(T["townhall"], 0, 1, 0) == 0  # against D's city edge: fits
    assert b.place(T["townhall"], 2, 0, 0) == []  # closes one end
    done = b.place(T["townhall"], -2, 0, 0)  # closes the other: the road is complete
    assert [b.feature(r).kind for r in done] == ["road"]
    f = b.feature(done[0])
    assert (f.tiles, f.open, f.complete) == (3, 0, True)  # no part of the road itself
    # a town hall connects no fields: D's south field spans D and the two U, no more
    assert b.feature(0 * MAX_SEGS + CAT.variant(T["D"], 0).segment_at("field Es")).tiles == 3
