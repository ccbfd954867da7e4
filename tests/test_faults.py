"""The runner under faults (issue 17 items 2, 3, 7; issue 15 item 4): every failure is one
line and exit code 2 (130 for an interrupt) with nothing half-written; Ctrl-C never
crashes inside Ray; a local Ray listens on loopback only, with token authentication;
a killed worker plus an interrupted and resumed driver give the uninterrupted tables.
Repeated and randomised versions run in the soak (CARCSIM_SOAK=1)."""

import errno
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from test_tournament import SMALL, same, small, tables

from sim import safe_files
from sim.tournament import sink as sink_module
from sim.tournament.manifest import RunError
from sim.tournament.run import run_experiment

ROOT = Path(__file__).resolve().parent.parent
SOAK = os.environ.get("CARCSIM_SOAK") == "1"

# base game: 2000 blocks × 2 rotations in 400 shards, some seconds of work
LONG = """
[run]
name = "long"
seed = 11
blocks = 2000
shard_blocks = 5

[rules]
players = 2

[design]
kind = "rotations"
seats = ["greedy", "random"]
"""


def carcsim(*args, env=None, **kw):
    return subprocess.run([sys.executable, "-m", "sim", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, env=env, **kw)


def one_line(r, code=2):
    assert r.returncode == code, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    return lines[0]


@pytest.fixture(scope="module")
def long_whole(tmp_path_factory):
    """The tables of LONG played uninterrupted, in this process: played once for the
    tests that compare an interrupted and resumed run with them (4,000 games each time)."""
    base = tmp_path_factory.mktemp("long")
    run_experiment(small(base, LONG), base / "whole", workers=0)
    return tables(base / "whole")


@pytest.fixture
def cfg(tmp_path):
    p = tmp_path / "small.toml"
    p.write_text(SMALL)
    return p


def test_impossible_output_paths_are_one_line(cfg, tmp_path):
    (tmp_path / "afile").write_text("x")
    cases = {tmp_path / "afile": "is a file: expected a directory",
             Path("/proc/carcsim-none/out"): "cannot create the output directory",
             Path("/sys/carcsim-none"): "cannot create the output directory"}
    for out, what in cases.items():
        line = one_line(carcsim("run", cfg, "--out", out, "--workers", 0, "--quiet"))
        assert line.startswith(f"carcsim: {out}: {what}"), line
    assert (tmp_path / "afile").read_text() == "x"


def test_a_read_only_directory_is_one_line(cfg, tmp_path, monkeypatch):
    """As root here, so the read-only file system is injected: every write fails with EROFS."""
    def refuse(*a, **k):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    exp = small(tmp_path)
    monkeypatch.setattr(safe_files, "_exclusive", refuse)  # every new file of the run
    with pytest.raises(RunError, match=r"manifest.json: cannot write: Read-only file system"):
        run_experiment(exp, tmp_path / "ro", workers=0)
    assert not (tmp_path / "ro").exists()  # nothing half-written: not even the directory


def _limited(limit):
    def pre():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return pre


def test_disk_full_at_start_and_mid_run(cfg, tmp_path):
    """RLIMIT_FSIZE stands in for a full disk (writes past it fail with EFBIG; SIGXFSZ is
    ignored so the write returns the error, as a full disk's ENOSPC would)."""
    old = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # inherited by the child
    try:
        out = tmp_path / "full"
        r = carcsim("run", cfg, "--out", out, "--workers", 0, "--quiet", preexec_fn=_limited(200))
        assert one_line(r) == f"carcsim: {out / 'manifest.json'}: cannot write: File too large"
        assert not out.exists()
        r = carcsim("run", cfg, "--out", out, "--workers", 0, "--quiet", preexec_fn=_limited(6000))
        assert "cannot write" in one_line(r) and r.stdout == ""
    finally:
        signal.signal(signal.SIGXFSZ, old)
    assert not list(out.rglob("*.tmp"))
    m = json.loads((out / "manifest.json").read_text())
    assert len(m["shards"]) < 4  # what was recorded is whole; the rest is redone
    r = carcsim("run", cfg, "--out", out, "--workers", 0, "--quiet")
    assert r.returncode == 0, r.stderr
    run_experiment(small(tmp_path), tmp_path / "whole", workers=0)
    assert same(tables(tmp_path / "whole"), tables(out))


def test_a_failed_shard_write_leaves_no_part_of_it(tmp_path, monkeypatch):
    import pyarrow.parquet as pq
    real, calls = pq.write_table, []

    def fail_third(table, path, **kw):
        calls.append(path)
        if len(calls) == 4:  # shard 1's games file is written, its players file fails
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(table, path, **kw)

    monkeypatch.setattr(sink_module.pq, "write_table", fail_third)
    with pytest.raises(RunError, match=r"players/shard-000001.parquet: cannot write: No space left"):
        run_experiment(small(tmp_path), tmp_path / "out", workers=0)
    assert sorted(p.name for p in (tmp_path / "out").rglob("shard-*")) == [
        "shard-000000.parquet", "shard-000000.parquet"]
    assert list(json.loads((tmp_path / "out" / "manifest.json").read_text())["shards"]) == ["0"]


def test_bad_addresses_are_one_line_and_fast(cfg, tmp_path):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()  # a port that accepts but is not Ray
    silent = listener.getsockname()[1]
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    refused = free.getsockname()[1]
    free.close()
    cases = {
        "not an address": "expected HOST:PORT, auto, local or ray://HOST:PORT",
        "127.0.0.1:99999": "expected HOST:PORT",
        f"127.0.0.1:{refused}": "cannot reach Ray there: Connection refused",
        f"127.0.0.1:{silent}": "no Ray cluster answered within 3 s",
        "http://127.0.0.1:8265": "that is a dashboard (job submission) address",
    }
    out = tmp_path / "out"
    try:
        for address, what in cases.items():  # (the silent one gives up after its 3 s)
            r = carcsim("run", cfg, "--out", out, "--address", address, "--connect-timeout", 3)
            assert what in one_line(r), (address, r.stderr)
            assert not out.exists()
        env = dict(os.environ, RAY_ADDRESS="http://127.0.0.1:8265")
        assert "RAY_ADDRESS = http://" in one_line(carcsim("run", cfg, "--out", out, env=env))
        line = one_line(carcsim("run", cfg, "--out", out, "--workers", 0, "--address", "auto"))
        assert "--workers 0 plays in this process" in line
    finally:
        listener.close()
    env = dict(os.environ, RAY_ADDRESS="127.0.0.1:1")  # --workers 0 ignores it
    r = carcsim("run", cfg, "--out", out, "--workers", 0, "--quiet", env=env)
    assert r.returncode == 0 and r.stderr == "", r.stderr


def test_ray_client_address_without_the_client_extra(monkeypatch):
    from sim.tournament.run import _check_address

    monkeypatch.setitem(sys.modules, "grpc", None)  # as without ray[client]: import fails
    with pytest.raises(RunError, match=r"--address = ray://head:10001: ray:// needs the Ray Client: "
                                       r"pip install 'carcsim\[cluster\]'"):
        _check_address("ray://head:10001", "--address")
    monkeypatch.delitem(sys.modules, "grpc")
    pytest.importorskip("grpc")
    assert _check_address("ray://head:10001", "--address") == ("head", 10001)


def _start(cfg, out, *extra, env=None):
    return subprocess.Popen([sys.executable, "-m", "sim", "run", str(cfg), "--out", str(out),
                             "--quiet", *map(str, extra)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def _shards(out):
    try:
        return len(json.loads((out / "manifest.json").read_text())["shards"])
    except (OSError, ValueError, KeyError):
        return 0


def _wait_for_shards(proc, out, more_than, deadline=90):
    end = time.time() + deadline
    while time.time() < end and proc.poll() is None:
        if _shards(out) > more_than:
            return True
        time.sleep(0.05)
    return False


def _interrupt(proc, descendants_too=True):
    family = psutil.Process(proc.pid).children(recursive=True) if descendants_too else []
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    gone, alive = psutil.wait_procs(family, timeout=20)
    return proc.returncode, err, alive


def _interrupt_repeatedly(cfg, out, times, random_moments, total):
    rng = random.Random(5)
    for i in range(times):
        before = _shards(out)
        proc = _start(cfg, out, "--workers", 2)
        if random_moments:
            # anywhere from loading the config on: starting Ray, playing, writing, stopping
            # (earlier, Python itself is still importing the command line)
            time.sleep(rng.uniform(1.0, 6.0))
        elif not _wait_for_shards(proc, out, before) and proc.poll() is None:
            proc.kill()
            pytest.fail(f"no shard finished within 90 s: {proc.communicate()[1][-2000:]}")
        if proc.poll() is not None:  # finished before the signal: nothing left to interrupt
            assert proc.returncode == 0, proc.communicate()[1][-2000:]
            break
        code, err, alive = _interrupt(proc)
        if code == 0 and _shards(out) == total:  # the signal came as the run was ending
            break
        assert code == 130, (i, err)
        assert "Traceback" not in err and "Check failed" not in err, err
        assert [ln for ln in err.splitlines() if ln.strip()] == [
            "interrupted: finished shards are kept; run the same command to resume"] or \
            "interrupted: nothing was played" in err, err
        assert alive == [], f"Ray processes left alive after exit: {alive}"


def test_ctrl_c_with_ray_exits_130_and_resumes_to_the_same_tables(tmp_path, long_whole):
    text = LONG.replace("shard_blocks = 5", "shard_blocks = 2") if SOAK else LONG
    total = 1000 if SOAK else 400
    cfg = tmp_path / "long.toml"
    cfg.write_text(text)
    out = tmp_path / "run"
    _interrupt_repeatedly(cfg, out, 20 if SOAK else 3, random_moments=False, total=total)
    if SOAK:
        _interrupt_repeatedly(cfg, out, 20, random_moments=True, total=total)
    assert 0 < _shards(out) < total
    r = carcsim("run", cfg, "--out", out, "--workers", 0, "--quiet")
    assert r.returncode == 0, r.stderr
    if SOAK:  # another config than LONG
        run_experiment(small(tmp_path, text), tmp_path / "whole", workers=0)
        long_whole = tables(tmp_path / "whole")
    assert same(long_whole, tables(out))


def _is_loopback(ip: str) -> bool:
    return ip in ("127.0.0.1", "::1") or ip.startswith("127.") or ip.startswith("::ffff:127.")


def _held_run(tmp_path):
    """A small run whose opponent seat holds it once a shard is listed, while the file
    `hold` exists (test_tournament.GATE): it is surely still going when a test acts on
    it, however fast the engine. Returns the config, the run directory and `hold`."""
    from test_tournament import GATE

    out, hold = tmp_path / "run", tmp_path / "hold"
    (tmp_path / "gate.py").write_text(GATE)
    gate = f'{tmp_path / "gate.py"}:Gate(hold=\\"{hold}\\",manifest=\\"{out / "manifest.json"}\\")'
    cfg = tmp_path / "c.toml"
    cfg.write_text(SMALL.replace("blocks = 12", "blocks = 40").replace(
        'opponents = ["greedy"]', f'opponents = ["{gate}"]'))
    hold.touch()
    return cfg, out, hold


def test_a_local_run_listens_on_loopback_only_with_token_auth(tmp_path):
    """Every listening socket of the run's processes (driver, GCS, raylet, agents,
    workers) is on a loopback address, and Ray runs with token authentication. A seat
    holds the run once a shard is listed, so it is still going, however fast the
    engine, when its sockets are listed and it is interrupted."""
    cfg, out, hold = _held_run(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "RAY_AUTH_MODE"}
    proc = _start(cfg, out, "--workers", 2, env=env)
    try:
        assert _wait_for_shards(proc, out, 0)
        family = [psutil.Process(proc.pid)] + psutil.Process(proc.pid).children(recursive=True)
        listening, modes = [], set()
        for p in family:
            try:
                listening += [(p.name(), c.laddr.ip, c.laddr.port)
                              for c in p.net_connections(kind="inet") if c.status == psutil.CONN_LISTEN]
                if "gcs_server" in p.name() or "raylet" in p.name():
                    modes.add(p.environ().get("RAY_AUTH_MODE"))
            except psutil.NoSuchProcess:
                continue
        names = {n for n, _, _ in listening}
        assert any("gcs_server" in n for n in names) and any("raylet" in n for n in names), names
        exposed = [x for x in listening if not _is_loopback(x[1])]
        assert exposed == [], f"listening beyond loopback: {exposed}"
        assert modes == {"token"}, modes
    finally:
        code, err, alive = _interrupt(proc)
        hold.unlink(missing_ok=True)
    assert code == 130 and alive == [], err


def test_a_local_run_starts_no_monitors_and_no_dashboard(tmp_path):
    """The private local Ray runs what plays shards (GCS, raylet, its agents, workers)
    and none of the autoscaler monitor, the log monitor and the dashboard head: nothing
    scales, no log is forwarded, and each would take half a CPU second from the workers'
    cores (sim/tournament/lean_ray.py). The run still plays to the same tables as one in
    this process."""
    cfg, out, hold = _held_run(tmp_path)
    proc = _start(cfg, out, "--workers", 1)
    try:
        assert _wait_for_shards(proc, out, 0)
        commands = []
        for p in psutil.Process(proc.pid).children(recursive=True):
            try:
                commands.append(" ".join(p.cmdline()))
            except psutil.NoSuchProcess:
                continue
        assert any("raylet" in c for c in commands) and any("gcs_server" in c for c in commands)
        unwanted = [c[:120] for c in commands
                    # monitor.py: autoscaler v1 and v2 and the log monitor
                    if any(name in c for name in ("monitor.py", "dashboard/dashboard.py"))]
        assert unwanted == [], unwanted
    finally:
        hold.unlink(missing_ok=True)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    reference = tmp_path / "here"
    done = _start(cfg, reference, "--workers", 0)
    assert done.wait(timeout=300) == 0, done.communicate()
    assert same(tables(out), tables(reference))


def test_a_killed_worker_and_an_interrupted_driver_resume_to_the_same_tables(tmp_path, long_whole):
    """Issue 17 item 7: a worker dies mid-shard (Ray retries it), the driver is
    interrupted, and the resumed run's tables equal an uninterrupted run's."""
    cfg = tmp_path / "long.toml"
    cfg.write_text(LONG)
    out = tmp_path / "run"
    marker = tmp_path / "crashed"
    env = dict(os.environ, CARCSIM_FAULT_ONCE=str(marker))
    proc = _start(cfg, out, "--workers", 2, env=env)
    assert _wait_for_shards(proc, out, 2)
    code, err, alive = _interrupt(proc)
    assert code == 130 and alive == [], err
    assert marker.exists()  # a worker really died
    r = carcsim("run", cfg, "--out", out, "--workers", 0, "--quiet")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert same(long_whole, tables(out))


@pytest.mark.soak
@pytest.mark.skipif(not SOAK, reason="set CARCSIM_SOAK=1")
def test_soak_workers_killed_and_driver_interrupted_at_random_moments(tmp_path):
    """Kill a Ray worker and interrupt the driver at random moments, resume until done:
    always the uninterrupted tables."""
    text = LONG.replace("shard_blocks = 5", "shard_blocks = 2")
    cfg = tmp_path / "long.toml"
    cfg.write_text(text)
    out = tmp_path / "run"
    rng = random.Random(17)
    for _ in range(12):
        proc = _start(cfg, out, "--workers", 2)
        time.sleep(rng.uniform(2.0, 8.0))
        workers = [p for p in psutil.Process(proc.pid).children(recursive=True)
                   if "run_shard" in " ".join(p.cmdline()) or p.name().startswith("ray::run_shard")]
        if workers:
            rng.choice(workers).kill()
        time.sleep(rng.uniform(0.0, 3.0))
        if proc.poll() is not None:
            assert proc.returncode == 0, proc.stderr.read()
            break
        code, err, alive = _interrupt(proc)
        if code == 0 and _shards(out) == 1000:  # the signal came as the run was ending
            break
        assert code == 130 and alive == [] and "Traceback" not in err, err
    r = carcsim("run", cfg, "--out", out, "--workers", 2, "--quiet")
    assert r.returncode == 0, r.stderr
    run_experiment(small(tmp_path, text), tmp_path / "whole", workers=0)
    assert same(tables(tmp_path / "whole"), tables(out))


def test_workers_are_honoured_and_too_many_warn(monkeypatch):
    """`--address local --workers 1` starts a 1-CPU Ray (it used to take every core), and
    more workers than cores is said in one line."""
    import ray

    from sim.tournament import run as run_module

    calls, said = [], []
    monkeypatch.setattr(run_module, "_ray_init", lambda **kw: calls.append(kw))
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    cores = os.cpu_count()
    assert run_module._ray_connect("local", "--address", 1, 5.0, said.append) == "local"
    assert run_module._ray_connect(None, "RAY_ADDRESS", cores + 3, 5.0, said.append) == "local"
    assert calls == [{"local": True, "num_cpus": 1}, {"local": True, "num_cpus": cores + 3}]
    assert said == [f"warning: --workers {cores + 3} is more than this machine's {cores} cores: "
                    f"the extra workers only add memory"]


def test_output_refused_before_ray_starts(cfg, tmp_path):
    """With Ray in play (no --workers 0) a bad --out is still one line, and Ray is not even
    started for it (no second traceback from Ray at exit)."""
    (tmp_path / "afile").write_text("x")
    ray_tmp = tmp_path / "ray-tmp"  # where a Ray started here would make its session
    ray_tmp.mkdir()
    env = dict(os.environ, RAY_TMPDIR=str(ray_tmp))
    line = one_line(carcsim("run", cfg, "--out", tmp_path / "afile", "--workers", 1, env=env))
    assert line.endswith("is a file: expected a directory for the run's output")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "manifest.json").write_text("{")
    line = one_line(carcsim("run", cfg, "--out", tmp_path / "run", "--workers", 1, env=env))
    assert "manifest.json: not valid JSON" in line
    assert list(ray_tmp.iterdir()) == []  # Ray never started


def test_a_write_failure_mid_run_with_ray_is_one_line(cfg, tmp_path):
    """The failure comes while Ray is up (a file named like a table's folder): one line,
    exit 2, Ray stopped, nothing after it at exit."""
    out = tmp_path / "run"
    out.mkdir()
    (out / "games").write_text("not a folder")
    r = carcsim("run", cfg, "--out", out, "--workers", 1, "--quiet")
    assert one_line(r) == (f"carcsim: {out / 'games'}: is a regular file: expected a directory "
                           f"(carcsim does not follow links inside a run)")
    assert not (out / "manifest.json").exists()  # refused before anything was written


def test_a_local_ray_that_cannot_start_is_one_line(cfg, tmp_path):
    """Ray's own start-up failing (here: a temp directory it cannot create) is one line
    that names the way out, exit 2, and no run directory is left behind."""
    import os

    out = tmp_path / "never"
    line = one_line(carcsim("run", cfg, "--out", out, env={**os.environ, "RAY_TMPDIR": "/proc/carcsim"}))
    assert line.startswith("carcsim: cannot start a local Ray:") and "--workers 0" in line
    assert not out.exists()


def test_run_json_stdout_parses_when_a_worker_dies_and_is_retried(tmp_path):
    """Issue 27.4: Ray prints `(raylet) A worker died…` to its driver's stdout; while a
    run plays, carcsim's stdout is stderr, so `run --json` prints exactly one JSON value."""
    cfg = tmp_path / "long.toml"
    cfg.write_text(LONG.replace("blocks = 2000", "blocks = 200"))
    marker = tmp_path / "crashed"
    env = dict(os.environ, CARCSIM_FAULT_ONCE=str(marker))
    r = carcsim("run", cfg, "--out", tmp_path / "run", "--workers", 2, "--json", env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert marker.exists()  # a worker really died, and its shard was retried
    summary = json.loads(r.stdout)  # nothing but the summary
    assert summary["games"] == 400 and summary["shards_run"] == 40
    assert "(raylet)" not in r.stdout


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [("validate", "quickstart", "--json"),
                                  ("play", "--seed", "2", "--json")])
def test_output_to_a_full_device_is_one_line(args):
    """Issue 27.5: `--json` to a full device was an OSError traceback."""
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "sim", *args], stdout=full,
                           stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert r.returncode == 2 and r.stderr == (
        "carcsim: cannot write the output: No space left on device\n"), r.stderr


def test_a_killed_driver_takes_its_private_ray_with_it(tmp_path):
    """Issue 27 item 7: a driver killed outright (SIGKILL: no code of it runs) leaves no
    Ray process behind: the reaper (sim/tournament/reaper.py) ends them once the driver
    is gone. One seat holds the run once a shard is listed, so Ray is surely up when
    the driver dies."""
    cfg, out, hold = _held_run(tmp_path)
    proc = _start(cfg, out, "--workers", 1)
    family = []
    try:
        assert _wait_for_shards(proc, out, 0, deadline=300), proc.communicate(timeout=60)
        family = psutil.Process(proc.pid).children(recursive=True)
        assert any("raylet" in " ".join(p.cmdline()) for p in family), [p.name() for p in family]
        proc.kill()
        proc.wait(timeout=60)
        # the reaper polls every 0.2 s and gives 2 s of grace; Ray's own agents would
        # take up to 90 s to notice: 30 s tells the two apart on any machine
        _, alive = psutil.wait_procs(family, timeout=30)
        assert alive == [], [p.cmdline()[:3] for p in alive]
    finally:  # whatever the test found still up is ended, so no later test meets it
        hold.unlink(missing_ok=True)
        for p in [*family, psutil.Process(proc.pid)] if proc.poll() is None else family:
            try:
                p.kill()
            except psutil.Error:
                pass
