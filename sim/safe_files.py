"""Writing and deleting inside a directory without following symlinks (issue 27 item 1).

A directory is opened once (`open_dir`, following links: the user named it) and every
name inside it is reached relative to that handle (`dir_fd`) with O_NOFOLLOW, so a
symlink planted where carcsim writes (a run's `games/`, `manifest.json.tmp`,
`report.html.tmp`) is refused in one line, never followed: nothing outside is touched.

A file is written to NAME.tmp, created exclusively (O_CREAT|O_EXCL: an existing name is
never opened for writing), then renamed over NAME. A leftover NAME.tmp that is a
regular file (an interrupted write) is removed first; anything else there (a symlink, a
FIFO, a directory) is refused. A target that exists and is not a regular file (a device
such as /dev/null, a FIFO, a directory, a symlink) is refused: rename would replace it.

Every failure is one line, `SHOWN: what`, raised as `error` (InputError by default; the
run directory passes its RunError).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from sim.errors import InputError

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_NEW_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def kind(st: os.stat_result) -> str:
    """What an lstat result is, in words."""
    mode = st.st_mode
    for test, word in ((stat.S_ISLNK, "a symlink"), (stat.S_ISDIR, "a directory"),
                       (stat.S_ISREG, "a regular file"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device")):
        if test(mode):
            return word
    return "not a regular file"


def lstat_at(dir_fd: int, name: str) -> os.stat_result | None:
    """lstat of `name` inside `dir_fd`, or None when there is none."""
    try:
        return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def _why(e: OSError) -> str:
    return e.strerror or str(e)


def open_dir(path: str | Path, error=InputError) -> int:
    """A handle on the directory `path` (links followed: the caller named it)."""
    try:
        return os.open(path, _DIR_FLAGS)
    except OSError as e:
        raise error(f"{path}: cannot open the directory: {_why(e)}") from None


def sub_dir(dir_fd: int, name: str, shown, create: bool, error=InputError) -> int | None:
    """A handle on the real directory `name` inside `dir_fd` (made first when `create`),
    or None when it does not exist and not `create`. A symlink or a file there is refused."""
    if create:
        try:
            os.mkdir(name, dir_fd=dir_fd)
        except FileExistsError:
            pass
        except OSError as e:
            raise error(f"{shown}: cannot create: {_why(e)}") from None
    try:
        return os.open(name, _DIR_FLAGS | os.O_NOFOLLOW, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    except OSError as e:
        st = lstat_at(dir_fd, name)
        if st is not None and not stat.S_ISDIR(st.st_mode):
            raise error(f"{shown}: is {kind(st)}: expected a directory (carcsim does not "
                        f"follow links inside a run)") from None
        raise error(f"{shown}: cannot open: {_why(e)}") from None


def check_replaceable(dir_fd: int, name: str, shown, error=InputError) -> None:
    """Refuse a `name` that exists and is not a regular file (rename would replace it)."""
    st = lstat_at(dir_fd, name)
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise error(f"{shown}: is {kind(st)}: expected a regular file to replace, or no file")


def _exclusive(dir_fd: int, name: str) -> int:
    """Create `name` inside `dir_fd`; never opens an existing name (FileExistsError)."""
    return os.open(name, _NEW_FLAGS, 0o666, dir_fd=dir_fd)


def _new_file(dir_fd: int, name: str, shown_tmp, shown, error) -> int:
    """Create the temporary file `name`; failures name the final file `shown`, a foreign
    thing in the temporary's place names the temporary `shown_tmp`."""
    try:
        return _exclusive(dir_fd, name)
    except FileExistsError:
        st = lstat_at(dir_fd, name)
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise error(f"{shown_tmp}: is {kind(st)}: not a file carcsim wrote; remove it") from None
        unlink_at(dir_fd, name, shown_tmp, error)  # a leftover of an interrupted write
        try:
            return _exclusive(dir_fd, name)
        except FileExistsError:
            raise error(f"{shown_tmp}: created again while carcsim was replacing it: is another "
                        f"carcsim writing here?") from None
        except OSError as e:
            raise error(f"{shown}: cannot write: {_why(e)}") from None
    except OSError as e:
        raise error(f"{shown}: cannot write: {_why(e)}") from None


def write_tmp(dir_fd: int, name: str, write, shown, error=InputError) -> str:
    """write(binary file) into a new `name`.tmp inside `dir_fd`; its name. On failure the
    temporary file is removed and the error names `shown` (the final file)."""
    check_replaceable(dir_fd, name, shown, error)
    tmp = name + ".tmp"
    fd = _new_file(dir_fd, tmp, f"{shown}.tmp", shown, error)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
    except OSError as e:
        try:
            os.unlink(tmp, dir_fd=dir_fd)
        except OSError:
            pass
        raise error(f"{shown}: cannot write: {_why(e)}") from None
    return tmp


def rename_at(dir_fd: int, tmp: str, name: str, shown, error=InputError) -> None:
    """Rename `tmp` over `name`, both inside `dir_fd` (rename follows no link)."""
    check_replaceable(dir_fd, name, shown, error)
    try:
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except OSError as e:
        try:
            os.unlink(tmp, dir_fd=dir_fd)
        except OSError:
            pass
        raise error(f"{shown}: cannot write: {_why(e)}") from None


def replace_at(dir_fd: int, name: str, write, shown, error=InputError) -> None:
    """Write `name` inside `dir_fd` through a temporary file: whole or untouched."""
    rename_at(dir_fd, write_tmp(dir_fd, name, write, shown, error), name, shown, error)


def unlink_at(dir_fd: int, name: str, shown, error=InputError) -> None:
    """Remove the file `name` inside `dir_fd` (a link itself, never its target); none is fine."""
    try:
        os.unlink(name, dir_fd=dir_fd)
    except FileNotFoundError:
        pass
    except OSError as e:
        raise error(f"{shown}: cannot remove: {_why(e)}") from None


def write_file(path: str | Path, data: str | bytes, shown=None, error=InputError) -> None:
    """Replace the file `path` atomically with `data` (text is written as UTF-8): its
    directory is opened once, the file and its temporary are reached without links."""
    path = Path(path)
    blob = data.encode() if isinstance(data, str) else data
    fd = open_dir(path.parent, error)
    try:
        replace_at(fd, path.name, lambda f: f.write(blob), shown or path, error)
    finally:
        os.close(fd)
