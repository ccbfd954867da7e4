"""Position setup (sim/csrc/setup.c; Game.set_scoreboard, Game.set_supply): what it
writes is the game's own state (score, decisions, clone, save/load), and every bad
value is refused with a typed error quoting it and nothing changed."""

import pickle

import pytest

from sim.core import CoreArgumentError
from sim.engine.game import Game
from sim.expansions.messages import MessagesOptions
from sim.engine.rules import Rules


def messages_game(**kw):
    return Game(Rules(expansions=("messages",), messages=MessagesOptions("classic")), 0,
                stack=["E", "U"], **kw)


def state(g):
    return (g.scores, g.supply, [s.position for s in g.msg.players] if g.msg else None,
            [p.supply for p in g.mm.players] if g.mm else None, g.decision)


def test_scoreboard_sets_both_figures_and_the_score():
    g = messages_game()
    g.set_scoreboard(1, 3, 44)
    assert g.scores == [0, 47] and g.msg.players[1].position == (3, 44)
    assert g.points[1] == dict.fromkeys(g.points[1], 0)  # a head start, in no source
    # the state is the game's: clone and pickle carry it, and play goes on from it
    for copy in (g.clone(), pickle.loads(pickle.dumps(g))):
        assert state(copy) == state(g)
    g.set_scoreboard(0, 1, 0)
    cat = g.catalogue
    g.apply((0, 1, 2, 0, cat.variant(cat.index["E"], 2).segment_at("city S")))  # 4 points
    assert g.decision.info["positions"] == (1, 0)  # the decision shows the set spaces
    g.apply("meeple")
    assert g.msg.players[0].position == (5, 0) and g.scores[0] == 5
    assert g.decision.kind == "messages"  # 5 is a dark space (R-MSG-C2)


@pytest.mark.parametrize("args, why", [
    ((2, 0, 0), "seat out of range"), ((-1, 0, 0), "seat out of range"),
    ((0, -1, 0), "negative meeple"), ((0, 0, -5), "negative messenger"),
    ((0, 1001, 0), "above CC_SETUP_MAX_POSITION"), ((0, 0, 2**31 - 1), "far too big"),
])
def test_scoreboard_refuses_bad_values(args, why):
    g = messages_game()
    before = state(g)
    with pytest.raises(CoreArgumentError, match=r"cc_game_set_scoreboard\(seat=-?\d+, meeple=-?\d+, "
                                                  r"messenger=-?\d+\): bad argument"):
        g.set_scoreboard(*args)
    assert state(g) == before, why


def test_scoreboard_refused_once_the_seat_scored_or_without_the_messages():
    g = messages_game()
    cat = g.catalogue
    g.apply((0, 1, 2, 0, cat.variant(cat.index["E"], 2).segment_at("city S")))
    g.apply("meeple")  # seat 0 scored 4: its score is no longer a head start
    with pytest.raises(CoreArgumentError, match="seat=0, meeple=1, messenger=0"):
        g.set_scoreboard(0, 1, 0)
    g.set_scoreboard(1, 2, 2)  # seat 1 has not scored
    assert g.scores == [4, 4]
    base = Game(Rules(), 0)
    with pytest.raises(CoreArgumentError, match="cc_game_set_scoreboard"):
        base.set_scoreboard(0, 1, 0)
    while base.decision is not None:
        base.apply(base.decision.choices[0])
    g = messages_game()
    while g.decision is not None:
        g.apply(g.decision.choices[0])
    with pytest.raises(CoreArgumentError, match="cc_game_set_scoreboard"):
        g.set_scoreboard(1, 0, 0)  # the game is over


def test_supply_setup_and_its_bounds():
    g = Game(Rules(expansions=("mayors",)), 0, stack=["E", "U", "U"])
    g.set_supply(1, "follower", 0)
    g.set_supply(1, "scarecrow", 0)
    assert g.supply == [7, 0] and g.mm.players[1].supply == {1: 1, 2: 1, 3: 0}
    for copy in (g.clone(), pickle.loads(pickle.dumps(g))):
        assert state(copy) == state(g)
    before = state(g)
    for args in ((2, "follower", 1), (-1, "follower", 1), (1, "follower", -1), (1, "follower", 8),
                 (1, "mayor", 2), (1, "wizard", 0)):
        with pytest.raises(CoreArgumentError, match=r"cc_game_set_supply\(seat=.*, kind=.*, n=.*\)"):
            g.set_supply(*args)
        assert state(g) == before, args
    # not for the seat whose decision waits (its choices came from its supply)
    assert g.decision.seat == 0
    with pytest.raises(CoreArgumentError, match="seat=0, kind='follower', n=3"):
        g.set_supply(0, "follower", 3)
    # at most the complement less the figures on the board: seat 0's knight is out
    if g.decision.kind == "town_hall":
        g.apply("draw")
    cat = g.catalogue
    g.apply((0, 1, 2, 0, cat.variant(cat.index["E"], 2).segment_at("field Nw")))
    g.set_supply(0, "follower", 6)
    with pytest.raises(CoreArgumentError, match="n=7"):
        g.set_supply(0, "follower", 7)
    # figures of Messengers & Mayors only with it
    with pytest.raises(CoreArgumentError, match="kind='mayor'"):
        Game(Rules(), 0).set_supply(1, "mayor", 0)
