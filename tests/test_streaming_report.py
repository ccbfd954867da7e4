"""The report's one streaming pass (sim/analysis/scan.py) gives today's numbers: on small
runs of shipped configs, every section of `build` equals the eager analysis as it was
before the pass (tests/eager, frozen from main), to ~1e-12 relative where the order of
summation changed; and so does `carcsim compare`. Each shard is its own batch here, so
every fold across batches is exercised."""

import math
import re

import pytest

from eager import compare as eager_compare
from eager import report as eager_report
from sim.analysis import scan
from sim.analysis.compare import compare
from sim.analysis.report import build
from sim.tournament.config import load_experiment, shipped_configs
from sim.tournament.run import run_experiment

# shipped configs cut to a few blocks in shards of 3 blocks; every kind of section:
# seats (2 and 3 players), variants arms, a round robin (head-to-head, ratings),
# message values by counterfactual forks, scoring-figure and road forks
CONFIGS = {"seat_advantage": 12, "atlas_seat_3p": 9, "message_values": 9, "courier": 9,
           "strategy_ladder": 6, "message_counterfactual": 12, "messages_figure_forks": 12,
           "mayors_road_forks": 12}
REL = 1e-12
ABS = 1e-14  # a value that is 0 but for rounding (a difference of equal means)


def _small(tmp, name: str, blocks: int, seed: str | None = None):
    text = shipped_configs()[name].read_text()
    text = re.sub(r"(?m)^blocks = \d+", f"blocks = {blocks}", text)
    text = re.sub(r"(?m)^shard_blocks = \d+", "shard_blocks = 3", text)
    if seed is not None:
        text = re.sub(r"(?m)^seed = \d+", f"seed = {seed}", text)
    path = tmp / f"{name}{seed or ''}.toml"
    path.write_text(text)
    out = tmp / f"run_{name}{seed or ''}"
    run_experiment(load_experiment(path), out, workers=0)
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("streaming")
    return {name: _small(tmp, name, blocks) for name, blocks in CONFIGS.items()}


@pytest.fixture(autouse=True)
def one_shard_a_batch(monkeypatch):
    monkeypatch.setattr(scan, "BATCH_ROWS", 1)


def same(new, old, where="report"):
    """Equal, floats to REL (NaN equal to NaN); a difference names its path."""
    if isinstance(old, dict):
        assert isinstance(new, dict) and set(new) == set(old), (where, set(new) ^ set(old))
        for k in old:
            same(new[k], old[k], f"{where}.{k}")
    elif isinstance(old, list):
        assert isinstance(new, list) and len(new) == len(old), (where, len(new), len(old))
        for i, (a, b) in enumerate(zip(new, old)):
            same(a, b, f"{where}[{i}]")
    elif isinstance(old, float) and not isinstance(new, bool) and isinstance(new, (int, float)):
        if math.isnan(old):
            assert math.isnan(new), (where, new, old)
        else:
            assert new == pytest.approx(old, rel=REL, abs=ABS), (where, new, old)
    else:
        assert new == old, (where, new, old)


# sections added after the eager analysis was frozen, each checked on its own (file named)
LATER = {"player_share": "tests/test_report_tables.py", "ahead": "tests/test_report_tables.py"}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_report_equals_the_eager_analysis(runs, name):
    rep = build(runs[name])
    assert len(scan.shard_batches(__import__("json").loads(
        (runs[name] / "manifest.json").read_text()))) > 1  # folded over several batches
    for key in LATER:
        assert rep.pop(key) == []  # none of these configs seats different strategies at 3+
    same(rep, eager_report.build(runs[name]))


def test_sections_of_every_kind_are_there(runs):
    """The configs above reach each section the equality covers."""
    have = {k for name in CONFIGS for k, v in build(runs[name]).items() if v}
    assert {"seat", "seat_test", "seat_by_player", "arms", "pairwise", "ratings", "convergence",
            "naive_messages", "counterfactual", "variance_reduction", "fork_scoring_figure",
            "rules_scoring_figure", "fork_road_figure", "rules_road_figure"} <= have


def test_compare_equals_the_eager_comparison(runs, tmp_path):
    """Two runs of message_values, the second with another seed for half its blocks'
    pairing: every row, the notes and the block counts."""
    other = _small(tmp_path, "message_values", 6)
    same(compare(runs["message_values"], other),
         eager_compare.compare(runs["message_values"], other), "compare")


def test_moments_fold_like_the_rows_put_together():
    """Chan's update: moments of chunks added up are the moments of all the rows."""
    import numpy as np

    from sim.analysis.moments import Moments
    rows = np.random.default_rng(5).normal(80, 20, (1001, 3))
    whole = Moments.of(rows)
    parts = Moments.empty(3)
    for chunk in np.array_split(rows, [1, 2, 300, 301, 900]):
        parts = parts + Moments.of(chunk)
    assert parts.n == whole.n
    for a, b in ((parts.total, whole.total), (parts.mean, whole.mean), (parts.cross, whole.cross),
                 (parts.low, whole.low), (parts.high, whole.high)):
        assert np.allclose(a, b, rtol=1e-13, atol=0)


def test_convergence_cut_anywhere_by_batches():
    """The running estimate is the same however the blocks arrive in batches."""
    import numpy as np

    from sim.analysis import stats
    from sim.analysis.report import Convergence
    values = np.random.default_rng(6).random(97)
    c = Convergence(len(values))
    for chunk in np.array_split(values, [3, 4, 50, 51, 52]):
        c.extend(chunk)
    cuts = sorted({max(2, int(97 * (i + 1) / 20)) for i in range(20)})
    want = [{"blocks": k, **{f: getattr(stats.mean_estimate(values[:k]), a) for f, a in
                             (("estimate", "estimate"), ("low", "low"), ("high", "high"))}}
            for k in cuts]
    same(c.points, want)


def test_synthetic_run_is_a_run_the_report_reads(tmp_path):
    """tests/synthetic_run.py (the benchmark's 10⁶–10⁸-game runs) writes a run that
    `carcsim report` checks and reads like a played one, with the eager numbers."""
    import synthetic_run

    out = tmp_path / "synthetic"
    synthetic_run.write(out, 10_000, 2_000, say=lambda s: None)
    rep = build(out)
    assert (rep["provenance"]["games_stored"], rep["provenance"]["blocks_stored"]) == (10_000, 5_000)
    for key in LATER:
        assert rep.pop(key) == []  # two players
    same(rep, eager_report.build(out))
