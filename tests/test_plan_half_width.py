"""`carcsim plan CONFIG --half-width H` (issue 23 item 5, sim/analysis/planning.py): blocks
needed = ceil((1.96·s/H)²) from a pilot's between-block sd s, CPU-seconds in proportion,
the report's own quantities at its unit, comparisons beside a run of the same master
seed, and every bad input refused in one line with nothing written."""

import json
import math
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from scipy import stats as sps

from sim.analysis import planning
from sim.analysis.compare import compare
from sim.analysis.report import build
from sim.tournament import manifest as mf
from sim.tournament.config import parse_experiment
from sim.tournament.records import GAMES, PLAYERS
from sim.tournament.run import run_experiment
from sim.tournament.sink import Sink
from sim.tournament.worker import run_shard
from cli_here import carcsim as carcsim_here

ROOT = Path(__file__).resolve().parent.parent

FIXED = """
[run]
name = "{name}"
seed = {seed}
blocks = {blocks}
shard_blocks = 4

[rules]
players = 2
expansions = {expansions}

[design]
kind = "fixed"
seats = ["greedy", "random"]
"""

# seat 0's win share in each block of the fake pilot: mean 1/2, Σ(v − 1/2)² = 2 over 8
# blocks, so s = √(2/7) = 0.5345 win share a block
VALUES = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
S = math.sqrt(2 / 7)

VARIANTS = """
[run]
name = "arms"
seed = 3
blocks = 6
shard_blocks = 3

[rules]
players = 2
expansions = ["messages"]

[design]
kind = "variants"
arms = [{name = "meeple_only", player = "greedy+scoring_figure=meeple_only"},
        {name = "coverage", player = "greedy+scoring_figure=coverage"}]
opponents = ["greedy"]
editions = ["c3.1", "classic"]
"""

COUNTERFACTUAL = """
[run]
name = "cf"
seed = 1
blocks = 6
shard_blocks = 3

[rules]
players = 2
expansions = ["messages"]

[design]
kind = "counterfactual"
seats = ["greedy", "greedy"]
rollouts = 1
forks = {forks}
"""


def fixed(name="pilot", seed=5, blocks=len(VALUES), expansions="[]"):
    return FIXED.format(name=name, seed=seed, blocks=blocks, expansions=expansions)


def fake_pilot(out: Path, text: str, values) -> Path:
    """A run directory whose seat 0 (greedy) wins `values[b]` of block b's one game:
    the games are played, then their win shares (and winners) set to the values, and
    the shards stored the way a run stores them (manifest, hashes)."""
    exp = parse_experiment(text, "pilot.toml")
    sink = Sink(out, exp, say=lambda line: None)
    for shard, blocks in mf.iter_shards(sink.layout):
        t = run_shard(exp, blocks)
        games, players = t["games"], t["players"]
        block = players["block"].to_numpy()
        seat = players["seat"].to_numpy()
        v = np.asarray(values)[block]
        share = np.where(seat == 0, v, 1 - v)
        players = players.set_column(PLAYERS.get_field_index("win_share"),
                                     PLAYERS.field("win_share"), pa.array(share))
        winners = [[0] if x == 1 else [1] if x == 0 else [0, 1]
                   for x in np.asarray(values)[games["block"].to_numpy()]]
        games = games.set_column(GAMES.get_field_index("winners"), GAMES.field("winners"),
                                 pa.array(winners, type=GAMES.field("winners").type))
        sink.write(shard, {**t, "games": games, "players": players})
    sink.close()
    return out


def carcsim(*args, cwd=ROOT):
    return carcsim_here(*args, cwd=cwd)  # in this process: tests/cli_here.py says why


def one_line_exit_2(r) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("carcsim"), r.stderr
    return lines[0]


def tree(path: Path) -> dict:
    """Every file under `path` with its size and modification time."""
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(path.rglob("*"))}


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    base = tmp_path_factory.mktemp("plan")
    (base / "pilot.toml").write_text(fixed())
    (base / "other_seed.toml").write_text(fixed(seed=6))
    (base / "other_seats.toml").write_text(fixed().replace('"greedy", "random"',
                                                           '"random", "greedy"'))
    (base / "other_rules.toml").write_text(fixed(expansions='["messages"]'))
    fake_pilot(base / "fake", fixed(), VALUES)
    return base


def plan_json(work, *args):
    r = carcsim("plan", *args, "--json", cwd=work)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


# --- blocks needed and CPU-seconds --------------------------------------------------------

def test_blocks_needed_is_ceil_of_z_s_over_h_squared(work):
    """The fake pilot's s is √(2/7) for seat 0's win share and for greedy's share against
    random (greedy sits in seat 0): ±0.1 needs ceil((1.96·0.5345/0.1)²) = ceil(109.76)
    = 110 blocks, ±0.05 ceil(439.04) = 440."""
    for h, hand in ((0.1, 110), (0.05, 440)):
        assert math.ceil((1.96 * S / h) ** 2) == hand
        p = plan_json(work, "pilot.toml", "--half-width", h, "--pilot", "fake", "--time-blocks", 1)
        rows = {r["question"]: r for r in p["quantities"]}
        assert set(rows) == {"seat 0 win share, 2 players", "greedy vs random: win share"}
        for r in rows.values():
            assert r["unit"] == "win share" and r["method"] == "normal"
            assert r["sd"] == pytest.approx(S, rel=1e-12)
            assert r["pilot_blocks"] == len(VALUES) and r["estimate"] == pytest.approx(0.5)
            assert r["blocks_needed"] == hand
            assert r["cpu_seconds"] == pytest.approx(hand * p["cpu"]["per_block"])
        assert p["pilot"] == {"run": "fake", "blocks": 8, "played_here": False}
        assert p["cpu"]["blocks_timed"] == 1 and p["z"] == pytest.approx(1.959964, abs=1e-6)


def test_cpu_seconds_are_blocks_times_the_measured_cpu_time_a_block(work, monkeypatch):
    """CPU-seconds = blocks needed × the CPU time a block took when timed: with the
    timing fixed at 0.5 s a block, ±0.1 costs 110 × 0.5 s, and a half-width half as
    wide four times the blocks (to the ceiling) and four times the CPU."""
    exp = parse_experiment(fixed(), str(work / "pilot.toml"))
    real = planning.play_blocks

    def timed(e, blocks):
        pilot, _ = real(e, blocks)
        return pilot, 0.5 * blocks

    monkeypatch.setattr(planning, "play_blocks", timed)
    wide = planning.make_plan(exp, 0.1, pilot_run=work / "fake", time_blocks=2)
    narrow = planning.make_plan(exp, 0.05, pilot_run=work / "fake", time_blocks=2)
    assert wide["cpu"] == {"blocks_timed": 2, "seconds": 1.0, "per_block": 0.5}
    for w, n in zip(wide["quantities"], narrow["quantities"]):
        assert (w["blocks_needed"], w["cpu_seconds"]) == (110, 55.0)
        assert (n["blocks_needed"], n["cpu_seconds"]) == (440, 220.0)


def test_the_config_as_written_costs_its_blocks_and_the_disk_a_run_writes(tmp_path):
    """The plan's whole-run line (issue 25 item 5): CPU = the pilot's CPU a block × the
    config's blocks; disk = per table, shards × a file's own bytes + blocks × bytes a
    block, from the pilot's tables written as a shard is. A run of the config then
    writes within 25% of the estimate (Parquet's compression varies with the data)."""
    exp = parse_experiment(fixed(blocks=40, expansions='["messages"]'), str(tmp_path / "c.toml"))
    p = planning.make_plan(exp, 0.1, pilot_blocks=12)
    w = p["whole"]
    assert (w["blocks"], w["games"], w["shards"]) == (40, 40, 10)
    assert w["cpu_seconds"] == pytest.approx(p["cpu"]["per_block"] * 40)
    run_experiment(exp, tmp_path / "run", workers=0)
    written = sum(f.stat().st_size for t in ("games", "players") for f in (tmp_path / "run" / t).iterdir())
    assert abs(w["bytes"] - written) / written < 0.25, (w["bytes"], written)
    assert w["bytes_per_game"] == pytest.approx(w["bytes"] / 40)
    text = planning.render_text(p)
    assert "the config as written: 40 blocks, 40 games in 10 shards: about" in text
    assert "h on one worker core" in text and "of Parquet written" in text


def test_the_text_names_units_pilot_and_assumption(work):
    r = carcsim("plan", "pilot.toml", "--half-width", "0.1", "--pilot", "fake", "--time-blocks",
                "1", cwd=work)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    seat = next(line for line in lines if line.startswith("seat 0 win share, 2 players"))
    assert "[win share]" in seat and "s = 0.535 win share a block over 8 pilot blocks" in seat
    assert "±0.1 win share needs 110 blocks" in seat and "CPU-s" in seat
    assert any(line.startswith("pilot: fake, 8 blocks stored") for line in lines)
    assumption = next(line for line in lines if line.startswith("assumption: "))
    assert "normal approximation" in assumption and "between-block standard deviation" in assumption
    assert "carcsim compare" in r.stdout  # where comparisons beside another run go
    assert r.stderr.startswith("plan: timing 1 block of pilot.toml")  # progress on stderr, stdout the product


def test_no_spread_gives_the_exact_bound_or_says_so(work, tmp_path):
    """Every block won by seat 0, or every block tied at 1/2: no normal interval; the
    report's exact bound ([0.025^(1/n), 1]; [c(1 − b), c + b(1 − c)] for a share c every
    block gave, b = 1 − 0.025^(1/n)) is 2H wide after ceil(ln 0.025 / ln(1 − 2H)) blocks."""
    (tmp_path / "pilot.toml").write_text(fixed())
    fake_pilot(tmp_path / "won", fixed(), [1.0] * 8)
    fake_pilot(tmp_path / "tied", fixed(), [0.5] * 8)
    for pilot in ("won", "tied"):
        p = plan_json(tmp_path, "pilot.toml", "--half-width", 0.05, "--pilot", pilot,
                      "--time-blocks", 1)
        for r in p["quantities"]:
            assert r["sd"] == 0 and r["method"] == "exact bound"
            assert r["blocks_needed"] == math.ceil(math.log(0.025) / math.log(1 - 0.1)) == 36
            assert 1 - 0.025 ** (1 / 36) <= 0.1 < 1 - 0.025 ** (1 / 35)


def test_the_in_process_pilot_is_the_config_s_first_blocks(work, tmp_path):
    """Without --pilot, `plan` plays --pilot-blocks blocks of the config here and says
    so; they are the blocks a run plays, so a stored run of them gives the same s."""
    run_experiment(parse_experiment(fixed(blocks=6), "pilot.toml"), tmp_path / "run", workers=0)
    here = plan_json(work, "pilot.toml", "--half-width", 0.1, "--pilot-blocks", 6)
    stored = plan_json(work, "pilot.toml", "--half-width", 0.1, "--pilot", tmp_path / "run")
    assert here["pilot"] == {"run": None, "blocks": 6, "played_here": True}
    assert here["cpu"]["blocks_timed"] == 6
    keys = ("question", "unit", "estimate", "sd", "pilot_blocks", "blocks_needed")
    assert ([{k: r[k] for k in keys} for r in here["quantities"]]
            == [{k: r[k] for k in keys} for r in stored["quantities"]])
    r = carcsim("plan", "pilot.toml", "--half-width", "0.1", "--pilot-blocks", "3", cwd=work)
    assert r.returncode == 0 and "pilot: 3 blocks of the config played in this process" in r.stdout


# --- the report's quantities, at its unit -------------------------------------------------

def _agrees_with_report(exp, run_dir):
    """Each headline row of the report is a planned quantity with the same estimate, and
    its interval's half-width is t(0.975, n − 1)·s/√n where the interval is not clipped."""
    rep = build(run_dir)
    p = planning.make_plan(exp, 0.05, 0.5, pilot_run=run_dir, time_blocks=1)
    rows = {r["question"]: r for r in p["quantities"]}
    assert [h["question"] for h in rep["headline"]] == list(rows)
    checked = 0
    for h in rep["headline"]:
        r = rows[h["question"]]
        assert r["pilot_blocks"] == h["blocks"]
        if h["estimate"] is None:
            assert r["identical"] and r["blocks_needed"] is None
            continue
        assert r["estimate"] == pytest.approx(h["estimate"], abs=1e-12), h["question"]
        # a share's interval is the score interval at the effective trials its t interval
        # gives (stats.share_from), a difference of shares' that of (1 + d)/2
        # (stats.share_difference_from)
        share = h["question"].startswith("seat") or any(w in h["question"] for w in (" vs ", " ahead of ",
                                                                                     " win share, "))
        if r["method"] != "normal":
            continue
        t = sps.t.ppf(0.975, h["blocks"] - 1)
        half = t * r["sd"] / math.sqrt(h["blocks"])
        if share or r["unit"] == "win share":
            # a difference of shares d is the share u = (1 + d)/2, its t half-width halved
            shift = 0.0 if share else 1.0
            p_hat, z = (h["estimate"] + shift) / (1 + shift), sps.norm.ppf(0.975)
            n = p_hat * (1 - p_hat) * (z / (half / (1 + shift))) ** 2
            if n * min(p_hat, 1 - p_hat) < 5:  # near 0 or 1: at most the blocks
                n = min(n, h["blocks"])
            centre = (p_hat + z * z / (2 * n)) / (1 + z * z / n)
            w = z * math.sqrt(p_hat * (1 - p_hat) / n + z * z / (4 * n * n)) / (1 + z * z / n)
            want = ((centre - w) * (1 + shift) - shift, (centre + w) * (1 + shift) - shift)
            assert (h["low"], h["high"]) == pytest.approx(want, rel=1e-9, abs=1e-12), h["question"]
            checked += 1
        elif r["unit"] == "points" or -1 < h["low"] and h["high"] < 1:
            assert (h["high"] - h["low"]) / 2 == pytest.approx(half, rel=1e-9), h["question"]
            checked += 1
    return checked


def test_variants_quantities_are_the_report_s(tmp_path):
    exp = parse_experiment(VARIANTS, "arms.toml")
    run_experiment(exp, tmp_path / "arms", workers=0)
    assert _agrees_with_report(exp, tmp_path / "arms") >= 2


TABLE_OF_THREE = """
[run]
name = "three"
seed = 4
blocks = 12
shard_blocks = 4

[rules]
players = 3

[design]
kind = "rotations"
seats = ["greedy", "random", "greedy(city=2.0)"]
"""


def test_tables_of_three_quantities_are_the_report_s(tmp_path):
    """Each strategy's win share and each pair's share of finishing ahead, as the report
    answers them (report.py _table_answers)."""
    exp = parse_experiment(TABLE_OF_THREE, "three.toml")
    run_experiment(exp, tmp_path / "three", workers=0)
    assert _agrees_with_report(exp, tmp_path / "three") >= 2
    questions = [r["question"] for r in planning.make_plan(exp, 0.05, pilot_run=tmp_path / "three",
                                                           time_blocks=1)["quantities"]]
    assert "greedy win share, 3 players" in questions and "greedy ahead of random, 3 players" in questions


@pytest.mark.parametrize("forks", ['["messages"]', '["scoring_figure"]'])
def test_counterfactual_quantities_are_the_report_s(tmp_path, forks):
    """Margins in points and win probabilities, per edition, from the fork rows; an
    action some blocks never drew needs its blocks over the share of blocks holding it."""
    exp = parse_experiment(COUNTERFACTUAL.format(forks=forks), "cf.toml")
    run_experiment(exp, tmp_path / "cf", workers=0)
    assert _agrees_with_report(exp, tmp_path / "cf") >= 1
    p = planning.make_plan(exp, 0.05, pilot_run=tmp_path / "cf", time_blocks=1)
    units = {r["unit"] for r in p["quantities"]}
    assert {"points", "win share"} <= units
    # without --half-width-points a quantity in points is shown, not planned at ±0.05 points
    assert all(r["blocks_needed"] is None and r["half_width"] is None
               for r in p["quantities"] if r["unit"] == "points")
    assert "not planned without --half-width-points" in planning.render_text(p)
    for r in p["quantities"]:
        if r["blocks_holding_it"] is not None:
            assert r["blocks_needed"] == math.ceil(r["blocks_holding_it"] * 6 / r["pilot_blocks"])


# --- beside another run -------------------------------------------------------------------

def test_beside_a_run_of_the_same_seed_plans_the_paired_difference(tmp_path):
    """`--beside RUN`: compare's quantities, A − B paired by block; s · t/√n is the
    half-width `carcsim compare` gives over the same blocks."""
    old = fixed(name="old", blocks=6)
    new = fixed(name="new", blocks=6).replace('"greedy", "random"', '"greedy(city=2.0)", "random"')
    (tmp_path / "new.toml").write_text(new)
    run_experiment(parse_experiment(old, "old.toml"), tmp_path / "old", workers=0)
    run_experiment(parse_experiment(new, "new.toml"), tmp_path / "new", workers=0)
    p = plan_json(tmp_path, "new.toml", "--half-width", 0.05, "--half-width-points", 2,
                  "--pilot", "new", "--beside", "old", "--time-blocks", 1)
    assert p["beside"] == {"run": "old", "blocks": 6, "seed": 5}
    c = {r["question"]: r for r in compare(tmp_path / "new", tmp_path / "old")["rows"]}
    rows = {r["question"].removeprefix("A − B: "): r for r in p["quantities"]}
    assert set(rows) == set(c)
    assert rows["seat 0: mean score"]["unit"] == "points"
    assert rows["seat 0: mean score"]["half_width"] == 2
    assert rows["seat 0: win share"]["half_width"] == 0.05
    for q, r in rows.items():
        assert r["estimate"] == pytest.approx(c[q]["difference"], abs=1e-12)
        if r["sd"] and c[q]["low"] is not None and -1 < c[q]["low"] and c[q]["high"] < 1:
            t = sps.t.ppf(0.975, c[q]["blocks"] - 1)
            assert (c[q]["high"] - c[q]["low"]) / 2 == pytest.approx(
                t * r["sd"] / math.sqrt(c[q]["blocks"]), rel=1e-9), q
    r = carcsim("plan", "new.toml", "--half-width", "0.05", "--beside", "old", "--pilot-blocks",
                "4", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "A − B paired by block as `carcsim compare A old` gives it" in r.stdout
    assert "note: only in A, not compared:" in r.stdout


# --- bad input: one line, exit 2, nothing written -----------------------------------------

def test_shares_or_points_alone_and_never_fewer_than_two_blocks(work):
    """--half-width-points alone plans points and shows shares unplanned (the fake pilot
    has none in points: nothing is planned, each share says which option plans it); a
    half-width so wide that ceil((z·s/H)²) is 1 still needs 2 blocks, the fewest an
    interval over blocks has (1 degree of freedom)."""
    p = plan_json(work, "pilot.toml", "--half-width-points", 2, "--pilot", "fake", "--time-blocks", 1)
    assert p["half_width"] is None and all(r["blocks_needed"] is None for r in p["quantities"])
    r = carcsim("plan", "pilot.toml", "--half-width-points", "2", "--pilot", "fake", "--time-blocks", "1",
                cwd=work)
    assert "shares: not planned without --half-width" in r.stdout and "(--half-width H plans it)" in r.stdout
    wide = plan_json(work, "pilot.toml", "--half-width", 0.99, "--pilot", "fake", "--time-blocks", 1)
    assert all(r["blocks_needed"] == 2 for r in wide["quantities"])
    from sim.analysis.planning import blocks_needed
    assert blocks_needed(0.1, 0.9) == 2  # ceil((1.96 · 0.1 / 0.9)²) = 1


@pytest.mark.parametrize("args, words", [
    (("--half-width", "0"), "--half-width 0: expected a number > 0"),
    (("--half-width", "-0.1"), "--half-width -0.1: expected a number > 0"),
    (("--half-width", "nan"), "--half-width nan: expected a number > 0"),
    (("--half-width", "2"), "--half-width 2: expected at most 1 (a share's half-width"),
    (("--half-width", "0.1", "--half-width-points", "0"), "--half-width-points 0: expected"),
    (("--half-width", "0.1", "--pilot", "missing"), "--pilot: missing: no manifest.json"),
    (("--half-width", "0.1", "--pilot", "fake", "--pilot-blocks", "3"),
     "--pilot-blocks 3: does nothing with --pilot"),
    (("--half-width", "0.1", "--time-blocks", "3"), "--time-blocks 3: does nothing without"),
    (("--half-width", "0.1", "--beside", "missing"), "--beside: missing: no manifest.json"),
    ((), "plan: expected --half-width H (shares), --half-width-points H (points), or both"),
])
def test_bad_options_are_one_line(work, args, words):
    before = tree(work)
    assert words in one_line_exit_2(carcsim("plan", "pilot.toml", *args, cwd=work))
    assert tree(work) == before


@pytest.mark.parametrize("config, words", [
    ("other_seats.toml", "--pilot fake: a run of another config: design.seats = "
                         "['greedy', 'random'] there, ['random', 'greedy'] in other_seats.toml"),
    ("other_rules.toml", "--pilot fake: a run of another config: rules.expansions = [] there, "
                         "['messages'] in other_rules.toml"),
])
def test_a_pilot_of_another_config_is_refused(work, config, words):
    before = tree(work)
    assert words in one_line_exit_2(carcsim("plan", config, "--half-width", "0.1", "--pilot",
                                            "fake", cwd=work))
    assert tree(work) == before


def test_a_pilot_of_another_seed_is_a_pilot(work):
    """The spread between blocks does not depend on the master seed: a pilot may have
    another (and other blocks, and another name)."""
    p = plan_json(work, "other_seed.toml", "--half-width", 0.1, "--pilot", "fake",
                  "--time-blocks", 1)
    assert [r["blocks_needed"] for r in p["quantities"]] == [110, 110]


def test_beside_a_run_of_another_seed_or_game_is_refused(work):
    """Blocks pair by seed: a run planned beside another must have its master seed (and
    its seats and expansions, which `carcsim compare` requires)."""
    before = tree(work)
    line = one_line_exit_2(carcsim("plan", "other_seed.toml", "--half-width", "0.1", "--beside",
                                   "fake", cwd=work))
    assert ("--beside fake: run.seed = 5 there, 6 in other_seed.toml: blocks pair by seed" in line
            and "give other_seed.toml run.seed = 5" in line)
    line = one_line_exit_2(carcsim("plan", "other_rules.toml", "--half-width", "0.1", "--beside",
                                   "fake", cwd=work))
    assert "--beside fake: a run of another game: rules.expansions = [] there" in line
    assert tree(work) == before


def test_plan_is_in_the_help():
    r = carcsim("--help")
    assert r.returncode == 0 and "plan" in r.stdout
    r = carcsim("plan", "--help")
    assert r.returncode == 0
    for option in ("--half-width", "--half-width-points", "--pilot", "--pilot-blocks",
                   "--time-blocks", "--beside", "--json"):
        assert option in r.stdout


def test_every_compare_quantity_has_a_unit():
    """plan --beside names each of compare's quantities with its unit: the questions
    compare.block_values makes, at two and at three or more players (who finished ahead
    of whom: a share, planned by --half-width), none without one."""
    from sim.analysis.planning import POINTS, _compare_unit

    units = {q: _compare_unit(q) for q in (
        "win share: greedy", "mean score: greedy", "message tiles drawn per game: greedy",
        "seat 0: win share", "seat 1: mean score", "greedy vs random: win share",
        "greedy ahead of greedy(city=2.0)", "b − a: win share", "b − a: mean score",
        "game length (tile placements)", "share of tied games")}
    assert all(units.values()), units
    assert units["greedy ahead of greedy(city=2.0)"] == "share ahead"
    assert units["b − a: mean score"] == POINTS
