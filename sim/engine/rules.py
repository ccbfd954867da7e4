"""The rules a game is played under: player count, expansions and their options.

`Rules` is a frozen value; its `ruleset` (each part in play with its version) goes into
every record.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import hashlib

from sim import expansions as registry
from sim.errors import InputError
from sim.expansions.messages import MessagesOptions
from sim.formats.tiles import SETS, normal_form, shipped_form

IMPLEMENTED_EXPANSIONS: tuple[str, ...] = registry.NAMES  # sim/expansions/ declares them


@dataclass(frozen=True)
class Rules:
    """players: 2..6 (R-BASE-1); followers: standard followers per player (R-BASE-1);
    messages: The Messages' options, used when "messages" is among the expansions."""

    players: int = 2
    expansions: tuple[str, ...] = ()
    followers: int = 7
    messages: MessagesOptions = field(default_factory=MessagesOptions)
    # rule variants ([rules.variant], the parts' knobs): (name, value) pairs, kept
    # without the knobs at their defaults and in registry order (a dict is taken too)
    variant: tuple[tuple[str, int], ...] = ()
    # tile sets replaced by a tile list ([rules.tiles], TILES.md R-MM-0): (set name, the
    # tile file's text) pairs in sim/formats/tiles.py SETS order (a dict is taken too);
    # the text, not a path, so a run's workers play the same tiles wherever they are
    tiles: tuple[tuple[str, str], ...] = ()

    def __post_init__(self):
        if isinstance(self.expansions, list):  # a list reads as the tuple it holds
            object.__setattr__(self, "expansions", tuple(self.expansions))
        tiles = self.tiles
        if isinstance(tiles, dict):
            tiles = tuple(tiles.items())
        if not isinstance(tiles, tuple) or any(
                not isinstance(p, tuple) or len(p) != 2 or not all(isinstance(v, str) for v in p)
                for p in tiles):
            raise InputError("rules.tiles: expected a [rules.tiles] table of tile set = tile file")
        if len(dict(tiles)) != len(tiles):
            raise InputError("rules.tiles: a tile set is replaced twice")
        # each list in its normal form (the same tiles written otherwise are the same
        # rules), and a list of a shipped set's own tiles is that set (no replacement)
        normal = [(n, normal_form(t, f"rules.tiles.{n}")) for n, t in tiles]
        object.__setattr__(self, "tiles", tuple(sorted(
            ((n, t) for n, t in normal if n not in SETS or t != shipped_form(n)),
            key=lambda p: SETS.index(p[0]) if p[0] in SETS else len(SETS))))
        variant = self.variant
        if isinstance(variant, dict):
            variant = tuple(variant.items())
        if not isinstance(variant, tuple) or any(
                not isinstance(p, tuple) or len(p) != 2 for p in variant):
            raise InputError("rules.variant: expected a [rules.variant] table of knob = value")
        given = dict(variant)
        if len(given) != len(variant):
            raise InputError("rules.variant: a knob is set twice")
        # a knob with a Rules field of its own (followers) is kept in the field
        for name, (_, knob) in registry.KNOBS.items():
            if knob.field and name in given:
                value = given.pop(name)
                knob.check(value, "rules")
                mine = getattr(self, knob.field)
                if mine != knob.default and mine != value:
                    raise InputError(f"rules.{knob.field} = {mine!r} and rules.variant.{name} = "
                                     f"{value!r}: expected it set once")
                object.__setattr__(self, knob.field, value)
        object.__setattr__(self, "variant", tuple(given.items()))
        self.validate("rules")
        object.__setattr__(self, "variant", tuple(
            (k, given[k]) for k, (_, knob) in registry.KNOBS.items()
            if k in given and given[k] != knob.default))

    def knob(self, name: str) -> int:
        """The value of rule variant `name` (a part's Knob): its Rules field, or its
        [rules.variant] value, else its default."""
        knob = registry.KNOBS[name][1]
        if knob.field:
            return getattr(self, knob.field)
        return dict(self.variant).get(name, knob.default)

    def __repr__(self) -> str:
        options = "".join(f", {o.field}={getattr(self, o.field)!r}" for o in registry.options())
        variant = f", variant={self.variant!r}" if self.variant else ""
        tiles = (f", tiles={{{', '.join(f'{n!r}: <{tiles_hash(t)}>' for n, t in self.tiles)}}}"
                 if self.tiles else "")
        return (f"Rules(players={self.players}, expansions={self.expansions!r}, "
                f"followers={self.followers}{options}{variant}{tiles})")

    def validate(self, where: str) -> None:
        """Raise InputError naming `where` (a file or section) for a bad field."""
        if isinstance(self.players, bool) or not isinstance(self.players, int) \
                or not 2 <= self.players <= 6:
            raise InputError(f"{where}.players = {self.players!r}: expected a whole number 2..6")
        if isinstance(self.followers, bool) or not isinstance(self.followers, int) \
                or not 0 <= self.followers <= 30:
            raise InputError(f"{where}.followers = {self.followers!r}: expected a whole number 0..30")
        if not isinstance(self.expansions, tuple):
            raise InputError(f"{where}.expansions: expected a list of names")
        for e in self.expansions:
            if not isinstance(e, str) or e not in registry.BY_NAME:
                raise InputError(f"{where}.expansions: unknown expansion {e!r}: expected "
                                 f"one of {', '.join(registry.NAMES)}")
        if len(set(self.expansions)) != len(self.expansions):
            raise InputError(f"{where}.expansions: an expansion is listed twice")
        for options in registry.options():
            getattr(self, options.field).validate(f"{where}.{options.field}")
        registry.check_variant(self.variant, self.expansions, where, self)
        for name, _ in self.tiles:
            if name not in self.tile_sets:
                raise InputError(f"{where}.tiles.{name}: not a tile set of these rules: expected "
                                 f"one of {', '.join(self.tile_sets)}")

    @property
    def ruleset(self) -> str:
        """The parts of the rules in play with their versions, e.g. "base-1+messages-1"
        (sim/expansions/ `version`), each with its knobs that differ from their defaults
        ("base-1(farm_points=4)+messages-1") and the mark of a tile set replaced by a
        tile list ("mayors-1(tiles=3fa2b1c0)", `tiles_hash`): the records' ruleset column."""
        parts = []
        replaced = dict(self.tiles)
        for e in registry.in_play(self.expansions):
            set_here = [f"{k.name}={self.knob(k.name)}" for k in e.knobs
                        if self.knob(k.name) != k.default]
            set_here += [f"tiles={tiles_hash(replaced[s])}" for s in e.tile_sets if s in replaced]
            parts.append(f"{e.name}-{e.version}" + (f"({','.join(set_here)})" if set_here else ""))
        return "+".join(parts)

    @property
    def tile_sets(self) -> tuple[str, ...]:
        return registry.tile_sets(self.expansions)


def tiles_hash(text: str) -> str:
    """A replaced tile set's mark in the ruleset: the first 8 hex digits of its text's
    SHA-256 ("mayors-1(tiles=3fa2b1c0)")."""
    return hashlib.sha256(text.encode()).hexdigest()[:8]
