"""The expansion registry (STYLE.md rule 2): what each part of the rules brings.

One frozen declaration per part of the rules ("base" and each expansion): the
rulings it implements (ids of docs/RULES.md), the tile sets it adds, the figure kinds
it adds, the decision kinds it adds with the built-in policy that answers each when
a seat's own policy does not, its options (the config table, its keys and how they
become a value of Rules), the counterfactual forks it makes possible, the key it adds
to each player's result and the record columns that key becomes, and the read-only
snapshot of its state a strategy sees (sim/view.py).

Everything outside the engines asks this registry instead of testing which expansion
is on: sim/rules.py (names, tile sets), sim/config.py (options, decisions, forks),
strategies/__init__.py (default policies), sim/tournament/records.py (columns),
sim/view.py (snapshots), sim/render.py, sim/analysis/report.py.

The engines (sim/game.py and its modules, sim/cgame.py, the C core) implement the
rules; the declarations only describe them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sim.errors import InputError
from sim.messages import ALL_ACTIONS, MessagesOptions
from sim.tiles import SETS


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
        script_keys=("score_on", "message", "message_target"), snapshot="messages"),
    Expansion("river", "the River", ("R-RIV",), tile_sets=("river",), snapshot="river"),
    Expansion("courier", "the Courier", ("R-COU",), tile_sets=("courier",), figures=("courier",),
              snapshot="courier"),
    Expansion(
        "mayors", "Messengers & Mayors", ("R-MM",), tile_sets=("mayors",),
        figures=("mayor", "messenger meeple", "scarecrow"),
        decisions=tuple(DecisionKind(k, "greedy")
                        for k in ("figure", "town_hall", "favour", "scarecrow", "ride")),
        forks=("road_figure",), result_keys=("mayors",), columns=MAYORS_COLUMNS, row=_mayors_row,
        script_keys=("favour", "ride", "scarecrow"), snapshot="mayors"),
)
BY_NAME: dict[str, Expansion] = {e.name: e for e in EXPANSIONS}
DESIGN_KEYS: dict[str, str] = {k: e.name for e in EXPANSIONS for k in e.design_keys}
NAMES: tuple[str, ...] = tuple(BY_NAME)
PARTS = (BASE, *EXPANSIONS)


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

