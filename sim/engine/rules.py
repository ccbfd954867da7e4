"""The rules a game is played under: player count, expansions and their options.

`Rules` is a frozen value; its `ruleset` (each part in play with its version) goes into
every record.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim import expansions as registry
from sim.errors import InputError
from sim.expansions.messages import MessagesOptions

IMPLEMENTED_EXPANSIONS: tuple[str, ...] = registry.NAMES  # sim/expansions/ declares them


@dataclass(frozen=True)
class Rules:
    """players: 2..6 (R-BASE-1); followers: standard followers per player (R-BASE-1);
    messages: The Messages' options, used when "messages" is among the expansions."""

    players: int = 2
    expansions: tuple[str, ...] = ()
    followers: int = 7
    messages: MessagesOptions = field(default_factory=MessagesOptions)

    def __post_init__(self):
        self.validate("rules")

    def __repr__(self) -> str:
        options = "".join(f", {o.field}={getattr(self, o.field)!r}" for o in registry.options())
        return (f"Rules(players={self.players}, expansions={self.expansions!r}, "
                f"followers={self.followers}{options})")

    def validate(self, where: str) -> None:
        """Raise InputError naming `where` (a file or section) for a bad field."""
        if isinstance(self.players, bool) or not isinstance(self.players, int) \
                or not 2 <= self.players <= 6:
            raise InputError(f"{where}: players = {self.players!r}: expected a whole number 2..6")
        if isinstance(self.followers, bool) or not isinstance(self.followers, int) \
                or not 0 <= self.followers <= 30:
            raise InputError(f"{where}: followers = {self.followers!r}: expected a whole number 0..30")
        if not isinstance(self.expansions, tuple):
            raise InputError(f"{where}: expansions: expected a list of names")
        for e in self.expansions:
            if e not in registry.BY_NAME:
                raise InputError(f"{where}: expansions: unknown expansion {e!r}: expected "
                                 f"one of {', '.join(registry.NAMES)}")
        if len(set(self.expansions)) != len(self.expansions):
            raise InputError(f"{where}: expansions: an expansion is listed twice")
        for options in registry.options():
            getattr(self, options.field).validate(f"{where}.{options.field}")

    @property
    def ruleset(self) -> str:
        """The parts of the rules in play with their versions, e.g. "base-1+messages-1"
        (sim/expansions/ `version`): the records' ruleset column."""
        return "+".join(f"{e.name}-{e.version}" for e in registry.in_play(self.expansions))

    @property
    def tile_sets(self) -> tuple[str, ...]:
        return registry.tile_sets(self.expansions)
