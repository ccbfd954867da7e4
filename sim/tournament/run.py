"""Running an experiment: shards to executors, results to the sink.

Executors: in-process (`workers=0`, for tests and debugging) or Ray: a local Ray
started here with `workers` CPUs (all cores by default), or an existing cluster given
by `address` (or RAY_ADDRESS). At most two shards per CPU are in flight, and each
result is written and dropped as it arrives, so the driver's memory stays flat.
Ray retries a shard whose worker died; shards are deterministic, so a retry gives the
same rows.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path

from sim.config import Experiment
from sim.tournament import plan
from sim.tournament.sink import Sink
from sim.tournament.worker import run_shard


@dataclass
class Summary:
    out: Path
    shards_run: int
    shards_skipped: int
    games: int
    seconds: float
    interrupted: bool = False
    sprt: dict | None = None  # the sequential test's decision, when it stopped the run


class _Progress:
    """Games done, games/s and ETA on stderr (rich, which typer brings)."""

    def __init__(self, total: int, done: int, enabled: bool):
        self.enabled = enabled
        if not enabled:
            return
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeRemainingColumn)
        self.bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[rate]:>8.0f} games/s"), TimeRemainingColumn(),
                            transient=False)
        self.task = self.bar.add_task("run", total=total, completed=done, rate=0.0)
        self.start, self.games = time.perf_counter(), 0
        self.bar.start()

    def advance(self, games: int) -> None:
        if self.enabled:
            self.games += games
            rate = self.games / max(1e-9, time.perf_counter() - self.start)
            self.bar.update(self.task, advance=games, rate=rate)

    def close(self) -> None:
        if self.enabled:
            self.bar.stop()


def run_experiment(exp: Experiment, out: str | Path | None = None, workers: int | None = None,
                   address: str | None = None, force: bool = False, progress: bool = False,
                   max_shards: int | None = None) -> Summary:
    """Run (or resume) an experiment into `out` (default: the config's run.out).

    Raises InputError when `out` holds a different config and not `force`.
    """
    sink = Sink(out or exp.out, exp, force)
    blocks = plan.shards(exp)
    todo = [i for i in range(len(blocks)) if i not in sink.done]
    if max_shards is not None:
        todo = todo[:max_shards]
    per = plan.games_per_block(exp)
    bar = _Progress(exp.blocks * per, sum(len(blocks[i]) for i in sink.done) * per, progress)
    t0 = time.perf_counter()
    summary = Summary(sink.out, 0, len(blocks) - len(todo), 0, 0.0)
    address = address or os.environ.get("RAY_ADDRESS")
    stop = _Sequential(exp, sink) if exp.sprt else None
    if stop is not None and stop.decided:
        todo = []
    summary.sprt = stop.decision if stop else None
    try:
        results = (_in_process(exp, blocks, todo) if workers == 0 and not address
                   else _on_ray(exp, blocks, todo, workers, address))
        for shard, tables in results:
            sink.write(shard, tables)
            summary.shards_run += 1
            summary.games += tables["games"].num_rows
            bar.advance(tables["games"].num_rows)
            if stop is not None and stop.add(tables):
                summary.sprt = stop.decision
                results.close()  # cancels what is still in flight
                break
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        bar.close()
        summary.seconds = time.perf_counter() - t0
    return summary


class _Sequential:
    """Wald's SPRT over block outcomes, taken strictly in block order so the stopping
    point does not depend on which shard finished first; the decision goes into the
    manifest, and a resumed run that has decided plays nothing more."""

    def __init__(self, exp: Experiment, sink: Sink):
        import polars as pl

        from sim.analysis import stats

        arm, baseline, p0, p1, alpha, beta = exp.sprt
        self.arm, self.baseline = arm, baseline or None
        self.test = stats.SPRT(p0, p1, alpha, beta)
        self.sink = sink
        self.outcomes: dict[int, float] = {}
        self.decision = sink.manifest.get("sprt")
        if sink.done and not self.decided:
            games = pl.read_parquet(str(sink.out / "games" / "*.parquet"))
            players = pl.read_parquet(str(sink.out / "players" / "*.parquet"))
            self._fold(games, players)

    @property
    def decided(self) -> bool:
        return bool(self.decision)

    def add(self, tables) -> bool:
        import polars as pl

        return self._fold(pl.from_arrow(tables["games"]), pl.from_arrow(tables["players"]))

    def _fold(self, games, players) -> bool:
        from sim.analysis.balance import block_outcomes

        self.outcomes.update(block_outcomes(games, players, self.arm, self.baseline))
        prefix = []
        while len(prefix) in self.outcomes:
            prefix.append(self.outcomes[len(prefix)])
        verdict, n, llr = self.test.run(prefix)
        if verdict == "continue":
            return False
        self.decision = {"decision": verdict, "blocks": n, "llr": llr, "arm": self.arm,
                         "baseline": self.baseline, "p0": self.test.p0, "p1": self.test.p1,
                         "alpha": self.test.alpha, "beta": self.test.beta,
                         "upper": self.test.upper, "lower": self.test.lower}
        self.sink.manifest["sprt"] = self.decision
        self.sink.save()
        return True


def _in_process(exp, blocks, todo):
    for shard in todo:
        yield shard, run_shard(exp, blocks[shard])


def _on_ray(exp, blocks, todo, workers, address):
    import ray

    from sim.tournament.worker_env import runtime_env

    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR,
                     runtime_env=runtime_env())
        else:
            ray.init(num_cpus=workers or os.cpu_count(), include_dashboard=False,
                     log_to_driver=False, logging_level=logging.ERROR,  # start-up chatter off
                     runtime_env=runtime_env())
    inflight: dict = {}
    try:
        task = ray.remote(max_retries=5, retry_exceptions=False)(run_shard)
        exp_ref = ray.put(exp)
        limit = 2 * max(1, int(ray.cluster_resources().get("CPU", 1)))
        queue = list(todo)
        while queue or inflight:
            while queue and len(inflight) < limit:
                shard = queue.pop(0)
                inflight[task.remote(exp_ref, blocks[shard])] = shard
            ready, _ = ray.wait(list(inflight), num_returns=1)
            shard = inflight.pop(ready[0])
            yield shard, ray.get(ready[0])
    finally:
        for ref in inflight:  # only left over when stopped early (Ctrl-C)
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
