"""Text forms that round-trip (STYLE.md rule 9).

    placement   "E 0,1 r2"            tile id, x,y, quarter turns clockwise
    figure      "follower city N"     figure kind, then the segment as read on the
                                      tile as placed (`road E`, `field Nw`, `monastery`)
    move        "E 0,1 r2 follower city N"   a turn: placement, optional figure
"""

from __future__ import annotations

import re

# the largest coordinate a text may name: a game has a few hundred tiles, the C board
# takes int32 (scripted turns, message targets)
MAX_COORD = 1000
_PLACEMENT = re.compile(r"^(\S+) (-?\d+),(-?\d+) r([0-3])$")


def placement_text(tile: str, x: int, y: int, rot: int) -> str:
    return f"{tile} {x},{y} r{rot}"


def parse_placement(text: str) -> tuple[str, int, int, int]:
    """(tile, x, y, rotation) from `E 0,1 r2`. Raises ValueError."""
    m = _PLACEMENT.match(text.strip())
    if not m:
        raise ValueError(f"placement {text!r}: expected '<tile> <x>,<y> r<0-3>'")
    return m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))


def figure_text(kind: str, where: str) -> str:
    return f"{kind} {where}"


def parse_figure(text: str) -> tuple[str, str]:
    """(figure kind, where) from `follower city N`, `abbot garden`, or (figure kind,
    action) from `abbot recall` (a step-2 action instead of a figure, R-ABB-5: the
    expansions name them). Raises ValueError."""
    kind, _, where = text.strip().partition(" ")
    feature, _, place = where.partition(" ")
    if not kind or not (feature in ("city", "road", "field") and place
                        or feature in ("monastery", "garden") and not place
                        or feature.isalpha() and feature.islower() and not place):
        raise ValueError(f"figure {text!r}: expected '<figure> city|road|field <edge>', "
                         f"'<figure> monastery|garden' or '<figure> <action>'")
    return kind, where
