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

Messengers & Mayors: the town hall is held until it must be placed (R-MM-12), then
goes to the first cell; a favour always replaces the first opponent's follower it
may; a surrounded scarecrow becomes a farmer if a follower is in supply, else lies
down; a messenger rides to the target feature worth most in final scoring, or goes
home when there is none. `road_figure` = "follower" or "messenger" swaps the chosen
figure on a road for that one whenever both are allowed there (the messenger-or-
meeple question); "" leaves greedy's own choice.

The Messages: a drawn message is resolved by whichever choice gives more immediate
points, an extra tile or turn counting as `extra` points and ties taking the action
(per-action overrides as for strategies/messages.py); the scoring figure is the one
that lands on a dark space (`dark_seeker`).
"""

from sim import mayors, scoring
from sim.tiles import KINDS
from strategies import register
from strategies.messages import DarkSeeker, MessagePolicy


@register("greedy")
class Greedy(MessagePolicy):
    """Best immediate valuation: points now, weighted open features, followers kept."""

    KINDS = ("place", "figure", "scoring_figure", "messages", "town_hall", "favour", "scarecrow",
             "ride")
    PARAMS = {"road": float, "city": float, "monastery": float, "field": float,
              "opponent": float, "follower": float, "extra": float, "courier": float,
              "road_figure": str, **MessagePolicy.PARAMS}
    ROAD_FIGURES = {"": None, "follower": 0, "messenger": 2}

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

    def prefer_action(self, decision, best) -> bool:
        points = self.extra if best[1] is None else best[1]
        return points >= 2

    def choose(self, view, decision, rng):
        if decision.kind == "messages":
            return MessagePolicy.choose(self, view, decision, rng)
        if decision.kind == "scoring_figure":
            return DarkSeeker.choose(self, view, decision, rng)
        if decision.kind == "town_hall":
            return "draw" if "draw" in decision.choices else decision.choices[0]
        if decision.kind == "favour":
            return decision.choices[1] if len(decision.choices) > 1 else "none"
        if decision.kind == "scarecrow":
            return "farmer" if "farmer" in decision.choices else "lie"
        if decision.kind == "ride":
            targets = decision.choices[1:]
            if not targets:
                return "return"
            value = {s: scoring.feature_value(view.board, view.board.feature(s), final=True) for s in targets}
            return max(targets, key=lambda s: (value[s], -targets.index(s)))
        if decision.kind == "figure":
            kind, local = self._figure(view, decision)
            tile = view.board.variant_at(view.placed_index)
            return self._road_figure(decision, tile, (kind, local), 0)
        row = self._place(view, decision)
        tile = view.catalogue.variant(view.catalogue.index[decision.tile], row[2])
        return self._road_figure(decision, tile, row, 3)

    def _road_figure(self, decision, tile, choice: tuple, at: int):
        """`road_figure`: the follower or messenger meeple swapped for the other one on
        a road wherever both are allowed (choice[at] is the figure kind)."""
        kind = choice[at]
        if self.road_figure is None or kind not in (0, 2) or kind == self.road_figure:
            return choice
        swapped = (*choice[:at], self.road_figure, *choice[at + 1:])
        if tile.segments[choice[at + 1]].kind == "road" and swapped in decision.choices:
            return swapped
        return choice

    def _figure(self, view, decision):
        """Step 2 after Messengers & Mayors activations (the tile already lies): the
        figure option with the best value by the valuation of `cc_turn_options` for one
        feature — my gain minus `opponent` × the others' mean gain, weighted final value
        for an open feature, its points for a completed one, and the follower's cost
        unless it comes back this turn. Ties go to the first, so "none" (0) to a gain."""
        n, me = view.rules.players, decision.seat
        board = view.board
        in_play = view.tiles_left + len(board)
        cost = self.follower * view.tiles_left / in_play
        best, best_value = decision.choices[0], 0.0
        for kind, local in decision.choices[1:]:
            seg = view.placed_index * view.MAX_SEGS + local
            f = board.feature(seg)
            scores_now = f.complete and f.kind != "field"
            worth = scoring.feature_value(board, f, final=not scores_now)
            if not scores_now:
                worth *= self.open_weight[KINDS.index(f.kind)]
            counts, strengths = (list(v[:n]) for v in board.strength(seg))
            before = scoring.majority(counts, strengths)
            counts[me] += mayors.SCORES[kind]
            strengths[me] += mayors.STRENGTH[kind]
            after = scoring.majority(counts, strengths)
            gain = [worth * ((q in after) - (q in before)) for q in range(n)]
            others = sum(gain) - gain[me]
            value = gain[me] - self.opponent * others / max(1, n - 1) - cost * (not scores_now)
            if value > best_value:
                best, best_value = (kind, local), value
        return best

    def _place(self, view, decision):
        t = view.catalogue.index[decision.tile]
        board = view.board
        in_play = view.tiles_left + len(board)
        args = (t, view.figure_rules(decision.seat), decision.seat, view.rules.players,
                self.open_weight, self.opponent, self.follower * view.tiles_left / in_play)
        courier = view.courier if self.courier else None  # its snapshot, with the Courier
        if courier is None and not decision.choices.restricted:
            return board.turn_best(*args)
        # a rule has narrowed the choices (the river), or the Courier adds value
        allowed = set(decision.choices)
        rows, values = board.turn_values(*args)
        if courier is not None:
            values = [v + self.courier * self._reaches_courier(view, courier, t, r)
                      for r, v in zip(rows, values)]
        return max((v, -i, r) for i, (r, v) in enumerate(zip(rows, values)) if r in allowed)[2]

    @staticmethod
    def _reaches_courier(view, courier, t, row) -> bool:
        x, y, rot, kind, local = row
        if kind < 0:
            return False
        tile = view.catalogue.variant(t, rot)
        if tile.segments[local].kind not in ("road", "city", "monastery"):
            return False
        return tile.has("letter") or courier.near(x, y)
