"""Messengers & Mayors (RULES.md section 3) for the reference engine.

R-MM-1   a mayor goes on a city segment of the tile just placed, occupied or not;
R-MM-5   the messenger meeple on a free road segment (strength 1);
R-MM-7   the scarecrow on a field segment, occupied or not.
R-MM-2   knight's favour: a mayor whose tile gets its 4th orthogonal neighbour lets its
         owner (with a follower in supply) replace one opponent's standard follower in
         that city; the mayor goes home either way.
R-MM-3/4 a mayor has strength 0 (scoring.py).
R-MM-6   after its road is scored the messenger returns, or rides from an end of that
         road into an incomplete road ending at the same junction of the same tile, or
         into the incomplete city the road ends at; several: clockwise from the active
         player, after every completed feature has been scored.
R-MM-8   a standing scarecrow surrounded: a follower as farmer instead (from supply),
         lie down (a farmer of strength 1 for good), or back to supply.
R-MM-9   a standing scarecrow never scores (scoring.py: not present).
R-MM-10  the town hall: instead of drawing, next to any tile, fitting everything, no
         figure on it, joining nothing (tiles.py, board.py); never while the river
         flows (R-RIV-2).
R-MM-11  crisis meeting: the mayors next to a new town hall go home without acting.
R-MM-12  with the stack empty, who still holds a town hall must place it (game.py).
R-MM-13  what a town hall completes scores in that turn's phase 3 (game.py).
Turn order (RULES.md 6): activations of step 1 come right after the tile, the figure
of step 2 is chosen after them, on the board as they left it.
"""

from __future__ import annotations

from sim.reference.board import DX, DY, FOLLOWER, MAYOR, MESSENGER, SCARECROW
from sim.reference.tiles import SEGMENTS_PER_TILE as STRIDE

# kind: (segment kinds it may stand on, only on a free feature)
PLACING = {FOLLOWER: (("city", "road", "field", "monastery"), True),  # R-BASE-4
           MAYOR: (("city",), False),  # R-MM-1
           MESSENGER: (("road",), True),  # R-MM-5
           SCARECROW: (("field",), False)}  # R-MM-7
STRENGTH = {FOLLOWER: 1, MAYOR: 0, MESSENGER: 1, SCARECROW: 0}


class MayorState:
    def __init__(self, players: int):
        self.supply = [{MAYOR: 1, MESSENGER: 1, SCARECROW: 1} for _ in range(players)]
        self.town_hall = [True] * players  # still in hand
        self.riders: set[int] = set()  # ids of messengers that have ridden
        # statistics for the result, per player
        self.stats = [{"placed": {"mayor": 0, "messenger": 0, "scarecrow": 0}, "favours": 0,
                       "scarecrows": {"farmer": 0, "lie": 0, "return": 0}, "rides": 0,
                       "ride_points": 0, "town_hall_turn": 0} for _ in range(players)]


def clockwise(seats, active: int, players: int) -> list[int]:
    return sorted(seats, key=lambda s: (s - active) % players)


def standing_scarecrow(fig) -> bool:
    return fig.kind == SCARECROW and not fig.scores


def activating(g, x: int, y: int) -> list[int]:
    """Figures that a tile at (x, y) surrounds: mayors and standing scarecrows on the 4
    tiles beside it that now have all 4 neighbours; clockwise from the active player,
    each player's mayor before their scarecrow."""
    found = []
    for fid, fig in g.board.figures.items():
        if fig.kind != MAYOR and not standing_scarecrow(fig):
            continue
        p = g.board.placed[fig.seg // STRIDE]
        if abs(p.x - x) + abs(p.y - y) == 1 and g.board.sides(p.x, p.y) == 4:
            found.append((fig.player, fig.kind, fid))
    order = clockwise({p for p, _, _ in found}, g.seat, g.players)
    return [fid for seat in order for p, _, fid in sorted(found, key=lambda f: (f[1], f[2])) if p == seat]


def activating_cells(g) -> set[tuple[int, int]]:
    """Empty cells where a tile would give a tile holding a mayor or a standing
    scarecrow its 4th neighbour (then the figure is chosen after step 1)."""
    cells = set()
    for fig in g.board.figures.values():
        if fig.kind == MAYOR or standing_scarecrow(fig):
            p = g.board.placed[fig.seg // STRIDE]
            if g.board.sides(p.x, p.y) == 3:
                cells |= {(p.x + DX[e], p.y + DY[e]) for e in range(4)} - set(g.board.cells)
    return cells


def activate(g, fid: int):
    """R-MM-2 for a mayor, R-MM-8 for a standing scarecrow."""
    fig = g.board.figures.get(fid)
    if fig is None or (fig.kind != MAYOR and not standing_scarecrow(fig)):
        return  # gone home meanwhile
    owner = fig.player
    if fig.kind == MAYOR:
        targets = tuple(t for t in g.board.figures_on(fig.seg)
                        if g.board.figures[t].kind == FOLLOWER and g.board.figures[t].player != owner)
        choice = "none"
        if g.supply[owner] > 0 and targets:
            choice = yield g.ask("favour", owner, "", ("none",) + targets)
        at = None
        if choice != "none":
            seg = g.board.figures[choice].seg
            g.return_figure(choice)
            g.put_figure(owner, FOLLOWER, seg)  # placed this turn: it may get the thank-you
            g.mm.stats[owner]["favours"] += 1
            at = list(g.board.place_of(seg)[:2])
        g.return_figure(fid)  # home, the favour used or not
        g.emit("favour", seat=owner, target=at)
        return
    choice = yield g.ask("scarecrow", owner, "", (("farmer",) if g.supply[owner] > 0 else ())
                         + ("lie", "return"))
    seg = fig.seg
    g.mm.stats[owner]["scarecrows"][choice] += 1
    if choice == "farmer":
        g.return_figure(fid)
        g.put_figure(owner, FOLLOWER, seg)
    elif choice == "lie":
        fig.strength, fig.scores = 1, True  # a farmer of strength 1 for the rest of the game
    else:
        g.return_figure(fid)
    g.emit("scarecrow", seat=owner, choice=choice, at=list(g.board.place_of(seg)[:2]))


def town_hall_cells(g) -> tuple:
    return tuple(g.board.empty_neighbours())  # R-MM-10: it fits every neighbour


def may_offer_town_hall(g, extra: bool) -> bool:
    """R-MM-10 at the start of a turn (with a tile left to draw), or as a classic
    message-4 extra tile; R-RIV-2: never while the river flows."""
    return (g.mm.town_hall[g.seat] and not (g.river is not None and g.river.flowing)
            and (bool(g.stack) or extra))


def place_town_hall(g, x: int, y: int):
    """Place the active seat's town hall: crisis meetings, activations, then phase 3."""
    g.turn += 1
    index = g.board.place(g.types["townhall"], x, y, 0)
    g.mm.town_hall[g.seat] = False
    g.mm.stats[g.seat]["town_hall_turn"] = g.turn
    g.emit("townhall", seat=g.seat, at=[x, y])
    beside = {(x + DX[e], y + DY[e]) for e in range(4)}
    for fid in sorted(g.board.figures):  # R-MM-11
        fig = g.board.figures[fid]
        p = g.board.placed[fig.seg // STRIDE]
        if fig.kind == MAYOR and (p.x, p.y) in beside:
            g.return_figure(fid)
            g.emit("crisis", seat=fig.player, at=[p.x, p.y])
    completed = g.board.completed_by(index)
    for fid in activating(g, x, y):  # R-MM-8 (scarecrows; the mayors beside are home)
        yield from activate(g, fid)
    yield from g.scoring_phase(completed)  # R-MM-13


def ride_targets(g, road_segs: list[int]) -> tuple:
    """R-MM-6: every segment of an incomplete road ending at the same junction (the
    same end, on the same tile) as the scored road, or of the incomplete city it ends
    at, ascending."""
    board, names = g.board, set()
    for seg in road_segs:
        index = seg // STRIDE
        s = board.seg(seg)
        tile_segs = board.placed[index].tile.segs
        if s.end in ("village", "monastery"):
            for local, o in enumerate(tile_segs):
                if o.kind == "road" and o.end == s.end and index * STRIDE + local != seg:
                    names.add(board.feature_of(index * STRIDE + local))
        elif s.end == "city" and s.gate >= 0:
            names.add(board.feature_of(index * STRIDE + s.gate))
    open_ = [n for n in names if not board.feature(n).complete]
    return tuple(sorted(t for n in open_ for t in board.segments(n)))


def ride(g, fid: int, road_segs: list[int]):
    fig = g.board.figures.get(fid)
    if fig is None:
        return
    owner = fig.player
    choice = yield g.ask("ride", owner, "", ("return",) + ride_targets(g, road_segs))
    if choice == "return":
        g.return_figure(fid)
        g.emit("ride", seat=owner, to=None)
        return
    g.forget(fid)
    g.board.take(fid)  # the messenger is put down anew on the chosen segment
    g.mm.riders.discard(fid)
    new = g.board.put(owner, MESSENGER, STRENGTH[MESSENGER], True, choice)
    g.mm.riders.add(new)
    g.mm.stats[owner]["rides"] += 1
    g.moved(new, choice)
    x, y, where = g.board.place_of(choice)
    g.emit("ride", seat=owner, to=[x, y], where=where)
