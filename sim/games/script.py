"""Scripted games (design/SCRIPTS.md): every tile and placement fixed by a TOML file.

The engine checks every scripted move; the first illegal one raises InputError
`FILE: turn N: <reason>`. Decisions a turn leaves open go to the script's policies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sim import expansions as registry
from sim.formats import notation
from sim.errors import CoreError, InputError, check_keys, quote
from sim.engine.board import MAX_SEGS
from sim.engine.deal import FIGURE_KINDS, catalogue_for, stack_tiles
from sim.engine.game import Game
from sim.expansions.mayors import TOWN_HALL_ID
from sim.expansions.messages import FIGURES, SCORE_AND_RETURN, TWO_POINTS
from sim.expansions.base import SOURCES
from sim.engine.play import play
from sim.engine.rules import Rules
from sim.expansions.river import is_river_tile
from sim.text import parse_toml, read_input
from sim.formats.tiles import CENTRE, canonical_rotation
from strategies import player

TURN_KEYS = {"tile", "at", "rotation", "figure", "discarded", "score_on", "message",
             "message_target", "favour", "ride", "scarecrow"}
# [rules]: players, expansions, and each expansion's options table (sim/expansions/)
RULES_KEYS = {"players", "expansions"} | {o.field for o in registry.options()}
POLICY_DEFAULTS = {"scoring_figure": "meeple_only", "messages": "always_2", "town_hall": "first",
                   "favour": "greedy", "scarecrow": "greedy", "ride": "greedy"}
MAX_COORD = 1000  # a coordinate's magnitude: a game has a few hundred tiles, the C board int32

EDGE_NAMES = ("N", "E", "S", "W")
EDGE_KINDS = {"C": "city", "R": "road", "F": "field", "~": "river"}


@dataclass
class ScriptTurn:
    tile: str
    at: tuple[int, int]
    rotation: int
    figure: str | None
    discarded: list[str] = field(default_factory=list)
    score_on: str | dict | None = None  # The Messages: "meeple", "messenger" or by source
    message: list[str] = field(default_factory=list)  # "action" or "2", one per message
    message_target: list[str] = field(default_factory=list)
    favour: list[str] = field(default_factory=list)  # Messengers & Mayors decisions, in order
    ride: list[str] = field(default_factory=list)
    scarecrow: list[str] = field(default_factory=list)


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
    try:
        options = {o.field: o.build(t) for o, t in tables.items()}
        rules = Rules(players=players, expansions=tuple(expansions), **options)
    except InputError as e:
        raise InputError(f"{path}: {e}") from None
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


def _text_list(t: dict, key: str, where: str, allowed: tuple | None) -> list[str]:
    v = t.get(key, [])
    items = [v] if isinstance(v, str) else v
    if not isinstance(items, list) or any(not isinstance(i, str) for i in items) \
            or (allowed and any(i not in allowed for i in items)):
        want = " or ".join(f'"{a}"' for a in allowed) if allowed else "text"
        raise InputError(f"{where}: {key} = {v!r}: expected {want}, or a list of them")
    return items


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
    score_on = t.get("score_on")
    if score_on is not None:
        by_source = isinstance(score_on, dict)
        values = list(score_on.values()) if by_source else [score_on]
        if by_source and rules.messages.edition != "classic":
            raise InputError(f"{where}: score_on: a table by source needs the classic edition "
                             f"(c3.1 moves one figure per turn, R-MSG-N1)")
        if any(v not in FIGURES for v in values) or (by_source and any(
                k not in SOURCES for k in score_on)):
            raise InputError(f"{where}: score_on = {score_on!r}: expected \"meeple\" or "
                             f"\"messenger\", or a table from sources ({', '.join(SOURCES)}) to them")
    message = _text_list(t, "message", where, ("action", TWO_POINTS))
    targets = _text_list(t, "message_target", where, None)
    mm = {k: _text_list(t, k, where, allowed) for k, allowed in
          (("favour", None), ("ride", None), ("scarecrow", ("farmer", "lie", "return")))}
    if tile == TOWN_HALL_ID and (fig or disc or t.get("rotation")):
        raise InputError(f"{where}: a town hall turn takes only `at` (no rotation, figure or "
                         f"discarded tiles)")
    return ScriptTurn(tile, (at[0], at[1]), rot, fig, list(disc), score_on, message, targets,
                      mm["favour"], mm["ride"], mm["scarecrow"])


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

    def _where(self, game: Game) -> str:
        return f"{self.script.path}: turn {game.turn}"

    def choose(self, game: Game, d):
        if self.owed is not None and d.kind not in ("favour", "scarecrow", "figure"):
            self.owed_figure_lost(game)
        if d.kind == "town_hall":
            return self._town_hall(game, d)
        turn = self.script.turns[game.turn - 1]
        if d.kind in ("favour", "ride", "scarecrow"):
            return self._mm_decision(game, turn, d)
        if d.kind == "scoring_figure":
            return self._scoring_figure(game, turn, d)
        if d.kind == "messages":
            return self._message(game, turn, d)
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
        variant = cat.variant(t, rot)
        river = game.river  # the view's snapshot: the C game's open end (None without the River)
        end = river.end if river is not None and is_river_tile(variant) else None
        if end is not None:
            ex, ey, edge = end
            cell = (ex + (edge == 1) - (edge == 3), ey + (edge == 0) - (edge == 2))
            if (x, y) != cell:
                raise InputError(f"{self._where(game)}: river tile {turn.tile} at ({x}, {y}) is away "
                                 f"from the river's open end: it must go at {cell} (R-RIV-2)")
            raise InputError(f"{self._where(game)}: river tile {turn.tile} at ({x}, {y}) rotation "
                             f"{turn.rotation} does not carry the river on from its open end, or "
                             f"turns the same way as the previous curve (R-RIV-2)")
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
        head = f"{self._where(game)}: figure {turn.figure!r}"
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


    def _scoring_figure(self, game: Game, turn: ScriptTurn, d):
        """score_on covers the active seat's points of this turn; the rest is policy."""
        if turn.score_on is not None and d.seat == game.seat:
            if isinstance(turn.score_on, str):
                return turn.score_on
            if d.info["source"] in turn.score_on:
                return turn.score_on[d.info["source"]]
        return self.policies.choose(game, d)

    def _next(self, game: Game, kind: str) -> int:
        n = self.seen.get((game.turn, kind), 0)
        self.seen[(game.turn, kind)] = n + 1
        return n

    def _town_hall(self, game: Game, d):
        """Before a turn's draw (R-MM-10): the scripted turn says town hall or tile."""
        n = game.turn  # the turn about to start is number n + 1
        if n >= len(self.script.turns):
            return "end"  # the script is over: town halls in hand stay there
        turn = self.script.turns[n]
        head = f"{self.script.path}: turn {n + 1}"
        if turn.tile != TOWN_HALL_ID:
            if "draw" not in d.choices:
                raise InputError(f"{head}: tile {turn.tile}: no tile is left to draw; only a "
                                 f"town hall can be placed now")
            return "draw"
        if turn.at not in d.choices:
            raise InputError(f"{head}: town hall at {turn.at}: expected a cell next to a placed "
                             f"tile (R-MM-10)")
        return turn.at

    def _mm_decision(self, game: Game, turn: ScriptTurn, d):
        """favour = "x,y" | "none"; ride = "return" | "road S @x,y" | "city @x,y";
        scarecrow = "farmer" | "lie" | "return"; lists in the order they resolve."""
        n = self._next(game, d.kind)
        given = getattr(turn, d.kind)
        if n >= len(given):
            return self.policies.choose(game, d)
        text = given[n].strip()
        head = f"{self._where(game)}: {d.kind} = {quote(text)}"
        if d.kind == "scarecrow":
            if text not in d.choices:
                raise InputError(f"{head}: expected one of {', '.join(d.choices)} (R-MM-8)")
            return text
        if text in ("none", "return"):
            if text not in d.choices:
                raise InputError(f"{head}: expected {d.choices[0]!r} or a target")
            return text
        try:
            if d.kind == "favour":
                x, y = (int(v) for v in text.split(","))
                where = None
            else:
                where, _, xy = text.partition("@")
                x, y = (int(v) for v in xy.split(","))
                where = where.strip()
        except ValueError:
            raise InputError(f"{head}: expected " + ('"x,y" or "none"' if d.kind == "favour" else
                             '"return", "road S @x,y" or "city @x,y"')) from None
        for c in d.choices[1:]:
            seg = game.board.figure(c).segment if d.kind == "favour" else c
            cx, cy, cwhere = game.board.segment_place(seg)
            if (cx, cy) == (x, y) and (where is None or cwhere == where or cwhere.split()[0] == where):
                return c
        raise InputError(f"{head}: not among the legal targets (R-MM-2/R-MM-6)")

    def _message(self, game: Game, turn: ScriptTurn, d):
        n = self._next(game, "messages")
        head = f"{self._where(game)}: message {n + 1} ({d.info['action']})"
        if n >= len(turn.message):
            return self.policies.choose(game, d)
        if turn.message[n] == TWO_POINTS:
            return (TWO_POINTS, None)
        actions = [c for c in d.choices if c[0] != TWO_POINTS]
        if not actions:
            raise InputError(f"{head}: the action is not possible (R-MSG-8)")
        if n >= len(turn.message_target):
            return actions[0]
        text = turn.message_target[n]
        try:
            xy, _, where = text.strip().partition(" ")
            x, y = (int(v) for v in xy.split(","))
            if max(abs(x), abs(y)) > MAX_COORD:
                raise ValueError(f"no tile at {quote(xy, 40)}")
            where = where.removeprefix("follower ").strip()
            index = game.board.tile_at(x, y)
            if index is None:
                raise ValueError(f"no tile at {x},{y}")
            root = game.board.find(index * MAX_SEGS + game.board.variant_at(index).segment_at(where))
        except ValueError as e:
            raise InputError(f"{head}: message_target = {quote(text)}: expected 'x,y <feature> "
                             f"[<where>]' naming a feature on the board ({e})") from None
        for c in actions:
            target = c[1]
            if c[0] in SCORE_AND_RETURN:
                target = game.board.find(game.board.figure(target).segment)
            if target == root:
                return c
        raise InputError(f"{head}: message_target = {quote(text)} is not among the legal targets "
                         f"(R-MSG-10)")


def scripted_game(rules: Rules, stack: list[str]) -> Game:
    """The game a script is played on: its tiles drawn in order, no last town halls
    (SCRIPTS.md: a scripted game ends after its last scripted turn)."""
    return Game(rules, 0, stack=stack, town_halls_at_end=False)


def play_script(script: Script, new_game=scripted_game):
    """Play a loaded script to the end on `new_game(rules, stack)` (a Game by default;
    any engine with the game contract). Raises InputError at the first illegal move."""
    start, available = stack_tiles(script.rules)
    catalogue = catalogue_for(script.rules)
    left = {t: available.count(t) for t in set(available)}
    for n, turn in enumerate(script.turns, 1):
        for tid in (*turn.discarded, turn.tile):
            if tid == TOWN_HALL_ID and TOWN_HALL_ID in catalogue.index:  # with Messengers & Mayors
                continue  # not a stack tile: placed instead of drawing (R-MM-10)
            if tid not in left and tid != start.id:
                raise InputError(f"{script.path}: turn {n}: unknown tile id {tid!r} in the tile "
                                 f"sets {', '.join(script.rules.tile_sets)}")
            if left.get(tid, 0) == 0:
                raise InputError(f"{script.path}: turn {n}: tile {tid}: every copy in the tile sets "
                                 f"is already used")
            left[tid] -= 1
    tiles = [t for turn in script.turns for t in (*turn.discarded, turn.tile) if t != TOWN_HALL_ID]
    game = new_game(script.rules, tiles)
    scripted = _ScriptPlayer(script)
    play(game, [scripted] * script.rules.players)
    if scripted.owed is not None:
        scripted.owed_figure_lost(game)
    played = game.turn - 1  # the last turn number is final scoring's
    if played != len(script.turns):
        late = [e["tile"] for e in game.events if e["e"] == "discard" and e["turn"] == played + 1]
        nxt = script.turns[played]
        if late:
            reason = f"tile {late[-1]} fits nowhere and was discarded (R-BASE-3); list it in discarded"
        elif nxt.tile == TOWN_HALL_ID and game.river_end is not None:
            reason = "town hall: no town hall may be placed while the river is being laid (R-RIV-2)"
        else:
            reason = "the game ended before the script did"
        raise InputError(f"{script.path}: turn {played + 1}: {reason}")
    return game

