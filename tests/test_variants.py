"""Rule variants as data (issue 24 item 4): each part's knobs (sim/expansions/ Knob),
set by a config's [rules.variant], carried in Rules and its ruleset, played by the C
core and by the reference engine alike (the differential harness covers them).

The default game is unchanged bit for bit: `python tests/game_digest.py --games 2000`
prints the same digest with the knobs in place (977f8edd...).
"""

from dataclasses import replace
from pathlib import Path

import pytest

from sim import expansions as registry
from sim.engine.rules import Rules
from sim.errors import InputError
from sim.games import differential
from sim.games.script import load_script
from sim.tournament.config import parse_experiment, rules_dict
from engine import play_script

SCRIPTS = Path(__file__).resolve().parent / "scripts"


def _config(rules: str) -> str:
    return (f'[run]\nname = "v"\nblocks = 1\n\n[rules]\n{rules}\n\n'
            f'[design]\nkind = "fixed"\nseats = ["greedy", "greedy"]\n')


def _scored(game) -> list[tuple]:
    return [(e["feature"], e["points"], e["winners"], e["final"]) for e in game.events
            if e["e"] == "score"]


# ---------------------------------------------------------------- farm_points (R-BASE-8)

def test_farm_points_is_a_declared_knob_of_the_base_game():
    part, knob = registry.KNOBS["farm_points"]
    assert part is registry.BASE
    assert (knob.ruling, knob.default, knob.lo, knob.hi, knob.type) == ("R-BASE-8", 3, 0, 10, int)


def test_a_changed_knob_changes_the_ruleset_and_a_default_one_does_not():
    assert Rules().ruleset == "base-1"
    assert Rules(variant={"farm_points": 3}) == Rules()  # the default: the rules as written
    assert Rules(variant={"farm_points": 3}).ruleset == "base-1"
    assert Rules(variant={"farm_points": 4}).ruleset == "base-1(farm_points=4)"
    assert Rules(expansions=("messages",), variant={"farm_points": 0}).ruleset == \
        "base-1(farm_points=0)+messages-1"
    assert Rules(variant={"farm_points": 4}).knob("farm_points") == 4
    assert Rules().knob("farm_points") == 3


@pytest.mark.parametrize("value", [-1, 11, 2.5, True, "4"])
def test_a_knob_out_of_range_is_one_line_naming_it(value):
    with pytest.raises(InputError) as e:
        Rules(variant={"farm_points": value})
    text = str(e.value)
    assert "\n" not in text
    assert "[rules.variant] farm_points" in text and "0..10" in text


def test_an_unknown_knob_is_one_line_naming_it():
    with pytest.raises(InputError, match=r"\[rules.variant\] farm_point: unknown knob"):
        Rules(variant={"farm_point": 4})


def test_config_rules_variant_sets_the_knob_and_the_fingerprint():
    plain = parse_experiment(_config("players = 2"), "x.toml")
    same = parse_experiment(_config("players = 2\n[rules.variant]\nfarm_points = 3"), "x.toml")
    four = parse_experiment(_config("players = 2\n[rules.variant]\nfarm_points = 4"), "x.toml")
    assert four.rules.knob("farm_points") == 4 and four.rules.ruleset == "base-1(farm_points=4)"
    assert "variant" not in rules_dict(plain.rules)  # every existing run keeps its identity
    assert same.fingerprint() == plain.fingerprint()
    assert rules_dict(four.rules)["variant"] == {"farm_points": 4}
    assert four.fingerprint() != plain.fingerprint()
    with pytest.raises(InputError) as e:
        parse_experiment(_config("players = 2\n[rules.variant]\nfarm_points = 11"), "x.toml")
    assert str(e.value).startswith("x.toml: ") and "[rules.variant] farm_points = 11" in str(e.value)
    assert "0..10" in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("farm", [3, 4, 0, 10])
def test_a_field_with_two_completed_cities_scores_two_times_farm_points(farm):
    # tests/scripts/field_two_cities.toml: seat 0's farmer on a field bordering two
    # completed cities (each 2 tiles: 4 points to seat 1's knight, 0 to nobody)
    s = load_script(SCRIPTS / "field_two_cities.toml")
    s = replace(s, rules=replace(s.rules, variant=(("farm_points", farm),)))
    g = play_script(s)
    scored = _scored(g)
    assert scored[:2] == [("city", 4, [], False), ("city", 4, [1], False)]
    assert [x for x in scored[2:] if x[1]] == ([("field", 2 * farm, [0], True)] if farm else [])
    assert g.scores == [2 * farm, 4]
    assert g.points[0]["field"] == 2 * farm


@pytest.mark.parametrize("expansions", [(), ("messages",)])
def test_the_reference_engine_plays_farm_points_as_the_core_does(expansions):
    diverged = []
    for farm in (0, 7):
        rules = Rules(expansions=expansions, variant={"farm_points": farm})
        for seed in range(10):
            strategies = ("greedy", "random") if seed % 2 else ("greedy", "greedy")
            compared, d = differential.check_game(rules, seed, list(strategies))
            assert compared > 0
            if d is not None:
                diverged.append(d.report())
    assert diverged == []
