"""Experiment configs (TOML): parsed and fully validated before any game runs.

    [run]      name, question (what the run answers, shown by `carcsim configs`),
               seed (master seed), blocks, shard_blocks (blocks a shard, or "auto":
               about a minute of one core each, sized from a timed pilot when the
               run starts, sim/tournament/shards.py), events (keep the events
               table), out (default output directory: a relative path inside the
               working directory, see OUT_RULE; `--out` may name any directory)
    [run.sprt] optional sequential stop: a generalised SPRT (Fishtest's GSPRT,
               sim/analysis/stats.py SPRT) on block scores in [0, 1]: arm (an arm
               name, or a player spec in head-to-head designs), baseline (variants:
               default the first arm), p0 = 0.5, p1 = 0.55 (the mean block score under
               H0 and H1: the arm's mean win share in a block, or in variants
               0.5 + (arm − baseline)/2 of the two win shares), alpha = beta = 0.05
    [rules]    players, expansions, [rules.messages] edition / zmg_alone / deck,
               [rules.variant] the parts' knobs (rule variants, sim/expansions/
               Knob, README's table): followers, farm_points; with The
               Messages two_points, dark_every, deck_<action> copies
    [design]   kind = "fixed" | "rotations" | "round_robin" | "variants"
               fixed, rotations: seats = [player spec per seat]
               round_robin:      pool = [player specs]; every table of `players`
                                 distinct specs, under every seat rotation
               variants:         arms = [{name, player}], opponents = [player specs];
                                 each arm in the focal seat against the opponents,
                                 under every seat rotation
               counterfactual:   seats, rollouts = k, forks = [decision kinds]; like
                                 rotations, and at every decision of those kinds the
                                 game is forked, k rollouts each
                                 (sim/tournament/counterfactual.py): "messages" (action
                                 vs 2 points, the default), "scoring_figure" (messenger
                                 vs meeple where they land differently), "road_figure"
                                 (messenger meeple vs follower on a road)
               seat_orders = "rotations" | "all"  (optional, not in fixed: the
                                 seat orders every table is played under; "all":
                                 every permutation, at most 5 players)
               editions = ["c3.1", "classic"]  (optional, with The Messages: every
                                 block is played under each edition)
               sweep = {knob = "two_points", values = [0, 2, 4]}  (optional, any
                                 kind: every block is played under each value of one
                                 [rules.variant] knob, common random numbers; the
                                 report draws each answer as a curve over the values)

A player spec is what `carcsim play --players` takes: `greedy`,
`greedy(city=2.0)+messages=always_2`. Every error is one line naming the file and
the field (InputError).

The shipped configs live in `sim/configs/` (package data): `carcsim run quickstart`
names one by its stem, `carcsim configs` lists them with their questions.
"""

from __future__ import annotations

import difflib

import hashlib
import json
import math
import re
from contextvars import ContextVar
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path, PurePosixPath

from sim import expansions as registry
from sim.errors import InputError, check_keys, quote
from sim.expansions.messages import EDITIONS, KIND
from sim.engine import deal
from sim.engine.rules import Rules, tiles_hash
from sim.formats.tiles import read_tile_lists
from sim.text import parse_toml, read_input, split_top
from strategies import player, plugins

DESIGNS = ("fixed", "rotations", "round_robin", "variants", "counterfactual")
RUN_KEYS = {"name", "question", "seed", "blocks", "shard_blocks", "events", "out", "sprt"}
SPRT_KEYS = {"arm", "baseline", "p0", "p1", "alpha", "beta"}
# [rules] keys: the base game's and one table per expansion with options (sim/expansions/)
RULES_KEYS = {"players", "expansions", "followers", "variant", "tiles"} | {o.field for o in registry.options()}
DESIGN_KEYS = {"kind", "seats", "pool", "arms", "opponents", "editions", "rollouts", "forks", "sweep",
               "seat_orders"}
# the design keys only some kinds read (the others: every kind)
USED_BY = {"seats": ("fixed", "rotations", "counterfactual"), "pool": ("round_robin",),
           "arms": ("variants",), "opponents": ("variants",), "rollouts": ("counterfactual",),
           "forks": ("counterfactual",),
           "seat_orders": ("rotations", "round_robin", "variants", "counterfactual")}
# [design] seat_orders: the seat orders each table is played under (sim/tournament/plan.py
# seat_orders); "all" plays players! orders, so at most MAX_ALL_ORDERS_PLAYERS players
# (120 games a table: the records' rotation column is an 8-bit order index)
SEAT_ORDERS = ("rotations", "all")
MAX_ALL_ORDERS_PLAYERS = 5
# counterfactual fork kinds and the expansion each needs
FORKS = registry.forks()
DEFAULT_FORKS = (KIND,)  # a counterfactual design forks at The Messages' message draws
NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")
# A config may be anyone's file: it may not make carcsim write outside the directory
# where it runs. (A path typed as `--out` is the user's own choice and is not limited.)
OUT_RULE = ("a relative directory inside the working directory (no '..', not absolute, no blank, "
            "padded or '~' part, no part over 255 bytes)")


AUTO = 0  # Experiment.shard_blocks of `shard_blocks = "auto"` (sim/tournament/shards.py)
DEFAULT_SHARD_BLOCKS = 50


@dataclass(frozen=True)
class Arm:
    name: str
    player: str


@dataclass(frozen=True)
class Experiment:
    path: str
    name: str
    seed: int
    blocks: int
    shard_blocks: int
    events: bool
    out: str
    rules: Rules
    design: str
    seats: tuple[str, ...] = ()
    pool: tuple[str, ...] = ()
    arms: tuple[Arm, ...] = ()
    opponents: tuple[str, ...] = ()
    editions: tuple[str, ...] = ()
    rollouts: int = 0
    sprt: tuple = ()  # (arm, baseline or "", p0, p1, alpha, beta) when the run may stop early
    source: str = ""  # the TOML text, kept in the manifest
    forks: tuple[str, ...] = ()  # counterfactual designs: the decision kinds forked
    question: str = ""  # what the run answers (not part of its identity)
    # (file as named, text) of each strategy file the seats name: shipped with the run
    # to its workers (strategies/plugins.py); their hashes are part of its identity
    plugins: tuple[tuple[str, str], ...] = ()
    # a sweep: (knob name, its values), every block played under each (sim/tournament/plan.py)
    sweep: tuple = ()
    # the seat orders every table is played under: "rotations" (players of them) or "all"
    # (every permutation; sim/tournament/plan.py seat_orders). Not for a fixed design
    seat_orders: str = "rotations"

    def canonical(self) -> dict:
        """Everything that decides the games, as plain JSON values (the run's identity;
        `out` and `path` are not part of it)."""
        return ({"name": self.name, "seed": self.seed, "blocks": self.blocks,
                "shard_blocks": "auto" if self.shard_blocks == AUTO else self.shard_blocks,
                "events": self.events,
                "sprt": list(self.sprt),
                "rules": rules_dict(self.rules),
                "design": {"kind": self.design, "seats": list(self.seats), "pool": list(self.pool),
                           "arms": [[a.name, a.player] for a in self.arms],
                           "opponents": list(self.opponents), "editions": list(self.editions),
                           "rollouts": self.rollouts}
                | ({"seat_orders": self.seat_orders} if self.seat_orders != "rotations" else {})
                | ({"forks": list(self.forks)} if self.forks not in ((), DEFAULT_FORKS) else {})
                | ({"sweep": {"knob": self.sweep[0], "values": list(self.sweep[1])}}
                   if self.sweep else {})}
                | ({"plugins": plugin_hashes(self.plugins)} if self.plugins else {}))

    def fingerprint(self) -> str:
        return fingerprint_of(self.canonical())

    def run_id(self) -> str:
        """The id every record row of a run of this experiment carries (run_id_of)."""
        return run_id_of(self.canonical())


def fingerprint_of(canonical: dict) -> str:
    """A run's identity: the hash of its canonical config (Experiment.canonical)."""
    blob = json.dumps(canonical, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def run_id_of(canonical: dict) -> str:
    """A run's id in its records: the hash of its canonical config without `blocks`, so
    a run extended to more blocks keeps its id (and its rows their keys), and two
    directories of one config, whose games are the same, have the same id."""
    return fingerprint_of({k: v for k, v in canonical.items() if k != "blocks"})


def shown(key: str, value, limit: int = 80) -> str:
    """A config value in a one-line message: a tile list ([rules.tiles]) by its mark, not
    its text ("the tile list 1f90f783"; a table of them: {set: mark}); anything else as
    text, at most `limit` characters."""
    if key.split(".")[-1] == "tiles" and isinstance(value, dict):
        return ", ".join(f"{k} = the tile list {tiles_hash(v)}" if isinstance(v, str) else f"{k} = {v!r}"
                         for k, v in value.items()) or "the shipped tile sets"
    if key.split(".")[-1] == "tiles" and value is None:
        return "the shipped tile sets"
    if ".tiles." in f".{key}" and isinstance(value, str):
        return f"the tile list {tiles_hash(value)}"
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def rules_dict(rules: Rules) -> dict:
    """The rules as plain JSON values (a run's identity, `play --json`)."""
    return {"players": rules.players, "expansions": list(rules.expansions),
            "followers": rules.followers,
            **{o.field: o.plain(getattr(rules, o.field)) for o in registry.options()},
            # rule variants only when set: the rules as written keep their identity
            **({"variant": dict(rules.variant)} if rules.variant else {}),
            # tile lists only when set, as their texts: a run's identity is its tiles, not
            # where their files were
            **({"tiles": dict(rules.tiles)} if rules.tiles else {})}


def check_player(spec: str, rules: Rules, where: str):
    """The player of `spec`, refusing a policy that would answer no decision of a game
    under `rules` (it would silently hand every decision to the defaults). A spec naming
    a strategy file is only read as text while parse_experiment reads no files."""
    if not _LOAD_FILES.get() and plugins.names_a_file(spec):
        return None
    from strategies.registry import kinds_of, parse_policy

    seat = player(spec, where)
    kinds = set(registry.decision_kinds(rules.expansions))
    head, *rest = split_top(spec, "+")
    answers = set(kinds_of(parse_policy(head, where)))
    wanted = [part.partition("=")[0] for part in rest]
    for kind in wanted:
        if kind not in kinds:
            raise InputError(f"{where}: {spec!r}: no {kind!r} decision arises under these rules "
                             f"(expansions: {', '.join(rules.expansions) or 'none'})")
    if not answers & kinds:
        raise InputError(f"{where}: {head.strip()!r} answers only "
                         f"{', '.join(sorted(answers))} decisions, and none arises under these "
                         f"rules (expansions: {', '.join(rules.expansions) or 'none'}): expected a "
                         f"policy for {', '.join(sorted(kinds))}, e.g. greedy")
    return seat


def _get(table: dict, key: str, kind: type, where: str, expected: str, default=None, check=None):
    if key not in table:
        if default is None:
            raise InputError(f"{where}.{key}: missing: expected {expected}")
        return default
    v = table[key]
    if not isinstance(v, kind) or (isinstance(v, bool) and kind is not bool):
        raise InputError(f"{where}.{key} = {quote(v)}: expected {expected}")
    if check is not None and not check(v):
        raise InputError(f"{where}.{key} = {quote(v)}: expected {expected}")
    return v


def _specs(table: dict, key: str, where: str, rules: Rules) -> tuple[str, ...]:
    v = _get(table, key, list, where, "a list of player specs")
    if not v or any(not isinstance(s, str) for s in v):
        raise InputError(f"{where}.{key} = {v!r}: expected a non-empty list of player specs")
    for i, spec in enumerate(v):
        check_player(spec, rules, f"{where}.{key}[{i}]")  # unknown strategy or parameter fails here
    return tuple(v)


def parse_experiment(text: str, path: str, strategy_files: bool = True,
                     tile_texts: dict | None = None) -> Experiment:
    """Parse and validate an experiment. Raises InputError `FILE: field: expected …`.

    `strategy_files` False: a seat naming a user's strategy file is taken as written,
    neither loaded nor shipped (reading a finished run's manifest, on a machine that
    need not hold the file). `tile_texts` ({tile set: text}, a stored run's): the tile
    lists of [rules.tiles] taken from there, not read from their files."""
    token = _LOAD_FILES.set(strategy_files)
    try:
        return _parse_experiment(text, path, strategy_files, tile_texts)
    finally:
        _LOAD_FILES.reset(token)


# whether check_player loads the strategy files a spec names (parse_experiment's switch)
_LOAD_FILES: ContextVar[bool] = ContextVar("load_strategy_files", default=True)


def _parse_experiment(text: str, path: str, strategy_files: bool, tile_texts: dict | None) -> Experiment:
    data = parse_toml(text, path)
    check_keys(data, {"run", "rules", "design"}, f"{path}:")
    run = _get(data, "run", dict, path, "a [run] table", {})
    check_keys(run, RUN_KEYS, f"{path}: run")
    w = f"{path}: run"
    name = _get(run, "name", str, w, "a name of letters, digits, '_', '-', '.' (at most 64)",
                Path(path).stem, NAME.fullmatch)
    if "name" not in run and not NAME.fullmatch(name):  # the default, the file's, is held to it too
        raise InputError(f"{w}.name: missing, and the file's name {quote(name)} is no run name: expected "
                         f"run.name = a name of letters, digits, '_', '-', '.' (at most 64)")
    question = _get(run, "question", str, w, "one line of text", "",
                    lambda v: v.isprintable() and len(v) <= 200)
    seed = _get(run, "seed", int, w, "a whole number ≥ 0", 0, lambda v: v >= 0)
    blocks = _get(run, "blocks", int, w, "a whole number ≥ 1", None, lambda v: v >= 1)
    # "auto": sized when the run starts, to about SHARD_SECONDS of one core each
    shard_blocks = _get(run, "shard_blocks", (int, str), w, 'a whole number ≥ 1 or "auto"',
                        DEFAULT_SHARD_BLOCKS,
                        lambda v: v == "auto" if isinstance(v, str) else v >= 1)
    shard_blocks = AUTO if shard_blocks == "auto" else shard_blocks
    events = _get(run, "events", bool, w, "true or false", False)
    out = _get(run, "out", str, w, OUT_RULE, f"runs/{name}", _inside)

    rules_t = _get(data, "rules", dict, path, "a [rules] table", {})
    check_keys(rules_t, RULES_KEYS, f"{path}: rules")
    w = f"{path}: rules"
    players = _get(rules_t, "players", int, w, "a whole number 2..6", 2)
    expansions = _get(rules_t, "expansions", list, w, "a list of expansion names", [])
    followers = _get(rules_t, "followers", int, w, "a whole number 0..30", 7)
    tables = {}
    for o in registry.options():
        tables[o] = _get(rules_t, o.field, dict, w, f"a [rules.{o.field}] table", {})
        check_keys(tables[o], o.keys, f"{path}: rules.{o.field}")
    variant = _get(rules_t, "variant", dict, w, "a [rules.variant] table of knob = value", {})
    known = all(isinstance(e, str) and e in registry.BY_NAME for e in expansions)
    tiles = read_tile_lists(_get(rules_t, "tiles", dict, w, "a [rules.tiles] table of tile set = tile file", {}),
                            w, registry.tile_sets(expansions) if known else None, tile_texts)
    try:
        options = {o.field: o.build(t) for o, t in tables.items()}
        rules = Rules(players=players, expansions=tuple(expansions), followers=followers,
                      variant=tuple(variant.items()), tiles=tiles, **options)
    except InputError as e:
        raise InputError(f"{path}: {e}") from None
    if rules.tiles:
        try:
            deal.check_tiles(rules)
        except InputError as e:
            raise InputError(f"{w}.tiles: {e}") from None
    for e in registry.EXPANSIONS:  # options of an expansion not played would do nothing
        if e.options is not None and tables[e.options] and e.name not in rules.expansions:
            raise InputError(f"{w}.{e.options.field}: set, but {e.name!r} is not in rules.expansions: "
                             f"expected it there, or no [rules.{e.options.field}] table")

    design = _get(data, "design", dict, path, "a [design] table")
    check_keys(design, DESIGN_KEYS, f"{path}: design")
    w = f"{path}: design"
    kind = _get(design, "kind", str, w, " or ".join(DESIGNS), None, lambda v: v in DESIGNS)
    for key, kinds in USED_BY.items():  # a key the kind never reads would be silently ignored
        if key in design and kind not in kinds:
            raise InputError(f"{w}.{key}: a {kind} design does not use it: expected it only in a "
                             f"{' or '.join(kinds)} design")
    seats = pool = opponents = ()
    arms: tuple[Arm, ...] = ()
    rollouts = 0
    forks: tuple[str, ...] = ()
    if kind == "counterfactual":
        forks = tuple(_get(design, "forks", list, w, f"a list of {', '.join(FORKS)}", list(DEFAULT_FORKS)))
        if (not forks or not all(isinstance(f, str) for f in forks) or len(set(forks)) != len(forks)
                or any(f not in FORKS for f in forks)):
            raise InputError(f"{w}.forks = {list(forks)!r}: expected distinct names from "
                             f"{', '.join(FORKS)}")
        for f in forks:
            if FORKS[f] not in rules.expansions:
                raise InputError(f"{w}.forks: {f!r} forks need {FORKS[f]!r} among rules.expansions")
        rollouts = _get(design, "rollouts", int, w, "a whole number 1..100", 4,
                        lambda v: 1 <= v <= 100)
    if kind in ("fixed", "rotations", "counterfactual"):
        seats = _specs(design, "seats", w, rules)
        if len(seats) != players:
            raise InputError(f"{w}.seats: {len(seats)} players for a {players}-player game: "
                             f"expected {players}")
    elif kind == "round_robin":
        pool = _specs(design, "pool", w, rules)
        if len(pool) < players:
            raise InputError(f"{w}.pool: {len(pool)} specs: expected at least {players} for a "
                             f"{players}-player table")
    else:
        raw = _get(design, "arms", list, w, "a list of {name, player} tables")
        parsed = []
        for i, a in enumerate(raw):
            if not isinstance(a, dict) or set(a) != {"name", "player"} \
                    or not all(isinstance(a[k], str) for k in a):
                raise InputError(f"{w}.arms[{i}] = {a!r}: expected {{name = \"…\", player = \"…\"}}")
            check_player(a["player"], rules, f"{w}.arms[{i}].player")
            parsed.append(Arm(a["name"], a["player"]))
        if not parsed or len({a.name for a in parsed}) != len(parsed):
            raise InputError(f"{w}.arms: expected at least one arm, with distinct names")
        arms = tuple(parsed)
        opponents = _specs(design, "opponents", w, rules)
        if len(opponents) > players - 1:  # fewer are cycled over the seats; more never play
            raise InputError(f"{w}.opponents: {len(opponents)} specs for the {players - 1} seats "
                             f"beside the arm: expected at most {players - 1}")
    editions = tuple(_get(design, "editions", list, w, "a list of editions", []))
    if editions:
        if registry.DESIGN_KEYS["editions"] not in rules.expansions:
            raise InputError(f"{w}.editions: The Messages is not among rules.expansions")
        if any(e not in EDITIONS for e in editions) or len(set(editions)) != len(editions):
            raise InputError(f"{w}.editions = {list(editions)!r}: expected distinct names from "
                             f"{', '.join(EDITIONS)}")
    sprt = _parse_sprt(run, f"{path}: run", kind, seats, pool, arms)
    for e in editions:  # each edition must make valid rules (zmg_alone is classic only; a
        # fixed deck must name messages of every edition played), named with the file
        registry.edition_options(rules, e).validate(f"{w}.editions = {e!r}: rules.messages")
    sweep = _parse_sweep(design, w, path, rules, editions)
    seat_orders = _get(design, "seat_orders", str, w, " or ".join(f'"{o}"' for o in SEAT_ORDERS),
                       "rotations", lambda v: v in SEAT_ORDERS)
    if seat_orders == "all" and players == 2:  # both orders are the two rotations: the same run
        seat_orders = "rotations"
    if seat_orders == "all" and players > MAX_ALL_ORDERS_PLAYERS:
        raise InputError(f"{w}.seat_orders = {quote(seat_orders)}: {players} players have {math.factorial(players):,} "
                         f"seat orders: expected at most {MAX_ALL_ORDERS_PLAYERS} players "
                         f"({math.factorial(MAX_ALL_ORDERS_PLAYERS)} orders)")
    specs = [*seats, *pool, *(a.player for a in arms), *opponents]
    shipped = tuple(plugins.sources(specs, f"{path}: design").items()) if strategy_files else ()
    return Experiment(path, name, seed, blocks, shard_blocks, events, out, rules, kind, seats,
                      pool, arms, opponents, editions, rollouts, sprt, text, forks, question,
                      shipped, sweep, seat_orders)


MAX_SWEEP_VALUES = 50


def _parse_sweep(design: dict, w: str, path: str, rules: Rules, editions) -> tuple:
    """[design] sweep = {knob, values}: a knob of a part in play that [rules.variant]
    leaves alone, 2..50 distinct whole values, each making valid rules under every
    edition played (so the whole sweep is checked before a game runs)."""
    if "sweep" not in design:
        return ()
    sweep = _get(design, "sweep", dict, w, 'a {knob = "…", values = […]} table')
    check_keys(sweep, {"knob", "values"}, f"{w}.sweep")
    knob = _get(sweep, "knob", str, f"{w}.sweep", f"one of {', '.join(registry.KNOBS)}", None,
                lambda v: v in registry.KNOBS)
    values = _get(sweep, "values", list, f"{w}.sweep", "a list of whole numbers", None)
    if not 2 <= len(values) <= MAX_SWEEP_VALUES or len(set(map(repr, values))) != len(values):
        raise InputError(f"{w}.sweep.values = {values!r}: expected 2..{MAX_SWEEP_VALUES} distinct values")
    if rules.knob(knob) != registry.KNOBS[knob][1].default:
        raise InputError(f"{w}.sweep.knob = {knob!r}: the rules set it already ({knob} = "
                         f"{rules.knob(knob)}): expected a knob the rules leave at its default")
    for e in editions or [""]:
        for v in values:
            try:
                sweep_rules(registry.with_edition(rules, e), knob, v)
            except InputError as err:
                raise InputError(f"{path}: design.sweep: {knob} = {v!r}"
                                 f"{f' under the {e} edition' if e else ''}: {err}") from None
    return (knob, tuple(values))


def sweep_rules(rules: Rules, knob: str, value) -> Rules:
    """`rules` with [rules.variant] `knob` = `value` (InputError when it cannot be)."""
    return replace(rules, variant=dict(rules.variant) | {knob: value})


def plugin_hashes(shipped) -> dict[str, str]:
    """{strategy file as named: sha256 of its text} (a run's identity, its manifest)."""
    return plugins.hashes(dict(shipped))


def _inside(out: str) -> bool:
    p = PurePosixPath(out)
    # no part that is blank, padded or starts with "~": a config naming "~/x" or "  "
    # would create folders of those names, surely not what its author meant
    return (out.isprintable() and "\\" not in out and bool(p.parts) and not p.is_absolute()
            and ".." not in p.parts
            and all(part.strip() == part and part and not part.startswith("~") for part in p.parts)
            # what the file system takes (NAME_MAX, PATH_MAX): `validate` refuses what `run` would hit
            and all(len(part.encode()) <= 255 for part in p.parts) and len(out.encode()) < 4000)


def _parse_sprt(run: dict, where: str, kind: str, seats, pool, arms) -> tuple:
    t = _get(run, "sprt", dict, where, "a [run.sprt] table", {})
    if not t:
        return ()
    w = f"{where}.sprt"
    check_keys(t, SPRT_KEYS, w)
    prob = lambda v: isinstance(v, float) and 0 < v < 1  # noqa: E731
    p0 = _get(t, "p0", float, w, "a probability in (0, 1)", 0.5, prob)
    p1 = _get(t, "p1", float, w, "a probability in (0, 1), not p0", 0.55, lambda v: prob(v) and v != p0)
    alpha = _get(t, "alpha", float, w, "an error rate in (0, 0.5)", 0.05, lambda v: 0 < v < 0.5)
    beta = _get(t, "beta", float, w, "an error rate in (0, 0.5)", 0.05, lambda v: 0 < v < 0.5)
    arm = _get(t, "arm", str, w, "an arm name or a player spec of the design")
    if kind == "variants":
        names = [a.name for a in arms]
        baseline = _get(t, "baseline", str, w, f"one of {', '.join(names)}", names[0],
                        lambda v: v in names)
        if arm not in names or arm == baseline:
            raise InputError(f"{w}.arm = {arm!r}: expected one of {', '.join(names)}, not the baseline")
    else:
        if "baseline" in t:
            raise InputError(f"{w}.baseline: only variants designs compare arms; here `arm` is a "
                             f"player spec whose win share is tested")
        specs = seats or pool
        if arm not in specs and len(set(specs)) >= 2:  # another spelling of one of them
            from strategies.canonical import canonical

            mine = canonical(arm, where=f"{w}.arm")
            same = [s for s in dict.fromkeys(specs) if canonical(s, where=f"{w}.arm") == mine]
            if len(same) == 1:
                arm = same[0]  # the design's spelling: the players table names it so
        if arm not in specs or len(set(specs)) < 2:
            raise InputError(f"{w}.arm = {arm!r}: expected one of the design's player specs "
                             f"({', '.join(dict.fromkeys(specs))}), in a design with two or more")
        baseline = ""
    return (arm, baseline, p0, p1, alpha, beta)


def shipped_configs() -> dict[str, Path]:
    """The configs shipped in the package, by name (file stem)."""
    folder = resources.files("sim") / "configs"
    return {p.name[:-5]: Path(str(p)) for p in sorted(folder.iterdir(), key=lambda p: p.name)
            if p.name.endswith(".toml")}


def resolve(ref: str | Path) -> Path:
    """A config path: `ref` itself when it names a file (or looks like a path), else the
    shipped config of that name."""
    path = Path(ref)
    shipped = shipped_configs()
    if path.exists():
        return path
    if path.suffix or len(path.parts) != 1:
        if path.stem in shipped and path.suffix == ".toml":  # e.g. the old configs/NAME.toml
            raise InputError(f"{ref}: cannot read config: No such file or directory; the shipped "
                             f"config of that name is `{path.stem}` (carcsim run {path.stem})")
        return path
    if str(ref) in shipped:
        return shipped[str(ref)]
    # the shipped configs are too many to list in one line: the closest names instead
    close = difflib.get_close_matches(str(ref), list(shipped), n=3)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    raise InputError(f"{ref}: no such config file, and no shipped config of that name: expected a "
                     f"path or a shipped config's name (carcsim configs lists them){hint}")


def load_experiment(ref: str | Path) -> Experiment:
    path = resolve(ref)
    return parse_experiment(read_input(path, "config"), str(path))
