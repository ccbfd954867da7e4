"""Playing one shard: every game of its blocks, as Arrow tables. Runs in Ray tasks
and in the in-process executor alike; knows nothing of files."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from functools import lru_cache

import pyarrow as pa

from sim import fastpath
from sim.config import Experiment
from sim.game import Game
from sim.play import play
from sim.rules import RULESET_VERSION
from sim.tournament import plan
from sim.tournament.counterfactual import play_with_branches
from sim.tournament.records import COUNTERFACTUALS, EVENTS, GAMES, PLAYERS, player_row
from strategies import player

# Fault injection for the runner's tests: the first process to see this path (which
# must not exist yet) creates it and dies mid-shard, as a killed worker would.
FAULT_ONCE = "CARCSIM_FAULT_ONCE"


@lru_cache(maxsize=64)
def _player(spec: str):
    return player(spec)


def rules_for(exp: Experiment, spec: plan.GameSpec):
    if not spec.edition or spec.edition == exp.rules.messages.edition:
        return exp.rules
    return replace(exp.rules, messages=replace(exp.rules.messages, edition=spec.edition))


def play_spec(exp: Experiment, spec: plan.GameSpec, events: bool):
    """Play one planned game. Returns (result dict, turns, Game or None, counterfactual
    rows)."""
    rules = rules_for(exp, spec)
    seats = [_player(s) for s in spec.seats]
    if exp.design == "counterfactual":
        g = Game(rules, spec.seed)
        rows = play_with_branches(g, seats, exp.rollouts, exp.forks)
        return g.result(), g.turn - 1, g, rows
    if not events and fastpath.supports(rules, seats):
        res = fastpath.play_fast(rules, spec.seed, seats)
        return res, res["turns"], None, []
    g = play(Game(rules, spec.seed), seats)
    return g.result(), g.turn - 1, g, []


def run_shard(exp: Experiment, blocks: range) -> dict[str, pa.Table]:
    """Every game of `blocks`: {"games", "players", "events"} tables."""
    games, players, events, branches = [], [], [], []
    fault = os.environ.get(FAULT_ONCE)
    for block in blocks:
        for spec in plan.block_games(exp, block):
            res, turns, g, cf = play_spec(exp, spec, exp.events)
            branches += [{"game_id": spec.game_id, "edition": spec.edition,
                          "player": spec.seats[r["seat"]], **r} for r in cf]
            games.append({"run": exp.name, "game_id": spec.game_id, "block": block,
                          "variant": spec.variant, "rotation": spec.rotation,
                          "edition": spec.edition, "seed": spec.seed, "ruleset": RULESET_VERSION,
                          "players": exp.rules.players, "expansions": ",".join(exp.rules.expansions),
                          "turns": turns, "winners": res["winners"]})
            for p in res["players"]:
                players.append(player_row(spec.game_id, spec.seats[p["seat"]],
                                          p["seat"] in spec.focal, p, res["winners"]))
            if g is not None and exp.events:
                for seq, e in enumerate(g.events):
                    data = {k: v for k, v in e.items() if k not in ("e", "turn", "seat")}
                    events.append({"game_id": spec.game_id, "seq": seq, "turn": e["turn"],
                                   "kind": e["e"], "seat": e.get("seat", -1),
                                   "data": json.dumps(data, separators=(",", ":"))})
            if fault and not os.path.exists(fault):
                open(fault, "w").close()
                os._exit(3)
    return {"games": pa.Table.from_pylist(games, schema=GAMES),
            "players": pa.Table.from_pylist(players, schema=PLAYERS),
            "events": pa.Table.from_pylist(events, schema=EVENTS),
            "counterfactuals": pa.Table.from_pylist(branches, schema=COUNTERFACTUALS)}
