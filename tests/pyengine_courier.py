"""The Courier's thank-you for the previous Python engine (tests/pyengine.py), kept only
for the tests marked python_engine (tests/engine.py); the C game plays it
(sim/csrc/courier.c). (Fan expansion; RULES.md section 4, TILES.md section 5.)

R-COU-1  Six land tiles carry a letter symbol and are shuffled in (the `courier` set).
R-COU-2  The Courier starts off the board.
R-COU-3  Phase 4, after scoring and messages: the first meeple placed or moved this
         turn that still stands on an incomplete road, city or monastery (never a
         field) on a letter tile, on the Courier's tile or next to it (orthogonally)
         gets the thank-you: the Courier moves to its tile and its owner scores that
         feature as in final scoring, alone, with no majority check. The meeple stays.
         One thank-you per turn; a classic message-4 extra tile is part of the turn.
R-COU-4  The first placed or moved qualifying meeple wins, whoever owns it; a feature
         worth 0 still moves the Courier.
R-COU-5  Thank-you points are a round of scoring of their own (classic: may trigger a
         message; c3.1: onto the turn's figure, triggering nothing) — tests/pyengine.py.

Messengers & Mayors will add moved meeples (messenger rides, a favour's follower);
this module takes any list of (figure id, segment) placed or moved this turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim import scoring
from sim.board import MAX_SEGS, Board

COMPLETABLE = ("road", "city", "monastery")


@dataclass
class CourierState:
    at: tuple[int, int] | None = None  # R-COU-2: off the board
    moved_this_turn: list[tuple[int, int]] = field(default_factory=list)  # (figure, segment)

    def copy(self) -> CourierState:
        return CourierState(self.at, list(self.moved_this_turn))

    def forget(self, figure: int) -> None:
        """A figure left the board: it no longer counts as placed or moved this turn
        (figure ids are reused, so a later figure must not inherit its place)."""
        self.moved_this_turn = [(f, s) for f, s in self.moved_this_turn if f != figure]

    def near(self, x: int, y: int) -> bool:
        """On the Courier's tile or orthogonally next to it."""
        if self.at is None:
            return False
        cx, cy = self.at
        return abs(cx - x) + abs(cy - y) <= 1


def qualifying(board: Board, state: CourierState) -> tuple[int, int, int, int] | None:
    """(player, segment, x, y) of the meeple that gets the thank-you, or None."""
    for fig, seg in state.moved_this_turn:
        info = board.figure(fig)
        if info.segment != seg:
            continue  # it went back to supply (its feature was scored) or its slot was reused
        f = board.feature(seg)
        if f.kind not in COMPLETABLE or f.complete:
            continue
        index = seg // MAX_SEGS
        t, _, x, y = board.tile(index)
        if board.catalogue.types[t].has("letter") or state.near(x, y):
            return info.player, seg, x, y
    return None


def thank_you_points(board: Board, segment: int) -> int:
    """The feature's final-scoring value (R-BASE-8), for its owner alone."""
    return scoring.feature_value(board, board.feature(segment), final=True)
