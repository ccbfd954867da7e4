"""The expansion registry (STYLE.md rule 2): what each part of the rules brings.

One frozen declaration per part of the rules ("base" and each expansion), filled in by
its own module (sim/expansions/<name>.py; the types are declaration.py's): the
rulings it implements (ids of docs/RULES.md), the tile sets it adds, the figure kinds
it adds, the decision kinds it adds with the built-in policy that answers each when
a seat's own policy does not, its options (the config table, its keys and how they
become a value of Rules), the counterfactual forks it makes possible, the key it adds
to each player's result and the record columns that key becomes with their meanings,
the read-only snapshot of its state a strategy sees, its rule editions and deck, its
scripted-turn keys and answers, and its pictures (figure shapes, tile marks).

The engine (the C core, sim/csrc) implements the rules; the declarations describe
them, and say what the C boundary needs of each part: its CC_X_* bit, the built-in
tiles it adds to the catalogue and the board, how it fills cc_game_config and its
policies' parameters in cc_seat_policy, how its events, decisions and history rows
read, what it reads of the C game's state (Game.msg, Game.mm, Game.courier_at,
Game.river_end), and which slice of cc_game_result's row (ROW_*, the layout of
sim/csrc/core.h) becomes its part of result() and of the players table.

Everything outside the expansions' modules asks this registry instead of testing which
expansion is on (tests/test_expansion_guard.py walks sim/ and strategies/ for such a
test): sim/engine/rules.py (names, tile sets, options), sim/engine/deal.py, game.py and
seats.py (the C boundary: config, events, decisions, state, policies),
sim/engine/view.py (snapshots), sim/formats/log.py (log lines, put there by EVENTS'
registration below), sim/games/script.py (turn keys and answers), sim/games/render.py
(pictures), sim/tournament/config.py (options, decisions, forks), plan.py, worker.py
and sim/cli/main.py (editions), sim/tournament/records.py (columns),
strategies/__init__.py (default policies), strategies/search.py (the deck),
sim/analysis/report.py (sections).
"""

from __future__ import annotations

from dataclasses import replace

from sim.errors import InputError
from sim.expansions import abbot, base, courier, mayors, messages, river
from sim.expansions.declaration import DecisionKind, Expansion, Knob, Options  # noqa: F401  (the types)
from sim.formats import log
from sim.formats.tiles import SETS

BASE = base.BASE
# The registration lines. Declaration order is the order of Rules.expansions listings
# and of the differential harness's combinations; tile sets follow
# sim/formats/tiles.py SETS, record columns this order.
EXPANSIONS: tuple[Expansion, ...] = (messages.MESSAGES, river.RIVER, courier.COURIER, mayors.MAYORS,
                                     abbot.ABBOT_EXPANSION)
BY_NAME: dict[str, Expansion] = {e.name: e for e in EXPANSIONS}
PARTS = (BASE, *EXPANSIONS)
# the order of the parts' figures in a picture's legend (sim/games/render.py): the order
# they came into the pictures in, which keeps every picture as it was drawn; a part
# added later comes after them
_LEGEND_FIRST = (BASE, mayors.MAYORS, courier.COURIER, messages.MESSAGES, abbot.ABBOT_EXPANSION)
LEGEND_ORDER: tuple[Expansion, ...] = _LEGEND_FIRST + tuple(e for e in PARTS if e not in _LEGEND_FIRST)
DESIGN_KEYS: dict[str, str] = {k: e.name for e in EXPANSIONS for k in e.design_keys}
NAMES: tuple[str, ...] = tuple(BY_NAME)
# the part with rule editions: what the CLI's --edition and [design] editions choose
EDITIONED: Expansion = next(e for e in EXPANSIONS if e.editions)
# every event an expansion adds, its decoder (sim/engine/game.py) and its turn log line
# (sim/formats/log.py, which knows the base game's lines only)
EVENTS: dict = {name: decode for e in EXPANSIONS for name, decode in e.events.items()}
log.LINES.update({name: line for e in EXPANSIONS for name, line in e.lines.items()})
# every decision an expansion adds, by cc_game_decision kind: its decoder, and that of
# its choices as Game.history gives them (sim/engine/game.py)
DECISIONS: dict = {kind: read for e in EXPANSIONS for kind, read in e.read_decision.items()}
CHOICES: dict = {kind: read for e in EXPANSIONS for kind, read in e.read_choice.items()}
# every snapshot a strategy's view offers, by name: the function building it (sim/engine/view.py)
SNAPSHOTS: dict = {e.snapshot: e.view for e in EXPANSIONS if e.snapshot}
# every part's rule variants by name: (the part, its Knob), in registry order
KNOBS: dict = {k.name: (e, k) for e in PARTS for k in e.knobs}
# the Game attributes reading an expansion's state: name -> (the expansion, its reader)
STATE: dict = {name: (e, read) for e in EXPANSIONS for name, read in e.state.items()}


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


def policy_edition(rules) -> str:
    """The edition of EDITIONED's options in `rules`, in play or not: the one the seats'
    built-in policies are made for (a message policy's overrides name its actions)."""
    return getattr(rules, EDITIONED.options.field).edition


def edition_options(rules, edition: str):
    """EDITIONED's options of `rules` under `edition`, a fixed deck included (its games
    are played with it: with_edition): what a [design] editions entry must make valid."""
    return replace(getattr(rules, EDITIONED.options.field), edition=edition)


def with_deck(rules, deck: tuple[str, ...]):
    """`rules` with the deck of the part that deals one (deck_options) fixed to `deck`."""
    part = next(e for e in in_play(rules.expansions) if e.deck)
    return replace(rules, **{part.options.field: replace(getattr(rules, part.options.field), deck=deck)})


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
    """The tile sets a game under `expansions` uses, in sim/formats/tiles.py SETS order (the
    catalogue's order, hence every tile index and the shuffles)."""
    wanted = {s for e in in_play(expansions) for s in e.tile_sets}
    return tuple(s for s in SETS if s in wanted)


def unread_params(expansions) -> dict[str, str]:
    """Parameters of built-in policies that nothing reads under `expansions`: name -> the
    title of the expansion (not in play) whose rules alone read it."""
    playing = {e.name for e in in_play(expansions)}
    return {p: e.title for e in PARTS if e.name not in playing for p in e.policy_params}


def decision_kinds(expansions=None) -> tuple[str, ...]:
    """Decision kinds arising under `expansions` (None: under any rules)."""
    parts = PARTS if expansions is None else in_play(expansions)
    return tuple(d.name for e in parts for d in e.decisions)


def default_policies() -> dict[str, str]:
    """For every decision kind, the built-in policy that answers it by default."""
    return {d.name: d.default for e in PARTS for d in e.decisions}


def action_name(kind: int, code: int) -> str:
    """The name of step-2 action `code` of figure kind `kind` ("recall"), "" if none."""
    for e in EXPANSIONS:
        if code in e.actions.get(kind, {}):
            return e.actions[kind][code]
    return ""


def action_code(kind: int, name: str) -> int | None:
    """The code of the step-2 action named `name` of figure kind `kind`, None if none."""
    for e in EXPANSIONS:
        for code, n in e.actions.get(kind, {}).items():
            if n == name:
                return code
    return None


def event_decoder(name: str):
    """The decoder an expansion declares for event `name`, None for the core's own."""
    return EVENTS.get(name)


def figures(expansions) -> tuple[str, ...]:
    return tuple(f for e in in_play(expansions) for f in e.figures)


def forks() -> dict[str, str]:
    """Counterfactual fork kind -> the expansion it needs."""
    return {f: e.name for e in EXPANSIONS for f in e.forks}


def check_variant(variant, expansions, where: str, rules=None) -> None:
    """Refuse a [rules.variant] entry (name, value) naming no knob, a knob of a part
    not in play, a value outside its knob's range, or knobs the rules cannot take
    together (each part's `check_rules`): one line naming it."""
    for name, value in variant:
        if name not in KNOBS:
            raise InputError(f"{where}.variant.{name}: unknown knob: expected one of "
                             f"{', '.join(KNOBS)}")
        part, knob = KNOBS[name]
        if part is not BASE and part.name not in expansions:
            raise InputError(f"{where}.variant.{name}: {part.title} is not among the expansions")
        knob.check(value, where)
    if rules is not None:
        for part in in_play(expansions):
            if part.check_rules is not None:
                part.check_rules(rules, where)


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
        if e.knobs:
            bits.append("variants [rules.variant] " + ", ".join(
                f"{k.name} {k.lo}..{k.hi} (default {k.default}, {k.ruling})" for k in e.knobs))
        out.append(f"{e.name:9} {e.title}: {'; '.join(bits)}")
    return out

