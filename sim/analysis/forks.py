"""The "when" questions, from counterfactual forks (sim/tournament/counterfactual.py):
the value of the first option over the second at the moment of choice, overall and by
context, and how much of it simple rules of thumb capture.

Every fork row is one rollout of one decision: d_margin = margin with the messenger
(or the action) − margin with the other option, d_win likewise for win share. Forks of
one block share their tiles, so every estimate is a mean over fork rows with standard
errors cluster-robust by block (stats.cluster_mean) and t intervals; Holm adjusts the
rows of each context dimension (a family) within an edition.

Variance reduction: an extra tile or turn also hands every later tile to the other
player, so its plain paired difference is as noisy as two unrelated games; the aligned
2-points branch (sim/tournament/counterfactual.py) rotates the stack after the fork so
both branches give the same tiles to the same players, with the same distribution.
`variance_reduction` gives both estimates and both paired sds.
"""

from __future__ import annotations

import math

import polars as pl

from sim.analysis import stats

# context dimensions per fork kind: name -> expression giving the level of a row
PHASE = pl.col("phase")
DIMENSIONS = {
    "scoring_figure": {
        "lands on dark": pl.col("lands"),
        "points": pl.when(pl.col("action_points") <= 3).then(pl.lit("1-3"))
        .when(pl.col("action_points") <= 9).then(pl.lit("4-9")).otherwise(pl.lit("10+")),
        "messenger to dark": pl.col("dist_messenger").cast(pl.String),
        "meeple to dark": pl.col("dist_meeple").cast(pl.String),
        "phase": PHASE,
    },
    "road_figure": {
        "road tiles": pl.when(pl.col("road_tiles") >= 4).then(pl.lit("4+"))
        .otherwise(pl.col("road_tiles").cast(pl.String)),
        "open ends": pl.col("road_open").cast(pl.String),
        "ride target near": pl.col("ride_near").cast(pl.String),
        "tiles left": pl.when(pl.col("tiles_left") >= 60).then(pl.lit("60+"))
        .when(pl.col("tiles_left") >= 30).then(pl.lit("30-59"))
        .when(pl.col("tiles_left") >= 10).then(pl.lit("10-29")).otherwise(pl.lit("0-9")),
    },
}

# rules of thumb: does the rule take the first option (messenger) at this fork?
RULES = {
    "scoring_figure": {
        "never the messenger (meeple only)": pl.lit(False),
        "always the messenger": pl.lit(True),
        "the figure that lands on dark": pl.col("lands") == "messenger",
        "the figure that lands on dark, not late": (pl.col("lands") == "messenger")
        & (PHASE != "late"),
    },
    "road_figure": {
        "always the follower": pl.lit(False),
        "always the messenger": pl.lit(True),
        "the messenger when a ride target is near": pl.col("ride_near"),
        "the messenger on a road of 3+ tiles": pl.col("road_tiles") >= 3,
        "the messenger early only": PHASE == "early",
    },
}

BEST = "best context rule (cross-fitted)"


def _rows(cf: pl.DataFrame, games: pl.DataFrame, kind: str) -> pl.DataFrame:
    if "fork" not in cf.columns:
        return pl.DataFrame()
    return (cf.filter(pl.col("fork") == kind).join(games.select("game_id", "block"), on="game_id")
            .with_columns((pl.col("margin_action") - pl.col("margin_two")).alias("d_margin"),
                          (pl.col("win_action") - pl.col("win_two")).alias("d_win")))


def _estimates(g: pl.DataFrame) -> dict:
    m = stats.cluster_mean(g["d_margin"].to_numpy(), g["block"].to_numpy())
    w = stats.share_difference(g["d_win"].to_numpy(), g["block"].to_numpy())
    return {"forks": g.height, "games": g["game_id"].n_unique(), "blocks": m.n,
            "d_margin": m.estimate, "d_margin_low": m.low, "d_margin_high": m.high,
            "d_margin_p": m.p, "d_win": w.estimate, "d_win_low": w.low, "d_win_high": w.high,
            "d_win_p": w.p, "sd": float(g["d_margin"].std()) if g.height > 1 else None}


def fork_values(cf: pl.DataFrame, games: pl.DataFrame, kind: str) -> pl.DataFrame:
    """Per edition: the overall value of the first option (dimension "all") and its
    value at each level of each context dimension, with Holm p within (edition,
    dimension)."""
    d = _rows(cf, games, kind)
    if d.height == 0:
        return pl.DataFrame()
    rows = []
    for (edition,), e in d.group_by("edition", maintain_order=True):
        rows.append({"edition": edition, "dimension": "all", "level": "all", **_estimates(e)})
        for dim, expr in DIMENSIONS[kind].items():
            levelled = e.with_columns(expr.alias("_level"))
            for (level,), g in sorted(levelled.group_by("_level"), key=lambda t: str(t[0][0])):
                rows.append({"edition": edition, "dimension": dim, "level": str(level),
                             **_estimates(g)})
    out = pl.DataFrame(rows)
    adj = {c: [None] * out.height for c in ("d_margin_p", "d_win_p")}
    idx = out.with_row_index("_i")
    for _, g in idx.group_by("edition", "dimension", maintain_order=True):
        for c in adj:
            for i, a in zip(g["_i"], stats.holm(list(g[c]))):
                adj[c][i] = None if not math.isfinite(a) else a
    return out.with_columns(*[pl.Series(c + "_holm", v, dtype=pl.Float64) for c, v in adj.items()])


def rule_values(cf: pl.DataFrame, games: pl.DataFrame, kind: str) -> pl.DataFrame:
    """Per edition, each rule of thumb's gain over always taking the second option (in
    points of final margin and in win share, per fork), and the share of the best
    context rule's gain it captures. The best context rule takes the first option in
    each cell of the context dimensions (all of them crossed) where its mean value is
    positive, cross-fitted: the cells are judged on the blocks of the other parity, so
    its gain is not inflated by choosing on the same noise it is scored on."""
    d = _rows(cf, games, kind)
    if d.height == 0:
        return pl.DataFrame()
    dims = list(DIMENSIONS[kind].values())
    cell = pl.concat_str([x.cast(pl.String).fill_null("") for x in dims], separator="|")
    out = []
    for (edition,), e in d.group_by("edition", maintain_order=True):
        e = e.with_columns(cell.alias("_cell"), (pl.col("block") % 2).alias("_fold"))
        good = (e.group_by("_fold", "_cell").agg(pl.col("d_margin").mean().alias("_m"))
                .with_columns((1 - pl.col("_fold")).alias("_fold")))  # judged by the other fold
        e = e.join(good, on=["_fold", "_cell"], how="left").with_columns(
            (pl.col("_m") > 0).fill_null(False).alias("_best"))
        rules = {**RULES[kind], BEST: pl.col("_best")}
        best = None
        rows = []
        for name, takes in rules.items():
            r = e.with_columns(takes.fill_null(False).cast(pl.Float64).alias("_t"))
            gain = (r["_t"] * r["d_margin"]).to_numpy()
            win = (r["_t"] * r["d_win"]).to_numpy()
            m = stats.cluster_mean(gain, r["block"].to_numpy())
            w = stats.cluster_mean(win, r["block"].to_numpy())
            rows.append({"edition": edition, "rule": name, "takes_first": float(r["_t"].mean()),
                         "gain_margin": m.estimate, "gain_margin_low": m.low,
                         "gain_margin_high": m.high, "gain_win": w.estimate, "gain_win_low": w.low,
                         "gain_win_high": w.high, "blocks": m.n, "forks": r.height})
            if name == BEST:
                best = m.estimate
        for row in rows:
            row["share_of_best"] = (row["gain_margin"] / best) if best and best > 0 else None
        out += rows
    return pl.DataFrame(out)


def variance_reduction(cf: pl.DataFrame, games: pl.DataFrame) -> pl.DataFrame:
    """Per edition and extra-tile/turn action: the plain and the aligned estimate of
    the action's value in margin, each with its interval and paired sd per fork, and
    the mean plain − aligned 2-points margin, which is 0 in expectation (a check that
    the aligned branch has the plain one's distribution)."""
    if "margin_two_aligned" not in cf.columns:
        return pl.DataFrame()
    d = (cf.filter(pl.col("margin_two_aligned").is_not_null())
         .join(games.select("game_id", "block"), on="game_id")
         .with_columns((pl.col("margin_action") - pl.col("margin_two")).alias("plain"),
                       (pl.col("margin_action") - pl.col("margin_two_aligned")).alias("aligned"),
                       (pl.col("margin_two") - pl.col("margin_two_aligned")).alias("check")))
    rows = []
    for (edition, action), g in sorted(d.group_by("edition", "action"), key=lambda t: t[0]):
        blocks = g["block"].to_numpy()
        est = {c: stats.cluster_mean(g[c].to_numpy(), blocks) for c in ("plain", "aligned", "check")}
        rows.append({"edition": edition, "action": action, "forks": g.height, "blocks": est["plain"].n,
                     **{f"{c}{k}": getattr(est[c], a) for c in ("plain", "aligned", "check")
                        for k, a in (("", "estimate"), ("_low", "low"), ("_high", "high"))},
                     "check_p": est["check"].p,
                     "sd_plain": float(g["plain"].std()), "sd_aligned": float(g["aligned"].std())})
    return pl.DataFrame(rows)
