"""`greedy`: the turn option with the best immediate valuation, played by the C game
(sim/csrc/options.c values the options, policy.c chooses; `choose` asks the game:
strategies.BuiltIn).

Value of an option for the deciding player (core.h `cc_turn_options`), over the
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

Messengers & Mayors: the town hall is held until it must be placed (R-MM-12), then
goes to the first cell; a favour always replaces the first opponent's follower it
may; a surrounded scarecrow becomes a farmer if a follower is in supply, else lies
down; a messenger rides to the target feature worth most in final scoring, or goes
home when there is none. The figure of step 2 after activations (RULES.md 6) is the
option with the best value by the same valuation for its one feature ("none" first,
so a figure must gain). `road_figure` = "follower" or "messenger" swaps the chosen
figure on a road for that one whenever both are allowed there (the messenger-or-
meeple question); "" leaves greedy's own choice.

The Abbot: the abbot is valued as a follower on its monastery or garden (a garden
weighed as a monastery, R-ABB-4). Taking it back (R-ABB-5) is worth its points now,
less what its feature is worth to the seat if the abbot stays (after the tile being
placed, when that tile is next to it), plus the follower value of the abbot home
(nothing when the tile completes the feature: it comes home anyway). `search` ranks
both by this valuation like every other row.

The Messages: a drawn message is resolved by whichever choice gives more immediate
points, an extra tile or turn counting as `extra` points and ties taking the action
(per-action overrides as for strategies/messages.py); the scoring figure is the one
that lands on a dark space (`dark_seeker`).
"""

from sim.engine.view import view_of
from strategies.registry import DECISION_KINDS, register
from strategies.messages import MessagePolicy


@register("greedy")
class Greedy(MessagePolicy):
    """Best immediate valuation: points now, weighted open features, followers kept."""

    KINDS = DECISION_KINDS
    PARAMS = {"road": float, "city": float, "monastery": float, "field": float,
              "opponent": float, "follower": float, "extra": float, "courier": float,
              "road_figure": str, **MessagePolicy.PARAMS}
    ROAD_FIGURES = {"": None, "follower": 0, "messenger": 2}  # figure kinds (sim/expansions/mayors.py)

    def __init__(self, road=1.0, city=1.5, monastery=1.0, field=1.0, opponent=1.0, follower=2.0,
                 extra=3.0, courier=0.0, road_figure="", **overrides):
        if road_figure not in self.ROAD_FIGURES:
            raise ValueError(f"road_figure = {road_figure!r}: expected \"\", \"follower\" or \"messenger\"")
        self.road_figure = self.ROAD_FIGURES[road_figure]
        super().__init__(**overrides)
        # weights in the C core's kind order: city, road, field, monastery
        self.open_weight = (city, road, field, monastery)
        self.opponent = opponent
        self.follower = follower
        self.extra = extra
        self.courier = courier

    def values(self, view) -> list[float]:
        """This policy's value of each choice of the view's place decision, before its
        courier bonus and road_figure swap (what `search` ranks candidates by)."""
        return view_of(view)._built_in_values(self)
