"""Messengers & Mayors: rulings R-MM-1..13 with outcomes worked out by hand.

Boards are built through the game API (where a case needs it, a seat's scoreboard or
supply is set up with Game.set_scoreboard / set_supply). Every turn of a player who
still holds the town hall starts with a `town_hall` decision; `place` answers it with
"draw".
Figure kind codes: 0 follower, 1 mayor, 2 messenger, 3 scarecrow.
"""

import pytest

from sim.core import ffi
from sim.engine.board import Board
from engine import new_game, place
from sim.engine.view import view_of
from sim.engine.deal import catalogue_for
from sim.engine.play import play
from sim.expansions.messages import MessagesOptions
from sim.engine.rules import Rules
from strategies import player

FOLLOWER, MAYOR, MESSENGER, SCARECROW = range(4)



def held(g):
    """Messengers & Mayors: each seat's figures in supply and town hall (the view)."""
    return view_of(g).mayors.seats

def mm(stack, players=2, extra=()):
    return new_game(Rules(players=players, expansions=("mayors",) + tuple(extra)), 0, stack=stack)


def offered(g, x, y, rot, where):
    """Figure kinds offered on `where` of the drawn tile at (x, y, rot)."""
    if g.decision.kind == "town_hall":
        g.apply("draw")
    t = g.catalogue.index[g.decision.tile]
    local = g.catalogue.variant(t, rot).segment_at(where)
    return sorted(c[3] for c in g.decision.choices if c[:3] == (x, y, rot) and c[4] == local)


def figures(g):
    return sorted((i.player, i.kind, g.board.segment_place(i.segment)[:2]) for _, i in g.board.figures())


def scored(g):
    return [(e["feature"], e["points"], e["winners"]) for e in g.events if e["e"] == "score"]


def test_r_mm_1_3_4_mayor_on_a_city_scores_alone_and_goes_home():
    g = mm(["M", "E", "U"])
    place(g, 0, 1, 2, MAYOR, "city S")  # seat 0's mayor: D + M, 1 coat, open east
    # the city holds a mayor: occupied for followers, but seat 1 could add its mayor
    assert offered(g, 1, 1, 3, "city W") == [MAYOR]
    place(g, 1, 1, 3)  # seat 1's E closes it: 3 tiles + 1 coat = 8
    assert scored(g) == [("city", 8, [0])]  # R-MM-4: strength 0, nobody has more
    assert held(g)[0].mayor == 1  # R-MM-3: home after scoring


def test_r_mm_4_two_mayors_share_and_a_follower_beats_them():
    # G (band) and E (cap) hold one figure each; two N join them: D, G, N, N, E = 10
    for first, second, winners in ((MAYOR, MAYOR, [0, 1]), (FOLLOWER, MAYOR, [0])):
        g = mm(["G", "E", "N", "N", "U"])
        place(g, 0, 1, 1, first, "city N")
        place(g, 1, 1, 0, second, "city N")
        place(g, 0, 2, 2)
        place(g, 1, 2, 3)
        assert scored(g) == [("city", 10, winners)], (first, second)


def surround_mayor(choice):
    """Seat 0's knight on G at 0,1; seat 1's mayor joins that city on N at 0,2; three
    more tiles surround 0,2 on turn 5: seat 1's favour."""
    g = mm(["G", "N", "N", "E", "E", "U"])
    place(g, 0, 1, 1, FOLLOWER, "city N")
    place(g, 0, 2, 2, MAYOR, "city E")  # on an occupied city (R-MM-1)
    place(g, 1, 2, 3)
    place(g, -1, 2, 0)
    place(g, 0, 3, 0)  # 0,2 now has tiles on all four sides
    d = g.decision
    assert d.kind == "favour" and d.seat == 1
    knight = next(f for f, i in g.board.figures() if i.player == 0 and i.kind == FOLLOWER)
    assert d.choices == ("none", knight)
    g.apply(knight if choice == "replace" else "none")
    return g


def test_r_mm_2_favour_replaces_the_opponents_follower():
    g = surround_mayor("replace")
    assert figures(g) == [(1, FOLLOWER, (0, 1))]  # seat 1's knight where seat 0's stood
    assert g.supply == [7, 6] and held(g)[1].mayor == 1  # the mayor went home
    assert g.result()["players"][1]["mayors"]["favours"] == 1


def test_r_mm_2_the_mayor_goes_home_without_a_favour_too():
    g = surround_mayor("none")
    assert figures(g) == [(0, FOLLOWER, (0, 1))]
    assert held(g)[1].mayor == 1


def test_r_mm_5_6_messenger_rides_to_a_road_at_the_same_village():
    g = mm(["W", "A", "U"])
    assert offered(g, 1, 0, 0, "road W") == [FOLLOWER, MESSENGER]
    g.apply((1, 0, 0, MESSENGER, g.catalogue.variant(g.catalogue.index["W"], 0).segment_at("road W")))
    place(g, -1, 0, 3)  # seat 1's A closes the road at its monastery: A + D + W = 3
    assert scored(g) == [("road", 3, [0])]
    d = g.decision
    assert d.kind == "ride" and d.seat == 0
    w = g.catalogue.variant(g.catalogue.index["W"], 0)
    east, south = 12 + w.segment_at("road E"), 12 + w.segment_at("road S")  # W is tile 1
    assert d.choices == ("return", east, south)  # the other roads ending at the village
    g.apply(east)
    assert figures(g) == [(0, MESSENGER, (1, 0))]
    assert g.board.feature(east).figures == 1 and g.result()["players"][0]["mayors"]["rides"] == 1


def test_r_mm_6_messenger_rides_into_the_city_at_the_gate():
    g = mm(["T", "A", "U"])
    t = g.catalogue.variant(g.catalogue.index["T"], 1)  # road W ends at the city gate
    place(g, 1, 0, 1, MESSENGER, "road W")
    place(g, -1, 0, 3)
    city = 12 + t.segment_at("city N")
    assert g.decision.choices == ("return", city)  # the incomplete city the road ends in
    g.apply(city)
    counts, strengths = g.board.strength(city)
    assert (counts[0], strengths[0]) == (1, 1)  # strength 1 in the city


def test_r_mm_6_never_into_a_completed_feature_and_home_on_request():
    g = mm(["W", "A", "A", "U"])
    w = g.catalogue.variant(g.catalogue.index["W"], 0)
    place(g, 1, 0, 0, MESSENGER, "road W")
    place(g, 2, 0, 1)  # seat 1's A closes the village's east arm (2 tiles, nobody on it)
    place(g, -1, 0, 3)  # seat 0 closes the messenger's road
    assert g.decision.choices == ("return", 12 + w.segment_at("road S"))  # not the east arm
    g.apply("return")
    assert held(g)[0].messenger == 1 and not g.board.figures()


def test_r_mm_6_several_messengers_ride_clockwise_from_the_active_seat():
    """Seat 0's messenger on W's west road at 1,0 (W + D, open west); seat 1's on A r2
    at -1,-1 (road N, open). Seat 1's curve V r3 at -1,0 joins the two roads and
    completes them: A + V + D + W = 4 tiles, both strength 1, both score 4. (B at 0,-1
    holds A up; seat 0's B at 1,1 and 0,-2 fill its turns, off every road.)"""
    g = mm(["W", "B", "B", "A", "B", "V", "U"])
    place(g, 1, 0, 0, MESSENGER, "road W")
    place(g, 0, -1, 0)
    place(g, 1, 1, 0)
    place(g, -1, -1, 2, MESSENGER, "road N")  # seat 1's messenger on its own road
    place(g, 0, -2, 0)
    place(g, -1, 0, 3)  # seat 1 completes the joined road
    assert scored(g) == [("road", 4, [0, 1])]
    assert (g.decision.kind, g.decision.seat) == ("ride", 1)  # the active seat first
    g.apply("return")
    assert (g.decision.kind, g.decision.seat) == ("ride", 0)


def test_r_mm_6_rides_into_an_occupied_city():
    """Seat 0's messenger on T's road W at 1,0 (T r1: the road enters the city N, E, S
    at its gate); seat 1's knight on E r2 at 1,1, which joins T's city; seat 1's A at
    -1,0 closes the road (A + D + T). The messenger may ride into the city though a
    knight holds it: to either of its segments, T's or E's."""
    g = mm(["T", "E", "B", "A", "U"])
    t = g.catalogue.variant(g.catalogue.index["T"], 1)
    e = g.catalogue.variant(g.catalogue.index["E"], 2)
    place(g, 1, 0, 1, MESSENGER, "road W")
    place(g, 1, 1, 2, FOLLOWER, "city S")  # board index 2
    place(g, 0, -1, 0)
    place(g, -1, 0, 3)
    assert scored(g) == [("road", 3, [0])]
    assert g.decision.choices == ("return", 12 + t.segment_at("city N"), 2 * 12 + e.segment_at("city S"))


def riders(extra=(), crossing="X"):
    """Three seats. Seat 2's messenger on A r3 at -1,0 (road E into D, open east) and
    seat 0's on A r2 at 1,-1 (road N, open); seat 1's `crossing` at 1,0 (a village)
    completes both: the south road A + crossing (2, seat 0's) and the west road A + D +
    crossing (3, seat 2's). (B at 0,-1 holds A up; E at 0,1 closes D's city, empty.)"""
    g = mm(["B", "E", "A", "A", crossing], players=3, extra=extra)
    place(g, 0, -1, 0)  # seat 0
    place(g, 0, 1, 2)  # seat 1
    place(g, -1, 0, 3, MESSENGER, "road E")  # seat 2
    place(g, 1, -1, 2, MESSENGER, "road N")  # seat 0
    place(g, 1, 0, 0)  # seat 1: the crossing
    return g


def test_r_mm_6_r_cou_4_the_first_rider_clockwise_gets_the_thank_you():
    """As above with the Courier, the crossing being the letter tile CO2 (a village with
    roads E, S, W): seat 1's CO2 at 1,0 completes the south road (seat 0's messenger) and
    the west road (seat 2's). Both ride on to CO2's open east road, on a letter tile:
    seat 2 rides first (clockwise from seat 1), so seat 2's messenger is the first figure
    moved this turn and gets the thank-you, the east road's 1 tile (R-COU-3/4); road by
    road, seat 0 would have ridden first and got it."""
    g = riders(("courier",), "CO2")
    east = 5 * 12 + g.catalogue.variant(g.catalogue.index["CO2"], 0).segment_at("road E")
    for seat in (2, 0):
        assert (g.decision.kind, g.decision.seat) == ("ride", seat) and east in g.decision.choices
        g.apply(east)
    assert [(e["seat"], e["at"], e["points"]) for e in g.events if e["e"] == "courier"] == [(2, [1, 0], 1)]


def scarecrow_game(choice):
    """Seat 0's scarecrow on E's field at 0,1 (which borders the completed city D + E);
    three monasteries B surround 0,1 on turn 4."""
    g = mm(["E", "B", "B", "B"])
    place(g, 0, 1, 2, SCARECROW, "field Nw")
    # the field holds a scarecrow: occupied for farmers, open to scarecrows (R-MM-7)
    assert offered(g, 1, 1, 0, "field Nw") == [SCARECROW]
    place(g, 1, 1, 0)
    place(g, -1, 1, 0)
    place(g, 0, 2, 0)
    d = g.decision
    assert d.kind == "scarecrow" and d.seat == 0 and d.choices == ("farmer", "lie", "return")
    g.apply(choice)
    while g.decision is not None:  # R-MM-12: the town halls, then final scoring
        g.apply(g.decision.choices[0])
    return g


def test_rules_6_a_field_freed_in_step_1_takes_a_farmer_in_step_2():
    """RULES.md 6 with R-MM-8: seat 1's B at 0,2 surrounds seat 0's scarecrow at 0,1, so
    it is placed without a figure; seat 0 takes the scarecrow back in step 1, and only
    then does seat 1 choose its figure: the field (E's and B's, joined) is free again and
    may take a farmer, which the scarecrow had barred."""
    g = mm(["E", "B", "B", "B"])
    place(g, 0, 1, 2, SCARECROW, "field Nw")
    place(g, 1, 1, 0)
    place(g, -1, 1, 0)
    if g.decision.kind == "town_hall":
        g.apply("draw")
    b = g.catalogue.variant(g.catalogue.index["B"], 0)
    field, monastery = b.segment_at("field Nw"), b.segment_at("monastery")
    assert {c[3] for c in g.decision.choices if c[:2] == (0, 2)} == {-1}
    g.apply((0, 2, 0, -1, -1))
    assert (g.decision.kind, g.decision.seat) == ("scarecrow", 0)
    g.apply("return")
    d = g.decision
    assert (d.kind, d.seat, d.tile) == ("figure", 1, "B")
    # none; then by segment (B's field, then its monastery) and figure kind: a farmer or
    # seat 1's own scarecrow on the field, a monk
    assert d.choices == ((-1, -1), (FOLLOWER, field), (SCARECROW, field), (FOLLOWER, monastery))
    g.apply((FOLLOWER, field))
    assert figures(g) == [(1, FOLLOWER, (0, 2))]
    assert "figure_lost" not in {e["e"] for e in g.events}


def test_greedy_values_the_figure_chosen_after_step_1():
    """The position of the test above, seat 1 to choose, no tile left (a follower costs
    nothing): a farmer is worth 3 (the field borders the completed city D + E), a monk 4
    (B and its 3 neighbours), a standing scarecrow 0. Greedy takes the monk; with the
    monastery weighted 0.5 (2 points) the farmer."""
    for spec, want in (("greedy", "monastery"), ("greedy(monastery=0.5)", "field Nw")):
        g = mm(["E", "B", "B", "B"])
        place(g, 0, 1, 2, SCARECROW, "field Nw")
        place(g, 1, 1, 0)
        place(g, -1, 1, 0)
        place(g, 0, 2, 0)
        g.apply("return")
        b = g.catalogue.variant(g.catalogue.index["B"], 0)
        assert player(spec).choose(g, g.decision) == (FOLLOWER, b.segment_at(want)), spec


def test_rules_6_a_lying_scarecrow_still_bars_the_farmer():
    g = mm(["E", "B", "B", "B"])
    place(g, 0, 1, 2, SCARECROW, "field Nw")
    place(g, 1, 1, 0)
    place(g, -1, 1, 0)
    place(g, 0, 2, 0)
    g.apply("lie")  # a farmer of strength 1 now: the field stays occupied
    b = g.catalogue.variant(g.catalogue.index["B"], 0)
    assert g.decision.kind == "figure" and (FOLLOWER, b.segment_at("field Nw")) not in g.decision.choices
    assert (FOLLOWER, b.segment_at("monastery")) in g.decision.choices


def test_r_mm_6_rides_go_clockwise_across_roads():
    """Seat 1's crossroads X at 1,0 completes two roads at once (riders above): its
    south road with A at 1,-1 (seat 0's messenger), scored first, and A at -1,0 + D +
    its west road (seat 2's messenger). Both may ride on to X's open roads. Clockwise
    from seat 1: seat 2's ride first, then seat 0's (road by road would give seat 0
    first)."""
    g = riders()
    assert [(f, p, w) for f, p, w in scored(g) if f == "road"] == [("road", 2, [0]), ("road", 3, [2])]
    assert (g.decision.kind, g.decision.seat) == ("ride", 2)
    g.apply("return")
    assert (g.decision.kind, g.decision.seat) == ("ride", 0)


def test_r_mm_8_lying_scarecrow_is_a_farmer():
    g = scarecrow_game("lie")
    assert (0, SCARECROW, (0, 1)) in figures(g)
    assert g.over and g.points[0]["field"] == 3  # the field borders one completed city
    # R-MSG-10: message 7 counts it as a farmer. The scarecrow game with The Messages
    # and a road of seat 0's: its highwayman on A r1 at 1,0 (road W into D), closed by
    # its A r3 at -1,0 on turn 7: A + D + A, 3 points from 2: 5, dark (B at 0,-1
    # fills seat 1's turn 6). No farmer of seat 0 on the board, the lying scarecrow:
    # 2 points.
    rules = Rules(expansions=("mayors", "messages"), messages=MessagesOptions("c3.1", False, ("per_farmer",)))
    g = new_game(rules, 0, stack=["E", "B", "A", "B", "B", "B", "A", "U"])
    g.set_scoreboard(0, 2, 0)
    place(g, 0, 1, 2, SCARECROW, "field Nw")
    place(g, 1, 1, 0)
    place(g, 1, 0, 1, FOLLOWER, "road W")
    place(g, -1, 1, 0)
    place(g, 0, 2, 0)  # seat 0's own B surrounds its scarecrow
    assert (g.decision.kind, g.decision.seat) == ("scarecrow", 0)
    g.apply("lie")
    g.apply((-1, -1))  # then its figure for that B (RULES.md 6): none
    place(g, 0, -1, 0)
    place(g, -1, 0, 3)
    assert scored(g)[-1] == ("road", 3, [0])
    g.apply("meeple")
    d = g.decision
    assert d.kind == "messages" and d.info["action"] == "per_farmer"
    assert dict(zip(d.choices, d.info["points"]))[("per_farmer", None)] == 2


def test_r_mm_8_scarecrow_replaced_by_a_farmer():
    g = scarecrow_game("farmer")
    assert (0, FOLLOWER, (0, 1)) in figures(g) and held(g)[0].scarecrow == 1
    assert g.points[0]["field"] == 3


def test_r_mm_9_standing_scarecrow_never_scores():
    g = mm(["E"])
    place(g, 0, 1, 2, SCARECROW, "field Nw")
    while g.decision is not None:  # R-MM-12: the town halls still go down
        g.apply(g.decision.choices[0])
    assert g.points[0]["field"] == 0
    assert [e for e in scored(g) if e[0] == "field"] == [("field", 3, [])]


def test_r_mm_10_13_town_hall_completes_a_road_and_a_city():
    g = mm(["U", "M", "A", "E"])
    place(g, 1, 0, 0, FOLLOWER, "road E")  # seat 0: D + U, open at -1,0 and 2,0
    place(g, 0, 1, 2, FOLLOWER, "city S")  # seat 1: D + M, 1 coat, open at 1,1
    place(g, -1, 0, 3)  # seat 0's A closes the road's west end
    assert g.decision.kind == "town_hall" and g.decision.seat == 1
    g.apply((1, 1))  # seat 1 closes its city: 2 tiles + 1 coat = 6 (R-MM-13)
    assert scored(g)[-1] == ("city", 6, [1])
    assert g.decision.kind == "town_hall" and (2, 0) in g.decision.choices
    g.apply((2, 0))  # seat 0 closes the road's east end: A + D + U = 3, not the hall
    assert scored(g)[-1] == ("road", 3, [0])
    assert (g.result()["players"][1]["mayors"]["town_hall_turn"], g.result()["players"][0]["mayors"]["town_hall_turn"]) == (4, 5)
    th = g.catalogue.index["townhall"]
    assert not [i for _, i in g.board.figures() if g.board.tile(i.segment // 12)[0] == th]


def test_r_mm_10_monastery_completed_with_a_town_hall_scores_8():
    g = mm(["B", "U", "U", "E", "E", "E", "E", "E"])
    place(g, 0, -1, 0, FOLLOWER, "monastery")
    place(g, -1, 0, 0)
    place(g, 1, 0, 0)
    place(g, -1, -1, 3)
    place(g, 1, -1, 1)
    place(g, 0, -2, 2)
    place(g, -1, -2, 3)
    assert g.decision.kind == "town_hall" and g.decision.seat == 1
    g.apply((1, -2))  # the eighth neighbour is a town hall
    assert scored(g)[-1] == ("monastery", 8, [0])


def monastery_beside_a_town_hall(action):
    """Classic Messages, the Courier, `action` on top of the deck, seat 0's meeple on
    2. Seat 0's U at 1,0; seat 1's town hall at 1,-1; seat 0's monk on the letter
    monastery CO6 at 0,-1, beside the hall. The monastery's tiles: its own, D at 0,0
    and U; the town hall adds nothing: 3 (4 if the hall counted). Placed on a letter
    tile, the monk gets the Courier's thank-you: the monastery's 3 (R-COU-3), onto the
    meeple: 5, a dark space after that round of scoring (R-COU-5): `action` is drawn."""
    rules = Rules(expansions=("mayors", "messages", "courier"),
                  messages=MessagesOptions("classic", False, (action,)))
    g = new_game(rules, 0, stack=["U", "CO6", "E"])
    g.set_scoreboard(0, 2, 0)
    place(g, 1, 0, 0)
    assert g.decision.kind == "town_hall" and g.decision.seat == 1
    g.apply((1, -1))
    place(g, 0, -1, 0, FOLLOWER, "monastery")
    assert g.decision.kind == "scoring_figure" and g.decision.info["source"] == "courier"
    g.apply("meeple")
    monk = next(f for f, i in g.board.figures() if i.player == 0)
    return g, monk, g.board.figure(monk).segment


def test_r_mm_10_a_town_hall_counts_in_no_monastery_value():
    # message 3 (smallest monastery), message 8 and the Courier's thank-you: 3 each
    for action in ("smallest_monastery", "score_and_return"):
        g, monk, seg = monastery_beside_a_town_hall(action)
        assert g.board.feature(seg).tiles == 3  # 1 + D + U (4 if the hall counted)
        assert [e["points"] for e in g.events if e["e"] == "courier"] == [3]
        d = g.decision
        assert d.kind == "messages" and d.info["action"] == action
        target = g.board.find(seg) if action == "smallest_monastery" else monk
        assert dict(zip(d.choices, d.info["points"]))[(action, target)] == 3


def test_r_mm_10_greedy_values_a_monastery_without_its_town_hall():
    """On the C board: a monastery with 7 neighbours, one a town hall, is worth 7 (weight
    0.5: 3.5) before and 8 when the eighth tile completes it, a gain of 4.5 to its monk
    (9 - 0.5 * 8 = 5 if the hall counted)."""
    cat = catalogue_for(Rules(expansions=("mayors",)))
    board = Board(cat, 16)
    for tile, x, y in (("D", 0, 0), ("B", 0, -1), ("U", 1, 0), ("U", -1, 0), ("townhall", 1, -1),
                       ("B", -1, -1), ("B", -1, -2), ("B", 0, -2)):
        board.place(cat.index[tile], x, y, 0)
    seg = 1 * 12 + cat.types[cat.index["B"]].segment_at("monastery")
    board.add_figure(0, FOLLOWER, 1, seg)
    assert board.feature(seg).tiles == 7 and not board.feature(seg).complete
    params = ffi.new("cc_greedy_params *", {"player": 0, "nplayers": 2, "opponent_weight": 0.0,
                                            "follower_value": 0.0})
    params.open_weight = (1.0, 1.0, 1.0, 0.5)  # city, road, field, monastery
    rows, values = board.turn_options(cat.index["E"], (), params)
    assert dict(zip(rows, values))[(1, -2, 0, -1, -1)] == pytest.approx(4.5)
    board.place(cat.index["E"], 1, -2, 0)
    f = board.feature(seg)
    assert f.complete and board.value(seg, final=False) == 8


def test_r_mm_11_crisis_meeting():
    g = mm(["N", "E", "U"])
    place(g, 0, 1, 2, MAYOR, "city S")  # seat 0's mayor at 0,1
    assert g.decision.kind == "town_hall"
    g.apply((1, 1))  # seat 1's town hall next to the mayor's tile
    assert not g.board.figures() and held(g)[0].mayor == 1
    assert [e["e"] for e in g.events if e["e"] in ("crisis", "favour")] == ["crisis"]


def test_r_mm_12_the_game_ends_when_every_town_hall_is_placed():
    g = mm(["U"], players=3)
    g.apply("draw")
    place(g, 1, 0, 0)
    seats = []
    while g.decision is not None:
        assert g.decision.kind == "town_hall" and "draw" not in g.decision.choices
        seats.append(g.decision.seat)
        g.apply(g.decision.choices[0])
    assert seats == [1, 2, 0] and g.over
    assert all(not p.town_hall for p in held(g))


def test_r_mm_12_with_the_courier_the_last_draw_failing_forces_the_town_hall_that_turn():
    """Seat 1 draws C, which fits nowhere (D's only city edge is closed by E): with no
    tile left it must place its town hall in that same turn 2, before seat 0's."""
    g = new_game(Rules(expansions=("mayors", "courier")), 0, stack=["E", "C"])
    place(g, 0, 1, 2)
    assert (g.decision.kind, g.decision.seat) == ("town_hall", 1) and "draw" in g.decision.choices
    g.apply("draw")
    assert [e["tile"] for e in g.events if e["e"] == "discard"] == ["C"]
    d = g.decision
    assert (d.kind, d.seat) == ("town_hall", 1) and "draw" not in d.choices
    g.apply(d.choices[0])
    assert g.result()["players"][1]["mayors"]["town_hall_turn"] == 2


def test_no_town_hall_while_the_river_flows():
    g = new_game(Rules(expansions=("mayors", "river")), 3)
    kinds = []
    while view_of(g).river.end is not None:
        kinds.append(g.decision.kind)
        g.apply(g.decision.choices[0])
    assert "town_hall" not in kinds
    assert g.decision.kind == "town_hall"  # the first turn after the lake


def message_8_after(stack, first_moves, closing_from):
    """Messengers & Mayors with c3.1's message 8 on top of the deck: `first_moves` in
    turn order from seat 0's, then seat 0's highwayman on A r3 at -1,0 (road E into
    D), seat 1's B at -1,-1, and seat 0's A r1 at `closing_from` closes the road:
    A + D (+ U) + A, 3 or 4 points, from 5 less that: 5, dark (R-MSG-N2)."""
    rules = Rules(expansions=("mayors", "messages"), messages=MessagesOptions("c3.1", False, ("score_and_retrieve",)))
    g = new_game(rules, 0, stack=stack)
    g.set_scoreboard(0, 5 - (closing_from[0] + 2), 0)  # the road: -1 .. x, x + 2 tiles
    for move in first_moves:
        place(g, *move)
    place(g, -1, 0, 3, FOLLOWER, "road E")
    place(g, -1, -1, 0)
    place(g, *closing_from, 1)
    g.apply("meeple")
    d = g.decision
    assert d.kind == "messages" and d.info["action"] == "score_and_retrieve", d
    return g, d


def test_r_msg_10_message_8_on_a_standing_scarecrow_scores_nothing():
    """Seat 0's farmer on E at 0,1 and its standing scarecrow on B at 1,1 share the field
    next to the completed city D + E (3 points). Message 8 on the farmer scores the
    field; on the scarecrow it scores 0 (R-MSG-10: a standing scarecrow never holds the
    majority), though seat 0 holds the field. (Seat 0's road A + D + U + A closed on
    turn 7 brings the message, its highwayman home.)"""
    g, d = message_8_after(["E", "U", "B", "B", "A", "B", "A", "V"],
                           [(0, 1, 2, FOLLOWER, "field Nw"), (1, 0, 0), (1, 1, 0, SCARECROW, "field Nw"),
                            (0, -1, 0)], (2, 0))
    kinds = {f: i.kind for f, i in g.board.figures()}
    points = {kinds[fig]: p for (_, fig), p in list(zip(d.choices, d.info["points"]))[1:]}
    assert points == {FOLLOWER: 3, SCARECROW: 0}


def test_message_8_may_choose_a_mayor():
    """Seat 0's mayor on M r2 at 0,1: city D + M, open, 2 tiles + 1 coat = 3. (Seat 0's
    road A + D + A closed on turn 5 brings the message, its highwayman home.)"""
    g, d = message_8_after(["M", "B", "A", "B", "A", "U"], [(0, 1, 2, MAYOR, "city S"), (0, -1, 0)],
                           (1, 0))
    assert list(d.info["points"]) == [2, 3]  # the mayor alone holds D + M
    g.apply(d.choices[1])
    assert [e["points"] for e in g.events if e["e"] == "message"] == [3]
    assert held(g)[0].mayor == 1


@pytest.mark.parametrize("spec", ["random", "greedy", "first", "greedy(road_figure=\"messenger\")"])
def test_properties_with_everything_in_play(spec):
    for seed in range(60):
        n = 2 + seed % 3
        g = new_game(Rules(players=n, expansions=("mayors", "messages", "river", "courier")), seed)
        seats = [player(spec)] * n
        th = g.catalogue.index["townhall"]
        while g.decision is not None:
            g.apply(seats[g.decision.seat].choose(g, g.decision))
            on_board = [i for _, i in g.board.figures()]
            for p in range(n):  # every figure conserved, kind by kind
                assert g.supply[p] + sum(i.player == p and i.kind == FOLLOWER for i in on_board) == 7
                seat = held(g)[p]
                for k, left in ((MAYOR, seat.mayor), (MESSENGER, seat.messenger),
                                (SCARECROW, seat.scarecrow)):
                    assert left + sum(i.player == p and i.kind == k for i in on_board) == 1
            assert not [i for i in on_board if g.board.tile(i.segment // 12)[0] == th]
        assert g.over and all(not p.town_hall for p in held(g))


def test_scripted_town_halls_and_ride():
    from pathlib import Path

    from engine import play_script
    from sim.games.script import load_script
    scripts = Path(__file__).resolve().parent / "scripts"
    g = play_script(load_script(scripts / "mayors_town_halls.toml"))
    assert g.scores == [3, 6]
    assert [(e["turn"], e["seat"]) for e in g.events if e["e"] == "townhall"] == [(4, 1), (5, 0)]
    g = play_script(load_script(scripts / "mayors_ride.toml"))
    assert g.scores[0] == 4 and g.result()["players"][0]["mayors"]["rides"] == 1
    assert g.result()["players"][0]["mayors"]["ride_points"] == 1


def test_scripted_mayors_errors(tmp_path):
    from pathlib import Path

    from sim.errors import InputError
    from engine import play_script
    from sim.games.script import load_script
    text = (Path(__file__).resolve().parent / "scripts" / "mayors_ride.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('ride = "road E @1,0"', 'ride = "road E @5,5"'))
    with pytest.raises(InputError, match=r"turn 2: ride = 'road E @5,5': not among the legal targets"):
        play_script(load_script(bad))
    bad.write_text(text.replace('tile = "A"\nat = [-1, 0]', 'tile = "townhall"\nat = [9, 9]'))
    with pytest.raises(InputError, match=r"turn 2: .*town hall"):
        play_script(load_script(bad))


def test_scripted_figure_with_nowhere_to_go_after_step_1_is_an_error(tmp_path):
    """Seat 1 (its followers used up, its scarecrow already out) names a monk for B at
    0,2, which surrounds seat 0's scarecrow: after the activation it can place nothing,
    so the step-2 decision never comes, and the script's figure must not vanish."""
    from sim.errors import InputError
    from sim.engine.play import play
    from sim.games.script import _ScriptPlayer, load_script
    turns = [("E", 0, 1, 2, "scarecrow field Nw"), ("B", 1, 1, 0, "scarecrow field Nw"),
             ("B", -1, 1, 0, None), ("B", 0, 2, 0, "follower monastery")]
    body = "".join(f'[[turns]]\ntile = "{t}"\nat = [{x}, {y}]\nrotation = {r}\n'
                   + (f'figure = "{f}"\n' if f else "") for t, x, y, r, f in turns)
    path = tmp_path / "owed.toml"
    path.write_text(f'[rules]\nexpansions = ["mayors"]\n\n{body}')
    script = load_script(path)
    g = new_game(script.rules, 0, stack=[t for t, *_ in turns], town_halls_at_end=False)
    g.set_supply(1, "follower", 0)  # as if seat 1's seven followers stood elsewhere
    scripted = _ScriptPlayer(script)
    with pytest.raises(InputError, match=r"turn 4: figure 'follower monastery': after the step-1 "
                                         r"activations seat 1 can place no figure"):
        play(g, [scripted] * 2)
        if scripted.owed is not None:
            scripted.owed_figure_lost(g)


def test_mmr_joins_the_river_only_with_the_river():
    from sim.engine.deal import stack_plan
    _, river, _, land = stack_plan(Rules(expansions=("mayors", "river")))
    assert "MMR" in river and "MMR" not in land
    _, river, _, land = stack_plan(Rules(expansions=("mayors",)))
    assert river == [] and "MMR" not in land and land.count("MM05") == 1


def test_classic_extra_tile_may_be_the_town_hall():
    from sim.expansions.messages import MessagesOptions
    rules = Rules(expansions=("mayors", "messages"),
                  messages=MessagesOptions("classic", False, ("extra_tile",)))
    g = new_game(rules, 0, stack=["E"])
    g.set_scoreboard(0, 1, 0)
    place(g, 0, 1, 2, FOLLOWER, "city S")  # 4 points -> 5: extra_tile, with the stack empty
    g.apply("meeple")
    assert ("extra_tile", None) in g.decision.choices  # possible: the town hall is in hand
    g.apply(("extra_tile", None))
    assert g.decision.kind == "town_hall" and "draw" not in g.decision.choices
    g.apply(g.decision.choices[0])
    assert not held(g)[0].town_hall


def test_r_msg_c5_extra_tile_choice_comes_before_the_draw_and_a_failed_draw_is_no_town_hall():
    """R-MSG-C5 (with R-BASE-3, R-MM-12): seat 0 completes E's city onto D's (4 points,
    1 -> 5: dark) and takes the classic message 4, the extra tile, while holding its
    town hall. It chooses between drawing and the town hall before anything is drawn;
    it draws, the one tile left (C, all city) fits nowhere and is discarded, the stack
    is empty: the extra tile is lost and the turn goes on. The town hall is not placed
    as a fallback: seat 1 must place its own next, then seat 0 on its later turn."""
    rules = Rules(expansions=("mayors", "messages"),
                  messages=MessagesOptions("classic", False, ("extra_tile",)))
    g = new_game(rules, 0, stack=["E", "C"])
    g.set_scoreboard(0, 1, 0)
    place(g, 0, 1, 2, FOLLOWER, "city S")
    g.apply("meeple")
    g.apply(("extra_tile", None))
    d = g.decision
    assert (d.kind, d.seat, d.choices[0]) == ("town_hall", 0, "draw")  # before the draw
    assert g.tiles_left == 1 and len(d.choices) > 1  # the town hall could go now instead
    seen = len(g.events)
    g.apply("draw")
    assert [(e["e"], e["tile"]) for e in g.events[seen:]] == [("discard", "C")]
    assert g.tiles_left == 0 and [s.town_hall for s in held(g)] == [True, True]
    d = g.decision
    assert (d.kind, d.seat) == ("town_hall", 1) and "draw" not in d.choices  # R-MM-12
    g.apply(d.choices[0])
    d = g.decision
    assert (d.kind, d.seat) == ("town_hall", 0) and "draw" not in d.choices
    g.apply(d.choices[0])
    assert g.decision is None and [s.town_hall for s in held(g)] == [False, False]
