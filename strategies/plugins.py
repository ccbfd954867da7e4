"""A user's own policies, named where they live (docs/STRATEGIES.md):

    path/to/mystrat.py:Cautious     a class (or any callable returning a policy) in a file
    mypkg.players:Cautious          ... in an importable module
    cautious                        a name an installed package registers in the entry-point
                                    group `carcsim.strategies` (its value `module:attr`)

A file's text is run once per process (again only if the text changes) as a module of
its own: it may import `strategies`; it is never put on `sys.path`. What a run
needs of its plug-ins travels with the run, not with a file system: `sources(specs)`
gives each named file's text, which the run carries; while the driver and each worker
play (`shipped`), a file named by a spec is run from that text, so a Ray cluster
without shared files plays the same code as the driver. The manifest keeps the
hashes; `check_unchanged` refuses a resume or a replay once a file has changed.

Modules and entry points are imported by name on every machine: install the package
on the cluster (or use a file).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

from sim.errors import InputError

GROUP = "carcsim.strategies"
_SHIPPED: dict[str, str] = {}  # file as named in a spec -> its text (install)
_MODULES: dict[tuple[str, str], object] = {}  # (file as named, sha256) -> its module
_VERSION = 0


def is_target(name: str) -> bool:
    """Whether a policy name points at a plug-in (`file.py:attr` or `module:attr`)."""
    return ":" in name


def _split(target: str, where: str) -> tuple[str, str]:
    place, _, attr = target.rpartition(":")
    if not place or not attr.isidentifier():
        raise InputError(f"{where}: {target!r}: expected <file.py or module>:<class>")
    return place, attr


def _read(path: str, where: str, shipped: bool = True) -> str:
    """A strategy file's text: the shipped text while a run plays (`shipped`), else the
    file's own."""
    if shipped and path in _SHIPPED:
        return _SHIPPED[path]
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{where}: {path}: no such strategy file") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:  # ValueError: a NUL in the name
        raise InputError(f"{where}: {path!r}: cannot read the strategy file: "
                         f"{getattr(e, 'strerror', None) or e}") from None


def _file_module(path: str, where: str):
    text = _read(path, where)
    key = (path, hashlib.sha256(text.encode()).hexdigest())
    if key not in _MODULES:
        name = f"carcsim_plugin_{key[1][:16]}"
        spec = importlib.util.spec_from_loader(name, loader=None, origin=path)
        module = importlib.util.module_from_spec(spec)
        module.__file__ = path
        sys.modules[name] = module  # dataclasses and pickling look the module up by name
        try:
            exec(compile(text, path, "exec"), module.__dict__)  # noqa: S102 - the user's own file
        except (Exception, SystemExit) as e:  # noqa: BLE001 - any error of the user's file is one line
            sys.modules.pop(name, None)
            raise InputError(f"{where}: {path}: the strategy file failed to load: "
                             f"{type(e).__name__}: {short(e)}") from None
        _MODULES[key] = module
    return _MODULES[key]


def _module(name: str, where: str):
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise InputError(f"{where}: {name}: cannot import the strategy module: {short(e)}") from None
    except (Exception, SystemExit) as e:  # noqa: BLE001 - the module's own error (its sys.exit too), as one line
        raise InputError(f"{where}: {name}: the strategy module failed to load: "
                         f"{type(e).__name__}: {short(e)}") from None


def load(target: str, where: str):
    """The class (or factory) `target` names. Raises InputError naming `where`."""
    place, attr = _split(target, where)
    module = _file_module(place, where) if place.endswith(".py") else _module(place, where)
    try:
        found = getattr(module, attr)
    except AttributeError:
        raise InputError(f"{where}: {target!r}: {place} has no {attr!r}") from None
    if not callable(found):
        raise InputError(f"{where}: {target!r}: expected a class, got {type(found).__name__}")
    return found


def entry_point(name: str):
    """The policy an installed package registers under `name` in GROUP, or None."""
    for ep in metadata.entry_points(group=GROUP):
        if ep.name == name:
            return ep.value
    return None


def _files(specs) -> list[str]:
    """The strategy files the seat specs `specs` name, in order, once each."""
    from sim.text import split_top

    out = []
    for spec in specs:
        for part in split_top(spec, "+"):
            name = part.partition("=")[2] if "=" in part.partition("(")[0] else part
            name = name.strip().partition("(")[0]
            if is_target(name):
                place = name.rpartition(":")[0]
                if place.endswith(".py") and place not in out:
                    out.append(place)
    return out


def names_a_file(spec: str) -> bool:
    """Whether the seat spec names a strategy file."""
    return bool(_files([spec]))


def sources(specs, where: str = "players") -> dict[str, str]:
    """{file as named: its text} of every strategy file the specs name (what a run ships
    to its workers)."""
    return {path: _read(path, where, shipped=False) for path in _files(specs)}


def hashes(texts: dict[str, str]) -> dict[str, str]:
    return {path: hashlib.sha256(text.encode()).hexdigest() for path, text in texts.items()}


@contextmanager
def shipped(texts: dict[str, str]):
    """While it lasts, this process runs the files named in `texts` from that text, not
    from the disk (a run's driver and its workers: every shard plays what the run
    shipped, even on a node that has no such file or a different one)."""
    global _VERSION
    saved = dict(_SHIPPED)
    _SHIPPED.update(texts)
    _VERSION += 1
    try:
        yield
    finally:
        _SHIPPED.clear()
        _SHIPPED.update(saved)
        _VERSION += 1


def version() -> int:
    """Changes whenever `shipped` changes what a file name runs (for caches of players)."""
    return _VERSION


def check_unchanged(recorded: dict[str, str], where: str) -> None:
    """Refuse, in one line, a strategy file whose text no longer has the recorded hash."""
    for path, digest in recorded.items():
        now = hashes({path: _read(path, where, shipped=False)})[path]
        if now != digest:
            raise InputError(f"{where}: {path}: the strategy file changed since the run was made "
                             f"(sha256 {digest[:12]}… then, {now[:12]}… now): restore it, or "
                             f"start a new run (--force)")


def short(e: Exception) -> str:
    text = str(e).splitlines()[0] if str(e) else ""
    return text if len(text) <= 200 else text[:197] + "..."
