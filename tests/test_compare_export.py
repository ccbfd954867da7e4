"""Tables a user can join (issue 24 item 6): `(run_id, game_id)` in every table, every
column's meaning and unit in the Parquet files and in docs/RECORDS.md from one list,
`carcsim compare RUN_A RUN_B` paired by block, `carcsim export RUN --csv`."""

import csv
import json
import os
import shutil
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sim.analysis.compare import compare
from sim.analysis.report import build
from sim.tournament import manifest as mf
from sim.tournament.config import parse_experiment
from sim.tournament.records import COLUMNS, SCHEMA_VERSION, TABLES, described, render_docs
from sim.tournament.run import run_experiment
from cli_here import carcsim as carcsim_here

ROOT = Path(__file__).resolve().parent.parent
BLOCKS = 8  # enough for a whole-win difference's exact bound to exclude 0 (1 − 2b > 0)

CONFIG = """
[run]
name = "{name}"
seed = {seed}
blocks = {blocks}
shard_blocks = 4
events = {events}

[rules]
players = {players}

[design]
kind = "fixed"
seats = {seats}
"""

COUNTERFACTUAL = """
[run]
name = "cf"
seed = 1
blocks = 1

[rules]
players = 2
expansions = ["messages"]

[design]
kind = "counterfactual"
seats = ["greedy", "random"]
rollouts = 1
"""


def _run(base: Path, name: str, seats: list[str], seed: int = 5, blocks: int = BLOCKS,
         events: bool = False) -> Path:
    text = CONFIG.format(name=name, seed=seed, blocks=blocks, events=str(events).lower(),
                         players=len(seats), seats=json.dumps(seats))
    run_experiment(parse_experiment(text, f"{name}.toml"), base / name, workers=0)
    return base / name


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A: greedy in seat 0 against random (with events); B: the same seats swapped, the
    same seed, so the same tiles block by block; a counterfactual run; a run of other
    seeds; a 3-player run."""
    base = tmp_path_factory.mktemp("tables")
    return {"a": _run(base, "a", ["greedy", "random"], events=True),
            "b": _run(base, "b", ["random", "greedy"]),
            "cf": _cf(base),
            "other_seed": _run(base, "other_seed", ["greedy", "random"], seed=6, blocks=2),
            "three": _run(base, "three", ["greedy", "random", "first"], blocks=2),
            "three_turned": _run(base, "three_turned", ["first", "greedy", "random"], blocks=2)}


def _cf(base: Path) -> Path:
    run_experiment(parse_experiment(COUNTERFACTUAL, "cf.toml"), base / "cf", workers=0)
    return base / "cf"


def carcsim(*args, cwd=ROOT):
    return carcsim_here(*args, cwd=cwd)  # in this process: tests/cli_here.py says why


def one_line_exit_2(r) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("carcsim: "), r.stderr
    return lines[0]


def _manifest(run: Path) -> dict:
    return json.loads((run / "manifest.json").read_text())


# --- keys ------------------------------------------------------------------------------

def test_every_table_carries_the_run_id_of_the_manifest(runs):
    for name in ("a", "b", "cf"):
        run, m = runs[name], _manifest(runs[name])
        assert m["run_id"] == parse_experiment(m["config_text"], "x.toml").run_id()
        assert set(m["plan"]["tables"]) == ({"games", "players", "events"} if name == "a" else
                                            {"games", "players", "counterfactuals"} if name == "cf"
                                            else {"games", "players"})
        for table in m["plan"]["tables"]:
            t = pl.read_parquet(run / table)  # a table is a directory
            assert t.height > 0 and {"run_id", "game_id"} <= set(t.columns)
            assert t["run_id"].unique().to_list() == [m["run_id"]], table
        games, players = pl.read_parquet(run / "games"), pl.read_parquet(run / "players")
        assert games.select("run_id", "game_id").is_unique().all()
        assert players.select("run_id", "game_id", "seat").is_unique().all()
        # players' block and variant are their game's
        j = players.join(games.select("game_id", "block", "variant"), on="game_id", suffix="_g")
        assert j.height == players.height
        assert (j["block"] == j["block_g"]).all() and (j["variant"] == j["variant_g"]).all()
    assert _manifest(runs["a"])["run_id"] != _manifest(runs["b"])["run_id"]


def test_the_run_id_survives_more_blocks_and_changes_with_the_games():
    text = CONFIG.format(name="x", seed=1, blocks=4, events="false", players=2,
                         seats='["greedy", "random"]')
    small, more = (parse_experiment(t, "x.toml") for t in (text, text.replace("\nblocks = 4", "\nblocks = 9")))
    other = parse_experiment(text.replace("seed = 1", "seed = 2"), "x.toml")
    assert small.fingerprint() != more.fingerprint() and small.run_id() == more.run_id()
    assert other.run_id() != small.run_id()


def test_a_table_directory_reads_whole_with_polars(runs):
    m = _manifest(runs["a"])
    assert pl.read_parquet(runs["a"] / "games").height == m["plan"]["games"] == BLOCKS
    assert pl.read_parquet(runs["a"] / "players").height == 2 * BLOCKS


# --- the columns' meanings -------------------------------------------------------------

def test_every_column_written_carries_its_meaning_and_unit(runs):
    seen = set()
    for run in (runs["a"], runs["cf"]):
        for table in _manifest(run)["plan"]["tables"]:
            for path in sorted((run / table).glob("*.parquet")):
                schema = pq.read_schema(path)
                assert schema.metadata[b"carcsim.table"] == table.encode()
                assert schema.metadata[b"carcsim.schema_version"] == str(SCHEMA_VERSION).encode()
                assert schema.names == TABLES[table].names
                for field in schema:
                    meta = field.metadata or {}
                    assert meta.get(b"description") and meta.get(b"unit"), (table, field.name)
                    assert meta[b"description"].decode() == described(table)[field.name][1]
                seen.add(table)
    assert seen == set(TABLES)


def test_the_descriptions_name_exactly_the_columns_of_each_schema():
    for table, schema in TABLES.items():
        assert set(described(table)) == set(schema.names), table
        for field in schema:
            assert {b"description", b"unit"} <= set(field.metadata), (table, field.name)


def test_records_md_shows_every_column_as_records_py_describes_it():
    doc = (ROOT / "docs" / "RECORDS.md").read_text()
    assert render_docs(doc) == doc, ("docs/RECORDS.md's column tables differ from "
                                     "sim/tournament/records.py COLUMNS: run "
                                     "`python -m sim.tournament.records docs/RECORDS.md`")
    for table in TABLES:  # every entry, so every column (the test above), in its section
        section = doc[doc.index(f"## {table}\n"):]
        section = section[:section.index("<!-- end of columns -->")]
        for entry in COLUMNS[table]:
            for name in entry.names:
                assert f"| `{name}`" in section or f", `{name}`" in section, (table, name)
    for command in ("carcsim compare RUN_A RUN_B", "carcsim export RUN --csv"):
        assert command in doc
    readme = (ROOT / "README.md").read_text()
    assert "carcsim compare" in readme and "carcsim export" in readme


# --- compare ---------------------------------------------------------------------------

def test_a_run_compared_with_itself_differs_by_exactly_0(runs):
    c = compare(runs["a"], runs["a"])
    assert c["common_blocks"] == BLOCKS and c["rows"]
    for r in c["rows"]:
        assert r["difference"] == 0.0 and r["a"] == r["b"], r
        assert r["blocks"] == BLOCKS
    questions = [r["question"] for r in c["rows"]]
    for q in ("win share: greedy", "mean score: random", "seat 0: win share", "seat 1: mean score",
              "greedy vs random: win share", "game length (tile placements)"):
        assert q in questions


def _per_seat(run: Path, seat: int, column: str) -> float:
    p = pl.read_parquet(run / "players").filter(pl.col("seat") == seat)
    return float(p.group_by("block").agg(pl.col(column).mean())[column].mean())


def test_swapped_seats_give_the_signs_a_reader_expects(runs):
    """A seats greedy first, B random first, on the same tiles: greedy wins nearly every
    game, so seat 0 wins more and scores more in A (A − B > 0), seat 1 less, and the
    values are the per-block means of the stored rows."""
    c = compare(runs["a"], runs["b"])
    row = {r["question"]: r for r in c["rows"]}
    seat0, seat1 = row["seat 0: win share"], row["seat 1: win share"]
    want = _per_seat(runs["a"], 0, "win_share") - _per_seat(runs["b"], 0, "win_share")
    assert seat0["difference"] == pytest.approx(want) and want > 0.5
    assert seat0["low"] > 0 and seat1["high"] < 0 and seat1["difference"] == pytest.approx(-want)
    score = row["seat 0: mean score"]
    assert score["difference"] == pytest.approx(_per_seat(runs["a"], 0, "score")
                                                - _per_seat(runs["b"], 0, "score"))
    assert score["low"] > 0 and score["a"] > score["b"]
    # the same players in other seats: a player's own win share barely moves
    assert abs(row["win share: greedy"]["difference"]) < 0.5
    # the CLI: the same numbers as JSON; in the text each interval comes before its estimate
    r = carcsim("compare", runs["a"], runs["b"], "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["rows"] == json.loads(json.dumps(c["rows"]))
    r = carcsim("compare", runs["a"], runs["b"])
    assert r.returncode == 0, r.stderr
    line = next(l for l in r.stdout.splitlines() if l.startswith("seat 0: win share"))
    interval, rest = line[len("seat 0: win share"):].split("]", 1)
    assert interval.strip().startswith("[") and rest.split()[0].startswith("+")


def _ahead_by_block(run: Path, a: str, b: str) -> float:
    """The mean over blocks of a's share of finishing ahead of b (equal points 1/2), by hand."""
    p = pl.read_parquet(run / "players")
    per_block: dict = {}
    for (_gid,), rows in p.group_by("game_id"):
        x = rows.filter(pl.col("player") == a).row(0, named=True)
        y = rows.filter(pl.col("player") == b).row(0, named=True)
        v = 1.0 if x["score"] > y["score"] else 0.5 if x["score"] == y["score"] else 0.0
        per_block.setdefault(x["block"], []).append(v)
    return sum(sum(v) / len(v) for v in per_block.values()) / len(per_block)


def test_tables_of_three_compare_who_finished_ahead(runs):
    c = compare(runs["three"], runs["three_turned"])
    row = {r["question"]: r for r in c["rows"]}
    for a, b in (("greedy", "random"), ("first", "greedy"), ("first", "random")):
        r = row[f"{a} ahead of {b}"]
        want_a, want_b = _ahead_by_block(runs["three"], a, b), _ahead_by_block(runs["three_turned"], a, b)
        assert (r["a"], r["b"]) == pytest.approx((want_a, want_b))
        assert r["difference"] == pytest.approx(want_a - want_b) and r["blocks"] == 2
    assert "greedy vs random: win share" not in row  # no 2-player games here


# --- export ----------------------------------------------------------------------------

def _csv_rows(path: Path) -> list[list[str]]:
    with open(path, newline="") as f:
        return list(csv.reader(f))


def test_export_writes_every_table_with_the_parquet_row_counts(runs, tmp_path):
    run = tmp_path / "a"
    shutil.copytree(runs["a"], run)
    for attempt in range(2):  # a second export replaces the files whole
        r = carcsim("export", run, "--csv")
        assert r.returncode == 0, r.stderr
    tables = _manifest(run)["plan"]["tables"]
    for table in tables:
        rows = _csv_rows(run / "csv" / f"{table}.csv")
        parquet = pl.read_parquet(run / table)
        assert rows[0] == parquet.columns and len(rows) - 1 == parquet.height, table
        assert f"{run / 'csv' / table}.csv: {parquet.height:,} rows" in r.stdout
    games = _csv_rows(run / "csv" / "games.csv")
    winners = games[0].index("winners")
    assert [g[winners] for g in games[1:]] == [
        ";".join(map(str, w)) for w in pl.read_parquet(run / "games")["winners"].to_list()]
    columns = _csv_rows(run / "csv" / "columns.csv")
    assert columns[0] == ["table", "column", "type", "unit", "meaning"]
    assert len(columns) - 1 == sum(len(TABLES[t]) for t in tables)
    assert all(c[3] and c[4] for c in columns[1:])
    assert not list((run / "csv").glob("*.tmp"))
    # --out: any directory, made when missing
    out = tmp_path / "sheets" / "a"
    r = carcsim("export", run, "--csv", "--out", out)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted([f"{t}.csv" for t in tables]
                                                           + ["columns.csv"])


def test_export_follows_no_link_inside_the_run(runs, tmp_path):
    run = tmp_path / "a"
    shutil.copytree(runs["a"], run)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, run / "csv")
    line = one_line_exit_2(carcsim("export", run, "--csv"))
    assert "csv: is a symlink" in line and not list(elsewhere.iterdir())


# --- bad input -------------------------------------------------------------------------

def test_bad_inputs_are_one_line_and_exit_2(runs, tmp_path):
    line = one_line_exit_2(carcsim("compare", runs["a"], tmp_path / "missing"))
    assert "missing: no manifest.json: not a carcsim run directory" in line
    line = one_line_exit_2(carcsim("compare", runs["a"], runs["other_seed"]))
    assert "no common block" in line and "run.seed = 5 and 6" in line
    line = one_line_exit_2(carcsim("compare", runs["a"], runs["three"]))
    assert "different games (rules.players = 2 and 3)" in line
    line = one_line_exit_2(carcsim("export", tmp_path / "missing", "--csv"))
    assert "no manifest.json" in line
    assert "expected a format: --csv" in one_line_exit_2(carcsim("export", runs["a"]))
    line = one_line_exit_2(carcsim("export", runs["a"], "--csv", "--out", runs["a"] / "games"))
    assert "is the run's games table folder" in line
    (tmp_path / "file").write_text("")
    assert "is a file" in one_line_exit_2(carcsim("export", runs["a"], "--csv", "--out",
                                                  tmp_path / "file"))


# --- runs of the layout before schema 5 ------------------------------------------------

def _as_schema_4(run: Path) -> None:
    """Rewrite a run as carcsim wrote it before schema 5: no run_id anywhere, players
    without block and variant, no column metadata, manifest without run_id."""
    m = _manifest(run)
    for key, entry in m["shards"].items():
        for table, f in entry["files"].items():
            path = mf.shard_file(run, table, int(key))
            t = pq.read_table(path)
            drop = {"run_id"} | ({"block", "variant"} if table == "players" else set())
            fields = [pa.field(x.name, x.type) for x in t.schema if x.name not in drop]
            pq.write_table(t.select([x.name for x in fields]).cast(pa.schema(fields)), path)
            f["sha256"] = mf.sha256(path)
    m["schema_version"] = 4
    del m["run_id"]
    (run / "manifest.json").write_text(json.dumps(m))


def test_a_run_of_the_old_layout_is_read_and_compared(runs, tmp_path):
    old = tmp_path / "old"
    shutil.copytree(runs["a"], old)
    _as_schema_4(old)
    assert "run_id" not in pl.read_parquet(old / "players").columns
    c = compare(old, runs["a"])
    assert c["run_id_a"] == c["run_id_b"] == _manifest(runs["a"])["run_id"]
    assert all(r["difference"] == 0.0 for r in c["rows"])
    assert build(old)["headline"] == build(runs["a"])["headline"]
    r = carcsim("export", old, "--csv")
    assert r.returncode == 0, r.stderr
    assert len(_csv_rows(old / "csv" / "players.csv")) - 1 == 2 * BLOCKS
    # resuming it with this carcsim is refused, with the way out
    cfg = tmp_path / "a.toml"
    cfg.write_text(_manifest(old)["config_text"])
    line = one_line_exit_2(carcsim("run", cfg, "--out", old, "--workers", 0, "--quiet"))
    assert f"written with record schema 4, this carcsim writes {SCHEMA_VERSION}" in line
