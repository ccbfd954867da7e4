"""The output directory: Parquet shards, one file per table and shard, and
`manifest.json` (config, code version, schema version, shards done).

Only the driver writes here; workers send their tables through Ray. Each shard file
is written to a temporary name and renamed, then the manifest is rewritten the same
way, so a run stopped at any moment keeps exactly its finished shards: a shard file
without a manifest entry is simply redone (deterministically, to the same bytes).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from importlib import metadata
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sim.config import Experiment
from sim.errors import InputError
from sim.rules import RULESET_VERSION
from sim.tournament import plan
from sim.tournament.records import SCHEMA_VERSION, TABLES

MANIFEST = "manifest.json"


def code_version() -> str:
    try:
        return metadata.version("carcsim")
    except metadata.PackageNotFoundError:
        return "unknown"


def _write_atomic(path: Path, write) -> None:
    tmp = path.with_name(path.name + ".tmp")
    write(tmp)
    os.replace(tmp, path)


class Sink:
    """The output directory of one experiment."""

    def __init__(self, out: str | Path, exp: Experiment, force: bool = False):
        self.out = Path(out)
        self.exp = exp
        path = self.out / MANIFEST
        if path.exists():
            manifest = json.loads(path.read_text())
            if manifest.get("schema_version") != SCHEMA_VERSION and not force:
                raise InputError(f"{self.out}: written with record schema "
                                 f"{manifest.get('schema_version')}, this carcsim writes "
                                 f"{SCHEMA_VERSION}; use --force to start over")
            if manifest.get("fingerprint") != exp.fingerprint():
                if not force:
                    raise InputError(f"{self.out}: holds a run of a different config "
                                     f"({manifest.get('config', {}).get('name')!r}); use --force "
                                     f"to start over or --out for another directory")
                self._wipe()
            elif force:
                self._wipe()
        if not path.exists():
            self.out.mkdir(parents=True, exist_ok=True)
            n = plan.games_per_block(exp)
            self.manifest = {
                "schema_version": SCHEMA_VERSION, "code_version": code_version(),
                "ruleset": RULESET_VERSION, "fingerprint": exp.fingerprint(),
                "config": exp.canonical(), "config_text": exp.source,
                "plan": {"blocks": exp.blocks, "games_per_block": n, "games": exp.blocks * n,
                         "shards": len(plan.shards(exp)), "shard_blocks": exp.shard_blocks},
                "shards_done": [], "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }
            self.save()
        else:
            self.manifest = json.loads(path.read_text())

    def _wipe(self) -> None:
        for name in TABLES:
            shutil.rmtree(self.out / name, ignore_errors=True)
        (self.out / MANIFEST).unlink(missing_ok=True)

    def save(self) -> None:
        text = json.dumps(self.manifest, indent=1, sort_keys=True)
        _write_atomic(self.out / MANIFEST, lambda p: p.write_text(text))

    @property
    def done(self) -> set[int]:
        return set(self.manifest["shards_done"])

    def write(self, shard: int, tables: dict[str, pa.Table]) -> None:
        """Store one finished shard, then record it as done."""
        for name, table in tables.items():
            if (name == "events" and not self.exp.events) or (
                    name == "counterfactuals" and self.exp.design != "counterfactual"):
                continue
            folder = self.out / name
            folder.mkdir(exist_ok=True)
            _write_atomic(folder / f"shard-{shard:06d}.parquet",
                          lambda p, t=table: pq.write_table(t, p, compression="zstd"))
        self.manifest["shards_done"] = sorted(self.done | {shard})
        self.manifest["updated"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        self.save()


def read_manifest(run_dir: str | Path) -> dict:
    path = Path(run_dir) / MANIFEST
    try:
        return json.loads(path.read_text())
    except OSError:
        raise InputError(f"{run_dir}: no {MANIFEST}: not a carcsim run directory") from None
