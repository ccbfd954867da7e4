"""`carcsim report`: the numbers it shows are the analysis functions' output, and the
HTML opens in a real headless browser with no console errors."""

import json
import math
import re
from pathlib import Path

import pytest

from sim.analysis.fmt import digits, fmt_interval
from browser import console_errors, is_png, needs_chromium, screenshot
from cli_here import carcsim  # in this process: tests/cli_here.py says why

from sim.analysis.report import MIN_BLOCKS_SHOWN, UNIT_NOTE, build, fmt_p
from sim.tournament.config import parse_experiment
from sim.tournament.run import run_experiment

ROOT = Path(__file__).resolve().parent.parent

CONFIG = """
[run]
name = "report_test"
seed = 3
blocks = 40
shard_blocks = 8

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


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "run"
    run_experiment(parse_experiment(CONFIG, "report_test.toml"), out, workers=0)
    return out


def test_json_and_html_carry_the_analysis_numbers(run_dir):
    rep = build(run_dir)
    questions = [h["question"] for h in rep["headline"]]
    assert "seat 0 win share, 2 players" in questions
    assert "coverage − meeple_only: win share (c3.1)" in questions
    r = carcsim("report", run_dir, "--json")
    assert r.returncode == 0, r.stderr
    # the same numbers, to the last bits Polars' multi-threaded sums leave alone
    assert json.loads(r.stdout) == [{k: pytest.approx(v, rel=1e-12) if isinstance(v, float) else v
                                     for k, v in h.items()} for h in rep["headline"]]
    r = carcsim("report", run_dir)
    assert r.returncode == 0 and "coverage − meeple_only" in r.stdout
    page = (run_dir / "report.html").read_text()
    embedded = json.loads(re.search(r"<script type='application/json' id='headline'>(.*?)</script>",
                                    page, re.S).group(1))
    assert embedded == [{k: pytest.approx(v, rel=1e-12) if isinstance(v, float) else v
                         for k, v in h.items()} for h in rep["headline"]]
    table = page[page.index("id='headline-table'"):page.index("</table>", page.index("id='headline-table'"))]
    for h in rep["headline"]:  # written to the digits their interval supports
        est, low, high = fmt_interval(h["estimate"], h["low"], h["high"])
        if h["blocks"] >= MIN_BLOCKS_SHOWN:
            assert f"<td>{low}</td><td>{high}</td><td>{est}</td>" in table
        else:  # issue 26: a cell over too few blocks says so instead of a number
            assert f"<td>too few blocks ({h['blocks']} &lt; {MIN_BLOCKS_SHOWN})</td><td></td><td></td>" in table
    assert UNIT_NOTE in r.stdout and html_text(UNIT_NOTE) in page
    arm = next(a for a in rep["arms"] if a["arm"] == "coverage" and a["edition"] == "c3.1")
    assert next(h for h in rep["headline"] if h["question"].startswith("coverage − meeple_only: win share (c3.1)"))[
        "estimate"] == pytest.approx(arm["d_win_share"])


@needs_chromium
def test_report_in_a_headless_browser(run_dir, tmp_path):
    assert carcsim("report", run_dir).returncode == 0
    shot = tmp_path / "report.png"
    console = screenshot((run_dir / "report.html").as_uri(), shot, tmp_path / "profile")
    rows = len(build(run_dir)["headline"])
    assert any(f"carcsim report ready: {rows} headline rows" in line for line in console), console
    assert console_errors(console) == []
    assert is_png(shot)


def html_text(s):
    import html
    return html.escape(s)


def test_json_rows_are_numbers_with_a_family(run_dir):
    """Every headline row: numbers (or null) in the numeric fields, its family, and
    prose only in `label`; p_adjusted is Holm within the family."""
    rows = build(run_dir)["headline"]
    for h in rows:
        assert set(h) == {"question", "estimate", "low", "high", "p", "p_adjusted", "p_fdr",
                          "games", "blocks", "family", "label"}
        for k in ("estimate", "low", "high", "p", "p_adjusted"):
            assert h[k] is None or isinstance(h[k], float), (k, h)
        assert isinstance(h["games"], int) and isinstance(h["blocks"], int) and h["family"]
        assert h["p_adjusted"] is None or h["p_adjusted"] >= h["p"]
    arms = [h for h in rows if h["family"].startswith("arms vs meeple_only")]
    assert len(arms) == 2 and all(h["blocks"] == 40 and h["games"] == 80 for h in arms)
    seat = next(h for h in rows if h["family"] == "seat advantage")
    assert seat["games"] == 40 * 8  # 2 editions × 2 arms × 2 seat orders, each game once


def test_p_values_in_scientific_form():
    assert [fmt_p(v) for v in (3.2e-9, 0.0902, 0.00042, 1.0, None)] == [
        "3e-9", "0.0902", "4e-4", "1", "—"]


def test_cells_over_too_few_blocks_say_so_and_leave_the_plots():
    """Issue 26 item 1: a row over fewer than MIN_BLOCKS_SHOWN blocks shows words, not
    numbers, and its estimate is not drawn; bands are clamped to the possible range."""
    from sim.analysis import figures
    from sim.analysis.page import _table
    few = {"arm": "a", "blocks": MIN_BLOCKS_SHOWN - 1, "win_share": 0.61, "low": 0.4, "high": 0.8}
    enough = dict(few, arm="b", blocks=MIN_BLOCKS_SHOWN)
    cols = [("arm", "arm"), ("blocks", "blocks"), ("win_share", "w"), ("low", "lo"), ("high", "hi")]
    table = _table([few, enough], cols)
    assert f"<td>a</td><td>{MIN_BLOCKS_SHOWN - 1}</td><td>too few blocks" in table
    # the interval before its estimate (the brief: uncertainty first)
    assert "<th>lo</th><th>hi</th><th>w</th>" in table
    assert "<td>b</td><td>30</td><td>0.40</td><td>0.80</td><td>0.61</td>" in table
    assert figures.forest([few], "arm", "win_share", "low", "high", "t", "x",
                          min_blocks=MIN_BLOCKS_SHOWN) == ""
    wide = dict(enough, low=-0.2, high=1.3)
    svg = figures.forest([wide], "arm", "win_share", "low", "high", "t", "x", bounds=(0, 1))
    assert svg and figures.forest([wide], "arm", "win_share", "low", "high", "t", "x") != svg


def test_the_questions_section_comes_first_and_says_how_many_blocks_it_needs(run_dir):
    """Issue 26 item 1: a variants run's first section (and chart) is its arms; "blocks
    needed" is about the arms' least precise win-share difference."""
    from sim.analysis.page import render_html
    rep = build(run_dir)
    page = render_html(rep)
    assert rep["question"] == "arms"
    assert page.index("<h2>Arms against the baseline") < page.index("<h2>Seats")
    need = rep["blocks_needed"]
    assert " − " in need["label"] and need["unit"] == "win share"
    hw = need["half_width"]
    assert need["needed"][0] == {"half_width": 0.01, "blocks": math.ceil(40 * (hw / 0.01) ** 2)}
    assert "id='blocks-needed'" in page and not rep["sprt_note"]


def test_figures_have_titles_units_reference_lines_and_keys(run_dir):
    from sim.analysis.page import render_html
    page = render_html(build(run_dir))
    assert page.count("<svg") >= 4  # seats, heatmap, arms forest, convergence
    for text in ("difference in win share (focal player)", "95% interval (t over blocks)",
                 "no effect (0)", "opponent (column)", "player (row)",
                 "win share (0.5 = even)", "blocks (seeds) so far"):
        assert html_text(text) in page or text in page, text
    assert "None" not in page.split("<pre>")[0]


def test_findings_are_the_reports_numbers(tmp_path):
    """`carcsim findings` on two shipped configs cut to a few blocks: the document
    quotes the run commands and the report's own numbers."""
    import re as _re

    from sim.analysis.findings import est, regenerate
    from sim.tournament.config import shipped_configs
    (tmp_path / "docs").mkdir()
    configs = {}
    for name in ("seat_advantage", "messages_figure_forks"):
        text = shipped_configs()[name].read_text()
        configs[name] = tmp_path / f"{name}.toml"
        configs[name].write_text(_re.sub(r"(?m)^blocks = \d+", "blocks = 12", text))
    doc = regenerate(tmp_path, only=tuple(configs), echo=lambda s: None, configs=configs)
    assert doc == (tmp_path / "docs" / "findings.md").read_text()
    assert "`carcsim run seat_advantage && carcsim report runs/seat_advantage`" in doc
    seat = next(h for h in build(tmp_path / "runs" / "seat_advantage")["headline"]
                if h["family"] == "seat advantage")
    assert est(seat["estimate"], seat["low"], seat["high"]) in doc
    forks = build(tmp_path / "runs" / "messages_figure_forks")
    top = next(v for v in forks["fork_scoring_figure"] if v["dimension"] == "all" and v["edition"] == "c3.1")
    assert est(top["d_margin"], top["d_margin_low"], top["d_margin_high"], 2, True) in doc
    assert "rule of thumb" in doc and UNIT_NOTE in doc


def test_findings_rejects_an_unknown_section():
    r = carcsim("findings", "--only", "nope")
    assert r.returncode == 2 and "--only: unknown section 'nope'" in r.stderr


def test_rating_prior_is_an_option_shown_in_the_report(run_dir, tmp_path):
    from sim.analysis.balance import RATING_PRIOR
    r = carcsim("report", run_dir, "--rating-prior", "2", "--html", tmp_path / "r.html")
    assert r.returncode == 0, r.stderr
    assert "prior 2.0 virtual wins each way" in r.stdout
    assert "prior 2.0 virtual wins each way" in (tmp_path / "r.html").read_text()
    assert build(run_dir)["rating_prior"] == RATING_PRIOR == 0.1
    r = carcsim("report", run_dir, "--rating-prior", "-1")
    assert r.returncode == 2 and "--rating-prior" in r.stderr


def test_numbers_carry_the_digits_their_interval_supports():
    """One decimal past the first significant digit of the half-width, at most 3."""
    assert digits(0.596, 0.686) == 3  # ±0.045
    assert digits(68.0, 136.0) == 0  # ±34 (Elo)
    assert digits(0.1, 0.5) == 2  # ±0.2
    assert digits(4.0, 6.0) == 1  # ±1
    assert digits(None, 1.0) == 3 and digits(0.5, 0.5) == 3  # no interval: the default
    assert fmt_interval(692.05, 650.0, float("inf"), most=0) == ("692", "650", "+∞")
    assert fmt_interval(0.6412, 0.5961, 0.6863) == ("0.641", "0.596", "0.686")


def test_every_win_share_says_how_ties_count_and_how_often(tmp_path):
    """Issue 23 item 2: the tie rule and the run's tie rate beside every win share,
    the rate counted by hand from the games table."""
    import polars as pl

    from sim.tournament.run import run_experiment

    cfg = tmp_path / "ties.toml"
    cfg.write_text("[run]\nname = \"ties\"\nseed = 4\nblocks = 60\n[rules]\nplayers = 2\n"
                   "[design]\nkind = \"rotations\"\nseats = [\"random\", \"first\"]\n")
    from sim.tournament.config import load_experiment
    run_experiment(load_experiment(cfg), tmp_path / "out", workers=0)
    games = pl.read_parquet(str(tmp_path / "out" / "games" / "*.parquet"))
    tied = sum(len(w) > 1 for w in games["winners"].to_list())
    assert tied > 0  # the rate is something to get right
    rep = build(tmp_path / "out")
    assert rep["tie_rate"] == pytest.approx(tied / games.height)
    note = f"a tie shares the win; {100 * tied / games.height:.1f}% of the run's games were ties"
    shares = [h for h in rep["headline"] if "win share" in h["question"] and h["estimate"] is not None]
    assert shares and all(note in h["label"] for h in shares)


def test_blocks_needed_of_an_exact_bound_shrinks_as_one_over_blocks():
    """A pair where one won every block gets the exact bound [1 − b, 1], b = 1 − 0.025^(1/G):
    it narrows as 1/G, so ±1 pp needs ln 0.025 / ln(1 − 0.02) = 183 blocks, not the
    775 that scaling its half-width (0.044 at 40 blocks) as 1/√blocks would ask."""
    from sim.analysis.report import _blocks_needed
    b = 1 - 0.025 ** (1 / 40)
    assert b == pytest.approx(0.0880, abs=1e-4)
    row = {"question": "x vs y: win share", "family": "head-to-head", "low": 1 - b, "high": 1.0,
           "blocks": 40}
    need = _blocks_needed("matchups", [row])
    assert need["bound"] == "exact"
    assert [n["blocks"] for n in need["needed"]] == [
        math.ceil(math.log(0.025) / math.log(1 - 0.02)), math.ceil(math.log(0.025) / math.log(1 - 0.04))]
    assert need["needed"][0]["blocks"] == 183
    # a difference of shares every block agreed on: [c − b(1 + c), c + b(1 − c)], 2b wide
    arm = {"question": "a − base: win share", "family": "arms", "low": 0.1 - b * 1.1, "high": 0.1 + b * 0.9,
           "blocks": 40}
    assert _blocks_needed("arms", [arm])["needed"][0]["blocks"] == math.ceil(math.log(0.025) / math.log(1 - 0.01))
    # a spread scales as 1/√blocks: ±0.045 over 40 blocks, ±0.01 over 40 · 4.5² = 810
    spread = dict(row, low=0.9, high=0.99)
    need = _blocks_needed("matchups", [spread])
    assert need["bound"] == "spread" and need["needed"][0]["blocks"] == 810


def test_json_full_gives_every_table_the_page_draws(run_dir):
    """`--json` is the headline; `--json --full` every table of the analysis (the arms,
    seats, ratings ... the page draws, rows over too few blocks included), as strict
    JSON (no NaN); `--full` alone does nothing and says so."""
    rep = build(run_dir)
    r = carcsim("report", run_dir, "--json", "--full")
    assert r.returncode == 0, r.stderr
    full = json.loads(r.stdout, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    assert set(full) == set(rep) and {"headline", "arms", "seat"} <= set(full)
    assert [h["question"] for h in full["headline"]] == [h["question"] for h in rep["headline"]]
    assert len(full["arms"]) == len(rep["arms"]) > 0
    r = carcsim("report", run_dir, "--full")
    assert r.returncode == 2 and "--full: does nothing without --json" in r.stderr
