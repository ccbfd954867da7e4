"""Point sources and the result table (RULES.md R-BASE-9); feature values and majorities
are the C core's (sim/engine/board.py Board.value, majority);
the point sources are the base game's (sim/expansions/base.py SOURCES)."""

from __future__ import annotations

def result(scores: list[int], points: list[dict]) -> dict:
    """R-BASE-9: every player's score, rank (1 + players strictly ahead) and points by
    source; all tied leaders win."""
    top = max(scores)
    players = [{"seat": s, "score": scores[s], "rank": 1 + sum(o > scores[s] for o in scores),
                "points": dict(points[s])} for s in range(len(scores))]
    return {"players": players, "winners": [s for s in range(len(scores)) if scores[s] == top]}
