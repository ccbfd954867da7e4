"""The Messages, both editions: rulings R-MSG-C1..C4, R-MSG-N1..N3, R-MSG-8..11,
with figure positions and scores worked out by hand.

Boards are built by placing tiles through the game API; a case that must start with a
seat's scoring figures on given spaces sets them up with `Game.set_scoreboard` (the
score is their sum), before that seat scores anything.
"""

import pytest

from sim.errors import InputError
from engine import new_game
from sim.engine.game import Game
from sim.engine.view import view_of
from sim.expansions.messages import ACTIONS, MessagesOptions
from sim.engine.play import play
from sim.engine.rules import Rules
from strategies import player


def mgame(stack, edition="c3.1", deck=(), zmg=False, players=2):
    rules = Rules(players=players, expansions=("messages",),
                  messages=MessagesOptions(edition, zmg, tuple(deck)))
    return new_game(rules, 0, stack=stack)


def place(g, x, y, rot, figure=None):
    assert g.decision.kind == "place", g.decision
    t = g.catalogue.index[g.decision.tile]
    local = -1 if figure is None else g.catalogue.variant(t, rot).segment_at(figure)
    g.apply((x, y, rot, -1 if figure is None else 0, local))


def figure_to(g, seat, name, points=None):
    d = g.decision
    assert d.kind == "scoring_figure" and d.seat == seat, d
    if points is not None:
        assert d.info["points"] == points
    g.apply(name)


def positions(g, seat):
    return list(view_of(g).messages.seats[seat].position)


def draws(g):
    return [e["action"] for e in g.events if e["e"] == "message_draw"]


def offered(d):
    """A messages decision's choices with their immediate points."""
    assert d.kind == "messages", d
    return list(zip(d.choices, d.info["points"]))


def two_cities(edition, **kw):
    """Seat 0's 7th-turn H at 0,1 completes two cities of seat 0 at once: D + H's S cap
    (the knight placed on H) and H's N cap + the E at 0,2 (knight from turn 5):
    two sources of 4 points each in one round of scoring."""
    g = mgame(["U", "B", "B", "B", "E", "B", "H", "U"], edition, **kw)
    place(g, 1, 0, 0)
    place(g, 1, 1, 0)
    place(g, 1, 2, 0)
    place(g, 1, -1, 0)
    place(g, 0, 2, 2, "city S")
    place(g, 2, 1, 0)
    return g


def long_road(edition, **kw):
    """Seat 0's highwayman on D + four U (5 tiles, open), then on turn 5 seat 0's E
    closes D's city with a knight: 4 points."""
    g = mgame(["U", "U", "U", "U", "E", "U"], edition, **kw)
    place(g, 1, 0, 0, "road E")
    for x in (2, 3, 4):
        place(g, x, 0, 0)
    return g


# ---------------------------------------------------------------- c3.1


def test_r_msg_n2_trigger_after_the_scoring_phase():
    g = mgame(["E", "U"], "c3.1", deck=["per_knight"])
    g.set_scoreboard(0, 1, 0)
    place(g, 0, 1, 2, "city S")  # completes D's city: 4 points
    figure_to(g, 0, "meeple", points=4)  # 1 + 4 = 5, a dark space
    d = g.decision
    assert d.kind == "messages" and d.seat == 0 and d.info["action"] == "per_knight"
    assert d.choices == (("2", None), ("per_knight", None))  # the knight went home: 0 points
    assert d.info["points"] == (2, 0)
    g.apply(("2", None))
    assert positions(g, 0) == [7, 0] and g.scores[0] == 7
    # the 4 points were live (meeple 1 -> 5 dark, messenger 0 -> 4 not); the 2 were not
    assert g.result()["players"][0]["messages"]["live_moves"] == 1
    assert g.points[0]["message"] == 2 and g.points[0]["city"] == 4
    assert g.decision.kind == "place" and g.decision.seat == 1


def test_r_msg_n2_no_trigger_off_a_dark_space():
    g = mgame(["E", "U"], "c3.1")
    g.set_scoreboard(0, 2, 0)
    place(g, 0, 1, 2, "city S")
    figure_to(g, 0, "meeple")  # 6: not dark
    assert g.decision.kind == "place" and draws(g) == []


def test_r_msg_n1_all_points_of_a_turn_on_one_figure():
    g = two_cities("c3.1", deck=["per_farmer"])
    g.set_scoreboard(0, 0, 2)
    place(g, 0, 1, 0, "city S")
    figure_to(g, 0, "messenger", points=4)  # chosen at the first points of the turn
    # the second city's 4 points follow without a decision: 2 + 4 + 4 = 10, dark
    assert g.decision.kind == "messages"
    assert positions(g, 0) == [0, 10]
    moves = [e for e in g.events if e["e"] == "move"]
    assert [(m["figure"], m["points"], m["before"], m["after"]) for m in moves] == [
        ("messenger", 4, 2, 6), ("messenger", 4, 6, 10)]
    g.apply(("2", None))  # R-MSG-N3: message points on the same figure
    assert positions(g, 0) == [0, 12]


def test_r_msg_n3_message_points_never_trigger_a_second_message():
    g = long_road("c3.1", deck=["smallest_road", "per_knight"])
    g.set_scoreboard(0, 1, 0)
    place(g, 0, 1, 2, "city S")
    figure_to(g, 0, "meeple", points=4)  # 5: dark
    d = g.decision
    road = d.choices[1]
    assert road[0] == "smallest_road" and d.info["points"] == (2, 5)  # 5 tiles, incomplete
    g.apply(road)
    assert positions(g, 0) == [10, 0]  # on a dark space again, but no second message
    assert draws(g) == ["smallest_road"]
    assert g.decision.kind == "place" and g.decision.seat == 1
    assert g.board.figures()  # R-MSG c3.1 message 2: the highwayman stays


def test_r_msg_n1_each_player_chooses_each_turn():
    # points in someone else's turn: seat 0 chooses for that turn, anew next turn
    g = mgame(["M", "E", "U"], "c3.1")
    place(g, 0, 1, 2, "city S")  # seat 0's knight, city open to the east
    place(g, 1, 1, 3)  # seat 1 closes it: 3 tiles + 1 coat = 8 to seat 0
    figure_to(g, 0, "messenger", points=8)
    assert positions(g, 0) == [0, 8]
    assert g.decision.kind == "place" and g.decision.seat == 0


# ---------------------------------------------------------------- classic


def test_r_msg_c1_one_figure_per_source():
    g = two_cities("classic")
    place(g, 0, 1, 0, "city S")
    figure_to(g, 0, "meeple", points=4)
    figure_to(g, 0, "messenger", points=4)  # the second source may go elsewhere
    assert positions(g, 0) == [4, 4]
    assert g.result()["players"][0]["messages"]["live_moves"] == 0  # 0 + 4 misses a dark space either way


def test_r_msg_c2_only_final_positions_count():
    g = two_cities("classic")
    g.set_scoreboard(0, 1, 0)
    place(g, 0, 1, 0, "city S")
    figure_to(g, 0, "meeple")  # 5: dark, but the round is not over
    figure_to(g, 0, "meeple")  # 9
    assert positions(g, 0) == [9, 0]
    assert draws(g) == [] and g.decision.kind == "place"


def test_r_msg_c2_one_message_when_both_figures_are_dark():
    g = two_cities("classic", deck=["per_farmer", "per_knight"])
    g.set_scoreboard(0, 1, 1)
    place(g, 0, 1, 0, "city S")
    figure_to(g, 0, "meeple")  # 5
    figure_to(g, 0, "messenger")  # 5
    assert g.decision.kind == "messages" and g.decision.info["action"] == "per_farmer"
    g.apply(("2", None))
    figure_to(g, 0, "meeple")  # 7: message points are a round of their own, not dark
    assert draws(g) == ["per_farmer"] and g.decision.kind == "place"


def test_r_msg_c3_chain():
    g = long_road("classic", deck=["smallest_road", "per_knight"])
    g.set_scoreboard(0, 1, 0)
    place(g, 0, 1, 2, "city S")
    figure_to(g, 0, "meeple", points=4)  # 5: message 1
    g.apply(g.decision.choices[1])  # the 5-tile road: 5 points
    figure_to(g, 0, "meeple", points=5)  # 10: dark again, the chain goes on
    assert g.decision.kind == "messages" and g.decision.info["action"] == "per_knight"
    assert g.decision.info["points"] == (2, 0)  # the knight went home: no knight left
    g.apply(("2", None))
    figure_to(g, 0, "messenger", points=2)  # 2: not dark, the chain ends
    assert positions(g, 0) == [10, 2] and g.scores[0] == 12
    assert draws(g) == ["smallest_road", "per_knight"]


def test_r_msg_c4_zmg_alone():
    for zmg, other, drawn in ((False, 5, True), (True, 5, False), (True, 55, False), (True, 10, True)):
        g = mgame(["E", "U"], "classic", zmg=zmg)
        g.set_scoreboard(0, 1, 0)
        g.set_scoreboard(1, other, 0)
        place(g, 0, 1, 2, "city S")
        figure_to(g, 0, "meeple")  # 5; seat 1's meeple on space `other` mod 50
        assert (g.decision.kind == "messages") == drawn, (zmg, other)


def test_zmg_is_a_classic_switch():
    with pytest.raises(InputError, match="classic-edition switch"):
        MessagesOptions("c3.1", True).validate("rules.messages")


# ---------------------------------------------------------------- both editions


@pytest.mark.parametrize("edition", ["classic", "c3.1"])
def test_no_message_in_an_opponents_turn(edition):
    g = mgame(["M", "E", "U"], edition)
    g.set_scoreboard(0, 2, 0)
    place(g, 0, 1, 2, "city S")
    place(g, 1, 1, 3)  # seat 1 completes seat 0's city: 8 points
    figure_to(g, 0, "meeple", points=8)  # 10: dark, but seat 0 is not active
    assert draws(g) == [] and g.decision.kind == "place" and g.decision.seat == 0


@pytest.mark.parametrize("edition", ["classic", "c3.1"])
def test_r_msg_9_final_scoring_adds_the_figures_and_draws_nothing(edition):
    g = mgame(["M"], edition)
    g.set_scoreboard(0, 2, 0)
    place(g, 0, 1, 2, "city S")  # open city: 2 tiles + 1 coat = 3 at the end
    assert g.over
    res = g.result()["players"][0]
    assert res["score"] == 5 and (res["scoring_meeple"], res["messenger"]) == (2, 0)
    assert draws(g) == []


@pytest.mark.parametrize("edition", ["classic", "c3.1"])
def test_r_msg_11_the_deck_cycles(edition):
    """Every game's draws follow its initial deck order round and round."""
    rules = Rules(players=2, expansions=("messages",), messages=MessagesOptions(edition))
    longest = 0
    for seed in range(40):
        g = new_game(rules, seed)
        play(g, [player("greedy+scoring_figure=coverage")] * 2)
        got = draws(g)
        # eight different messages, then the same eight again in the same order
        assert len(set(got[:8])) == min(8, len(got))
        assert all(got[i] == got[i - 8] for i in range(8, len(got)))
        longest = max(longest, len(got))
    assert longest > 8  # the cycle was really exercised


def test_deck_option_puts_named_tiles_on_top():
    """R-MSG-11: the deck is drawn in order and a resolved message goes to the bottom,
    so a game's first eight draws are its deck from the top. Classic with a deck
    option: the named messages first, the rest in rulebook order; c3.1 shuffled: the
    eight c3.1 messages once each."""
    want = {"classic": ["per_farmer", "extra_tile", "smallest_road", "smallest_city",
                        "smallest_monastery", "coats_of_arms", "per_knight", "score_and_return"],
            "c3.1": None}
    seats = [player("greedy+scoring_figure=coverage")] * 2
    for edition, deck in (("classic", ("per_farmer", "extra_tile")), ("c3.1", ())):
        rules = Rules(expansions=("messages",), messages=MessagesOptions(edition, False, deck))
        for seed in range(40):
            got = draws(Game(rules, seed, seats))
            if len(got) >= 8:
                break
        else:
            raise AssertionError(f"{edition}: no game of 40 drew eight messages")
        if want[edition] is None:
            assert sorted(got[:8]) == sorted(ACTIONS["c3.1"])
        else:
            assert got[:8] == want[edition]


# ---------------------------------------------------------------- the 8 actions (R-MSG-8, R-MSG-10)


def board_with_figures(action, seat):
    """Seat 0: a highwayman on D + U at 1,0 (2 tiles) and another on the lone curve V
    at 0,-1 (1 tile). Seat 1: a monk on B at 1,-1, whose neighbours are D, U and V.
    (A B at 1,1, and for seat 1 another at 1,2, fill the other turns, touching none
    of these.) Then `seat`, on 1, closes D's city with a knight on E at 0,1: 4 points,
    5, a dark space: `action` is drawn, the knight back home (classic)."""
    g = mgame(["U", "B", "V", "B"] + ["B"] * seat + ["E"], "classic", deck=[action])
    g.set_scoreboard(seat, 1, 0)
    place(g, 1, 0, 0, "road E")
    place(g, 1, 1, 0)
    place(g, 0, -1, 0, "road S")  # V r0: road S-W, its own road
    place(g, 1, -1, 0, "monastery")  # seat 1
    if seat == 1:
        place(g, 1, 2, 0)
    place(g, 0, 1, 2, "city S")
    figure_to(g, seat, "meeple", points=4)
    return g


def test_smallest_road_offers_only_the_cheapest():
    g = board_with_figures("smallest_road", 0)
    ((two, p2), (road, pts)) = offered(g.decision)
    assert two == ("2", None) and p2 == 2
    assert road[0] == "smallest_road" and pts == 1  # the 1-tile curve, not the 2-tile road
    assert g.board.segment_place(road[1])[:2] == (0, -1)
    g.apply(road)
    ev = [e for e in g.events if e["e"] == "message"][-1]
    assert ev["points"] == 1 and ev["target"].startswith("0,-1 road")
    assert len(g.board.figures()) == 3  # the highwayman stays (classic message 1)


def test_smallest_actions_not_possible_without_a_figure():
    for action in ("smallest_city", "smallest_monastery"):  # seat 0's knight went home
        assert offered(board_with_figures(action, 0).decision) == [(("2", None), 2)]
    (_, _), (mon, pts) = offered(board_with_figures("smallest_monastery", 1).decision)
    assert mon[0] == "smallest_monastery" and pts == 1 + 3  # the monk's tile and D, U, V
    assert offered(board_with_figures("smallest_road", 1).decision) == [(("2", None), 2)]


def counting_board(action, scorer):
    """Seat 0's knight on M r2 at 0,1 (city S, E; 1 coat), joined from the east by M r0
    at 1,1 (city N, W; 1 coat): city D + M + M, 2 coats, open. Seat 1's farmer on U's
    north field at 1,0 (no city of its own). `scorer` also holds a highwayman on A at
    2,0 (road W) and closes the road with A at -1,0 (road E): A + D + U + A, 4 points
    from 1: 5, dark, and `action` is drawn with the highwayman home; the knight and
    the farmer stay. (The other seat's fillers: B below the road.)"""
    g = mgame(["M", "U"] + (["A", "M", "A"] if scorer == 0 else ["M", "A", "B", "A"]),
              "classic", deck=[action])
    g.set_scoreboard(scorer, 1, 0)
    place(g, 0, 1, 2, "city S")  # seat 0's knight: D + M r2 (city S, E), 1 coat
    place(g, 1, 0, 0, "field Nw")  # seat 1's farmer on U's north field
    if scorer == 0:
        place(g, 2, 0, 1, "road W")
        place(g, 1, 1, 0)  # M r0 (city N, W) joins the city from the east: 2 coats
    else:
        place(g, 1, 1, 0)
        place(g, 2, 0, 1, "road W")
        place(g, 0, -1, 0)
    place(g, -1, 0, 3)
    figure_to(g, scorer, "meeple", points=4)
    return offered(g.decision)


def test_counting_actions():
    assert counting_board("coats_of_arms", 0)[1] == (("coats_of_arms", None), 2 * 2)  # 2 coats
    assert counting_board("per_knight", 0)[1] == (("per_knight", None), 2)
    assert counting_board("per_farmer", 0)[1] == (("per_farmer", None), 0)
    assert counting_board("per_farmer", 1)[1] == (("per_farmer", None), 2)
    assert counting_board("coats_of_arms", 1)[1] == (("coats_of_arms", None), 0)


def message_8_shared(edition, action, scorer):
    """Seat 0's farmer on E's field at 0,1 (E closes D's city: nobody in it); seat 1's
    farmers on U's south field at 1,0 and on the inner field of the curve V r1 at 2,0;
    A at 2,1 (road S) and B at 1,1 join the three fields (with fillers B below the
    road): one field, seat 0 one farmer, seat 1 two, bordering the completed city D +
    E: 3 points. `scorer` also has a highwayman on A at 2,1, whose road it closes with
    A at -1,0: A + D + U + V + A, 5 points from 0: 5, dark: `action` is drawn."""
    g = mgame(["E", "U", "B", "V"] + (["A", "B", "A"] if scorer == 0 else ["B", "A", "B", "A"]),
              edition, deck=[action])
    place(g, 0, 1, 2, "field Nw")
    place(g, 1, 0, 0, "field Se")
    place(g, 0, -1, 0)
    place(g, 2, 0, 1, "field Wn")
    if scorer == 1:
        place(g, 1, -1, 0)
    place(g, 2, 1, 0, "road S")
    place(g, 1, 1, 0)
    place(g, -1, 0, 3)
    figure_to(g, scorer, "meeple", points=5)
    return g


@pytest.mark.parametrize("edition, action", [("classic", "score_and_return"),
                                             ("c3.1", "score_and_retrieve")])
def test_message_8_with_and_without_the_majority(edition, action):
    # seat 0 alone on the open road D + U (2 tiles): majority, 2 points, returned
    g = mgame(["U", "B", "E"], edition, deck=[action])
    g.set_scoreboard(0, 1, 0)
    place(g, 1, 0, 0, "road E")
    place(g, 0, -1, 0)
    place(g, 0, 1, 2, "city S")  # closes D's city with a knight: 4 points, 5
    figure_to(g, 0, "meeple", points=4)
    ch = offered(g.decision)
    assert [p for _, p in ch] == [2, 2]
    g.apply(ch[1][0])
    assert [e["points"] for e in g.events if e["e"] == "message"] == [2]
    assert g.supply[0] == 7 and not g.board.figures()
    # a field shared with two of seat 1's farmers: seat 0 has no majority, scores 0
    # and still takes its farmer back; seat 1 (its own message) scores the field's 3
    # with either farmer (by hand: message_8_shared)
    g = message_8_shared(edition, action, 0)
    ch = offered(g.decision)
    assert [p for _, p in ch] == [2, 0]
    g.apply(ch[1][0])
    assert [e["points"] for e in g.events if e["e"] == "message"] == [0] and g.supply[0] == 7
    assert [p for _, p in offered(message_8_shared(edition, action, 1).decision)] == [2, 3, 3]


@pytest.mark.parametrize("edition, action", [("classic", "extra_tile"), ("c3.1", "extra_turn")])
def test_message_4_extra_tile_or_turn(edition, action):
    g = mgame(["E", "U", "U"], edition, deck=[action])
    g.set_scoreboard(0, 1, 0)
    place(g, 0, 1, 2, "city S")
    figure_to(g, 0, "meeple")  # 5
    assert (action, None) in g.decision.choices
    g.apply((action, None))
    # the same seat places the next tile (classic: a turn part; c3.1: a new turn)
    assert g.decision.kind == "place" and g.decision.seat == 0 and g.turn == 2
    place(g, 1, 0, 0)
    assert g.decision.seat == 1  # then play passes on
    ev = [e for e in g.events if e["e"] == "message"][0]
    assert ev["resolved"] == "action" and ev["extra"] and ev["points"] == 0


@pytest.mark.parametrize("edition, action", [("classic", "extra_tile"), ("c3.1", "extra_turn")])
def test_message_4_not_possible_with_the_stack_empty(edition, action):
    g = mgame(["E"], edition, deck=[action])
    g.set_scoreboard(0, 1, 0)
    place(g, 0, 1, 2, "city S")
    figure_to(g, 0, "meeple")
    assert g.decision.choices == (("2", None),)


def test_asking_the_impossible_gets_2_points():
    # R-MSG-8: a policy asking for an impossible action gets the 2 points; seat 0's
    # always_action plays the message in C (the other kinds come back here)
    rules = Rules(expansions=("messages",), messages=MessagesOptions("c3.1", False, ("smallest_road",)))
    g = Game(rules, 0, [player("always_action"), None], stack=["E", "U"], pause=("place", "scoring_figure"))
    g.set_scoreboard(0, 1, 0)
    place(g, 0, 1, 2, "city S")
    figure_to(g, 0, "meeple")  # 5: smallest_road, and seat 0 has no highwayman
    ev = [e for e in g.events if e["e"] == "message"]
    assert [(e["action"], e["resolved"], e["points"]) for e in ev] == [("smallest_road", "2", 2)]
    assert positions(g, 0) == [7, 0] and g.decision.seat == 1


# ---------------------------------------------------------------- properties


@pytest.mark.parametrize("edition", ["classic", "c3.1"])
def test_properties_over_seeded_games(edition):
    rules = Rules(players=3, expansions=("messages",), messages=MessagesOptions(edition))
    specs = ["greedy", "random", "greedy+scoring_figure=spread+messages=always_action",
             "greedy+scoring_figure=coverage+messages=always_2", "first", "greedy+scoring_figure=alternate"]
    total_draws = 0
    for seed in range(200):
        seats = [player(specs[(seed + s) % len(specs)]) for s in range(3)]
        g = new_game(rules, seed)
        while g.decision is not None:
            d = g.decision
            g.apply(seats[d.seat].choose(g, d))
            if not g.over:
                for s in range(3):  # the score is the two figures' sum during play
                    assert g.scores[s] == sum(positions(g, s))
        active = None
        for e in g.events:
            if e["e"] == "draw":
                active = e["seat"]
            if e["e"] == "message_draw":
                assert e["seat"] == active  # only the active player draws
                total_draws += 1
            if e["e"] == "final":
                break
        assert not [e for e in g.events[g.events.index({"e": "final", "turn": g.turn}):]
                    if e["e"] == "message_draw"]
    assert total_draws > 100


# ---------------------------------------------------------------- scripted games

def test_scripted_c31_game_json():
    import json
    import subprocess
    import sys
    from pathlib import Path
    script = Path(__file__).resolve().parent / "scripts" / "messages_c31.toml"
    r = subprocess.run([sys.executable, "-m", "sim", "play", "--script", str(script), "--json"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    p0 = json.loads(r.stdout)["players"][0]
    assert p0["score"] == 11 and (p0["scoring_meeple"], p0["messenger"]) == (0, 6)
    assert {k: v for k, v in p0["points"].items() if v} == {"road": 6, "message": 1, "monastery": 4}
    assert p0["messages"]["drawn"] == {"smallest_road": 1}
    assert p0["messages"]["taken"] == {"smallest_road": 1}


def test_scripted_classic_game_with_an_extra_tile():
    from pathlib import Path
    from engine import play_script
    from sim.games.script import load_script
    g = play_script(load_script(Path(__file__).resolve().parent / "scripts" / "messages_classic.toml"))
    p0 = g.result()["players"][0]
    assert p0["score"] == 14 and (p0["scoring_meeple"], p0["messenger"]) == (5, 0)
    seats = [(e["turn"], e["seat"]) for e in g.events if e["e"] == "place"]
    assert seats[4:] == [(5, 0), (6, 0), (7, 1)]  # the extra tile is seat 0's turn part


def test_script_message_errors(tmp_path):
    from pathlib import Path
    from sim.errors import InputError
    from engine import play_script
    from sim.games.script import load_script
    base = (Path(__file__).resolve().parent / "scripts" / "messages_c31.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(base.replace('message_target = "3,0 road S"', 'message_target = "2,0 road E"'))
    with pytest.raises(InputError, match=r"turn 5: message 1 \(smallest_road\): message_target = "
                                         r"'2,0 road E' is not among the legal targets"):
        play_script(load_script(bad))
    bad.write_text(base.replace('score_on = "messenger"', 'score_on = { road = "meeple" }'))
    with pytest.raises(InputError, match=r"turn 5: score_on: a table by source needs the classic"):
        load_script(bad)
    bad.write_text(base.replace('message = "action"', 'message = "maybe"'))
    with pytest.raises(InputError, match=r"turn 5: message = 'maybe': expected \"action\" or \"2\""):
        load_script(bad)
    bad.write_text(base.replace('deck = ["smallest_road", "extra_turn"]', 'deck = ["extra_tile"]'))
    with pytest.raises(InputError, match=r"rules.messages.deck: 'extra_tile' is not a c3.1 message"):
        load_script(bad)
