"""Sufficient statistics over blocks: what every interval and test of the report needs
from a quantity's per-block values, folded batch by batch (sim/analysis/scan.py).

A `Moments` holds, for rows of d columns (one row a block): how many, each column's sum,
mean, minimum and maximum, and the centred cross-products Σ (x − x̄)(y − ȳ) of every pair
of columns. Two of them combine exactly as the rows put together would (Chan, Golub and
LeVeque's pairwise update), so a run is reduced shard by shard in memory that does not
grow with its games or blocks, and the centring keeps the variances as accurate as a
two-pass computation over all the rows (no Σx² − n x̄² cancellation).
"""

from __future__ import annotations

import numpy as np
import polars as pl


class Moments:
    """Count, sums, means, centred cross-products, minima and maxima of rows of d columns."""

    __slots__ = ("n", "total", "mean", "cross", "low", "high")

    def __init__(self, n, total, mean, cross, low, high):
        self.n, self.total, self.mean, self.cross, self.low, self.high = n, total, mean, cross, low, high

    @classmethod
    def of(cls, rows) -> "Moments":
        """The moments of an (n, d) array (two passes: the mean first)."""
        x = np.asarray(rows, dtype=float)
        if x.ndim == 1:
            x = x[:, None]
        n, d = x.shape
        if n == 0:
            return cls.empty(d)
        mean = x.mean(axis=0)
        c = x - mean
        return cls(n, x.sum(axis=0), mean, c.T @ c, x.min(axis=0), x.max(axis=0))

    @classmethod
    def empty(cls, d: int) -> "Moments":
        z = np.zeros(d)
        return cls(0, z, z, np.zeros((d, d)), np.full(d, np.inf), np.full(d, -np.inf))

    def __add__(self, other: "Moments") -> "Moments":
        if other.n == 0:
            return self
        if self.n == 0:
            return other
        n = self.n + other.n
        delta = other.mean - self.mean
        return Moments(n, self.total + other.total, self.mean + delta * (other.n / n),
                       self.cross + other.cross + np.outer(delta, delta) * (self.n * other.n / n),
                       np.minimum(self.low, other.low), np.maximum(self.high, other.high))

    def cov(self) -> np.ndarray:
        """The sample covariance of the columns (ddof 1)."""
        return self.cross / (self.n - 1)

    def var(self, i: int) -> float:
        return float(self.cross[i, i] / (self.n - 1)) if self.n > 1 else float("nan")


class Folds:
    """Moments per key: each batch's per-block rows folded into what came before."""

    def __init__(self, columns: list[str]):
        self.columns = list(columns)
        self.by: dict[tuple, Moments] = {}
        self.order: list[tuple] = []  # keys in order of first appearance

    def add(self, frame: pl.DataFrame, keys: list[str]) -> None:
        """Fold the rows of `frame` (one a block) into the moments of their key."""
        if frame.height == 0:
            return
        if not keys:
            self._put((), Moments.of(frame.select(self.columns).to_numpy()))
            return
        for key, g in frame.group_by(keys, maintain_order=True):
            self._put(tuple(key), Moments.of(g.select(self.columns).to_numpy()))

    def _put(self, key: tuple, m: Moments) -> None:
        if key in self.by:
            self.by[key] = self.by[key] + m
        else:
            self.by[key] = m
            self.order.append(key)

    def col(self, name: str) -> int:
        return self.columns.index(name)

    def items(self):
        return ((k, self.by[k]) for k in self.order)
