"""Messengers & Mayors in the C game (sim/csrc/mayors.c) beyond the differential
harness: seats answered from Python get every M&M decision kind, alone and with
every combination of The Messages (both editions), the River and the Courier, 2-6
players, every built-in policy for every M&M decision (greedy's road_figure too);
clone and pickle at every M&M decision kind; batches and the records' M&M columns.
(Built-in policies asked from Python play the C seats' game: tests/test_cgame.py.)
Longer runs: CARCSIM_SOAK=1."""

import itertools
import os
import pickle

import pytest

from sim.engine.game import Game, play_batch
from sim.tournament.records import players_table
from sim.expansions.messages import MessagesOptions
from sim.engine.play import play
from sim.engine.rules import Rules
from strategies import player
from test_cgame import MAYORS_SEATS, _half_from_python, _same_game

SOAK = os.environ.get("CARCSIM_SOAK") == "1"
OTHERS = ("messages", "river", "courier")


def _variants():
    for n in range(len(OTHERS) + 1):
        for combo in itertools.combinations(OTHERS, n):
            for ed in (("classic", "c3.1") if "messages" in combo else ("c3.1",)):
                yield f"{'+'.join(('mayors',) + combo)}-{ed}", ("mayors",) + combo, ed


VARIANTS = list(_variants())  # 12
SEATS = ["greedy", "random", "first", *MAYORS_SEATS]  # every built-in policy for the M&M decisions


def _seats(seed: int, n: int) -> list[str]:
    return [SEATS[(seed * 5 + s * 7) % len(SEATS)] for s in range(n)]


def _rules(expansions, edition, players) -> Rules:
    return Rules(players=players, expansions=tuple(expansions),
                 messages=MessagesOptions(edition=edition))


def test_every_mayors_rule_is_exercised():
    """The games of these seats are not vacuous: over a few seeded games every M&M step
    occurs (a guard on the comparisons, which would pass trivially without them)."""
    seen = set()
    for seed in range(60):
        specs = _seats(seed, 4)
        c = Game(_rules(("mayors", "courier"), "c3.1", 4), seed, [player(p) for p in specs])
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
def test_python_seats_get_every_mayors_decision(name, expansions, edition):
    """Seats answered from Python get every M&M decision kind; built-in seats in
    between stay in C, and the game is the one played all from Python."""
    kinds = set()
    for seed in range(12 if SOAK else 3):
        specs = _seats(seed + 20, 2 + (seed + 1) % 5)
        kinds |= _half_from_python(_rules(expansions, edition, len(specs)), seed, specs,
                                   (name, seed, specs))
    assert "town_hall" in kinds


def _mid_game(rules, seed, players, stop_at):
    """The game answered from Python at the first decision of a kind in stop_at,
    played there by `players`."""
    c = Game(rules, seed)
    while c.decision is not None and c.decision.kind not in stop_at:
        c.apply(players[c.decision.seat].choose(c, c.decision))
    return c


# a seed whose game (players below) meets that decision kind
PAUSED_AT = {"favour": 75, "ride": 2, "scarecrow": 1, "figure": 1, "town_hall": 0}


@pytest.mark.parametrize("kind", list(PAUSED_AT))
def test_clone_and_pickle_carry_the_mayors_state(kind):
    """A game paused at an M&M decision (its figure pending, messengers due to ride,
    the supplies) cloned, deep-copied and unpickled plays on as the original."""
    import copy

    players = [player(p) for p in ("random", "greedy", "random+figure=first")]
    rules = _rules(("mayors", "messages", "courier"), "classic", 3)
    seed = PAUSED_AT[kind]
    c = _mid_game(rules, seed, players, {kind})
    assert c.decision is not None and c.decision.kind == kind
    twins = [pickle.loads(pickle.dumps(c)), copy.deepcopy(c), c.clone()]
    for twin in twins:
        assert twin.decision == c.decision and twin.history == c.history
        assert twin.result() == c.result() and twin.mm == c.mm
    play(c, players)
    for twin in twins:
        _same_game(play(twin, players), c, (kind, seed))


def test_a_mayors_batch_fills_the_players_table():
    """play_batch plays the same M&M games as Game, and players_table gives the rows
    records.player_row makes of their results (the M&M columns included)."""
    import numpy as np
    import pyarrow as pa

    from sim.expansions.mayors import MAYORS_COLUMNS as MM_COLUMNS
    from sim.tournament.records import PLAYERS, player_row

    specs = ["greedy", "random", "greedy(road_figure=\"messenger\")"]
    rules = _rules(("mayors", "messages", "courier"), "c3.1", 3)
    seeds = list(range(60, 72))
    batch = play_batch(rules, seeds, [player(p) for p in specs])
    rows = []
    for i, seed in enumerate(seeds):
        res = Game(rules, seed, [player(p) for p in specs]).result()
        rows += [player_row(500 + i, specs[p["seat"]], p["seat"] == 0, p, res["winners"],
                            run_id="r", block=i, variant="v")
                 for p in res["players"]]
    table = players_table(rules, batch, [500 + i for i in range(len(seeds))],
                          [specs] * len(seeds), [0] * len(seeds), run_id="r",
                          blocks=range(len(seeds)), variants=["v"] * len(seeds))
    assert table.schema == PLAYERS
    assert table.to_pylist() == pa.Table.from_pylist(rows, schema=PLAYERS).to_pylist()
    assert np.asarray(table.column("town_hall_turn")).min() > 0
    assert sum(np.asarray(table.column(c)).sum() for c in MM_COLUMNS) > 0
