"""The report's answers for tables of three or more with different strategies
(sim/analysis/balance.py PlayerShare and Ahead): each strategy's win share against
1/players and each pair's share of finishing ahead, worked out here again game by
game from the stored tables with plain Python, block by block."""

from collections import defaultdict
from itertools import permutations

import pytest

from sim.analysis import stats
from sim.analysis.fmt import fmt_p
from sim.analysis.report import build, first_answer, question_of
from sim.analysis.summary import load
from sim.tournament.config import parse_experiment
from sim.tournament.run import run_experiment

CONFIG = """
[run]
name = "tables"
seed = 41
blocks = {blocks}
shard_blocks = 4

[rules]
players = {players}
expansions = {expansions}

[design]
kind = "rotations"
seats = {seats}
"""


def _run(tmp_path, players, seats, blocks=12, expansions=()):
    text = CONFIG.format(blocks=blocks, players=players, seats=list(seats), expansions=list(expansions))
    text = text.replace("'", '"')
    exp = parse_experiment(text, "tables.toml")
    out = tmp_path / f"run{players}{len(set(seats))}"
    run_experiment(exp, out, workers=0)
    return out


@pytest.fixture(scope="module")
def four(tmp_path_factory):
    # random seated twice: it meets each other strategy once per seat
    return _run(tmp_path_factory.mktemp("tables"), 4, ["greedy", "random", "first", "random"],
                expansions=["abbot"])


def _by_hand(run):
    """Per block: each spec's win-share sum and seats, each ordered pair's finishing-ahead
    sum and meetings, and the games each sat in."""
    games = {r["game_id"]: r["block"] for r in load(run, "games").iter_rows(named=True)}
    seated = defaultdict(list)
    for r in load(run, "players").iter_rows(named=True):
        seated[r["game_id"]].append(r)
    share = defaultdict(lambda: defaultdict(lambda: [0.0, 0]))
    ahead = defaultdict(lambda: defaultdict(lambda: [0.0, 0]))
    sat, met, apart = defaultdict(set), defaultdict(set), defaultdict(lambda: defaultdict(int))
    for gid, rows in seated.items():
        if len({r["player"] for r in rows}) < 2:
            continue
        block = games[gid]
        for r in rows:
            share[r["player"]][block][0] += r["win_share"]
            share[r["player"]][block][1] += 1
            sat[r["player"]].add(gid)
        for a, b in permutations(rows, 2):
            if a["player"] == b["player"]:
                continue
            cell = ahead[a["player"], b["player"]][block]
            cell[0] += 1.0 if a["score"] > b["score"] else 0.5 if a["score"] == b["score"] else 0.0
            cell[1] += 1
            met[a["player"], b["player"]].add(gid)
            apart[a["player"], b["player"]][(b["seat"] - a["seat"]) % len(rows)] += 1
    return share, ahead, sat, met, apart


def _estimate(per_block, null):
    blocks = sorted(per_block)
    return stats.share_by_block([per_block[k][0] for k in blocks], [per_block[k][1] for k in blocks], null)


def test_each_strategy_win_share_at_a_table_of_four(four):
    rep = build(four)
    share, _, sat, _, _ = _by_hand(four)
    rows = {r["player"]: r for r in rep["player_share"]}
    assert set(rows) == {"greedy", "random", "first"}
    for spec, per_block in share.items():
        want, r = _estimate(per_block, 1 / 4), rows[spec]
        assert r["players"] == 4 and r["blocks"] == len(per_block) == 12
        assert r["games"] == len(sat[spec])
        assert r["seats"] == sum(c for _, c in per_block.values())
        assert r["win_share"] == pytest.approx(want.estimate, abs=1e-12)
        assert (r["low"], r["high"], r["p"]) == pytest.approx((want.low, want.high, want.p), abs=1e-12)
    # random sits in two seats of every game, the others in one
    assert rows["random"]["seats"] == 2 * rows["random"]["games"] == 2 * rows["greedy"]["games"]
    # every game's wins are shared out in full: the seats' shares add up to the games
    assert sum(r["win_share"] * r["seats"] for r in rows.values()) == pytest.approx(rows["greedy"]["games"])


def test_each_pair_share_of_finishing_ahead(four):
    rep = build(four)
    _, ahead, _, met, apart = _by_hand(four)
    rows = {(r["player"], r["opponent"]): r for r in rep["ahead"]}
    assert set(rows) == set(ahead) and len(rows) == 6
    for pair, per_block in ahead.items():
        want, r = _estimate(per_block, 0.5), rows[pair]
        assert r["games"] == len(met[pair]) and r["meetings"] == sum(c for _, c in per_block.values())
        assert r["share"] == pytest.approx(want.estimate, abs=1e-12)
        assert (r["low"], r["high"]) == pytest.approx((want.low, want.high), abs=1e-12)
        # a test only where each seat distance from A to B came as often as its mirror
        d = apart[pair]
        assert r["balanced"] == all(d[k] == d.get(4 - k, 0) for k in d)
        assert r["p"] == (pytest.approx(want.p, abs=1e-12) if r["balanced"] else None)
        # B against A is A against B turned round, meeting for meeting
        other = rows[pair[::-1]]
        assert r["share"] + other["share"] == pytest.approx(1.0)
        assert r["p_holm"] == other["p_holm"] and r["balanced"] == other["balanced"]
    assert rows["greedy", "random"]["meetings"] == 2 * rows["greedy", "first"]["meetings"]
    # seats greedy, random, first, random turned round: first sits opposite greedy (two
    # seats either way), random beside both, once on each side
    assert rows["greedy", "first"]["balanced"] and rows["greedy", "random"]["balanced"]


def test_the_headline_answers_the_table_first(four):
    rep = build(four)
    assert question_of(rep["provenance"]["config"]) == "matchups"
    families = [h["family"] for h in rep["headline"]]
    assert families.count("strategies at a table of 4") == 3
    assert families.count("head-to-head") == 3  # each unordered pair once
    ahead = [h for h in rep["headline"] if h["family"] == "head-to-head"]
    assert all(" ahead of " in h["question"] and h["question"].endswith(", 4 players") for h in ahead)
    # Holm within each family: the adjusted p is never below the raw one
    assert all(h["p_adjusted"] >= h["p"] for h in rep["headline"] if h["p"] is not None)
    answers = first_answer(rep)
    assert answers[0].startswith("answer: first win share, 4 players: 95% interval")
    first = next(h for h in rep["headline"] if h["question"] == "first win share, 4 players")
    assert f", p {fmt_p(first['p'])} (" in answers[0] and "p against 1/4" in answers[0]  # the p it names


def test_no_table_answers_for_two_players_or_one_strategy(tmp_path):
    for players, seats in ((2, ["greedy", "random"]), (3, ["greedy"] * 3)):
        rep = build(_run(tmp_path, players, seats, blocks=4))
        assert rep["player_share"] == [] and rep["ahead"] == []
        assert not any(h["family"].startswith("strategies at a table") or " ahead of " in h["question"]
                       for h in rep["headline"])


def test_each_strategy_in_each_seat_is_tested_against_1_over_players(four):
    """The 'by strategy' seat table: a spec's win share in one seat, p against 1/4 (it
    was tested against 1/2, so a strategy at exactly its fair share at a table of four
    looked significantly weak)."""
    rep = build(four)
    games = {r["game_id"]: r["block"] for r in load(four, "games").iter_rows(named=True)}
    per = defaultdict(lambda: defaultdict(lambda: [0.0, 0]))
    for r in load(four, "players").iter_rows(named=True):
        cell = per[r["player"], r["seat"]][games[r["game_id"]]]
        cell[0] += r["win_share"]
        cell[1] += 1
    rows = rep["seat_by_player"]
    assert len(rows) == len(per)
    for r in rows:
        want = _estimate(per[r["player"], r["seat"]], 1 / 4)
        assert r["players"] == 4 and r["p"] == pytest.approx(want.p, abs=1e-12)


def test_a_pair_seated_one_way_round_or_one_player_twice_is_no_test(tmp_path):
    """Three seats turned round keep the order around the table: greedy always sits just
    before greedy(road=1.0) and random (a pair never seated the other way), so its share
    of finishing ahead is shown but is no test (equal players need not get 1/2: the one
    after may gain); greedy(road=1.0) is greedy spelt another way: no estimate at all."""
    rep = build(_run(tmp_path, 3, ["greedy", "greedy(road=1.0)", "random"], blocks=6))
    rows = {(r["player"], r["opponent"]): r for r in rep["ahead"]}
    twin = rows["greedy", "greedy(road=1.0)"]
    assert twin["identical"] and twin["share"] is None and twin["p"] is None
    for pair in (("greedy", "random"), ("greedy(road=1.0)", "random")):
        r = rows[pair]
        assert not r["balanced"] and r["share"] is not None and r["p"] is None and r["p_holm"] is None
    answers = {h["question"]: h for h in rep["headline"]}
    assert answers["greedy ahead of greedy(road=1.0), 3 players"]["estimate"] is None
    row = answers["greedy ahead of random, 3 players"]
    assert row["p"] is None and "not a test" in row["label"]
    assert "both ways round alike (rotations keep the order" in answers["greedy win share, 3 players"]["label"]
