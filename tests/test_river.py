"""The River: rulings R-RIV-1..3 with placements counted by hand."""

import pytest

from sim.engine.board import MAX_SEGS, Board, Catalogue
from sim.errors import InputError
from engine import new_game
from sim.engine.view import view_of
from sim.engine.deal import stack_plan
from sim.engine.play import play
from sim.engine.rules import Rules
from engine import play_script
from sim.games.script import load_script
from sim.formats.tiles import tile_set
from strategies import player

RIVER = Rules(expansions=("river",))


def placements(g):
    return sorted({c[:3] for c in g.decision.choices}, key=lambda p: (p[1], p[0], p[2]))


def test_r_riv_1_setup():
    start, river, lake, land = stack_plan(RIVER)
    assert start.id == "RA" and lake == ["RL"]
    assert sorted(river) == ["RB", "RC", "RD", "RE", "RF", "RG", "RH", "RI", "RJ", "RK"]
    assert land.count("D") == 4 and len(land) == 72  # the usual start tile is a land tile
    g = new_game(RIVER, 9)
    assert g.board.tiles()[0][2:] == (0, 0) and g.events[0]["tile"] == "RA"
    draws = [e["tile"] for e in play(g, [player("random")] * 2).events if e["e"] == "draw"]
    assert sorted(draws[:10]) == sorted(river) and draws[10] == "RL"  # river first, lake last
    assert all(t[0] != "R" or len(t) == 1 for t in draws[11:])  # then land tiles only


def test_r_riv_2_counted_placements_after_the_spring():
    # the spring RA leaves the river open to the east of 0,0
    g = new_game(RIVER, 0, stack=["RD"])
    assert placements(g) == [(1, 0, 0)]  # the straight, only where it continues the river
    g = new_game(RIVER, 0, stack=["RG"])
    assert placements(g) == [(1, 0, 0), (1, 0, 1)]  # the curve turning right or left
    # figures may stand on a river tile's fields, never on the river: RD r0 has two
    assert sorted(c[4] for c in new_game(RIVER, 0, stack=["RD"]).decision.choices) == [-1, 0, 1]


def test_r_riv_2_no_u_turn():
    g = new_game(RIVER, 0, stack=["RG", "RJ", "RD"])
    g.apply((1, 0, 0, -1, -1))  # RG r0: from the west, out to the south: a right turn
    # RJ at 1,-1: r1 would turn right again (out to the west): refused; r2 turns left
    assert placements(g) == [(1, -1, 2)]
    assert (1, -1, 1, -1, -1) not in g.decision.choices
    g.apply((1, -1, 2, -1, -1))
    assert view_of(g).river.end == (1, -1, 1)


def test_r_riv_3_the_river_separates_fields():
    # two straights joined on a bare board: the fields north and south of the river
    # stay apart, each one field across both tiles (on a real board the spring's and
    # the lake's single field, which surrounds the source and the lake, joins them)
    cat = Catalogue(tile_set("river"))
    b = Board(cat, 4)
    b.place(cat.index["RD"], 0, 0, 0)
    b.place(cat.index["RF"], 1, 0, 0)
    rd, rf = cat.variant(cat.index["RD"], 0), cat.variant(cat.index["RF"], 0)
    north = {b.find(0 * MAX_SEGS + rd.segment_at("field Nw")), b.find(MAX_SEGS + rf.segment_at("field Nw"))}
    south = {b.find(0 * MAX_SEGS + rd.segment_at("field Sw")), b.find(MAX_SEGS + rf.segment_at("field Sw"))}
    assert len(north) == 1 and len(south) == 1 and north != south
    assert b.feature(next(iter(north))).tiles == 2
    # Messengers & Mayors' river tile joins the field north of its city across the river
    mmr = next(t for t in tile_set("mayors") if t.id == "MMR")
    assert mmr.segment_at("field Nw") == mmr.segment_at("field Ne")
    assert mmr.segment_at("field Sw") != mmr.segment_at("field Se")


@pytest.mark.parametrize("spec", ["random", "greedy", "first"])
def test_river_games_always_place_the_river_and_end(spec):
    for seed in range(60):
        g = play(new_game(Rules(players=2 + seed % 3, expansions=("river", "messages")), seed),
                 [player(spec)] * (2 + seed % 3))
        placed = [e["tile"] for e in g.events if e["e"] == "place"]
        assert placed[:11].count("RL") == 1 and placed[10] == "RL"
        assert view_of(g).river.end is None and g.over


def write_script(tmp_path, expansions, turns):
    body = "".join(f"[[turns]]\n{t}\n" for t in turns)
    path = tmp_path / "river.toml"
    path.write_text(f"[rules]\nexpansions = {list(expansions)!r}\n\n{body}".replace("'", '"'))
    return load_script(path)


def test_r_riv_2_a_river_tile_away_from_the_open_end_is_named_so(tmp_path):
    # the spring at 0,0 leaves the river open to the east: RD must go at 1,0
    script = write_script(tmp_path, ["river"], ['tile = "RD"\nat = [0, -1]\nrotation = 1'])
    with pytest.raises(InputError, match=r"turn 1: river tile RD at \(0, -1\) is away from the "
                                         r"river's open end: it must go at \(1, 0\) \(R-RIV-2\)"):
        play_script(script)


def test_r_riv_2_no_town_hall_when_a_scripted_stack_ends_mid_river(tmp_path):
    script = write_script(tmp_path, ["river", "mayors"],
                          ['tile = "RD"\nat = [1, 0]', 'tile = "townhall"\nat = [0, 1]'])
    with pytest.raises(InputError, match=r"turn 2: town hall: .*while the river is being laid"):
        play_script(script)
