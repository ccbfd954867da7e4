"""The training games of the C core's profile-guided build (setup.py `build_ext`).

GCC builds the core once instrumented, this module plays a mix of seeded batch games
with it, and GCC builds the core again using the branch and call counts those games
left. The mix follows `carcsim bench`'s cases (sim/cli/bench.py): random and greedy
seats, the base game, The Messages in both editions, and four greedy seats with every
expansion, with and without the Abbot, and the C search player, so no case is tuned at
another's cost; and greedy seats at every table size from 2 to 6 (the turn options have
a copy per player count). The
games' results do not depend on the profile (the build keeps -ffp-contract=off and
no fast-math), only their speed: tests/game_digest.py gives the same digest either way.

It imports only the engine and the strategies (no NumPy, Polars or Ray): it runs in
the build's isolated environment, where only the build requirements are installed.

    python -m sim.games.training
"""

from __future__ import annotations

from sim.engine.game import play_batch_only
from sim.engine.rules import Rules
from sim.expansions.messages import MessagesOptions
from strategies import player

EVERY = ("messages", "river", "courier", "mayors", "abbot")

# (rules, seats, games): about three seconds of one core in all
CASES = (
    (Rules(players=2), ("random", "random"), 3000),
    (Rules(players=2), ("greedy", "greedy"), 600),
    (Rules(players=2, expansions=("messages",)), ("greedy", "greedy"), 600),
    (Rules(players=2, expansions=("messages",), messages=MessagesOptions("classic")), ("greedy", "greedy"), 600),
    (Rules(players=4, expansions=EVERY[:4]), ("greedy",) * 4, 200),
    (Rules(players=4, expansions=EVERY), ("greedy",) * 4, 200),
    (Rules(players=3, expansions=("abbot", "mayors")), ("greedy", "random", "greedy"), 200),
    # greedy's turn options have a copy per player count (sim/csrc/options.c): each trained
    (Rules(players=3, expansions=("messages",)), ("greedy",) * 3, 150),
    (Rules(players=5, expansions=("messages", "mayors")), ("greedy",) * 5, 150),
    (Rules(players=6), ("greedy",) * 6, 100),
    (Rules(players=2, expansions=("messages",)), ("search", "greedy"), 2),  # the C search player
)


def train() -> int:
    """Play every case's games; returns how many were played."""
    played = 0
    for rules, seats, games in CASES:
        played += play_batch_only(rules, range(games), [player(s) for s in seats])
    return played


if __name__ == "__main__":
    print(f"sim.games.training: {train():,} games played")
