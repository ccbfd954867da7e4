"""What a feature is worth and who wins it: the one place the reference engine knows.

R-BASE-6  completed during play: road 1 per tile, city 2 per tile + 2 per coat of arms,
          monastery 9; a tile counts once per feature.
R-BASE-8  final scoring: road 1 per tile, city 1 per tile + 1 per coat, monastery 1 + 1
          per tile around it, field 3 per completed city bordering it (the board's
          farm_points: a rules variant may change the 3).
R-ABB-4   a garden scores as a monastery does (town halls as below), to the source
          "garden" (after "courier"; 0 in every game without the Abbot).
R-MM-10   a town hall surrounds a monastery but is never counted in its points (a
          monastery completed with one scores 8) — in every use of the value: scoring,
          messages 3 and 8 and the Courier's thank-you.
R-BASE-7  the greatest strength present takes the full value, ties share; strength-0
          figures are present and win only if nobody present is stronger (R-MM-4); a
          standing scarecrow is never present (R-MM-9).
"""

from __future__ import annotations

from sim.reference.board import Board, Feature

# every game's records list every source, 0 where its expansion is not in play
SOURCES = ("road", "city", "monastery", "field", "message", "courier", "garden")  # R-ABB-4: gardens


def value(board: Board, f: Feature, final: bool) -> int:
    if f.kind == "road":
        return f.tiles
    if f.kind == "city":
        return (1 if final else 2) * (f.tiles + f.coats)
    if f.kind in ("monastery", "garden"):  # 9 when complete; its tiles leave town halls
        return f.tiles  # out (R-MM-10, R-ABB-4)
    return board.farm_points * sum(c.complete for c in board.field_cities(f.name))


def majority(board: Board, f: Feature, players: int) -> list[int]:
    """The seats holding the majority on feature `f`, ascending."""
    present: dict[int, int] = {}
    for fid in board.figures_on(f.name):
        fig = board.figures[fid]
        if fig.scores:
            present[fig.player] = present.get(fig.player, 0) + fig.strength
    if not present:
        return []
    best = max(present.values())
    return sorted(p for p, s in present.items() if s == best and p < players)
