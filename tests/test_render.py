"""Board pictures: golden SVGs of fixed scripted games, and the step-through page in a
real headless browser.

The golden files change only when the drawing changes on purpose; regenerate with

    carcsim play --script tests/scripts/messages_classic.toml --svg tests/golden/messages_classic.svg
    carcsim play --script tests/scripts/field_two_cities.toml --svg tests/golden/field_two_cities.svg
"""

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from browser import console_errors, is_png, needs_chromium, screenshot

from sim import render
from sim.script import load_script, play_script

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "tests" / "scripts"
GOLDEN = ROOT / "tests" / "golden"
NS = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("name", ["messages_classic", "field_two_cities"])
def test_golden_svg(name, tmp_path):
    out = tmp_path / f"{name}.svg"
    r = subprocess.run([sys.executable, "-m", "sim", "play", "--script", str(SCRIPTS / f"{name}.toml"),
                        "--svg", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    root = ET.fromstring(out.read_text())  # valid XML
    assert root.tag == f"{NS}svg"
    assert out.read_text() == (GOLDEN / f"{name}.svg").read_text(), "drawing changed: see module doc"


def test_svg_shows_every_tile_figure_and_turn():
    g = play_script(load_script(SCRIPTS / "messages_classic.toml"))
    root = ET.fromstring(render.board_svg(g))
    titles = [t.text for t in root.iter(f"{NS}title")]
    assert "start: D 0,0 r0" in titles
    assert [t for t in titles if t.startswith("turn ")] == [
        f"turn {i}: {p}" for i, p in enumerate(
            ["U 1,0 r0", "U 2,0 r0", "A -1,0 r3", "E 0,1 r2", "W 3,0 r0", "B 0,-1 r0", "B 1,-1 r0"], 1)]
    figures = [t for t in titles if " follower " in t]
    assert sorted(figures) == ["seat 0 follower monastery @-1,0", "seat 0 follower monastery @0,-1"]
    # The Messages: both scoring figures of both seats on the scoreboard strip
    assert "seat 0 scoring meeple: 5" in titles and "seat 0 messenger: 0" in titles


def test_turn_option_draws_the_board_as_it_stood(tmp_path):
    g = play_script(load_script(SCRIPTS / "messages_classic.toml"))
    early = ET.fromstring(render.board_svg(g.replayed(3)))
    titles = [t.text for t in early.iter(f"{NS}title") if t.text.startswith("turn ")]
    assert titles == ["turn 1: U 1,0 r0", "turn 2: U 2,0 r0", "turn 3: A -1,0 r3"]
    r = subprocess.run([sys.executable, "-m", "sim", "play", "--script",
                        str(SCRIPTS / "messages_classic.toml"), "--svg", str(tmp_path / "x.svg"),
                        "--turn", "99"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "--turn 99: expected 0..7" in r.stderr


@needs_chromium
def test_step_through_page_in_a_headless_browser(tmp_path):
    page = tmp_path / "game.html"
    r = subprocess.run([sys.executable, "-m", "sim", "play", "--seed", "3", "--players", "greedy,random",
                        "--expansions", "messages", "--html", str(page)], capture_output=True,
                       text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    shot = tmp_path / "shot.png"
    console = screenshot(page.as_uri(), shot, tmp_path / "profile", "1100,1100")
    assert any("carcsim game ready: 72 frames" in line for line in console), console
    assert console_errors(console) == []
    assert is_png(shot)
