"""Every command keeps the promise (issue 26 item 4): bad input stops with exactly one
line on stderr, exit code 2, no traceback, nothing on stdout and nothing written.

The commands and their parameters are read from the parser, so a command or an
option without a row in COMMANDS fails `test_every_parameter_has_a_row`, and its bad
inputs are tried here as soon as it has one. Each row gives a parameter its role; the
role makes the faults:

- a path read (InFile): its directory missing, a file where a directory is expected,
  a directory where the file is expected, an unreadable file, a name too long, a line
  break in the name (a read-only directory is no fault for a file only read: the
  read permission fault of an input is the unreadable file);
- a path written (OutFile, OutDir) or a run directory (RunDir): the same, with a
  read-only directory where carcsim would write;
- a number (Number): the wrong type, and below / above its range (the parser's bounds,
  or the row's values for a number only the command can bound);
- a name (Name): unknown names, one of them with a line break;
- a flag (Flag): a value given to it;
- every command: an unknown option.

Every case runs in a fresh copy of a small tree (a tiny config, a file, a finished
2-game run), in a fork of one process that has imported the command line
(tests/cli_forks.py), with Ray unimportable: no bad input may start it. The tree is
compared before and after, modes and directory mtimes included, so even a file
written and removed again shows. Root ignores permissions: as root every case runs
without the capabilities that let it (tests/cli_forks.py), so a read-only directory
refuses it as it refuses any user; where they cannot be dropped, the permission faults
are skipped (they cannot happen to root).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

from sim.errors import InputError

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TIMEOUT = 60.0  # seconds a case may take before it counts as not refused in time

TINY = ('[run]\nname = "tiny"\nseed = 11\nblocks = 1\nshard_blocks = 1\nout = "runs/tiny"\n'
        '[design]\nkind = "rotations"\nseats = ["random", "first"]\n')
# greedy(city=1.5) plays as greedy: `run` says so in a note, which must not come before
# a refusal (two lines)
MIRROR = TINY.replace('"random", "first"', '"greedy", "greedy(city=1.5)"').replace("tiny", "mirror")


# --- faults ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Fault:
    label: str
    tokens: tuple[str, ...]  # what the fault adds to the command line
    setup: Callable[[Path], None] | None = None  # makes the fault in the case's tree
    permissions: bool = False  # a fault root does not have
    args: dict = field(default_factory=dict)  # positional values it needs (or overrides)


def _mkdir(name: str, mode: int | None = None):
    def make(d: Path) -> None:
        (d / name).mkdir(parents=True, exist_ok=True)
        if mode is not None:
            (d / name).chmod(mode)
    return make


def _unreadable(name: str, text: str):
    def make(d: Path) -> None:
        (d / name).write_text(text)
        (d / name).chmod(0)
    return make


def _manifest_is_a_directory(run: str):
    def make(d: Path) -> None:
        if not (d / run).exists():
            shutil.copytree(d / "run", d / run)
        (d / run / "manifest.json").unlink()
        (d / run / "manifest.json").mkdir()
    return make


LONG = "n" * 300  # one name longer than any file system allows (255 bytes)


class Role:
    """What a parameter is; its faults, each as the value it is given (`value`)."""

    def values(self, param) -> list[tuple[str, str, Callable | None, bool]]:
        raise NotImplementedError

    def faults(self, option: str | None, param) -> list[Fault]:
        out = []
        for label, value, setup, perms in self.values(param):
            tokens = (value,) if option is None else (option, value)
            out.append(Fault(label, tokens, setup, perms))
        return out


@dataclass(frozen=True)
class InFile(Role):
    """A file carcsim reads; `form` turns a path into the value (a strategy spec)."""
    name: str
    form: str = "{}"
    content: str = "x\n"

    def values(self, param):
        f, n = self.form.format, self.name
        return [("missing directory", f(f"missing/{n}"), None, False),
                ("a file where a directory is expected", f(f"afile/{n}"), None, False),
                ("a directory where a file is expected", f(n), _mkdir(n), False),
                ("unreadable file", f(n), _unreadable(n, self.content), True),
                ("name too long", f(f"{LONG}/{n}"), None, False),
                ("line break in the name", f(f"afile/new\nline-{n}"), None, False)]


@dataclass(frozen=True)
class OutFile(Role):
    """A file carcsim writes."""
    name: str

    def values(self, param):
        n = self.name
        return [("missing directory", f"missing/{n}", None, False),
                ("a file where a directory is expected", f"afile/{n}", None, False),
                ("a directory where a file is expected", n, _mkdir(n), False),
                ("read-only directory", f"ro/{n}", _mkdir("ro", 0o555), True),
                ("name too long", f"{LONG}/{n}", None, False),
                ("line break in the name", f"afile/new\nline-{n}", None, False)]


@dataclass(frozen=True)
class OutDir(Role):
    """A directory carcsim writes into: `creates` it (with its parents: a missing one is
    no fault then) or expects it to exist; `manifest`: it holds a run's manifest."""
    creates: bool
    manifest: bool

    def values(self, param):
        out = [] if self.creates else [("missing directory", "missing", None, False)]
        out += [("a file where a directory is expected", "afile", None, False),
                ("a file where a parent directory is expected", "afile/x", None, False),
                ("read-only directory", "ro", _mkdir("ro", 0o555), True),
                ("name too long", LONG, None, False),
                ("line break in the name", "afile/new\nline", None, False)]
        if self.creates:
            out.append(("new directory in a read-only directory", "ro/x", _mkdir("ro", 0o555), True))
        if self.manifest:
            out.append(("a directory where a file is expected (its manifest.json)", "out",
                        _manifest_is_a_directory("out"), False))
        return out


@dataclass(frozen=True)
class RunDir(Role):
    """A run's output directory carcsim reads (and `writes` into: report.html)."""
    writes: bool

    def values(self, param):
        out = [("missing directory", "missing/run", None, False),
               ("a file where a directory is expected", "afile", None, False),
               ("a directory that holds no run", "adir", _mkdir("adir"), False),
               ("a directory where a file is expected (its manifest.json)", "run",
                _manifest_is_a_directory("run"), False),
               ("name too long", LONG, None, False),
               ("line break in the name", "afile/new\nline", None, False)]
        if self.writes:  # only read otherwise: a read-only run directory is no fault
            out.append(("read-only directory", "run", _mkdir("run", 0o555), True))
        return out


@dataclass(frozen=True)
class Number(Role):
    """A number: the wrong type and the parser's range are tried for every one; `beyond`
    are out-of-range values only the command knows (a turn past the game's end)."""
    beyond: tuple[str, ...] = ()

    def values(self, param):
        kind = param.type_descriptor.annotation
        out = [("wrong type", "x", None, False)]
        if kind is int:
            out.append(("wrong type (a fraction)", "1.5", None, False))
        else:
            out.append(("not a number", "nan", None, False))
        low, high = getattr(param, "min", None), getattr(param, "max", None)
        if low is not None:
            out.append(("below its range", str(low - 1), None, False))
        if high is not None:
            out.append(("above its range", str(high + 1), None, False))
            if kind is float:
                out.append(("infinite", "inf", None, False))
        out += [(f"out of range ({v})", v, None, False) for v in self.beyond]
        return out


@dataclass(frozen=True)
class Name(Role):
    """A name carcsim looks up: unknown ones (and the first with a line break)."""
    unknown: tuple[str, ...]

    def values(self, param):
        out = [(f"unknown name {v!r}", v, None, False) for v in self.unknown]
        return out + [("line break in an unknown name", f"{self.unknown[0]}\nx", None, False)]


class Flag(Role):
    def faults(self, option, param):
        return [Fault("a value given to a flag", (f"{option}=x",))]


@dataclass(frozen=True)
class Row:
    """One parameter's roles; `args`/`tokens`: the positional values / options its
    faults need to be reached (--turn needs --svg)."""
    roles: tuple[Role, ...]
    args: dict = field(default_factory=dict)
    tokens: tuple[str, ...] = ()


def row(*roles, args=None, tokens=()):
    return Row(roles, args or {}, tuple(tokens))


@dataclass(frozen=True)
class Command:
    """A command's rows, the positional values and options every case starts from (a
    valid command, fast enough: a fault that is not refused then shows as exit 0, a
    traceback or a tree that changed), and cases that combine options."""
    rows: dict[str, Row]
    args: dict = field(default_factory=dict)
    tokens: tuple[str, ...] = ()
    extra: tuple[Fault, ...] = ()


COMMANDS = {
    "play": Command({
        "script": row(InFile("s.toml")),
        "seed": row(Number()),
        "players": row(Name(("bogus,random", "random", "", ",".join(["random"] * 7),
                             "greedy(speed=2.0),random", "greedy(city=1.0,city=5.0),random"))),
        "expansions": row(Name(("warp", "messages,warp"))),
        "edition": row(Name(("bogus",)), tokens=("--expansions", "messages")),
        "as_json": row(Flag()),
        "svg": row(OutFile("b.svg")),
        "turn": row(Number(("100000",)), tokens=("--svg", "b.svg")),
        "page": row(OutFile("g.html")),
        "log": row(Flag()),
    }, extra=(Fault("--turn without --svg", ("--turn", "3")),
              Fault("--svg and --html on one file", ("--svg", "x", "--html", "x")))),
    # no --workers 0: a fault not refused reaches Ray, which the harness makes fail
    "run": Command({
        "config": row(InFile("c.toml"), Name(("bogus",))),
        "out": row(OutDir(creates=True, manifest=True)),
        "workers": row(Number()),
        "address": row(Name(("bogus", "host:notaport", "host:0", "http://127.0.0.1:8265"))),
        "force": row(Flag()),
        "repair": row(Flag()),
        "connect_timeout": row(Number()),
        "quiet": row(Flag()),
        "as_json": row(Flag()),
    }, args={"config": "tiny.toml"},
        extra=(Fault("--force with --repair", ("--force", "--repair")),
               Fault("--workers 0 with --address", ("--workers", "0", "--address", "127.0.0.1:6379")),
               Fault("a config with a note, --workers 0 with --address",
                     ("--workers", "0", "--address", "127.0.0.1:6379"), args={"config": "mirror.toml"}),
               Fault("a config with a note, into a file", ("--out", "afile"),
                     args={"config": "mirror.toml"}),
               Fault("a config with a note, into a read-only directory", ("--out", "ro/x"),
                     _mkdir("ro", 0o555), True, args={"config": "mirror.toml"}))),
    "report": Command({
        "run_dir": row(RunDir(writes=True)),
        "as_json": row(Flag()),
        "full": row(Flag()),
        "html_path": row(OutFile("r.html")),
        "rating_prior": row(Number()),
    }, args={"run_dir": "run"}),
    # a fault not refused starts hours of runs: the case's timeout ends it
    "findings": Command({
        "doc": row(OutFile("f.md")),
        "workers": row(Number()),
        "force": row(Flag()),
        "only": row(Name(("bogus", "quickstart"))),
    }, tokens=("--only", "seat_advantage")),
    "validate": Command({
        "config": row(InFile("c.toml"), Name(("bogus",))),
        "as_json": row(Flag()),
    }, args={"config": "tiny.toml"}),
    "plan": Command({
        "config": row(InFile("c.toml"), Name(("bogus",))),
        "half_width": row(Number(("0", "-0.1"))),
        "half_width_points": row(Number(("0",))),
        "pilot": row(RunDir(writes=False)),
        "pilot_blocks": row(Number()),
        "time_blocks": row(Number(), tokens=("--pilot", "run")),
        "beside": row(RunDir(writes=False)),
        "as_json": row(Flag()),
    }, args={"config": "tiny.toml"}, tokens=("--half-width", "0.1")),
    "compare": Command({
        "run_a": row(RunDir(writes=False)),
        "run_b": row(RunDir(writes=False)),
        "as_json": row(Flag()),
    }, args={"run_a": "run", "run_b": "run"}),
    "export": Command({
        "run_dir": row(RunDir(writes=True)),  # RUN_DIR/csv without --out
        "as_csv": row(Flag()),
        "out": row(OutDir(creates=True, manifest=False)),
    }, args={"run_dir": "run"}, tokens=("--csv",)),
    "replay": Command({
        "run_dir": row(RunDir(writes=False)),
        "game_id": row(Number(("2", "99999999999999999999999", "-1"))),  # the run: games 0, 1
        "svg": row(OutFile("b.svg")),
        "turn": row(Number(("100000",)), tokens=("--svg", "b.svg")),
        "page": row(OutFile("g.html")),
        "as_json": row(Flag()),
    }, args={"run_dir": "run", "game_id": "0"}),
    "bench": Command({
        "as_json": row(Flag()),
        "case": row(Name(("bogus",))),
        "repeats": row(Number()),
        "scale": row(Number()),
        "everything": row(Flag()),
    }),
    "tiles": Command({
        "source": row(InFile("t.tiles"), Name(("bogus",))),
        "as_json": row(Flag()),
    }, args={"source": "base"}, extra=(Fault("an extra argument", ("extra",)),)),
    "configs": Command({"as_json": row(Flag())}, extra=(Fault("an extra argument", ("extra",)),)),
    "strategies": Command({
        "action": row(Name(("bogus", "lsit"))),
        "spec": row(Name(("bogus", "greedy(speed=2.0)")), InFile("s.py", form="{}:Cautious"),
                    args={"action": "check"}),
        "as_json": row(Flag()),
        "seed": row(Number(), args={"action": "check", "spec": "random"}),
    }, extra=(Fault("check without a spec", (), args={"action": "check"}),
              Fault("list with a spec", (), args={"action": "list", "spec": "random"}))),
    "check": Command({
        "games": row(Number(("0", "-1"))),  # bounded by the command: at least 1
        "expansions": row(Name(("warp",))),
        "players": row(Name(("7", "x", "1-9"))),
        "edition": row(Name(("bogus",))),
        "zmg": row(Flag()),
        "strategies": row(Name(("bogus",))),
        "seed": row(Number()),
        "out": row(OutDir(creates=False, manifest=False)),
        "script": row(InFile("s.toml")),
        "tiles": row(Name(("moon=x.tiles", "base")), InFile("b.tiles", form="base={}")),
    }, tokens=("--games", "1")),
}


# --- the parser ----------------------------------------------------------------------------

def _group():
    import typer.main

    from sim.cli.main import app

    return typer.main.get_command(app)


def _commands() -> dict:
    g = _group()
    return {name: g.commands[name] for name in g.list_commands(None)}


def _option(param) -> str | None:
    return None if param.param_type_name == "argument" else param.opts[0]


def _argv(name: str, command, cmd: Command, param=None, fault: Fault | None = None) -> list[str]:
    """The command line: positional values in order, the start's options (less the
    faulted one), the row's companions, the fault."""
    r = cmd.rows[param.name] if param is not None else Row(())
    args = {**cmd.args, **r.args, **(fault.args if fault else {})}
    argv = [name]
    for p in command.params:
        if p.param_type_name != "argument":
            continue
        if param is not None and p is param:
            argv += fault.tokens
        elif p.name in args:
            argv.append(args[p.name])
        else:
            break  # positional values end at the first one not given
    tokens = list(cmd.tokens)
    if param is not None and _option(param) in tokens:  # the fault replaces the start's value
        i = tokens.index(_option(param))
        del tokens[i:i + 2]
    argv += tokens + list(r.tokens)
    if param is None or _option(param) is not None:
        argv += fault.tokens if fault else []
    return argv


@dataclass(frozen=True)
class Case:
    id: str
    argv: tuple[str, ...]
    setup: Callable | None
    permissions: bool


def _cases() -> list[Case]:
    out = []
    for name, command in _commands().items():
        cmd = COMMANDS.get(name)
        if cmd is None:
            continue  # test_every_parameter_has_a_row fails for it
        out.append(Case(f"{name} unknown option", tuple(_argv(name, command, cmd) + ["--bogus"]),
                        None, False))
        for param in command.params:
            r = cmd.rows.get(param.name)
            for role in (r.roles if r else ()):
                for fault in role.faults(_option(param), param):
                    where = _option(param) or param.name.upper()
                    out.append(Case(f"{name} {where}: {fault.label}",
                                    tuple(_argv(name, command, cmd, param, fault)),
                                    fault.setup, fault.permissions))
        for fault in cmd.extra:
            out.append(Case(f"{name}: {fault.label}", tuple(_argv(name, command, cmd, None, fault)),
                            fault.setup, fault.permissions))
    out.append(Case("unknown command", ("bogus",), None, False))
    return out


CASES = _cases()


def test_every_parameter_has_a_row():
    """A command or an option of the parser without its bad inputs here fails: add a row
    (the role makes the faults); a row for a parameter the parser lacks fails too."""
    kinds = {int: Number, float: Number, bool: Flag}
    for name, command in _commands().items():
        assert name in COMMANDS, f"carcsim {name}: no row in COMMANDS: give each of its parameters a role"
        rows = COMMANDS[name].rows
        params = {p.name: p for p in command.params}
        assert set(rows) == set(params), f"carcsim {name}: rows {sorted(rows)}, parameters {sorted(params)}"
        for pname, p in params.items():
            kind = p.type_descriptor.annotation
            roles = rows[pname].roles
            assert roles, f"carcsim {name} {pname}: no role"
            want = kinds.get(kind)
            if want is not None:
                assert all(isinstance(r, want) for r in roles), f"carcsim {name} {pname}: a {kind.__name__}"
            else:  # a string, a path or a list of names: looked up or opened
                assert all(isinstance(r, (Name, InFile, OutFile, OutDir, RunDir)) for r in roles), pname
            if want is Number:  # out of range, from the parser's bounds or the row's values
                labels = [f.label for r in roles for f in r.faults(_option(p), p)]
                assert any(lb.startswith(("below", "above", "out of range")) for lb in labels), \
                    f"carcsim {name} {pname}: no out-of-range value (bound it, or give `beyond`)"
    assert set(COMMANDS) <= set(_commands()), "rows for a command the parser lacks"


# --- the harness ---------------------------------------------------------------------------

class Server:
    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, str(HERE / "cli_forks.py")], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        hello = json.loads(self.proc.stdout.readline())
        self.can_drop = hello["can_drop"]

    def run(self, argv, cwd, home, drop=False) -> dict:
        req = {"argv": list(argv), "cwd": str(cwd), "home": str(home), "drop": drop,
               "timeout": TIMEOUT}
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def _unlock_tree(top: Path) -> None:
    """Give back the write and read permissions the faults took, so the tree can go."""
    for d, dirs, files in os.walk(top):
        os.chmod(d, 0o755)
        for n in dirs:
            os.chmod(os.path.join(d, n), 0o755)
        for n in files:
            p = os.path.join(d, n)
            if not os.path.islink(p):
                os.chmod(p, 0o644)


def tree(top: Path) -> dict:
    """Every entry under `top`: kind, mode, size, content digest, and a directory's
    mtime (an entry made and removed again changes it)."""
    out = {}
    for d, dirs, files in os.walk(top):
        for n in [None, *dirs, *files]:
            p = d if n is None else os.path.join(d, n)
            st = os.lstat(p)
            entry = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode), st.st_size)
            if stat.S_ISDIR(st.st_mode):
                entry += (st.st_mtime_ns,)
            elif stat.S_ISREG(st.st_mode) and st.st_mode & 0o400:
                with open(p, "rb") as f:
                    entry += (hashlib.sha256(f.read()).hexdigest(),)
            out[os.path.relpath(p, top)] = entry
    return out


@dataclass
class Harness:
    server: Server
    base: Path
    template: Path
    drop: bool  # root: every case without the capabilities to ignore permissions
    numbers = itertools.count()

    def fresh(self, setup=None) -> Path:
        d = self.base / f"case{next(self.numbers)}"
        shutil.copytree(self.template, d, symlinks=True)
        if setup is not None:
            setup(d)
        return d

    def run(self, argv, cwd) -> dict:
        return self.server.run(argv, cwd, self.base / "home", self.drop)


@pytest.fixture(scope="module")
def harness():
    server = Server()
    base = Path(tempfile.mkdtemp(prefix="carcsim-errors-"))
    try:
        (base / "home").mkdir()
        template = base / "template"
        template.mkdir()
        (template / "tiny.toml").write_text(TINY)
        (template / "mirror.toml").write_text(MIRROR)
        (template / "afile").write_text("a file, not a directory\n")
        made = server.run(["run", "tiny.toml", "--workers", "0", "--out", "run", "--quiet"],
                          template, base / "home")
        assert made["rc"] == 0, made
        yield Harness(server, base, template, server.can_drop)
    finally:
        server.close()
        _unlock_tree(base)
        shutil.rmtree(base)


def _promise_kept(r: dict, before: dict, after: dict) -> list[str]:
    broken = []
    if r["timed_out"]:
        broken.append(f"not refused within {TIMEOUT:g} s (killed)")
    if r["rc"] != 2:
        broken.append(f"exit code {r['rc']}, expected 2")
    lines = r["stderr"].splitlines()
    if len(lines) != 1 or not r["stderr"].endswith("\n"):
        broken.append(f"{len(lines)} lines on stderr, expected 1")
    if "Traceback" in r["stderr"]:
        broken.append("a traceback")
    if lines and not lines[0].startswith("carcsim"):
        broken.append("the line does not start with `carcsim`")
    if r["stdout"]:
        broken.append("output on stdout")
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    if changed:
        broken.append(f"written: {changed[:5]}")
    return broken


@pytest.mark.parametrize("case", CASES, ids=[c.id.replace("\n", "\\n") for c in CASES])
def test_bad_input_is_refused_in_one_line(harness, case):
    if case.permissions and os.geteuid() == 0 and not harness.drop:
        pytest.skip("root ignores permissions, and its capabilities to do so cannot be "
                    "dropped here: the fault cannot happen")
    d = harness.fresh(case.setup)
    before = tree(d)
    r = harness.run(case.argv, d)
    after = tree(d)
    broken = _promise_kept(r, before, after)
    assert not broken, (f"carcsim {' '.join(map(repr, case.argv))}: {'; '.join(broken)}\n"
                        f"stderr: {r['stderr'][-2000:]}\nstdout: {r['stdout'][-500:]}")


def test_no_command_names_every_command(harness):
    """`carcsim` alone: the usage on stdout and one line naming every command the
    parser has (not a list kept by hand)."""
    d = harness.fresh()
    r = harness.run([], d)
    assert r["rc"] == 2 and "Usage: carcsim" in r["stdout"]
    assert r["stderr"].splitlines() == [
        f"carcsim: no command given: expected one of {', '.join(_commands())}"]


def test_the_fork_answers_as_a_fresh_process(harness):
    """The harness changes nothing that shows: a case gives what `python -m sim` gives."""
    d = harness.fresh()
    argv = ["play", "--players", "random,bogus"]
    forked = harness.run(argv, d)
    fresh = subprocess.run([sys.executable, "-m", "sim", *argv], capture_output=True, text=True, cwd=d)
    assert (forked["rc"], forked["stdout"], forked["stderr"]) == (fresh.returncode, fresh.stdout, fresh.stderr)


# --- one error type per kind of fault --------------------------------------------------------

def _core_error():
    from sim.core import check, lib

    check(lib.CC_ERR_FULL, "cc_game_new", seats=9)


def _raise(error):
    def make():
        raise error
    return make


@pytest.mark.parametrize("make, code, line", [
    (_raise(InputError("s.toml: turn 1: bad\nthing")), 2,
     r"carcsim: s.toml: turn 1: bad\nthing"),
    (_core_error, 3, "carcsim: internal error, please report it: cc_game_new(seats=9): "
                     "capacity exceeded (code -5)"),
    (_raise(OSError(36, "File name too long", "n" * 20)), 2, f"carcsim: {'n' * 20}: File name too long"),
], ids=["InputError", "CoreError", "OSError naming a path"])
def test_each_error_type_is_one_line_and_its_exit_code(monkeypatch, capsys, make, code, line):
    """What README (errors and exit codes) promises of each type, at the entry point."""
    import sim.cli.main as cli

    monkeypatch.setattr(cli, "app", lambda **kw: make())
    with pytest.raises(SystemExit) as e:
        cli.main()
    assert e.value.code == code
    assert capsys.readouterr().err.splitlines() == [line]


def test_every_error_type_is_in_the_readme():
    """README's errors section names each error type carcsim defines (one place to
    look), and the C core's types are exactly one per error code."""
    import sim.core
    import sim.errors
    import sim.tournament.manifest  # noqa: F401 - defines RunError

    def family(cls):
        return {cls, *(c for sub in cls.__subclasses__() for c in family(sub))}

    readme = (ROOT / "README.md").read_text()
    section = readme.split("### Errors and exit codes", 1)[1].split("\n### ", 1)[0]
    for cls in family(sim.errors.CarcsimError) - {sim.errors.CarcsimError}:
        assert f"`{cls.__name__}`" in section, f"{cls.__name__} is not in README's errors section"
    assert {cls for cls, _ in sim.core.ERRORS.values()} == family(sim.errors.CoreError) - {sim.errors.CoreError}
