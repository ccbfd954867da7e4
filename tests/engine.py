"""Which engine the rules tests play on: CARCSIM_ENGINE=c runs them on the C game
(sim/cgame.py CGame) instead of the Python one (sim/game.py Game), the proof that the
C game keeps the contract before it replaces the Python engine.

Rules tests build games with `new_game` and play scripts with `play_script`, and read
state through the result, the events or the strategies' view (sim/view.py). A test
that sets or reads the Python engine's own state is marked `python_engine`; a game the
C game does not play yet (Messengers & Mayors, sim.cgame.supports) is skipped on it.
"""

from __future__ import annotations

import os

import pytest

from sim import script
from sim.cgame import CGame, supports
from sim.game import Game
from sim.view import view_of

ENGINE = os.environ.get("CARCSIM_ENGINE", "python")
if ENGINE not in ("python", "c"):
    raise ValueError(f"CARCSIM_ENGINE = {ENGINE!r}: expected python or c")

python_engine = pytest.mark.skipif(ENGINE == "c", reason="reads or sets the Python engine's own state")


def plays(rules) -> bool:
    """Whether the chosen engine plays these rules."""
    return ENGINE == "python" or supports(rules)


def new_game(rules, seed, *, stack=None, town_halls_at_end=True):
    """A game on the chosen engine (every seat answered by the caller)."""
    if ENGINE == "c":
        if not plays(rules):
            pytest.skip("the C game does not play Messengers & Mayors yet")
        return CGame(rules, seed, stack=stack)
    return Game(rules, seed, stack=stack, town_halls_at_end=town_halls_at_end)


def _scripted(rules, stack):
    return new_game(rules, 0, stack=stack, town_halls_at_end=False)


def play_script(loaded):
    """sim.script.play_script on the chosen engine."""
    return script.play_script(loaded, new_game=_scripted)


def view(game):
    return view_of(game)


def positions(game, seat: int) -> list[int]:
    """The Messages: [scoring meeple, messenger] of `seat`."""
    return list(view_of(game).messages.seats[seat].position)


def state(game) -> tuple:
    """What decides the game's future as the contract shows it: choices so far, events,
    scores, turn, seat, stack size, the decision, each seat's stream."""
    d = game.decision
    return (tuple(game.history), len(game.events), tuple(game.scores), game.turn, game.seat,
            game.tiles_left, None if d is None else (d.kind, d.seat, d.tile, tuple(d.choices)),
            tuple(game.stream(s).state for s in range(game.rules.players)))


def python_state(why: str = "sets the Python engine's own state") -> None:
    """Skip the calling test on the C game: it reaches into the Python engine."""
    if ENGINE == "c":
        pytest.skip(why)
