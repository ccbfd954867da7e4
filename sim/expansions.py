"""The expansion registry (STYLE.md rule 2): what each part of the rules brings.

One frozen declaration per part of the rules ("base" and each expansion): the
rulings it implements (ids of docs/RULES.md), the tile sets it adds, the figure kinds
it adds, the decision kinds it adds with the built-in policy that answers each when
a seat's own policy does not, its options (the config table, its keys and how they
become a value of Rules), the counterfactual forks it makes possible, the key it adds
to each player's result and the record columns that key becomes, the read-only
snapshot of its state a strategy sees (sim/view.py), its rule editions and deck.

The engine (the C core, sim/csrc) implements the rules; the declarations describe
them, and say what the C boundary needs of each part: its CC_X_* bit, the built-in
tiles it adds to the catalogue and the board, how it fills cc_game_config, and which
slice of cc_game_result's row (ROW_*, the layout of sim/csrc/core.h) becomes its part
of result(), of Game.msg / Game.mm and of the players table.

Everything outside the engines asks this registry instead of testing which expansion
is on: sim/rules.py (names, tile sets), sim/config.py (options, decisions, forks),
sim/cdeal.py and sim/game.py (the C boundary: they loop over `in_play` and call the
declarations), strategies/__init__.py (default policies), strategies/search.py (the
deck), sim/tournament/plan.py, worker.py and sim/cli.py (editions),
sim/tournament/records.py (columns), sim/view.py (snapshots), sim/render.py,
sim/analysis/report.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple

from sim import messages
from sim._core import lib
from sim.errors import InputError
from sim.mayors import KIND_NAMES, TOWN_HALL_ID
from sim.messages import ALL_ACTIONS, MessagesOptions
from sim.river import river_edges
from sim.tiles import ANY_EDGE, SETS, Tile


@dataclass(frozen=True)
class DecisionKind:
    """A decision kind: its name in Decision.kind and the built-in policy that answers
    it for a seat whose main policy does not (strategies.Player)."""

    name: str
    default: str


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
class Expansion:
    name: str  # as listed in Rules.expansions ("base": always in play)
    title: str
    rulings: tuple[str, ...]  # the ruling families of docs/RULES.md it implements (R-MSG: R-MSG-*)
    tile_sets: tuple[str, ...] = ()
    figures: tuple[str, ...] = ()  # figure kinds it adds (board figures and others)
    decisions: tuple[DecisionKind, ...] = ()
    options: Options | None = None
    forks: tuple[str, ...] = ()  # counterfactual fork kinds (sim/tournament/counterfactual.py)
    result_keys: tuple[str, ...] = ()  # keys it adds to each entry of result()["players"]
    columns: tuple[str, ...] = ()  # players-table columns (int16, 0 when not in play)
    row: Callable[[dict], dict] | None = None  # result entry -> {column: value}
    analyses: tuple[str, ...] = ()  # report sections that need it (sim/analysis/report.py)
    design_keys: tuple[str, ...] = ()  # config [design] keys valid only with it
    script_keys: tuple[str, ...] = ()  # scripted-turn keys valid only with it (sim/script.py)
    snapshot: str = ""  # the sim/view.py snapshot of its state ("" for none)
    editions: tuple[str, ...] = ()  # its rule editions, chosen by options.field's `edition`
    deck: bool = False  # it deals a deck of cards, options.field's `deck` (R-MSG-11)
    # ---- the C game (sim/cdeal.py, sim/game.py)
    bit: int = 0  # its CC_X_* bit of cc_game_config.expansions (0: the base game)
    tiles: tuple[Tile, ...] = ()  # built-in tile types it adds after the tile sets' own
    river_stack: bool = False  # river tiles are a first stack (R-RIV-1); else none play (R-MM-0)
    # (rules, cc_game_config, catalogue, town_halls_at_end) -> None: its config fields
    fill_config: Callable | None = None
    # (rules, one cc_game_result row) -> its keys of a result()["players"] entry
    read_result: Callable | None = None
    # (rules, games x seats x CC_RESULT_INTS array) -> {players-table column: values per
    # row}; the columns it leaves out are 0
    read_batch: Callable | None = None
    # (every seat's cc_game_result row) -> its state as Game.msg / Game.mm give it
    read_state: Callable | None = None


# ---------------------------------------------------------------- the C result row

# cc_game_result's row of one player (sim/csrc/core.h), by what each part reads
ROW_SCORE, ROW_POINTS = 0, slice(1, 7)  # points by sim/scoring.py SOURCES
# The Messages: scoring meeple and messenger positions, their moves, live moves; then
# per action code (ACTION_NAMES): drawn, taken, message points, resolved
ROW_FIGURES, ROW_MOVES, ROW_LIVE_MOVES = slice(7, 9), slice(9, 11), 11
ROW_DRAWN, ROW_TAKEN, ROW_MESSAGE_POINTS, ROW_RESOLVED = (slice(12 + 8 * k, 20 + 8 * k)
                                                          for k in range(4))
ROW_SUPPLY = 44  # followers in supply
ROW_MAYORS = slice(45, 55)  # Messengers & Mayors: MAYORS_COLUMNS, in their order
ROW_MM_SUPPLY, ROW_TOWN_HALL = slice(55, 58), 58  # mayor, messenger, scarecrow; in hand

# message action names per edition, indexed by the C core's action code (CC_MSG_*):
# what the message does, whatever number its edition gives it
ACTION_NAMES = {
    "classic": messages.ACTIONS["classic"],
    "c3.1": ("smallest_road", "smallest_city", "smallest_monastery", "extra_turn",
             "coats_of_arms", "per_knight", "per_farmer", "score_and_retrieve"),
}
EDITION_CODES = {"classic": lib.CC_EDITION_CLASSIC, "c3.1": lib.CC_EDITION_C31}

# R-MM-10: fits every neighbour, holds no segment (no figure, no road, city or field)
TOWN_HALL = Tile(TOWN_HALL_ID, 1, ANY_EDGE * 4, (), ("townhall",), "built-in")
SCARECROW_CHOICES = ("farmer", "lie", "return")  # R-MM-8, in the C core's order (MM_SC_*)

# ---------------------------------------------------------------- result columns

MESSAGES_COLUMNS = (("scoring_meeple", "messenger", "messages_drawn", "messages_taken",
                     "moves_meeple", "moves_messenger", "moves_live")
                    + tuple(f"{what}_{a}" for a in ALL_ACTIONS for what in ("drawn", "taken", "points")))
MAYORS_COLUMNS = ("placed_mayor", "placed_messenger", "placed_scarecrow", "favours",
                  "scarecrow_farmer", "scarecrow_lie", "scarecrow_return", "rides", "ride_points",
                  "town_hall_turn")


def _messages_row(p: dict) -> dict:
    m = p["messages"]
    row = {"scoring_meeple": p["scoring_meeple"], "messenger": p["messenger"],
           "messages_drawn": sum(m["drawn"].values()), "messages_taken": sum(m["taken"].values()),
           "moves_meeple": m["figure_moves"]["meeple"],
           "moves_messenger": m["figure_moves"]["messenger"], "moves_live": m["live_moves"]}
    for a in ALL_ACTIONS:
        for what in ("drawn", "taken", "points"):
            row[f"{what}_{a}"] = m[what].get(a, 0)
    return row


def _mayors_row(p: dict) -> dict:
    mm = p["mayors"]
    row = {f"placed_{k}": v for k, v in mm["placed"].items()}
    row.update({f"scarecrow_{k}": v for k, v in mm["scarecrows"].items()})
    row.update({k: mm[k] for k in ("favours", "rides", "ride_points", "town_hall_turn")})
    return row


# ---------------------------------------------------------------- the C boundary

# the states Game.msg and Game.mm give (read by sim/view.py and the differential harness)
class _MessagesSeat(NamedTuple):
    position: tuple[int, int]  # scoring meeple, messenger
    moves: tuple[int, int]


class _Messages(NamedTuple):
    players: list  # per seat _MessagesSeat, as Game.msg.players


class _MayorsSeat(NamedTuple):
    supply: dict  # figure kind code -> in supply (mayor, messenger, scarecrow)
    town_hall: bool  # still in hand


class _Mayors(NamedTuple):
    players: list  # per seat _MayorsSeat, as Game.mm.players


def _messages_config(rules, cfg, catalogue, town_halls_at_end) -> None:
    options, names = rules.messages, ACTION_NAMES[rules.messages.edition]
    cfg.edition = EDITION_CODES[options.edition]
    cfg.zmg_alone = int(options.zmg_alone)  # R-MSG-C4
    # R-MSG-11: a fixed deck as it is, else the rulebook order, shuffled in C
    deck = messages.deck_order(options, None) if options.deck else messages.ACTIONS[options.edition]
    cfg.shuffle_deck = int(not options.deck)
    for i, name in enumerate(deck):
        cfg.deck[i] = names.index(name)


def _messages_result(rules, r: list[int]) -> dict:
    names = ACTION_NAMES[rules.messages.edition]
    drawn, taken, points, resolved = r[ROW_DRAWN], r[ROW_TAKEN], r[ROW_MESSAGE_POINTS], r[ROW_RESOLVED]
    meeple, messenger = r[ROW_FIGURES]
    return {"scoring_meeple": meeple, "messenger": messenger,
            "messages": {"drawn": {names[a]: c for a, c in enumerate(drawn) if c},
                         "taken": {names[a]: c for a, c in enumerate(taken) if c},
                         "points": {names[a]: points[a] for a in range(len(names)) if resolved[a]},
                         "figure_moves": dict(zip(messages.FIGURES, r[ROW_MOVES])),
                         "live_moves": r[ROW_LIVE_MOVES]}}


def _messages_state(rows) -> _Messages:
    return _Messages([_MessagesSeat(tuple(r[ROW_FIGURES]), tuple(r[ROW_MOVES])) for r in rows])


def _messages_batch(rules, res) -> dict:
    names = ACTION_NAMES[rules.messages.edition]
    drawn, taken, points = res[:, :, ROW_DRAWN], res[:, :, ROW_TAKEN], res[:, :, ROW_MESSAGE_POINTS]
    meeple, messenger = ROW_FIGURES.start, ROW_FIGURES.start + 1
    cols = {"scoring_meeple": res[:, :, meeple].ravel(), "messenger": res[:, :, messenger].ravel(),
            "messages_drawn": drawn.sum(axis=2).ravel(), "messages_taken": taken.sum(axis=2).ravel(),
            "moves_meeple": res[:, :, ROW_MOVES.start].ravel(),
            "moves_messenger": res[:, :, ROW_MOVES.start + 1].ravel(),
            "moves_live": res[:, :, ROW_LIVE_MOVES].ravel()}
    for k, a in enumerate(names):  # the other edition's actions stay 0
        for what, arr in (("drawn", drawn), ("taken", taken), ("points", points)):
            cols[f"{what}_{a}"] = arr[:, :, k].ravel()
    return cols


def _river_config(rules, cfg, catalogue, town_halls_at_end) -> None:
    cfg.river_edge = river_edges(catalogue.types[cfg.start_type])[0]  # R-RIV-1: leaves the spring


def _mayors_config(rules, cfg, catalogue, town_halls_at_end) -> None:
    cfg.town_hall_type = catalogue.index[TOWN_HALL_ID]  # R-MM-10
    cfg.town_halls_at_end = int(town_halls_at_end)  # R-MM-12 (False: a script ends the game)


def _mayors_result(rules, r: list[int]) -> dict:
    mm = r[ROW_MAYORS]  # MAYORS_COLUMNS' order
    return {"mayors": {"placed": dict(zip(KIND_NAMES[1:], mm[0:3])), "favours": mm[3],
                       "scarecrows": dict(zip(SCARECROW_CHOICES, mm[4:7])), "rides": mm[7],
                       "ride_points": mm[8], "town_hall_turn": mm[9]}}


def _mayors_state(rows) -> _Mayors:
    return _Mayors([_MayorsSeat(dict(enumerate(r[ROW_MM_SUPPLY], 1)), bool(r[ROW_TOWN_HALL]))
                    for r in rows])


def _mayors_batch(rules, res) -> dict:
    return {c: res[:, :, ROW_MAYORS.start + i].ravel() for i, c in enumerate(MAYORS_COLUMNS)}


# ---------------------------------------------------------------- options

def _messages_options(t: dict) -> MessagesOptions:
    deck = t.get("deck", [])
    if not isinstance(deck, list):
        raise InputError(f"rules.messages: deck = {deck!r}: expected a list of action names")
    return MessagesOptions(t.get("edition", "c3.1"), t.get("zmg_alone", False), tuple(deck))


def _messages_plain(o: MessagesOptions) -> dict:
    return {"edition": o.edition, "zmg_alone": o.zmg_alone, "deck": list(o.deck)}


# ---------------------------------------------------------------- the registry

BASE = Expansion(
    "base", "the base game", ("R-BASE",), tile_sets=("base",), figures=("follower",),
    decisions=(DecisionKind("place", "greedy"),))

# Declaration order is the order of Rules.expansions listings and of the differential
# harness's combinations; tile sets follow sim/tiles.py SETS, record columns this order.
EXPANSIONS: tuple[Expansion, ...] = (
    Expansion(
        "messages", "The Messages", ("R-MSG",),
        figures=("scoring meeple", "messenger"),  # on the scoreboard, not the board
        decisions=(DecisionKind("scoring_figure", "dark_seeker"), DecisionKind("messages", "greedy")),
        options=Options("messages", frozenset({"edition", "zmg_alone", "deck"}), _messages_options,
                        _messages_plain),
        forks=("messages", "scoring_figure"),
        result_keys=("scoring_meeple", "messenger", "messages"), columns=MESSAGES_COLUMNS,
        row=_messages_row, analyses=("naive_messages",), design_keys=("editions",),
        script_keys=("score_on", "message", "message_target"), snapshot="messages",
        editions=messages.EDITIONS, deck=True, bit=lib.CC_X_MESSAGES,
        fill_config=_messages_config, read_result=_messages_result, read_batch=_messages_batch,
        read_state=_messages_state),
    Expansion("river", "the River", ("R-RIV",), tile_sets=("river",), snapshot="river",
              bit=lib.CC_X_RIVER, river_stack=True, fill_config=_river_config),
    Expansion("courier", "the Courier", ("R-COU",), tile_sets=("courier",), figures=("courier",),
              snapshot="courier", bit=lib.CC_X_COURIER),
    Expansion(
        "mayors", "Messengers & Mayors", ("R-MM",), tile_sets=("mayors",),
        figures=("mayor", "messenger meeple", "scarecrow"),
        decisions=tuple(DecisionKind(k, "greedy")
                        for k in ("figure", "town_hall", "favour", "scarecrow", "ride")),
        forks=("road_figure",), result_keys=("mayors",), columns=MAYORS_COLUMNS, row=_mayors_row,
        script_keys=("favour", "ride", "scarecrow"), snapshot="mayors",
        bit=lib.CC_X_MAYORS, tiles=(TOWN_HALL,),
        fill_config=_mayors_config, read_result=_mayors_result, read_batch=_mayors_batch,
        read_state=_mayors_state),
)
BY_NAME: dict[str, Expansion] = {e.name: e for e in EXPANSIONS}
DESIGN_KEYS: dict[str, str] = {k: e.name for e in EXPANSIONS for k in e.design_keys}
NAMES: tuple[str, ...] = tuple(BY_NAME)
PARTS = (BASE, *EXPANSIONS)
# the part with rule editions: what the CLI's --edition and [design] editions choose
EDITIONED: Expansion = next(e for e in EXPANSIONS if e.editions)


def check_script_keys(given, expansions, where: str) -> None:
    """Refuse a scripted turn's keys that belong to an expansion not in play. `given`:
    the keys the turn sets."""
    for e in EXPANSIONS:
        used = [k for k in e.script_keys if k in given]
        if used and e.name not in expansions:
            raise InputError(f"{where}: {', '.join(used)}: {e.title} is not in play")


def in_play(expansions) -> tuple[Expansion, ...]:
    """The base game and the declarations of `expansions`, in registry order."""
    return (BASE, *(e for e in EXPANSIONS if e.name in expansions))


def edition(rules) -> str:
    """The edition the rules play the part with editions in (The Messages'), "" when
    it is not in play."""
    for e in in_play(rules.expansions):
        if e.editions:
            return getattr(rules, e.options.field).edition
    return ""


def with_edition(rules, edition: str):
    """`rules` with EDITIONED's edition `edition` ("", or the rules' own: `rules`)."""
    options = getattr(rules, EDITIONED.options.field)
    if not edition or edition == options.edition:
        return rules
    return replace(rules, **{EDITIONED.options.field: replace(options, edition=edition)})


def deck_options(rules):
    """The options of the part in play that deals a deck of cards (The Messages':
    edition and a fixed deck or none), None when none is in play."""
    for e in in_play(rules.expansions):
        if e.deck:
            return getattr(rules, e.options.field)
    return None


def tile_sets(expansions) -> tuple[str, ...]:
    """The tile sets a game under `expansions` uses, in sim/tiles.py SETS order (the
    catalogue's order, hence every tile index and the shuffles)."""
    wanted = {s for e in in_play(expansions) for s in e.tile_sets}
    return tuple(s for s in SETS if s in wanted)


def decision_kinds(expansions=None) -> tuple[str, ...]:
    """Decision kinds arising under `expansions` (None: under any rules)."""
    parts = PARTS if expansions is None else in_play(expansions)
    return tuple(d.name for e in parts for d in e.decisions)


def default_policies() -> dict[str, str]:
    """For every decision kind, the built-in policy that answers it by default."""
    return {d.name: d.default for e in PARTS for d in e.decisions}


def figures(expansions) -> tuple[str, ...]:
    return tuple(f for e in in_play(expansions) for f in e.figures)


def forks() -> dict[str, str]:
    """Counterfactual fork kind -> the expansion it needs."""
    return {f: e.name for e in EXPANSIONS for f in e.forks}


def options() -> tuple[Options, ...]:
    return tuple(e.options for e in EXPANSIONS if e.options is not None)


def analyses(expansions) -> tuple[str, ...]:
    return tuple(a for e in in_play(expansions) for a in e.analyses)


def columns() -> tuple[str, ...]:
    """Every expansion's players-table columns, in registry order."""
    return tuple(c for e in EXPANSIONS for c in e.columns)


def player_columns(p: dict) -> dict:
    """The expansion columns of one result()["players"] entry: each expansion's own
    when its result key is there, 0 otherwise."""
    row = dict.fromkeys(columns(), 0)
    for e in EXPANSIONS:
        if e.row is not None and e.result_keys[-1] in p:
            row.update(e.row(p))
    return row


def describe() -> list[str]:
    """One line per part of the rules (the CLI's listing)."""
    out = []
    for e in PARTS:
        bits = [f"rulings {', '.join(r + '-*' for r in e.rulings)}"]
        if e.tile_sets:
            bits.append(f"tiles {', '.join(e.tile_sets)}")
        if e.figures:
            bits.append(f"figures {', '.join(e.figures)}")
        if e.decisions:
            bits.append(f"decisions {', '.join(d.name for d in e.decisions)}")
        if e.options:
            bits.append(f"options [rules.{e.options.field}] {', '.join(sorted(e.options.keys))}")
        out.append(f"{e.name:9} {e.title}: {'; '.join(bits)}")
    return out

