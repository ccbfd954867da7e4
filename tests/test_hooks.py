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
    for name in ("game.c", "names.c", "save.c", "policy.c", "choice.c"):
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
    for name in ("game.c", "policy.c", "choice.c", "save.c", "branch.c", "setup.c", "options.c",
                 "board.c", "names.c", "registry.c"):
        found = re.findall(rf"g->(?:{'|'.join(UNITS.values())})\b|\bCC_X_\w+", _code(name))
        assert found == [], (name, found)
