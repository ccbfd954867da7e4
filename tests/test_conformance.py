"""Conformance over everything registered (STYLE.md rule 12): every combination of the
implemented expansions × every registered policy plays seeded games while invariants
are checked at every step. Driven by the registries (sim.engine.rules.IMPLEMENTED_EXPANSIONS,
strategies.REGISTRY), so an expansion or policy added there is covered here without a
new list.
"""

from __future__ import annotations

import itertools

import pytest

from sim.expansions import mayors
from sim.expansions.abbot import ABBOT
from engine import new_game, state
from sim.engine.view import view_of
from sim.expansions.messages import MessagesOptions
from sim.engine.rules import IMPLEMENTED_EXPANSIONS, Rules
from strategies import DECISION_KINDS, REGISTRY, make, player

COMBINATIONS = [c for n in range(len(IMPLEMENTED_EXPANSIONS) + 1)
                for c in itertools.combinations(sorted(IMPLEMENTED_EXPANSIONS), n)]


def registered_players() -> list[str]:
    """A player spec per registered policy: a policy answering every decision kind
    plays alone; one answering some kinds is composed onto greedy for those."""
    make("first")  # imports the built-in policies into the registry
    specs = []
    for name, cls in sorted(REGISTRY.items()):
        kinds = getattr(cls, "KINDS", ())
        params = getattr(cls, "PARAMS", {})
        budget = {k: v for k, v in (("rollouts", 1), ("candidates", 2)) if k in params}
        if budget:  # a search policy at its smallest budget: what is checked is legality
            name += "(" + ",".join(f"{k}={v}" for k, v in budget.items()) + ")"
        if set(DECISION_KINDS) <= set(kinds):
            specs.append(name)
        else:
            specs.append("greedy" + "".join(f"+{k}={name}" for k in kinds))
    return specs


PLAYERS = registered_players()


def figures_on_board(g) -> dict[tuple[int, int], int]:
    n: dict[tuple[int, int], int] = {}
    for _, info in g.board.figures():
        n[info.player, info.kind] = n.get((info.player, info.kind), 0) + 1
    return n


def check_figures_conserved(g) -> None:
    """R-BASE-1 (and R-MM section 3): supply + board is each seat's full set."""
    board = figures_on_board(g)
    mm, abbot = view_of(g).mayors, view_of(g).abbot
    for s in range(g.rules.players):
        if abbot:  # R-ABB-1: one abbot, in supply or on the board
            assert abbot.seats[s].in_supply + board.get((s, ABBOT), 0) == 1
        assert g.supply[s] + board.get((s, mayors.FOLLOWER), 0) == g.rules.followers
        if mm:
            seat = mm.seats[s]
            for kind, left in ((mayors.MAYOR, seat.mayor), (mayors.MESSENGER, seat.messenger),
                               (mayors.SCARECROW, seat.scarecrow)):
                assert left + board.get((s, kind), 0) == 1


def place_key(c):
    x, y, rot, fig, seg = c
    # no figure (-1, -1) first, then segment, figure kind; the step-2 actions (R-ABB-5:
    # segment < -1) after every placement's rows, in placement order
    return (seg < -1, y, x, rot, seg, fig)


def check_choices(d) -> None:
    """Unique, in the order the contract states (sim/engine/game.py module docstring)."""
    assert len(set(d.choices)) == len(d.choices), d
    if d.kind == "place":
        assert list(d.choices) == sorted(d.choices, key=place_key)
    elif d.kind == "figure":
        assert d.choices[0] == (-1, -1) and len(d.choices) > 1
        assert list(d.choices[1:]) == sorted(d.choices[1:], key=lambda c: (c[1] < -1, c[1], c[0]))
    elif d.kind == "town_hall":
        cells = [c for c in d.choices if isinstance(c, tuple)]
        assert cells == sorted(cells, key=lambda c: (c[1], c[0]))
    elif d.kind == "scoring_figure":
        assert d.choices == ("meeple", "messenger")
    elif d.kind == "messages":
        assert d.choices[0] == ("2", None)
    elif d.kind in ("favour", "ride"):
        assert d.choices[0] in ("none", "return")


def check_points_from_events(g) -> None:
    """Every point is accounted for by an event that names its cause: a scored
    feature's points go to each of its winners (R-BASE-7), a message's and a
    thank-you's to their seat. Recomputed from the events, not from the counters."""
    n = g.rules.players
    expect = [dict.fromkeys(g.points[0], 0) for _ in range(n)]
    for e in g.events:
        if e["e"] == "score":
            for w in e["winners"]:
                expect[w][e["feature"]] += e["points"]
        elif e["e"] == "message":
            expect[e["seat"]]["message"] += e["points"]
        elif e["e"] == "courier":
            expect[e["seat"]]["courier"] += e["points"]
        elif e["e"] == "recall":  # R-ABB-5: scored as its feature, at once
            expect[e["seat"]][e["where"]] += e["points"]
    assert expect == g.points
    assert [sum(p.values()) for p in expect] == g.scores


def play(g, seats):
    while g.decision is not None:
        g.apply(seats[g.decision.seat].choose(g, g.decision))
    return g


def play_checked(g, seats):
    while g.decision is not None:
        d = g.decision
        check_choices(d)
        before = list(g.scores)
        g.apply(seats[d.seat].choose(g, d))
        check_figures_conserved(g)
        assert all(a >= b for a, b in zip(g.scores, before)), "a score fell"
    return g


@pytest.mark.parametrize("expansions", COMBINATIONS, ids=lambda c: "+".join(c) or "base")
def test_every_expansion_and_policy(expansions):
    for k, spec in enumerate(PLAYERS):
        seed = 101 * len(expansions) + k
        n = 2 + (seed % 5)
        edition = ("c3.1", "classic")[k % 2]
        rules = Rules(players=n, expansions=expansions, messages=MessagesOptions(edition))
        specs = [spec if s % 2 == 0 else PLAYERS[(k + s) % len(PLAYERS)] for s in range(n)]
        g = new_game(rules, seed)
        fork_at = 5 + seed % 30
        while g.decision is not None and g.turn < fork_at:
            g.apply(player(specs[g.decision.seat]).choose(g, g.decision))
        fork = g.clone()
        assert state(fork) == state(g)
        snapshot = state(fork)
        play_checked(g, [player(s) for s in specs])
        assert state(fork) == snapshot  # playing the original left the clone alone
        play_checked(fork, [player(s) for s in specs])
        assert fork.events == g.events  # the clone is independent and carries every stream
        # same seed, same game: the replay's every choice and event equal the checked
        # game's, so its states are the ones checked above (not checked a second time:
        # some 5 % of this test's time, here and under ASan)
        again = play(new_game(rules, seed), [player(s) for s in specs])
        assert again.events == g.events and again.history == g.history
        check_points_from_events(g)
        assert g.tiles_left == 0 and g.events[-1]["e"] == "end"
