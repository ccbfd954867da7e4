"""The expansion registry (sim/expansions.py, STYLE.md rule 2): each declaration
matches what the engine does with that expansion in play, and the consumers built
from it (tile sets, decision kinds, default policies, record columns) agree with it."""

import itertools
import re
from pathlib import Path

import pytest

from sim import expansions
from sim.expansions import declaration, mayors, messages
from sim.engine.board import Board
from sim.tournament.config import RULES_KEYS, check_player
from sim.engine.game import Game
from sim.expansions.messages import MessagesOptions
from sim.engine.play import play
from sim.engine.rules import Rules
from sim.tournament.records import PLAYERS, player_row
from strategies import DECISION_KINDS, DEFAULTS, REGISTRY, make, player

RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "RULES.md"
COMBOS = [c for n in range(len(expansions.NAMES) + 1)
          for c in itertools.combinations(expansions.NAMES, n)]


def test_tile_sets_keep_the_catalogue_order_whatever_the_listing_order():
    # the catalogue (hence every tile index and the shuffles) is base, river, mayors, courier
    assert Rules(expansions=("courier", "mayors", "river")).tile_sets == (
        "base", "river", "mayors", "courier")
    assert Rules(expansions=("messages",)).tile_sets == ("base",)
    assert Rules(expansions=("courier", "messages")).tile_sets == ("base", "courier")


# Ruling families of docs/RULES.md that no part implements yet, each with where it stands
# (none now: the Abbot, R-ABB, is sim/expansions/abbot.py and sim/csrc/abbot.c).
PENDING: set[str] = set()


def test_every_ruling_family_is_declared_by_one_part():
    families = set(re.findall(r"\*\*(R-[A-Z]+)-", RULES_MD.read_text()))
    declared = [r for e in expansions.PARTS for r in e.rulings]
    assert PENDING <= families and not PENDING & set(declared)  # pending: still in the book
    assert sorted(declared) == sorted(families - PENDING) == ["R-ABB", "R-BASE", "R-COU", "R-MM", "R-MSG",
                                                              "R-RIV"]


def test_decision_kinds_and_their_defaults_come_from_the_registry():
    make("first")  # imports the built-in policies
    assert set(DECISION_KINDS) == set(expansions.decision_kinds())
    assert len(DECISION_KINDS) == 8
    for kind, name in DEFAULTS.items():
        assert kind in REGISTRY[name].KINDS, (kind, name)  # the default answers its kind
    assert expansions.decision_kinds(()) == ("place",)
    assert set(expansions.decision_kinds(("messages",))) == {"place", "scoring_figure", "messages"}


@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: "+".join(c) or "base")
def test_declarations_match_what_a_game_does(combo):
    """The decision kinds asked and the result keys given are the declared ones."""
    n = 3
    rules = Rules(players=n, expansions=combo, messages=MessagesOptions("classic"))
    asked = set()
    for seed in range(2):
        g = Game(rules, seed)
        seats = [player("random")] * n
        while g.decision is not None:
            asked.add(g.decision.kind)
            g.apply(seats[g.decision.seat].choose(g, g.decision))
    declared = set(expansions.decision_kinds(combo))
    assert asked <= declared
    assert {"place"} | ({"scoring_figure"} if "messages" in combo else set()) <= asked
    keys = {"seat", "score", "rank", "points"}
    result = g.result()["players"][0]
    want = keys | {k for e in expansions.in_play(combo) for k in e.result_keys}
    assert set(result) == want
    row = player_row(1, "random", True, result, g.result()["winners"], run_id="r",
                     block=0, variant="")
    assert set(row) == set(PLAYERS.names)
    # the columns of an expansion not in play are 0
    for e in expansions.EXPANSIONS:
        if e.name not in combo:
            assert all(row[c] == 0 for c in e.columns)
    if "messages" in combo:
        assert row["messages_drawn"] == sum(result["messages"]["drawn"].values())
        assert (row["scoring_meeple"], row["messenger"]) == (result["scoring_meeple"], result["messenger"])
    if "mayors" in combo:
        assert row["placed_mayor"] == result["mayors"]["placed"]["mayor"]


def test_the_players_schema_is_base_then_each_expansions_columns():
    names = PLAYERS.names
    first = names.index("scoring_meeple")
    assert tuple(names[first:]) == expansions.columns()
    assert len(set(names)) == len(names)


def test_options_are_the_rules_tables_of_the_config():
    assert RULES_KEYS == {"players", "expansions", "followers", "messages", "variant", "tiles"}
    (o,) = expansions.options()
    assert o.build({"edition": "classic", "deck": ["extra_tile"]}) == MessagesOptions(
        "classic", False, ("extra_tile",))
    assert o.plain(MessagesOptions()) == {"edition": "c3.1", "zmg_alone": False, "deck": []}
    from sim.errors import InputError
    with pytest.raises(InputError, match="rules.messages.deck = 'abc': expected a list"):
        o.build({"deck": "abc"})  # not read as the messages 'a', 'b', 'c'


def test_a_decision_kind_of_an_expansion_not_in_play_is_refused():
    with pytest.raises(Exception, match="no 'ride' decision arises"):
        check_player("greedy+ride=greedy", Rules(expansions=("messages",)), "seats")
    check_player("greedy+ride=greedy", Rules(expansions=("mayors",)), "seats")


def test_describe_lists_every_part():
    lines = expansions.describe()
    assert [line.split()[0] for line in lines] == ["base", *expansions.NAMES]
    assert "decisions figure, town_hall, favour, scarecrow, ride" in lines[-2]
    assert lines[-1].startswith("abbot     the Abbot: rulings R-ABB-*; tiles abbot; figures abbot")


def test_a_scripted_turn_may_use_only_keys_of_expansions_in_play(tmp_path):
    from sim.errors import InputError
    from sim.games.script import load_script

    script = tmp_path / "s.toml"
    for keys, error in (('score_on = "meeple"', "score_on: The Messages is not in play"),
                        ('message = "2"', "message: The Messages is not in play"),
                        ('scarecrow = "lie"', "scarecrow: Messengers & Mayors is not in play")):
        script.write_text(f'[[turns]]\ntile = "U"\nat = [1, 0]\n{keys}\n')
        with pytest.raises(InputError, match=f"s.toml: turn 1: {error}$"):
            load_script(script)


# ---------------------------------------------------------------- the C boundary

def test_each_expansion_declares_its_own_c_bit():
    from sim.core import lib
    from sim.engine.deal import dealt

    bits = [e.bit for e in expansions.EXPANSIONS]
    assert all(b and b & (b - 1) == 0 for b in bits) and len(set(bits)) == len(bits)
    assert expansions.BASE.bit == 0
    for combo in COMBOS:
        cfg = dealt(Rules(expansions=combo), 0)[0]
        assert cfg.expansions == sum(expansions.BY_NAME[e].bit for e in combo)
    everything = dealt(Rules(expansions=expansions.NAMES), 0)[0]
    assert everything.expansions == 1 + 2 + 4 + 8 + 16 == (lib.CC_X_MESSAGES | lib.CC_X_RIVER
                                                           | lib.CC_X_COURIER | lib.CC_X_MAYORS
                                                           | lib.CC_X_ABBOT)


def test_the_town_hall_comes_with_messengers_and_mayors_only():
    from sim.engine.deal import catalogue_for

    assert "townhall" not in catalogue_for(Rules(expansions=("messages", "river", "courier"))).index
    cat = catalogue_for(Rules(expansions=("mayors",)))
    assert cat.types[-1].id == "townhall"  # R-MM-10: after the tile sets' own
    # the C board holds the start tile, the stack and a town hall per player (R-MM-10):
    # base 71 + the 11 M&M land tiles (TILES.md R-MM-0; MMR only with the River) + 3
    g = Game(Rules(players=3, expansions=("mayors",)), 0)
    assert len(g.board) == 1  # the board is read (its buffer made) before play
    play(g, [player("first")] * 3)
    discarded = sum(e["e"] == "discard" for e in g.events)
    assert len(g.board) == 1 + 71 + 11 - discarded + 3
    assert sum(e["e"] == "townhall" for e in g.events) == 3
    # R-MM-10: one town hall slot per player beyond the stack and the start tile; the
    # read-only board's queries answer on the full board as a board of that capacity does
    full = Board(g.catalogue, len(g.board))
    for t, r, x, y in g.board.tiles():
        full.place(t, x, y, r)
    for t in range(len(g.catalogue.types)):
        assert g.board.legal_placements(t) == full.legal_placements(t)
    for seg in range(len(g.board.variant_at(0).segments)):  # the start tile's features
        assert g.board.feature_segments(seg) == full.feature_segments(seg)
    assert g.board.max_tiles == 1 + 71 + 11 + 3  # TILES.md R-MM-0: start, base, MM01-MM11, halls


def test_config_fillers_set_each_expansion_s_fields():
    from sim.core import lib
    from sim.engine.deal import catalogue_for, dealt

    rules = Rules(expansions=("messages", "river", "mayors"),
                  messages=MessagesOptions("classic", True, ("extra_tile",)))
    cfg = dealt(rules, 0, town_halls_at_end=False)[0]
    assert cfg.river_edge == 1  # R-RIV-1: the spring RA is F~FF (N E S W): the river leaves east
    assert cfg.town_hall_type == catalogue_for(rules).index["townhall"]
    assert cfg.town_halls_at_end == 0
    assert (cfg.edition, cfg.zmg_alone, cfg.shuffle_deck) == (lib.CC_EDITION_CLASSIC, 1, 0)
    assert cfg.deck[0] == messages.ACTION_NAMES["classic"].index("extra_tile")
    assert dealt(Rules(expansions=("messages",)), 0)[0].shuffle_deck == 1


def test_the_result_row_layout_is_read_from_c():
    # the layout is C's (cc_result_field); tests/test_names.py checks it against the
    # Python tables that must agree with it
    assert declaration.ROW_DRAWN.stop == declaration.ROW_TAKEN.start  # one slice, The Messages
    assert declaration.ROW_MAYORS.stop == declaration.ROW_MM_SUPPLY.start
    assert declaration.ROW_MAYORS.stop - declaration.ROW_MAYORS.start == len(mayors.MAYORS_COLUMNS)


def test_editions_and_the_deck_come_from_the_registry():
    base, msg = Rules(), Rules(expansions=("messages",), messages=MessagesOptions("classic"))
    assert expansions.EDITIONED.name == "messages"
    assert (expansions.edition(base), expansions.edition(msg)) == ("", "classic")
    assert expansions.with_edition(msg, "") is msg and expansions.with_edition(msg, "classic") is msg
    assert expansions.with_edition(msg, "c3.1").messages.edition == "c3.1"
    assert expansions.deck_options(base) is None and expansions.deck_options(msg) is msg.messages


def test_each_part_declares_its_own_events_decisions_and_pictures():
    """One unit per event, decision, snapshot, state reader and figure shape; every
    event an expansion decodes has its log line; every decision its unit reads or
    answers in scripts is one it declares; the legend's order lists every part once."""
    from sim.formats import log

    def once(key):
        names = [k for e in expansions.PARTS for k in key(e)]
        assert len(names) == len(set(names)), names

    for key in (lambda e: e.events, lambda e: e.read_decision, lambda e: e.state,
                lambda e: e.shapes, lambda e: [e.snapshot] if e.snapshot else []):
        once(key)
    for e in expansions.EXPANSIONS:
        assert set(e.events) == set(e.lines), e.name
        assert all(log.LINES[k] is e.lines[k] for k in e.lines)
        assert set(e.read_decision) == set(e.read_choice), e.name
        assert set(e.scripting.answers) <= {d.name for d in e.decisions}, e.name
        assert bool(e.snapshot) == (e.view is not None), e.name
    assert sorted(expansions.LEGEND_ORDER, key=expansions.PARTS.index) == list(expansions.PARTS)
    assert expansions.LEGEND_ORDER[0] is expansions.BASE  # the follower first


def test_rules_take_the_expansions_as_a_list_or_a_tuple():
    """A library user writes a list, as a config does: the same rules, hashable."""
    from sim.engine.rules import Rules
    a, b = Rules(players=2, expansions=["messages", "abbot"]), Rules(players=2, expansions=("messages", "abbot"))
    assert a == b and hash(a) == hash(b) and a.expansions == ("messages", "abbot")
