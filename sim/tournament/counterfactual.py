"""Counterfactual forks: what was a choice worth at the moment it was made?

At a decision the game is forked (`Game.clone`) into two branches that differ only in
that choice; both are reseeded with the same key (`Game.reseed`: common random numbers
for every strategy stream) and finished by the same players, for several rollouts.
The difference in the deciding seat's final margin and win share is the value of the
first option over the second with the rest of the game held as equal as the rules
allow. The main game then goes on as its own player decides. On a Game of built-in
seats paused at the forked kinds (what the runner plays when it can), a fork's
branches are played in C by one call (`Game.branches`, cc_branch_play in
sim/csrc/branch.c), and the branch of the choice the game goes on with is read from
the game's own end when that is provably the same game (`Taken`). Fork kinds:

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


from sim.expansions import base, messages
from sim.engine.game import Game
from sim.expansions.messages import TWO_POINTS
from sim.engine.play import play
from sim.expansions.mayors import FOLLOWER, MESSENGER  # figure kinds: C's codes
from sim.expansions.river import is_river_tile
from strategies.messages import AlwaysAction

EXTRA = ("extra_tile", "extra_turn")  # message 4 in each edition
_ACTION = AlwaysAction()  # the action branch: the way a policy taking the action takes


def best_action(game: Game) -> tuple | None:
    """(choice, points) of the drawn message's best way at `game`'s messages decision,
    as the policies take it (always_action, asked of the C game: policy.c), or None if
    the action is not possible."""
    d = game.decision
    choice = game.policy_choice(_ACTION, d)
    if choice[0] == TWO_POINTS:
        return None
    return choice, d.info["points"][d.choices.index(choice)]


def outcome(scores: list[int], seat: int) -> tuple[int, float]:
    """(margin over the best other score, win share) of `seat` in a finished game with
    these final scores (R-BASE-9: every top score wins, sharing the win)."""
    others = [s for i, s in enumerate(scores) if i != seat]
    winners = [i for i, s in enumerate(scores) if s == max(scores)]
    return scores[seat] - max(others), (1 / len(winners) if seat in winners else 0.0)


def in_c(game) -> bool:
    """Whether `game`'s branches are played by one C call (Game.branches): a Game
    whose seats are all built in (its clones never come back to Python)."""
    return isinstance(game, Game) and game.seats_built_in


class Taken:
    """A branch left out of a fork on a Game because its choice is the one the game
    itself goes on with (`later` of fork): settle() fills its rows' fields from the
    game's own end when none of the seats' random streams was drawn from between the
    fork and the end, else plays it from a clone kept at the fork.

    Why that is the same number: a branch is the game at the fork with every seat
    stream reseeded, the same choice taken, and the same policies playing on. Until
    a policy draws from its stream the branch makes the game's own moves; the first
    draw would be at a decision where the game drew too. A SplitMix64 state moves on
    at every draw and never comes back, so equal states at the fork and at the end
    mean no draw, and the branch ends as the game does (greedy seats never draw: the
    message-value config saves every 2-points branch this way)."""

    __slots__ = ("clone", "choice", "seat", "rollouts", "key", "fields", "streams", "rows")

    def __init__(self, game: Game, choice, seat: int, rollouts: int, key: str, fields):
        self.clone, self.choice, self.seat = game.clone(), choice, seat
        self.rollouts, self.key, self.fields = rollouts, key, fields
        self.streams = self.rows = None  # set by play_with_branches


BRANCH_FIELDS = (("margin_action", "win_action"), ("margin_two", "win_two"))


def fork(game: Game, players, first, second, seat: int, rollouts: int, key: str,
         taken=None, later: list | None = None) -> list[dict]:
    """Finish `game` once with each choice per rollout; both branches of a rollout share
    the key, so every strategy stream is the same from the fork on. On a Game of
    built-in seats given `later` (a list), the branch of `taken` (the choice the game
    goes on with) is not played now: its fields stay None and a Taken is appended
    to `later` for settle()."""
    skip = None
    if later is not None and in_c(game) and taken in (first, second):
        skip = (first, second).index(taken)
        later.append(Taken(game, taken, seat, rollouts, key, BRANCH_FIELDS[skip]))
    pairs = [(r, i, choice) for r in range(rollouts) for i, choice in enumerate((first, second))
             if i != skip]
    if in_c(game):
        scores = game.branches([(choice, f"{key}/rollout{r}", False) for r, _, choice in pairs])
    else:
        scores = []
        for r, _, choice in pairs:
            g = game.clone()
            g.reseed(f"{key}/rollout{r}")
            g.apply(choice)
            play(g, players)
            scores.append(g.scores)
    result = {(r, i): outcome(s, seat) for (r, i, _), s in zip(pairs, scores)}
    rows = []
    for r in range(rollouts):
        (m1, w1), (m2, w2) = (result.get((r, i), (None, None)) for i in range(2))
        rows.append({"rollout": r, "margin_action": m1, "margin_two": m2,
                     "win_action": w1, "win_two": w2})
    return rows


def settle(game: Game, later: list[Taken]) -> None:
    """Fill the left-out branches' fields once `game` is over (see Taken)."""
    end = game.streams()
    for t in later:
        if t.streams == end:
            values = [outcome(game.scores, t.seat)] * t.rollouts
        else:
            values = [outcome(s, t.seat) for s in t.clone.branches(
                [(t.choice, f"{t.key}/rollout{r}", False) for r in range(t.rollouts)])]
        for row, (margin, win) in zip(t.rows, values):
            row[t.fields[0]], row[t.fields[1]] = margin, win


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
    """Per rollout: the 2-points branch on the rotated stack (see the module notes).
    On a Game the rotation is done on a clone's stack: the tiles left after the fork
    are exactly those the action's branch draws, in that order."""
    d = game.decision
    if in_c(game):
        if not game.rotatable:  # R-RIV-1: a rotation would move a river tile
            return []
        scores = game.branches([((TWO_POINTS, None), f"{key}/rollout{r}", True)
                                   for r in range(rollouts)])
        return [dict(zip(("margin_two_aligned", "win_two_aligned"), outcome(s, d.seat)))
                for s in scores]
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
        margin, win = outcome(g.scores, d.seat)
        rows.append({"margin_two_aligned": margin, "win_two_aligned": win})
    return rows


def branch(game: Game, players, rollouts: int, key: str, taken=None,
           later: list | None = None) -> list[dict]:
    """Rollout rows for the message decision `game` is paused at; [] when the action
    is not possible (there is nothing to compare). `taken`, `later`: as for fork."""
    d = game.decision
    if d is None or d.kind != messages.KIND:
        raise ValueError("branch() needs a game paused at a messages decision")
    best = best_action(game)
    if best is None:
        return []
    rows = [{**row, "action_points": best[1]}
            for row in fork(game, players, best[0], (TWO_POINTS, None), d.seat, rollouts, key,
                            taken, later)]
    if d.info["action"] in EXTRA:
        for row, extra in zip(rows, aligned_two(game, players, best[0], rollouts, key)):
            row.update(extra)
    return rows


def to_dark(total: int, every: int = 5) -> int:
    """Points a figure at `total` needs to reach the next dark space (1..every; the
    spacing is The Messages' dark_every knob, R-BASE-10)."""
    return next(k for k in range(1, every + 1) if base.is_dark(total + k, every))


def figure_context(d, every: int = 5) -> dict | None:
    """Context of a scoring-figure decision, or None when both figures would land alike
    (then the choice changes no message draw now)."""
    if d.kind != "scoring_figure":
        return None
    points = d.info["points"]
    meeple, messenger = d.info["positions"]
    dark = [base.is_dark(p + points, every) for p in (meeple, messenger)]
    if dark[0] == dark[1]:
        return None
    return {"action": "messenger", "other": "meeple", "action_points": points,
            "source": d.info["source"], "dist_meeple": to_dark(meeple, every),
            "dist_messenger": to_dark(messenger, every), "lands": "messenger" if dark[1] else "meeple"}


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
            "road_open": f.open, "ride_near": bool(probe.board.ride_targets(seg))}


def _phase(game: Game) -> str:
    placed = len(game.board) - 1
    total = placed + game.tiles_left
    return ("early" if game.tiles_left >= 2 * total / 3
            else "late" if game.tiles_left < total / 3 else "mid")


def play_with_branches(game: Game, players, rollouts: int, forks=(messages.KIND,)) -> list[dict]:
    """Play `game` to the end with `players`, forking at every decision of the kinds
    in `forks`. On a Game of built-in seats (paused at those kinds) every branch is
    played in C, and the branch of the choice the game goes on with is taken from
    the game's own end where that is the same (Taken)."""
    rows, n = [], 0
    later = [] if in_c(game) else None
    while game.decision is not None:
        d = game.decision
        common = {"draw": n, "turn": game.turn, "tiles_left": game.tiles_left,
                  "phase": _phase(game), "seat": d.seat}
        key = f"cf{n}"
        found = []
        # the choice first: a branch reseeds every seat stream, so a draw made here
        # cannot reach it
        choice = players[d.seat].choose(game, d)
        mark = len(later) if later is not None else 0
        if d.kind == messages.KIND and messages.KIND in forks:
            found = [{**common, "fork": messages.KIND, "other": "two", "action": d.info["action"],
                      "number": d.info["number"], "chose_action": choice[0] != TWO_POINTS, **row}
                     for row in branch(game, players, rollouts, key, choice, later)]
        if "scoring_figure" in forks and (ctx := figure_context(d, game.rules.knob("dark_every"))) is not None:
            found = [{**common, "fork": "scoring_figure", "number": -1, **ctx,
                      "chose_action": choice == "messenger", **row}
                     for row in fork(game, players, "messenger", "meeple", d.seat, rollouts, key,
                                     choice, later)]
        if "road_figure" in forks and (pair := road_options(game, d, choice)) is not None:
            ctx = road_context(game, pair[1], pair[2])
            found = [{**common, "fork": "road_figure", "number": -1, "action_points": -1, **ctx,
                      "chose_action": choice == pair[0], **row}
                     for row in fork(game, players, pair[0], pair[1], d.seat, rollouts, key)]
        if found or (d.kind == messages.KIND and messages.KIND in forks):
            n += 1
        rows += found
        if later is not None and len(later) > mark:
            streams = game.streams()  # after the choice's own draws, before the game goes on
            for t in later[mark:]:
                t.streams, t.rows = streams, found
        game.apply(choice)
    if later:
        settle(game, later)
    return rows
