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

from sim.core import check, ffi, lib
from sim.expansions.declaration import Expansion
from sim.formats.tiles import Tile

DX = (0, 1, 0, -1)
DY = (1, 0, -1, 0)


def river_edges(tile: Tile) -> list[int]:
    return [e for e, ch in enumerate(tile.edges) if ch == "~"]


def is_river_tile(tile: Tile) -> bool:
    return "~" in tile.edges


def _river_config(rules, cfg, catalogue, town_halls_at_end) -> None:
    cfg.river_edge = river_edges(catalogue.types[cfg.start_type])[0]  # R-RIV-1: leaves the spring


def _river_end(game) -> tuple[int, int, int] | None:
    """Game.river_end: the river's open end (x, y, edge) as the C game keeps it
    (R-RIV-1/2; cc_game_river_end), None once the lake has closed it."""
    out = ffi.new("int32_t[3]")
    if not check(lib.cc_game_river_end(game._ptr, out, 3), "cc_game_river_end"):
        return None
    return tuple(out)


@dataclass(frozen=True)
class RiverView:
    """view.river: the river's open end."""

    end: tuple[int, int, int] | None  # (x, y, edge) of the open end; None after the lake


def _view(game) -> RiverView:
    return RiverView(game.river_end)


RIVER = Expansion("river", "the River", ("R-RIV",), tile_sets=("river",), snapshot="river",
          view=_view, state={"river_end": _river_end}, bit=lib.CC_X_RIVER, river_stack=True,
          fill_config=_river_config)
