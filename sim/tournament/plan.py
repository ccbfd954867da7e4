"""The plan of an experiment: blocks × (edition × table × seat order) → games.

A block is one game seed, derived from (master seed, block) only, played under every
seat order (the rotations, or every permutation with `seat_orders = "all"`) and every
variant being compared, so paired comparisons share their
tiles (common random numbers). game_id = block × games_per_block + index within the
block, so any game can be recomputed alone. Shards are runs of `shard_blocks` blocks.

The rules are resolved here, once: every block is played under each *setting*, an
edition of The Messages (a [design] editions list) times a value of the swept knob (a
[design] sweep), and each planned game carries the concrete Rules it is played by, so
a worker only plays them.

Each distinct game is played once. A rotation or variant whose seats hold the same
effective specs as a game already in the block (and edition) would replay it bit for
bit (games are a function of rules, seed and seat specs), so it is not scheduled: a
mirror rotation (greedy vs greedy, seats permuted) adds its focal seat to the game
already planned, and a variant identical to an earlier one (in this edition) has no
games of its own. A spec's "effective" form drops restrictions of message actions
the edition does not have (an arm restricting extra_tile plays as unrestricted
greedy in c3.1). Which games are dropped depends on the specs only, so every block
has the same number of games and game ids stay dense.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations, permutations

from sim import expansions
from sim.engine.rules import Rules
from sim.errors import InputError, quote
from sim.tournament.config import Experiment, sweep_rules
from sim.engine.rng import derive


@dataclass(frozen=True)
class GameSpec:
    game_id: int
    block: int
    seed: int
    variant: str  # arm name, table name ("a+b"), or "" for fixed and rotations
    rotation: int  # the seat order's index in seat_orders(exp): seat s plays table[order[s]]
    edition: str  # The Messages' edition, "" when not in play
    seats: tuple[str, ...]  # player spec per seat
    focal: tuple[int, ...]  # the seats of the arm's player (variants; two in a mirror), else ()
    rules: Rules  # the rules it is played by (its setting's)
    sweep: int | None = None  # the swept knob's value, None without a sweep


@dataclass(frozen=True)
class Setting:
    """Rules every block is played under: The Messages' `edition` ("" when not in play
    or not varied: the rules' own) and the swept knob's `value` (None without a sweep)."""

    edition: str
    value: int | None
    rules: Rules


@lru_cache(maxsize=32)
def settings(exp: Experiment) -> tuple[Setting, ...]:
    """Every setting of the run, editions outermost, in config order."""
    out = []
    for edition in _editions(exp):
        rules = expansions.with_edition(exp.rules, edition)
        for value in (exp.sweep[1] if exp.sweep else (None,)):
            out.append(Setting(edition, value, rules if value is None else
                               sweep_rules(rules, exp.sweep[0], value)))
    return tuple(out)


def tables(exp: Experiment) -> list[tuple[str, tuple[str, ...], bool]]:
    """(variant name, seat specs before rotation, focal in seat 0?) per table."""
    n = exp.rules.players
    if exp.design in ("fixed", "rotations", "counterfactual"):
        return [("", exp.seats, False)]
    if exp.design == "round_robin":
        return [("+".join(t), t, False) for t in combinations(exp.pool, n)]
    opp = [exp.opponents[i % len(exp.opponents)] for i in range(n - 1)]
    return [(a.name, (a.player, *opp), True) for a in exp.arms]


def effective_spec(spec: str, edition: str, kinds=None, unread=()) -> str:
    """`spec` as it plays under `edition` over the decision kinds `kinds` that arise:
    its canonical spelling (strategies/canonical.py), so equal players are one however
    they are spelt: `greedy+scoring_figure=dark_seeker` is `greedy`, parameters equal
    to defaults are dropped, and so are restrictions of message actions the edition
    does not have (they never come into play), and parameters `unread` that only an
    expansion not in play reads (_unread)."""
    from strategies.canonical import canonical

    return canonical(spec, edition, kinds, unread=unread)


def check_seating(exp: Experiment) -> None:
    """InputError (naming the file and both fields) for one player spelt two ways where
    the plan would play their games once for both and so unbalance the seating, at a
    table of three or more: two members of a round robin's pool (a table with both seats
    the player against itself, and each table with one of them is played for the first
    spelling only, so neither spelling's share is its own), or two seats of one table
    under every seat order (orders that swap them are one game, so pairs no longer sit
    both ways round alike). With two players the tables are mirror matches or copies,
    which `notes` states and the report leaves untested; under the rotations a table's
    seats are never swapped. A config, not a stored run: a run made before this check
    still reads."""
    if exp.rules.players < 3:
        return
    if exp.design == "round_robin":
        groups = [[(f"pool[{i}]", s) for i, s in enumerate(exp.pool)]]
        why = ("a round robin at a table of three or more would seat it against itself and "
               "play each table with one of them for the first spelling only; keep one")
    elif exp.seat_orders == "all" and exp.design != "fixed":
        why = ("every seat order plays the orders that swap them once, so pairs no longer sit "
               "both ways round alike; spell them the same (one player seated twice) or keep one")
        if exp.design == "variants":
            n = len(exp.opponents)  # seat i + 1 plays opponents[i mod n], as `tables` seats them
            opp = [(f"opponents[{i % n}]", exp.opponents[i % n]) for i in range(exp.rules.players - 1)]
            groups = [[(f"arms[{k}].player", a.player)] + opp for k, a in enumerate(exp.arms)]
        else:
            groups = [[(f"seats[{i}]", s) for i, s in enumerate(exp.seats)]]
    else:
        return
    kinds, editions, unread = _kinds(exp), _editions(exp), _unread(exp)
    for group in groups:
        for edition in editions:
            first: dict[str, tuple[str, str]] = {}
            for field, spec in group:
                other, was = first.setdefault(effective_spec(spec, edition, kinds, unread), (field, spec))
                if was == spec:
                    continue
                alike = [e for e in editions
                         if effective_spec(spec, e, kinds, unread) == effective_spec(was, e, kinds, unread)]
                others = [e for e in editions if e not in alike]
                where = (f" under {', '.join(alike)} (not {', '.join(others)}: give each edition a "
                         f"run of its own)") if others else ""
                raise InputError(f"{exp.path}: design.{field} = {quote(spec)} plays as design."
                                 f"{other} = {quote(was)}{where} (one player spelt twice): {why}")


def check_sprt(exp: Experiment) -> None:
    """InputError (naming the file and run.sprt.arm) for a sequential test with nothing
    to test: its arm plays as the baseline arm, or every player of the design plays as
    the tested one (a mirror match, however spelt: its win share is 1/players by
    construction, and what the test would weigh is the seats' advantage)."""
    if not exp.sprt:
        return
    arm, baseline = exp.sprt[0], exp.sprt[1]
    kinds, editions, unread = _kinds(exp), _editions(exp), _unread(exp)
    same = lambda a, b: all(effective_spec(a, e, kinds, unread) == effective_spec(b, e, kinds, unread)  # noqa: E731
                            for e in editions)
    if baseline:
        spec = {a.name: a.player for a in exp.arms}
        if same(spec[arm], spec[baseline]):
            raise InputError(f"{exp.path}: run.sprt.arm = {quote(arm)}: its player {quote(spec[arm])} "
                             f"plays as the baseline {quote(baseline)}'s ({quote(spec[baseline])}): the "
                             f"two arms play the same games, so there is nothing to test")
    elif all(same(arm, s) for s in exp.seats or exp.pool):
        raise InputError(f"{exp.path}: run.sprt.arm = {quote(arm)}: every player of the design plays as "
                         f"it: a mirror match, whose win share is 1/{exp.rules.players} by construction "
                         f"(what the test would weigh is the seats' advantage); nothing to test")


def _kinds(exp: Experiment) -> tuple[str, ...]:
    return expansions.decision_kinds(exp.rules.expansions)


def _unread(exp: Experiment) -> frozenset:
    """Parameters of built-in policies that only an expansion not in play reads."""
    return frozenset(expansions.unread_params(exp.rules.expansions))


def _editions(exp: Experiment) -> list[str]:
    return list(exp.editions) or [expansions.edition(exp.rules)]  # "": no editions in play


def seat_orders(exp: Experiment) -> tuple[tuple[int, ...], ...]:
    """The seat orders every table of a block is played under, each as the table
    position seat s plays: the identity alone in a fixed design; the rotations
    (s + r) mod players; with `seat_orders = "all"` every permutation, in
    itertools.permutations order. A game's `rotation` is its order's index here, so in
    rotations seat s plays the table's player (s + rotation) mod players."""
    n = exp.rules.players
    if exp.design == "fixed":
        return (tuple(range(n)),)
    if exp.seat_orders == "all":
        return tuple(permutations(range(n)))
    return tuple(tuple((s + r) % n for s in range(n)) for r in range(n))


@lru_cache(maxsize=32)
def layout(exp: Experiment) -> tuple[tuple, ...]:
    """The distinct games of any block: (setting, variant, rotation, seats, focal seats),
    the same for every block."""
    n = exp.rules.players
    kinds, unread = _kinds(exp), _unread(exp)
    out: list[list] = []
    for setting in settings(exp):
        edition = setting.edition
        seen: dict[tuple[str, ...], int] = {}  # effective seat specs -> index in out
        variants_seen: set[tuple[str, ...]] = set()
        for name, table, focal in tables(exp):
            key = tuple(effective_spec(s, edition, kinds, unread) for s in table)
            if focal and key in variants_seen:
                continue  # this variant is an earlier one's copy in this edition
            variants_seen.add(key)
            for r, order in enumerate(seat_orders(exp)):
                seats = tuple(table[order[s]] for s in range(n))
                focal_seat = order.index(0) if focal else None
                eff = tuple(effective_spec(s, edition, kinds, unread) for s in seats)
                if eff in seen:  # a permutation that replays a game of this block
                    game = out[seen[eff]]
                    if focal_seat is not None and game[1] == name:
                        game[4] = tuple(sorted({*game[4], focal_seat}))
                    continue
                seen[eff] = len(out)
                out.append([setting, name, r, seats, () if focal_seat is None else (focal_seat,)])
    return tuple(tuple(g) for g in out)


def notes(exp: Experiment) -> list[str]:
    """One line for each table whose seats, spelt differently, all play as one player
    (by behaviour: a mirror match, whose win shares are 1/players by construction; a
    table spelt `greedy` vs `greedy` is a mirror on purpose and needs no note), and
    for each arm that plays as an earlier one (its games are that arm's, so the plan
    gives it none); and, when every seat order makes a block several times the games of
    the rotations (4 players or more), what a block then holds; for each player given a
    parameter that nothing reads under the rules (_unread_note); and for a sequential
    test whose p0 is not the table's even share (_sprt_note). `carcsim validate` and
    `run` print them."""
    editions = _editions(exp)
    out = _orders_note(exp)
    earlier: dict[tuple, str] = {}
    for name, table, focal, canon, mirror in _canonical_tables(exp):
        who = f"arm {name}" if focal else (f"table {name}" if name else "seats")
        copies = {e: earlier[(e, canon[e])] for e in editions if (e, canon[e]) in earlier}
        for e in editions:
            earlier.setdefault((e, canon[e]), name)
        if mirror and len(set(table)) > 1:  # one spelling (greedy vs greedy) is meant
            spelt = " = ".join(dict.fromkeys(table))
            alias = f" ({spelt})" if spelt != canon[mirror[0]][0] else ""
            out.append(f"note: {who}: every seat plays as {canon[mirror[0]][0]}{alias}"
                       f"{_in(mirror, editions)}: a mirror match, its players' win share is "
                       f"1/{exp.rules.players} by construction (no head-to-head test)")
        elif focal and copies:
            for other in dict.fromkeys(copies.values()):
                where = [e for e in copies if copies[e] == other]
                out.append(f"note: {who} plays as arm {other} ({', '.join(canon[where[0]])})"
                           f"{_in(where, editions)}: no games of its own")
    return out + _unread_note(exp) + _sprt_note(exp)


def _canonical_tables(exp: Experiment) -> list[tuple]:
    """(name, table, focal, its effective specs per edition, the editions where it is a
    mirror match) for each of `tables(exp)`."""
    kinds, unread, editions = _kinds(exp), _unread(exp), _editions(exp)
    out = []
    for name, table, focal in tables(exp):
        canon = {e: tuple(effective_spec(s, e, kinds, unread) for s in table) for e in editions}
        out.append((name, table, focal, canon, [e for e in editions if len(set(canon[e])) == 1]))
    return out


def spelt_mirror(exp: Experiment) -> bool:
    """Whether a table's seats, spelt differently, all play as one player (notes says
    which): the players table gives each spelling its seat's share, not a player's."""
    return any(mirror and len(set(table)) > 1 for _, table, _, _, mirror in _canonical_tables(exp))


def _sprt_note(exp: Experiment) -> list[str]:
    """A line when the sequential test weighs a player's win share against a p0 that is
    not the even share of the table (1/players): at three or more players the default
    0.5 asks whether the player wins half its games, not whether it beats the others.
    A variants design's block score is 0.5 + half the arms' difference: even at 0.5."""
    if not exp.sprt or exp.sprt[1] or exp.rules.players < 3:
        return []
    p0, n = exp.sprt[2], exp.rules.players
    if abs(p0 - 1 / n) < 0.01:
        return []
    return [f"note: run.sprt.p0 = {p0:g}: the test weighs {quote(exp.sprt[0])}'s mean win share "
            f"at a table of {n}, where 1/{n} = {1 / n:.3f} is even: H0 is a share of {p0:g}, not "
            f"\"no better than the others\" (set p0 near 1/{n} and p1 above it for that)"]


def _unread_note(exp: Experiment) -> list[str]:
    """A line for each player given a parameter that only an expansion not in play reads
    (greedy's road_figure without Messengers & Mayors): it changes none of its games (the
    player is the one without it, effective_spec), which the spelling does not show."""
    from strategies.canonical import parameters

    unread, out, seen = expansions.unread_params(exp.rules.expansions), [], set()
    for field, spec in _player_fields(exp):
        if spec in seen:
            continue
        seen.add(spec)
        idle = [p for p in parameters(spec, f"{exp.path}: design.{field}") if p in unread]
        for p in idle:
            out.append(f"note: design.{field} = {quote(spec)}: {p} is read only with "
                       f"{unread[p]}, which is not among rules.expansions: it changes none of its games")
    return out


def _player_fields(exp: Experiment) -> list[tuple[str, str]]:
    """(field, spec) of every player the design names, in the config's order."""
    return ([(f"seats[{i}]", s) for i, s in enumerate(exp.seats)]
            + [(f"pool[{i}]", s) for i, s in enumerate(exp.pool)]
            + [(f"arms[{k}].player", a.player) for k, a in enumerate(exp.arms)]
            + [(f"opponents[{i}]", s) for i, s in enumerate(exp.opponents)])


ORDERS_NOTE_FACTOR = 4  # every seat order this many times the rotations' games: say so


def _orders_note(exp: Experiment) -> list[str]:
    """A block under every seat order holds players!/players times the rotations' games
    (6× at 4 players, 24× at 5) while staying one unit of every interval: say what a
    block is, so that a run is not planned by its games (a pool of 10 at 5 players is
    30,240 games a block)."""
    if exp.seat_orders != "all" or exp.design == "fixed":
        return []
    every = games_per_block(exp)
    rotations = games_per_block(replace(exp, seat_orders="rotations"))
    if every < ORDERS_NOTE_FACTOR * rotations:
        return []
    blocks = ("1 block: too few for an interval" if exp.blocks == 1 else
              f"{exp.blocks:,}, {exp.blocks - 1:,} degrees of freedom"
              + (", or fewer where the sequential test stops" if exp.sprt else ""))
    return [f"note: design.seat_orders = \"all\": a block is {every:,} games ({rotations:,} under "
            f"the rotations), and still one unit of every interval: a run's intervals narrow "
            f"with its blocks ({blocks}), not its games"]


def _in(some: list[str], editions: list[str]) -> str:
    return f" in {', '.join(some)}" if some != editions and any(some) else ""


def block_seed(exp: Experiment, block: int) -> int:
    """The seed every game of `block` is played with."""
    return derive(exp.seed, f"block{block}") >> 1  # 63 bits: fits a signed Parquet int64


def block_games(exp: Experiment, block: int) -> list[GameSpec]:
    """Every game of one block, in game_id order."""
    seed = block_seed(exp, block)
    games = layout(exp)
    return [GameSpec(block * len(games) + i, block, seed, name, r, setting.edition, seats, focal,
                     setting.rules, setting.value)
            for i, (setting, name, r, seats, focal) in enumerate(games)]


def games_per_block(exp: Experiment) -> int:
    return len(layout(exp))


def game_spec(exp: Experiment, game_id: int) -> GameSpec:
    """The spec of one game, by id. Raises ValueError for an id outside the plan."""
    per = games_per_block(exp)
    block, _ = divmod(game_id, per)
    if not 0 <= block < exp.blocks:
        raise ValueError(f"game {game_id} is not in this run (0..{exp.blocks * per - 1})")
    return block_games(exp, block)[game_id % per]
