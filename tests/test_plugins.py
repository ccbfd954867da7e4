"""A user's own strategy, named where it lives (strategies/plugins.py, docs/STRATEGIES.md):
a file, a module or an installed entry point, composed with built-ins, in `play`,
`run` (in-process and in a worker process that cannot read the file), `replay`; its
hash in the manifest; its faults as one line."""

import pickle
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import polars as pl
import pytest

from sim.engine.game import Game
from sim.engine.play import play
from sim.engine.rules import Rules
from sim.errors import InputError, StrategyError
from sim.tournament import plan
from sim.tournament.config import load_experiment, parse_experiment
from sim.tournament.replay import replay_game
from sim.tournament.run import run_experiment
from strategies import make, player, plugins

ROOT = Path(__file__).resolve().parent.parent

MINE = '''
from strategies import make


class Cautious:
    """Greedy, but with `k` followers kept back: no figure once fewer remain."""

    KINDS = ("place",)

    def __init__(self, k=2):
        self.k, self.greedy = k, make("greedy")

    def choose(self, view, decision, rng):
        if view.supply[decision.seat] <= self.k:
            free = [c for c in decision.choices if c[3] == -1]
            if free:
                return free[0]
        return self.greedy.choose(view, decision, rng)


class Raises:
    def choose(self, view, decision, rng):
        return {}["nothing"]


class Illegal:
    def choose(self, view, decision, rng):
        return (99, 99, 0, -1, -1)


class Exits:
    def choose(self, view, decision, rng):
        raise SystemExit(0)


class Picky:
    def __init__(self, k=2):
        if k > 1:
            raise ValueError("k must be 0 or 1")

    def choose(self, view, decision, rng):
        return decision.choices[0]
'''


@pytest.fixture
def mine(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.py").write_text(MINE)
    return tmp_path / "mine.py"


def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "sim", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd)


def _lowest_supply(spec: str) -> int:
    """Seat 0's fewest followers in supply over a game of The Messages against greedy."""
    seats = [player(spec), player("greedy")]
    g = Game(Rules(players=2, expansions=("messages",)), 4, seats)
    low = g.supply[0]
    while g.decision is not None:
        d = g.decision
        g.apply(seats[d.seat].choose(g, d))
        low = min(low, g.supply[0])
    assert g.over
    return low


def test_a_file_policy_plays_with_its_parameters_and_composes(mine):
    """Cautious(k=6) never goes below 6 followers in supply (it places one only while
    it holds 7); greedy goes lower; the composition's messages part is always_2."""
    seat = player("mine.py:Cautious(k=6)+messages=always_2")
    assert seat.name == "mine.py:Cautious+messages=always_2"  # as named: no default fill-ins
    assert type(seat.by_kind["messages"]).__name__ == "AlwaysTwo"
    assert _lowest_supply("mine.py:Cautious(k=6)+messages=always_2") == 6
    assert _lowest_supply("greedy") < 6


def test_the_kinds_a_plugin_declares_are_all_it_answers(mine):
    seat = player("mine.py:Cautious")
    assert set(seat.by_kind) >= {"scoring_figure", "messages"}  # the defaults answer those
    assert seat._policies["place"] is seat.default


def test_a_module_and_an_entry_point_name_a_policy(tmp_path, monkeypatch):
    (tmp_path / "userpkg_players.py").write_text(MINE)
    dist = tmp_path / "userpkg-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: userpkg\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[carcsim.strategies]\ncautious = userpkg_players:Cautious\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert type(make("userpkg_players:Cautious", {"k": 3})).__name__ == "Cautious"
    by_entry_point = make("cautious", {"k": 1})
    assert type(by_entry_point).__name__ == "Cautious" and by_entry_point.k == 1


@pytest.mark.parametrize("spec, fragment", [
    ("missing.py:X", "missing.py: no such strategy file"),
    ("mine.py:Nope", "mine.py has no 'Nope'"),
    ("mine.py:", "expected <file.py or module>:<class>"),
    ("no_such_module_anywhere:X", "cannot import the strategy module"),
    ("mine.py:Cautious(q=1)", "could not be built: TypeError"),
    ("mine.py:Picky(k=3)", "could not be built: ValueError: k must be 0 or 1"),  # its type, as any error's
    ("nobody_registered_this", "unknown strategy 'nobody_registered_this'"),
])
def test_a_bad_plugin_name_is_one_line(mine, spec, fragment):
    with pytest.raises(InputError, match=fragment):
        player(spec, "--players")
    r = _cli("play", "--seed", 1, "--players", f"{spec},greedy", cwd=mine.parent)
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1, r.stderr
    assert fragment.split("(")[0][:20] in r.stderr


def test_a_file_that_fails_to_load_is_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.py").write_text("import no_such_module_at_all\n")
    with pytest.raises(InputError, match=r"bad.py: the strategy file failed to load: "
                                         r"ModuleNotFoundError"):
        player("bad.py:X")
    (tmp_path / "quits.py").write_text("import sys\nsys.exit(0)\n")
    with pytest.raises(InputError, match=r"quits.py: the strategy file failed to load: SystemExit"):
        player("quits.py:X")
    r = _cli("play", "--seed", 1, "--players", "quits.py:X,greedy", cwd=tmp_path)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr


@pytest.mark.parametrize("name, fragment", [
    ("Raises", r"raised KeyError: 'nothing'"),
    ("Illegal", r"answered \(99, 99, 0, -1, -1\), which is not among its \d+ choices"),
    ("Exits", r"raised SystemExit: 0"),  # a sys.exit(0) in a strategy is no success of carcsim's
])
def test_a_faulty_strategy_ends_the_game_in_one_line(mine, name, fragment):
    seats = [player("greedy"), player(f"mine.py:{name}")]
    g = Game(Rules(players=2), 11, seats)
    with pytest.raises(StrategyError, match=r"^seed 11: seat 1 \(mine.py:" + name +
                       r"\), its place decision at turn 2: " + fragment):
        play(g, seats)
    r = _cli("play", "--seed", 11, "--players", f"greedy,mine.py:{name}", cwd=mine.parent)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert "seed 11: seat 1 (mine.py:" in r.stderr


def test_a_faulty_strategy_in_a_run_names_its_block_and_game(mine, tmp_path):
    """A run's fault names the block and game id as well as the seed: which game of the
    plan it was (plan.game_spec), not only a seed to search the plan for."""
    exp = parse_experiment(CONFIG.replace("mine.py:Cautious(k=4)", "mine.py:Raises"), str(mine.parent / "m.toml"))
    with pytest.raises(StrategyError) as err:
        run_experiment(exp, tmp_path / "run", workers=0)
    m = re.match(r"block (\d+), game (\d+), seed (\d+): seat (\d) \(mine.py:Raises\), its place decision",
                 str(err.value))
    assert m, str(err.value)
    spec = plan.game_spec(exp, int(m[2]))
    assert (spec.block, spec.seed) == (int(m[1]), int(m[3]))
    assert spec.seats[int(m[4])] == "mine.py:Raises"


CONFIG = """
[run]
name = "mine"
seed = 3
blocks = 4
shard_blocks = 2

[rules]
players = 2

[design]
kind = "rotations"
seats = ["mine.py:Cautious(k=4)", "greedy"]
"""


def test_a_run_ships_the_file_and_its_hash_guards_resume_and_replay(mine):
    cfg = mine.parent / "mine.toml"
    cfg.write_text(CONFIG)
    exp = load_experiment(cfg)
    assert dict(exp.plugins) == {"mine.py": MINE}
    digest = plugins.hashes({"mine.py": MINE})["mine.py"]
    assert exp.canonical()["plugins"] == {"mine.py": digest}
    run_experiment(exp, mine.parent / "out", workers=0)
    import json
    manifest = json.loads((mine.parent / "out" / "manifest.json").read_text())
    assert manifest["config"]["plugins"] == {"mine.py": digest}
    g, diffs = replay_game(mine.parent / "out", 1)
    assert diffs == []
    mine.write_text(MINE + "\n# edited\n")
    with pytest.raises(InputError, match=r"mine.py: the strategy file changed since the run"):
        replay_game(mine.parent / "out", 1)
    r = _cli("run", cfg, "--out", mine.parent / "out", "--workers", 0, cwd=mine.parent)
    assert r.returncode == 2 and "the strategy file mine.py changed" in r.stderr, r.stderr
    mine.unlink()  # a report needs no strategy file: the manifest keeps what it needs
    from sim.analysis.report import build
    assert build(mine.parent / "out")["provenance"]["games_stored"] == 8
    # and in a fresh process, where nothing of the file is cached (the players' spellings)
    for args in (("report", "out"), ("compare", "out", "out"), ("export", "out", "--csv", "--out", "csv")):
        r = _cli(*args, cwd=mine.parent)
        assert r.returncode == 0 and "no such strategy file" not in r.stderr, (args, r.stderr)
    with pytest.raises(InputError, match=r"mine.py: no such strategy file"):
        replay_game(mine.parent / "out", 1)


def test_a_worker_that_cannot_read_the_file_plays_the_shipped_text(mine, tmp_path):
    """The worker side of a run on a cluster without shared files: a shard played in a
    fresh process whose working directory holds no strategy file gives the same
    tables as in the driver's process."""
    from sim.tournament.worker import run_shard

    cfg = mine.parent / "mine.toml"
    cfg.write_text(CONFIG)
    exp = load_experiment(cfg)
    here = run_shard(exp, range(0, 2))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "exp.pickle").write_bytes(pickle.dumps(exp))
    code = textwrap.dedent("""
        import pickle, sys
        from pathlib import Path
        from sim.tournament.worker import run_shard
        assert not Path("mine.py").exists()
        exp = pickle.loads(Path("exp.pickle").read_bytes())
        tables = run_shard(exp, range(0, 2))
        Path("players.pickle").write_bytes(pickle.dumps(tables["players"]))
    """)
    r = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    there = pickle.loads((elsewhere / "players.pickle").read_bytes())
    assert pl.from_arrow(there).equals(pl.from_arrow(here["players"]))
    assert "mine.py:Cautious(k=4)" in pl.from_arrow(there)["player"].to_list()


CHECKED = '''
import random

from strategies import make


class Wobbly:
    """greedy, but a coin from the global random module picks between its first two
    placements: not reproducible from the seed"""

    def __init__(self):
        self.greedy = make("greedy")

    def choose(self, view, decision, rng):
        if decision.kind == "place" and len(decision.choices) > 1:
            return decision.choices[random.getrandbits(1)]
        return self.greedy.choose(view, decision, rng)


class Meddler:
    def choose(self, view, decision, rng):
        view.turn = 0
'''


def test_strategies_check_covers_every_combination_and_finds_each_fault(tmp_path, monkeypatch):
    from sim.games import strategy_check

    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.py").write_text(MINE)
    (tmp_path / "checked.py").write_text(CHECKED)
    good = strategy_check.check("mine.py:Cautious")
    assert len(good) == 48 and not any(o.problem for o in good)  # 32 combinations, 16 in 2 editions
    assert {o.rules.players for o in good} == {2, 3, 4, 5, 6}
    assert {o.rules.messages.edition for o in good if "messages" in o.rules.expansions} == {
        "classic", "c3.1"}
    assert all(o.decisions > 0 and o.seconds > 0 for o in good)
    wobbly = strategy_check.check("checked.py:Wobbly")
    assert sum("not deterministic" in o.problem for o in wobbly) >= 20  # a coin per placement
    meddler = strategy_check.check("checked.py:Meddler")
    assert all(o.problem.startswith("tried to change the game: seed ") for o in meddler)
    assert all(o.decisions == 1 for o in meddler)  # the one it was asked, though it failed there
    r = _cli("strategies", "check", "checked.py:Meddler", cwd=tmp_path)
    assert r.returncode == 1 and "48 games (every combination" in r.stdout and "with a problem" in r.stdout
    r = _cli("strategies", "check", "mine.py:Cautious", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.splitlines()[-1].endswith("no problem")


def test_a_seat_is_named_as_its_spec_named_it():
    """A policy answering some kinds gets the defaults for the rest, but its name (in a
    strategy's error line) is what the spec said, not every default filled in."""
    seat = player("always_2")  # answers `messages` only
    assert seat.name == "always_2" and seat.by_kind["place"].name == "greedy"
    assert player("greedy+favour=first").name == "greedy+favour=first"
