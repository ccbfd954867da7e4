"""The eager read: every shard of a table in memory at once (what the report did)."""

from pathlib import Path

import polars as pl


def load(run_dir: str | Path, table: str) -> pl.DataFrame:
    return pl.read_parquet(str(Path(run_dir) / table / "*.parquet"))
