"""`shard_blocks = "auto"` (issue 25 item 5, sim/tournament/shards.py): shards of about a
minute of one core, the same for 2 workers as for 200 on a run large enough, sized
from a timed pilot when the run starts and kept in the manifest; the games do not
depend on it."""

import json

import pytest
from test_tournament import SMALL, same, tables

from sim.tournament import manifest as mf
from sim.tournament import shards
from sim.tournament.config import AUTO, parse_experiment
from sim.tournament.manifest import RunError
from sim.tournament.run import run_experiment

AUTO_SMALL = SMALL.replace("shard_blocks = 3", 'shard_blocks = "auto"')


def _exp(text, tmp_path, name="auto.toml"):
    p = tmp_path / name
    p.write_text(text)
    return parse_experiment(text, str(p))


def test_size_for_by_hand(tmp_path):
    exp = _exp(AUTO_SMALL.replace("blocks = 12", "blocks = 50000000"), tmp_path)
    per = 6  # SMALL's distinct games a block
    assert exp.shard_blocks == AUTO and exp.canonical()["shard_blocks"] == "auto"
    # 1 ms a block: a minute is 60,000 blocks, past the 100,000 games a shard may hold
    # (16,666 blocks of 6): the same size on 2 workers and on 200 (4 shards each fit)
    assert shards.size_for(exp, 0.001, 2) == shards.size_for(exp, 0.001, 200) == mf.MAX_SHARD_GAMES // per
    # 20 ms a block: 3,000 blocks, a minute, on 2 workers as on 200
    assert shards.size_for(exp, 0.02, 2) == shards.size_for(exp, 0.02, 200) == 3000
    small = _exp(AUTO_SMALL.replace("blocks = 12", "blocks = 1000"), tmp_path)
    # a run of 1,000 blocks at 20 ms: 20 s in all; 4 shards a worker: 125 blocks on 2, 2 on 200
    assert shards.size_for(small, 0.02, 2) == 125 and shards.size_for(small, 0.02, 200) == 2
    # never more than MAX_SHARDS shards: 10⁹ blocks at 20 ms would be 333,334 shards of a
    # minute; they get 10,000 blocks a shard, 100,000 shards
    huge = _exp(AUTO_SMALL.replace("blocks = 12", "blocks = 1000000000"), tmp_path)
    assert shards.size_for(huge, 0.02, 2) == 10_000 and -(-huge.blocks // 10_000) == mf.MAX_SHARDS


def test_an_auto_run_plays_the_same_games_and_keeps_its_size(tmp_path):
    fixed = _exp(SMALL, tmp_path, "fixed.toml")
    run_experiment(fixed, tmp_path / "fixed", workers=0)
    exp = _exp(AUTO_SMALL, tmp_path)
    lines = []
    s = run_experiment(exp, tmp_path / "auto", workers=0, say=lines.append)
    m = json.loads((tmp_path / "auto" / "manifest.json").read_text())
    size = m["plan"]["shard_blocks"]
    # 12 blocks on 1 core: 4 shards at most of 3 blocks (SHARDS_PER_WORKER)
    assert size == 3 and s.shards_run == 4 and m["plan"]["layout"] == [[0, 12, 3]]
    assert any(line.startswith("shard_blocks = auto: 3 blocks a shard") for line in lines)
    # the games are the blocks' (the run's id differs: shard_blocks is part of its config)
    a, b = tables(tmp_path / "fixed"), tables(tmp_path / "auto")
    assert same({k: v.drop("run_id") for k, v in a.items()}, {k: v.drop("run_id") for k, v in b.items()})
    again = run_experiment(exp, tmp_path / "auto", workers=0, say=lines.append)
    assert again.shards_run == 0 and again.shards_skipped == 4
    # extended: the new blocks are shards of the size the run started with
    longer = _exp(AUTO_SMALL.replace("blocks = 12", "blocks = 20"), tmp_path)
    run_experiment(longer, tmp_path / "auto", workers=0)
    m = json.loads((tmp_path / "auto" / "manifest.json").read_text())
    assert m["plan"]["layout"] == [[0, 12, 3], [12, 20, 3]] and m["plan"]["shards"] == 7


def test_an_auto_run_s_plan_is_checked_against_the_limits(tmp_path):
    exp = _exp(AUTO_SMALL, tmp_path)
    run_experiment(exp, tmp_path / "auto", workers=0)
    path = tmp_path / "auto" / "manifest.json"
    m = json.loads(path.read_text())
    m["plan"]["shard_blocks"] = 4  # the plan's size, not its layout's
    path.write_text(json.dumps(m))
    with pytest.raises(RunError, match=r"plan.layout: segment \[0, 12, 3\]: expected 4 blocks"):
        mf.load(tmp_path / "auto")
    m["plan"]["shard_blocks"] = 0
    path.write_text(json.dumps(m))
    with pytest.raises(RunError, match=r"plan.shard_blocks: expected a whole number ≥ 1, found 0"):
        mf.load(tmp_path / "auto")


def test_repair_keeps_the_size_the_stored_shards_have(tmp_path):
    exp = _exp(AUTO_SMALL, tmp_path)
    run_experiment(exp, tmp_path / "auto", workers=0)
    (tmp_path / "auto" / "manifest.json").unlink()
    lines = []
    s = run_experiment(exp, tmp_path / "auto", workers=0, repair=True, say=lines.append)
    assert s.shards_run == 0 and any("rebuilt from 4 verified shards" in line for line in lines)
    assert not any(line.startswith("shard_blocks = auto") for line in lines)  # no pilot needed


def test_validate_says_an_auto_run_is_sized_when_it_starts(tmp_path):
    from test_tournament import carcsim

    (tmp_path / "auto.toml").write_text(AUTO_SMALL)
    r = carcsim("validate", tmp_path / "auto.toml")
    assert r.returncode == 0 and "shards of about a minute each, sized when the run starts" in r.stdout
    (tmp_path / "bad.toml").write_text(SMALL.replace("shard_blocks = 3", 'shard_blocks = "fast"'))
    r = carcsim("validate", tmp_path / "bad.toml")
    assert r.returncode == 2 and "run.shard_blocks = " in r.stderr and 'or "auto"' in r.stderr
