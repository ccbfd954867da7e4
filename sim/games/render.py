"""Pictures of a game: the board as one SVG, and a step-through HTML page.

Every tile is drawn from its tile data (no artwork): green field, brown city areas
(each city segment as wedges from its edges to the centre, or a cap for one edge),
roads as lines from edge midpoints to the centre, a monastery, coats of arms, and what
each expansion marks on its tiles (the river, letters, town halls, gardens: its
declaration's `marks`). Each tile type in each rotation is drawn once, in `<defs>`, and
placed with `<use>`, which keeps a whole game's page small. Figures are drawn in their
player's colour, shaped by kind (each part's `shapes`); a part's figures off the
features stand on their tile (`pieces`: the Courier), and its scoreboard figures on a
50-space scoreboard strip (`scoreboard`: The Messages' two). A legend under the board names
the seats (with their strategies, when known) and their scores, and shows the figure
shapes; the caption comes last, and the view box holds all of it. Each tile's
`<title>` gives its turn and notation, so hovering over it tells when it was placed.

The step-through page draws the final board's frame once: every tile (hidden until
its turn), and per turn only what changes (figures, scoreboard, scores, caption), so
every turn has the same size and the same board origin. The output depends only on the
game, so a fixed scripted game draws the same bytes every time (the golden test relies
on this).
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

from sim import expansions
from sim.engine.board import MAX_SEGS
from sim.engine.deal import FIGURE_KINDS
from sim.engine.game import Game
from sim.formats.log import event_line
from sim.formats.notation import placement_text
from sim.formats.tiles import CENTRE, Tile
from sim.engine.view import view_of
from sim.expansions.declaration import FIELD_GREEN

S = 64  # pixels per tile
MARGIN = 10
STRIP = 70  # the scoreboard strip's height, with The Messages
MIN_WIDTH = 560  # room for the legend under a small board
LINE = 18  # legend line height
CHAR = 7.2  # width of a 12 px sans-serif character (DejaVu Sans), to lay out the legend
SPEC_CHARS = 60  # a longer strategy spec is cut (in full in its <title>)
COLOURS = ("#d62728", "#1f77b4", "#e7ba00", "#2ca02c", "#111111", "#9467bd")
FIELD, CITY, ROAD = FIELD_GREEN, "#b5804f", "#f4efe4"
# every part's figure shapes by name, and tile marks by layer (sim/expansions/)
SHAPES = {name: shape for e in expansions.PARTS for name, shape in e.shapes.items()}
MARKS = {layer: tuple(m for e in expansions.PARTS for m in e.marks if m.layer == layer)
         for layer in ("alone", "under", "over")}
LEGEND_INK = "#666"
# corners of each edge, clockwise, in unit tile coordinates (0,0 top-left)
EDGE_CORNERS = {0: ((0, 0), (1, 0)), 1: ((1, 0), (1, 1)), 2: ((1, 1), (0, 1)), 3: ((0, 1), (0, 0))}
EDGE_MID = {0: (0.5, 0), 1: (1, 0.5), 2: (0.5, 1), 3: (0, 0.5)}
HALF_POINT = {0: (0.25, 0.1), 1: (0.75, 0.1), 2: (0.9, 0.25), 3: (0.9, 0.75),
              4: (0.75, 0.9), 5: (0.25, 0.9), 6: (0.1, 0.75), 7: (0.1, 0.25)}


def _pt(p) -> str:
    return f"{p[0] * S:.1f},{p[1] * S:.1f}"


def _tile_id(tile: Tile) -> str:
    return f"t-{tile.id}-{tile.rotation}"


def _tile_def(tile: Tile) -> str:
    """The tile's drawing at the origin, once per tile type and rotation."""
    out = [f"<g id='{_tile_id(tile)}'>",
           f"<rect width='{S}' height='{S}' fill='{FIELD}' stroke='#6b8e3a' stroke-width='0.5'/>"]
    alone = [m for m in MARKS["alone"] if m.shows(tile)]
    if alone:  # a tile of no segment (the town hall): its mark only
        return "".join([*out, alone[0].draw(tile, S), "</g>"])
    for seg in tile.segments:
        if seg.kind != "city":
            continue
        edges = sorted(seg.edges)
        if len(edges) == 1:
            (a, b) = EDGE_CORNERS[edges[0]]
            mx, my = EDGE_MID[edges[0]]
            ctrl = (mx + (0.5 - mx) * 0.9, my + (0.5 - my) * 0.9)
            out.append(f"<path d='M{_pt(a)} Q{_pt(ctrl)} {_pt(b)} Z' fill='{CITY}'/>")
        else:
            for e in edges:
                a, b = EDGE_CORNERS[e]
                out.append(f"<polygon points='{_pt(a)} {_pt(b)} {_pt((0.5, 0.5))}' fill='{CITY}' "
                           f"stroke='{CITY}'/>")
        if seg.coats:
            mx, my = EDGE_MID[edges[0]]
            cx, cy = mx + (0.5 - mx) * 0.45 + 0.12, my + (0.5 - my) * 0.45
            out.append(f"<path d='M{_pt((cx - 0.07, cy - 0.07))} h{0.14 * S:.1f} v{0.08 * S:.1f} "
                       f"l{-0.07 * S:.1f},{0.07 * S:.1f} l{-0.07 * S:.1f},{-0.07 * S:.1f} Z' "
                       f"fill='#1f4aa8' stroke='#fff' stroke-width='0.8'/>")
    out.extend(m.draw(tile, S) for m in MARKS["under"] if m.shows(tile))  # under the roads
    for seg in tile.segments:
        if seg.kind != "road":
            continue
        for e in sorted(seg.edges):
            out.append(f"<line x1='{EDGE_MID[e][0] * S:.1f}' y1='{EDGE_MID[e][1] * S:.1f}' "
                       f"x2='{S / 2}' y2='{S / 2}' stroke='{ROAD}' stroke-width='5' "
                       f"stroke-linecap='round'/>")
        if seg.end == "village":
            out.append(f"<rect x='{S / 2 - 5}' y='{S / 2 - 5}' width='10' height='10' fill='#fff' "
                       f"stroke='#555'/>")
    if any(s.kind == "monastery" for s in tile.segments):
        out.append(f"<rect x='{S / 2 - 9}' y='{S / 2 - 7}' width='18' height='16' fill='#eee' "
                   f"stroke='#555'/><path d='M{S / 2 - 11},{S / 2 - 7} l11,-9 l11,9 Z' "
                   f"fill='#b22222'/>")
    out.extend(m.draw(tile, S) for m in MARKS["over"] if m.shows(tile))
    out.append("</g>")
    return "".join(out)


def _figure_anchor(tile: Tile, local: int) -> tuple[float, float]:
    seg = tile.segments[local]
    if seg.kind in CENTRE or not seg.edges:
        return (0.5, 0.5) if seg.kind in CENTRE else (0.5, 0.62)
    if seg.kind == "field":
        return HALF_POINT[min(seg.edges)]
    mx, my = EDGE_MID[min(seg.edges)]
    k = 0.3 if seg.kind == "city" else 0.55
    return (mx + (0.5 - mx) * k, my + (0.5 - my) * k)


def _shape(kind: str, colour: str, x: float, y: float, lying: bool = False) -> str:
    """The figure `kind` as its part draws it (sim/expansions/ `shapes`); a figure no
    part draws is a cross."""
    shape = SHAPES.get(kind)
    if shape is not None:
        return shape.draw(colour, x, y, lying)
    return (f"<path d='M{x - 6:.1f},{y - 6:.1f} l12,12 M{x + 6:.1f},{y - 6:.1f} l-12,12' "
            f"stroke='{colour}' stroke-width='4'/>")


def _legend_items(game: Game) -> list[tuple[str, str, bool]]:
    """(shape kind, label, lying) for the figures this game can show: each part in
    play's shapes, in the registry's legend order."""
    parts = expansions.in_play(game.rules.expansions)
    return [(kind, words, lying) for e in expansions.LEGEND_ORDER if e in parts
            for kind, shape in e.shapes.items() for words, lying in shape.legend]


def _scoreboards(game: Game) -> tuple:
    """The parts in play that stand figures on the scoreboard strip (The Messages)."""
    return tuple(e for e in expansions.in_play(game.rules.expansions) if e.scoreboard is not None)


def _flow(labels: list[str], width: float) -> list[tuple[float, int]]:
    """(x, row) of each legend item, wrapped to `width`."""
    out, x, row = [], MARGIN, 0
    for label in labels:
        w = 26 + len(label) * CHAR
        if x + w > width - MARGIN and x > MARGIN:
            x, row = MARGIN, row + 1
        out.append((x, row))
        x += w
    return out


@dataclass(frozen=True)
class Frame:
    """Where things go: the board's grid origin and size, and the rows under it.
    A step-through page takes the final board's frame for every turn."""

    minx: int
    maxy: int
    width: float
    board_h: float
    strip: bool
    players: int
    legend: tuple  # (x, row) of each figure shape, see _flow
    legend_rows: int

    @classmethod
    def of(cls, game: Game) -> Frame:
        tiles = game.board.tiles()
        xs, ys = [t[2] for t in tiles], [t[3] for t in tiles]
        width = max((max(xs) - min(xs) + 1) * S + 2 * MARGIN, MIN_WIDTH)
        layout = tuple(_flow([label for _, label, _ in _legend_items(game)], width))
        strip = bool(_scoreboards(game))  # figures on the scoreboard
        return cls(min(xs), max(ys), width, (max(ys) - min(ys) + 1) * S + 2 * MARGIN,
                   strip, game.rules.players, layout, layout[-1][1] + 1)

    @property
    def seats_y(self) -> float:  # first legend line (seats and scores)
        return self.board_h + (STRIP if self.strip else 0) + 6

    @property
    def shapes_y(self) -> float:
        return self.seats_y + self.players * LINE + 6

    @property
    def caption_y(self) -> float:
        return self.shapes_y + self.legend_rows * LINE + 10

    @property
    def height(self) -> float:
        return self.caption_y + LINE

    def at(self, x: int, y: int, dx: float = 0, dy: float = 0) -> tuple[float, float]:
        """Pixel position of the top-left corner of cell (x, y) (y grows to the north),
        moved by (dx, dy) tile units right and down."""
        return MARGIN + (x - self.minx + dx) * S, MARGIN + (self.maxy - y + dy) * S


def _spec_text(spec: str) -> str:
    return spec if len(spec) <= SPEC_CHARS else spec[:SPEC_CHARS - 1] + "…"


def _open(frame: Frame, game: Game, variants) -> list[str]:
    defs = "".join(_tile_def(v) for v in variants)
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{frame.width:.0f}' "
             f"height='{frame.height:.0f}' viewBox='0 0 {frame.width:.0f} {frame.height:.0f}' "
             f"font-family='sans-serif' font-size='12'><defs>{defs}</defs>",
             "<rect width='100%' height='100%' fill='#fbfaf6'/>"]
    if frame.strip:
        cell = (frame.width - 2 * MARGIN) / 50
        for sp in range(50):
            fill = "#555" if sp % 5 == 0 else "#ddd"
            parts.append(f"<rect x='{MARGIN + sp * cell:.1f}' y='{frame.board_h:.0f}' "
                         f"width='{cell - 1:.1f}' height='14' fill='{fill}'><title>space {sp}"
                         f"</title></rect>")
    for (kind, label, lying), (x, row) in zip(_legend_items(game), frame.legend):
        y = frame.shapes_y + row * LINE + 8
        parts.append(f"<g>{_shape(kind, LEGEND_INK, x + 8, y, lying)}<text x='{x + 20:.1f}' "
                     f"y='{y + 4:.1f}' fill='#333'>{html.escape(label)}</text></g>")
    return parts


def _variants(game: Game) -> list[Tile]:
    seen = {}
    for t, r, _, _ in game.board.tiles():
        v = game.catalogue.variant(t, r)
        seen.setdefault(_tile_id(v), v)
    return list(seen.values())


def _tiles(game: Game, frame: Frame, mark_turns: bool) -> list[str]:
    parts = []
    for i, (t, r, x, y) in enumerate(game.board.tiles()):
        variant = game.catalogue.variant(t, r)
        ox, oy = frame.at(x, y)
        label = (f"start: {placement_text(variant.id, x, y, r)}" if i == 0
                 else f"turn {i}: {placement_text(variant.id, x, y, r)}")
        turn = f" data-turn='{i}'" if mark_turns else ""
        parts.append(f"<g{turn}><title>{html.escape(label)}</title><use href='#{_tile_id(variant)}' "
                     f"x='{ox:.0f}' y='{oy:.0f}'/></g>")
    return parts


def _overlay(game: Game, frame: Frame, caption: str, seats) -> str:
    """What changes from turn to turn: figures, the Courier, the strip, scores, caption."""
    tiles = game.board.tiles()
    parts = []
    for _, f in game.board.figures():
        index, local = divmod(f.segment, MAX_SEGS)
        t, r, x, y = tiles[index]
        variant = game.catalogue.variant(t, r)
        ax, ay = _figure_anchor(variant, local)
        kind = FIGURE_KINDS[f.kind] if f.kind < len(FIGURE_KINDS) else f"kind {f.kind}"
        lying = kind in SHAPES and SHAPES[kind].lies and bool(f.scores)  # R-MM-8
        label = f"seat {f.player} {kind}{' (lying)' if lying else ''} {variant.segments[local].where()} @{x},{y}"
        px, py = frame.at(x, y, ax, ay)
        parts.append(f"<g><title>{html.escape(label)}</title>"
                     f"{_shape(kind, COLOURS[f.player], px, py, lying)}</g>")
    snapshots = view_of(game).snapshots  # what each expansion in play shows
    shown = [e for e in expansions.in_play(game.rules.expansions) if e.snapshot in snapshots]
    for e in shown:  # figures on a tile but on no feature (the Courier)
        for kind, cx, cy, title in e.pieces(snapshots[e.snapshot]) if e.pieces else ():
            px, py = frame.at(cx, cy, 0.82, 0.82)
            parts.append(f"<g><title>{html.escape(title)}</title>{_shape(kind, '', px, py)}</g>")
    for e in shown:  # figures on the scoreboard strip (The Messages' two)
        cell = (frame.width - 2 * MARGIN) / 50
        for s, figures in enumerate(e.scoreboard(snapshots[e.snapshot]) if e.scoreboard else ()):
            for fig, (kind, name, pos) in enumerate(figures):
                cx = MARGIN + (pos % 50 + 0.5) * cell
                cy = frame.board_h + 24 + s * 7 + fig * 3
                shape = _shape(kind, COLOURS[s], cx, cy)
                parts.append(f"<g><title>seat {s} {name}: {pos}</title>{shape}</g>")
    for s in range(game.rules.players):
        y = frame.seats_y + s * LINE + 8
        who = f"seat {s}" + (f" · {_spec_text(seats[s])}" if seats else "")
        full = f"<title>{html.escape(seats[s])}</title>" if seats else ""
        parts.append(f"<g>{full}<circle cx='{MARGIN + 6}' cy='{y:.0f}' r='6' fill='{COLOURS[s]}'/>"
                     f"<text x='{MARGIN + 18}' y='{y + 4:.0f}' font-size='13'>{html.escape(who)}: "
                     f"{game.scores[s]} points</text></g>")
    if caption:
        parts.append(f"<text x='{MARGIN}' y='{frame.caption_y + 4:.0f}' fill='#555'>"
                     f"{html.escape(caption)}</text>")
    return "".join(parts)


def board_svg(game: Game, caption: str = "", seats: list[str] | None = None) -> str:
    """The board as it stands, with figures, scoreboard (The Messages), legend and scores.
    `seats`: each seat's strategy spec, for the legend."""
    frame = Frame.of(game)
    scores = "  ".join(f"seat {s}: {v}" for s, v in enumerate(game.scores))
    return "".join([*_open(frame, game, _variants(game)), *_tiles(game, frame, False),
                    _overlay(game, frame, caption, seats), f"<desc>{html.escape(scores)}</desc></svg>"])


def turns_of(game: Game) -> int:
    """The number of tile placements in the game."""
    return len(game.board) - 1


# What the base game's tiles show, for the step-through page's key: (test on a tile
# type, the key's drawing at the origin of a 28 px square, its words); each expansion's
# marks follow, in registry order
TILE_KEY = (
    (lambda t: any(s.kind == "city" for s in t.segments),
     f"<rect width='28' height='28' fill='{FIELD}'/><path d='M0,0 Q14,12 28,0 Z' fill='{CITY}'/>",
     "city"),
    (lambda t: any(s.kind == "road" for s in t.segments),
     f"<rect width='28' height='28' fill='{FIELD}'/><line x1='0' y1='14' x2='28' y2='14' "
     f"stroke='{ROAD}' stroke-width='4'/>", "road"),
    (lambda t: any(s.kind == "road" and s.end == "village" for s in t.segments),
     f"<rect width='28' height='28' fill='{FIELD}'/><line x1='0' y1='14' x2='14' y2='14' "
     f"stroke='{ROAD}' stroke-width='4'/><rect x='9' y='9' width='10' height='10' fill='#fff' "
     f"stroke='#555'/>", "small square: a road ends at a village or crossing"),
    (lambda t: any(s.coats for s in t.segments),
     "<rect width='28' height='28' fill='#fff'/><path d='M8,8 h12 v7 l-6,6 l-6,-6 Z' "
     "fill='#1f4aa8'/>", "coat of arms: 2 more points for a completed city (R-BASE-6)"),
    (lambda t: any(s.kind == "monastery" for s in t.segments),
     f"<rect width='28' height='28' fill='{FIELD}'/><rect x='5' y='11' width='18' height='14' "
     f"fill='#eee' stroke='#555'/><path d='M3,11 l11,-9 l11,9 Z' fill='#b22222'/>",
     "house with a red roof: a monastery"),
)


def _tile_key(game: Game) -> str:
    """The key of the tile symbols this game's tiles show (HTML)."""
    variants = _variants(game)
    marks = tuple((m.shows, m.key, m.words) for e in expansions.EXPANSIONS for m in e.marks)
    items = [f"<span class='key'><svg width='28' height='28' viewBox='0 0 28 28'>{drawing}</svg> "
             f"{html.escape(words)}</span>" for test, drawing, words in TILE_KEY + marks
             if any(test(v) for v in variants)]
    items.append("<span class='key'><svg width='28' height='28' viewBox='0 0 28 28'><rect "
                 "width='26' height='26' x='1' y='1' fill='none' stroke='#e11d48' "
                 "stroke-width='3'/></svg> the tile placed in the turn shown</span>")
    if Frame.of(game).strip:
        items.append("<span class='key'><svg width='28' height='28' viewBox='0 0 28 28'><rect "
                     "x='2' y='8' width='11' height='12' fill='#555'/><rect x='15' y='8' "
                     "width='11' height='12' fill='#ddd'/></svg> scoreboard strip: a dark "
                     "space (every 5th, R-BASE-10) and a plain one</span>")
    return "<div id='tile-key'><b>Tiles:</b> " + " ".join(items) + "</div>"


def _turn_logs(game: Game, n: int) -> list[str]:
    """The log lines of each turn 0..n (turn 0: the start), as the turn log words them."""
    logs = [[] for _ in range(n + 1)]
    for e in game.events:
        line = event_line(e)
        if line is not None:
            logs[min(max(e.get("turn", 0), 0), n)].append(line)
    return ["\n".join(lines) for lines in logs]


def step_through_html(game: Game, title: str, seats: list[str] | None = None) -> str:
    """One self-contained page: the board after every turn, and a slider. The frame
    and every tile come from the final board; each turn adds only its overlay. The
    tile placed in the turn shown is outlined, the turn's log lines are under the
    board, a key names every symbol, and `#turn=N` in the address opens turn N."""
    n = turns_of(game)
    frame = Frame.of(game)
    overlays = [_overlay(game.replayed(t) if t < n else game, frame,
                         "end of game" if t == n else f"after turn {t}", seats) for t in range(n + 1)]
    corners = [frame.at(x, y) for _, _, x, y in game.board.tiles()]
    mark = (f"<rect id='placed' width='{S}' height='{S}' fill='none' stroke='#e11d48' "
            f"stroke-width='3' pointer-events='none'/>")
    svg = "".join([*_open(frame, game, _variants(game)), *_tiles(game, frame, True), mark,
                   f"<g id='overlay'>{overlays[-1]}</g></svg>"])
    data = json.dumps({"overlays": overlays, "logs": _turn_logs(game, n),
                       "corners": [[round(x), round(y)] for x, y in corners]}).replace("</", "<\\/")
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}"
            f"</title><style>body{{font:14px sans-serif;margin:1.5em}}#board svg{{max-width:100%;"
            f"height:auto}}#log{{background:#f7f7f7;padding:6px 8px;min-height:3em;white-space:pre-wrap}}"
            f".key{{display:inline-flex;align-items:center;gap:4px;margin:2px 12px 2px 0}}"
            f".key svg{{border:1px solid #ddd}}</style></head><body><h1>{html.escape(title)}</h1>"
            f"<p><input id='turn' type='range' min='0' max='{n}' value='{n}' style='width:60%' "
            f"aria-label='turn'> <span id='label'></span></p><div id='board'>{svg}</div>"
            f"<pre id='log'></pre>{_tile_key(game)}"
            f"<script type='application/json' id='frames'>{data}</script><script>"
            "const data = JSON.parse(document.getElementById('frames').textContent);"
            "const frames = data.overlays;"
            "const slider = document.getElementById('turn');"
            "const tiles = document.querySelectorAll('#board [data-turn]');"
            "const overlay = document.getElementById('overlay');"
            "const placed = document.getElementById('placed');"
            "function show(){const t = Number(slider.value);"
            "for (const el of tiles) el.style.display = Number(el.dataset.turn) <= t ? '' : 'none';"
            "overlay.innerHTML = frames[t];"
            "placed.setAttribute('x', data.corners[t][0]); placed.setAttribute('y', data.corners[t][1]);"
            "document.getElementById('log').textContent = data.logs[t];"
            f"document.getElementById('label').textContent = t === {n} ? 'end of game' : 'after turn ' + t;"
            "history.replaceState(null, '', '#turn=' + t);}"
            "function fromAddress(){const m = /turn=(\\d+)/.exec(location.hash);"
            f"if (m) slider.value = String(Math.min({n}, Number(m[1])));}}"
            "slider.addEventListener('input', show);"
            "window.addEventListener('hashchange', () => {fromAddress(); show();});"
            "fromAddress(); show();"
            "console.info('carcsim game ready: ' + frames.length + ' frames');"
            "</script></body></html>")
