"""Messengers & Mayors' turn steps for the previous Python engine (tests/pyengine.py),
kept only for the tests marked python_engine (tests/engine.py); the rules are the C
game's (sim/csrc/mayors.c) and their facts are sim/mayors.py's."""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.mayors import (FOLLOWER, MAYOR, MESSENGER, RULES, SCARECROW, SIDES, STRENGTH,
                        TOWN_HALL_ID, _tile_xy, activating_cells, ride_targets)  # noqa: F401 (re-exported)
from sim.tiles import KINDS


@dataclass
class PlayerMM:
    supply: dict = field(default_factory=lambda: {MAYOR: 1, MESSENGER: 1, SCARECROW: 1})
    town_hall: bool = True  # still in hand
    placed: dict = field(default_factory=lambda: {MAYOR: 0, MESSENGER: 0, SCARECROW: 0})
    favours: int = 0
    scarecrows: dict = field(default_factory=lambda: {"farmer": 0, "lie": 0, "return": 0})
    rides: int = 0
    ride_points: int = 0
    town_hall_turn: int = 0

    def copy(self) -> PlayerMM:
        return PlayerMM(dict(self.supply), self.town_hall, dict(self.placed), self.favours,
                        dict(self.scarecrows), self.rides, self.ride_points, self.town_hall_turn)


@dataclass
class MayorsState:
    players: list[PlayerMM]
    riders: set = field(default_factory=set)  # figure ids of messengers that have ridden
    # (seat, figure, road) of messengers whose road was scored this scoring phase: they
    # ride once every feature is scored, clockwise from the active seat (R-MM-6)
    rides_due: list = field(default_factory=list)

    def copy(self) -> MayorsState:
        return MayorsState([p.copy() for p in self.players], set(self.riders), list(self.rides_due))


def clockwise(seats: list[int], active: int, players: int) -> list[int]:
    """Seats in clockwise order starting with the active player."""
    return sorted(seats, key=lambda s: (s - active) % players)


# ---------------------------------------------------------------- turn steps
# Handlers take the game; tests/pyengine.py calls them at the points the rulings name.

def placement_rules(game, seat: int) -> tuple:
    """The figure rules `seat` may use on the tile it places (R-MM-1/5/7)."""
    supply = game.mm.players[seat].supply
    return tuple(RULES[k] for k in (MAYOR, MESSENGER, SCARECROW) if supply[k] > 0)


def town_hall_cells(game) -> tuple:
    """Every cell next to a placed tile (R-MM-10: a town hall fits everywhere)."""
    t = game.catalogue.index[TOWN_HALL_ID]
    return tuple((x, y) for x, y, _ in game.board.legal_placements(t))


def river_flowing(game) -> bool:
    return game.river is not None and game.river.end is not None


def offer_town_hall(game, extra_tile: bool = False) -> bool:
    """At the start of a turn (or for a classic message-4 extra tile) the active seat
    may place its town hall instead of drawing (R-MM-10; never while the river is still
    being laid, R-RIV-2). An extra tile with nothing left to draw can only be the
    town hall."""
    me = game.mm.players[game.seat]
    if not me.town_hall or river_flowing(game) or not (game.tiles_left or extra_tile):
        return False
    draw = ("draw",) if game.tiles_left else ()
    game.pending = "extra_tile" if extra_tile else None
    game.decision = game.Decision("town_hall", game.seat, TOWN_HALL_ID, draw + town_hall_cells(game))
    return True


def forced_town_hall(game, can_end: bool = False) -> bool:
    """R-MM-12: with nothing left to draw, the next seat (from the active one) still
    holding its town hall must place it; the others pass. False: the game is over.
    `can_end` (scripted games, SCRIPTS.md) adds the choice "end": the script is over
    and the remaining town halls stay unplaced. While the river still flows (a
    scripted stack may run out mid-river) no town hall may be placed (R-RIV-2)."""
    if river_flowing(game):
        return False
    n = game.rules.players
    for k in range(n):
        seat = (game.seat + k) % n
        if game.mm.players[seat].town_hall:
            game.seat = seat
            choices = (("end",) if can_end else ()) + town_hall_cells(game)
            game.decision = game.Decision("town_hall", seat, TOWN_HALL_ID, choices)
            return True
    return False


def apply_town_hall(game, choice) -> None:
    if choice == "end":
        game.final_scoring()
        return
    extra_tile, game.pending = game.pending == "extra_tile", None
    if choice == "draw":
        # nothing placeable left: at a turn's start R-MM-12 follows at once (the seat
        # still holding its town hall places it this turn) or the game ends; inside a
        # turn (a classic extra tile) the turn simply goes on
        if not game.draw_for_turn() and not extra_tile:
            game.end_or_force()
        return
    x, y = choice
    me = game.mm.players[game.seat]
    game.turn += 1
    completed = game.board.place(game.catalogue.index[TOWN_HALL_ID], x, y, 0)
    game.placed_index = len(game.board) - 1
    me.town_hall = False
    me.town_hall_turn = game.turn
    game.emit("townhall", seat=game.seat, at=[x, y])
    # R-MM-11: a crisis meeting sends the mayors next to the town hall home unused
    for fig, info in game.board.figures():
        if info.kind == MAYOR and _tile_xy(game, info.segment) in {(x + dx, y + dy) for dx, dy in SIDES}:
            game.return_figure(fig)
            game.emit("crisis", seat=info.player, at=list(_tile_xy(game, info.segment)))
    # phase 1 activations, then R-MM-13: what it completed scores in phase 3
    game.agenda[0:0] = (activations(game, x, y) + [("score", root) for root in completed]
                        + [("rides",), ("end_round", "turn")])


def activations(game, x: int, y: int) -> list[tuple]:
    """Activation steps for figures on the tiles next to (x, y) that this placement
    surrounded: mayors (R-MM-2) and standing scarecrows (R-MM-8), clockwise from the
    active seat, each seat's mayor before its scarecrow."""
    around = {(x + dx, y + dy) for dx, dy in SIDES}
    found = []
    for fig, info in game.board.figures():
        if info.kind not in (MAYOR, SCARECROW) or (info.kind == SCARECROW and info.scores):
            continue
        tx, ty = _tile_xy(game, info.segment)
        if (tx, ty) in around and game.board.sides(tx, ty) == 4:
            found.append((info.player, info.kind, fig))
    order = clockwise(sorted({p for p, _, _ in found}), game.seat, game.rules.players)
    return [("activate", fig) for p in order for _, kind, fig in sorted(
        (f for f in found if f[0] == p), key=lambda f: (f[1], f[2]))]


def after_tile(game, x: int, y: int, completed: list[int], figure: int, local: int) -> None:
    """The turn after a tile is placed: step 1 activations, step 2 the figure (chosen
    with the tile, or after the activations when there are any), step 3 scoring."""
    acts = activations(game, x, y)
    step2 = [("figure_options",)] if acts else [("place_figure", figure, local)]
    game.agenda[0:0] = (acts + step2 + [("score", root) for root in completed]
                        + [("rides",), ("end_round", "turn")])


def figure_options(game) -> tuple:
    """Step 2 after activations: (figure kind, local segment) pairs for the active seat
    on the tile just placed, (-1, -1) for none first, then by segment and figure kind
    (the order of the place decision's rows); a follower or messenger meeple only on a
    feature holding no figure (R-BASE-4, R-MM-5), a mayor or scarecrow on any city or
    field (R-MM-1, R-MM-7)."""
    index = game.placed_index
    tile = game.board.variant_at(index)
    rules = game.figure_rules(game.seat)
    out = [(-1, -1)]
    for local, seg in enumerate(tile.segments):
        free = game.board.feature(index * game.MAX_SEGS + local).figures == 0
        for kind, kinds, needs_free, _, _ in rules:
            if kinds >> KINDS.index(seg.kind) & 1 and (free or not needs_free):
                out.append((kind, local))
    return tuple(out)


def step_figure_options(game) -> None:
    choices = figure_options(game)
    if len(choices) > 1:
        game.decision = game.Decision("figure", game.seat, game.board.variant_at(game.placed_index).id,
                                      choices)


def apply_figure(game, choice) -> None:
    step_place_figure(game, *choice)


def step_place_figure(game, figure: int, local: int) -> None:
    """Step 2: the chosen figure onto the tile just placed; a mayor or scarecrow on an
    already surrounded tile activates at once (R-MM-2, R-MM-8)."""
    if figure < 0:
        return
    fig = game.put_figure(game.seat, figure, game.placed_index * game.MAX_SEGS + local)
    x, y = _tile_xy(game, game.board.figure(fig).segment)
    if figure in (MAYOR, SCARECROW) and game.board.sides(x, y) == 4:
        game.agenda.insert(0, ("activate", fig))


def step_activate(game, fig: int) -> None:
    info = game.board.figure(fig)
    if info.segment < 0 or info.kind not in (MAYOR, SCARECROW):
        return  # gone home meanwhile (a crisis meeting)
    owner = info.player
    if info.kind == MAYOR:
        root = game.board.find(info.segment)
        targets = tuple(f for f in game.board.figures_on(root)
                        if game.board.figure(f).kind == FOLLOWER and game.board.figure(f).player != owner)
        if game.supply[owner] > 0 and targets:
            game.pending = ("favour", fig)
            game.decision = game.Decision("favour", owner, "", ("none",) + targets)
        else:
            game.return_figure(fig)  # R-MM-2: home, the favour unused
            game.emit("favour", seat=owner, target=None)
        return
    choices = (("farmer",) if game.supply[owner] > 0 else ()) + ("lie", "return")
    game.pending = ("scarecrow", fig)
    game.decision = game.Decision("scarecrow", owner, "", choices)


def apply_favour(game, choice) -> None:
    _, mayor = game.pending
    game.pending = None
    owner = game.board.figure(mayor).player
    target = None
    if choice != "none":
        info = game.board.figure(choice)
        game.return_figure(choice)
        new = game.put_figure(owner, FOLLOWER, info.segment)
        game.mm.players[owner].favours += 1
        x, y = _tile_xy(game, info.segment)
        target = [x, y]
        if game.courier is not None:
            game.courier.moved_this_turn.append((new, info.segment))
    game.return_figure(mayor)  # R-MM-2: home either way
    game.emit("favour", seat=owner, target=target)


def apply_scarecrow(game, choice) -> None:
    _, fig = game.pending
    game.pending = None
    info = game.board.figure(fig)
    game.mm.players[info.player].scarecrows[choice] += 1
    if choice == "farmer":
        game.return_figure(fig)
        game.put_figure(info.player, FOLLOWER, info.segment)
    elif choice == "lie":
        game.board.set_figure(fig, 1, True)  # a farmer of strength 1 for good
    else:
        game.return_figure(fig)
    game.emit("scarecrow", seat=info.player, choice=choice, at=list(_tile_xy(game, info.segment)))


def step_rides(game) -> None:
    """R-MM-6: after every feature of the scoring phase is scored, the messengers whose
    roads were scored ride (or go home), clockwise from the active seat across roads."""
    due, game.mm.rides_due = game.mm.rides_due, []
    order = clockwise(sorted({p for p, _, _ in due}), game.seat, game.rules.players)
    game.agenda[0:0] = [("ride", fig, road) for p in order for q, fig, road in due if q == p]


def step_ride(game, fig: int, road: int) -> None:
    info = game.board.figure(fig)
    if info.segment < 0:
        return
    game.pending = ("ride", fig)
    game.decision = game.Decision("ride", info.player, "", ("return",) + ride_targets(game, road))


def apply_ride(game, choice) -> None:
    _, fig = game.pending
    game.pending = None
    owner = game.board.figure(fig).player
    if choice == "return":
        game.return_figure(fig)
        game.emit("ride", seat=owner, to=None)
        return
    game.board.remove_figure(fig)
    game.mm.riders.discard(fig)
    if game.courier is not None:
        game.courier.forget(fig)  # it moves on: counted again below, as moved now (R-COU-4)
    new = game.board.add_figure(owner, MESSENGER, STRENGTH[MESSENGER], choice)
    game.mm.riders.add(new)
    game.mm.players[owner].rides += 1
    if game.courier is not None:
        game.courier.moved_this_turn.append((new, choice))
    x, y, where = game.board.segment_place(choice)
    game.emit("ride", seat=owner, to=[x, y], where=where)
