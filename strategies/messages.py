"""Policies for The Messages' decisions: which scoring figure moves ("scoring_figure")
and how a drawn message is resolved ("messages"). See RULES.md section 2.

Scoring figure (info: points, source, positions of meeple and messenger):
    meeple_only  always the scoring meeple
    alternate    meeple and messenger in turn (by the seat's count of figure moves)
    dark_seeker  the figure that lands on a dark space; the meeple if both or neither
    spread       dark_seeker, else keep the two figures on different residues mod 5,
                 so the next points hit a dark space with either figure
    coverage     dark_seeker, else maximise the chance that the next award puts a
                 figure on a dark space, under PRIOR (points mod 5 of awards measured
                 in 300 greedy 2-player games: mostly 4s, from 2-tile cities and
                 9-point monasteries)

Messages (info: action, number, points of each choice), each with per-action
overrides as parameters, e.g. `always_action(smallest_road="2")`:
    always_action  the action whenever it is possible (R-MSG-8), its best target
    always_2       always the 2 points
    greedy         (strategies/greedy.py) whichever gives more immediate points; an
                   extra tile or turn counts as `extra` points; ties take the action
"""

from __future__ import annotations

from sim.messages import ALL_ACTIONS, FIGURES, TWO_POINTS, on_dark
from strategies import register

PRIOR = (0.093, 0.095, 0.165, 0.169, 0.479)  # P(points % 5 == k) of the next award
MEEPLE, MESSENGER = FIGURES


def _dark_choice(info) -> str | None:
    points, (meeple, messenger) = info["points"], info["positions"]
    m, s = on_dark(meeple + points), on_dark(messenger + points)
    if m != s:
        return MEEPLE if m else MESSENGER
    return MEEPLE if m else None


@register("meeple_only")
class MeepleOnly:
    """Every point on the scoring meeple (the messenger never moves)."""

    KINDS = ("scoring_figure",)

    def choose(self, view, decision, rng):
        return MEEPLE


@register("alternate")
class Alternate:
    """Meeple and messenger in turn."""

    KINDS = ("scoring_figure",)

    def choose(self, view, decision, rng):
        return FIGURES[sum(view.messages.seats[decision.seat].moves) % 2]


@register("dark_seeker")
class DarkSeeker:
    """The figure that lands on a dark space; otherwise the meeple."""

    KINDS = ("scoring_figure",)

    def choose(self, view, decision, rng):
        return _dark_choice(decision.info) or MEEPLE


@register("spread")
class Spread:
    """Dark space first; else keep the figures on different residues mod 5."""

    KINDS = ("scoring_figure",)

    def choose(self, view, decision, rng):
        dark = _dark_choice(decision.info)
        if dark:
            return dark
        points, (meeple, messenger) = decision.info["points"], decision.info["positions"]
        if (meeple + points) % 5 == messenger % 5:
            return MESSENGER
        return MEEPLE


@register("coverage")
class Coverage:
    """Dark space first; else the move most likely to let the next award hit one."""

    KINDS = ("scoring_figure",)

    @staticmethod
    def chance(a: int, b: int) -> float:
        return sum(p for k, p in enumerate(PRIOR) if (a + k) % 5 == 0 or (b + k) % 5 == 0)

    def choose(self, view, decision, rng):
        dark = _dark_choice(decision.info)
        if dark:
            return dark
        points, (meeple, messenger) = decision.info["points"], decision.info["positions"]
        on_meeple = self.chance(meeple + points, messenger)
        on_messenger = self.chance(meeple, messenger + points)
        return MESSENGER if on_messenger > on_meeple else MEEPLE


class MessagePolicy:
    """Shared by the message policies: per-action overrides ("2" or "action") and
    the choice of the action's best target (most immediate points, then first)."""

    KINDS = ("messages",)
    PARAMS = {a: str for a in ALL_ACTIONS}

    def __init__(self, **overrides):
        for action, how in overrides.items():
            if how not in ("2", "action"):
                raise ValueError(f"{action} = {how!r}: expected \"2\" or \"action\"")
        self.overrides = overrides

    @staticmethod
    def best_action(decision):
        """(choice, points) of the action's best way, or None if not possible."""
        ways = [(c, p) for c, p in zip(decision.choices, decision.info["points"])
                if c[0] != TWO_POINTS]
        if not ways:
            return None
        return max(ways, key=lambda w: -1 if w[1] is None else w[1])

    def prefer_action(self, decision, best) -> bool:
        raise NotImplementedError

    def choose(self, view, decision, rng):
        best = self.best_action(decision)
        how = self.overrides.get(decision.info["action"])
        if best is None or how == "2":
            return (TWO_POINTS, None)  # R-MSG-8: an impossible action gets the 2 points
        if how == "action" or self.prefer_action(decision, best):
            return best[0]
        return (TWO_POINTS, None)


@register("always_action")
class AlwaysAction(MessagePolicy):
    """The message's action whenever possible, at its best target."""

    def prefer_action(self, decision, best) -> bool:
        return True


@register("always_2")
class AlwaysTwo(MessagePolicy):
    """Always the 2 points."""

    def prefer_action(self, decision, best) -> bool:
        return False
