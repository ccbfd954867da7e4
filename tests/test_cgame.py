"""The C game (sim/cgame.py) against the Python engine, its reference: every decision's
choices, the events, scores and points by source, the result — move for move, over
every combination of The Messages (both editions, ZMG), the River and the Courier,
2-6 players and every built-in policy."""

import itertools
from pathlib import Path

import pytest

from sim.cgame import CGame, plays, supports
from sim.errors import IllegalMove, InputError
from sim.game import Game
from sim.messages import MessagesOptions
from sim.play import play
from sim.rules import Rules
from strategies import player

EXPANSIONS = ("messages", "river", "courier")
MESSAGE_OPTIONS = {"c3.1": MessagesOptions(edition="c3.1"),
                   "classic": MessagesOptions(edition="classic"),
                   "zmg": MessagesOptions(edition="classic", zmg_alone=True)}


def _variants():
    """(name, expansions, messages options) for every combination and edition."""
    for n in range(len(EXPANSIONS) + 1):
        for combo in itertools.combinations(EXPANSIONS, n):
            for ed in (MESSAGE_OPTIONS if "messages" in combo else ("c3.1",)):
                yield f"{'+'.join(combo) or 'base'}-{ed}", combo, MESSAGE_OPTIONS[ed]


VARIANTS = list(_variants())
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


def _same_game(c: CGame, ref: Game, where):
    assert c.over and ref.over, where
    assert c.history == ref.history, where
    assert len(c.events) == len(ref.events), where
    for i, (ce, pe) in enumerate(zip(c.events, ref.events)):
        assert ce == pe, (where, i)
    assert c.result() == ref.result(), where
    assert (c.turn, c.tiles_left) == (ref.turn, ref.tiles_left), where


@pytest.mark.parametrize("name,expansions,options", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_built_in_seats_play_the_engines_game(name, expansions, options):
    """A game of built-in seats never leaves C, and is the Python engine's game."""
    for seed in range(24):  # 16 variants x 24: 384 games
        specs = _seats(seed, 2 + seed % 5)
        rules = _rules(expansions, options, len(specs))
        ref = play(Game(rules, seed), [player(p) for p in specs])
        c = CGame(rules, seed, [player(p) for p in specs])
        _same_game(c, ref, (name, seed, specs))


@pytest.mark.parametrize("name,expansions,options", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_python_seats_get_the_engines_decisions(name, expansions, options):
    """Seats answered from Python: every decision (kind, seat, tile, choices in order,
    info) is the Python engine's, one at a time; built-in seats in between stay in C."""
    for seed in range(4):
        specs = _seats(seed + 50, 2 + (seed + 1) % 5)
        rules = _rules(expansions, options, len(specs))
        players = [player(p) for p in specs]
        external = [s % 2 == seed % 2 for s in range(len(specs))]  # half the seats from Python
        ref = Game(rules, seed)
        c = CGame(rules, seed, [None if external[s] else player(p) for s, p in enumerate(specs)])
        step = 0
        while ref.decision is not None:
            d = ref.decision
            choice = players[d.seat].choose(ref, d)
            if external[d.seat]:
                _same_decision(c.decision, d, (name, seed, step))
                c.apply(choice)
            ref.apply(choice)
            step += 1
        assert c.decision is None
        _same_game(c, ref, (name, seed, specs))


def test_clone_is_independent_and_plays_on_identically():
    rules = _rules(EXPANSIONS, MESSAGE_OPTIONS["classic"], 3)
    players = [player(p) for p in ("greedy", "random", "greedy+scoring_figure=coverage")]
    ref = Game(rules, 7)
    c = CGame(rules, 7)
    for _ in range(40):  # into the game, past some messages
        choice = players[ref.decision.seat].choose(ref, ref.decision)
        ref.apply(choice)
        c.apply(choice)
    twin = c.clone()
    events = list(c.events)
    assert twin.decision == c.decision and twin.history == c.history and twin.events == events
    ref_twin = ref.clone()
    while ref_twin.decision is not None:  # the clone plays on alone
        choice = players[ref_twin.decision.seat].choose(ref_twin, ref_twin.decision)
        ref_twin.apply(choice)
        twin.apply(choice)
    _same_game(twin, ref_twin, "clone")
    assert c.events == events and not c.over  # the original did not move
    while ref.decision is not None:
        choice = players[ref.decision.seat].choose(ref, ref.decision)
        ref.apply(choice)
        c.apply(choice)
    _same_game(c, ref, "original")


def test_pickle_goes_through_a_c_save_of_the_state():
    """pickle, deepcopy and clone give the same game, which plays on as the original."""
    import copy
    import pickle

    rules = _rules(EXPANSIONS, MESSAGE_OPTIONS["classic"], 3)
    players = [player(p) for p in ("greedy", "random", "greedy+scoring_figure=coverage")]
    ref = Game(rules, 9)
    c = CGame(rules, 9, [None, None, players[2]])  # seat 2 built in: its stream is in C
    for _ in range(30):
        d = ref.decision
        choice = players[d.seat].choose(ref, d)
        if d.seat != 2:
            c.apply(choice)
        ref.apply(choice)
    for twin in (pickle.loads(pickle.dumps(c)), copy.deepcopy(c), c.clone()):
        assert twin.decision == c.decision and twin.history == c.history
        assert twin.events == c.events and twin.result() == c.result()
        r = ref.clone()
        while r.decision is not None:
            d = r.decision
            choice = players[d.seat].choose(r, d)
            if d.seat != 2:
                twin.apply(choice)
            r.apply(choice)
        _same_game(twin, r, "copy")


def test_a_damaged_state_is_refused_not_run():
    import pickle

    from sim._core import CoreArgumentError
    from sim.cgame import _load

    c = CGame(Rules(players=2, expansions=("messages",)), 4)
    fn, (rules, seed, max_tiles, state, _) = c.__reduce__()
    assert fn is _load and pickle.loads(pickle.dumps(c)).decision == c.decision
    for bad in (state[:-1], state + b"\0", b"XXXX" + state[4:], state[:100]):
        with pytest.raises(CoreArgumentError, match="cc_game_load"):
            _load(rules, seed, max_tiles, bad)
    corrupt = bytearray(state)
    corrupt[-600:] = b"\xff" * 600  # the last segments' links point off the board
    with pytest.raises(CoreArgumentError):
        _load(rules, seed, max_tiles, bytes(corrupt))


def test_python_policies_play_on_the_c_game_itself():
    """Seats answered by Python policies reading the C game (its decisions, a live
    random stream): the same game as the engine's with the same policies."""
    specs = ["random", "first+scoring_figure=spread", "random+scoring_figure=coverage"]
    for expansions in ((), ("messages", "river", "courier")):
        for seed in range(5):
            rules = _rules(expansions, MESSAGE_OPTIONS["classic"], 3)
            ref = play(Game(rules, seed), [player(p) for p in specs])
            c = play(CGame(rules, seed), [player(p) for p in specs])
            _same_game(c, ref, (expansions, seed))
            assert c.stream(0).state == ref.stream(0).state


def test_reseed_gives_common_random_numbers():
    rules = _rules(("messages",), MESSAGE_OPTIONS["c3.1"], 2)
    c = CGame(rules, 3)
    ref = Game(rules, 3)
    c.reseed("branch")
    ref.reseed("branch")
    assert [c.stream(s).state for s in range(2)] == [ref.stream(s).state for s in range(2)]
    with pytest.raises(InputError):
        c.stream(2)


def test_same_seed_same_game_and_streams_advance():
    rules = _rules(("messages", "courier"), MESSAGE_OPTIONS["c3.1"], 4)
    specs = ["random", "random", "greedy", "random"]
    a = CGame(rules, 11, [player(p) for p in specs])
    b = CGame(rules, 11, [player(p) for p in specs])
    assert a.history == b.history and a.events == b.events and a.result() == b.result()
    fresh = CGame(rules, 11)  # nothing chosen yet: the streams are the derived seeds
    assert fresh.stream(0).state != a.stream(0).state  # random seats drew from theirs
    assert fresh.stream(2).state == a.stream(2).state  # greedy never draws


def test_illegal_choices_and_unplayed_rules_are_refused():
    c = CGame(Rules(players=2), 3)
    d = c.decision
    with pytest.raises(IllegalMove):
        c.apply((999, 999, 0, -1, -1))
    assert c.decision == d and c.history == []  # nothing changed
    assert plays(Rules(players=2, expansions=("mayors", "messages", "river", "courier")))
    assert not supports(Rules(players=2, expansions=("mayors",)))  # not yet for search, fast path
    with pytest.raises(InputError, match="seat 1"):
        CGame(Rules(players=2), 1, [player("random"), _python_policy_player()])


def _python_policy_player():
    """A player with a policy that is not built in (a subclass of a built-in one)."""
    from strategies.basic import Random

    class Mine(Random):
        pass

    Mine.name = "random"
    from strategies import Player
    return Player(Mine())


def test_played_out_game_has_no_decision():
    rules = Rules(players=2)
    c = CGame(rules, 5, [player("first"), player("first")])
    assert c.over and c.decision is None
    with pytest.raises(IllegalMove):
        c.apply((0, 1, 0, -1, -1))


@pytest.mark.parametrize("name,expansions,options", VARIANTS[::3], ids=[v[0] for v in VARIANTS[::3]])
def test_a_batch_plays_the_same_games_in_one_call(name, expansions, options):
    import numpy as np

    from sim.cgame import ACTION_NAMES, play_batch
    from sim.scoring import SOURCES

    specs = ["greedy", "random+scoring_figure=coverage", "greedy(courier=1.0)"]
    rules = _rules(expansions, options, len(specs))
    seeds = list(range(100, 112))
    out = play_batch(rules, seeds, [player(p) for p in specs])
    names = ACTION_NAMES[options.edition]
    for i, seed in enumerate(seeds):
        c = CGame(rules, seed, [player(p) for p in specs])
        res = c.result()
        assert out["turns"][i] == c.turn - 1, (name, seed)
        assert [q for q in range(3) if out["winners"][i] >> q & 1] == res["winners"], (name, seed)
        for q, p in enumerate(res["players"]):
            row = out["results"][i, q]
            assert row[0] == p["score"] and list(row[1:7]) == [p["points"][s] for s in SOURCES]
            if "messages" in expansions:
                assert (row[7], row[8]) == (p["scoring_meeple"], p["messenger"])
                assert {names[a]: int(v) for a, v in enumerate(row[12:20]) if v} == p["messages"]["drawn"]
    assert np.all(out["results"][:, :, 0] >= 0)


def test_fixed_stack_and_fixed_deck_are_played_as_given():
    from sim.game import tile_order

    options = MessagesOptions(edition="classic", deck=("extra_tile", "smallest_city"))
    rules = _rules(("messages", "river"), options, 3)
    _, order = tile_order(rules, 1)
    stack = order[:12] + order[-40:]  # the river, then some land tiles
    specs = ["greedy", "random", "first"]
    ref = play(Game(rules, 1, stack=stack), [player(p) for p in specs])
    c = CGame(rules, 1, [player(p) for p in specs], stack=stack)
    _same_game(c, ref, "fixed")
    drawn = [e["action"] for e in c.events if e["e"] == "message_draw"]
    assert drawn and drawn[:2] == ["extra_tile", "smallest_city"][:len(drawn)]
    with pytest.raises(InputError, match="unknown tile id"):
        CGame(rules, 8, stack=["nope"])


@pytest.mark.parametrize("edition", ["classic", "c3.1"])
def test_counterfactual_forks_with_rollouts_in_c_give_the_engines_rows(edition):
    """sim/tournament/counterfactual.py on a CGame paused at the forked decisions: its
    rollouts are C clones played out in C, and its rows are the Python engine's."""
    from sim.tournament.counterfactual import play_with_branches

    specs = ["greedy", "random+scoring_figure=coverage", "greedy(extra=1.0)+messages=always_action"]
    forks = ("messages", "scoring_figure")
    for seed in range(3):
        rules = _rules(("messages", "courier"), MESSAGE_OPTIONS[edition], 3)
        ref = Game(rules, seed)
        expected = play_with_branches(ref, [player(p) for p in specs], 2, forks)
        c = CGame(rules, seed, [player(p) for p in specs], pause=forks)
        rows = play_with_branches(c, [player(p) for p in specs], 2, forks)
        assert rows == expected and rows, (edition, seed)
        assert {r["fork"] for r in rows} == set(forks)
        _same_game(c, ref, (edition, seed))
    with pytest.raises(InputError, match="pause"):
        CGame(rules, 1, pause=("draw",))


SCRIPTS = sorted((Path(__file__).resolve().parent / "scripts").glob("*.toml"))


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_scripted_games_play_the_same_in_c(path):
    """Every scripted game (Messengers & Mayors too, its town halls chosen, not drawn):
    its choices replayed on a CGame meet the same decisions and give the same events
    and result."""
    from sim.game import TOWN_HALL
    from sim.script import load_script, play_script

    script = load_script(path)
    ref = play_script(script)
    tiles = [t for turn in script.turns for t in (*turn.discarded, turn.tile) if t != TOWN_HALL.id]
    replay = Game(script.rules, 0, stack=tiles, town_halls_at_end=False)
    c = CGame(script.rules, 0, stack=tiles, town_halls_at_end=False)
    for step, choice in enumerate(ref.history):
        _same_decision(c.decision, replay.decision, (path.stem, step))
        c.apply(choice)
        replay.apply(choice)
    _same_game(c, ref, path.stem)


@pytest.mark.parametrize("edition", ["classic", "c3.1"])
def test_a_batch_fills_the_players_table_without_a_loop(edition):
    import numpy as np
    import pyarrow as pa

    from sim.cgame import play_batch, players_table
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
        res = CGame(rules, seed, [player(p) for p in seat_specs[i]]).result()
        rows += [player_row(1000 + i, seat_specs[i][p["seat"]], p["seat"] == i % 4, p, res["winners"])
                 for p in res["players"]]
    batch = {k: np.concatenate(v) for k, v in out.items()}
    table = players_table(rules, batch, [1000 + i for i in range(len(seeds))], seat_specs,
                          [i % 4 for i in range(len(seeds))])
    assert table.schema == PLAYERS
    assert table.to_pylist() == pa.Table.from_pylist(rows, schema=PLAYERS).to_pylist()


@pytest.mark.parametrize("followers", [0, 1, 30])
def test_follower_supplies_from_none_to_many(followers):
    specs = ["greedy", "random", "first", "greedy(courier=2.0)", "random", "greedy"]
    for seed in range(3):
        rules = Rules(players=6, followers=followers, expansions=EXPANSIONS,
                      messages=MESSAGE_OPTIONS["classic"])
        ref = play(Game(rules, seed), [player(p) for p in specs])
        _same_game(CGame(rules, seed, [player(p) for p in specs]), ref, (followers, seed))


@pytest.mark.parametrize("name,expansions,options", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_the_differential_harness_passes_with_the_c_game(name, expansions, options):
    """sim/differential.py's comparison, with the C game in the production seat and the
    reference engine (sim/reference/) on the other side: decisions, choices, events,
    standings and the result agree at every decision."""
    for seed in range(3):
        specs = _seats(seed + 90, 2 + (seed * 2) % 5)
        harness_game(_rules(expansions, options, len(specs)), seed, specs, (name, seed))


def harness_game(rules: Rules, seed: int, specs: list[str], where) -> None:
    """One seeded game through sim/differential.py's comparison: the Python engine's
    seats choose, the C game and the reference engine follow; no difference allowed."""
    from sim.differential import _compare
    from sim.game import tile_order
    from sim.reference import RefGame

    py, players = Game(rules, seed), [player(p) for p in specs]
    c = CGame(rules, seed)
    ref = RefGame(rules, tile_order(rules, seed)[1], None if py.msg is None else list(py.msg.deck))

    def choose(game, d):
        choice = players[py.decision.seat].choose(py, py.decision)
        py.apply(choice)
        return choice

    compared, diff = _compare(c, ref, choose)
    assert diff is None, (where, diff)
    assert compared > 50 and c.over, where
