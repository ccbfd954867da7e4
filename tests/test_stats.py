"""sim/analysis/stats.py against SciPy and against synthetic data with known answers."""

import math

import numpy as np
import pytest
from scipy import stats as sps

from sim.analysis import stats
from sim.tournament import sequential


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
    sprt = sequential.SPRT(0.5, 0.55, 0.05, 0.05)
    assert sprt.upper == pytest.approx(math.log(19)) and sprt.lower == pytest.approx(-math.log(19))
    rng = np.random.default_rng(11)
    decisions = []
    for _ in range(400):
        outcome, n, llr = sprt.run(rng.random(5000) < truth)
        decisions.append(outcome)
    assert decisions.count("continue") == 0
    assert decisions.count(wrong) / 400 <= 0.08  # Wald's bound is about α; 400 streams of noise


# Block outcome classes of a 2-seat block (a game pair): 0, ¼, ½, ¾, 1 of the arm's mean
# win share; 75-80 % of measured blocks are ties (½).
PAIR_CLASSES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])


def _tilted(q, mean):
    """q exponentially tilted to the given mean (the least favourable distribution of
    that mean near q): a block-outcome law with a known expected score."""
    q = np.asarray(q, dtype=float)
    lo, hi = -60.0, 60.0
    for _ in range(200):
        t = (lo + hi) / 2
        w = q * np.exp(t * PAIR_CLASSES)
        lo, hi = (t, hi) if w @ PAIR_CLASSES / w.sum() < mean else (lo, t)
    return w / w.sum()


def _simulate_sprt(test, probs, runs, rng, chunk=100, max_blocks=6000):
    """`runs` sequential tests on i.i.d. block outcomes drawn from PAIR_CLASSES with
    `probs`: (decision per run: +1 H1, −1 H0, 0 undecided; blocks used). Vectorised:
    a chunk of blocks at a time for every run still undecided, the LLR of every
    prefix from cumulative class counts (the same gsprt_llr as SPRT.run)."""
    counts = np.zeros((runs, len(PAIR_CLASSES)))
    decision = np.zeros(runs, dtype=int)
    used = np.zeros(runs, dtype=int)
    active = np.arange(runs)
    start = 0
    while len(active) and start < max_blocks:
        draws = rng.choice(len(PAIR_CLASSES), size=(len(active), chunk), p=probs)
        step = np.zeros((len(active), chunk, len(PAIR_CLASSES)))
        np.put_along_axis(step, draws[..., None], 1.0, axis=2)
        cum = counts[active][:, None, :] + step.cumsum(1)
        llr = sequential.gsprt_llr(PAIR_CLASSES, sequential.regularise(PAIR_CLASSES, cum), test.p0, test.p1)
        hit = (llr >= test.upper) | (llr <= test.lower)
        stopped = hit.any(1)
        first = hit.argmax(1)[stopped]
        decision[active[stopped]] = np.where(llr[stopped, first] >= test.upper, 1, -1)
        used[active[stopped]] = start + first + 1
        counts[active] = cum[:, -1]
        active = active[~stopped]
        start += chunk
    return decision, used


@pytest.mark.parametrize("q, p1, alpha, beta", [
    ([0.02, 0.09, 0.78, 0.09, 0.02], 0.525, 0.05, 0.05),  # 78 % ties, symmetric
    ([0.04, 0.10, 0.75, 0.08, 0.03], 0.525, 0.05, 0.05),  # 75 % ties, skewed
    ([0.01, 0.10, 0.80, 0.08, 0.01], 0.52, 0.05, 0.10),  # 80 % ties, β ≠ α
])
def test_sprt_keeps_alpha_and_beta_on_tied_paired_blocks(q, p1, alpha, beta):
    """Issue 23 item 3: on block outcomes of 0/¼/½/¾/1 with 75-80 % ties, 2,500 runs
    under H0 (mean 0.5) and 2,500 under H1 (mean p1) give the wrong decision at α and β
    within ±0.02 (the Bernoulli LLR this replaced gave 0.000 here, at 3.5-5x the
    blocks), every run decides, and on average it needs fewer blocks than the
    fixed-sample z test of the same α and β (n = ((z_α + z_β) σ / δ)², σ from H0)."""
    test = sequential.SPRT(0.5, p1, alpha, beta)
    rng = np.random.default_rng(23)
    h0, h1 = _tilted(q, 0.5), _tilted(q, p1)
    assert h0 @ PAIR_CLASSES == pytest.approx(0.5) and h1 @ PAIR_CLASSES == pytest.approx(p1)
    d0, n0 = _simulate_sprt(test, h0, 2500, rng)
    d1, n1 = _simulate_sprt(test, h1, 2500, rng)
    assert (d0 == 0).sum() == 0 and (d1 == 0).sum() == 0
    realised_alpha, realised_beta = (d0 == 1).mean(), (d1 == -1).mean()
    assert abs(realised_alpha - alpha) <= 0.02, realised_alpha
    assert abs(realised_beta - beta) <= 0.02, realised_beta
    sd = math.sqrt(h0 @ (PAIR_CLASSES - 0.5) ** 2)
    fixed = ((sps.norm.ppf(1 - alpha) + sps.norm.ppf(1 - beta)) * sd / (p1 - 0.5)) ** 2
    assert n0.mean() < fixed and n1.mean() < fixed, (n0.mean(), n1.mean(), fixed)


def test_sprt_llr_matches_a_direct_constrained_maximum():
    """The LLR is the multinomial log likelihood maximised under mean p1 minus under
    p0, each found here by SciPy's optimiser over the simplex; on 0/1 outcomes it is
    Wald's Bernoulli LLR (plus the 1e-3 pseudo-count of the unseen class)."""
    from scipy.optimize import minimize

    counts = np.array([3.0, 11.0, 70.0, 12.0, 4.0])

    def constrained(s):
        cons = [{"type": "eq", "fun": lambda p: p.sum() - 1},
                {"type": "eq", "fun": lambda p: p @ PAIR_CLASSES - s}]
        r = minimize(lambda p: -(counts * np.log(p)).sum(), counts / counts.sum(),
                     constraints=cons, bounds=[(1e-9, 1)] * 5, method="SLSQP",
                     options={"ftol": 1e-14, "maxiter": 500})
        return -r.fun

    llr = sequential.gsprt_llr(PAIR_CLASSES, counts, 0.5, 0.55)
    assert llr == pytest.approx(constrained(0.55) - constrained(0.5), abs=1e-6)
    test = sequential.SPRT(0.5, 0.55)
    outcomes = np.repeat(PAIR_CLASSES, counts.astype(int))
    assert test.llrs(outcomes)[-1] == pytest.approx(llr)
    # 0/1 outcomes: 7 wins, 3 losses -> 7 ln 1.1 + 3 ln 0.9
    assert test.llrs([1.0] * 7 + [0.0] * 3)[-1] == pytest.approx(7 * math.log(1.1) + 3 * math.log(0.9))
    # the first prefix at a bound decides, with its LLR
    verdict, n, value = test.run([1.0] * 40)
    assert (verdict, n) == ("H1", 31) and value >= test.upper > test.llrs([1.0] * 30)[-1]
    # a running test checks only the prefixes it has not seen: the same LLRs and stop
    assert test.llrs(outcomes, 60) == pytest.approx(test.llrs(outcomes)[60:], abs=1e-12)
    assert test.run([1.0] * 40, first=20) == test.run([1.0] * 40)
    assert test.run([0.5] * 10, first=10) == ("continue", 10, pytest.approx(test.llrs([0.5] * 10)[-1]))
    with pytest.raises(ValueError, match=r"in \[0, 1\]"):
        test.run([0.5, 1.5])


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
    comparison, but no spec both won and lost against another, so no rating is
    identified: the rated set is one spec, the others get a one-sided bound from
    their 30 blocks (97.5%: 0.025^(1/30) = 0.8842, Elo +353), never a number made
    up by the prior."""
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
    edge = 400 * math.log10(0.025 ** (1 / 30) / (1 - 0.025 ** (1 / 30)))
    assert edge == pytest.approx(353.3, abs=0.1)
    a, b, c = r.iter_rows(named=True)
    assert (a["bound"], a["rating"], a["low"], a["high"]) == ("rated", 0.0, None, None)
    for row in (b, c):  # never beat the rated spec a: below it by at least the bound
        assert row["bound"].startswith("upper bound only")
        assert row["rating"] is None and row["low"] is None
        assert row["high"] == pytest.approx(-edge)


def test_ratings_prior_is_small_against_a_connected_record():
    """a beats b in 300 of 500 comparisons, b beats c 300 of 500, a beats c 346 of 500
    (0.692 = 0.6²/(0.6² + 0.4²), the BT value): every spec won and lost, so all are
    rated, the fit (Elo(0.6) = 70.4 between neighbours) is the data's, and the MLE
    (prior 0) and the default prior agree to within an Elo point."""
    import polars as pl

    from sim.analysis.balance import RATING_PRIOR, ratings
    rows, games, gid = [], [], 0
    for (x, y), wins in ((("a", "b"), 300), (("b", "c"), 300), (("a", "c"), 346)):
        for k in range(500):
            games.append({"game_id": gid, "block": gid})
            first = 1 if k < wins else 2
            rows += [{"game_id": gid, "seat": 0, "player": x, "rank": first},
                     {"game_id": gid, "seat": 1, "player": y, "rank": 3 - first}]
            gid += 1
    players, g = pl.DataFrame(rows), pl.DataFrame(games)
    r = ratings(players, g, boots=30)
    assert 0 < RATING_PRIOR <= 0.5 and (r["prior"] == RATING_PRIOR).all()
    assert (r["bound"] == "rated").all()
    v = dict(zip(r["player"], r["rating"]))
    assert v["a"] - v["b"] == pytest.approx(70.4, abs=8) and v["b"] - v["c"] == pytest.approx(70.4, abs=8)
    assert all(lo < v[p] < hi for p, lo, hi in zip(r["player"], r["low"], r["high"]))
    mle = ratings(players, g, boots=2, prior=0.0)
    assert all(abs(m - v[p]) < 1 for p, m in zip(mle["player"], mle["rating"]))


def test_share_by_block_gives_one_sided_bounds_for_perfect_records():
    est = stats.share_by_block([2.0] * 10, [2] * 10)  # won all 20 games of 10 blocks
    assert (est.estimate, est.high) == (1.0, 1.0)
    assert est.low == pytest.approx(0.025 ** 0.1)  # not zero width
    assert est.p == pytest.approx(2 * 0.5 ** 10)
    zero = stats.share_by_block([0.0] * 10, [2] * 10)
    assert (zero.low, zero.high) == (0.0, pytest.approx(1 - 0.025 ** 0.1))


def test_hotelling_with_one_column_is_the_t_test():
    x = np.random.default_rng(1).normal(0.1, 1, 40)
    f, k, dof, p = stats.hotelling_zero(x[:, None])
    ref = sps.ttest_1samp(x, 0.0)
    assert (k, dof) == (1, 39) and f == pytest.approx(ref.statistic ** 2) and p == pytest.approx(ref.pvalue)
    assert stats.mean_estimate(x).p == pytest.approx(ref.pvalue)


def test_holm_leaves_missing_p_values_out_of_the_family():
    adj = stats.holm([0.01, math.nan, 0.04])
    assert adj[0] == pytest.approx(0.02) and math.isnan(adj[1]) and adj[2] == pytest.approx(0.04)


def block_effect_run(blocks=40, seed=9):
    """2-player records with strong block effects: each block (seed) plays x–y and x–z in
    both seat orders, and the block decides how much seat 0 is favoured (±0.4), so the
    four games of a block move together."""
    import polars as pl

    rng = np.random.default_rng(seed)
    games, players, gid = [], [], 0
    for b in range(blocks):
        tilt = rng.uniform(-0.4, 0.4)
        for a, o in (("x", "y"), ("y", "x"), ("x", "z"), ("z", "x")):
            p0 = 0.5 + tilt + (0.1 if a == "x" else -0.1 if o == "x" else 0.0)
            w0 = float(rng.random() < p0)
            games.append({"game_id": gid, "block": b, "players": 2, "edition": "c3.1"})
            for seat, spec, w in ((0, a, w0), (1, o, 1 - w0)):
                players.append({"game_id": gid, "seat": seat, "player": spec, "score": int(50 + 9 * w),
                                "rank": 1 if w else 2, "win_share": w,
                                "drawn_smallest_road": int(rng.random() < 0.3 + 0.4 * w)})
            gid += 1
    return pl.DataFrame(games), pl.DataFrame(players)


def _statsmodels_ci(y, X, groups):
    sm = pytest.importorskip("statsmodels.api")
    fit = sm.OLS(np.asarray(y, float), np.asarray(X, float)).fit(
        cov_type="cluster", cov_kwds={"groups": np.asarray(groups)}, use_t=True)
    return fit.params, fit.conf_int(), fit.pvalues


def _score_at(share, ci):
    """The share's score interval from a t interval [ci]: its half-width h = t·se gives
    the effective trials n* = p̂(1 − p̂)(z/h)²; Wilson's at n*."""
    n = share * (1 - share) * (stats.Z95 * 2 / (ci[1] - ci[0])) ** 2
    z2 = stats.Z95 ** 2
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = stats.Z95 * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return centre - half, centre + half


def test_block_intervals_match_statsmodels_cluster_robust_ols():
    """Seat advantage, head-to-head and the naive message difference against
    statsmodels' cluster-robust OLS by block (CR1, t with blocks − 1 dof)."""
    import polars as pl

    from sim.analysis import balance
    games, players = block_effect_run()
    p = players.join(games.select("game_id", "block"), on="game_id")

    seat0 = balance.seat_advantage(games, players).filter(pl.col("seat") == 0).row(0, named=True)
    s0 = p.filter(pl.col("seat") == 0)
    params, ci, pv = _statsmodels_ci(s0["win_share"], np.ones((s0.height, 1)), s0["block"])
    assert seat0["win_share"] == pytest.approx(params[0])
    # a share's interval: the score interval at the trials statsmodels' CR1 t interval gives
    assert (seat0["low"], seat0["high"]) == pytest.approx(_score_at(params[0], ci[0]))
    wilson = stats.wilson(seat0["wins"], seat0["games"])  # games as if independent
    assert (seat0["high"] - seat0["low"]) > 1.2 * (wilson[1] - wilson[0])

    xy = balance.pairwise(games, players).filter(
        (pl.col("player") == "x") & (pl.col("opponent") == "y")).row(0, named=True)
    rows = p.filter(pl.col("player") == "x").join(
        p.select("game_id", pl.col("player").alias("o")), on="game_id").filter(pl.col("o") == "y")
    params, ci, pv = _statsmodels_ci(rows["win_share"], np.ones((rows.height, 1)), rows["block"])
    assert xy["win_share"] == pytest.approx(params[0])
    assert (xy["low"], xy["high"]) == pytest.approx(_score_at(params[0], ci[0]))
    assert (xy["games"], xy["blocks"]) == (80, 40)
    pw = {(r["player"], r["opponent"]): r for r in balance.pairwise(games, players).iter_rows(named=True)}
    want = stats.holm([pw[("x", "y")]["p"], pw[("x", "z")]["p"]])  # the family: 2 unordered pairs
    assert [pw[("x", "y")]["p_holm"], pw[("x", "z")]["p_holm"]] == pytest.approx(want)
    assert pw[("y", "x")]["p_holm"] == pw[("x", "y")]["p_holm"]

    naive = balance.naive_message_values(games, players, ["smallest_road"]).row(0, named=True)
    d = (p["drawn_smallest_road"] > 0).to_numpy().astype(float)
    params, ci, pv = _statsmodels_ci(p["win_share"], np.column_stack([np.ones(len(d)), d]), p["block"])
    assert naive["d_win_share"] == pytest.approx(params[1])
    assert (naive["d_win_share_low"], naive["d_win_share_high"]) == (
        pytest.approx(ci[1][0]), pytest.approx(ci[1][1]))
    assert naive["d_win_share_p"] == pytest.approx(pv[1])


def test_cluster_ols_matches_statsmodels_on_unbalanced_clusters():
    rng = np.random.default_rng(4)
    groups = np.repeat(np.arange(25), rng.integers(1, 9, 25))
    x = rng.normal(size=len(groups))
    y = 1 + 0.5 * x + rng.normal(size=25)[groups] * 2 + rng.normal(size=len(groups))
    X = np.column_stack([np.ones(len(x)), x])
    sm = pytest.importorskip("statsmodels.api")
    fit = sm.OLS(y, X).fit(cov_type="cluster", cov_kwds={"groups": groups})
    beta, cov, g = stats.cluster_ols(y, X, groups)
    assert g == 25 and np.allclose(beta, fit.params) and np.allclose(cov, fit.cov_params())
    est = stats.cluster_mean(y, groups)
    fit1 = sm.OLS(y, np.ones(len(y))).fit(cov_type="cluster", cov_kwds={"groups": groups}, use_t=True)
    assert (est.low, est.high) == (pytest.approx(fit1.conf_int()[0][0]), pytest.approx(fit1.conf_int()[0][1]))


def test_share_difference_never_gives_a_zero_width_interval():
    """20 blocks where the arm never changed the result: the difference is 0 but the
    interval is ±(1 − 0.025^(1/20)) = ±0.168, not [0, 0]; with spread it is the
    cluster-robust one."""
    est = stats.share_difference([0.0] * 40, np.repeat(np.arange(20), 2))
    assert (est.estimate, est.p) == (0.0, 1.0)
    assert est.high == pytest.approx(1 - 0.025 ** (1 / 20)) and est.low == -est.high
    assert est.high == pytest.approx(0.168, abs=0.001)
    v = [0.0] * 39 + [1.0]  # with a spread: the score interval (see below), near the t one
    t = stats.cluster_mean(v, np.arange(40))
    est = stats.share_difference(v, np.arange(40))
    assert est.estimate == t.estimate and (est.low, est.high) == pytest.approx((t.low, t.high), abs=2e-4)


def test_a_share_difference_is_the_score_interval_of_its_half_shifted_share():
    """30 one-game blocks, A − B = 1 in 27, 0 in 3 (mean 0.9): read as the share
    u = (1 + d)/2 = 0.95 with se/2, n* = u(1 − u)/(se/2)² · (z/t)² = 56; n*·(1 − u) < 5,
    so the blocks are the trials (30); the interval is Wilson's there, mapped back by
    2u − 1, and p the score test's against u = 1/2 on the t scale of 29 degrees of
    freedom (worked out here with numpy and scipy, not with the module's functions)."""
    d = np.array([1.0] * 27 + [0.0] * 3)
    est = stats.share_difference(d, np.arange(30))
    se = d.std(ddof=1) / math.sqrt(30)
    u, q = 0.95, sps.t.ppf(0.975, 29)
    n_eff = u * (1 - u) / (se / 2) ** 2 * (stats.Z95 / q) ** 2
    assert n_eff == pytest.approx(56.2, abs=0.1) and n_eff * (1 - u) < 5
    n = 30  # near the boundary: the blocks
    denom = 1 + stats.Z95 ** 2 / n
    centre = (u + stats.Z95 ** 2 / (2 * n)) / denom
    half = stats.Z95 * math.sqrt(u * (1 - u) / n + stats.Z95 ** 2 / (4 * n * n)) / denom
    assert est.estimate == pytest.approx(0.9)
    assert (est.low, est.high) == pytest.approx((2 * (centre - half) - 1, 2 * (centre + half) - 1))
    z = (u - 0.5) / math.sqrt(0.25 / n) * q / stats.Z95
    assert est.p == pytest.approx(2 * sps.t.sf(z, 29))
    t = stats.cluster_mean(d, np.arange(30))
    assert est.low < t.low and est.high < 1.0 < t.high  # wider below, inside [−1, 1] above


def test_blocks_that_differ_alike_get_the_exact_bound_whatever_their_games_do():
    """Two-game blocks where A won one game and lost one, B lost both: every block's
    difference is 0.5 although its games differ by 1 and 0; no spread between blocks,
    so the exact bound [c − b(1 + c), c + b(1 − c)] and its p 2(1 + c)^−G, not a
    zero-width interval."""
    blocks = 12
    d = np.tile([1.0, 0.0], blocks)
    est = stats.share_difference(d, np.repeat(np.arange(blocks), 2))
    b = 1 - 0.025 ** (1 / blocks)
    assert (est.estimate, est.low, est.high) == pytest.approx((0.5, 0.5 - 1.5 * b, 0.5 + 0.5 * b))
    assert est.p == pytest.approx(2 * 1.5 ** -blocks)


@pytest.mark.parametrize("probs, blocks, games", [((0.9, 0.1, 0.0), 40, 2), ((0.99, 0.01, 0.0), 300, 1),
                                                  ((0.97, 0.02, 0.01), 100, 2), ((0.3, 0.5, 0.2), 50, 2)])
def test_share_differences_cover_near_the_boundary(probs, blocks, games):
    """Coverage over 1,500 seeded records of paired games whose difference is 1, 0 or −1
    with the given chances: the t interval covered a difference of 0.98 over 300 one-game
    blocks 85 % of the time and 0.8 over 40 two-game blocks 90 %; the score interval
    stays within [0.93, 0.99] there and inside."""
    rng = np.random.default_rng(12)
    values = np.array([1.0, 0.0, -1.0])
    truth = float(values @ np.array(probs))
    groups = np.repeat(np.arange(blocks), games)
    covered = 0
    for _ in range(1500):
        est = stats.share_difference(rng.choice(values, blocks * games, p=probs), groups)
        covered += est.low <= truth <= est.high
    assert 0.93 <= covered / 1500 <= 0.99


def test_a_share_difference_excludes_0_exactly_when_p_is_under_005():
    rng = np.random.default_rng(6)
    for _ in range(300):
        blocks, games = int(rng.integers(2, 60)), int(rng.integers(1, 4))
        a = rng.uniform(0.0, 1.0)
        probs = rng.dirichlet([a + 0.1, 1.0, 0.3])
        d = rng.choice([1.0, 0.0, -1.0], blocks * games, p=probs)
        est = stats.share_difference(d, np.repeat(np.arange(blocks), games))
        if est.n >= 2 and abs(est.p - 0.05) > 1e-9:
            assert (est.low <= 0 <= est.high) == (est.p > 0.05)


def test_share_difference_of_a_whole_win_in_every_block_keeps_an_interval():
    """8 blocks where A won and B lost every game: the difference is 1 in each, but the
    interval is [1 − 2b, 1] with b = 1 − 0.025^(1/8) (at most a share b of blocks could
    differ by as little as −1), not [1, 1]; p is the sign test's 2 · 0.5^8."""
    b = 1 - 0.025 ** (1 / 8)
    est = stats.share_difference([1.0] * 16, np.repeat(np.arange(8), 2))
    assert (est.estimate, est.high) == (1.0, 1.0) and est.low == pytest.approx(1 - 2 * b)
    assert est.p == pytest.approx(2 * 0.5 ** 8) and est.n == 8
    down = stats.share_difference([-1.0] * 8, np.arange(8))
    assert (down.estimate, down.low) == (-1.0, -1.0) and down.high == pytest.approx(-1 + 2 * b)


def test_share_difference_p_agrees_with_its_exact_interval():
    """Every block differs by the same −1/3 (a 3-player arm always behind by one third):
    the exact interval [c − b(1 + c), c + b(1 − c)] holds 0 for 10 blocks and excludes it
    for 14, and p falls below 0.05 exactly then: 2 · 0.75^10 = 0.113, 2 · 0.75^14 = 0.036
    (the sign test's 2 · 0.5^10 = 0.002 said "significant" beside an interval holding 0)."""
    for blocks, want in ((10, 2 * 0.75 ** 10), (14, 2 * 0.75 ** 14)):
        est = stats.share_difference([-1 / 3] * blocks, np.arange(blocks))
        assert est.p == pytest.approx(want)
        assert (est.low < 0 < est.high) == (est.p > 0.05)
    assert stats.share_difference([0.0] * 6, np.arange(6)).p == 1.0


def test_share_intervals_stay_inside_zero_and_one():
    """3 blocks winning 2, 2 and 1 of 2 games: the t interval (2 dof) would pass 1."""
    raw = stats.cluster_ratio([2, 2, 1], [2, 2, 2], 0.5)
    assert raw.high > 1
    est = stats.share_by_block([2, 2, 1], [2, 2, 2])
    assert 0.0 <= est.low < est.estimate < est.high <= 1.0 and est.estimate == pytest.approx(5 / 6)


def test_a_share_is_the_score_interval_at_its_effective_trials():
    """One game a block, g blocks: the CR1 se² is p̂(1 − p̂)/(g − 1), so the effective
    trials are (g − 1)(z/t)², and interval and p are Wilson's and the score test's there
    (worked out with scipy's binomtest and normal tail, not with the module's own)."""
    g, wins = 50, 35
    est = stats.share_by_block([1.0] * wins + [0.0] * (g - wins), [1] * g)
    n = (g - 1) * (stats.Z95 / sps.t.ppf(0.975, g - 1)) ** 2
    p_hat = wins / g
    denom = 1 + stats.Z95 ** 2 / n
    centre = (p_hat + stats.Z95 ** 2 / (2 * n)) / denom
    half = stats.Z95 * math.sqrt(p_hat * (1 - p_hat) / n + stats.Z95 ** 2 / (4 * n * n)) / denom
    assert (est.low, est.high) == pytest.approx((centre - half, centre + half))
    # the score statistic on the t scale of 49 degrees of freedom
    t = (p_hat - 0.5) / math.sqrt(0.25 / n) * sps.t.ppf(0.975, g - 1) / stats.Z95
    assert est.p == pytest.approx(2 * sps.t.sf(t, g - 1))
    # integer effective trials: the same as scipy's Wilson interval
    ci = sps.binomtest(35, 50).proportion_ci(confidence_level=0.95, method="wilson")
    assert est.low < ci.low and est.high > ci.high  # fewer trials than games: wider


def test_one_loss_never_gives_a_narrower_interval_than_none():
    """139 wins in 140 one-game blocks: the sandwich read [0.979, 1], narrower than the
    exact bound [0.974, 1] of 140 in 140, and more sure than Clopper–Pearson's 0.961."""
    one_loss = stats.share_by_block([1.0] * 139 + [0.0], [1] * 140)
    none = stats.share_by_block([1.0] * 140, [1] * 140)
    sandwich = stats.cluster_ratio([1.0] * 139 + [0.0], [1] * 140, 0.5)
    assert sandwich.low > none.low  # the bug: one loss made the interval narrower
    assert one_loss.low < none.low and one_loss.estimate < one_loss.high < 1.0
    cp = sps.binomtest(139, 140).proportion_ci(confidence_level=0.95, method="exact")
    assert one_loss.low == pytest.approx(cp.low, abs=0.003)


def test_near_the_boundary_the_blocks_are_the_trials():
    """139 of 140 two-game blocks won and one split: about one game in 280 lost, but one
    block makes the whole spread, so its trials are at most the 140 blocks: a lower end
    below the exact bound's for 140 won (0.974), not 0.980 as from 280 games."""
    split = stats.share_by_block([2.0] * 139 + [1.0], [2] * 140)
    won = stats.share_by_block([2.0] * 140, [2] * 140)
    assert split.low < won.low < split.estimate < split.high < 1.0
    n = 140  # the blocks, as n*·min(p, 1 − p) ≈ 1 < 5
    p = 279 / 280
    centre = (p + stats.Z95 ** 2 / (2 * n)) / (1 + stats.Z95 ** 2 / n)
    half = stats.Z95 * math.sqrt(p * (1 - p) / n + stats.Z95 ** 2 / (4 * n * n)) / (1 + stats.Z95 ** 2 / n)
    assert (split.low, split.high) == pytest.approx((centre - half, centre + half))
    # far from the boundary the effective trials may pass the blocks (rotations' balance)
    rng = np.random.default_rng(3)
    x = rng.binomial(4, 0.5, 50).astype(float)
    wide = stats.cluster_ratio(x, [4] * 50, 0.5)
    assert stats.share_by_block(x, [4] * 50).high - stats.share_by_block(x, [4] * 50).low < \
        2 * 1.96 * math.sqrt(0.25 / 50)  # narrower than 50 trials would give
    assert wide.n == 50


@pytest.mark.parametrize("p, blocks, games", [(0.97, 60, 2), (0.9, 30, 2), (0.02, 300, 1), (0.6, 200, 2)])
def test_share_intervals_cover_near_the_boundary(p, blocks, games):
    """Coverage over 2,000 seeded records of independent games: the sandwich t interval
    covered 0.97 over 60 two-game blocks 90 % of the time; the score interval at the
    effective trials stays within [0.93, 0.99] near the boundary and inside."""
    rng = np.random.default_rng(11)
    covered = 0
    for _ in range(2000):
        x = rng.binomial(games, p, blocks).astype(float)
        est = stats.share_by_block(x, [games] * blocks)
        covered += est.low <= p <= est.high
    assert 0.93 <= covered / 2000 <= 0.99


def test_a_share_excludes_its_null_exactly_when_p_is_under_005():
    rng = np.random.default_rng(5)
    for _ in range(300):
        blocks, games = int(rng.integers(2, 60)), int(rng.integers(1, 5))
        x = rng.binomial(games, rng.uniform(0.05, 0.95), blocks).astype(float)
        null = float(rng.choice([0.5, 1 / 3, 0.25]))
        est = stats.share_by_block(x, [games] * blocks, null)
        if est.n >= 2 and abs(est.p - 0.05) > 1e-9:
            assert (est.low <= null <= est.high) == (est.p > 0.05)


def test_no_spread_is_tested_by_signs_not_by_a_zero_standard_error():
    # every block the same value: a t statistic would divide by 0 (or by rounding's
    # 1e-17), so the p is the sign test's, every block on one side of the null
    # a share every block agrees on (a spec in 2 of 3 seats, always winning) gets the exact
    # bound [c(1 − b), c + b(1 − c)], b = 1 − 0.025^(1/G), and that bound's p, 2(null/c)^G:
    # the interval holds the null exactly when p > 0.05 (a zero-width one never did)
    for blocks in (4, 8, 12):
        e, b = stats.share_by_block([1.0] * blocks, [2.0] * blocks, null=1 / 3), 1 - 0.025 ** (1 / blocks)
        assert (e.estimate, e.low, e.high) == pytest.approx((0.5, 0.5 * (1 - b), 0.5 + 0.5 * b))
        assert e.p == pytest.approx(2 * (2 / 3) ** blocks)
        assert (e.low <= 1 / 3) == (e.p > 0.05)
    e = stats.mean_estimate([0.1] * 7)  # 0.1 is not exact: the spread is rounding's
    assert e.low == e.high == e.estimate and e.p == 2 * 0.5 ** 7
    assert stats.mean_estimate([0.25] * 5, null=0.25).p == 1.0
    assert stats.mean_estimate([0.25, 0.25, 0.26]).p < 1.0 and stats.mean_estimate([0.25, 0.25, 0.26]).se > 0


def test_ratings_leave_out_two_spellings_of_one_player():
    """a and a2 are one player spelt twice: their 2-player games play one seat order, so
    a2's 0.65 against a is seat 1's share, not a2's; the fit leaves those comparisons out
    and is the fit of the other games alone (c against each, evenly)."""
    import polars as pl

    from sim.analysis.balance import Ratings, ratings_from
    rows = []
    for block in range(20):
        rows += [{"block": block, "player": "a2", "opponent": "a", "beat": 0.65},
                 {"block": block, "player": "a", "opponent": "a2", "beat": 0.35}]
        for x in ("a", "a2"):
            won = float(block % 2)
            rows += [{"block": block, "player": x, "opponent": "c", "beat": won},
                     {"block": block, "player": "c", "opponent": x, "beat": 1 - won}]
    r = Ratings()
    r.parts.append(pl.DataFrame(rows))
    fit = r.table(boots=20, identical=[("a", "a2")])
    others = pl.DataFrame(rows).filter(~pl.col("player").is_in(["a", "a2"]) | (pl.col("opponent") == "c"))
    assert fit.equals(ratings_from(others, 20, 0, 0.1))
    a, a2 = (fit.filter(pl.col("player") == p)["rating"][0] for p in ("a", "a2"))
    assert a == pytest.approx(a2)  # without the seat's 0.65 they are equal
    assert not r.table(boots=20).equals(fit)


def test_a_share_of_few_blocks_has_the_tails_of_few_blocks():
    """10 blocks of 120 games each (every seat order of a 5-player table): the interval
    is narrow, but the p of a share far from its null is the t test's order over 9
    degrees of freedom, not a normal tail's (it read 1e-39)."""
    rng = np.random.default_rng(8)
    wins = rng.binomial(120, 0.675, 10).astype(float)
    est = stats.share_by_block(wins, [120] * 10, 0.25)
    t_test = stats.cluster_ratio(wins, [120] * 10, 0.25)
    assert 1e-15 < est.p and 0.1 < est.p / t_test.p < 10


def test_blocks_of_different_sizes_at_one_share_have_no_spread():
    """3 of 4 games won in every block, blocks of 4 to 20 games: the centred sums cancel
    to about 1e-9, not 0; that is rounding, so the record gets the exact bound, not a
    zero-width interval with p 1e-287."""
    sizes = np.random.default_rng(2).integers(1, 6, 39) * 4
    est = stats.share_by_block(sizes * 0.75, sizes)
    b = 1 - 0.025 ** (1 / 39)
    assert (est.low, est.high) == pytest.approx((0.75 * (1 - b), 0.75 + 0.25 * b))
    assert est.p == pytest.approx(2 * (0.5 / 0.75) ** 39)


@pytest.mark.parametrize("blocks", range(2, 13))
def test_one_block_short_of_a_perfect_record_is_never_surer(blocks):
    """Over few two-game blocks, Wilson's interval at G trials was narrower than the
    exact bound of the record with no loss: 5 blocks, one split, read p = 0.046 and a
    lower end of +0.024 for A − B, against p = 0.0625 and −0.044 with every game won.
    One loss never gives a higher lower end or a smaller p than none (a share, and a
    difference of shares), and the 95 % interval and p < 0.05 still agree."""
    groups = np.repeat(np.arange(blocks), 2)
    for estimate in (stats.share_difference, lambda v, g: stats.share_by_block(
            np.bincount(g, v), np.bincount(g).astype(float))):
        won = estimate(np.ones(2 * blocks), groups)
        split = estimate(np.r_[np.ones(2 * blocks - 1), 0.0], groups)
        assert split.low <= won.low + 1e-12 and split.p >= won.p - 1e-12
        null = 0.0 if estimate is stats.share_difference else 0.5
        if abs(split.p - 0.05) > 1e-9:
            assert (split.low > null) == (split.p < 0.05)
