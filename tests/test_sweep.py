"""The sweep design (issue 24 item 5): one [rules.variant] knob over a list of values,
every value played on the same blocks, each answer a curve over the knob with
block-clustered intervals, and each message's break-even.

The curves are checked against numbers recomputed here from the raw tables by a
separate path (the value read from each game's `ruleset`, not from the plan), the
break-even against a curve worked out by hand.
"""

import math
import re

import numpy as np
import polars as pl
import pytest
import scipy.stats

from sim.analysis import stats, sweep
from sim.analysis.report import build, render_text
from sim.analysis.page import render_html
from sim.errors import InputError
from sim.tournament import plan
from sim.tournament.config import parse_experiment
from sim.tournament.run import run_experiment


def _config(design: str, rules: str = 'players = 2\nexpansions = ["messages"]', blocks: int = 6) -> str:
    return (f'[run]\nname = "sw"\nseed = 11\nblocks = {blocks}\nshard_blocks = 3\n\n'
            f'[rules]\n{rules}\n\n[design]\n{design}\n')


ROTATIONS = 'kind = "rotations"\nseats = ["greedy", "random"]\n'


def test_a_sweep_plays_every_value_on_the_same_blocks_with_its_own_rules():
    exp = parse_experiment(_config(ROTATIONS + 'sweep = {knob = "two_points", values = [0, 3, 7]}'), "s.toml")
    assert exp.sweep == ("two_points", (0, 3, 7))
    assert [(s.value, s.rules.knob("two_points")) for s in plan.settings(exp)] == [(0, 0), (3, 3), (7, 7)]
    games = plan.block_games(exp, 2)
    assert len(games) == 3 * 2  # each value x both seat rotations
    assert {g.seed for g in games} == {plan.block_seed(exp, 2)}  # common random numbers
    assert [g.sweep for g in games] == [0, 0, 3, 3, 7, 7]
    assert [g.rules.ruleset for g in games[::2]] == [
        "base-1+messages-1(two_points=0)", "base-1+messages-1(two_points=3)",
        "base-1+messages-1(two_points=7)"]
    # the sweep is part of the run's identity; a run without one keeps its fingerprint
    plain = parse_experiment(_config(ROTATIONS), "s.toml")
    assert "sweep" not in plain.canonical()["design"] and exp.canonical()["design"]["sweep"] == {
        "knob": "two_points", "values": [0, 3, 7]}
    assert exp.fingerprint() != plain.fingerprint()


@pytest.mark.parametrize("sweep_toml, words", [
    ('{knob = "two_point", values = [1, 2]}', "design.sweep.knob = 'two_point': expected one of"),
    ('{knob = "two_points", values = [1]}', "design.sweep.values = [1]: expected 2..50 distinct values"),
    ('{knob = "two_points", values = [1, 1]}', "expected 2..50 distinct values"),
    ('{knob = "two_points", values = [1, 11]}', "design.sweep: two_points = 11: "),
    ('{knob = "two_points", values = [1, 2.5]}', "design.sweep: two_points = 2.5: "),
    ('{knob = "dark_every", values = [4, 5]}', None),
    ('{knob = "farm_points", values = [1, 2], other = 3}', "design.sweep.other: unknown key"),
])
def test_a_bad_sweep_is_one_line_naming_it(sweep_toml, words):
    text = _config(ROTATIONS + f"sweep = {sweep_toml}")
    if words is None:
        assert parse_experiment(text, "s.toml").sweep == ("dark_every", (4, 5))
        return
    with pytest.raises(InputError) as e:
        parse_experiment(text, "s.toml")
    assert str(e.value).startswith("s.toml: ") and words in str(e.value) and "\n" not in str(e.value)


def test_a_sweep_value_the_classic_edition_refuses_is_refused_before_any_game():
    """R-MSG-C3: under classic a two_points multiple of the dark spaces' spacing draws
    messages without end; the sweep is checked under every edition it plays."""
    text = _config(ROTATIONS + 'editions = ["c3.1", "classic"]\n'
                   'sweep = {knob = "two_points", values = [4, 5]}')
    with pytest.raises(InputError, match=r"design.sweep: two_points = 5 under the classic edition: "
                                         r".*R-MSG-C3"):
        parse_experiment(text, "s.toml")


def test_a_knob_the_rules_set_already_is_not_swept():
    text = _config(ROTATIONS + 'sweep = {knob = "two_points", values = [1, 3]}',
                   rules='players = 2\nexpansions = ["messages"]\n[rules.variant]\ntwo_points = 4')
    with pytest.raises(InputError, match=r"sweep.knob = 'two_points': the rules set it already"):
        parse_experiment(text, "s.toml")


def test_followers_can_be_swept():
    exp = parse_experiment(_config('kind = "fixed"\nseats = ["greedy", "greedy"]\n'
                                   'sweep = {knob = "followers", values = [3, 7]}',
                                   rules="players = 2"), "s.toml")
    assert [s.rules.followers for s in plan.settings(exp)] == [3, 7]
    assert [s.rules.ruleset for s in plan.settings(exp)] == ["base-1(followers=3)", "base-1"]


# ---------------------------------------------------------------- the break-even by hand

def test_crossing_by_hand():
    # +3 at 0, +1 at 2, −1 at 4: crosses between 2 and 4, at 2 + 2 * 1/2 = 3
    assert sweep.crossing([0, 2, 4], [3.0, 1.0, -1.0]) == 3.0
    assert sweep.crossing([0, 2, 4], [3.0, 0.0, -1.0]) == 2.0  # exactly 0 at a value
    assert sweep.crossing([0, 2, 4], [3.0, 2.0, 1.0]) == math.inf  # worth more everywhere
    assert sweep.crossing([0, 2, 4], [-1.0, -2.0, -3.0]) == -math.inf
    # 2 at 1, −6 at 5: 1 + 4 * 2/8 = 2
    assert sweep.crossing([1, 5], [2.0, -6.0]) == 2.0


def test_break_even_of_a_known_curve_and_its_bootstrap_interval():
    """Blocks whose values lie on d = 4 − v ± noise: the break-even is 4 (the mean curve
    crosses there exactly when the noise cancels), the bootstrap interval holds it and
    narrows with more blocks."""
    rng = np.random.default_rng(3)

    def frame(blocks):
        rows = []
        for b in range(blocks):
            shift = rng.normal(0, 1)
            for v in (0, 2, 6, 8):
                rows.append({"edition": "c3.1", "action": "a", "value": v, "block": b,
                             "d": 4 - v + shift})
        return pl.DataFrame(rows)

    small, big = frame(40), frame(400)
    for f in (small, big):
        means = f.group_by("value").agg(pl.col("d").mean()).sort("value")["d"].to_list()
        be = sweep.break_even(f, [0, 2, 6, 8])
        assert be["estimate"] == pytest.approx(sweep.crossing([0, 2, 6, 8], means))
        assert be["low"] <= be["estimate"] <= be["high"]
    assert abs(sweep.break_even(big, [0, 2, 6, 8])["estimate"] - 4) < 0.3
    w_small = sweep.break_even(small, [0, 2, 6, 8])
    w_big = sweep.break_even(big, [0, 2, 6, 8])
    assert w_big["high"] - w_big["low"] < w_small["high"] - w_small["low"]


# ---------------------------------------------------------------- a run and its report

def _value_of(ruleset: str, knob: str, default: int) -> int:
    """The swept value as the records' ruleset column names it (independent of the plan)."""
    m = re.search(rf"\b{knob}=(\d+)", ruleset)
    return int(m.group(1)) if m else default


@pytest.fixture(scope="module")
def swept_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("sweep")
    text = _config('kind = "counterfactual"\nseats = ["greedy+messages=always_2", '
                   '"greedy+messages=always_2"]\nrollouts = 1\neditions = ["c3.1", "classic"]\n'
                   'sweep = {knob = "two_points", values = [0, 3]}', blocks=30)
    exp = parse_experiment(text, str(d / "sw.toml"))
    run_experiment(exp, d / "out", workers=0)
    return d / "out"


def test_the_report_draws_every_metric_as_a_curve_recomputed_from_the_raw_tables(swept_run):
    rep = build(swept_run)
    sw = rep["sweep"]
    assert sw["knob"] == "two_points" and sw["values"] == [0, 3]
    games = pl.read_parquet(swept_run / "games")
    players = pl.read_parquet(swept_run / "players")
    games = games.with_columns(pl.col("ruleset").map_elements(
        lambda r: _value_of(r, "two_points", 2), return_dtype=pl.Int64).alias("v"))
    assert set(games["v"]) == {0, 3}
    per_game = players.group_by("game_id").agg(
        pl.col("win_share").filter(pl.col("seat") == 0).first().alias("seat0_win"),
        (pl.col("score").max() - pl.col("score").min()).alias("spread"),
        pl.col("messages_drawn").sum().alias("drawn")).join(games, on="game_id")
    curves = {(c["metric"], c["edition"]): c for c in sw["curves"]}
    assert {m for m, _ in curves} == {"seat0_win", "turns", "drawn", "spread"}
    for (metric, edition), c in curves.items():
        for p in c["points"]:
            mine = per_game.filter((pl.col("edition") == edition) & (pl.col("v") == p["value"]))
            by_block = mine.group_by("block").agg(pl.col(metric).cast(pl.Float64).mean())[metric].to_numpy()
            assert p["blocks"] == len(by_block) == 30
            assert p["estimate"] == pytest.approx(by_block.mean(), abs=1e-12)
            half = 2.045230 * by_block.std(ddof=1) / math.sqrt(30)  # t(0.975, 29)
            lo, hi = (0, 1) if metric == "seat0_win" else (0, math.inf)
            assert p["low"] == pytest.approx(max(lo, by_block.mean() - half), abs=1e-5)
            assert p["high"] == pytest.approx(min(hi, by_block.mean() + half), abs=1e-5)
    # the headline is the curves' points: no pooled answer over different rules
    assert all(h["family"].startswith("sweep") for h in rep["headline"])
    assert rep["question"] == "sweep message values"


def test_a_sweep_of_different_players_has_each_one_s_win_share_curve(tmp_path):
    """Which strategy is stronger under each value: every player spec's win share over
    its seats, per value, recomputed here from the raw tables (the value read from the
    ruleset) as a share of per-block sums; a mirror match (the module's swept run) has
    none, its shares being 1/2 by construction."""
    exp = parse_experiment(_config(ROTATIONS + 'sweep = {knob = "dark_every", values = [3, 10]}',
                                   blocks=8), str(tmp_path / "p.toml"))
    run_experiment(exp, tmp_path / "out", workers=0)
    rep = build(tmp_path / "out")
    curves = {c["player"]: c for c in rep["sweep"]["curves"] if c["metric"] == "player_win"}
    assert set(curves) == {"greedy", "random"}
    games = pl.read_parquet(tmp_path / "out" / "games").with_columns(pl.col("ruleset").map_elements(
        lambda r: _value_of(r, "dark_every", 5), return_dtype=pl.Int64).alias("v"))
    rows = pl.read_parquet(tmp_path / "out" / "players").select("game_id", "player", "win_share").join(
        games.select("game_id", "block", "v"), on="game_id")
    for player, c in curves.items():
        assert [p["value"] for p in c["points"]] == [3, 10]
        for p in c["points"]:
            mine = rows.filter((pl.col("player") == player) & (pl.col("v") == p["value"]))
            per = mine.group_by("block").agg(pl.col("win_share").sum().alias("s"), pl.len().alias("c"))
            want = stats.share_by_block(per["s"].to_numpy(), per["c"].to_numpy(), 0.5)
            assert p["blocks"] == 8 and p["games"] == 16
            assert (p["estimate"], p["low"], p["high"]) == pytest.approx((want.estimate, want.low, want.high))
            assert p["estimate"] == pytest.approx(mine["win_share"].mean())
    shares = [p["estimate"] for c in curves.values() for p in c["points"]]
    assert shares[0] + shares[2] == pytest.approx(1.0)  # greedy and random at dark_every = 3
    assert "greedy win share" in render_html(rep)  # the table (8 blocks: too few for a chart)


def test_a_variants_sweep_has_each_arm_s_own_seat_as_its_curve(tmp_path):
    """In a variants design the opponents' seats are no arm's: arm g (greedy, a mirror of
    its greedy opponent: one game a block, both seats its own) and arm f (first: two
    games a block, one seat each) over their own seats, with their games counted once."""
    text = _config('kind = "variants"\narms = [{name = "g", player = "greedy"}, {name = "f", player = '
                   '"first"}]\nopponents = ["greedy"]\nsweep = {knob = "two_points", values = [0, 4]}',
                   blocks=4)
    run_experiment(parse_experiment(text, str(tmp_path / "v.toml")), tmp_path / "out", workers=0)
    curves = {c["player"]: c for c in build(tmp_path / "out")["sweep"]["curves"] if c["metric"] == "player_win"}
    assert set(curves) == {"g", "f"} and curves["g"]["words"] == "arm g win share"
    players = pl.read_parquet(tmp_path / "out" / "players")
    games = pl.read_parquet(tmp_path / "out" / "games").with_columns(pl.col("ruleset").map_elements(
        lambda r: _value_of(r, "two_points", 2), return_dtype=pl.Int64).alias("v"))
    own = players.filter(pl.col("focal")).join(games.select("game_id", "v", "variant"), on="game_id")
    for arm, c in curves.items():
        for p in c["points"]:
            mine = own.filter((pl.col("variant") == arm) & (pl.col("v") == p["value"]))
            assert p["estimate"] == pytest.approx(mine["win_share"].mean())
            assert p["games"] == mine["game_id"].n_unique() == (4 if arm == "g" else 8)
    assert all(p["estimate"] == 0.5 for p in curves["g"]["points"])  # a mirror: 1/2 by construction


def test_a_mirror_sweep_has_no_player_curves(swept_run):
    assert not [c for c in build(swept_run)["sweep"]["curves"] if c["metric"] == "player_win"]


def test_the_message_curves_are_the_forks_within_each_value(swept_run):
    rep = build(swept_run)
    cf = pl.read_parquet(swept_run / "counterfactuals")
    games = pl.read_parquet(swept_run / "games").with_columns(pl.col("ruleset").map_elements(
        lambda r: _value_of(r, "two_points", 2), return_dtype=pl.Int64).alias("v"))
    d = cf.join(games.select("game_id", "block", "v"), on="game_id").with_columns(
        (pl.col("margin_action") - pl.coalesce("margin_two_aligned", "margin_two")).alias("d"))
    curves = rep["sweep"]["message_curves"]
    assert curves
    for m in curves:
        for p in m["points"]:
            mine = d.filter((pl.col("edition") == m["edition"]) & (pl.col("action") == m["action"])
                            & (pl.col("v") == p["value"]))
            by_block = mine.group_by("block").agg(pl.col("d").mean())["d"].to_numpy()
            assert p["blocks"] == len(by_block)
            assert p["estimate"] == pytest.approx(by_block.mean(), abs=1e-12)
        be = m["break_even"]
        if be["estimate"] is not None and math.isfinite(be["estimate"]):
            est = [p["estimate"] for p in m["points"]]
            assert be["estimate"] == pytest.approx(sweep.crossing([0, 3], est))


def test_the_report_text_and_page_show_the_sweep(swept_run):
    rep = build(swept_run)
    text = render_text(rep)
    assert "sweep over two_points = 0, 3" in text and "break-even two_points" in text
    assert "pool every value of two_points" in text
    page = render_html(rep)
    i = page.index("<h2>Sweep over two_points</h2>")
    assert i < page.index("<h2>Seats</h2>")  # the question's section leads
    section = page[i:page.index("<h2>Seats</h2>")]
    assert section.count("<svg") >= 4  # a chart per metric (points over too few blocks left out)
    assert "id='sweep-table'" in section and "Break-even" in section


def test_the_sweep_streams_one_shard_at_a_time_to_the_same_answers(swept_run, monkeypatch):
    """Issue 25 item 1: the sweep is a section of the report's one pass. Read one shard
    (3 blocks) a batch, its curves, message values and break-evens are those of the
    whole run read as one batch: the per-block means are complete within a batch and
    the folds combine exactly."""
    from test_streaming_report import same

    from sim.analysis import scan
    whole = build(swept_run)["sweep"]
    monkeypatch.setattr(scan, "BATCH_ROWS", 1)
    assert len(scan.shard_batches(__import__("json").loads((swept_run / "manifest.json").read_text()))) == 10
    same(build(swept_run)["sweep"], whole, "sweep")


def test_plan_plans_each_swept_value_as_the_report_answers_it(swept_run):
    """`carcsim plan` on a sweep plans the report's answers, the seat-0 win share at each
    swept value and edition (a trial saw it plan only the pooled share, which mixes
    rules, and under-budget a sweep by 40 %): the same questions, estimates and spreads."""
    from sim.analysis import planning
    from sim.analysis.summary import load
    from sim.tournament import manifest as mf

    exp = mf.experiment_of(swept_run / "manifest.json", mf.read(swept_run))
    qs = {q.question: q for q in planning.quantities(exp, load(swept_run, "games"), load(swept_run, "players"))}
    rows = [h for h in build(swept_run)["headline"] if h["family"] == "sweep: seat 0 win share"]
    assert len(rows) == 4  # two values in two editions
    for h in rows:
        q = qs[h["question"]]
        assert q.estimate == pytest.approx(h["estimate"]) and q.blocks == h["blocks"]
        if 0 < h["low"] and h["high"] < 1:  # not clipped at 0 or 1: the t interval over blocks
            t = scipy.stats.t.ppf(0.975, q.blocks - 1)
            assert (h["high"] - h["low"]) / 2 == pytest.approx(t * q.sd / math.sqrt(q.blocks))
