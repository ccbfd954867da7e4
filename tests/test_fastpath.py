"""The C fast path against the Python engine, its reference: same seed → same game
(tests/test_cgame.py covers every expansion the C game plays)."""

import pytest

from sim.fastpath import play_fast, supports
from sim.game import Game
from sim.play import play
from sim.rules import Rules
from strategies import player

MIXES = ["random,random", "greedy,greedy", "greedy,random", "first,greedy,random",
         "random,greedy,random,greedy", "greedy,first,random,greedy,random,first"]


@pytest.mark.parametrize("mix", MIXES)
def test_fast_path_plays_the_engines_game(mix):
    for seed in range(50):
        seats = [player(p) for p in mix.split(",")]
        rules = Rules(players=len(seats))
        fast = play_fast(rules, seed, seats)
        ref = play(Game(rules, seed), seats)
        assert fast["history"] == ref.history, (mix, seed)
        assert {k: fast[k] for k in ("players", "winners")} == ref.result(), (mix, seed)


def test_fast_path_plays_messages_with_overrides():
    rules = Rules(players=2, expansions=("messages", "courier"))
    seats = [player("random+place=greedy"), player("greedy+scoring_figure=coverage")]
    assert supports(rules, seats)
    for seed in range(10):
        fast = play_fast(rules, seed, seats)
        ref = play(Game(rules, seed), seats)
        assert fast["history"] == ref.history and fast["turns"] == ref.turn - 1, seed
        assert {k: fast[k] for k in ("players", "winners")} == ref.result(), seed


def test_fast_path_refuses_what_it_cannot_play():
    assert not supports(Rules(players=2, expansions=("mayors",)), [player("random")] * 2)
    with pytest.raises(ValueError):
        play_fast(Rules(), 1, [player("random")])
