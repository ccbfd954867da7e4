"""Statistics for balance questions: intervals, tests, ratings (the sequential test
that stops a run is the runner's: sim/tournament/sequential.py).

Pure functions of numbers and arrays; the tests check them against SciPy, statsmodels
and synthetic data with known answers. SciPy supplies distribution tails only.

The unit of every interval and test on game records is the block (one seed played
under all its seat orders and variants): games of a block share their tiles, so they
are not independent. Means and differences come with cluster-robust standard errors
by block (the CR1 sandwich, as statsmodels' OLS with cov_type="cluster") and
Student-t intervals with blocks − 1 degrees of freedom.
"""

from __future__ import annotations

import math
from typing import NamedTuple

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


class Estimate(NamedTuple):
    """An estimate with its standard error, 95% interval, two-sided p-value (against
    `null`) and the number of independent units (blocks) behind it."""

    estimate: float
    se: float
    low: float
    high: float
    p: float
    n: int


NO_ESTIMATE = Estimate(math.nan, math.nan, math.nan, math.nan, math.nan, 0)


def t_estimate(value: float, se: float, units: int, null: float = 0.0) -> Estimate:
    """Student-t 95% interval and p-value with `units` − 1 degrees of freedom."""
    if units < 2 or not math.isfinite(se):
        return Estimate(value, math.inf, -math.inf, math.inf, 1.0, units)
    if se <= 1e-12 * max(1.0, abs(value)):  # every unit agrees: the sign test (the one
        # rule changed since the freeze, with sim/analysis/stats.py: p 0 was no test)
        p = 1.0 if abs(value - null) <= 1e-12 * max(1.0, abs(value)) else min(1.0, 2 * 0.5 ** units)
        return Estimate(value, 0.0, value, value, p, units)
    q = float(sps.t.ppf(0.975, units - 1))
    p = float(2 * sps.t.sf(abs(value - null) / se, units - 1))
    return Estimate(value, se, value - q * se, value + q * se, p, units)


def mean_estimate(values, null: float = 0.0) -> Estimate:
    """Mean of independent per-block values, its standard error across blocks, and a
    Student-t interval (blocks − 1 degrees of freedom)."""
    v = np.asarray(values, dtype=float)
    n = len(v)
    if n == 0:
        return NO_ESTIMATE
    se = float(v.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf
    return t_estimate(float(v.mean()), se, n, null)


def cluster_ols(y, X, groups) -> tuple[np.ndarray, np.ndarray, int]:
    """OLS of y on X with the cluster-robust (CR1) covariance by `groups`:
    (coefficients, covariance, clusters). The small-sample factor is
    G/(G−1) · (N−1)/(N−K), statsmodels' default for cov_type="cluster"."""
    y = np.asarray(y, dtype=float)
    X = np.asarray(X, dtype=float).reshape(len(y), -1)
    _, codes = np.unique(np.asarray(groups), return_inverse=True)
    n, k = X.shape
    g = int(codes.max()) + 1 if n else 0
    bread = np.linalg.pinv(X.T @ X)
    beta = bread @ X.T @ y
    scores = np.zeros((g, k))
    np.add.at(scores, codes, X * (y - X @ beta)[:, None])
    factor = g / (g - 1) * (n - 1) / (n - k) if g > 1 and n > k else math.inf
    return beta, factor * bread @ (scores.T @ scores) @ bread, g


def cluster_totals(values, groups) -> tuple[np.ndarray, np.ndarray]:
    """Per-group sums and counts of `values`."""
    _, codes = np.unique(np.asarray(groups), return_inverse=True)
    v = np.asarray(values, dtype=float)
    return (np.bincount(codes, v, minlength=codes.max() + 1 if len(v) else 0),
            np.bincount(codes, minlength=codes.max() + 1 if len(v) else 0).astype(float))


def cluster_ratio(sums, counts, null: float = 0.0) -> Estimate:
    """Mean over all observations (Σ sums / Σ counts) when observations are dependent
    within clusters: CR1 standard error from the clusters' residual totals, t interval
    over clusters − 1 degrees of freedom. The same as `cluster_ols` on an intercept."""
    sums, counts = np.asarray(sums, dtype=float), np.asarray(counts, dtype=float)
    g, n = len(sums), float(counts.sum())
    if g == 0 or n == 0:
        return NO_ESTIMATE
    mean = float(sums.sum() / n)
    if g < 2:
        return t_estimate(mean, math.inf, g, null)
    resid = sums - counts * mean
    return t_estimate(mean, math.sqrt(g / (g - 1) * float((resid ** 2).sum())) / n, g, null)


def cluster_mean(values, groups, null: float = 0.0) -> Estimate:
    """Mean of values that are dependent within groups (games within blocks)."""
    if len(values) == 0:
        return NO_ESTIMATE
    return cluster_ratio(*cluster_totals(values, groups), null)


ONE_SIDED = 0.025  # the tail of a one-sided bound that stands beside 95% intervals


def share_by_block(sums, counts, null: float = 0.5) -> Estimate:
    """A share in [0, 1] (win share) from per-block sums and counts, cluster-robust.

    A record where every block gave the same share (always so with no wins, or no
    losses) has no spread, so the sandwich would give a zero-width interval; it gets the
    exact bound of `_no_spread` instead, treating each of its G blocks as one trial:
    0 wins -> [0, 1 − 0.025^(1/G)], with the p of that bound."""
    est = cluster_ratio(sums, counts, null)
    g = est.n
    if g == 0:
        return est
    if est.estimate not in (0.0, 1.0) and est.se > 1e-7:  # a spread (not rounding's): the score interval
        return _score_interval(est, null)
    return _no_spread(est.estimate, g, null)


def _score_interval(est: Estimate, null: float) -> Estimate:
    """Wilson's interval and the score test at the effective number of trials
    n* = p̂(1 − p̂)/se² · (z/t)² (Korn & Graubard 1998, without their cap at the games)."""
    g, share, se = est.n, est.estimate, est.se
    if g < 2 or not math.isfinite(se) or not 0.0 < null < 1.0:
        return est._replace(low=max(0.0, est.low), high=min(1.0, est.high))
    q = float(sps.t.ppf(0.975, g - 1))
    n_eff = share * (1 - share) / (se * se) * (Z95 / q) ** 2
    near = n_eff * min(share, 1 - share) < 5
    if near:  # near 0 or 1: at most the blocks
        n_eff = min(n_eff, g)
    low, high = wilson(share * n_eff, n_eff)
    z = abs(share - null) / math.sqrt(null * (1 - null) / n_eff)
    p = float(2 * sps.t.sf(z * q / Z95, g - 1))
    if near:  # no surer than the record with none on the far side (its exact bound)
        b = 1 - ONE_SIDED ** (1 / g)
        low, high = min(low, 1 - b), max(high, b)
        p = max(p, min(1.0, 2 * null ** g if share > null else 2 * (1 - null) ** g))
    return est._replace(low=low, high=high, p=p)


def _no_spread(c: float, g: int, null: float) -> Estimate:
    """Every one of g blocks gave the share c: at most a share b = 1 − 0.025^(1/g) of
    blocks could differ, each by at most its distance to 0 or 1, so the interval is
    [c(1 − b), c + b(1 − c)] (0 wins: [0, b]; all: [1 − b, 1]), and p is the level at
    which it just reaches the null: 2(null/c)^g below c, 2((1 − null)/(1 − c))^g above."""
    b = 1 - ONE_SIDED ** (1 / g)
    p = (1.0 if c == null else 2 * (null / c) ** g if null < c else 2 * ((1 - null) / (1 - c)) ** g)
    return Estimate(c, math.nan, c * (1 - b), c + b * (1 - c), min(1.0, p), g)


def share_difference(values, groups) -> Estimate:
    """Mean of paired differences of win shares (each in [−1, 1]), cluster-robust. With
    a spread between blocks, the score interval of the share u = (1 + d)/2 (se/2, null
    1/2), mapped back. When every block differs by the same c (none differs: c = 0; or A
    won every block B lost: c = 1), the sandwich would give a zero-width interval; then
    at most a share b = 1 − 0.025^(1/G) of the G blocks can differ from c (the exact
    one-sided bound on a proportion seen to be 0), each by at most its distance to −1 or
    1, so the interval is [c − b(1 + c), c + b(1 − c)] (± b for c = 0), with the p of
    that bound, 2(1 + |c|)^−G, when c ≠ 0. (Changed with sim/analysis/stats.py.)"""
    est = cluster_mean(values, groups)
    v = np.asarray(values, dtype=float)
    if est.n == 0:
        return est
    alike = v.min() == v.max()
    if not alike and not math.isfinite(est.se):
        return est._replace(low=max(-1.0, est.low), high=min(1.0, est.high))
    if not alike and est.se > 1e-7:
        u = _score_interval(est._replace(estimate=(1 + est.estimate) / 2, se=est.se / 2), 0.5)
        return est._replace(low=max(-1.0, 2 * u.low - 1), high=min(1.0, 2 * u.high - 1), p=u.p)
    c = float(v[0]) if alike else est.estimate
    bound = 1 - ONE_SIDED ** (1 / est.n)
    p = 1.0 if c == 0 else min(1.0, 2 * (1 + abs(c)) ** -est.n)
    return Estimate(c, math.nan, max(-1.0, c - bound * (1 + c)), min(1.0, c + bound * (1 - c)),
                    p, est.n)


def cluster_difference(values, indicator, groups) -> Estimate:
    """Mean of values where `indicator` is 1 minus where it is 0 (the OLS slope on the
    indicator), cluster-robust by groups."""
    v = np.asarray(values, dtype=float)
    x = np.asarray(indicator, dtype=float)
    if len(v) == 0 or x.min() == x.max():
        return NO_ESTIMATE
    beta, cov, g = cluster_ols(v, np.column_stack([np.ones(len(v)), x]), groups)
    return t_estimate(float(beta[1]), float(math.sqrt(cov[1, 1])) if g > 1 else math.inf, g)


def block_weights(blocks: int, boots: int, seed: int) -> np.ndarray:
    """Block-bootstrap resamples as weights: row b of the (boots, blocks) array counts
    how often each block is drawn in resample b (`blocks` draws with replacement), from
    numpy's generator seeded with `seed`, so the same call gives the same resamples. A
    statistic that is a ratio of per-block sums is recomputed on a resample as
    weights @ sums / (weights @ counts)."""
    if blocks < 1 or boots < 1:
        raise ValueError(f"block_weights: blocks = {blocks}, boots = {boots}: expected both ≥ 1")
    draws = np.random.default_rng(seed).integers(0, blocks, (boots, blocks))
    out = np.zeros((boots, blocks))
    np.add.at(out, (np.repeat(np.arange(boots), blocks), draws.ravel()), 1.0)
    return out


def hotelling_zero(rows) -> tuple[float, int, int, float]:
    """Hotelling's T² test that the mean of independent vector rows (one a block) is
    zero: (F statistic, dof1, dof2, p). One column: the squared one-sample t test."""
    d = np.asarray(rows, dtype=float)
    n, k = d.shape
    if n <= k:
        return math.nan, k, n - k, math.nan
    mean = d.mean(axis=0)
    cov = np.cov(d, rowvar=False).reshape(k, k)
    if np.linalg.matrix_rank(cov) < k:  # a column without spread: no F test
        return math.nan, k, n - k, math.nan
    t2 = float(n * mean @ np.linalg.solve(cov, mean))
    f = t2 * (n - k) / (k * (n - 1))
    return f, k, n - k, float(sps.f.sf(f, k, n - k))


def paired_difference(a, b) -> Estimate:
    """Arm a minus arm b, paired by block (same seeds): the mean of the differences."""
    return mean_estimate(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))


def holm(pvalues: list[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the input order (NaN stays NaN and is not
    counted in the family)."""
    keep = [i for i, p in enumerate(pvalues) if p is not None and math.isfinite(p)]
    if len(keep) < len(pvalues):
        out = [math.nan] * len(pvalues)
        for i, a in zip(keep, holm([pvalues[i] for i in keep])):
            out[i] = a
        return out
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def benjamini_hochberg(pvalues: list[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (q-values: the false-discovery rate at
    which each would be rejected), in the input order; NaN/None stay NaN and are not
    counted. q_(i) = min over j ≥ i of m p_(j) / j, capped at 1."""
    keep = [i for i, p in enumerate(pvalues) if p is not None and math.isfinite(p)]
    out = [math.nan] * len(pvalues)
    m = len(keep)
    order = sorted(keep, key=lambda i: pvalues[i], reverse=True)
    running = 1.0
    for rank, i in zip(range(m, 0, -1), order):
        running = min(running, m * pvalues[i] / rank)
        out[i] = running
    return out


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


def sample_size(halfwidth: float, p: float = 0.5, z: float = Z95) -> int:
    """Games needed for a 95% interval of ±`halfwidth` on a proportion near p
    (independent games; with blocks, count blocks and use the block variance)."""
    return math.ceil(z * z * p * (1 - p) / (halfwidth * halfwidth))


def sample_size_for_sd(halfwidth: float, sd: float, z: float = Z95) -> int:
    """Blocks needed for a ±`halfwidth` interval on a mean whose per-block sd is `sd`."""
    return math.ceil((z * sd / halfwidth) ** 2)
