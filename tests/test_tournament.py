"""The tournament runner: configs, plan, determinism, resume, faults, a 2-node cluster."""

import json
import math
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from sim.tournament.config import load_experiment, parse_experiment
from sim.errors import InputError
from sim.tournament import plan
from sim.tournament.records import SCHEMA_VERSION
from sim.tournament.replay import replay_game
from sim.tournament.run import run_experiment

ROOT = Path(__file__).resolve().parent.parent

SMALL = """
[run]
name = "small"
seed = 7
blocks = 12
shard_blocks = 3

[rules]
players = 2
expansions = ["messages"]

[design]
kind = "variants"
arms = [{name = "free", player = "greedy"},
        {name = "no_road", player = "greedy(smallest_road=\\"2\\")+scoring_figure=spread"}]
opponents = ["greedy"]
editions = ["c3.1", "classic"]
"""


# a user's strategy: greedy's choice, delegated (a plug-in played from Python)
PLUGIN = """
from strategies import make


class Mine:
    def __init__(self):
        self.greedy = make("greedy")

    def choose(self, view, decision, rng):
        return self.greedy.choose(view, decision, rng)
"""


def small(tmp_path, text=SMALL):
    p = tmp_path / "small.toml"
    p.write_text(text)
    return load_experiment(p)


def tables(out):
    return {name: pl.read_parquet(str(Path(out) / name / "*.parquet")).sort(
        ["game_id", "seat"] if name == "players" else ["game_id"]) for name in ("games", "players")}


def same(a, b):
    return all(a[k].equals(b[k]) for k in a)


def carcsim(*args, env=None):
    return subprocess.run([sys.executable, "-m", "sim", *map(str, args)], capture_output=True,
                          text=True, env=env, cwd=ROOT)


def test_plan_blocks_share_seeds_and_ids_are_unique(tmp_path):
    exp = small(tmp_path)
    per = plan.games_per_block(exp)
    # editions × (free: greedy vs greedy, one game for both seat orders + no_road: 2 rotations)
    assert per == 2 * (1 + 2)
    specs = [s for b in range(exp.blocks) for s in plan.block_games(exp, b)]
    assert [s.game_id for s in specs] == list(range(exp.blocks * per))
    assert len({s.seed for s in specs if s.block == 3}) == 1  # common random numbers
    assert len({s.seed for s in specs}) == exp.blocks
    first = plan.block_games(exp, 0)
    assert [(s.edition, s.variant, s.rotation, s.focal) for s in first[:4]] == [
        ("c3.1", "free", 0, (0, 1)), ("c3.1", "no_road", 0, (0,)), ("c3.1", "no_road", 1, (1,)),
        ("classic", "free", 0, (0, 1))]
    assert first[2].seats[1].startswith("greedy(smallest_road")
    assert plan.game_spec(exp, 37) == specs[37]


def test_a_run_named_by_its_file_replays(tmp_path):
    """No [run] name: the run is named for its config file (run_id and all), and replay
    takes that name, not the manifest's file name (it replayed another run_id)."""
    exp = parse_experiment('[run]\nblocks = 2\n[design]\nkind = "rotations"\n'
                           'seats = ["greedy", "random"]\n', str(tmp_path / "plain.toml"))
    assert exp.name == "plain"
    run_experiment(exp, tmp_path / "out", workers=0)
    for game_id in range(4):
        _, problems = replay_game(tmp_path / "out", game_id)
        assert problems == []


def test_in_process_run_and_replay(tmp_path):
    exp = small(tmp_path)
    s = run_experiment(exp, tmp_path / "out", workers=0)
    assert s.games == 12 * 6 and s.shards_run == 4
    t = tables(tmp_path / "out")
    assert t["games"]["game_id"].to_list() == list(range(72))
    assert t["players"].height == 144
    # one focal seat per game, both seats in the mirror games of `free` (24 of 72)
    assert t["players"].filter(pl.col("focal")).height == 48 + 2 * 24
    assert (t["players"]["points_message"] > 0).any()
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert sorted(manifest["shards"]) == ["0", "1", "2", "3"] and manifest["schema_version"] == SCHEMA_VERSION
    assert manifest["shards"]["3"]["files"]["games"]["rows"] == 18  # 3 blocks × 6 distinct games
    game, problems = replay_game(tmp_path / "out", 53)
    assert problems == [] and game.over
    # the shard's CPU time travels beside its tables, not into them: in-process it is the
    # driver's own (no Ray worker time to add, so `carcsim findings` counts it once)
    assert s.worker_cpu_seconds == 0.0
    from sim.tournament.worker import CPU_KEY, run_shard
    shard = run_shard(exp, range(0, 3))
    assert shard[CPU_KEY] > 0 and set(shard) == {"games", "players", "events", "counterfactuals", CPU_KEY}


def test_resume_after_a_stop_gives_the_same_rows(tmp_path):
    exp = small(tmp_path)
    run_experiment(exp, tmp_path / "whole", workers=0)
    first = run_experiment(exp, tmp_path / "part", workers=0, max_shards=2)
    assert first.shards_run == 2
    again = run_experiment(exp, tmp_path / "part", workers=0)
    assert (again.shards_run, again.shards_skipped) == (2, 2)
    assert same(tables(tmp_path / "whole"), tables(tmp_path / "part"))


GATE = """
import json
import time
from pathlib import Path

from strategies import make


class Gate:
    \"\"\"greedy; while the file `hold` exists it slows every decision down (5 ms: no
    run of these 240 games ends before the sink's first save of a shard, one second
    in) and, once the run's manifest lists a finished shard, it waits: the run is
    still going when the test interrupts it\"\"\"

    def __init__(self, hold="", manifest=""):
        self.hold, self.manifest = Path(hold), Path(manifest)
        self.greedy = make("greedy")

    def _listed(self):
        try:
            return bool(json.loads(self.manifest.read_text()).get("shards"))
        except (OSError, ValueError):
            return False

    def choose(self, view, decision, rng):
        if self.hold.exists():
            time.sleep(0.005)
        while self.hold.exists() and self._listed():
            time.sleep(0.01)
        return self.greedy.choose(view, decision, rng)
"""


def test_driver_interrupted_then_resumed(tmp_path):
    """SIGINT to a running `carcsim run` keeps finished shards; rerunning completes the
    same rows as an uninterrupted run. One seat is a strategy file that holds the run
    once a shard is listed, until the test lets go: the run is still going when the
    signal comes, however fast or slow the machine."""
    out = tmp_path / "run"
    hold = tmp_path / "hold"
    (tmp_path / "gate.py").write_text(GATE)
    gate = f'{tmp_path / "gate.py"}:Gate(hold=\\"{hold}\\",manifest=\\"{out / "manifest.json"}\\")'
    text = (SMALL.replace("blocks = 12", "blocks = 60").replace("shard_blocks = 3", "shard_blocks = 2")
            .replace('opponents = ["greedy"]', f'opponents = ["{gate}"]'))
    cfg = tmp_path / "c.toml"
    cfg.write_text(text)
    hold.touch()
    # started with SIGINT ignored, as a shell's background job (or a test runner's worker
    # process) starts it: carcsim installs its own handler, so Ctrl-C still stops the run
    proc = subprocess.Popen([sys.executable, "-m", "sim", "run", str(cfg), "--out", str(out),
                             "--workers", "0", "--quiet"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    manifest = out / "manifest.json"
    while proc.poll() is None:  # the gate holds the run once a shard is listed
        if manifest.exists() and json.loads(manifest.read_text() or "{}").get("shards"):
            break
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=300)  # a bound for a hang, not a speed
    assert proc.returncode == 130, err
    done = json.loads(manifest.read_text())["shards"]
    assert 0 < len(done) < 30
    hold.unlink()
    r = carcsim("run", cfg, "--out", out, "--workers", "0", "--quiet")
    assert r.returncode == 0, r.stderr
    assert f"{len(done)} already done" in r.stdout
    exp = load_experiment(cfg)
    run_experiment(exp, tmp_path / "whole", workers=0)
    assert same(tables(tmp_path / "whole"), tables(out))


def test_one_and_two_ray_workers_give_the_same_tables(tmp_path):
    """(A killed worker: tests/test_faults.py.) `--address local` honours --workers too."""
    cfg = tmp_path / "c.toml"
    cfg.write_text(SMALL)
    run_experiment(load_experiment(cfg), tmp_path / "ref", workers=0)
    for workers, extra in ((1, ["--address", "local"]), (2, [])):
        r = carcsim("run", cfg, "--out", tmp_path / f"w{workers}", "--workers", workers, "--quiet",
                    *extra)
        assert r.returncode == 0 and r.stderr == "", r.stderr  # --quiet: no Ray notices
        assert "\x1b" not in r.stdout and r.stdout.count("\n") == 1  # nor colour codes
        assert same(tables(tmp_path / "ref"), tables(tmp_path / f"w{workers}"))


def test_two_node_cluster_without_shared_files(tmp_path):
    """A real 2-node Ray cluster on one machine; only the driver writes the output. One
    arm is a user's strategy file, deleted once the config is read: the file travels
    with the run (strategies/plugins.py), no node reads it from disk."""
    import ray
    from ray.cluster_utils import Cluster

    mine = tmp_path / "mine.py"
    mine.write_text(PLUGIN)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    try:
        ray.init(address=cluster.address, log_to_driver=False)
        exp = small(tmp_path, SMALL.replace('player = "greedy"}', f'player = "{mine}:Mine"}}'))
        mine.unlink()
        s = run_experiment(exp, tmp_path / "out", address=cluster.address)
        nodes = {n["NodeID"] for n in ray.nodes() if n["Alive"]}
        assert len(nodes) == 2
    finally:
        ray.shutdown()
        cluster.shutdown()
    t = tables(tmp_path / "out")
    planned = exp.blocks * plan.games_per_block(exp)
    assert s.games == planned
    assert any(p.endswith("mine.py:Mine") for p in t["players"]["player"].to_list())
    assert sorted(t["games"]["game_id"].to_list()) == list(range(planned))  # each exactly once


def test_a_different_config_in_the_same_directory_is_refused(tmp_path):
    exp = small(tmp_path)
    run_experiment(exp, tmp_path / "out", workers=0, max_shards=1)
    other = small(tmp_path, SMALL.replace("seed = 7", "seed = 8"))
    with pytest.raises(InputError, match=r"holds a run of a different config \('small'\): run.seed is 7 there, "
                                         r"8 in .*--force"):
        run_experiment(other, tmp_path / "out", workers=0)
    shards = small(tmp_path, SMALL.replace("shard_blocks = 3", "shard_blocks = 4"))
    with pytest.raises(InputError, match=r"shard_blocks is \d+ there, \d+ in "):
        run_experiment(shards, tmp_path / "out", workers=0)
    s = run_experiment(other, tmp_path / "out", workers=0, force=True)
    assert s.shards_run == 4


BAD = {
    "unknown strategy": ('seats = ["greedy", "random"]', 'seats = ["greedy", "bogus"]',
                         r"design.seats\[1\]: unknown strategy 'bogus'"),
    "bad option": ('seats = ["greedy", "random"]', 'seats = ["greedy(cty=1.0)", "random"]',
                   r"design.seats\[0\]: greedy: unknown parameter 'cty'"),
    "wrong type": ("blocks = 10", 'blocks = "ten"', r"run.blocks = 'ten': expected a whole number"),
    "unknown expansion": ('expansions = ["messages"]', 'expansions = ["tunnels"]',
                          r"rules.expansions: unknown expansion 'tunnels'"),
    "negative games": ("blocks = 10", "blocks = -5", r"run.blocks = -5: expected a whole number ≥ 1"),
    "unknown key": ("seed = 1", "sed = 1", r"run.sed: unknown key"),
    "bad edition": ('edition = "c3.1"', 'edition = "c4"', r"rules.messages.edition = 'c4'"),
    "seat count": ('seats = ["greedy", "random"]', 'seats = ["greedy"]',
                   r"design.seats: 1 players for a 2-player game"),
}

GOOD = """[run]
seed = 1
blocks = 10

[rules]
players = 2
expansions = ["messages"]

[rules.messages]
edition = "c3.1"

[design]
kind = "rotations"
seats = ["greedy", "random"]
"""


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_configs_name_the_field(case, tmp_path):
    old, new, pattern = BAD[case]
    assert old in GOOD
    cfg = tmp_path / "bad.toml"
    cfg.write_text(GOOD.replace(old, new))
    r = carcsim("validate", cfg)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "bad.toml" in lines[0], r.stderr
    import re
    assert re.search(pattern, lines[0]), lines[0]


def test_shipped_configs_validate():
    for cfg in sorted((ROOT / "sim" / "configs").glob("*.toml")):
        parse_experiment(cfg.read_text(), str(cfg))


SPRT_RUN = """
[run]
name = "sprt"
seed = 5
blocks = 400
shard_blocks = 10

[run.sprt]
arm = "greedy"

[rules]
players = 2

[design]
kind = "rotations"
seats = ["greedy", "random"]
"""


def test_sprt_stops_the_run_once_it_decides(tmp_path):
    """Greedy beats random every block: block scores are all 1, on which the generalised
    LLR is Wald's Bernoulli one, ln(0.55/0.5) = 0.0953 a block, plus the 1e-3
    pseudo-count of the unseen score 0 (1e-3 · ln(0.45/0.5)); it crosses ln 19 = 2.944
    at block 31 (31 × 0.0953 = 2.955): H1, and the run stops after the shard holding
    block 31 (4 shards of 10)."""
    exp = small(tmp_path, SPRT_RUN)
    s = run_experiment(exp, tmp_path / "out", workers=0)
    assert s.sprt["decision"] == "H1" and s.sprt["blocks"] == 31 and s.sprt["test"] == "GSPRT"
    assert s.sprt["llr"] == pytest.approx(31 * math.log(1.1) + 1e-3 * math.log(0.9))
    assert s.shards_run == 4 and s.games == 80
    again = run_experiment(exp, tmp_path / "out", workers=0)
    assert again.shards_run == 0 and again.sprt == s.sprt  # decided: nothing more to play
    from sim.analysis.report import build
    row = build(tmp_path / "out")["headline"][-1]
    assert row["question"].startswith("SPRT greedy vs its opponents") and row["blocks"] == 31


def test_shipped_sprt_config_scores_blocks_by_the_paired_difference(tmp_path):
    """Issue 23 item 3: messages_figure_sprt (coverage against meeple_only) stops at H1
    after 76 of its 1,000 blocks; each block's score is 0.5 + half the difference of
    the two arms' mean focal win shares over the block's 4 games (recomputed here from
    the players table), not a 1/0/½ sign; the report row states the test, the decision
    and the LLR with both bounds."""
    from sim.tournament import sequential
    from sim.tournament.sequential import block_outcomes
    from sim.analysis.report import build

    exp = load_experiment("messages_figure_sprt")
    s = run_experiment(exp, tmp_path / "out", workers=0)
    assert (s.sprt["decision"], s.sprt["blocks"], s.sprt["test"]) == ("H1", 76, "GSPRT")
    assert s.games == 80 * 8  # 8 shards of 10 blocks, 8 games a block
    t = tables(tmp_path / "out")
    focal = t["players"].filter(pl.col("focal")).join(t["games"].select("game_id", "block", "variant"),
                                                      on="game_id")
    per = focal.group_by("block", "variant").agg(pl.col("win_share").mean(), pl.len())
    assert set(per["len"]) == {4}
    wide = per.pivot(on="variant", index="block", values="win_share").sort("block")
    expected = dict(zip(wide["block"], 0.5 + (wide["coverage"] - wide["meeple_only"]) / 2))
    got = block_outcomes(t["games"], t["players"], "coverage", "meeple_only")
    assert got == pytest.approx(expected)
    assert len(set(got.values()) - {0.0, 0.5, 1.0}) > 0  # scores between the signs
    first = [got[b] for b in range(76)]
    assert sequential.SPRT(0.5, 0.52).run(first) == ("H1", 76, pytest.approx(s.sprt["llr"]))
    row = build(tmp_path / "out")["headline"][-1]
    assert row["blocks"] == 76 and row["estimate"] == pytest.approx(np.mean(first))
    assert (f"GSPRT H1 (H0 p = 0.5, H1 p = 0.52, α = 0.05, β = 0.05) after 76 blocks, "
            f"LLR {s.sprt['llr']:.3f}, bounds [-2.944, 2.944]") in row["label"]


def test_sprt_config_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(SPRT_RUN.replace('arm = "greedy"', 'arm = "first"'))
    with pytest.raises(InputError, match=r"run.sprt.arm = 'first': expected one of the design's"):
        load_experiment(bad)
    bad.write_text(SPRT_RUN.replace('arm = "greedy"', 'arm = "greedy"\np1 = 0.5'))
    with pytest.raises(InputError, match=r"run.sprt.p1 = 0.5: expected a probability in \(0, 1\), not p0"):
        load_experiment(bad)


def test_progress_lines_without_a_terminal(tmp_path, capsys, monkeypatch):
    """Issue 15 item 3: with stderr not a terminal, a line every PROGRESS_EVERY seconds
    (10 by default; shortened here) with games done, games/s, ETA, interim win shares and
    the SPRT's LLR, and one where the run ends."""
    from sim.tournament import run as run_module

    assert run_module.PROGRESS_EVERY <= 10
    monkeypatch.setattr(run_module, "PROGRESS_EVERY", 0.01)
    exp = small(tmp_path, SPRT_RUN)
    run_experiment(exp, tmp_path / "out", workers=0, progress=True)
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == "" and len(lines) >= 2
    import re
    pattern = (r"progress: [\d,]+ / 800 games \([\d.]+%\), \d+ games/s, ETA (\?|\d+ (s|min)|none \(stopped\)); win share "
               r"greedy [01]\.\d{3}, random [01]\.\d{3}; SPRT LLR -?\d+\.\d{3} \(bounds \[-2\.944, 2\.944\]\), "
               r"(continue at|H1 after) \d+ blocks")
    played = [ln for ln in lines if not ln.startswith("progress: 0 /")]  # (before a shard)
    assert played and [ln for ln in played if not re.fullmatch(pattern, ln)] == []
    assert lines[-1].startswith("progress: 80 / 800 games (10.0%)")  # SPRT stopped at 4 shards
    assert "ETA none (stopped)" in lines[-1]
    assert f"SPRT LLR {31 * math.log(1.1):.3f}" in lines[-1]  # the decision's LLR
    assert lines[-1].endswith("H1 after 31 blocks")  # and the decision itself
    assert "win share greedy 1.000, random 0.000" in lines[-1]  # greedy won every game


def test_progress_rate_starts_when_the_first_shard_arrives(monkeypatch):
    """Issue 26 item 3: the workers' start is no part of the rate: 10 s before the first
    shard, then 2 shards of 100 games 1 s apart give 100 games/s (not 200 / 12 s), and
    the ETA of the 700 games left is 7 s."""
    import pyarrow as pa

    from sim.tournament import run as run_module

    clock = [0.0]
    monkeypatch.setattr(run_module.time, "perf_counter", lambda: clock[0])
    bar = run_module._Progress(total=900, done=0, enabled=False)
    shard = {"games": pa.table({"game_id": list(range(100))}),
             "players": pa.table({"player": ["a", "b"] * 100, "win_share": [1.0, 0.0] * 100})}
    clock[0] = 10.0
    bar.advance(shard)
    assert bar.rate() == 0.0 and bar.eta() == "?"  # one shard: no rate yet
    clock[0] = 11.0
    bar.advance(shard)
    assert bar.rate() == pytest.approx(100.0) and bar.eta() == "7 s"
    assert bar.shares() == "a 1.000, b 0.000"


def test_bench_reports_each_case_as_it_finishes():
    """Issue 15 item 3: a row as soon as its case is done, not a minute of silence."""
    proc = subprocess.Popen([sys.executable, "-m", "sim", "bench", "--case", "c-base-2p-random",
                             "--case", "c-all-4p-greedy-events", "--repeats", "1", "--scale", "0.05"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    header = proc.stdout.readline()
    first = proc.stdout.readline()
    running = proc.poll() is None  # the second case has yet to start or finish
    rest, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert header.startswith("case") and first.startswith("c-base-2p-random ") and running
    assert rest.startswith("c-all-4p-greedy-events ")


def test_a_finished_run_resumes_without_starting_ray(tmp_path):
    """Issue 25 item 3: nothing left to play, no Ray: with RAY_ADDRESS naming a port
    nothing listens on, a resume that tried to join would fail; this one plays nothing
    and succeeds."""
    import os

    cfg = tmp_path / "small.toml"
    cfg.write_text(SMALL)
    out = tmp_path / "out"
    assert carcsim("run", cfg, "--out", out, "--workers", 0, "--quiet").returncode == 0
    env = {**os.environ, "RAY_ADDRESS": "127.0.0.1:1"}
    r = carcsim("run", cfg, "--out", out, env=env)
    assert r.returncode == 0, r.stderr
    assert "nothing to play, so no Ray is started" in r.stderr
    assert "0 shards run, 4 already done" in r.stdout
    m = json.loads((out / "manifest.json").read_text())
    (out / "manifest.json").write_text(json.dumps({**m, "fingerprint": "0" * 16}))
    # no longer this very run: Ray is asked for (and the address fails)
    r = carcsim("run", cfg, "--out", out, env=env)
    assert r.returncode == 2 and "no Ray is started" not in r.stderr


def test_a_resume_reads_the_finished_shards_once_not_once_a_shard(tmp_path, monkeypatch):
    """A run of 100,000 shards resumed: the finished set is built once, not for each
    shard the plan lists (which made a resume of 10,000 shards take 55 s, not 10)."""
    from sim.tournament.sink import Sink

    exp = small(tmp_path)
    run_experiment(exp, tmp_path / "out", workers=0, max_shards=2)
    calls = []
    real = Sink.done
    monkeypatch.setattr(Sink, "done", property(lambda self: calls.append(1) or real.fget(self)))
    s = run_experiment(exp, tmp_path / "out", workers=0)
    assert s.shards_run == 2 and s.shards_skipped == 2
    assert len(calls) <= 2  # the plan's 4 shards asked against one set


def test_a_run_that_stored_no_shard_gives_way_to_another_config(tmp_path, capsys):
    """A run that failed before its first shard (a strategy that raised, fixed since)
    left a manifest and no game: the next config, even another one, starts over there
    without --force, and says so."""
    exp = small(tmp_path)
    run_experiment(exp, tmp_path / "out", workers=0, max_shards=0)
    assert (tmp_path / "out" / "manifest.json").exists()
    other = small(tmp_path, SMALL.replace("seed = 7", "seed = 8"))
    s = run_experiment(other, tmp_path / "out", workers=0)
    assert s.shards_run == 4
    assert "the run there stored no shard; starting over" in capsys.readouterr().err
    run_experiment(exp, tmp_path / "kept", workers=0, max_shards=1)  # one shard stored: refused
    with pytest.raises(InputError, match="holds a run of a different config"):
        run_experiment(other, tmp_path / "kept", workers=0)


def test_a_changed_key_is_named_as_the_config_file_has_it():
    """A run refused for another config names the key that differs as the user wrote it:
    [run] keys under run., the sequential test's by name (its canonical form is a list)."""
    from sim.tournament.sink import first_difference

    a = {"seed": 7, "sprt": ["greedy", "", 0.5, 0.55, 0.05, 0.05], "rules": {"players": 2}}
    b = {**a, "sprt": ["greedy", "", 0.5, 0.6, 0.05, 0.05]}
    assert first_difference(a, b) == ("run.sprt.p1", 0.55, 0.6)
    assert first_difference({**a, "seed": 8}, a) == ("run.seed", 8, 7)
    assert first_difference({**a, "rules": {"players": 3}}, a) == ("rules.players", 3, 2)
    assert first_difference({**a, "sprt": []}, a) == ("run.sprt", [], a["sprt"])  # one without a test
