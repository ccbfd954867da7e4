"""Playing one shard: every game of its blocks, as Arrow tables. Runs in Ray tasks
and in the in-process executor alike; knows nothing of files.

The games of a shard that share their rules and seats (one entry of the block layout,
sim/tournament/plan.py) are one group. A group of built-in seats under rules the C
game plays, without events, is played by ONE C call (sim/engine/game.py play_batch) and its
tables are built column by column from the C buffers (issue 13 item 4); every other
game is played one at a time on the C game (sim/engine/game.py Game: built-in policies in C,
Python ones asked through the view; the counterfactual forks on a paused C game with
the branches in C when every seat is built in and events are not kept). Both give the same rows (tests/test_batch_records.py,
tests/test_counterfactual.py); the tables come out in game_id order either way.
"""

from __future__ import annotations

import json
import os
import time
from functools import lru_cache

import numpy as np
import pyarrow as pa

from sim.tournament.config import Experiment
from sim.engine.game import Game, play_batch
from sim.engine.play import play
from sim.engine.seats import PAUSABLE, built_in
from sim.errors import StrategyError
from sim.tournament import plan
from sim.tournament.counterfactual import play_with_branches
from sim.tournament.records import COUNTERFACTUALS, EVENTS, GAMES, PLAYERS, player_row, players_table
from strategies import player, plugins

# Fault injection for the runner's tests: the first process to see this path (which
# must not exist yet) creates it and dies mid-shard, as a killed worker would.
FAULT_ONCE = "CARCSIM_FAULT_ONCE"


def _player(spec: str):
    return _cached_player(spec, plugins.version())


@lru_cache(maxsize=64)
def _cached_player(spec: str, _plugins: int):
    """A seat's player, built once per spec and per set of installed strategy files (a
    long-lived worker may serve runs whose files differ)."""
    return player(spec)


def play_spec(exp: Experiment, spec: plan.GameSpec, events: bool):
    """Play one planned game. Returns (result dict, turns, Game or None, counterfactual
    rows). A strategy's fault names the block and game as well as the seed."""
    try:
        return _play_spec(exp, spec, events)
    except StrategyError as e:
        raise StrategyError(f"block {spec.block}, game {spec.game_id}, {e}") from None


def _play_spec(exp: Experiment, spec: plan.GameSpec, events: bool):
    rules = spec.rules
    seats = [_player(s) for s in spec.seats]
    if exp.design == "counterfactual":
        if not events and set(exp.forks) <= set(PAUSABLE) and built_in(rules, seats):
            # forks and branches in C
            g = Game(rules, spec.seed, seats, record=False, pause=tuple(exp.forks))
        else:
            g = Game(rules, spec.seed)
        rows = play_with_branches(g, seats, exp.rollouts, exp.forks)
        return g.result(), g.turn - 1, g, rows
    fast = not events and built_in(rules, seats)
    g = play(Game(rules, spec.seed, seats, record=not fast), seats)
    return g.result(), g.turn - 1, g, []


def batchable(exp: Experiment, setting: plan.Setting, seats: tuple[str, ...]) -> bool:
    """Whether a group's games are played as one C batch."""
    return (exp.design != "counterfactual" and not exp.events
            and built_in(setting.rules, [_player(s) for s in seats]))


def _fault() -> None:
    fault = os.environ.get(FAULT_ONCE)
    if fault and not os.path.exists(fault):
        open(fault, "w").close()
        os._exit(3)


def _batch_group(exp: Experiment, blocks: range, index: int, entry: tuple,
                 seeds: list[int]) -> tuple[pa.Table, pa.Table]:
    """(games, players) tables of layout entry `index` over `blocks`, by one C call."""
    setting, variant, rotation, seats, focal = entry
    rules, edition = setting.rules, setting.edition
    batch = play_batch(rules, seeds, [_player(s) for s in seats])
    count, n = len(seeds), rules.players
    ids = np.arange(blocks.start, blocks.stop, dtype=np.int64) * len(plan.layout(exp)) + index
    won = (batch["winners"][:, None] >> np.arange(n)) & 1  # games x seats
    offsets = np.concatenate(([0], np.cumsum(won.sum(axis=1)))).astype(np.int32)
    winners = pa.ListArray.from_arrays(pa.array(offsets),
                                       pa.array(np.nonzero(won)[1].astype(np.int8)))
    const = lambda value, type_: pa.repeat(pa.scalar(value, type_), count)  # noqa: E731
    cols = {"run": const(exp.name, pa.string()), "run_id": const(exp.run_id(), pa.string()),
            "game_id": pa.array(ids),
            "block": pa.array(np.arange(blocks.start, blocks.stop, dtype=np.int32)),
            "variant": const(variant, pa.string()), "rotation": const(rotation, pa.int8()),
            "edition": const(edition, pa.string()), "seed": pa.array(seeds, type=pa.int64()),
            "ruleset": const(rules.ruleset, pa.string()),
            "players": const(exp.rules.players, pa.int8()),
            "expansions": const(",".join(exp.rules.expansions), pa.string()),
            "turns": pa.array(batch["turns"].astype(np.int16)),
            "winners": winners.cast(GAMES.field("winners").type)}
    games = pa.Table.from_arrays([cols[f.name] for f in GAMES], schema=GAMES)
    mask = np.tile(np.isin(np.arange(n), focal), (count, 1))
    players = players_table(rules, batch, ids, [seats] * count, mask, run_id=exp.run_id(),
                            blocks=range(blocks.start, blocks.stop), variants=[variant] * count)
    return games, players


def _one_by_one(exp: Experiment, specs: list[plan.GameSpec]):
    """(games, players, events, counterfactuals) rows of `specs`, played one at a time."""
    games, players, events, branches = [], [], [], []
    run_id = exp.run_id()
    for spec in specs:
        res, turns, g, cf = play_spec(exp, spec, exp.events)
        branches += [{"run_id": run_id, "game_id": spec.game_id, "edition": spec.edition,
                      "player": spec.seats[r["seat"]], **r} for r in cf]
        games.append({"run": exp.name, "run_id": run_id, "game_id": spec.game_id,
                      "block": spec.block,
                      "variant": spec.variant, "rotation": spec.rotation,
                      "edition": spec.edition, "seed": spec.seed, "ruleset": spec.rules.ruleset,
                      "players": exp.rules.players, "expansions": ",".join(exp.rules.expansions),
                      "turns": turns, "winners": res["winners"]})
        for p in res["players"]:
            players.append(player_row(spec.game_id, spec.seats[p["seat"]],
                                      p["seat"] in spec.focal, p, res["winners"], run_id=run_id,
                                      block=spec.block, variant=spec.variant))
        if g is not None and exp.events:
            for seq, e in enumerate(g.events):
                data = {k: v for k, v in e.items() if k not in ("e", "turn", "seat")}
                events.append({"run_id": run_id, "game_id": spec.game_id, "seq": seq, "turn": e["turn"],
                               "kind": e["e"], "seat": e.get("seat", -1),
                               "data": json.dumps(data, separators=(",", ":"))})
        _fault()
    return games, players, events, branches


def _in_game_order(tables: list[pa.Table], schema: pa.Schema) -> pa.Table:
    """The tables as one, rows in game_id order (each game's rows kept as they are)."""
    table = pa.concat_tables(tables) if tables else schema.empty_table()
    order = np.argsort(table["game_id"].to_numpy(), kind="stable")
    return table.take(pa.array(order)).combine_chunks()


CPU_KEY = "cpu_seconds"  # beside the tables: the CPU time the shard took where it ran


def run_shard(exp: Experiment, blocks: range) -> dict:
    """Every game of `blocks`: {"games", "players", "events", "counterfactuals"} tables,
    and under CPU_KEY the CPU seconds this process spent on them (a Ray worker's time is
    not the driver's: `carcsim findings` reports both)."""
    start = time.process_time()
    with plugins.shipped(dict(exp.plugins)):  # the run's strategy files, as the driver read them
        tables = _run_shard(exp, blocks)
    tables[CPU_KEY] = time.process_time() - start
    return tables


def _run_shard(exp: Experiment, blocks: range) -> dict[str, pa.Table]:
    entries = plan.layout(exp)
    batched = [batchable(exp, e[0], e[3]) for e in entries]
    games, players = [], []
    if any(batched):
        seeds = [plan.block_seed(exp, b) for b in blocks]
        for index, entry in enumerate(entries):
            if batched[index]:
                g, p = _batch_group(exp, blocks, index, entry, seeds)
                games.append(g)
                players.append(p)
                _fault()
    rest = [] if all(batched) else [spec for block in blocks for spec in plan.block_games(exp, block)
                                    if not batched[spec.game_id % len(entries)]]
    g_rows, p_rows, events, branches = _one_by_one(exp, rest)
    if g_rows or not games:
        games.append(pa.Table.from_pylist(g_rows, schema=GAMES))
        players.append(pa.Table.from_pylist(p_rows, schema=PLAYERS))
    return {"games": _in_game_order(games, GAMES), "players": _in_game_order(players, PLAYERS),
            "events": pa.Table.from_pylist(events, schema=EVENTS),
            "counterfactuals": pa.Table.from_pylist(branches, schema=COUNTERFACTUALS)}
