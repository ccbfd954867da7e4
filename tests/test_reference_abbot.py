"""The Abbot and gardens (RULES.md 4b) in the reference engine, on small positions
worked out by hand.

Positions start from the start tile D at 0,0 (city N, road
E-W, fields N strip and S); the n-th tile placed is tile index n and a segment is
named index * 12 + local. Tiles used (TILES.md, sim/data/tiles): B monastery in a
field; U straight road E-W; W village, roads E, S, W; X crossroads; E city N; F city
E-W with a coat; K city N, road S-W; Ug / Eg the garden copies of U / E (garden
last: Ug road 0, fields 1 2, garden 3; Eg city 0, field 1, garden 2); CO6 the
Courier's letter monastery.
"""

import pytest

from sim.engine.rules import Rules
from sim.expansions.messages import MessagesOptions
from sim.reference.board import ABBOT, MAYOR
from sim.reference.game import RefGame, stack_problem
from sim.reference.tiles import sets_for, tile_types


def rules(*more, edition="c3.1", followers=7):
    return Rules(players=2, expansions=("abbot",) + more, followers=followers,
                 messages=MessagesOptions(edition))


def play(g, *moves):
    """Apply tile rows (drawing first where Messengers & Mayors offers the town hall)."""
    for move in moves:
        if g.decision.kind == "town_hall" and len(move) == 5:
            g.apply("draw")
        assert g.decision.kind == "place" and move in g.decision.choices, (move, g.decision)
        g.apply(move)


def since(g, kind="place"):
    """The events after the last event of `kind`."""
    last = max(i for i, e in enumerate(g.events) if e["e"] == kind)
    return g.events[last + 1:]


# ---------------------------------------------------------------- tiles


def test_gardens_only_with_the_abbot():
    # R-ABB-1: the River's garden curve RJ and the abbot tiles show a garden only with
    # the Abbot; R-ABB-2: it comes after every other segment and touches no edge
    plain = tile_types(sets_for(("river",)))["RJ"]
    assert [s.kind for s in plain.segs] == ["field", "field"]
    with_abbot = tile_types(sets_for(("river", "abbot")))
    assert [s.kind for s in with_abbot["RJ"].segs] == ["field", "field", "garden"]
    ug = with_abbot["Ug"]
    assert [s.kind for s in ug.segs] == ["road", "field", "field", "garden"]
    assert ug.segs[3].edges == frozenset() and ug.segs[3].name() == "garden"
    assert "Ug" not in tile_types(sets_for(("river", "mayors", "courier")))


def test_each_garden_tile_replaces_one_copy():
    # R-ABB-1, TILES.md 2.4: Eg takes one of E's 5 copies, Vg one of V's 9, ...
    types = tile_types(sets_for(("abbot",)))
    counts = {t: types[t].count for t in ("E", "Eg", "H", "I", "M", "N", "R", "U", "V")}
    assert counts == {"E": 4, "Eg": 1, "H": 2, "I": 1, "M": 1, "N": 2, "R": 2, "U": 7, "V": 8}
    assert sum(t.count for t in types.values()) == 72
    assert tile_types(sets_for(()))["E"].count == 5
    # the stack check: every tile once but one copy of the start tile D (71 tiles)
    stack = [t.id for t in types.values() for _ in range(t.count - (t.id == "D"))]
    assert len(stack) == 71 and stack_problem(rules(), stack) is None
    five_e = [("E" if t == "Eg" else t) for t in stack]
    assert "counts differ for E, Eg" in stack_problem(rules(), five_e)


def test_points_have_a_garden_source_0_without_the_abbot():
    g = RefGame(rules(), ["U"])
    assert list(g.points[0]) == ["road", "city", "monastery", "field", "message", "courier", "garden"]
    assert RefGame(Rules(players=2), ["U"]).points[0]["garden"] == 0


# ---------------------------------------------------------------- the place rows


def test_abbot_rows_on_a_monastery_after_the_follower():
    # R-ABB-3: B fits only south of D; field (local 0) follower, monastery (local 1)
    # follower then abbot (kind 4)
    g = RefGame(rules(), ["B"])
    assert g.decision.choices == ((0, -1, 0, -1, -1), (0, -1, 0, 0, 0), (0, -1, 0, 0, 1), (0, -1, 0, 4, 1))


def test_abbot_rows_on_a_garden_only():
    # R-ABB-2/3: Ug fits south, west and east of D (r0 only; r1 puts a road or field
    # where D needs the other); the follower on road and fields, the abbot on the garden
    g = RefGame(rules(), ["Ug"])
    want = []
    for x, y in ((0, -1), (-1, 0), (1, 0)):
        want += [(x, y, 0, -1, -1), (x, y, 0, 0, 0), (x, y, 0, 0, 1), (x, y, 0, 0, 2), (x, y, 0, 4, 3)]
    assert g.decision.choices == tuple(want)


def test_recall_rows_come_last_and_score_the_garden():
    # R-ABB-5: seat 0's abbot on Ug's garden east of D; seat 1 U west of D; seat 0 draws
    # B, which fits at -1,-1  0,-1  1,-1 (south of U, D, Ug) and -1,1  1,1 (north of U,
    # Ug): 3 rows each (none, farmer, monk), then one recall row per placement
    g = RefGame(rules(), ["Ug", "U", "B"])
    play(g, (1, 0, 0, 4, 3))
    assert g.abbot.supply == [0, 1]
    assert not any(r[3] == ABBOT for r in g.decision.choices)  # seat 1: abbot in supply
    play(g, (-1, 0, 0, -1, -1))
    cells = ((-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1))
    want = [(x, y, 0, f, s) for x, y in cells for f, s in ((-1, -1), (0, 0), (0, 1))]
    want += [(x, y, 0, 4, -2) for x, y in cells]
    assert g.decision.choices == tuple(want)
    play(g, (1, -1, 0, 4, -2))
    # the garden at 1,0 has D and the new B around it: 1 + 2 = 3
    assert since(g, "draw")[:3] == [
        {"e": "place", "turn": 3, "seat": 0, "tile": "B", "at": [1, -1], "rot": 0},
        {"e": "recall", "turn": 3, "seat": 0, "at": [1, 0], "where": "garden", "points": 3},
        {"e": "points", "turn": 3, "seat": 0, "points": 3, "source": "garden", "total": 3}]
    assert g.decision is None and g.abbot.supply == [1, 1]
    assert not any(e["e"] == "score" for e in g.events)  # nothing left on the board
    r = g.result()["players"]
    assert r[0]["abbot"] == {"supply": 1, "placed": 1, "recalls": 1, "recall_points": 3}
    assert r[1]["abbot"] == {"supply": 1, "placed": 0, "recalls": 0, "recall_points": 0}
    assert r[0]["points"]["garden"] == 3 and r[0]["score"] == 3


def test_recall_on_the_tile_that_completes_the_monastery():
    # R-ABB-5 then R-BASE-6: seat 1's abbot on B south of D; the 8th tile around it is
    # seat 1's, who takes the abbot back: 1 + 8 = 9 at once, then phase 3 scores the
    # complete monastery with no figure on it
    g = RefGame(rules(), ["U", "B", "U", "B", "B", "B", "B", "B"])
    play(g, (-1, 0, 0, -1, -1), (0, -1, 0, 4, 1), (1, 0, 0, -1, -1), (-1, -1, 0, -1, -1),
         (1, -1, 0, -1, -1), (-1, -2, 0, -1, -1), (1, -2, 0, -1, -1), (0, -2, 0, 4, -2))
    assert since(g)[:3] == [
        {"e": "recall", "turn": 8, "seat": 1, "at": [0, -1], "where": "monastery", "points": 9},
        {"e": "points", "turn": 8, "seat": 1, "points": 9, "source": "monastery", "total": 9},
        {"e": "score", "turn": 8, "feature": "monastery", "at": [0, -1], "where": "monastery",
         "tiles": 9, "coats": 0, "complete": True, "final": False, "points": 9, "winners": []}]
    assert g.scores == [0, 9]


def _recall_for_five(edition):
    """Seat 0's abbot on Ug's garden east of D; B south of Ug, X west of D, B south of
    D; then seat 0 closes the road X-D-Ug-W (4 tiles, nobody on it) with W east of Ug
    and takes the abbot back: the garden has D, both B and W around it, 1 + 4 = 5
    points, and 5 is a dark space (R-BASE-10)."""
    g = RefGame(rules("messages", edition=edition), ["Ug", "B", "X", "B", "W"],
                ["per_knight", "smallest_road"])
    play(g, (1, 0, 0, 4, 3), (1, -1, 0, -1, -1), (-1, 0, 0, -1, -1), (0, -1, 0, -1, -1),
         (2, 0, 0, 4, -2))
    d = g.decision
    assert (d.kind, d.seat, d.info) == ("scoring_figure", 0, {"points": 5, "source": "garden",
                                                               "positions": (0, 0)})
    g.apply("meeple")
    return g


ROAD_SCORE = {"e": "score", "turn": 5, "feature": "road", "at": [0, 0], "where": "road E", "tiles": 4,
              "coats": 0, "complete": True, "final": False, "points": 4, "winners": []}


def test_classic_recall_is_a_round_of_its_own():
    # R-ABB-5, R-MSG-C2: the recall's 5 points put the meeple on a dark space, so a
    # message is drawn right there, before phase 3 scores the road
    g = _recall_for_five("classic")
    d = g.decision
    assert (d.kind, d.choices, d.info["points"]) == ("messages", (("2", None), ("per_knight", None)), (2, 0))
    g.apply(("2", None))
    g.apply("messenger")  # classic: the 2 points are a source of their own (R-MSG-C1)
    assert [e["e"] for e in since(g)] == ["recall", "move", "points", "message_draw", "message", "move",
                                          "points", "score", "final", "end"]
    assert [e for e in g.events if e["e"] == "score"] == [ROAD_SCORE]
    assert g.msg.figures[0] == [5, 2] and g.scores == [7, 0]
    assert g.points[0]["garden"] == 5 and g.points[0]["message"] == 2


def test_c31_recall_counts_for_the_end_of_phase_3():
    # R-ABB-5, R-MSG-N1/N2: the recall's points fix the turn's figure (the meeple, at
    # 5); no message until phase 3 has scored the road, then one
    g = _recall_for_five("c3.1")
    assert g.decision.kind == "messages"
    g.apply(("2", None))  # onto the meeple, no question asked (R-MSG-N1)
    assert [e["e"] for e in since(g)] == ["recall", "move", "points", "score", "message_draw", "message",
                                          "move", "points", "final", "end"]
    assert [e for e in g.events if e["e"] == "score"] == [ROAD_SCORE]
    assert g.msg.figures[0] == [7, 0] and g.scores == [7, 0]


def test_the_figure_decision_offers_the_recall_last():
    # RULES.md 6, R-ABB-5 with R-MM-2: seat 1's mayor on F (city N-S) north of D, with B
    # east and west of it; seat 0's abbot on B south of D. The full city C fits only on
    # F's last open side, which surrounds the mayor: the figure waits for step 1, so the
    # placement has no recall row. The mayor goes home (nobody to replace); then
    # (-1, -1), a follower or a mayor on C's city (free again), and the recall last.
    g = RefGame(rules("mayors"), ["B", "F", "B", "B", "C"])
    play(g, (0, -1, 0, 4, 1), (0, 1, 1, 1, 0), (1, 1, 0, -1, -1), (-1, 1, 0, -1, -1))
    g.apply("draw")
    assert g.decision.choices == ((0, 2, 0, -1, -1),)
    g.apply((0, 2, 0, -1, -1))
    d = g.decision
    assert (d.kind, d.seat, d.choices) == ("figure", 0, ((-1, -1), (0, 0), (1, 0), (4, -2)))
    g.apply((4, -2))
    # the monastery at 0,-1 has only D around it: 1 + 1 = 2
    assert since(g) == [
        {"e": "favour", "turn": 5, "seat": 1, "target": None},
        {"e": "recall", "turn": 5, "seat": 0, "at": [0, -1], "where": "monastery", "points": 2},
        {"e": "points", "turn": 5, "seat": 0, "points": 2, "source": "monastery", "total": 2}]
    assert g.abbot.supply == [1, 1]


# ---------------------------------------------------------------- garden scoring


def _garden_south_of_d(*more):
    """Seat 0's abbot on Eg (turned: city S) south of D; U west and east of D, B south
    of each, E (city N) closing Eg's city below it, B west of E; 7 tiles around."""
    g = RefGame(rules(*more), ["Eg", "U", "U", "B", "B", "E", "B"] + (["B"] if not more else []))
    play(g, (0, -1, 2, 4, 2), (-1, 0, 0, -1, -1), (1, 0, 0, -1, -1), (-1, -1, 0, -1, -1),
         (1, -1, 0, -1, -1), (0, -2, 0, -1, -1))
    assert since(g)[:1] == [  # R-BASE-6: the 2-tile city of Eg and E, nobody on it
        {"e": "score", "turn": 6, "feature": "city", "at": [0, -1], "where": "city S", "tiles": 2,
         "coats": 0, "complete": True, "final": False, "points": 4, "winners": []}]
    play(g, (-1, -2, 0, -1, -1))
    return g


def test_a_completed_garden_scores_9():
    # R-ABB-4: the 8th tile around the garden (seat 1's B) completes it: 9 to seat 0
    g = _garden_south_of_d()
    play(g, (1, -2, 0, -1, -1))
    assert since(g) == [
        {"e": "score", "turn": 8, "feature": "garden", "at": [0, -1], "where": "garden", "tiles": 9,
         "coats": 0, "complete": True, "final": False, "points": 9, "winners": [0]},
        {"e": "points", "turn": 8, "seat": 0, "points": 9, "source": "garden", "total": 9},
        {"e": "final", "turn": 9}, {"e": "end", "turn": 9, "scores": [9, 0], "winners": [0]}]
    assert g.abbot.supply == [1, 1]
    assert g.result()["players"][0]["abbot"] == {"supply": 1, "placed": 1, "recalls": 0, "recall_points": 0}


def test_a_garden_completed_by_a_town_hall_scores_8():
    # R-ABB-4, R-MM-10: the stack is empty, so seat 1 must place the town hall (R-MM-12);
    # in the 8th place around the garden it completes it without counting: 8
    g = _garden_south_of_d("mayors")
    d = g.decision
    assert (d.kind, d.seat) == ("town_hall", 1) and "draw" not in d.choices
    g.apply((1, -2))
    assert since(g, "townhall") == [
        {"e": "score", "turn": 8, "feature": "garden", "at": [0, -1], "where": "garden", "tiles": 8,
         "coats": 0, "complete": True, "final": False, "points": 8, "winners": [0]},
        {"e": "points", "turn": 8, "seat": 0, "points": 8, "source": "garden", "total": 8}]


def test_an_incomplete_garden_scores_1_plus_its_neighbours_at_the_end():
    # R-ABB-4, R-BASE-8: Ug east of D, B below it: 1 + 2
    g = RefGame(rules(), ["Ug", "B"])
    play(g, (1, 0, 0, 4, 3), (1, -1, 0, -1, -1))
    assert since(g, "final") == [
        {"e": "score", "turn": 3, "feature": "garden", "at": [1, 0], "where": "garden", "tiles": 3,
         "coats": 0, "complete": False, "final": True, "points": 3, "winners": [0]},
        {"e": "points", "turn": 3, "seat": 0, "points": 3, "source": "garden", "total": 3},
        {"e": "end", "turn": 3, "scores": [3, 0], "winners": [0]}]
    assert g.result()["players"][0]["abbot"] == {"supply": 0, "placed": 1, "recalls": 0, "recall_points": 0}


# ---------------------------------------------------------------- with other expansions


def _five_road_points(centre, edition, deck):
    """Seat 0's abbot on a B (monastery, row (0,-1,0,4,1)) or an Eg turned city S
    (garden, row (0,-1,2,4,2)) south of D; W east of D; seat 0's highwayman on U west
    of D; U and X further west close the road X-U-U-D-W: 5 points to seat 0 in its
    own turn, a dark space, so a message in both editions. The abbot's feature has U,
    D and W around it: 1 + 3 = 4."""
    tile, row = {"monastery": ("B", (0, -1, 0, 4, 1)), "garden": ("Eg", (0, -1, 2, 4, 2))}[centre]
    g = RefGame(rules("messages", edition=edition), [tile, "W", "U", "U", "X"], deck)
    play(g, row, (1, 0, 0, -1, -1), (-1, 0, 0, 0, 0), (-2, 0, 0, -1, -1), (-3, 0, 0, -1, -1))
    d = g.decision
    assert (d.kind, d.info["points"], d.info["source"]) == ("scoring_figure", 5, "road")
    g.apply("meeple")
    assert g.decision.kind == "messages"
    return g


@pytest.mark.parametrize("centre, edition, counts", [
    ("monastery", "classic", True), ("monastery", "c3.1", True),
    ("garden", "classic", False), ("garden", "c3.1", True)])
def test_message_3_counts_the_abbot(centre, edition, counts):
    # R-ABB-6, R-MSG-10: message 3 counts a monastery with the abbot in both editions,
    # a garden with the abbot under c3.1 only; its value is the final one, 4
    g = _five_road_points(centre, edition, ["smallest_monastery", "per_knight"])
    seg = {"monastery": 13, "garden": 14}[centre]  # tile 1, local 1 (B) or 2 (Eg)
    d = g.decision
    if counts:
        assert (d.choices, d.info["points"]) == ((("2", None), ("smallest_monastery", seg)), (2, 4))
    else:
        assert (d.choices, d.info["points"]) == ((("2", None),), (2,))


def test_c31_message_3_scores_the_garden_and_the_abbot_stays():
    g = _five_road_points("garden", "c3.1", ["smallest_monastery", "per_knight"])
    g.apply(("smallest_monastery", 14))
    assert since(g, "message_draw")[:3] == [
        {"e": "message", "turn": 5, "seat": 0, "action": "smallest_monastery", "number": 3,
         "resolved": "action", "points": 4, "target": "0,-1 garden", "extra": False},
        {"e": "move", "turn": 5, "seat": 0, "figure": "meeple", "points": 4, "source": "message",
         "before": 5, "after": 9, "dark": False, "other_dark": False},
        {"e": "points", "turn": 5, "seat": 0, "points": 4, "source": "message", "total": 9}]
    # the abbot stayed: final scoring gives the garden's 4 again (R-ABB-4)
    assert g.decision is None and g.scores == [13, 0] and g.points[0]["garden"] == 4


def test_message_8_may_take_the_abbot():
    # R-ABB-6, R-MSG-10: classic message 8; the highwayman went home with its road, so
    # the abbot (figure 0) is seat 0's only figure: it scores its monastery, 4, and
    # goes home
    g = _five_road_points("monastery", "classic", ["score_and_return", "per_knight"])
    d = g.decision
    assert (d.choices, d.info["points"]) == ((("2", None), ("score_and_return", 0)), (2, 4))
    g.apply(("score_and_return", 0))
    g.apply("messenger")
    assert g.abbot.supply == [1, 1] and not g.board.figures
    assert g.decision is None and g.scores == [9, 0]
    assert (g.points[0]["message"], g.points[0]["monastery"]) == (4, 0)


def test_the_courier_thanks_an_abbot():
    # R-ABB-6, R-COU-3/4: seat 0's abbot on the letter monastery CO6 south of D (1 + D:
    # 2); then seat 1's abbot on Ug (turned, road N-S) east of CO6, beside the Courier's
    # tile (1 + CO6 + D: 3)
    g = RefGame(rules("courier"), ["CO6", "Ug"])
    play(g, (0, -1, 0, 4, 1))
    assert [e for e in g.events if e["e"] == "courier"] == [
        {"e": "courier", "turn": 1, "seat": 0, "at": [0, -1], "where": "monastery", "points": 2,
         "came_from": None}]
    play(g, (1, -1, 1, 4, 3))
    assert [e for e in g.events if e["e"] == "courier"][1:] == [
        {"e": "courier", "turn": 2, "seat": 1, "at": [1, -1], "where": "garden", "points": 3,
         "came_from": [0, -1]}]
    assert (g.points[0]["courier"], g.points[1]["courier"]) == (2, 3)
    # final scoring: the monastery now has D and Ug around it, the garden CO6 and D: 3 each
    assert g.scores == [5, 6] and (g.points[0]["monastery"], g.points[1]["garden"]) == (3, 3)


@pytest.mark.parametrize("followers", [1, 2])
def test_a_favour_needs_a_standard_follower_and_replaces_one(followers):
    # R-ABB-6, R-MM-2: seat 0's highwayman on U west of D; seat 1's knight on E (turned,
    # city E) south of U; seat 0's mayor on F (city E-W) south of D joining it; B below
    # F; seat 0's E (turned, city W) east of F surrounds the mayor. With one follower
    # each, seat 0 has only its abbot left in supply: no favour. With two, the favour
    # may take seat 1's knight (figure 1).
    g = RefGame(rules("mayors", followers=followers), ["U", "E", "F", "B", "E"])
    play(g, (-1, 0, 0, 0, 0), (-1, -1, 1, 0, 0), (0, -1, 0, 1, 0), (0, -2, 0, -1, -1), (1, -1, 3, -1, -1))
    d = g.decision
    if followers == 2:
        assert (d.kind, d.seat, d.choices) == ("favour", 0, ("none", 1))
        return
    assert (d.kind, d.seat) == ("figure", 0) and g.events[-1] == {"e": "favour", "turn": 5, "seat": 0,
                                                                  "target": None}
    assert g.abbot.supply == [1, 1] and g.mm.supply[0][MAYOR] == 1
    g.apply((-1, -1))
    # the city E-F-E (3 tiles, F's coat): 2 * (3 + 1) = 8 for the knight that stayed
    assert [(e["feature"], e["points"], e["winners"]) for e in g.events if e["e"] == "score"] == [
        ("city", 8, [1])]


def test_a_crisis_meeting_leaves_the_abbot():
    # R-ABB-6, R-MM-11: seat 0's abbot on B south of D, seat 1's mayor on K east of D;
    # seat 0's town hall at 1,-1 touches both tiles: the mayor goes home, the abbot stays.
    # Seat 1's town hall at -1,-1: at the end the monastery has D, K and two town halls
    # around it: 1 + 2 = 3 (R-MM-10)
    g = RefGame(rules("mayors"), ["B", "K"])
    play(g, (0, -1, 0, 4, 1), (1, 0, 0, 1, 0))
    assert (g.decision.kind, g.decision.seat) == ("town_hall", 0)
    g.apply((1, -1))
    assert since(g, "townhall") == [{"e": "crisis", "turn": 3, "seat": 1, "at": [1, 0]}]
    assert g.abbot.supply == [0, 1] and g.mm.supply[1][MAYOR] == 1
    g.apply((-1, -1))
    assert [(e["feature"], e["points"], e["winners"]) for e in g.events if e["e"] == "score"] == [
        ("monastery", 3, [0])]
