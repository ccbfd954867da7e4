"""`carcsim` commands run in forks of one process that has imported the command line
(tests/test_cli_errors.py): a fresh `python -m sim` spends 0.3–2.5 s importing, a fork
a few milliseconds.

The server is a process of its own, never the test's: a process that has used Polars'
thread pool cannot fork safely (the child may deadlock on a lock a pool thread held),
and pytest may have run such tests first. The server imports, never computes.

Each command runs in a new child, in its own process group (so a timeout ends all it
started), with stdout and stderr in files, with Ray made unimportable (a bad input is
refused before Ray starts, so a command that reaches Ray fails with a traceback instead
of starting a cluster) and, with `drop`, without root's power over permissions.

Root ignores permissions through three capabilities (CAP_DAC_OVERRIDE,
CAP_DAC_READ_SEARCH, CAP_FOWNER); a child that drops them from its effective and
permitted sets is held to a file's mode bits like any user (access(2) too: for a real
uid 0 it checks the permitted set), while still reading its own files, the
interpreter's under /root included (which switching to `nobody` could not).

Protocol, one JSON value a line: the server says {"ready": true, "can_drop": bool}
(whether a child can be held to permissions: as root, dropping the capabilities makes a
read-only directory refuse a write), then answers each request {"argv", "cwd", "home",
"drop", "timeout"} with {"rc", "stdout", "stderr", "timed_out"}.
"""

from __future__ import annotations

import ctypes
import importlib
import io
import json
import os
import shutil
import signal
import sys
import tempfile
import time
import traceback

# what the commands import lazily: imported once here, not in every child
PRELOAD = ("sim.cli.main", "sim.cli.bench", "sim.tournament.run", "sim.tournament.replay",
           "sim.tournament.plan", "sim.analysis.report", "sim.analysis.page",
           "sim.analysis.findings", "sim.analysis.summary", "sim.games.differential",
           "sim.games.render", "sim.games.script", "sim.games.strategy_check",
           "sim.formats.log", "sim.formats.tiles", "strategies")
_CAPS = (1, 2, 3)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER (linux/capability.h)


def drop_permission_override() -> None:
    """Drop root's capabilities to ignore file modes, effective and permitted (capset(2),
    _LINUX_CAPABILITY_VERSION_3: two 32-bit words of each set)."""

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                    ("inheritable", ctypes.c_uint32)]

    libc = ctypes.CDLL(None, use_errno=True)
    header, data = Header(0x20080522, 0), (Data * 2)()
    if libc.capget(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capget")
    for cap in _CAPS:
        data[0].effective &= ~(1 << cap)
        data[0].permitted &= ~(1 << cap)
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")


def _exit_code(e: SystemExit) -> int:
    if e.code is None or isinstance(e.code, int):
        return e.code or 0
    print(e.code, file=sys.stderr)  # as the interpreter does for sys.exit("text")
    return 1


def _child(req: dict, out_fd: int, err_fd: int) -> None:
    """Run one command as `python -m sim` would, then exit with its code."""
    code = 1
    try:
        os.setpgrp()
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        sys.stdin = open(0, closefd=False)
        sys.stdout = open(1, "w", closefd=False)
        sys.stderr = open(2, "w", closefd=False)
        os.chdir(req["cwd"])
        os.environ["HOME"] = req["home"]
        if req.get("drop"):
            drop_permission_override()
        sys.argv = ["carcsim", *req["argv"]]
        from sim.cli.main import main

        try:
            main()
            code = 0
        except SystemExit as e:
            code = _exit_code(e)
        except BaseException:  # noqa: BLE001 - what the interpreter would print
            traceback.print_exc()
            code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _run(req: dict) -> dict:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        pid = os.fork()
        if pid == 0:
            _child(req, out.fileno(), err.fileno())
        deadline, timed_out = time.monotonic() + req["timeout"], False
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                timed_out = True
                os.killpg(pid, signal.SIGKILL)  # the child's own group: it and what it started
                _, status = os.waitpid(pid, 0)
                break
            time.sleep(0.005)
        out.seek(0)
        err.seek(0)
        return {"rc": os.waitstatus_to_exitcode(status), "timed_out": timed_out,
                "stdout": out.read().decode(errors="replace"),
                "stderr": err.read().decode(errors="replace")}


def _can_drop() -> bool:
    """Whether a child of root, its capabilities dropped, is refused a write into a
    read-only directory (False for an ordinary user: there is nothing to drop)."""
    if os.geteuid() != 0:
        return False
    top = tempfile.mkdtemp()
    os.chmod(top, 0o555)
    pid = os.fork()
    if pid == 0:
        try:
            drop_permission_override()
            os.mkdir(os.path.join(top, "x"))
            os._exit(1)  # written: the drop did not hold
        except PermissionError:
            os._exit(0)
        except BaseException:  # noqa: BLE001 - no capset here (seccomp, another kernel)
            os._exit(1)
    held = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
    os.chmod(top, 0o755)
    shutil.rmtree(top)
    return held


# refused while parsing: these load what the parser loads on first use (its coercion)
WARM_UP = (["play", "--seed", "x"], ["report", "r", "--rating-prior", "x"],
           ["play", "--svg", "/nonexistent/x.svg"], ["configs", "extra"])


def serve() -> None:
    for name in PRELOAD:
        importlib.import_module(name)
    from sim.cli.main import main

    for argv in WARM_UP:
        sys.argv, sys.stderr = ["carcsim", *argv], io.StringIO()
        try:
            main()
        except SystemExit:
            pass
        finally:
            sys.stderr = sys.__stderr__
    sys.modules["ray"] = None  # `import ray` raises: no bad input may get that far
    channel = sys.stdout
    sys.stdout = sys.stderr  # nothing but answers on the channel
    channel.write(json.dumps({"ready": True, "can_drop": _can_drop()}) + "\n")
    channel.flush()
    for line in sys.stdin:
        channel.write(json.dumps(_run(json.loads(line))) + "\n")
        channel.flush()


if __name__ == "__main__":
    serve()
