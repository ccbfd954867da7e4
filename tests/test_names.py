"""The names and layouts C owns (core.h CC_NAMES_*, cc_result_field, cc_policy_accepts)
agree with the enums they name and with every Python table that must agree with them
(issue 22 item 4: no hand-kept mirrors)."""

import re

import pytest

from sim.core import RESULT_INTS, STATUS_INTS, ffi, lib, names, result_fields
from sim.engine import game, seats
from sim.expansions import base, declaration, mayors, messages
from strategies.registry import REGISTRY, BuiltIn


def _enum(prefix: str, skip=()) -> dict[str, int]:
    """core.h's enum constants PREFIX_NAME as {name in lower case: value}."""
    out = {}
    for attr in dir(lib):
        m = re.fullmatch(prefix + r"([A-Z0-9_]+)", attr)
        if m and m.group(1) not in skip:
            out[m.group(1).lower()] = getattr(lib, attr)
    return out


@pytest.mark.parametrize("table, prefix, skip", [
    (lib.CC_NAMES_EVENT, "CC_EV_", ()),
    (lib.CC_NAMES_SOURCE, "CC_SRC_", ()),
    (lib.CC_NAMES_FIGURE, "CC_FIG_", ()),
    (lib.CC_NAMES_DECISION, "CC_DEC_", ()),
    (lib.CC_NAMES_POLICY, "CC_POL_", ("PYTHON",)),
    (lib.CC_NAMES_MM_WORD, "CC_MM_", ()),
])
def test_each_name_table_names_its_enum_one_to_one(table, prefix, skip):
    enum = _enum(prefix, skip)
    got = names(table)
    assert len(got) == len(enum) and sorted(enum.values()) == list(range(len(got)))
    assert {got[code]: code for code in range(len(got))} == enum


def test_names_refuse_what_is_out_of_range():
    assert lib.cc_name(lib.CC_NAMES_EVENT, -1) == ffi.NULL
    assert lib.cc_name(lib.CC_NAMES_TABLES, 0) == ffi.NULL
    assert lib.cc_name(-1, 0) == ffi.NULL
    assert lib.cc_name(lib.CC_NAMES_SOURCE, lib.CC_NSOURCES) == ffi.NULL
    name, at, width = ffi.new("const char **"), ffi.new("int32_t *"), ffi.new("int32_t *")
    assert lib.cc_result_field(len(result_fields()), name, at, width) == lib.CC_ERR_ARG
    assert lib.cc_result_field(-1, name, at, width) == lib.CC_ERR_ARG
    assert lib.cc_result_field(0, ffi.NULL, at, width) == lib.CC_ERR_ARG
    assert lib.cc_policy_accepts(lib.CC_DEC_NONE, lib.CC_POL_FIRST) == lib.CC_ERR_ARG
    assert lib.cc_policy_accepts(lib.CC_DEC_FIGURE + 1, lib.CC_POL_FIRST) == lib.CC_ERR_ARG


@pytest.mark.parametrize("status, ints", [(False, RESULT_INTS), (True, STATUS_INTS)])
def test_the_declared_fields_tile_the_row(status, ints):
    """The base game's fields and every expansion's declared slice (game.h field_t)
    cover the row exactly, each field once."""
    fields = result_fields(status)
    at = 0
    for name, (offset, width) in fields.items():
        assert offset == at and width >= 1, name
        at += width
    assert at == ints
    name, offset, width = ffi.new("const char **"), ffi.new("int32_t *"), ffi.new("int32_t *")
    assert lib.cc_status_field(len(result_fields(True)), name, offset, width) == lib.CC_ERR_ARG


def test_the_status_row_is_read_by_name():
    from sim.engine.game import Game
    from sim.engine.rules import Rules

    g = Game(Rules(players=2, expansions=("courier",)), 3)
    fields = result_fields(True)
    buf = ffi.new("int32_t[]", STATUS_INTS)
    assert lib.cc_game_status(g._ptr, buf, STATUS_INTS) == lib.CC_OK
    row = list(buf)
    assert row[fields["turn"][0]] == g.turn == 1 and row[fields["tiles"][0]] == len(g.board) == 1
    assert row[fields["courier"][0]] == 0 and g.courier_at is None  # R-COU-2: off the board


def test_python_tables_agree_with_the_c_layout_and_names():
    fields = result_fields()
    width = {k: w for k, (_, w) in fields.items()}
    assert width["points"] == len(base.SOURCES) == lib.CC_NSOURCES
    assert width["mayors"] == len(mayors.MAYORS_COLUMNS)
    assert width["mm_supply"] == len(mayors.MAYORS.figures) == 3  # mayor, messenger, scarecrow
    assert width["abbot"] == 4  # in supply, placed, recalls, recall points (sim/expansions/abbot.py)
    for edition, actions in messages.ACTION_NAMES.items():
        assert len(actions) == width["drawn"] == width["resolved"] == lib.CC_NMSG, edition
    assert width["figures"] == width["moves"] == len(messages.FIGURES)
    assert len(mayors.SCARECROW_CHOICES) == 3  # MM_SC_FARMER, LIE, RETURN
    assert declaration.ROW_RANK == fields["rank"][0] and declaration.ROW_SCORE == fields["score"][0]
    assert game.EVENT_NAMES[lib.CC_EV_TOWNHALL] == "townhall"
    assert set(mayors.MM_DECISIONS.values()) == {d.name for d in mayors.MAYORS.decisions}
    assert mayors.KIND_NAMES[mayors.SCARECROW] == "scarecrow"


def test_every_built_in_policy_is_one_c_plays():
    """A BuiltIn's name is its c_policy: C must accept it for at least one decision kind,
    and every name C plays is a registered built-in."""
    built_in = {name for name, cls in REGISTRY.items() if issubclass(cls, BuiltIn)}
    played = {name for table in seats.POLICY_CODES.values() for name in table}
    assert built_in == played
    assert set(seats.POLICY_CODES) == set(seats.PAUSABLE)
    assert seats.POLICY_CODES["scoring_figure"]["dark_seeker"] == lib.CC_POL_DARK_SEEKER
    assert "always_2" not in seats.POLICY_CODES["place"]  # C refuses it for a place
    assert lib.cc_policy_accepts(lib.CC_DEC_PLACE, lib.CC_POL_PYTHON) == 1


def test_dark_spaces_and_the_courier_neighbourhood_are_c_queries():
    # R-BASE-10: 0, 5, ..., 45 on the 50-space board; past 49 the count wraps
    assert [t for t in range(0, 56) if base.is_dark(t)] == [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55]
    assert base.is_dark(100) and not base.is_dark(51)
    # the dark_every knob (a variant of R-BASE-10): spaces 0, 4, ..., 48 of the 50, so
    # 52 stands on space 2 (not dark) and 54 on space 4 (dark)
    assert [t for t in range(0, 60) if base.is_dark(t, 4)] == [
        0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 50, 54, 58]
    # R-COU-3: the Courier's tile and the 4 orthogonal neighbours, nothing diagonal
    near = {(x, y) for x in range(-3, 4) for y in range(-3, 4) if lib.cc_courier_near(1, 1, x, y)}
    assert near == {(1, 1), (0, 1), (2, 1), (1, 0), (1, 2)}
    big = 2 ** 31 - 1
    assert lib.cc_courier_near(big, 0, -big - 1, 0) == 0  # no overflow at the int32 ends


def test_row_widths_are_the_declared_fields():
    """No fixed row width (issue 22 item 1): cc_result_ints and cc_status_ints are the
    sums of the fields the base game and the units declare, and the fields tile them."""
    for status, ints in ((False, RESULT_INTS), (True, STATUS_INTS)):
        fields = result_fields(status)
        assert sum(w for _, w in fields.values()) == ints
        assert max(o + w for o, w in fields.values()) == ints
