"""`search`: determinised greedy rollouts over greedy's best few choices, played by the
C game (sim/csrc/search.c; `choose` asks it: strategies.BuiltIn), so a game of search
and greedy seats never leaves C and batches like every built-in.

For a place decision the candidates are greedy's `candidates` best rows by its own C
valuation (strategies/greedy.py `values`, default weights; greedy's choice comes
first); for any other decision (The Messages' scoring figure and messages, the
Messengers & Mayors decisions), every choice. Each candidate is scored by `rollouts`
determinised rollouts: deal r is the game at this very decision (a C clone) with what
the seat has not seen dealt anew — the tiles not yet drawn in a fresh random order
(river tiles still first, the lake last of them, R-RIV-1) and the messages not yet
drawn likewise (the ones drawn keep their order: R-MSG-11 cycles the deck) — and a
rollout applies the candidate to a clone of that deal and plays it on with built-in
`greedy` seats for `depth` more tile turns (default 10; 0: to the end), then values the
position by greedy's valuation: per seat its score, plus for each feature holding
figures its points if complete, else its kind's weight times its final-scoring value
(R-BASE-8), for the seats holding its majority (R-BASE-7), plus greedy's follower
value (tiles left / tiles in play, weighted) per follower in supply. Every candidate
sees the same deals and seat streams (common random numbers), so their difference is
the candidates', not the deals'. A rollout is scored
by the deciding seat's margin (its score minus the best other score, `score =
"margin"`, the default) or its win share (`score = "win"`, R-BASE-9: a tie shares the
win); the best mean wins, ties going to the first in the decision's order. The budget
is rollouts x candidates rollouts per place decision; there is no time budget, since
one would make a game depend on the machine's speed (BENCHMARKS.md gives the cost per
decision of each budget).

The cut is the budget's better use (BENCHMARKS.md "Search in C" measures it): at 8 x 6,
rollouts cut after 10 tile turns cost a fifth of rollouts played to the end and win
more often against greedy (a less noisy score). `halving = true` spends the same
rollouts x candidates in rounds of sequential halving instead (each round's survivors
on the next deals, the better half going on); it measured no stronger.

The search sees only what a player sees: the board, the scores, the tiles and
messages drawn so far, and the configured deck when the rules fix one. Randomness
comes only from the seat's own stream (one draw per searched decision keys the deals
and the rollouts' streams; none when one candidate is left), so games stay
reproducible under any number of workers. The game searched never changes.

A seat's search parameters are one set: a player composing two search policies with
different parameters (say `search+messages=search(rollouts=2)`) is refused.
"""

from __future__ import annotations

from strategies.registry import DECISION_KINDS, BuiltIn, register

SCORES = {"margin": 0, "win": 1}  # core.h CC_SEARCH_MARGIN, CC_SEARCH_WIN
MAX_BUDGET = 100_000  # core.h CC_SEARCH_MAX: rollouts and candidates
MAX_DEPTH = 10_000  # core.h CC_SEARCH_MAX_DEPTH


@register("search")
class Search(BuiltIn):
    """Greedy's best few choices, each scored by determinised greedy rollouts in C."""

    KINDS = DECISION_KINDS
    PARAMS = {"rollouts": int, "candidates": int, "score": str, "depth": int, "halving": bool}

    def __init__(self, rollouts=8, candidates=6, score="margin", depth=10, halving=False):
        for name, value, low, high in (("rollouts", rollouts, 1, MAX_BUDGET),
                                       ("candidates", candidates, 1, MAX_BUDGET),
                                       ("depth", depth, 0, MAX_DEPTH)):
            if not low <= value <= high:
                raise ValueError(f"{name} = {value}: expected {low}..{high}")
        if score not in SCORES:
            raise ValueError(f"score = {score!r}: expected \"margin\" or \"win\"")
        self.rollouts, self.candidates, self.score = rollouts, candidates, score
        self.depth, self.halving = depth, bool(halving)
        # one set per seat (cc_seat_policy): strategies.Player refuses two that differ
        self.seat_params = (rollouts, candidates, score, depth, bool(halving))

    def c_fill(self, out, kind: str) -> None:
        """This policy's parameters in cc_seat_policy `out` (sim/engine/seats.py)."""
        out.search_rollouts, out.search_candidates = self.rollouts, self.candidates
        out.search_score, out.search_depth = SCORES[self.score], self.depth
        out.search_halving = int(self.halving)
