"""A run directory is verified, not trusted (issue 17 item 1), and a finished run can be
extended (issue 15 item 5). Every kind of damage seen in the field: shard files deleted,
emptied, copied, overwritten by another shard's, half-truncated; manifests empty,
truncated, `[]`, with a key removed or an unknown shard listed, or deleted."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_here import carcsim as carcsim_here
from test_tournament import SMALL, same, small, tables

from sim.analysis.report import build
from sim.tournament import manifest as mf
from sim.tournament.manifest import RunError
from sim.tournament.replay import replay_game
from sim.tournament.run import run_experiment
from sim.tournament.sink import read_manifest

ROOT = Path(__file__).resolve().parent.parent
GAMES = 12 * 6  # SMALL: 12 blocks × 6 distinct games (2 editions × 2 arms × 2 rotations, the
# mirror rotation of the baseline arm played once), in 4 shards of 3 blocks


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """One finished run of SMALL, copied for each test."""
    base = tmp_path_factory.mktemp("finished")
    exp = small(base)
    run_experiment(exp, base / "run", workers=0)
    return base / "run"


@pytest.fixture
def run(finished, tmp_path):
    shutil.copytree(finished, tmp_path / "run")
    (tmp_path / "small.toml").write_text(SMALL)
    return tmp_path / "run"


def resume(run_dir, **kw):
    lines = []
    exp = small(run_dir.parent)
    s = run_experiment(exp, run_dir, workers=0, say=lines.append, **kw)
    return s, lines


def games_of(run_dir):
    return tables(run_dir)["games"].height


def carcsim(*args):
    return carcsim_here(*args, cwd=ROOT)  # in this process: tests/cli_here.py says why


def shard(run_dir, table, n):
    return run_dir / table / f"shard-{n:06d}.parquet"


def test_the_manifest_records_rows_and_hashes(run):
    m = json.loads((run / "manifest.json").read_text())
    assert m["plan"]["layout"] == [[0, 12, 3]] and m["plan"]["shards"] == 4
    entry = m["shards"]["2"]
    assert entry["blocks"] == [6, 9]
    assert entry["files"]["games"]["rows"] == 18 and entry["files"]["players"]["rows"] == 36
    assert entry["files"]["games"]["sha256"] == mf.sha256(shard(run, "games", 2))
    assert sorted(entry["files"]) == ["games", "players"]  # no events table in this config


@pytest.mark.parametrize("damage", ["deleted", "emptied", "overwritten", "truncated"])
def test_a_damaged_shard_is_played_again_and_report_refuses_it(run, damage):
    target = shard(run, "players", 1)
    if damage == "deleted":
        target.unlink()
    elif damage == "emptied":
        target.write_bytes(b"")
    elif damage == "overwritten":  # another shard's (valid Parquet) content
        shutil.copy(shard(run, "players", 2), target)
    else:
        data = target.read_bytes()
        target.write_bytes(data[: len(data) // 2])
    with pytest.raises(RunError, match=r"shard 1: players/shard-000001.parquet (is missing|is empty|"
                                       r"differs from what was written).*carcsim run"):
        build(run)
    s, lines = resume(run)
    why = {"deleted": "is missing", "emptied": "is empty"}.get(
        damage, "differs from what was written (its SHA-256 in manifest.json)")
    assert len(lines) == 1 and f"shard 1: players/shard-000001.parquet {why}; playing it again" in lines[0]
    assert (s.shards_run, s.shards_skipped, s.games) == (1, 3, 18)
    assert games_of(run) == GAMES and tables(run)["players"].height == 2 * GAMES
    assert build(run)["provenance"]["games_stored"] == GAMES


def test_report_of_a_damaged_run_is_one_line_exit_2(run):
    data = shard(run, "games", 3).read_bytes()
    shard(run, "games", 3).write_bytes(data[: len(data) // 2])
    r = carcsim("report", run)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and "shard 3: games/shard-000003.parquet" in r.stderr


@pytest.mark.parametrize("name", ["shard-000001 (copy).parquet", "shard-000007.parquet", "x.txt"])
def test_a_file_the_run_does_not_know_is_refused(run, name):
    shutil.copy(shard(run, "games", 1), run / "games" / name)
    with pytest.raises(RunError, match="not a file of this run.*remove it"):
        resume(run)
    with pytest.raises(RunError, match="not a file of this run"):
        build(run)
    (run / "games" / name).unlink()
    assert resume(run)[0].shards_run == 0 and games_of(run) == GAMES


def test_leftovers_of_an_interrupted_write_are_redone_not_counted(run):
    """A shard file renamed into place but not yet recorded, and a .tmp: `run` removes
    them and plays the shard; `report` refuses until then."""
    m = json.loads((run / "manifest.json").read_text())
    del m["shards"]["3"]
    (run / "manifest.json").write_text(json.dumps(m))
    (run / "players" / "shard-000003.parquet.tmp").write_bytes(b"half")
    with pytest.raises(RunError, match="not recorded as finished.*resume the run"):
        build(run)
    s, lines = resume(run)
    assert s.shards_run == 1 and lines == [] and games_of(run) == GAMES
    assert not (run / "players" / "shard-000003.parquet.tmp").exists()


MANIFEST_DAMAGE = {
    "empty": (lambda t: "", "empty"),
    "truncated": (lambda t: t[: len(t) // 2], "not valid JSON"),
    "list": (lambda t: "[]", "expected a JSON object, found list"),
    "key removed": (lambda t: json.dumps({k: v for k, v in json.loads(t).items() if k != "plan"}),
                    "key 'plan' is missing"),
    "unknown shard": (lambda t: json.dumps(json.loads(t) | {"shards": json.loads(t)["shards"] | {
        "99": json.loads(t)["shards"]["0"]}}), r"shards: '99' is not a shard of the plan \(0..3\)"),
    "wrong rows": (lambda t: t.replace('"rows": 18', '"rows": 17', 1), "games.rows = 17"),
    # issue 27.3: the config text outranks what is written next to it
    "inflated plan": (lambda t: _edit(t, plan=_plan(400)), "plan.blocks = 400: the config_text "
                                                           "gives 12"),
    "plan of 10**30 blocks": (lambda t: _edit(t, plan=_plan(10**30)), r"plan.blocks = 1000000000"),
    "edited fingerprint": (lambda t: _edit(t, fingerprint="0123456789abcdef"),
                           "fingerprint '0123456789abcdef': expected [0-9a-f]{16}, the config_text's"),
    "config junk": (lambda t: _edit(t, config={"junk": 1}), r"config.blocks: differs from "
                                                            r"config_text"),
    "changed config.rules": (lambda t: _edit(t, config=json.loads(t)["config"] | {
        "rules": json.loads(t)["config"]["rules"] | {"players": 3}}), "config.rules: differs"),
    "config_text junk": (lambda t: _edit(t, config_text="[run]\nblocks = 'x'"),
                         r"config_text: not a valid config \(config_text: run.blocks"),
    "sprt junk": (lambda t: _edit(t, sprt={"decision": "H1"}), "sprt: a decision is recorded, "
                                                               "but the config_text has no"),
    "extended junk": (lambda t: _edit(t, extended=7), "extended: expected a list"),
}


def _edit(text, **keys):
    return json.dumps(json.loads(text) | keys)


def _plan(blocks):
    """A plan consistent in itself (games, layout, shards) but not with the config."""
    return {"blocks": blocks, "games_per_block": 6, "games": blocks * 6, "shard_blocks": 3,
            "shards": -(-blocks // 3), "tables": ["games", "players"],
            "layout": [[0, blocks, 3]]}


@pytest.mark.parametrize("case", sorted(MANIFEST_DAMAGE))
def test_a_damaged_manifest_is_one_line_with_a_way_out(run, case):
    damage, what = MANIFEST_DAMAGE[case]
    path = run / "manifest.json"
    path.write_text(damage(path.read_text()))
    import re
    r = carcsim("run", run.parent / "small.toml", "--out", run, "--workers", 0, "--quiet")
    assert r.returncode == 2 and r.stdout == "", r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert "manifest.json" in lines[0] and "--repair" in lines[0] and "--force" in lines[0]
    assert re.search(what, lines[0]), lines[0]
    for reader in (build, lambda d: replay_game(d, 5)):  # report, replay: the same line
        with pytest.raises(RunError) as e:
            reader(run)
        assert f"carcsim: {e.value}" == lines[0]
    s, lines = resume(run, repair=True)
    assert lines == [f"{run / 'manifest.json'}: rebuilt from 4 verified shards"]
    assert s.shards_run == 0 and s.shards_skipped == 4
    assert read_manifest(run)["plan"]["games"] == GAMES and games_of(run) == GAMES


def test_repair_checks_contents_and_force_starts_over(run, tmp_path):
    (run / "manifest.json").unlink()
    with pytest.raises(RunError, match="manifest.json: missing although the directory holds shard"):
        resume(run)
    shutil.copy(shard(run, "games", 2), shard(run, "games", 1))  # no hash left to catch this
    s, lines = resume(run, repair=True)
    assert lines[0].endswith("shard 1: games/shard-000001.parquet does not hold the planned games; "
                             "playing it again")
    assert lines[1].endswith("rebuilt from 3 verified shards")
    assert (s.shards_run, s.shards_skipped) == (1, 3)
    exp = small(tmp_path)
    run_experiment(exp, tmp_path / "whole", workers=0)
    assert same(tables(tmp_path / "whole"), tables(run))
    (run / "manifest.json").write_text("[]")
    s, _ = resume(run, force=True)
    assert s.shards_run == 4 and games_of(run) == GAMES


def test_report_and_replay_of_a_run_with_no_finished_shard(tmp_path):
    exp = small(tmp_path)
    run_experiment(exp, tmp_path / "run", workers=0, max_shards=0)
    for cmd in (["report", tmp_path / "run"], ["replay", tmp_path / "run", 3]):
        r = carcsim(*cmd)
        assert r.returncode == 2 and r.stderr.strip() == (
            f"carcsim: {tmp_path / 'run'}: no finished shard yet: run or resume it first")


def test_raising_blocks_extends_a_finished_run(run, tmp_path):
    """Block seeds depend only on (seed, block): 12 → 20 blocks plays blocks 12..19 as
    three new shards (3, 3, 2 blocks) and keeps the four finished ones."""
    more = small(tmp_path, SMALL.replace("blocks = 12", "blocks = 20"))
    lines = []
    s = run_experiment(more, run, workers=0, say=lines.append)
    assert lines == [f"{run}: extending the run from 12 to 20 blocks; its 4 finished shards are kept"]
    assert (s.shards_run, s.shards_skipped, s.games) == (3, 4, 8 * 6)
    m = read_manifest(run)
    assert m["plan"]["layout"] == [[0, 12, 3], [12, 20, 3]] and m["plan"]["games"] == 120
    assert m["shards"]["6"]["blocks"] == [18, 20] and m["extended"][0]["from_blocks"] == 12
    run_experiment(more, tmp_path / "fresh", workers=0)
    assert same(tables(tmp_path / "fresh"), tables(run))  # identical to a 20-block run
    assert build(run)["provenance"]["games_stored"] == 120
    with pytest.raises(RunError, match="run.blocks = 12: the run .* has 20 blocks; a run can be "
                                       "extended, not shortened"):
        resume(run)
    other = small(tmp_path, SMALL.replace("blocks = 12", "blocks = 24").replace("seed = 7", "seed = 8"))
    with pytest.raises(RunError, match="holds a run of a different config"):
        run_experiment(other, run, workers=0)


def test_a_huge_plan_is_refused_in_bounded_memory(tmp_path):
    """`validate` and `run` of blocks = 10**12 answer at once (the plan is counted, never
    listed) and refuse past the stated limits, naming the field."""
    cfg = tmp_path / "huge.toml"
    cfg.write_text(SMALL.replace("blocks = 12", "blocks = 1_000_000_000_000"))
    # each command's own peak memory, measured by a wrapper whose only child it is
    # (pytest's RUSAGE_CHILDREN holds the peak of every earlier test's children too)
    peak = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True,"
            " text=True); sys.stderr.write(r.stderr); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(r.returncode)")
    for cmd in (["validate", cfg], ["run", cfg, "--out", tmp_path / "o", "--workers", 0]):
        r = subprocess.run([sys.executable, "-c", peak, sys.executable, "-m", "sim", *map(str, cmd)],
                           capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 2 and "run.blocks = 1000000000000: 333,333,333,334 shards" in r.stderr
        assert "expected at most 100,000 shards" in r.stderr and len(r.stderr.splitlines()) == 1
        assert int(r.stdout.split()[-1]) < 400_000  # KiB
    assert not (tmp_path / "o").exists()
    cfg.write_text(SMALL.replace("blocks = 12", "blocks = 30000").replace("shard_blocks = 3",
                                                                       "shard_blocks = 20000"))
    r = carcsim("validate", cfg)
    assert r.returncode == 2 and "run.shard_blocks = 20000: 120,000 games a shard" in r.stderr
    cfg.write_text(SMALL.replace("blocks = 12", "blocks = 10_000_000").replace("shard_blocks = 3",
                                                                            "shard_blocks = 1000"))
    r = carcsim("validate", cfg)
    assert r.returncode == 0 and "60,000,000 games in 10,000 shards" in r.stdout


def test_report_during_a_run_sees_only_recorded_shards(tmp_path):
    """Shard files stay temporary until the manifest that lists them is written, so a
    report taken while a run goes on counts exactly the recorded shards."""
    from sim.tournament.sink import Sink
    from sim.tournament.worker import run_shard

    exp = small(tmp_path)
    first, second = run_shard(exp, range(0, 3)), run_shard(exp, range(3, 6))
    sink = Sink(tmp_path / "live", exp)
    sink.write(0, first)  # within a second of the last save: pending
    with pytest.raises(RunError, match="no finished shard yet"):
        build(tmp_path / "live")
    sink.save()
    sink.write(1, second)
    assert build(tmp_path / "live")["provenance"]["games_stored"] == 18
    sink.close()
    assert build(tmp_path / "live")["provenance"]["games_stored"] == 36


def test_a_manifest_costly_to_rewrite_is_rewritten_less_often(tmp_path):
    """The driver spends at most a tenth of its time rewriting the manifest: after a
    rewrite that took c seconds (6 s at 100,000 shards), the next waits SAVE_SHARE × c
    even past SAVE_EVERY; a cheap one waits SAVE_EVERY only."""
    import time

    from sim.tournament import sink as sk
    from sim.tournament.worker import run_shard

    exp = small(tmp_path)
    first, second = run_shard(exp, range(0, 3)), run_shard(exp, range(3, 6))
    live = sk.Sink(tmp_path / "live", exp)
    live.save()
    live._save_cost = 1000.0  # the last rewrite took long: 10,000 s before the next
    live._saved_at = time.monotonic() - 2 * sk.SAVE_EVERY  # past the fixed interval
    live.write(0, first)
    with pytest.raises(RunError, match="no finished shard yet"):
        build(tmp_path / "live")
    live._save_cost = 0.0  # a cheap one: SAVE_EVERY alone
    live.write(1, second)
    assert build(tmp_path / "live")["provenance"]["games_stored"] == 36
    assert 0 <= live._save_cost < 1000.0  # measured anew by that rewrite
    live.close()


def test_the_huge_plan_hint_can_be_followed(tmp_path):
    """Past both limits at once the refusal names the largest run, not a shard size
    that the games-per-shard limit refuses in turn."""
    cfg = tmp_path / "huge.toml"
    cfg.write_text(SMALL.replace("blocks = 12", "blocks = 1_000_000_000_000"))
    r = carcsim("validate", cfg)
    assert r.returncode == 2 and "a run holds at most 1,666,600,000 blocks of 6 games" in r.stderr


def _sprt_run(tmp_path):
    from test_tournament import SPRT_RUN

    exp = small(tmp_path, SPRT_RUN)
    run_experiment(exp, tmp_path / "out", workers=0)
    return exp, tmp_path / "out"


@pytest.mark.parametrize("edit, what", [
    ({"blocks": 10**6}, r"sprt.blocks: expected a whole number 1..400"),
    ({"llr": "high"}, r"sprt.llr: expected a finite number"),
    ({"p1": 0.9}, r"sprt.p1: expected 0.55, the config_text's run.sprt"),
    ({"decision": "maybe"}, r"sprt.decision: expected H0 or H1"),
])
def test_a_doctored_sprt_decision_is_refused_by_run_and_report(tmp_path, edit, what):
    """Issue 27.3: `report` read `sprt` untyped (a KeyError traceback for junk) and a run
    trusted the decision it found; both now check it against the config text."""
    exp, out = _sprt_run(tmp_path)
    m = json.loads((out / "manifest.json").read_text())
    m["sprt"] |= edit
    (out / "manifest.json").write_text(json.dumps(m))
    for act in (lambda: run_experiment(exp, out, workers=0), lambda: build(out)):
        with pytest.raises(RunError, match=what):
            act()


def test_report_refuses_a_decision_over_blocks_not_stored(tmp_path):
    exp, out = _sprt_run(tmp_path)
    m = json.loads((out / "manifest.json").read_text())
    m["sprt"]["blocks"] = 60  # within the plan, but only blocks 0..39 were played
    (out / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(RunError, match=r"sprt.blocks = 60: block 40 is not stored"):
        build(out)


def test_the_manifest_is_never_written_in_a_state_carcsim_refuses(tmp_path):
    """Issue 27.3: an edited fingerprint was carried into a manifest carcsim then refused;
    now the manifest is checked as a reader would before every write."""
    from sim.tournament.sink import Sink

    exp = small(tmp_path)
    sink = Sink(tmp_path / "live", exp)
    before = (tmp_path / "live" / "manifest.json").read_text()
    sink.manifest["fingerprint"] = "0123456789abcdef"
    with pytest.raises(RunError, match=r"refusing to write a manifest carcsim would refuse .*"
                                       r"fingerprint '0123456789abcdef'"):
        sink.save()
    assert (tmp_path / "live" / "manifest.json").read_text() == before
    sink.close()


def test_repair_refuses_a_run_of_another_config_and_deletes_nothing(run, tmp_path):
    """--repair mends this config's run. Beside a whole run of another seed it had found
    every shard "does not hold the planned games", deleted them all and played its own:
    now it is refused as a run is, whether the manifest still reads or not, and every
    file stays as it was."""
    (tmp_path / "o").mkdir()
    other = small(tmp_path / "o", SMALL.replace("seed = ", "seed = 1"))
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    with pytest.raises(RunError, match="holds a run of a different config .*--repair mends a run of its "
                                       "own config: use --force"):
        run_experiment(other, run, workers=0, repair=True)
    (run / "manifest.json").unlink()
    del before[run / "manifest.json"]
    with pytest.raises(RunError, match=r"none of its 4 shards holds the games of .*: a run of another "
                                       r"config\? --repair keeps a run's good shards"):
        run_experiment(other, run, workers=0, repair=True)
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before


def test_repair_of_this_config_plays_again_even_when_no_shard_verifies(run, tmp_path):
    """The manifest still names this config: every shard damaged is this run's own,
    played again (the refusal is for shards beside no manifest naming the config); and
    a manifest whose plan.tables holds a list is one line, not a traceback."""
    for n in range(4):
        shard(run, "games", n).write_bytes(shard(run, "games", n).read_bytes()[:300])
    s, lines = resume(run, repair=True)
    assert (s.shards_run, s.shards_skipped) == (4, 0) and games_of(run) == GAMES
    m = json.loads((run / "manifest.json").read_text())
    m["plan"]["tables"][0] = []
    (run / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(RunError, match=r"plan.tables = \[\[\], .*expected games, players"):
        resume(run)
