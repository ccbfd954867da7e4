"""Damaged saves, at random (issue 27 item 6): a save is either refused on load (one
typed error) or it is a game that decodes, clones and plays to its end. A mutation
that loads and then raises anything in Python fails the test.

The default run tries a few hundred mutations; CARCSIM_SOAK=1 tries 20,000."""

import os
import pickle
import random

import pytest

from sim.core import CoreError
from sim.engine.game import Game, _load
from sim.engine.play import play
from sim.engine.rules import Rules
from sim.errors import InputError
from sim.expansions.messages import MessagesOptions
from strategies import player

MUTATIONS = 20_000 if os.environ.get("CARCSIM_SOAK") else 400
RULES = (
    Rules(players=2),
    Rules(players=3, expansions=("messages",)),
    Rules(players=2, expansions=("messages",), messages=MessagesOptions("classic")),
    Rules(players=4, expansions=("messages", "river", "courier", "mayors")),
    Rules(players=2, expansions=("mayors",)),
)


def _states():
    """(rules, seed, save bytes, town_halls_at_end) of games paused at a few decisions."""
    out = []
    for i, rules in enumerate(RULES):
        seats = [player("random")] * rules.players
        g = Game(rules, 100 + i)
        step = 0
        while g.decision is not None and step < 400:
            if step in (0, 3, 17, 60, 150):
                _, args = g.__reduce__()
                out.append((rules, args))
            d = g.decision
            g.apply(seats[d.seat].choose(g, d))
            step += 1
    return out


STATES = _states()


def _mutate(blob: bytes, rng: random.Random) -> bytes:
    data = bytearray(blob)
    for _ in range(rng.choice((1, 1, 2, 4))):
        at = rng.randrange(len(data))
        how = rng.random()
        if how < 0.5:
            data[at] = rng.randrange(256)
        elif how < 0.8:  # a 32-bit field to an edge value
            value = rng.choice((0, 1, -1, 2, 7, 12, 49, 50, 127, 255, 2**31 - 1, -2**31))
            at -= at % 4
            data[at:at + 4] = (value & 0xFFFFFFFF).to_bytes(4, "little")
        else:
            data[at] ^= 1 << rng.randrange(8)
    if data == blob:  # a write of the value already there: damage one bit instead
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return bytes(data)


def _play_out(g: Game) -> None:
    g.result(), g.events, g.scores, g.supply, g.points
    c = g.clone()
    seats = [player("random")] * g.rules.players
    for game in (g, c):
        play(game, seats)
        game.result()
        pickle.loads(pickle.dumps(game))


def test_a_damaged_save_is_refused_or_plays_to_its_end():
    rng = random.Random(27)
    accepted = refused = 0
    failures = []
    for n in range(MUTATIONS):
        rules, args = STATES[n % len(STATES)]
        state = args[2]
        mutated = _mutate(state, rng)
        try:
            g = _load(rules, args[1], mutated, *args[3:])
        except (CoreError, InputError):
            refused += 1
            continue
        accepted += 1
        try:
            _play_out(g)
        except Exception as e:  # noqa: BLE001 - any exception of an accepted save is the bug
            failures.append(f"mutation {n} ({rules!r}): {type(e).__name__}: {e}"[:300])
    print(f"{MUTATIONS} mutations: {refused} refused, {accepted} loaded and played out")
    assert refused > MUTATIONS // 4 and accepted > MUTATIONS // 20  # both outcomes reached
    assert not failures, f"{len(failures)} accepted saves failed:\n" + "\n".join(failures[:10])


def test_the_mutations_are_real_damage():
    """A mutated save differs from its original, and some are refused: the fuzz would
    find nothing if every mutation were a no-op."""
    rng = random.Random(1)
    rules, args = STATES[0]
    assert all(_mutate(args[2], rng) != args[2] for _ in range(50))


def test_a_save_of_other_rules_is_refused():
    """A 4-player save under 6-player rules, a Messages save under the base game's."""
    g = Game(Rules(players=4), 3)
    _, args = g.__reduce__()
    with pytest.raises(InputError, match=r"saved game: nplayers = 4, but Rules\(players=6"):
        _load(Rules(players=6), *args[1:3])
    m = Game(Rules(players=2, expansions=("messages",)), 3)
    _, args = m.__reduce__()
    with pytest.raises(InputError, match=r"saved game: expansions = "):
        _load(Rules(players=2), *args[1:3])
    assert _load(*args).rules == args[0]  # its own rules load it
