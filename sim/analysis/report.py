"""`carcsim report RUN_DIR`: the run's answers with error bars.

`build()` gathers every table that applies to the run's design (sim/analysis/balance.py)
and a headline table: one row per question, with estimate, 95% interval, games, blocks
and test. `render_text()` is the terminal summary; `render_html()` writes one
self-contained page (inline CSS and SVG, no external assets) whose numbers are the
same values, also embedded as JSON for scripts and tests.
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path

import numpy as np
import polars as pl

from sim.analysis import balance, stats
from sim.analysis.summary import load
from sim.messages import ALL_ACTIONS
from sim.tournament.sink import read_manifest


def _row(question, est, low, high, games, blocks, test) -> dict:
    clean = (lambda v: None if v is None or (isinstance(v, float) and not math.isfinite(v))
             else float(v))
    return {"question": question, "estimate": clean(est), "low": clean(low), "high": clean(high),
            "games": int(games), "blocks": int(blocks), "test": test}


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


def build(run_dir: str | Path) -> dict:
    """Every analysis the run supports, and the headline table."""
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

    seat = balance.seat_advantage(games, players)
    test = balance.seat_test(seat)
    out["seat"] = seat.to_dicts()
    out["seat_by_player"] = balance.seat_by_player(games, players).to_dicts()
    out["seat_test"] = test.to_dicts()
    for t in test.iter_rows(named=True):
        s0 = seat.filter((pl.col("players") == t["players"]) & (pl.col("seat") == 0)).row(0, named=True)
        headline.append(_row(f"seat 0 win share, {t['players']} players", s0["win_share"], s0["low"],
                             s0["high"], s0["games"], s0["blocks"], f"χ² all seats equal: p = {t['p']:.3g}"))

    pw = balance.pairwise(players)
    out["pairwise"] = pw.to_dicts()
    if pw.height:
        out["ratings"] = balance.ratings(players, games).to_dicts()
        for r in pw.iter_rows(named=True):
            if r["player"] < r["opponent"]:
                headline.append(_row(f"{r['player']} vs {r['opponent']}: win share", r["win_share"],
                                     r["low"], r["high"], r["games"], blocks,
                                     f"Elo {r['elo']:+.0f} [{r['elo_low']:+.0f}, {r['elo_high']:+.0f}]"
                                     if math.isfinite(r["elo"]) else "Elo ±∞"))

    convergence_source = None
    if cfg["design"]["kind"] == "variants":
        arms = balance.arm_effects(games, players)
        out["arms"] = arms.to_dicts()
        for r in arms.filter(pl.col("arm") != pl.col("baseline")).iter_rows(named=True):
            headline.append(_row(f"{r['arm']} − {r['baseline']}: win share ({r['edition']})",
                                 r["d_win_share"], r["d_win_share_low"], r["d_win_share_high"],
                                 r["blocks"] * cfg["rules"]["players"], r["blocks"],
                                 f"Holm p = {r['d_win_share_p_holm']:.3g}"))
        if arms.height:
            convergence_source = _arm_blocks(games, players, arms.row(0, named=True)["baseline"])
    else:
        s0 = players.filter(pl.col("seat") == 0).join(games.select("game_id", "block"), on="game_id")
        per = s0.group_by("block").agg(pl.col("win_share").mean()).sort("block")["win_share"].to_numpy()
        convergence_source = ("seat 0 win share", per)
    if convergence_source is not None:
        label, values = convergence_source
        out["convergence"] = {"label": label, "points": _convergence(values)}
        sd = float(np.std(values, ddof=1)) if len(values) > 1 else math.nan
        out["sample_size"] = {"label": label, "sd_per_block": sd,
                              "blocks_for_1pp": stats.sample_size_for_sd(0.01, sd) if sd > 0 else None,
                              "blocks_for_2pp": stats.sample_size_for_sd(0.02, sd) if sd > 0 else None}

    if "messages" in cfg["rules"]["expansions"]:
        out["naive_messages"] = balance.naive_message_values(games, players, list(ALL_ACTIONS)).to_dicts()
    cf_dir = Path(run_dir) / "counterfactuals"
    if cf_dir.exists():
        cf = balance.counterfactual_values(load(run_dir, "counterfactuals"))
        out["counterfactual"] = cf.to_dicts()
        for r in cf.filter(pl.col("phase") == "all").iter_rows(named=True):
            headline.append(_row(f"{r['action']} − 2 points: final margin ({r['edition']})",
                                 r["d_margin"], r["d_margin_low"], r["d_margin_high"], r["games"],
                                 blocks, f"Holm p = {r['d_margin_p_holm']:.3g}"))
    if manifest.get("sprt"):
        d = manifest["sprt"]
        outcomes = balance.block_outcomes(games, players, d["arm"], d["baseline"])
        first = [outcomes[b] for b in range(d["blocks"])]
        low, high = stats.wilson(sum(first), len(first))
        against = d["baseline"] or "its opponents"
        headline.append(_row(f"SPRT {d['arm']} vs {against}: block outcome", float(np.mean(first)),
                             low, high, games.filter(pl.col("block") < d["blocks"]).height,
                             d["blocks"], f"SPRT {d['decision']} (p1 = {d['p1']}) after "
                                          f"{d['blocks']} blocks, LLR {d['llr']:.2f}, bounds "
                                          f"±{d['upper']:.2f}"))
        out["sprt"] = d
    out["headline"] = headline
    return out


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


def render_text(rep: dict) -> str:
    cfg = rep["provenance"]["config"]
    lines = [f"run {cfg['name']}: {rep['provenance']['games_stored']} games in "
             f"{rep['provenance']['blocks_stored']} blocks, design {cfg['design']['kind']}, "
             f"rules {cfg['rules']['players']}p {'+'.join(cfg['rules']['expansions']) or 'base'}",
             f"{'question':58} {'estimate':>9} {'95% interval':>19} {'games':>7} {'blocks':>6}  test"]
    for h in rep["headline"]:
        lines.append(f"{h['question'][:58]:58} {_fmt(h['estimate']):>9} "
                     f"[{_fmt(h['low'])}, {_fmt(h['high'])}]".ljust(89)
                     + f" {h['games']:>7} {h['blocks']:>6}  {h['test']}")
    ss = rep.get("sample_size")
    if ss and ss["blocks_for_1pp"]:
        lines.append(f"blocks for ±1 pp on '{ss['label']}': {ss['blocks_for_1pp']} "
                     f"(±2 pp: {ss['blocks_for_2pp']})")
    return "\n".join(lines)


# ---------------------------------------------------------------- HTML

CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:3px 8px;border-bottom:1px solid #eee;
text-align:right}th{background:#f4f4f4}td:first-child,th:first-child{text-align:left}
.note{color:#666;font-size:.9em}pre{background:#f7f7f7;padding:8px;overflow:auto;font-size:12px}
"""


def _table(rows: list[dict], cols: list[tuple[str, str]], table_id: str = "") -> str:
    if not rows:
        return "<p class='note'>none</p>"
    head = "".join(f"<th>{html.escape(label)}</th>" for _, label in cols)
    body = []
    for r in rows:
        cells = []
        for key, _ in cols:
            v = r.get(key)
            if isinstance(v, float):
                v = "—" if not math.isfinite(v) else f"{v:.3f}"
            cells.append(f"<td>{html.escape(str(v))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    tid = f" id='{table_id}'" if table_id else ""
    return f"<table{tid}><tr>{head}</tr>{''.join(body)}</table>"


def _forest(rows: list[dict], label, est, low, high, title: str) -> str:
    """A forest plot: one line per row, point and 95% interval, zero marked."""
    rows = [r for r in rows if r.get(est) is not None and math.isfinite(r[est])
            and math.isfinite(r.get(low, math.nan)) and math.isfinite(r.get(high, math.nan))]
    if not rows:
        return ""
    lo = min(min(r[low] for r in rows), 0.0)
    hi = max(max(r[high] for r in rows), 0.0)
    span = (hi - lo) or 1.0
    w, left, rowh = 760, 300, 22
    h = rowh * len(rows) + 40
    x = lambda v: left + (v - lo) / span * (w - left - 20)  # noqa: E731
    parts = [f"<svg width='{w}' height='{h}' role='img' aria-label='{html.escape(title)}'>",
             f"<line x1='{x(0):.1f}' x2='{x(0):.1f}' y1='10' y2='{h - 25}' stroke='#999' stroke-dasharray='3,3'/>"]
    for i, r in enumerate(rows):
        y = 20 + i * rowh
        parts.append(f"<text x='5' y='{y + 4}' font-size='12'>{html.escape(str(r[label]))[:45]}</text>"
                     f"<line x1='{x(r[low]):.1f}' x2='{x(r[high]):.1f}' y1='{y}' y2='{y}' stroke='#2563eb' stroke-width='2'/>"
                     f"<circle cx='{x(r[est]):.1f}' cy='{y}' r='4' fill='#1e3a8a'><title>{r[est]:.3f} "
                     f"[{r[low]:.3f}, {r[high]:.3f}]</title></circle>")
    parts.append(f"<text x='{x(lo):.1f}' y='{h - 8}' font-size='11'>{lo:.3f}</text>"
                 f"<text x='{x(hi) - 30:.1f}' y='{h - 8}' font-size='11'>{hi:.3f}</text></svg>")
    return "".join(parts)


def _heatmap(pairs: list[dict]) -> str:
    names = sorted({p["player"] for p in pairs} | {p["opponent"] for p in pairs})
    if len(names) < 2:
        return ""
    cell, left, top = 46, 260, 20
    n = len(names)
    wins = {(p["player"], p["opponent"]): p["win_share"] for p in pairs}
    parts = [f"<svg width='{left + cell * n + 10}' height='{top + cell * n + 10}' role='img' "
             f"aria-label='win matrix'>"]
    for i, a in enumerate(names):
        parts.append(f"<text x='5' y='{top + i * cell + cell / 2 + 4}' font-size='12'>"
                     f"{html.escape(a)[:36]}</text>")
        for j, b in enumerate(names):
            v = wins.get((a, b))
            if v is None:
                color, text = "#eee", ""
            else:  # diverging: red below 0.5, grey at 0.5, blue above
                t = min(1.0, abs(v - 0.5) * 2)
                end = (37, 99, 235) if v >= 0.5 else (220, 38, 38)
                rgb = [int(200 + (c - 200) * t) for c in end]
                color, text = f"rgb({rgb[0]},{rgb[1]},{rgb[2]})", f"{v:.2f}"
            parts.append(f"<rect x='{left + j * cell}' y='{top + i * cell}' width='{cell - 2}' "
                         f"height='{cell - 2}' fill='{color}'><title>{html.escape(a)} vs "
                         f"{html.escape(b)}: {text}</title></rect><text x='{left + j * cell + 8}' "
                         f"y='{top + i * cell + cell / 2 + 4}' font-size='11' fill='#fff'>{text}</text>")
    parts.append("</svg>")
    return "".join(parts)


def _convergence_svg(conv: dict) -> str:
    pts = [p for p in conv["points"] if all(math.isfinite(p[k]) for k in ("estimate", "low", "high"))]
    if len(pts) < 2:
        return ""
    w, h, pad = 760, 220, 40
    xs = [p["blocks"] for p in pts]
    lo, hi = min(p["low"] for p in pts), max(p["high"] for p in pts)
    span = (hi - lo) or 1.0
    x = lambda v: pad + (v - xs[0]) / ((xs[-1] - xs[0]) or 1) * (w - 2 * pad)  # noqa: E731
    y = lambda v: h - pad - (v - lo) / span * (h - 2 * pad)  # noqa: E731
    band = " ".join(f"{x(p['blocks']):.1f},{y(p['high']):.1f}" for p in pts) + " " + " ".join(
        f"{x(p['blocks']):.1f},{y(p['low']):.1f}" for p in reversed(pts))
    line = " ".join(f"{x(p['blocks']):.1f},{y(p['estimate']):.1f}" for p in pts)
    return (f"<svg width='{w}' height='{h}' role='img' aria-label='convergence'>"
            f"<polygon points='{band}' fill='#bfdbfe'/><polyline points='{line}' fill='none' "
            f"stroke='#1e3a8a' stroke-width='2'/><text x='{pad}' y='15' font-size='12'>"
            f"{html.escape(conv['label'])} by blocks (95% band)</text>"
            f"<text x='{pad}' y='{h - 10}' font-size='11'>{xs[0]} blocks</text>"
            f"<text x='{w - pad - 60}' y='{h - 10}' font-size='11'>{xs[-1]} blocks</text>"
            f"<text x='2' y='{y(hi) + 4:.1f}' font-size='10'>{hi:.3f}</text>"
            f"<text x='2' y='{y(lo):.1f}' font-size='10'>{lo:.3f}</text></svg>")


def render_html(rep: dict) -> str:
    prov = rep["provenance"]
    cfg = prov["config"]
    title = f"carcsim report: {cfg['name']}"
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}"
             f"</title><style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>",
             f"<p class='note'>{prov['games_stored']} of {prov['games_planned']} planned games, "
             f"{prov['blocks_stored']} blocks · design {html.escape(cfg['design']['kind'])} · "
             f"{cfg['rules']['players']} players · {html.escape('+'.join(cfg['rules']['expansions']) or 'base game')}"
             f" · edition(s) {html.escape(', '.join(cfg['design']['editions']) or cfg['rules']['messages']['edition'])}</p>",
             "<h2>Headline</h2>",
             _table(rep["headline"], [("question", "question"), ("estimate", "estimate"),
                                      ("low", "95% low"), ("high", "95% high"), ("games", "games"),
                                      ("blocks", "blocks"), ("test", "test")], "headline-table"),
             "<p class='note'>Win shares count a shared win as 1/winners. Differences between arms are paired by block (same seeds); standard errors are across blocks.</p>",
             "<h2>Seats</h2>",
             _table(rep["seat"], [("players", "players"), ("seat", "seat"), ("games", "games"),
                                  ("win_share", "win share"), ("low", "low"), ("high", "high"),
                                  ("score", "score"), ("margin", "margin"), ("rank_1", "rank 1"),
                                  ("rank_2", "rank 2")]),
             _table(rep["seat_test"], [("players", "players"), ("chi2", "χ²"), ("dof", "dof"), ("p", "p")]),
             "<h3>By strategy</h3>",
             _table(rep["seat_by_player"], [("players", "players"), ("player", "player"), ("seat", "seat"),
                                            ("games", "games"), ("win_share", "win share"),
                                            ("low", "low"), ("high", "high"), ("score", "score")])]
    if rep.get("pairwise"):
        parts += ["<h2>Matchups</h2>", _heatmap(rep["pairwise"]),
                  _table(rep["pairwise"], [("player", "player"), ("opponent", "opponent"),
                                           ("games", "games"), ("win_share", "win share"),
                                           ("low", "low"), ("high", "high"), ("elo", "Elo"),
                                           ("elo_low", "Elo low"), ("elo_high", "Elo high")]),
                  "<h3>Bradley–Terry ratings (Elo scale, 95% bootstrap over blocks)</h3>",
                  _table(rep.get("ratings", []), [("player", "player"), ("rating", "rating"),
                                                  ("low", "low"), ("high", "high")])]
    if rep.get("arms"):
        arms = [dict(r, label=f"{r['arm']} ({r['edition']})") for r in rep["arms"]
                if r["arm"] != r["baseline"]]
        parts += ["<h2>Arms against the baseline (paired by block)</h2>",
                  _forest(arms, "label", "d_win_share", "d_win_share_low", "d_win_share_high",
                          "win share difference"),
                  _table(rep["arms"], [("edition", "edition"), ("arm", "arm"), ("blocks", "blocks"),
                                       ("win_share", "win share"), ("d_win_share", "Δ win share"),
                                       ("d_win_share_low", "low"), ("d_win_share_high", "high"),
                                       ("d_win_share_p_holm", "Holm p"), ("d_score", "Δ score"),
                                       ("messages_per_game", "messages/game"),
                                       ("live_share", "live figure decisions")])]
    if rep.get("counterfactual"):
        allp = [dict(r, label=f"{r['action']} ({r['edition']})") for r in rep["counterfactual"]
                if r["phase"] == "all"]
        parts += ["<h2>Message values: action against 2 points (counterfactual branches)</h2>",
                  _forest(allp, "label", "d_margin", "d_margin_low", "d_margin_high", "message values"),
                  _table(rep["counterfactual"], [("edition", "edition"), ("action", "action"),
                                                 ("phase", "phase"), ("games", "games"),
                                                 ("d_margin", "Δ margin"), ("d_margin_low", "low"),
                                                 ("d_margin_high", "high"), ("d_win", "Δ win"),
                                                 ("d_margin_p_holm", "Holm p")])]
    if rep.get("naive_messages"):
        parts += ["<h2>Messages when drawn (confounded)</h2><p class='note'>Players who drew a "
                  "message scored to draw it: this difference mixes the message's value with the "
                  "drawer's play. Use restricted play or the counterfactual design for values.</p>",
                  _table(rep["naive_messages"], [("edition", "edition"), ("action", "action"),
                                                 ("drawers", "drawers"), ("d_win_share", "Δ win share")])]
    if rep.get("convergence"):
        parts += ["<h2>Convergence</h2>", _convergence_svg(rep["convergence"])]
        ss = rep.get("sample_size")
        if ss and ss.get("blocks_for_1pp"):
            parts.append(f"<p>Blocks needed for a ±1 percentage point interval on "
                         f"'{html.escape(ss['label'])}': {ss['blocks_for_1pp']} "
                         f"(±2 pp: {ss['blocks_for_2pp']}).</p>")
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
