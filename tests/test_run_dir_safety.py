"""Writes stay inside the run directory (issue 27 item 1).

Each test plants what an edited disk may hold where carcsim writes: a symlink as a
temporary file or as a table folder, a file as a table folder, a device, FIFO,
directory or symlink as an output target. Each is refused in one line, and the test
checks that nothing outside the run changed and that no valid shard was deleted."""

import hashlib
import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from test_config import assert_one_line, run_main
from test_tournament import small

from sim.tournament.manifest import RunError
from sim.tournament.run import run_experiment


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    base = tmp_path_factory.mktemp("finished")
    run_experiment(small(base), base / "run", workers=0)
    return base / "run"


@pytest.fixture
def run(finished, tmp_path):
    shutil.copytree(finished, tmp_path / "run")
    return tmp_path / "run"


def snapshot(root: Path) -> dict:
    """Every file under `root` (links not followed) with its bytes' hash."""
    return {str(p.relative_to(root)): (hashlib.sha256(p.read_bytes()).hexdigest()
                                       if p.is_file() and not p.is_symlink() else os.readlink(p)
                                       if p.is_symlink() else "dir")
            for p in sorted(root.rglob("*"))}


def unfinish(run_dir: Path, shard: str = "3") -> None:
    """Forget one finished shard in the manifest, so a resume plays and writes again."""
    m = json.loads((run_dir / "manifest.json").read_text())
    del m["shards"][shard]
    (run_dir / "manifest.json").write_text(json.dumps(m))


def test_a_planted_manifest_tmp_symlink_is_refused(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (tmp_path / "R").mkdir()
    (tmp_path / "R" / "manifest.json.tmp").symlink_to(victim)
    with pytest.raises(RunError, match=r"R/manifest.json.tmp: is a symlink: not a file carcsim "
                                       r"wrote; remove it"):
        run_experiment(small(tmp_path), tmp_path / "R", workers=0)
    assert victim.read_text() == "keep me"
    assert (tmp_path / "R" / "manifest.json.tmp").is_symlink()


def test_a_planted_report_tmp_symlink_is_refused(run, tmp_path, monkeypatch, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (run / "report.html.tmp").symlink_to(victim)
    assert_one_line(*run_main(["report", run], monkeypatch, capsys),
                    f"{run}/report.html.tmp: is a symlink: not a file carcsim wrote")
    assert victim.read_text() == "keep me"
    assert not (run / "report.html").exists()


def test_a_leftover_regular_tmp_is_replaced_not_reused(run, monkeypatch, capsys):
    """An interrupted write's leftover is removed and the file created anew (O_EXCL), so
    a hard link planted as the temporary name cannot be written through either."""
    outside = run.parent / "outside.txt"
    outside.write_text("keep me")
    os.link(outside, run / "report.html.tmp")
    code, out, err = run_main(["report", run], monkeypatch, capsys)
    assert code == 0, err
    assert outside.read_text() == "keep me"
    assert (run / "report.html").read_text().startswith("<!doctype html>")
    assert not (run / "report.html.tmp").exists()


def test_a_table_folder_that_is_a_symlink_is_refused(run, tmp_path):
    outside = tmp_path / "outside"
    shutil.move(run / "games", outside)
    (run / "games").symlink_to(outside)
    (outside / "precious.tmp").write_text("not carcsim's")
    unfinish(run)
    before = snapshot(outside)
    with pytest.raises(RunError, match=r"run/games: is a symlink: expected a directory"):
        run_experiment(small(tmp_path), run, workers=0)
    assert snapshot(outside) == before  # no shard written there, no *.tmp deleted


@pytest.mark.parametrize("table", ["games", "players"])
def test_a_table_folder_that_is_a_file_deletes_no_shard(run, tmp_path, table):
    other = "players" if table == "games" else "games"
    shutil.rmtree(run / table)
    (run / table).write_text("a file")
    kept = snapshot(run / other)
    with pytest.raises(RunError, match=rf"run/{table}: is a regular file: expected a directory"):
        run_experiment(small(tmp_path), run, workers=0)
    assert snapshot(run / other) == kept  # the other table's valid shards are all there
    assert (run / table).read_text() == "a file"


def test_report_refuses_a_table_folder_that_is_a_symlink(run, tmp_path, monkeypatch, capsys):
    outside = tmp_path / "outside"
    shutil.move(run / "players", outside)
    (run / "players").symlink_to(outside)
    assert_one_line(*run_main(["report", run, "--json"], monkeypatch, capsys),
                    f"{run}/players: is a symlink: expected a directory")


def test_a_symlinked_shard_file_is_not_a_file_of_the_run(run, tmp_path):
    victim = tmp_path / "victim.parquet"
    victim.write_bytes(b"outside")
    (run / "games" / "shard-000000.parquet.tmp").symlink_to(victim)
    with pytest.raises(RunError, match=r"shard-000000.parquet.tmp: not a file of this run"):
        run_experiment(small(tmp_path), run, workers=0)
    assert victim.read_bytes() == b"outside"


def _targets(tmp_path):
    """A device (a /dev/null twin), a FIFO, a directory and a symlink: none is a regular file."""
    made = {}
    try:
        os.mknod(tmp_path / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
        made["null"] = "a device"
    except PermissionError:  # not root: the other kinds still run
        pass
    os.mkfifo(tmp_path / "fifo")
    made["fifo"] = "a FIFO"
    (tmp_path / "real.svg").write_text("keep me")
    (tmp_path / "link.svg").symlink_to(tmp_path / "real.svg")
    made["link.svg"] = "a symlink"
    return made


@pytest.mark.parametrize("option", ["--svg", "--html"])
def test_play_refuses_a_target_that_is_not_a_regular_file(option, tmp_path, monkeypatch, capsys):
    for name, what in _targets(tmp_path).items():
        target = tmp_path / name
        before = target.lstat()
        assert_one_line(*run_main(["play", "--seed", "1", option, target], monkeypatch, capsys),
                        f"{option} {target}: is {what}: expected a regular file to replace")
        after = target.lstat()
        assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert (tmp_path / "real.svg").read_text() == "keep me"
    (tmp_path / "adir").mkdir()
    assert_one_line(*run_main(["play", option, tmp_path / "adir"], monkeypatch, capsys),
                    "is a directory")


def test_report_html_refuses_a_fifo_and_replaces_a_regular_file(run, tmp_path, monkeypatch, capsys):
    os.mkfifo(tmp_path / "fifo")
    assert_one_line(*run_main(["report", run, "--html", tmp_path / "fifo"], monkeypatch, capsys),
                    f"--html {tmp_path / 'fifo'}: is a FIFO")
    assert stat.S_ISFIFO((tmp_path / "fifo").lstat().st_mode)
    target = tmp_path / "r.html"
    target.write_text("old")
    old_inode = target.stat().st_ino
    code, _, err = run_main(["report", run, "--html", target], monkeypatch, capsys)
    assert code == 0, err
    # replaced by a rename (a new inode), not rewritten in place
    assert target.read_text().startswith("<!doctype html>") and target.stat().st_ino != old_inode
    assert not (tmp_path / "r.html.tmp").exists()
