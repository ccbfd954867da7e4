"""The command line: results, and bad input as one line with exit code 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent / "scripts"


def carcsim(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "sim", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd)


def test_play_script_json():
    r = carcsim("play", "--script", SCRIPTS / "field_two_cities.toml", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert [p["score"] for p in out["players"]] == [6, 4]
    assert out["players"][0]["points"] == {"road": 0, "city": 0, "monastery": 0, "field": 6,
                                           "message": 0, "courier": 0}
    assert out["winners"] == [0]
    assert out["events"][0]["e"] == "start"


def test_play_seeded_log_is_deterministic():
    a = carcsim("play", "--seed", 9, "--players", "random,first,random")
    b = carcsim("play", "--seed", 9, "--players", "random,first,random")
    assert a.returncode == 0 and a.stdout == b.stdout
    assert a.stdout.splitlines()[0] == "start     D 0,0 r0"
    assert a.stdout.splitlines()[-1].startswith("end ")


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
        r"s.toml: rules: players = 9: expected a whole number 2..6"),
    "unimplemented expansion": (
        lambda t: ("play", "--script", bad(t, "s.toml", '[rules]\nexpansions = ["warp"]\n[[turns]]\ntile = "E"\nat = [0, 1]\n')),
        r"s.toml: rules: expansions: unknown expansion 'warp'"),
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
