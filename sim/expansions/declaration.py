"""What a declaration of a part of the rules holds (sim/expansions/__init__.py lists
them): the types every expansion module fills in, and the layout of the C core's
result row (sim/csrc/core.h cc_game_result) that their decoders read."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sim.core import result_fields
from sim.errors import InputError
from sim.formats.tiles import Tile


@dataclass(frozen=True)
class DecisionKind:
    """A decision kind: its name in Decision.kind, the built-in policy that answers it
    for a seat whose main policy does not (strategies.Player), and the one a scripted
    game answers it with where its turns leave it open ("": none, the turns answer it
    always; docs/SCRIPTS.md [policies])."""

    name: str
    default: str
    scripted: str = ""
    # a raw choice (as Game gives it) -> the named form a strategy's view shows (a
    # NamedTuple equal to the raw tuple, so either may be applied); None: as it is
    typed: Callable | None = None


@dataclass(frozen=True)
class Scripting:
    """What a part brings to scripted games (sim/games/script.py, docs/SCRIPTS.md)
    besides its turn keys (Expansion.script_keys): `read(table, where, rules)` -> {key:
    value} of those keys in one [[turns]] table (InputError naming `where`); `answers`,
    decision kind -> (player, game, decision) -> the choice, where `player` is the
    script's (its `script`, `policies`, `turn(game)`, `where(game)`, `next(game,
    kind)`); `misfit(game, turn, tile variant, where)` -> why a scripted tile does
    not fit where the turn puts it, or None; `stop(game, next turn, placed)` -> why
    the game ended before that turn (`placed`: its tile is placed, not drawn), or
    None; `unused(keys, asked)` -> why some of a played turn's keys did nothing (an
    answer for a decision the turn never asked: `asked`, decision kind -> how many the
    turn asked), or None."""

    read: Callable | None = None
    answers: dict = field(default_factory=dict)
    misfit: Callable | None = None
    stop: Callable | None = None
    unused: Callable | None = None


@dataclass(frozen=True)
class Options:
    """An expansion's options: the Rules field and config table `field`
    ([rules.<field>]), its keys, `build(table)` -> the option value (validated by
    Rules), `plain(value)` -> plain JSON values (a run's identity)."""

    field: str
    keys: frozenset[str]
    build: Callable[[dict], object]
    plain: Callable[[object], dict]


@dataclass(frozen=True)
class Knob:
    """A rule variant a part declares: `name` in a config's [rules.variant] table
    (Rules.variant), a whole number `lo`..`hi`, `default` the rules' own value (a game
    that leaves it there is the rules as written, and its ruleset names no knob),
    `ruling` the id of docs/RULES.md it changes, `words` what it is; `field` the Rules
    field that holds it when it has one of its own (followers), else Rules.variant.
    What several knobs must meet together is the part's `check_rules`."""

    name: str
    ruling: str
    default: int
    lo: int
    hi: int
    words: str
    type: type = int
    field: str = ""

    def check(self, value, where: str) -> None:
        """Raise InputError, one line naming [rules.variant] and the knob, for a bad value."""
        if isinstance(value, bool) or not isinstance(value, self.type) or not self.lo <= value <= self.hi:
            raise InputError(f"{where}.variant.{self.name} = {value!r}: expected a whole "
                             f"number {self.lo}..{self.hi} ({self.ruling}: {self.words}; "
                             f"default {self.default})")


# the tile pictures' field green (sim/games/render.py draws every tile on it; a part's
# key drawing of its mark shows the same ground)
FIELD_GREEN = "#a6c96a"


@dataclass(frozen=True)
class Shape:
    """A figure's shape in the pictures (sim/games/render.py): `draw(colour, x, y,
    lying)` its SVG centred on (x, y); `legend` the (words, lying) of each of its
    entries in a picture's legend; `lies`: drawn lying when the figure scores (R-MM-8:
    a scarecrow laid down)."""

    draw: Callable
    legend: tuple = ()
    lies: bool = False


@dataclass(frozen=True)
class Mark:
    """What a part draws on a tile (sim/games/render.py): `shows(tile)` whether the
    tile has it, `draw(tile, size)` its SVG on the tile drawn at the origin; `key` and
    `words` the step-through page's key of it (a 28 px drawing) and its words; `layer`
    "under" (drawn before the base game's roads: the river under a road), "over"
    (after the monastery) or "alone" (the tile's only drawing on its field: the town
    hall, which holds no segment)."""

    shows: Callable
    draw: Callable
    key: str
    words: str
    layer: str = "over"


@dataclass(frozen=True)
class Expansion:
    name: str  # as listed in Rules.expansions ("base": always in play)
    title: str
    rulings: tuple[str, ...]  # the ruling families of docs/RULES.md it implements (R-MSG: R-MSG-*)
    tile_sets: tuple[str, ...] = ()
    # the feature kinds it brings onto tiles (sim/formats/tiles.py KINDS): a tile's
    # segment of a kind no part in play brings is left out (R-ABB-1: plain tiles)
    features: tuple[str, ...] = ()
    figures: tuple[str, ...] = ()  # figure kinds it adds (board figures and others)
    decisions: tuple[DecisionKind, ...] = ()
    options: Options | None = None
    knobs: tuple[Knob, ...] = ()  # its rule variants, set by a config's [rules.variant]
    # (rules, where) -> None, raising InputError (one line naming the knob) for rules in
    # play whose knobs and options cannot go together
    check_rules: Callable | None = None
    forks: tuple[str, ...] = ()  # counterfactual fork kinds (sim/tournament/counterfactual.py)
    result_keys: tuple[str, ...] = ()  # keys it adds to each entry of result()["players"]
    columns: tuple[str, ...] = ()  # players-table columns (int16, 0 when not in play)
    row: Callable[[dict], dict] | None = None  # result entry -> {column: value}
    # (column names, unit, meaning) of its columns, for the records' metadata and
    # docs/RECORDS.md (sim/tournament/records.py COLUMNS); a placeholder in a name
    # stands for one column per name of column_sets[placeholder] ("<action>")
    column_docs: tuple = ()
    column_sets: dict = field(default_factory=dict)
    analyses: tuple[str, ...] = ()  # report sections that need it (sim/analysis/report.py)
    design_keys: tuple[str, ...] = ()  # config [design] keys valid only with it
    script_keys: tuple[str, ...] = ()  # scripted-turn keys valid only with it (sim/games/script.py)
    scripting: Scripting = Scripting()
    # the snapshot of its state a strategy sees (sim/engine/view.py view.<snapshot>, ""
    # for none), and game -> that snapshot (a frozen value)
    snapshot: str = ""
    view: Callable | None = None
    # ---- pictures (sim/games/render.py): its figures' shapes by the name a picture
    # draws them by (FIGURE_KINDS' names on the board, its own for other figures),
    # name -> Shape; its tile marks (Mark); the figures it shows on the scoreboard strip
    # under the board, its snapshot -> per seat ((shape name, figure's name, total) of
    # each); the figures it shows on a tile but on no feature, its snapshot -> ((shape
    # name, x, y, title) of each)
    shapes: dict = field(default_factory=dict)
    marks: tuple = ()
    scoreboard: Callable | None = None
    pieces: Callable | None = None
    editions: tuple[str, ...] = ()  # its rule editions, chosen by options.field's `edition`
    deck: bool = False  # it deals a deck of cards, options.field's `deck` (R-MSG-11)
    # ---- the C game (sim/engine/deal.py, sim/engine/game.py)
    bit: int = 0  # its CC_X_* bit of cc_game_config.expansions (0: the base game)
    tiles: tuple[Tile, ...] = ()  # built-in tile types it adds after the tile sets' own
    river_stack: bool = False  # river tiles are a first stack (R-RIV-1); else none play (R-MM-0)
    # (rules, cc_game_config, catalogue, town_halls_at_end) -> None: its config fields
    fill_config: Callable | None = None
    # (rules, one cc_game_result row) -> its keys of a result()["players"] entry
    read_result: Callable | None = None
    # (rules, games x seats x RESULT_INTS array) -> {players-table column: values per
    # row}; the columns it leaves out are 0
    read_batch: Callable | None = None
    # what the C game holds of its state, by the Game attribute that reads it: name ->
    # (game) -> value (Game.msg, Game.courier_at...; the attribute is None when the part
    # is not in play); read by its snapshot and the differential harness
    state: dict = field(default_factory=dict)
    # its decisions as the C game asks them: cc_game_decision kind -> (game, kind, tile,
    # info, rows) -> (decision name, tile id, choices, info), rows(width) giving the
    # choices' ints; a choice read back from a cc_game_history row: kind -> (game, kind,
    # values) -> the choice as the decision offered it (sim/engine/game.py)
    read_decision: dict = field(default_factory=dict)
    read_choice: dict = field(default_factory=dict)
    # (cc_seat_policy, decision kind, C policy code, policy, edition) -> None: what a
    # built-in policy playing a decision kind reads besides its code (greedy's weights,
    # a message policy's overrides), set for every part, in play or not (sim/engine/seats.py)
    fill_policy: Callable | None = None
    # the parameters of built-in policies that only its rules give something to read
    # (greedy's road_figure, its courier weight): set without it in play they change no
    # game, which `carcsim validate` and `run` say (sim/tournament/plan.py notes)
    policy_params: tuple[str, ...] = ()
    # its step-2 actions instead of a figure: figure kind -> {code (< -1): name}, the
    # place rows (x, y, rotation, kind, code) and figure choices (kind, code) (R-ABB-5)
    actions: dict = field(default_factory=dict)
    # its events' decoders: name -> (game, seat, values) -> the event's keys (`where`
    # below names a segment as the events do), and their turn log lines: name ->
    # (event, "turn  N") -> line (the registry puts them in sim/formats/log.py LINES)
    events: dict = field(default_factory=dict)
    lines: dict = field(default_factory=dict)
    # its rules' version: changes whenever what it plays changes, and goes into the
    # ruleset of every record it takes part in (Rules.ruleset)
    version: int = 1


def where(game, seg: int) -> tuple[list[int], str]:
    """([x, y], the segment's name on its tile) of segment `seg` of `game`'s board, as
    an event names a place."""
    x, y, name = game.board.segment_place(seg)
    return [x, y], name


# ---------------------------------------------------------------- the C result row

# cc_game_result's row of one player, by what each part reads: the layout C declares
# (cc_result_field), as an int for a one-int field and a slice for a wider one
FIELDS = result_fields()


def _field(name: str):
    offset, width = FIELDS[name]
    return offset if width == 1 else slice(offset, offset + width)


ROW_SCORE, ROW_RANK = _field("score"), _field("rank")  # R-BASE-9
ROW_POINTS = _field("points")  # points by sim/expansions/base.py SOURCES
# The Messages: scoring meeple and messenger positions, their moves, live moves; then
# per action code (ACTION_NAMES): drawn, taken, message points, resolved
ROW_FIGURES, ROW_MOVES, ROW_LIVE_MOVES = _field("figures"), _field("moves"), _field("live_moves")
ROW_DRAWN, ROW_TAKEN, ROW_MESSAGE_POINTS, ROW_RESOLVED = (
    _field(k) for k in ("drawn", "taken", "message_points", "resolved"))
ROW_SUPPLY = _field("supply")  # followers in supply
ROW_MAYORS = _field("mayors")  # Messengers & Mayors: MAYORS_COLUMNS, in their order
ROW_MM_SUPPLY, ROW_TOWN_HALL = _field("mm_supply"), _field("town_hall")  # mayor, messenger, scarecrow; in hand
