"""The Messages (Mini #2), both rule editions (RULES.md section 2).

Every player has two scoring figures, the scoring meeple and the messenger, whose sum
is the player's score. A figure that ends a round of scoring on a dark space
(R-BASE-10) makes its owner, if active, draw a message tile and resolve it: the
action or 2 points (R-MSG-8).

This module holds the options, the per-game state and the message actions; the turn
loop in sim/game.py calls it at the points the rulings name:
    award()        every time a player receives points        (R-MSG-C1, R-MSG-N1)
    end_round()    after each round of scoring                 (R-MSG-C2/C3, R-MSG-N2/N3)
    choices()      the legal resolutions of a drawn message    (R-MSG-8, R-MSG-10)
    resolve()      apply one resolution
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim import scoreboard
from sim.errors import InputError

FIGURES = ("meeple", "messenger")  # the two scoring figures
EDITIONS = ("classic", "c3.1")
# Rulebook order, which is also each edition's numbering (1-based).
ACTIONS = {
    "classic": ("smallest_road", "smallest_city", "smallest_monastery", "extra_tile",
                "coats_of_arms", "per_knight", "per_farmer", "score_and_return"),
    "c3.1": ("smallest_city", "smallest_road", "smallest_monastery", "extra_turn",
             "coats_of_arms", "per_knight", "per_farmer", "score_and_retrieve"),
}
ALL_ACTIONS = tuple(sorted(set(ACTIONS["classic"]) | set(ACTIONS["c3.1"])))
TWO_POINTS = "2"  # the resolution that scores 2 points instead of the action


@dataclass(frozen=True)
class MessagesOptions:
    """edition: "classic" or "c3.1" (default); zmg_alone: R-MSG-C4 switch; deck: the
    message stack from the top by action name, the rest following in rulebook order."""

    edition: str = "c3.1"
    zmg_alone: bool = False
    deck: tuple[str, ...] = ()

    def validate(self, where: str) -> None:
        if self.edition not in EDITIONS:
            raise InputError(f"{where}: edition = {self.edition!r}: expected one of {', '.join(EDITIONS)}")
        if not isinstance(self.zmg_alone, bool):
            raise InputError(f"{where}: zmg_alone = {self.zmg_alone!r}: expected true or false")
        if self.zmg_alone and self.edition != "classic":
            raise InputError(f"{where}: zmg_alone: the ZMG variant (R-MSG-C4) is a classic-edition switch")
        names = ACTIONS[self.edition]
        if not isinstance(self.deck, tuple) or any(a not in names for a in self.deck):
            bad = next((a for a in self.deck if a not in names), self.deck)
            raise InputError(f"{where}: deck: {bad!r} is not a {self.edition} message: expected "
                             f"names from {', '.join(names)}")
        if len(set(self.deck)) != len(self.deck):
            raise InputError(f"{where}: deck: a message is listed twice")


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


def deck_order(options: MessagesOptions, stream) -> list[str]:
    """The 8 message tiles, shuffled by the game's message stream; a fixed `deck`
    puts its tiles on top and the rest follow in rulebook order."""
    names = list(ACTIONS[options.edition])
    if options.deck:
        return list(options.deck) + [a for a in names if a not in options.deck]
    stream.shuffle(names)
    return names


def on_dark(total: int) -> bool:
    return scoreboard.is_dark(total)


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
