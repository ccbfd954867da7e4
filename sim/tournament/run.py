"""Running an experiment: shards to executors, results to the sink.

Executors: in-process (`workers=0`, whatever RAY_ADDRESS says) or Ray: by default a
private local Ray started here with `workers` CPUs (all cores by default), listening on
127.0.0.1 only and with Ray's token authentication on; or an existing cluster given by
`address` (or RAY_ADDRESS): HOST:PORT, `auto` (the cluster this machine belongs to) or
ray://HOST:PORT (Ray Client). The connection is made before anything is written, within
`connect_timeout` seconds. At most two shards per CPU are in flight (at most `workers`
on a joined cluster when given), and each result is written and dropped as it arrives,
so the driver's memory stays flat. Ray retries a shard whose worker died; shards are
deterministic, so a retry gives the same rows.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
import stat
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from sim.errors import InputError
from sim.tournament.config import Experiment
from sim.tournament import manifest as mf
from sim.tournament import reaper
from sim.tournament.lean_ray import lean_head
from sim.tournament.lock import RunLock
from sim.tournament.manifest import RunError
from sim.tournament.sequential import SPRT, block_outcomes
from sim.tournament.sink import Sink, _say, check_target
from sim.tournament.shards import auto_size
from sim.tournament.worker import CPU_KEY, run_shard
from strategies import plugins

CONNECT_TIMEOUT = 30.0  # seconds to reach an existing cluster
PROGRESS_EVERY = 10.0  # seconds between progress lines when stderr is not a terminal
_HOST_PORT = re.compile(r"(?P<host>[A-Za-z0-9](?:[A-Za-z0-9.\-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])"
                        r":(?P<port>[0-9]{1,5})")


@dataclass
class Summary:
    out: Path
    shards_run: int
    shards_skipped: int
    games: int
    seconds: float
    interrupted: bool = False
    sprt: dict | None = None  # the sequential test's decision, when it stopped the run
    # CPU seconds the shards took in Ray's workers (0 in-process: the driver's own time)
    worker_cpu_seconds: float = 0.0


class _Progress:
    """Games done, games/s and ETA on stderr: a bar on a terminal, else a line at least
    every PROGRESS_EVERY seconds (with interim win shares and the SPRT's LLR), as logs
    (nohup, CI, `ray job logs`) want."""

    def __init__(self, total: int, done: int, enabled: bool, stop=None):
        self.total, self.done, self.stop = total, done, stop
        self.games, self.start = 0, time.perf_counter()
        # the rate is measured from the first shard's arrival: the workers' start (Ray's,
        # the first imports) is no part of how fast games are played
        self.first_at, self.first_games = None, 0
        self.wins: dict[str, list[float]] = {}
        self.bar = self.thread = None
        self.lock = threading.Lock()
        self.finished = threading.Event()
        if not enabled:
            return
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
            self.bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(),
                                TextColumn("{task.fields[rate]:>8.0f} games/s ETA {task.fields[eta]}"
                                           " {task.fields[shares]}"),
                                console=Console(stderr=True))
            self.task = self.bar.add_task("run", total=total, completed=done, rate=0.0, eta="?",
                                          shares="")
            self.bar.start()
        else:
            self.thread = threading.Thread(target=self._lines, daemon=True)
            self.thread.start()

    def advance(self, tables) -> None:
        # summed by Arrow: a million-game run must not loop over its rows here
        shares = tables["players"].group_by("player").aggregate(
            [("win_share", "sum"), ("win_share", "count")]).to_pylist()
        with self.lock:
            self.games += tables["games"].num_rows
            if self.first_at is None:
                self.first_at, self.first_games = time.perf_counter(), self.games
            for row in shares:
                w = self.wins.setdefault(row["player"], [0.0, 0])
                w[0] += row["win_share_sum"]
                w[1] += row["win_share_count"]
        if self.bar is not None:
            self.bar.update(self.task, advance=tables["games"].num_rows, rate=self.rate(),
                            eta=self.eta(), shares=self.shares())

    def rate(self) -> float:
        """Games a second since the first shard arrived (0 until a second one has; a
        run of one shard: since it started, the workers' start included)."""
        if self.first_at is None:
            return 0.0
        played = self.games - self.first_games
        if not played and (self.finished.is_set() or self.done + self.games >= self.total):
            return self.games / max(1e-9, time.perf_counter() - self.start)
        return played / max(1e-9, time.perf_counter() - self.first_at) if played else 0.0

    def eta(self) -> str:
        if self.done + self.games >= self.total:
            return "0 s"
        if self.finished.is_set():  # the run ended early: its sequential test, --max-shards
            return "none (stopped)"
        rate = self.rate()
        if rate <= 0:
            return "?"
        left = (self.total - self.done - self.games) / rate
        return f"{left:.0f} s" if left < 90 else f"{left / 60:.0f} min"

    def shares(self) -> str:
        """The win shares of the games played now (a resumed run's stored ones are not
        read: the count includes them, the shares say they do not)."""
        text = ", ".join(f"{spec} {w / n:.3f}" for spec, (w, n) in sorted(self.wins.items()))
        return f"(of the games played now) {text}" if text and self.done else text

    def line(self) -> str:
        with self.lock:
            done, rate, eta, shares = self.done + self.games, self.rate(), self.eta(), self.shares()
        text = (f"progress: {done:,} / {self.total:,} games ({100 * done / self.total:.1f}%), "
                f"{rate:.0f} games/s, ETA {eta}")
        if shares:
            text += f"; win share {shares}"
        if self.stop is not None:
            t = self.stop.test
            # the decision beside the LLR: a log must say whether the run stopped on it
            state = (f"{self.stop.decision['decision']} after" if self.stop.decided
                     else "continue at")
            text += (f"; SPRT LLR {self.stop.llr:.3f} (bounds [{t.lower:.3f}, {t.upper:.3f}]), "
                     f"{state} {self.stop.blocks} blocks")
        return text

    def _lines(self) -> None:
        while not self.finished.wait(PROGRESS_EVERY):
            print(self.line(), file=sys.stderr, flush=True)

    def close(self) -> None:
        self.finished.set()
        if self.bar is not None:
            self.bar.stop()
        if self.thread is not None:
            self.thread.join()
            print(self.line(), file=sys.stderr, flush=True)  # where the run ended


def run_experiment(exp: Experiment, out: str | Path | None = None, workers: int | None = None,
                   address: str | None = None, force: bool = False, progress: bool = False,
                   max_shards: int | None = None, repair: bool = False,
                   connect_timeout: float = CONNECT_TIMEOUT, say=_say) -> Summary:
    """Run (or resume, or extend) an experiment into `out` (default: the config's run.out).

    `workers=0` plays in this process; otherwise Ray (see the module's doc). Raises
    InputError / RunError (one line) for a different config, a damaged directory, a
    failed write or an unreachable cluster; nothing is written before Ray is reached.
    """
    with plugins.shipped(dict(exp.plugins)):  # the driver plays the files it ships too
        return _run_experiment(exp, out, workers, address, force, progress, max_shards, repair,
                               connect_timeout, say)


def _run_experiment(exp, out, workers, address, force, progress, max_shards, repair,
                    connect_timeout, say) -> Summary:
    if workers == 0 and address:
        raise RunError("--workers 0 plays in this process: it cannot be combined with --address")
    if workers != 0 and address not in (None, "", "local"):  # malformed: refused before Ray loads
        _check_address(address, "--address")
    mf.check_limits(exp)
    from sim.tournament.plan import check_seating, check_sprt, notes

    check_seating(exp)
    check_sprt(exp)
    check_target(Path(out or exp.out), force or repair)  # cheap refusals before Ray starts

    # one run per directory (lock.py): into an existing directory a second run is refused
    # before Ray starts; a new directory is made, and locked, once Ray is reached
    with RunLock(Path(out or exp.out)) as lock:
        lock.acquire(create=False)
        for line in notes(exp):  # after the refusals: a refused run says one line alone
            say(line)  # what the design gives that a researcher might not expect (plan.notes)
        return _locked(exp, out, workers, address, force, progress, max_shards, repair,
                       connect_timeout, say, lock)


def _locked(exp, out, workers, address, force, progress, max_shards, repair, connect_timeout,
            say, lock) -> Summary:
    ray_mode = None
    if workers != 0 and not (force or repair) and _finished(exp, Path(out or exp.out)):
        say(f"{out or exp.out}: every shard of this run is done: nothing to play, so no Ray "
            f"is started")
        workers = 0
    if workers != 0:
        where = "--address" if address else "RAY_ADDRESS"
        try:
            ray_mode = _ray_connect(address or os.environ.get("RAY_ADDRESS"), where, workers,
                                    connect_timeout, say)
        except KeyboardInterrupt:  # mid-start: stop what Ray has started so far
            try:
                _ray_disconnect("local")
            except Exception:  # noqa: BLE001 - Ray's import itself was cut: nothing runs
                pass
            raise
    try:
        lock.acquire(create=True)
        return _run(exp, out, workers, force, progress, max_shards, repair, say, ray_mode)
    finally:
        if ray_mode is not None:
            _ray_disconnect(ray_mode)


def _finished(exp: Experiment, out: Path) -> bool:
    """Whether `out` holds this very run with nothing left to play (every shard done, or
    the sequential test decided): a resume then needs no Ray. Any doubt says no, and
    the run goes the usual way (which checks everything)."""
    if not (out / mf.MANIFEST).is_file():
        return False
    try:
        m = mf.load(out)
    except (RunError, InputError):
        return False
    return m.get("fingerprint") == exp.fingerprint() and (
        bool(m.get("sprt")) or len(m.get("shards", {})) == m.get("plan", {}).get("shards"))


def _run(exp, out, workers, force, progress, max_shards, repair, say, ray_mode) -> Summary:
    def size() -> int:  # shard_blocks = "auto": asked only when a new plan is made
        return auto_size(exp, 1 if ray_mode is None else _cores(workers, ray_mode), say)

    sink = Sink(out or exp.out, exp, force, repair, say, auto_size=size)
    stop = _Sequential(exp, sink) if exp.sprt else None
    done = sink.done  # once: a set of every finished shard (100,000 of them may be)
    todo = ((shard, blocks) for shard, blocks in mf.iter_shards(sink.layout)
            if shard not in done)
    if stop is not None and stop.decided:
        todo = iter(())
    if max_shards is not None:
        todo = (t for _, t in zip(range(max_shards), todo))
    plan = sink.manifest["plan"]
    bar = _Progress(plan["games"], sink.games_done(), progress, stop)
    summary = Summary(sink.out, 0, len(sink.done), 0, 0.0, sprt=stop.decision if stop else None)
    t0 = time.perf_counter()
    results = (_in_process(exp, todo) if ray_mode is None
               else _on_ray(exp, todo, workers, ray_mode))
    try:
        for shard, tables in results:
            cpu = tables.pop(CPU_KEY, 0.0)
            if ray_mode is not None:
                summary.worker_cpu_seconds += cpu
            sink.write(shard, tables)
            summary.shards_run += 1
            summary.games += tables["games"].num_rows
            bar.advance(tables)
            if stop is not None and stop.add(tables):
                summary.sprt = stop.decision
                break
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        results.close()  # cancels what is still in flight
        bar.close()
        summary.seconds = time.perf_counter() - t0
        try:
            sink.close()
        except RunError:
            if sys.exc_info()[0] is None:
                raise
    if not summary.interrupted and not summary.sprt and max_shards is None \
            and sink.games_done() != plan["games"]:
        raise RunError(f"{sink.out}: {sink.games_done()} games stored, the plan has "
                       f"{plan['games']}")  # cannot happen: every shard is checked when written
    return summary


class _Sequential:
    """The generalised SPRT (sim/tournament/sequential.py) over block scores, taken strictly in block
    order so the stopping point does not depend on which shard finished first; the
    decision goes into the manifest, and a resumed run that has decided plays nothing
    more."""

    def __init__(self, exp: Experiment, sink: Sink):
        import polars as pl

        arm, baseline, p0, p1, alpha, beta = exp.sprt
        self.arm, self.baseline = arm, baseline or None
        self.test = SPRT(p0, p1, alpha, beta)
        self.sink = sink
        self.outcomes: dict[int, float] = {}
        self.llr = 0.0  # no block yet
        self.blocks = 0  # blocks in the LLR: the unbroken prefix in block order
        self.decision = sink.manifest.get("sprt")
        if self.decided:  # resumed after the decision: the progress line shows it
            self.llr, self.blocks = self.decision["llr"], self.decision["blocks"]
        elif sink.done:
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
        self.outcomes.update(block_outcomes(games, players, self.arm, self.baseline))
        prefix = []
        while len(prefix) in self.outcomes:
            prefix.append(self.outcomes[len(prefix)])
        # prefixes up to self.blocks were checked when they arrived: only the new ones
        verdict, self.blocks, self.llr = self.test.run(prefix, first=self.blocks)
        n = self.blocks
        if verdict == "continue":
            return False
        self.decision = {"test": self.test.name, "decision": verdict, "blocks": n,
                         "llr": self.llr, "arm": self.arm,
                         "baseline": self.baseline, "p0": self.test.p0, "p1": self.test.p1,
                         "alpha": self.test.alpha, "beta": self.test.beta,
                         "upper": self.test.upper, "lower": self.test.lower}
        self.sink.manifest["sprt"] = self.decision
        self.sink.save()
        return True


def _in_process(exp, todo):
    for shard, blocks in todo:
        yield shard, run_shard(exp, blocks)


# --- Ray -----------------------------------------------------------------------------------

def _cores(workers, ray_mode) -> int:
    """The cores a run's shards are played on: --workers on a local Ray, else what the
    cluster offers."""
    import ray

    if ray_mode == "local" and workers:
        return workers
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _ray_connect(address: str | None, where: str, workers: int | None, timeout: float,
                 say) -> str:
    """Start a private local Ray ("local"), join the cluster at `address` ("joined"), or
    use the caller's connection ("caller": tests, notebooks). RunError (one line) for a
    malformed or unreachable address."""
    import ray

    if ray.is_initialized():
        return "caller"
    if address in (None, "", "local"):
        if workers and workers > (os.cpu_count() or 1):
            say(f"warning: --workers {workers} is more than this machine's {os.cpu_count()} "
                f"cores: the extra workers only add memory")
        try:
            with _sigint_deferred():
                _ray_init(local=True, num_cpus=workers or os.cpu_count())
        except Exception as e:  # noqa: BLE001 - Ray fails to start in many ways; each is one line
            raise RunError(f"cannot start a local Ray: {_first_line(e)} (try --workers 0 "
                           f"to run in this process)") from None
        return "local"
    target = _check_address(address, where)
    if target is not None:  # refuse fast rather than let Ray retry for minutes
        try:
            socket.create_connection(target, timeout=timeout).close()
        except OSError as e:
            raise RunError(f"{where} = {address}: cannot reach Ray there: "
                           f"{e.strerror or 'no answer within %g s' % timeout}") from None
    # joining can still hang (a port that is not Ray's): a watchdog ends it with one line
    with _StderrMuted() as muted:
        watchdog = threading.Timer(timeout, _give_up, (f"{where} = {address}: no Ray cluster "
                                                       f"answered within {timeout:g} s", muted.saved))
        watchdog.daemon = True
        watchdog.start()
        try:
            with _sigint_deferred():
                _ray_init(local=False, address=address)
            error = None
        except Exception as e:  # noqa: BLE001 - Ray raises many kinds; each becomes one line
            error = e
        finally:
            watchdog.cancel()
    if error is not None:
        hint = ("" if os.environ.get("RAY_AUTH_MODE") == "token" else
                "; if the cluster requires token authentication, set RAY_AUTH_MODE=token and give "
                "its token (~/.ray/auth_token, RAY_AUTH_TOKEN or RAY_AUTH_TOKEN_PATH)")
        raise RunError(f"{where} = {address}: cannot join the Ray cluster: "
                       f"{_first_line(error)}{hint}") from None
    return "joined"


class _sigint_deferred:
    """Ctrl-C during ray.init is taken once ray.init has returned: Ray cut off half-way
    through starting or joining can crash the process at exit (a segfault, seen once in
    20 interrupts at random moments)."""

    def __enter__(self):
        self.pending = False
        self.main = threading.current_thread() is threading.main_thread()
        if self.main:
            self.saved = signal.signal(signal.SIGINT, self._note)
        return self

    def _note(self, *_):
        self.pending = True

    def __exit__(self, *exc):
        if self.main:
            signal.signal(signal.SIGINT, self.saved)
        if self.pending and exc[0] is None:
            raise KeyboardInterrupt


class _StderrMuted:
    """File descriptor 2 into a scratch file while joining or leaving Ray: its C++ core
    logs there every failed attempt to join (a line a second, before any log level
    applies) and every task dropped by a shutdown; the line that says what happened is
    ours."""

    def __enter__(self):
        import tempfile

        sys.stderr.flush()
        self.saved = os.dup(2)
        self.scratch = tempfile.TemporaryFile()
        os.dup2(self.scratch.fileno(), 2)
        return self

    def __exit__(self, *exc):
        sys.stderr.flush()
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.scratch.close()


def _ray_init(local: bool, address: str | None = None, num_cpus: int | None = None) -> None:
    """The one ray.init of the runner. A local Ray gets the loopback address as its node
    address (Ray otherwise binds every interface and hands agents the machine's network
    address) and token authentication; no dashboard; Ray's start-up chatter off."""
    import ray

    from sim.tournament.worker_env import runtime_env

    # workers import the installed package, never a checkout's sim/ (worker_env.py)
    quiet = dict(log_to_driver=False, logging_level=logging.ERROR, runtime_env=runtime_env())
    if not local:
        ray.init(address=address, **quiet)
        return
    from ray._private import ray_constants

    # Ray resolves 127.0.0.1 to the machine's address unless it believes clusters are off;
    # with them off it keeps loopback for every process it starts (they read the variable).
    saved_env = os.environ.get("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER")
    saved_flag = ray_constants.ENABLE_RAY_CLUSTER
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False
    _enable_token_auth()
    if os.environ.get("RAY_AUTH_MODE") == "token":
        private_token_file()
    try:
        with lean_head():  # only the processes that play shards (lean_ray.py)
            ray.init(address="local", num_cpus=num_cpus, _node_ip_address="127.0.0.1",
                     include_dashboard=False, **quiet)
        # should this driver be killed outright, its Ray goes with it (reaper.py)
        _REAPER.append(reaper.start(os.getpid(), _own_processes()))
    finally:
        ray_constants.ENABLE_RAY_CLUSTER = saved_flag
        if saved_env is None:
            os.environ.pop("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", None)
        else:
            os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = saved_env


def _enable_token_auth() -> None:
    """Token authentication for the local Ray, unless RAY_AUTH_MODE says otherwise (Ray
    2.5x and later; older Rays have none)."""
    if "RAY_AUTH_MODE" in os.environ:
        return
    try:
        from ray._private.authentication.authentication_token_setup import _enable_token_auth
    except ImportError:
        return
    _enable_token_auth()  # sets RAY_AUTH_MODE=token for this process and what it starts


def private_token_file() -> None:
    """Ray writes its token file (~/.ray/auth_token, or RAY_AUTH_TOKEN_PATH) with the
    umask's mode, readable by every user of the machine, and the token admits anyone to
    the cluster: carcsim makes the file first, exclusively and 0600, or narrows an
    existing one of this user's to 0600 (issue 27.7). A token in RAY_AUTH_TOKEN needs no file."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return
    path = Path(os.environ.get("RAY_AUTH_TOKEN_PATH") or Path.home() / ".ray" / "auth_token")
    try:
        st = path.lstat()
    except FileNotFoundError:
        st = None
    except OSError:
        return  # Ray reports what it cannot read
    try:
        if st is None:
            from ray._private.authentication.authentication_token_setup import (
                generate_new_authentication_token)

            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(generate_new_authentication_token())
        elif stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid() and st.st_mode & 0o077:
            os.chmod(path, 0o600)
    except (OSError, ImportError):
        pass  # a file another made, or an older Ray: Ray's own handling applies


def _check_address(address: str, where: str):
    """(host, port) to probe, or None for `auto`. RunError for anything malformed."""
    if address == "auto":
        return None
    if re.match(r"https?://", address):
        raise RunError(f"{where} = {address}: that is a dashboard (job submission) address; "
                       f"`carcsim run` joins a cluster at HOST:PORT (the head's GCS port, 6379 by "
                       f"default), `auto` on a cluster node, or ray://HOST:10001")
    client = address.startswith("ray://")
    m = _HOST_PORT.fullmatch(address[6:] if client else address)
    if not m or not 1 <= int(m["port"]) <= 65535:
        raise RunError(f"{where} = {address!r}: expected HOST:PORT, auto, local or ray://HOST:PORT")
    if client:
        try:
            import grpc  # noqa: F401 - what Ray Client needs beyond ray itself
        except ImportError:
            raise RunError(f"{where} = {address}: ray:// needs the Ray Client: "
                           f"pip install 'carcsim[cluster]'") from None
    return m["host"].strip("[]"), int(m["port"])


def _first_line(e: BaseException) -> str:
    text = str(e).strip() or type(e).__name__
    return text.splitlines()[0][:300]


def _give_up(line: str, fd: int) -> None:
    os.write(fd, f"carcsim: {line}\n".encode())
    os._exit(2)  # ray.init cannot be interrupted from another thread; nothing is written yet


def _ray_disconnect(mode: str) -> None:
    ray = sys.modules.get("ray")
    if getattr(ray, "shutdown", None) is None:  # never imported, or its import interrupted
        return
    if mode == "caller" or (mode == "joined" and not ray.is_initialized()):
        return
    restore = None
    if threading.current_thread() is threading.main_thread():
        restore = signal.signal(signal.SIGINT, signal.SIG_IGN)  # a 2nd Ctrl-C must not cut it
    family = _own_processes() if mode == "local" else []
    try:
        with _StderrMuted():  # Ray's core logs the tasks it drops ("failed to push error")
            ray.shutdown()  # stops the local Ray's processes, or leaves the joined cluster
        _reap(family)
    finally:
        if restore is not None:
            signal.signal(signal.SIGINT, restore)


_REAPER: list = []  # the reaper of this driver's local Ray (kept, not waited for)


def _own_processes() -> list:
    """The processes this driver started (its local Ray's GCS, raylet, agents, workers)."""
    try:
        import psutil
    except ImportError:
        return []
    return psutil.Process().children(recursive=True)


def _reap(family: list, grace: float = 5.0) -> None:
    """After ray.shutdown, end what of our own Ray is still up: its agents otherwise
    linger for up to 90 s until they notice the raylet is gone."""
    if family:  # ray.shutdown has asked them already: wait, then kill the rest
        reaper.end(family, grace, ask=False)


def _on_ray(exp, todo, workers, mode):
    import ray

    local = mode == "local"
    inflight: dict = {}
    try:
        task = ray.remote(max_retries=5, retry_exceptions=False)(run_shard)
        exp_ref = ray.put(exp)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        limit = workers if workers and not local else 2 * cpus
        todo = iter(todo)
        queue_open = True
        while queue_open or inflight:
            while queue_open and len(inflight) < limit:
                item = next(todo, None)
                if item is None:
                    queue_open = False
                    break
                inflight[task.remote(exp_ref, item[1])] = item[0]
            if not inflight:
                break
            ready, _ = ray.wait(list(inflight), num_returns=1)
            shard = inflight.pop(ready[0])
            try:
                tables = ray.get(ready[0])
            except ray.exceptions.RayTaskError as e:
                if isinstance(e.cause, InputError):  # a seat's strategy, bad input: one line
                    raise e.cause from None
                raise
            yield shard, tables
    finally:
        if inflight and not local:
            # a joined cluster keeps running: cancel what is left, without force (Ray's
            # force-cancel of a running task can fail a check and crash the driver)
            for ref in inflight:
                try:
                    ray.cancel(ref)
                except Exception:  # noqa: BLE001 - already finished or gone
                    pass
