"""The "when" questions, from counterfactual forks (sim/tournament/counterfactual.py):
the value of the first option over the second at the moment of choice, overall, within
each level of the fork's primary condition and by context within it, and how much of
it simple rules of thumb capture.

Every fork row is one rollout of one decision: d_margin = margin with the messenger
(or the action) − margin with the other option, d_win likewise for win share. Forks of
one block share their tiles, so every estimate is a mean over fork rows with standard
errors cluster-robust by block (stats.cluster_mean) and t intervals (a win probability's
difference d: the score interval of the share (1 + d)/2, stats.share_difference_from); Holm adjusts the
strata of an edition together and the levels of each context within its stratum (each
a family).

Which forks there are (FORKED): a scoring-figure fork exists only where exactly one of
the two figures would land on a dark space (sim/tournament/counterfactual.py
figure_context), a road fork wherever a follower or the messenger meeple goes on a
road and the other figure was allowed there too.

Why contexts are stratified: the primary condition (PRIMARY: which figure lands on
dark; whether a ride target is near) decides most of a fork's value and is unevenly
spread over the other contexts (the messenger lands on dark at 65% of the 10+-points
scoring-figure forks and at 12% of the 1–3-points ones), so a context's marginal value
mostly says how often the primary condition comes with it. Every other context is
therefore reported within each level of the primary condition (a stratum), with its
level's value against the rest of the stratum (`vs_rest`, the slope on the level's
indicator of a block-clustered regression within the stratum): that is the context's
own effect. A context with one level at every fork of a stratum (under classic the
messenger always stands on a dark space, so "messenger to dark" is 5 at every fork)
says nothing there and is not listed (`unlisted_contexts` names them).

Intervals: below MIN_BLOCKS blocks there is none ("too few blocks"), and where every
block gives the same value a cluster-robust interval would have zero width, so there
is none either ("no spread") — never a zero-width interval. The rules of thumb carry
block-bootstrap percentile intervals (blocks resampled with replacement, `boots`
resamples from a seeded generator, every rule's choices held as they are, the
cross-fitted best rule's as learned from the records); what holds by construction (the baseline rule's gain 0, the best rule's
share 100%) says so instead of an interval.

Variance reduction: an extra tile or turn also hands every later tile to the other
player, so its plain paired difference is as noisy as two unrelated games; the aligned
2-points branch (sim/tournament/counterfactual.py) rotates the stack after the fork so
both branches give the same tiles to the same players, with the same distribution.
`variance_reduction` gives both estimates and both paired sds.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from sim.analysis import stats
from sim.analysis.moments import Moments
from sim.analysis.scan import Batch

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

# The primary condition of each fork kind: the dimension every other context is
# reported within. Scoring figure: which figure the award would put on a dark space,
# the one thing the choice changes now (R-MSG-C1, R-MSG-N1: a figure landing on dark
# draws a message). Road figure: whether a ride target is near, the analogue from what
# a road fork records: on the same road segment the messenger meeple and a follower
# are alike (strength 1, the same road points, R-MM-5) except that the messenger may
# ride on once the road is scored (R-MM-6), which it can only where a ride target
# exists; road length and open ends matter to both figures alike, and open ends go
# with it closely (a road closed by the placement is scored and ridden from at once).
PRIMARY = {"scoring_figure": "lands on dark", "road_figure": "ride target near"}

# Forks whose two branches are the same game by the rules, so that their Δ is 0 by
# construction: a road the placement closes with nowhere to ride is scored at once, and
# either figure takes the same points and goes back to supply (R-MM-5, R-MM-6).
IDENTICAL = {"road_figure": (pl.col("road_open") == 0) & ~pl.col("ride_near")}

# The primary condition in words, as section titles say it
PRIMARY_WORDS = {"scoring_figure": "which figure lands on dark",
                 "road_figure": "whether a ride target is near"}

# Which decisions are forked (sim/tournament/counterfactual.py), in words for the report
FORKED = {
    "scoring_figure": "forks where exactly one of the two figures would land on a dark "
                      "space (where both or neither would, the choice changes no message "
                      "draw now and is not forked)",
    "road_figure": "forks where the player put a follower or the messenger meeple on a road "
                   "and the other figure was allowed on the same road too (a placement or a "
                   "step-2 figure decision); every such choice is forked",
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
ALL = "all"  # the stratum, dimension and level of the overall row

MIN_BLOCKS = 5  # fewer blocks: a cluster-robust t or a block bootstrap has too little to go on
BOOTS = 1000  # block-bootstrap resamples of the rules of thumb
SEED = 0  # their generator's seed: the same records give the same intervals
TOO_FEW = f"too few blocks: fewer than {MIN_BLOCKS}"
NO_SPREAD = "no spread: every block gives the same value"
SAME_RESAMPLED = "no spread: the same in every resample"
BY_CONSTRUCTION = "identical by construction"
SHARE_UNBOUNDED = "no interval: the best context rule's gain interval reaches 0"
NO_SHARE = "no share: the best context rule gains nothing here"


def _rows(cf: pl.DataFrame | None, blocks: pl.DataFrame, kind: str) -> pl.DataFrame:
    """The forks of `kind` with their block, d_margin and d_win."""
    if cf is None or "fork" not in cf.columns:
        return pl.DataFrame()
    return (cf.filter(pl.col("fork") == kind).join(blocks, on="game_id", maintain_order="left")
            .with_columns((pl.col("margin_action") - pl.col("margin_two")).alias("d_margin"),
                          (pl.col("win_action") - pl.col("win_two")).alias("d_win")))


def _concat(parts: list[pl.DataFrame]) -> pl.DataFrame:
    return pl.concat(parts) if parts else pl.DataFrame()


def _per_block(**values: pl.Expr) -> list[pl.Expr]:
    """Per block of a group of forks: count and each value's sum and centred sum of
    squares (`_row_sd` pools them into the forks' sd)."""
    out = [pl.len().alias("n"), pl.col("game_id").n_unique().alias("games")]
    for name, v in values.items():
        v = v.cast(pl.Float64)
        out += [v.sum().alias(f"s_{name}"), ((v - v.mean()) ** 2).sum().alias(f"m2_{name}")]
    return out


def _row_sd(g: pl.DataFrame, name: str) -> float:
    """The sd over forks (ddof 1) of a value from its per-block sums (`_per_block`): the
    within-block sums of squares plus the blocks' n · (block mean − mean)²."""
    n, s, m2 = (g[c].to_numpy().astype(float) for c in ("n", f"s_{name}", f"m2_{name}"))
    total = n.sum()
    if total < 2:
        return math.nan
    mean = s.sum() / total
    return math.sqrt((m2.sum() + (n * (s / n - mean) ** 2).sum()) / (total - 1))


def _interval(est: stats.Estimate, prefix: str, same: bool = False) -> dict:
    """`prefix`, its bounds, p and note: no interval and no p (a note in words instead)
    when every fork's branches are the same game (`same`: IDENTICAL), with fewer than
    MIN_BLOCKS blocks, or when the interval would have zero width."""
    note = (BY_CONSTRUCTION if same else TOO_FEW if est.n < MIN_BLOCKS
            else NO_SPREAD if not _wide(est.estimate, est.low, est.high) else None)
    return {prefix: est.estimate, f"{prefix}_low": None if note else est.low,
            f"{prefix}_high": None if note else est.high, f"{prefix}_p": None if note else est.p,
            f"{prefix}_note": note}


def _wide(value: float, low: float, high: float) -> bool:
    """Whether [low, high] has a width beyond rounding (every block the same value
    leaves one of about 1e-15 from the arithmetic alone)."""
    return high - low > 1e-9 * max(1.0, abs(value), abs(low), abs(high))


FORK = _per_block(d_margin=pl.col("d_margin"), d_win=pl.col("d_win")) + [
    pl.col("d_win").min().alias("wlo"), pl.col("d_win").max().alias("whi"),
    # forks whose branches are not the same game (by construction and in the records)
    (~(pl.col("_same") & (pl.col("d_margin") == 0) & (pl.col("d_win") == 0))).sum().alias("differ")]


def _estimates(g: pl.DataFrame) -> dict:
    """A group's value from its per-block rows (FORK), clustered by block."""
    m = Moments.of(g.select("s_d_margin", "n", "s_d_win", "wlo", "whi").to_numpy())
    e = stats.ratio_from(m, 0, 1)
    w = stats.share_difference_from(m, 2, 1, 3, 4)
    same = int(g["differ"].sum()) == 0  # every fork here is one whose branches are the same game
    forks = int(g["n"].sum())
    return {"forks": forks, "games": int(g["games"].sum()), "blocks": m.n,
            **_interval(e, "d_margin", same), **_interval(w, "d_win", same),
            "sd": _row_sd(g, "d_margin") if forks > 1 else None}


NO_CONTRAST = {"vs_rest": None, "vs_rest_low": None, "vs_rest_high": None, "vs_rest_p": None,
               "vs_rest_note": None}


def _levelled(d: pl.DataFrame, kind: str) -> pl.DataFrame:
    """`d` with its stratum (`_stratum`), each dimension's level (`_d<i>`) as text (a
    missing value is the level "none"), and whether its branches are the same game by
    construction (`_same`)."""
    dims = DIMENSIONS[kind]

    def text(expr):
        return expr.cast(pl.String).fill_null("none")
    return d.with_columns(text(dims[PRIMARY[kind]]).alias("_stratum"),
                          IDENTICAL.get(kind, pl.lit(False)).fill_null(False).alias("_same"),
                          *[text(expr).alias(f"_d{i}") for i, expr in enumerate(dims.values())])


def _contexts(kind: str):
    """(column, name) of every context dimension but the primary condition."""
    return [(f"_d{i}", name) for i, name in enumerate(DIMENSIONS[kind]) if name != PRIMARY[kind]]


def _by(df: pl.DataFrame, *keys: str) -> dict:
    """{key value(s): rows} of `df`."""
    return {k if len(keys) > 1 else k[0]: g for k, g in df.group_by(*keys, maintain_order=True)}


class ForkValues:
    """Per edition: the overall value of the first option (stratum, dimension and level
    "all"), its value within each level of the primary condition (PRIMARY; dimension
    PRIMARY[kind], level = stratum) and at each level of every other context within
    each stratum, with `level_share` (the share of that level's forks this stratum
    holds) and `vs_rest` (the level's value minus the rest of its stratum's, a
    block-clustered regression on the level's indicator). A context with one level at
    every fork of a stratum is not listed (`unlisted`). Holm p, for the value and for
    vs_rest, over the strata of an edition and over the levels of each context within
    its (edition, stratum). No interval and no p where `*_note` says why.

    The per-block sums of each group are kept (O(blocks × groups)): the contrast of a
    level against its stratum pairs the two in every block of the stratum."""

    def __init__(self, kind: str):
        self.kind = kind
        self.editions: dict[str, None] = {}  # in order of first appearance
        self.top, self.strata, self.levels = [], [], []

    def add(self, b: Batch) -> None:
        d = _rows(b.counterfactuals, b.blocks, self.kind)
        if d.height == 0:
            return
        d = _levelled(d, self.kind)
        self.editions.update(dict.fromkeys(d["edition"].unique(maintain_order=True)))
        self.top.append(d.group_by("edition", "block").agg(FORK))
        self.strata.append(d.group_by("edition", "_stratum", "block").agg(FORK))
        for col, dim in _contexts(self.kind):
            self.levels.append(d.group_by("edition", "_stratum", col, "block").agg(FORK).select(
                "edition", "_stratum", pl.lit(dim).alias("dimension"), pl.col(col).alias("level"),
                pl.exclude("edition", "_stratum", col)))

    def _frames(self):
        return _concat(self.top), _concat(self.strata), _concat(self.levels)

    def table(self) -> pl.DataFrame:
        if not self.top:
            return pl.DataFrame()
        top, strata, levels = self._frames()
        top, strata_of, levels_of = _by(top, "edition"), _by(strata, "edition"), _by(levels, "edition")
        primary = PRIMARY[self.kind]
        rows = []
        for edition in self.editions:
            e = top[edition]
            rows.append({"edition": edition, "stratum": ALL, "dimension": ALL, "level": ALL,
                         "level_share": None, **_estimates(e), **NO_CONTRAST})
            forks = e["n"].sum()
            el = levels_of.get(edition, pl.DataFrame(schema=levels.schema))
            at_level = {k: g["n"].sum() for k, g in _by(el, "dimension", "level").items()}
            in_stratum = _by(el, "_stratum", "dimension")
            for stratum, s in sorted(_by(strata_of[edition], "_stratum").items(), key=lambda t: str(t[0])):
                rows.append({"edition": edition, "stratum": str(stratum), "dimension": primary,
                             "level": str(stratum), "level_share": s["n"].sum() / forks,
                             **_estimates(s), **NO_CONTRAST})
                for _, dim in _contexts(self.kind):
                    at = in_stratum.get((stratum, dim))
                    if at is None or at["level"].n_unique() < 2:  # one level covers every fork here
                        continue
                    for level, g in sorted(_by(at, "level").items(), key=lambda t: str(t[0])):
                        est = _estimates(g)
                        vs = _interval(_versus_rest(s, g), "vs_rest")
                        if est["blocks"] < MIN_BLOCKS:  # the level itself rests on too few blocks
                            vs.update(vs_rest_low=None, vs_rest_high=None, vs_rest_p=None,
                                      vs_rest_note=TOO_FEW)
                        rows.append({"edition": edition, "stratum": str(stratum), "dimension": dim,
                                     "level": str(level),
                                     "level_share": g["n"].sum() / at_level[(dim, level)], **est, **vs})
        return _holm_levels(pl.DataFrame(rows, infer_schema_length=None), primary)

    def unlisted(self) -> pl.DataFrame:
        """Per edition and stratum: the contexts the table leaves out because one level
        holds at every fork of the stratum (dimension, that level, the stratum's forks)."""
        rows = []
        if self.top:
            _, strata, levels = self._frames()
            strata_of, levels_of = _by(strata, "edition"), _by(levels, "edition")
            for edition in self.editions:
                in_stratum = _by(levels_of[edition], "_stratum", "dimension")
                for stratum, s in sorted(_by(strata_of[edition], "_stratum").items(),
                                         key=lambda t: str(t[0])):
                    for _, dim in _contexts(self.kind):
                        at = in_stratum.get((stratum, dim))
                        if at is not None and at["level"].n_unique() == 1:
                            rows.append({"edition": edition, "stratum": str(stratum), "dimension": dim,
                                         "level": str(at["level"][0]), "forks": int(s["n"].sum())})
        return pl.DataFrame(rows, schema={"edition": pl.String, "stratum": pl.String,
                                          "dimension": pl.String, "level": pl.String,
                                          "forks": pl.Int64})


def _versus_rest(stratum: pl.DataFrame, level: pl.DataFrame) -> stats.Estimate:
    """The level's value minus the rest of its stratum's: the slope of d_margin on the
    level's indicator over the stratum's forks, clustered by block, from each block's
    forks and Σ d_margin in the stratum and at the level (0 in a block without it)."""
    j = stratum.select("block", "n", "s_d_margin").join(
        level.select("block", pl.col("n").alias("x"), pl.col("s_d_margin").alias("xy")),
        on="block", how="left").fill_null(0)
    return stats.cluster_difference_from(
        Moments.of(j.select("n", "x", "s_d_margin", "xy").to_numpy()), 0, 1, 2, 3)


def _holm_levels(out: pl.DataFrame, primary: str) -> pl.DataFrame:
    adj = {c: [None] * out.height for c in ("d_margin_p", "d_win_p", "vs_rest_p")}
    # families: the strata of an edition together; each context within its stratum
    idx = out.with_row_index("_i").with_columns(
        pl.when(pl.col("dimension") == primary).then(pl.lit(None, pl.String))
        .otherwise(pl.col("stratum")).alias("_family"))
    for _, g in idx.group_by("edition", "_family", "dimension", maintain_order=True):
        for c in adj:
            for i, a in zip(g["_i"], stats.holm([math.nan if v is None else v for v in g[c]])):
                adj[c][i] = None if not math.isfinite(a) else a
    return out.with_columns(*[pl.Series(c + "_holm", v, dtype=pl.Float64) for c, v in adj.items()])


def fork_values(cf: pl.DataFrame, games: pl.DataFrame, kind: str) -> pl.DataFrame:
    """ForkValues on frames in memory."""
    s = ForkValues(kind)
    s.add(Batch(games, None, cf))
    return s.table()


def unlisted_contexts(cf: pl.DataFrame, games: pl.DataFrame, kind: str) -> pl.DataFrame:
    """ForkValues.unlisted on frames in memory."""
    s = ForkValues(kind)
    s.add(Batch(games, None, cf))
    return s.unlisted()


def unlisted_words(rows: list[dict], kind: str, strata) -> str:
    """The contexts left out of one edition's rows (unlisted_contexts), in words:
    "messenger to dark (5, in every stratum); meeple to dark (4, where lands on dark =
    messenger)"; "" when none is. `strata`: the edition's strata."""
    by: dict = {}
    for r in rows:
        by.setdefault((r["dimension"], r["level"]), []).append(r["stratum"])
    return "; ".join(
        f"{dim} ({level}, " + ("in every stratum" if set(where) >= set(strata) else
                               f"where {PRIMARY[kind]} = " + " or ".join(sorted(where))) + ")"
        for (dim, level), where in by.items())


def _percentiles(draws: np.ndarray) -> tuple[float, float]:
    low, high = np.percentile(draws, [2.5, 97.5])
    return float(low), float(high)


def _boot(point: float, draws: np.ndarray | None, blocks: int, prefix: str,
          note: str | None = None) -> dict:
    """`prefix` with its bootstrap percentile interval, or a note in words instead."""
    if note is None:
        if blocks < MIN_BLOCKS:
            note = TOO_FEW
        elif draws is None or not np.all(np.isfinite(draws)):
            note = SHARE_UNBOUNDED
        else:
            low, high = _percentiles(draws)
            if not _wide(point, low, high):
                note = SAME_RESAMPLED
    return {prefix: point, f"{prefix}_low": None if note else low,
            f"{prefix}_high": None if note else high, f"{prefix}_note": note}


class RuleValues:
    """Per edition, each rule of thumb's gain over always taking the second option (in
    points of final margin and in win share, per fork), and the share of the best
    context rule's gain it captures (`rule_values`). Kept per block (O(blocks × cells)):
    the bootstrap resamples blocks; per block and cell of the context dimensions (all of
    them crossed) the forks and their Σ d_margin and Σ d_win, and per block and rule the
    forks where it takes the first option and their sums."""

    def __init__(self, kind: str, boots: int = BOOTS, seed: int = SEED, refit: bool = False):
        self.kind, self.boots, self.seed, self.refit = kind, boots, seed, refit
        self.editions: dict[str, None] = {}
        self.cells, self.rules = [], []

    def add(self, b: Batch) -> None:
        d = _rows(b.counterfactuals, b.blocks, self.kind)
        if d.height == 0:
            return
        self.editions.update(dict.fromkeys(d["edition"].unique(maintain_order=True)))
        dims = list(DIMENSIONS[self.kind].values())
        cell = pl.concat_str([x.cast(pl.String).fill_null("") for x in dims], separator="|")
        self.cells.append(d.group_by("edition", "block", cell.alias("_cell")).agg(
            pl.len().cast(pl.Float64).alias("n"), pl.col("d_margin").cast(pl.Float64).sum().alias("margin"),
            pl.col("d_win").sum().alias("win")))
        # each rule's choice as a column first: a constant rule (pl.lit) spans every fork
        n = len(RULES[self.kind])
        d = d.with_columns(*[rule.fill_null(False).cast(pl.Float64).alias(f"t{i}")
                             for i, rule in enumerate(RULES[self.kind].values())])
        self.rules.append(d.group_by("edition", "block").agg(
            *[pl.col(f"t{i}").sum() for i in range(n)],
            *[(pl.col(f"t{i}") * pl.col("d_margin")).sum().alias(f"margin{i}") for i in range(n)],
            *[(pl.col(f"t{i}") * pl.col("d_win")).sum().alias(f"win{i}") for i in range(n)]))

    def table(self) -> pl.DataFrame:
        if not self.cells:
            return pl.DataFrame()
        cells, rules = _by(_concat(self.cells), "edition"), _by(_concat(self.rules), "edition")
        out = []
        for edition in self.editions:
            out += self._edition(edition, cells[edition], rules[edition].sort("block"))
        return pl.DataFrame(out, infer_schema_length=None)

    def _edition(self, edition: str, e: pl.DataFrame, by_rule: pl.DataFrame) -> list[dict]:
        boots, seed = self.boots, self.seed
        block_ids, g = np.unique(e["block"].to_numpy(), return_inverse=True)
        _, c = np.unique(e["_cell"].to_numpy(), return_inverse=True)
        G = len(block_ids)
        fold = block_ids % 2
        cells = int(c.max()) + 1
        per_cell = {k: np.zeros((G, cells)) for k in ("margin", "win")}
        for k in per_cell:
            np.add.at(per_cell[k], (g, c), e[k].to_numpy())
        counts = np.zeros((G, cells))
        np.add.at(counts, (g, c), e["n"].to_numpy())
        forks_of = counts.sum(axis=1)
        n = float(forks_of.sum())
        # resample 0 is the records themselves; then `boots` resamples of the blocks
        weights = np.vstack([np.ones(G), stats.block_weights(G, boots, seed)])
        total = weights @ forks_of
        best_gains, best_takes = _cross_fitted(weights if self.refit else weights[:1], fold,
                                               per_cell, counts)
        rows = []
        for i, name in enumerate(RULES[self.kind]):  # by_rule holds every block, in order
            rows.append((name, float(by_rule[f"t{i}"].sum()) / n,
                         {k: (weights @ by_rule[f"{k}{i}"].to_numpy().astype(float)) / total
                          for k in per_cell}))
        taken = best_takes[fold]  # (G, cells): whether the best rule takes the first option
        gains = (best_gains if self.refit else
                 {k: weights @ (taken * v).sum(axis=1) for k, v in per_cell.items()})
        rows.append((BEST, float((taken * counts).sum()) / n, {k: v / total for k, v in gains.items()}))
        best = rows[-1][2]["margin"]
        best_low = _percentiles(best[1:])[0] if G >= MIN_BLOCKS else -math.inf
        out = []
        for name, takes, gains in rows:
            none = takes == 0  # takes the first option nowhere: every gain is 0
            row = {"edition": edition, "rule": name, "takes_first": takes, "blocks": G,
                   "forks": int(n), "boots": boots, "seed": seed}
            for k in per_cell:
                row |= _boot(float(gains[k][0]), gains[k][1:], G, f"gain_{k}",
                             BY_CONSTRUCTION if none else None)
            if not best[0] > 0:
                row |= {"share_of_best": None, "share_of_best_low": None,
                        "share_of_best_high": None, "share_of_best_note": NO_SHARE}
            elif name == BEST:
                row |= _boot(1.0, None, G, "share_of_best", BY_CONSTRUCTION)
            elif none:
                row |= _boot(0.0, None, G, "share_of_best", BY_CONSTRUCTION)
            else:
                with np.errstate(divide="ignore", invalid="ignore"):
                    share = gains["margin"] / best
                row |= _boot(float(share[0]), share[1:] if best_low > 0 else None, G,
                             "share_of_best")
            out.append(row)
        return out


def rule_values(cf: pl.DataFrame, games: pl.DataFrame, kind: str, boots: int = BOOTS,
                seed: int = SEED, refit: bool = False) -> pl.DataFrame:
    """Per edition, each rule of thumb's gain over always taking the second option (in
    points of final margin and in win share, per fork), and the share of the best
    context rule's gain it captures, each with a 95% block-bootstrap percentile
    interval (`boots` resamples of the blocks with replacement, numpy's generator seeded
    with `seed`: the same records give the same intervals). The best context rule takes
    the first option in each cell of the context dimensions (all of them crossed) where
    its mean value is positive, cross-fitted: the cells are judged on the blocks of the
    other parity, so its gain is not inflated by choosing on the same noise it is scored
    on. Every rule's choices at the forks are held as they are while the blocks are
    resampled, the best rule's as learned from the records: each fold's choices come
    from the other fold's blocks, so given them its gain is judged out of sample, and
    the interval is that of the rule found (`refit`: learn it anew in every resample
    instead, the interval of the procedure; a resample's cell means are noisier than
    the records', so that one leans low). The share's interval exists only
    when the best rule's gain interval lies above 0 (a ratio to a gain that may be 0 has
    no bound). What holds by construction (a rule that takes the first option at no
    fork gains 0 and has share 0; the best rule's share is 100%) has no interval and
    `*_note` says so."""
    s = RuleValues(kind, boots, seed, refit)
    s.add(Batch(games, None, cf))
    return s.table()


def _cross_fitted(weights: np.ndarray, fold: np.ndarray, per_cell: dict,
                  counts: np.ndarray) -> tuple[dict, np.ndarray]:
    """The cross-fitted best rule under each row of `weights` (one weight a block):
    ({outcome: its summed gain per resample}, whether it takes the first option in
    each (fold, cell) under the first row). A block's cells are judged by their mean
    margin on the other fold's blocks of the same resample; a cell the other fold
    never holds is not taken."""
    gains = {k: np.zeros(len(weights)) for k in per_cell}
    takes_first = np.zeros((2, counts.shape[1]), dtype=bool)
    for f in (0, 1):
        own, other = fold == f, fold != f
        n = weights[:, other] @ counts[other]
        with np.errstate(divide="ignore", invalid="ignore"):
            judge = (weights[:, other] @ per_cell["margin"][other]) / n
        takes = np.where(n > 0, judge, 0.0) > 0
        takes_first[f] = takes[0]
        for k, v in per_cell.items():
            gains[k] += (takes * (weights[:, own] @ v[own])).sum(axis=1)
    return gains, takes_first


class VarianceReduction:
    """Per edition and extra-tile/turn action: the plain and the aligned estimate of
    the action's value in margin, each with its interval and paired sd per fork, and
    the mean plain − aligned 2-points margin, which is 0 in expectation (a check that
    the aligned branch has the plain one's distribution)."""

    VALUES = ("plain", "aligned", "check")

    def __init__(self):
        self.parts: list[pl.DataFrame] = []

    def add(self, b: Batch) -> None:
        cf = b.counterfactuals
        if cf is None or "margin_two_aligned" not in cf.columns:
            return
        d = cf.filter(pl.col("margin_two_aligned").is_not_null()).join(b.blocks, on="game_id")
        if d.height:
            self.parts.append(d.group_by("edition", "action", "block").agg(_per_block(
                plain=pl.col("margin_action") - pl.col("margin_two"),
                aligned=pl.col("margin_action") - pl.col("margin_two_aligned"),
                check=pl.col("margin_two") - pl.col("margin_two_aligned"))))

    def table(self) -> pl.DataFrame:
        rows = []
        for (edition, action), g in sorted(_by(_concat(self.parts), "edition", "action").items()
                                           if self.parts else ()):
            est = {c: stats.ratio_from(Moments.of(g.select(f"s_{c}", "n").to_numpy()))
                   for c in self.VALUES}
            rows.append({"edition": edition, "action": action, "forks": int(g["n"].sum()),
                         "blocks": est["plain"].n,
                         **{f"{c}{k}": getattr(est[c], a) for c in self.VALUES
                            for k, a in (("", "estimate"), ("_low", "low"), ("_high", "high"))},
                         "check_p": est["check"].p,
                         "sd_plain": _row_sd(g, "plain"), "sd_aligned": _row_sd(g, "aligned")})
        return pl.DataFrame(rows)


def variance_reduction(cf: pl.DataFrame, games: pl.DataFrame) -> pl.DataFrame:
    """VarianceReduction on frames in memory."""
    s = VarianceReduction()
    s.add(Batch(games, None, cf))
    return s.table()


class Sections:
    """Every fork section of the report, fed the same batches."""

    def __init__(self):
        self.values = {kind: ForkValues(kind) for kind in DIMENSIONS}
        self.rules = {kind: RuleValues(kind) for kind in DIMENSIONS}
        self.variance = VarianceReduction()

    def add(self, b: Batch) -> None:
        for s in (*self.values.values(), *self.rules.values(), self.variance):
            s.add(b)
