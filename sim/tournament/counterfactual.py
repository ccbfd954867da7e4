"""Counterfactual branching: what was a message worth at the moment it was drawn?

At each message draw the game is forked (`Game.clone`): one branch resolves it by
the drawer's best way of taking the action (most immediate points), the other by the
2 points (R-MSG-8). Both branches get the same fresh strategy streams and are played
to the end by the same players, for several rollouts; the difference in the drawer's
final margin and win share is the action's value over the 2 points, with the rest of
the game held as equal as the rules allow. The main game then goes on as its own
policy decides.
"""

from __future__ import annotations

from sim.game import Game
from sim.messages import TWO_POINTS
from sim.play import play
from strategies.messages import MessagePolicy


def outcome(g: Game, seat: int) -> tuple[int, float]:
    """(margin over the best other score, win share) of `seat` in a finished game."""
    others = [s for i, s in enumerate(g.scores) if i != seat]
    winners = g.result()["winners"]
    return g.scores[seat] - max(others), (1 / len(winners) if seat in winners else 0.0)


def branch(game: Game, players, rollouts: int, key: str) -> list[dict]:
    """Rollout rows for the message decision `game` is paused at; [] when the action
    is not possible (there is nothing to compare)."""
    d = game.decision
    if d is None or d.kind != "messages":
        raise ValueError("branch() needs a game paused at a messages decision")
    best = MessagePolicy.best_action(d)
    if best is None:
        return []
    rows = []
    for r in range(rollouts):
        result = {}
        for name, choice in (("action", best[0]), ("two", (TWO_POINTS, None))):
            g = game.clone()
            g.reseed(f"{key}/rollout{r}")
            g.apply(choice)
            play(g, players)
            result[name] = outcome(g, d.seat)
        rows.append({"rollout": r, "action_points": best[1],
                     "margin_action": result["action"][0], "margin_two": result["two"][0],
                     "win_action": result["action"][1], "win_two": result["two"][1]})
    return rows


def play_with_branches(game: Game, players, rollouts: int) -> list[dict]:
    """Play `game` to the end with `players`, branching at every message draw."""
    rows, draw = [], 0
    while game.decision is not None:
        d = game.decision
        if d.kind == "messages":
            placed = len(game.board) - 1
            total = placed + game.tiles_left
            phase = ("early" if game.tiles_left >= 2 * total / 3
                     else "late" if game.tiles_left < total / 3 else "mid")
            for row in branch(game, players, rollouts, f"cf{draw}"):
                rows.append({"draw": draw, "turn": game.turn, "tiles_left": game.tiles_left,
                             "phase": phase, "seat": d.seat, "action": d.info["action"],
                             "number": d.info["number"], **row})
            draw += 1
        game.apply(players[d.seat].choose(game, d))
    return rows
