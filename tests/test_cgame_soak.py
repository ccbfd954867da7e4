"""The C game against the Python engine over 10,000 seeded games (issue 13 item 5):
every combination of The Messages (both editions, ZMG), the River and the Courier,
2-6 players, every built-in policy; every tenth game also through the differential
harness against the reference engine. Off by default; run with CARCSIM_SOAK=1
[CARCSIM_SOAK_GAMES=N]."""

import os

import pytest
from test_cgame import SEATS, VARIANTS, _rules, _same_game

from sim.cgame import CGame
from sim.differential import _compare
from sim.game import Game, tile_order
from sim.play import play
from sim.reference import RefGame
from strategies import player

pytestmark = [pytest.mark.soak,
              pytest.mark.skipif(os.environ.get("CARCSIM_SOAK") != "1", reason="set CARCSIM_SOAK=1")]

GAMES = int(os.environ.get("CARCSIM_SOAK_GAMES", "10000"))


def test_cgame_soak():
    for seed in range(GAMES):
        name, expansions, options = VARIANTS[seed % len(VARIANTS)]
        specs = [SEATS[(seed // 7 + s * 3) % len(SEATS)] for s in range(2 + seed % 5)]
        rules = _rules(expansions, options, len(specs))
        ref = play(Game(rules, seed), [player(p) for p in specs])
        _same_game(CGame(rules, seed, [player(p) for p in specs]), ref, (name, seed, specs))
        if seed % 10 == 0:
            py, players = Game(rules, seed), [player(p) for p in specs]
            deck = None if py.msg is None else list(py.msg.deck)
            reference = RefGame(rules, tile_order(rules, seed)[1], deck)

            def choose(game, d):
                choice = players[py.decision.seat].choose(py, py.decision)
                py.apply(choice)
                return choice

            _, diff = _compare(CGame(rules, seed), reference, choose)
            assert diff is None, (name, seed, specs, diff)
