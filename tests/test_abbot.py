"""The Abbot and gardens (RULES.md 4b) in the production engine (sim/csrc/abbot.c), on
small positions worked out by hand; the reference engine has its own
(test_reference_abbot.py) and the differential harness compares the two.

Positions start from the start tile D at 0,0 (city N, road E-W, field S). Tiles: B a
monastery in a field (FFFF), U a straight road E-W (FRFR), E a city cap N (CFFF), and the
garden copies Eg (E with a garden: city 0, field 1, garden 2) and Ug.
"""

import pytest

from engine import new_game, place, view
from sim.engine.deal import catalogue_for, stack_plan
from sim.engine.game import play_batch
from sim.engine.rules import Rules
from sim.expansions.abbot import ABBOT, RECALL
from sim.expansions.declaration import FIELDS
from sim.expansions.messages import MessagesOptions
from sim.formats.log import event_line
from strategies import player


def rules(*more, edition="c3.1", players=2):
    return Rules(players=players, expansions=("abbot",) + more, messages=MessagesOptions(edition))


def test_garden_tiles_only_with_the_abbot():
    """R-ABB-1: the garden copies replace one copy each of E, H, I, M, N, R, U, V (the
    base game keeps 72 tiles); without the Abbot the River's RJ is plain."""
    start, _, _, land = stack_plan(rules())
    assert start.id == "D" and len(land) == 71
    assert land.count("E") == 4 and land.count("Eg") == 1 and land.count("V") == 8
    assert sum(t.endswith("g") for t in land) == 8
    _, _, _, plain = stack_plan(Rules())
    assert len(plain) == 71 and plain.count("E") == 5 and "Eg" not in plain
    river = Rules(expansions=("river",))
    rj = catalogue_for(river).types[catalogue_for(river).index["RJ"]]
    assert [s.kind for s in rj.segments] == ["field", "field"]
    rj = catalogue_for(rules("river")).types[catalogue_for(rules("river")).index["RJ"]]
    assert [s.kind for s in rj.segments][-1] == "garden"


def test_abbot_rows_on_a_monastery_or_garden_only():
    """R-ABB-2/3: the abbot may go on the monastery or the garden of the tile just placed;
    a follower never goes on a garden."""
    g = new_game(rules(), 0, stack=["Eg", "B"])
    rows = g.decision.choices
    garden = [r for r in rows if r[4] == 2 and r[:3] == (0, -1, 2)]
    assert garden == [(0, -1, 2, ABBOT, 2)]  # the abbot alone on the garden
    assert (0, -1, 2, 0, 0) in rows and (0, -1, 2, ABBOT, 0) not in rows  # city: follower only
    assert not any(r[3] == ABBOT and r[4] != 2 for r in rows)
    place(g, 0, -1, 2)  # no figure
    rows = g.decision.choices  # B: its monastery is local 1
    assert (1, -1, 0, 0, 1) in rows and (1, -1, 0, ABBOT, 1) in rows


def test_recall_rows_come_after_every_placement_and_score_at_once():
    """R-ABB-5: with the abbot on the board, each placement's take-back row comes after
    all the placements' own rows; taking it back scores its monastery as in final
    scoring (1 + the 3 tiles around: D, U at 1,0 and the new U at -1,0 = 4), at once,
    and the abbot is back in supply."""
    g = new_game(rules(), 0, stack=["B", "U", "U"])
    place(g, 0, -1, 0, ABBOT, "monastery")
    assert view(g).abbot.seats[0].at == (0, -1)
    place(g, 1, 0, 0)  # seat 1
    rows = list(g.decision.choices)
    recalls = [r for r in rows if r[4] == RECALL]
    placements = [r[:3] for r in rows if r[3] == -1]
    assert [r[:3] for r in recalls] == placements  # one per placement, in their order
    assert rows[-len(recalls):] == recalls and all(r[3] == ABBOT for r in recalls)
    seen = len(g.events)
    g.apply((-1, 0, 0, ABBOT, RECALL))
    new = [e for e in g.events[seen:] if e["e"] != "draw"]
    assert new[0]["e"] == "place"
    assert new[1] == {"e": "recall", "turn": 3, "seat": 0, "at": [0, -1], "where": "monastery",
                      "points": 4}
    assert new[2] == {"e": "points", "turn": 3, "seat": 0, "points": 4, "source": "monastery",
                      "total": 4}
    assert view(g).abbot.seats[0].in_supply
    assert event_line(new[1]) == "turn   3  seat 0  takes the abbot back from the monastery @0,-1: 4 points"
    p = g.result()["players"][0]
    assert p["abbot"] == {"supply": 1, "placed": 1, "recalls": 1, "recall_points": 4}


def test_greedy_values_the_take_back_by_whether_the_tile_is_next_to_the_abbot():
    """R-ABB-5 in greedy: taking the abbot back is worth its points now less what its
    monastery is worth if it stays (monastery weight 0.5 here, so the two differ), after
    the tile about to be placed when that tile is next to it. B at 0,-1 with the abbot
    has D and U at 1,0 around: 3 tiles, worth 3 - 0.5 x 3 = 1.5 where the new U does
    not touch it (2,0), 4 - 0.5 x 4 = 2.0 where it does (-1,0). The follower weight is 0,
    so the abbot home adds nothing. The value sits beside the placement's no-figure row."""
    from strategies import parse_policy

    g = new_game(rules(), 0, stack=["B", "U", "U", "U"])
    place(g, 0, -1, 0, ABBOT, "monastery")
    place(g, 1, 0, 0)  # seat 1
    greedy = parse_policy("greedy(monastery=0.5,follower=0.0)", "test")
    value = dict(zip(g.decision.choices, g.policy_values(greedy)))
    worth = {xy: value[(*xy, 0, ABBOT, RECALL)] - value[(*xy, 0, -1, -1)] for xy in ((2, 0), (-1, 0))}
    assert worth == {(2, 0): 1.5, (-1, 0): 2.0}


def test_greedy_abbot_games_played_in_c_are_the_games_asked_from_python():
    """A greedy seat drawing in C values the take-back rows a list of cells at a time
    (game.c add_actions, abbot.c action_values); asked from Python it values them a row
    at a time (cc_game_policy_values). Both are one valuation: the same choices, so the
    same games, with weights under which near and far take-backs differ."""
    spec = "greedy(monastery=0.5)"
    r = rules("messages", "river", "courier", "mayors", players=3)
    seats = [player(spec)] * 3
    batch = play_batch(r, range(12), seats)
    recalls = 0
    for seed in range(12):
        g = new_game(r, seed)
        while g.decision is not None:
            d = g.decision
            recalls += d.kind == "place" and any(c[4] == RECALL for c in d.choices)
            g.apply(seats[d.seat].choose(g, d))
        assert g.scores == [int(x) for x in batch["results"][seed, :, FIELDS["score"][0]]], seed
    assert recalls > 20  # take-back rows were valued (about 10 decisions a game)


def surround_garden(g):
    """Eg at 0,-1 (turned: city S) with seat 0's abbot, then the 7 other tiles around it:
    the last (E at 0,-2, closing the 2-tile city) completes the garden (R-ABB-2)."""
    place(g, 0, -1, 2, ABBOT, "garden")
    for x, y in ((1, 0), (-1, 0)):
        place(g, x, y, 0)  # U, road E-W on D's road
    for x, y in ((-1, -1), (1, -1), (-1, -2), (1, -2)):
        place(g, x, y, 0)  # B
    place(g, 0, -2, 0)  # E: city N meets Eg's city S


def test_a_completed_garden_scores_9_and_the_abbot_returns():
    """R-ABB-4: completed during play, a garden scores 9 to its abbot's owner."""
    g = new_game(rules(), 0, stack=["Eg", "U", "U", "B", "B", "B", "B", "E"])
    surround_garden(g)
    scores = [e for e in g.events if e["e"] == "score" and e["feature"] == "garden"]
    assert scores[0] == {"e": "score", "turn": 8, "feature": "garden", "at": [0, -1], "where": "garden", "tiles": 9,
                         "coats": 0, "complete": True, "final": False, "points": 9, "winners": [0]}
    p = g.result()["players"][0]
    assert p["points"]["garden"] == 9 and p["abbot"]["supply"] == 1


def test_an_incomplete_garden_scores_1_per_tile_at_the_end():
    """R-ABB-4 (R-BASE-8): at the end an incomplete garden scores 1 + the tiles around
    (D and the U at 1,0: 3)."""
    g = new_game(rules(), 0, stack=["Eg", "U"])
    place(g, 0, -1, 2, ABBOT, "garden")
    place(g, 1, 0, 0)
    assert g.over and g.result()["players"][0]["points"]["garden"] == 3


def test_recall_is_a_round_of_its_own_under_classic_only():
    """R-ABB-5 with The Messages: under classic the points taken back are a round of
    scoring of their own (R-MSG-C2): the scoring meeple 1 + 4 = 5 lands on dark and
    draws a message at once; under c3.1 they go onto the turn's figure (R-MSG-N1) and
    the trigger waits for the end of phase 3 (R-MSG-N2), still in this turn."""
    for edition in ("classic", "c3.1"):
        g = new_game(rules("messages", edition=edition), 0, stack=["B", "U", "U"])
        g.set_scoreboard(0, 1, 0)
        place(g, 0, -1, 0, ABBOT, "monastery")
        place(g, 1, 0, 0)
        g.apply((-1, 0, 0, ABBOT, RECALL))
        d = g.decision
        assert (d.kind, d.seat, d.info["points"], d.info["source"]) == ("scoring_figure", 0, 4, "monastery")
        g.apply("meeple")
        kinds = [e["e"] for e in g.events if e.get("turn") == 3]
        assert kinds[-3:] == ["move", "points", "message_draw"], (edition, kinds)
        assert g.decision.kind == "messages"


def message_3(edition, stack):
    """A game under The Messages whose first message is message 3 (smallest monastery),
    seat 0's scoring meeple on 1."""
    g = new_game(Rules(players=2, expansions=("abbot", "messages"),
                       messages=MessagesOptions(edition, deck=("smallest_monastery",))), 0, stack=stack)
    g.set_scoreboard(0, 1, 0)
    return g


def draw_message_3(g, x, y, rot, where):
    """Seat 0 completes a 2-tile city with a follower (4 points: 1 -> 5, a dark space)
    and draws message 3; its choices."""
    place(g, x, y, rot, 0, where)
    assert g.decision.kind == "scoring_figure"
    g.apply("meeple")
    d = g.decision
    assert d.kind == "messages" and d.info["action"] == "smallest_monastery", d
    return d.choices


@pytest.mark.parametrize("edition, counted", [("classic", False), ("c3.1", True)])
def test_message_3_counts_an_abbot_on_a_garden_under_c31_only(edition, counted):
    """R-ABB-6 (R-MSG-10): message 3 counts a garden holding the seat's abbot under c3.1
    only. Seat 0's abbot on Eg's garden at 0,-1; its follower on E's city at 0,-2
    completes the city with Eg: the garden is then worth 1 + D, U at 1,0 and E = 4."""
    g = message_3(edition, ["Eg", "U", "E"])
    place(g, 0, -1, 2, ABBOT, "garden")
    place(g, 1, 0, 0)
    choices = draw_message_3(g, 0, -2, 0, "city N")
    assert choices == (("2", None),) + ((("smallest_monastery", 14),) if counted else ())  # Eg: tile 1, garden 2
    if counted:
        g.apply(choices[1])
        assert next(e for e in reversed(g.events) if e["e"] == "message")["points"] == 4


@pytest.mark.parametrize("edition", ["classic", "c3.1"])
def test_message_3_counts_an_abbot_on_a_monastery_in_both_editions(edition):
    """R-ABB-3/6: on a monastery the abbot is a monk, for message 3 in both editions.
    Seat 0's abbot on B at 0,-1; its follower on E at 0,1 (turned: city S onto D's city
    N) completes a 2-tile city. The monastery: its tile, D and U at 1,0 = 3."""
    g = message_3(edition, ["B", "U", "E"])
    place(g, 0, -1, 0, ABBOT, "monastery")
    place(g, 1, 0, 0)
    choices = draw_message_3(g, 0, 1, 2, "city S")
    assert choices == (("2", None), ("smallest_monastery", 13))  # B: tile 1, monastery 1
    g.apply(choices[1])
    assert next(e for e in reversed(g.events) if e["e"] == "message")["points"] == 3


def test_greedy_and_batches_play_the_abbot():
    """R-ABB-3/5: greedy places its abbot and takes it back, and batches record it
    (the result row's abbot slice, the garden source)."""
    seats = [player("greedy"), player("greedy")]
    batch = play_batch(rules(), range(40), seats)
    at, _ = FIELDS["abbot"]
    res = batch["results"]
    assert (res[:, :, at + 1] > 0).any() and (res[:, :, at + 2] > 0).any()  # placed, recalls
    points = FIELDS["points"][0] + 6  # the garden source (sim/expansions/base.py SOURCES)
    assert (res[:, :, points] > 0).any()
    assert (res[:, :, at] + res[:, :, at + 1] - res[:, :, at + 2] >= 1).all()
