"""`shard_blocks = "auto"`: shards of about SHARD_SECONDS of one core each, sized when
a run starts.

A shard is the unit of work a worker takes, stores and the manifest records: too
small and a run of 10⁸ games is 10⁶ shards (past the manifest's MAX_SHARDS, and each
costs a task and two files), too large and 200 workers wait on a few of them at the end.
A minute of one core is neither, whether 2 workers play the run or 200: `auto_size`
times a few of the run's own blocks in the driver (doubling them until half a second
of CPU, the first block untimed: imports and caches) and takes the blocks a minute
holds, within the limits (MAX_SHARD_GAMES a shard, MAX_SHARDS a run), but no more than
leave every worker 4 shards of a run too small for minutes. The size is recorded in the
manifest's plan, so a resume, with any number of workers, keeps the shards it has. The
games do not depend on it: a game's seed and id come from its block.
"""

from __future__ import annotations

import math
import time

from sim.tournament import manifest as mf
from sim.tournament import plan
from sim.tournament.config import Experiment

SHARD_SECONDS = 60.0  # one core's CPU time a shard aims at
PILOT_SECONDS = 0.5  # CPU time the sizing plays at most about
PILOT_BLOCKS = 256  # blocks it plays at most
SHARDS_PER_WORKER = 4  # a small run still gives every worker this many shards


def cpu_per_block(exp: Experiment) -> float:
    """CPU seconds one block of `exp` takes in this process."""
    from sim.tournament.worker import run_shard

    run_shard(exp, range(0, 1))  # untimed: loading strategies, tile sets, caches
    n, spent, start = 1, 0.0, 0
    while True:
        blocks = range(start, min(start + n, exp.blocks))
        t0 = time.process_time()
        run_shard(exp, blocks)
        spent += time.process_time() - t0
        start += len(blocks)
        if spent >= PILOT_SECONDS or start >= min(exp.blocks, PILOT_BLOCKS):
            return spent / max(1, start)
        n *= 2


def size_for(exp: Experiment, per_block: float, workers: int) -> int:
    """Blocks a shard of `exp` holds: a minute at `per_block` CPU-seconds a block,
    within the manifest's limits, and small enough to give each of `workers` a few."""
    per = plan.games_per_block(exp)
    most = max(1, mf.MAX_SHARD_GAMES // per)
    fewest = math.ceil(exp.blocks / mf.MAX_SHARDS)  # at most MAX_SHARDS shards
    by_time = max(1, round(SHARD_SECONDS / per_block)) if per_block > 0 else most
    spread = max(1, math.ceil(exp.blocks / (SHARDS_PER_WORKER * max(1, workers))))
    return max(fewest, min(by_time, most, spread, exp.blocks))


def auto_size(exp: Experiment, workers: int, say=lambda line: None) -> int:
    """The shard size of an "auto" run played by `workers` cores, from a timed pilot."""
    per_block = cpu_per_block(exp)
    size = size_for(exp, per_block, workers)
    say(f"shard_blocks = auto: {size:,} blocks a shard ({per_block * 1000:.3g} ms of CPU a block "
        f"measured here, about {size * per_block:.0f} s a shard, {workers} worker"
        f"{'' if workers == 1 else 's'})")
    return size
