"""The 8 message actions of The Messages, both editions (RULES.md 2a, 2b, 2c), for the
previous Python engine (tests/pyengine.py), kept only for the tests marked
python_engine (tests/engine.py); the C game plays them (sim/csrc/messages.c).

`choices(game, seat, action)` lists the legal resolutions with their immediate points:
("2", None) always (R-MSG-8), then the action's ways, if it is possible:
    smallest_road / smallest_city / smallest_monastery: (action, feature root) for each
        feature of that kind holding one of the seat's followers and worth the fewest
        points under final-scoring values; ties are the player's choice (R-MSG-C2 list,
        c3.1 messages 1-3). The follower stays.
    extra_tile / extra_turn: (action, None) while a tile is left to draw.
    coats_of_arms / per_knight / per_farmer: (action, None), always possible (R-MSG-8).
    score_and_return / score_and_retrieve: (action, figure id) for each figure of the
        seat on the board: its feature's final value if the seat holds the majority
        (ties count), for the seat alone, else 0; the figure goes back to supply.
R-MSG-10: messages 1, 2, 5, 6 count standard followers in cities and on roads,
message 3 monks, message 7 farmers, message 8 any figure of the player.
"""

from __future__ import annotations

from sim import scoring
from sim.board import MAX_SEGS
from sim.mayors import SCARECROW
from sim.messages import SCORE_AND_RETURN, TWO_POINTS

SMALLEST = {"smallest_road": "road", "smallest_city": "city", "smallest_monastery": "monastery"}
EXTRA = ("extra_tile", "extra_turn")


def _followers(game, seat: int) -> list[tuple[int, int, str]]:
    """(figure id, root, feature kind) of the seat's standard followers on the board."""
    out = []
    for fig, info in game.board.figures():
        if info.player == seat and info.kind == 0:
            f = game.board.feature(info.segment)
            out.append((fig, f.root, f.kind))
    return out


def _order(game, segment: int) -> tuple[int, int, int]:
    """Ties between targets go by the lowest (y, x) position, then segment order."""
    index, local = divmod(segment, MAX_SEGS)
    _, _, x, y = game.board.tile(index)
    return (y, x, local)


def _final(game, root: int) -> int:
    return scoring.feature_value(game.board, game.board.feature(root), final=True)


def _majority_value(game, seat: int, root: int) -> int:
    counts, strengths = game.board.strength(root)
    n = game.rules.players
    return _final(game, root) if seat in scoring.majority(counts[:n], strengths[:n]) else 0


def choices(game, seat: int, action: str) -> list[tuple[tuple, int | None]]:
    """[(choice, immediate points)] for resolving `action`, "2 points" first."""
    out: list[tuple[tuple, int | None]] = [((TWO_POINTS, None), 2)]
    followers = _followers(game, seat)
    if action in SMALLEST:
        roots = sorted({root for _, root, kind in followers if kind == SMALLEST[action]},
                       key=lambda r: _order(game, r))
        if roots:
            values = {r: _final(game, r) for r in roots}
            low = min(values.values())
            out += [((action, r), low) for r in roots if values[r] == low]
    elif action in EXTRA:  # a tile to draw, or a town hall in hand (message 4, R-MM-10)
        if game.tiles_left > 0 or (game.mm is not None and game.mm.players[seat].town_hall):
            out.append(((action, None), None))
    elif action == "coats_of_arms":
        cities = {root for _, root, kind in followers if kind == "city"}
        out.append(((action, None), 2 * sum(game.board.feature(r).coats for r in cities)))
    elif action == "per_knight":
        out.append(((action, None), 2 * sum(kind == "city" for _, _, kind in followers)))
    elif action == "per_farmer":  # R-MSG-10: farmers and lying scarecrows
        lying = sum(1 for _, i in game.board.figures()
                    if i.player == seat and i.kind == SCARECROW and i.scores)
        out.append(((action, None), 2 * (sum(kind == "field" for _, _, kind in followers) + lying)))
    elif action in SCORE_AND_RETURN:
        mine = sorted(((fig, info) for fig, info in game.board.figures() if info.player == seat),
                      key=lambda fi: _order(game, fi[1].segment))
        for fig, info in mine:
            # R-MSG-10: a standing scarecrow never holds the majority: taken back (c3.1) or
            # returned (classic) for 0 points, whoever else of the seat is in its field
            standing = info.kind == SCARECROW and not info.scores
            out.append(((action, fig),
                        0 if standing else _majority_value(game, seat, game.board.find(info.segment))))
    else:
        raise ValueError(f"unknown message action {action!r}")
    return out


def resolve(game, seat: int, choice: tuple) -> tuple[int, str | None, bool]:
    """Apply a resolution. Returns (points, target in notation or None, extra tile/turn)."""
    action, target = choice
    if action == TWO_POINTS:
        return 2, None, False
    if action in EXTRA:
        return 0, None, True
    points = dict(choices(game, seat, action))[choice]
    where = None
    if action in SMALLEST:
        x, y, w = game.board.segment_place(target)
        where = f"{x},{y} {w}"
    elif action in SCORE_AND_RETURN:
        info = game.board.figure(target)
        x, y, w = game.board.segment_place(info.segment)
        where = f"{x},{y} follower {w}"
        game.return_figure(target)
    return points, where, False
