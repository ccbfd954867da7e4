"""`carcsim bench`: games per second per core and peak memory, case by case.

Each case runs in a fresh process (one core, so games/s is per core; its peak RSS is
its own), plays `repeats` batches of seeded games, and reports the median batch rate.
Every case plays the C game (sim/engine/game.py Game). Cases starting with `c-` give every
seat a built-in player and keep no events (a game never leaves C); those ending in
`-events` keep events and history, as a run with `events = true` does; those ending
in `-batch` play a whole batch in one C call (sim/engine/game.py play_batch). Cases starting with `search-` play the
search strategy (sim/csrc/search.c) in seat 0, asked from Python at each decision
(cc_game_policy_choice), against a built-in greedy seat; their rows add `ms_per_decision`, the mean cost of one decision of
the search seat (every decision it answers, searched or not). Cases starting with
`c-search-` play the same seats wholly in C (search is a built-in: the games of a
run). Every case playing search runs only with --all. Cases starting with `py-`
give seat 0 a Python policy that answers every decision by asking the built-in greedy
(what a user's strategy that composes greedy costs): the same games as the `c-` case
with greedy in that seat, so their row adds `us_overhead_per_decision`, the extra time
per decision asked from Python (the decision's FFI call, the view, the answer's),
measured against those C games in the same process. Cases starting with
`run-shard-` time the runner's worker (sim/tournament/worker.py run_shard: the C
batch and the record tables built from it).
"""

from __future__ import annotations

import multiprocessing
import resource
import statistics
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    name: str
    players: str  # comma-separated player specs
    games: int  # games per batch
    # "c": Game(rules, seed, seats, record=False); "events": the same keeping events and
    # history; "batch": play_batch; "branches": the message forks of
    # sim/tournament/counterfactual.py, 1 rollout, on a paused C game (branches in C,
    # cc_branch_play); "shard": the runner's worker (sim/tournament/worker.py run_shard:
    # tables and all) on a rotations design of these seats, one block per game;
    # "search": seat 0 asked from Python through sim.engine.play.play, its decisions timed;
    # "python": seat 0 a Python policy delegating to greedy, against the same C games
    engine: str
    expansions: tuple[str, ...] = ()
    edition: str = "c3.1"


CASES = (
    # the C game (issue 13); the rows of the previous (Python) engine are history in
    # BENCHMARKS.md
    Case("c-base-2p-random", "random,random", 4000, "c"),
    Case("c-base-2p-greedy", "greedy,greedy", 1500, "c"),
    Case("c-messages-c3.1-2p-greedy", "greedy,greedy", 1500, "c", ("messages",), "c3.1"),
    Case("c-messages-classic-2p-greedy", "greedy,greedy", 1500, "c", ("messages",), "classic"),
    Case("c-messages-river-courier-4p-greedy", "greedy,greedy,greedy,greedy", 500, "c",
         ("messages", "river", "courier"), "c3.1"),
    # every expansion, Messengers & Mayors included: all-4p-greedy's games in C
    Case("c-all-4p-greedy", "greedy,greedy,greedy,greedy", 500, "c",
         ("messages", "mayors", "river", "courier"), "c3.1"),
    Case("c-all-4p-greedy-events", "greedy,greedy,greedy,greedy", 300, "events",
         ("messages", "mayors", "river", "courier"), "c3.1"),
    Case("c-all-4p-greedy-batch", "greedy,greedy,greedy,greedy", 500, "batch",
         ("messages", "mayors", "river", "courier"), "c3.1"),
    # every expansion the product has, the Abbot (added after the row above) too
    Case("c-every-4p-greedy-batch", "greedy,greedy,greedy,greedy", 500, "batch",
         ("messages", "mayors", "river", "courier", "abbot"), "c3.1"),
    Case("c-base-2p-random-batch", "random,random", 4000, "batch"),
    Case("c-base-2p-greedy-batch", "greedy,greedy", 1500, "batch"),
    Case("c-messages-c3.1-2p-greedy-batch", "greedy,greedy", 1500, "batch", ("messages",), "c3.1"),
    Case("c-messages-classic-2p-greedy-batch", "greedy,greedy", 1500, "batch", ("messages",),
         "classic"),
    # configs/message_counterfactual.toml's games: a fork at every message draw
    Case("c-message-branches-2p", "greedy+messages=always_2,greedy+messages=always_2", 400,
         "branches", ("messages",), "c3.1"),
    # the runner's shard of configs/million_messages.toml's games (one C batch)
    Case("run-shard-messages-c3.1-2p-greedy", "greedy,greedy", 1500, "shard", ("messages",),
         "c3.1"),
    # issue 24: a Python seat's cost per decision over the same seat in C
    Case("py-messages-c3.1-2p-greedy", "greedy,greedy", 300, "python", ("messages",), "c3.1"),
    Case("py-all-4p-greedy", "greedy,greedy,greedy,greedy", 100, "python",
         ("messages", "mayors", "river", "courier"), "c3.1"),
    # issue 16: search (rollouts x candidates per decision) against greedy (batches sized
    # for search in C, issue 25: about 4 s each)
    Case("search-6-base-2p", "search(rollouts=2,candidates=3),greedy", 150, "search"),
    Case("search-16-base-2p", "search(rollouts=4,candidates=4),greedy", 80, "search"),
    Case("search-48-base-2p", "search(rollouts=8,candidates=6),greedy", 30, "search"),
    Case("search-6-messages-c3.1-2p", "search(rollouts=2,candidates=3),greedy", 150, "search",
         ("messages",), "c3.1"),
    Case("search-16-messages-c3.1-2p", "search(rollouts=4,candidates=4),greedy", 80, "search",
         ("messages",), "c3.1"),
    Case("search-48-messages-c3.1-2p", "search(rollouts=8,candidates=6),greedy", 30, "search",
         ("messages",), "c3.1"),
    # issue 25: search in C, its rollouts cut at 10 tile turns (the default) and played to
    # the end (depth=0, what search-48 played before issue 25), timed per decision from
    # Python and played wholly in C
    Case("search-48-full-base-2p", "search(rollouts=8,candidates=6,depth=0),greedy", 6, "search"),
    Case("search-12-full-base-2p", "search(rollouts=4,candidates=3,depth=0),greedy", 24, "search"),
    Case("search-48-halving-base-2p", "search(rollouts=8,candidates=6,halving=true),greedy", 30,
         "search"),
    Case("c-search-48-base-2p", "search(rollouts=8,candidates=6),greedy", 30, "c"),
    Case("c-search-48-full-base-2p", "search(rollouts=8,candidates=6,depth=0),greedy", 10, "c"),
    Case("c-search-48-messages-c3.1-2p", "search(rollouts=8,candidates=6),greedy", 30, "c",
         ("messages",), "c3.1"),
    Case("c-search-48-batch-base-2p", "search(rollouts=8,candidates=6),greedy", 30, "batch"),
)


class _Timed:
    """A player whose decisions are counted and timed (the search seat's cost)."""

    def __init__(self, player):
        self.player, self.decisions, self.seconds = player, 0, 0.0

    def choose(self, game, decision):
        t0 = time.perf_counter()
        choice = self.player.choose(game, decision)
        self.seconds += time.perf_counter() - t0
        self.decisions += 1
        return choice


class _Delegate:
    """A Python policy answering every decision with the built-in greedy's answer."""

    def __init__(self):
        from strategies import make

        self.greedy = make("greedy")

    def choose(self, view, decision, rng):
        return self.greedy.choose(view, decision, rng)


def _shard_experiment(case: Case):
    """A rotations design of the case's seats (the same spec in every seat: one game a
    block) for the "shard" engine."""
    from sim.tournament.config import parse_experiment

    def strings(items):
        return ", ".join(f'"{x}"' for x in items)

    seats = case.players.split(",")
    text = (f'[run]\nname = "bench"\nseed = 1\nblocks = 1000000000\nshard_blocks = 100000\n'
            f'[rules]\nplayers = {len(seats)}\nexpansions = [{strings(case.expansions)}]\n'
            f'[rules.messages]\nedition = "{case.edition}"\n'
            f'[design]\nkind = "rotations"\nseats = [{strings(seats)}]\n')
    return parse_experiment(text, f"bench case {case.name}")


def _run_case(case: Case, repeats: int, scale: float, conn) -> None:
    from sim.engine.game import Game, play_batch
    from sim.tournament.counterfactual import play_with_branches
    from sim.tournament.worker import run_shard
    from sim.expansions.messages import MessagesOptions
    from sim.engine.play import play
    from sim.engine.rules import Rules
    from sim.text import split_top
    from strategies import player

    seats = [player(p) for p in split_top(case.players, ",")]
    c_seats = list(seats)
    if case.engine == "search":
        seats[0] = _Timed(seats[0])
    elif case.engine == "python":
        from strategies.registry import Player

        seats[0] = _Timed(Player(_Delegate()))
    overheads, py_seconds = [], []  # "python": per batch, the Python games alone
    rules = Rules(players=len(seats), expansions=case.expansions,
                  messages=MessagesOptions(edition=case.edition))
    games = max(1, int(case.games * scale))

    def one(seed):
        if case.engine == "c":
            Game(rules, seed, seats, record=False).result()
        elif case.engine == "events":
            g = Game(rules, seed, seats)
            g.result(), g.events, g.history
        elif case.engine == "branches":  # the worker's own path: forks on a paused C game
            play_with_branches(Game(rules, seed, seats, record=False, pause=("messages",)),
                               seats, 1)
        elif case.engine == "python":  # the seat's every decision from Python
            play(Game(rules, seed, [seats[0].player, *seats[1:]], record=False), seats)
        else:  # search: the timed seat from Python, the others in C
            play(Game(rules, seed, [None if isinstance(p, _Timed) else p for p in seats]), seats)

    if case.engine == "shard":
        exp = _shard_experiment(case)

    def batch(seeds):
        if case.engine == "batch":
            play_batch(rules, seeds, seats)
        elif case.engine == "shard":
            tables = run_shard(exp, seeds)  # blocks: one game each (mirror seats)
            assert tables["games"].num_rows == len(seeds)
        elif case.engine == "python":  # the same games with seat 0 in C, then from Python
            # this process's CPU time, not the wall clock: both halves run here, so other
            # work on the machine does not enter the difference
            t0 = time.process_time()
            for seed in seeds:
                Game(rules, seed, c_seats, record=False).result()
            t_c = time.process_time() - t0
            decisions, t0 = seats[0].decisions, time.process_time()
            for seed in seeds:
                one(seed)
            t_py = time.process_time() - t0
            py_seconds.append(t_py)
            overheads.append((t_py - t_c) / max(1, seats[0].decisions - decisions))
        else:
            for seed in seeds:
                one(seed)

    batch(range(10**9, 10**9 + min(20, games)))  # warm-up: imports, catalogue, caches
    rates = []
    for r in range(repeats):
        t0 = time.perf_counter()
        batch(range(r * games, (r + 1) * games))
        rates.append(games / (py_seconds[-1] if py_seconds else time.perf_counter() - t0))
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    row = {"case": case.name, "games_per_s_per_core": round(statistics.median(rates), 1),
           "peak_rss_mb": round(peak_kb / 1024, 1), "games": games * repeats,
           "rates": [round(x, 1) for x in rates]}
    if case.engine == "search":  # warm-up included: the same decisions, a few more of them
        row["ms_per_decision"] = round(1000 * seats[0].seconds / max(1, seats[0].decisions), 2)
    if case.engine == "python":  # the warm-up's batch left out
        row["us_overhead_per_decision"] = round(1e6 * statistics.median(overheads[1:]), 1)
        row["decisions_per_game"] = round(seats[0].decisions / (games * repeats + min(20, games)), 1)
    conn.send(row)
    conn.close()


# Rough seconds a batch of each engine takes here (for the estimate before a bench
# starts; the cases' batch sizes aim at about this), and a case's fixed cost (its process)
BATCH_SECONDS = {"search": 4.0, "python": 2.0}
SEARCH_SECONDS = 4.0  # a `c-search-` case's batch
CASE_SECONDS = 3.0


def standard(names: list[str] | None = None, everything: bool = False) -> list[Case]:
    """The cases a bench runs: the named ones, else the standard ones (the search cases,
    minutes each, only with `everything`)."""
    if names:
        return [c for c in CASES if c.name in names]
    return [c for c in CASES if everything or (c.engine != "search" and "search" not in c.players)]


def estimate_seconds(cases: list[Case], repeats: int, scale: float = 1.0) -> float:
    """About how long `run` takes for these cases (warm-up batch included)."""
    return sum(CASE_SECONDS + (repeats + 1) * scale * (
        SEARCH_SECONDS if "search" in c.players else BATCH_SECONDS.get(c.engine, 0.6)) for c in cases)


def run(names: list[str] | None = None, repeats: int = 5, scale: float = 1.0,
        on_row=None, everything: bool = False) -> list[dict]:
    """Run the named cases (the standard ones by default, every one with
    `everything`); a row per case, each also given to `on_row` as soon as its case
    finishes."""
    cases = standard(names, everything)
    ctx = multiprocessing.get_context("spawn")
    rows = []
    for case in cases:
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_run_case, args=(case, repeats, scale, child))
        proc.start()
        child.close()
        rows.append(parent.recv())
        proc.join()
        if on_row is not None:
            on_row(rows[-1])
    return rows
