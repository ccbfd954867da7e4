"""manifest.json: what a run directory holds, and the checks before any of it is trusted.

    schema_version, code_version, ruleset, fingerprint, config, config_text
    run_id  the id the run's rows carry (config.run_id_of; absent before schema 5)
    plan    blocks, games_per_block, games, shard_blocks, shards, tables, and `layout`:
            [first block, stop block, blocks per shard] segments, numbered on from
            shard 0; a run extended to more blocks gains a segment, so the shards it
            already finished keep their numbers and blocks
    shards  per finished shard: its blocks and, per table file, rows and SHA-256
    extended  one entry per extension (blocks before and after, when)
    sprt    the sequential test's decision, once made

Nothing is taken on trust: `load` checks the structure (a damaged manifest is one line
naming the file and what is wrong, with the way out: `--repair` or `--force`) and
recomputes the config, fingerprint, plan and SPRT decision's parameters from
`config_text`, so an edited plan can never make a run play games its config does not
ask for; `check` is also run on every manifest before it is written;
`check_files` compares every recorded file with its hash and finds files the manifest
does not know; `rebuild` (`--repair`) makes a new manifest from the shard files whose
contents are exactly what the plan says they should hold.

Limits: at most MAX_SHARDS shards (the manifest is rewritten as shards finish, so it
must stay small) and MAX_SHARD_GAMES games per shard (a shard's tables are held in
memory by its worker and the driver); the plan is never materialised, so memory does
not depend on `blocks`.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import stat
from pathlib import Path

import pyarrow.parquet as pq

from sim import safe_files
from sim.tournament.config import AUTO, Experiment, fingerprint_of, parse_experiment, run_id_of
from sim.errors import InputError
from sim.tournament import plan
from sim.tournament.records import TABLES

MANIFEST = "manifest.json"
MAX_SHARDS = 100_000
MAX_SHARD_GAMES = 100_000
REMEDY = ("rebuild it from the verified shards with `carcsim run CONFIG --out RUN_DIR --repair`, "
          "or start over with --force")
SHARD_FILE = re.compile(r"shard-(\d{6})\.parquet")


class RunError(InputError):
    """The run cannot go on (output not writable or damaged, Ray unreachable): one line
    and exit code 2, like bad input."""


def shard_file(run_dir: Path, table: str, shard: int) -> Path:
    return Path(run_dir) / table / f"shard-{shard:06d}.parquet"


def tables_of(exp: Experiment) -> list[str]:
    """The tables a run of `exp` stores."""
    names = ["games", "players"]
    if exp.events:
        names.append("events")
    if exp.design == "counterfactual":
        names.append("counterfactuals")
    return names


def check_limits(exp: Experiment, size: int | None = None) -> None:
    """Refuse a plan past the stated limits, naming the config and field; `size` the
    blocks a shard holds (the config's, or an "auto" run's once chosen: before that only
    whether any size can hold the run)."""
    per = plan.games_per_block(exp)
    size = size or exp.shard_blocks
    if size == AUTO:
        size = max(1, MAX_SHARD_GAMES // per)  # the largest shard: fewest shards
    n = -(-exp.blocks // size)
    if min(size, exp.blocks) * per > MAX_SHARD_GAMES:
        raise InputError(f"{exp.path}: run.shard_blocks = {size}: {size * per:,} "
                         f"games a shard: expected at most {MAX_SHARD_GAMES:,} (at most "
                         f"{MAX_SHARD_GAMES // per:,} blocks of {per} games)")
    if n > MAX_SHARDS:
        most = MAX_SHARDS * (MAX_SHARD_GAMES // per)  # both limits at once
        need = -(-exp.blocks // MAX_SHARDS)
        hint = (f"raise run.shard_blocks to {need:,} or more, or lower run.blocks"
                if need * per <= MAX_SHARD_GAMES else
                f"a run holds at most {most:,} blocks of {per} games: lower run.blocks")
        raise InputError(f"{exp.path}: run.blocks = {exp.blocks}: {n:,} shards of {size} "
                         f"blocks: expected at most {MAX_SHARDS:,} shards ({hint})")


# --- the shard layout: segments [first, stop, blocks per shard] -----------------------

def segment_shards(first: int, stop: int, size: int) -> int:
    return -(-(stop - first) // size)


def shard_count(layout: list) -> int:
    return sum(segment_shards(*seg) for seg in layout)


def shard_range(layout: list, shard: int) -> range:
    """The blocks of shard `shard`, by arithmetic (no list of shards is built)."""
    base = 0
    for first, stop, size in layout:
        k = segment_shards(first, stop, size)
        if shard < base + k:
            start = first + (shard - base) * size
            return range(start, min(start + size, stop))
        base += k
    raise IndexError(shard)


def iter_shards(layout: list):
    """(shard, blocks) in shard order, lazily."""
    shard = 0
    for first, stop, size in layout:
        for start in range(first, stop, size):
            yield shard, range(start, min(start + size, stop))
            shard += 1


def new_plan(exp: Experiment, size: int | None = None) -> dict:
    """The plan of a new run; `size`: an "auto" run's shard size (sim/tournament/shards.py)."""
    size = exp.shard_blocks or size
    if not size:
        raise ValueError("new_plan: an auto run needs its shard size")
    check_limits(exp, size)
    per = plan.games_per_block(exp)
    layout = [[0, exp.blocks, size]]
    return {"blocks": exp.blocks, "games_per_block": per, "games": exp.blocks * per,
            "shard_blocks": size, "shards": shard_count(layout),
            "tables": tables_of(exp), "layout": layout}


def extend_plan(old: dict, exp: Experiment) -> dict:
    """The plan of `old` with blocks old["blocks"]..exp.blocks added as new shards."""
    size = exp.shard_blocks or old["shard_blocks"]  # an auto run keeps its size
    check_limits(exp, size)
    layout = old["layout"] + [[old["blocks"], exp.blocks, size]]
    if shard_count(layout) > MAX_SHARDS:
        raise InputError(f"{exp.path}: run.blocks = {exp.blocks}: extending the run gives "
                         f"{shard_count(layout):,} shards: expected at most {MAX_SHARDS:,}")
    return old | {"blocks": exp.blocks, "games": exp.blocks * old["games_per_block"],
                  "shards": shard_count(layout), "layout": layout}


# --- reading and checking --------------------------------------------------------------

def _fail(path: Path, what: str):
    raise RunError(f"{path}: {what}; {REMEDY}")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def load(run_dir: str | Path) -> dict:
    """The manifest of `run_dir`, its structure checked. RunError (one line) otherwise."""
    m = read(run_dir)
    check(Path(run_dir) / MANIFEST, m)
    return m


def read(run_dir: str | Path) -> dict:
    """The manifest of `run_dir` as a JSON object, nothing in it checked (what --repair
    reads of a manifest it may have to rebuild). RunError (one line) otherwise."""
    path = Path(run_dir) / MANIFEST
    if not path.exists() and not path.is_symlink():
        raise RunError(f"{run_dir}: no {MANIFEST}: not a carcsim run directory")
    if not _regular(path):
        raise RunError(f"{path}: is {safe_files.kind(path.lstat())}: expected the run's "
                       f"manifest, a regular file")
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise RunError(f"{path}: cannot read: {e.strerror}") from None
    if not raw.strip():
        _fail(path, "empty")
    try:
        m = json.loads(raw)
    except (ValueError, RecursionError) as e:
        _fail(path, f"not valid JSON ({e})" if isinstance(e, ValueError) else "not valid JSON")
    if not isinstance(m, dict):
        _fail(path, f"expected a JSON object, found {type(m).__name__}")
    return m


def check(path: Path, m: dict) -> Experiment:
    """Check manifest `m` (to be read from, or written to, `path`): every key carcsim
    reads, typed, and the config, fingerprint, plan and SPRT decision recomputed from its
    `config_text` (the config outranks what is written next to it). The config_text's
    experiment, or RunError (one line, with the way out)."""
    for key, kind in (("schema_version", int), ("fingerprint", str), ("config", dict),
                      ("config_text", str), ("plan", dict), ("shards", dict)):
        if key not in m:
            _fail(path, f"key {key!r} is missing")
        if not isinstance(m[key], kind):
            _fail(path, f"{key}: expected {kind.__name__}, found {type(m[key]).__name__}")
    for key in ("code_version", "ruleset", "created", "updated", "repaired"):
        if key in m and not isinstance(m[key], str):
            _fail(path, f"{key}: expected a string, found {type(m[key]).__name__}")
    if not isinstance(m.get("extended", []), list) \
            or not all(isinstance(e, dict) for e in m.get("extended", [])):
        _fail(path, "extended: expected a list of extensions")
    _check_plan(path, m["plan"])
    _check_shards(path, m["plan"], m["shards"])
    exp = _check_config(path, m)
    _check_sprt(path, m, exp)
    return exp


def run_id(m: dict) -> str:
    """The id the rows of the run of checked manifest `m` carry (its `run_id`; computed
    from its config for a run written before schema 5, whose rows carry none)."""
    return m.get("run_id") or run_id_of(m["config"])


def stored_tiles(m: dict) -> dict:
    """The tile lists ([rules.tiles]) a run stored in its manifest's config, {set: text}:
    what its games played, read instead of the files (which may be gone or changed)."""
    config = m.get("config")
    rules = config.get("rules") if isinstance(config, dict) else None
    texts = rules.get("tiles") if isinstance(rules, dict) else None
    return texts if isinstance(texts, dict) else {}


def config_label(m: dict) -> str:
    """The file name a run's config_text is parsed under, so that a run named after its
    config file (no `[run] name`) keeps its name: "<name>.toml"."""
    name = m["config"].get("name")
    plain = isinstance(name, str) and re.fullmatch(r"[\w.-]{1,64}", name)
    return f"{name if plain else 'config'}.toml"


def experiment_of(path: Path, m: dict) -> Experiment:
    """The experiment of the manifest's `config_text`, parsed as the run's own config was
    (its name defaults to the config file's, which the manifest records), with the tile
    lists the run stored; the strategy files its seats name are taken as written."""
    label = config_label(m)
    try:
        return parse_experiment(m["config_text"], label, strategy_files=False, tile_texts=stored_tiles(m))
    except InputError as e:
        _fail(path, f"config_text: not a valid config ({str(e).replace(label, 'config_text', 1)[:200]})")


def _check_config(path: Path, m: dict) -> Experiment:
    exp = experiment_of(path, m)
    canon = exp.canonical()
    for key in sorted(set(canon) | set(m["config"])):
        if key == "plugins":  # the strategy files' hashes: checked against the files (resume, replay)
            continue
        if m["config"].get(key) != canon.get(key):
            _fail(path, f"config.{key}: differs from config_text (the config the run was "
                        f"started with)")
    files = m["config"].get("plugins")  # read as text, not from the files: keep their hashes
    if files is not None and not (isinstance(files, dict) and files and all(
            isinstance(k, str) and isinstance(v, str) for k, v in files.items())):
        _fail(path, "config.plugins: expected {strategy file: sha256}")
    identity = canon | ({"plugins": files} if files else {})
    want = fingerprint_of(identity)
    if m["fingerprint"] != want:
        _fail(path, f"fingerprint {m['fingerprint'][:20]!r}: expected {want}, the "
                    f"config_text's")
    if "run_id" in m and m["run_id"] != run_id_of(identity):  # absent before schema 5
        _fail(path, f"run_id {str(m['run_id'])[:20]!r}: expected {run_id_of(identity)}, the "
                    f"config_text's")
    p = m["plan"]
    # an "auto" run's size is the plan's own (chosen when it started), within the limits
    size = exp.shard_blocks or p["shard_blocks"]
    try:
        check_limits(exp, size)
    except InputError as e:
        _fail(path, f"config_text: {str(e)[:200]}")
    for key, want in (("blocks", exp.blocks), ("games_per_block", plan.games_per_block(exp)),
                      ("shard_blocks", size), ("tables", tables_of(exp))):
        if p[key] != want:
            _fail(path, f"plan.{key} = {str(p[key])[:40]}: the config_text gives {want}")
    for seg in p["layout"]:
        if seg[2] != size:
            _fail(path, f"plan.layout: segment {seg!r}: expected {size} blocks a "
                        f"shard (the config_text's run.shard_blocks, or an auto run's plan.shard_blocks)")
    return exp


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _check_sprt(path: Path, m: dict, exp: Experiment) -> None:
    d = m.get("sprt")
    if d is None:
        return
    if not exp.sprt:
        _fail(path, "sprt: a decision is recorded, but the config_text has no run.sprt")
    arm, baseline, p0, p1, alpha, beta = exp.sprt
    want = {"arm": arm, "baseline": baseline or None, "p0": p0, "p1": p1, "alpha": alpha,
            "beta": beta}
    if not isinstance(d, dict) or d.get("decision") not in ("H0", "H1"):
        _fail(path, "sprt.decision: expected H0 or H1")
    if not _is_int(d.get("blocks")) or not 1 <= d["blocks"] <= m["plan"]["blocks"]:
        _fail(path, f"sprt.blocks: expected a whole number 1..{m['plan']['blocks']}")
    for key in ("llr", "upper", "lower"):
        if not _is_number(d.get(key)):
            _fail(path, f"sprt.{key}: expected a finite number")
    for key, v in want.items():
        if d.get(key) != v:
            _fail(path, f"sprt.{key}: expected {v!r}, the config_text's run.sprt")


def _check_plan(path: Path, p: dict) -> None:
    for key in ("blocks", "games_per_block", "games", "shard_blocks", "shards"):
        if not _is_int(p.get(key)) or p[key] < 1:
            _fail(path, f"plan.{key}: expected a whole number ≥ 1, found {p.get(key)!r}")
    if p["games"] != p["blocks"] * p["games_per_block"]:
        _fail(path, f"plan.games = {p['games']}: expected blocks × games_per_block")
    tables = p.get("tables")
    if not isinstance(tables, list) or not all(isinstance(t, str) for t in tables) \
            or not {"games", "players"} <= set(tables) or not set(tables) <= set(TABLES):
        _fail(path, f"plan.tables = {tables!r}: expected games, players and optional events, "
                    f"counterfactuals")
    layout = p.get("layout")
    stop = 0
    if not isinstance(layout, list) or not layout:
        _fail(path, "plan.layout: expected a list of [first, stop, shard blocks] segments")
    for seg in layout:
        if not (isinstance(seg, list) and len(seg) == 3 and all(_is_int(v) for v in seg)
                and seg[0] == stop and seg[1] > seg[0] and seg[2] >= 1):
            _fail(path, f"plan.layout: segment {seg!r} does not continue from block {stop}")
        stop = seg[1]
    if stop != p["blocks"] or shard_count(layout) != p["shards"]:
        _fail(path, "plan.layout does not cover plan.blocks in plan.shards shards")


def _check_shards(path: Path, p: dict, shards: dict) -> None:
    for key, entry in shards.items():
        if not re.fullmatch(r"0|[1-9]\d*", key) or int(key) >= p["shards"]:
            _fail(path, f"shards: {key!r} is not a shard of the plan (0..{p['shards'] - 1})")
        blocks = shard_range(p["layout"], int(key))
        w = f"shards.{key}"
        if not isinstance(entry, dict) or entry.get("blocks") != [blocks.start, blocks.stop]:
            _fail(path, f"{w}.blocks: expected [{blocks.start}, {blocks.stop}]")
        files = entry.get("files")
        if not isinstance(files, dict) or sorted(files) != sorted(p["tables"]):
            _fail(path, f"{w}.files: expected one entry per table ({', '.join(p['tables'])})")
        for name, f in files.items():
            if not (isinstance(f, dict) and _is_int(f.get("rows")) and f["rows"] >= 0
                    and isinstance(f.get("sha256"), str)
                    and re.fullmatch(r"[0-9a-f]{64}", f["sha256"])):
                _fail(path, f"{w}.files.{name}: expected rows and a SHA-256")
        if files["games"]["rows"] != len(blocks) * p["games_per_block"]:
            _fail(path, f"{w}.files.games.rows = {files['games']['rows']}: the plan has "
                        f"{len(blocks) * p['games_per_block']} games in this shard")


def sha256(path: Path) -> str:
    with open(path, "rb") as f:
        return sha256_of(f)


def sha256_of(f) -> str:
    h = hashlib.sha256()
    for chunk in iter(lambda: f.read(1 << 20), b""):
        h.update(chunk)
    return h.hexdigest()


def _regular(path: Path) -> bool:
    """A regular file itself, not a link to one (a link's target is outside the run)."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except FileNotFoundError:
        return False


def check_folder(folder: Path) -> bool:
    """Whether the table folder exists; RunError when something else is in its place."""
    try:
        st = folder.lstat()
    except FileNotFoundError:
        return False
    if not stat.S_ISDIR(st.st_mode):
        raise RunError(f"{folder}: is {safe_files.kind(st)}: expected a directory (carcsim does "
                       f"not follow links inside a run)")
    return True


def check_files(run_dir: str | Path, m: dict) -> tuple[dict[int, str], list[Path], list[Path]]:
    """({finished shard: what is wrong with its files}, unknown files, leftover files).

    Leftovers are what an interrupted write leaves: `*.tmp`, and files of a planned shard
    not recorded as finished (both are redone by `run`). Unknown files are anything else
    in the table folders."""
    run_dir = Path(run_dir)
    p, shards = m["plan"], m["shards"]
    damaged: dict[int, str] = {}
    for key, entry in shards.items():
        for name, f in entry["files"].items():
            path = shard_file(run_dir, name, int(key))
            if not check_folder(path.parent) or not _regular(path):
                why = "is missing"
            elif path.stat().st_size == 0:
                why = "is empty"
            elif sha256(path) != f["sha256"]:
                why = "differs from what was written (its SHA-256 in manifest.json)"
            else:
                continue
            damaged[int(key)] = f"{name}/{path.name} {why}"
            break
    unknown, leftover = [], []
    for name in TABLES:
        folder = run_dir / name
        if not check_folder(folder):
            continue
        for path in sorted(folder.iterdir()):
            match = SHARD_FILE.fullmatch(path.name)
            if path.name.endswith(".tmp") and _regular(path):
                leftover.append(path)
            elif match and _regular(path) and name in p["tables"] and int(match[1]) < p["shards"]:
                if str(int(match[1])) not in shards:
                    leftover.append(path)
            else:
                unknown.append(path)
    return damaged, unknown, leftover


def content_problem(run_dir: Path, exp: Experiment, shard: int, blocks: range) -> str | None:
    """Why the files of `shard` are not exactly the games the plan puts there, or None.
    Used by --repair, where no hash can be trusted: the rows must be the planned games
    (ids, seeds, seats' variants, rotations and editions), with a players row per seat."""
    specs = [s for b in blocks for s in plan.block_games(exp, b)]
    ids = [s.game_id for s in specs]
    tables = {}
    for name in tables_of(exp):
        path = shard_file(run_dir, name, shard)
        if not path.is_file():
            return f"{name}/{path.name} is missing"
        try:
            t = pq.read_table(path)
        except Exception as e:  # noqa: BLE001 - any unreadable file is a damaged one
            return f"{name}/{path.name} is not readable Parquet ({type(e).__name__})"
        if not t.schema.equals(TABLES[name], check_metadata=False):
            return f"{name}/{path.name} does not have the {name} table's columns"
        tables[name] = t
    games = tables["games"]
    got = list(zip(*(games[c].to_pylist() for c in ("game_id", "seed", "variant", "rotation",
                                                    "edition", "run", "run_id"))))
    want = [(s.game_id, s.seed, s.variant, s.rotation, s.edition, exp.name, exp.run_id())
            for s in specs]
    if got != want:
        return f"games/{shard_file(run_dir, 'games', shard).name} does not hold the planned games"
    seats = sorted(zip(tables["players"]["game_id"].to_pylist(), tables["players"]["seat"].to_pylist()))
    if seats != [(g, s) for g in ids for s in range(exp.rules.players)]:
        return f"players/{shard_file(run_dir, 'players', shard).name} does not hold one row a seat"
    for name in ("events", "counterfactuals"):
        if name in tables and not set(tables[name]["game_id"].to_pylist()) <= set(ids):
            return f"{name}/{shard_file(run_dir, name, shard).name} holds games of another shard"
    return None


def file_entries(run_dir: Path, shard: int, rows: dict[str, int]) -> dict:
    return {name: {"rows": n, "sha256": sha256(shard_file(run_dir, name, shard))}
            for name, n in rows.items()}

