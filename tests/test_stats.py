"""sim/analysis/stats.py against SciPy and against synthetic data with known answers."""

import math

import numpy as np
import pytest
from scipy import stats as sps

from sim.analysis import stats


@pytest.mark.parametrize("k, n", [(0, 10), (3, 10), (50, 100), (99, 100), (412, 1000), (7, 7)])
def test_wilson_equals_scipy(k, n):
    ci = sps.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    low, high = stats.wilson(k, n)
    assert low == pytest.approx(ci.low, abs=1e-9) and high == pytest.approx(ci.high, abs=1e-9)


def test_chi2_equals_scipy():
    counts = [530, 470, 488, 512]
    stat, dof, p = stats.chi2_equal(counts)
    ref = sps.chisquare(counts)
    assert (stat, dof) == (pytest.approx(ref.statistic), 3) and p == pytest.approx(ref.pvalue)


def test_bradley_terry_recovers_known_strengths():
    rng = np.random.default_rng(5)
    true = np.array([0.0, 0.5, 1.0, -0.7])
    true -= true.mean()
    k = len(true)
    wins = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            p = 1 / (1 + math.exp(true[j] - true[i]))
            w = rng.binomial(4000, p)
            wins[i, j], wins[j, i] = w, 4000 - w
    est = stats.bradley_terry(wins)
    assert np.max(np.abs(est - true)) < 0.06, (est, true)


@pytest.mark.parametrize("truth, wrong", [(0.5, "H1"), (0.55, "H0")])
def test_sprt_error_rates_on_bernoulli_streams(truth, wrong):
    """α = β = 0.05, bounds ±2.944: the wrong decision in at most ~5% of 400 streams."""
    sprt = stats.SPRT(0.5, 0.55, 0.05, 0.05)
    assert sprt.upper == pytest.approx(math.log(19)) and sprt.lower == pytest.approx(-math.log(19))
    rng = np.random.default_rng(11)
    decisions = []
    for _ in range(400):
        outcome, n, llr = sprt.run(rng.random(20000) < truth)
        decisions.append(outcome)
    assert decisions.count("continue") == 0
    assert decisions.count(wrong) / 400 <= 0.08  # Wald's bound is about α; 400 streams of noise


def test_paired_estimator_covers_the_truth():
    rng = np.random.default_rng(3)
    covered = 0
    for _ in range(400):
        block = rng.normal(0, 1, 200)  # shared block effect: pairing removes it
        a = 0.1 + block + rng.normal(0, 0.3, 200)
        b = block + rng.normal(0, 0.3, 200)
        est = stats.paired_difference(a, b)
        covered += est.low <= 0.1 <= est.high
    assert 0.92 <= covered / 400 <= 0.98


def test_holm_by_hand():
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> running max
    assert stats.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_elo_and_sample_size():
    assert stats.elo(0.75) == pytest.approx(400 * math.log10(3))
    assert stats.elo(0.5) == 0
    assert stats.sample_size(0.01) == 9604  # 1.96² × 0.25 / 0.0001 = 9603.6
    assert stats.sample_size_for_sd(0.05, 0.5) == 385


def test_ratings_use_pairwise_ranks_in_multiplayer_games():
    """Three specs in 3-player games, always finishing a < b < c: every pair is a
    comparison, so the ratings order a > b > c with finite values."""
    import polars as pl

    from sim.analysis.balance import ratings
    rows, games = [], []
    for g in range(30):
        games.append({"game_id": g, "block": g})
        for seat, (spec, rank) in enumerate((("a", 1), ("b", 2), ("c", 3))):
            rows.append({"game_id": g, "seat": seat, "player": spec, "rank": rank,
                         "win_share": 1.0 if rank == 1 else 0.0})
    r = ratings(pl.DataFrame(rows), pl.DataFrame(games), boots=20)
    assert r["player"].to_list() == ["a", "b", "c"]
    assert all(np.isfinite(r["rating"].to_numpy()))
