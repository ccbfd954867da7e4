"""The command line: results, and bad input as one line with exit code 2."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent / "scripts"
ROOT = SCRIPTS.parent.parent


def carcsim(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "sim", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd)


def test_play_script_json():
    r = carcsim("play", "--script", SCRIPTS / "field_two_cities.toml", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert [p["score"] for p in out["players"]] == [6, 4]
    assert out["players"][0]["points"] == {"road": 0, "city": 0, "monastery": 0, "field": 6,
                                           "message": 0, "courier": 0, "garden": 0}
    assert out["winners"] == [0]
    assert out["events"][0]["e"] == "start"


def test_play_seeded_log_is_deterministic():
    a = carcsim("play", "--seed", 9, "--players", "random,first,random")
    b = carcsim("play", "--seed", 9, "--players", "random,first,random")
    assert a.returncode == 0 and a.stdout == b.stdout
    assert a.stdout.splitlines()[0] == "start     D 0,0 r0"
    assert a.stdout.splitlines()[-1].startswith("end ")


def test_play_with_a_picture_prints_the_log_only_when_asked(tmp_path):
    """A picture asked for is the answer: stdout stays empty unless --log asks for the
    turn log too (the same log a plain play prints)."""
    plain = carcsim("play", "--seed", 9)
    quiet = carcsim("play", "--seed", 9, "--svg", tmp_path / "b.svg", "--html", tmp_path / "g.html")
    assert quiet.returncode == 0 and quiet.stdout == "", quiet.stderr
    assert (tmp_path / "b.svg").stat().st_size > 0 and (tmp_path / "g.html").stat().st_size > 0
    logged = carcsim("play", "--seed", 9, "--svg", tmp_path / "c.svg", "--log")
    assert logged.returncode == 0 and logged.stdout == plain.stdout and plain.stdout.count("\n") > 50


def test_run_ends_with_its_question_answered_and_the_next_step(tmp_path):
    """First contact: `carcsim run` explains its table's columns, answers the config's
    question with an interval, and names the command that gives the rest."""
    r = carcsim("run", "quickstart", "--workers", "0", "--out", tmp_path / "qs", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[-1].startswith(f"next: carcsim report {tmp_path / 'qs'}")
    assert any(ln.startswith("games: games the player played; win share:") for ln in lines)
    assert "question: Does greedy beat random?" in r.stdout
    answer = next(ln for ln in lines if ln.startswith("answer: greedy vs random: win share"))
    assert "95% interval [0.9" in answer and "estimate 1.000" in answer


def test_tiles_command_lists_a_set():
    r = carcsim("tiles", "base")
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == "24 tile types, 72 tiles"


def bad(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


CASES = {
    "malformed tile file": (
        lambda t: ("tiles", bad(t, "my.tiles", "E x5 CFFF C:N R:- F:En,Es/N X:-\n")),
        r"my.tiles:1: half-edge Se belongs to 0 fields, expected 1"),
    "unknown tile id": (
        lambda t: ("play", "--script", bad(t, "s.toml", '[[turns]]\ntile = "Z9"\nat = [0, 1]\n')),
        r"s.toml: turn 1: unknown tile id 'Z9'"),
    "illegal scripted move": (
        lambda t: ("play", "--script", bad(t, "s.toml", '[[turns]]\ntile = "E"\nat = [1, 0]\n')),
        r"s.toml: turn 1: tile E at \(1, 0\) rotation 0 does not fit: its W edge is field, "
        r"the neighbour's E edge is road"),
    "occupied feature": (
        lambda t: ("play", "--script", bad(t, "s.toml", '[[turns]]\ntile = "G"\nat = [0, 1]\n'
                   'rotation = 1\nfigure = "follower city N"\n[[turns]]\ntile = "N"\nat = [0, 2]\n'
                   'rotation = 2\nfigure = "follower city S"\n')),
        r"s.toml: turn 2: figure 'follower city S': that city already holds a figure"),
    "bad script field type": (
        lambda t: ("play", "--script", bad(t, "s.toml", '[[turns]]\ntile = "E"\nat = [0, "x"]\n')),
        r"s.toml: turn 1: at = \[0, 'x'\]: expected \[x, y\]"),
    "unknown script key": (
        lambda t: ("play", "--script", bad(t, "s.toml", '[[turns]]\ntile = "E"\nat = [0, 1]\nrotaton = 2\n')),
        r"s.toml: turn 1.rotaton: unknown key: expected one of at, "),
    "bad player count": (
        lambda t: ("play", "--script", bad(t, "s.toml", '[rules]\nplayers = 9\n[[turns]]\ntile = "E"\nat = [0, 1]\n')),
        r"s.toml: rules.players = 9: expected a whole number 2..6"),
    "unimplemented expansion": (
        lambda t: ("play", "--script", bad(t, "s.toml", '[rules]\nexpansions = ["warp"]\n[[turns]]\ntile = "E"\nat = [0, 1]\n')),
        r"s.toml: rules.expansions: unknown expansion 'warp'"),
    "not TOML": (
        lambda t: ("play", "--script", bad(t, "s.toml", "[[turns]\n")),
        r"s.toml: not valid TOML"),
    "missing script": (
        lambda t: ("play", "--script", t / "nope.toml"),
        r"nope.toml: cannot read script"),
    "unknown strategy": (
        lambda t: ("play", "--players", "random,bogus"),
        r"--players: unknown strategy 'bogus': expected one of alternate, always_2, always_action, "),
    "bad strategy parameter": (
        lambda t: ("play", "--players", "greedy(speed=2.0),random"),
        r"--players: greedy: unknown parameter 'speed': expected road, city"),
    "bad option": (
        lambda t: ("play", "--seeed", "3"),
        r"No such option: --seeed"),
    "bad option value": (
        lambda t: ("play", "--seed", "x"),
        r"Invalid value for '--seed'"),
    "picture into a missing directory": (
        lambda t: ("play", "--svg", "/nonexistent/dir/x.svg"),
        r"^carcsim: --svg /nonexistent/dir/x.svg: directory /nonexistent/dir does not exist$"),
    "page onto a directory": (
        lambda t: ("play", "--html", t),
        r"--html .*: is a directory: expected a file name"),
    "policy that answers nothing here": (
        lambda t: ("play", "--players", "always_2,coverage"),
        r"--players: 'always_2' answers only messages decisions, and none arises under these rules "
        r"\(expansions: none\): expected a policy for place"),
    "override for a decision that never comes": (
        lambda t: ("play", "--players", "greedy+messages=always_2,random"),
        r"--players: 'greedy\+messages=always_2': no 'messages' decision arises under these rules"),
    "turn without a picture": (
        lambda t: ("play", "--turn", "5"),
        r"--turn 5: does nothing without --svg"),
    "seed with a script": (
        lambda t: ("play", "--script", SCRIPTS / "field_two_cities.toml", "--seed", "4"),
        r"--seed: does nothing with --script"),
    "edition without The Messages": (
        lambda t: ("play", "--edition", "classic"),
        r"--edition classic: does nothing without The Messages"),
    "config that is neither a file nor shipped": (
        lambda t: ("validate", "quikstart"),
        r"quikstart: no such config file, and no shipped config of that name: expected a path or "
        r"a shipped config's name \(carcsim configs lists them\); did you mean quickstart\?"),
    "unbalanced parentheses in a player": (
        lambda t: ("play", "--players", "greedy(city=2.0,random"),
        r"--players: 'greedy\(city=2.0,random': unbalanced parentheses"),
    "picture and page on one file": (
        lambda t: ("play", "--svg", t / "x", "--html", t / "x"),
        r"--svg and --html both name .*x: expected two different files"),
    # issue 27.5: empty values are refused, not read as a default
    "empty players": (lambda t: ("play", "--players", ""), r"--players '': expected comma-separated"),
    "empty run out": (lambda t: ("run", "quickstart", "--out", ""), r"--out '': expected a directory name"),
    "empty check out": (lambda t: ("check", "--out", ""), r"--out '': expected a directory name"),
    "out part too long": (lambda t: ("run", "quickstart", "--workers", "0", "--out", t / ("b" * 300)),
                          r"b: cannot be the output directory: File name too long"),
    "replay turn without a picture": (
        lambda t: ("replay", t, "0", "--turn", "3"),
        r"--turn 3: does nothing without --svg"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_is_one_line_exit_2(case, tmp_path):
    make, pattern = CASES[case]
    r = carcsim(*make(tmp_path))
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert "Traceback" not in r.stderr
    import re
    assert re.search(pattern, lines[0]), lines[0]
    assert r.stdout == ""


def test_bare_command_prints_usage_and_one_line():
    r = carcsim()
    assert r.returncode == 2
    assert "Usage: carcsim [OPTIONS] COMMAND" in r.stdout
    import typer.main

    from sim.cli.main import app

    commands = typer.main.get_command(app).list_commands(None)  # every one, as the parser has them
    assert {"play", "run", "report", "check", "findings"} <= set(commands)
    assert r.stderr.strip().splitlines() == [
        f"carcsim: no command given: expected one of {', '.join(commands)}"]


def test_version_is_the_package_version():
    import tomllib
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    r = carcsim("--version")
    assert r.returncode == 0 and r.stdout == f"carcsim {declared}\n"


def test_shipped_configs_by_name():
    listed = json.loads(carcsim("configs", "--json").stdout)
    files = sorted(p.stem for p in (ROOT / "sim" / "configs").glob("*.toml"))
    assert [c["name"] for c in listed] == files
    assert all(c["question"] for c in listed), "every shipped config states its question"
    plan = json.loads(carcsim("validate", "quickstart", "--json").stdout)
    # quickstart: 200 blocks, 2 seat rotations, 25 blocks a shard
    assert (plan["blocks"], plan["games_per_block"], plan["games"], plan["shards"]) == (200, 2, 400, 8)
    assert plan["design"]["seats"] == ["greedy", "random"]
    assert plan["rules"]["expansions"] == ["messages"]
    assert plan["config"].endswith("sim/configs/quickstart.toml")


def test_play_json_holds_seed_rules_and_seats():
    r = carcsim("play", "--seed", 5, "--players", "greedy,random,first", "--expansions", "messages",
                "--edition", "classic", "--json")
    out = json.loads(r.stdout)
    assert out["seed"] == 5 and out["seats"] == ["greedy", "random", "first"]
    assert out["rules"]["players"] == 3 and out["rules"]["expansions"] == ["messages"]
    assert out["rules"]["messages"]["edition"] == "classic"
    same = json.loads(carcsim("play", "--seed", 5, "--players", "greedy,random,first",
                              "--expansions", "messages", "--edition", "classic", "--json").stdout)
    assert same == out
    scripted = json.loads(carcsim("play", "--script", SCRIPTS / "field_two_cities.toml", "--json").stdout)
    assert scripted["seed"] is None and scripted["script"].endswith("field_two_cities.toml")


def test_strategies_and_tiles_json():
    rows = {r["name"]: r for r in json.loads(carcsim("strategies", "--json").stdout)}
    assert rows["always_2"]["decisions"] == ["messages"]
    assert "place" in rows["greedy"]["decisions"] and rows["greedy"]["params"]["city"] == "float"
    tiles = json.loads(carcsim("tiles", "base", "--json").stdout)
    # TILES.md 2.3: 24 types, 72 tiles; D is the start tile, 4 copies
    assert (tiles["tile_types"], tiles["tiles"]) == (24, 72)
    d = next(t for t in tiles["types"] if t["id"] == "D")
    assert d["count"] == 4 and d["edges"] == "CRFR"
    assert sum(t["count"] for t in tiles["types"]) == 72


def test_run_and_replay_json(tmp_path):
    cfg = tmp_path / "tiny.toml"
    cfg.write_text('[run]\nname = "tiny"\nseed = 11\nblocks = 3\nshard_blocks = 2\n'
                   'out = "runs/tiny"\n[design]\nkind = "rotations"\nseats = ["random", "first"]\n')
    r = carcsim("run", cfg, "--workers", "0", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)  # nothing else on stdout
    # 3 blocks × 2 rotations; shards of 2 blocks: 2 shards
    assert (summary["games"], summary["shards_run"], summary["shards_skipped"]) == (6, 2, 0)
    assert summary["out"] == "runs/tiny" and not summary["interrupted"]
    # the text summary's table, per player spec: every game has one random and one first
    assert {p["player"]: p["games"] for p in summary["players"]} == {"random": 6, "first": 6}
    assert sum(p["win_share"] * p["games"] for p in summary["players"]) == pytest.approx(6)
    again = json.loads(carcsim("run", cfg, "--workers", "0", "--json", cwd=tmp_path).stdout)
    assert (again["games"], again["shards_run"], again["shards_skipped"]) == (0, 0, 2)
    assert again["games_stored"] == 6 and again["players"] == summary["players"]  # a resume too
    rep = carcsim("replay", tmp_path / "runs" / "tiny", 3, "--json")
    assert rep.returncode == 0, rep.stderr
    game = json.loads(rep.stdout)
    assert game["equal"] is True and game["problems"] == [] and game["game_id"] == 3
    assert game["events"][0]["e"] == "start" and len(game["players"]) == 2
    svg = tmp_path / "g3.svg"
    assert carcsim("replay", tmp_path / "runs" / "tiny", 3, "--svg", svg).returncode == 0
    # game 3 is block 1's second rotation: the seats swapped, so seat 0 plays `first`
    legend = svg.read_text()
    assert "seat 0 · first: " in legend and "seat 1 · random: " in legend


def test_check_and_bench_say_how_far_they_are():
    """Issue 26 item 3: `check` reports games done and left on stderr (about 20 lines a
    run, the last one at the end); `bench` names its cases and an estimate before it
    starts; the search cases run only with --all."""
    from sim.cli import bench
    from sim.games.differential import Summary, progress_lines

    lines = []
    report = progress_lines(40, lines.append)
    s = Summary()
    for _ in range(40):
        s.games += 1
        s.decisions += 10
        report(s)
    assert len(lines) == 20 and lines[0].startswith("check: 2 / 40 games, 20 decisions")
    assert lines[-1] == "check: 40 / 40 games, 400 decisions compared, no divergence"
    r = carcsim("check", "--games", 3)
    assert r.returncode == 0 and r.stdout.splitlines()[-1].startswith("3 games, 0 divergences")
    assert r.stderr.splitlines()[-1].startswith("check: 3 / 3 games")
    standard = bench.standard()
    assert standard and not any("search" in c.players for c in standard)
    assert any(c.engine == "search" for c in bench.standard(everything=True))
    assert [c.name for c in bench.standard(["search-6-base-2p"])] == ["search-6-base-2p"]
    assert bench.estimate_seconds(bench.standard(everything=True), 5) > bench.estimate_seconds(standard, 5) > 0


def _flat(text: str) -> str:
    """Help text without the panels' frames and line wrapping."""
    return "".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def test_every_help_shows_its_texts_whole():
    # Rich markup would take "[default: 0]" in a help text for a style tag and drop it,
    # and keep a docstring's line breaks inside a sentence; the help is markdown
    import typer.main
    from typer.testing import CliRunner

    from sim.cli.main import app

    group = typer.main.get_command(app)
    runner = CliRunner()
    top = _flat(runner.invoke(app, ["--help"], terminal_width=200).stdout)
    for name in group.list_commands(None):
        command = group.commands[name]
        shown = _flat(runner.invoke(app, [name, "--help"], terminal_width=200).stdout)
        first = command.help.split("\n\n")[0].replace("`", "")
        assert _flat(first) in top, name
        for param in command.params:
            for bracket in re.findall(r"\[[^\]]*\]", getattr(param, "help", None) or ""):
                assert _flat(bracket) in shown, (name, param.name, bracket)
