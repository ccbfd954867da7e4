"""The simplest policies: `first` (deterministic) and `random` (uniform)."""

from strategies import register


@register("first")
class First:
    """The first legal choice; a figure whenever one may be placed (a trivial,
    deterministic chooser for tests and golden games)."""

    def choose(self, game, decision, rng):
        if decision.kind == "figure" and len(decision.choices) > 1:
            return decision.choices[1]
        return decision.choices[0]


@register("random")
class Random:
    """Uniform over the legal choices of each decision."""

    def choose(self, game, decision, rng):
        return decision.choices[rng.below(len(decision.choices))]
