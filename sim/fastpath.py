"""The fast path: a whole game of built-in policies played in C (sim/cgame.py).

Every seat must be made of built-in policies only (`strategies` names that the C game
knows, with their parameters and per-decision overrides), and the rules must be ones
the C game plays: the base game, The Messages, the River, the Courier (not Messengers
& Mayors yet). sim/game.py stays the reference it is tested against move by move
(tests/test_cgame.py, tests/test_fastpath.py): the tile order, message deck and every
seat's random stream come from the same derivations, so a fast game can be replayed
with the engine (and its events).
"""

from __future__ import annotations

from sim._core import ffi, lib
from sim.cgame import CGame, seat_policy
from sim.cgame import supports as rules_supported
from sim.rules import Rules


def supports(rules: Rules, players) -> bool:
    """True when the C game can play this game with these players unaided."""
    if not rules_supported(rules) or len(players) != rules.players:
        return False
    scratch = ffi.new("cc_seat_policy *")
    return all(seat_policy(p, rules.messages.edition, scratch) for p in players)


def play_fast(rules: Rules, seed: int, players) -> dict:
    """Play one game in C. Returns Game.result()'s dict plus "history" (every choice,
    as Game.history) and "turns" (tile turns played, Game.turn - 1).

    Raises ValueError if `supports` is false."""
    if not supports(rules, players):
        raise ValueError("the fast path plays games of built-in policies without Messengers "
                         "& Mayors only")
    g = CGame(rules, seed, players, record=lib.CC_RECORD_HISTORY)
    out = g.result()
    out["history"] = g.history
    out["turns"] = g.turn - 1
    return out
