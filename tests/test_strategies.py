"""Strategies: legal play, seat independence of the tiles, greedy's valuation, strength."""

import math

import pytest

from sim.errors import InputError
from sim.engine.game import Game
from sim.engine.play import play
from sim.engine.rules import Rules
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


def test_a_built_in_policy_cannot_be_changed_once_built():
    """sim/engine/seats.py keeps the C policy that `choose` and `values` ask with per policy
    object: a weight changed afterwards was played by a seat built from the object but
    not by its own `values` (the stale cache). Its parameters are fixed when it is built."""
    g, _ = values(["E", "U"])
    greedy = make("greedy")
    assert set(vars(greedy)) == {"open_weight", "opponent", "follower", "courier", "road_figure",
                                 "extra", "overrides"}  # its parameters only, no build-time flag
    before = greedy.values(g)  # the C policy is now kept for this object
    for name, value in (("follower", 50.0), ("open_weight", (0.0,) * 4), ("opponent", 0.0),
                        ("overrides", ()), ("new", 1)):
        with pytest.raises(TypeError, match=rf"greedy\.{name}: .*fixed.*build a new one"):
            setattr(greedy, name, value)
    with pytest.raises(TypeError, match=r"greedy\.follower"):
        del greedy.follower
    assert greedy.follower == 2.0 and greedy.values(g) == before
    # what a new one is for: a follower costs 50 × 1/2 (one tile left of two in play)
    farm = g.catalogue.variant(g.catalogue.index["E"], 2).segment_at("field Nw")
    row = g.decision.choices.index((0, 1, 2, 0, farm))
    assert before[row] == 2.0 and make("greedy", {"follower": 50.0}).values(g)[row] == 3.0 - 25.0
    from strategies import REGISTRY, BuiltIn
    for name, cls in REGISTRY.items():
        if issubclass(cls, BuiltIn):
            with pytest.raises(TypeError, match=rf"{name}\.x: "):
                make(name).x = 1


def test_a_subclass_of_a_built_in_sets_its_own_attributes_while_it_is_built():
    from strategies.greedy import Greedy

    class Careful(Greedy):
        def __init__(self):
            super().__init__(follower=0.5)
            self.note = "after the parent's __init__"

    c = Careful()
    assert (c.note, c.follower, c.open_weight) == ("after the parent's __init__", 0.5, (1.5, 1.0, 1.0, 1.0))
    with pytest.raises(TypeError, match=r"greedy\.note"):
        c.note = "later"


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


def test_greedy_weights_reach_the_c_valuation():
    # The open 1-tile city of test_greedy_values_by_hand_with_a_tile_left, city weighted
    # 3.0: 3 × 1 − 1 (the follower's cost) = 2; the farmer by the completed city keeps 3 − 1
    # (a field's weight multiplies it: field 2.0 gives 6 − 1).
    g = Game(Rules(), 0, stack=["E", "U"])
    south = g.catalogue.variant(g.catalogue.index["E"], 1)
    north = g.catalogue.variant(g.catalogue.index["E"], 2)
    for spec, row, want in (("greedy(city=3.0)", (0, -1, 1, 0, south.segment_at("city E")), 2.0),
                            ("greedy(field=2.0)", (0, 1, 2, 0, north.segment_at("field Nw")), 5.0),
                            ("greedy(follower=0.0)", (0, 1, 2, 0, north.segment_at("field Nw")), 3.0)):
        from strategies import parse_policy

        v = dict(zip(g.decision.choices, parse_policy(spec, "test").values(g)))
        assert v[row] == want, spec


def _decisions(rules, kind, games=40, spec="greedy+messages=random+scoring_figure=random"):
    """(game, decision) at every decision of `kind` over seeded games (a copy of each
    game at it, so a policy can be asked there)."""
    seats = [player(spec)] * rules.players
    for seed in range(games):
        g = Game(rules, seed)
        while g.decision is not None:
            d = g.decision
            if d.kind == kind:
                yield g.clone(), d
            g.apply(seats[d.seat].choose(g, d))


@pytest.mark.parametrize("edition", ["classic", "c3.1"])
def test_message_policies_and_their_overrides_by_hand(edition):
    """R-MSG-8 at every message drawn in 40 greedy games: the action's best way is the
    choice with the most immediate points (the first of equals; an extra tile or turn
    has none). always_action takes it when possible, always_2 never; greedy takes it
    when it gives at least 2 points, an extra tile or turn counting `extra` (3.0: yes;
    1.0: no); an override "2" or "action" decides that action whatever the policy."""
    from sim.expansions.messages import MessagesOptions
    from strategies import parse_policy

    extra = "extra_tile" if edition == "classic" else "extra_turn"
    other = "extra_turn" if edition == "classic" else "extra_tile"  # the other edition's name
    specs = ["always_action", "always_2", "greedy", "greedy(extra=1.0)", f"greedy({other}=\"2\")",
             f"always_action({extra}=\"2\",smallest_city=\"2\")",
             f"always_2({extra}=\"action\",per_knight=\"action\")", f"greedy(extra=1.0,{extra}=\"action\")"]
    policies = {s: parse_policy(s, "test") for s in specs}
    seen = set()
    for g, d in _decisions(Rules(expansions=("messages",), messages=MessagesOptions(edition)), "messages"):
        two = ("2", None)
        ways = [(c, p) for c, p in zip(d.choices, d.info["points"]) if c != two]
        best = None
        for c, p in ways:  # the most points, the first of equals; None is below any
            if best is None or (-1 if p is None else p) > (-1 if best[1] is None else best[1]):
                best = (c, p)
        action = d.info["action"]
        for spec, policy in policies.items():
            how = dict(getattr(policy, "overrides", ())).get(action)
            if best is None or how == "2":
                want = two
            elif how == "action" or spec.startswith("always_action"):
                want = best[0]
            elif spec.startswith("greedy"):
                worth = policy.extra if best[1] is None else best[1]
                want = best[0] if worth >= 2 else two
            else:
                want = two
            assert policy.choose(g, d, None) == want, (spec, d)
            seen.add((spec, want == two))
        seen.add(("extra", action == extra and best is not None))
    assert ("extra", True) in seen and all((s, True) in seen and (s, False) in seen
                                           for s in specs if s != "always_2" and s != "always_action")


PRIOR = (0.093, 0.095, 0.165, 0.169, 0.479)  # strategies/messages.py coverage's prior


def _chance(a: int, b: int) -> float:
    return sum(p for k, p in enumerate(PRIOR) if (a + k) % 5 == 0 or (b + k) % 5 == 0)


@pytest.mark.parametrize("edition", ["classic", "c3.1"])
def test_scoring_figure_policies_by_hand(edition):
    """R-MSG-C1 / R-MSG-N1 at every scoring-figure decision of 40 greedy games, each
    policy by its documented rule (strategies/messages.py): a figure landing on a dark
    space (a multiple of 5) first for dark_seeker, spread and coverage (greedy plays
    dark_seeker); else the meeple, spread's messenger when the meeple would land on the
    messenger's residue, coverage's messenger when that gives the next award the better
    chance of a dark space; meeple_only always, alternate by the seat's moves so far."""
    from sim.expansions.messages import MessagesOptions
    from sim.engine.view import view_of
    from strategies import make

    count = 0
    for g, d in _decisions(Rules(expansions=("messages",), messages=MessagesOptions(edition)),
                           "scoring_figure"):
        points, (m, s) = d.info["points"], d.info["positions"]
        dark = "meeple" if (m + points) % 5 == 0 else "messenger" if (s + points) % 5 == 0 else None
        moves = sum(view_of(g).messages.seats[d.seat].moves)
        want = {"meeple_only": "meeple", "alternate": ("meeple", "messenger")[moves % 2],
                "dark_seeker": dark or "meeple", "greedy": dark or "meeple",
                "spread": dark or ("messenger" if (m + points) % 5 == s % 5 else "meeple"),
                "coverage": dark or ("messenger" if _chance(m, s + points) > _chance(m + points, s)
                                     else "meeple")}
        for name, figure in want.items():
            assert make(name).choose(g, d, None) == figure, (name, d.info)
        count += dark is None and want["coverage"] == "messenger"
    assert count > 0  # coverage's prior decided some moves
