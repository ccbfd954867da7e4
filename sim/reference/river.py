"""The River (RULES.md 3b) for the reference engine.

R-RIV-1  The spring starts instead of the start tile (which joins the land tiles); the
         river tiles come first, the lake last (the caller's stack order says so).
R-RIV-2  A river tile continues the river: one of its river edges meets the open end
         of the river; a curve may not turn the same way as the previous curve
         (straights do not reset that). Town halls wait until the river is done.
R-RIV-3  The river separates fields unless a tile's data joins them: nothing to do
         here, the tile data says it.
"""

from __future__ import annotations

from sim.reference.board import DX, DY
from sim.reference.tiles import TileType


class River:
    def __init__(self, spring: TileType):
        # the open end: the spring's river edge, the spring lying at 0,0 unturned
        self.end: tuple[int, int, int] | None = (0, 0, spring.edges.index("~"))
        self.last_curve = 0  # +1 clockwise, -1 anticlockwise, 0 before any curve

    @property
    def flowing(self) -> bool:
        """Still open: the lake has not closed it (R-RIV-2: no town hall yet)."""
        return self.end is not None

    def course(self, turned: TileType, x: int, y: int):
        """(curve, exit edge) if the turned river tile at (x, y) continues the river,
        else None. The curve is 0 for a straight (or the lake), +1 for a right turn."""
        if self.end is None:
            return None
        ex, ey, edge = self.end
        if (x, y) != (ex + DX[edge], ey + DY[edge]):
            return None
        entry = (edge + 2) % 4  # the side facing the open end
        river = [e for e in range(4) if turned.edges[e] == "~"]
        if entry not in river:
            return None
        exits = [e for e in river if e != entry]
        if not exits:
            return 0, None  # the lake: the river ends here
        out = exits[0]
        return {0: 0, 1: 1, 3: -1}[(out - edge) % 4], out

    def allows(self, turned: TileType, x: int, y: int) -> bool:
        c = self.course(turned, x, y)
        return c is not None and (c[0] == 0 or c[0] != self.last_curve)

    def follow(self, turned: TileType, x: int, y: int) -> None:
        curve, out = self.course(turned, x, y)
        if curve:
            self.last_curve = curve
        self.end = None if out is None else (x, y, out)
