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

from sim.core import lib
from sim.expansions.declaration import FIELDS, Expansion

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


def _recall_event(where, seat: int, v: list[int]) -> dict:
    """R-ABB-5: {seat, at, where, points}: the abbot's tile and feature, the points."""
    at, name = where(v[0])
    return {"seat": seat, "at": at, "where": name, "points": v[3]}


ABBOT_EXPANSION = Expansion(
    "abbot", "the Abbot", ("R-ABB",), tile_sets=("abbot",), features=("garden",), figures=("abbot",),
    result_keys=("abbot",), columns=COLUMNS, row=_row, bit=lib.CC_X_ABBOT,
    read_result=_result, read_batch=_batch, actions={ABBOT: ACTIONS},
    events={"recall": _recall_event})
