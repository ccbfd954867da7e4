"""Independent scoring: a pure-Python replay of each game on the reference board (no
union-find, no C, no sim.scoring) must give every player the same points by source.
"""

from reference import RefBoard, completed_by, reference_points

from sim.game import Game
from sim.play import play
from sim.rules import Rules
from strategies import player


def replay_points(g: Game) -> list[dict]:
    ref = RefBoard()
    cat = g.catalogue
    figures: dict = {}  # (x, y, local) -> seat
    points = [dict.fromkeys(("road", "city", "monastery", "field"), 0) for _ in range(g.rules.players)]
    tiles = g.board.tiles()
    t0, r0, x0, y0 = tiles[0]
    ref.place(cat.types[t0], x0, y0, r0)
    turn = 0
    for choice in g.history:
        turn += 1
        t, rot, x, y = tiles[turn]
        seat = next(e["seat"] for e in g.events if e["e"] == "place" and e["turn"] == turn)
        assert choice[:3] == (x, y, rot)
        ref.place(cat.types[t], x, y, rot)
        if choice[3] >= 0:
            figures[(x, y, choice[4])] = seat
        for seg in completed_by(ref, x, y):  # R-BASE-6, then the figures go home
            kind, value, winners = reference_points(ref, figures, seg, final=False)
            for w in winners:
                points[w][kind] += value
            members = ref.feature(seg) if kind != "monastery" else {seg}
            for s in [s for s in figures if s in members]:
                del figures[s]
    done = set()
    for seg in sorted(figures):  # R-BASE-8: every feature still holding figures
        kind = ref.info(seg)["kind"]
        key = frozenset(ref.feature(seg)) if kind != "monastery" else frozenset({seg})
        if key in done:
            continue
        done.add(key)
        kind, value, winners = reference_points(ref, figures, seg, final=True)
        for w in winners:
            points[w][kind] += value
    return points


def test_engine_scores_equal_the_reference_replay():
    mixes = ["random,random", "greedy,random", "greedy,greedy", "random,first,greedy",
             "greedy,random,greedy,random,first"]
    for seed in range(60):
        seats = [player(p) for p in mixes[seed % len(mixes)].split(",")]
        g = play(Game(Rules(players=len(seats)), 500 + seed), seats)
        want = replay_points(g)
        for s in range(len(seats)):
            got = {k: g.points[s][k] for k in ("road", "city", "monastery", "field")}
            assert got == want[s], (seed, s)
