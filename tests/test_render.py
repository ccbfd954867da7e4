"""Board pictures: golden SVGs of fixed scripted games, the frame, legend and size rules
(issue 15.7), and the pictures measured in a real headless browser: nothing drawn
outside the view box, and on the step-through page one frame size and a fixed board
origin over every turn.

The golden files change only when the drawing changes on purpose; regenerate with

    carcsim play --script tests/scripts/messages_classic.toml --svg tests/golden/messages_classic.svg
    carcsim play --script tests/scripts/field_two_cities.toml --svg tests/golden/field_two_cities.svg
"""

import html
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from browser import console_errors, is_png, needs_chromium, screenshot

from sim.games import render
from sim.engine.game import Game
from sim.engine.play import play
from sim.engine.rules import Rules
from sim.games.script import load_script, play_script
from strategies import player

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


def _seeded(players: str, expansions: tuple[str, ...] = (), seed: int = 3):
    from sim.engine.play import play_seeded
    from sim.engine.rules import Rules
    from strategies import player

    specs = players.split(",")
    return play_seeded(Rules(players=len(specs), expansions=expansions), seed,
                       [player(p) for p in specs]), specs


def test_each_tile_drawing_is_defined_once_and_the_base_page_is_small():
    game, specs = _seeded("greedy,random")
    svg = render.board_svg(game, "end of game", specs)
    root = ET.fromstring(svg)
    defs = [g.get("id") for g in root.find(f"{NS}defs")]
    variants = {(t, r) for t, r, _, _ in game.board.tiles()}
    assert len(defs) == len(set(defs)) == len({render._tile_id(game.catalogue.variant(t, r))
                                               for t, r in variants})
    uses = list(root.iter(f"{NS}use"))
    assert len(uses) == len(game.board) == 72  # every tile of the base game placed
    page = render.step_through_html(game, "t", specs)
    assert len(page.encode()) <= 400_000, len(page.encode())
    assert page.count("<g id='t-") == len(defs), "the page defines each drawing once too"


def test_legend_names_seats_with_strategies_and_shapes():
    game, specs = _seeded("greedy,random,first", ("messages", "mayors", "courier"))
    root = ET.fromstring(render.board_svg(game, "end of game", specs))
    texts = ["".join(t.itertext()) for t in root.iter(f"{NS}text")]
    for s, spec in enumerate(specs):
        assert f"seat {s} · {spec}: {game.scores[s]} points" in texts
    for label in ("follower", "mayor", "messenger meeple", "scarecrow", "scarecrow lying",
                  "the Courier", "scoring meeple (strip)", "messenger (strip)"):
        assert label in texts, label
    base, _ = _seeded("greedy,random")
    base_texts = ["".join(t.itertext()) for t in ET.fromstring(render.board_svg(base)).iter(f"{NS}text")]
    assert "follower" in base_texts and "mayor" not in base_texts  # only what the game can show


def test_caption_is_inside_the_view_box():
    g = play_script(load_script(SCRIPTS / "field_two_cities.toml"))
    root = ET.fromstring(render.board_svg(g, "end of game"))
    height = float(root.get("viewBox").split()[3])
    caption = next(t for t in root.iter(f"{NS}text") if t.text == "end of game")
    assert float(caption.get("y")) + 4 <= height  # the baseline plus descenders fit


CHECK = """<script>(function(){
const svg = document.querySelector('#board svg');
const vb = svg.viewBox.baseVal;
const slider = document.getElementById('turn');
const turns = slider ? Number(slider.max) : 0;
const start = () => document.querySelector('#board use').getBoundingClientRect();
const origin = start();
let clipped = [], moved = 0; const sizes = new Set();
for (let t = 0; t <= turns; t++) {
  if (slider) { slider.value = t; slider.dispatchEvent(new Event('input')); }
  for (const el of svg.querySelectorAll(':scope > :not(defs):not(desc)')) {
    if (el === svg.firstElementChild.nextElementSibling) continue;  // the background
    const b = el.getBBox();
    if (b.width === 0 && b.height === 0) continue;  // hidden until its turn
    if (b.x < vb.x - 0.5 || b.y < vb.y - 0.5 || b.x + b.width > vb.x + vb.width + 0.5
        || b.y + b.height > vb.y + vb.height + 0.5) clipped.push(t + ':' + el.textContent);
  }
  const r = svg.getBoundingClientRect(); sizes.add(r.width + 'x' + r.height);
  const o = start(); if (o.x !== origin.x || o.y !== origin.y) moved++;
}
console.info('carcsim check: frames=' + (turns + 1) + ' sizes=' + sizes.size + ' moved=' + moved
             + ' clipped=' + clipped.length + ' ' + clipped.slice(0, 3).join('|'));
})();</script>"""


def _browser_check(page, tmp_path) -> dict:
    checked = tmp_path / f"checked-{page.name}"
    checked.write_text(page.read_text().replace("</body>", CHECK + "</body>"))
    shot = tmp_path / f"{page.stem}.png"
    console = screenshot(checked.as_uri(), shot, tmp_path / "profile", "1100,1100")
    assert console_errors(console) == [], console
    assert is_png(shot)
    line = next((ln for ln in console if "carcsim check:" in ln), None)
    assert line is not None, console
    found = dict(kv.split("=") for kv in line.split("carcsim check: ")[1].split('"')[0].split()
                 if "=" in kv)
    return {k: int(v) for k, v in found.items()}, console


@needs_chromium
@pytest.mark.parametrize("expansions", ["messages", "messages,mayors,river,courier"])
def test_step_through_page_in_a_headless_browser(expansions, tmp_path):
    page = tmp_path / "game.html"
    r = subprocess.run([sys.executable, "-m", "sim", "play", "--seed", "3", "--players",
                        "greedy,random,greedy(city=2.0)+scoring_figure=coverage",
                        "--expansions", expansions, "--html", str(page)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    found, console = _browser_check(page, tmp_path)
    turns = page.read_text().count("data-turn=")
    assert any(f"carcsim game ready: {turns} frames" in line for line in console), console
    assert found == {"frames": turns, "sizes": 1, "moved": 0, "clipped": 0}, found


def test_step_through_page_keys_every_symbol_its_tiles_show():
    """The page's key names the tile symbols this game's tiles show, and only those."""
    base = Game(Rules(players=2), 3, [player("greedy")] * 2)
    play(base, [player("greedy")] * 2)
    page = render.step_through_html(base, "t")
    key = page[page.index("<div id='tile-key'>"):]
    assert "monastery" in key and "coat of arms" in key and "city" in key
    assert "Courier" not in key and "town hall" not in key and "river" not in key
    assert "scoreboard strip" not in key  # no Messages: no strip
    rules = Rules(players=2, expansions=("messages", "river", "courier", "mayors"))
    full = Game(rules, 3, [player("greedy")] * 2)
    play(full, [player("greedy")] * 2)
    key = render.step_through_html(full, "t").split("<div id='tile-key'>")[1]
    assert all(w in key for w in ("river", "letter tile of the Courier", "TH: a town hall",
                                  "scoreboard strip"))


@needs_chromium
def test_step_through_page_opens_the_turn_in_its_address(tmp_path):
    """#turn=N opens turn N: its label, its log lines under the board, the outline on
    the tile placed in it (the browser's own DOM after the page's script ran)."""
    from browser import CHROMIUM
    from sim.formats.log import event_line

    g = Game(Rules(players=2, expansions=("messages",)), 3, [player("greedy")] * 2)
    play(g, [player("greedy")] * 2)
    page = tmp_path / "game.html"
    page.write_text(render.step_through_html(g, "t"))
    turn = 7
    r = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                        f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
                        f"{page.as_uri()}#turn={turn}"], capture_output=True, text=True, timeout=120)
    dom = r.stdout
    assert "<span id=\"label\">after turn 7</span>" in dom, dom[-3000:]
    lines = [event_line(e) for e in g.events if e.get("turn") == turn]
    log = dom.split('<pre id="log">')[1].split("</pre>")[0]
    assert log and html.unescape(log).splitlines() == [x for x in lines if x], log
    _, _, x, y = g.board.tiles()[turn]
    px, py = render.Frame.of(g).at(x, y)
    placed = dom.split('id="placed"')[1].split("/>")[0]
    assert f'x="{round(px)}"' in placed and f'y="{round(py)}"' in placed, placed


@needs_chromium
def test_board_svg_in_a_headless_browser(tmp_path):
    svg = tmp_path / "board.svg"
    r = subprocess.run([sys.executable, "-m", "sim", "play", "--seed", "5", "--players",
                        "greedy,random,first,random", "--expansions", "messages,mayors,courier",
                        "--svg", str(svg)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    page = tmp_path / "board.html"
    page.write_text(f"<!doctype html><html><body><div id='board'>{svg.read_text()}</div></body></html>")
    found, _ = _browser_check(page, tmp_path)
    assert found == {"frames": 1, "sizes": 1, "moved": 0, "clipped": 0}, found
