"""Properties of the game contract over hundreds of seeded games (STYLE.md rule 12)."""

import copy
import os
import pickle

import pytest

from sim.board import MAX_SEGS
from sim.game import Game
from sim.rules import Rules
from strategies import player

GAMES = int(os.environ.get("CARCSIM_SOAK_GAMES", "240"))
RANDOM = player("random")
FIRST = player("first")


def figures_by_seat(g: Game) -> list[int]:
    n = [0] * g.rules.players
    for _, info in g.board.figures():
        n[info.player] += 1
    return n


def check_step_invariants(g: Game, before: list[int]) -> None:
    # R-BASE-1: followers are conserved: supply + board = 7 for every seat
    assert [s + b for s, b in zip(g.supply, figures_by_seat(g))] == [7] * g.rules.players
    # scores never fall
    assert all(a >= b for a, b in zip(g.scores, before))
    # the decision's choices are unique and sorted as the contract says
    d = g.decision
    if d is not None:
        assert len(set(d.choices)) == len(d.choices)
        assert list(d.choices) == sorted(d.choices, key=lambda c: (c[1], c[0], c[2], c[3], c[4]))


def check_completed_scored_once(g: Game) -> None:
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
    # points add up to the score, by source
    for s in range(g.rules.players):
        assert sum(g.points[s].values()) == g.scores[s]
        got = sum(e["points"] for e in g.events if e["e"] == "points" and e["seat"] == s)
        assert got == g.scores[s]


def test_invariants_over_seeded_games():
    for seed in range(GAMES):
        players = 2 + seed % 5
        g = Game(Rules(players=players), seed)
        seats = [RANDOM if (seed + s) % 2 else FIRST for s in range(players)]
        while g.decision is not None:
            before = list(g.scores)
            d = g.decision
            g.apply(seats[d.seat].choose(g, d))
            check_step_invariants(g, before)
        assert g.over and g.events[-1]["e"] == "end"
        check_completed_scored_once(g)


def play_out(g: Game) -> Game:
    while g.decision is not None:
        g.apply(RANDOM.choose(g, g.decision))
    return g


def test_same_seed_same_events():
    for seed in range(30):
        assert play_out(Game(Rules(players=3), seed)).events == play_out(Game(Rules(players=3), seed)).events


def test_swapping_strategies_keeps_the_tiles():
    # random streams are split by purpose: the tiles drawn do not depend on the players
    def drawn(seats):
        g = Game(Rules(), 77)
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
        g = Game(Rules(players=2 + seed % 3), seed)
        for _ in range(10 + 3 * seed):
            g.apply(RANDOM.choose(g, g.decision))
        c = COPIERS[how](g)
        assert c == g and c.events == g.events and c.decision == g.decision
        snapshot = g.state_key()
        play_out(c)
        assert g.state_key() == snapshot  # the original did not move
        play_out(g)
        assert c.events == g.events  # same choices from the same streams: same game
