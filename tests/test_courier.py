"""The Courier: rulings R-COU-1..5 with thank-you points worked out by hand."""

import pytest
from test_conformance import check_points_from_events
from test_core_hygiene import Blob, game_layout  # noqa: F401 (the C save's layout, a fixture)

from engine import new_game
from sim.engine.view import view_of
from sim.engine.deal import stack_plan
from sim.expansions.messages import MessagesOptions
from sim.engine.play import play
from sim.engine.rules import Rules
from strategies import player


def cgame(stack, *, messages=None):
    expansions = ("courier",) + (("messages",) if messages else ())
    rules = Rules(expansions=expansions, messages=MessagesOptions(messages or "c3.1"))
    return new_game(rules, 0, stack=stack)


def place(g, x, y, rot, figure=None):
    t = g.catalogue.index[g.decision.tile]
    local = -1 if figure is None else g.catalogue.variant(t, rot).segment_at(figure)
    g.apply((x, y, rot, -1 if figure is None else 0, local))


def mm_place(g, x, y, rot, kind=None, where=None):
    """With Messengers & Mayors: draw (not the town hall), then place with `kind` on
    `where`."""
    if g.decision.kind == "town_hall":
        g.apply("draw")
    t = g.catalogue.index[g.decision.tile]
    local = -1 if kind is None else g.catalogue.variant(t, rot).segment_at(where)
    g.apply((x, y, rot, -1 if kind is None else kind, local))


def thank_yous(g):
    return [(e["turn"], e["seat"], tuple(e["at"]), e["points"]) for e in g.events if e["e"] == "courier"]


def test_r_cou_1_letter_tiles_are_shuffled_in():
    _, _, _, land = stack_plan(Rules(expansions=("courier",)))
    assert sorted(t for t in land if t.startswith("CO")) == ["CO1", "CO2", "CO3", "CO4", "CO5", "CO6"]
    assert len(land) == 71 + 6


def test_r_cou_2_3_letter_tile_then_next_to_the_courier():
    g = cgame(["CO1", "V", "U"])
    assert view_of(g).courier.at is None  # R-COU-2
    # CO1 (a straight road with a letter) at 1,0: seat 0's highwayman on D + CO1, open:
    # the Courier comes to 1,0 and seat 0 scores the road's final value, 2
    place(g, 1, 0, 0, "road E")
    assert thank_yous(g) == [(1, 0, (1, 0), 2)] and g.points[0]["courier"] == 2
    assert len(g.board.figures()) == 1  # the highwayman stays
    # seat 1's curve V at 1,-1, next to the Courier: its own 1-tile road scores 1
    place(g, 1, -1, 0, "road S")
    assert thank_yous(g)[1] == (2, 1, (1, -1), 1) and view_of(g).courier.at == (1, -1)


def test_r_cou_3_no_thank_you_for_a_farmer_or_a_completed_feature():
    g = cgame(["CO1", "U"])
    place(g, 1, 0, 0, "field Nw")  # a farmer on a letter tile: fields never complete
    assert thank_yous(g) == []
    g = cgame(["A", "E", "CO2", "U"])
    place(g, -1, 0, 3)  # A closes D's road to the west
    place(g, 0, 1, 2)
    place(g, 1, 0, 0, "road W")  # CO2's west arm completes the road: scored, back home
    assert [e["feature"] for e in g.events if e["e"] == "score"][-1] == "road"
    assert thank_yous(g) == []


def test_r_cou_4_the_first_qualifying_meeple_wins():
    g = cgame(["CO1", "CO6", "U"])
    place(g, 1, 0, 0, "road E")  # thank-you to 1,0
    place(g, 0, -1, 0, "monastery")  # seat 1's monk on the letter tile CO6 (a monastery)
    assert thank_yous(g)[-1] == (2, 1, (0, -1), 1 + 2)  # D and CO1 around it
    # Two qualifying meeples in one turn, with Messengers & Mayors: seat 1's messenger
    # on A r3 at -1,0 (road E into D); on turn 5 seat 0's letter tile CO2 at 1,0 (a
    # village) completes that road (A + D + CO2, 3 to seat 1), and the messenger rides
    # on to CO2's open east road (1 tile). If seat 0 put a knight on CO2's open city
    # (1 tile), placed in step 2 before the ride of step 3, the knight is listed first
    # and seat 0 gets the thank-you; without it the rider, seat 1's in seat 0's turn,
    # does: the first listed wins, whoever owns it. (B at 0,-1 and -1,-1 and E at 0,1
    # fill the other turns.) A figure listed but gone home since gets nothing:
    # test_r_cou_3 (the completed road's highwayman).
    for knight, want in ((True, (5, 0, (1, 0), "city N", 1)), (False, (5, 1, (1, 0), "road E", 1))):
        g = new_game(Rules(expansions=("mayors", "courier")), 0, stack=["B", "A", "E", "B", "CO2", "U"])
        for move in ((0, -1, 0), (-1, 0, 3, 2, "road E"), (0, 1, 2), (-1, -1, 0),
                     (1, 0, 0, 0, "city N") if knight else (1, 0, 0)):
            mm_place(g, *move)
        assert [e["points"] for e in g.events if e["e"] == "score" and e["feature"] == "road"] == [3]
        d = g.decision
        assert (d.kind, d.seat) == ("ride", 1)
        g.apply(5 * 12 + g.catalogue.variant(g.catalogue.index["CO2"], 0).segment_at("road E"))
        assert [(e["turn"], e["seat"], tuple(e["at"]), e["where"], e["points"])
                for e in g.events if e["e"] == "courier"] == [want]


def test_r_cou_5_classic_thank_you_can_bring_a_message():
    g = cgame(["CO1", "U", "U"], messages="classic")
    g.set_scoreboard(0, 3, 0)
    place(g, 1, 0, 0, "road E")
    assert g.decision.kind == "scoring_figure" and g.decision.info["source"] == "courier"
    g.apply("meeple")  # 3 + 2 = 5: a dark space after the thank-you's round of scoring
    assert g.decision.kind == "messages" and g.decision.seat == 0


def test_r_cou_5_c31_thank_you_goes_on_the_turn_figure_and_brings_nothing():
    g = cgame(["CO1", "U", "U"], messages="c3.1")
    g.set_scoreboard(0, 3, 0)
    place(g, 1, 0, 0, "road E")
    g.apply("meeple")  # the first points of the turn choose its figure (R-MSG-N1)
    assert view_of(g).messages.seats[0].position == (5, 0)
    assert g.decision.kind == "place" and g.decision.seat == 1  # no message (R-MSG-N3)


def test_aiming_for_the_courier_and_games_with_it():
    aim, ignore = player("greedy(courier=3.0)"), player("greedy")
    got = {"aim": 0, "ignore": 0}
    for seed in range(30):
        rules = Rules(expansions=("courier", "messages"))
        for order in ((aim, ignore), (ignore, aim)):
            g = play(new_game(rules, seed), list(order))
            for s, p in enumerate(order):
                got["aim" if p is aim else "ignore"] += g.points[s]["courier"]
    assert got["aim"] > got["ignore"]  # aiming earns more thank-you points


@pytest.mark.parametrize("spec", ["random", "greedy(courier=2.0)", "first"])
def test_courier_games_end_with_points_accounted(spec):
    for seed in range(40):
        rules = Rules(players=2 + seed % 3, expansions=("courier", "messages", "river", "mayors"))
        g = play(new_game(rules, seed), [player(spec)] * (2 + seed % 3))
        check_points_from_events(g)  # thank-you points included, from the courier events
        # R-COU-3: at most one thank-you a turn
        turns = [e["turn"] for e in g.events if e["e"] == "courier"]
        assert len(turns) == len(set(turns))


def test_r_cou_4_a_favours_follower_comes_first_even_for_the_other_seat():
    """With Messengers & Mayors. Turn 1: seat 0's knight on the letter tile CO3 at 0,1
    (city D + CO3, open): the Courier comes, 2 points. Turn 2: seat 1's mayor joins the
    city on N at 1,1, next to the Courier: 3 points (3 tiles). Turn 5: seat 0's U at 1,0
    surrounds the mayor's tile: in phase 1 seat 1's favour puts its follower in place of
    seat 0's knight on CO3, in phase 2 seat 0's highwayman goes on U (next to the Courier
    too). The favour's follower was placed first: seat 1 gets the thank-you, the city's 4
    tiles, in seat 0's turn."""
    g = new_game(Rules(expansions=("mayors", "courier")), 0, stack=["CO3", "N", "N", "B", "U", "E"])

    mm_place(g, 0, 1, 2, 0, "city S")
    mm_place(g, 1, 1, 0, 1, "city W")
    mm_place(g, 1, 2, 2)
    mm_place(g, 2, 1, 0)
    mm_place(g, 1, 0, 0)  # surrounds the mayor's tile: the figure comes after step 1 (RULES.md 6)
    assert g.decision.kind == "favour" and g.decision.seat == 1
    g.apply(g.decision.choices[1])
    assert g.decision.kind == "figure" and g.decision.seat == 0
    g.apply((0, g.catalogue.variant(g.catalogue.index["U"], 0).segment_at("road E")))
    assert thank_yous(g) == [(1, 0, (0, 1), 2), (2, 1, (1, 1), 3), (5, 1, (0, 1), 4)]


def test_r_cou_4_a_figure_that_left_does_not_lend_its_place_to_a_new_one():
    """Figure ids are reused: a knight placed this turn goes home, and the follower a
    favour puts on its very segment gets its id (R-MM-2). The newcomer was placed
    last, so it must not inherit the knight's first place in the turn's list.

    Classic Messages with Messengers & Mayors, extra_tile on top of the deck, seat 0's
    meeple on 2. Seat 0's messenger on A r3 at -1,0 (road E into D); seat 1's mayor on
    N r2 at 0,1 (city S into D's, and E); B at -1,1 and 0,2 fill in three sides of
    0,1. Turn 5, seat 0: the letter tile CO2 at 1,0 with a knight on its city N (listed
    first), completing the road A + D + CO2: 3 points, 2 + 3 = 5, dark; the messenger
    rides on to CO2's east road (listed second); extra_tile. The extra tile T r3 at 1,1
    (city W, N, S) joins D's city with CO2's and surrounds 0,1: seat 1's favour
    replaces the knight with its own follower, which gets the knight's id on the
    knight's segment. Phase 4: the knight left, so the rider is first: seat 0's
    thank-you for CO2's 1-tile east road (the newcomer would have taken the city's 4:
    D, N, T, CO2)."""
    rules = Rules(expansions=("mayors", "courier", "messages"),
                  messages=MessagesOptions("classic", False, ("extra_tile",)))
    g = new_game(rules, 0, stack=["A", "N", "B", "B", "CO2", "T", "U"])
    g.set_scoreboard(0, 2, 0)

    mm_place(g, -1, 0, 3, 2, "road E")
    mm_place(g, 0, 1, 2, 1, "city S")
    mm_place(g, -1, 1, 0)
    mm_place(g, 0, 2, 0)
    mm_place(g, 1, 0, 0, 0, "city N")
    knight = next(f for f, i in g.board.figures() if i.kind == 0)
    g.apply("meeple")
    assert g.decision.kind == "ride" and g.decision.seat == 0
    g.apply(5 * 12 + g.catalogue.variant(g.catalogue.index["CO2"], 0).segment_at("road E"))
    g.apply(("extra_tile", None))
    g.apply("draw")  # the extra tile, not the town hall
    mm_place(g, 1, 1, 3)
    assert g.decision.kind == "favour" and g.decision.choices == ("none", knight)
    g.apply(knight)
    g.apply((-1, -1))  # seat 0's figure for T, asked after the favour: none
    newcomer = g.board.figure(knight)
    assert (newcomer.player, newcomer.kind) == (1, 0)  # the id came back, same segment
    assert [(e["turn"], e["seat"], tuple(e["at"]), e["where"], e["points"])
            for e in g.events if e["e"] == "courier"] == [(6, 0, (1, 0), "road E", 1)]


def test_r_cou_4_a_favour_in_the_owners_own_turn_lists_its_follower_once(game_layout):
    """R-COU-4 lists each meeple placed or moved this turn once, in that order; R-MM-2's
    favour puts the mayor's owner's follower down in place of the one it replaces.
    The test above's turns with 3 seats, so that the favour falls in its owner's own
    turn: turn 1 seat 0's knight on CO3 at 0,1; turn 2 seat 1's mayor on N at 1,1;
    turn 3 seat 2's N at 1,2; turn 4 seat 0's B at 2,1; turn 5 seat 1's U at 1,0
    surrounds the mayor's tile, and seat 1's favour replaces seat 0's knight with its
    own follower. Before its figure is asked, the turn's list (read from the C save)
    holds that follower once: the core recorded it twice, as put down by the active
    seat and again as the favour's."""
    import struct

    from sim.core import CoreArgumentError
    from sim.engine.game import _load

    g = new_game(Rules(players=3, expansions=("mayors", "courier")), 0,
                 stack=["CO3", "N", "N", "B", "U", "E"])
    mm_place(g, 0, 1, 2, 0, "city S")
    mm_place(g, 1, 1, 0, 1, "city W")
    mm_place(g, 1, 2, 2)
    mm_place(g, 2, 1, 0)
    knight = next(f for f, i in g.board.figures() if i.player == 0)
    mm_place(g, 1, 0, 0)
    assert (g.decision.kind, g.decision.seat, g.turn) == ("favour", 1, 5)  # its owner's turn
    g.apply(knight)
    assert (g.decision.kind, g.decision.seat) == ("figure", 1)
    follower = [f for f, i in g.board.figures() if i.player == 1]
    assert len(follower) == 1 and g.board.figure(follower[0]).kind == 0  # the mayor went home

    blob = Blob(g)
    blob.load()  # the state as it is loads
    data = blob.data
    get = lambda field, n=1: struct.unpack_from(f"<{n}i", data, 16 + game_layout[field])  # noqa: E731
    (nmoved,) = get("courier.nmoved")
    assert list(get("courier.moved_fig", nmoved)) == follower  # R-COU-4: once
    # the state the core made, the follower listed twice, is one a load refuses
    seg = get("courier.moved_seg")[0]
    struct.pack_into("<i", data, 16 + game_layout["courier.nmoved"], 2)
    struct.pack_into("<2i", data, 16 + game_layout["courier.moved_fig"], *follower * 2)
    struct.pack_into("<2i", data, 16 + game_layout["courier.moved_seg"], seg, seg)
    with pytest.raises(CoreArgumentError, match="cc_game_load"):
        _load(g.rules, g.seed, bytes(data))
    # played on: the highwayman on U comes second; the follower, first, gets the
    # thank-you for the city (D, CO3, N, N: 4 tiles), in its owner's turn
    g.apply((0, g.catalogue.variant(g.catalogue.index["U"], 0).segment_at("road E")))
    assert thank_yous(g)[-1] == (5, 1, (0, 1), 4)
