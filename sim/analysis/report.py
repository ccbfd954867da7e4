"""`carcsim report RUN_DIR`: the run's answers with error bars.

`build()` gathers every table that applies to the run's design (sim/analysis/balance.py,
sim/analysis/forks.py) and a headline table: one row per question, with numbers only
(estimate, 95% interval, p, p adjusted within its family, games, blocks), its family
and a prose label. `render_text()` is the terminal summary; `sim.analysis.page.render_html()`
(sim/analysis/page.py) writes one self-contained page whose numbers are the same
values, also embedded as JSON for scripts and tests.

The tables are read once, a batch of shards at a time (sim/analysis/scan.py): each
section folds the batch into per-block sufficient statistics and the report is
assembled from those at the end, so its memory does not grow with the run's games.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl

from sim import expansions
from sim.analysis import balance, forks, stats, sweep
from sim.analysis.fmt import edition_suffix as _edition, fmt_interval, fmt_p
from sim.analysis.moments import Moments
from sim.analysis.scan import Batch, batches, blocks_stored
from sim.expansions.messages import ALL_ACTIONS
from sim.tournament.manifest import REMEDY, RunError, experiment_of
from sim.tournament.sequential import block_outcomes
from sim.tournament.sink import read_manifest

# The report sections an expansion asks for (sim/expansions/ `analyses`), by name: each
# makes the section that folds it in the pass (a table at the end)
ANALYSES = {
    "naive_messages": lambda: balance.NaiveMessages(list(ALL_ACTIONS)),
}

UNIT_NOTE = ("Unit of every interval and test: the block (one seed under all its seat orders "
             "and variants); cluster-robust or block-mean standard errors, Student-t intervals "
             "with blocks − 1 degrees of freedom, and for shares (and differences of shares, "
             "read as (1 + d)/2) the score (Wilson) interval and test at the effective "
             "number of games these give; each distinct game "
             "counted once.")


MULTIPLICITY_NOTE = ("{tests} tests in this report, in {families} families: p adj. is Holm "
                     "within each family; q is the Benjamini–Hochberg false-discovery-rate "
                     "adjustment over all {tests}. Comparisons identical by construction are "
                     "not tests.")


def _num(v):
    return None if v is None or (isinstance(v, float) and not math.isfinite(v)) else float(v)


def _row(question, est, low, high, games, blocks, family, p=None, p_adjusted=None,
         label="") -> dict:
    """One headline answer: numbers only, prose in `label`."""
    return {"question": question, "estimate": _num(est), "low": _num(low), "high": _num(high),
            "p": _num(p), "p_adjusted": _num(p_adjusted), "p_fdr": None, "games": int(games),
            "blocks": int(blocks), "family": family, "label": label}


# What a run's design asks, hence which section leads the report and which quantity
# "blocks needed" is about: a test on its headline rows, and the target half-widths in
# that quantity's unit (the tighter first)
QUESTIONS = {
    "seats": (lambda h: h["family"] == "seat advantage", (0.01, 0.02), "win share"),
    "matchups": (lambda h: h["family"] == "head-to-head" or h["family"].startswith("strategies at a table"),
                 (0.01, 0.02), "win share"),
    "arms": (lambda h: " − " in h["question"] and h["question"].count("win share"), (0.01, 0.02),
             "win share"),
    "message values": (lambda h: h["family"].endswith(", margin"), (0.1, 0.5), "points"),
    "forks": (lambda h: h["family"].split(" (")[0].endswith(" forks") and "final margin" in h["question"],
              (0.1, 0.5),
              "points"),
    # a sweep: the curves' points (sim/analysis/sweep.py); message values where forked
    "sweep message values": (lambda h: h["family"].startswith("sweep: message values"), (0.1, 0.5),
                             "points"),
    "sweep seats": (lambda h: h["family"] == "sweep: seat 0 win share", (0.01, 0.02), "win share"),
}
MIN_BLOCKS_SHOWN = 30  # fewer blocks: a cell says "too few blocks", plots leave it out
SPRT_NOTE = ("This run was stopped by its sequential test: the fixed-sample p-values and "
             "intervals of the other rows assume a run of a size fixed in advance and are not "
             "valid for it; its answer is the sequential decision (the \"SPRT\" row).")


def question_of(cfg: dict) -> str:
    """The kind of question a config's design asks (QUESTIONS)."""
    d = cfg["design"]
    if d.get("sweep"):
        return "sweep message values" if d["kind"] == "counterfactual" else "sweep seats"
    if d["kind"] == "counterfactual":
        return "forks" if d.get("forks") else "message values"
    if d["kind"] == "variants":
        return "arms"
    if d["kind"] == "round_robin" or len(set(d.get("seats") or ())) > 1:
        return "matchups"  # different players seated: which is stronger
    return "seats"


def _blocks_needed(question: str, headline: list[dict]) -> dict | None:
    """Blocks the question's least precise headline row needs for each target half-width,
    None without an interval. A spread's half-width shrinks as 1/√blocks from this run's;
    an exact bound (no block differed: its interval is 1 or 2 × stats.exact_bound wide)
    shrinks as 1/blocks, so it takes that bound's own formula, as `carcsim plan` does."""
    wanted, targets, unit = QUESTIONS[question]
    rows = [h for h in headline if wanted(h) and h["low"] is not None and h["high"] is not None
            and h["high"] > h["low"]]
    if not rows:
        return None
    widest = max(rows, key=lambda h: h["high"] - h["low"])
    width, g = widest["high"] - widest["low"], widest["blocks"]
    widths = next((k for k in (1, 2) if unit == "win share" and g > 0
                   and abs(width - k * stats.exact_bound(g)) <= 1e-12), None)
    needed = [stats.blocks_for_bound(t, widths) if widths else math.ceil(g * (width / 2 / t) ** 2)
              for t in targets]
    return {"label": widest["question"], "unit": unit, "half_width": width / 2, "blocks": g,
            "bound": "exact" if widths else "spread",
            "needed": [{"half_width": t, "blocks": n} for t, n in zip(targets, needed)]}


def _table_answers(out: dict, shares_s, ahead_s, tie_note: str, all_orders: bool) -> list[dict]:
    """Tables of three or more with different strategies: each strategy's win share
    against 1/players, then each pair's share of finishing ahead against 1/2 (where 1/2
    is what equal players get: balance.Ahead). `all_orders`: the run played every seat
    order (a pair is then unbalanced only where one player was spelt twice, which a
    config may no longer do, plan.check_seating: a run made before that)."""
    shares, ahead = shares_s.table(), ahead_s.table()
    out["player_share"], out["ahead"] = shares.to_dicts(), ahead.to_dicts()
    one_way = ahead.height and not ahead["balanced"].all()
    why = ("two spellings of one player made some seat orders one game" if all_orders else
           "rotations keep the order around the table")
    seating = (f"; each did not sit beside the others both ways round alike ({why}), so a share "
               f"also reflects whom it sat after" if one_way else "")
    rows = [_row(f"{r['player']} win share, {r['players']} players", r["win_share"], r["low"], r["high"],
                 r["games"], r["blocks"], f"strategies at a table of {r['players']}", r["p"], r["p_holm"],
                 f"every seat it sat in; p against 1/{r['players']}{seating}; {tie_note}")
            for r in shares.iter_rows(named=True)]
    for r in (ahead.filter(pl.col("player") < pl.col("opponent")).iter_rows(named=True) if ahead.height else ()):
        question = f"{r['player']} ahead of {r['opponent']}, {r['players']} players"
        if r["identical"]:
            rows.append(_row(question, None, None, None, r["games"], r["blocks"], "head-to-head",
                             label="identical by construction (the same player by behaviour: 1/2 "
                                   "by construction): not a test"))
            continue
        what = (f"share of their {r['meetings']:,} meetings where {r['player']} ended with more points "
                f"(equal points 1/2)")
        if not r["balanced"]:
            what += (f"; not a test: {r['player']} did not sit after {r['opponent']} as often as "
                     f"before ({why}), so the share mixes their strengths with the seating"
                     + ("" if all_orders else "; [design] seat_orders = \"all\" plays every order"))
        else:
            what += "; p against 1/2"
        rows.append(_row(question, r["share"], r["low"], r["high"], r["games"], r["blocks"], "head-to-head",
                         r["p"], r["p_holm"], what))
    return rows


def _convergence(per_block: np.ndarray, points: int = 20) -> list[dict]:
    """The running estimate (mean of block values, 95% interval) as blocks accrue."""
    c = Convergence(len(per_block), points)
    c.extend(np.asarray(per_block, dtype=float))
    return c.points


class Convergence:
    """The running estimate of a per-block value (the mean of its first k blocks, with
    its 95% interval) at `points` values of k up to the run's `blocks`, fed the values
    in block order a batch at a time: only the moments so far are kept."""

    def __init__(self, blocks: int, points: int = 20):
        self.blocks = blocks
        self.cuts = [k for k in sorted({max(2, int(blocks * (i + 1) / points)) for i in range(points)})
                     if k <= blocks]
        self.so_far = Moments.empty(1)
        self.points: list[dict] = []

    def extend(self, values: np.ndarray) -> None:
        start = 0
        for k in self.cuts[len(self.points):]:
            if k - self.so_far.n > len(values) - start:
                break
            stop = start + k - self.so_far.n
            self.so_far = self.so_far + Moments.of(values[start:stop])
            start = stop
            e = stats.mean_from(self.so_far)
            self.points.append({"blocks": k, "estimate": e.estimate, "low": e.low, "high": e.high})
        self.so_far = self.so_far + Moments.of(values[start:])


class Series:
    """The convergence section's per-block value, in block order: seat 0's mean win
    share (rotations), or the first arm other than the baseline minus the baseline in
    the first focal row's edition (variants)."""

    def __init__(self, variants: bool, blocks: int):
        self.variants, self.label, self.arm, self.edition = variants, None, None, None
        self.curve = Convergence(blocks)
        self.base: str | None = None

    def add(self, b: Batch) -> None:
        if self.variants:
            per = self._arm_blocks(b)
        else:
            self.label = "seat 0 win share"
            per = (b.p.filter(pl.col("seat") == 0).group_by("block")
                   .agg(pl.col("win_share").mean()).sort("block")["win_share"])
        if per is not None:
            self.curve.extend(per.to_numpy().astype(float))

    def _arm_blocks(self, b: Batch):
        if b.first:
            arms = list(dict.fromkeys(b.games["variant"]))
            focal = b.p.filter(pl.col("focal"))
            self.base = arms[0] if arms else None
            others = [a for a in arms if a != self.base]
            if not others or focal.height == 0:
                return None
            self.arm, self.edition = others[0], focal["edition"][0]
            self.label = f"{self.arm} − {self.base}: win share ({self.edition})"
        if self.arm is None:
            return None
        per = (b.p.filter(pl.col("focal") & (pl.col("edition") == self.edition))
               .group_by("variant", "block").agg(pl.col("win_share").mean()))
        a = per.filter(pl.col("variant") == self.arm).sort("block")
        j = a.join(per.filter(pl.col("variant") == self.base), on="block", suffix="_b").sort("block")
        return j["win_share"] - j["win_share_b"]

    def sections(self, out: dict, ref: float, unit: str) -> None:
        """The convergence and sample-size sections into `out`."""
        c = self.curve
        if self.label is None:
            return
        if c.so_far.n != c.blocks:  # the cut points were placed for the manifest's blocks
            raise RunError(f"the tables hold {c.so_far.n} blocks with a value of "
                           f"'{self.label}', manifest.json {c.blocks}; {REMEDY}")
        out["convergence"] = {"label": self.label, "points": c.points, "reference": ref,
                              "unit": unit}
        sd = math.sqrt(c.so_far.var(0)) if c.so_far.n > 1 else math.nan
        out["sample_size"] = {"label": self.label, "sd_per_block": sd,
                              "blocks_for_1pp": stats.sample_size_for_sd(0.01, sd) if sd > 0 else None,
                              "blocks_for_2pp": stats.sample_size_for_sd(0.02, sd) if sd > 0 else None}


class Totals:
    """Games, blocks and tied games of the run."""

    def __init__(self):
        self.games = self.blocks = self.ties = 0

    def add(self, b: Batch) -> None:
        self.games += b.games.height
        self.blocks += b.games["block"].n_unique()
        self.ties += int((b.games["winners"].list.len() > 1).sum())


class Sprt:
    """The sequential test's block scores over the blocks its decision was taken on."""

    def __init__(self, d: dict):
        self.d, self.outcomes, self.games = d, {}, 0

    def add(self, b: Batch) -> None:
        n = self.d["blocks"]
        games = b.games.filter(pl.col("block") < n)
        if games.height:
            self.games += games.height
            self.outcomes.update(block_outcomes(b.games, b.players, self.d["arm"], self.d["baseline"]))


def _players_columns(cfg: dict) -> list[str]:
    """The players columns some section reads."""
    cols = ["game_id", "seat", "player", "focal", "score", "rank", "win_share", "messages_drawn",
            "moves_live", "moves_meeple", "moves_messenger"]
    if "naive_messages" in expansions.analyses(cfg["rules"]["expansions"]):
        cols += [f"drawn_{a}" for a in ALL_ACTIONS]
    return cols


def build(run_dir: str | Path, rating_prior: float = balance.RATING_PRIOR) -> dict:
    """Every analysis the run supports, and the headline table, from one pass over its
    tables (sim/analysis/scan.py). `rating_prior`: the Bradley–Terry prior, virtual wins
    each way per pair of specs that met."""
    manifest = read_manifest(run_dir)
    cfg = manifest["config"]
    variants = cfg["design"]["kind"] == "variants"
    totals, seat, by_player, test = Totals(), balance.SeatAdvantage(), balance.SeatByPlayer(), balance.SeatTest()
    # who is one player however spelt: the kinds that arise, and parameters nothing reads
    kinds = expansions.decision_kinds(cfg["rules"]["expansions"])
    unread = frozenset(expansions.unread_params(cfg["rules"]["expansions"]))
    pw, rated = balance.Pairwise(kinds, unread), balance.Ratings()
    tables = (balance.PlayerShare(), balance.Ahead(kinds, unread))
    arms = balance.ArmEffects() if variants else None
    series = Series(variants, blocks_stored(manifest))
    extra = {name: ANALYSES[name]() for name in expansions.analyses(cfg["rules"]["expansions"])}
    with_cf = "counterfactuals" in manifest["plan"].get("tables", ())
    cf = balance.CounterfactualValues() if with_cf else None
    fork_sections = forks.Sections() if with_cf else None
    sprt = Sprt(manifest["sprt"]) if manifest.get("sprt") else None
    swept = sweep.Sweep(experiment_of(Path(run_dir), manifest)) if cfg["design"].get("sweep") else None
    sections = [s for s in (totals, seat, by_player, test, pw, rated, *tables, arms, series, *extra.values(),
                            cf, fork_sections, sprt, swept) if s is not None]
    for batch in batches(run_dir, manifest, _players_columns(cfg), with_cf):
        for s in sections:
            s.add(batch)
    return _assemble(run_dir, manifest, totals, seat, by_player, test, pw, rated, tables, arms, series, extra,
                     cf, fork_sections, sprt, swept, rating_prior)


def _assemble(run_dir, manifest, totals, seat_s, by_player, test_s, pw_s, rated, tables, arms_s, series, extra,
              cf_s, fork_sections, sprt, swept, rating_prior) -> dict:
    """The report from its sections' folds."""
    cfg = manifest["config"]
    out: dict = {"provenance": {k: manifest.get(k) for k in (
        "code_version", "schema_version", "ruleset", "created", "updated", "fingerprint")}
        | {"config": cfg, "games_stored": totals.games, "blocks_stored": totals.blocks,
           "games_planned": manifest["plan"]["games"]}}
    headline = []
    ties = totals.ties / totals.games if totals.games else 0.0
    out["tie_rate"] = ties
    # beside every win share: how ties count, and how often they happened
    tie_note = f"a tie shares the win; {100 * ties:.1f}% of the run's games were ties"

    seat = seat_s.table()
    test = test_s.table()
    out["seat"] = seat.to_dicts()
    out["seat_by_player"] = by_player.table().to_dicts()
    out["seat_test"] = test.to_dicts()
    for t in test.iter_rows(named=True):
        s0 = seat.filter((pl.col("players") == t["players"]) & (pl.col("seat") == 0)).row(0, named=True)
        headline.append(_row(f"seat 0 win share, {t['players']} players", s0["win_share"], s0["low"],
                             s0["high"], s0["games"], s0["blocks"], "seat advantage", t["p"], t["p"],
                             (f"all seats equal: F({t['dof1']}, {t['dof2']}) = {t['F']:.2f} "
                              f"(Hotelling T² over blocks)" if math.isfinite(t["F"] or math.nan)
                              else "all seats equal: exact sign test over blocks")
                             + f"; {tie_note}"))

    pw = pw_s.table()
    out["pairwise"] = pw.to_dicts()
    if pw.height:
        same = [(a, b) for a, b, i in pw.select("player", "opponent", "identical").iter_rows() if i]
        out["ratings"] = rated.table(prior=rating_prior, identical=same).to_dicts()
        out["rating_prior"] = rating_prior
        for r in pw.filter(pl.col("player") < pl.col("opponent")).iter_rows(named=True):
            if r["identical"]:  # a mirror match: 1/2 by construction, so no interval, no test
                headline.append(_row(f"{r['player']} vs {r['opponent']}: win share", None,
                                     None, None, r["games"], r["blocks"], "head-to-head",
                                     label="identical by construction (the same player by "
                                           "behaviour: 1/2 by construction): not a test, not in "
                                           "the Holm family"))
                continue
            elo = (f"Elo {_signed(r['elo'])} [{_signed(r['elo_low'])}, {_signed(r['elo_high'])}]")
            # a degenerate result in words: the interval is an exact bound, not a spread
            if r["win_share"] in (0.0, 1.0):
                won = r["player"] if r["win_share"] == 1.0 else r["opponent"]
                elo = f"{won} won every game of the pair; {elo}"
            headline.append(_row(f"{r['player']} vs {r['opponent']}: win share", r["win_share"],
                                 r["low"], r["high"], r["games"], r["blocks"], "head-to-head",
                                 r["p"], r["p_holm"], f"{elo}; {tie_note}"))

    headline += _table_answers(out, *tables, tie_note, cfg["design"].get("seat_orders") == "all")

    if arms_s is not None:
        arms = arms_s.table()
        out["arms"] = arms.to_dicts()
        for r in arms.filter(pl.col("arm") != pl.col("baseline")).iter_rows(named=True):
            headline.append(_row(f"{r['arm']} − {r['baseline']}: win share{_edition(r['edition'])}",
                                 r["d_win_share"], r["d_win_share_low"], r["d_win_share_high"],
                                 r["games"], r["blocks"], f"{r['family']}{_edition(r['edition'])}",
                                 r["d_win_share_p"], r["d_win_share_p_holm"],
                                 f"paired by block; Δ score {r['d_score']:+.2f}; {tie_note}"))
        if arms.height:
            series.sections(out, 0.0, "difference in win share")
    else:
        series.sections(out, 1 / cfg["rules"]["players"], "win share")

    for section, s in extra.items():  # sim/expansions/
        out[section] = s.table().to_dicts()
    if cf_s is not None:
        headline += _fork_answers(out, fork_sections)
        cf = cf_s.table()
        out["counterfactual"] = cf.to_dicts()
        for r in (cf.filter(pl.col("phase") == "all").iter_rows(named=True) if cf.height else ()):
            family = f"message values ({r['edition']})"
            headline.append(_row(f"{r['action']} − 2 points: final margin ({r['edition']})",
                                 r["d_margin"], r["d_margin_low"], r["d_margin_high"], r["games"],
                                 r["blocks"], family + ", margin", r["d_margin_p"],
                                 r["d_margin_p_holm"], f"{r['draws']} draws, points"))
            headline.append(_row(f"{r['action']} − 2 points: win probability ({r['edition']})",
                                 r["d_win"], r["d_win_low"], r["d_win_high"], r["games"],
                                 r["blocks"], family + ", win", r["d_win_p"], r["d_win_p_holm"],
                                 f"{r['draws']} draws, win share"))
    if sprt is not None:
        d, outcomes = sprt.d, sprt.outcomes
        missing = [b for b in range(d["blocks"]) if b not in outcomes]
        if missing:  # the decision was taken over blocks that must all be stored
            raise RunError(f"{Path(run_dir) / 'manifest.json'}: sprt.blocks = {d['blocks']}: "
                           f"block {missing[0]} is not stored; {REMEDY}")
        first = [outcomes[b] for b in range(d["blocks"])]
        e = stats.share_by_block(first, [1] * len(first))
        low, high = e.low, e.high
        against = d["baseline"] or "its opponents"
        # the decision, the LLR and both bounds (α ≠ β makes them asymmetric); runs
        # decided before the generalised test (no "test" key) used Wald's Bernoulli LLR
        name = d.get("test", "Wald SPRT (Bernoulli)")
        headline.append(_row(f"SPRT {d['arm']} vs {against}: block score", float(np.mean(first)),
                             low, high, sprt.games, d["blocks"], "sequential test", label=(
                                 f"{name} {d['decision']} (H0 p = {d['p0']}, H1 p = {d['p1']}, "
                                 f"α = {d['alpha']}, β = {d['beta']}) after {d['blocks']} blocks, "
                                 f"LLR {d['llr']:.3f}, bounds [{d['lower']:.3f}, {d['upper']:.3f}]; "
                                 f"the interval is not adjusted for the stopping rule")))
        out["sprt"] = d
    if swept is not None:
        # every other answer above pools the sweep's values, i.e. different rules: the
        # headline is the curves' points (the pooled tables stay, said to be pooled)
        out["sweep"] = swept.table()
        headline = sweep.headline(out["sweep"], _row)
        out["pooled_note"] = sweep.POOLED_NOTE.format(knob=out["sweep"]["knob"])
    # Whole-report multiplicity: every row with a p is a test; Holm stays within each
    # family (what a reader of one question needs), Benjamini–Hochberg over all of them
    # bounds the share of false discoveries among everything the report calls different.
    q = stats.benjamini_hochberg([h["p"] for h in headline])
    for h, v in zip(headline, q):
        h["p_fdr"] = _num(v)
    tested = [h for h in headline if h["p"] is not None]
    out["multiplicity"] = {"tests": len(tested), "families": len({h["family"] for h in tested}),
                           "note": MULTIPLICITY_NOTE.format(tests=len(tested), families=len(
                               {h["family"] for h in tested}))}
    out["headline"] = headline
    out["unit_note"] = UNIT_NOTE
    out["question"] = question_of(cfg)
    out["blocks_needed"] = _blocks_needed(out["question"], headline)
    out["sprt_note"] = SPRT_NOTE if manifest.get("sprt") else ""
    return out


FORK_QUESTIONS = {"scoring_figure": ("messenger − meeple at a scoring-figure choice", "meeple"),
                  "road_figure": ("messenger − follower on a road", "follower")}


def _fork_answers(out: dict, s: "forks.Sections") -> list[dict]:
    """The "when" designs (sim/analysis/forks.py): tables into `out`, headline rows back."""
    rows = []
    vr = s.variance.table()
    if vr.height:
        out["variance_reduction"] = vr.to_dicts()
    for kind, (question, other) in FORK_QUESTIONS.items():
        values = s.values[kind].table()
        if values.height == 0:
            continue
        out[f"fork_{kind}"] = values.to_dicts()
        out[f"rules_{kind}"] = s.rules[kind].table().to_dicts()
        out[f"unlisted_{kind}"] = s.values[kind].unlisted().to_dicts()
        for r in values.filter(pl.col("dimension") == "all").iter_rows(named=True):
            for what, unit in (("margin", "final margin"), ("win", "win probability")):
                rows.append(_row(f"{question}: {unit}{_edition(r['edition'])}", r[f"d_{what}"],
                                 r[f"d_{what}_low"], r[f"d_{what}_high"], r["games"], r["blocks"],
                                 f"{kind} forks{_edition(r['edition'])}", r[f"d_{what}_p"],
                                 r[f"d_{what}_p"], f"{r['forks']} forks where both were allowed"))
    return rows


def _signed(v) -> str:
    # (an Elo that rounds to 0 is 0, not "-0")
    return "−∞" if v is None or v == -math.inf else "+∞" if v == math.inf else f"{round(v) + 0:+d}"


# ---------------------------------------------------------------- text


def _fmt(v, digits=3) -> str:
    return "—" if v is None else f"{v:.{digits}f}"


FIRST_ANSWERS = 4  # headline rows `carcsim run` prints at its end


def first_answer(rep: dict, question: str = "") -> list[str]:
    """The end of `carcsim run`: the config's `question` and the first headline answers,
    each interval first, then the estimate (the whole table: carcsim report)."""
    lines = [f"question: {question}"] if question else []
    # the answers to the config's question first (QUESTIONS), the others after them
    wanted = QUESTIONS[rep.get("question", "seats")][0]
    rows = sorted(rep["headline"], key=lambda h: not wanted(h))
    for h in rows[:FIRST_ANSWERS]:
        if h["low"] is None or h["high"] is None:
            answer = "no interval (see the report)" if h["estimate"] is None else f"{_fmt(h['estimate'])}"
        elif h["low"] == h["high"]:  # every block gave the same value: no spread to show
            answer = f"{_fmt(h['estimate'])} in every block (no block differs: no interval)"
        else:
            est, low, high = fmt_interval(h["estimate"], h["low"], h["high"])
            answer = f"95% interval [{low}, {high}], estimate {est}"
        # the test's p where the label names one ("p against 1/3"), the report's other columns aside
        p = f", p {fmt_p(h['p'])}" if h.get("p") is not None else ""
        lines.append(f"answer: {h['question']}: {answer}{p} ({h['games']} games, {h['blocks']} blocks"
                     f"{'; ' + h['label'] if h['label'] else ''})")
    if len(rows) > FIRST_ANSWERS:
        more = len(rows) - FIRST_ANSWERS
        lines.append(f"... and {more} more answer{'s' if more > 1 else ''} in the report")
    return lines


def render_text(rep: dict) -> str:
    cfg = rep["provenance"]["config"]
    prov = rep["provenance"]
    why = "stopped by its sequential test" if rep.get("sprt_note") else "a partial run"
    partial = (f" (of {prov['games_planned']} planned: {why})"
               if prov.get("games_planned") and prov["games_stored"] < prov["games_planned"] else "")
    lines = [f"run {cfg['name']}: {prov['games_stored']} games{partial} in "
             f"{prov['blocks_stored']} blocks, design {cfg['design']['kind']}"
             f"{', every seat order' if cfg['design'].get('seat_orders') == 'all' else ''}, "
             f"rules {cfg['rules']['players']}p {'+'.join(cfg['rules']['expansions']) or 'base'}"
             + (f" (tile lists of your own: {', '.join(cfg['rules']['tiles'])})" if cfg['rules'].get('tiles') else ""),
             rep["unit_note"],
             f"{'question':72} {'95% interval':>19} {'estimate':>9} {'games':>7} {'blocks':>6} "
             f"{'p':>8} {'p adj.':>8} {'q (BH)':>8}  family: note"]
    for h in rep["headline"]:
        est, low, high = fmt_interval(h["estimate"], h["low"], h["high"])
        interval = ("(none)" if h["low"] is None and h["high"] is None else f"[{low}, {high}]")
        lines.append(f"{h['question'][:72]:72} {interval:>19} {est:>9}".ljust(102)
                     + f" {h['games']:>7} {h['blocks']:>6} {fmt_p(h['p']):>8} "
                       f"{fmt_p(h['p_adjusted']):>8} {fmt_p(h.get('p_fdr')):>8}  "
                       f"{h['family']}: {h['label']}")
    if rep.get("sweep"):
        lines += sweep.render_text(rep["sweep"])
        lines.append(rep["pooled_note"])
    if rep.get("multiplicity"):
        lines.append(rep["multiplicity"]["note"])
    if rep.get("sprt_note"):
        lines.append(rep["sprt_note"])
    b = rep.get("blocks_needed")
    if b:  # about the config's question, from its least precise answer
        scale, unit = (100, "pp") if b["unit"] == "win share" else (1, "points")
        exact = ", an exact bound: no block differed" if b.get("bound") == "exact" else ""
        lines.append(f"blocks needed for '{b['label']}' (now ±{b['half_width'] * scale:.2g} {unit} "
                     f"over {b['blocks']:,} blocks{exact}): "
                     + "; ".join(f"±{n['half_width'] * scale:g} {unit}: {n['blocks']:,}" for n in b["needed"]))
    if rep.get("ratings"):
        lines.append(f"ratings (Bradley–Terry, Elo scale, 95% bootstrap over blocks; prior "
                     f"{rep['rating_prior']} virtual wins each way per pair that met):")
        for r in rep["ratings"]:
            rating, low, high = fmt_interval(r["rating"], r["low"], r["high"], most=0)
            lines.append(f"  {r['player'][:60]:60} [{low}, {high}], {rating}")
    return "\n".join(lines)

