"""Analysis of run records with Polars: pure functions from frames to tables."""
