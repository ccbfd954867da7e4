"""The Messages (Mini #2), both rule editions (RULES.md section 2).

Every player has two scoring figures, the scoring meeple and the messenger, whose sum
is the player's score. A figure that ends a round of scoring on a dark space
(R-BASE-10) makes its owner, if active, draw a message tile and resolve it: the
action or 2 points (R-MSG-8).

This module holds the options, the action names of each edition, the deck order and
the dark spaces; the C game plays the rules (sim/csrc/messages.c).
"""

from __future__ import annotations

from dataclasses import dataclass

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
SCORE_AND_RETURN = ("score_and_return", "score_and_retrieve")  # message 8 in each edition


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
