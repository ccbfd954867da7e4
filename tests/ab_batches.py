"""Games per CPU second of two builds side by side, on a machine too noisy for runs taken
apart in time (BENCHMARKS.md): one long-lived process per checkout, asked for a batch in
turn (never both at once, the order swapped every round), so both see the same moments
of the machine and neither pays its imports in the figures.

    python tests/ab_batches.py OLD_CHECKOUT NEW_CHECKOUT [--rounds N] CASE [CASE ...]

A checkout is a source tree whose C core is built in place (`python setup.py build_ext
--inplace` in it). CASE is random, base, classic, c31, all or every (as tests/icount.py,
with more games a batch). Prints per case each build's median and best batch and the ratios
new / old.
"""
import argparse
import statistics
import subprocess
import sys
import time

BATCH_GAMES = {"random": 4000, "base": 1200, "classic": 1200, "c31": 1200, "all": 400, "every": 400}


def worker(checkout: str) -> None:
    """Plays the case named on each line of stdin, answers its games per CPU second."""
    sys.path.insert(0, checkout)
    from sim.engine.game import play_batch
    from sim.engine.rules import Rules
    from sim.expansions.messages import MessagesOptions
    from strategies import player

    cases = {
        "random": (Rules(players=2), ["random"] * 2),
        "base": (Rules(players=2), ["greedy"] * 2),
        "classic": (Rules(players=2, expansions=("messages",), messages=MessagesOptions("classic")),
                    ["greedy"] * 2),
        "c31": (Rules(players=2, expansions=("messages",)), ["greedy"] * 2),
        "all": (Rules(players=4, expansions=("messages", "river", "courier", "mayors")), ["greedy"] * 4),
        "every": (Rules(players=4, expansions=("messages", "river", "courier", "mayors", "abbot")), ["greedy"] * 4),
    }
    batches = {}
    for line in sys.stdin:
        case = line.strip()
        rules, seats = cases[case]
        n, k = BATCH_GAMES[case], batches.get(case, 0)
        batches[case] = k + 1
        seeds = range(k * n, (k + 1) * n)  # each batch new games, the same in both builds
        t0 = time.process_time()
        play_batch(rules, seeds, [player(s) for s in seats])
        print(n / (time.process_time() - t0), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("cases", nargs="+", choices=sorted(BATCH_GAMES))
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    procs = {tree: subprocess.Popen([sys.executable, __file__, "--worker", tree], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, text=True) for tree in (args.old, args.new)}

    def batch(tree, case):
        p = procs[tree]
        p.stdin.write(case + "\n")
        p.stdin.flush()
        return float(p.stdout.readline())

    for case in args.cases:
        batch(args.old, case), batch(args.new, case)  # warm-up: caches, the first allocations
        rates = {args.old: [], args.new: []}
        for r in range(args.rounds):
            for tree in (args.old, args.new) if r % 2 == 0 else (args.new, args.old):
                rates[tree].append(batch(tree, case))
        old, new = rates[args.old], rates[args.new]
        print(f"{case:8s} old median {statistics.median(old):8.0f} best {max(old):8.0f} | "
              f"new median {statistics.median(new):8.0f} best {max(new):8.0f} | "
              f"new/old medians {statistics.median(new) / statistics.median(old):.3f} "
              f"bests {max(new) / max(old):.3f}", flush=True)
    for p in procs.values():
        p.stdin.close()
        p.wait()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        main()
