"""The output directory: Parquet shards, one file per table and shard, and
`manifest.json` (sim/tournament/manifest.py: config, plan, each finished shard's files
with rows and SHA-256).

Only the driver writes here; workers send their tables through Ray. Each shard file
is written to a temporary name; when the manifest is next rewritten (at most once a
second, and when the run stops) the files are renamed into place and the manifest is
written to a temporary name and renamed, so a run stopped at any moment keeps exactly
its recorded shards (a shard file without a manifest entry is simply redone,
deterministically, to the same rows), and a reader during a run sees almost only
recorded files.

Opening a directory that holds a run checks it first: a recorded file missing or
changed sends its shard back to be played again (one line saying so); a file the run
does not know is refused; a damaged manifest is refused unless `repair` (rebuild from
the shard files that hold exactly the planned games) or `force` (start over).
A failed write is one line (RunError), with its temporary file removed.

Every file written or deleted here is reached relative to a handle on the run directory
or on one of its table folders, without following links (sim/safe_files.py): a table
folder that is a symlink or a file, or a planted `manifest.json.tmp` symlink, is refused
before anything is deleted, and nothing outside the run is touched.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from importlib import metadata
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sim import safe_files as sf
from sim.tournament.config import DEFAULT_SHARD_BLOCKS, Experiment, shown
from sim.tournament import manifest as mf
from sim.tournament.manifest import MANIFEST, RunError
from sim.tournament.records import SCHEMA_VERSION, TABLES

SAVE_EVERY = 1.0  # seconds between manifest rewrites while shards stream in, at least
# and at least this many times a rewrite's own cost: a run's manifest grows with its
# shards (32 MB and 6 s a rewrite at 100,000), and the driver is not to spend more than
# a tenth of its time rewriting it (a crash replays the shards since the last rewrite)
SAVE_SHARE = 10.0


def code_version() -> str:
    try:
        return metadata.version("carcsim")
    except metadata.PackageNotFoundError:
        return "unknown"


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _say(line: str) -> None:
    print(f"carcsim: {line}", file=sys.stderr, flush=True)


def _canonical_without_blocks(config: dict) -> dict:
    return {k: v for k, v in config.items() if k != "blocks"}


# the canonical config's top-level keys that are [run] keys, and the [run.sprt] keys in
# the order of its list (config.py Experiment.canonical)
RUN_KEYS_CANONICAL = ("name", "seed", "blocks", "shard_blocks", "events", "sprt")
SPRT_ORDER = ("arm", "baseline", "p0", "p1", "alpha", "beta")


def first_difference(then, now, path: str = "") -> tuple[str, object, object] | None:
    """The first key (dotted as the config file has it, in sorted order) where two
    canonical configs differ, with its value in each (None where a side lacks it); None
    when they are equal."""
    if isinstance(then, dict) and isinstance(now, dict):
        for k in sorted(set(then) | set(now)):
            key = f"{path}.{k}" if path else f"run.{k}" if k in RUN_KEYS_CANONICAL else k
            d = first_difference(then.get(k), now.get(k), key)
            if d is not None:
                return d
        return None
    if path == "run.sprt" and isinstance(then, list) and isinstance(now, list) and len(then) == len(now) == 6:
        return first_difference(dict(zip(SPRT_ORDER, then)), dict(zip(SPRT_ORDER, now)), path)
    return None if then == now else (path, then, now)


def check_target(out: Path, starting_over: bool) -> None:
    """Refuse an output path that is a file, a new directory that cannot be made (the
    nearest existing directory above it is a file or not writable), or a run directory
    whose manifest is damaged (unless starting over or repairing), without writing
    anything."""
    try:
        is_file = out.exists() and not out.is_dir()
        above = next((p for p in out.parents if os.path.lexists(p)), None)
        above_is_dir = above is None or above.is_dir()
    except OSError as e:  # a part longer than the file system allows, a loop of links
        raise RunError(f"{out}: cannot be the output directory: {e.strerror}") from None
    if is_file:
        raise RunError(f"{out}: is a file: expected a directory for the run's output")
    if not out.exists() and not above_is_dir:
        raise RunError(f"{out}: cannot create the output directory: {above} is not a directory")
    if not out.exists() and not os.access(above, os.W_OK | os.X_OK):
        raise RunError(f"{out}: cannot create the output directory: {above} is not writable")
    if not starting_over and (out / MANIFEST).exists():
        mf.load(out)


class Sink:
    """The output directory of one experiment."""

    def __init__(self, out: str | Path, exp: Experiment, force: bool = False,
                 repair: bool = False, say=_say, auto_size=None):
        self.out = Path(out)
        self.exp = exp
        self.say = say
        # () -> blocks a shard: an "auto" run's size, asked only when a new plan is made
        self._auto_size = auto_size
        self._saved_at = self._save_cost = 0.0
        self._dirty = False
        # (folder handle, tmp name, final name, final path) of shards not yet recorded
        self._pending: list[tuple[int, str, str, Path]] = []
        self._root: int | None = None  # the run directory's handle, once it exists
        self._folders: dict[str, int] = {}  # the table folders' handles, checked real folders
        check_target(self.out, force or repair)
        if self.out.exists():
            self._root = sf.open_dir(self.out, RunError)
            self._check_folders()  # before anything is read, deleted or wiped
        if force:
            self._wipe()
        path = self.out / MANIFEST
        if path.exists() and repair:
            self.manifest = self._rebuild(known=self._refuse_another_config())
        elif path.exists():
            self.manifest = mf.load(self.out)
            if not self.manifest["shards"] and self.manifest["fingerprint"] != exp.fingerprint():
                # the run there stored no game (it failed before its first shard): nothing
                # of it to keep, so nothing to refuse this config for
                self.say(f"{self.out}: the run there stored no shard; starting over with {exp.path}")
                self._wipe()
                self._create()
                return
            self._accept(self.manifest)
        else:
            if any(self._table_files()):
                if not repair:
                    raise RunError(f"{path}: missing although the directory holds shard files; "
                                   f"{mf.REMEDY}")
                self.manifest = self._rebuild()
            else:
                self._create()
                return
        self._check_files()

    # --- opening ------------------------------------------------------------------------

    def _create(self) -> None:
        made = not self.out.exists()
        try:
            self.out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise RunError(f"{self.out}: cannot create the output directory: {e.strerror}") from None
        if self._root is None:
            self._root = sf.open_dir(self.out, RunError)
        self.manifest = self._fresh()
        try:
            self.save()
        except RunError:
            if made:
                shutil.rmtree(self.out, ignore_errors=True)  # nothing half-written
            raise

    def _fresh(self) -> dict:
        exp = self.exp
        return {"schema_version": SCHEMA_VERSION, "code_version": code_version(),
                "ruleset": exp.rules.ruleset, "fingerprint": exp.fingerprint(),
                "run_id": exp.run_id(), "config": exp.canonical(), "config_text": exp.source, "plan": mf.new_plan(exp, self._size()),
                "shards": {}, "extended": [], "created": _now()}

    def _accept(self, m: dict) -> None:
        """Refuse a manifest of another schema or config; extend one whose only change
        is more blocks (block seeds depend on (seed, block) alone)."""
        exp = self.exp
        if m["schema_version"] != SCHEMA_VERSION:
            raise RunError(f"{self.out}: written with record schema {m['schema_version']}, this "
                           f"carcsim writes {SCHEMA_VERSION}; use --force to start over")
        if m["fingerprint"] == exp.fingerprint():
            return
        old = m["plan"]["blocks"]
        then, now = m["config"].get("plugins", {}), exp.canonical().get("plugins", {})
        changed = sorted(p for p in set(then) | set(now) if then.get(p) != now.get(p))
        if changed:
            raise RunError(f"{self.out}: the strategy file {changed[0]} changed since this run "
                           f"was made (its sha256 is in manifest.json): restore it, use --force "
                           f"to start over, or --out for another directory")
        diff = first_difference(_canonical_without_blocks(m["config"]),
                                _canonical_without_blocks(exp.canonical()))
        if diff is not None:
            key, there, here = diff
            there, here = (shown(key, v) for v in (there, here))
            raise RunError(f"{self.out}: holds a run of a different config "
                           f"({m['config'].get('name')!r}): {key} is {there} there, {here} in "
                           f"{exp.path}; use --force to start over or --out for another directory")
        if exp.blocks < old:
            raise RunError(f"{exp.path}: run.blocks = {exp.blocks}: the run in {self.out} has "
                           f"{old} blocks; a run can be extended, not shortened (use --force to "
                           f"start over or --out for another directory)")
        m["plan"] = mf.extend_plan(m["plan"], exp)
        m["extended"] = m.get("extended", []) + [{"from_blocks": old, "to_blocks": exp.blocks,
                                                  "at": _now()}]
        m.update(fingerprint=exp.fingerprint(), config=exp.canonical(), config_text=exp.source)
        self.say(f"{self.out}: extending the run from {old} to {exp.blocks} blocks; its "
                 f"{len(m['shards'])} finished shards are kept")
        self.save()

    def _check_files(self) -> None:
        damaged, unknown, leftover = mf.check_files(self.out, self.manifest)
        if unknown:
            raise RunError(f"{unknown[0]}: not a file of this run (manifest.json does not list it)"
                           f"{f' (and {len(unknown) - 1} more)' if len(unknown) > 1 else ''}: "
                           f"remove it, then run again")
        for shard, why in sorted(damaged.items()):
            self.say(f"{self.out}: shard {shard}: {why}; playing it again")
            self._forget(shard)
        for path in leftover:
            self._unlink(path.parent.name, path.name)
        if damaged:
            self.save()

    def _forget(self, shard: int) -> None:
        del self.manifest["shards"][str(shard)]
        self._unlink_shard(shard)

    def _unlink_shard(self, shard: int) -> None:
        for name in TABLES:
            self._unlink(name, mf.shard_file(self.out, name, shard).name)

    def _unlink(self, table: str, name: str) -> None:
        """Remove `table`/`name` through the folder's checked handle (a link itself, if
        one were there, never its target)."""
        folder = self._folder(table, create=False)
        if folder is not None:
            sf.unlink_at(folder, name, self.out / table / name, RunError)

    def _check_folders(self) -> None:
        """Open each table folder that exists: a symlink or a file in its place is
        refused (one line) before anything in the run is deleted."""
        for name in TABLES:
            self._folder(name, create=False)

    def _folder(self, table: str, create: bool) -> int | None:
        if table not in self._folders:
            fd = sf.sub_dir(self._root, table, self.out / table, create, RunError)
            if fd is None:
                return None
            self._folders[table] = fd
        return self._folders[table]

    def _sha256(self, table: str, name: str) -> str:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=self._folders[table])
        with os.fdopen(fd, "rb") as f:
            return mf.sha256_of(f)

    def _size(self) -> int | None:
        """An "auto" run's shard size for a new plan (None: the config fixes it). A
        repaired run keeps the size its shard 0 was stored with (its blocks 0..size − 1),
        so its verified shards stay; else it is measured anew."""
        if self.exp.shard_blocks:
            return None
        first = mf.shard_file(self.out, "games", 0)
        if first.exists():
            try:
                blocks = pq.read_table(first, columns=["block"])["block"].to_pylist()
                if blocks and min(blocks) == 0:
                    return max(blocks) + 1
            except Exception:  # noqa: BLE001 - an unreadable shard 0: measure anew
                pass
        if self._auto_size is None:  # no run to time a pilot (a test's sink): the default size
            return min(self.exp.blocks, DEFAULT_SHARD_BLOCKS)
        return self._auto_size()

    def _refuse_another_config(self) -> bool:
        """--repair mends this config's run: a manifest whose config_text (what the run
        was started with; its `config` copy may be what is damaged) still reads as
        another config (blocks aside) is refused as a run would refuse it, before any
        file is touched. Whether the manifest named this config (False: too damaged to
        say; the shards are checked instead)."""
        try:
            m = mf.read(self.out)
            if not isinstance(m.get("config_text"), str) or not isinstance(m.get("config"), dict):
                return False
            config = mf.experiment_of(self.out / MANIFEST, m).canonical()
        except (RunError, KeyError, TypeError, AttributeError):
            return False
        mine = self.exp.canonical()
        diff = first_difference(*({k: v for k, v in _canonical_without_blocks(c).items() if k != "plugins"}
                                  for c in (config, mine)))
        if diff is not None:
            key, there, here = diff
            raise RunError(f"{self.out}: holds a run of a different config ({config.get('name')!r}): "
                           f"{key} is {shown(key, there)} there, {shown(key, here)} in {self.exp.path}; "
                           f"--repair mends a run of its own config: use --force to start over or "
                           f"--out for another directory")
        return True

    def _rebuild(self, known: bool = False) -> dict:
        """--repair: a new manifest from the shard files that hold exactly the planned
        games; every other shard is played again. Shards there of which none holds this
        config's games, beside no manifest naming this config (`known`), are another
        run's: refused, nothing deleted."""
        m = self._fresh()
        kept, bad = 0, []
        for shard, blocks in mf.iter_shards(m["plan"]["layout"]):
            if not mf.shard_file(self.out, "games", shard).exists():
                continue
            why = mf.content_problem(self.out, self.exp, shard, blocks)
            if why:
                bad.append((shard, why))
                continue
            rows = {name: pq.ParquetFile(mf.shard_file(self.out, name, shard)).metadata.num_rows
                    for name in m["plan"]["tables"]}
            m["shards"][str(shard)] = {"blocks": [blocks.start, blocks.stop],
                                       "files": mf.file_entries(self.out, shard, rows)}
            kept += 1
        if bad and not kept and not known:
            raise RunError(f"{self.out}: none of its {len(bad)} shard{'s' * (len(bad) != 1)} holds "
                           f"the games of {self.exp.path} (shard {bad[0][0]}: {bad[0][1]}): a run of "
                           f"another config? --repair keeps a run's good shards; use --force to "
                           f"start over or --out for another directory")
        for shard, why in bad:
            self.say(f"{self.out}: shard {shard}: {why}; playing it again")
            self._unlink_shard(shard)
        m["repaired"] = _now()
        self.manifest = m
        self.say(f"{self.out / MANIFEST}: rebuilt from {kept} verified shards")
        self.save()
        return m

    def _table_files(self):
        for name in TABLES:
            if name in self._folders:  # checked real folders only
                yield from (self.out / name).glob("shard-*.parquet")

    def _wipe(self) -> None:
        if self._root is None:
            return
        for name in list(self._folders):
            os.close(self._folders.pop(name))
            # rmtree relative to the run's handle; it follows no link inside the folder
            shutil.rmtree(name, dir_fd=self._root, ignore_errors=True)
        sf.unlink_at(self._root, MANIFEST, self.out / MANIFEST, RunError)

    # --- writing ------------------------------------------------------------------------

    def save(self) -> None:
        """Move the finished shards' files into place, then record them: a reader (report
        during a run) sees a shard file only once it is about to be recorded."""
        start = time.monotonic()
        try:  # never write a manifest that carcsim itself would refuse to read
            mf.check(self.out / MANIFEST, self.manifest)
        except RunError as e:
            raise RunError(f"refusing to write a manifest carcsim would refuse (a bug): {e}") from None
        for folder, tmp, name, label in self._pending:
            sf.rename_at(folder, tmp, name, label, RunError)
        self._pending = []
        blob = json.dumps(self.manifest, indent=1, sort_keys=True).encode()
        sf.replace_at(self._root, MANIFEST, lambda f: f.write(blob), self.out / MANIFEST, RunError)
        self._saved_at, self._dirty = time.monotonic(), False
        self._save_cost = self._saved_at - start

    def close(self) -> None:
        """Record what is still unrecorded (a run's last shards), then let go of the
        directory handles."""
        try:
            if self._dirty:
                self.save()
        finally:
            for fd in self._folders.values():
                os.close(fd)
            self._folders = {}
            if self._root is not None:
                os.close(self._root)
                self._root = None

    @property
    def done(self) -> set[int]:
        return {int(k) for k in self.manifest["shards"]}

    @property
    def layout(self) -> list:
        return self.manifest["plan"]["layout"]

    def games_done(self) -> int:
        return sum(e["files"]["games"]["rows"] for e in self.manifest["shards"].values())

    def write(self, shard: int, tables: dict[str, pa.Table]) -> None:
        """Store one finished shard, then record it as done."""
        blocks = mf.shard_range(self.layout, shard)
        want = len(blocks) * self.manifest["plan"]["games_per_block"]
        if tables["games"].num_rows != want:
            raise RunError(f"shard {shard}: {tables['games'].num_rows} games returned, the plan has "
                           f"{want}")
        files, written = {}, []
        try:
            for name in self.manifest["plan"]["tables"]:
                path = mf.shard_file(self.out, name, shard)
                folder = self._folder(name, create=True)
                tmp = sf.write_tmp(folder, path.name,
                                   lambda f, t=tables[name]: pq.write_table(t, f, compression="zstd"),
                                   path, RunError)
                written.append((folder, tmp, path.name, path))
                files[name] = {"rows": tables[name].num_rows, "sha256": self._sha256(name, tmp)}
        except (RunError, OSError) as e:
            for folder, tmp, _, _ in written:  # no shard half-written
                try:
                    os.unlink(tmp, dir_fd=folder)
                except OSError:
                    pass
            if isinstance(e, RunError):
                raise
            raise RunError(f"shard {shard}: cannot write: {e.strerror or e}") from None
        self._pending += written
        self.manifest["shards"][str(shard)] = {"blocks": [blocks.start, blocks.stop], "files": files}
        self.manifest["updated"] = _now()
        self._dirty = True
        if time.monotonic() - self._saved_at >= max(SAVE_EVERY, SAVE_SHARE * self._save_cost):
            self.save()


def read_manifest(run_dir: str | Path) -> dict:
    """The manifest of a run to read (report, replay), after checking every recorded file:
    RunError (one line) when nothing is finished, or a file is damaged or unknown."""
    for attempt in range(2):  # a run in progress records its files within a second
        m = mf.load(run_dir)
        damaged, unknown, leftover = mf.check_files(run_dir, m)
        if damaged or unknown or not any(p.suffix == ".parquet" for p in leftover):
            break
        time.sleep(0.5 * (1 - attempt))
    if unknown:
        raise RunError(f"{unknown[0]}: not a file of this run (manifest.json does not list it): "
                       f"remove it")
    if damaged:
        shard, why = min(damaged.items())
        raise RunError(f"{run_dir}: shard {shard}: {why}; run `carcsim run CONFIG --out {run_dir}` "
                       f"again to play it again")
    unrecorded = [p for p in leftover if p.suffix == ".parquet"]
    if unrecorded:
        raise RunError(f"{unrecorded[0]}: a shard not recorded as finished (the run was stopped "
                       f"while writing): resume the run with `carcsim run CONFIG --out {run_dir}`")
    if not m["shards"]:
        raise RunError(f"{run_dir}: no finished shard yet: run or resume it first")
    return m

