"""Counterfactual forks: what was a choice worth at the moment it was made?

At a decision the game is forked (`Game.clone`) into two branches that differ only in
that choice; both are reseeded with the same key (`Game.reseed`: common random numbers
for every strategy stream) and finished by the same players, for several rollouts.
The difference in the deciding seat's final margin and win share is the value of the
first option over the second with the rest of the game held as equal as the rules
allow. The main game then goes on as its own player decides. Fork kinds:

    messages        at each message draw: the drawer's best way of taking the action
                    (most immediate points) against the 2 points (R-MSG-8)
    scoring_figure  The Messages: where the two scoring figures would land differently
                    (one on a dark space, the other not): the messenger against the
                    meeple taking the points (R-MSG-C1, R-MSG-N1)
    road_figure     Messengers & Mayors: where the player puts a follower or the
                    messenger meeple on a road and the other is allowed there too (in a
                    "place" row or a step-2 "figure" decision): the messenger against
                    the follower (R-MM-5)

Rows hold the context the findings are reported by; `*_action` is the first option's
branch (the action, the messenger), `*_two` the second's (2 points, meeple, follower).

Aligned branches for an extra tile or turn (`margin_two_aligned`, `win_two_aligned`):
taking message 4 hands the drawer the next tile, so from then on every tile goes to
the other player than in the 2-points branch and the two games share nothing but the
board so far (paired sd above 20 points). The aligned 2-points branch is the same
fork replayed from (rules, seed, choices) with the stack after the fork rotated by one
(its first tile moved to the bottom), so both branches hand the same tiles to the same
players. The order of the tiles left is uniformly random given everything before the
fork (nobody sees the stack), and rotating a uniform order gives a uniform order, so
the aligned branch has the same distribution as the plain one: the estimate keeps its
mean and loses part of its noise (both are recorded; the report gives both sds). While
river tiles are left the order is not uniform (R-RIV-1: river first), so such forks
keep the plain branch only.
"""

from __future__ import annotations

from sim import mayors, messages
from sim.game import Game
from sim.messages import TWO_POINTS
from sim.play import play
from sim.river import is_river_tile
from strategies.messages import MessagePolicy

FOLLOWER, MESSENGER = 0, 2  # figure kinds (sim.game.FIGURE_KINDS)

EXTRA = ("extra_tile", "extra_turn")  # message 4 in each edition


def outcome(g: Game, seat: int) -> tuple[int, float]:
    """(margin over the best other score, win share) of `seat` in a finished game."""
    others = [s for i, s in enumerate(g.scores) if i != seat]
    winners = g.result()["winners"]
    return g.scores[seat] - max(others), (1 / len(winners) if seat in winners else 0.0)


def fork(game: Game, players, first, second, seat: int, rollouts: int, key: str) -> list[dict]:
    """Finish `game` once with each choice per rollout; both branches of a rollout share
    the key, so every strategy stream is the same from the fork on."""
    rows = []
    for r in range(rollouts):
        result = []
        for choice in (first, second):
            g = game.clone()
            g.reseed(f"{key}/rollout{r}")
            g.apply(choice)
            play(g, players)
            result.append(outcome(g, seat))
        rows.append({"rollout": r, "margin_action": result[0][0], "margin_two": result[1][0],
                     "win_action": result[0][1], "win_two": result[1][1]})
    return rows


def _drawn(events: list[dict]) -> list[str]:
    return [e["tile"] for e in events if e["e"] in ("draw", "discard")]


def realigned(game: Game, after: list[str]) -> Game:
    """`game` rebuilt at the same decision from (rules, seed, choices), with `after`
    (the stack order from here on) rotated by one."""
    order = _drawn(game.events) + after[1:] + after[:1]
    g = Game(game.rules, game.seed, stack=order, town_halls_at_end=game.town_halls_at_end)
    for choice in game.history:
        g.apply(choice)
    if g.decision != game.decision or g.scores != game.scores:
        raise RuntimeError("the realigned replay did not reach the same decision")
    return g


def aligned_two(game: Game, players, action, rollouts: int, key: str) -> list[dict]:
    """Per rollout: the 2-points branch on the rotated stack (see the module notes)."""
    d = game.decision
    rows = []
    for r in range(rollouts):
        first = game.clone()
        first.reseed(f"{key}/rollout{r}")
        first.apply(action)
        play(first, players)
        after = _drawn(first.events[len(game.events):])
        cat = game.catalogue
        if any(is_river_tile(cat.types[cat.index[t]]) for t in after):
            return []
        g = realigned(game, after)
        g.reseed(f"{key}/rollout{r}")
        g.apply((TWO_POINTS, None))
        play(g, players)
        margin, win = outcome(g, d.seat)
        rows.append({"margin_two_aligned": margin, "win_two_aligned": win})
    return rows


def branch(game: Game, players, rollouts: int, key: str) -> list[dict]:
    """Rollout rows for the message decision `game` is paused at; [] when the action
    is not possible (there is nothing to compare)."""
    d = game.decision
    if d is None or d.kind != "messages":
        raise ValueError("branch() needs a game paused at a messages decision")
    best = MessagePolicy.best_action(d)
    if best is None:
        return []
    rows = [{**row, "action_points": best[1]}
            for row in fork(game, players, best[0], (TWO_POINTS, None), d.seat, rollouts, key)]
    if d.info["action"] in EXTRA:
        for row, extra in zip(rows, aligned_two(game, players, best[0], rollouts, key)):
            row.update(extra)
    return rows


def to_dark(total: int) -> int:
    """Points a figure at `total` needs to reach the next dark space (1..5)."""
    return next(k for k in range(1, 6) if messages.on_dark(total + k))


def figure_context(d) -> dict | None:
    """Context of a scoring-figure decision, or None when both figures would land alike
    (then the choice changes no message draw now)."""
    if d.kind != "scoring_figure":
        return None
    points = d.info["points"]
    meeple, messenger = d.info["positions"]
    dark = [messages.on_dark(p + points) for p in (meeple, messenger)]
    if dark[0] == dark[1]:
        return None
    return {"action": "messenger", "other": "meeple", "action_points": points,
            "source": d.info["source"], "dist_meeple": to_dark(meeple),
            "dist_messenger": to_dark(messenger), "lands": "messenger" if dark[1] else "meeple"}


def road_options(game: Game, d, choice):
    """(messenger choice, follower choice, local segment) when `choice` puts one of them
    on a road and the other is a legal choice too; else None. Both the "place" rows
    (x, y, rotation, figure, segment) and the "figure" decisions of Messengers & Mayors
    step 2 ((figure, segment) on the tile just placed) are forked."""
    if not isinstance(choice, tuple):
        return None
    if d.kind == "place" and len(choice) == 5:
        x, y, rot, kind, local = choice
        tile = game.catalogue.variant(game.catalogue.index[d.tile], rot)
        swap = lambda k: (x, y, rot, k, local)  # noqa: E731
    elif d.kind == "figure" and len(choice) == 2:
        kind, local = choice
        tile = game.board.variant_at(game.placed_index)
        swap = lambda k: (k, local)  # noqa: E731
    else:
        return None
    if kind not in (FOLLOWER, MESSENGER) or tile.segments[local].kind != "road":
        return None
    other = swap(MESSENGER if kind == FOLLOWER else FOLLOWER)
    if other not in d.choices:
        return None
    return ((choice, other, local) if kind == MESSENGER else (other, choice, local))


def road_context(game: Game, follower_choice, local: int) -> dict:
    """The road as it stands once the figure's tile is placed (probed on a clone): its
    length in tiles, open ends, and whether the messenger could ride on from it now
    (R-MM-6)."""
    probe = game.clone()
    probe.apply(follower_choice)
    seg = probe.placed_index * probe.MAX_SEGS + local
    f = probe.board.feature(seg)
    return {"action": "messenger", "other": "follower", "road_tiles": f.tiles,
            "road_open": f.open, "ride_near": bool(mayors.ride_targets(probe, seg))}


def _phase(game: Game) -> str:
    placed = len(game.board) - 1
    total = placed + game.tiles_left
    return ("early" if game.tiles_left >= 2 * total / 3
            else "late" if game.tiles_left < total / 3 else "mid")


def play_with_branches(game: Game, players, rollouts: int, forks=("messages",)) -> list[dict]:
    """Play `game` to the end with `players`, forking at every decision of the kinds
    in `forks`."""
    rows, n = [], 0
    while game.decision is not None:
        d = game.decision
        common = {"draw": n, "turn": game.turn, "tiles_left": game.tiles_left,
                  "phase": _phase(game), "seat": d.seat}
        key = f"cf{n}"
        found = []
        if d.kind == "messages" and "messages" in forks:
            found = [{**common, "fork": "messages", "other": "two", "action": d.info["action"],
                      "number": d.info["number"], **row}
                     for row in branch(game, players, rollouts, key)]
        choice = players[d.seat].choose(game, d)
        if "scoring_figure" in forks and (ctx := figure_context(d)) is not None:
            found = [{**common, "fork": "scoring_figure", "number": -1, **ctx,
                      "chose_action": choice == "messenger", **row}
                     for row in fork(game, players, "messenger", "meeple", d.seat, rollouts, key)]
        if "road_figure" in forks and (pair := road_options(game, d, choice)) is not None:
            ctx = road_context(game, pair[1], pair[2])
            found = [{**common, "fork": "road_figure", "number": -1, "action_points": -1, **ctx,
                      "chose_action": choice == pair[0], **row}
                     for row in fork(game, players, pair[0], pair[1], d.seat, rollouts, key)]
        if found or (d.kind == "messages" and "messages" in forks):
            n += 1
        rows += found
        game.apply(choice)
    return rows
