"""Statistics for balance questions: intervals, tests, ratings (the sequential test
that stops a run is the runner's: sim/tournament/sequential.py).

Pure functions of numbers and arrays; the tests check them against SciPy, statsmodels
and synthetic data with known answers. SciPy supplies distribution tails only.

The unit of every interval and test on game records is the block (one seed played
under all its seat orders and variants): games of a block share their tiles, so they
are not independent. Means and differences come with cluster-robust standard errors
by block (the CR1 sandwich, as statsmodels' OLS with cov_type="cluster") and
Student-t intervals with blocks − 1 degrees of freedom. A share in [0, 1] takes the
score interval and test at the effective number of trials that standard error gives
(`share_from`), which stays honest near 0 and 1 where the t interval does not.

Every estimate is a function of the sufficient statistics of its per-block values
(`Moments`, sim/analysis/moments.py: sums, means and centred cross-products over
blocks): the `*_from` functions take them, as the report's streaming pass folds them
(sim/analysis/scan.py), and the functions of arrays reduce their arrays to them first,
so each statistic has one formula.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
# the distributions' own functions: the same values as scipy.stats' t, F and χ², without
# loading scipy.stats (its import is most of the report's memory before the first row)
from scipy import special

from sim.analysis.moments import Moments

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
    return stat, dof, float(special.chdtrc(dof, stat))


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
    if se <= 1e-12 * max(1.0, abs(value)):  # every unit agrees (but for rounding): no spread
        # to test against, so the sign test: every unit on one side of the null
        p = 1.0 if abs(value - null) <= 1e-12 * max(1.0, abs(value)) else min(1.0, 2 * 0.5 ** units)
        return Estimate(value, 0.0, value, value, p, units)
    q = float(special.stdtrit(units - 1, 0.975))
    p = float(2 * special.stdtr(units - 1, -abs(value - null) / se))
    return Estimate(value, se, value - q * se, value + q * se, p, units)


def mean_from(m: Moments, i: int = 0, null: float = 0.0) -> Estimate:
    """Mean of independent per-block values (column `i` of `m`, one row a block), its
    standard error across blocks, and a Student-t interval (blocks − 1 degrees of freedom)."""
    if m.n == 0:
        return NO_ESTIMATE
    se = float(np.sqrt(m.var(i) / m.n)) if m.n > 1 else math.inf
    return t_estimate(float(m.mean[i]), se, m.n, null)


def mean_estimate(values, null: float = 0.0) -> Estimate:
    """Mean of independent per-block values (mean_from)."""
    return mean_from(Moments.of(np.asarray(values, dtype=float)), 0, null)


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


def ratio_from(m: Moments, s: int = 0, c: int = 1, null: float = 0.0) -> Estimate:
    """Mean over all observations (Σ sums / Σ counts) when observations are dependent
    within clusters, from the clusters' sums (column `s` of `m`) and counts (column `c`):
    CR1 standard error from the clusters' residual totals sums − counts · mean, t interval
    over clusters − 1 degrees of freedom. The same as `cluster_ols` on an intercept.
    Σ residual² is Mss − 2·mean·Msc + mean²·Mcc in the centred cross-products (the
    residuals' own mean is 0)."""
    g, n = m.n, float(m.total[c]) if m.n else 0.0
    if g == 0 or n == 0:
        return NO_ESTIMATE
    mean = float(m.total[s] / n)
    if g < 2:
        return t_estimate(mean, math.inf, g, null)
    ss = m.cross[s, s] - 2 * mean * m.cross[s, c] + mean * mean * m.cross[c, c]
    return t_estimate(mean, math.sqrt(g / (g - 1) * max(0.0, float(ss))) / n, g, null)


def cluster_ratio(sums, counts, null: float = 0.0) -> Estimate:
    """ratio_from on arrays of per-cluster sums and counts."""
    return ratio_from(Moments.of(np.column_stack([np.asarray(sums, dtype=float),
                                                  np.asarray(counts, dtype=float)])), 0, 1, null)


def cluster_mean(values, groups, null: float = 0.0) -> Estimate:
    """Mean of values that are dependent within groups (games within blocks)."""
    if len(values) == 0:
        return NO_ESTIMATE
    return cluster_ratio(*cluster_totals(values, groups), null)


ONE_SIDED = 0.025  # the tail of a one-sided bound that stands beside 95% intervals
# a share's effective trials times its smaller side under which it counts as near 0 or 1
# (the usual n·p ≥ 5 of a normal approximation): its trials are then at most its blocks
FEW = 5
NO_SPREAD = 1e-7  # a share's se at most this is rounding's, not a spread (no real record gets one)


def share_from(m: Moments, s: int = 0, c: int = 1, null: float = 0.5) -> Estimate:
    """A share in [0, 1] (win share) from per-block sums and counts (columns `s`, `c`),
    cluster-robust: the score interval and test at its effective number of trials
    (`_score_interval`).

    A record where every block gave the same share (always so with no wins, or no
    losses) has no spread, so the sandwich would give a zero-width interval; it gets the
    exact bound of `_no_spread` instead, treating each of its G blocks as one trial:
    0 wins -> [0, 1 − 0.025^(1/G)], with the p of that bound."""
    est = ratio_from(m, s, c, null)
    g = est.n
    if g == 0:
        return est
    # a spread: the score interval. An se of rounding's size is none: blocks of different
    # sizes at one share leave ~1e-9 after the centred cross-products cancel
    if est.estimate not in (0.0, 1.0) and est.se > NO_SPREAD:
        return _score_interval(est, null)
    return _no_spread(est.estimate, g, null)


def _score_interval(est: Estimate, null: float) -> Estimate:
    """A share's interval and p from the score test at its effective number of trials
    (Korn & Graubard 1998): the clustered record read as the binomial one with the same
    precision, n* = p̂(1 − p̂)/se² from the sandwich's se, times (z/t)² for its blocks − 1
    degrees of freedom. Its interval is Wilson's at n*, and p the score test's with
    Student-t tails of blocks − 1 degrees of freedom, so the null is outside the interval
    exactly when p < 0.05. n* may exceed the games: a
    design that balances seats within a block (rotations) is more precise than as many
    independent games, and the sandwich's se says by how much. Near 0 or 1 (fewer than
    FEW expected outcomes on the far side, n*·min(p̂, 1 − p̂) < 5) a handful of blocks
    make the whole spread, too few to say how much a block's games tell apart; there n*
    is at most the blocks, as in the exact bound of a record with none on the far side,
    so a record one block short of that one never gets the narrower interval (139 of
    140 two-game blocks won and one split: [0.967, 1.000], beside 140 won: [0.974, 1]);
    over a handful of blocks, where Wilson's interval at G trials is narrower than the
    exact bound, the interval and p are held to that record's. (Across the switch at
    FEW, over 3–8 blocks, a record far enough from 0 or 1 to keep n* above its blocks can
    still read surer than a near one: 18, 18, 17 of 20 in 3 blocks p = 0.005 against
    20, 20, 19: 0.25. The near one counts its blocks as trials, the far one reads its
    blocks' spread, itself uncertain over 3 blocks: few blocks tell little either way.)

    The sandwich t interval itself is too sure of itself near 0 or 1, where its se,
    built from p̂(1 − p̂), vanishes: 139 wins in 140 one-game blocks read [0.979, 1],
    narrower than the exact bound [0.974, 1] of 140 in 140, and 97 % shares over 60
    two-game blocks were covered 90 % of the time. The score interval keeps its width
    there (139 in 140: [0.960, 1]; coverage 97 %) and inside (0, 1) differs from the
    t interval by the order of 1/n* (tests/test_stats.py)."""
    g, share, se = est.n, est.estimate, est.se
    if g < 2 or not math.isfinite(se) or not 0.0 < null < 1.0:
        return est._replace(low=max(0.0, est.low), high=min(1.0, est.high))
    q = float(special.stdtrit(g - 1, 0.975))
    n_eff = share * (1 - share) / (se * se) * (Z95 / q) ** 2
    near = n_eff * min(share, 1 - share) < FEW
    if near:  # near 0 or 1: the blocks are the trials
        n_eff = min(n_eff, g)
    low, high = wilson(share * n_eff, n_eff)
    # the score statistic at n*, read on the t scale of the blocks (× t/z, as n* took
    # (z/t)²): the null is outside the interval exactly when p < 0.05, and ten blocks
    # are ten blocks in the tails too (a normal tail gave p 1e-39 there)
    z = abs(share - null) / math.sqrt(null * (1 - null) / n_eff)
    p = float(2 * special.stdtr(g - 1, -z * q / Z95))
    if not near:
        return est._replace(low=low, high=high, p=p)
    # where the blocks are the trials, never surer than the record with none on the far
    # side: over few blocks (3–8 two-game blocks) Wilson's interval at G trials is
    # narrower than that record's exact bound, so one split block would have read as
    # stronger evidence than none. Its interval reaches 1 − b (0 wins: b) and its p is
    # 2·null^G (2(1 − null)^G): the null stays outside exactly when p < 0.05, as both
    # parts keep that
    b = exact_bound(g)
    perfect_p = 2 * null ** g if share > null else 2 * (1 - null) ** g
    return est._replace(low=min(low, 1 - b), high=max(high, b), p=max(p, min(1.0, perfect_p)))


def exact_bound(blocks: int) -> float:
    """b = 1 − 0.025^(1/blocks): the share of blocks that could differ when none did (the
    exact one-sided bound on a proportion seen to be 0). The exact-bound interval of a
    share is b wide, that of a difference of shares 2b (`_no_spread`,
    `share_difference_from`)."""
    return 1 - ONE_SIDED ** (1 / blocks)


def blocks_for_bound(half_width: float, widths: int) -> int:
    """Blocks for an exact-bound interval `widths` × b wide (1: a share, 2: a difference
    of shares) to be at most 2·half_width wide: ceil(ln 0.025 / ln(1 − 2·half_width/widths)).
    It shrinks as 1/blocks, not as 1/√blocks as a spread's does."""
    b = 2 * half_width / widths
    return 1 if b >= 1 else math.ceil(math.log(ONE_SIDED) / math.log1p(-b))


def _no_spread(c: float, g: int, null: float) -> Estimate:
    """Every one of g blocks gave the share c: at most a share b = 1 − 0.025^(1/g) of
    blocks could differ, each by at most its distance to 0 or 1, so the interval is
    [c(1 − b), c + b(1 − c)] (0 wins: [0, b]; all: [1 − b, 1]), and p is the level at
    which it just reaches the null: 2(null/c)^g below c, 2((1 − null)/(1 − c))^g above."""
    b = exact_bound(g)
    p = (1.0 if c == null else 2 * (null / c) ** g if null < c else 2 * ((1 - null) / (1 - c)) ** g)
    return Estimate(c, math.nan, c * (1 - b), c + b * (1 - c), min(1.0, p), g)


def share_by_block(sums, counts, null: float = 0.5) -> Estimate:
    """share_from on arrays of per-block sums and counts."""
    return share_from(Moments.of(np.column_stack([np.asarray(sums, dtype=float),
                                                  np.asarray(counts, dtype=float)])), 0, 1, null)


def share_difference_from(m: Moments, s: int, c: int, lo: int, hi: int) -> Estimate:
    """Mean of paired differences of win shares (each in [−1, 1]), cluster-robust, from
    per-block sums and counts of the differences (columns `s`, `c`) and each block's
    smallest and largest difference (columns `lo`, `hi`).

    With a spread, the difference d is read as the share u = (1 + d)/2 in [0, 1] with
    half its se, and takes a share's score interval and test at its effective trials
    (`_score_interval`, null u = 1/2: no difference), mapped back. Inside (−1, 1) that is
    the Student-t interval to the order of 1/n*; near ±1, where the sandwich's se
    vanishes with the spread, the t interval covered a difference of 0.98 over 300
    one-game blocks 85 % of the time, the score interval 97 % (tests/test_stats.py).

    When every block differs by the same c (none differs: c = 0; or A won every block B
    lost: c = 1), the sandwich would give a zero-width interval; then at most a share
    b = 1 − 0.025^(1/G) of the G blocks can differ from c (the exact one-sided bound on a
    proportion seen to be 0), each by at most its distance to −1 or 1, so the interval is
    [c − b(1 + c), c + b(1 − c)] (± b for c = 0), and p is the level at which that
    interval just reaches 0, 2(1 + |c|)^−G (the sign test's when c = ±1): p < 0.05
    exactly when the 95% interval excludes 0."""
    est = ratio_from(m, s, c)
    if est.n == 0 or not math.isfinite(est.estimate):  # (a NaN row: no estimate to give)
        return est
    alike = m.low[lo] == m.high[hi]  # every pair differs by the same c
    if not alike and not math.isfinite(est.se):  # one block: no spread to read
        return est._replace(low=max(-1.0, est.low), high=min(1.0, est.high))
    if not alike and est.se > NO_SPREAD:  # a spread between blocks
        u = _score_interval(est._replace(estimate=(1 + est.estimate) / 2, se=est.se / 2), 0.5)
        return est._replace(low=max(-1.0, 2 * u.low - 1), high=min(1.0, 2 * u.high - 1), p=u.p)
    # every block's mean difference is c (its pairs may differ: a block of 1 and 0 is 0.5)
    c = float(m.low[lo]) if alike else est.estimate
    bound = exact_bound(est.n)
    # the p of the same bound: the interval excludes 0 exactly when b < |c| / (1 + |c|), so
    # at a one-sided level of (1 + |c|)^-G (the sign test's 0.5^G when one won every block)
    p = 1.0 if c == 0 else min(1.0, 2 * (1 + abs(c)) ** -est.n)
    return Estimate(c, math.nan, max(-1.0, c - bound * (1 + c)), min(1.0, c + bound * (1 - c)),
                    p, est.n)


def share_difference(values, groups) -> Estimate:
    """share_difference_from on the rows' values and their groups (blocks)."""
    v = np.asarray(values, dtype=float)
    if len(v) == 0:
        return NO_ESTIMATE
    _, codes = np.unique(np.asarray(groups), return_inverse=True)
    sums, counts = cluster_totals(v, groups)
    low = np.full(len(sums), np.inf)
    high = np.full(len(sums), -np.inf)
    np.minimum.at(low, codes, v)
    np.maximum.at(high, codes, v)
    return share_difference_from(Moments.of(np.column_stack([sums, counts, low, high])), 0, 1, 2, 3)


def cluster_difference_from(m: Moments, n: int, x: int, y: int, xy: int) -> Estimate:
    """Mean of values where an indicator is 1 minus where it is 0 (the OLS slope on the
    indicator), cluster-robust (CR1, as `cluster_ols`), from each cluster's count of
    rows, Σ indicator, Σ value and Σ value · indicator (columns `n`, `x`, `y`, `xy`).
    A cluster's score vector is linear in those four sums and the scores sum to 0, so
    the sandwich's meat is A · M · Aᵀ in their centred cross-products M."""
    N, sx, sy, sxy = (float(m.total[i]) if m.n else 0.0 for i in (n, x, y, xy))
    if m.n == 0 or sx in (0.0, N):  # the indicator never varies: no slope
        return NO_ESTIMATE
    bread = np.linalg.pinv(np.array([[N, sx], [sx, sx]]))
    b0, b1 = bread @ np.array([sy, sxy])
    a = np.zeros((2, m.cross.shape[0]))
    a[0, n], a[0, x], a[0, y] = -b0, -b1, 1.0
    a[1, x], a[1, xy] = -b0 - b1, 1.0
    g, k = m.n, 2
    factor = g / (g - 1) * (N - 1) / (N - k) if g > 1 and N > k else math.inf
    cov = factor * bread @ (a @ m.cross @ a.T) @ bread
    return t_estimate(float(b1), float(math.sqrt(cov[1, 1])) if g > 1 else math.inf, g)


def cluster_difference(values, indicator, groups) -> Estimate:
    """cluster_difference_from on the rows' values, 0/1 indicator and groups."""
    v = np.asarray(values, dtype=float)
    x = np.asarray(indicator, dtype=float)
    if len(v) == 0:
        return NO_ESTIMATE
    sums = [cluster_totals(w, groups)[0] for w in (np.ones(len(v)), x, v, v * x)]
    return cluster_difference_from(Moments.of(np.column_stack(sums)), 0, 1, 2, 3)


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


def hotelling_from(m: Moments, cols, null: float = 0.0) -> tuple[float, int, int, float]:
    """Hotelling's T² test that the mean of independent vector rows (columns `cols` of
    `m`, one row a block) is `null` in every column: (F statistic, dof1, dof2, p). One
    column: the squared one-sample t test."""
    cols = list(cols)
    n, k = m.n, len(cols)
    if n <= k:
        return math.nan, k, n - k, math.nan
    mean = m.mean[cols] - null
    cov = m.cov()[np.ix_(cols, cols)]
    if np.linalg.matrix_rank(cov) < k:  # a column without spread: no F test
        return math.nan, k, n - k, math.nan
    t2 = float(n * mean @ np.linalg.solve(cov, mean))
    f = t2 * (n - k) / (k * (n - 1))
    return f, k, n - k, float(special.fdtrc(k, n - k, f))


def hotelling_zero(rows) -> tuple[float, int, int, float]:
    """hotelling_from on an array of rows (one a block)."""
    d = np.asarray(rows, dtype=float)
    return hotelling_from(Moments.of(d), range(d.shape[1]))


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
