"""One `play_batch` of a case's seeded games, to count the C core's instructions with
callgrind, old and new side by side on a machine too busy for seconds (BENCHMARKS.md):

    valgrind --tool=callgrind --toggle-collect=cc_game_batch python tests/icount.py CHECKOUT CASE

CHECKOUT is the source tree to import (its build installed in the running Python);
CASE is random, base, classic, all (every expansion but the Abbot) or every (all and
the Abbot). The module paths of checkouts from before the layers (sim.game, sim.rules,
sim.messages) are tried too, so older builds compare.
"""
import sys
sys.path.insert(0, sys.argv[1])
try:
    from sim.engine.game import play_batch
    from sim.engine.rules import Rules
    from sim.expansions.messages import MessagesOptions
except ImportError:
    from sim.game import play_batch
    from sim.rules import Rules
    from sim.messages import MessagesOptions
from strategies import player
case = sys.argv[2]
if case == "random":
    rules, seats, n = Rules(players=2), ["random"] * 2, 1000
elif case == "base":
    rules, seats, n = Rules(players=2), ["greedy"] * 2, 300
elif case == "classic":
    rules, seats, n = Rules(players=2, expansions=("messages",), messages=MessagesOptions("classic")), ["greedy"] * 2, 300
elif case == "all":
    rules, seats, n = Rules(players=4, expansions=("messages", "river", "courier", "mayors")), ["greedy"] * 4, 100
else:
    rules, seats, n = (Rules(players=4, expansions=("messages", "river", "courier", "mayors", "abbot")),
                       ["greedy"] * 4, 100)
play_batch(rules, range(n), [player(s) for s in seats])
