"""[rules.tiles]: a tile set replaced by a tile list of the user's (TILES.md R-MM-0: "a
configuration may replace it with any tile list"). The list's text is part of the
rules, the run's identity and its records' ruleset, and travels with the run, so a run
reads, reports and replays without the file."""

import hashlib
import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from sim.engine.deal import stack_tiles
from sim.engine.game import Game
from sim.engine.rules import Rules
from sim.errors import InputError
from sim.tournament.config import parse_experiment
from sim.tournament.run import run_experiment
from cli_here import carcsim

SHIPPED = resources.files("sim").joinpath("data", "tiles", "mayors.tiles").read_text()
MORE = SHIPPED.replace("MM05 x1", "MM05 x3")  # two more copies of the four-road monastery

CONFIG = """
[run]
name = "own_tiles"
seed = 3
blocks = 4
shard_blocks = 2

[rules]
expansions = ["mayors"]
{tiles}

[design]
kind = "rotations"
seats = ["greedy", "random"]
"""


def config(tiles='[rules.tiles]\nmayors = "mine.tiles"') -> str:
    return CONFIG.format(tiles=tiles)


@pytest.fixture
def here(tmp_path, monkeypatch):
    (tmp_path / "mine.tiles").write_text(MORE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_list_replaces_the_set_in_the_stack_and_the_games():
    shipped, mine = Rules(expansions=("mayors",)), Rules(expansions=("mayors",), tiles={"mayors": MORE})
    _, a = stack_tiles(shipped)
    _, b = stack_tiles(mine)
    assert b.count("MM05") == 3 and a.count("MM05") == 1
    assert sorted(b) == sorted(a + ["MM05", "MM05"])
    # every tile of the longer stack is drawn: two more tile turns in a seeded game
    for seed in (1, 2):
        g, h = Game(shipped, seed), Game(mine, seed)
        for game in (g, h):
            while game.decision is not None:
                game.apply(game.decision.choices[0])
        placed = lambda game: sum(e["e"] in ("place", "discard") for e in game.events)  # noqa: E731
        assert placed(h) - placed(g) == 2


def test_the_ruleset_marks_a_replaced_set_by_its_text():
    normal = "".join(f"{x}\n" for x in (line.split("#")[0].strip() for line in MORE.splitlines()) if x)
    mark = hashlib.sha256(normal.encode()).hexdigest()[:8]
    assert Rules(expansions=("mayors",), tiles={"mayors": MORE}).ruleset == f"base-1+mayors-1(tiles={mark})"
    assert Rules(expansions=("mayors",)).ruleset == "base-1+mayors-1"


def test_identity_is_the_text_not_the_path(here):
    (here / "copy.tiles").write_text(MORE)
    a = parse_experiment(config(), "own.toml")
    b = parse_experiment(config('[rules.tiles]\nmayors = "copy.tiles"'), "own.toml")
    plain = parse_experiment(config(""), "own.toml")
    assert a.fingerprint() == b.fingerprint() != plain.fingerprint()
    lines = [line.split("#")[0].strip() for line in MORE.splitlines()]
    assert a.canonical()["rules"]["tiles"] == {"mayors": "".join(f"{x}\n" for x in lines if x)}
    assert "tiles" not in plain.canonical()["rules"]  # the shipped sets keep their identity
    # the same tiles written otherwise (comments, spacing, line ends) are the same tile list
    (here / "other.tiles").write_text("# mine\r\n" + MORE.replace(" x3 ", "  x3   ").replace("\n", "\r\n"))
    c = parse_experiment(config('[rules.tiles]\nmayors = "other.tiles"'), "own.toml")
    assert c.fingerprint() == a.fingerprint() and c.rules.ruleset == a.rules.ruleset
    # a copy of the shipped set is the shipped set: the rules as written
    (here / "same.tiles").write_text("# a copy\n" + SHIPPED)
    d = parse_experiment(config('[rules.tiles]\nmayors = "same.tiles"'), "own.toml")
    assert d.fingerprint() == plain.fingerprint() and d.rules.ruleset == "base-1+mayors-1"


@pytest.mark.parametrize("tiles, text, expect", [
    ('[rules.tiles]\nriver = "mine.tiles"', None,
     "rules.tiles.river: not a tile set of these rules: expected one of base, mayors"),
    ('[rules.tiles]\nmoon = "mine.tiles"', None,
     "rules.tiles.moon: unknown tile set: expected one of base, river, mayors, courier, abbot"),
    ('[rules.tiles]\nmayors = "gone.tiles"', None, "rules.tiles.mayors: gone.tiles: cannot read tile file"),
    ('[rules.tiles]\nmayors = 3', None, "rules.tiles.mayors = 3: expected the path of a tile file"),
    ('[rules.tiles]\nmayors = "bad.tiles"', "MM01 x1 CCCC C:NESW R:- F:- X:-\nMM02 x0 CCCC C:NESW R:- F:- X:-\n",
     "rules.tiles.mayors: bad.tiles:2: count 'x0': expected x1..x99"),
    ('[rules.tiles]\nmayors = "bad.tiles"', "A x1 CCCC C:NESW R:- F:- X:-\n",
     "rules.tiles: tile A (the tile list of rules.tiles.mayors): also in tile set base"),
    ('[rules.tiles]\nbase = "bad.tiles"', "A2 x1 CCCC C:NESW R:- F:- X:-\n",
     "rules.tiles: tile sets base, mayors: expected exactly one start tile"),
    ('[rules.tiles]\nmayors = "bad.tiles"', "".join(f"Q{i} x99 CCCC C:NESW R:- F:- X:-\n" for i in range(31)),
     "rules.tiles: 3,140 tiles in the stack: expected at most 3,000"),
])
def test_a_tile_list_that_cannot_make_a_game_is_refused_in_one_line(here, tiles, text, expect):
    if text is not None:
        (here / "bad.tiles").write_text(text)
    with pytest.raises(InputError) as e:
        parse_experiment(config(tiles), "own.toml")
    assert str(e.value).startswith("own.toml: ") and expect in str(e.value) and "\n" not in str(e.value)


def test_a_run_reads_reports_and_replays_without_the_file(here):
    exp = parse_experiment(config(), "own.toml")
    (here / "own.toml").write_text(config())
    run_experiment(exp, here / "out", workers=0)
    (here / "mine.tiles").unlink()
    # a fresh process: nothing of this one's caches
    code = ("import sys; from sim.cli.main import main; sys.argv = ['carcsim', *sys.argv[1:]]; main()")
    report = subprocess.run([sys.executable, "-c", code, "report", "out"], cwd=here,
                            capture_output=True, text=True)
    assert report.returncode == 0, report.stderr
    replay = carcsim("replay", "out", "5", "--json")
    assert replay.returncode == 0 and json.loads(replay.stdout)["equal"], replay.stderr
    # another text under the same name: a different run, refused naming the key
    (here / "mine.tiles").write_text(SHIPPED.replace("MM05 x1", "MM05 x2"))
    again = carcsim("run", "own.toml", "--out", "out", "--workers", "0")
    assert again.returncode == 2 and "rules.tiles.mayors is the tile list " in again.stderr


# a base game of other counts and two new shapes: a city cap with a road ending in it,
# and a four-way crossing of two separate roads under a bridge (C-shaped geometry the
# shipped sets lack), checked by both engines at every decision
OWN_BASE = (resources.files("sim").joinpath("data", "tiles", "base.tiles").read_text()
            .replace("C x1 CCCC", "C x3 CCCC").replace("X x1 RRRR", "X x4 RRRR")
            + "Z1 x4 CRFF C:N R:E>c F:En/N;Es,Se,Sw,Ws,Wn/N X:-\n"
            + "Z2 x3 RRRR C:- R:N-S;E-W F:Nw,Wn/-;Ne,En/-;Es,Se/-;Sw,Ws/- X:bridge\n")


def test_both_engines_play_a_tile_list_decision_for_decision():
    from sim.games.differential import check_many, plan

    tiles = {"base": OWN_BASE, "mayors": MORE}
    summary = check_many(plan(24, expansions=("messages", "mayors"), players=(2, 4), tiles=tiles))
    assert summary.divergence is None and summary.games == 24 and summary.decisions > 2000
    assert sum(1 for _ in plan(1, tiles=tiles)) == 1  # base only: the mayors list is left out


def test_the_harness_sees_a_reference_that_ignores_the_tile_list(monkeypatch):
    """The reference reads the list itself; one that read the shipped set instead is a
    divergence at the first check (its stack differs), so the harness does compare the
    tiles the production game plays."""
    from sim.games import differential
    from sim.reference import game as ref_game

    real = ref_game.tile_types
    monkeypatch.setattr(ref_game, "tile_types", lambda sets, given=None: real(sets))
    rules = Rules(expansions=("mayors",), tiles={"mayors": MORE})
    _, div = differential.check_game(rules, 5, ["greedy", "random"])
    assert div is not None


def test_check_takes_tile_lists_and_refuses_bad_ones(here):
    ok = carcsim("check", "--games", "6", "--expansions", "mayors", "--tiles", "mayors=mine.tiles")
    assert ok.returncode == 0 and "6 games, 0 divergences" in ok.stdout, ok.stderr
    for args, expect in (
            (["--tiles", "moon=mine.tiles"], "--tiles 'moon=mine.tiles': expected SET=FILE"),
            (["--expansions", "messages", "--tiles", "mayors=mine.tiles"],
             "--tiles mayors: the tile set is not in play with --expansions messages"),
            (["--tiles", "base=gone.tiles"], "--tiles base: gone.tiles: cannot read tile file")):
        r = carcsim("check", "--games", "2", *args)
        assert r.returncode == 2 and expect in r.stderr, r.stderr


def test_a_divergence_with_tile_lists_writes_them_beside_its_script(here, monkeypatch):
    """A planted reference bug in a game of a base tile list with new shapes: the
    scripted game names the list, written beside it, and replays the divergence."""
    from sim.reference import scoring as ref_scoring

    (here / "base.tiles").write_text(OWN_BASE)
    (here / "div").mkdir()
    real = ref_scoring.value
    monkeypatch.setattr(ref_scoring, "value", lambda board, f, final: real(board, f, final)
                        + (f.kind == "city" and not final))  # a city 1 point too many
    r = carcsim("check", "--games", "5", "--expansions", "base", "--players", "2", "--out", "div",
                "--tiles", "base=base.tiles")
    assert r.returncode == 1 and "(replays the divergence)" in r.stdout, r.stdout + r.stderr
    names = sorted(p.name for p in (here / "div").iterdir())
    assert len(names) == 2 and names[0].endswith("-base.tiles") and names[1].endswith(".toml")
    assert (here / "div" / names[0]).read_text().split() == " ".join(
        x.split("#")[0] for x in OWN_BASE.splitlines()).split()  # its tiles, in their normal form
    assert f'[rules.tiles]\nbase = "div/{names[0]}"' in (here / "div" / names[1]).read_text()


SCRIPT = """
[rules]
players = 2
{tiles}

[[turns]]
tile = "Z1"
at = [0, 1]
rotation = 2
figure = "follower road W"
"""


def test_a_scripted_game_plays_a_tile_list(here):
    """Z1 turned twice has its city south, on the start tile's city, and its road
    west, ending at the city's gate: a one-tile open road, 1 point at the end (R-BASE-8)."""
    from sim.games.differential import check_script
    from sim.games.script import load_script, play_script

    (here / "base.tiles").write_text(OWN_BASE)
    (here / "s.toml").write_text(SCRIPT.format(tiles='[rules.tiles]\nbase = "base.tiles"'))
    game = play_script(load_script(here / "s.toml"))
    assert [p["score"] for p in game.result()["players"]] == [1, 0]
    compared, div = check_script(here / "s.toml")
    assert div is None and compared >= 1
    (here / "plain.toml").write_text(SCRIPT.format(tiles=""))
    with pytest.raises(InputError, match="turn 1: unknown tile id 'Z1'"):
        play_script(load_script(here / "plain.toml"))
    (here / "bad.toml").write_text(SCRIPT.format(tiles='[rules.tiles]\nmayors = "base.tiles"'))
    with pytest.raises(InputError, match="rules.tiles.mayors: not a tile set of these rules"):
        load_script(here / "bad.toml")


RIVER = resources.files("sim").joinpath("data", "tiles", "river.tiles").read_text()
BASE = resources.files("sim").joinpath("data", "tiles", "base.tiles").read_text()


@pytest.mark.parametrize("sets, expect", [
    # R-RIV-1: the river stack starts at one spring and ends at one lake
    ({"river": "U2 x3 FRFR C:- R:E-W F:Wn,Nw,Ne,En/-;Es,Se,Sw,Ws/- X:-\n"},
     "expected exactly one spring tile among the river tiles (R-RIV-1)"),
    ({"river": RIVER.replace("RL x1", "RL x3")}, "expected one spring and one lake tile, one copy each (R-RIV-1)"),
    ({"river": RIVER.replace("RA x1", "RA x2")}, "expected one spring and one lake tile, one copy each (R-RIV-1)"),
    ({"river": "\n".join(x for x in RIVER.splitlines() if not x.startswith("RL "))},
     "expected one spring and one lake tile, one copy each (R-RIV-1)"),
    # R-BASE-2 and R-ABB-1: a replaced tile keeps a copy to start with
    ({"base": BASE + "Dz x4 CRFR C:N R:E-W F:Wn,En/N;Es,Se,Sw,Ws/- X:replaces(D)\n"},
     "the start tile: every copy is replaced"),
    ({"base": BASE + "Zz x1 CRFR C:N R:E-W F:Wn,En/N;Es,Se,Sw,Ws/- X:replaces(Zz)\n"},
     "expected one replaces(<ID>) naming another tile's id"),
    ({"base": BASE + "Zz x1 CRFR C:N R:E-W F:Wn,En/N;Es,Se,Sw,Ws/- X:replaces()\n"},
     "expected one replaces(<ID>) naming another tile's id"),
    ({"base": BASE + "Zz x1 CRFR C:N R:E-W F:Wn,En/N;Es,Se,Sw,Ws/- X:replaces(A),replaces(B)\n"},
     "expected one replaces(<ID>) naming another tile's id"),
])
def test_a_river_or_replacement_that_cannot_start_a_game_is_refused(sets, expect):
    from sim.engine.deal import check_tiles

    with pytest.raises(InputError, match=expect.replace("(", r"\(").replace(")", r"\)")):
        check_tiles(Rules(expansions=("river",) if "river" in sets else (), tiles=sets))


def test_both_engines_take_a_copy_away_per_copy_of_a_replacing_tile():
    """Z x2 replaces(A): A's two copies both go (the reference took one away per tile)."""
    from sim.games.differential import check_many, plan

    own = BASE + "Zz x2 FFRF C:- R:S>m F:Nw,Ne,En,Es,Se,Sw,Ws,Wn/- X:mon,replaces(A)\n"
    _, stack = stack_tiles(Rules(tiles={"base": own}))
    assert stack.count("A") == 0 and stack.count("Zz") == 2
    assert check_many(plan(4, expansions=(), players=2, tiles={"base": own})).divergence is None


def test_a_sweep_reports_without_the_file(here):
    text = config().replace('kind = "rotations"', 'kind = "rotations"\nsweep = {knob = "farm_points", values = [2, 3]}')
    run_experiment(parse_experiment(text, "own.toml"), here / "swept", workers=0)
    (here / "mine.tiles").unlink()
    from sim.analysis.report import build
    assert build(here / "swept")["sweep"]


def test_a_copy_of_the_shipped_set_runs_as_the_shipped_set(here):
    """A file still holding the shipped tiles (just copied, not yet edited) is no
    replacement: the run stores no list for it and its manifest verifies."""
    (here / "mine.tiles").write_text("# copied, not edited yet\n" + SHIPPED)
    exp = parse_experiment(config(), "own.toml")
    assert exp.rules.tiles == ()
    run_experiment(exp, here / "copy", workers=0)
    from sim.analysis.report import build
    assert build(here / "copy")["provenance"]["config"]["rules"].get("tiles") is None


def test_compare_says_which_tiles_each_run_played(here):
    """A run of a tile list beside one of the shipped set pairs by seed; the note names
    the list by its mark and the other run's as the shipped sets (it printed a Python
    dict and None)."""
    from sim.analysis.compare import compare
    from sim.tournament.config import tiles_hash

    run_experiment(parse_experiment(config(), "own.toml"), here / "a", workers=0)
    run_experiment(parse_experiment(config(""), "own.toml"), here / "b", workers=0)
    notes = compare(here / "a", here / "b")["notes"]
    mark = tiles_hash(Rules(expansions=("mayors",), tiles={"mayors": MORE}).tiles[0][1])
    assert (f"note: rules.tiles differs: mayors = the tile list {mark} in A, the shipped tile sets "
            f"in B (blocks pair by seed, but their tiles differ") in "\n".join(notes)
