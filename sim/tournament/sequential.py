"""The sequential test that stops an A/B run once it decides (`[run.sprt]`): Fishtest's
generalised SPRT over block scores, and the block score itself.

It belongs to the runner (sim/tournament/run.py stops on it); the report reads the
decision and recomputes the scores from the records with the same `block_outcomes`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl


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


def block_outcomes(games: pl.DataFrame, players: pl.DataFrame, arm: str,
                   baseline: str | None) -> dict[int, float]:
    """One score in [0, 1] per block for an A/B question, for the sequential test
    (SPRT): the block is the paired unit, so its score keeps every tie and
    half-win (a 1/0/½ sign would throw away how much an arm won by).

    Without a baseline (the arm is a player spec): that player's mean win share over
    the block's games; with two seat orders that is a game pair's score 0, ¼, ½, ¾ or 1.
    With a baseline (variants designs): 0.5 + (a − b)/2, where a and b are the mean
    win shares of the arm's and the baseline's focal players over the block's games
    (same seeds, seats and editions); 0.5 when they do equally well, and its
    expectation is 0.5 + half the paired win-share difference."""
    if baseline is None:
        p = players.filter(pl.col("player") == arm).join(games.select("game_id", "block"), on="game_id")
        per = p.group_by("block").agg(pl.col("win_share").mean())
        return dict(per.iter_rows())
    p = players.filter(pl.col("focal")).join(games.select("game_id", "block", "variant"), on="game_id")
    per = p.filter(pl.col("variant").is_in([arm, baseline])).group_by("block", "variant").agg(
        pl.col("win_share").mean())
    a = dict(per.filter(pl.col("variant") == arm).select("block", "win_share").iter_rows())
    b = dict(per.filter(pl.col("variant") == baseline).select("block", "win_share").iter_rows())
    return {k: 0.5 + (a[k] - b[k]) / 2 for k in a if k in b}
