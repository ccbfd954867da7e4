"""The Courier: rulings R-COU-1..5 with thank-you points worked out by hand."""

import pytest
from test_conformance import check_points_from_events

from sim.courier import CourierState, qualifying
from engine import new_game, python_state
from sim.view import view_of
from sim.game import stack_plan
from sim.messages import MessagesOptions
from sim.play import play
from sim.rules import Rules
from strategies import player


def cgame(stack, *, messages=None):
    expansions = ("courier",) + (("messages",) if messages else ())
    rules = Rules(expansions=expansions, messages=MessagesOptions(messages or "c3.1"))
    return new_game(rules, 0, stack=stack)


def place(g, x, y, rot, figure=None):
    t = g.catalogue.index[g.decision.tile]
    local = -1 if figure is None else g.catalogue.variant(t, rot).segment_at(figure)
    g.apply((x, y, rot, -1 if figure is None else 0, local))


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
    first, second = [f for f, _ in g.board.figures()]
    segs = {f: i.segment for f, i in g.board.figures()}
    state = CourierState(None, [(first, segs[first]), (second, segs[second])])
    assert qualifying(g.board, state)[0] == 0  # listed first: seat 0's highwayman
    state = CourierState(None, [(second, segs[second]), (first, segs[first])])
    assert qualifying(g.board, state)[0] == 1  # listed first: seat 1's monk, not the active seat's
    state = CourierState(None, [(first, segs[second])])  # a figure no longer where it was
    assert qualifying(g.board, state) is None


def test_r_cou_5_classic_thank_you_can_bring_a_message():
    g = cgame(["CO1", "U", "U"], messages="classic")
    python_state()
    g.msg.players[0].position = [3, 0]
    g.scores[0] = 3
    place(g, 1, 0, 0, "road E")
    assert g.decision.kind == "scoring_figure" and g.decision.info["source"] == "courier"
    g.apply("meeple")  # 3 + 2 = 5: a dark space after the thank-you's round of scoring
    assert g.decision.kind == "messages" and g.decision.seat == 0


def test_r_cou_5_c31_thank_you_goes_on_the_turn_figure_and_brings_nothing():
    g = cgame(["CO1", "U", "U"], messages="c3.1")
    python_state()
    g.msg.players[0].position = [3, 0]
    g.scores[0] = 3
    place(g, 1, 0, 0, "road E")
    g.apply("meeple")  # the first points of the turn choose its figure (R-MSG-N1)
    assert g.msg.players[0].position == [5, 0]
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

    def put(x, y, rot, kind=None, where=None):
        if g.decision.kind == "town_hall":
            g.apply("draw")
        t = g.catalogue.index[g.decision.tile]
        local = -1 if kind is None else g.catalogue.variant(t, rot).segment_at(where)
        g.apply((x, y, rot, -1 if kind is None else kind, local))

    put(0, 1, 2, 0, "city S")
    put(1, 1, 0, 1, "city W")
    put(1, 2, 2)
    put(2, 1, 0)
    put(1, 0, 0)  # surrounds the mayor's tile: the figure comes after step 1 (RULES.md 6)
    assert g.decision.kind == "favour" and g.decision.seat == 1
    g.apply(g.decision.choices[1])
    assert g.decision.kind == "figure" and g.decision.seat == 0
    g.apply((0, g.catalogue.variant(g.catalogue.index["U"], 0).segment_at("road E")))
    assert thank_yous(g) == [(1, 0, (0, 1), 2), (2, 1, (1, 1), 3), (5, 1, (0, 1), 4)]


def test_r_cou_4_a_zero_point_feature_still_moves_the_courier(monkeypatch):
    # no tile set here makes a road, city or monastery worth 0 in final scoring, so the
    # value is forced to 0: the Courier must move all the same
    import sim.courier
    python_state("replaces a function of the Python engine")
    monkeypatch.setattr(sim.courier, "thank_you_points", lambda board, seg: 0)
    g = cgame(["CO1", "U"])
    place(g, 1, 0, 0, "road E")
    assert thank_yous(g) == [(1, 0, (1, 0), 0)] and view_of(g).courier.at == (1, 0)


def test_r_cou_4_a_figure_that_left_does_not_lend_its_place_to_a_new_one():
    """Figure ids are reused: a highwayman placed this turn goes home, and the follower
    put on the same segment after another figure gets its id. The newcomer was placed
    last, so it must not inherit the first place in the turn's list (a favour does
    exactly this, R-MM-2)."""
    g = new_game(Rules(expansions=("courier", "mayors")), 0, stack=["CO1", "U"])
    python_state()
    if g.decision.kind == "town_hall":
        g.apply("draw")
    seg = 12 + g.catalogue.variant(g.catalogue.index["CO1"], 0).segment_at("road E")
    g.board.place(g.catalogue.index["CO1"], 1, 0, 0)  # the drawn copy, laid by hand
    knight = g.put_figure(0, 0, seg)
    other = g.put_figure(0, 0, 12 + g.catalogue.variant(g.catalogue.index["CO1"], 0).segment_at("field Nw"))
    g.return_figure(knight)
    newcomer = g.put_figure(0, 0, seg)
    assert newcomer == knight  # the id came back
    assert [f for f, _ in g.courier.moved_this_turn] == [other, newcomer]
