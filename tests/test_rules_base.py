"""Base-game rulings R-BASE-1..10, each with outcomes worked out by hand.

The scenarios are scripts in tests/scripts/; each file's comment shows the arithmetic.
"""

from pathlib import Path

import pytest

from sim.expansions import base as scoreboard
from sim.engine.board import majority
from sim.errors import IllegalMove, InputError
from engine import new_game
from sim.engine.play import play
from strategies import player
from sim.engine.rules import Rules
from engine import play_script
from sim.games.script import load_script

SCRIPTS = Path(__file__).resolve().parent / "scripts"


def run(name: str):
    return play_script(load_script(SCRIPTS / f"{name}.toml"))


def points(game, seat: int) -> dict:
    return {k: v for k, v in game.points[seat].items() if v}


def scored(game) -> list[tuple]:
    return [(e["feature"], e["points"], e["winners"], e["final"]) for e in game.events
            if e["e"] == "score"]


def test_r_base_1_players_and_followers():
    # R-BASE-1: 2-6 players, 7 followers each
    for n in range(2, 7):
        g = new_game(Rules(players=n), 1)
        assert g.supply == [7] * n
    for bad in (1, 7):
        with pytest.raises(InputError, match="players = .*expected a whole number 2..6"):
            Rules(players=bad)


def test_r_base_1_no_follower_left_means_no_figure_choice():
    # R-BASE-1/4: with the supply empty the figure decision is not offered at all
    g = new_game(Rules(followers=0), 5)
    while g.decision is not None:
        assert g.decision.kind == "place"
        g.apply(g.decision.choices[0])
    assert not [e for e in g.events if e["e"] == "figure"]


def test_r_base_2_setup():
    # R-BASE-2: start tile D at (0, 0) rotation 0; 71 tiles shuffled by the seed
    g = new_game(Rules(), 11)
    assert g.board.tiles() == [(g.catalogue.index["D"], 0, 0, 0)]
    assert g.events[0] == {"e": "start", "turn": 0, "tile": "D", "at": [0, 0], "rot": 0}
    assert g.tiles_left + 1 == 71  # one already drawn for turn 1

    def order(seed):  # the tiles in the order they are drawn
        g = play(new_game(Rules(), seed), [player("first")] * 2)
        return tuple(e["tile"] for e in g.events if e["e"] in ("draw", "discard"))

    orders = {order(s) for s in (1, 2, 3)}
    assert len(orders) == 3 and all(len(o) == 71 for o in orders)
    assert order(2) == order(2)


def test_r_base_3_placement_must_match_every_edge():
    # R-BASE-3: E next to the start tile fits 3 ways south and 1 way north only;
    # R-BASE-4: each with no figure, a knight or a farmer: 12 choices (tests/perft.txt)
    g = new_game(Rules(), 0, stack=["E"])
    assert sorted({c[:3] for c in g.decision.choices}) == [(0, -1, 1), (0, -1, 2), (0, -1, 3), (0, 1, 2)]
    assert len(g.decision.choices) == 12
    with pytest.raises(IllegalMove):
        g.apply((1, 0, 0, -1, -1))


def test_r_base_3_unplaceable_tile_is_discarded():
    # R-BASE-3: C fits nowhere after D's city is closed; it leaves the game
    g = run("discard")
    kinds = [(e["e"], e.get("tile")) for e in g.events if e["e"] in ("draw", "discard")]
    assert kinds == [("draw", "E"), ("discard", "C"), ("draw", "U")]
    assert len(g.board) == 3


def test_r_base_3_discard_must_be_listed_in_a_script(tmp_path):
    text = (SCRIPTS / "discard.toml").read_text().replace('discarded = ["C"]\n', "")
    # C is drawn for turn 2, fits nowhere, so the script's turn 2 has U instead
    script = tmp_path / "d.toml"
    script.write_text(text.replace('tile = "U"', 'tile = "C"\n'))
    with pytest.raises(InputError, match=r"turn 2: .*C fits nowhere"):
        play_script(load_script(script))
    script.write_text((SCRIPTS / "discard.toml").read_text().replace('["C"]', '["B"]'))
    with pytest.raises(InputError, match=r"turn 2: tile B is listed as discarded but fits"):
        play_script(load_script(script))


def test_r_base_4_follower_only_on_a_free_feature():
    # R-BASE-4: after seat 0's knight on G, the joined city is not offered to seat 1
    g = new_game(Rules(), 0, stack=["G", "N", "U"])
    g_tile = g.catalogue.variant(g.catalogue.index["G"], 1)
    assert [c for c in g.decision.choices if c[:3] == (0, 1, 1)] == [
        (0, 1, 1, -1, -1), (0, 1, 1, 0, 0), (0, 1, 1, 0, 1), (0, 1, 1, 0, 2)]
    g.apply((0, 1, 1, 0, g_tile.segment_at("city N")))  # G band N-S on D's cap
    n_tile = g.catalogue.variant(g.catalogue.index["N"], 2)
    offered = [c[4] for c in g.decision.choices if c[:3] == (0, 2, 2)]
    assert n_tile.segment_at("city S") not in offered
    assert n_tile.segment_at("field Wn") in offered


def test_r_base_5_6_city_with_coat_completed_by_opponent():
    g = run("city_coats")
    assert scored(g) == [("city", 8, [0], False)]
    assert g.scores == [8, 0] and points(g, 0) == {"city": 8}
    assert g.supply == [7, 7]  # R-BASE-7: the knight went back


def test_r_base_5_6_road_and_incomplete_monastery():
    g = run("road_monastery")
    assert scored(g) == [("road", 3, [0], False), ("monastery", 2, [1], True)]
    assert g.scores == [3, 2]


def test_r_base_5_6_road_loop():
    g = run("road_loop")
    assert scored(g) == [("road", 4, [0], False)]


def test_r_base_6_tile_counts_once_per_feature():
    g = run("village_loop")
    assert scored(g) == [("road", 4, [0], False)]
    two_caps = run("two_caps_one_city")
    assert scored(two_caps) == [("city", 8, [0], False)]


def test_r_base_5_6_monastery_completed():
    g = run("monastery_complete")
    assert scored(g) == [("monastery", 9, [0], False)]
    assert [e["turn"] for e in g.events if e["e"] == "score"] == [8]


def test_r_base_7_shared_majority():
    g = run("shared_city")
    assert scored(g) == [("city", 10, [0, 1], False)]
    assert g.scores == [10, 10]
    assert g.result()["winners"] == [0, 1]


def test_r_base_7_majority_rule():
    # R-BASE-7 (and R-MM-4 for strength 0): greatest strength wins, ties share
    assert majority((2, 1), (2, 1)) == [0]
    assert majority((1, 1, 0), (1, 1, 0)) == [0, 1]
    assert majority((0, 0), (0, 0)) == []
    assert majority((1, 1), (0, 0)) == [0, 1]
    assert majority((1, 2), (0, 1)) == [1]
    assert majority((0, 3, 0, 1, 0, 2), (0, 0, 0, 1, 0, 1)) == [3, 5]  # 6 seats, strength 0 loses
    for bad in (((1, -1), (1, 1)), ((1,), (70000,)), ((), ())):  # refused, not wrapped
        with pytest.raises(ValueError, match="cc_majority"):
            majority(*bad)


def test_r_base_8_field_bordering_two_cities():
    g = run("field_two_cities")
    assert scored(g) == [("city", 4, [], False), ("city", 4, [1], False), ("field", 6, [0], True)]
    assert g.scores == [6, 4]


def test_r_base_8_city_bordering_two_fields():
    g = run("city_two_fields")
    assert sorted(scored(g)) == [("city", 4, [], False), ("field", 3, [0], True), ("field", 3, [1], True)]
    assert g.scores == [3, 3]


def test_r_base_8_incomplete_features_at_the_end():
    g = run("incomplete_end")
    assert sorted(scored(g)) == [("city", 3, [0], True), ("monastery", 3, [0], True),
                                 ("road", 2, [1], True)]
    assert g.scores == [6, 2]
    assert points(g, 0) == {"city": 3, "monastery": 3}


def test_r_base_9_result_ranks_and_shared_win():
    g = run("shared_city")
    res = g.result()
    assert [p["rank"] for p in res["players"]] == [1, 1]
    g = run("incomplete_end")
    assert g.result()["winners"] == [0]
    assert [p["rank"] for p in g.result()["players"]] == [1, 2]


def test_r_base_10_scoreboard_spaces():
    # R-BASE-10: 50 spaces, dark every 5, wrapping past 49
    assert scoreboard.space(49) == 49 and scoreboard.space(50) == 0 and scoreboard.space(123) == 23
    assert [t for t in range(0, 56) if scoreboard.is_dark(t)] == [0, 5, 10, 15, 20, 25, 30, 35,
                                                                  40, 45, 50, 55]
    assert not scoreboard.is_dark(51)


def test_r_base_10_no_points_event_for_zero():
    # R-BASE-10: a figure moves only by more than 0 points; a 0-point field is logged
    # as scored but moves nobody
    g = new_game(Rules(), 0, stack=["U"])
    u = g.catalogue.variant(g.catalogue.index["U"], 0)
    g.apply((1, 0, 0, 0, u.segment_at("field Nw")))
    assert [e for e in g.events if e["e"] == "score"][0]["points"] == 0
    assert not [e for e in g.events if e["e"] == "points"]
