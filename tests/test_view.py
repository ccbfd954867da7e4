"""The read-only view Python strategies receive (sim/engine/view.py): what it offers, that it
cannot change the game, and that every built-in policy chooses through it exactly as
it chose when it was given the game itself."""

import dataclasses
import hashlib

import pytest

from sim import expansions
from sim.core import lib
from sim.engine.game import Game
from sim.expansions.messages import MessagesOptions
from sim.engine.play import play
from sim.expansions.river import is_river_tile
from sim.engine.rules import Rules
from sim.engine.view import View, strategy_decision, view_of
from strategies import player

# Seeded games played before strategies got the view (the policies were given the
# Game): sha256 of repr(history), first 16 hex digits, and the final scores.
# key: expansions|players|edition|seed|seat specs
BEFORE = {
    '|2|c3.1|1|greedy/random': ('f35f061eaed9aa74', (98, 20)),
    '|2|c3.1|2|greedy/random': ('003b0a21adf943b6', (80, 18)),
    '|2|classic|1|greedy/random': ('f35f061eaed9aa74', (98, 20)),
    '|2|classic|2|greedy/random': ('003b0a21adf943b6', (80, 18)),
    'messages|2|c3.1|1|greedy/first': ('21f297e3ce32fff4', (120, 14)),
    'messages|2|c3.1|2|greedy/first': ('ad0c1dddf3183a2a', (130, 12)),
    'messages|2|classic|1|greedy/first': ('c623a99a7102df05', (126, 14)),
    'messages|2|classic|2|greedy/first': ('930b1e1dd46dba6d', (125, 12)),
    'messages|3|c3.1|1|greedy+scoring_figure=alternate/random+messages=always_2/greedy(courier=1.0)': ('7679e5b24f8dc430', (73, 22, 67)),
    'messages|3|c3.1|2|greedy+scoring_figure=alternate/random+messages=always_2/greedy(courier=1.0)': ('8c381dc81346ef34', (73, 12, 88)),
    'messages|3|classic|1|greedy+scoring_figure=alternate/random+messages=always_2/greedy(courier=1.0)': ('ec2d5ce2b04e002f', (73, 22, 83)),
    'messages|3|classic|2|greedy+scoring_figure=alternate/random+messages=always_2/greedy(courier=1.0)': ('6e176f6eb759b765', (81, 12, 98)),
    'messages,river,courier|3|c3.1|1|greedy(courier=2.0)/random/first+scoring_figure=coverage': ('b980a471b4c2297e', (91, 24, 21)),
    'messages,river,courier|3|c3.1|2|greedy(courier=2.0)/random/first+scoring_figure=coverage': ('80450a7ef0e6d9d2', (96, 7, 22)),
    'messages,river,courier|3|classic|1|greedy(courier=2.0)/random/first+scoring_figure=coverage': ('70ffeaed23954560', (84, 24, 21)),
    'messages,river,courier|3|classic|2|greedy(courier=2.0)/random/first+scoring_figure=coverage': ('8ee4e8cbc1415ad8', (100, 7, 22)),
    'mayors,river|2|c3.1|1|greedy(road_figure="messenger")/random': ('7368aea8af0bb623', (105, 31)),
    'mayors,river|2|c3.1|2|greedy(road_figure="messenger")/random': ('0262ed56d516bf38', (162, 36)),
    'mayors,river|2|classic|1|greedy(road_figure="messenger")/random': ('7368aea8af0bb623', (105, 31)),
    'mayors,river|2|classic|2|greedy(road_figure="messenger")/random': ('0262ed56d516bf38', (162, 36)),
    'mayors,messages,courier,river|4|c3.1|1|greedy/random/first/greedy(road_figure="follower")+scoring_figure=spread': ('881c6b4a98c7b22c', (93, 26, 34, 133)),
    'mayors,messages,courier,river|4|c3.1|2|greedy/random/first/greedy(road_figure="follower")+scoring_figure=spread': ('47a431da34ab4de7', (115, 14, 26, 85)),
    'mayors,messages,courier,river|4|classic|1|greedy/random/first/greedy(road_figure="follower")+scoring_figure=spread': ('afc5d0373507dd88', (95, 20, 26, 126)),
    'mayors,messages,courier,river|4|classic|2|greedy/random/first/greedy(road_figure="follower")+scoring_figure=spread': ('9f25255e7dfed0aa', (115, 14, 26, 85)),
    # search in C (sim/csrc/search.c, issue 25): its own deals, rollouts cut at depth 10
    'messages,river|2|c3.1|1|search(rollouts=2,candidates=2)/greedy': ('61d2da525d2ce650', (144, 85)),
    'messages,river|2|c3.1|2|search(rollouts=2,candidates=2)/greedy': ('0b47bc38b6ebb159', (139, 76)),
    'messages,river|2|classic|1|search(rollouts=2,candidates=2)/greedy': ('b4eb2c51aa63ca97', (106, 88)),
    'messages,river|2|classic|2|search(rollouts=2,candidates=2)/greedy': ('2b62d71165c12017', (114, 86)),
}


def _case(key):
    exp, n, ed, seed, specs = key.split("|")
    rules = Rules(players=int(n), expansions=tuple(e for e in exp.split(",") if e),
                  messages=MessagesOptions(ed))
    return rules, int(seed), specs.split("/")


def _digest(history) -> str:
    return hashlib.sha256(repr(list(history)).encode()).hexdigest()[:16]


@pytest.mark.parametrize("key", sorted(BEFORE))
def test_policies_choose_through_the_view_as_they_did_on_the_game(key):
    rules, seed, specs = _case(key)
    g = play(Game(rules, seed), [player(s) for s in specs])
    assert (_digest(g.history), tuple(g.scores)) == BEFORE[key]


@pytest.mark.parametrize("key", sorted(BEFORE))
def test_built_in_kinds_in_c_and_python_kinds_from_python_play_the_same_games(key):
    # the seats given to the game: every built-in policy's decisions are played in C
    # (search too, since it is played in C: issue 25) and the others from Python
    rules, seed, specs = _case(key)
    seats = [player(s) for s in specs]
    g = play(Game(rules, seed, seats), seats)
    assert (_digest(g.history), tuple(g.scores)) == BEFORE[key]


def _at(game, turn):
    greedy = player("greedy")
    while game.decision is not None and (game.turn < turn or game.decision.kind != "place"):
        game.apply(greedy.choose(game, game.decision))
    return game


RULES_ALL = Rules(players=3, expansions=("messages", "river", "courier"))


def test_the_view_cannot_change_the_game():
    g = _at(Game(RULES_ALL, 3), 30)
    v = view_of(g)
    before = (g.turn, tuple(g.scores), len(g.board), len(g.events), g.tiles_left)
    with pytest.raises(TypeError):
        v.board.place(0, 5, 5, 0)
    with pytest.raises(TypeError):
        v.board.add_figure(0, 0, 1, 0)
    with pytest.raises(TypeError):
        v.board.remove_figure(0)
    with pytest.raises(TypeError):
        v.board.clone()
    with pytest.raises(TypeError):
        v.scores = [0, 0, 0]
    with pytest.raises(TypeError):
        v._game = None
    assert isinstance(v.scores, tuple) and isinstance(v.supply, tuple) and isinstance(v.history, tuple)
    with pytest.raises(TypeError):
        v.points[0]["road"] = 99
    with pytest.raises(TypeError):
        v.events[-1]["e"] = "x"
    m = v.messages
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.in_hand = "extra_turn"
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.courier.at = (0, 0)
    d = strategy_decision(g.decision)
    with pytest.raises(TypeError):
        d.choices.rows = ()
    assert (g.turn, tuple(g.scores), len(g.board), len(g.events), g.tiles_left) == before


def test_the_view_reads_the_state_of_the_game():
    g = _at(Game(RULES_ALL, 11), 40)
    v = View(g)
    assert (v.turn, v.seat, v.tiles_left, v.rules) == (g.turn, g.seat, g.tiles_left, g.rules)
    assert v.scores == tuple(g.scores) and v.supply == tuple(g.supply)
    assert [dict(p) for p in v.points] == g.points
    assert v.history == tuple(g.history) and len(v.events) == len(g.events)
    assert v.placed_index == len(g.board) - 1 and len(v.board) == len(g.board)
    m = v.messages
    # the score is the two scoring figures' sum (R-MSG-9)
    assert [sum(s.position) for s in m.seats] == list(g.scores)
    assert m.deck_size == 8 and m.in_hand is None  # a place decision: no message in hand
    assert set(v.snapshots) == {"messages", "river", "courier"}


def test_river_end_follows_the_river_to_the_lake():
    """The view's river end is the C game's (cc_game_river_end): the spring RA (F~FF, N
    E S W) at 0,0 leaves east, so the first end is (0, 0, east); afterwards it is a
    river edge of the river tile placed last with no tile beyond it (R-RIV-1/2)."""
    rules = Rules(players=2, expansions=("river",))
    g = Game(rules, 2)
    first = player("first")
    ends = []
    while g.decision is not None and g.tiles_left > 60:
        ends.append(view_of(g).river.end)
        assert ends[-1] == g.river_end
        if ends[-1] is not None:  # the open end is on the river tile placed last
            x, y, edge = ends[-1]
            assert g.board.tile_at(x, y) == len(g.board) - 1
            assert g.board.variant_at(len(g.board) - 1).edges[edge] == "~"  # a river edge
            dx, dy = ((0, 1), (1, 0), (0, -1), (-1, 0))[edge]
            assert g.board.tile_at(x + dx, y + dy) is None
        g.apply(first.choose(g, g.decision))
    assert ends[0] == (0, 0, 1)
    assert ends[-1] is None  # R-RIV-1: spring first, lake last
    assert not is_river_tile(g.catalogue.types[g.catalogue.index[g.decision.tile]])
    assert Game(Rules(players=2), 2).river_end is None  # no River: no end


def test_every_declared_snapshot_is_built_by_its_unit():
    declared = {e.snapshot for e in expansions.EXPANSIONS if e.snapshot}
    own = {e.snapshot for e in expansions.EXPANSIONS if e.view is not None}
    assert declared == own == set(expansions.SNAPSHOTS)
    v = view_of(Game(Rules(players=2), 0))
    assert all(getattr(v, name) is None for name in declared)  # none in play
    with pytest.raises(AttributeError):
        v.no_such_snapshot


def test_the_abbot_snapshot_shows_where_each_abbot_stands():
    """R-ABB-1/3/5: in supply, or on its tile and feature (sim/expansions/abbot.py)."""
    g = Game(Rules(players=2, expansions=("abbot",)), 0, stack=["B", "U"])
    assert view_of(g).abbot.seats[0].in_supply and not view_of(g).abbot.may_recall(0)
    g.apply((0, -1, 0, lib.CC_FIG_ABBOT, 1))  # B's monastery is local 1
    seat = view_of(g).abbot.seats[0]
    assert (seat.in_supply, seat.at, seat.where) == (False, (0, -1), "monastery")
    assert view_of(g).abbot.may_recall(0) and view_of(Game(Rules(players=2), 0)).abbot is None


def test_a_strategy_sees_named_choices_equal_to_the_raw_ones():
    """Issue 24 item 2: choices as named objects (sim/expansions/ DecisionKind.typed):
    a place row is Place(x, y, rotation, figure, segment), equal to its raw tuple, and
    either may be applied."""
    g = Game(Rules(players=2), 3)
    d = strategy_decision(g.decision)
    raw = g.decision.choices
    assert list(d.choices) == list(raw) and d.choices[0] == raw[0]
    row = d.choices[2]
    assert type(row).__name__ == "Place" and (row.x, row.y, row.rotation, row.figure, row.segment) == raw[2]
    g.apply(row)
    assert g.history[-1] == raw[2]
