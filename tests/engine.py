"""How the rules tests build and read games: through the contract only (sim/engine/game.py
Game, the C game), the result, the events and the strategies' view (sim/engine/view.py). A
position play would not give starts from the game's own setup (Game.set_scoreboard,
Game.set_supply).
"""

from __future__ import annotations

from sim.games import script
from sim.engine.game import Game
from sim.engine.view import view_of


def new_game(rules, seed, *, stack=None, town_halls_at_end=True):
    """A game with every seat answered by the caller."""
    return Game(rules, seed, stack=stack, town_halls_at_end=town_halls_at_end)


def _scripted(rules, stack):
    return new_game(rules, 0, stack=stack, town_halls_at_end=False)


def play_script(loaded):
    """sim.games.script.play_script on a game whose every seat the script answers."""
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


def place(g, x, y, rot, kind=None, where=None):
    """Place the drawn tile at (x, y, rot), with figure kind `kind` on `where` (a
    segment's notation on the tile as placed) or none; a town hall decision first
    draws (Messengers & Mayors)."""
    if g.decision.kind == "town_hall":
        g.apply("draw")
    assert g.decision.kind == "place", g.decision
    t = g.catalogue.index[g.decision.tile]
    local = -1 if kind is None else g.catalogue.variant(t, rot).segment_at(where)
    g.apply((x, y, rot, -1 if kind is None else kind, local))
