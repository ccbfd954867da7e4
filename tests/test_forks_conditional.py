"""The "when" rows of sim/analysis/forks.py answered conditionally (issue 23 item 1):
every context within the fork's primary condition, a context with one level at every
fork of its stratum left out, and the rules of thumb with block-bootstrap intervals;
on small synthetic counterfactuals tables whose composition is built by hand."""

import math

import numpy as np
import polars as pl
import pytest

from sim.analysis import forks, stats
from sim.analysis.findings import _when
from sim.analysis.page import fork_section

DARK = "the figure that lands on dark"


def figure_forks(blocks: int = 60, per_block: int = 10, noise: float | None = None,
                 seed: int = 1):
    """Scoring-figure forks with a composition effect and nothing else: Δ margin is +4
    where the messenger lands on dark and −2 where the meeple does, at every level of
    every other context, plus N(0, 1) noise made to sum to 0 within each (stratum,
    points) cell (or N(0, `noise`) as drawn). The points are composed like the audit's
    run: 80% of the messenger stratum's forks are worth 10+, 80% of the meeple
    stratum's 1–3. The messenger stands on a dark space at every fork (classic:
    "messenger to dark" is 5 throughout), and where the messenger lands the meeple is
    always 4 from dark; in the meeple stratum it is 1..4."""
    rng = np.random.default_rng(seed)
    rows = []
    for b in range(blocks):
        for i in range(per_block):
            lands = "messenger" if (b + i) % 5 < 2 else "meeple"  # 40% messenger
            rich = (i % 5) != 0  # 80% of each stratum's forks get its typical points
            points = (12 if rich else 2) if lands == "messenger" else (2 if rich else 12)
            rows.append({"game_id": b, "edition": "classic", "fork": "scoring_figure",
                         "draw": i, "phase": ("early", "mid", "late")[i % 3],
                         "tiles_left": 40, "action_points": points, "dist_messenger": 5,
                         "dist_meeple": 4 if lands == "messenger" else 1 + i % 4,
                         "lands": lands, "eps": rng.normal(0, noise or 1.0), "seat": 0})
    cf = pl.DataFrame(rows)
    if noise is None:
        cf = cf.with_columns(pl.col("eps") - pl.col("eps").mean().over("lands", "action_points"))
    dm = pl.when(pl.col("lands") == "messenger").then(4.0).otherwise(-2.0) + pl.col("eps")
    cf = cf.with_columns(dm.alias("margin_action"), pl.lit(0.0).alias("margin_two"),
                         (0.5 + dm / 40).alias("win_action"), pl.lit(0.5).alias("win_two"))
    return cf.drop("eps"), pl.DataFrame({"game_id": list(range(blocks)),
                                         "block": list(range(blocks))})


def _by(values: pl.DataFrame) -> dict:
    return {(r["stratum"], r["dimension"], r["level"]): r for r in values.iter_rows(named=True)}


def test_a_composition_effect_vanishes_within_the_strata():
    """Marginally the points look like advice (10+ favours the messenger by 3.5 points
    over 1–3); within each stratum every level has the stratum's own value and a
    level's value against the rest of its stratum is 0."""
    cf, games = figure_forks()
    values = forks.fork_values(cf, games, "scoring_figure")
    by = _by(values)
    assert by[("all", "all", "all")]["forks"] == 600
    assert by[("messenger", "lands on dark", "messenger")]["d_margin"] == pytest.approx(4.0)
    assert by[("meeple", "lands on dark", "meeple")]["d_margin"] == pytest.approx(-2.0)
    for stratum, value in (("messenger", 4.0), ("meeple", -2.0)):
        for level in ("1-3", "10+"):
            r = by[(stratum, "points", level)]
            assert r["d_margin"] == pytest.approx(value)
            assert r["vs_rest"] == pytest.approx(0.0, abs=1e-9)
            assert r["vs_rest_low"] < 0 < r["vs_rest_high"] and r["vs_rest_p_holm"] > 0.5
    # the composition the rows show: of the 264 forks worth 10+, 192 are the
    # messenger's (80% of its 240) and 72 the meeple's (20% of its 360)
    assert by[("messenger", "points", "10+")]["forks"] == 192
    assert by[("messenger", "points", "10+")]["level_share"] == pytest.approx(192 / 264)
    # the old marginal contrast (10+ against 1-3 over both strata) is far from 0
    d = cf.join(games, on="game_id")
    marginal = stats.cluster_difference(d["margin_action"] - d["margin_two"],
                                        (d["action_points"] == 12).cast(pl.Float64),
                                        d["block"])
    assert marginal.estimate == pytest.approx((192 * 4 - 72 * 2) / 264 - (48 * 4 - 288 * 2) / 336)
    assert marginal.low > 2 and marginal.p < 1e-10
    # no context row carries the old marginal meaning: every one names its stratum
    assert set(values["stratum"]) == {"all", "messenger", "meeple"}
    assert values.filter(pl.col("stratum") == "all")["dimension"].to_list() == ["all"]


def test_a_context_with_one_level_at_every_fork_is_not_listed():
    cf, games = figure_forks()
    values = forks.fork_values(cf, games, "scoring_figure")
    listed = set(zip(values["stratum"], values["dimension"]))
    assert ("messenger", "messenger to dark") not in listed  # 5 at every fork
    assert ("meeple", "messenger to dark") not in listed
    assert ("messenger", "meeple to dark") not in listed  # 4 at every messenger-stratum fork
    assert ("meeple", "meeple to dark") in listed  # 1..4 there
    assert ("meeple", "phase") in listed and ("messenger", "phase") in listed
    unlisted = forks.unlisted_contexts(cf, games, "scoring_figure")
    assert sorted(unlisted.select("stratum", "dimension", "level").rows()) == [
        ("meeple", "messenger to dark", "5"), ("messenger", "meeple to dark", "4"),
        ("messenger", "messenger to dark", "5")]
    assert dict(zip(unlisted["stratum"], unlisted["forks"])) == {"meeple": 360, "messenger": 240}


def test_no_interval_has_zero_width():
    """Every interval either has width or says in words why there is none."""
    cf, games = figure_forks()
    few = cf.filter(pl.col("game_id") < 3)
    for c, g in ((cf, games), (few, games)):
        values = forks.fork_values(c, g, "scoring_figure")
        rules = forks.rule_values(c, g, "scoring_figure", boots=200)
        for table, stems in ((values, ("d_margin", "d_win", "vs_rest")),
                             (rules, ("gain_margin", "gain_win", "share_of_best"))):
            for r in table.iter_rows(named=True):
                for s in stems:
                    if r[s] is None or r[f"{s}_note"] is not None:
                        assert r[f"{s}_low"] is None and r[f"{s}_high"] is None, (s, r)
                    else:
                        assert r[f"{s}_high"] > r[f"{s}_low"], (s, r)
    by = _by(forks.fork_values(few, games, "scoring_figure"))
    assert by[("all", "all", "all")]["d_margin_note"] == forks.TOO_FEW
    assert by[("all", "all", "all")]["d_margin_p"] is None  # not a test
    rules = {r["rule"]: r for r in forks.rule_values(few, games, "scoring_figure").iter_rows(named=True)}
    assert rules[DARK]["gain_margin_note"] == forks.TOO_FEW
    dark = few.filter(pl.col("lands") == "messenger")["margin_action"].sum() / few.height
    assert rules[DARK]["gain_margin"] == pytest.approx(dark)  # the estimate stays


def test_the_bootstrap_covers_known_gains_and_shares():
    """Noise N(0, 3) per fork, 400 blocks: the dark rule's true gain is 0.4 · 4 = 1.6
    points per fork, always the messenger's 0.4 · 4 + 0.6 · −2 = 0.4, the cross-fitted
    rule is the dark rule (its cells' means are 4 or −2, far apart), so always the
    messenger's true share is 0.4 / 1.6 = 0.25. The intervals cover them, are about as
    wide as the block-clustered t interval, and repeat with the seed."""
    cf, games = figure_forks(blocks=400, noise=3.0, seed=7)
    rules = {r["rule"]: r for r in forks.rule_values(cf, games, "scoring_figure", boots=1000,
                                                     seed=3).iter_rows(named=True)}
    dark, always, best = rules[DARK], rules["always the messenger"], rules[forks.BEST]
    assert dark["gain_margin_low"] < 1.6 < dark["gain_margin_high"]
    assert always["gain_margin_low"] < 0.4 < always["gain_margin_high"]
    assert always["share_of_best_low"] < 0.25 < always["share_of_best_high"]
    # the best rule is the dark rule in every resample: a share of 1 with no spread
    assert dark["share_of_best"] == pytest.approx(1)
    assert dark["share_of_best_note"] == forks.SAME_RESAMPLED
    assert best["gain_margin_low"] < 1.6 < best["gain_margin_high"]
    assert best["takes_first"] == pytest.approx(0.4)
    # the bootstrap agrees with the cluster-robust t interval on a mean (within 20%)
    d = cf.join(games, on="game_id")
    t = stats.cluster_mean((d["margin_action"] - d["margin_two"]).to_numpy(), d["block"].to_numpy())
    assert always["gain_margin_high"] - always["gain_margin_low"] == pytest.approx(
        t.high - t.low, rel=0.2)
    # by construction: no interval, the words instead
    never = rules["never the messenger (meeple only)"]
    assert never["gain_margin"] == 0 and never["gain_margin_note"] == forks.BY_CONSTRUCTION
    assert never["share_of_best"] == 0 and never["share_of_best_note"] == forks.BY_CONSTRUCTION
    assert best["share_of_best"] == 1 and best["share_of_best_note"] == forks.BY_CONSTRUCTION
    assert dark["boots"] == 1000 and dark["seed"] == 3
    again = forks.rule_values(cf, games, "scoring_figure", boots=1000, seed=3)
    assert again.to_dicts() == list(rules.values())
    # learnt anew in every resample, the cross-fitted rule still finds the dark rule here
    refit = {r["rule"]: r for r in forks.rule_values(cf, games, "scoring_figure", boots=300,
                                                     seed=3, refit=True).iter_rows(named=True)}
    assert refit[forks.BEST]["gain_margin"] == pytest.approx(best["gain_margin"])
    assert refit[forks.BEST]["gain_margin_low"] < 1.6 < refit[forks.BEST]["gain_margin_high"]
    other = {r["rule"]: r for r in forks.rule_values(cf, games, "scoring_figure", boots=1000,
                                                     seed=4).iter_rows(named=True)}
    assert other[DARK]["gain_margin"] == dark["gain_margin"]  # the estimate is the records'
    assert other[DARK]["gain_margin_low"] != dark["gain_margin_low"]


def test_block_weights_resample_blocks_with_replacement():
    w = stats.block_weights(50, 300, seed=5)
    assert w.shape == (300, 50) and (w.sum(axis=1) == 50).all() and (w >= 0).all()
    assert np.array_equal(w, stats.block_weights(50, 300, seed=5))
    assert abs(w.mean() - 1) < 1e-12 and 0.8 < w.var() < 1.2  # multinomial: var ≈ 1 − 1/50
    with pytest.raises(ValueError, match="blocks = 0"):
        stats.block_weights(0, 10, seed=0)


def road_forks(blocks: int = 40):
    """Road forks: Δ +3 where a ride target is near, 0 where none (alternating ±2
    noise), and exactly 0 at roads the placement closes with nowhere to ride (both
    branches are the same game)."""
    rows = []
    for b in range(blocks):
        for i in range(6):
            near = i % 2 == 0
            closed = i == 1
            dm = 0 if closed else (3 if near else 0) + (2 if (b + i) % 4 < 2 else -2)
            rows.append({"game_id": b, "edition": "c3.1", "fork": "road_figure", "draw": i,
                         "phase": "early", "tiles_left": 70 - i, "action_points": -1,
                         "road_tiles": 2 + i % 3, "road_open": 0 if closed else 1 + i % 2,
                         "ride_near": near, "margin_action": dm, "margin_two": 0,
                         "win_action": 0.5 if dm == 0 else float(dm > 0), "win_two": 0.5,
                         "seat": 0})
    return pl.DataFrame(rows), pl.DataFrame({"game_id": list(range(blocks)),
                                             "block": list(range(blocks))})


def test_road_forks_within_whether_a_ride_target_is_near():
    cf, games = road_forks()
    assert forks.PRIMARY["road_figure"] == "ride target near"
    by = _by(forks.fork_values(cf, games, "road_figure"))
    assert by[("true", "ride target near", "true")]["d_margin"] == pytest.approx(3.0)
    assert by[("false", "ride target near", "false")]["d_margin"] == pytest.approx(0.0, abs=1e-9)
    closed = by[("false", "open ends", "0")]
    assert closed["d_margin"] == 0 and closed["d_margin_note"] == forks.BY_CONSTRUCTION
    assert closed["d_win_note"] == forks.BY_CONSTRUCTION and closed["d_margin_low"] is None
    assert ("true", "tiles left", "60+") not in by  # every fork is at 60+ tiles
    assert ("true", "open ends", "1") not in by  # a ride target is near only at 1 open end
    unlisted = forks.unlisted_contexts(cf, games, "road_figure")
    assert ("true", "open ends", "1") in set(unlisted.select("stratum", "dimension", "level").rows())
    rules = {r["rule"]: r for r in forks.rule_values(cf, games, "road_figure", boots=300)
             .iter_rows(named=True)}
    assert rules["the messenger when a ride target is near"]["gain_margin"] == pytest.approx(1.5)
    assert rules["always the follower"]["gain_margin_note"] == forks.BY_CONSTRUCTION


def _rep(cf, games, kind):
    return {f"fork_{kind}": forks.fork_values(cf, games, kind).to_dicts(),
            f"rules_{kind}": forks.rule_values(cf, games, kind, boots=300).to_dicts(),
            f"unlisted_{kind}": forks.unlisted_contexts(cf, games, kind).to_dicts()}


def test_findings_and_page_say_which_forks_are_forked_and_what_is_left_out():
    cf, games = figure_forks()
    rep = _rep(cf, games, "scoring_figure")
    text = "\n".join(_when(rep, "scoring_figure", "meeple"))
    assert "exactly one of the two figures would land on a dark space" in text
    assert "| lands on dark | context | level |" in text
    assert "messenger to dark" not in text.split("Not listed")[0].split("| lands on dark | context")[1]
    assert "Not listed (one level at every fork of its stratum): messenger to dark (5, in every " \
           "stratum); meeple to dark (4, where lands on dark = messenger)." in text
    assert "block-bootstrap" in text and "identical by construction" in text
    assert "+0.00 [0.00, 0.00]" not in text  # never a zero-width interval
    assert "no context changes the value" in text  # within strata, nothing shifts it
    page = fork_section(rep, "scoring_figure")
    assert "exactly one of the two figures would land on a dark space" in page
    assert "within which figure lands on dark" in page and "block-bootstrap" in page
    assert "messenger to dark (5, in every stratum)" in page
    road = _rep(*road_forks(), "road_figure")
    text = "\n".join(_when(road, "road_figure", "follower"))
    assert "| ride target near | context | level |" in text
    assert "every such choice is forked" in text and "identical by construction" in text
