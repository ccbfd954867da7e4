"""`carcsim findings`: rerun the shipped configs and rewrite docs/findings.md.

Every number in the document comes from `carcsim report` on a run of a shipped
config made by the command printed beside it; this module only runs them (resuming
what is already stored), builds the reports and writes the numbers into prose and
tables. The statements about "when" (which contexts favour the messenger) are drawn
from the intervals, not written by hand: a stratum of the fork's primary condition
(sim/analysis/forks.py PRIMARY) is named only when its Holm-adjusted p is below 0.05,
and a context only when its level differs from the rest of its stratum so.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from pathlib import Path

from sim.analysis import atlas
from sim.analysis.forks import (ALL, BEST, FORKED, MIN_BLOCKS, PRIMARY, PRIMARY_WORDS,
                                 unlisted_words)
from sim.analysis.fmt import fmt_p
from sim.analysis.report import UNIT_NOTE, build
from sim.safe_files import write_file
from sim.tournament.config import load_experiment, shipped_configs
from sim.tournament.run import run_experiment

LOW_VARIANCE = ("smallest_road", "smallest_city", "smallest_monastery", "coats_of_arms",
                "per_knight", "per_farmer")  # message actions with paired sd of a few points
TARGET = 0.3  # points: the half-width asked of their values
STRENGTH, STRENGTH_BLOCKS = 0.65, 1000  # issue 16: search's win share against greedy, blocks
Z = 1.96  # an interval's half-width over this is its standard error (normal approximation)


@dataclass(frozen=True)
class Section:
    config: str  # a shipped config's name (sim/configs/<name>.toml)
    title: str
    render: object  # report dict (then the reports of `beside`, in order) -> lines of markdown
    beside: tuple[str, ...] = ()  # configs whose findings this section sets its own beside


def est(v, low, high, digits=3, signed=False) -> str:
    """`v [low, high]`; a bound that is missing or infinite prints as —."""
    if v is None:
        return "—"
    f = f"{{:{'+' if signed else ''}.{digits}f}}"
    lo, hi = ("—" if b is None or not math.isfinite(b) else f"{b:.{digits}f}" for b in (low, high))
    return f"{f.format(v)} [{lo}, {hi}]"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "| " + " | ".join("---" for _ in head) + " |"]
    return out + ["| " + " | ".join(r) + " |" for r in rows]


def _by_edition(items: list[dict], key: str, cell, missing: str = "—"):
    """(editions, rows): one row per distinct `key` (in order of appearance), one cell
    per edition from `cell(item)`."""
    editions = sorted({i["edition"] for i in items})
    by = {(i[key], i["edition"]): i for i in items}
    rows = [[k, *(missing if (k, e) not in by else cell(by[(k, e)]) for e in editions)]
            for k in dict.fromkeys(i[key] for i in items)]
    return editions, rows


def _seat(rep) -> list[str]:
    h = next(h for h in rep["headline"] if h["family"] == "seat advantage")
    return [f"Seat 0 (the first player) wins {est(h['estimate'], h['low'], h['high'])} of "
            f"mirror games, {h['games']:,} games in {h['blocks']:,} blocks; all seats equal: "
            f"p = {fmt_p(h['p'])}."]


def _arms(rep) -> list[str]:
    arms = [a for a in rep.get("arms", []) if a["arm"] != a["baseline"]]
    if not arms:
        return ["No arms."]
    editions, rows = _by_edition(
        arms, "arm", lambda a: f"{est(a['d_win_share'], a['d_win_share_low'], a['d_win_share_high'], signed=True)}"
                               f", Holm p = {fmt_p(a['d_win_share_p_holm'])}",
        "(same as the baseline here)")
    rows = [[f"`{r[0]}`", *r[1:]] for r in rows]
    base = arms[0]["baseline"]
    clear = [f"`{a['arm']}` ({a['edition']}, {a['d_win_share']:+.3f})" for a in arms
             if a["d_win_share_p_holm"] is not None and a["d_win_share_p_holm"] < 0.05]
    return ([f"Win share of the arm's player minus `{base}`'s, paired by block, "
             f"{arms[0]['blocks']:,} blocks; Holm over the arms of each edition:", ""]
            + _table([f"arm − `{base}`", *editions], rows)
            + ["", f"Different from `{base}` after Holm (p < 0.05): "
                   f"{', '.join(clear) or 'none'}."])


def _message_values(rep) -> list[str]:
    cf = [r for r in rep.get("counterfactual", []) if r["phase"] == "all"]
    top = {}
    for r in cf:  # actions by their largest value, most valuable first
        top[r["action"]] = max(top.get(r["action"], -math.inf), r["d_margin"])
    cf.sort(key=lambda r: -top[r["action"]])
    editions, rows = _by_edition(
        cf, "action", lambda r: f"{est(r['d_margin'], r['d_margin_low'], r['d_margin_high'], 2, True)} pts; "
                                f"win {est(r['d_win'], r['d_win_low'], r['d_win_high'], 3, True)}")
    by = {(r["action"], r["edition"]): r for r in cf}
    out = ["Value of taking the action (at its best target) instead of the 2 points, in the "
           "drawer's final margin (points) and win probability:", ""]
    out += _table(["action − 2 points", *editions], rows)
    low = [by[(a, e)] for a in LOW_VARIANCE for e in editions if (a, e) in by]
    if low:
        widest = max((r["d_margin_high"] - r["d_margin_low"]) / 2 for r in low)
        verdict = "meets" if widest <= TARGET else "misses"
        blocks = rep["provenance"]["blocks_stored"]
        need = math.ceil(blocks * (widest / TARGET) ** 2)  # half-widths shrink as 1/√blocks
        out += ["", f"The widest interval among the six low-variance actions ({', '.join(LOW_VARIANCE)}) "
                    f"is ±{widest:.2f} points: this run of {blocks:,} blocks {verdict} the "
                    f"±{TARGET} target (about {need:,} blocks give ±{TARGET} for all six; "
                    f"{min(r['blocks'] for r in low):,}–{max(r['blocks'] for r in low):,} blocks "
                    f"hold a draw of each action)."]
    vr = rep.get("variance_reduction", [])
    if vr:
        out += ["", "Extra tile or turn: taking message 4 hands every later tile to the other "
                    "player, so the plain 2-points branch shares nothing with the action branch. "
                    "The aligned 2-points branch rotates the stack after the fork by one tile so "
                    "both branches give the same tiles to the same players (same distribution, "
                    "so the same mean); the values above use it. Paired sd per fork before and "
                    "after, and the check that the two 2-points branches agree on average:", ""]
        out += _table(["edition", "action", "forks", "plain: value, sd", "aligned: value, sd",
                       "plain − aligned 2-points margin"],
                      [[v["edition"], v["action"], f"{v['forks']:,}",
                        f"{est(v['plain'], v['plain_low'], v['plain_high'], 2, True)}, sd {v['sd_plain']:.1f}",
                        f"{est(v['aligned'], v['aligned_low'], v['aligned_high'], 2, True)}, sd {v['sd_aligned']:.1f}",
                        f"{est(v['check'], v['check_low'], v['check_high'], 2, True)}, p = {fmt_p(v['check_p'])}"]
                       for v in vr])
    return out


def _noted(v, low, high, note, digits: int, percent: bool = False) -> str:
    """An estimate with its interval, or with the reason in words why it has none."""
    if v is None:
        return f"— ({note})" if note else "—"
    text = (lambda x: f"{x:.0%}") if percent else (lambda x: f"{x:+.{digits}f}")
    if note:
        return f"{text(v)} ({note})"
    if low is None or high is None:
        return text(v)
    return (f"{text(v)} [{text(low)}, {text(high)}]" if percent
            else est(v, low, high, digits, True))


def _of(row: dict, stem: str, digits: int, percent: bool = False) -> str:
    """`_noted` of `row`'s `stem` with its `_low`, `_high` and `_note`."""
    return _noted(row[stem], row[f"{stem}_low"], row[f"{stem}_high"], row[f"{stem}_note"], digits,
                  percent)


def _when(rep, kind: str, other: str) -> list[str]:
    values = rep.get(f"fork_{kind}", [])
    if not values:
        return ["No forks."]
    primary = PRIMARY[kind]
    out = [f"Forked: {FORKED[kind]}. Every context is given within each level of "
           f"{PRIMARY_WORDS[kind]} (its stratum): the value at the level, the share of that "
           f"level's forks the stratum holds, and the level against the rest of its stratum "
           f"(a block-clustered regression within the stratum: the context's own effect, what "
           f"is left once the stratum is held fixed). A context with one level at every fork "
           f"of its stratum is not listed. No interval is given below {MIN_BLOCKS} blocks or "
           f"where it would have zero width; the cell says why."]
    if kind == "scoring_figure":
        out += ["", "(\"to dark\": the points a figure needs to reach the next dark space "
                    "before this award, 5 when it stands on one; \"lands on dark\": which "
                    "figure the award would put on a dark space.)"]
    out.append("")
    for e in sorted({v["edition"] for v in values}):
        rows = [v for v in values if v["edition"] == e]
        top = next(v for v in rows if v["dimension"] == ALL)
        strata = [v for v in rows if v["dimension"] == primary]
        contexts = [v for v in rows if v["dimension"] not in (ALL, primary)]
        out += [f"**{e}**: {top['forks']:,} forks in {top['blocks']:,} blocks. Messenger − "
                f"{other}: {_of(top, 'd_margin', 2)} points of final margin, "
                f"{_of(top, 'd_win', 3)} win probability.", ""]
        out += _table([primary, "forks", "Δ margin (points)", "Δ win probability",
                       "Holm p (margin)"],
                      [[v["level"], f"{v['forks']:,} ({v['level_share']:.0%})",
                        _of(v, "d_margin", 2), _of(v, "d_win", 3), fmt_p(v["d_margin_p_holm"])]
                       for v in strata])
        out += [""]
        out += _table([primary, "context", "level", "forks", "stratum's share of the level",
                       "Δ margin (points)", "Δ win probability",
                       "vs the rest of the stratum (points)", "Holm p (vs the rest)"],
                      [[v["stratum"], v["dimension"], v["level"], f"{v['forks']:,}",
                        f"{v['level_share']:.0%}", _of(v, "d_margin", 2), _of(v, "d_win", 3),
                        _of(v, "vs_rest", 2), fmt_p(v["vs_rest_p_holm"])] for v in contexts])
        left_out = unlisted_words([u for u in rep.get(f"unlisted_{kind}", []) if u["edition"] == e],
                                  kind, {v["stratum"] for v in strata})
        if left_out:
            out += ["", f"Not listed (one level at every fork of its stratum): {left_out}."]

        def clear(v, p):
            return v[p] is not None and v[p] < 0.05
        better = [f"{primary} = {v['level']}" for v in strata
                  if clear(v, "d_margin_p_holm") and v["d_margin"] > 0]
        worse = [f"{primary} = {v['level']}" for v in strata
                 if clear(v, "d_margin_p_holm") and v["d_margin"] < 0]
        shifts = [f"{v['dimension']} = {v['level']} where {primary} = {v['stratum']} "
                  f"({est(v['vs_rest'], v['vs_rest_low'], v['vs_rest_high'], 2, True)})"
                  for v in contexts if clear(v, "vs_rest_p_holm")]
        out += ["", f"The messenger is the better choice (Holm p < 0.05 over the strata) when: "
                    f"{'; '.join(better) or 'no stratum'}. The {other} is better when: "
                    f"{'; '.join(worse) or 'no stratum'}. "
                + (f"Within a stratum, a context changes the value (its level against the rest "
                   f"of the stratum, Holm p < 0.05 over the context's levels there) at: "
                   f"{'; '.join(shifts)}." if shifts else
                   "Within a stratum no context changes the value detectably (each level "
                   "against the rest of its stratum: Holm p ≥ 0.05 over the context's levels "
                   "there)."), ""]
        rules = [r for r in rep.get(f"rules_{kind}", []) if r["edition"] == e]
        if rules:
            out += [f"Rules of thumb: gains per fork against always taking the {other}, with 95% "
                    f"block-bootstrap intervals ({rules[0]['boots']:,} resamples of the blocks, "
                    f"seed {rules[0]['seed']}; each rule's choices held as they are, the "
                    f"cross-fitted rule's as learned from the records); a share "
                    f"of the best context rule has an interval only when that rule's gain "
                    f"interval lies above 0.", ""]
            out += _table(["rule of thumb", "takes the messenger", "gain per fork (points)",
                           "gain per fork (win)", "share of the best context rule"],
                          [[r["rule"], f"{r['takes_first']:.0%}", _of(r, "gain_margin", 2),
                            _of(r, "gain_win", 3), _of(r, "share_of_best", 0, percent=True)]
                           for r in rules])
            simple = [r for r in rules if r["rule"] != BEST and r["gain_margin_note"] is None]
            b = max(simple, key=lambda r: r["gain_margin"]) if simple else None
            if all(r["gain_margin_low"] is None or r["gain_margin_low"] <= 0 for r in rules):
                out += ["", f"No rule, the cross-fitted context rule included, gains clearly over "
                            f"always taking the {other} (every gain interval includes 0): at this "
                            f"sample size the choice makes no detectable difference for greedy "
                            f"players.", ""]
            elif b is not None and b["gain_margin_low"] is not None and b["gain_margin_low"] > 0:
                low, high = b["share_of_best_low"], b["share_of_best_high"]
                if b["share_of_best"] is None:
                    share = f" ({b['share_of_best_note']})"
                else:
                    beyond = ("" if low is None else
                              " (the interval includes 100%: the cross-fitted context rule does "
                              "no better than this simple one)" if low <= 1 <= high else
                              " (more than 100%: judged on half the blocks, the context rule "
                              "does worse than the simple one)" if low > 1 else "")
                    share = (f", {_of(b, 'share_of_best', 0, percent=True)} of the cross-fitted "
                             f"best context rule's gain{beyond}")
                out += ["", f"Of the simple rules, \"{b['rule']}\" gains the most: "
                            f"{_of(b, 'gain_margin', 2)} points per fork{share}; gains are "
                            f"against always taking the {other}.", ""]
            else:
                best = next((r for r in rules if r["rule"] == BEST), None)
                found = ("" if best is None or best["gain_margin_low"] is None
                         or best["gain_margin_low"] <= 0 else
                         f"; the cross-fitted best context rule does, by "
                         f"{_of(best, 'gain_margin', 2)} points per fork")
                out += ["", f"No simple rule here gains clearly over always taking the "
                            f"{other}{found}.", ""]
    return out


def _messages_when(rep) -> list[str]:
    return _when(rep, "scoring_figure", "meeple")


def _roads_when(rep) -> list[str]:
    return _when(rep, "road_figure", "follower")


def _ladder(rep) -> list[str]:
    rows = []
    for r in rep.get("ratings", []):
        if r["rating"] is not None:
            val = est(r["rating"], r["low"], r["high"], 0)
        elif r["low"] is not None:
            val = f"at least {r['low']:.0f} (never lost to a rated spec)"
        elif r["high"] is not None:
            val = f"at most {r['high']:.0f} (never beat a rated spec)"
        else:
            val = "not comparable"
        rows.append([f"`{r['player']}`", val])
    return ([f"Bradley–Terry ratings on the Elo scale, 95% bootstrap over blocks, prior "
             f"{rep.get('rating_prior')} virtual wins each way per pair that met. Specs that "
             f"never beat (or never lost to) the rated ones get a one-sided bound only:", ""]
            + _table(["spec", "rating"], rows))


def _versus(rep) -> list[tuple[str, str, dict, dict]]:
    """Each non-baseline arm of a variants run: (arm name, its player spec, its
    head-to-head row against the opponent, its paired row against the baseline arm)."""
    design = rep["provenance"]["config"]["design"]
    opponent = design["opponents"][0]
    pw = {(r["player"], r["opponent"]): r for r in rep["pairwise"]}
    arms = {a["arm"]: a for a in rep["arms"]}
    return [(name, spec, pw[(spec, opponent)], arms[name]) for name, spec in design["arms"][1:]]


def strength_verdict(pw: dict) -> str:
    """Issue 16's target on a head-to-head row (win share, low, high, blocks): met only
    when the run is large enough and the whole 95% interval clears the share."""
    if pw["blocks"] < STRENGTH_BLOCKS:
        return f"not tested: {pw['blocks']:,} blocks, fewer than {STRENGTH_BLOCKS:,}"
    if pw["low"] > STRENGTH:
        return f"met: the whole interval lies above {STRENGTH:.0%}"
    if pw["win_share"] > STRENGTH:
        return f"not shown: the estimate is above {STRENGTH:.0%} but its interval reaches below"
    return f"not met: the estimate is {STRENGTH:.0%} or below"


def _strength(rep) -> list[str]:
    opponent = rep["provenance"]["config"]["design"]["opponents"][0]
    seats = {(r["player"], r["seat"]): r for r in rep["seat_by_player"]}
    out = []
    for _, spec, pw, arm in _versus(rep):
        first, second = (seats[(spec, s)] for s in (0, 1))
        out += [f"`{spec}` wins {est(pw['win_share'], pw['low'], pw['high'])} of its "
                f"{pw['games']:,} games against `{opponent}` in {pw['blocks']:,} blocks (each block "
                f"one seed in both seat orders): {est(first['win_share'], first['low'], first['high'])} "
                f"as the first player, {est(second['win_share'], second['low'], second['high'])} as "
                f"the second; Elo {pw['elo']:+.0f} [{pw['elo_low']:+.0f}, {pw['elo_high']:+.0f}]. "
                f"Its final margin minus `{opponent}`'s own in the same seeds' mirror games: "
                f"{est(arm['d_margin'], arm['d_margin_low'], arm['d_margin_high'], 1, True)} "
                f"points.", "",
                f"Issue 16's target (at least {STRENGTH:.0%} win share over at least "
                f"{STRENGTH_BLOCKS:,} blocks, both seat orders, interval by block): "
                f"**{strength_verdict(pw)}**."]
    return out


def _budgets(rep) -> list[str]:
    """The budget ladder: each search arm against greedy, in the config's order (budgets
    rising), and whether the win share rises with them."""
    rows = _versus(rep)
    opponent = rep["provenance"]["config"]["design"]["opponents"][0]
    out = [f"Each arm in both seat orders against `{opponent}`, {rows[0][2]['blocks']:,} blocks; "
           f"Δ: paired by block against the `{rows[0][3]['baseline']}` arm's mirror games "
           f"(0.5 by construction), Holm over the arms:", ""]
    out += _table(["arm", "player", f"win share vs `{opponent}`", "Δ win share (Holm p)",
                   "Δ final margin (points)"],
                  [[f"`{name}`", f"`{spec}`", est(pw["win_share"], pw["low"], pw["high"]),
                    f"{est(a['d_win_share'], a['d_win_share_low'], a['d_win_share_high'], signed=True)} "
                    f"({fmt_p(a['d_win_share_p_holm'])})",
                    est(a["d_margin"], a["d_margin_low"], a["d_margin_high"], 1, True)]
                   for name, spec, pw, a in rows])
    shares = [pw["win_share"] for _, _, pw, _ in rows]
    steps = "rises at every step" if all(b > a for a, b in zip(shares, shares[1:])) else \
        "does not rise at every step"
    low, high = rows[0][2], rows[-1][2]
    apart = ("lies wholly above" if high["low"] > low["high"] else "overlaps")
    return out + ["", f"The win share {steps} of the ladder ({' → '.join(f'{v:.3f}' for v in shares)}); "
                      f"the largest budget's interval {apart} the smallest's."]


def _search_c(rep) -> list[str]:
    """Search in C (issue 25): the arms' table as the budget ladder's (its arms are not in
    budget order: no claim about steps), beside the Python search's 8 x 6."""
    return _budgets(rep)[:-2] + [
        "", "The Python search before issue 25 played search(rollouts=8,candidates=6)'s rollouts "
            "to the end: 0.706 [0.686, 0.725] in the base game, 0.679 [0.659, 0.699] with The "
            "Messages (the sections on search above, seeds 163 and 164); `depth=0` is that budget "
            "in C. BENCHMARKS.md (\"Search in C\") gives each arm's cost per decision."]


def _half(low, high) -> float:
    return (high - low) / 2


def _apart(a: tuple, b: tuple, digits: int) -> str:
    """a − b for two independent estimates (value, low, high), with the interval of the
    normal approximation from their two intervals."""
    d = a[0] - b[0]
    hw = math.hypot(_half(*a[1:]), _half(*b[1:]))
    return est(d, d - hw, d + hw, digits, True)


def _seat_beside(rep, greedy) -> list[str]:
    def head(r):
        h = next(h for h in r["headline"] if h["family"] == "seat advantage")
        return h, (h["estimate"], h["low"], h["high"])
    (_, sv), (g, gv) = head(rep), head(greedy)
    return _seat(rep) + [
        "", f"Beside greedy's (section \"Seat advantage\", the same rules): "
            f"{est(*gv)} over {g['blocks']:,} blocks. Interval half-width ±{_half(*sv[1:]):.3f} "
            f"here, ±{_half(*gv[1:]):.3f} for greedy. Search − greedy: {_apart(sv, gv, 3)} "
            f"(independent runs; normal approximation from the two intervals)."]


def _message_values_beside(rep, greedy) -> list[str]:
    def rows(r):
        return {(v["action"], v["edition"]): v for v in r.get("counterfactual", []) if v["phase"] == "all"}
    mine, theirs = rows(rep), rows(greedy)
    if not mine:
        return ["No forks."]
    order = sorted(mine, key=lambda k: -mine[k]["d_margin"])
    table, widths, differ = [], [], []
    for k in order:
        m, g = mine[k], theirs.get(k)
        mv = (m["d_margin"], m["d_margin_low"], m["d_margin_high"])
        cell = (lambda v: f"{est(v['d_margin'], v['d_margin_low'], v['d_margin_high'], 2, True)} "
                          f"pts ({v['draws']:,} forks); win {est(v['d_win'], v['d_win_low'], v['d_win_high'], 3, True)}")
        diff = "—"
        if g is not None and None not in (mv[1], mv[2], g["d_margin_low"], g["d_margin_high"]):
            gv = (g["d_margin"], g["d_margin_low"], g["d_margin_high"])
            diff = _apart(mv, gv, 2)
            widths.append((_half(*mv[1:]), _half(*gv[1:])))
            d, hw = mv[0] - gv[0], math.hypot(_half(*mv[1:]), _half(*gv[1:]))
            if abs(d) > hw:
                differ.append(f"{k[0]} ({d:+.2f})")
        table.append([k[0], k[1], cell(m), "—" if g is None else cell(g), diff])
    out = ["Value of taking the action (at its best target) instead of the 2 points, in the "
           "drawer's final margin (points) and win probability, for search players beside "
           "greedy ones (section \"Message values by counterfactual forks\"):", ""]
    out += _table(["action − 2 points", "edition", "search players", "greedy players",
                   "search − greedy, margin"], table)
    if widths:
        ws, wg = (sorted(w[i] for w in widths)[len(widths) // 2] for i in (0, 1))
        out += ["", f"Median interval half-width over the actions: ±{ws:.2f} points with search "
                    f"players ({rep['provenance']['blocks_stored']:,} blocks), ±{wg:.2f} with greedy "
                    f"players ({greedy['provenance']['blocks_stored']:,} blocks). Search − greedy "
                    f"is a normal approximation from the two intervals (independent runs); its "
                    f"95% interval excludes 0 (no correction for the {len(widths)} comparisons) "
                    f"for: {', '.join(differ) or 'no action'}. Half-widths shrink as 1/√blocks: "
                    f"about {math.ceil(rep['provenance']['blocks_stored'] * (ws / wg) ** 2):,} "
                    f"blocks of search players would match greedy's median width."]
    return out


def _sweep(rep) -> list[str]:
    """A sweep's findings: each message's value at every swept value with its
    break-even, then the curves of the game's own metrics."""
    from sim.analysis.sweep import bound_words

    sw = rep["sweep"]
    knob, values = sw["knob"], sw["values"]
    out = [f"Every block is played under each {knob} = {', '.join(map(str, values))} on the same "
           f"tiles (common random numbers); each cell is the action's value against the "
           f"{knob} points in the drawer's final margin (points), a mean of block means with "
           f"its 95% t interval over blocks, where the action is possible. The break-even is "
           f"the {knob} at which the action and its alternative are worth the same "
           f"(linear between the swept values; 95% block-bootstrap percentile interval, every "
           f"value's blocks resampled together).", ""]
    for edition in dict.fromkeys(m["edition"] for m in sw["message_curves"]):
        ms = [m for m in sw["message_curves"] if m["edition"] == edition]
        rows = [[f"`{m['action']}`",
                 *("too few blocks" if p["few"] else est(p["estimate"], p["low"], p["high"], 2, True)
                   for p in m["points"]), bound_words(m["break_even"])] for m in ms]
        out += [f"**{edition}**", ""] + _table(
            ["action − points", *(f"{knob} = {v}" for v in values), "break-even"], rows) + [""]
    rows = []
    for c in sw["curves"]:
        digits = 3 if c["metric"] == "seat0_win" else 1
        rows.append([c["words"] + (f" ({c['edition']})" if c["edition"] else ""),
                     *(est(p["estimate"], p["low"], p["high"], digits) for p in c["points"])])
    out += ["The game's own metrics over the sweep (per game, 95% t interval over blocks):", ""]
    out += _table(["metric", *(f"{knob} = {v}" for v in values)], rows)
    return out


SECTIONS = (
    Section("seat_advantage", "Seat advantage", _seat),
    Section("messages_figure_policy", "The Messages: scoring-figure policies", _arms),
    Section("messages_figure_forks",
            "The Messages: messenger or meeple, at the moment of choice, within which figure "
            "lands on dark", _messages_when),
    Section("message_values", "Message values by restricted play", _arms),
    Section("message_counterfactual", "Message values by counterfactual forks",
            _message_values),
    Section("courier", "The Courier", _arms),
    Section("strategy_ladder", "Strategy ladder", _ladder),
    Section("mayors_messenger_vs_meeple",
            "Messengers & Mayors: blanket road-figure policies", _arms),
    Section("mayors_road_forks",
            "Messengers & Mayors: messenger meeple or follower on a road, at the moment of "
            "choice, within whether a ride target is near", _roads_when),
    Section("search_vs_greedy_base_1000", "Search against greedy: the base game", _strength),
    Section("search_vs_greedy_1000", "Search against greedy: The Messages (c3.1)", _strength),
    Section("search_vs_greedy_base", "Search budget ladder: the base game", _budgets),
    Section("search_vs_greedy", "Search budget ladder: The Messages (c3.1)", _budgets),
    Section("search_c_vs_greedy_base_1000", "Search in C: budgets against greedy, the base game",
            _search_c),
    Section("search_c_vs_greedy_1000", "Search in C: budgets against greedy, The Messages (c3.1)",
            _search_c),
    Section("search_seat_advantage", "Seat advantage between search players", _seat_beside,
            beside=("seat_advantage",)),
    Section("search_message_counterfactual",
            "Message values to search players, by counterfactual forks", _message_values_beside,
            beside=("message_counterfactual",)),
    # the atlas: 2 to 5 players, one table per question (sim/analysis/atlas.py)
    Section("atlas_seat_2p", "The atlas: seat advantage at 2 to 5 players", atlas.seat_advantage,
            beside=("atlas_seat_3p", "atlas_seat_4p", "atlas_seat_5p")),
    Section("atlas_message_values_2p", "The atlas: message values at 2 to 5 players",
            atlas.message_values,
            beside=("atlas_message_values_3p", "atlas_message_values_4p", "atlas_message_values_5p")),
    Section("atlas_figure_forks_2p", "The atlas: messenger or meeple at 2 to 5 players",
            atlas.scoring_figure_forks,
            beside=("atlas_figure_forks_3p", "atlas_figure_forks_4p", "atlas_figure_forks_5p")),
    Section("atlas_road_forks_2p", "The atlas: messenger meeple or follower on a road at 2 to 5 players",
            atlas.road_figure_forks,
            beside=("atlas_road_forks_3p", "atlas_road_forks_4p", "atlas_road_forks_5p")),
    Section("atlas_message_values_abbot_2p", "The atlas: message values with the Abbot",
            atlas.abbot_message_values, beside=("atlas_message_values_2p",)),
    Section("sweep_two_points", "A sweep: the points instead of a message", _sweep),
)


def splice(doc: str, sections: list[str], cpu: float) -> str:
    """`doc` with each of `sections` ("\n## Title\n...") in place of the section of the
    same title, or added before the closing "---" line; that line then notes the
    regeneration."""
    head, sep, tail = doc.rpartition("\n---\n")
    if not sep:
        head, tail = doc, ""
    chunks = head.split("\n## ")
    titles = [c.split("\n", 1)[0] for c in chunks]
    for s in sections:
        title = s.lstrip("\n")[3:].split("\n", 1)[0]
        body = s.lstrip("\n")[3:].rstrip("\n") + "\n"
        if title in titles[1:]:
            chunks[titles.index(title)] = body
        else:
            chunks.append(body)
            titles.append(title)
    note = (f"Sections regenerated on {time.strftime('%Y-%m-%d', time.gmtime())} with --only: "
            f"{cpu / 60:.1f} CPU minutes.")
    return "\n## ".join(c.rstrip("\n") + "\n" for c in chunks) + "\n---\n" + tail.rstrip("\n") + "\n" + note + "\n"


def _cpu_seconds(out: Path, spent: float, fresh: bool) -> float:
    """CPU seconds the run in `out` took in all: what this call spent, plus what the
    calls that made its stored shards spent (kept in out/findings.json)."""
    path = out / "findings.json"
    before = 0.0 if fresh or not path.exists() else json.loads(path.read_text())["cpu_seconds"]
    path.write_text(json.dumps({"cpu_seconds": before + spent}))
    return before + spent


def regenerate(root: str | Path = ".", doc: str | Path = "docs/findings.md", workers: int = 0,
               force: bool = False, only: tuple[str, ...] = (), echo=print,
               configs: dict[str, Path] | None = None) -> str:
    """Run (or resume) every section's config and the ones it sets itself beside (the
    shipped ones, or the files `configs` maps names to) with its run directory under
    `root`, report, and write `root/doc`. Returns the document's text."""
    root = Path(root)
    configs = {**shipped_configs(), **(configs or {})}
    parts = [f"# Findings\n\nRegenerated by `carcsim findings` on "
             f"{time.strftime('%Y-%m-%d', time.gmtime())} from the shipped configs: each "
             f"section's run is the command shown under its title, its numbers the output of "
             f"`carcsim report` on that run. {UNIT_NOTE} Win shares count a shared win as "
             f"1/winners; 95% intervals; p adjusted by Holm within each question's family.\n\n"
             f"Two players, except in the atlas at the end (2 to 5 players, one column per "
             f"table size). The players are the built-in `greedy` policy or "
             f"variants of it (findings about greedy players), except in the sections on "
             f"the `search` strategy: how much stronger than greedy it is, and "
             f"the seat-advantage and message-value findings rerun with search players "
             f"beside greedy's. Run sizes are what one shared core of this machine finishes in "
             f"minutes to half an hour (CPU time per run below); every run plays in the C game "
             f"(a fork's branches are C clones); more blocks give tighter intervals at a cost "
             f"that grows with them.\n"]
    done: dict[str, tuple] = {}  # config name -> (experiment, report, CPU seconds)

    def report(name: str) -> tuple:
        """Run (or resume) a config once per call and build its report."""
        if name not in done:
            exp = load_experiment(configs[name])
            out = root / exp.out
            t0 = time.process_time()
            summary = run_experiment(exp, out, workers=workers, force=force)
            # this process's CPU time and, with --workers, the Ray workers' (their games)
            spent = time.process_time() - t0 + summary.worker_cpu_seconds
            cpu = _cpu_seconds(out, spent, fresh=summary.shards_skipped == 0)
            echo(f"{name}: {summary.games} games run ({summary.shards_skipped} shards already "
                 f"stored), {cpu:.0f} CPU s in all")
            done[name] = (exp, build(out), cpu)
        return done[name]

    def command(name: str) -> str:
        """The line that remakes one run, with what it holds and what it cost."""
        exp, rep, cpu = report(name)
        prov = rep["provenance"]
        return (f"`carcsim run {name} && carcsim report {exp.out}` "
                f"({prov['games_stored']:,} games in {prov['blocks_stored']:,} blocks; "
                f"code {prov['code_version']}; {cpu:.0f} CPU s here)")

    for s in SECTIONS:
        if only and s.config not in only:
            continue
        # every run the section reads is named with its own size and CPU time
        lines = [command(s.config)] + [f"beside it: {command(b)}" for b in s.beside]
        parts.append(f"\n## {s.title}\n\n" + "  \n".join(lines) + "\n\n"
                     + "\n".join(s.render(report(s.config)[1], *(report(b)[1] for b in s.beside)))
                     + "\n")
    total = sum(cpu for _, _, cpu in done.values())
    target = root / doc
    if only and target.is_file():
        # only some sections: they replace their namesakes in the document (or join it
        # before its closing line); the others stay as they were regenerated
        text = splice(target.read_text(), parts[1:], total)
        write_file(target, text, f"--doc {target}")
        return text
    parts.append(f"\n---\nCPU time of these runs: {total / 60:.1f} minutes in all, measured "
                 f"on a shared, loaded 2-core machine (in-process unless --workers).\n")
    text = "".join(parts)
    write_file(target, text, f"--doc {target}")  # whole or untouched, never through a link
    return text
