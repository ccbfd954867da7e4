"""A shard's games of built-in seats as one C call (issue 13 item 4): the records it
writes are the ones the game-at-a-time path writes, column for column and byte for
byte in the Parquet files."""

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from sim.tournament.config import parse_experiment
from sim.tournament import worker
from sim.tournament.run import run_experiment

HEAD = """
[run]
name = "{name}"
seed = {seed}
blocks = {blocks}
shard_blocks = {shard}
"""

CONFIGS = {
    # both editions, a mirror (focal in both seats) and a restricted arm in 2 rotations
    "messages-variants": HEAD.format(name="mv", seed=7, blocks=6, shard=4) + """
[rules]
players = 2
expansions = ["messages"]

[design]
kind = "variants"
arms = [{name = "free", player = "greedy"},
        {name = "no_road", player = "greedy(smallest_road=\\"2\\")+scoring_figure=spread"}]
opponents = ["greedy"]
editions = ["c3.1", "classic"]
""",
    # 3 players, every expansion the C game plays
    "river-courier-3p": HEAD.format(name="rc", seed=3, blocks=5, shard=2) + """
[rules]
players = 3
expansions = ["messages", "river", "courier"]

[design]
kind = "rotations"
seats = ["greedy", "random", "first+messages=always_action"]
""",
    # the base game, one seat a Python strategy: those games go one at a time, the
    # others in a batch, and the shard's rows interleave in game_id order; random
    # against first ties now and then (winners lists of two)
    "base-mixed": HEAD.format(name="bm", seed=2, blocks=4, shard=4) + """
[rules]
players = 2

[design]
kind = "round_robin"
pool = ["random", "first", "search(rollouts=1,candidates=2)"]
""",
}


def _exp(name, tmp_path):
    path = tmp_path / f"{name}.toml"
    path.write_text(CONFIGS[name])
    return parse_experiment(CONFIGS[name], str(path))


def _one_at_a_time(monkeypatch):
    monkeypatch.setattr(worker, "batchable", lambda *args: False)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_a_batched_shard_has_the_rows_of_games_played_one_at_a_time(name, tmp_path, monkeypatch):
    exp = _exp(name, tmp_path)
    entries = worker.plan.layout(exp)
    batched = [worker.batchable(exp, e[0], e[3]) for e in entries]
    assert any(batched) and (all(batched) or name == "base-mixed")
    blocks = range(1, exp.blocks)
    fast = worker.run_shard(exp, blocks)
    with monkeypatch.context() as m:
        _one_at_a_time(m)
        slow = worker.run_shard(exp, blocks)
    for table in ("games", "players"):
        assert fast[table].schema.equals(slow[table].schema)
        for column in slow[table].column_names:  # names the first wrong column
            assert fast[table][column].equals(slow[table][column]), (table, column)
        assert fast[table].equals(slow[table])
    games = fast["games"].to_pylist()
    assert [g["game_id"] for g in games] == list(range(len(entries), exp.blocks * len(entries)))
    # R-BASE-9 from the players table alone: every top score wins, the win shares split
    by_game = {}
    for p in fast["players"].to_pylist():
        by_game.setdefault(p["game_id"], []).append(p)
    for g in games:
        seats = by_game[g["game_id"]]
        top = max(p["score"] for p in seats)
        assert g["winners"] == [p["seat"] for p in seats if p["score"] == top]
        assert sum(p["win_share"] for p in seats) == pytest.approx(1.0)
        assert all(p["rank"] == 1 + sum(o["score"] > p["score"] for o in seats) for p in seats)
    if name == "base-mixed":
        assert any(len(g["winners"]) > 1 for g in games), "no tie to test the winners lists on"


def test_a_batched_run_writes_the_same_parquet_files(tmp_path, monkeypatch):
    """The same files, byte for byte: same columns, values, order and row groups."""
    exp = _exp("messages-variants", tmp_path)
    run_experiment(exp, tmp_path / "batch", workers=0)
    with monkeypatch.context() as m:
        _one_at_a_time(m)
        run_experiment(exp, tmp_path / "single", workers=0)
    files = sorted(p.relative_to(tmp_path / "batch") for p in (tmp_path / "batch").rglob("*.parquet"))
    assert len(files) == 2 * 2  # 2 shards x (games, players)
    for f in files:
        a, b = tmp_path / "batch" / f, tmp_path / "single" / f
        assert pq.ParquetFile(a).metadata.num_row_groups == pq.ParquetFile(b).metadata.num_row_groups
        assert a.read_bytes() == b.read_bytes(), f
