"""The simplest policies: `first` (deterministic) and `random` (uniform). Both are
played by the C game (sim/csrc/policy.c); `choose` asks it (strategies.BuiltIn)."""

from strategies.registry import DECISION_KINDS, BuiltIn, register


@register("first")
class First(BuiltIn):
    """The first legal choice; a figure whenever one may be placed (the first
    placement's first row with a figure, or in a step-2 "figure" decision the first
    figure rather than none): a trivial, deterministic chooser for tests and golden
    games."""

    KINDS = DECISION_KINDS


@register("random")
class Random(BuiltIn):
    """Uniform over the legal choices of each decision (every placement × figure option
    of a turn equally likely): one draw below(n) from the seat's stream per decision."""

    KINDS = DECISION_KINDS
