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
turns are +1 (clockwise) or -1. This module holds the declaration, the open end as the
C game keeps it (Game.river_end, view.river), why a scripted river tile does not fit,
and the river's mark on its tiles; the C game plays the rules (sim/csrc/river.c).
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.core import check, ffi, lib
from sim.expansions.declaration import FIELD_GREEN, Expansion, Mark, Scripting
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


# ---------------------------------------------------------------- pictures

BLUE = "#4a90d9"
_EDGE_MID = ((0.5, 0), (1, 0.5), (0.5, 1), (0, 0.5))  # each edge's midpoint, unit tile


def _river_mark(tile: Tile, size: float) -> str:
    """The river: a blue line from each river edge's midpoint to the centre."""
    return "".join(f"<line x1='{_EDGE_MID[e][0] * size}' y1='{_EDGE_MID[e][1] * size}' x2='{size / 2}' "
                   f"y2='{size / 2}' stroke='{BLUE}' stroke-width='7'/>" for e in river_edges(tile))


# under the roads: a road crosses the river on a bridge
RIVER_MARK = Mark(is_river_tile, _river_mark,
                  f"<rect width='28' height='28' fill='{FIELD_GREEN}'/><line x1='0' y1='14' x2='28' "
                  f"y2='14' stroke='{BLUE}' stroke-width='6'/>", "river", layer="under")


# ---------------------------------------------------------------- scripted games

def _script_misfit(game, turn, variant: Tile, where: str) -> str | None:
    """R-RIV-2: a river tile must go at the river's open end and carry it on (`game`:
    the script player's view)."""
    river = game.river  # the view's snapshot: the C game's open end
    end = river.end if river is not None and is_river_tile(variant) else None
    if end is None:
        return None
    (x, y), (ex, ey, edge) = turn.at, end
    cell = (ex + (edge == 1) - (edge == 3), ey + (edge == 0) - (edge == 2))
    if (x, y) != cell:
        return (f"{where}: river tile {turn.tile} at ({x}, {y}) is away from the river's open "
                f"end: it must go at {cell} (R-RIV-2)")
    return (f"{where}: river tile {turn.tile} at ({x}, {y}) rotation {turn.rotation} does not "
            f"carry the river on from its open end, or turns the same way as the previous curve "
            f"(R-RIV-2)")


def _script_stop(game, turn, placed: bool) -> str | None:
    """R-RIV-2: no town hall (a tile placed, not drawn) while the river is being laid."""
    if placed and game.river_end is not None:
        return "town hall: no town hall may be placed while the river is being laid (R-RIV-2)"
    return None


RIVER = Expansion("river", "the River", ("R-RIV",), tile_sets=("river",), snapshot="river",
          view=_view, state={"river_end": _river_end}, marks=(RIVER_MARK,),
          scripting=Scripting(misfit=_script_misfit, stop=_script_stop), bit=lib.CC_X_RIVER,
          river_stack=True,
          fill_config=_river_config)
