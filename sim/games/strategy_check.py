"""`carcsim strategies check SPEC`: a player tried over every combination of the rules
before it goes into a run (docs/STRATEGIES.md).

Seat 0 plays SPEC, every other seat `greedy`. Each of the 32 expansion combinations is
played in both editions of The Messages where it is in play, with 2 to 6 players in
turn (so every player count comes up), twice from the same seed. Reported per game:
the decisions SPEC answered from Python and its mean time per decision; a fault
(an exception, an illegal choice: the game's StrategyError line), an attempt to change
the game (a write to the read-only view), and a second play from the same seed that
differs from the first (non-determinism: a strategy must draw only from its `rng`).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

from sim import expansions
from sim.engine.game import Game
from sim.engine.play import play
from sim.engine.rules import Rules
from sim.errors import StrategyError
from strategies import player


@dataclass
class Outcome:
    rules: Rules
    seed: int
    decisions: int = 0
    seconds: float = 0.0
    problem: str = ""  # "" when the games were fine

    @property
    def label(self) -> str:
        parts = "+".join(self.rules.expansions) or "base"
        edition = expansions.edition(self.rules)
        return f"{parts}{f' ({edition})' if edition else ''}, {self.rules.players} players"


class _Timed:
    """A seat's player whose decisions are counted and timed."""

    def __init__(self, inner):
        self.inner, self.name = inner, inner.name
        self.by_kind, self.default = inner.by_kind, inner.default
        self.decisions, self.seconds = 0, 0.0

    def choose(self, view, decision):
        start = time.perf_counter()
        try:
            return self.inner.choose(view, decision)
        finally:
            self.seconds += time.perf_counter() - start
            self.decisions += 1


def combinations() -> list[Rules]:
    """Every expansion combination, in both editions where The Messages plays, with the
    player count cycling 2..6."""
    out = []
    names = expansions.NAMES
    combos = [c for n in range(len(names) + 1) for c in itertools.combinations(names, n)]
    for combo in combos:
        for edition in (expansions.EDITIONED.editions if expansions.EDITIONED.name in combo
                        else ("",)):
            out.append(expansions.with_edition(Rules(players=2 + len(out) % 5, expansions=combo),
                                               edition))
    return out


def _one(rules: Rules, seed: int, mine: _Timed) -> Game:
    """A game of `mine` in seat 0 against greedy seats, played out (its decisions counted
    in `mine`, also when it fails part-way)."""
    seats = [mine] + [player("greedy") for _ in range(rules.players - 1)]
    game = Game(rules, seed, seats)
    play(game, seats)
    return game


def check(spec: str, seed: int = 0) -> list[Outcome]:
    """One Outcome per combination (see the module's doc). Raises InputError for a spec
    that names no player."""
    player(spec)  # a bad name is bad input, before any game
    outcomes = []
    for i, rules in enumerate(combinations()):
        o = Outcome(rules, seed + i)
        mine = _Timed(player(spec))
        try:
            first = _one(rules, o.seed, mine)
            o.decisions, o.seconds = mine.decisions, mine.seconds
            second = _one(rules, o.seed, _Timed(player(spec)))
            if first.history != second.history or first.scores != second.scores:
                turn = next((t for t, (a, b) in enumerate(zip(first.history, second.history))
                             if a != b), min(len(first.history), len(second.history)))
                o.problem = (f"not deterministic: two games from seed {o.seed} differ at "
                             f"choice {turn + 1}")
        except StrategyError as e:
            text = str(e)
            o.problem = ("tried to change the game: " + text if "read-only" in text else text)
            o.decisions, o.seconds = mine.decisions, mine.seconds  # those asked before it failed
        outcomes.append(o)
    return outcomes


def report(outcomes: list[Outcome]) -> list[str]:
    lines = []
    for o in outcomes:
        cost = f"{1e6 * o.seconds / o.decisions:,.0f} µs a decision" if o.decisions else "no decision"
        lines.append(f"{o.label:50} {o.decisions:5} decision{'s' * (o.decisions != 1)}, {cost}: "
                     f"{o.problem or 'ok'}")
    bad = sum(bool(o.problem) for o in outcomes)
    total = sum(o.decisions for o in outcomes)
    seconds = sum(o.seconds for o in outcomes)
    lines.append(f"{len(outcomes)} games (every combination of the expansions, in both "
                 f"editions where The Messages plays), {total} decisions"
                 + (f", {1e6 * seconds / total:,.0f} µs a decision" if total else "")
                 + f": {'no problem' if not bad else f'{bad} with a problem'}")
    return lines
