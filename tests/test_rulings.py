"""Ruling coverage: every ruling id of docs/RULES.md is cited by at least one test.

A test cites a ruling by its id anywhere in a test file or scripted game
(`# R-MSG-C2`, `"R-MM-6"`, `R-MM-2/8` for two of one family) or by a test name
(`test_r_mm_6_...`). A range (`R-MM-1..13`) cites only its first ruling: a module
docstring naming a range is no test of each.
"""

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULES = HERE.parent / "docs" / "RULES.md"
RULING = re.compile(r"\*\*(R-(?:[A-Z]+-)+?[A-Z]?\d+)\b")


def ruling_ids() -> list[str]:
    return sorted(set(RULING.findall(RULES.read_text())))


def cited_ids(text: str) -> set[str]:
    cited = set()
    for m in re.finditer(r"\bR-((?:[A-Z]+-)+?)([A-Z]?)(\d+)((?:(?:\.\.|/)[A-Z]?\d+)*)", text):
        family, letter, first, more = m.groups()
        cited.add(f"R-{family}{letter}{first}")
        cited.update(f"R-{family}{letter}{n}" for n in re.findall(r"/[A-Z]?(\d+)", more))
    for m in re.finditer(r"\bdef test_r_([a-z]+)_([a-z]?)(\d+)(?=_|\()", text):
        family, letter, n = m.groups()
        cited.add(f"R-{family.upper()}-{letter.upper()}{n}")
    return cited


def test_the_rule_book_has_rulings():
    ids = ruling_ids()
    assert len(ids) >= 40 and "R-MSG-C2" in ids and "R-MM-13" in ids


def test_ranges_and_names_are_read_as_citations():
    assert cited_ids("R-MM-1..3 and R-MSG-N1/3") == {"R-MM-1", "R-MSG-N1", "R-MSG-N3"}
    assert cited_ids("def test_r_msg_c2_trigger():") == {"R-MSG-C2"}
    assert "R-MM-1" not in cited_ids("# R-MM-10")


# Families no part of the rules implements yet (tests/test_expansions.py PENDING): their
# rulings get their tests with the code (none now).
PENDING: tuple[str, ...] = ()


def test_every_ruling_is_cited_by_a_test():
    files = [*HERE.glob("*.py"), *HERE.glob("scripts/*.toml")]
    text = "\n".join(p.read_text() for p in sorted(files) if p.name != Path(__file__).name)
    missing = [i for i in ruling_ids() if i not in cited_ids(text) and not i.startswith(PENDING)]
    assert missing == [], f"rulings no test cites: {', '.join(missing)}"
