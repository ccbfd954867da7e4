"""Lookahead: a worked example of a user's own strategy (docs/STRATEGIES.md).

Copy this file, change it, and name it where a player goes:

    carcsim play --seed 7 --players "lookahead.py:Lookahead,greedy" --expansions messages
    carcsim strategies check "lookahead.py:Lookahead(tries=2)"

For a placement it takes greedy's `width` best choices (default 4; greedy's own
valuation, asked from the C game) and plays each `tries` times (default 6) to the end
on a fresh deal of the tiles and messages this seat has not seen (view.determinised),
every seat played by greedy; the choice with the best mean margin wins, the same deals
serving every choice (common random numbers). Every other decision (the scoring
figure and the messages of The Messages, the Messengers & Mayors choices) goes to
greedy's own answer. Its randomness is the seat's stream `rng`, so a game is the same
every time it is played from the same seed.
"""

from strategies import make, player


class Lookahead:
    """greedy's best few placements, each tried on a few determinised playouts"""

    KINDS = ("place", "scoring_figure", "messages", "figure", "town_hall", "favour",
             "scarecrow", "ride")
    PARAMS = {"width": int, "tries": int}

    def __init__(self, width=4, tries=6):
        if width < 1 or tries < 1:
            raise ValueError("width and tries: expected at least 1")
        self.width, self.tries = width, tries
        self.greedy = make("greedy")
        self.playout = player("greedy")  # every seat of a playout

    def choose(self, view, decision, rng):
        if decision.kind != "place" or len(decision.choices) == 1:
            return self.greedy.choose(view, decision, rng)
        values = self.greedy.values(view)  # greedy's value of every choice, from C
        best = sorted(range(len(values)), key=lambda i: -values[i])[:self.width]
        seats = [self.playout] * view.rules.players
        deals = [view.determinised(rng, seats) for _ in range(self.tries)]
        me = decision.seat

        def margin(index):
            total = 0
            for deal in deals:
                game = deal.clone()  # its seats are all built in: it plays on in C
                game.apply(decision.choices[index])
                scores = game.scores
                total += scores[me] - max(s for seat, s in enumerate(scores) if seat != me)
            return total / len(deals)

        return decision.choices[max(best, key=lambda i: (margin(i), -best.index(i)))]
