"""`carcsim report RUN_DIR`: the run's answers with error bars.

`build()` gathers every table that applies to the run's design (sim/analysis/balance.py,
sim/analysis/forks.py) and a headline table: one row per question, with numbers only
(estimate, 95% interval, p, p adjusted within its family, games, blocks), its family
and a prose label. `render_text()` is the terminal summary; `sim.analysis.page.render_html()`
(sim/analysis/page.py) writes one self-contained page whose numbers are the same
values, also embedded as JSON for scripts and tests.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl

from sim import expansions
from eager import balance, forks, stats
from sim.analysis.fmt import fmt_interval, fmt_p
from eager.load import load
from sim.expansions.messages import ALL_ACTIONS
from sim.tournament.manifest import REMEDY, RunError
from sim.tournament.sequential import block_outcomes
from sim.tournament.sink import read_manifest

# The report sections an expansion asks for (sim/expansions/ `analyses`), by name
ANALYSES = {
    "naive_messages": lambda games, players: balance.naive_message_values(
        games, players, list(ALL_ACTIONS)).to_dicts(),
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
    "matchups": (lambda h: h["family"] == "head-to-head", (0.01, 0.02), "win share"),
    "arms": (lambda h: " − " in h["question"] and h["question"].count("win share"), (0.01, 0.02),
             "win share"),
    "message values": (lambda h: h["family"].endswith(", margin"), (0.1, 0.5), "points"),
    "forks": (lambda h: h["family"].split(" (")[0].endswith(" forks") and "final margin" in h["question"],
              (0.1, 0.5),
              "points"),
}
MIN_BLOCKS_SHOWN = 30  # fewer blocks: a cell says "too few blocks", plots leave it out
SPRT_NOTE = ("This run was stopped by its sequential test: the fixed-sample p-values and "
             "intervals of the other rows assume a run of a size fixed in advance and are not "
             "valid for it; its answer is the sequential decision (the \"SPRT\" row).")


def question_of(cfg: dict) -> str:
    """The kind of question a config's design asks (QUESTIONS)."""
    d = cfg["design"]
    if d["kind"] == "counterfactual":
        return "forks" if d.get("forks") else "message values"
    if d["kind"] == "variants":
        return "arms"
    if d["kind"] == "round_robin" or len(set(d.get("seats") or ())) > 1:
        return "matchups"  # different players seated: which is stronger
    return "seats"


def _blocks_needed(question: str, headline: list[dict]) -> dict | None:
    """Blocks the least precise headline row needs per target half-width: 1/√blocks for a
    spread, the exact bound's own ln 0.025 / ln(1 − 2h/k) for a bound k × b wide."""
    wanted, targets, unit = QUESTIONS[question]
    rows = [h for h in headline if wanted(h) and h["low"] is not None and h["high"] is not None
            and h["high"] > h["low"]]
    if not rows:
        return None
    widest = max(rows, key=lambda h: h["high"] - h["low"])
    width, g = widest["high"] - widest["low"], widest["blocks"]
    b = 1 - 0.025 ** (1 / g)
    k = next((k for k in (1, 2) if unit == "win share" and abs(width - k * b) <= 1e-12), None)

    def bound(t):
        return 1 if 2 * t / k >= 1 else math.ceil(math.log(0.025) / math.log(1 - 2 * t / k))

    return {"label": widest["question"], "unit": unit, "half_width": width / 2, "blocks": g,
            "bound": "exact" if k else "spread",
            "needed": [{"half_width": t, "blocks": bound(t) if k else math.ceil(g * (width / 2 / t) ** 2)}
                       for t in targets]}


def _convergence(per_block: np.ndarray, points: int = 20) -> list[dict]:
    """The running estimate (mean of block values, 95% interval) as blocks accrue."""
    out = []
    n = len(per_block)
    for k in sorted({max(2, int(n * (i + 1) / points)) for i in range(points)}):
        if k > n:
            continue
        e = stats.mean_estimate(per_block[:k])
        out.append({"blocks": k, "estimate": e.estimate, "low": e.low, "high": e.high})
    return out


def build(run_dir: str | Path, rating_prior: float = balance.RATING_PRIOR) -> dict:
    """Every analysis the run supports, and the headline table. `rating_prior`: the
    Bradley–Terry prior, virtual wins each way per pair of specs that met."""
    manifest = read_manifest(run_dir)
    cfg = manifest["config"]
    games = load(run_dir, "games")
    players = load(run_dir, "players")
    blocks = games["block"].n_unique()
    out: dict = {"provenance": {k: manifest.get(k) for k in (
        "code_version", "schema_version", "ruleset", "created", "updated", "fingerprint")}
        | {"config": cfg, "games_stored": games.height, "blocks_stored": blocks,
           "games_planned": manifest["plan"]["games"]}}
    headline = []
    ties = float((games["winners"].list.len() > 1).mean()) if games.height else 0.0
    out["tie_rate"] = ties
    # beside every win share: how ties count, and how often they happened
    tie_note = f"a tie shares the win; {100 * ties:.1f}% of the run's games were ties"

    seat = balance.seat_advantage(games, players)
    test = balance.seat_test(games, players)
    out["seat"] = seat.to_dicts()
    out["seat_by_player"] = balance.seat_by_player(games, players).to_dicts()
    out["seat_test"] = test.to_dicts()
    for t in test.iter_rows(named=True):
        s0 = seat.filter((pl.col("players") == t["players"]) & (pl.col("seat") == 0)).row(0, named=True)
        headline.append(_row(f"seat 0 win share, {t['players']} players", s0["win_share"], s0["low"],
                             s0["high"], s0["games"], s0["blocks"], "seat advantage", t["p"], t["p"],
                             (f"all seats equal: F({t['dof1']}, {t['dof2']}) = {t['F']:.2f} "
                              f"(Hotelling T² over blocks)" if math.isfinite(t["F"] or math.nan)
                              else "all seats equal: exact sign test over blocks")
                             + f"; {tie_note}"))

    pw = balance.pairwise(games, players, expansions.decision_kinds(cfg["rules"]["expansions"]))
    out["pairwise"] = pw.to_dicts()
    if pw.height:
        out["ratings"] = balance.ratings(players, games, prior=rating_prior).to_dicts()
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

    convergence_source = None
    if cfg["design"]["kind"] == "variants":
        arms = balance.arm_effects(games, players)
        out["arms"] = arms.to_dicts()
        for r in arms.filter(pl.col("arm") != pl.col("baseline")).iter_rows(named=True):
            headline.append(_row(f"{r['arm']} − {r['baseline']}: win share ({r['edition']})",
                                 r["d_win_share"], r["d_win_share_low"], r["d_win_share_high"],
                                 r["games"], r["blocks"], f"{r['family']} ({r['edition']})",
                                 r["d_win_share_p"], r["d_win_share_p_holm"],
                                 f"paired by block; Δ score {r['d_score']:+.2f}; {tie_note}"))
        if arms.height:
            convergence_source = _arm_blocks(games, players, arms.row(0, named=True)["baseline"])
        ref, unit = 0.0, "difference in win share"
    else:
        s0 = players.filter(pl.col("seat") == 0).join(games.select("game_id", "block"), on="game_id")
        per = s0.group_by("block").agg(pl.col("win_share").mean()).sort("block")["win_share"].to_numpy()
        convergence_source = ("seat 0 win share", per)
        ref, unit = 1 / cfg["rules"]["players"], "win share"
    if convergence_source is not None:
        label, values = convergence_source
        out["convergence"] = {"label": label, "points": _convergence(values), "reference": ref,
                              "unit": unit}
        sd = float(np.std(values, ddof=1)) if len(values) > 1 else math.nan
        out["sample_size"] = {"label": label, "sd_per_block": sd,
                              "blocks_for_1pp": stats.sample_size_for_sd(0.01, sd) if sd > 0 else None,
                              "blocks_for_2pp": stats.sample_size_for_sd(0.02, sd) if sd > 0 else None}

    for section in expansions.analyses(cfg["rules"]["expansions"]):  # sim/expansions/
        out[section] = ANALYSES[section](games, players)
    cf_dir = Path(run_dir) / "counterfactuals"
    if cf_dir.exists():
        raw = load(run_dir, "counterfactuals")
        headline += _fork_answers(out, raw, games)
        cf = balance.counterfactual_values(raw, games)
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
    if manifest.get("sprt"):
        d = manifest["sprt"]
        outcomes = block_outcomes(games, players, d["arm"], d["baseline"])
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
                             low, high, games.filter(pl.col("block") < d["blocks"]).height,
                             d["blocks"], "sequential test", label=(
                                 f"{name} {d['decision']} (H0 p = {d['p0']}, H1 p = {d['p1']}, "
                                 f"α = {d['alpha']}, β = {d['beta']}) after {d['blocks']} blocks, "
                                 f"LLR {d['llr']:.3f}, bounds [{d['lower']:.3f}, {d['upper']:.3f}]; "
                                 f"the interval is not adjusted for the stopping rule")))
        out["sprt"] = d
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


def _fork_answers(out: dict, cf: pl.DataFrame, games: pl.DataFrame) -> list[dict]:
    """The "when" designs (sim/analysis/forks.py): tables into `out`, headline rows back."""
    rows = []
    vr = forks.variance_reduction(cf, games)
    if vr.height:
        out["variance_reduction"] = vr.to_dicts()
    for kind, (question, other) in FORK_QUESTIONS.items():
        values = forks.fork_values(cf, games, kind)
        if values.height == 0:
            continue
        out[f"fork_{kind}"] = values.to_dicts()
        out[f"rules_{kind}"] = forks.rule_values(cf, games, kind).to_dicts()
        out[f"unlisted_{kind}"] = forks.unlisted_contexts(cf, games, kind).to_dicts()
        for r in values.filter(pl.col("dimension") == "all").iter_rows(named=True):
            for what, unit in (("margin", "final margin"), ("win", "win probability")):
                where = f" ({r['edition']})" if r["edition"] else ""
                rows.append(_row(f"{question}: {unit}{where}", r[f"d_{what}"],
                                 r[f"d_{what}_low"], r[f"d_{what}_high"], r["games"], r["blocks"],
                                 f"{kind} forks{where}", r[f"d_{what}_p"],
                                 r[f"d_{what}_p"], f"{r['forks']} forks where both were allowed"))
    return rows


def _signed(v) -> str:
    return "−∞" if v is None or v == -math.inf else "+∞" if v == math.inf else f"{round(v) + 0:+d}"  # (as sim's: no "-0")


def _arm_blocks(games, players, baseline):
    """Per-block paired differences of the first non-baseline arm, for convergence."""
    p = players.filter(pl.col("focal")).join(games.select("game_id", "block", "variant", "edition"),
                                             on="game_id")
    arms = [a for a in dict.fromkeys(games["variant"]) if a != baseline]
    if not arms:
        return None
    edition = p["edition"][0]
    e = p.filter(pl.col("edition") == edition)
    per = e.group_by("variant", "block").agg(pl.col("win_share").mean())
    a = per.filter(pl.col("variant") == arms[0]).sort("block")
    b = per.filter(pl.col("variant") == baseline).sort("block")
    j = a.join(b, on="block", suffix="_b")
    return (f"{arms[0]} − {baseline}: win share ({edition})",
            (j["win_share"] - j["win_share_b"]).to_numpy())


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
        lines.append(f"answer: {h['question']}: {answer} ({h['games']} games, {h['blocks']} blocks"
                     f"{'; ' + h['label'] if h['label'] else ''})")
    if len(rows) > FIRST_ANSWERS:
        lines.append(f"... and {len(rows) - FIRST_ANSWERS} more answers in the report")
    return lines


def render_text(rep: dict) -> str:
    cfg = rep["provenance"]["config"]
    lines = [f"run {cfg['name']}: {rep['provenance']['games_stored']} games in "
             f"{rep['provenance']['blocks_stored']} blocks, design {cfg['design']['kind']}, "
             f"rules {cfg['rules']['players']}p {'+'.join(cfg['rules']['expansions']) or 'base'}",
             rep["unit_note"],
             f"{'question':72} {'estimate':>9} {'95% interval':>19} {'games':>7} {'blocks':>6} "
             f"{'p':>8} {'p adj.':>8} {'q (BH)':>8}  family: note"]
    for h in rep["headline"]:
        est, low, high = fmt_interval(h["estimate"], h["low"], h["high"])
        interval = ("(none)" if h["low"] is None and h["high"] is None else f"[{low}, {high}]")
        lines.append(f"{h['question'][:72]:72} {est:>9} {interval}".ljust(103)
                     + f" {h['games']:>7} {h['blocks']:>6} {fmt_p(h['p']):>8} "
                       f"{fmt_p(h['p_adjusted']):>8} {fmt_p(h.get('p_fdr')):>8}  "
                       f"{h['family']}: {h['label']}")
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

