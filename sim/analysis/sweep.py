"""The sweep design's answers: every metric as a curve over the swept knob.

A sweep plays every block under each value of one [rules.variant] knob (and under
each edition the design lists), with the same seed, so the values are compared on
the same tiles (common random numbers). Each point of a curve is a mean of per-block
means over the blocks, with a Student-t interval across blocks (a block is the unit,
as everywhere in the report); the metrics are

  seat 0 win share     per game: seat 0's win share (a tie shares the win)
  game length          per game: tile placements
  messages per game    per game: message tiles drawn, all seats (with The Messages)
  score spread         per game: the top score minus the bottom score
  <spec> win share     per seat a player spec sat in: its win share, where the run
                       seats different players (not in a mirror match, not a fixed
                       design, whose seat 0 curve is the answer), with a share's score
                       interval over blocks (stats.share_by_block): which strategy is
                       stronger under each value; in a variants design per arm, its
                       own seat only (the opponents' seats are no arm's)
  message values       per draw (counterfactual runs): the action − the swept points'
                       alternative, in the drawer's final margin (sim/analysis/balance.py
                       CounterfactualValues, within one value)

and for message values the break-even: the knob value where an action's curve
crosses 0, interpolated linearly between the swept values, with a percentile
interval from a block bootstrap that resamples the blocks of every value together
(they share them). A crossing outside the swept range is reported as a bound.

Which value a game was played under comes from the plan (sim/tournament/plan.py
settings, by the game's index within its block); the records' `ruleset` names it too.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from sim import expansions
from sim.analysis import stats
from sim.analysis.balance import MESSAGE_FORK, CounterfactualValues
from sim.analysis.scan import Batch
from sim.tournament import plan
from sim.tournament.config import Experiment

BOOTS = 400  # bootstrap resamples of the break-even
MIN_BLOCKS = 30  # fewer blocks than this: a point is "too few blocks" (sim/analysis/forks.py)

# (key, words, unit, bounds) of each per-game metric
METRICS = (
    ("seat0_win", "seat 0 win share", "win share", (0.0, 1.0)),
    ("turns", "game length", "tile placements", (0.0, math.inf)),
    ("drawn", "messages per game", "message tiles", (0.0, math.inf)),
    ("spread", "score spread", "points (top − bottom score)", (0.0, math.inf)),
)


def settings_frame(exp: Experiment) -> pl.DataFrame:
    """index within a block -> the setting's edition and swept value."""
    per = plan.layout(exp)
    return pl.DataFrame({"index": list(range(len(per))),
                         "setting_edition": [e[0].edition for e in per],
                         "value": [e[0].value for e in per]},
                        schema={"index": pl.Int64, "setting_edition": pl.Utf8, "value": pl.Int64})


def with_settings(games: pl.DataFrame, settings: pl.DataFrame) -> pl.DataFrame:
    """games with each one's setting (settings_frame): its index within its block picks it."""
    return (games.with_columns((pl.col("game_id") % settings.height).alias("index"))
            .join(settings, on="index"))


def _point(values: np.ndarray, bounds: tuple[float, float]) -> dict:
    e = stats.mean_estimate(values)
    lo, hi = bounds
    return {"estimate": e.estimate, "low": max(lo, e.low), "high": min(hi, e.high),
            "blocks": e.n, "few": e.n < MIN_BLOCKS}


class Sweep:
    """The sweep's section of the report's one pass (sim/analysis/scan.py): each batch
    of whole blocks is reduced to per-block means, per (setting, block) for the game
    metrics and per (edition, action, value, block) for the message values, plus one
    fold of counterfactual values per swept value (balance.CounterfactualValues). So a
    sweep's report holds O(blocks × settings × metrics), not its games."""

    def __init__(self, exp: Experiment):
        self.exp = exp
        self.settings = settings_frame(exp)
        self.in_play = {c for e in expansions.in_play(exp.rules.expansions) for c in e.columns}
        self.metric_blocks: list[pl.DataFrame] = []
        self.message_blocks: list[pl.DataFrame] = []
        self.values: dict[int, CounterfactualValues] = {}  # value -> its forks' fold
        self.player_blocks: list[pl.DataFrame] = []  # per (edition, value, block, player)
        kinds = expansions.decision_kinds(exp.rules.expansions)
        unread = frozenset(expansions.unread_params(exp.rules.expansions))
        # the editions where the seats are different players (a mirror's shares are 1/n)
        self.contested = {e for e in (list(exp.editions) or [expansions.edition(exp.rules)])
                          if len({plan.effective_spec(s, e, kinds, unread)
                                  for _, table, _ in plan.tables(exp) for s in table}) > 1}
        if exp.design == "fixed" or (exp.design == "variants" and len(exp.arms) < 2):
            self.contested = set()

    def add(self, b: Batch) -> None:
        valued = with_settings(b.games, self.settings)
        msgs = ([pl.col("messages_drawn").sum().alias("drawn")] if "messages_drawn" in self.in_play
                else [pl.lit(None, pl.Float64).alias("drawn")])
        by_game = b.players.group_by("game_id").agg(
            pl.col("win_share").filter(pl.col("seat") == 0).first().alias("seat0_win"),
            (pl.col("score").max() - pl.col("score").min()).alias("spread"), *msgs)
        g = valued.select("game_id", "block", "setting_edition", "value", "turns").join(by_game, on="game_id")
        self.metric_blocks.append(g.group_by("setting_edition", "value", "block").agg(
            *(pl.col(key).cast(pl.Float64).mean() for key, *_ in METRICS), pl.len().alias("n")))
        if self.contested:
            seats = (b.p.filter(pl.col("focal")).select("game_id", pl.col("variant").alias("player"),
                                                         "win_share")
                     if self.exp.design == "variants" else b.players.select("game_id", "player", "win_share"))
            seats = seats.join(valued.select("game_id", "block", "setting_edition", "value"), on="game_id")
            self.player_blocks.append(seats.group_by("setting_edition", "value", "block", "player").agg(
                pl.col("win_share").cast(pl.Float64).sum().alias("s"), pl.len().alias("c"),
                pl.col("game_id").n_unique().alias("g")))
        cf = b.counterfactuals
        if cf is None or cf.height == 0:
            return
        valued = valued.select("game_id", "block", "value")
        cf = cf.join(valued.select("game_id", "value"), on="game_id")
        for (value,), part in cf.group_by("value", maintain_order=True):
            fold = self.values.setdefault(value, CounterfactualValues(phases=False))
            fold.add(Batch(valued.filter(pl.col("value") == value), None, part))
        self.message_blocks.append(_block_margins(cf, valued.select("game_id", "block")))

    def curves(self) -> list[dict]:
        """Per (edition, metric): the points over the swept values, each with its block
        t interval clamped to the metric's range."""
        if not self.metric_blocks:
            return []
        per_block = pl.concat(self.metric_blocks).sort("setting_edition", "value", "block")
        out = []
        for key, words, unit, bounds in METRICS:
            if per_block[key].null_count() == per_block.height:
                continue  # messages per game without The Messages
            for (edition,), part in per_block.group_by("setting_edition", maintain_order=True):
                points = [{"value": v, **_point(d[key].to_numpy(), bounds), "games": int(d["n"].sum())}
                          for (v,), d in part.group_by("value", maintain_order=True)]
                out.append({"metric": key, "words": words, "unit": unit, "edition": edition,
                            "points": points})
        return out + self._player_curves()

    def _player_curves(self) -> list[dict]:
        """Per (edition, player spec) where the seats differ: its win share over the
        swept values, each point a share's score interval over blocks (null 1/players)."""
        if not self.player_blocks:
            return []
        per_block = pl.concat(self.player_blocks).filter(pl.col("setting_edition").is_in(list(self.contested)))
        per_block = per_block.group_by("setting_edition", "value", "block", "player").agg(
            pl.col("s").sum(), pl.col("c").sum(), pl.col("g").sum()).sort(
            "setting_edition", "player", "value", "block")  # (a block's games are in one batch)
        out, fair = [], 1 / self.exp.rules.players
        for (edition, player), part in per_block.group_by("setting_edition", "player", maintain_order=True):
            points = []
            for (v,), d in part.group_by("value", maintain_order=True):
                e = stats.share_by_block(d["s"].to_numpy(), d["c"].to_numpy(), fair)
                points.append({"value": v, "estimate": e.estimate, "low": e.low, "high": e.high,
                               "blocks": e.n, "few": e.n < MIN_BLOCKS, "games": int(d["g"].sum())})
            arm = self.exp.design == "variants"
            out.append({"metric": "player_win", "words": f"{'arm ' * arm}{player} win share",
                        "unit": "win share", "edition": edition, "player": player, "points": points,
                        "how": ("the arm's own seat" if arm else "every seat it sat in")
                               + "; score interval over blocks"})
        return out

    def message_curves(self) -> list[dict]:
        """Per (edition, action): each message's counterfactual value (action − the swept
        alternative, final margin) over the swept values, with the break-even."""
        rows = [{**r, "value": value} for value, fold in self.values.items()
                for r in fold.table().to_dicts()]
        if not rows:
            return []
        table = pl.DataFrame(rows).sort("edition", "action", "value")
        blocks = pl.concat(self.message_blocks)
        out = []
        for (edition, action), part in table.group_by("edition", "action", maintain_order=True):
            points = [{"value": r["value"], "estimate": r["d_margin"], "low": r["d_margin_low"],
                       "high": r["d_margin_high"], "blocks": r["blocks"], "few": r["blocks"] < MIN_BLOCKS,
                       "p": r["d_margin_p"], "games": r["games"],
                       "win": r["d_win"], "win_low": r["d_win_low"], "win_high": r["d_win_high"]}
                      for r in part.iter_rows(named=True)]
            out.append({"edition": edition, "action": action, "points": points,
                        "break_even": break_even(blocks.filter((pl.col("edition") == edition)
                                                               & (pl.col("action") == action)),
                                                 [p["value"] for p in points])})
        return out

    def table(self) -> dict:
        """The report's "sweep" entry."""
        return {"knob": self.exp.sweep[0], "values": list(self.exp.sweep[1]),
                "curves": self.curves(), "message_curves": self.message_curves()}


def _block_margins(cf: pl.DataFrame, blocks: pl.DataFrame) -> pl.DataFrame:
    """Per (edition, action, value, block): the mean action − alternative margin, of
    counterfactual rows that carry their game's swept value (`blocks`: game_id -> block)."""
    if "fork" in cf.columns:
        cf = cf.filter(pl.col("fork").is_null() | (pl.col("fork") == MESSAGE_FORK))
    two = (pl.coalesce("margin_two_aligned", "margin_two") if "margin_two_aligned" in cf.columns
           else pl.col("margin_two"))
    return (cf.join(blocks, on="game_id")
            .with_columns((pl.col("margin_action") - two).alias("d"))
            .group_by("edition", "action", "value", "block").agg(pl.col("d").mean()))


def crossing(values: list[float], means: list[float]) -> float:
    """The first knob value where the curve through (values, means) reaches 0,
    interpolated linearly; −inf if every mean is below 0 (the break-even lies before the
    first value), +inf if every mean is above 0 (after the last), nan if undefined."""
    if not means or any(not math.isfinite(m) for m in means):
        return math.nan
    for i in range(len(means)):
        if means[i] == 0:
            return float(values[i])
        if i + 1 < len(means) and (means[i] > 0) != (means[i + 1] > 0) and means[i + 1] != 0:
            v0, v1, m0, m1 = values[i], values[i + 1], means[i], means[i + 1]
            return float(v0 + (v1 - v0) * m0 / (m0 - m1))
    return math.inf if means[0] > 0 else -math.inf


def break_even(blocks: pl.DataFrame, values: list[int], boots: int = BOOTS, seed: int = 0) -> dict:
    """The crossing of the per-value means of `blocks` (edition, action, value, block,
    d) and its 95% percentile interval over block-bootstrap resamples (the same block
    draws for every value: they share the blocks)."""
    if blocks.height == 0:
        return {"estimate": None, "low": None, "high": None}
    ids = sorted(set(blocks["block"].to_list()))
    index = {b: i for i, b in enumerate(ids)}
    sums = np.zeros((len(values), len(ids)))
    counts = np.zeros((len(values), len(ids)))
    where = {v: k for k, v in enumerate(values)}
    for v, b, d in blocks.select("value", "block", "d").iter_rows():
        if v in where:
            sums[where[v], index[b]] += d
            counts[where[v], index[b]] += 1
    with np.errstate(invalid="ignore", divide="ignore"):
        point = crossing(values, list(sums.sum(axis=1) / counts.sum(axis=1)))
        w = stats.block_weights(len(ids), boots, seed)
        means = (w @ sums.T) / (w @ counts.T)  # boots x values
    draws = np.array([crossing(values, list(row)) for row in means])
    draws = draws[~np.isnan(draws)]
    if not draws.size:
        return {"estimate": _num(point), "low": None, "high": None}
    # order statistics, not interpolation: a draw may be ±inf (a crossing outside the sweep)
    low, high = np.percentile(draws, 2.5, method="lower"), np.percentile(draws, 97.5, method="higher")
    return {"estimate": _num(point), "low": _num(low), "high": _num(high)}


def _num(v) -> float | None:
    v = float(v)
    return None if math.isnan(v) else v


POOLED_NOTE = ("The tables other than the sweep's pool every value of {knob}, i.e. games under "
               "different rules: read the sweep's curves for answers.")


def headline(sw: dict, _row) -> list[dict]:
    """The report's headline rows of a sweep, made by `_row` (report.py's one shape of
    a row): every point of every curve, and each message's break-even (an interval bound
    outside the swept values is left open). p of a message value is against 0, Holm
    over the points of its edition's family."""
    knob, rows = sw["knob"], []
    for c in sw["curves"]:
        where = f", {c['edition']}" if c["edition"] else ""
        for p in c["points"]:
            rows.append(_row(f"{c['words']}, {knob} = {p['value']}{where}", p["estimate"],
                             None if p["few"] else p["low"], None if p["few"] else p["high"],
                             p["games"], p["blocks"], f"sweep: {c['words']}",
                             label=f"{c['unit']}; {c.get('how', 'mean of block means')}" +
                             ("; too few blocks" if p["few"] else "")))
    holm = {}
    for edition in dict.fromkeys(m["edition"] for m in sw["message_curves"]):
        ps = [(id(p), p["p"]) for m in sw["message_curves"] if m["edition"] == edition for p in m["points"]]
        holm |= dict(zip((k for k, _ in ps), stats.holm([1.0 if v is None else v for _, v in ps])))
    for m in sw["message_curves"]:
        for p in m["points"]:
            rows.append(_row(f"{m['action']} − {knob} points: final margin ({m['edition']}, "
                             f"{knob} = {p['value']})", p["estimate"], None if p["few"] else p["low"],
                             None if p["few"] else p["high"], p["games"], p["blocks"],
                             f"sweep: message values ({m['edition']}), margin", p["p"],
                             holm[id(p)], "points; action − the swept points' alternative"))
        be = m["break_even"]
        finite = lambda v: v if v is not None and math.isfinite(v) else None  # noqa: E731
        rows.append(_row(f"{m['action']}: break-even {knob} ({m['edition']})", finite(be["estimate"]),
                         finite(be["low"]), finite(be["high"]), sum(p["games"] for p in m["points"]),
                         max((p["blocks"] for p in m["points"]), default=0),
                         f"sweep: break-even ({m['edition']})",
                         label=f"{knob} where the action's value crosses 0 (linear between the "
                               f"swept values; block-bootstrap percentile interval): {bound_words(be)}"))
    return rows


def render_text(sw: dict) -> list[str]:
    """The sweep's curves as lines of text: one line per point."""
    knob = sw["knob"]
    out = [f"sweep over {knob} = {', '.join(map(str, sw['values']))} (every value on the same "
           f"blocks; 95% t intervals over blocks)"]
    for c in sw["curves"]:
        edition = f", {c['edition']}" if c["edition"] else ""
        out.append(f"  {c['words']} ({c['unit']}){edition}:")
        out += [f"    {knob} = {p['value']}: " + _cell(p) for p in c["points"]]
    for m in sw["message_curves"]:
        be = m["break_even"]
        out.append(f"  {m['action']} − {knob} points, final margin ({m['edition']}); break-even "
                   f"{knob} {bound_words(be)}:")
        out += [f"    {knob} = {p['value']}: " + _cell(p) for p in m["points"]]
    return out


def _cell(p: dict) -> str:
    if p["few"]:
        return f"too few blocks ({p['blocks']})"
    return f"[{p['low']:.3f}, {p['high']:.3f}] {p['estimate']:.3f} ({p['blocks']} blocks)"


def bound_words(be: dict) -> str:
    """A break-even as `[low, high] estimate`, bounds outside the sweep as words."""
    def one(v):
        if v is None:
            return "—"
        if math.isinf(v):
            return "below the swept values" if v < 0 else "above the swept values"
        return f"{v:.2f}"
    if be["estimate"] is not None and math.isinf(be["estimate"]):
        return one(be["estimate"])
    return f"[{one(be['low'])}, {one(be['high'])}] {one(be['estimate'])}"
