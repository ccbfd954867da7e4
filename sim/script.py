"""Scripted games (design/SCRIPTS.md): every tile and placement fixed by a TOML file.

The engine checks every scripted move; the first illegal one raises InputError
`FILE: turn N: <reason>`. Decisions a turn leaves open go to the script's policies.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from sim import notation
from sim.errors import CoreError, InputError
from sim.game import FIGURE_KINDS, Game, land_tiles
from sim.play import play
from sim.rules import Rules
from sim.tiles import canonical_rotation

TURN_KEYS = {"tile", "at", "rotation", "figure", "discarded"}
RULES_KEYS = {"players", "expansions"}
EDGE_NAMES = ("N", "E", "S", "W")
EDGE_KINDS = {"C": "city", "R": "road", "F": "field", "~": "river"}


@dataclass
class ScriptTurn:
    tile: str
    at: tuple[int, int]
    rotation: int
    figure: str | None
    discarded: list[str] = field(default_factory=list)


@dataclass
class Script:
    path: str
    rules: Rules
    turns: list[ScriptTurn]
    policies: dict


def _field(table: dict, key: str, types, where: str, expected: str, default=None):
    if key not in table:
        if default is None:
            raise InputError(f"{where}: missing {key!r}: expected {expected}")
        return default
    v = table[key]
    if not isinstance(v, types) or isinstance(v, bool):
        raise InputError(f"{where}: {key} = {v!r}: expected {expected}")
    return v


def load_script(path: str | Path) -> Script:
    """Parse and validate a script file. Raises InputError `FILE: field: expected …`."""
    path = str(path)
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as e:
        raise InputError(f"{path}: cannot read script: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{path}: not valid TOML: {e}") from None
    unknown = set(data) - {"rules", "policies", "turns"}
    if unknown:
        raise InputError(f"{path}: unknown section {sorted(unknown)[0]!r}: expected rules, policies, turns")
    rules_t = data.get("rules", {})
    if not isinstance(rules_t, dict):
        raise InputError(f"{path}: rules: expected a table")
    for key in rules_t:
        if key not in RULES_KEYS:
            raise InputError(f"{path}: rules.{key}: unknown key: expected one of "
                             f"{', '.join(sorted(RULES_KEYS))}")
    players = _field(rules_t, "players", int, f"{path}: rules", "a whole number 2..6", 2)
    expansions = _field(rules_t, "expansions", list, f"{path}: rules", "a list of names", [])
    try:
        rules = Rules(players=players, expansions=tuple(expansions))
    except InputError as e:
        raise InputError(f"{path}: {e}") from None
    policies = data.get("policies", {})
    if not isinstance(policies, dict):
        raise InputError(f"{path}: policies: expected a table")
    turns_t = data.get("turns")
    if not isinstance(turns_t, list) or not turns_t:
        raise InputError(f"{path}: turns: expected at least one [[turns]] table")
    turns = [_parse_turn(t, f"{path}: turn {n}") for n, t in enumerate(turns_t, 1)]
    return Script(path, rules, turns, policies)


def _parse_turn(t, where: str) -> ScriptTurn:
    if not isinstance(t, dict):
        raise InputError(f"{where}: expected a table")
    for key in t:
        if key not in TURN_KEYS:
            raise InputError(f"{where}: unknown key {key!r}: expected one of {', '.join(sorted(TURN_KEYS))}")
    tile = _field(t, "tile", str, where, "a tile id")
    at = _field(t, "at", list, where, "[x, y]")
    if len(at) != 2 or any(not isinstance(v, int) or isinstance(v, bool) for v in at):
        raise InputError(f"{where}: at = {at!r}: expected [x, y] with whole numbers")
    rot = _field(t, "rotation", int, where, "0, 1, 2 or 3", 0)
    if rot not in (0, 1, 2, 3):
        raise InputError(f"{where}: rotation = {rot!r}: expected 0, 1, 2 or 3")
    fig = t.get("figure")
    if fig is not None:
        if not isinstance(fig, str):
            raise InputError(f"{where}: figure = {fig!r}: expected text like 'follower city N'")
        try:
            notation.parse_figure(fig)
        except ValueError as e:
            raise InputError(f"{where}: {e}") from None
    disc = _field(t, "discarded", list, where, "a list of tile ids", [])
    if any(not isinstance(d, str) for d in disc):
        raise InputError(f"{where}: discarded = {disc!r}: expected a list of tile ids")
    return ScriptTurn(tile, (at[0], at[1]), rot, fig, list(disc))


class _ScriptPlayer:
    """Answers every decision from the script; names the turn when a move is illegal."""

    def __init__(self, script: Script):
        self.script = script

    def _where(self, game: Game) -> str:
        return f"{self.script.path}: turn {game.turn}"

    def choose(self, game: Game, d):
        turn = self.script.turns[game.turn - 1]
        self._check_discards(game, turn)
        x, y, rot = self._placement(game, turn)
        if turn.figure is None:
            return (x, y, rot, -1, -1)
        return self._figure(game, turn, d, (x, y, rot))

    def _check_discards(self, game: Game, turn: ScriptTurn) -> None:
        got = []
        for e in reversed(game.events[:-1]):  # the last event is this turn's draw
            if e["e"] != "discard":
                break
            got.insert(0, e["tile"])
        if got != turn.discarded:
            if len(got) > len(turn.discarded):
                raise InputError(f"{self._where(game)}: tile {got[len(turn.discarded)]} fits nowhere "
                                 f"and was discarded (R-BASE-3); list it in discarded")
            tile = turn.discarded[len(got)]
            raise InputError(f"{self._where(game)}: tile {tile} is listed as discarded but fits on the board")

    def _placement(self, game: Game, turn: ScriptTurn):
        cat = game.catalogue
        t = cat.index[turn.tile]
        rot = canonical_rotation(cat.types[t], turn.rotation)
        choice = (turn.at[0], turn.at[1], rot)
        if (*choice, -1, -1) in game.decision.choices:
            return choice
        x, y = turn.at
        head = f"{self._where(game)}: tile {turn.tile} at ({x}, {y}) rotation {turn.rotation} does not fit"
        try:
            m = game.board.misfit(t, x, y, rot)
        except CoreError:
            raise InputError(f"{head}: outside the board") from None
        if m == 6:
            raise InputError(f"{head}: ({x}, {y}) already holds a tile")
        if m == 5:
            raise InputError(f"{head}: it touches no placed tile")
        if 1 <= m <= 4:
            m -= 1
            mine = EDGE_KINDS[cat.variant(t, rot).edges[m]]
            n = game.board.tile_at(x + (m == 1) - (m == 3), y + (m == 0) - (m == 2))
            theirs = EDGE_KINDS[game.board.variant_at(n).edges[(m + 2) % 4]]
            raise InputError(f"{head}: its {EDGE_NAMES[m]} edge is {mine}, the neighbour's "
                             f"{EDGE_NAMES[(m + 2) % 4]} edge is {theirs}")
        raise InputError(f"{head}: it is not among the legal placements")

    def _figure(self, game: Game, turn: ScriptTurn, d, placement):
        kind, where = notation.parse_figure(turn.figure)
        t = game.catalogue.index[turn.tile]
        variant = game.catalogue.variant(t, placement[2])
        head = f"{self._where(game)}: figure {turn.figure!r}"
        if kind not in FIGURE_KINDS:
            raise InputError(f"{head}: unknown figure {kind!r}: expected {', '.join(FIGURE_KINDS)}")
        try:
            local = variant.segment_at(where)
        except ValueError:
            raise InputError(f"{head}: tile {turn.tile} as placed has no {where}") from None
        choice = (*placement, FIGURE_KINDS.index(kind), local)
        if choice in d.choices:
            return choice
        if game.supply[d.seat] == 0:
            raise InputError(f"{head}: seat {d.seat} has no {kind} in supply (R-BASE-4)")
        raise InputError(f"{head}: that {where.split()[0]} already holds a figure (R-BASE-4)")


def play_script(script: Script) -> Game:
    """Play a loaded script to the end. Raises InputError at the first illegal move."""
    start, available = land_tiles(script.rules)
    left = {t: available.count(t) for t in set(available)}
    for n, turn in enumerate(script.turns, 1):
        for tid in (*turn.discarded, turn.tile):
            if tid not in left and tid != start.id:
                raise InputError(f"{script.path}: turn {n}: unknown tile id {tid!r} in the tile "
                                 f"sets {', '.join(script.rules.tile_sets)}")
            if left.get(tid, 0) == 0:
                raise InputError(f"{script.path}: turn {n}: tile {tid}: every copy in the tile sets "
                                 f"is already used")
            left[tid] -= 1
    tiles = [t for turn in script.turns for t in (*turn.discarded, turn.tile)]
    game = Game(script.rules, 0, stack=tiles)
    play(game, [_ScriptPlayer(script)] * script.rules.players)
    played = game.turn - 1  # the last turn number is final scoring's
    if played != len(script.turns):
        late = [e["tile"] for e in game.events if e["e"] == "discard" and e["turn"] == played + 1]
        reason = (f"tile {late[-1]} fits nowhere and was discarded (R-BASE-3); list it in discarded"
                  if late else "the game ended before the script did")
        raise InputError(f"{script.path}: turn {played + 1}: {reason}")
    return game

