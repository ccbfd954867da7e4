"""`search`: determinised greedy rollouts, played in C, over greedy's best few choices.

For a place decision the candidates are greedy's `candidates` best rows by its own C
valuation (strategies/greedy.py `values`; greedy's choice comes first); for a messages or
scoring_figure decision, every choice. Each candidate is scored by `rollouts`
determinised rollouts: rollout r deals the tiles not yet seen in a fresh random order
(river tiles still first, the lake last of them, R-RIV-1) and the message tiles not
yet drawn in a fresh random order (the ones drawn keep their order: R-MSG-11 cycles
the deck), positions a C game (sim/game.py Game) at this very decision by
replaying the game's history on that deal, and plays it to the end with built-in
`greedy` seats (a clone whose seats are all built in never leaves C). Every
candidate sees the same R deals and the same reseeded streams (common random
numbers), so their difference is the candidates', not the deals'. A rollout is scored
by the deciding seat's margin (its score minus the best other score, `score =
"margin"`, the default) or its win share (`score = "win"`); the best mean wins, ties
going to the first in the decision's order. The budget is R x K rollouts per place
decision; there is no time budget, since one would make a game depend on the
machine's speed (BENCHMARKS.md gives the cost per decision of each budget).

The search sees only what a player sees: the board, the scores, the tiles and
messages drawn so far, and the configured deck when the rules fix one. Randomness
comes only from the seat's own stream (one draw per searched decision keys the deals
and the rollouts' streams), so games stay reproducible under any number of workers.
The game given is never changed; it must keep its events and history (Game's
default).

Every decision kind of every expansion is searched (the C game plays them all): the
place candidates are greedy's best rows over every figure the seat may place
(R-BASE-4, R-MM-1/5/7), every other decision's choices are all candidates.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from sim import expansions, messages
from sim.cdeal import stack_tiles
from sim.game import Game
from sim.river import is_river_tile
from sim.rng import Stream
from sim.seats import PAUSABLE
from strategies import DECISION_KINDS, player, register
from strategies.greedy import Greedy


@register("search")
class Search:
    """Greedy's best few choices, each scored by determinised greedy rollouts in C."""

    KINDS = DECISION_KINDS
    PARAMS = {"rollouts": int, "candidates": int, "score": str}
    SCORES = ("margin", "win")

    def __init__(self, rollouts=8, candidates=6, score="margin"):
        if rollouts < 1:
            raise ValueError(f"rollouts = {rollouts}: expected at least 1")
        if candidates < 1:
            raise ValueError(f"candidates = {candidates}: expected at least 1")
        if score not in self.SCORES:
            raise ValueError(f"score = {score!r}: expected \"margin\" or \"win\"")
        self.rollouts, self.candidates, self.score = rollouts, candidates, score
        self.greedy = Greedy()
        self._seat = player("greedy")  # every seat of a rollout

    def choose(self, game, decision, rng):
        if len(decision.choices) == 1:
            return decision.choices[0]
        cands = self._candidates(game, decision)
        if len(cands) == 1:
            return cands[0][1]
        key = rng.next_u64()
        deals = Stream(key)
        roots = [self._positioned(game, decision, deals) for _ in range(self.rollouts)]
        best = None
        for order, choice in cands:
            total = 0.0
            for r, root in enumerate(roots):
                g = root.clone()  # the clone's greedy seats play on in C
                g.reseed(f"search{key}/{r}")
                g.apply(choice)
                total += self._value(g, decision.seat)
            mean = total / len(roots)
            if best is None or (mean, -order) > (best[0], -best[1]):
                best = (mean, order, choice)
        return best[2]

    def _value(self, g: Game, seat: int) -> float:
        scores = g.scores
        if self.score == "margin":
            return scores[seat] - max(s for q, s in enumerate(scores) if q != seat)
        top = max(scores)
        return (scores[seat] == top) / scores.count(top)  # R-BASE-9: a tie shares the win

    def _candidates(self, game, decision) -> list[tuple[int, object]]:
        """(position in the decision's order, choice), best first: greedy's `candidates`
        best placements by its valuation, or every choice of another decision."""
        if decision.kind != "place":
            return list(enumerate(decision.choices))
        values = self.greedy.values(game)  # in C, over every figure the seat may place
        ranked = sorted((-v, i) for i, v in enumerate(values))
        return [(i, decision.choices[i]) for _, i in ranked[:self.candidates]]

    def _positioned(self, game, decision, deals: Stream) -> Game:
        """A C game at `decision` on a fresh deal of what the seat has not seen, every
        seat greedy but paused at every decision (its clones play on in C)."""
        rules, events = game.rules, game.events
        drawn = [e["tile"] for e in events if e["e"] in ("draw", "discard")]
        if not events:  # a game always records its start: this one records nothing
            raise ValueError("search: the game keeps no events (Game(record=False)): "
                             "expected a game that records its events and history")
        unseen = self._unseen(game, drawn)
        cat = game.catalogue
        river = [i for i in unseen if is_river_tile(cat.types[cat.index[i]])]
        lake = [i for i in river if cat.types[cat.index[i]].has("lake")]
        river = [i for i in river if i not in lake]
        land = [i for i in unseen if not is_river_tile(cat.types[cat.index[i]])]
        deals.shuffle(river)
        deals.shuffle(land)
        deck = expansions.deck_options(rules)  # None without a deck of messages
        if deck is not None and not deck.deck:  # a shuffled deck: deal its unseen cards anew
            seen = list(dict.fromkeys(e["action"] for e in events if e["e"] == "message_draw"))
            rest = [a for a in messages.ACTIONS[deck.edition] if a not in seen]
            deals.shuffle(rest)
            rules = dataclasses.replace(rules, messages=dataclasses.replace(
                rules.messages, deck=tuple(seen + rest)))
        g = Game(rules, game.seed, [self._seat] * rules.players, stack=drawn + river + lake + land,
                  record=False, pause=PAUSABLE)
        for choice in game.history:
            g.apply(choice)
        d = g.decision
        if d is None or (d.kind, d.seat, d.tile, len(d.choices)) != (
                decision.kind, decision.seat, decision.tile, len(decision.choices)):
            raise RuntimeError("search: the replayed C game did not reach the same decision")
        return g

    @staticmethod
    def _unseen(game, drawn: list[str]) -> list[str]:
        """The tiles still in the stack, as a multiset in a fixed order (the game's own
        order is not looked at: it is shuffled before use)."""
        left = Counter(stack_tiles(game.rules)[1])
        left.subtract(drawn)
        ids = sorted(left.elements())
        if len(ids) != game.tiles_left:  # a fixed stack smaller than the tile sets (a scripted game)
            raise ValueError("search: a Game on a fixed stack smaller than the tile sets "
                             "cannot be searched (the tiles left are not known)")
        return ids
