"""Policies for The Messages' decisions: which scoring figure moves ("scoring_figure")
and how a drawn message is resolved ("messages"). See RULES.md section 2. All are
played by the C game (sim/csrc/policy.c); `choose` asks it (strategies.BuiltIn).

Scoring figure (info: points, source, positions of meeple and messenger):
    meeple_only  always the scoring meeple
    alternate    meeple and messenger in turn (by the seat's count of figure moves)
    dark_seeker  the figure that lands on a dark space; the meeple if both or neither
    spread       dark_seeker, else keep the two figures on different residues mod 5,
                 so the next points hit a dark space with either figure
    coverage     dark_seeker, else maximise the chance that the next award puts a
                 figure on a dark space, under a prior of the next award's points mod 5
                 (policy.c PRIOR, measured in 300 greedy 2-player games: mostly 4s,
                 from 2-tile cities and 9-point monasteries)

Messages (info: action, number, points of each choice), each with per-action
overrides as parameters, e.g. `always_action(smallest_road="2")`:
    always_action  the action whenever it is possible (R-MSG-8), its best target
    always_2       always the 2 points
    greedy         (strategies/greedy.py) whichever gives more immediate points; an
                   extra tile or turn counts as `extra` points; ties take the action
An override "2" takes the 2 points for that action, "action" its best target when
possible; the best target is the one with the most immediate points, the first of
equals (R-MSG-8: an impossible action gets the 2 points).
"""

from __future__ import annotations

from sim.expansions.messages import ALL_ACTIONS
from strategies.registry import BuiltIn, register


@register("meeple_only")
class MeepleOnly(BuiltIn):
    """Every point on the scoring meeple (the messenger never moves)."""

    KINDS = ("scoring_figure",)


@register("alternate")
class Alternate(BuiltIn):
    """Meeple and messenger in turn."""

    KINDS = ("scoring_figure",)


@register("dark_seeker")
class DarkSeeker(BuiltIn):
    """The figure that lands on a dark space; otherwise the meeple."""

    KINDS = ("scoring_figure",)


@register("spread")
class Spread(BuiltIn):
    """Dark space first; else keep the figures on different residues mod 5."""

    KINDS = ("scoring_figure",)


@register("coverage")
class Coverage(BuiltIn):
    """Dark space first; else the move most likely to let the next award hit one."""

    KINDS = ("scoring_figure",)


class MessagePolicy(BuiltIn):
    """Shared by the message policies: per-action overrides ("2" or "action")."""

    KINDS = ("messages",)
    PARAMS = {a: str for a in ALL_ACTIONS}

    def __init__(self, **overrides):
        for action, how in overrides.items():
            if how not in ("2", "action"):
                raise ValueError(f"{action} = {how!r}: expected \"2\" or \"action\"")
        self.overrides = tuple(overrides.items())  # (action, "2" or "action"), read-only


@register("always_action")
class AlwaysAction(MessagePolicy):
    """The message's action whenever possible, at its best target."""


@register("always_2")
class AlwaysTwo(MessagePolicy):
    """Always the 2 points."""
