"""A place decision's choices as the C game wrote them (sim/engine/deal.py Rows): a
sequence equal to the tuple of its rows, unpacked only when asked."""

import pickle
import struct

import pytest

from sim.engine.deal import Rows
from sim.engine.game import Game
from sim.engine.rules import Rules

ROWS = ((1, 2, 3, 4, 5), (6, 7, 8, 9, 10), (0, -1, 2, -1, -1))


def rows(*r) -> Rows:
    return Rows(b"".join(struct.pack("=5i", *x) for x in r))


def test_rows_are_the_tuple_of_their_rows():
    r = rows(*ROWS)
    assert len(r) == 3 and r == ROWS and ROWS == r and list(r) == list(ROWS)
    assert r[0] == (1, 2, 3, 4, 5) and r[-1] == (0, -1, 2, -1, -1) and r[1:] == ROWS[1:]
    assert hash(r) == hash(ROWS) and repr(r) == repr(ROWS)
    with pytest.raises(IndexError):
        r[3]
    assert pickle.loads(pickle.dumps(r)) == r
    assert r != ROWS[:2] and r != "abc"


def test_index_finds_whole_rows_only():
    r = rows(*ROWS)
    assert r.index((6, 7, 8, 9, 10)) == 1 and r.index([0, -1, 2, -1, -1]) == 2
    # (2, 3, 4, 5, 6) is in the ints, across rows 0 and 1: not a row
    assert (2, 3, 4, 5, 6) not in r
    with pytest.raises(ValueError):
        r.index((2, 3, 4, 5, 6))
    for bad in ((1, 2, 3), ("a", 2, 3, 4, 5), 7, (2 ** 40, 0, 0, 0, 0)):
        assert bad not in r
        with pytest.raises(ValueError):
            r.index(bad)


def test_a_game_s_place_decision_is_rows_and_applies_as_before():
    g = Game(Rules(players=2, expansions=("messages", "courier")), 5)
    d = g.decision
    assert isinstance(d.choices, Rows) and len(d.choices) > 10
    last = tuple(d.choices[-1])
    g.apply(last)
    assert g.history[0] == last
