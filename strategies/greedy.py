"""`greedy`: the turn option with the best immediate valuation, computed in one C call.

Value of an option for the deciding player (core.c `cc_turn_options`), over the
features the tile touches and the monasteries around it:

    gain(q)  = Σ value after − value before, for each player q
    value    = points now for a feature the placement completes (R-BASE-6), or
               weight[kind] × its final-scoring value if incomplete (R-BASE-8;
               a field: weight × 3 per completed bordering city), counted for the
               players holding the majority (R-BASE-7)
    option   = gain(me) − opponent × mean gain(others)
               + follower × (tiles left / tiles in play) × change in my supply

So a follower costs `follower` points early and nothing at the end, and a follower
that comes back at once (a feature completed this turn) costs nothing. Only features
the tile touches are valued: a field that gains from a city completed elsewhere is
not seen. Ties go to the first option in the decision's order.

The Courier: `courier` points are added to an option that puts a meeple on a road,
city or monastery where the thank-you would reach it (a letter tile, or the Courier's
tile or next to it, R-COU-3); 0, the default, ignores the Courier.

The Messages: a drawn message is resolved by whichever choice gives more immediate
points, an extra tile or turn counting as `extra` points and ties taking the action
(per-action overrides as for strategies/messages.py); the scoring figure is the one
that lands on a dark space (`dark_seeker`).
"""

from strategies import register
from strategies.messages import DarkSeeker, MessagePolicy


@register("greedy")
class Greedy(MessagePolicy):
    """Best immediate valuation: points now, weighted open features, followers kept."""

    KINDS = ("place", "scoring_figure", "messages")
    PARAMS = {"road": float, "city": float, "monastery": float, "field": float,
              "opponent": float, "follower": float, "extra": float, "courier": float,
              **MessagePolicy.PARAMS}

    def __init__(self, road=1.0, city=1.5, monastery=1.0, field=1.0, opponent=1.0, follower=2.0,
                 extra=3.0, courier=0.0, **overrides):
        super().__init__(**overrides)
        # weights in the C core's kind order: city, road, field, monastery
        self.open_weight = (city, road, field, monastery)
        self.opponent = opponent
        self.follower = follower
        self.extra = extra
        self.courier = courier

    def prefer_action(self, decision, best) -> bool:
        points = self.extra if best[1] is None else best[1]
        return points >= 2

    def choose(self, game, decision, rng):
        if decision.kind == "messages":
            return MessagePolicy.choose(self, game, decision, rng)
        if decision.kind == "scoring_figure":
            return DarkSeeker.choose(self, game, decision, rng)
        t = game.catalogue.index[decision.tile]
        in_play = game.tiles_left + len(game.board)
        args = (t, decision.choices.rules, decision.seat, game.rules.players,
                self.open_weight, self.opponent, self.follower * game.tiles_left / in_play)
        aim = self.courier and game.courier is not None
        if not aim and not getattr(decision.choices, "restricted", True):
            return game.board.turn_best(*args)
        # a rule has narrowed the choices (the river), or the Courier adds value
        allowed = set(decision.choices)
        rows, values = game.board.turn_values(*args)
        if aim:
            values = [v + self.courier * self._reaches_courier(game, t, r) for r, v in zip(rows, values)]
        return max((v, -i, r) for i, (r, v) in enumerate(zip(rows, values)) if r in allowed)[2]

    @staticmethod
    def _reaches_courier(game, t, row) -> bool:
        x, y, rot, kind, local = row
        if kind < 0:
            return False
        tile = game.catalogue.variant(t, rot)
        if tile.segments[local].kind not in ("road", "city", "monastery"):
            return False
        return tile.has("letter") or game.courier.near(x, y)
