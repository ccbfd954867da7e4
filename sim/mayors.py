"""Messengers & Mayors (C3.1, 2025): RULES.md section 3, tiles R-MM-0 (TILES.md 4.2).

Each player gets a mayor, a messenger meeple, a scarecrow and a town hall.

R-MM-1   A mayor goes on a city segment of the tile just placed, occupied or not.
R-MM-2   Knight's favour: when a placement leaves a mayor's tile surrounded on its four
         sides, its owner may replace one opponent's standard follower in that city
         with one of theirs from supply; the mayor then goes home either way.
R-MM-3/4 A mayor has strength 0; it scores (and shares) only when nobody present has
         more; it goes home after its city is scored and takes part in final scoring.
R-MM-5/6 The messenger meeple goes on a free road (strength 1). After its road is
         scored its owner returns it or lets it ride on from an end of that road, to an
         incomplete road ending at the same junction of the same tile, or into the
         incomplete city the road ends in, on any tile of it.
R-MM-7/8 A scarecrow goes on a field segment, occupied or not; a field holding one is
         occupied for farmers. Surrounded, its owner puts a follower there as a farmer
         (if one is in supply) and takes the scarecrow back, lays it down (a farmer of
         strength 1 for good), or takes it back.
R-MM-9   A standing scarecrow never scores and never holds a majority.
R-MM-10  Instead of drawing, a town hall may be placed next to any tile, fitting every
         neighbour; no figure ever stands on it; it closes what it touches, joins no
         field, is part of no road or city, and surrounds a monastery without adding to
         its points (a monastery completed with a town hall scores 8).
R-MM-11  Crisis meeting: placing a town hall sends the mayors on the four tiles next to
         it home without acting.
R-MM-12  With the stack empty, a player still holding the town hall must place it on
         their turn, the others pass; the game ends when every town hall is placed.
R-MM-13  What a town hall completes scores in that turn's phase 3.

The C game plays these rules (sim/csrc/mayors.c; the figures' placement rules are
its mayors_rule); this module holds the figure kinds, `activating_cells` for scripted games (sim/script.py) and
`ride_targets` for the counterfactual road forks' statistics
(sim/tournament/counterfactual.py). Turn order (RULES.md 6 with R-MM-2/8): favours and scarecrow activations happen in
step 1, right after the tile is placed, and the figure options of step 2 are computed
after them. A placement that surrounds a mayor's or a standing scarecrow's tile
(`activating_cells`) is therefore offered without a figure, and after the activations
the active seat answers a "figure" decision of its own; every other placement keeps
its figure rows, as nothing can change between choosing and placing them.
"""

from __future__ import annotations


FOLLOWER, MAYOR, MESSENGER, SCARECROW = range(4)  # figure kind codes in the C core
KIND_NAMES = ("follower", "mayor", "messenger", "scarecrow")
TOWN_HALL_ID = "townhall"


def ride_targets(game, road: int) -> tuple:
    """Segments the messenger may ride to from the ends of the scored road (R-MM-6):
    every segment of an incomplete road ending at the same junction of the same tile,
    or of the incomplete city the road ends in."""
    roots = set()
    for seg in game.board.feature_segments(road):
        index, local = divmod(seg, game.MAX_SEGS)
        tile = game.board.variant_at(index)
        s = tile.segments[local]
        if s.end in ("village", "monastery"):
            for other, o in enumerate(tile.segments):
                if other != local and o.kind == "road" and o.end == s.end:
                    roots.add(game.board.find(index * game.MAX_SEGS + other))
        elif s.end == "city" and s.gate >= 0:
            roots.add(game.board.find(index * game.MAX_SEGS + s.gate))
    open_roots = [r for r in roots if not game.board.feature(r).complete]
    return tuple(sorted(s for r in open_roots for s in game.board.feature_segments(r)))


SIDES = ((0, 1), (1, 0), (0, -1), (-1, 0))


def _tile_xy(game, segment: int) -> tuple[int, int]:
    _, _, x, y = game.board.tile(segment // game.MAX_SEGS)
    return x, y


def activating_cells(game) -> set[tuple[int, int]]:
    """Cells whose tile would surround (give a 4th orthogonal neighbour to) a tile
    holding a mayor or a standing scarecrow: placing there has step-1 activations."""
    cells = set()
    for _, info in game.board.figures():
        if info.kind == MAYOR or (info.kind == SCARECROW and not info.scores):
            tx, ty = _tile_xy(game, info.segment)
            if game.board.sides(tx, ty) == 3:
                cells.update((tx + dx, ty + dy) for dx, dy in SIDES
                             if game.board.tile_at(tx + dx, ty + dy) is None)
    return cells
