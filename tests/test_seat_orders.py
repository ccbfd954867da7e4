"""[design] seat_orders = "all": every table played under every permutation of its seats,
so at a table of three or more every pair sits both ways round and "A ahead of B" is a
test (sim/tournament/plan.py seat_orders, sim/analysis/balance.py Ahead)."""

from itertools import permutations

import polars as pl
import pytest

from sim.analysis.report import build
from sim.analysis.summary import load
from sim.errors import InputError
from sim.tournament import plan
from sim.tournament.config import parse_experiment
from sim.tournament.run import run_experiment

CONFIG = """
[run]
name = "orders"
seed = 21
blocks = {blocks}
shard_blocks = 4

[rules]
players = {players}

[design]
kind = "{kind}"
{orders}
{who}
"""


def exp_of(who, players=3, kind="rotations", orders='seat_orders = "all"', blocks=4):
    return parse_experiment(CONFIG.format(blocks=blocks, players=players, kind=kind, orders=orders,
                                          who=who), "orders.toml")


def test_all_orders_are_every_permutation_in_itertools_order():
    exp = exp_of('seats = ["greedy", "random", "greedy(city=2.0)"]')
    table = exp.seats
    games = plan.block_games(exp, 0)
    assert len(games) == 6 == plan.games_per_block(exp)
    for g, order in zip(games, permutations(range(3))):  # rotation r: the r-th permutation
        assert g.seats == tuple(table[order[s]] for s in range(3))
    assert [g.rotation for g in games] == list(range(6))
    rot = exp_of('seats = ["greedy", "random", "greedy(city=2.0)"]', orders="")
    # rotations: seat s plays the table's player (s + r) mod players, as before
    assert [g.seats for g in plan.block_games(rot, 0)] == [
        tuple(table[(s + r) % 3] for s in range(3)) for r in range(3)]
    assert {g.seats for g in plan.block_games(rot, 0)} < {g.seats for g in games}


def test_a_seat_order_that_replays_a_game_is_played_once():
    exp = exp_of('seats = ["greedy", "greedy", "random"]')
    assert sorted(g.seats for g in plan.block_games(exp, 0)) == [
        ("greedy", "greedy", "random"), ("greedy", "random", "greedy"), ("random", "greedy", "greedy")]
    four = exp_of('seats = ["greedy", "random", "greedy", "random"]', players=4)
    assert plan.games_per_block(four) == 6  # 4! / (2! 2!)


def test_the_focal_seat_follows_the_arm_in_every_order():
    exp = exp_of('arms = [{name = "a", player = "greedy(city=2.0)"}, {name = "b", player = "greedy"}]\n'
                 'opponents = ["random", "greedy(road=2.0)"]', kind="variants")
    games = plan.block_games(exp, 0)
    assert len(games) == 12  # 2 arms × 3! orders
    for g in games:
        arm = {"a": "greedy(city=2.0)", "b": "greedy"}[g.variant]
        assert [g.seats[s] for s in g.focal] == [arm] and g.seats.count(arm) == 1


def test_identity_and_refusals():
    spelt = exp_of('seats = ["greedy", "random", "greedy(city=2.0)"]', orders='seat_orders = "rotations"')
    left_out = exp_of('seats = ["greedy", "random", "greedy(city=2.0)"]', orders="")
    every = exp_of('seats = ["greedy", "random", "greedy(city=2.0)"]')
    # the default written out keeps the run's identity; "all" is another run
    assert spelt.fingerprint() == left_out.fingerprint() != every.fingerprint()
    assert every.canonical()["design"]["seat_orders"] == "all"
    with pytest.raises(InputError, match="a fixed design does not use it"):
        exp_of('seats = ["greedy", "random", "greedy"]', kind="fixed")
    with pytest.raises(InputError, match=r"6 players have 720 seat orders: expected at most 5"):
        exp_of('seats = ["greedy", "random", "greedy", "random", "greedy", "random"]', players=6)
    assert plan.games_per_block(exp_of('seats = ["greedy", "random", "greedy", "random", "random"]',
                                       players=5)) == 10  # 5! / (2! 3!)


def test_every_pair_is_seated_both_ways_round_and_tested(tmp_path):
    """With rotations of (greedy, random, greedy(city=2.0)) greedy always sits just
    before random, so "greedy ahead of random" is no test; with every order each pair
    meets at each seat distance equally and every share has a p. The games both designs
    play (same seats, same seed) are the same games: equal scores."""
    who = 'seats = ["greedy", "random", "greedy(city=2.0)"]'
    every, rot = exp_of(who, blocks=6), exp_of(who, orders="", blocks=6)
    run_experiment(every, tmp_path / "every", workers=0)
    run_experiment(rot, tmp_path / "rot", workers=0)
    a, r = build(tmp_path / "every"), build(tmp_path / "rot")
    assert all(x["balanced"] for x in a["ahead"]) and all(x["p"] is not None for x in a["ahead"]
                                                          if not x["identical"])
    assert not all(x["balanced"] for x in r["ahead"])
    meetings = {(x["player"], x["opponent"]): x["meetings"] for x in a["ahead"]}
    assert meetings[("greedy", "random")] == 6 * 6  # every game of every block
    # the same seating and seed play the same game in either design
    scores = []
    for name in ("every", "rot"):
        g = load(tmp_path / name, "games").select("game_id", "block", "rotation")
        p = load(tmp_path / name, "players").join(g, on="game_id")
        scores.append({(b, tuple(pl_ for pl_ in grp.sort("seat")["player"])): tuple(grp.sort("seat")["score"])
                       for (b, _), grp in p.group_by("block", "game_id")})
    shared = set(scores[0]) & set(scores[1])
    assert len(shared) == 6 * 3 and all(scores[0][k] == scores[1][k] for k in shared)


def test_at_two_players_every_order_is_the_rotations():
    """(0, 1) and (1, 0) are both orders and both rotations: one run, one identity."""
    rot = exp_of('seats = ["greedy", "random"]', players=2, orders="")
    every = exp_of('seats = ["greedy", "random"]', players=2)
    assert every.fingerprint() == rot.fingerprint() and every.seat_orders == "rotations"


def test_a_block_many_times_the_rotations_says_what_it_holds():
    """A round robin of a pool of 10 at 5 players: C(10, 5) = 252 tables, × 120 orders =
    30,240 games a block, × 5 rotations = 1,260 without; the note says so and that the
    block stays the unit (10 blocks: 9 degrees of freedom). At 3 players (6 orders
    against 3 rotations) and under the rotations there is none."""
    pool = [f'"greedy(city={1 + k / 10})"' for k in range(10)]
    five = exp_of(f"pool = [{', '.join(pool)}]", players=5, kind="round_robin", blocks=10)
    five = parse_experiment(five.source.replace("shard_blocks = 4", "shard_blocks = 1"), "orders.toml")
    assert plan.games_per_block(five) == 252 * 120 == 30_240
    note = [line for line in plan.notes(five) if "seat_orders" in line]
    assert note == ['note: design.seat_orders = "all": a block is 30,240 games (1,260 under the '
                    'rotations), and still one unit of every interval: a run\'s intervals narrow '
                    'with its blocks (10, 9 degrees of freedom), not its games']
    four = exp_of('seats = ["greedy", "random", "first", "greedy(city=2.0)"]', players=4)
    assert any("24 games (4 under the rotations)" in line for line in plan.notes(four))
    for quiet in (exp_of('seats = ["greedy", "random", "first"]'),
                  exp_of('seats = ["greedy", "random", "first", "greedy(city=2.0)"]', players=4, orders="")):
        assert not any("seat_orders" in line for line in plan.notes(quiet))


@pytest.mark.parametrize("who, players, kind, orders, field", [
    ('pool = ["greedy", "greedy(city=1.5)", "random", "first", "greedy(follower=1.0)"]', 4,
     "round_robin", 'seat_orders = "all"', "pool[1] = 'greedy(city=1.5)' plays as design.pool[0] = 'greedy'"),
    ('pool = ["greedy", "random", "first", "greedy(city=1.5)"]', 3, "round_robin", "",
     "pool[3] = 'greedy(city=1.5)' plays as design.pool[0] = 'greedy'"),
    ('seats = ["greedy", "random", "greedy(city=1.5)"]', 3, "rotations", 'seat_orders = "all"',
     "seats[2] = 'greedy(city=1.5)' plays as design.seats[0] = 'greedy'"),
    ('seats = ["greedy", "random", "greedy(city=1.5)"]\nrollouts = 1', '3\nexpansions = ["messages"]', "counterfactual",
     'seat_orders = "all"', "seats[2] = 'greedy(city=1.5)' plays as design.seats[0] = 'greedy'"),
    ('opponents = ["random", "greedy(city=1.5)"]\narms = [{name = "g", player = "greedy"}, '
     '{name = "f", player = "first"}]', 3, "variants", 'seat_orders = "all"',
     "opponents[1] = 'greedy(city=1.5)' plays as design.arms[0].player = 'greedy'"),
])
def test_one_player_spelt_twice_where_it_unbalances_the_seating_is_refused(tmp_path, who, players, kind,
                                                                          orders, field):
    """greedy(city=1.5) is greedy (its default city weight). A 4-player round robin of a
    pool holding both, under every seat order, played the table with greedy once for
    both spellings: greedy(city=1.5) sat only beside greedy, pairs no longer sat both
    ways round as often, and the report said the rotations kept the order. Refused at
    validate, plan and run, naming the field; nothing is written."""
    from sim.tournament.plan import check_seating

    exp = exp_of(who, players=players, kind=kind, orders=orders)
    with pytest.raises(InputError, match=r"orders.toml: design\." + field.replace("[", r"\[").replace(
            "]", r"\]").replace("(", r"\(").replace(")", r"\)") + r" \(one player spelt twice\)"):
        check_seating(exp)
    with pytest.raises(InputError, match="one player spelt twice"):
        run_experiment(exp, tmp_path / "run", workers=0)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("who, players, kind, orders", [
    ('seats = ["greedy", "random", "greedy(city=1.5)"]', 3, "rotations", ""),  # never swapped
    ('seats = ["greedy", "random", "greedy"]', 3, "rotations", 'seat_orders = "all"'),  # one spelling
    ('pool = ["greedy", "greedy(city=1.5)", "random"]', 2, "round_robin", ""),  # a mirror: a note
    ('opponents = ["greedy", "greedy"]\narms = [{name = "g", player = "greedy"}, '
     '{name = "f", player = "first"}]', 3, "variants", 'seat_orders = "all"'),  # spelt alike
])
def test_one_player_spelt_twice_is_allowed_where_the_seating_stays_balanced(who, players, kind, orders):
    from sim.tournament.plan import check_seating

    check_seating(exp_of(who, players=players, kind=kind, orders=orders))


def test_two_spellings_alike_in_one_edition_only_are_named_with_it():
    """greedy(extra_tile="2") is greedy where no extra_tile message exists (c3.1 has
    extra_turn): alike under c3.1 only, so the refusal says so, and how to keep the other."""
    from sim.tournament.plan import check_seating

    text = CONFIG.format(blocks=4, players=3, kind="round_robin", orders="",
                         who='pool = ["greedy", "greedy(extra_tile=\\"2\\")", "random", "first"]\n'
                             'editions = ["classic", "c3.1"]')
    exp = parse_experiment(text.replace("players = 3", 'players = 3\nexpansions = ["messages"]'), "orders.toml")
    with pytest.raises(InputError, match=r"under c3.1 \(not classic: give each edition a run of its own\)"):
        check_seating(exp)
