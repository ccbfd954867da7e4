"""Long soak over every implemented expansion and policy, with invariants at every
step. Off by default (minutes); run with CARCSIM_SOAK=1 [CARCSIM_SOAK_GAMES=N]."""

import os
import pickle

import pytest
from test_game import check_completed_scored_once

from engine import new_game, state
from sim.expansions.messages import MessagesOptions
from sim.engine.rules import Rules
from sim.engine.view import view_of
from strategies import player

pytestmark = [pytest.mark.soak,
              pytest.mark.skipif(os.environ.get("CARCSIM_SOAK") != "1", reason="set CARCSIM_SOAK=1")]

GAMES = int(os.environ.get("CARCSIM_SOAK_GAMES", "2000"))
SPECS = ["random", "greedy", "first", "greedy+scoring_figure=spread+messages=always_action",
         "random+place=greedy+scoring_figure=coverage", "greedy(follower=0.5)+messages=always_2"]
EXPANSIONS = [(), ("messages",), ("river",), ("messages", "river", "courier"), ("courier",),
              ("mayors",), ("mayors", "messages", "river", "courier")]


def test_soak():
    for seed in range(GAMES):
        n = 2 + seed % 5
        expansions = EXPANSIONS[seed % len(EXPANSIONS)]
        edition = ("c3.1", "classic")[(seed // 4) % 2]
        rules = Rules(players=n, expansions=expansions, messages=MessagesOptions(edition))
        seats = [player(SPECS[(seed + s) % len(SPECS)]) for s in range(n)]
        g = new_game(rules, seed)
        fork_at = seed % 60
        while g.decision is not None:
            d = g.decision
            g.apply(seats[d.seat].choose(g, d))
            assert [s + sum(1 for _, f in g.board.figures() if f.player == p and f.kind == 0)
                    for p, s in enumerate(g.supply)] == [7] * n
            messages = view_of(g).messages
            if messages is not None:
                if not g.over:
                    assert all(g.scores[s] == sum(messages.seats[s].position) for s in range(n))
            if g.turn == fork_at and g.decision is not None and d.kind == "place":
                c = pickle.loads(pickle.dumps(g))
                assert state(c) == state(g)
        check_completed_scored_once(g)
