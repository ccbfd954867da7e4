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


# ---------------------------------------------------------------- two_points (R-MSG-8)

def test_two_points_is_a_declared_knob_of_the_messages():
    part, knob = registry.KNOBS["two_points"]
    assert part.name == "messages"
    assert (knob.ruling, knob.default, knob.lo, knob.hi) == ("R-MSG-8", 2, 0, 10)
    r = Rules(expansions=("messages",), variant={"two_points": 3, "farm_points": 4})
    assert r.ruleset == "base-1(farm_points=4)+messages-1(two_points=3)"
    assert Rules(expansions=("messages",), variant={"two_points": 2}).ruleset == "base-1+messages-1"
    with pytest.raises(InputError, match=r"\[rules.variant\] two_points: The Messages is not among"):
        Rules(variant={"two_points": 3})  # the knob of a part not in play
    with pytest.raises(InputError) as e:
        Rules(expansions=("messages",), variant={"two_points": 11})
    assert "[rules.variant] two_points = 11" in str(e.value) and "0..10" in str(e.value)
    assert "\n" not in str(e.value)
    cfg = parse_experiment(_config('players = 2\nexpansions = ["messages"]\n[rules.variant]\n'
                                   'two_points = 3'), "x.toml")
    assert cfg.rules.knob("two_points") == 3 and rules_dict(cfg.rules)["variant"] == {"two_points": 3}


@pytest.mark.parametrize("two", [2, 3, 0])
def test_a_message_resolved_with_the_2_points_scores_two_points(two):
    from sim.engine.game import Game
    g = Game(Rules(expansions=("messages",), variant={"two_points": two}), 0)
    resolved, n = 0, 0
    while g.decision is not None:
        d = g.decision
        n += 1
        if d.kind == "messages":
            assert d.choices[0] == ("2", None) and d.info["points"][0] == two
            before = sum(g.scores)
            g.apply(("2", None))
            (e,) = [e for e in g.events if e["e"] == "message"][resolved:]
            assert e["resolved"] == "2" and e["points"] == two
            assert sum(g.scores) >= before + two  # and whatever a dark space brings on
            resolved += 1
        else:
            g.apply(d.choices[n * 7 % len(d.choices)])  # figures now and then
    assert resolved > 0
    assert sum(p["messages"]["points"].get(a, 0) for p in g.result()["players"]
               for a in p["messages"]["points"]) >= 0


@pytest.mark.parametrize("edition", ["c3.1", "classic"])
def test_the_reference_engine_plays_two_points_as_the_core_does(edition):
    from sim.expansions.messages import MessagesOptions
    diverged = []
    for two in (0, 5 if edition == "c3.1" else 7):
        rules = Rules(expansions=("messages",), messages=MessagesOptions(edition),
                      variant={"two_points": two})
        for seed in range(10):
            strategies = (("greedy", "greedy+messages=always_2") if seed % 2 else
                          ("random", "greedy"))
            compared, d = differential.check_game(rules, seed, list(strategies))
            assert compared > 0
            if d is not None:
                diverged.append(d.report())
    assert diverged == []


def test_a_classic_two_points_that_lands_on_dark_again_is_refused():
    """R-MSG-C3 with R-BASE-10: classic message points are a round of their own, so a
    positive multiple of 5 instead of 2 points would draw messages for ever: refused in
    one line; c3.1 (once per turn, R-MSG-N3) takes it."""
    from sim.expansions.messages import MessagesOptions
    with pytest.raises(InputError, match=r"\[rules.variant\] two_points = 5: under the classic edition"):
        Rules(expansions=("messages",), messages=MessagesOptions("classic"), variant={"two_points": 5})
    assert Rules(expansions=("messages",), variant={"two_points": 5}).knob("two_points") == 5
