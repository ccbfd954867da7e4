"""One run per directory (issue 27 item 2).

`carcsim run` holds an advisory lock (`fcntl.flock`) on RUN_DIR/run.lock for its whole
length, from before Ray starts until the manifest's last write. A second run into the
same directory is refused in one line that names the holder (pid and host, which the
holder writes into the file). The kernel drops the lock when its holder dies, however it
dies, so a stale run.lock of a dead run is simply taken over: its contents are only a
note for the message, never the lock itself (a run's note is written, and a refused
run reads it, under a brief lock on the directory, so it is read whole). The file is never deleted while the
directory holds a run (deleting a lock file lets two processes lock two different
files); it is removed with the directory when the run made the directory and failed
before writing anything else into it.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import socket
import stat
from pathlib import Path

from sim import safe_files as sf
from sim.tournament.manifest import RunError

LOCK = "run.lock"


def _holder(fd: int) -> str:
    """'pid N on HOST' from the lock file, as far as it can be read (it is only a note)."""
    try:
        note = json.loads(os.pread(fd, 512, 0))
        pid, host = note["pid"], note["host"]
        if isinstance(pid, int) and isinstance(host, str) and host.isprintable():
            return f"pid {pid} on {host[:100]}"
    except (OSError, ValueError, TypeError, KeyError):
        pass
    return "its pid and host unrecorded"


class RunLock:
    """`with RunLock(out) as lock:` ... `lock.acquire(create)`: from then until the block
    ends the run directory `out` is this process's. `acquire(create=False)` locks only a
    directory that exists (nothing is created before Ray is reached); `create=True` makes
    it first. Acquiring again once held does nothing."""

    def __init__(self, out: str | Path):
        self.out = Path(out)
        self.made = False
        self.dir_fd: int | None = None
        self.fd: int | None = None
        self.held = False  # only the holder may clean up: a refused run leaves all alone

    def __enter__(self) -> RunLock:
        return self

    def acquire(self, create: bool) -> None:
        if self.held or (not create and not self.out.is_dir()):
            return
        self.made = not self.out.exists()
        try:
            self.out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise RunError(f"{self.out}: cannot create the output directory: {e.strerror}") from None
        self.dir_fd = sf.open_dir(self.out, RunError)
        self._lock()

    def _lock(self) -> None:
        # A lock is taken and its note written while holding a brief lock on the directory
        # itself, and a refused run reads the note under the same lock: the note it quotes
        # is whole, never the empty file of a holder that has not written it yet.
        try:
            fcntl.flock(self.dir_fd, fcntl.LOCK_EX)
        except OSError as e:
            raise RunError(f"{self.out}: cannot lock: {e.strerror}") from None
        try:
            self._take()
        finally:
            fcntl.flock(self.dir_fd, fcntl.LOCK_UN)

    def _take(self) -> None:
        path = self.out / LOCK
        try:
            self.fd = os.open(LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644,
                              dir_fd=self.dir_fd)
        except OSError as e:
            st = sf.lstat_at(self.dir_fd, LOCK)
            if e.errno == errno.ELOOP or (st is not None and not stat.S_ISREG(st.st_mode)):
                raise RunError(f"{path}: is {sf.kind(st)}: expected the run's lock file, a regular "
                               f"file; remove it") from None
            raise RunError(f"{path}: cannot open the run's lock file: {e.strerror} (a run needs "
                           f"a writable directory)") from None
        if not stat.S_ISREG(os.fstat(self.fd).st_mode):  # a FIFO opens without blocking
            raise RunError(f"{path}: is not a regular file: expected the run's lock file; "
                           f"remove it")
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunError(f"{self.out}: another carcsim run ({_holder(self.fd)}) is writing "
                           f"here: wait for it to end, or give another --out") from None
        except OSError as e:
            raise RunError(f"{path}: cannot lock: {e.strerror}") from None
        self.held = True
        note = json.dumps({"pid": os.getpid(), "host": socket.gethostname()}).encode()
        try:
            os.ftruncate(self.fd, 0)
            os.pwrite(self.fd, note + b"\n", 0)
        except OSError as e:
            raise RunError(f"{path}: cannot write: {e.strerror}") from None

    def __exit__(self, kind, value, tb) -> None:
        if self.dir_fd is None:
            return
        try:
            # a run that made the directory and failed before writing into it leaves nothing
            if kind is not None and self.held and self.made and os.listdir(self.dir_fd) in ([LOCK], []):
                # under the directory lock, so no other run is between opening and locking
                # the file being removed (it would lock a file no longer in the directory)
                fcntl.flock(self.dir_fd, fcntl.LOCK_EX)
                sf.unlink_at(self.dir_fd, LOCK, self.out / LOCK, RunError)
                os.rmdir(self.out)
        except (OSError, RunError):
            pass
        finally:
            if self.fd is not None:
                os.close(self.fd)  # releases the lock
                self.fd = None
            os.close(self.dir_fd)
            self.dir_fd = None
