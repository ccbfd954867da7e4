"""The report as one self-contained HTML page: inline CSS and SVG figures (matplotlib),
no external assets; the headline numbers are also embedded as JSON for scripts."""

from __future__ import annotations

import html
import json
import math

from sim import expansions
from sim.analysis import figures, forks
from sim.analysis.sweep import bound_words
from sim.analysis.fmt import digits, edition_suffix, fmt_p
from sim.analysis.report import MIN_BLOCKS_SHOWN

CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:3px 8px;border-bottom:1px solid #eee;
text-align:right}th{background:#f4f4f4}td:first-child,th:first-child{text-align:left}
.note{color:#666;font-size:.9em}pre{background:#f7f7f7;padding:8px;overflow:auto;font-size:12px}
svg{max-width:100%;height:auto}
"""


def _cell(key: str, v, places: int = 3) -> str:
    if v is None:
        return "—"
    if key == "p" or key.startswith("p_") or key.endswith("_p") or "_p_" in key:  # p_holm too
        return fmt_p(v)
    if isinstance(v, float):
        return "—" if not math.isfinite(v) else f"{v:.{places}f}"
    return str(v)


def _places(row: dict, key: str) -> int:
    """Decimals for `key` of `row`: what the interval beside it supports (`low`/`high`,
    or `<key>_low`/`<key>_high`), else 3."""
    stem = key[:-4] if key.endswith("_low") else key[:-5] if key.endswith("_high") else key
    for lo, hi in ((f"{stem}_low", f"{stem}_high"), ("low", "high")):
        if lo in row and hi in row:
            return digits(row[lo], row[hi])
    return 3


def _few(row: dict) -> bool:
    """A row over fewer blocks than the report shows numbers for (MIN_BLOCKS_SHOWN)."""
    return isinstance(row.get("blocks"), int) and row["blocks"] < MIN_BLOCKS_SHOWN


def _row_cells(r: dict, cols) -> list[str]:
    """The row's cells; in a row over too few blocks its estimates say so in words, once
    (the first number's cell), and the rest of them are blank."""
    cells, said = [], False
    for k, _ in cols:
        v = r.get(k)
        if _few(r) and isinstance(v, float):
            cells.append("" if said else f"too few blocks ({r['blocks']} < {MIN_BLOCKS_SHOWN})")
            said = True
        else:
            cells.append(_cell(k, v, _places(r, k)))
    return cells


def interval_first(cols: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The columns with each estimate's interval (its low and high columns, which follow
    it: `low`, `high` or `<stem>_low`, `<stem>_high`) moved before it: every answer
    shows its uncertainty before its point estimate."""
    out = list(cols)
    for i in range(len(out) - 2):
        (k, label), (lo, lo_label), (hi, hi_label) = out[i], out[i + 1], out[i + 2]
        if (lo, hi) in (("low", "high"), (f"{k}_low", f"{k}_high")):
            # a bare "low" before its estimate would read as the previous column's
            named = lambda h: f"{label}: {h}" if h in ("low", "high") else h  # noqa: E731
            out[i:i + 3] = [(lo, named(lo_label)), (hi, named(hi_label)), out[i]]
    return out


def _table(rows: list[dict], cols: list[tuple[str, str]], table_id: str = "") -> str:
    if not rows:
        return "<p class='note'>none</p>"
    cols = interval_first(cols)
    head = "".join(f"<th>{html.escape(label)}</th>" for _, label in cols)
    body = ["<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in _row_cells(r, cols)) + "</tr>"
            for r in rows]
    tid = f" id='{table_id}'" if table_id else ""
    return f"<table{tid}><tr>{head}</tr>{''.join(body)}</table>"


FORK_TITLES = {"scoring_figure": ("The Messages: the messenger or the meeple, at the moment of "
                                   "choice", "meeple"),
               "road_figure": ("Messengers & Mayors: the messenger meeple or a follower on a "
                               "road, at the moment of choice", "follower")}


def _notes(row: dict, fields: dict[str, str]) -> str:
    """A row's interval notes in words ("Δ margin, Δ win: too few blocks (...)")."""
    by: dict = {}
    for key, label in fields.items():
        if row.get(f"{key}_note"):
            by.setdefault(row[f"{key}_note"], []).append(label)
    return "; ".join(f"{', '.join(labels)}: {note}" for note, labels in by.items())


def fork_section(rep: dict, kind: str) -> str:
    """The "when" section of one fork kind (sim/analysis/forks.py): which forks are
    forked, every context within the primary condition, what is not listed and why,
    and the rules of thumb with their block-bootstrap intervals; "" without forks."""
    values = rep.get(f"fork_{kind}")
    if not values:
        return ""
    title, other = FORK_TITLES[kind]
    primary = forks.PRIMARY[kind]
    unlisted = rep.get(f"unlisted_{kind}", [])
    left_out = [f"{e}: {words}" for e in dict.fromkeys(v["edition"] for v in values)
                if (words := forks.unlisted_words(
                    [u for u in unlisted if u["edition"] == e], kind,
                    {v["stratum"] for v in values if v["edition"] == e and v["dimension"] == primary}))]
    ctx = [dict(r, label=f"all{edition_suffix(r['edition'])}" if r["dimension"] == forks.ALL else
                f"{r['dimension']} = {r['level']}{edition_suffix(r['edition'])}" if r["dimension"] == primary else
                f"{r['dimension']} = {r['level']} | {primary} = {r['stratum']}{edition_suffix(r['edition'])}")
           for r in values]
    fields = {"d_margin": "Δ margin", "d_win": "Δ win", "vs_rest": "vs the rest"}
    rows = [dict(r, notes=_notes(r, fields)) for r in values]
    rules = [dict(r, notes=_notes(r, {"gain_margin": "gain, points", "gain_win": "gain, win",
                                      "share_of_best": "share"}))
             for r in rep.get(f"rules_{kind}", [])]
    boots = (f"{rules[0]['boots']} resamples of the blocks, seed {rules[0]['seed']}" if rules
             else "resamples of the blocks")
    return "".join([
        f"<h2>{html.escape(f'{title}, within {forks.PRIMARY_WORDS[kind]}')}</h2>"
        f"<p class='note'>Forked: {html.escape(forks.FORKED[kind])}. Both branches finished by "
        f"the same players with the same random streams. Positive: the messenger is better. "
        f"Δ margin: the deciding seat's final score minus the best other score, the first "
        f"option's branch minus the second's; every value is a mean over forks (each fork "
        f"weighs the same), with standard errors clustered by block. "
        f"Every context is given within each level of {html.escape(forks.PRIMARY_WORDS[kind])} "
        f"({html.escape(primary)}: its stratum): "
        f"the value there, the share of the level's forks the stratum holds, and the level "
        f"against the rest of its stratum (a block-clustered regression within the stratum: "
        f"the context's own effect). A context with one level at every fork of its stratum is "
        f"not listed{html.escape(': ' + '; '.join(left_out)) if left_out else ''}. An interval "
        f"below {forks.MIN_BLOCKS} blocks, or one of zero width, is not given: the notes say "
        f"why.</p>",
        figures.forest(ctx, "label", "d_margin", "d_margin_low", "d_margin_high",
                       f"messenger − {other}, within {primary}",
                       "difference in final margin (points)", min_blocks=MIN_BLOCKS_SHOWN),
        figures.forest(ctx, "label", "d_win", "d_win_low", "d_win_high",
                       f"messenger − {other}, within {primary}", "difference in win probability",
                       bounds=(-1, 1), min_blocks=MIN_BLOCKS_SHOWN),
        f"<h3>{html.escape(f'Contexts within {forks.PRIMARY_WORDS[kind]}')}</h3>",
        _table(rows, [("edition", "edition"), ("stratum", primary), ("dimension", "context"),
                      ("level", "level"), ("forks", "forks"), ("blocks", "blocks"),
                      ("level_share", "share of the level's forks"), ("d_margin", "Δ margin"),
                      ("d_margin_low", "low"), ("d_margin_high", "high"),
                      ("d_margin_p_holm", "Holm p"), ("d_win", "Δ win"), ("d_win_low", "low"),
                      ("d_win_high", "high"), ("d_win_p_holm", "Holm p (win)"),
                      ("vs_rest", "vs the rest of the stratum"), ("vs_rest_low", "low"),
                      ("vs_rest_high", "high"), ("vs_rest_p_holm", "Holm p (vs the rest)"),
                      ("notes", "notes")]),
        f"<h3>Rules of thumb (gain over never taking the messenger, per fork; 95% "
        f"block-bootstrap intervals, {html.escape(boots)})</h3>",
        _table(rules, [("edition", "edition"), ("rule", "rule"), ("takes_first", "takes messenger"),
                       ("gain_margin", "gain, points"), ("gain_margin_low", "low"),
                       ("gain_margin_high", "high"), ("gain_win", "gain, win"),
                       ("gain_win_low", "low"), ("gain_win_high", "high"),
                       ("share_of_best", "share of the best context rule"),
                       ("share_of_best_low", "low"), ("share_of_best_high", "high"),
                       ("notes", "notes")])])


def _blocks_needed(rep: dict) -> str:
    """The blocks the config's question needs (report.py blocks_needed), in words."""
    b = rep.get("blocks_needed")
    if not b:
        return ""
    unit = "percentage points" if b["unit"] == "win share" else "points"
    scale = 100 if b["unit"] == "win share" else 1
    needs = "; ".join(f"±{n['half_width'] * scale:g} {unit}: {n['blocks']:,} blocks" for n in b["needed"])
    return (f"<p id='blocks-needed'>Blocks needed for this question, from its least precise answer "
            f"('{html.escape(b['label'])}', ±{b['half_width'] * scale:.2g} {unit} over "
            f"{b['blocks']:,} blocks; {SHRINKS[b.get('bound', 'spread')]}): {html.escape(needs)}.</p>")


SHRINKS = {"spread": "half-widths shrink as 1/√blocks",
           "exact": "an exact bound, as no block differed: it shrinks as 1/blocks"}


def _sweep_section(rep: dict) -> list[str]:
    """The sweep's curves (sim/analysis/sweep.py): one chart per metric, a line per
    edition; one chart of message values per edition, a line per action; and the table
    of every point."""
    sw, knob = rep["sweep"], rep["sweep"]["knob"]
    out = [f"<h2>Sweep over {html.escape(knob)}</h2><p class='note'>Every block is played under each "
           f"value ({html.escape(', '.join(map(str, sw['values'])))}) on the same tiles; each point "
           f"is a mean of block means with its 95% t interval over blocks (a player's win share: "
           f"a share of its seats with the score interval over blocks); points over fewer than "
           f"{MIN_BLOCKS_SHOWN} blocks are left out of the charts.</p>",
           f"<p class='note' id='pooled-note'>{html.escape(rep['pooled_note'])}</p>"]
    for metric in dict.fromkeys(c["metric"] for c in sw["curves"]):
        cs = [c for c in sw["curves"] if c["metric"] == metric]
        share = metric in ("seat0_win", "player_win")
        bounds = (0.0, 1.0) if share else (0.0, math.inf)
        reference = 1 / rep["provenance"]["config"]["rules"]["players"] if share else None
        label = (lambda c: c["player"] + (f" ({c['edition']})" if c["edition"] else "")) \
            if metric == "player_win" else (lambda c: c["edition"] or c["words"])
        out.append(figures.curves([dict(c, label=label(c)) for c in cs], knob,
                                  "win share by player" if metric == "player_win" else cs[0]["words"],
                                  cs[0]["unit"], reference, bounds))
    for edition in dict.fromkeys(m["edition"] for m in sw["message_curves"]):
        ms = [dict(m, label=m["action"]) for m in sw["message_curves"] if m["edition"] == edition]
        out.append(figures.curves(ms, knob, f"message values ({edition}): action − {knob} points",
                                  "difference in final margin (points)", 0.0))
    rows = [dict(p, curve=f"{c['words']}{', ' + c['edition'] if c['edition'] else ''}", knob=p["value"])
            for c in sw["curves"] for p in c["points"]]
    rows += [dict(p, curve=f"{m['action']} − {knob} points ({m['edition']})", knob=p["value"])
             for m in sw["message_curves"] for p in m["points"]]
    out.append(_table(rows, [("curve", "curve"), ("knob", knob), ("estimate", "estimate"),
                             ("low", "95% low"), ("high", "95% high"), ("blocks", "blocks")],
                      "sweep-table"))
    if sw["message_curves"]:
        out.append("<h3>Break-even</h3>" + _table(
            [{"message": f"{m['action']} ({m['edition']})", "break_even": bound_words(m["break_even"])}
             for m in sw["message_curves"]], [("message", "message"), ("break_even", f"{knob} where it is worth its alternative")]))
    return out


def render_html(rep: dict) -> str:
    prov = rep["provenance"]
    cfg = prov["config"]
    title = f"carcsim report: {cfg['name']}"
    # [design] editions, else the edition of the part with editions (The Messages')
    editions = (", ".join(cfg["design"]["editions"])
                or cfg["rules"][expansions.EDITIONED.options.field]["edition"])
    share = "win share (1 = always wins; a shared win counts 1/winners)"
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}"
             f"</title><style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>",
             f"<p class='note'>{prov['games_stored']} of {prov['games_planned']} planned games, "
             f"{prov['blocks_stored']} blocks · design {html.escape(cfg['design']['kind'])} · "
             f"{cfg['rules']['players']} players · {html.escape('+'.join(cfg['rules']['expansions']) or 'base game')}"
             f" · edition(s) {html.escape(editions)}</p>",
             f"<p id='unit-note'>{html.escape(rep['unit_note'])}</p>",
             "<h2>Headline</h2>",
             _table(rep["headline"], [("question", "question"), ("estimate", "estimate"),
                                      ("low", "95% low"), ("high", "95% high"), ("p", "p"),
                                      ("p_adjusted", "p adjusted (Holm, in family)"),
                                      ("p_fdr", "q (Benjamini–Hochberg, report-wide)"),
                                      ("games", "games"), ("blocks", "blocks"),
                                      ("family", "family"), ("label", "note")], "headline-table"),
             "<p class='note'>Win shares count a shared win as 1/winners. Differences between arms "
             "are paired by block (same seeds). p adjusted: Holm over the row's family.</p>",
             f"<p class='note' id='multiplicity'>{html.escape(rep['multiplicity']['note'])}</p>"
             if rep.get("multiplicity") else "",
             f"<p class='note' id='sprt-note'>{html.escape(rep['sprt_note'])}</p>"
             if rep.get("sprt_note") else "",
             _blocks_needed(rep)]
    # each section in turn; the one the config's question asks comes first (its first
    # chart is the question's), the others in this order
    sections: dict[str, list[str]] = {}
    sections["seats"] = [
             "<h2>Seats</h2>",
             figures.forest([dict(r, label=f"seat {r['seat']} ({r['players']} players)")
                             for r in rep["seat"]], "label", "win_share", "low", "high",
                            "win share by seat", share, 1 / cfg["rules"]["players"], bounds=(0, 1),
                            min_blocks=MIN_BLOCKS_SHOWN),
             _table(rep["seat"], [("players", "players"), ("seat", "seat"), ("games", "games"),
                                  ("blocks", "blocks"), ("win_share", "win share"), ("low", "low"),
                                  ("high", "high"), ("p", "p (vs 1/players)"), ("p_holm", "Holm p"),
                                  ("score", "score"),
                                  ("margin", "margin"), ("rank_1", "rank 1"), ("rank_2", "rank 2")]),
             _table(rep["seat_test"], [("players", "players"), ("F", "F (Hotelling T²)"),
                                       ("dof1", "dof 1"), ("dof2", "dof 2"), ("p", "p"),
                                       ("blocks", "blocks")]),
             "<h3>By strategy</h3>",
             _table(rep["seat_by_player"], [("players", "players"), ("player", "player"), ("seat", "seat"),
                                            ("games", "games"), ("blocks", "blocks"),
                                            ("win_share", "win share"), ("low", "low"),
                                            ("high", "high"), ("p_holm", "Holm p (vs 1/players)"),
                                            ("score", "score")])]
    if rep.get("pairwise"):
        sections["matchups"] = ["<h2>Matchups</h2>", figures.heatmap(rep["pairwise"]),
                  _table(rep["pairwise"], [("player", "player"), ("opponent", "opponent"),
                                           ("games", "games"), ("blocks", "blocks"),
                                           ("win_share", "win share"), ("low", "low"),
                                           ("high", "high"), ("p", "p (vs 0.5)"),
                                           ("p_holm", "Holm p"), ("elo", "Elo"),
                                           ("elo_low", "Elo low"), ("elo_high", "Elo high")]),
                  f"<h3>Bradley–Terry ratings (Elo scale, 95% bootstrap over blocks; prior "
                  f"{rep.get('rating_prior')} virtual wins each way per pair that met)</h3>",
                  figures.forest([dict(r, blocks=MIN_BLOCKS_SHOWN) for r in rep.get("ratings", [])],
                                 "player", "rating", "low", "high", "the rating ladder: one line per player",
                                 "rating (Elo scale; the pool's mean is 0)"),
                  _table(rep.get("ratings", []), [("player", "player"), ("rating", "rating"),
                                                  ("low", "low"), ("high", "high"),
                                                  ("bound", "interval")])]
    if rep.get("player_share"):  # three or more at a table, different strategies
        shares = [dict(r, label=f"{r['player']} ({r['players']} players)") for r in rep["player_share"]]
        sections.setdefault("matchups", []).extend([
                  "<h2>Strategies at tables of three or more</h2>",
                  figures.forest(shares, "label", "win_share", "low", "high",
                                 "each strategy's win share, every seat it sat in", "win share",
                                 1 / cfg["rules"]["players"], bounds=(0, 1), min_blocks=MIN_BLOCKS_SHOWN),
                  _table(rep["player_share"], [("players", "players"), ("player", "player"),
                                               ("games", "games"), ("seats", "seats"), ("blocks", "blocks"),
                                               ("win_share", "win share"), ("low", "low"), ("high", "high"),
                                               ("p", "p (vs 1/players)"), ("p_holm", "Holm p"),
                                               ("score", "score")]),
                  "<h3>Who finished ahead of whom</h3><p class='note'>For each pair of strategies, "
                  "the share of the games both sat in where the row's ended with more points "
                  "(equal points count 1/2); a strategy seated twice meets the other once per "
                  "seat (meetings).</p>",
                  figures.heatmap(rep["ahead"], "share", "share of games the row's spec finished ahead "
                                  "of the column's", "share finishing ahead (0.5 = even)"),
                  _table(rep["ahead"], [("players", "players"), ("player", "player"),
                                        ("opponent", "opponent"), ("games", "games"),
                                        ("meetings", "meetings"), ("blocks", "blocks"),
                                        ("share", "share ahead"), ("low", "low"), ("high", "high"),
                                        ("p", "p (vs 0.5)"), ("p_holm", "Holm p")])])
    if rep.get("arms"):
        arms = [dict(r, label=f"{r['arm']} ({r['edition']})") for r in rep["arms"]
                if r["arm"] != r["baseline"]]
        sections["arms"] = ["<h2>Arms against the baseline (paired by block)</h2>",
                  figures.forest(arms, "label", "d_win_share", "d_win_share_low", "d_win_share_high",
                                 "arm − baseline", "difference in win share (focal player)",
                                 bounds=(-1, 1), min_blocks=MIN_BLOCKS_SHOWN),
                  _table(rep["arms"], [("edition", "edition"), ("arm", "arm"), ("games", "games"),
                                       ("blocks", "blocks"), ("win_share", "win share"),
                                       ("d_win_share", "Δ win share"), ("d_win_share_low", "low"),
                                       ("d_win_share_high", "high"), ("d_win_share_p", "p"),
                                       ("d_win_share_p_holm", "Holm p"), ("d_score", "Δ score"),
                                       ("d_score_p_holm", "Holm p (score)"),
                                       ("d_margin", "Δ margin"), ("d_margin_p_holm", "Holm p (margin)"),
                                       ("messages_per_game", "messages/game"),
                                       ("live_share", "live figure decisions")])]
    if rep.get("counterfactual"):
        allp = [dict(r, label=f"{r['action']} ({r['edition']})") for r in rep["counterfactual"]
                if r["phase"] == "all"]
        sections["message values"] = ["<h2>Message values: action against 2 points (counterfactual branches)</h2>"
                  "<p class='note'>At every message drawn, the game is played on twice from that "
                  "moment by the same players: once with the action, once with 2 points. Δ margin: "
                  "the drawer's final score minus the best other score, action branch minus 2-points "
                  "branch; Δ win: the same for its win share. Each value is a mean of block means "
                  "(each block weighs the same) over the draws of every seat, whoever played it.</p>",
                  figures.forest(allp, "label", "d_margin", "d_margin_low", "d_margin_high",
                                 "action − 2 points: drawer's final margin",
                                 "difference in final margin (points)", min_blocks=MIN_BLOCKS_SHOWN),
                  figures.forest(allp, "label", "d_win", "d_win_low", "d_win_high",
                                 "action − 2 points: drawer's win probability",
                                 "difference in win probability", bounds=(-1, 1),
                                 min_blocks=MIN_BLOCKS_SHOWN),
                  _table(rep["counterfactual"], [("edition", "edition"), ("action", "action"),
                                                 ("phase", "phase"), ("games", "games"),
                                                 ("blocks", "blocks"), ("draws", "draws"),
                                                 ("d_margin", "Δ margin"), ("d_margin_low", "low"),
                                                 ("d_margin_high", "high"),
                                                 ("d_margin_p_holm", "Holm p"), ("d_win", "Δ win"),
                                                 ("d_win_low", "low"), ("d_win_high", "high"),
                                                 ("d_win_p_holm", "Holm p (win)"),
                                                 ("sd_block", "sd per block")])]
    if rep.get("variance_reduction"):
        sections.setdefault("message values", []).extend(["<h3>Extra tile or turn: the aligned 2-points branch</h3><p class='note'>Taking "
                  "message 4 hands every later tile to the other player; the aligned branch "
                  "rotates the stack after the fork so both branches give the same tiles to the "
                  "same players (same distribution, sim/tournament/counterfactual.py). The check "
                  "column (plain − aligned 2-points margin) is 0 in expectation. Values here are "
                  "means over forks (each fork weighs the same), the message values above means "
                  "of block means (each block weighs the same): with few forks a block the two "
                  "differ, within their intervals, and may differ in sign.</p>",
                  _table(rep["variance_reduction"], [
                      ("edition", "edition"), ("action", "action"), ("forks", "forks"),
                      ("plain", "plain Δ margin"), ("plain_low", "low"), ("plain_high", "high"),
                      ("sd_plain", "paired sd, plain"), ("aligned", "aligned Δ margin"),
                      ("aligned_low", "low"), ("aligned_high", "high"),
                      ("sd_aligned", "paired sd, aligned"), ("check", "check"),
                      ("check_p", "check p")])])
    sections["forks"] = [fork_section(rep, kind) for kind in FORK_TITLES]
    if rep.get("naive_messages"):
        sections["naive"] = ["<h2>Messages when drawn (confounded)</h2><p class='note'>Players who drew a "
                  "message scored to draw it: this difference mixes the message's value with the "
                  "drawer's play. Use restricted play or the counterfactual design for values.</p>",
                  _table(rep["naive_messages"], [("edition", "edition"), ("action", "action"),
                                                 ("drawers", "drawers"), ("blocks", "blocks"),
                                                 ("d_win_share", "Δ win share"),
                                                 ("d_win_share_low", "low"), ("d_win_share_high", "high"),
                                                 ("d_win_share_p_holm", "Holm p")])]
    if rep.get("sweep"):
        sections[rep.get("question", "sweep seats")] = _sweep_section(rep)  # the sweep's question leads
    if rep.get("convergence"):
        sections["convergence"] = ["<h2>Convergence</h2>", figures.convergence(rep["convergence"])]
    first = rep.get("question", "seats")
    for name in (first, *(n for n in sections if n != first)):
        parts += sections.get(name, [])
    parts += ["<h2>Provenance</h2>",
              f"<p>code {html.escape(str(prov['code_version']))} · record schema "
              f"{prov['schema_version']} · ruleset {html.escape(str(prov['ruleset']))} · "
              f"seed {cfg['seed']} · created {html.escape(str(prov['created']))} · fingerprint "
              f"{html.escape(str(prov['fingerprint']))}</p>",
              f"<pre>{html.escape(json.dumps(cfg, indent=1))}</pre>",
              "<script type='application/json' id='headline'>"
              + json.dumps(rep["headline"]).replace("</", "<\\/") + "</script>",
              "<script>const rows = JSON.parse(document.getElementById('headline').textContent);"
              "document.title += ' (' + rows.length + ' answers)';"
              "console.info('carcsim report ready: ' + rows.length + ' headline rows');</script>",
              "</body></html>"]
    return "".join(parts)
