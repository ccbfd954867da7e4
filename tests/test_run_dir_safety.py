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


# --- one run per directory (issue 27 item 2) ------------------------------------------


def test_two_runs_at_once_one_refuses_ten_times_of_ten(tmp_path, monkeypatch):
    """Two runs start together into one directory. The one that gets in is held inside its
    first shard until the other has ended, so they truly overlap whatever the timing; the
    other must have refused, naming the holder. Without a lock both get into a shard."""
    import socket
    import threading

    from sim.tournament import run as run_module

    exp = small(tmp_path)
    real = run_module.run_shard
    for trial in range(10):
        out = tmp_path / f"r{trial}"
        state = threading.Condition()
        inside, ended, gate = [0], [], threading.Event()

        def shard(exp_, blocks):
            with state:
                inside[0] += 1
                state.notify_all()
            gate.wait()
            return real(exp_, blocks)

        def one_run(start):
            start.wait()
            try:
                run_experiment(exp, out, workers=0, max_shards=1)
                result = "ok"
            except RunError as e:
                result = e
            with state:
                ended.append(result)
                state.notify_all()

        monkeypatch.setattr(run_module, "run_shard", shard)
        start = threading.Barrier(2)
        threads = [threading.Thread(target=one_run, args=(start,)) for _ in range(2)]
        for t in threads:
            t.start()
        try:
            with state:  # event-driven: one run ended, or (no lock) both are playing
                state.wait_for(lambda: ended or inside[0] >= 2)
                assert inside[0] <= 1, f"trial {trial}: both runs played"
        finally:
            gate.set()  # a failing trial lets its runs end too
            for t in threads:
                t.join()
        refused = [r for r in ended if r != "ok"]
        assert len(refused) == 1 and ended.count("ok") == 1, (trial, ended)
        assert (f"{out}: another carcsim run (pid {os.getpid()} on {socket.gethostname()}) "
                f"is writing here") in str(refused[0])


def test_a_second_run_is_one_line_naming_the_holder(tmp_path):
    import fcntl

    from test_faults import carcsim, one_line

    cfg = tmp_path / "small.toml"
    small(tmp_path)  # writes small.toml
    out = tmp_path / "R"
    out.mkdir()
    with open(out / "run.lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.write(json.dumps({"pid": 4242, "host": "elsewhere"}))
        f.flush()
        line = one_line(carcsim("run", cfg, "--out", out, "--workers", 0, "--quiet"))
    assert line == (f"carcsim: {out}: another carcsim run (pid 4242 on elsewhere) is writing "
                    f"here: wait for it to end, or give another --out")
    assert sorted(p.name for p in out.iterdir()) == ["run.lock"]  # nothing else was written


def test_the_lock_of_a_dead_run_is_taken_over(tmp_path):
    import signal
    import subprocess
    import sys

    out = tmp_path / "R"
    out.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, sys\nf = open(sys.argv[1], 'w')\n"
         "fcntl.flock(f, fcntl.LOCK_EX)\nf.write('{\"pid\": 1, \"host\": \"gone\"}')\nf.flush()\n"
         "print('held', flush=True)\nsys.stdin.read()", str(out / "run.lock")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline() == "held\n"  # the dead run held the lock
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    s = run_experiment(small(tmp_path), out, workers=0)
    assert s.shards_run == 4
    assert json.loads((out / "run.lock").read_text())["pid"] == os.getpid()


# --- a read-only directory (issue 27 item 5) -------------------------------------------


@pytest.fixture
def read_only(monkeypatch):
    """Every creation or write fails with EROFS, as on a read-only mount (root ignores
    file modes, so the file system's refusal is injected at the calls carcsim makes)."""
    import errno

    real_open = os.open

    def refuse(*a, **k):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    def open_(path, flags, *a, **k):
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            refuse()
        return real_open(path, flags, *a, **k)

    monkeypatch.setattr(os, "open", open_)
    monkeypatch.setattr(os, "mkdir", refuse)


def test_report_html_on_a_read_only_directory_is_one_line(run, read_only, monkeypatch, capsys):
    assert_one_line(*run_main(["report", run], monkeypatch, capsys),
                    f"{run}/report.html: cannot write: Read-only file system")
    assert not (run / "report.html.tmp").exists() and not (run / "report.html").exists()


@pytest.mark.parametrize("finished_run", [True, False])
def test_a_resume_on_a_read_only_directory_is_one_line(run, finished_run, read_only,
                                                       monkeypatch, capsys):
    if not finished_run:
        m = json.loads((run / "manifest.json").read_text())
        del m["shards"]["3"]
        (run / "manifest.json").write_bytes(json.dumps(m).encode())  # (builtin open: allowed)
    before = snapshot(run)
    small(run.parent)
    assert_one_line(*run_main(["run", run.parent / "small.toml", "--out", run, "--workers", "0",
                               "--quiet"], monkeypatch, capsys),
                    f"{run}/run.lock: cannot open the run's lock file: Read-only file system")
    assert snapshot(run) == before


# --- the Ray token file (issue 27 item 7) ---------------------------------------------


def test_the_local_runners_token_file_is_private(tmp_path, monkeypatch):
    from sim.tournament.run import private_token_file

    monkeypatch.delenv("RAY_AUTH_TOKEN", raising=False)
    monkeypatch.setenv("RAY_AUTH_TOKEN_PATH", str(tmp_path / "ray" / "auth_token"))
    private_token_file()  # none yet: made 0600, never readable by others
    token = tmp_path / "ray" / "auth_token"
    assert stat.S_IMODE(token.stat().st_mode) == 0o600 and len(token.read_text()) >= 32
    old = tmp_path / "old_token"
    old.write_text("secret")
    old.chmod(0o644)  # as Ray writes it
    monkeypatch.setenv("RAY_AUTH_TOKEN_PATH", str(old))
    private_token_file()
    assert stat.S_IMODE(old.stat().st_mode) == 0o600 and old.read_text() == "secret"
