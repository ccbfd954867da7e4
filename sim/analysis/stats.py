"""Statistics for balance questions: intervals, tests, ratings, sequential stopping.

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
from dataclasses import dataclass
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
    if se == 0:  # every unit agrees exactly: no spread to test against
        return Estimate(value, 0.0, value, value, 1.0 if value == null else 0.0, units)
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

    A record with no wins (or no losses) has no spread, so the sandwich would give a
    zero-width interval; it gets the exact one-sided bound instead, treating each of
    its G blocks as one trial: 0 wins -> [0, 1 − 0.025^(1/G)] and a sign-test p."""
    est = cluster_ratio(sums, counts, null)
    g = est.n
    if g == 0 or est.estimate not in (0.0, 1.0):  # a share stays in [0, 1]
        return est._replace(low=max(0.0, est.low), high=min(1.0, est.high)) if g else est
    bound = ONE_SIDED ** (1 / g)
    if est.estimate == 0.0:
        return Estimate(0.0, math.nan, 0.0, 1 - bound, min(1.0, 2 * (1 - null) ** g), g)
    return Estimate(1.0, math.nan, bound, 1.0, min(1.0, 2 * null ** g), g)


def share_difference(values, groups) -> Estimate:
    """Mean of paired differences of win shares (each in [−1, 1]), cluster-robust. When
    no pair differs at all, the sandwich would give a zero-width interval; then at most
    a share 1 − 0.025^(1/G) of the G blocks can hold a difference (the exact one-sided
    bound on a proportion seen to be 0), so the interval is ± that."""
    est = cluster_mean(values, groups)
    v = np.asarray(values, dtype=float)
    if est.n == 0 or v.min() != 0 or v.max() != 0:  # a difference of shares stays in [−1, 1]
        return est._replace(low=max(-1.0, est.low), high=min(1.0, est.high)) if est.n else est
    bound = 1 - ONE_SIDED ** (1 / est.n)
    return Estimate(0.0, math.nan, -bound, bound, 1.0, est.n)


def cluster_difference(values, indicator, groups) -> Estimate:
    """Mean of values where `indicator` is 1 minus where it is 0 (the OLS slope on the
    indicator), cluster-robust by groups."""
    v = np.asarray(values, dtype=float)
    x = np.asarray(indicator, dtype=float)
    if len(v) == 0 or x.min() == x.max():
        return NO_ESTIMATE
    beta, cov, g = cluster_ols(v, np.column_stack([np.ones(len(v)), x]), groups)
    return t_estimate(float(beta[1]), float(math.sqrt(cov[1, 1])) if g > 1 else math.inf, g)


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


# Pseudo-count of the outcomes 0 and 1 when no block has shown them: the likelihood
# under a hypothesised mean needs support on both sides of it (else a run whose first
# blocks all tie would have an infinite LLR), as Fishtest replaces empty pentanomial
# cells by 1e-3.
SPRT_PSEUDO_COUNT = 1e-3


def _mean_constrained_lambda(x, n, s, iterations: int = 100):
    """The Lagrange multiplier λ of the multinomial maximum likelihood under the mean
    constraint Σ p_i x_i = s: p_i = n_i / (N (1 + λ (x_i − s))), where λ solves
    g(λ) = Σ n_i (x_i − s) / (1 + λ (x_i − s)) = 0 on 1 + λ (x_i − s) > 0.

    `x` (k,) are the sorted support points, x[0] = 0 and x[-1] = 1; `n` (..., k)
    counts; every leading index is solved at once (the simulation test solves
    thousands of runs in one call). The root is bracketed by the poles of g at
    λ = −1/(1 − s) and 1/s; when the data sit on one side of s the root lies close to
    a pole, where Newton on g crawls. So Newton runs on H = g · (1 − λs)(1 + λ(1 − s)),
    which has the same sign and root but no pole, inside a bracket kept by H's sign
    (bisection when a step leaves it). LLR errors are second order in λ's (g = 0 at the
    optimum), so 1e-10 on λ is ample."""
    d = x - s
    lo = np.full(n.shape[:-1], -1.0 / (1.0 - s))
    hi = np.full(n.shape[:-1], 1.0 / s)
    lam = np.zeros(n.shape[:-1])
    nd = n * d
    for _ in range(iterations):
        l = lam[..., None]
        a, b = 1.0 - l * s, 1.0 + l * (1.0 - s)  # the endpoints' 1 + λ d, both > 0
        den = 1.0 + l * d
        with np.errstate(divide="ignore", invalid="ignore"):  # 0/0 at the endpoints, set below
            q = a * b / den  # P / (1 + λ d_i), P = a b
            dq = ((-s * b + (1.0 - s) * a) * den - a * b * d) / (den * den)
        q[..., 0], dq[..., 0] = b[..., 0], 1.0 - s  # x = 0: P / a = b
        q[..., -1], dq[..., -1] = a[..., 0], -s  # x = 1: P / b = a
        h = (nd * q).sum(-1)
        dh = (nd * dq).sum(-1)
        lo = np.where(h > 0, lam, lo)
        hi = np.where(h > 0, hi, lam)
        with np.errstate(divide="ignore", invalid="ignore"):
            newton = lam - h / dh
        inside = (newton >= lo) & (newton <= hi) & np.isfinite(newton)
        step = np.where(inside, newton, 0.5 * (lo + hi))
        done = np.all(np.abs(step - lam) <= 1e-10)
        lam = step
        if done:
            break
    return lam


def gsprt_llr(x, counts, s0: float, s1: float):
    """Generalised log-likelihood ratio of H1: E[outcome] = s1 against H0: = s0 for
    outcomes on the support `x` (k,) seen `counts` (..., k) times: the log of the
    multinomial likelihood maximised under each mean constraint (Van den Bergh's
    GSPRT, as Fishtest uses on pentanomial game pairs). The spread of the outcomes
    enters through the constrained maxima, so 80 % tied blocks weigh as little as
    they inform; on outcomes 0/1 alone it is Wald's Bernoulli LLR."""
    x = np.asarray(x, dtype=float)
    n = np.asarray(counts, dtype=float)
    l0 = _mean_constrained_lambda(x, n, s0)
    l1 = _mean_constrained_lambda(x, n, s1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t0 = np.where(n > 0, n * np.log1p(l0[..., None] * (x - s0)), 0.0)
        t1 = np.where(n > 0, n * np.log1p(l1[..., None] * (x - s1)), 0.0)
    return (t0 - t1).sum(-1)


def sprt_support(outcomes) -> tuple[np.ndarray, np.ndarray]:
    """(support, codes): the distinct outcomes with 0 and 1 added, and each outcome's
    index into them."""
    v = np.asarray(outcomes, dtype=float).ravel()
    if len(v) and (np.isnan(v).any() or v.min() < 0 or v.max() > 1):
        raise ValueError("SPRT outcomes must lie in [0, 1]")
    support, codes = np.unique(np.concatenate([[0.0, 1.0], v]), return_inverse=True)
    return support, codes[2:]


def regularise(support, counts):
    """Counts with the cells of 0 and 1 raised to at least SPRT_PSEUDO_COUNT."""
    counts = np.array(counts, dtype=float)
    for end in (0, len(support) - 1):
        counts[..., end] = np.maximum(counts[..., end], SPRT_PSEUDO_COUNT)
    return counts


@dataclass(frozen=True)
class SPRT:
    """Sequential test of H0: the mean block outcome is p0 against H1: it is p1, with
    Wald's bounds ln(β/(1−α)) and ln((1−β)/α) on the generalised LLR (`gsprt_llr`).

    A block outcome is a score in [0, 1]: a player's mean win share over the block's
    games (a pair of games in two seat orders is Fishtest's pentanomial pair), or in a
    variants design 0.5 + (arm − baseline)/2 of the two arms' mean win shares on the
    same seeds. Wald's Bernoulli LLR on such scores treats a tied block as half a win
    and half a loss, i.e. as if it had the spread of a coin toss: with 75-80 % tied
    blocks its realised error rates were 0.000 at 3.5-5x the blocks needed. The
    generalised test uses the outcomes' own distribution, and keeps α and β (checked
    by simulation in tests/test_stats.py)."""

    p0: float = 0.5
    p1: float = 0.55
    alpha: float = 0.05
    beta: float = 0.05
    name = "GSPRT"

    @property
    def upper(self) -> float:  # accept H1 at or above (ln 19 = 2.944 at α = β = 0.05)
        return math.log((1 - self.beta) / self.alpha)

    @property
    def lower(self) -> float:  # accept H0 at or below
        return math.log(self.beta / (1 - self.alpha))

    def llrs(self, outcomes, first: int = 0) -> np.ndarray:
        """The LLR after each prefix of `outcomes` (block order) from the one of length
        first + 1 on: a running test has checked the shorter ones already, so only the
        new blocks cost a solve (the counts before them are one bincount)."""
        support, codes = sprt_support(outcomes)
        first = max(0, min(first, len(codes) - 1))
        if len(codes) == 0:
            return np.zeros(0)
        base = np.bincount(codes[:first], minlength=len(support)).astype(float)
        step = np.zeros((len(codes) - first, len(support)))
        step[np.arange(len(step)), codes[first:]] = 1.0
        return gsprt_llr(support, regularise(support, base + step.cumsum(0)), self.p0, self.p1)

    def run(self, outcomes, first: int = 0) -> tuple[str, int, float]:
        """("H1" | "H0" | "continue", outcomes used, LLR there): stops at the first
        prefix whose LLR reaches a bound, looking from the prefix of length first + 1
        on (the shorter ones known not to)."""
        n = len(outcomes)
        if n == 0:
            return "continue", 0, 0.0
        first = max(0, min(first, n - 1))
        llr = self.llrs(outcomes, first)
        crossed = np.flatnonzero((llr >= self.upper) | (llr <= self.lower))
        if len(crossed) == 0:
            return "continue", n, float(llr[-1])
        i = int(crossed[0])
        return ("H1" if llr[i] >= self.upper else "H0"), first + i + 1, float(llr[i])


def sample_size(halfwidth: float, p: float = 0.5, z: float = Z95) -> int:
    """Games needed for a 95% interval of ±`halfwidth` on a proportion near p
    (independent games; with blocks, count blocks and use the block variance)."""
    return math.ceil(z * z * p * (1 - p) / (halfwidth * halfwidth))


def sample_size_for_sd(halfwidth: float, sd: float, z: float = Z95) -> int:
    """Blocks needed for a ±`halfwidth` interval on a mean whose per-block sd is `sd`."""
    return math.ceil((z * sd / halfwidth) ** 2)
