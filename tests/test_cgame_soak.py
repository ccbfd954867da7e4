"""Built-in policies played in C against the same policies asked from Python over
10,000 seeded games (issue 13 item 5): every combination of The Messages (both
editions, ZMG), the River and the Courier, 2-6 players, every built-in policy. (The
differential harness's own soak compares the C game with the reference engine.) Off
by default; run with CARCSIM_SOAK=1 [CARCSIM_SOAK_GAMES=N]."""

import os

import pytest
from test_cgame import SEATS, VARIANTS, _from_python, _rules, _same_game

from sim.engine.game import Game
from strategies import player

pytestmark = [pytest.mark.soak,
              pytest.mark.skipif(os.environ.get("CARCSIM_SOAK") != "1", reason="set CARCSIM_SOAK=1")]

GAMES = int(os.environ.get("CARCSIM_SOAK_GAMES", "10000"))


def test_cgame_soak():
    for seed in range(GAMES):
        name, expansions, options = VARIANTS[seed % len(VARIANTS)]
        specs = [SEATS[(seed // 7 + s * 3) % len(SEATS)] for s in range(2 + seed % 5)]
        rules = _rules(expansions, options, len(specs))
        _same_game(Game(rules, seed, [player(p) for p in specs]), _from_python(rules, seed, specs),
                   (name, seed, specs))
