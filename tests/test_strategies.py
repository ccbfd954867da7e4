"""Strategies: legal play, seat independence of the tiles, greedy's valuation, strength."""

import math

import pytest

from sim.errors import InputError
from sim.game import Game
from sim.play import play
from sim.rules import Rules
from strategies import make, player


def test_never_an_illegal_choice_over_hundreds_of_games():
    # Game.apply raises IllegalMove for anything not offered
    for seed in range(150):
        specs = ["greedy", "random", "first", "greedy(city=1.0,follower=0.5)"]
        seats = [player(specs[(seed + s) % 4]) for s in range(2 + seed % 3)]
        g = play(Game(Rules(players=len(seats)), seed), seats)
        # every tile of the stack was drawn: placed (start tile aside) or discarded
        drawn = sum(e["e"] in ("place", "discard") for e in g.events)
        assert g.tiles_left == 0 and drawn == 71


def test_swapped_seats_draw_the_same_tiles():
    def tiles(a, b):
        g = play(Game(Rules(), 31), [player(a), player(b)])
        return [e["tile"] for e in g.events if e["e"] in ("draw", "discard")]
    assert tiles("greedy", "random") == tiles("random", "greedy")


def values(stack):
    """greedy's value of each choice of the first place decision, as the C game works
    it out for a greedy seat (cc_game_policy_values)."""
    g = Game(Rules(), 0, stack=stack)
    vals = make("greedy").values(g)
    assert len(vals) == len(g.decision.choices)
    return g, dict(zip(g.decision.choices, vals))


def test_greedy_values_by_hand_last_tile():
    # E is the last tile: a follower costs nothing (2 × 0 tiles left / 1 in play).
    g, v = values(["E"])
    north = g.catalogue.variant(g.catalogue.index["E"], 2)
    city, farm = north.segment_at("city S"), north.segment_at("field Nw")
    assert v[(0, 1, 2, 0, city)] == 4.0  # completes D's city: 2 tiles × 2
    assert v[(0, 1, 2, 0, farm)] == 3.0  # farmer next to that completed city: 3 × 1
    assert v[(0, 1, 2, -1, -1)] == 0.0  # completed, but nobody holds it
    assert max(v.values()) == 4.0


def test_greedy_values_by_hand_with_a_tile_left():
    # One tile left after E, two in play: a follower costs 2 × 1/2 = 1 point.
    g, v = values(["E", "U"])
    north = g.catalogue.variant(g.catalogue.index["E"], 2)
    south = g.catalogue.variant(g.catalogue.index["E"], 1)
    assert v[(0, 1, 2, 0, north.segment_at("city S"))] == 4.0  # comes back at once: no cost
    assert v[(0, 1, 2, 0, north.segment_at("field Nw"))] == 2.0  # 3 - 1
    assert v[(0, -1, 1, 0, south.segment_at("city E"))] == 0.5  # open 1-tile city: 1.5 × 1 - 1
    assert v[(0, -1, 1, 0, south.segment_at("field Nw"))] == -1.0  # no completed city: 0 - 1


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_greedy_beats_random():
    """200 seeded games, each seat order played: greedy's win share and its 95% interval."""
    wins, n = 0.0, 0
    for seed in range(100):
        for order in (("greedy", "random"), ("random", "greedy")):
            seats = [player(p) for p in order]
            res = Game(Rules(), seed, seats, record=False).result()  # every seat in C
            g = order.index("greedy")
            wins += (g in res["winners"]) / len(res["winners"])
            n += 1
    low, high = wilson(wins, n)
    assert low > 0.95, (wins, n, low, high)


@pytest.mark.parametrize("spec, message", [
    ("bogus", "unknown strategy 'bogus'"),
    ("greedy(speed=2.0)", "greedy: unknown parameter 'speed'"),
    ("greedy(city=\"x\")", "greedy.city = 'x': expected float"),
    ("random(city=1.0)", "random: unknown parameter 'city': expected no parameters"),
    ("greedy(city=2.0", "expected <strategy>(<key>=<value>,…)"),
])
def test_bad_strategy_specs(spec, message):
    with pytest.raises(InputError) as err:
        player(spec, "--players")
    assert message in str(err.value)
