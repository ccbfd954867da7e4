"""A scripted turn's answers are each asked for (sim/games/script.py, the parts'
`unused`): more answers than decisions, or a target for a message answered "2", would do
nothing and are refused; "-" holds the place of a "2" in message_target (the form
`carcsim check` writes its divergence scripts in)."""

from pathlib import Path

import pytest

from sim.errors import InputError
from sim.games.script import load_script, play_script

SCRIPT = (Path(__file__).parent / "scripts" / "messages_c31.toml").read_text()
TURN5 = 'message = "action"\nmessage_target = "3,0 road S"'


def play(tmp_path, answers: str):
    path = tmp_path / "s.toml"
    assert TURN5 in SCRIPT
    path.write_text(SCRIPT.replace(TURN5, answers))
    return play_script(load_script(path))


def test_a_placeholder_holds_the_place_of_a_message_answered_2(tmp_path):
    """Turn 5 draws one message (smallest_road, R-MSG-N1): answered "2" with the
    placeholder it plays as "2" alone; seat 0 then has 2 message points, not the road's 1."""
    plain = play(tmp_path, 'message = "2"')
    held = play(tmp_path, 'message = "2"\nmessage_target = "-"')
    points = [p["points"]["message"] for p in held.result()["players"]]
    assert points == [p["points"]["message"] for p in plain.result()["players"]] and points[0] == 2


@pytest.mark.parametrize("answers, expect", [
    ('message = "2"\nmessage_target = "3,0 road S"', "message_target 1 = '3,0 road S': message 1 has \"2\""),
    ('message = ["action", "2"]\nmessage_target = ["3,0 road S"]', "message: 2 answers, but the turn drew 1 message"),
    ('message_target = "3,0 road S"', "message_target 1 = '3,0 road S': message 1 has no answer"),
    ('message = "action"\nmessage_target = "-"',
     "message 1 (smallest_road): message_target = '-' names no target, and this action chooses one of 1"),
])
def test_an_answer_nothing_asks_for_is_refused_naming_the_turn(tmp_path, answers, expect):
    with pytest.raises(InputError, match="turn 5: " + expect.replace("(", r"\(").replace(")", r"\)")):
        play(tmp_path, answers)


def test_the_differential_check_refuses_what_play_refuses(tmp_path):
    """`carcsim check --script` plays the same script player: the same refusal."""
    from sim.games.differential import check_script

    path = tmp_path / "s.toml"
    path.write_text(SCRIPT.replace(TURN5, 'message = ["action", "2"]\nmessage_target = ["3,0 road S"]'))
    with pytest.raises(InputError, match="turn 5: message: 2 answers, but the turn drew 1 message"):
        check_script(path)
