"""`carcsim export RUN --csv`: each record table of a run as one CSV file, for
spreadsheets.

The run is read as `report` reads it (sink.read_manifest: every recorded file checked
against its hash; a run still writing, or damaged, is refused in one line), its shard
files in shard order, batch by batch (a table is never held in memory whole). A list
column (games.winners) is written as its items joined by `;`. Beside the tables,
`columns.csv` gives every exported column's type, unit and meaning (records.COLUMNS:
what the Parquet files carry as field metadata).

Files are written as carcsim writes every file (sim/safe_files.py): to a temporary name
created anew, then renamed over the target, so each file is whole or untouched; a
regular file of that name is replaced (as `report` replaces report.html and `--svg`
its file), anything else there (a symlink, a directory, a device) is refused. The
default folder is RUN/csv, reached from the run directory without following a link.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from sim import safe_files as sf
from sim.tournament import manifest as mf
from sim.tournament.manifest import RunError
from sim.tournament.records import TABLES, described
from sim.tournament.sink import read_manifest

FOLDER = "csv"  # RUN/csv unless --out names another directory
BATCH_ROWS = 65_536
COLUMNS_FILE = "columns.csv"


def _flat(field: pa.Field) -> pa.Field:
    return field.with_type(pa.string()) if pa.types.is_list(field.type) else field


def _flat_batch(batch: pa.RecordBatch, schema: pa.Schema) -> pa.RecordBatch:
    cols = [pc.binary_join(pc.cast(col, pa.list_(pa.string())), ";")
            if pa.types.is_list(col.type) else col for col in batch.columns]
    return pa.RecordBatch.from_arrays(cols, schema=schema)


def _writer(files: list[Path], counted: list[int]):
    """write(binary file): the CSV of these Parquet files, in order; adds its rows to
    `counted`."""
    def write(f) -> None:
        schema = pa.schema([_flat(x) for x in pq.read_schema(files[0])])
        writer = pacsv.CSVWriter(f, schema)
        for path in files:
            for batch in pq.ParquetFile(path).iter_batches(batch_size=BATCH_ROWS):
                writer.write_batch(_flat_batch(batch, schema))
                counted[0] += batch.num_rows
        writer.close()
    return write


def _columns_csv(tables: dict[str, list[Path]]) -> bytes:
    """columns.csv: table, column, type, unit, meaning of every exported column."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["table", "column", "type", "unit", "meaning"])
    for name, files in tables.items():
        about = described(name) if name in TABLES else {}
        for field in pq.read_schema(files[0]):
            unit, meaning = about.get(field.name, ("", ""))
            w.writerow([name, field.name, str(field.type), unit, meaning])
    return out.getvalue().encode()


def export_csv(run_dir: str | Path, out: str | Path | None = None) -> list[tuple[Path, int]]:
    """Write RUN_DIR's tables as CSV into `out` (default RUN_DIR/csv, created when
    missing): [(file, rows)], the tables first, then columns.csv. RunError (one line)
    for a run that cannot be read or a file that cannot be written."""
    run_dir = Path(run_dir)
    m = read_manifest(run_dir)
    shards = sorted(int(k) for k in m["shards"])
    tables = {name: [mf.shard_file(run_dir, name, s) for s in shards] for name in m["plan"]["tables"]}
    folder, target = _open_out(run_dir, out)
    written = []
    try:
        for name, files in tables.items():
            path = target / f"{name}.csv"
            counted = [0]
            sf.replace_at(folder, path.name, _writer(files, counted), path, RunError)
            written.append((path, counted[0]))
        path = target / COLUMNS_FILE
        blob = _columns_csv(tables)
        sf.replace_at(folder, path.name, lambda f: f.write(blob), path, RunError)
        written.append((path, blob.count(b"\n") - 1))
    finally:
        os.close(folder)
    return written


def _open_out(run_dir: Path, out) -> tuple[int, Path]:
    """(handle, path) of the output folder: `out` as named (links followed: the user's
    choice), or RUN_DIR/csv reached from the run directory without following links."""
    if out is None:
        root = sf.open_dir(run_dir, RunError)
        try:
            return sf.sub_dir(root, FOLDER, run_dir / FOLDER, True, RunError), run_dir / FOLDER
        finally:
            os.close(root)
    out = Path(out)
    inside = [t for t in TABLES if out.resolve() == (run_dir / t).resolve()]
    if inside:  # the run's own folder: the next run would refuse the CSV as a foreign file
        raise RunError(f"--out {out}: is the run's {inside[0]} table folder: expected another "
                       f"directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise RunError(f"--out {out}: is a file: expected a directory for the CSV files") from None
    except OSError as e:
        raise RunError(f"--out {out}: cannot create the directory: {e.strerror}") from None
    return sf.open_dir(out, RunError), out
