"""The base game (RULES.md section 1) as a part of the rules: its declaration (BASE),
its point sources, and the 50-space scoreboard (R-BASE-10), which The Messages reads
for dark spaces. The C game plays the rules (sim/csrc/board.c, game.c)."""

from __future__ import annotations

from sim.expansions.declaration import DecisionKind, Expansion

# point sources in results; "message" and "courier" stay 0 until those expansions play
SOURCES = ("road", "city", "monastery", "field", "message", "courier")

SPACES = 50


def space(total: int) -> int:
    """The space a figure with `total` points stands on: spaces 0..49, passing 49 wraps."""
    return total % SPACES


def is_dark(total: int) -> bool:
    """Dark spaces are 0, 5, …, 45: a figure at `total` stands on one iff total % 5 == 0."""
    return space(total) % 5 == 0


BASE = Expansion(
    "base", "the base game", ("R-BASE",), tile_sets=("base",), figures=("follower",),
    decisions=(DecisionKind("place", "greedy"),))
