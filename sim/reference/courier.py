"""The Courier (RULES.md section 4) for the reference engine.

R-COU-1  the letter tiles are in the stack (the `courier` tile set).
R-COU-2  the Courier starts off the board.
R-COU-3  phase 4: a meeple placed or moved this turn that still stands on an incomplete
         road, city, monastery or garden (an abbot, R-ABB-6), on a letter tile or on /
         beside the Courier's tile, calls the Courier to its tile; its owner alone
         scores that feature as in final scoring; the meeple stays; once a turn.
R-COU-4  the first meeple placed or moved wins, whoever owns it; 0 points still move
         the Courier; a meeple that left its segment (scored, ridden on) no longer counts.
R-COU-5  the thank-you is a round of scoring of its own (messages.end_of_round).
"""

from __future__ import annotations

from sim.reference import messages, scoring
from sim.reference.tiles import SEGMENTS_PER_TILE as STRIDE


class CourierState:
    def __init__(self):
        self.at: tuple[int, int] | None = None  # R-COU-2
        self.moved: list[tuple[int, int]] = []  # (figure id, segment) in the order placed or moved

    def near(self, x: int, y: int) -> bool:
        return self.at is not None and abs(self.at[0] - x) + abs(self.at[1] - y) <= 1


def thank_you(g):
    c = g.courier
    for fid, seg in c.moved:
        fig = g.board.figures.get(fid)
        if fig is None or fig.seg != seg:
            continue  # back in supply or moved on since
        f = g.board.feature(seg)
        if f.kind not in ("road", "city", "monastery", "garden") or f.complete:
            continue
        p = g.board.placed[seg // STRIDE]
        if not (p.tile.has("letter") or c.near(p.x, p.y)):
            continue
        points = scoring.value(g.board, f, final=True)  # for the owner alone
        g.emit("courier", seat=fig.player, at=[p.x, p.y], where=g.board.seg(seg).name(),
               points=points, came_from=None if c.at is None else list(c.at))
        c.at = (p.x, p.y)
        yield from messages.award(g, fig.player, points, "courier")
        yield from messages.end_of_round(g, "courier")  # R-COU-5
        return
