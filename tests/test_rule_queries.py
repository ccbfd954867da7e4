"""The rule queries the engine asks C (issue 22 item 4d): Board.ride_targets (R-MM-6),
Board.activating_cells (R-MM-2/8), Game.river_end (R-RIV-1/2, tests/test_view.py) and
the Courier's neighbourhood (R-COU-3, tests/test_names.py), on positions worked out
by hand (the boards of tests/test_mayors.py)."""

import pytest

from engine import new_game, place
from sim.core import CoreArgumentError
from sim.engine.rules import Rules

FOLLOWER, MAYOR, MESSENGER, SCARECROW = range(4)


def mm(stack, players=2):
    return new_game(Rules(players=players, expansions=("mayors",)), 0, stack=stack)


def seg(g, index, tile, rot, where):
    return index * g.MAX_SEGS + g.catalogue.variant(g.catalogue.index[tile], rot).segment_at(where)


def test_ride_targets_are_the_other_roads_at_the_village():
    """W r0 at 1,0 (board index 1): a village with roads W, E, S. Before and after its
    west road is closed (A at -1,0), the messenger may ride to the east and south roads
    (both incomplete), and those are the ride decision's targets."""
    g = mm(["W", "A", "U"])
    place(g, 1, 0, 0, MESSENGER, "road W")
    road, east, south = (seg(g, 1, "W", 0, w) for w in ("road W", "road E", "road S"))
    assert g.board.ride_targets(road) == (east, south)
    # from the east road: the west road, which runs on into the start tile D (its
    # segment 1, D's road), and the south road
    assert g.board.feature_segments(road) == [1, road]
    assert g.board.ride_targets(east) == tuple(sorted((1, road, south)))  # ascending
    place(g, -1, 0, 3)
    assert g.decision.kind == "ride" and g.decision.choices[1:] == g.board.ride_targets(road)


def test_ride_targets_leave_out_completed_roads():
    """As above, with the village's east arm closed first (A at 2,0): only south."""
    g = mm(["W", "A", "A", "U"])
    place(g, 1, 0, 0, MESSENGER, "road W")
    place(g, 2, 0, 1)
    assert g.board.ride_targets(seg(g, 1, "W", 0, "road W")) == (seg(g, 1, "W", 0, "road S"),)


def test_ride_targets_enter_the_city_at_the_gate_on_every_tile_of_it():
    """T r1 at 1,0: its road W ends at the city gate; E r2 at 1,1 joins that city. The
    targets are the city's segments on both tiles, ascending."""
    g = mm(["T", "E", "B", "A", "U"])
    place(g, 1, 0, 1, MESSENGER, "road W")
    road = seg(g, 1, "T", 1, "road W")
    assert g.board.ride_targets(road) == (seg(g, 1, "T", 1, "city N"),)
    place(g, 1, 1, 2, FOLLOWER, "city S")  # board index 2
    assert g.board.ride_targets(road) == (seg(g, 1, "T", 1, "city N"), seg(g, 2, "E", 2, "city S"))


def test_ride_targets_refuse_what_is_not_a_placed_road():
    g = mm(["W", "A", "U"])
    place(g, 1, 0, 0)
    with pytest.raises(CoreArgumentError):
        g.board.ride_targets(seg(g, 1, "W", 0, "field Nw"))
    for bad in (-1, 10 * g.MAX_SEGS, 2 ** 31 - 1):
        with pytest.raises(CoreArgumentError):
            g.board.ride_targets(bad)


def test_activating_cells_around_a_standing_scarecrow():
    """Seat 0's scarecrow on E at 0,1 (D below it); B at 1,1 and -1,1 leave one side of
    0,1 open: 0,2, the one cell whose tile activates the scarecrow (R-MM-8)."""
    g = mm(["E", "B", "B", "B"])
    assert g.board.activating_cells() == frozenset()
    place(g, 0, 1, 2, SCARECROW, "field Nw")
    assert g.board.activating_cells() == frozenset()  # one side: nothing yet
    place(g, 1, 1, 0)
    assert g.board.activating_cells() == frozenset()  # two sides
    place(g, -1, 1, 0)
    assert g.board.activating_cells() == {(0, 2)}
    place(g, 0, 2, 0)  # the activation: the scarecrow decision
    assert g.decision.kind == "scarecrow"
    g.apply("lie")  # a lying scarecrow is a farmer: it activates nothing any more
    assert g.board.activating_cells() == frozenset()


def test_activating_cells_around_a_mayor_and_not_around_a_follower():
    """Seat 0's knight on G at 0,1, seat 1's mayor on N at 0,2; N at 1,2 and -1,2 leave
    0,3 open: the one cell whose tile activates the mayor (R-MM-2). The knight's tile
    never counts: only mayors and standing scarecrows activate."""
    g = mm(["G", "N", "N", "E", "E", "U"])
    place(g, 0, 1, 1, FOLLOWER, "city N")
    place(g, 0, 2, 2, MAYOR, "city E")
    place(g, 1, 2, 3)
    assert g.board.activating_cells() == frozenset()
    place(g, -1, 2, 0)
    assert g.board.activating_cells() == {(0, 3)}
    place(g, 0, 3, 0)
    assert g.decision.kind == "favour"
