"""The result table (RULES.md R-BASE-9) from the C core's result rows: scores, ranks
and points by source are C's (cc_game_result; ranks: 1 + the players strictly ahead);
feature values and majorities are the C core's too (sim/engine/board.py Board.value,
majority); the point sources are the base game's (sim/expansions/base.py SOURCES)."""

from __future__ import annotations


def result(players: list[tuple[int, int, dict]]) -> dict:
    """R-BASE-9: per seat (score, rank, points by source) as C gives them, in seat order;
    the winners are every seat of rank 1 (all tied leaders)."""
    return {"players": [{"seat": s, "score": score, "rank": rank, "points": dict(points)}
                        for s, (score, rank, points) in enumerate(players)],
            "winners": [s for s, (_, rank, _) in enumerate(players) if rank == 1]}
