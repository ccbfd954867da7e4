"""The Abbot and gardens (RULES.md section 4b) for the reference engine.

R-ABB-1  each player has 1 abbot (figure kind 4); with the Abbot the garden tiles show
         their garden (tiles.py), each replacing one copy of its base tile.
R-ABB-2  a garden is a feature of one segment in the tile centre, like a monastery
         (board.py); only an abbot stands on it.
R-ABB-3  in step 2 the abbot goes, from supply, on the monastery or the garden of the
         tile just placed; strength 1. On a monastery it is a monk for every rule
         that speaks of monks (messages.py: message 3).
R-ABB-4  a garden scores as a monastery does (scoring.py), to the source "garden".
R-ABB-5  in step 2, instead of a figure, the abbot may be taken back: its monastery or
         garden scores at once at its final value for its owner; under the classic
         Messages that is a round of scoring of its own (R-MSG-C2), under c3.1 the
         points go onto the turn's figure (R-MSG-N1) and only phase 3 may trigger.
R-ABB-6  the other expansions meet the abbot through the general rules: message 3
         (messages.py), message 8 (any figure), the Courier (courier.py: a garden is
         a feature completed during play), a favour (standard followers only) and a
         crisis meeting (mayors only) leave it alone.

Decisions (the shared vocabulary): a "place" row (x, y, r, 4, -2) places the tile
and takes the abbot back; these rows come after every other row, one per placement
whose figure is chosen with the tile, in placement order, only while the seat's
abbot stands on the board. After Messengers & Mayors activations the "figure"
decision offers (4, -2) last.
"""

from __future__ import annotations

from sim.reference import messages, scoring
from sim.reference.board import ABBOT

RECALL = -2  # the segment of a row that takes the abbot back (R-ABB-5)
PLACING = {ABBOT: (("monastery", "garden"), True)}  # R-ABB-3: kind -> (segments, free only)
STRENGTH = {ABBOT: 1}


class AbbotState:
    def __init__(self, players: int):
        self.supply = [1] * players  # R-ABB-1
        # statistics for the result, per player
        self.stats = [{"placed": 0, "recalls": 0, "recall_points": 0} for _ in range(players)]


def on_board(g, seat: int) -> int | None:
    """The id of the seat's abbot if it stands on the board."""
    return next((fid for fid, f in g.board.figures.items()
                 if f.player == seat and f.kind == ABBOT), None)


def recall(g):
    """R-ABB-5: the active seat takes its abbot back and scores its monastery or garden
    as in final scoring (1 + the tiles around, town halls not counted, R-MM-10)."""
    seat = g.seat
    fid = on_board(g, seat)
    seg = g.board.figures[fid].seg
    f = g.board.feature(seg)
    points = scoring.value(g.board, f, final=True)
    x, y, where = g.board.place_of(seg)
    g.emit("recall", seat=seat, at=[x, y], where=where, points=points)
    g.return_figure(fid)  # home: for the Courier no longer placed or moved (R-COU-4)
    stats = g.abbot.stats[seat]
    stats["recalls"] += 1
    stats["recall_points"] += points
    yield from messages.award(g, seat, points, f.kind)
    if g.msg is not None and g.msg.edition == "classic":
        yield from messages.end_of_round(g, "recall")  # R-MSG-C2: a round of its own
