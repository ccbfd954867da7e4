"""The simplest policies: `first` (deterministic) and `random` (uniform)."""

from strategies import register


@register("first")
class First:
    """The first legal choice; a figure whenever one may be placed (a trivial,
    deterministic chooser for tests and golden games)."""

    KINDS = ("place", "figure", "scoring_figure", "messages", "town_hall", "favour", "scarecrow",
             "ride")

    def choose(self, view, decision, rng):
        first = decision.choices[0]
        if decision.kind == "figure":  # (-1, -1) "none" comes first
            return decision.choices[1]
        if decision.kind != "place":
            return first
        for c in decision.choices:  # the first placement's rows are contiguous
            if c[:3] != first[:3]:
                break
            if c[3] >= 0:
                return c
        return first


@register("random")
class Random:
    """Uniform over the legal choices of each decision (every placement × figure option
    of a turn equally likely)."""

    KINDS = ("place", "figure", "scoring_figure", "messages", "town_hall", "favour", "scarecrow",
             "ride")

    def choose(self, view, decision, rng):
        return decision.choices[rng.below(len(decision.choices))]
