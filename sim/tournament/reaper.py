"""The private Ray's reaper: a small process of its own that outlives a killed driver
and ends the Ray processes that driver started.

A driver stopped by Ctrl-C shuts its local Ray down and reaps what lingers (run.py
_ray_disconnect); one killed outright (SIGKILL, the OOM killer) runs no code at all,
and Ray's agents then linger for up to a minute and a half before they notice. The
runner starts this reaper once its local Ray is up, with the driver's pid and the
Ray processes' pids and start times: it checks every POLL seconds whether the driver
is alive; once it is gone, it ends those processes and their children (SIGTERM,
then SIGKILL after GRACE seconds) and exits. It exits too once every one of them has
ended (the driver shut its Ray down itself). A start time guards against a pid the
system has given to another process since.

    python -m sim.tournament.reaper DRIVER_PID PID:START_TIME ...
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

POLL = 0.2
GRACE = 2.0


def start(driver_pid: int, processes) -> subprocess.Popen | None:
    """Start the reaper for psutil `processes` (the driver's own Ray); None without any."""
    marks = []
    for p in processes:
        try:
            marks.append(f"{p.pid}:{p.create_time()!r}")
        except Exception:  # noqa: BLE001 - already gone: nothing to reap
            continue
    if not marks:
        return None
    return subprocess.Popen([sys.executable, "-m", "sim.tournament.reaper", str(driver_pid), *marks],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _running(marks: list[tuple[int, float]]):
    """The processes of `marks` still running as themselves: one read of each one's own
    /proc entry (the poll's check, several times a second beside the workers)."""
    import psutil

    out = []
    for pid, started in marks:
        try:
            p = psutil.Process(pid)
            if p.create_time() == started:
                out.append(p)
        except psutil.Error:
            continue
    return out


def _ours(marks: list[tuple[int, float]]):
    """The processes of `marks` still running as themselves, with their children (a
    scan of every process of the machine: only once the driver is gone)."""
    import psutil

    out = []
    for p in _running(marks):
        try:
            out += [p, *p.children(recursive=True)]
        except psutil.Error:
            out.append(p)
    return out


def end(family: list, grace: float = GRACE, ask: bool = True) -> None:
    """End psutil processes `family`: asked to stop (SIGTERM, when `ask`), then, those
    still up after `grace` seconds, killed."""
    import psutil

    for p in family if ask else ():
        try:
            p.terminate()
        except psutil.Error:
            pass
    _, alive = psutil.wait_procs(family, timeout=grace)
    for p in alive:
        try:
            p.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(alive, timeout=grace)


def main(argv: list[str]) -> int:
    driver = int(argv[0])
    marks = [(int(pid), float(t)) for pid, t in (m.split(":", 1) for m in argv[1:])]
    while _alive(driver):
        if not _running(marks):
            return 0  # the driver shut its Ray down itself
        time.sleep(POLL)
    end(_ours(marks))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
