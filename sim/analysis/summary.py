"""The first look at a run: win share and score by player spec and by seat."""

from __future__ import annotations

from pathlib import Path

import polars as pl


def load(run_dir: str | Path, table: str) -> pl.DataFrame:
    """All shards of one table of a run."""
    return pl.read_parquet(str(Path(run_dir) / table / "*.parquet"))


DRAWN = "messages"  # by_player's column of message tiles drawn per game (in `carcsim run --json`)


def by_player(players: pl.DataFrame) -> pl.DataFrame:
    """Games, mean win share, mean score and messages drawn per player spec."""
    return (players.group_by("player")
            .agg(pl.len().alias("games"), pl.col("win_share").mean().alias("win_share"),
                 pl.col("score").mean().alias("score"),
                 pl.col("messages_drawn").mean().alias(DRAWN))
            .sort("win_share", descending=True))


TABLE_NOTE = ("games: games the player played; win share: its share of them won (a tie "
              "shares the win, R-BASE-9); score: its mean final score; messages: message "
              "tiles it drew per game (The Messages, 0 otherwise)")


def format_table(df: pl.DataFrame) -> str:
    lines = [f"{'player':44} {'games':>7} {'win share':>9} {'score':>7} {'messages':>8}"]
    for r in df.iter_rows(named=True):
        lines.append(f"{r['player'][:44]:44} {r['games']:>7} {r['win_share']:>9.3f} "
                     f"{r['score']:>7.1f} {r[DRAWN]:>8.2f}")
    return "\n".join(lines)
