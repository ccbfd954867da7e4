"""The report's one pass over a run: its tables read a batch of shards at a time, each
batch reduced by every section to per-block statistics and folded into what the earlier
batches left (sim/analysis/moments.py), so memory holds one batch and the folds, not
the run.

Why batches of shards are enough: a shard holds whole blocks (manifest.json lists each
shard's block range, and a run checks every shard's games against its plan), and a game's
rows in every table are in its shard, so every per-game quantity (a margin, a pair of
seats) and every per-block sum is complete within the batch that holds it. Batches are
taken in block order, so a section that needs blocks in order (the report's convergence)
sees them so, and the first batch holds the run's first game (the first arm, the
baseline of a variants design).

Each batch is read with Polars' lazy scan, only the columns some section uses, on the
streaming engine (`collect(engine="streaming")`).
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq

from sim.tournament import manifest as mf

BATCH_ROWS = 50_000  # player rows a batch aims at: Polars keeps its buffers, so RSS grows with it
KEYS = ("run_id", "block", "variant")  # the players table's copies of the games columns
GAME_COLUMNS = ["game_id", "block", "players", "edition", "variant", "seed", "turns", "winners"]


class Batch:
    """Some whole blocks of a run: its games, players and counterfactuals rows (None
    when the run has no such table)."""

    def __init__(self, games: pl.DataFrame, players: pl.DataFrame,
                 counterfactuals: pl.DataFrame | None = None, first: bool = True):
        self.games, self.players, self.counterfactuals = games, players, counterfactuals
        self.first = first  # the batch that holds the run's first game

    @cached_property
    def p(self) -> pl.DataFrame:
        """The player rows with their game's block, seat count, edition and variant."""
        g = self.games.select([c for c in ("game_id", "block", "players", "edition", "variant")
                               if c in self.games.columns])
        return self.players.drop([c for c in KEYS if c in self.players.columns]).join(
            g, on="game_id", maintain_order="left")  # the table's order: "first" rows stay first

    @cached_property
    def margin(self) -> pl.DataFrame:
        """`p` with `margin`: score minus the best other score in the same game (the
        second-highest score of the game for the top scorer, the highest for the rest:
        with a tie for the top both are the top)."""
        top = self.p.group_by("game_id").agg(
            pl.col("score").max().alias("_top"),
            pl.col("score").sort(descending=True).get(1).alias("_second"))
        return (self.p.join(top, on="game_id", maintain_order="left")
                .with_columns((pl.col("score").cast(pl.Int64) - pl.when(pl.col("score") == pl.col("_top"))
                               .then(pl.col("_second")).otherwise(pl.col("_top")).cast(pl.Int64))
                              .alias("margin"))
                .drop("_top", "_second"))

    @cached_property
    def blocks(self) -> pl.DataFrame:
        """game_id -> block."""
        return self.games.select("game_id", "block")


def once(sections, games: pl.DataFrame, players: pl.DataFrame,
         counterfactuals: pl.DataFrame | None = None) -> None:
    """Feed frames already in memory to `sections` as one batch (tests, pilots)."""
    batch = Batch(games, players, counterfactuals)
    for s in sections:
        s.add(batch)


def shard_batches(manifest: dict, rows: int | None = None) -> list[list[int]]:
    """The finished shards in block order, grouped into batches of about `rows` player
    rows (a shard is never split)."""
    rows = BATCH_ROWS if rows is None else rows
    shards = sorted(manifest["shards"].items(), key=lambda kv: kv[1]["blocks"][0])
    out, size = [], 0
    for key, entry in shards:
        n = entry["files"].get("players", {}).get("rows", 0)
        if not out or size + n > rows:
            out.append([])
            size = 0
        out[-1].append(int(key))
        size += n
    return out


def blocks_stored(manifest: dict) -> int:
    """Blocks the finished shards hold (each shard's range; the run checked its games)."""
    return sum(b - a for a, b in (e["blocks"] for e in manifest["shards"].values()))


def _read(run_dir: Path, table: str, shards: list[int], columns: list[str] | None) -> pl.DataFrame:
    files = [str(mf.shard_file(run_dir, table, s)) for s in shards]
    have = pq.read_schema(files[0]).names
    wanted = [c for c in (have if columns is None else columns) if c in have]
    return pl.scan_parquet(files).select(wanted).collect(engine="streaming")


def batches(run_dir: str | Path, manifest: dict, players_columns: list[str] | None = None,
            counterfactuals: bool = True, rows: int | None = None):
    """Yield the run's batches in block order, each table read with only the columns
    needed (`players_columns`; None: all), counterfactuals when the run has them."""
    run_dir = Path(run_dir)
    with_cf = counterfactuals and "counterfactuals" in manifest["plan"].get("tables", ())
    for i, shards in enumerate(shard_batches(manifest, rows)):
        yield Batch(_read(run_dir, "games", shards, GAME_COLUMNS),
                    _read(run_dir, "players", shards, players_columns),
                    _read(run_dir, "counterfactuals", shards, None) if with_cf else None,
                    first=i == 0)
