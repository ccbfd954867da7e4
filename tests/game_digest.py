"""A SHA-256 digest of many seeded games, to show a change keeps every game bit for bit
(BENCHMARKS.md, "Bit for bit the same games"): run it before and after a change that
must not change play, and compare the line it prints.

    python tests/game_digest.py [--games N]

It covers 12 configurations: batch results (play_batch) of N games each, and the
results, events and history of N // 20 recorded games each.

The batch rows are hashed field by field in the layout the digest was first taken
with (ROW_ORDER, looked up by name in the C layout, cc_result_field), so a change of
the row's layout is not a change of the games. The rank field (R-BASE-9, added later)
is left out: it is derived from the scores, which are hashed, and the recorded games'
result() carries the ranks anyway. Point sources added later (the garden, R-ABB-4) are
left out of both the rows and result() where they are 0, as they are in every game of
these configurations (none plays the Abbot): a source more is a change of the layout.
"""

import argparse
import hashlib
import json

import numpy as np

from sim.engine.game import Game, play_batch
from sim.engine.play import play
from sim.engine.rules import Rules
from sim.expansions.declaration import FIELDS
from sim.expansions.messages import MessagesOptions
from strategies import player

# cc_game_result's fields in the order of the row the digest was first taken with
ROW_ORDER = ("score", "points", "figures", "moves", "live_moves", "drawn", "taken", "message_points",
             "resolved", "supply", "mayors", "mm_supply", "town_hall")

FIRST_SOURCES = 6  # road, city, monastery, field, message, courier: the sources of the first digest

CONFIGS = (
    ("base 2p random", Rules(players=2), ["random"] * 2),
    ("base 2p greedy", Rules(players=2), ["greedy"] * 2),
    ("base 2p first", Rules(players=2), ["first"] * 2),
    ("base 3p mix", Rules(players=3), ["greedy(city=2.0,field=0.3)", "random", "greedy(follower=1.7)"]),
    ("base 5p greedy", Rules(players=5), ["greedy"] * 5),
    ("messages c3.1 greedy", Rules(players=2, expansions=("messages",)), ["greedy"] * 2),
    ("messages classic greedy", Rules(players=2, expansions=("messages",),
                                      messages=MessagesOptions("classic")), ["greedy"] * 2),
    ("messages classic 3p mix", Rules(players=3, expansions=("messages",),
                                      messages=MessagesOptions("classic", zmg_alone=True)),
     ["greedy+scoring_figure=spread", "random", "greedy(field=2.5)+messages=always_2"]),
    ("messages river courier 4p", Rules(players=4, expansions=("messages", "river", "courier")),
     ["greedy(courier=2.0)"] * 4),
    ("all 4p greedy", Rules(players=4, expansions=("messages", "river", "courier", "mayors")),
     ["greedy"] * 4),
    ("all 3p random", Rules(players=3, expansions=("messages", "river", "courier", "mayors")),
     ["random"] * 3),
    ("mayors 2p road messenger", Rules(players=2, expansions=("mayors",)),
     ['greedy(road_figure="messenger")', "greedy"]),
)


def digest(games: int) -> str:
    h = hashlib.sha256()
    for name, rules, specs in CONFIGS:
        seats = [player(s) for s in specs]
        batch = play_batch(rules, range(games), seats)
        res = batch["results"]
        later = res[:, :, FIELDS["points"][0] + FIRST_SOURCES:FIELDS["points"][0] + FIELDS["points"][1]]
        assert not later.any(), f"{name}: a later point source scored"
        width = {f: FIRST_SOURCES if f == "points" else FIELDS[f][1] for f in ROW_ORDER}
        batch["results"] = np.ascontiguousarray(np.concatenate(
            [res[:, :, FIELDS[f][0]:FIELDS[f][0] + width[f]] for f in ROW_ORDER], axis=2))
        for key in ("turns", "winners", "results"):
            h.update(batch[key].tobytes())
        for seed in range(max(1, games // 20)):
            g = Game(rules, 10_000 + seed, seats)
            play(g, seats)
            result = g.result()
            for p in result["players"]:
                assert p["points"].pop("garden") == 0
            h.update(json.dumps([result, g.events, [list(c) if isinstance(c, tuple) else c
                                                        for c in g.history]],
                                sort_keys=True, default=str).encode())
        h.update(name.encode())
    return h.hexdigest()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    print(digest(ap.parse_args().games))
