"""Scripted games (design/SCRIPTS.md): every tile and placement fixed by a TOML file.

The engine checks every scripted move; the first illegal one raises InputError
`FILE: turn N: <reason>`. Decisions a turn leaves open go to the script's policies.
This module reads and plays the base game's turns (tile, at, rotation, figure,
discarded); each expansion's keys, its decisions' answers and its reasons for a move
that does not fit are its unit's (sim/expansions/ `script_keys`, `scripting`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sim import expansions as registry
from sim.formats import notation
from sim.errors import CoreError, InputError, check_keys, quote
from sim.engine.deal import FIGURE_KINDS, check_tiles, stack_tiles
from sim.engine.game import Game
from sim.engine.play import play
from sim.engine.rules import Rules
from sim.formats.notation import MAX_COORD
from sim.text import parse_toml, read_input
from sim.formats.tiles import CENTRE, canonical_rotation, read_tile_lists
from strategies import player

# a turn's keys: the base game's, and each expansion's (sim/expansions/ `script_keys`)
TURN_KEYS = {"tile", "at", "rotation", "figure", "discarded"} | {
    k for e in registry.EXPANSIONS for k in e.script_keys}
# [rules]: players, expansions, each expansion's options table (sim/expansions/) and
# the rule variants ([rules.variant], the parts' knobs)
RULES_KEYS = {"players", "expansions", "variant", "tiles"} | {o.field for o in registry.options()}
# [policies]: the decisions a turn may leave open, and who answers them by default
POLICY_DEFAULTS = {d.name: d.scripted for e in registry.PARTS for d in e.decisions if d.scripted}
# each expansion's answers from the script, by decision kind (sim/expansions/ `scripting`)
ANSWERS = {kind: answer for e in registry.EXPANSIONS for kind, answer in e.scripting.answers.items()}

EDGE_NAMES = ("N", "E", "S", "W")
EDGE_KINDS = {"C": "city", "R": "road", "F": "field", "~": "river"}


@dataclass
class ScriptTurn:
    tile: str
    at: tuple[int, int]
    rotation: int
    figure: str | None
    discarded: list[str] = field(default_factory=list)
    # each expansion's keys as its unit reads them (The Messages' score_on, message and
    # message_target; Messengers & Mayors' favour, ride and scarecrow)
    keys: dict = field(default_factory=dict)


@dataclass
class Script:
    path: str
    rules: Rules
    turns: list[ScriptTurn]
    policies: dict  # decision kind -> policy spec, for decisions the turns leave open


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
    data = parse_toml(read_input(path, "script"), path)
    unknown = set(data) - {"rules", "policies", "turns"}
    if unknown:
        raise InputError(f"{path}: unknown section {sorted(unknown)[0]!r}: expected rules, policies, turns")
    rules_t = data.get("rules", {})
    if not isinstance(rules_t, dict):
        raise InputError(f"{path}: rules: expected a table")
    check_keys(rules_t, RULES_KEYS, f"{path}: rules")
    players = _field(rules_t, "players", int, f"{path}: rules", "a whole number 2..6", 2)
    expansions = _field(rules_t, "expansions", list, f"{path}: rules", "a list of names", [])
    tables = {}
    for o in registry.options():
        tables[o] = _field(rules_t, o.field, dict, f"{path}: rules", "a table", {})
        check_keys(tables[o], o.keys, f"{path}: rules.{o.field}")
    variant = _field(rules_t, "variant", dict, f"{path}: rules", "a [rules.variant] table", {})
    known = all(isinstance(e, str) and e in registry.BY_NAME for e in expansions)
    tiles = read_tile_lists(_field(rules_t, "tiles", dict, f"{path}: rules", "a [rules.tiles] table", {}),
                            f"{path}: rules", registry.tile_sets(expansions) if known else None)
    try:
        options = {o.field: o.build(t) for o, t in tables.items()}
        rules = Rules(players=players, expansions=tuple(expansions), variant=tuple(variant.items()),
                      tiles=tiles, **options)
    except InputError as e:
        raise InputError(f"{path}: {e}") from None
    if rules.tiles:
        try:
            check_tiles(rules)
        except InputError as e:
            raise InputError(f"{path}: rules.tiles: {e}") from None
    policies_t = data.get("policies", {})
    if not isinstance(policies_t, dict):
        raise InputError(f"{path}: policies: expected a table")
    check_keys(policies_t, POLICY_DEFAULTS, f"{path}: policies")
    policies = {**POLICY_DEFAULTS, **policies_t}
    spec = "first" + "".join(f"+{k}={v}" for k, v in policies.items())
    player(spec, f"{path}: policies")  # unknown names fail here, before any move
    turns_t = data.get("turns")
    if not isinstance(turns_t, list) or not turns_t:
        raise InputError(f"{path}: turns: expected at least one [[turns]] table")
    turns = [_parse_turn(t, f"{path}: turn {n}", rules) for n, t in enumerate(turns_t, 1)]
    return Script(path, rules, turns, policies)


def _parse_turn(t, where: str, rules: Rules) -> ScriptTurn:
    if not isinstance(t, dict):
        raise InputError(f"{where}: expected a table")
    check_keys(t, TURN_KEYS, where)
    tile = _field(t, "tile", str, where, "a tile id")
    at = _field(t, "at", list, where, "[x, y]")
    if len(at) != 2 or any(not isinstance(v, int) or isinstance(v, bool) for v in at):
        raise InputError(f"{where}: at = {quote(at)}: expected [x, y] with whole numbers")
    if any(abs(v) > MAX_COORD for v in at):  # the C board takes int32: bound it here
        raise InputError(f"{where}: at = {quote(at, 60)}: expected whole numbers "
                         f"-{MAX_COORD}..{MAX_COORD} (no tile lies farther from the start tile)")
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
    registry.check_script_keys(t, rules.expansions, where)
    keys = {}
    for e in registry.EXPANSIONS:  # each checks its own keys (refused above when not in play)
        if e.scripting.read is not None:
            keys.update(e.scripting.read(t, where, rules))
    return ScriptTurn(tile, (at[0], at[1]), rot, fig, list(disc), keys)


class _ScriptPlayer:
    """Answers every decision from the script, the rest from the script's policies;
    names the turn when a move is illegal."""

    def __init__(self, script: Script):
        self.script = script
        spec = "first" + "".join(f"+{k}={v}" for k, v in script.policies.items())
        self.policies = player(spec, f"{script.path}: policies")
        self.seen: dict[tuple, int] = {}  # (turn, decision kind) -> answered so far
        # (turn, figure) a scripted figure waiting for the step-2 decision after the
        # step-1 activations; that decision is not asked when no figure can be placed
        self.owed: tuple[int, str, int] | None = None

    def owed_figure_lost(self, game: Game) -> None:
        """The step-2 decision never came: the scripted figure had nowhere to go."""
        n, fig, seat = self.owed
        raise InputError(f"{self.script.path}: turn {n}: figure {fig!r}: after the step-1 "
                         f"activations seat {seat} can place no figure on that tile "
                         f"(none in supply, or every feature occupied; RULES.md 6)")

    def where(self, game: Game) -> str:
        """`FILE: turn N`, the start of a message about the turn being played."""
        return f"{self.script.path}: turn {game.turn}"

    def turn(self, game: Game) -> ScriptTurn:
        """The scripted turn being played."""
        return self.script.turns[game.turn - 1]

    def next(self, game: Game, kind: str) -> int:
        """How many `kind` decisions of this turn came before this one (counting it)."""
        n = self.seen.get((game.turn, kind), 0)
        self.seen[(game.turn, kind)] = n + 1
        return n

    def choose(self, game: Game, d):
        # the figure decision after step-1 activations (RULES.md 6) follows the favours
        # and scarecrows of the tile's placement, nothing else
        if self.owed is not None and d.kind not in ("favour", "scarecrow", "figure"):
            self.owed_figure_lost(game)
        answer = ANSWERS.get(d.kind)  # an expansion's decision: its unit answers from the turn
        if answer is not None:
            return answer(self, game, d)
        turn = self.turn(game)
        if d.kind == "figure":  # after step-1 activations (RULES.md 6)
            self.owed = None
            if turn.figure is None:
                return (-1, -1)
            return self._figure(game, turn, d, game.board.variant_at(game.placed_index), ())
        self._check_discards(game, turn)
        x, y, rot = self._placement(game, turn)
        if turn.figure is None:
            return (x, y, rot, -1, -1)
        if (x, y) in game.board.activating_cells():  # empty without a mayor or scarecrow out
            self.owed = (game.turn, turn.figure, d.seat)  # asked after the activations, if at all
            return (x, y, rot, -1, -1)
        t = game.catalogue.index[turn.tile]
        return self._figure(game, turn, d, game.catalogue.variant(t, rot), (x, y, rot))

    def _check_discards(self, game: Game, turn: ScriptTurn) -> None:
        got = []
        for e in reversed(game.events[:-1]):  # the last event is this turn's draw
            if e["e"] != "discard":
                break
            got.insert(0, e["tile"])
        if got != turn.discarded:
            if len(got) > len(turn.discarded):
                raise InputError(f"{self.where(game)}: tile {got[len(turn.discarded)]} fits nowhere "
                                 f"and was discarded (R-BASE-3); list it in discarded")
            tile = turn.discarded[len(got)]
            raise InputError(f"{self.where(game)}: tile {tile} is listed as discarded but fits on the board")

    def _placement(self, game: Game, turn: ScriptTurn):
        cat = game.catalogue
        t = cat.index[turn.tile]
        rot = canonical_rotation(cat.types[t], turn.rotation)
        choice = (turn.at[0], turn.at[1], rot)
        if (*choice, -1, -1) in game.decision.choices:
            return choice
        x, y = turn.at
        head = f"{self.where(game)}: tile {turn.tile} at ({x}, {y}) rotation {turn.rotation} does not fit"
        variant = cat.variant(t, rot)
        for e in registry.in_play(game.rules.expansions):  # an expansion's own reason first
            if e.scripting.misfit is not None:
                reason = e.scripting.misfit(game, turn, variant, self.where(game))
                if reason is not None:
                    raise InputError(reason)
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

    def _figure(self, game: Game, turn: ScriptTurn, d, variant, placement: tuple):
        """The turn's figure on `variant` (the tile as placed) as a choice of `d`:
        `placement` + (kind, segment)."""
        kind, where = notation.parse_figure(turn.figure)
        head = f"{self.where(game)}: figure {turn.figure!r}"
        if kind not in FIGURE_KINDS:
            raise InputError(f"{head}: unknown figure {kind!r}: expected {', '.join(FIGURE_KINDS)}")
        action = (None if " " in where or where in CENTRE
                  else registry.action_code(FIGURE_KINDS.index(kind), where))
        if action is not None:  # a step-2 action instead of a figure (R-ABB-5: abbot recall)
            choice = (*placement, FIGURE_KINDS.index(kind), action)
            if choice in d.choices:
                return choice
            raise InputError(f"{head}: seat {d.seat} may not {where} its {kind} now (R-ABB-5)")
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


def scripted_game(rules: Rules, stack: list[str]) -> Game:
    """The game a script is played on: its tiles drawn in order, no last town halls
    (SCRIPTS.md: a scripted game ends after its last scripted turn)."""
    return Game(rules, 0, stack=stack, town_halls_at_end=False)


def play_script(script: Script, new_game=scripted_game):
    """Play a loaded script to the end on `new_game(rules, stack)` (a Game by default;
    any engine with the game contract). Raises InputError at the first illegal move."""
    start, available = stack_tiles(script.rules)
    parts = registry.in_play(script.rules.expansions)
    placed = {t.id for e in parts for t in e.tiles}  # built-in tiles: placed, never drawn
    left = {t: available.count(t) for t in set(available)}
    for n, turn in enumerate(script.turns, 1):
        for tid in (*turn.discarded, turn.tile):
            if tid in placed:
                continue  # not a stack tile: placed instead of drawing (R-MM-10)
            if tid not in left and tid != start.id:
                raise InputError(f"{script.path}: turn {n}: unknown tile id {tid!r} in the tile "
                                 f"sets {', '.join(script.rules.tile_sets)}")
            if left.get(tid, 0) == 0:
                raise InputError(f"{script.path}: turn {n}: tile {tid}: every copy in the tile sets "
                                 f"is already used")
            left[tid] -= 1
    tiles = [t for turn in script.turns for t in (*turn.discarded, turn.tile) if t not in placed]
    game = new_game(script.rules, tiles)
    scripted = _ScriptPlayer(script)
    play(game, [scripted] * script.rules.players)
    if scripted.owed is not None:
        scripted.owed_figure_lost(game)
    played = game.turn - 1  # the last turn number is final scoring's
    if played != len(script.turns):
        late = [e["tile"] for e in game.events if e["e"] == "discard" and e["turn"] == played + 1]
        nxt = script.turns[played]
        stops = (e.scripting.stop(game, nxt, nxt.tile in placed) for e in parts
                 if e.scripting.stop is not None)
        if late:
            reason = f"tile {late[-1]} fits nowhere and was discarded (R-BASE-3); list it in discarded"
        else:
            reason = next((r for r in stops if r is not None), "the game ended before the script did")
        raise InputError(f"{script.path}: turn {played + 1}: {reason}")
    check_answers_used(script, scripted)
    return game


def check_answers_used(script: Script, scripted: _ScriptPlayer) -> None:
    """Raises InputError naming the turn when a played script gave an answer nothing
    asked for (each part's `unused`): it would do nothing, so it is a mistake."""
    parts = registry.in_play(script.rules.expansions)
    for n, turn in enumerate(script.turns, 1):
        asked = {kind: k for (t, kind), k in scripted.seen.items() if t == n}
        for e in parts:
            reason = e.scripting.unused(turn.keys, asked) if e.scripting.unused else None
            if reason is not None:
                raise InputError(f"{script.path}: turn {n}: {reason}")

