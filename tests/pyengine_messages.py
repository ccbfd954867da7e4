"""The Messages' per-game state for the previous Python engine (tests/pyengine.py),
kept only for the tests marked python_engine (tests/engine.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from sim import scoreboard
from sim.messages import ACTIONS, MessagesOptions, on_dark


@dataclass
class PlayerMessages:
    """One player's two figures and message statistics."""

    position: list[int] = field(default_factory=lambda: [0, 0])  # meeple, messenger totals
    turn_figure: int = -1  # c3.1 (R-MSG-N1): the figure this turn's points go to, -1 unset
    moves: list[int] = field(default_factory=lambda: [0, 0])  # moves per figure
    live: int = 0  # moves where only one of the two figures would have hit a dark space
    drawn: dict = field(default_factory=dict)  # action -> times drawn
    taken: dict = field(default_factory=dict)  # action -> times resolved by the action
    points: dict = field(default_factory=dict)  # action -> message points (action or 2)

    def copy(self) -> PlayerMessages:
        return PlayerMessages(list(self.position), self.turn_figure, list(self.moves), self.live,
                              dict(self.drawn), dict(self.taken), dict(self.points))


class MessagesState:
    """The message deck and every player's figures; copied by Game.clone()."""

    def __init__(self, options: MessagesOptions, players: int, order: list[str]):
        self.options = options
        self.deck = list(order)  # top first; R-MSG-11: resolved tiles go to the bottom
        self.players = [PlayerMessages() for _ in range(players)]
        self.round_moved: set[int] = set()  # active player's figures moved this round
        self.in_hand: str | None = None  # the message being resolved
        self.turn_messages = 0  # messages drawn in this turn (c3.1: at most one)

    def copy(self) -> MessagesState:
        c = MessagesState.__new__(MessagesState)
        c.options = self.options
        c.deck = list(self.deck)
        c.players = [p.copy() for p in self.players]
        c.round_moved = set(self.round_moved)
        c.in_hand = self.in_hand
        c.turn_messages = self.turn_messages
        return c

    @property
    def edition(self) -> str:
        return self.options.edition

    def number(self, action: str) -> int:
        """The message's number in this edition's rulebook."""
        return ACTIONS[self.edition].index(action) + 1


def alone(state: MessagesState, seat: int, total: int) -> bool:
    """R-MSG-C4: no other player's figure stands on the same space."""
    space = scoreboard.space(total)
    return not any(scoreboard.space(t) == space
                   for s, p in enumerate(state.players) if s != seat for t in p.position)


def would_trigger(state: MessagesState, seat: int, total: int) -> bool:
    """Whether a figure of `seat` at `total` stands where a message is drawn."""
    if not on_dark(total):
        return False
    return not state.options.zmg_alone or alone(state, seat, total)
