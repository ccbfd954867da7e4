"""Statistics for balance questions: intervals, tests, ratings, sequential stopping.

Pure functions of numbers and arrays; the tests check them against SciPy and against
synthetic data with known answers. SciPy supplies distribution tails only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

Z95 = 1.959963984540054  # the normal 97.5% quantile


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; `successes` may be fractional (win shares)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def chi2_equal(counts: list[float]) -> tuple[float, int, float]:
    """Pearson χ² test that every category is equally likely: (statistic, dof, p)."""
    counts = np.asarray(counts, dtype=float)
    expected = counts.sum() / len(counts)
    stat = float(((counts - expected) ** 2 / expected).sum()) if expected > 0 else 0.0
    dof = len(counts) - 1
    return stat, dof, float(sps.chi2.sf(stat, dof))


@dataclass(frozen=True)
class Estimate:
    """A mean difference with its standard error, 95% interval, p-value and size."""

    estimate: float
    se: float
    low: float
    high: float
    p: float
    n: int


def mean_estimate(values) -> Estimate:
    """Mean of per-block values with its standard error across blocks (normal interval;
    blocks are independent, games within a block are not)."""
    v = np.asarray(values, dtype=float)
    n = len(v)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan, math.nan, 0)
    mean = float(v.mean())
    se = float(v.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf
    if se == 0:
        p = 1.0 if mean == 0 else 0.0
    else:
        p = float(2 * sps.norm.sf(abs(mean) / se)) if math.isfinite(se) else 1.0
    return Estimate(mean, se, mean - Z95 * se, mean + Z95 * se, p, n)


def paired_difference(a, b) -> Estimate:
    """Arm a minus arm b, paired by block (same seeds): the mean of the differences."""
    return mean_estimate(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))


def holm(pvalues: list[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the input order."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def bradley_terry(wins: np.ndarray, iterations: int = 2000, tol: float = 1e-10) -> np.ndarray:
    """Bradley–Terry strengths (log scale, mean 0) from wins[i, j] = times i beat j
    (fractional for draws), by the minorisation–maximisation algorithm (Hunter 2004)."""
    w = np.asarray(wins, dtype=float)
    k = w.shape[0]
    games = w + w.T
    total_wins = w.sum(axis=1)
    p = np.ones(k)
    for _ in range(iterations):
        denom = (games / (p[:, None] + p[None, :] + 1e-300)).sum(axis=1)
        new = np.where(denom > 0, total_wins / np.maximum(denom, 1e-300), p)
        new = np.maximum(new, 1e-12)
        new /= np.exp(np.log(new).mean())
        if np.max(np.abs(np.log(new) - np.log(p))) < tol:
            p = new
            break
        p = new
    logs = np.log(p)
    return logs - logs.mean()


def elo(p: float) -> float:
    """Elo difference for an expected score p (±inf at 0 and 1)."""
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400 * math.log10(1 / p - 1)


@dataclass(frozen=True)
class SPRT:
    """Wald's sequential probability ratio test for H0: p = p0 against H1: p = p1."""

    p0: float = 0.5
    p1: float = 0.55
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def upper(self) -> float:  # accept H1 at or above (ln 19 = 2.944 at α = β = 0.05)
        return math.log((1 - self.beta) / self.alpha)

    @property
    def lower(self) -> float:  # accept H0 at or below
        return math.log(self.beta / (1 - self.alpha))

    def step(self, outcome: float) -> float:
        """Log-likelihood-ratio increment of one outcome in [0, 1] (a block's win share)."""
        return (outcome * math.log(self.p1 / self.p0)
                + (1 - outcome) * math.log((1 - self.p1) / (1 - self.p0)))

    def run(self, outcomes) -> tuple[str, int, float]:
        """("H1" | "H0" | "continue", outcomes used, final LLR)."""
        llr = 0.0
        n = 0
        for n, x in enumerate(outcomes, 1):
            llr += self.step(x)
            if llr >= self.upper:
                return "H1", n, llr
            if llr <= self.lower:
                return "H0", n, llr
        return "continue", n, llr


def sample_size(halfwidth: float, p: float = 0.5, z: float = Z95) -> int:
    """Games needed for a 95% interval of ±`halfwidth` on a proportion near p
    (independent games; with blocks, count blocks and use the block variance)."""
    return math.ceil(z * z * p * (1 - p) / (halfwidth * halfwidth))


def sample_size_for_sd(halfwidth: float, sd: float, z: float = Z95) -> int:
    """Blocks needed for a ±`halfwidth` interval on a mean whose per-block sd is `sd`."""
    return math.ceil((z * sd / halfwidth) ** 2)
