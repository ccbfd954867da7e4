"""The C core's expansion units stay behind the hook table (game.h; issue 22 item 1):
game.c names no expansion, the registry lists every unit once, and no unit reads
another's state."""

import re
from pathlib import Path

CSRC = Path(__file__).resolve().parent.parent / "sim" / "csrc"
UNITS = {"messages.c": "msg", "river.c": "river", "courier.c": "courier", "mayors.c": "mm",
         "abbot.c": "abbot"}


def _code(name: str) -> str:
    """A C file without its comments (a comment may name what the code may not)."""
    text = (CSRC / name).read_text()
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)


def test_game_c_names_no_expansion():
    code = _code("game.c")
    # public cc_game_config fields (core.h) the base game's deal reads: the first
    # stack's sizes, shuffled on its own before the land tiles (R-RIV-1's river and
    # lake), and the batch's second stream per game
    code = re.sub(r"\b(?:c|cfg)(?:->|\.)(?:river_tiles|lake_tiles|messages_stream)\b", "", code)
    names, states = "|".join(n[:-2] for n in UNITS), "|".join(UNITS.values())
    found = re.findall(rf"\b(?:{names})_\w+|g->(?:{states})\b", code)
    assert found == []


def test_the_registry_lists_every_unit_once():
    code = _code("registry.c")
    listed = re.findall(r"&(\w+)_expansion\b", code)
    assert sorted(listed) == sorted(n[:-2] for n in UNITS)
    for name in ("game.c", "names.c", "save.c", "policy.c", "choice.c", "search.c"):
        assert "_expansion" not in _code(name), name


def test_no_unit_reads_another_units_state():
    for name, own in UNITS.items():
        code = _code(name)
        others = [f for f in UNITS.values() if f != own]
        found = re.findall(r"g->(" + "|".join(others) + r")\b", code)
        assert found == [], (name, found)


def test_the_shared_files_read_no_expansion_state():
    """The core's shared files (the base game, its policies, save/load, branches,
    setup) reach an expansion's state only through its hooks."""
    for name in ("game.c", "policy.c", "choice.c", "save.c", "branch.c", "setup.c", "options.c", "search.c",
                 "board.c", "names.c", "registry.c"):
        found = re.findall(rf"g->(?:{'|'.join(UNITS.values())})\b|\bCC_X_\w+", _code(name))
        assert found == [], (name, found)


# The base game's own step kinds; a unit's are local to it (game.h game_step_kind)
CORE_STEPS = {"STEP_SCORE", "STEP_AWARD", "STEP_END_ROUND", "STEP_UNITS"}
# the shared files: every C file that is not a unit
SHARED = ("game.c", "game.h", "internal.h", "policy.c", "choice.c", "save.c", "branch.c", "setup.c", "search.c",
          "options.c", "board.c", "names.c", "registry.c", "tileset.c")


def _struct_body(code: str, name: str) -> str:
    m = re.search(rf"struct {name} \{{(.*?)\n\}};", code, flags=re.S)
    assert m, name
    return m.group(1)


def test_game_h_names_no_units_state():
    """game.h declares no unit's state type and cc_game has no unit's field: each unit
    types its state in its own file and keeps it in the shared state area."""
    code = _code("game.h")
    assert re.findall(r"\b\w+_state_t\b|\b\w+_player_t\b", code) == []
    fields = re.findall(r"\b(\w+)(?:\[[^\]]*\])*;", _struct_body(code, "cc_game"))
    assert set(fields) & {*UNITS.values(), "mayors", "messages"} == set()


def test_game_h_names_no_units_steps_or_caps():
    """game.h's step kinds are the base game's; the units' caps, codes and functions
    (MSG_CHOICES_CAP, MOVED_CAP, MM_SC_*, messages_number) are their own files'; a
    message's points end a round of their own like any unit's (ROUND_OWN)."""
    code = _code("game.h")
    assert set(re.findall(r"\bSTEP_\w+", code)) <= CORE_STEPS
    names = "|".join(n[:-2] for n in UNITS) + "|mayors"
    found = re.findall(rf"\b(?:MSG|MM|COURIER|RIVER|ABBOT|MESSAGES|MAYORS)_\w+|\b(?:{names})_\w+\b"
                       r"|\bROUND_MESSAGE\b", code)
    assert found == []


def test_every_unit_reaches_its_state_through_game_state():
    """No C file reads a unit's state as a field of the game, not even the unit's own:
    a unit with state declares its size and finds it with game_state()."""
    states = "|".join(UNITS.values())
    for path in sorted(CSRC.glob("*.[ch]")):
        found = re.findall(rf"\b(?:g|c)->(?:{states})\b", _code(path.name))  # a game, its clone
        assert found == [], (path.name, found)
    for name in UNITS:
        code = _code(name)
        if "_state_t" in code:
            assert re.search(r"\.state_size = sizeof\(\w+_state_t\)", code), name
            assert "game_state(g, &" + name[:-2] in code, name


def test_units_push_their_own_steps_by_local_kind():
    """game_push takes the base game's kinds only; a unit's own steps go through
    game_push_step with its local kind, so no agenda code is written by hand."""
    for name in UNITS:
        code = _code(name)
        pushed = set(re.findall(r"\bgame_push\(\s*g\s*,\s*(\w+)", code))
        assert pushed <= CORE_STEPS, (name, pushed)
        assert re.findall(r"\.steps\b|\bSTEPS\b", code) == [], name  # a count, not a list
        for own in re.findall(r"\bgame_push_step\(\s*g\s*,\s*&(\w+)_expansion", code):
            assert own == name[:-2], (name, own)


def test_the_shared_files_name_no_units_codes():
    """The shared files name no unit's decision kinds, figure kinds (the follower is the
    base game's) or scoring-figure positions: a loaded decision's kind is checked
    against the units' declarations, greedy's road_figure swap is M&M's own hook."""
    for name in SHARED:
        found = re.findall(r"\bCC_DEC_(?!NONE\b|PLACE\b)\w+|\bCC_FIG_(?!FOLLOWER\b)\w+", _code(name))
        assert found == [], (name, found)


def test_figure_kind_codes_ascend_with_the_registry():
    """game_figure_rules lists the figures of the units in play in registry order, which
    must be kind order (the place rows' order): each unit's figure kinds come after the
    kinds of the units before it."""
    from sim.core import lib
    order = re.findall(r"&(\w+)_expansion\b", _code("registry.c"))
    codes = []
    for unit in order:
        codes += [getattr(lib, name) for name in re.findall(r"\{(CC_FIG_\w+), \"", _code(f"{unit}.c"))]
    assert codes == sorted(codes) and len(codes) == len(set(codes)) and codes[0] > lib.CC_FIG_FOLLOWER
