"""The game as a C handle (sim/engine/game.py) beyond what the differential harness compares
against the reference engine: a built-in policy asked decision by decision from
Python (cc_game_policy_choice, sim/csrc/choice.c) gives the game the C seats play,
and refuses misuse without a change; clone, deepcopy and pickle (a C save) at a
decision play on identically; batches give the columns of single games; bad calls
are refused. Over every combination of the expansions, both editions of The Messages
(and ZMG), 2-6 players and every built-in policy. Longer runs: CARCSIM_SOAK=1."""

import itertools
import os

import pytest

from sim.errors import IllegalMove, InputError
from sim.engine.game import Game
from sim.expansions.messages import MessagesOptions
from sim.engine.play import play
from sim.engine.rules import Rules
from strategies import player

EXPANSIONS = ("messages", "river", "courier")
MESSAGE_OPTIONS = {"c3.1": MessagesOptions(edition="c3.1"),
                   "classic": MessagesOptions(edition="classic"),
                   "zmg": MessagesOptions(edition="classic", zmg_alone=True)}


def _variants(expansions):
    """(name, expansions, messages options) for every combination of `expansions`, The
    Messages in each edition (and ZMG)."""
    for n in range(len(expansions) + 1):
        for combo in itertools.combinations(expansions, n):
            for ed in (MESSAGE_OPTIONS if "messages" in combo else ("c3.1",)):
                yield f"{'+'.join(combo) or 'base'}-{ed}", combo, MESSAGE_OPTIONS[ed]


VARIANTS = list(_variants(EXPANSIONS))
# every built-in policy, with parameters and per-action overrides, across the seats
SEATS = ["greedy", "random", "first", "greedy(courier=2.0)+scoring_figure=coverage",
         "random+scoring_figure=spread+messages=always_action",
         "greedy(road=0.5,city=2.0,field=0.3,monastery=1.2,opponent=0.5,follower=1.0)",
         "greedy(extra=1.0,smallest_road=\"2\",per_farmer=\"action\")+scoring_figure=alternate",
         "first+scoring_figure=meeple_only+messages=always_2",
         "random+messages=always_action(extra_tile=\"2\",extra_turn=\"2\",coats_of_arms=\"2\")",
         "greedy+scoring_figure=dark_seeker+messages=greedy(extra=5.0,score_and_return=\"action\","
         "score_and_retrieve=\"action\")"]


def _seats(seed: int, n: int) -> list[str]:
    return [SEATS[(seed * 3 + s * 7) % len(SEATS)] for s in range(n)]


def _rules(expansions, options, players) -> Rules:
    return Rules(players=players, expansions=tuple(expansions), messages=options)


def _same_decision(c, p, where):
    assert c is not None and p is not None, where
    assert (c.kind, c.seat, c.tile, tuple(c.choices), c.info) == \
           (p.kind, p.seat, p.tile, tuple(p.choices), p.info), where


def _same_game(c: Game, ref: Game, where):
    assert c.over and ref.over, where
    assert c.history == ref.history, where
    assert len(c.events) == len(ref.events), where
    for i, (ce, pe) in enumerate(zip(c.events, ref.events)):
        assert ce == pe, (where, i)
    assert c.result() == ref.result(), where
    assert (c.turn, c.tiles_left) == (ref.turn, ref.tiles_left), where


def _half_from_python(rules, seed, specs, where) -> set[str]:
    """Plays `specs` with every other seat answered from Python (None), the rest in C:
    only the Python seats' decisions come back, and the game is the one played all from
    Python. The decision kinds that came back."""
    players = [player(p) for p in specs]
    external = [s % 2 == seed % 2 for s in range(len(specs))]
    c = Game(rules, seed, [None if external[s] else players[s] for s in range(len(specs))])
    kinds = set()
    while c.decision is not None:
        assert external[c.decision.seat], where
        kinds.add(c.decision.kind)
        c.apply(players[c.decision.seat].choose(c, c.decision))
    _same_game(c, _from_python(rules, seed, specs), where)
    return kinds


def _from_python(rules, seed, specs, **kw):
    """The game with every seat's policy asked from Python (through the view)."""
    return play(Game(rules, seed, **kw), [player(p) for p in specs])


ALL_EXPANSIONS = ("messages", "river", "courier", "mayors")
ALL_VARIANTS = list(_variants(ALL_EXPANSIONS))  # 8 without The Messages + 8 x 3 with: 32
# every built-in policy for the Messengers & Mayors decisions, greedy's road_figure both
# ways (tests/test_cgame_mayors.py plays them beside greedy, random and first)
MAYORS_SEATS = [
    "greedy(road_figure=\"messenger\")",
    "greedy(road_figure=\"follower\",courier=2.0)+scoring_figure=coverage",
    "random+figure=greedy(city=2.0,opponent=0.5)+ride=greedy",
    "greedy(follower=0.5,field=0.2)+town_hall=random+favour=first+scarecrow=random",
    "first+ride=random+figure=greedy(road_figure=\"messenger\")+messages=always_action",
    "greedy+town_hall=first+scarecrow=first+ride=first+figure=random"]
# every built-in policy for every decision kind, with parameters and overrides; search
# (sim/csrc/search.c) at small budgets, its rollouts cut and to the end, composed too
EVERY_POLICY = SEATS + MAYORS_SEATS + [
    "random+messages=always_2(smallest_city=\"action\",extra_turn=\"action\")",
    "search(rollouts=1,candidates=2,depth=3)",
    "greedy+messages=search(rollouts=2,candidates=2,depth=0,score=\"win\")"
    "+scoring_figure=search(rollouts=2,candidates=2,depth=0,score=\"win\")"
    "+ride=search(rollouts=2,candidates=2,depth=0,score=\"win\")",
    "search(rollouts=2,candidates=3,depth=2,halving=true)+scoring_figure=coverage"]
SOAK = os.environ.get("CARCSIM_SOAK") == "1"


def _streams(g: Game) -> list[int]:
    return [g.stream(s).state for s in range(g.rules.players)]


@pytest.mark.parametrize("name,expansions,options", ALL_VARIANTS, ids=[v[0] for v in ALL_VARIANTS])
def test_built_in_policies_asked_from_python_play_the_game_the_c_seats_play(name, expansions, options):
    """Every decision of a game answered from Python through cc_game_policy_choice
    (strategies' choose()) gives the game built-in seats play without leaving C: every
    choice, event and result, and each seat's policy stream where it ended. Every
    combination x 2-6 players x every built-in policy (cycled over the seats)."""
    for seed in range(30 if SOAK else 3):
        for n in range(2, 7):
            k = seed * 5 + n
            specs = [EVERY_POLICY[(k * 3 + s * 7) % len(EVERY_POLICY)] for s in range(n)]
            rules = _rules(expansions, options, n)
            c = Game(rules, k, [player(p) for p in specs])
            assert c.decision is None  # built-in seats never leave C
            asked = _from_python(rules, k, specs)
            _same_game(c, asked, (name, k, specs))
            assert _streams(c) == _streams(asked), (name, k, specs)


SEARCH_SEATS = ["search(rollouts=2,candidates=3)", "search(rollouts=2,candidates=3,depth=4,halving=true)",
                "greedy", "search(rollouts=1,candidates=4,score=\"win\")+messages=greedy"]


@pytest.mark.parametrize("name,expansions,options", ALL_VARIANTS[::3], ids=[v[0] for v in ALL_VARIANTS[::3]])
def test_search_in_a_batch_is_the_game_asked_decision_by_decision_from_python(name, expansions, options):
    """search (sim/csrc/search.c) at small budgets: a batch's results (cc_game_batch, no
    record), the C seats' game, and the game whose every decision is asked from Python
    through cc_game_policy_choice are one game, each seat's stream where it ended too."""
    from sim.engine.game import play_batch
    from sim.expansions.declaration import ROW_SCORE

    for seed, n in ((1, 2), (2, 3)):
        specs = SEARCH_SEATS[seed % 2:][:n]
        rules = _rules(expansions, options, n)
        c = Game(rules, seed, [player(p) for p in specs])
        asked = _from_python(rules, seed, specs)
        _same_game(c, asked, (name, seed, specs))
        assert _streams(c) == _streams(asked), (name, seed)
        batch = play_batch(rules, [seed], [player(p) for p in specs])
        assert list(batch["results"][0, :, ROW_SCORE]) == c.scores, (name, seed)
        assert batch["turns"][0] == c.turn - 1


def test_every_built_in_policy_is_asked_in_the_matrix():
    """The matrix above is not vacuous: its seats name every registered built-in."""
    from strategies import REGISTRY

    seats = [player(spec) for spec in EVERY_POLICY]
    named = {p.name for s in seats for p in (s.default, *s.by_kind.values())}
    assert named == set(REGISTRY)


def _at_place(seed: int = 3, players=2, expansions=()) -> Game:
    return Game(_rules(expansions, MESSAGE_OPTIONS["c3.1"], players), seed)


def _raw_choice(g: Game, pol):
    """cc_game_policy_choice's return code and index."""
    from sim.core import ffi, lib

    out = ffi.new("int32_t *", -7)
    return lib.cc_game_policy_choice(g._ptr, pol, out), out[0]


def _state(g: Game):
    d = g.decision
    return (tuple(g.history), len(g.events), tuple(g.scores), _streams(g),
            None if d is None else (d.kind, d.seat, tuple(d.choices)))


def test_the_entry_refuses_misuse_and_changes_nothing():
    from sim.core import CoreArgumentError, ffi, lib
    from sim.engine.seats import policy_struct
    from strategies import make

    g = _at_place()
    before = _state(g)
    python = ffi.new("cc_seat_policy *")
    for kind in ("place", "scoring_figure", "messages", "figure", "town_hall", "favour",
                 "scarecrow", "ride"):
        setattr(python, kind, lib.CC_POL_PYTHON)
    assert _raw_choice(g, python) == (lib.CC_ERR_ARG, -7)  # no built-in for this kind
    bad = ffi.new("cc_seat_policy *", policy_struct(make("random"), "c3.1")[0])
    bad.place = 42
    assert _raw_choice(g, bad) == (lib.CC_ERR_ARG, -7)  # not a policy code
    bad.place, bad.road_figure[0] = lib.CC_POL_GREEDY, 9
    assert _raw_choice(g, bad) == (lib.CC_ERR_ARG, -7)  # road_figure not a figure
    out = ffi.new("int32_t *")
    assert lib.cc_game_policy_choice(ffi.NULL, python, out) == lib.CC_ERR_ARG
    assert lib.cc_game_policy_choice(g._ptr, ffi.NULL, out) == lib.CC_ERR_ARG
    assert lib.cc_game_policy_choice(g._ptr, python, ffi.NULL) == lib.CC_ERR_ARG
    with pytest.raises(CoreArgumentError, match="policy='meeple_only', decision='place'"):
        make("meeple_only").choose(g, g.decision, None)  # a scoring-figure policy only
    values = ffi.new("double[]", 1)
    assert lib.cc_game_policy_values(g._ptr, policy_struct(make("greedy"), "c3.1"), values, 1) \
        == lib.CC_ERR_FULL  # the decision has more rows than that
    with pytest.raises(CoreArgumentError, match="policy='random'"):
        g.policy_values(make("random"))  # only greedy values rows
    with pytest.raises(ValueError, match="current decision"):
        make("first").choose(g, g.decision._replace(kind="messages"), None)
    assert _state(g) == before  # every refusal left the game as it was
    play(g, [player("random")] * 2)
    assert _raw_choice(g, policy_struct(make("random"), "c3.1")) == (lib.CC_ERR_ARG, -7)
    with pytest.raises(IllegalMove, match="over"):
        make("random").choose(g, None, None)
    with pytest.raises(CoreArgumentError, match="cc_game_policy_values"):
        make("greedy").values(g)


def test_a_built_in_policy_needs_the_c_game():
    from strategies import make

    class NotAGame:
        rules = Rules()

    with pytest.raises(TypeError, match="played by the C game"):
        make("greedy").choose(NotAGame(), None, None)


def test_random_draws_once_from_the_deciding_seats_own_stream_not_the_rng_given():
    """R-BASE-3 place rows: `random` takes row Stream(seat state).below(rows), as the C
    seat does (one draw per decision); the Stream passed in is not touched, the other
    seats' streams neither; a deterministic policy draws nothing."""
    from sim.engine.rng import Stream
    from strategies import make

    g = _at_place(seed=8, players=3)
    for _ in range(5):  # into the game: seat 0, 1, 2, 0, 1 place
        d = g.decision
        mine = Stream(g.stream(d.seat).state)
        want = mine.below(len(d.choices))
        given = Stream(12345)
        others = [g.stream(s).state for s in range(3) if s != d.seat]
        assert make("random").choose(g, d, given) == d.choices[want]
        assert g.stream(d.seat).state == mine.state and given.state == 12345
        assert [g.stream(s).state for s in range(3) if s != d.seat] == others
        state = g.stream(d.seat).state
        choice = make("greedy").choose(g, d, given)
        assert g.stream(d.seat).state == state and choice in d.choices
        g.apply(choice)


def test_a_clone_answers_from_its_own_stream():
    from strategies import make

    g = _at_place(seed=4)
    twin = g.clone()
    d = g.decision
    state = g.stream(d.seat).state
    picked = make("random").choose(twin, twin.decision, None)
    assert g.stream(d.seat).state == state != twin.stream(d.seat).state  # the clone's moved
    assert make("random").choose(g, d, None) == picked  # the same state, the same draw
    assert g.stream(d.seat).state == twin.stream(d.seat).state


def _asked(g: Game, seats) -> set:
    """Play `g` out with `seats`; the (seat, kind) of every decision that came back."""
    asked = set()
    while g.decision is not None:
        asked.add((g.decision.seat, g.decision.kind))
        g.apply(seats[g.decision.seat].choose(g, g.decision))
    return asked


def test_a_python_policy_composing_a_built_in_one():
    """A Python place policy that asks greedy (a strategy composing a built-in, as
    `search` does), with built-in messages and scoring-figure policies: the seat is
    asked from Python for its place decisions only, and plays greedy's game."""
    from strategies import Player, make

    class Delegate:
        name, KINDS = "delegate", ("place",)

        def __init__(self):
            self.inner = make("greedy")

        def choose(self, view, decision, rng):
            return self.inner.choose(view, decision, rng)

    rules = _rules(("messages", "mayors"), MESSAGE_OPTIONS["classic"], 3)
    spec = "greedy+messages=always_action+scoring_figure=spread"
    seats = [player("random"), Player(Delegate(), {"messages": make("always_action"),
                                                   "scoring_figure": make("spread")}),
             player("first")]
    g = Game(rules, 21, seats)
    assert _asked(g, seats) == {(1, "place")}
    _same_game(g, Game(rules, 21, [player(p) for p in ("random", spec, "first")]), "delegate")


@pytest.mark.parametrize("name,expansions,options", VARIANTS[::2], ids=[v[0] for v in VARIANTS[::2]])
def test_seats_half_in_c_half_from_python(name, expansions, options):
    """Half the seats answered from Python (None), half played in C: the decisions that
    come back are those of the Python seats only, and the game is the same."""
    for seed in range(3):
        specs = _seats(seed + 50, 2 + (seed + 1) % 5)
        _half_from_python(_rules(expansions, options, len(specs)), seed, specs, (name, seed))


def test_clone_is_independent_and_plays_on_identically():
    rules = _rules(EXPANSIONS, MESSAGE_OPTIONS["classic"], 3)
    players = [player(p) for p in ("greedy", "random", "greedy+scoring_figure=coverage")]
    c = Game(rules, 7)
    for _ in range(40):  # into the game, past some messages
        c.apply(players[c.decision.seat].choose(c, c.decision))
    twin = c.clone()
    events = list(c.events)
    assert twin.decision == c.decision and twin.history == c.history and twin.events == events
    play(twin, players)  # the clone plays on alone
    assert c.events == events and not c.over  # the original did not move
    play(c, players)
    _same_game(twin, c, "clone")


@pytest.mark.parametrize("name,expansions,options", VARIANTS[::5], ids=[v[0] for v in VARIANTS[::5]])
def test_clone_and_pickle_at_every_decision_play_on_as_the_original(name, expansions, options):
    import pickle

    specs = ["greedy", "random+scoring_figure=coverage", "random"]
    rules = _rules(expansions, options, 3)
    players = [player(p) for p in specs]
    whole = _from_python(rules, 4, specs)
    g = Game(rules, 4)
    step = 0
    while g.decision is not None:
        if step % 7 == 0:
            twin = pickle.loads(pickle.dumps(g)) if step % 2 else g.clone()
            assert twin.decision == g.decision and twin.history == g.history, (name, step)
            _same_game(play(twin, players), whole, (name, step))
        g.apply(players[g.decision.seat].choose(g, g.decision))
        step += 1
    _same_game(g, whole, name)


def test_pickle_goes_through_a_c_save_of_the_state():
    """pickle, deepcopy and clone give the same game, which plays on as the original."""
    import copy
    import pickle

    rules = _rules(EXPANSIONS, MESSAGE_OPTIONS["classic"], 3)
    players = [player(p) for p in ("greedy", "random", "greedy+scoring_figure=coverage")]
    c = Game(rules, 9, [None, None, players[2]])  # seat 2 built in: its stream is in C
    for _ in range(30):
        c.apply(players[c.decision.seat].choose(c, c.decision))
    twins = [pickle.loads(pickle.dumps(c)), copy.deepcopy(c), c.clone()]
    play(c, players)
    for twin in twins:
        _same_game(play(twin, players), c, "copy")


def test_a_pickled_paused_game_keeps_its_seats_policies():
    """Ray pickles games: a game paused at some kinds for its built-in seats, and with a
    seat answered from Python, unpickles to the same game, paused the same, and its
    clones play every built-in seat in C again, as the original's do (sim/engine/game.py
    clone). The unpickled game had lost the seats' own policies: its clones stopped at
    the built-in seats' paused decisions."""
    import pickle

    rules = _rules(("messages",), MESSAGE_OPTIONS["classic"], 3)
    players = [player(p) for p in ("greedy", "random", "greedy+scoring_figure=coverage")]
    forks = ("messages", "scoring_figure")
    g = Game(rules, 2, [players[0], None, players[2]], pause=forks)

    def asked(game):  # the decisions a game brings back, played on to its end
        seen = []
        while game.decision is not None:
            d = game.decision
            seen.append((game.turn, d.seat, d.kind))
            game.apply(players[d.seat].choose(game, d))
        return seen

    while not (g.decision.seat != 1 and g.decision.kind in forks):  # a built-in seat, paused
        g.apply(players[g.decision.seat].choose(g, g.decision))
    twin = pickle.loads(pickle.dumps(g))
    assert twin.decision == g.decision
    forked, twin_forked = g.clone(), twin.clone()
    here = asked(forked)
    assert {s for _, s, _ in here[1:]} == {1}, here  # only the Python seat is asked again
    assert asked(twin_forked) == here
    _same_game(twin_forked, forked, "clone of the unpickled game")
    paused = asked(g)  # and the pickled game itself is still paused as the original
    assert any(s != 1 for _, s, _ in paused[1:])
    assert asked(twin) == paused
    _same_game(twin, g, "unpickled game")


def test_a_damaged_state_is_refused_not_run():
    import pickle

    from sim.core import CoreArgumentError
    from sim.engine.game import _load

    c = Game(Rules(players=2, expansions=("messages",)), 4)
    fn, (rules, seed, state, *_) = c.__reduce__()
    assert fn is _load and pickle.loads(pickle.dumps(c)).decision == c.decision
    for bad in (state[:-1], state + b"\0", b"XXXX" + state[4:], state[:100]):
        with pytest.raises(CoreArgumentError, match="cc_game_load"):
            _load(rules, seed, bad)
    corrupt = bytearray(state)
    corrupt[-600:] = b"\xff" * 600  # the last segments' links point off the board
    with pytest.raises(CoreArgumentError):
        _load(rules, seed, bytes(corrupt))


def test_reseed_gives_common_random_numbers():
    from sim.engine.rng import derive

    rules = _rules(("messages",), MESSAGE_OPTIONS["c3.1"], 2)
    a, b = Game(rules, 3), Game(rules, 5)
    a.reseed("branch")
    b.reseed("branch")
    assert [a.stream(s).state for s in range(2)] == [derive(3, f"branch/seat{s}") for s in range(2)]
    assert a.stream(0).state != b.stream(0).state  # keyed by the game's seed too
    with pytest.raises(InputError):
        a.stream(2)


def test_same_seed_same_game_and_streams_advance():
    rules = _rules(("messages", "courier"), MESSAGE_OPTIONS["c3.1"], 4)
    specs = ["random", "random", "greedy", "random"]
    a = Game(rules, 11, [player(p) for p in specs])
    b = Game(rules, 11, [player(p) for p in specs])
    assert a.history == b.history and a.events == b.events and a.result() == b.result()
    fresh = Game(rules, 11)  # nothing chosen yet: the streams are the derived seeds
    assert fresh.stream(0).state != a.stream(0).state  # random seats drew from theirs
    assert fresh.stream(2).state == a.stream(2).state  # greedy never draws


def test_illegal_choices_and_a_wrong_seat_count_are_refused():
    c = Game(Rules(players=2), 3)
    d = c.decision
    with pytest.raises(IllegalMove):
        c.apply((999, 999, 0, -1, -1))
    assert c.decision == d and c.history == []  # nothing changed
    with pytest.raises(InputError, match="2 seats for a 3-player game"):
        Game(Rules(players=3), 1, [None, None])


def _python_policy_player():
    """A player whose place policy is not built in (a subclass of a built-in one, under
    the built-in's name), its scoring-figure and messages policies built in."""
    from strategies import Player, make
    from strategies.basic import Random

    class Mine(Random):
        pass

    Mine.name = "random"
    return Player(Mine(), {"scoring_figure": make("greedy"), "messages": make("greedy")})


def test_a_seat_mixing_python_and_built_in_policies_is_asked_only_for_the_python_kinds():
    from sim.engine.game import play_batch

    rules = _rules(("messages",), MESSAGE_OPTIONS["c3.1"], 2)
    mixed = _python_policy_player()  # place: Python; scoring figure, messages: built in
    seats = [player("greedy"), mixed]
    g = Game(rules, 2, seats)
    assert _asked(g, seats) == {(1, "place")}
    _same_game(g, _from_python(rules, 2, ["greedy", "random+scoring_figure=greedy+messages=greedy"]), "mixed")
    with pytest.raises(InputError, match="seat 1"):
        play_batch(rules, [1], seats)


def test_the_shared_deal_is_never_written_to():
    """cdeal.dealt hands every seeded game of the same rules one stack cdata (the C game
    copies it) and a copy of one config: after games, a clone, a paused game and a batch
    played on it, both are as dealt."""
    from sim.engine import deal as cdeal
    from sim.core import ffi, lib
    from sim.engine.game import play_batch

    rules = _rules(ALL_EXPANSIONS, MESSAGE_OPTIONS["classic"], 3)
    record = lib.CC_RECORD_HISTORY | lib.CC_RECORD_EVENTS  # what Game(record=True) deals with
    cfg, stack, n = cdeal.dealt(rules, record)
    shared_cfg, shared_stack, _ = cdeal._deals[(rules, record, True)]
    assert shared_stack is stack and shared_cfg is not cfg  # the config is the caller's copy
    before = (bytes(ffi.buffer(shared_cfg)), bytes(ffi.buffer(stack, n * ffi.sizeof("int32_t"))))
    seats = [player(s) for s in EVERY_POLICY[:3]]
    for seed in range(3):
        g = Game(rules, seed, seats)
        g.clone().reseed("x")
        play(Game(rules, seed, pause=("place",)), seats)
    play_batch(rules, range(4), seats)
    assert cdeal._deals[(rules, record, True)][1] is stack
    assert (bytes(ffi.buffer(shared_cfg)), bytes(ffi.buffer(stack, n * ffi.sizeof("int32_t")))) == before
    batch_cfg, batch_stack, m = cdeal._deals[(rules, 0, True)]  # the batch's own deal (no record)
    assert m == n and bytes(ffi.buffer(batch_stack, m * 4)) == before[1]


def test_played_out_game_has_no_decision():
    rules = Rules(players=2)
    c = Game(rules, 5, [player("first"), player("first")])
    assert c.over and c.decision is None
    with pytest.raises(IllegalMove):
        c.apply((0, 1, 0, -1, -1))


def test_replayed_shows_the_board_at_the_end_of_a_turn():
    rules = _rules(EXPANSIONS, MESSAGE_OPTIONS["c3.1"], 2)
    g = _from_python(rules, 6, ["greedy", "random"])
    assert len(g.replayed(0).board) == 1  # the start tile only
    at = g.replayed(10)
    assert len(at.board) == 11 and at.board.tiles() == g.board.tiles()[:11]
    assert at.history == g.history[:len(at.history)]

@pytest.mark.parametrize("name,expansions,options", VARIANTS[::3], ids=[v[0] for v in VARIANTS[::3]])
def test_a_batch_plays_the_same_games_in_one_call(name, expansions, options):
    import numpy as np

    from sim.engine.game import play_batch
    from sim.expansions.messages import ACTION_NAMES
    from sim.expansions.base import SOURCES
    from sim.expansions.declaration import ROW_DRAWN, ROW_FIGURES, ROW_POINTS, ROW_RANK, ROW_SCORE

    specs = ["greedy", "random+scoring_figure=coverage", "greedy(courier=1.0)"]
    rules = _rules(expansions, options, len(specs))
    seeds = list(range(100, 112))
    out = play_batch(rules, seeds, [player(p) for p in specs])
    names = ACTION_NAMES[options.edition]
    for i, seed in enumerate(seeds):
        c = Game(rules, seed, [player(p) for p in specs])
        res = c.result()
        assert out["turns"][i] == c.turn - 1, (name, seed)
        assert [q for q in range(3) if out["winners"][i] >> q & 1] == res["winners"], (name, seed)
        for q, p in enumerate(res["players"]):
            row = out["results"][i, q]
            assert row[ROW_SCORE] == p["score"] and row[ROW_RANK] == p["rank"]
            assert list(row[ROW_POINTS]) == [p["points"][s] for s in SOURCES]
            if "messages" in expansions:
                assert tuple(row[ROW_FIGURES]) == (p["scoring_meeple"], p["messenger"])
                assert {names[a]: int(v) for a, v in enumerate(row[ROW_DRAWN]) if v} == p["messages"]["drawn"]
    assert np.all(out["results"][:, :, ROW_SCORE] >= 0)


def test_fixed_stack_and_fixed_deck_are_played_as_given():
    from sim.engine.deal import tile_order

    options = MessagesOptions(edition="classic", deck=("extra_tile", "smallest_city"))
    rules = _rules(("messages", "river"), options, 3)
    _, order = tile_order(rules, 1)
    stack = order[:12] + order[-40:]  # the river, then some land tiles
    specs = ["greedy", "random", "first"]
    c = Game(rules, 1, [player(p) for p in specs], stack=stack)
    _same_game(c, _from_python(rules, 1, specs, stack=stack), "fixed")
    assert [e["tile"] for e in c.events if e["e"] in ("draw", "discard")] == stack
    drawn = [e["action"] for e in c.events if e["e"] == "message_draw"]
    assert drawn and drawn[:2] == ["extra_tile", "smallest_city"][:len(drawn)]
    with pytest.raises(InputError, match="unknown tile id"):
        Game(rules, 8, stack=["nope"])


@pytest.mark.parametrize("edition", ["classic", "c3.1"])
def test_counterfactual_forks_with_rollouts_in_c_give_the_engines_rows(edition):
    """sim/tournament/counterfactual.py on a game paused at the forked decisions: its
    rollouts are C clones played out in C (cc_branch_play), and its rows are those of
    the forks played from Python on a game whose every seat is asked from Python."""
    from sim.tournament.counterfactual import play_with_branches

    specs = ["greedy", "random+scoring_figure=coverage", "greedy(extra=1.0)+messages=always_action"]
    forks = ("messages", "scoring_figure")
    for seed in range(3):
        rules = _rules(("messages", "courier"), MESSAGE_OPTIONS[edition], 3)
        ref = Game(rules, seed)
        expected = play_with_branches(ref, [player(p) for p in specs], 2, forks)
        c = Game(rules, seed, [player(p) for p in specs], pause=forks)
        rows = play_with_branches(c, [player(p) for p in specs], 2, forks)
        assert rows == expected and rows, (edition, seed)
        assert {r["fork"] for r in rows} == set(forks)
        _same_game(c, ref, (edition, seed))
    with pytest.raises(InputError, match="pause"):
        Game(rules, 1, pause=("draw",))


@pytest.mark.parametrize("edition", ["classic", "c3.1"])
def test_a_batch_fills_the_players_table_without_a_loop(edition):
    import numpy as np
    import pyarrow as pa

    from sim.engine.game import play_batch
    from sim.tournament.records import players_table
    from sim.tournament.records import PLAYERS, player_row

    specs = ["greedy", "random", "greedy+scoring_figure=coverage", "first"]
    rules = _rules(("messages", "courier"), MESSAGE_OPTIONS[edition], 4)
    seeds = list(range(30, 45))
    seat_specs = [specs[i % 4:] + specs[:i % 4] for i in range(len(seeds))]  # rotations
    out = {"turns": [], "winners": [], "results": []}
    rows = []
    for i, seed in enumerate(seeds):  # one batch per seat order, as a worker would
        b = play_batch(rules, [seed], [player(p) for p in seat_specs[i]])
        for k in out:
            out[k].append(b[k])
        res = Game(rules, seed, [player(p) for p in seat_specs[i]]).result()
        rows += [player_row(1000 + i, seat_specs[i][p["seat"]], p["seat"] == i % 4, p, res["winners"],
                            run_id="r", block=i // 4, variant=f"v{i % 4}")
                 for p in res["players"]]
    batch = {k: np.concatenate(v) for k, v in out.items()}
    table = players_table(rules, batch, [1000 + i for i in range(len(seeds))], seat_specs,
                          [i % 4 for i in range(len(seeds))], run_id="r",
                          blocks=[i // 4 for i in range(len(seeds))],
                          variants=[f"v{i % 4}" for i in range(len(seeds))])
    assert table.schema == PLAYERS
    assert table.to_pylist() == pa.Table.from_pylist(rows, schema=PLAYERS).to_pylist()


@pytest.mark.parametrize("followers", [0, 1, 30])
def test_follower_supplies_from_none_to_many(followers):
    specs = ["greedy", "random", "first", "greedy(courier=2.0)", "random", "greedy"]
    for seed in range(3):
        rules = Rules(players=6, followers=followers, expansions=EXPANSIONS,
                      messages=MESSAGE_OPTIONS["classic"])
        _same_game(Game(rules, seed, [player(p) for p in specs]), _from_python(rules, seed, specs),
                   (followers, seed))
