"""The River (RULES.md section 3b; tiles in TILES.md section 3).

R-RIV-1  The spring replaces the start tile (which joins the land tiles); the other
         river tiles are shuffled into a river stack with the lake at its bottom, and
         are drawn and placed before any land tile.
R-RIV-2  A river tile must continue the river: one of its river edges meets the open
         river end (the C core's edge matching already keeps river against river). A
         curve may not turn the same way as the previous curve; straights between do
         not reset this. Figures never stand on the river (it is no segment).
R-RIV-3  The river separates fields, except where a tile's data joins a field across
         it (the Messengers & Mayors river tile MMR): nothing to do beyond the data.

The open river end is (x, y, edge) of the last river tile's unconnected river edge;
turns are +1 (clockwise) or -1.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.tiles import Tile

DX = (0, 1, 0, -1)
DY = (1, 0, -1, 0)


def river_edges(tile: Tile) -> list[int]:
    return [e for e, ch in enumerate(tile.edges) if ch == "~"]


def is_river_tile(tile: Tile) -> bool:
    return "~" in tile.edges


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
