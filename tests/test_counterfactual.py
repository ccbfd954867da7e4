"""Counterfactual branching and its estimator, on a forced case worked out by hand."""

import polars as pl

from sim.analysis.balance import counterfactual_values
from sim.game import Game
from sim.messages import MessagesOptions
from sim.rules import Rules
from sim.tournament.counterfactual import branch, play_with_branches
from strategies import player


def forced_game():
    """Seat 0: a highwayman on D + four U (5 tiles, open), meeple at 1; on the last tile
    its E closes D's city with a knight: 4 points -> 5, dark: smallest_road is drawn.
    Taking it scores the road's 5 (the highwayman stays) instead of 2; final scoring
    then adds the same 5 for the road in both branches: seat 0 ends at 15 or 12 against
    seat 1's 0, so the action is worth exactly 3 points of margin and no win."""
    rules = Rules(expansions=("messages",), messages=MessagesOptions("c3.1", False, ("smallest_road",)))
    g = Game(rules, 0, stack=["U", "U", "U", "U", "E"])
    cat = g.catalogue
    g.apply((1, 0, 0, 0, cat.variant(cat.index["U"], 0).segment_at("road E")))
    for x in (2, 3, 4):
        g.apply((x, 0, 0, -1, -1))
    g.msg.players[0].position = [1, 0]
    g.scores[0] = 1
    g.apply((0, 1, 2, 0, cat.variant(cat.index["E"], 2).segment_at("city S")))
    g.apply("meeple")
    assert g.decision.kind == "messages" and g.decision.info["action"] == "smallest_road"
    return g


def test_branch_value_by_hand():
    g = forced_game()
    rows = branch(g, [player("greedy")] * 2, rollouts=3, key="t")
    assert [(r["margin_action"], r["margin_two"], r["win_action"], r["win_two"]) for r in rows] == [
        (15, 12, 1.0, 1.0)] * 3
    assert g.decision.kind == "messages"  # the game itself did not move


def test_estimator_on_the_forced_case():
    g = forced_game()
    rows = play_with_branches(g, [player("greedy")] * 2, rollouts=2)
    assert g.over and len(rows) == 2 and rows[0]["phase"] == "late"
    cf = pl.DataFrame([{"game_id": 0, "edition": "c3.1", **r} for r in rows])
    v = counterfactual_values(cf).filter(pl.col("phase") == "all").row(0, named=True)
    assert (v["action"], v["d_margin"], v["d_win"], v["games"], v["rollouts"]) == (
        "smallest_road", 3.0, 0.0, 1, 2)


def test_rollouts_are_reproducible_and_differ_by_key():
    """Branches draw their randomness from streams keyed by the rollout: the same key
    gives the same rollouts; other keys give other games (random players)."""
    rules = Rules(expansions=("messages",))
    seats = [player("random+messages=always_2")] * 2
    for seed in range(60):
        g = Game(rules, seed)
        while g.decision is not None and g.decision.kind != "messages":
            g.apply(seats[g.decision.seat].choose(g, g.decision))
        if g.decision is not None and len(g.decision.choices) > 1:
            break
    else:
        raise AssertionError("no message with a possible action in 60 random games")
    first = branch(g, seats, 4, "k")
    assert branch(g, seats, 4, "k") == first
    others = [branch(g, seats, 4, f"other{i}") for i in range(3)]
    assert any(o != first for o in others)
    assert len({(r["margin_action"], r["margin_two"]) for r in first + sum(others, [])}) > 1
