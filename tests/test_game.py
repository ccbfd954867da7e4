"""Properties of the game contract over hundreds of seeded games (STYLE.md rule 12;
the step invariants over every expansion and policy are in test_conformance.py)."""

import copy
import os
import pickle

import pytest
from test_conformance import check_points_from_events

from sim.engine.board import MAX_SEGS
from engine import new_game, state
from sim.engine.play import play
from sim.engine.rules import Rules
from strategies import player

GAMES = int(os.environ.get("CARCSIM_SOAK_GAMES", "240"))
RANDOM = player("random")
FIRST = player("first")


def check_completed_scored_once(g) -> None:
    """Every feature complete at the end was scored exactly once during play, and
    nothing else was scored during play (R-BASE-6)."""
    during = [(tuple(e["at"]), e["where"]) for e in g.events if e["e"] == "score" and not e["final"]]
    assert len(during) == len(set(during))
    complete = set()
    for i in range(len(g.board)):
        for local in range(len(g.board.variant_at(i).segments)):
            f = g.board.feature(i * MAX_SEGS + local)
            if f.complete:
                x, y, where = g.board.segment_place(f.root)
                complete.add(((x, y), where))
                assert f.figures == 0  # R-BASE-7: figures went back after scoring
    assert complete == set(during)
    check_points_from_events(g)


def test_completed_features_scored_once_over_seeded_games():
    for seed in range(GAMES):
        players = 2 + seed % 5
        seats = [RANDOM if (seed + s) % 2 else FIRST for s in range(players)]
        check_completed_scored_once(play(new_game(Rules(players=players), seed), seats))


def play_out(g):
    while g.decision is not None:
        g.apply(RANDOM.choose(g, g.decision))
    return g


def test_same_seed_same_events():
    for seed in range(30):
        assert play_out(new_game(Rules(players=3), seed)).events == play_out(new_game(Rules(players=3), seed)).events


def test_swapping_strategies_keeps_the_tiles():
    # random streams are split by purpose: the tiles drawn do not depend on the players
    def drawn(seats):
        g = new_game(Rules(), 77)
        while g.decision is not None:
            g.apply(seats[g.decision.seat].choose(g, g.decision))
        return [e["tile"] for e in g.events if e["e"] in ("draw", "discard")]
    assert drawn([RANDOM, FIRST]) == drawn([FIRST, RANDOM])


COPIERS = {
    "clone": lambda g: g.clone(),
    "deepcopy": copy.deepcopy,
    "pickle": lambda g: pickle.loads(pickle.dumps(g)),
}


@pytest.mark.parametrize("how", sorted(COPIERS))
def test_copies_are_equal_and_independent(how):
    """STYLE.md rule 13: clone, deepcopy and pickle pass the same assertions."""
    for seed in range(12):
        g = new_game(Rules(players=2 + seed % 3), seed)
        for _ in range(10 + 3 * seed):
            g.apply(RANDOM.choose(g, g.decision))
        c = COPIERS[how](g)
        assert state(c) == state(g) and c.events == g.events and c.decision == g.decision
        snapshot = state(g)
        play_out(c)
        assert state(g) == snapshot  # the original did not move
        play_out(g)
        assert c.events == g.events  # same choices from the same streams: same game
