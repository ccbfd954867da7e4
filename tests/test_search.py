"""The `search` policy, played by the C game (sim/csrc/search.c; strategies/search.py):
legal everywhere, reproducible from the seat's own stream, blind to what a player
cannot see, never changing the game it searches, and its parameters checked."""

import itertools
import pickle

import pytest

from sim.core import CoreArgumentError, ffi, lib
from sim.errors import InputError
from sim.engine.deal import tile_order
from sim.engine.game import Game, play_batch
from sim.engine.play import play
from sim.engine.rng import Stream
from sim.engine.rules import IMPLEMENTED_EXPANSIONS, Rules
from sim.engine.seats import policy_struct
from sim.expansions.messages import MessagesOptions
from sim.expansions.river import is_river_tile
from strategies import make, parse_policy, player

SMALL = "search(rollouts=2,candidates=3)"
CUT = "search(rollouts=2,candidates=3,depth=4,halving=true,score=\"win\")"


def _combos():
    names = sorted(IMPLEMENTED_EXPANSIONS)
    for n in range(len(names) + 1):
        for combo in itertools.combinations(names, n):
            for edition in ("c3.1", "classic") if "messages" in combo else ("c3.1",):
                yield combo, edition


@pytest.mark.parametrize("combo,edition", list(_combos()))
def test_answers_every_decision_legally_and_alike_in_c_and_from_python(combo, edition):
    """Every decision kind of every expansion: asked decision by decision from Python
    (Game.apply raises IllegalMove for anything but one of the choices), the game is the
    one the C seats play, a batch's too."""
    rules = Rules(players=2, expansions=combo, messages=MessagesOptions(edition=edition))
    seats = [player(SMALL), player(CUT)]
    game = Game(rules, 11)
    seen = set()
    while game.decision is not None:
        d = game.decision
        seen.add(d.kind)
        game.apply(seats[d.seat].choose(game, d))
    assert game.over and "place" in seen
    if combo == ("messages",):  # (not every game draws one)
        assert "messages" in seen
    c = Game(rules, 11, seats)
    assert c.over and c.history == game.history and c.result() == game.result()
    assert [s.state for s in map(c.stream, range(2))] == [s.state for s in map(game.stream, range(2))]
    batch = play_batch(rules, [11], seats)
    assert list(batch["results"][0, :, 0]) == c.scores


def test_reproducible():
    rules = Rules(players=3, expansions=("messages", "river"))
    seats = [player(SMALL), player("greedy"), player(CUT)]
    runs = [Game(rules, 5, seats) for _ in range(2)]
    assert runs[0].history == runs[1].history and runs[0].result() == runs[1].result()
    assert runs[0].history != Game(rules, 6, seats).history


def test_one_candidate_is_greedy():
    # greedy's own choice is the first candidate: alone, it must be taken every time
    # (a search that ranked greedy's rows wrongly, or answered the wrong decision, differs)
    rules = Rules(players=2, expansions=("messages", "river", "mayors"))
    others = "".join(f"+{k}=greedy" for k in ("messages", "scoring_figure", "figure", "town_hall",
                                               "favour", "scarecrow", "ride"))
    for seed in (1, 2):
        ref = Game(rules, seed, [player("greedy"), player("greedy")])
        got = Game(rules, seed, [player("search(rollouts=1,candidates=1)" + others), player("greedy")])
        assert got.history == ref.history
        assert got.stream(0).state == ref.stream(0).state  # nothing searched: nothing drawn


def test_the_rollout_seat_is_greedy_with_its_default_parameters():
    out = ffi.new("cc_seat_policy *")
    assert lib.cc_search_rollout_seat(out) == lib.CC_OK
    for edition in ("c3.1", "classic"):
        assert bytes(ffi.buffer(out)) == bytes(ffi.buffer(policy_struct(make("greedy"), edition)))


def test_a_depth_past_the_end_and_halving_over_two_candidates_change_nothing():
    """Rollouts cut after more turns than are left play to the end: the paused rollout
    seats' answers are greedy's own (search.c greedy_place_now). Sequential halving of
    two candidates is one round of the whole budget: the plain search."""
    rules = Rules(players=2, expansions=("messages", "mayors"))
    a, b = "search(rollouts=2,candidates=3,depth=0)", "search(rollouts=2,candidates=3,depth=10000)"
    ga, gb = (Game(rules, 4, [player(s), player("greedy")]) for s in (a, b))
    assert ga.history == gb.history
    base = Rules(players=2)  # place decisions only: two candidates each
    a, b = "search(rollouts=3,candidates=2)", "search(rollouts=3,candidates=2,halving=true)"
    assert Game(base, 4, [player(a), player("greedy")]).history == \
        Game(base, 4, [player(b), player("greedy")]).history
    cut = Game(rules, 4, [player("search(rollouts=2,candidates=3,depth=2)"), player("greedy")])
    assert cut.history != ga.history  # a real cut plays otherwise


def _at_turn(rules, seed, turn, stack=None):
    game = Game(rules, seed, stack=stack)
    greedy = player("greedy")
    while game.turn < turn or game.decision.kind != "place":
        game.apply(greedy.choose(game, game.decision))
    return game


def _deal(game, key):
    """cc_game_determinised's tiles left, and the deal as a game."""
    tiles = ffi.new("int32_t[]", max(1, game.tiles_left))
    out = ffi.new("cc_game **")
    n = lib.cc_game_determinised(game._ptr, key, out, tiles, max(1, game.tiles_left))
    assert n == game.tiles_left
    lib.cc_game_free(out[0])
    return [game.catalogue.types[t].id for t in ffi.unpack(tiles, n)]


def test_the_deal_is_the_unseen_tiles_river_first_and_the_lake_last_of_them():
    rules = Rules(players=3, expansions=("messages", "river"))
    start, order = tile_order(rules, 9)
    game = _at_turn(rules, 9, 3)
    drawn = len(order) - game.tiles_left
    river = {t.id for t in game.catalogue.types if is_river_tile(t)}
    saved = pickle.dumps(game)
    deals = [_deal(game, key) for key in (1, 2, 3)]
    for deal in deals:
        assert sorted(deal) == sorted(order[drawn:])  # the stack's own tiles, no other
        rivers = [i for i, t in enumerate(deal) if t in river]
        assert rivers == list(range(len(rivers))) and rivers  # river tiles first
        assert game.catalogue.types[game.catalogue.index[deal[rivers[-1]]]].has("lake")
    assert len({tuple(d) for d in deals}) == 3 and deals[0] == _deal(game, 1)  # keyed
    assert pickle.dumps(game) == saved
    d = game.determinised(1, [player("greedy")] * 3)  # the deal as a game (View.determinised)
    assert d.decision == game.decision and d.scores == game.scores and d.tiles_left == game.tiles_left
    assert d.supply == game.supply and d.events == []


def test_a_scripted_game_on_a_short_stack_deals_only_its_own_tiles():
    c = Game(Rules(players=2), 3, stack=["E", "U", "V"])
    assert c.tiles_left == 2
    assert sorted(_deal(c, 7)) == ["U", "V"]
    assert make("search").choose(c, c.decision, None) in c.decision.choices


def test_the_deal_refuses_bad_calls():
    game = _at_turn(Rules(players=2), 2, 5)
    out, tiles = ffi.new("cc_game **"), ffi.new("int32_t[]", 1)
    assert lib.cc_game_determinised(ffi.NULL, 1, out, ffi.NULL, 0) == lib.CC_ERR_ARG
    assert lib.cc_game_determinised(game._ptr, 1, ffi.NULL, ffi.NULL, 0) == lib.CC_ERR_ARG
    assert lib.cc_game_determinised(game._ptr, 1, out, tiles, 1) == lib.CC_ERR_FULL
    assert out[0] == ffi.NULL
    assert lib.cc_search_rollout_seat(ffi.NULL) == lib.CC_ERR_ARG
    with pytest.raises(InputError, match="built-in"):
        game.determinised(1, [player("greedy"), None])


def _choice(game, spec, state):
    """`spec`'s answer to the game's decision with the seat's stream at `state`."""
    game.stream(game.decision.seat).state = state
    return parse_policy(spec, "test").choose(game, game.decision, None)


def test_search_does_not_peek_at_the_stack():
    # two games alike up to now whose remaining tiles lie in other orders: the search,
    # seeing only what a player sees, must choose alike in both
    rules = Rules(players=2, expansions=("messages",))
    start, order = tile_order(rules, 4)
    turn = 15
    other = order[:turn] + order[turn:][::-1]
    assert other != order
    a, b = _at_turn(rules, 4, turn, list(order)), _at_turn(rules, 4, turn, other)
    assert a.history == b.history and a.tiles_left == b.tiles_left and a.decision == b.decision
    for spec in ("search(rollouts=3,candidates=4)", "search(rollouts=3,candidates=4,depth=5)"):
        for key in range(8, 12):  # a few deals
            assert _choice(a, spec, key) == _choice(b, spec, key)


def test_search_does_not_peek_at_the_undrawn_messages():
    """Two games on one stack whose decks differ (their seeds'), alike up to a decision
    before any message is drawn: the search chooses alike in both."""
    rules = Rules(players=2, expansions=("messages",))
    start, order = tile_order(rules, 4)
    pairs = 0
    for seed in range(20, 40):
        a, b = _at_turn(rules, 4, 6, list(order)), _at_turn(rules, seed, 6, list(order))
        if a.history != b.history or any(e["e"] == "message_draw" for e in a.events):
            continue
        fa, fb = a.clone(), b.clone()  # the decks differ: greedy plays on otherwise
        play(fa, [player("greedy")] * 2)
        play(fb, [player("greedy")] * 2)
        if [e for e in fa.events if e["e"] == "message_draw"][:1] == \
                [e for e in fb.events if e["e"] == "message_draw"][:1]:
            continue
        pairs += 1
        for key in (3, 4):
            assert _choice(a, "search(rollouts=3,candidates=4)", key) == \
                _choice(b, "search(rollouts=3,candidates=4)", key), seed
        if pairs == 2:
            break
    assert pairs == 2


def test_never_mutates_the_game_and_draws_once_from_the_seat_stream():
    rules = Rules(players=2, expansions=("messages",))
    game = _at_turn(rules, 3, 12)
    seat, state = game.decision.seat, game.stream(game.decision.seat).state
    saved = pickle.dumps(game)  # the C save of the whole state
    for spec in (SMALL, CUT):
        game.stream(seat).state = state
        parse_policy(spec, "test").choose(game, game.decision, Stream(99))
        once = Stream(state)
        once.next_u64()  # the one draw that keys the deals (Stream.next_u64)
        assert game.stream(seat).state == once.state
        game.stream(seat).state = state
        assert pickle.dumps(game) == saved


@pytest.mark.parametrize("expansions", [(), ("mayors",), ("abbot",)])
def test_the_search_changes_choices(expansions):
    # with Messengers & Mayors and the Abbot too: their decisions are searched in C,
    # not answered as greedy
    rules = Rules(players=2, expansions=expansions)
    game = _at_turn(rules, 6, 10)
    greedy = player("greedy")
    differ = 0
    for _ in range(30):
        d = game.decision
        choice = _choice(game, "search(rollouts=4,candidates=6)", 5)
        assert choice in d.choices
        differ += choice != greedy.choose(game, d)
        game.apply(greedy.choose(game, d))
        if game.decision is None:
            break
    assert differ > 0  # a search that always agreed with greedy would add nothing


def test_bad_parameters():
    for spec, words in (("search(rollouts=0)", "rollouts"), ("search(candidates=0)", "candidates"),
                        ("search(rollouts=100001)", "rollouts"), ("search(depth=-1)", "depth"),
                        ("search(depth=10001)", "depth"), ("search(halving=1)", "halving"),
                        ("search(score=\"x\")", "score"), ("search(width=2)", "width")):
        with pytest.raises(InputError, match=words):
            player(spec)
    with pytest.raises(InputError, match="one set of parameters"):
        player("search+messages=search(rollouts=2)")
    player("search(rollouts=2)+messages=search(rollouts=2)")  # the same set: fine
    bad = ffi.new("cc_seat_policy *", policy_struct(make("search"), "c3.1")[0])
    game = _at_turn(Rules(players=2), 2, 3)
    for field, value in (("search_rollouts", 0), ("search_score", 2), ("search_depth", -1),
                         ("search_halving", 2), ("search_candidates", 10**6)):
        setattr(bad, field, value)
        assert lib.cc_game_set_seat(game._ptr, 0, bad) == lib.CC_ERR_ARG, field
        out = ffi.new("int32_t *", -7)
        assert lib.cc_game_policy_choice(game._ptr, bad, out) == lib.CC_ERR_ARG and out[0] == -7
        setattr(bad, field, getattr(policy_struct(make("search"), "c3.1"), field))
    with pytest.raises(CoreArgumentError, match="cc_game_new"):
        Game(Rules(players=2), 1, [_Broken()] * 2)


class _Broken:
    """A player whose search struct C refuses (what strategies.Search never builds)."""
    def __init__(self):
        self.default = make("search")
        self.default.__dict__["rollouts"] = 0  # behind BuiltIn's back
        self.by_kind = {}


def test_last_tile_takes_the_best_final_margin():
    # On the last tile nothing is unseen: every rollout of a candidate is the same game,
    # so the search must take the candidate with the best final margin, here worked out
    # independently: each of greedy's best rows applied to a clone of the game that
    # greedy finishes, ties to the first in the decision's order.
    rules = Rules(players=2)
    greedy = player("greedy")
    for seed in (21, 22, 23):
        game = Game(rules, seed)
        while not (game.decision.kind == "place" and game.tiles_left == 0):
            game.apply(greedy.choose(game, game.decision))
        d = game.decision
        values = make("greedy").values(game)
        cands = sorted(range(len(values)), key=lambda i: (-values[i], i))[:8]

        def margin(i):
            g = game.clone()
            g.apply(d.choices[i])
            play(g, [greedy, greedy])
            return g.scores[d.seat] - g.scores[1 - d.seat]

        want = max(cands, key=lambda i: (margin(i), -i))
        assert _choice(game, "search(rollouts=3,candidates=8)", 2) == d.choices[want]


def test_strength_verdict_needs_the_blocks_and_the_whole_interval():
    from sim.analysis.findings import strength_verdict
    row = {"win_share": 0.70, "low": 0.66, "high": 0.74, "blocks": 1000}
    assert strength_verdict(row).startswith("met")
    assert strength_verdict({**row, "blocks": 999}).startswith("not tested")
    assert strength_verdict({**row, "low": 0.64}).startswith("not shown")  # interval reaches 0.64
    assert strength_verdict({**row, "win_share": 0.65, "low": 0.63}).startswith("not met")


def test_search_seat_section_sits_beside_greedys(tmp_path):
    """`carcsim findings --only search_seat_advantage` also runs the greedy config it
    is set beside, and quotes both runs' own numbers (cut to a few blocks and a small
    budget here); the difference is the two intervals' normal approximation."""
    import re

    from sim.analysis.report import build
    from sim.tournament.config import shipped_configs
    from sim.analysis.findings import est, regenerate
    (tmp_path / "docs").mkdir()
    configs = {}
    for name in ("search_seat_advantage", "seat_advantage"):
        text = re.sub(r"(?m)^blocks = \d+", "blocks = 4", shipped_configs()[name].read_text())
        configs[name] = tmp_path / f"{name}.toml"
        configs[name].write_text(re.sub(r"search\([^)]*\)", "search(rollouts=1,candidates=2)", text))
    doc = regenerate(tmp_path, only=("search_seat_advantage",), echo=lambda s: None, configs=configs)
    assert "## Seat advantage between search players" in doc and "\n## Seat advantage\n" not in doc
    # the section names both runs it reads, each with its own size and CPU time
    assert "`carcsim run search_seat_advantage && carcsim report runs/search_seat_advantage` (4 games in 4 blocks;" in doc
    assert re.search(r"beside it: `carcsim run seat_advantage && carcsim report runs/seat_advantage` "
                     r"\(4 games in 4 blocks; code [^;]+; \d+ CPU s here\)", doc)

    def seat(name):
        h = next(h for h in build(tmp_path / "runs" / name)["headline"]
                 if h["family"] == "seat advantage")
        return h["estimate"], h["low"], h["high"]
    s, g = seat("search_seat_advantage"), seat("seat_advantage")
    assert f"wins {est(*s)} of mirror games" in doc and f"{est(*g)} over 4 blocks" in doc
    d, hw = s[0] - g[0], ((s[2] - s[1]) ** 2 + (g[2] - g[1]) ** 2) ** 0.5 / 2
    assert f"Search − greedy: {est(d, d - hw, d + hw, signed=True)}" in doc
