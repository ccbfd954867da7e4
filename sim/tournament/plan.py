"""The plan of an experiment: blocks × (edition × table × seat rotation) → games.

A block is one game seed, derived from (master seed, block), played under every seat
rotation and every variant being compared, so paired comparisons share their tiles
(common random numbers). game_id = block × games_per_block + index within the block,
so any game can be recomputed alone. Shards are runs of `shard_blocks` blocks.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from sim.config import Experiment
from sim.rng import derive


@dataclass(frozen=True)
class GameSpec:
    game_id: int
    block: int
    seed: int
    variant: str  # arm name, table name ("a+b"), or "" for fixed and rotations
    rotation: int  # seat s plays table[(s + rotation) % players]
    edition: str  # The Messages' edition, "" when not in play
    seats: tuple[str, ...]  # player spec per seat
    focal: int  # the seat of the arm's player (variants), else -1


def tables(exp: Experiment) -> list[tuple[str, tuple[str, ...], bool]]:
    """(variant name, seat specs before rotation, focal in seat 0?) per table."""
    n = exp.rules.players
    if exp.design in ("fixed", "rotations", "counterfactual"):
        return [("", exp.seats, False)]
    if exp.design == "round_robin":
        return [("+".join(t), t, False) for t in combinations(exp.pool, n)]
    opp = [exp.opponents[i % len(exp.opponents)] for i in range(n - 1)]
    return [(a.name, (a.player, *opp), True) for a in exp.arms]


def block_games(exp: Experiment, block: int) -> list[GameSpec]:
    """Every game of one block, in game_id order."""
    n = exp.rules.players
    rotations = [0] if exp.design == "fixed" else list(range(n))
    editions = list(exp.editions) or ([exp.rules.messages.edition]
                                      if "messages" in exp.rules.expansions else [""])
    seed = derive(exp.seed, f"block{block}") >> 1  # 63 bits: fits a signed Parquet int64
    per_block = games_per_block(exp)
    out = []
    for edition in editions:
        for name, table, focal in tables(exp):
            for r in rotations:
                seats = tuple(table[(s + r) % n] for s in range(n))
                focal_seat = (n - r) % n if focal else -1
                out.append(GameSpec(block * per_block + len(out), block, seed, name, r, edition,
                                    seats, focal_seat))
    return out


def games_per_block(exp: Experiment) -> int:
    n = exp.rules.players
    rotations = 1 if exp.design == "fixed" else n
    editions = len(exp.editions) or 1
    return editions * len(tables(exp)) * rotations


def shards(exp: Experiment) -> list[range]:
    """Block ranges, one per shard."""
    return [range(b, min(b + exp.shard_blocks, exp.blocks))
            for b in range(0, exp.blocks, exp.shard_blocks)]


def game_spec(exp: Experiment, game_id: int) -> GameSpec:
    """The spec of one game, by id. Raises ValueError for an id outside the plan."""
    per = games_per_block(exp)
    block, _ = divmod(game_id, per)
    if not 0 <= block < exp.blocks:
        raise ValueError(f"game {game_id} is not in this run (0..{exp.blocks * per - 1})")
    return block_games(exp, block)[game_id % per]
