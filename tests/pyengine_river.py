"""The River's open end for the previous Python engine (tests/pyengine.py), kept only
for the tests marked python_engine (tests/engine.py)."""

from __future__ import annotations

from dataclasses import dataclass

from sim.river import DX, DY, river_edges
from sim.tiles import Tile


@dataclass
class RiverState:
    end: tuple[int, int, int] | None  # the open river end; None once the lake closes it
    last_turn: int = 0  # the previous curve's turn, 0 before the first curve

    def copy(self) -> RiverState:
        return RiverState(self.end, self.last_turn)

    def _course(self, tile: Tile, x: int, y: int) -> tuple[bool, int, int | None]:
        """(continues the river?, turn, exit edge) for `tile` (rotated) at (x, y)."""
        if self.end is None:
            return False, 0, None
        ex, ey, edge = self.end
        if (x, y) != (ex + DX[edge], ey + DY[edge]):
            return False, 0, None
        entry = (edge + 2) % 4
        edges = river_edges(tile)
        if entry not in edges:
            return False, 0, None
        exits = [e for e in edges if e != entry]
        if not exits:
            return True, 0, None  # the lake
        exit_edge = exits[0]
        turn = {0: 0, 1: 1, 3: -1}[(exit_edge - edge) % 4]
        return True, turn, exit_edge

    def allows(self, tile: Tile, x: int, y: int) -> bool:
        """R-RIV-2: continues the river, and does not turn like the previous curve."""
        ok, turn, _ = self._course(tile, x, y)
        return ok and (turn == 0 or turn != self.last_turn)

    def placed(self, tile: Tile, x: int, y: int) -> None:
        """Follow the river onto a newly placed river tile."""
        _, turn, exit_edge = self._course(tile, x, y)
        if turn:
            self.last_turn = turn
        self.end = None if exit_edge is None else (x, y, exit_edge)


def start_state(spring: Tile) -> RiverState:
    """The river leaves the spring (at 0,0 r0) by its one river edge."""
    return RiverState((0, 0, river_edges(spring)[0]))
