"""A synthetic run of N games in the records' schema, written a shard at a time.

    python tests/synthetic_run.py OUT GAMES [--shard-games 25000]

The design is million_messages' (sim/configs/million_messages.toml: greedy against
greedy with The Messages, one game per seed and edition, so 2 games a block), cut or
stretched to GAMES games; every shard is written through the runner's own sink
(sim/tournament/sink.py), so OUT is a run `carcsim report` reads and checks like any
other (manifest, hashes, schema). The numbers are random, not played: scores about
N(96, 20) per seat with seat 0 a point ahead, ranks, win shares and winners as the
scores make them (R-BASE-9: a tie shares the win), message tiles drawn per action about
as often as in real games. Each shard is made from numpy's generator seeded with its
number and dropped once written, so memory stays that of one shard whatever GAMES is.
For the report's benchmark at 10⁶–10⁸ games (BENCHMARKS.md, "The report in one pass").
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

from sim.expansions.messages import ALL_ACTIONS
from sim.tournament import manifest as mf
from sim.tournament.config import parse_experiment, shipped_configs
from sim.tournament.records import GAMES, PLAYERS
from sim.tournament.sink import Sink

EDITIONS = ("c3.1", "classic")
PER_BLOCK = len(EDITIONS)


def experiment(games: int, shard_games: int):
    """million_messages with games/2 blocks in shards of shard_games/2 blocks."""
    text = shipped_configs()["million_messages"].read_text()
    text = re.sub(r"(?m)^blocks = \d+", f"blocks = {games // PER_BLOCK}", text)
    text = re.sub(r"(?m)^shard_blocks = \d+", f"shard_blocks = {shard_games // PER_BLOCK}", text)
    return parse_experiment(text, "synthetic_million_messages.toml")


def shard_tables(exp, run_id: str, blocks: range, rng: np.random.Generator) -> dict[str, pa.Table]:
    """The games and players tables of one shard's blocks."""
    n = len(blocks) * PER_BLOCK
    first = blocks.start * PER_BLOCK
    game_id = np.arange(first, first + n, dtype=np.int64)
    block = np.repeat(np.arange(blocks.start, blocks.stop, dtype=np.int32), PER_BLOCK)
    edition = pa.array(list(EDITIONS) * len(blocks), type=pa.string())
    score = np.clip(rng.normal(96, 20, (n, 2)) + [1, 0], 0, 300).round().astype(np.int16)
    top = score.max(axis=1, keepdims=True)
    won = score == top
    rank = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)
    winners = pa.ListArray.from_arrays(
        pa.array(np.concatenate([[0], np.cumsum(won.sum(axis=1))]), type=pa.int32()),
        pa.array(np.nonzero(won)[1].astype(np.int8), type=pa.int8()))
    games = {"run": pa.repeat(pa.scalar(exp.name), n), "run_id": pa.repeat(pa.scalar(run_id), n),
             "game_id": game_id, "block": block, "variant": pa.repeat(pa.scalar(""), n),
             "rotation": np.zeros(n, np.int8), "edition": edition,
             "seed": block.astype(np.int64) * 7919 + exp.seed,
             "ruleset": pa.repeat(pa.scalar(exp.rules.ruleset), n), "players": np.full(n, 2, np.int8),
             "expansions": pa.repeat(pa.scalar("messages"), n),
             "turns": rng.integers(60, 75, n).astype(np.int16), "winners": winners}
    rows = 2 * n
    drawn = {a: rng.binomial(2, 0.12, rows).astype(np.int16) for a in ALL_ACTIONS}
    players = {"run_id": pa.repeat(pa.scalar(run_id), rows), "game_id": np.repeat(game_id, 2),
               "block": np.repeat(block, 2), "variant": pa.repeat(pa.scalar(""), rows),
               "seat": np.tile(np.arange(2, dtype=np.int8), n),
               "player": pa.repeat(pa.scalar("greedy"), rows), "focal": np.zeros(rows, bool),
               "score": score.ravel(), "rank": rank.ravel().astype(np.int8),
               "win_share": (won / won.sum(axis=1, keepdims=True)).ravel(),
               "messages_drawn": sum(drawn.values()).astype(np.int16),
               **{f"drawn_{a}": v for a, v in drawn.items()}}

    def table(schema, cols, length):
        return pa.Table.from_pydict(
            {f.name: cols[f.name] if isinstance(cols.get(f.name), (pa.Array, pa.ChunkedArray))
             else pa.array(cols[f.name] if f.name in cols else np.zeros(length, f.type.to_pandas_dtype()),
                           type=f.type) for f in schema}, schema=schema)
    return {"games": table(GAMES, games, n), "players": table(PLAYERS, players, rows)}


def write(out: Path, games: int, shard_games: int = 25_000, say=print) -> None:
    if games % PER_BLOCK or shard_games % PER_BLOCK:
        raise SystemExit(f"synthetic_run: GAMES and --shard-games must be multiples of {PER_BLOCK}")
    exp = experiment(games, shard_games)
    sink = Sink(out, exp, force=True, say=say)
    run_id = exp.run_id()
    t0 = time.monotonic()
    try:
        shards = list(mf.iter_shards(sink.layout))
        for i, (shard, blocks) in enumerate(shards):
            sink.write(shard, shard_tables(exp, run_id, blocks, np.random.default_rng(shard)))
            if i % 100 == 99:
                say(f"{out}: {i + 1} of {len(shards)} shards, {time.monotonic() - t0:.0f} s")
    finally:
        sink.close()
    say(f"{out}: {games:,} games in {len(shards)} shards, {time.monotonic() - t0:.0f} s")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("games", type=int)
    ap.add_argument("--shard-games", type=int, default=25_000)
    a = ap.parse_args(argv)
    write(a.out, a.games, a.shard_games)


if __name__ == "__main__":
    main()
