"""The base game (RULES.md section 1) as a part of the rules: its declaration (BASE),
its point sources, and the 50-space scoreboard (R-BASE-10), whose dark spaces The
Messages reads (the test is the C core's, cc_on_dark). The C game plays the rules (sim/csrc/board.c, game.c)."""

from __future__ import annotations

from typing import NamedTuple

from sim.core import lib, names
from sim.expansions.declaration import DecisionKind, Expansion, Knob, Shape

# point sources in results, by CC_SRC_* code as C names them; "message", "courier" and
# "garden" stay 0 until those expansions play
SOURCES = names(lib.CC_NAMES_SOURCE)

SPACES = 50


def space(total: int) -> int:
    """The space a figure with `total` points stands on: spaces 0..49, passing 49 wraps."""
    return total % SPACES


def is_dark(total: int, every: int = 5) -> bool:
    """Dark spaces are 0, 5, …, 45 (R-BASE-10; 0, every, … below 50 under The Messages'
    dark_every knob): the C core's test (cc_on_dark), the one The Messages plays by."""
    return bool(lib.cc_on_dark(total, every))


def _policy(out, kind: str, code: int, policy, edition: str) -> None:
    """Greedy's weights of a place decision (strategies/greedy.py)."""
    if code == lib.CC_POL_GREEDY and kind == "place":
        out.open_weight = policy.open_weight
        out.opponent, out.follower = policy.opponent, policy.follower


# R-BASE-8: a field's points per completed city bordering it ([rules.variant] farm_points)
FARM_POINTS = Knob("farm_points", "R-BASE-8", 3, 0, 10,
                   "final-scoring points per completed city bordering a field")
# R-BASE-1: standard followers per player; the value lives in Rules.followers (also
# `[rules] followers`), so the knob names that field
FOLLOWERS = Knob("followers", "R-BASE-1", 7, 0, 30, "standard followers per player",
                 field="followers")


def _config(rules, cfg, catalogue, town_halls_at_end) -> None:
    """The base game's knobs in cc_game_config (the board scores fields by it)."""
    cfg.farm_points = rules.knob(FARM_POINTS.name)


def _follower_shape(colour: str, x: float, y: float, lying: bool = False) -> str:
    """A follower in the pictures: a circle."""
    return f"<circle cx='{x:.1f}' cy='{y:.1f}' r='7' fill='{colour}' stroke='#fff' stroke-width='1.5'/>"


class Place(NamedTuple):
    """A place decision's choice: the tile at (x, y) turned `rotation` quarter turns,
    with a figure of kind `figure` (-1 none) on its local segment `segment` (-1 none;
    below -1 an action instead of a figure, R-ABB-5). Equal to the raw 5-tuple."""

    x: int
    y: int
    rotation: int
    figure: int
    segment: int


BASE = Expansion(
    "base", "the base game", ("R-BASE",), tile_sets=("base",),
    features=("city", "road", "field", "monastery"), figures=("follower",),
    decisions=(DecisionKind("place", "greedy", typed=Place._make),), fill_policy=_policy,
    knobs=(FOLLOWERS, FARM_POINTS), fill_config=_config,
    shapes={"follower": Shape(_follower_shape, (("follower", False),))})
