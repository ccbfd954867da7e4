"""Golden playthroughs (STYLE.md rule 11): one seeded game per expansion and one with all
of them, dumped in the project's notation — every decision (who decides what, among how
many choices), the readable log lines of what it caused, and every seat's score after
it — stored under tests/golden/ and replayed and diffed here. The dump names no
engine-internal ids (figure or segment numbers), so any engine that plays the same game
must produce the same text.

Regenerate after an intended rules change, and read the diff before committing:
    CARCSIM_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from engine import new_game
from sim.formats.log import event_line
from sim.expansions.messages import MessagesOptions
from sim.engine.rules import IMPLEMENTED_EXPANSIONS, Rules
from strategies import player

GOLDEN = Path(__file__).resolve().parent / "golden"
# name: (expansions, edition, seed, seat specs); one per expansion, and everything
GAMES = {
    "base": ((), "c3.1", 11, ("greedy", "random")),
    "messages": (("messages",), "c3.1", 12, ("greedy", "greedy+scoring_figure=coverage")),
    "messages_classic": (("messages",), "classic", 13, ("greedy", "random", "first")),
    "mayors": (("mayors",), "c3.1", 14, ("greedy", "random", "greedy(road_figure=\"messenger\")")),
    "river": (("river",), "c3.1", 15, ("random", "greedy")),
    "courier": (("courier",), "c3.1", 16, ("greedy(courier=3.0)", "greedy")),
    "abbot": (("abbot",), "c3.1", 18, ("greedy", "random", "greedy(follower=1.5)")),
    "all": (("messages", "mayors", "river", "courier", "abbot"), "classic", 17,
            ("greedy", "random", "greedy(courier=2.0)", "first")),
}


def playthrough(name: str) -> str:
    expansions, edition, seed, specs = GAMES[name]
    rules = Rules(players=len(specs), expansions=expansions, messages=MessagesOptions(edition))
    seats = [player(s) for s in specs]
    g = new_game(rules, seed)
    lines = [f"# golden playthrough {name}: expansions={','.join(expansions) or 'none'} "
             f"edition={edition} seed={seed} seats={' | '.join(specs)}"]

    def log(events):
        lines.extend("  " + t for t in map(event_line, events) if t is not None)

    log(g.events)
    while g.decision is not None:
        d, seen = g.decision, len(g.events)
        lines.append(f"> turn {g.turn} seat {d.seat} {d.kind}{' ' + d.tile if d.tile else ''} "
                     f"({len(d.choices)} choices)")
        g.apply(seats[d.seat].choose(g, d))
        log(g.events[seen:])
        lines.append("  scores " + " ".join(map(str, g.scores)))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough(name):
    path = GOLDEN / f"playthrough_{name}.txt"
    got = playthrough(name)
    if os.environ.get("CARCSIM_REGEN_GOLDEN") == "1":
        path.write_text(got)
    want = path.read_text()
    if got != want:
        diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                            str(path), "replayed", n=2))
        pytest.fail(f"{name} no longer plays as recorded:\n{diff[:6000]}")


def test_every_registered_expansion_has_a_golden_game():
    covered = {e for expansions, *_ in GAMES.values() if len(expansions) == 1 for e in expansions}
    assert covered == set(IMPLEMENTED_EXPANSIONS), "an expansion has no golden game of its own"
    assert any(set(e) == set(IMPLEMENTED_EXPANSIONS) for e, *_ in GAMES.values())
    for name in GAMES:
        assert (GOLDEN / f"playthrough_{name}.txt").is_file(), name
