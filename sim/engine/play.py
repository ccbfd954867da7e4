"""Playing a game with players (the loop every runner uses)."""

from __future__ import annotations

from sim.engine.game import Game
from sim.engine.rules import Rules
from sim.engine.view import strategy_decision, view_of


def play(game, players):
    """Ask the seats' players every decision the game returns until it is over (a Game
    given its seats asks only for the kinds whose policy is Python); returns the game.
    Each player gets the game's read-only view (sim/engine/view.py), never the game."""
    view = view_of(game)
    while game.decision is not None:
        d = game.decision
        game.apply(players[d.seat].choose(view, strategy_decision(d)))
    return game


def play_seeded(rules: Rules, seed: int, players) -> Game:
    if len(players) != rules.players:
        raise ValueError(f"{len(players)} players for a {rules.players}-player game")
    return play(Game(rules, seed, players), players)
