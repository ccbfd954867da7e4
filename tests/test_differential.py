"""The production engine against the reference engine, decision by decision (issue 12).

The default run plays 300 full seeded games covering all 32 expansion combinations,
both editions of The Messages (with the ZMG switch), 2-6 players and the built-in
strategies; the soak (CARCSIM_SOAK=1) plays 10,000. Planted bugs check that the
harness notices a difference, says what it is and writes a script that replays it.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sim.games import differential
from sim.expansions.messages import MessagesOptions
from sim.reference import mayors as ref_mayors
from sim.reference import scoring as ref_scoring
from sim.engine.rules import Rules

DEFAULT_GAMES = 300


def _coverage(games):
    combos, seats, editions, strategies, zmg = set(), set(), set(), set(), False
    for rules, _, specs in games:
        combos.add(rules.expansions)
        seats.add(rules.players)
        if "messages" in rules.expansions:
            editions.add(rules.messages.edition)
            zmg |= rules.messages.zmg_alone
        strategies.update(specs)
    return combos, seats, editions, strategies, zmg


def test_default_plan_covers_every_combination():
    combos, seats, editions, strategies, zmg = _coverage(
        differential.plan(DEFAULT_GAMES, editions=("c3.1", "classic"), zmg=True))
    assert len(combos) == 32 and combos == set(differential.COMBOS)
    assert seats == {2, 3, 4, 5, 6}
    assert editions == {"c3.1", "classic"} and zmg
    assert strategies == set(differential.DEFAULT_STRATEGIES)


def test_engines_agree_on_300_games():
    summary = differential.check_many(
        differential.plan(DEFAULT_GAMES, editions=("c3.1", "classic"), zmg=True, seed=1000))
    assert summary.divergence is None, summary.divergence.report()
    assert summary.games == DEFAULT_GAMES
    assert summary.decisions > 100 * DEFAULT_GAMES  # full games: a base game alone has 71 placements


@pytest.mark.soak
@pytest.mark.skipif(os.environ.get("CARCSIM_SOAK") != "1", reason="set CARCSIM_SOAK=1")
def test_engines_agree_soak():
    games = int(os.environ.get("CARCSIM_SOAK_GAMES", "10000"))
    summary = differential.check_many(
        differential.plan(games, editions=("c3.1", "classic"), zmg=True, seed=100_000))
    assert summary.divergence is None, summary.divergence.report()


# ---------------------------------------------------------------- the harness can fail


MM_GAME = (Rules(players=3, expansions=("messages", "mayors", "courier"),
                 messages=MessagesOptions(edition="classic")),
           ["greedy", "random", "greedy+messages=always_action"])


def _first_divergence(rules, specs, seeds=range(30)):
    for seed in seeds:
        _, div = differential.check_game(rules, seed, specs)
        if div is not None:
            return div
    pytest.fail("the planted bug was never noticed")


def test_a_wrong_monastery_value_is_reported_and_scripted(monkeypatch, tmp_path):
    real = ref_scoring.value

    def nine_plus_one(board, f, final):  # the planted bug: a completed monastery scores 10
        return real(board, f, final) + (f.kind == "monastery" and not final)

    monkeypatch.setattr(ref_scoring, "value", nine_plus_one)
    div = _first_divergence(*MM_GAME)
    assert div.what.startswith("event differs")
    assert "'points': 9" in div.what.split("reference says")[0]
    assert "'points': 10" in div.what.split("reference says")[1]
    assert "R-BASE-5..8" in div.rulings
    assert f"turn {div.turn:>3}" in div.log  # the log reaches the turn of the divergence
    path = tmp_path / "div.toml"
    path.write_text(div.script)
    _, again = differential.check_script(path)  # the script replays the same divergence
    assert again is not None and again.what == div.what


def test_a_production_bug_is_reported_as_production(monkeypatch):
    """The same planted bug on the production side (the C game's score events, as
    sim/engine/game.py reads them): the message names production's value first."""
    from sim.engine.game import Game

    class Buggy(Game):
        def _event(self, row):
            e = super()._event(row)
            if e["e"] == "score" and e["feature"] == "road" and not e["final"]:
                e["points"] += 1
            return e

    monkeypatch.setattr(differential, "Game", Buggy)
    div = _first_divergence(Rules(players=2), ["greedy", "random"])
    production, reference = div.what.split("reference says")
    assert "'feature': 'road'" in production
    points = [int(part.split("'points': ")[1].split(",")[0]) for part in (production, reference)]
    assert points[0] == points[1] + 1


def test_a_wrong_ride_order_is_reported(monkeypatch):
    real = ref_mayors.ride_targets
    monkeypatch.setattr(ref_mayors, "ride_targets", lambda g, segs: tuple(reversed(real(g, segs))))
    rules = Rules(players=2, expansions=("mayors",))
    div = _first_divergence(rules, ["random", "random"], range(60))
    assert div.what.startswith("ride choices differ")
    assert "the same choices in another order" in div.what
    assert div.rulings.startswith("R-MM-6")


SCRIPTS = sorted((Path(__file__).resolve().parent / "scripts").glob("*.toml"))


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_scripted_games_agree(path):
    """The hand-computed scripts of tests/scripts play alike in both engines."""
    compared, div = differential.check_script(path)
    assert div is None, div.report()
    assert compared > 0


# ---------------------------------------------------------------- the command


def carcsim(*args):
    return subprocess.run([sys.executable, "-m", "sim", *map(str, args)], capture_output=True, text=True)


def test_check_command_summary(tmp_path):
    r = carcsim("check", "--games", 4, "--expansions", "messages,mayors", "--players", 3,
                "--edition", "classic", "--strategies", "greedy,random", "--seed", 7, "--out", tmp_path)
    assert r.returncode == 0, r.stderr
    line = r.stdout.strip().splitlines()[-1]
    assert line.startswith("4 games, 0 divergences, ") and line.endswith(" decisions compared")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, message", [
    (("--expansions", "gardens"), "--expansions 'gardens': unknown expansion 'gardens'"),
    (("--players", "7"), "--players '7': expected a whole number 2..6, or a range such as 2-6"),
    (("--edition", "2025"), "--edition '2025': expected c3.1, classic or both"),
    (("--expansions", "base", "--edition", "classic"),
     "--edition classic: does nothing without messages in --expansions"),
    (("--zmg", "--edition", "c3.1"), "--zmg: does nothing with --edition c3.1"),
    (("--strategies", "greedy,clever"), "--strategies: unknown strategy 'clever'"),
    (("--games", "0"), "--games 0: expected a whole number of at least 1"),
    (("--out", "/nonexistent/dir"), "--out /nonexistent/dir: expected an existing directory"),
])
def test_check_command_bad_input(args, message):
    r = carcsim("check", "--games", 1, *args)
    assert r.returncode == 2
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and message in r.stderr


@pytest.mark.parametrize("players, cycle", [("3", [3, 3, 3, 3]), ("2-4", [2, 3, 4, 2]), (" 5-5 ", [5, 5, 5, 5])])
def test_check_players_cycle_game_by_game_with_chosen_expansions(players, cycle):
    options = differential._parse_options(4, "abbot,river", players, "both", "")
    games = list(differential.plan(4, **options))
    assert [rules.players for rules, _, _ in games] == cycle
    assert {rules.expansions for rules, _, _ in games} == {("abbot", "river")}


def test_check_players_over_every_combination_stay_a_count_for_each_round_of_32():
    # the default: 32 games of 2 players, one per combination, then 32 of 3 ...
    options = differential._parse_options(160, "all", "2-6", "both", "")
    games = list(differential.plan(160, **options))
    assert [rules.players for rules, _, _ in games] == [n for n in range(2, 7) for _ in range(32)]
    assert len({rules.expansions for rules, _, _ in games[:32]}) == 32
    options = differential._parse_options(64, "all", "4-5", "both", "")
    assert [r.players for r, _, _ in differential.plan(64, **options)] == [4] * 32 + [5] * 32


@pytest.mark.parametrize("players", ["4-3", "2-", "-3", "1-4", "2-7", "2--4", "two"])
def test_check_players_outside_2_to_6_are_refused(players):
    with pytest.raises(differential.InputError, match=r"expected a whole number 2\.\.6, or a range"):
        differential._parse_options(1, "all", players, "both", "")


def test_check_command_at_a_divergence_writes_a_script_and_exits_1(monkeypatch, tmp_path, capsys):
    from sim.cli.main import app

    real = ref_scoring.value
    monkeypatch.setattr(ref_scoring, "value", lambda board, f, final: real(board, f, final)
                        + (f.kind == "city" and not final))  # planted: a city 1 point too many
    rv = app(["check", "--games", "5", "--expansions", "base", "--players", "2", "--out",
              str(tmp_path)], standalone_mode=False)
    assert rv == 1
    out = capsys.readouterr().out
    assert out.startswith("divergence: seed 0, 2 players")
    written = list(tmp_path.iterdir())
    assert [p.name for p in written] == ["divergence-seed0.toml"]
    assert f"scripted game: {written[0]} (replays the divergence)" in out
    assert re.fullmatch(r"1 games, 1 divergences, \d+ decisions compared", out.strip().splitlines()[-1])
