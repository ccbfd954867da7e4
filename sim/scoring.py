"""Feature values and majorities (RULES.md R-BASE-6..8), from the C core's aggregates."""

from __future__ import annotations

from sim.board import Board, Feature

# point sources in results; "message" and "courier" stay 0 until those expansions play
SOURCES = ("road", "city", "monastery", "field", "message", "courier")


def feature_value(board: Board, f: Feature, final: bool) -> int:
    """What feature `f` is worth, completed during play (R-BASE-6) or in final
    scoring (R-BASE-8, `final`), for the tests' Python engine (the C game's is
    sim/csrc/board.c feature_value).

    A monastery's `tiles` is its own tile plus every neighbour but town halls
    (R-MM-10, counted by the C core): 9 when completed without a town hall, 8 with one.
    Complete cities score as during play in final scoring only if left unscored, which
    the engine never does.
    """
    if f.kind == "road":
        return f.tiles  # 1 per tile, each tile once however often the road crosses it
    if f.kind == "city":
        return (1 if final else 2) * (f.tiles + f.coats)
    if f.kind == "monastery":
        return f.tiles
    if not final:
        raise ValueError("a field is never completed during play")
    # field: 3 per completed city that borders it
    return 3 * sum(board.feature(c).complete for c in board.field_cities(f.root))


def majority(counts: tuple[int, ...], strengths: tuple[int, ...]) -> list[int]:
    """Seats with the greatest strength among those with figures present (R-BASE-7).

    Ties share: every tied seat scores the full value. Strength-0 figures count as
    present; they win only when nobody present has more (R-MM-4).
    """
    present = [p for p, c in enumerate(counts) if c > 0]
    if not present:
        return []
    best = max(strengths[p] for p in present)
    return [p for p in present if strengths[p] == best]


def result(scores: list[int], points: list[dict]) -> dict:
    """R-BASE-9: every player's score, rank (1 + players strictly ahead) and points by
    source; all tied leaders win."""
    top = max(scores)
    players = [{"seat": s, "score": scores[s], "rank": 1 + sum(o > scores[s] for o in scores),
                "points": dict(points[s])} for s in range(len(scores))]
    return {"players": players, "winners": [s for s in range(len(scores)) if scores[s] == top]}
