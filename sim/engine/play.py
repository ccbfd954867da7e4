"""Playing a game with players (the loop every runner uses)."""

from __future__ import annotations

from sim.engine.game import Game
from sim.errors import CarcsimError, IllegalMove, StrategyError
from sim.engine.rules import Rules
from sim.engine.view import strategy_decision, view_of


def play(game, players):
    """Ask the seats' players every decision the game returns until it is over (a Game
    given its seats asks only for the kinds whose policy is Python); returns the game.
    Each player gets the game's read-only view (sim/engine/view.py), never the game.

    Raises StrategyError when a player raises (anything but a carcsim error, which is
    the caller's own, e.g. a script's) or answers with a choice the decision does not
    offer: one line naming the seed, the seat, the player and the decision."""
    view = view_of(game)
    d = game.decision
    while d is not None:
        player = players[d.seat]
        try:
            choice = player.choose(view, strategy_decision(d))
        except CarcsimError:
            raise
        except (Exception, SystemExit) as e:  # noqa: BLE001 - a strategy's own fault, as one line (its
            # sys.exit too: it must not end carcsim as if the run had succeeded)
            raise StrategyError(f"{_where(game, d, player)}: raised {type(e).__name__}: "
                                f"{_first_line(e)}") from None
        try:
            game.apply(choice)
        except IllegalMove:
            raise StrategyError(f"{_where(game, d, player)}: answered {_quote(choice)}, which is "
                                f"not among its {len(d.choices)} choices") from None
        d = game.decision
    return game


def _where(game, decision, player) -> str:
    name = getattr(player, "name", type(player).__name__)
    return (f"seed {getattr(game, 'seed', '?')}: seat {decision.seat} ({name}), its "
            f"{decision.kind} decision at turn {game.turn}")


def _first_line(e: Exception) -> str:
    text = (str(e).splitlines() or [""])[0]
    return text if len(text) <= 200 else text[:197] + "..."


def _quote(choice) -> str:
    text = repr(choice)
    return text if len(text) <= 120 else text[:117] + "..."


def play_seeded(rules: Rules, seed: int, players) -> Game:
    if len(players) != rules.players:
        raise ValueError(f"{len(players)} players for a {rules.players}-player game")
    return play(Game(rules, seed, players), players)
