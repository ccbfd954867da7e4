"""Counterfactual branching and its estimator, on a forced case worked out by hand."""

import pickle
from pathlib import Path

import polars as pl
import pytest

from sim.analysis.balance import counterfactual_values
from sim.engine.game import Game
from sim.expansions.messages import MessagesOptions
from sim.engine.rules import Rules
from sim.tournament.counterfactual import branch, play_with_branches
from strategies import player


def forced_game():
    """Seat 0: a highwayman on D + four U (5 tiles, open), meeple at 1; on the last tile
    its E closes D's city with a knight: 4 points -> 5, dark: smallest_road is drawn.
    Taking it scores the road's 5 (the highwayman stays) instead of 2; final scoring
    then adds the same 5 for the road in both branches: seat 0 ends at 15 or 12 against
    seat 1's 0, so the action is worth exactly 3 points of margin and no win.

    Greedy seats, paused at every decision kind so the moves here are the test's; the
    branches are played by the seats' own (built-in) policies, in C."""
    rules = Rules(expansions=("messages",), messages=MessagesOptions("c3.1", False, ("smallest_road",)))
    g = Game(rules, 0, [player("greedy")] * 2, stack=["U", "U", "U", "U", "E"],
             pause=("place", "scoring_figure", "messages"))
    cat = g.catalogue
    g.apply((1, 0, 0, 0, cat.variant(cat.index["U"], 0).segment_at("road E")))
    for x in (2, 3, 4):
        g.apply((x, 0, 0, -1, -1))
    g.set_scoreboard(0, 1, 0)  # seat 0 has scored nothing yet
    g.apply((0, 1, 2, 0, cat.variant(cat.index["E"], 2).segment_at("city S")))
    g.apply("meeple")
    assert g.decision.kind == "messages" and g.decision.info["action"] == "smallest_road"
    assert cfm.in_c(g)
    return g


def _in_c(monkeypatch) -> list:
    """The branch sets played by cc_branch_play (sim/csrc/branch.c)."""
    played, real = [], Game.branches
    monkeypatch.setattr(Game, "branches", lambda g, b: played.append(b) or real(g, b))
    return played


def test_branch_value_by_hand(monkeypatch):
    played = _in_c(monkeypatch)
    g = forced_game()
    rows = branch(g, [player("greedy")] * 2, rollouts=3, key="t")
    assert [(r["margin_action"], r["margin_two"], r["win_action"], r["win_two"]) for r in rows] == [
        (15, 12, 1.0, 1.0)] * 3
    assert sum(len(b) for b in played) == 2 * 3  # both branches of every rollout, in C
    assert g.decision.kind == "messages"  # the game itself did not move


def test_estimator_on_the_forced_case(monkeypatch):
    played = _in_c(monkeypatch)
    g = forced_game()
    rows = play_with_branches(g, [player("greedy")] * 2, rollouts=2)
    assert played  # the branches were played in C
    assert g.over and len(rows) == 2 and rows[0]["phase"] == "late"
    cf = pl.DataFrame([{"game_id": 0, "edition": "c3.1", **r} for r in rows])
    v = counterfactual_values(cf).filter(pl.col("phase") == "all").row(0, named=True)
    assert (v["action"], v["d_margin"], v["d_win"], v["games"], v["rollouts"]) == (
        "smallest_road", 3.0, 0.0, 1, 2)


def test_rollouts_are_reproducible_and_differ_by_key():
    """Branches draw their randomness from streams keyed by the rollout: the same key
    gives the same rollouts; other keys give other games (random players)."""
    rules = Rules(expansions=("messages",))
    seats = [player("random+messages=always_2")] * 2
    for seed in range(60):
        g = Game(rules, seed)
        while g.decision is not None and g.decision.kind != "messages":
            g.apply(seats[g.decision.seat].choose(g, g.decision))
        if g.decision is not None and len(g.decision.choices) > 1:
            break
    else:
        raise AssertionError("no message with a possible action in 60 random games")
    first = branch(g, seats, 4, "k")
    assert branch(g, seats, 4, "k") == first
    others = [branch(g, seats, 4, f"other{i}") for i in range(3)]
    assert any(o != first for o in others)
    assert len({(r["margin_action"], r["margin_two"]) for r in first + sum(others, [])}) > 1


# ------------------------------------------------------------ the "when" forks

from sim.engine.deal import Decision  # noqa: E402
from sim.engine.play import play  # noqa: E402
from sim.tournament import counterfactual as cfm  # noqa: E402


def test_distance_to_dark_and_figure_context_by_hand():
    assert [cfm.to_dark(t) for t in (0, 3, 4, 5, 49, 51)] == [5, 2, 1, 5, 1, 4]
    # meeple at 3, messenger at 1, 2 points: the meeple would land on 5 (dark), the
    # messenger on 3 (not): a live choice (R-MSG-C1)
    d = Decision("scoring_figure", 0, "", ("meeple", "messenger"),
                 {"points": 2, "source": "road", "positions": (3, 1)})
    assert cfm.figure_context(d) == {
        "action": "messenger", "other": "meeple", "action_points": 2, "source": "road",
        "dist_meeple": 2, "dist_messenger": 4, "lands": "meeple"}
    same = d._replace(info={"points": 5, "source": "city", "positions": (0, 10)})
    assert cfm.figure_context(same) is None  # both land on dark: nothing to choose


def _first(game, players, found):
    while game.decision is not None:
        d = game.decision
        c = players[d.seat].choose(game, d)
        if found(game, d, c):
            return d, c
        game.apply(c)
    return None


def test_aligned_branch_hands_the_same_tiles_to_the_same_players():
    """At an extra-turn draw (c3.1 message 4) the aligned 2-points branch replays the
    fork on the stack rotated by one: after the action branch's extra tile, the next
    draws go to the same seats with the same tiles in both branches."""
    seats = [player("greedy+messages=always_2")] * 2
    for seed in range(200):
        g = Game(Rules(expansions=("messages",)), seed)
        if _first(g, seats, lambda g, d, c: d.kind == "messages" and d.info["action"] == "extra_turn"
                  and cfm.best_action(g) is not None):
            break
    else:
        raise AssertionError("no extra-turn draw in 200 games")
    d = g.decision
    action = cfm.best_action(g)[0]
    fork_at = len(g.events)
    a = g.clone()
    a.reseed("k/rollout0")
    a.apply(action)
    play(a, seats)
    after = cfm._drawn(a.events[fork_at:])
    b = cfm.realigned(g, after)
    assert b.decision == d and b.scores == g.scores and b.history == g.history
    b.reseed("k/rollout0")
    b.apply(("2", None))
    play(b, seats)

    def draws(x):
        return [(e["seat"], e["tile"]) for e in x.events[fork_at:] if e["e"] == "draw"]
    assert draws(a)[0][0] == d.seat  # the extra turn's tile
    assert draws(a)[1:4] == draws(b)[:3]  # then the same tiles to the same seats
    assert sorted(cfm._drawn(b.events[fork_at:])) == sorted(after)  # the same tiles in all
    row = cfm.aligned_two(g, seats, action, 1, "k")[0]
    assert row == {"margin_two_aligned": cfm.outcome(b.scores, d.seat)[0],
                   "win_two_aligned": cfm.outcome(b.scores, d.seat)[1]}




@pytest.mark.parametrize("kind", ["place", "figure"])
def test_road_fork_swaps_follower_and_messenger(kind):
    """Messengers & Mayors: where greedy puts a follower on a road and the messenger is
    allowed there too, the fork's two choices differ only in the figure kind (R-MM-5),
    in a placement row or in a step-2 figure decision (after activations)."""
    rules = Rules(expansions=("messages", "mayors"))
    seats = [player("greedy")] * 2

    def road_follower(g, d):  # a step-2 follower on a road where the messenger may go too
        return next(((cfm.FOLLOWER, local) for k, local in d.choices if k == cfm.FOLLOWER
                     and (cfm.MESSENGER, local) in d.choices
                     and g.board.variant_at(g.placed_index).segments[local].kind == "road"), None)

    for seed in range(300):
        g = Game(rules, seed)
        hit = _first(g, seats, lambda g, d, c: d.kind == kind and (
            cfm.road_options(g, d, c) if kind == "place" else road_follower(g, d)))
        if hit:
            break
    else:
        raise AssertionError(f"no {kind} decision with both figures allowed on a road in 300 games")
    d, c = hit
    if kind == "figure":  # greedy seldom picks a road there: take the follower
        c = road_follower(g, d)
    messenger, follower, local = cfm.road_options(g, d, c)
    assert messenger[:-2] == follower[:-2] and messenger[-1] == follower[-1] == local
    assert (messenger[-2], follower[-2]) == (cfm.MESSENGER, cfm.FOLLOWER)
    assert c in (messenger, follower) and {messenger, follower} <= set(d.choices)
    ctx = cfm.road_context(g, follower, local)
    assert ctx["road_tiles"] >= 1 and 0 <= ctx["road_open"] <= 2 and isinstance(ctx["ride_near"], bool)
    before = pickle.dumps(g)  # the C save of the whole state
    rows = cfm.fork(g, seats, messenger, follower, d.seat, 2, "r")
    assert pickle.dumps(g) == before and len(rows) == 2
    # greedy is deterministic: a second rollout repeats the first
    assert {**rows[0], "rollout": 1} == rows[1]


def test_fork_values_and_rules_by_hand():
    """Six scoring-figure forks in three blocks; d = messenger − meeple margin:
    lands=messenger: +4, +6, +2 (mean 4); lands=meeple: −2, −4, 0 (mean −2).
    'The figure that lands on dark' takes the messenger at the first three: gain
    (4 + 6 + 2) / 6 = 2 per fork; always the messenger: (12 − 6) / 6 = 1. The
    cross-fitted best context rule judges blocks 0 and 2 by block 1 and block 1 by
    blocks 0 and 2: both say "messenger where it lands on dark", so it is the dark
    rule, which therefore captures all of it."""
    from sim.analysis import forks

    rows = []
    for i, (lands, dm) in enumerate([("messenger", 4), ("meeple", -2), ("messenger", 6),
                                     ("meeple", -4), ("messenger", 2), ("meeple", 0)]):
        rows.append({"game_id": i // 2, "edition": "c3.1", "fork": "scoring_figure", "draw": i,
                     "phase": "mid", "action_points": 3, "dist_meeple": 2, "dist_messenger": 2,
                     "lands": lands, "margin_action": 10 + dm, "margin_two": 10,
                     "win_action": 1.0 if dm > 0 else 0.0, "win_two": 0.0, "seat": 0})
    cf = pl.DataFrame(rows)
    games = pl.DataFrame({"game_id": [0, 1, 2], "block": [0, 1, 2]})
    v = forks.fork_values(cf, games, "scoring_figure")
    by = {(r["dimension"], r["level"]): r for r in v.iter_rows(named=True)}
    assert by[("all", "all")]["d_margin"] == 1.0 and by[("all", "all")]["blocks"] == 3
    assert by[("lands on dark", "messenger")]["d_margin"] == 4.0
    assert by[("lands on dark", "meeple")]["d_margin"] == -2.0
    assert by[("lands on dark", "messenger")]["d_win"] == 1.0
    r = {x["rule"]: x for x in forks.rule_values(cf, games, "scoring_figure").iter_rows(named=True)}
    assert r["the figure that lands on dark"]["gain_margin"] == 2.0
    assert r["always the messenger"]["gain_margin"] == 1.0
    assert r["never the messenger (meeple only)"]["gain_margin"] == 0.0
    assert r["the figure that lands on dark"]["share_of_best"] == 1.0
    assert r[forks.BEST]["gain_margin"] == 2.0


FORK_CONFIG = """
[run]
blocks = 2
[rules]
expansions = ["messages"]
[design]
kind = "counterfactual"
seats = ["greedy", "greedy"]
rollouts = 1
forks = FORKS
"""


def test_fork_kinds_in_configs():
    import pytest

    from sim.tournament.config import parse_experiment
    from sim.errors import InputError
    exp = parse_experiment(FORK_CONFIG.replace("FORKS", '["scoring_figure", "messages"]'), "f.toml")
    assert exp.forks == ("scoring_figure", "messages") and exp.canonical()["design"]["forks"]
    plain = parse_experiment(FORK_CONFIG.replace('forks = FORKS\n', ""), "f.toml")
    assert plain.forks == ("messages",) and "forks" not in plain.canonical()["design"]
    with pytest.raises(InputError, match=r"f.toml: design.forks = \['tiles'\]: expected distinct names"):
        parse_experiment(FORK_CONFIG.replace("FORKS", '["tiles"]'), "f.toml")
    with pytest.raises(InputError, match=r"design.forks: 'road_figure' forks need 'mayors'"):
        parse_experiment(FORK_CONFIG.replace("FORKS", '["road_figure"]'), "f.toml")


# ------------------------------------------------------------ branches in C

CF_CONFIGS = {
    # the shipped message-value config, a few blocks: greedy seats never draw from
    # their streams, so every 2-points branch comes from the game's own end
    "message_counterfactual": None,
    # random seats, 2 rollouts, both fork kinds, 3 players: the left-out branches are
    # replayed from their clones (the streams moved on)
    "random-3p": """
[run]
name = "cf3"
seed = 4
blocks = 3
[rules]
players = 3
expansions = ["messages", "courier"]
[design]
kind = "counterfactual"
seats = ["random+messages=greedy", "greedy+scoring_figure=random", "greedy(extra=1.0)+messages=always_action"]
rollouts = 2
forks = ["messages", "scoring_figure"]
editions = ["classic", "c3.1"]
""",
}


@pytest.mark.parametrize("name", sorted(CF_CONFIGS))
def test_branches_in_c_give_the_rows_of_branches_played_from_python(name, monkeypatch):
    """The worker's counterfactual games on a paused C game (cc_branch_play, the
    aligned branch on a rotated clone, the game's own branch from its end) give the
    rows of the forks played move by move from Python, value for value."""
    from sim.tournament.config import load_experiment, parse_experiment
    from sim.tournament import worker

    if CF_CONFIGS[name] is None:
        exp = load_experiment(Path(__file__).resolve().parent.parent / "sim" / "configs" / f"{name}.toml")
        blocks = range(7, 12)
    else:
        exp = parse_experiment(CF_CONFIGS[name], f"{name}.toml")
        blocks = range(exp.blocks)
    played = []
    real = Game.branches
    monkeypatch.setattr(Game, "branches", lambda g, b: played.append(b) or real(g, b))
    fast = worker.run_shard(exp, blocks)
    monkeypatch.setattr(worker, "built_in", lambda *args: False)
    slow = worker.run_shard(exp, blocks)
    for table in ("games", "players", "counterfactuals"):
        for column in slow[table].column_names:
            assert fast[table][column].equals(slow[table][column]), (table, column)
    cf = slow["counterfactuals"].to_pylist()
    assert len(cf) > 10 and all(r["margin_two"] is not None for r in cf)
    branches = sum(len(b) for b in played)
    if name == "message_counterfactual":  # the action branch and the aligned one only
        assert branches == len(cf) + sum(r["margin_two_aligned"] is not None for r in cf)
    else:
        assert {r["fork"] for r in cf} == {"messages", "scoring_figure"}
        assert branches > 2 * len(cf)  # every left-out branch replayed, aligned ones too


def test_cc_branch_play_refuses_bad_calls_and_leaves_the_game_alone():
    from sim.core import ffi, lib

    rules = Rules(expansions=("messages",))
    seats = [player("greedy")] * 2
    g = Game(rules, 3, seats, record=False, pause=("messages",))
    assert g.decision.kind == "messages"
    before = (g.turn, g.tiles_left, g.scores, g.decision)
    streams = ffi.new("uint64_t[]", [1, 2, 3, 4])
    out = ffi.new("int32_t[]", 4)
    args = lambda choices, rotate=(0, 0): (ffi.new("int32_t[]", choices), ffi.new("int32_t[]", rotate))  # noqa: E731
    n = len(g.decision.choices)
    assert lib.cc_branch_play(g._ptr, g._policies, 2, *args([0, n]), streams, out, 4) == lib.CC_ERR_ARG
    assert lib.cc_branch_play(g._ptr, g._policies, 2, *args([0, 0]), streams, out, 3) == lib.CC_ERR_FULL
    assert lib.cc_branch_play(ffi.NULL, g._policies, 1, *args([0]), streams, out, 4) == lib.CC_ERR_ARG
    python = ffi.new("cc_seat_policy[]", 2)
    ffi.memmove(python, g._policies, ffi.sizeof(python))
    python[1].messages = lib.CC_POL_PYTHON  # a branch could not be finished in C
    assert lib.cc_branch_play(g._ptr, python, 1, *args([0]), streams, out, 4) == lib.CC_ERR_ARG
    assert (g.turn, g.tiles_left, g.scores, g.decision) == before
    # a branch is the clone with the given streams and choice, played out
    assert lib.cc_branch_play(g._ptr, g._policies, 2, *args([0, 0], (0, 1)), streams, out, 4) == 2
    assert (g.turn, g.tiles_left, g.scores, g.decision) == before
    c = g.clone()
    for s in range(2):
        lib.cc_game_set_stream(c._ptr, s, streams[s])
    c.apply(g.decision.choices[0])
    assert c.over and list(out[0:2]) == c.scores
    assert lib.cc_branch_river_left(g._ptr) == 0


def test_every_fork_row_says_which_option_the_game_took():
    """chose_action is the game's own choice at every fork, message forks included (it
    was null there, though RECORDS.md gives it as a flag): at each message fork it is
    whether the game's message event of that turn and seat resolved as the action."""
    seen = set()
    for edition in ("c3.1", "classic"):
        for seed in range(3):
            game = Game(Rules(players=2, expansions=("messages",), messages=MessagesOptions(edition)), seed)
            seats = [player("greedy"), player("greedy+messages=always_2")]
            rows = play_with_branches(game, seats, 1, ("messages",))
            resolved = {(e["turn"], e["seat"], e["action"]): e["resolved"] == "action"
                        for e in game.events if e["e"] == "message"}
            for r in rows:
                assert r["chose_action"] == resolved[r["turn"], r["seat"], r["action"]]
                seen.add((r["seat"], r["chose_action"]))
    assert (1, True) not in seen and {(0, True), (1, False)} <= seen  # always_2 never took one
