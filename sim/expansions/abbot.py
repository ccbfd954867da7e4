"""The Abbot and gardens (RULES.md section 4b; tiles TILES.md 2.4): the expansion's one
Python unit. The C game plays the rules (sim/csrc/abbot.c); this module holds its
declaration, the name of its one step-2 action, the decoder of its event and of its
slice of the result row.

R-ABB-1  Each player has one abbot; the garden copies (abbot.tiles, each replacing a
         copy of its base tile) and the River's curve RJ show a garden, plain tiles
         without the Abbot (the declaration brings the feature kind "garden").
R-ABB-2  A garden is a centre feature like a monastery; only an abbot stands on it.
R-ABB-3  In step 2 the abbot may go on the monastery or garden of the tile just placed.
R-ABB-4  A completed garden scores 9, an incomplete one 1 + the tiles around at the end.
R-ABB-5  Instead of a figure, a player may take their abbot back and score its feature
         at once as in final scoring: the place decision's rows
         (x, y, rotation, ABBOT, RECALL), the figure decision's (ABBOT, RECALL).
R-ABB-6  With The Messages (message 3 counts an abbot as a monk, and gardens under
         c3.1), the Courier and Messengers & Mayors: the C core's hook table.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.core import lib
from sim.expansions.declaration import FIELDS, Expansion, Mark, Shape, where

ABBOT = lib.CC_FIG_ABBOT  # its figure kind code
RECALL = lib.CC_RECALL  # the segment column's code of "take the abbot back" (R-ABB-5)
ACTIONS = {RECALL: "recall"}  # step-2 actions by code, as scripts and logs name them
_ROW = slice(FIELDS["abbot"][0], FIELDS["abbot"][0] + FIELDS["abbot"][1])  # supply, placed, recalls, points
COLUMNS = ("abbot_placed", "abbot_recalls", "abbot_recall_points")


def _result(rules, r: list[int]) -> dict:
    supply, placed, recalls, points = r[_ROW]
    return {"abbot": {"supply": supply, "placed": placed, "recalls": recalls, "recall_points": points}}


def _row(p: dict) -> dict:
    a = p["abbot"]
    return {"abbot_placed": a["placed"], "abbot_recalls": a["recalls"], "abbot_recall_points": a["recall_points"]}


def _batch(rules, res) -> dict:
    return {c: res[:, :, _ROW.start + 1 + i].ravel() for i, c in enumerate(COLUMNS)}


def _recall_event(game, seat: int, v: list[int]) -> dict:
    """R-ABB-5: {seat, at, where, points}: the abbot's tile and feature, the points."""
    at, name = where(game, v[0])
    return {"seat": seat, "at": at, "where": name, "points": v[3]}


@dataclass(frozen=True)
class AbbotSeat:
    """A seat's abbot as a strategy sees it (sim/engine/view.py view.abbot)."""

    in_supply: bool
    at: tuple[int, int] | None  # the tile it stands on (None: in supply)
    where: str  # "monastery" or "garden" ("" in supply)


@dataclass(frozen=True)
class AbbotView:
    seats: tuple[AbbotSeat, ...]

    def may_recall(self, seat: int) -> bool:
        """R-ABB-5: the seat may take its abbot back (it stands on the board)."""
        return self.seats[seat].at is not None


def _view(game) -> AbbotView:
    seats = [AbbotSeat(True, None, "")] * game.rules.players
    for _, f in game.board.figures():
        if f.kind == ABBOT:
            x, y, name = game.board.segment_place(f.segment)
            seats[f.player] = AbbotSeat(False, (x, y), name)
    return AbbotView(tuple(seats))


def _abbot_shape(colour: str, x: float, y: float, lying: bool = False) -> str:
    """The abbot: a hooded figure, a circle on a wide base."""
    return (f"<path d='M{x - 8:.1f},{y + 8:.1f} q8,-20 16,0 Z' fill='{colour}' stroke='#fff' "
            f"stroke-width='1.5'/><circle cx='{x:.1f}' cy='{y - 6:.1f}' r='4' fill='{colour}' "
            f"stroke='#fff' stroke-width='1.5'/>")


def _garden_mark(tile, size: float) -> str:
    """A garden in the tile centre: a green hedge ring around a flower bed."""
    c = size / 2
    return (f"<circle cx='{c}' cy='{c}' r='10' fill='#2f7d32' stroke='#1b4d1e'/>"
            f"<circle cx='{c}' cy='{c}' r='4' fill='#f4c430'/>")


GARDEN_KEY = ("<rect width='28' height='28' fill='#9bc26a'/><circle cx='14' cy='14' r='10' "
              "fill='#2f7d32' stroke='#1b4d1e'/><circle cx='14' cy='14' r='4' fill='#f4c430'/>")


def _recall_line(e: dict, turn: str) -> str:
    x, y = e["at"]
    return f"{turn}  seat {e['seat']}  takes the abbot back from the {e['where']} @{x},{y}: {e['points']} points"


COLUMN_DOCS = (
    (("abbot_placed",), "placements", "the Abbot: how often the seat placed its abbot (R-ABB-3)"),
    (("abbot_recalls",), "recalls", "how often the seat took its abbot back (R-ABB-5)"),
    (("abbot_recall_points",), "points", "points scored by taking the abbot back (also in "
     "points_monastery / points_garden)"),
)

ABBOT_EXPANSION = Expansion(
    "abbot", "the Abbot", ("R-ABB",), tile_sets=("abbot",), features=("garden",), figures=("abbot",),
    result_keys=("abbot",), columns=COLUMNS, row=_row, column_docs=COLUMN_DOCS, bit=lib.CC_X_ABBOT,
    read_result=_result, read_batch=_batch, actions={ABBOT: ACTIONS}, snapshot="abbot", view=_view,
    shapes={"abbot": Shape(_abbot_shape, (("abbot", False),))},
    marks=(Mark(lambda t: any(s.kind == "garden" for s in t.segments), _garden_mark, GARDEN_KEY,
                "green ring: a garden (only an abbot stands on it, R-ABB-2)"),),
    events={"recall": _recall_event}, lines={"recall": _recall_line})
