"""Pictures of a game: the board as one SVG, and a step-through HTML page.

Every tile is drawn from its tile data (no artwork): green field, brown city areas
(each city segment as wedges from its edges to the centre, or a cap for one edge),
roads and the river as lines from edge midpoints to the centre, a monastery, coats of
arms, letter symbols, town halls. Figures are drawn in their player's colour, shaped
by kind; with The Messages both scoring figures of each player stand on a 50-space
scoreboard strip. Each tile's `<title>` gives its turn and notation, so hovering over
it tells when it was placed. The output depends only on the game, so a fixed scripted
game draws the same bytes every time (the golden test relies on this).
"""

from __future__ import annotations

import html
import json

from sim.board import MAX_SEGS
from sim.game import FIGURE_KINDS, Game
from sim.notation import placement_text
from sim.tiles import Tile

S = 64  # pixels per tile
COLOURS = ("#d62728", "#1f77b4", "#e7ba00", "#2ca02c", "#111111", "#9467bd")
FIELD, CITY, ROAD, RIVER = "#a6c96a", "#b5804f", "#f4efe4", "#4a90d9"
# corners of each edge, clockwise, in unit tile coordinates (0,0 top-left)
EDGE_CORNERS = {0: ((0, 0), (1, 0)), 1: ((1, 0), (1, 1)), 2: ((1, 1), (0, 1)), 3: ((0, 1), (0, 0))}
EDGE_MID = {0: (0.5, 0), 1: (1, 0.5), 2: (0.5, 1), 3: (0, 0.5)}
HALF_POINT = {0: (0.25, 0.1), 1: (0.75, 0.1), 2: (0.9, 0.25), 3: (0.9, 0.75),
              4: (0.75, 0.9), 5: (0.25, 0.9), 6: (0.1, 0.75), 7: (0.1, 0.25)}


def _pt(ox: float, oy: float, p) -> str:
    return f"{ox + p[0] * S:.1f},{oy + p[1] * S:.1f}"


def _tile_svg(tile: Tile, ox: float, oy: float, label: str) -> str:
    out = [f"<g><title>{html.escape(label)}</title>",
           f"<rect x='{ox}' y='{oy}' width='{S}' height='{S}' fill='{FIELD}' stroke='#6b8e3a' "
           f"stroke-width='0.5'/>"]
    if tile.id == "townhall":
        out.append(f"<rect x='{ox + 8}' y='{oy + 8}' width='{S - 16}' height='{S - 16}' fill='#888' "
                   f"stroke='#333'/><text x='{ox + S / 2}' y='{oy + S / 2 + 4}' font-size='12' "
                   f"text-anchor='middle' fill='#fff'>TH</text></g>")
        return "".join(out)
    for seg in tile.segments:
        if seg.kind != "city":
            continue
        edges = sorted(seg.edges)
        if len(edges) == 1:
            (a, b) = EDGE_CORNERS[edges[0]]
            mx, my = EDGE_MID[edges[0]]
            ctrl = (mx + (0.5 - mx) * 0.9, my + (0.5 - my) * 0.9)
            out.append(f"<path d='M{_pt(ox, oy, a)} Q{_pt(ox, oy, ctrl)} {_pt(ox, oy, b)} Z' fill='{CITY}'/>")
        else:
            for e in edges:
                a, b = EDGE_CORNERS[e]
                out.append(f"<polygon points='{_pt(ox, oy, a)} {_pt(ox, oy, b)} "
                           f"{_pt(ox, oy, (0.5, 0.5))}' fill='{CITY}' stroke='{CITY}'/>")
        if seg.coats:
            mx, my = EDGE_MID[edges[0]]
            cx, cy = mx + (0.5 - mx) * 0.45 + 0.12, my + (0.5 - my) * 0.45
            out.append(f"<path d='M{_pt(ox, oy, (cx - 0.07, cy - 0.07))} h{0.14 * S:.1f} v{0.08 * S:.1f} "
                       f"l{-0.07 * S:.1f},{0.07 * S:.1f} l{-0.07 * S:.1f},{-0.07 * S:.1f} Z' "
                       f"fill='#1f4aa8' stroke='#fff' stroke-width='0.8'/>")
    for e, ch in enumerate(tile.edges):
        if ch == "~":
            out.append(f"<line x1='{ox + EDGE_MID[e][0] * S}' y1='{oy + EDGE_MID[e][1] * S}' "
                       f"x2='{ox + S / 2}' y2='{oy + S / 2}' stroke='{RIVER}' stroke-width='7'/>")
    for seg in tile.segments:
        if seg.kind != "road":
            continue
        for e in sorted(seg.edges):
            out.append(f"<line x1='{ox + EDGE_MID[e][0] * S:.1f}' y1='{oy + EDGE_MID[e][1] * S:.1f}' "
                       f"x2='{ox + S / 2}' y2='{oy + S / 2}' stroke='{ROAD}' stroke-width='5' "
                       f"stroke-linecap='round'/>")
        if seg.end == "village":
            out.append(f"<rect x='{ox + S / 2 - 5}' y='{oy + S / 2 - 5}' width='10' height='10' "
                       f"fill='#fff' stroke='#555'/>")
    if any(s.kind == "monastery" for s in tile.segments):
        out.append(f"<rect x='{ox + S / 2 - 9}' y='{oy + S / 2 - 7}' width='18' height='16' fill='#eee' "
                   f"stroke='#555'/><path d='M{ox + S / 2 - 11},{oy + S / 2 - 7} l11,-9 l11,9 Z' "
                   f"fill='#b22222'/>")
    if tile.has("letter"):
        out.append(f"<text x='{ox + S - 12}' y='{oy + 14}' font-size='12'>✉</text>")
    out.append("</g>")
    return "".join(out)


def _figure_anchor(tile: Tile, local: int) -> tuple[float, float]:
    seg = tile.segments[local]
    if seg.kind == "monastery" or not seg.edges:
        return (0.5, 0.5) if seg.kind == "monastery" else (0.5, 0.62)
    if seg.kind == "field":
        return HALF_POINT[min(seg.edges)]
    mx, my = EDGE_MID[min(seg.edges)]
    k = 0.3 if seg.kind == "city" else 0.55
    return (mx + (0.5 - mx) * k, my + (0.5 - my) * k)


def _figure_svg(kind: str, colour: str, x: float, y: float, title: str, lying: bool = False) -> str:
    """follower: circle; mayor: diamond; messenger meeple: triangle; scarecrow: a cross
    standing, a bar lying down."""
    t = f"<title>{html.escape(title)}</title>"
    if kind == "follower":
        shape = f"<circle cx='{x:.1f}' cy='{y:.1f}' r='7' fill='{colour}' stroke='#fff' stroke-width='1.5'/>"
    elif kind == "mayor":
        shape = (f"<path d='M{x:.1f},{y - 9:.1f} l8,9 l-8,9 l-8,-9 Z' fill='{colour}' stroke='#fff' "
                 f"stroke-width='1.5'/>")
    elif kind == "messenger":
        shape = (f"<path d='M{x:.1f},{y - 8:.1f} l8,14 h-16 Z' fill='{colour}' stroke='#fff' "
                 f"stroke-width='1.5'/>")
    elif lying:
        shape = f"<rect x='{x - 9:.1f}' y='{y - 3:.1f}' width='18' height='6' fill='{colour}' stroke='#fff'/>"
    else:
        shape = (f"<path d='M{x - 6:.1f},{y - 6:.1f} l12,12 M{x + 6:.1f},{y - 6:.1f} l-12,12' "
                 f"stroke='{colour}' stroke-width='4'/>")
    return f"<g>{t}{shape}</g>"


def board_svg(game: Game, caption: str = "") -> str:
    """The board as it stands, with figures, scoreboard (The Messages) and scores."""
    tiles = game.board.tiles()
    xs = [t[2] for t in tiles]
    ys = [t[3] for t in tiles]
    minx, maxy = min(xs), max(ys)
    width = (max(xs) - minx + 1) * S + 20
    height = (maxy - min(ys) + 1) * S + 20
    top, left = 10, 10
    msg = game.msg
    strip = 70 if msg is not None else 0
    total_h = height + strip + 40
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{max(width, 520)}' height='{total_h}' "
             f"viewBox='0 0 {max(width, 520)} {total_h}' font-family='sans-serif'>",
             f"<rect width='100%' height='100%' fill='#fbfaf6'/>"]
    for i, (t, r, x, y) in enumerate(tiles):
        variant = game.catalogue.variant(t, r)
        ox, oy = left + (x - minx) * S, top + (maxy - y) * S
        label = (f"start: {placement_text(variant.id, x, y, r)}" if i == 0
                 else f"turn {i}: {placement_text(variant.id, x, y, r)}")
        parts.append(_tile_svg(variant, ox, oy, label))
    for _, f in game.board.figures():
        index, local = divmod(f.segment, MAX_SEGS)
        t, r, x, y = tiles[index]
        variant = game.catalogue.variant(t, r)
        ax, ay = _figure_anchor(variant, local)
        kind = FIGURE_KINDS[f.kind] if f.kind < len(FIGURE_KINDS) else f"kind {f.kind}"
        lying = kind == "scarecrow" and bool(f.scores)
        label = f"seat {f.player} {kind}{' (lying)' if lying else ''} {variant.segments[local].where()} @{x},{y}"
        parts.append(_figure_svg(kind, COLOURS[f.player], left + (x - minx + ax) * S,
                                 top + (maxy - y + ay) * S, label, lying))
    if getattr(game, "courier", None) is not None and game.courier.at is not None:
        cx, cy = game.courier.at
        px, py = left + (cx - minx + 0.82) * S, top + (maxy - cy + 0.82) * S
        parts.append(f"<g><title>the Courier @{cx},{cy}</title><path d='M{px - 8:.1f},{py:.1f} "
                     f"l8,-8 l8,8 l-8,8 Z' fill='#f59e0b' stroke='#7c2d12'/></g>")
    y0 = height + 10
    if msg is not None:
        cell = (max(width, 520) - 20) / 50
        for sp in range(50):
            fill = "#555" if sp % 5 == 0 else "#ddd"
            parts.append(f"<rect x='{left + sp * cell:.1f}' y='{y0}' width='{cell - 1:.1f}' height='14' "
                         f"fill='{fill}'><title>space {sp}</title></rect>")
        for s, p in enumerate(msg.players):
            for fig, pos in enumerate(p.position):
                cx = left + (pos % 50 + 0.5) * cell
                cy = y0 + 24 + s * 7 + fig * 3
                shape = (f"<circle cx='{cx:.1f}' cy='{cy:.1f}' r='4' fill='{COLOURS[s]}'/>" if fig == 0 else
                         f"<rect x='{cx - 4:.1f}' y='{cy - 4:.1f}' width='8' height='8' fill='{COLOURS[s]}'/>")
                name = ("scoring meeple", "messenger")[fig]
                parts.append(f"<g><title>seat {s} {name}: {pos}</title>{shape}</g>")
        y0 += strip
    scores = "  ".join(f"seat {s}: {v}" for s, v in enumerate(game.scores))
    for s in range(game.rules.players):
        parts.append(f"<circle cx='{left + 6 + s * 110}' cy='{y0 + 12}' r='6' fill='{COLOURS[s]}'/>"
                     f"<text x='{left + 16 + s * 110}' y='{y0 + 16}' font-size='13'>seat {s}: "
                     f"{game.scores[s]}</text>")
    if caption:
        parts.append(f"<text x='{left}' y='{y0 + 34}' font-size='12' fill='#555'>"
                     f"{html.escape(caption)}</text>")
    parts.append(f"<desc>{html.escape(scores)}</desc></svg>")
    return "".join(parts)


def turns_of(game: Game) -> int:
    """The number of tile placements in the game."""
    return len(game.board) - 1


def step_through_html(game: Game, title: str) -> str:
    """One self-contained page: the board after every turn, and a slider."""
    frames = []
    for t in range(0, turns_of(game) + 1):
        g = game.replayed(t) if t < turns_of(game) else game
        caption = "end of game" if t == turns_of(game) else f"after turn {t}"
        frames.append(board_svg(g, caption))
    data = json.dumps(frames).replace("</", "<\\/")
    n = len(frames) - 1
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}"
            f"</title><style>body{{font:14px sans-serif;margin:1.5em}}#board svg{{max-width:100%;"
            f"height:auto}}</style></head><body><h1>{html.escape(title)}</h1>"
            f"<p><input id='turn' type='range' min='0' max='{n}' value='{n}' style='width:60%'> "
            f"<span id='label'></span></p><div id='board'></div>"
            f"<script type='application/json' id='frames'>{data}</script><script>"
            "const frames = JSON.parse(document.getElementById('frames').textContent);"
            "const slider = document.getElementById('turn');"
            "function show(){const t = Number(slider.value);"
            "document.getElementById('board').innerHTML = frames[t];"
            f"document.getElementById('label').textContent = t === {n} ? 'end of game' : 'after turn ' + t;}}"
            "slider.addEventListener('input', show); show();"
            "console.info('carcsim game ready: ' + frames.length + ' frames');"
            "</script></body></html>")
