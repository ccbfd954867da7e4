"""Determinisation: a private C game at a decision of another game, on a fresh deal of
what the deciding seat has not seen (for search players, through View.determinised).

The seat has seen the board, the scores, the tiles and messages drawn so far, and the
configured deck when the rules fix one. The tiles not yet drawn are dealt in a fresh
random order (river tiles still first, the lake last of them, R-RIV-1), the message
tiles not yet drawn likewise (the ones drawn keep their order: R-MSG-11 cycles the
deck); the new game replays the original's history on that deal, so it stands at the
very same decision.
"""

from __future__ import annotations

from collections import Counter

from sim import expansions
from sim.engine.deal import stack_tiles
from sim.engine.game import Game
from sim.engine.rng import Stream
from sim.engine.seats import PAUSABLE
from sim.expansions.messages import deck_tiles
from sim.expansions.river import is_river_tile


def determinised(game: Game, deals: Stream, seats) -> Game:
    """A C game at `game`'s current decision on a deal drawn from `deals`, with `seats`
    (per seat a player, as for Game) paused at every decision kind, so that its
    clones play on in C from wherever the caller applies a choice. `game` does not
    change; it must keep its events and history (Game's default).

    Raises ValueError for a game that keeps no events, RuntimeError if the replay
    does not reach the same decision."""
    rules, events, decision = game.rules, game.events, game.decision
    if not events:  # a game always records its start: this one records nothing
        raise ValueError("determinise: the game keeps no events (Game(record=False)): "
                         "expected a game that records its events and history")
    drawn = [e["tile"] for e in events if e["e"] in ("draw", "discard")]
    unseen = _unseen(game, drawn)
    cat = game.catalogue
    river = [i for i in unseen if is_river_tile(cat.types[cat.index[i]])]
    lake = [i for i in river if cat.types[cat.index[i]].has("lake")]
    river = [i for i in river if i not in lake]
    land = [i for i in unseen if not is_river_tile(cat.types[cat.index[i]])]
    deals.shuffle(river)
    deals.shuffle(land)
    deck = expansions.deck_options(rules)  # None without a deck of messages
    if deck is not None and not deck.deck:  # a shuffled deck: deal its unseen cards anew
        # R-MSG-11: the deck cycles, so its first len(tiles) draws are its order from the top
        tiles = deck_tiles(rules)
        seen = [e["action"] for e in events if e["e"] == "message_draw"][:len(tiles)]
        rest = list(tiles)
        for a in seen:
            rest.remove(a)
        deals.shuffle(rest)
        rules = expansions.with_deck(rules, tuple(seen + rest))
    g = Game(rules, game.seed, seats, stack=drawn + river + lake + land, record=False,
             pause=PAUSABLE, town_halls_at_end=game.town_halls_at_end)
    for choice in game.history:
        g.apply(choice)
    d = g.decision
    if d is None or decision is None or (d.kind, d.seat, d.tile, len(d.choices)) != (
            decision.kind, decision.seat, decision.tile, len(decision.choices)):
        raise RuntimeError("determinise: the replayed C game did not reach the same decision")
    return g


def _unseen(game: Game, drawn: list[str]) -> list[str]:
    """The tiles still to be drawn, as a multiset in a fixed order (the game's own order
    is not looked at: it is shuffled before use). A game on a fixed stack (a scripted
    game) holds only that stack's tiles."""
    left = Counter(stack_tiles(game.rules)[1] if game._fixed_stack is None else game._fixed_stack)
    left.subtract(drawn)
    ids = sorted(left.elements())
    if len(ids) != game.tiles_left:
        raise RuntimeError(f"determinise: {len(ids)} tiles unseen but {game.tiles_left} left "
                           f"in the stack")
    return ids
