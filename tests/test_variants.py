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


def _diverged(rules_list, seeds: int, seats) -> list[str]:
    """Each rules of `rules_list` played in both engines (the differential harness) on
    `seeds` seeds, seed s by `seats(s)`: the reports of the games where they part."""
    out = []
    for rules in rules_list:
        for seed in range(seeds):
            compared, d = differential.check_game(rules, seed, list(seats(seed)))
            assert compared > 0
            if d is not None:
                out.append(d.report())
    return out


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
    assert "rules.variant.farm_points" in text and "0..10" in text


def test_an_unknown_knob_is_one_line_naming_it():
    with pytest.raises(InputError, match=r"rules\.variant\.farm_point: unknown knob"):
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
    assert str(e.value).startswith("x.toml: ") and "rules.variant.farm_points = 11" in str(e.value)
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
    rules = [Rules(expansions=expansions, variant={"farm_points": farm}) for farm in (0, 7)]
    assert _diverged(rules, 10, lambda s: ("greedy", "random") if s % 2 else ("greedy", "greedy")) == []


# ---------------------------------------------------------------- two_points (R-MSG-8)

def test_two_points_is_a_declared_knob_of_the_messages():
    part, knob = registry.KNOBS["two_points"]
    assert part.name == "messages"
    assert (knob.ruling, knob.default, knob.lo, knob.hi) == ("R-MSG-8", 2, 0, 10)
    r = Rules(expansions=("messages",), variant={"two_points": 3, "farm_points": 4})
    assert r.ruleset == "base-1(farm_points=4)+messages-1(two_points=3)"
    assert Rules(expansions=("messages",), variant={"two_points": 2}).ruleset == "base-1+messages-1"
    with pytest.raises(InputError, match=r"rules\.variant\.two_points: The Messages is not among"):
        Rules(variant={"two_points": 3})  # the knob of a part not in play
    with pytest.raises(InputError) as e:
        Rules(expansions=("messages",), variant={"two_points": 11})
    assert "rules.variant.two_points = 11" in str(e.value) and "0..10" in str(e.value)
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
    rules = [Rules(expansions=("messages",), messages=MessagesOptions(edition), variant={"two_points": two})
             for two in (0, 5 if edition == "c3.1" else 7)]
    assert _diverged(rules, 10, lambda s: ("greedy", "greedy+messages=always_2") if s % 2 else
                     ("random", "greedy")) == []


def test_a_classic_two_points_that_lands_on_dark_again_is_refused():
    """R-MSG-C3 with R-BASE-10: classic message points are a round of their own, so a
    positive multiple of 5 instead of 2 points would draw messages for ever: refused in
    one line; c3.1 (once per turn, R-MSG-N3) takes it."""
    from sim.expansions.messages import MessagesOptions
    with pytest.raises(InputError, match=r"rules\.variant\.two_points = 5: under the classic edition"):
        Rules(expansions=("messages",), messages=MessagesOptions("classic"), variant={"two_points": 5})
    assert Rules(expansions=("messages",), variant={"two_points": 5}).knob("two_points") == 5


# ---------------------------------------------------------------- dark_every (R-BASE-10)

def _messages_rules(edition="c3.1", **variant):
    from sim.expansions.messages import MessagesOptions
    return Rules(expansions=("messages",), messages=MessagesOptions(edition), variant=variant)


def test_dark_every_is_a_declared_knob_of_the_messages():
    part, knob = registry.KNOBS["dark_every"]
    assert part.name == "messages"
    assert (knob.ruling, knob.default, knob.lo, knob.hi) == ("R-BASE-10", 5, 2, 10)
    assert _messages_rules(dark_every=4).ruleset == "base-1+messages-1(dark_every=4)"
    assert _messages_rules(dark_every=5) == _messages_rules()
    with pytest.raises(InputError) as e:
        _messages_rules(dark_every=1)
    assert "rules.variant.dark_every = 1" in str(e.value) and "2..10" in str(e.value)


@pytest.mark.parametrize("edition", ["c3.1", "classic"])
def test_a_figure_is_on_a_dark_space_by_the_knobs_spacing(edition):
    """R-BASE-10 under dark_every = 4: spaces 0, 4, ..., 48 of the 50 are dark, so a
    figure at 52 (space 2) is not, at 54 (space 4) is. Every move event's dark flag
    follows that, and every message is drawn by a figure that moved onto one (R-MSG-C2,
    R-MSG-N2)."""
    from sim.engine.game import Game
    from strategies.registry import player
    wrapped = 0
    for seed in range(3):
        # all points on the scoring meeple, so it passes 49 (R-BASE-10's wrap)
        g = Game(_messages_rules(edition, dark_every=4), seed,
                 [player("greedy+scoring_figure=meeple_only"), player("greedy")])
        moves = [e for e in g.events if e["e"] == "move"]
        assert moves and all(e["dark"] == (e["after"] % 50 % 4 == 0) for e in moves)
        wrapped += any(e["after"] >= 50 for e in moves)
        draws = 0
        for i, e in enumerate(g.events):
            if e["e"] == "message_draw":
                draws += 1
                last = next(m for m in reversed(g.events[:i]) if m["e"] == "move")
                assert last["after"] % 50 % 4 == 0  # R-MSG-C2 / N2: a dark space drew it
        assert draws > 0
    assert wrapped > 0


@pytest.mark.parametrize("edition", ["c3.1", "classic"])
def test_the_reference_engine_plays_dark_every_as_the_core_does(edition):
    rules = [_messages_rules(edition, dark_every=every, two_points=two)
             for every, two in ((4, 2), (3, 4), (10, 3))]
    assert _diverged(rules, 8, lambda s: ("greedy", "random") if s % 2 else
                     ("greedy+scoring_figure=coverage", "greedy+scoring_figure=spread")) == []


def test_a_classic_chain_without_end_is_refused_for_any_spacing_that_divides_50():
    """R-MSG-C3: from a dark space, points that are a multiple of a spacing dividing
    the 50 spaces land on a dark space again, every time; a spacing that does not divide
    50 (4: 48 + 4 = 52, space 2) ends the chain at the wrap, so it is taken."""
    with pytest.raises(InputError, match=r"two_points = 2: under the classic edition .*dark_every = 2"):
        _messages_rules("classic", dark_every=2)  # the 2 points on a spacing of 2
    with pytest.raises(InputError, match=r"two_points = 10: .*dark_every = 10"):
        _messages_rules("classic", dark_every=10, two_points=10)
    assert _messages_rules("classic", dark_every=4, two_points=4).knob("dark_every") == 4
    assert _messages_rules("c3.1", dark_every=2).knob("two_points") == 2  # once per turn (R-MSG-N3)


# ---------------------------------------------------------------- the deck as a multiset (R-MSG-11)

def test_the_deck_knobs_are_one_per_action():
    from sim.expansions.messages import ACTION_NAMES, DECK_CODES
    knobs = [k for k in registry.KNOBS if k.startswith("deck_")]
    assert knobs == [f"deck_{c}" for c in DECK_CODES] and len(knobs) == 8
    for k in knobs:
        part, knob = registry.KNOBS[k]
        assert part.name == "messages" and (knob.ruling, knob.default, knob.lo, knob.hi) == (
            "R-MSG-11", 1, 0, 3)
    assert ACTION_NAMES["classic"][DECK_CODES.index("extra")] == "extra_tile"
    assert ACTION_NAMES["c3.1"][DECK_CODES.index("city")] == "smallest_city"
    r = _messages_rules(deck_extra=0, deck_road=2)
    assert r.ruleset == "base-1+messages-1(deck_road=2,deck_extra=0)"


def test_a_deck_of_no_tile_and_a_fixed_deck_naming_a_removed_tile_are_refused():
    from sim.expansions.messages import MessagesOptions
    with pytest.raises(InputError, match=r"deck_\*: every copy count is 0"):
        _messages_rules(**{f"deck_{c}": 0 for c in ("road", "city", "monastery", "extra", "coats",
                                                     "knight", "farmer", "score")})
    with pytest.raises(InputError, match=r"messages.deck lists 'extra_turn' 1 times, but the deck "
                                         r"holds 0 \(rules\.variant\.deck_extra\)"):
        Rules(expansions=("messages",), messages=MessagesOptions("c3.1", deck=("extra_turn",)),
              variant={"deck_extra": 0})
    # a doubled tile may be listed twice in a fixed deck, the rest follow
    r = Rules(expansions=("messages",), messages=MessagesOptions("c3.1", deck=("per_knight", "per_knight")),
              variant={"deck_knight": 2})
    from sim.engine.deal import deck_order
    assert deck_order(r, 0) == ["per_knight", "per_knight", "smallest_city", "smallest_road",
                                "smallest_monastery", "extra_turn", "coats_of_arms", "per_farmer",
                                "score_and_retrieve"]


@pytest.mark.parametrize("edition", ["c3.1", "classic"])
def test_a_game_draws_the_knobs_deck_in_its_shuffled_order(edition):
    """R-MSG-11 with the deck as a multiset: per_knight twice, the extra tile/turn
    removed. The deck is those 8 tiles shuffled (deck_order, checked against the
    multiset) and the game draws them in that order."""
    from collections import Counter
    from sim.engine.deal import deck_order
    from sim.engine.game import Game
    from strategies.registry import player
    rules = _messages_rules(edition, deck_knight=2, deck_extra=0)
    extra = "extra_tile" if edition == "classic" else "extra_turn"
    orders = set()
    for seed in range(12):
        order = deck_order(rules, seed)
        count = Counter(order)
        assert len(order) == 8 and count["per_knight"] == 2 and extra not in count
        assert all(n == 1 for a, n in count.items() if a != "per_knight")
        orders.add(tuple(order))
        g = Game(rules, seed, [player("greedy"), player("greedy")])
        draws = [e["action"] for e in g.events if e["e"] == "message_draw"]
        assert draws and draws == order[:len(draws)]
    assert len(orders) > 1  # shuffled by the seed


@pytest.mark.parametrize("edition", ["c3.1", "classic"])
def test_a_deck_of_three_tiles_cycles(edition):
    """R-MSG-11: the tiles cycle; with only per_knight twice and the 8th message once,
    draw 4 is draw 1 again, and every draw is one of those 3 (the view's deck size is
    3 less the one in hand)."""
    from sim.engine.deal import deck_order
    from sim.engine.game import Game
    from strategies.registry import player
    off = {f"deck_{c}": 0 for c in ("road", "city", "monastery", "extra", "coats", "farmer")}
    rules = _messages_rules(edition, deck_knight=2, **off)
    cycled = 0
    for seed in range(6):
        g = Game(rules, seed, [player("greedy"), player("greedy")])
        draws = [e["action"] for e in g.events if e["e"] == "message_draw"]
        order = deck_order(rules, seed)
        score = "score_and_return" if edition == "classic" else "score_and_retrieve"
        assert sorted(order) == ["per_knight", "per_knight", score]
        assert draws == [order[i % 3] for i in range(len(draws))]
        cycled += len(draws) > 3
    assert cycled > 0
    g = Game(rules, 0)
    while g.decision is not None and g.decision.kind != "messages":
        g.apply(g.decision.choices[0])
    if g.decision is not None:
        assert g.view().messages.deck_size == 2 and g.view().messages.in_hand is not None


def test_the_reference_engine_plays_the_deck_knobs_as_the_core_does():
    rules = [_messages_rules(edition, deck_road=3, deck_monastery=0, deck_score=2)
             for edition in ("c3.1", "classic")]
    assert _diverged(rules, 8, lambda s: ("greedy", "random") if s % 2 else
                     ("greedy", "greedy+messages=always_action")) == []


def test_a_paused_game_with_a_knobbed_deck_saves_loads_and_plays_on_alike():
    import pickle
    from sim.engine.game import Game
    rules = _messages_rules("classic", deck_city=3, deck_coats=0, dark_every=4)
    g = Game(rules, 4)
    n = 0
    while g.decision is not None and n < 60:
        n += 1
        g.apply(g.decision.choices[n * 3 % len(g.decision.choices)])
    h = pickle.loads(pickle.dumps(g))
    for x in (g, h):
        k = n
        while x.decision is not None:
            k += 1
            x.apply(x.decision.choices[k * 3 % len(x.decision.choices)])
    assert g.result() == h.result() and g.events == h.events


# ---------------------------------------------------------------- followers (R-BASE-1)

def test_followers_is_a_knob_kept_in_its_rules_field():
    part, knob = registry.KNOBS["followers"]
    assert part is registry.BASE and (knob.ruling, knob.default, knob.lo, knob.hi) == ("R-BASE-1", 7, 0, 30)
    five = Rules(variant={"followers": 5})
    assert five == Rules(followers=5) and five.followers == 5 and five.knob("followers") == 5
    assert five.ruleset == "base-1(followers=5)" and Rules(followers=7).ruleset == "base-1"
    with pytest.raises(InputError, match=r"followers = 4 and rules\.variant\.followers = 5"):
        Rules(followers=4, variant={"followers": 5})
    with pytest.raises(InputError, match=r"rules\.variant\.followers = 31.*0..30"):
        Rules(variant={"followers": 31})
    a = parse_experiment(_config("players = 2\n[rules.variant]\nfollowers = 5"), "x.toml")
    b = parse_experiment(_config("players = 2\nfollowers = 5"), "x.toml")
    assert a.rules == b.rules and a.fingerprint() == b.fingerprint()


def test_a_game_with_five_followers_places_at_most_five_at_once():
    from sim.engine.game import Game
    g = Game(Rules(variant={"followers": 5}), 1)
    assert g.supply == [5, 5]
    low = 5
    while g.decision is not None:
        d = g.decision
        placing = [c for c in d.choices if c[3] >= 0]
        g.apply(placing[0] if placing else d.choices[0])  # place a follower whenever possible
        low = min(low, *g.supply)
    assert low == 0 and max(g.supply) <= 5  # used up, never more than the 5


def test_the_reference_engine_plays_followers_as_the_core_does():
    rules = [Rules(expansions=("messages", "mayors"), variant={"followers": f}) for f in (2, 12)]
    assert _diverged(rules, 6, lambda s: ("greedy", "random")) == []


def test_every_knob_is_in_the_readme_table():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    for name, (part, knob) in registry.KNOBS.items():
        row = f"| `{name}` | {part.name} | {knob.ruling} | {knob.lo}..{knob.hi} | {knob.default} |"
        assert row in readme or (name.startswith("deck_") and
                                 f"| `deck_<action>` | messages | R-MSG-11 | {knob.lo}..{knob.hi} | "
                                 f"{knob.default} |" in readme), name
