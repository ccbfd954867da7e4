"""Scripted scoring figures of every seat (docs/SCRIPTS.md): `score_on_others` answers
the points another seat receives in the active player's turn (R-MSG-C1: "in every
player's turn"; R-MSG-N1: "for every player in every turn"), and a list by source the
points of one source in the order they come; `carcsim check` writes both, so the
script of a divergence replays the game it came from."""

from pathlib import Path

import pytest

from sim.engine.deal import deck_order
from sim.engine.game import Game
from sim.engine.rules import Rules
from sim.errors import InputError
from sim.expansions.messages import MessagesOptions
from sim.games import differential
from sim.games.script import load_script, play_script
from strategies import player

# Seat 1's highwayman on a road of five tiles that seat 0 closes in turn 5 (W at 3,0):
# the road's 5 points are seat 1's, received in seat 0's turn (R-BASE-8 road scoring).
# Nothing else scores: no other figure, and the city at 0,0–0,1 stays open.
SCRIPT = """
[rules]
players = 2
expansions = ["messages"]

[rules.messages]
edition = "{edition}"

[[turns]]
tile = "U"
at = [1, 0]

[[turns]]
tile = "U"
at = [2, 0]
figure = "follower road E"

[[turns]]
tile = "A"
at = [-1, 0]
rotation = 3

[[turns]]
tile = "E"
at = [0, 1]
rotation = 2
{turn4}

[[turns]]
tile = "W"
at = [3, 0]
{turn5}
"""


def figures(tmp_path: Path, edition: str = "classic", turn5: str = "", turn4: str = "") -> list:
    path = tmp_path / "s.toml"
    path.write_text(SCRIPT.format(edition=edition, turn4=turn4, turn5=turn5))
    res = play_script(load_script(path)).result()["players"]
    return [(p["scoring_meeple"], p["messenger"]) for p in res]


@pytest.mark.parametrize("edition", ["classic", "c3.1"])
def test_another_seat_s_points_go_where_the_script_says(tmp_path, edition):
    """R-MSG-C1, R-MSG-N1: seat 1 chooses the figure for its 5 road points in seat 0's
    turn: the script's answer, or else its policy (the default meeple_only)."""
    assert figures(tmp_path, edition) == [(0, 0), (5, 0)]
    assert figures(tmp_path, edition, 'score_on_others = { seat1 = "messenger" }') == [(0, 0), (0, 5)]
    # the active seat's own answer says nothing about seat 1's points
    assert figures(tmp_path, edition, 'score_on = "messenger"') == [(0, 0), (5, 0)]


def test_classic_answers_by_source_and_in_order(tmp_path):
    """R-MSG-C1: a table by source, its value one figure or a list in the order the
    source's points come."""
    for answer in ('{ seat1 = { road = "messenger" } }', '{ seat1 = { road = ["messenger"] } }'):
        assert figures(tmp_path, "classic", f"score_on_others = {answer}") == [(0, 0), (0, 5)]
    # a source that gave nothing leaves the road's points to the policy
    assert figures(tmp_path, "classic", 'score_on_others = { seat1 = { city = "messenger" } }') \
        == [(0, 0), (5, 0)]


@pytest.mark.parametrize("edition, turn4, turn5, message", [
    ("classic", "", 'score_on_others = { seat2 = "meeple" }',
     r"s.toml: turn 5: score_on_others.seat2: expected a seat, seat0 .. seat1"),
    ("classic", "", 'score_on_others = "messenger"',
     r"s.toml: turn 5: score_on_others = 'messenger': expected a table from seats"),
    ("c3.1", "", 'score_on_others = { seat1 = { road = "messenger" } }',
     r"turn 5: score_on_others.seat1: a table by source needs the classic edition"),
    ("classic", "", 'score_on_others = { seat1 = { road = "knight" } }',
     r"turn 5: score_on_others.seat1: road = 'knight': expected \"meeple\" or \"messenger\", or a table"),
    ("classic", "", 'score_on_others = { seat1 = { roads = "meeple" } }',
     r"turn 5: score_on_others.seat1.roads: not a source of points: expected one of road, city"),
    ("c3.1", "", 'score_on_others = { seat1 = ["messenger"] }',
     r"turn 5: score_on_others.seat1: a list: expected \"meeple\" or \"messenger\" \(c3.1: one figure a turn"),
    ("classic", "", 'score_on_others = { seat01 = "meeple" }', r"turn 5: score_on_others.seat01: expected a seat"),
    ("classic", "", 'score_on_others = { seat1 = { road = ["messenger", "meeple"] } }',
     r"turn 5: score_on_others.seat1.road: 2 answers, but the seat received points from 1 road "
     r"source this turn"),
    ("classic", 'score_on_others = { seat0 = { road = ["meeple"] } }', "",
     r"turn 4: score_on_others.seat0.road: 1 answer, but the seat received points from 0 road "
     r"sources this turn"),
    ("classic", "", 'score_on = { road = ["meeple"] }',
     r"turn 5: score_on.road: 1 answer, but the seat received points from 0 road sources"),
])
def test_answers_nothing_asks_for_are_refused(tmp_path, edition, turn4, turn5, message):
    """A list answers points one by one: one longer than the points is a mistake. One
    word stands for whatever points come (as `score_on` always has), so it is not."""
    with pytest.raises(InputError, match=message):
        figures(tmp_path, edition, turn5, turn4)


def test_one_word_stands_for_whatever_points_come(tmp_path):
    assert figures(tmp_path, "classic", 'score_on = "messenger"\nscore_on_others = { seat1 = { city = '
                   '"messenger" } }', 'score_on_others = { seat0 = "messenger" }') == [(0, 0), (5, 0)]


def _recorded(edition: str, seed: int, tmp_path: Path, players: int = 3) -> tuple[int, str, Path, Game]:
    """A seeded game whose seats choose scoring figures otherwise than a script's
    policies would, recorded as `carcsim check` records it."""
    rules = Rules(players=players, expansions=("messages",), messages=MessagesOptions(edition))
    g = Game(rules, seed)
    rec = differential._Recorder(deck_order(rules, seed))
    seats = [player(s) for s in ("random", "greedy+scoring_figure=coverage", "random")[:players]]
    others = 0
    while g.decision is not None:
        d = g.decision
        choice = seats[d.seat].choose(g, d)
        others += d.kind == "scoring_figure" and d.seat != g.seat
        rec.note(g, d, choice)
        g.apply(choice)
    path = tmp_path / f"{edition}-{seed}.toml"
    text = rec.script(g, max(n for n, t in rec.turns.items() if "tile" in t))
    path.write_text(text)
    return others, text, path, g


@pytest.mark.parametrize("edition, seeds", [("classic", (0, 2, 5)), ("c3.1", (0, 2))])
def test_a_recorded_game_replays_to_the_same_result(tmp_path, edition, seeds):
    """Every seat's scoring figures are in the script (before, only the active seat's
    were: these games then replayed to other scores, or stopped at a message the
    replay never drew), and the replay agrees with the reference engine too."""
    others = 0
    lists = False
    for seed in seeds:
        n, text, path, g = _recorded(edition, seed, tmp_path)
        others += n
        lists |= '", "' in "".join(line for line in text.splitlines() if line.startswith("score_on"))
        assert play_script(load_script(path)).result() == g.result()
        compared, div = differential.check_script(path)
        assert div is None and compared > 70  # a decision or more a turn
    assert others >= 3  # the games do ask other seats
    assert lists == (edition == "classic")  # seed 5: a message chain's points on both figures


@pytest.mark.parametrize("edition, seed, players", [("classic", 0, 2), ("classic", 0, 3), ("c3.1", 0, 3)])
def test_a_script_cut_at_a_turn_with_an_extra_tile_holds_the_extra_tile(tmp_path, edition, seed, players):
    """A divergence's script ends with the turn it happened in; when a message of that
    turn gave an extra tile or turn (message 4), the script goes on through it: cut
    before it, the replay found the action impossible (no tile left to draw)."""
    rules = Rules(players=players, expansions=("messages",), messages=MessagesOptions(edition))
    first = Game(rules, seed)
    specs = ("random", "greedy+scoring_figure=coverage", "random+scoring_figure=coverage")
    seats = [player(specs[i % 3]) for i in range(players)]
    while first.decision is not None:
        first.apply(seats[first.decision.seat].choose(first, first.decision))
    extra = min(e["turn"] for e in first.events if e["e"] == "message" and e["extra"])
    g = Game(rules, seed)  # again, stopped in that turn as a divergence would stop it
    rec = differential._Recorder(deck_order(rules, seed))

    def choose(game, d):
        return seats[d.seat].choose(game, d)
    while g.turn < extra or g.decision.kind == "place" and g.turn == extra and not rec.turns.get(extra):
        d = g.decision
        rec.note(g, d, choice := choose(g, d))
        g.apply(choice)
    last = differential.finish_turn(g, choose, rec)
    assert last > extra
    path = tmp_path / "cut.toml"
    path.write_text(rec.script(g, last))
    replay = play_script(load_script(path))
    assert replay.turn - 1 == last
    # the same game through the extra turn (the replay then ends: final scoring)
    assert [e for e in replay.events if e["turn"] <= last] == [e for e in g.events if e["turn"] <= last]


def test_an_action_that_chooses_no_target_keeps_its_place_in_the_targets(tmp_path):
    """Classic 2-player seeds 12 and 33 draw, in one turn, an action that chooses no
    target (per_knight, per_farmer: "-") before one that does: the recorder had cut the
    targets at the first, so the later one replayed as its first legal target."""
    for seed in (12, 33):
        _, text, path, g = _recorded("classic", seed, tmp_path, players=2)
        held = [line for line in text.splitlines() if line.startswith("message_target") and '"-"' in line]
        assert held
        assert play_script(load_script(path)).result() == g.result()
