"""Messengers & Mayors in the C game (sim/csrc/mayors.c) against the Python engine,
move for move: alone and with every combination of The Messages (both editions), the
River and the Courier, 2-6 players, every built-in policy for every M&M decision
(greedy's road_figure too); clone, pickle, batches and the records' M&M columns; the
differential harness against the reference engine. Longer runs: CARCSIM_SOAK=1."""

import itertools
import os
import pickle

import pytest

from sim.cgame import CGame, play_batch, players_table
from sim.game import Game
from sim.messages import MessagesOptions
from sim.play import play
from sim.rules import Rules
from strategies import player
from test_cgame import _same_game, harness_game

SOAK = os.environ.get("CARCSIM_SOAK") == "1"
# the sanitizer run (tests/test_sanitizers.py, an instrumented core) needs every C path,
# not the count: the harness's games are mostly Python there, one per combination will do
HARNESS_SEEDS = 60 if SOAK else 1 if os.environ.get("CARCSIM_CORE") else 9
OTHERS = ("messages", "river", "courier")


def _variants():
    for n in range(len(OTHERS) + 1):
        for combo in itertools.combinations(OTHERS, n):
            for ed in (("classic", "c3.1") if "messages" in combo else ("c3.1",)):
                yield f"{'+'.join(('mayors',) + combo)}-{ed}", ("mayors",) + combo, ed


VARIANTS = list(_variants())  # 12
# every built-in policy for the M&M decisions, greedy's road_figure both ways
SEATS = ["greedy", "random", "first", "greedy(road_figure=\"messenger\")",
         "greedy(road_figure=\"follower\",courier=2.0)+scoring_figure=coverage",
         "random+figure=greedy(city=2.0,opponent=0.5)+ride=greedy",
         "greedy(follower=0.5,field=0.2)+town_hall=random+favour=first+scarecrow=random",
         "first+ride=random+figure=greedy(road_figure=\"messenger\")+messages=always_action",
         "greedy+town_hall=first+scarecrow=first+ride=first+figure=random"]


def _seats(seed: int, n: int) -> list[str]:
    return [SEATS[(seed * 5 + s * 7) % len(SEATS)] for s in range(n)]


def _rules(expansions, edition, players) -> Rules:
    return Rules(players=players, expansions=tuple(expansions),
                 messages=MessagesOptions(edition=edition))


@pytest.mark.parametrize("name,expansions,edition", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_built_in_seats_play_the_engines_mayors_game(name, expansions, edition):
    """Built-in seats never leave C and play the Python engine's game: every choice,
    event (town halls, crisis meetings, favours, scarecrows, rides), score and the
    M&M statistics of the result."""
    for seed in range(40 if SOAK else 6):
        specs = _seats(seed, 2 + seed % 5)
        rules = _rules(expansions, edition, len(specs))
        ref = play(Game(rules, seed), [player(p) for p in specs])
        c = CGame(rules, seed, [player(p) for p in specs])
        assert c.decision is None  # no decision came back to Python
        _same_game(c, ref, (name, seed, specs))


def test_every_mayors_rule_is_exercised():
    """The games above are not vacuous: over a few seeded games every M&M step occurs
    (a guard on the comparison, which would pass trivially without them)."""
    seen = set()
    for seed in range(60):
        specs = _seats(seed, 4)
        c = CGame(_rules(("mayors", "courier"), "c3.1", 4), seed, [player(p) for p in specs])
        for e in c.events:
            seen.add(e["e"])
            if e["e"] == "figure":
                seen.add(e["figure"])
            if e["e"] == "scarecrow":
                seen.add("scarecrow_" + e["choice"])
            if e["e"] == "ride" and e["to"] is not None:
                seen.add("ride_on")
            if e["e"] == "favour" and e["target"] is not None:
                seen.add("favour_used")
        for p in c.result()["players"]:
            assert p["mayors"]["town_hall_turn"] > 0  # R-MM-12: every town hall placed
    assert {"townhall", "favour", "favour_used", "scarecrow_farmer", "scarecrow_lie",
            "ride", "ride_on", "mayor", "messenger", "scarecrow"} <= seen, seen


@pytest.mark.parametrize("name,expansions,edition", VARIANTS[::2], ids=[v[0] for v in VARIANTS[::2]])
def test_python_seats_get_the_engines_mayors_decisions(name, expansions, edition):
    """Seats answered from Python get every M&M decision (kind, seat, tile, choices in
    order) as the Python engine asks it; built-in seats in between stay in C."""
    kinds = set()
    for seed in range(12 if SOAK else 3):
        specs = _seats(seed + 20, 2 + (seed + 1) % 5)
        rules = _rules(expansions, edition, len(specs))
        players = [player(p) for p in specs]
        external = [s % 2 == seed % 2 for s in range(len(specs))]
        ref = Game(rules, seed)
        c = CGame(rules, seed, [None if external[s] else players[s] for s in range(len(specs))])
        while ref.decision is not None:
            d = ref.decision
            choice = players[d.seat].choose(ref, d)
            if external[d.seat]:
                cd = c.decision
                assert (cd.kind, cd.seat, cd.tile, tuple(cd.choices), cd.info) == \
                       (d.kind, d.seat, d.tile, tuple(d.choices), d.info), (name, seed)
                kinds.add(d.kind)
                c.apply(choice)
            ref.apply(choice)
        assert c.decision is None
        _same_game(c, ref, (name, seed, specs))
    assert "town_hall" in kinds


def _mid_game(rules, seed, players, stop_at):
    """(CGame answered from Python, the engine's game) at the first decision of a kind in
    stop_at, played there by `players`."""
    ref, c = Game(rules, seed), CGame(rules, seed)
    while ref.decision is not None and ref.decision.kind not in stop_at:
        choice = players[ref.decision.seat].choose(ref, ref.decision)
        ref.apply(choice)
        c.apply(choice)
    return c, ref


# a seed whose game (players below) meets that decision kind
PAUSED_AT = {"favour": 75, "ride": 2, "scarecrow": 1, "figure": 1, "town_hall": 0}


@pytest.mark.parametrize("kind", list(PAUSED_AT))
def test_clone_and_pickle_carry_the_mayors_state(kind):
    """A game paused at an M&M decision (its figure pending, messengers due to ride,
    the supplies) cloned, deep-copied and unpickled plays on as the engine's."""
    import copy

    players = [player(p) for p in ("random", "greedy", "random+figure=first")]
    rules = _rules(("mayors", "messages", "courier"), "classic", 3)
    seed = PAUSED_AT[kind]
    c, ref = _mid_game(rules, seed, players, {kind})
    assert ref.decision is not None and c.decision.kind == kind
    for twin in (pickle.loads(pickle.dumps(c)), copy.deepcopy(c), c.clone()):
        assert twin.decision == c.decision and twin.history == c.history
        assert twin.result() == c.result() and twin.mm == c.mm
        r = ref.clone()
        while r.decision is not None:
            choice = players[r.decision.seat].choose(r, r.decision)
            r.apply(choice)
            twin.apply(choice)
        _same_game(twin, r, (kind, seed))


def test_mayors_standings_follow_the_engine_at_every_decision():
    """The supplies of every figure kind and the town hall in hand (CGame.mm) are the
    engine's at every decision, not only at the end."""
    players = [player(p) for p in ("greedy", "random", "first", "greedy(road_figure=\"messenger\")")]
    rules = _rules(("mayors", "river"), "c3.1", 4)
    ref, c = Game(rules, 5), CGame(rules, 5)
    steps = 0
    while ref.decision is not None:
        assert [(p.supply, p.town_hall) for p in c.mm.players] == \
               [(p.supply, p.town_hall) for p in ref.mm.players], steps
        assert c.supply == ref.supply
        choice = players[ref.decision.seat].choose(ref, ref.decision)
        ref.apply(choice)
        c.apply(choice)
        steps += 1
    assert steps > 50


def test_a_mayors_batch_fills_the_players_table():
    """play_batch plays the same M&M games as CGame, and players_table gives the rows
    records.player_row makes of their results (the M&M columns included)."""
    import numpy as np
    import pyarrow as pa

    from sim.tournament.records import MM_COLUMNS, PLAYERS, player_row

    specs = ["greedy", "random", "greedy(road_figure=\"messenger\")"]
    rules = _rules(("mayors", "messages", "courier"), "c3.1", 3)
    seeds = list(range(60, 72))
    batch = play_batch(rules, seeds, [player(p) for p in specs])
    rows = []
    for i, seed in enumerate(seeds):
        res = CGame(rules, seed, [player(p) for p in specs]).result()
        rows += [player_row(500 + i, specs[p["seat"]], p["seat"] == 0, p, res["winners"])
                 for p in res["players"]]
    table = players_table(rules, batch, [500 + i for i in range(len(seeds))],
                          [specs] * len(seeds), [0] * len(seeds))
    assert table.schema == PLAYERS
    assert table.to_pylist() == pa.Table.from_pylist(rows, schema=PLAYERS).to_pylist()
    assert np.asarray(table.column("town_hall_turn")).min() > 0
    assert sum(np.asarray(table.column(c)).sum() for c in MM_COLUMNS) > 0


def test_the_differential_harness_passes_on_mayors_with_the_c_game():
    """sim/differential.py's comparison with the C game in the production seat against
    the reference engine (sim/reference/), over every M&M combination: decisions,
    choices, events, standings (M&M supplies and town halls) and the result."""
    games = 0
    for name, expansions, edition in VARIANTS:
        for seed in range(HARNESS_SEEDS):
            specs = _seats(seed + 70, 2 + seed % 5)
            harness_game(_rules(expansions, edition, len(specs)), seed, specs, (name, seed, specs))
            games += 1
    assert games == len(VARIANTS) * HARNESS_SEEDS  # 108 by default
