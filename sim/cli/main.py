"""The `carcsim` command line (typer). Bad input: one line on stderr, exit code 2."""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import signal
import sys
from pathlib import Path
from typing import Optional

import typer

from sim.errors import CoreError, InputError, one_line

# typer ships its own click; its UsageError is the public BadParameter's base class
_UsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")

# `carcsim run` answers its question at the end up to this many stored games (the whole
# report beyond that is `carcsim report`'s, which reads every table)
FIRST_ANSWER_GAMES = 200_000
MAX_WORKERS = 100_000  # --workers: CPUs of a local Ray or shards in flight (Ray refuses ~1e14)
# markdown: help texts are wrapped docstrings with "[default: …]" in them, which Rich
# markup would keep broken at the docstring's line ends and drop as a style tag
app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True,
                  rich_markup_mode="markdown")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("carcsim")
    except PackageNotFoundError:  # a source tree that was never installed
        return "unknown (not installed)"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"carcsim {_version()}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """carcsim: seeded Carcassonne games and tournaments."""


def _check_targets(**targets: Optional[Path]) -> None:
    """Refuse, before any work, an output file whose directory does not exist or cannot
    be written, so that nothing is half-written."""
    for option, path in targets.items():
        if path is None:
            continue
        parent = path.parent
        if str(path) == "" or path.name in ("", ".", ".."):
            raise InputError(f"--{option} {str(path)!r}: expected a file name")
        try:
            parent_is_dir, parent_exists = parent.is_dir(), os.path.lexists(parent)
            path.is_dir()
        except OSError as e:  # a part longer than the file system allows, a loop of links
            raise InputError(f"--{option} {path}: {e.strerror}") from None
        if not parent_is_dir:
            raise InputError(f"--{option} {path}: {parent} is not a directory" if parent_exists
                             else f"--{option} {path}: directory {parent} does not exist")
        if path.is_dir():
            raise InputError(f"--{option} {path}: is a directory: expected a file name")
        if path.is_symlink() or (path.exists() and not path.is_file()):
            from sim.safe_files import kind

            # replacing it would destroy a device (/dev/null), a FIFO or a link
            raise InputError(f"--{option} {path}: is {kind(path.lstat())}: expected a regular "
                             f"file to replace, or a new name")
        if not os.access(parent, os.W_OK):
            raise InputError(f"--{option} {path}: directory {parent} is not writable")


@contextlib.contextmanager
def _stdout_to_stderr():
    """While a run plays, file descriptor 1 is stderr: Ray's driver and the processes it
    starts print worker deaths and retries (`(raylet) A worker died…`) to stdout, which
    holds the product alone (the summary, `--json`)."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def _check_out(out: Optional[str]) -> None:
    """`--out ''` is refused: as a path it means the working directory, surely not meant."""
    if out is not None and not out.strip():
        raise InputError(f"--out {out!r}: expected a directory name")


def _write(path: Path, text: str, option: str) -> None:
    """Write through a temporary file and a rename (sim/safe_files.py): the target is
    whole or untouched, and never anything but a regular file."""
    from sim.safe_files import write_file

    write_file(path, text, f"--{option} {path}")


def _picture_options(svg: Optional[Path], turn: Optional[int], page: Optional[Path]) -> None:
    if turn is not None and svg is None:
        raise InputError(f"--turn {turn}: does nothing without --svg (it picks the turn the "
                         f"SVG shows; the --html page holds every turn)")
    if svg is not None and page is not None and svg.resolve() == page.resolve():
        raise InputError(f"--svg and --html both name {svg}: expected two different files")
    _check_targets(svg=svg, html=page)


def _pictures(game, svg: Optional[Path], turn: Optional[int], page: Optional[Path], title: str,
              seats: Optional[list[str]] = None) -> None:
    """Write the board SVG (after `turn`, or at the end) and/or the step-through page;
    `seats`: the seats' strategy specs, for the legend."""
    from sim.games import render

    if turn is not None and not 0 <= turn <= render.turns_of(game):
        raise InputError(f"--turn {turn}: expected 0..{render.turns_of(game)} (the game's placements)")
    if svg is not None:
        board = render.board_svg(game if turn is None else game.replayed(turn),
                                 "end of game" if turn is None else f"after turn {turn}", seats)
    pages = render.step_through_html(game, title, seats) if page is not None else None
    if svg is not None:
        _write(svg, board, "svg")
    if page is not None:
        _write(page, pages, "html")


def _game_json(game, head: dict) -> str:
    return json.dumps({**head, **game.result(), "events": game.events})


@app.command()
def play(
    script: Optional[Path] = typer.Option(None, "--script", help="Play a scripted game (TOML)."),
    seed: Optional[int] = typer.Option(None, "--seed", min=0, help="Seed of a seeded game [default: 0]."),
    players: Optional[str] = typer.Option(None, "--players",
                                          help="Comma-separated strategies, one per seat, e.g. "
                                               "'greedy(city=2.0),random' [default: random,random]."),
    expansions: Optional[str] = typer.Option(None, "--expansions",
                                             help="Comma-separated expansions of a seeded game, "
                                                  "e.g. 'messages'."),
    edition: Optional[str] = typer.Option(None, "--edition",
                                          help="The Messages' rules: c3.1 or classic [default: c3.1]."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Draw the board to this SVG file."),
    turn: Optional[int] = typer.Option(None, "--turn", min=0, help="Draw the board after this turn."),
    page: Optional[Path] = typer.Option(None, "--html", help="Write a step-through page (slider)."),
    log: bool = typer.Option(False, "--log", help="With --svg or --html, print the turn log too."),
) -> None:
    """Play one game, scripted or seeded, and print its log or JSON result (with --svg or
    --html: only the pictures, unless --log or --json)."""
    from sim.tournament.config import check_player, rules_dict
    from sim.formats.log import format_log
    from sim.engine.play import play_seeded
    from sim.engine.rules import Rules
    from sim.games.script import load_script, play_script
    from sim.text import split_top

    _picture_options(svg, turn, page)
    if script is not None:
        for option, value in (("seed", seed), ("players", players), ("expansions", expansions),
                              ("edition", edition)):
            if value is not None:
                raise InputError(f"--{option}: does nothing with --script (the script sets the "
                                 f"rules, the moves and the policies)")
        loaded = load_script(script)
        game = play_script(loaded)
        head = {"script": str(script), "seed": None, "rules": rules_dict(loaded.rules),
                "policies": loaded.policies}
    else:
        from sim.expansions import EDITIONED
        from sim.expansions.messages import MessagesOptions

        seed = 0 if seed is None else seed
        if players is not None and not players.strip():  # not a silent random,random
            raise InputError("--players '': expected comma-separated strategies, one per seat, "
                             "e.g. 'greedy,random'")
        try:
            specs = [p.strip() for p in split_top(players or "random,random", ",")]
        except InputError as e:
            raise InputError(f"--players: {e}") from None
        if not 2 <= len(specs) <= 6:
            raise InputError(f"--players: {len(specs)} strategies given: expected 2..6")
        chosen = tuple(e.strip() for e in (expansions or "").split(",") if e.strip())
        if edition is not None and EDITIONED.name not in chosen:
            raise InputError(f"--edition {edition}: does nothing without {EDITIONED.title} "
                             f"(--expansions {EDITIONED.name})")
        try:
            rules = Rules(players=len(specs), expansions=chosen,
                          messages=MessagesOptions(edition=edition or "c3.1"))
        except InputError as e:
            raise InputError(f"--expansions/--edition: {e}") from None
        seats = [check_player(spec, rules, "--players") for spec in specs]
        game = play_seeded(rules, seed, seats)
        head = {"seed": seed, "rules": rules_dict(rules), "seats": specs}
    _pictures(game, svg, turn, page, f"carcsim game: {script or f'seed {seed}'}", head.get("seats"))
    if as_json:
        typer.echo(_game_json(game, head))
    elif log or not (svg or page):  # a picture asked for is the answer: no log unless asked
        typer.echo(format_log(game.events))


@app.command()
def run(
    config: str = typer.Argument(..., help="Experiment config: a TOML file, or the name of a "
                                           "shipped config (carcsim configs)."),
    out: Optional[str] = typer.Option(None, "--out", help="Output directory (default: run.out)."),
    workers: Optional[int] = typer.Option(None, "--workers", min=0, max=MAX_WORKERS,
                                          help="CPUs of the local Ray (default all); on a joined cluster, "
                                               "shards in flight at most; 0 = in this process."),
    address: Optional[str] = typer.Option(None, "--address",
                                          help="Join a Ray cluster: HOST:PORT, auto or ray://HOST:PORT "
                                               "(or set RAY_ADDRESS); see docs/cluster.md."),
    force: bool = typer.Option(False, "--force", help="Start over in a directory of another run."),
    repair: bool = typer.Option(False, "--repair",
                                help="Rebuild a damaged manifest from the verified shard files."),
    connect_timeout: float = typer.Option(30.0, "--connect-timeout", min=0.1,
                                          help="Seconds to reach an existing Ray cluster."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress and no summary table."),
    as_json: bool = typer.Option(False, "--json", help="Print only the summary, as JSON."),
) -> None:
    """Run, resume or extend (more blocks) an experiment: Parquet tables and a manifest
    in the output directory."""
    if force and repair:
        raise InputError("--force starts over, --repair keeps the verified shards: give one")
    _check_out(out)
    try:
        from sim.tournament.config import load_experiment
        from sim.tournament.run import run_experiment

        exp = load_experiment(config)
        # --json prints the summary alone on stdout: no progress then
        with _stdout_to_stderr():
            s = run_experiment(exp, out, workers, address, force, progress=not (quiet or as_json),
                               repair=repair, connect_timeout=connect_timeout)
    except KeyboardInterrupt:  # while loading, connecting or opening the directory
        typer.echo("interrupted: nothing was played", err=True)
        raise typer.Exit(130) from None
    rate = s.games / s.seconds if s.seconds else 0.0
    if as_json:
        from sim.analysis.summary import by_player, load

        # the whole run's games (a resume plays none), as the text summary's table shows
        stored = None if s.interrupted else by_player(load(s.out, "players"))
        typer.echo(json.dumps({"out": str(s.out), "config": exp.path, "shards_run": s.shards_run,
                               "shards_skipped": s.shards_skipped, "games": s.games,
                               "games_stored": None if stored is None else sum(stored["games"]) // exp.rules.players,
                               "seconds": round(s.seconds, 3), "games_per_s": round(rate, 1),
                               "interrupted": s.interrupted, "sprt": s.sprt,
                               "players": None if stored is None else stored.to_dicts()}))
        raise typer.Exit(130 if s.interrupted else 0)
    typer.echo(f"{s.out}: {s.shards_run} shard{'s' * (s.shards_run != 1)} run, {s.shards_skipped} "
               f"already done, {s.games:,} games in {s.seconds:.1f} s ({rate:.0f} games/s)")
    if s.sprt:
        d = s.sprt
        typer.echo(f"SPRT: {d['decision']} after {d['blocks']} blocks (LLR {d['llr']:.3f}, bounds "
                   f"{d['lower']:.3f} / {d['upper']:.3f}); the run stops there")
    if not s.interrupted and not quiet:
        from sim.analysis.summary import TABLE_NOTE, by_player, format_table, load

        players = load(s.out, "players")
        typer.echo(format_table(by_player(players)))
        typer.echo(TABLE_NOTE)
        from sim.tournament.plan import spelt_mirror

        if spelt_mirror(exp):  # spellings of one player
            typer.echo("note: players that play as one (a mirror match, noted at the start) share "
                       "its games: the win shares of their spellings above are their seats', not theirs")
        if players.height // exp.rules.players <= FIRST_ANSWER_GAMES:
            from sim.analysis.report import build, first_answer

            for line in first_answer(build(s.out), exp.question):
                typer.echo(line)
        typer.echo(f"next: carcsim report {s.out}   (every answer with its interval; report.html)")
    if s.interrupted:
        typer.echo("interrupted: finished shards are kept; run the same command to resume",
                   err=True)
        raise typer.Exit(130)


def _finite(value):
    """`value` with every NaN or infinity as None: JSON has no such numbers."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


@app.command()
def report(
    run_dir: Path = typer.Argument(..., help="A run's output directory."),
    as_json: bool = typer.Option(False, "--json", help="Print the headline table as JSON."),
    full: bool = typer.Option(False, "--full", help="With --json: every table of the analysis "
                                                    "(what the page draws, rows over too few "
                                                    "blocks included), not only the headline."),
    html_path: Optional[Path] = typer.Option(None, "--html",
                                             help="Where to write the HTML (default RUN_DIR/report.html)."),
    rating_prior: Optional[float] = typer.Option(None, "--rating-prior", min=0.0, max=100.0,
                                                 help="Bradley–Terry prior: virtual wins each way "
                                                      "per pair of specs that met (default 0.1; "
                                                      "shown in the report)."),
) -> None:
    """Answers with error bars: a terminal summary and one self-contained HTML file."""
    from sim.analysis.page import render_html
    from sim.analysis.report import build, render_text
    from sim.safe_files import write_file

    if full and not as_json:
        raise InputError("--full: does nothing without --json (the page holds every table)")
    if html_path is not None and not as_json:
        _check_targets(html=html_path)
    elif not as_json and (Path(run_dir) / "manifest.json").is_file() \
            and not os.access(run_dir, os.W_OK):  # refused before the report is built
        raise InputError(f"{Path(run_dir) / 'report.html'}: directory {run_dir} is not writable: "
                         f"expected --html elsewhere, or --json")
    rep = build(run_dir) if rating_prior is None else build(run_dir, rating_prior)
    if as_json:
        typer.echo(json.dumps(_finite(rep if full else rep["headline"]), allow_nan=False))
        return
    target = html_path or Path(run_dir) / "report.html"
    # RUN_DIR/report.html and its .tmp are reached without links, like the run's files
    write_file(target, render_html(rep), f"--html {target}" if html_path else target)
    typer.echo(render_text(rep))
    typer.echo(f"report: {target}")


@app.command()
def compare(
    run_a: Path = typer.Argument(..., help="Run A's output directory."),
    run_b: Path = typer.Argument(..., help="Run B's output directory."),
    as_json: bool = typer.Option(False, "--json", help="Print the comparison as JSON."),
) -> None:
    """A − B of every headline quantity of two runs of the same game, paired on their
    common blocks, each with its 95% interval over blocks."""
    from sim.analysis.compare import compare as compare_runs, render_text

    result = compare_runs(run_a, run_b)
    typer.echo(json.dumps(result) if as_json else render_text(result))


@app.command()
def export(
    run_dir: Path = typer.Argument(..., help="A run's output directory."),
    as_csv: bool = typer.Option(False, "--csv", help="Write each table as CSV (the one format)."),
    out: Optional[str] = typer.Option(None, "--out", help="Directory for the files "
                                                          "(default RUN_DIR/csv)."),
) -> None:
    """Write each table of a run as a file for spreadsheets, with columns.csv (every
    column's unit and meaning); a regular file of the same name is replaced whole."""
    from sim.tournament.export import export_csv

    if not as_csv:
        raise InputError("export: expected a format: --csv (the only one)")
    _check_out(out)
    for path, rows in export_csv(run_dir, out):
        typer.echo(f"{path}: {rows:,} rows")


@app.command()
def findings(
    doc: Path = typer.Option(Path("docs/findings.md"), "--doc", help="The document to rewrite."),
    workers: int = typer.Option(0, "--workers", min=0, max=MAX_WORKERS,
                                help="CPUs of a local Ray; 0 (default) = in-process, one core."),
    force: bool = typer.Option(False, "--force", help="Start over where a run directory holds "
                                                      "another config."),
    only: Optional[list[str]] = typer.Option(None, "--only", help="Only this config's section "
                                                                  "(repeatable; a shipped name): "
                                                                  "it replaces its namesake in "
                                                                  "--doc, the rest stays."),
) -> None:
    """Rerun the shipped configs (resuming stored runs) and rewrite docs/findings.md."""
    from sim.analysis.findings import SECTIONS, regenerate

    known = [s.config for s in SECTIONS]
    for name in only or []:
        if name not in known:
            raise InputError(f"--only: unknown section {name!r}: expected one of {', '.join(known)}")
    _check_targets(doc=doc)  # before the runs, not after them
    regenerate(".", doc, workers, force, tuple(only or ()), echo=typer.echo)
    typer.echo(f"findings: {doc}")


@app.command()
def validate(config: str = typer.Argument(..., help="Experiment config: a TOML file or a "
                                                   "shipped config's name."),
             as_json: bool = typer.Option(False, "--json", help="Print the plan as JSON.")) -> None:
    """Check an experiment config and print its plan, without playing."""
    from sim.tournament.config import load_experiment
    from sim.tournament import plan

    from sim.tournament.manifest import check_limits

    exp = load_experiment(config)
    check_limits(exp)
    plan.check_seating(exp)
    plan.check_sprt(exp)
    per = plan.games_per_block(exp)
    # counted, not listed: blocks may be huge; an auto run's are sized when it starts
    shards = -(-exp.blocks // exp.shard_blocks) if exp.shard_blocks else None
    if as_json:
        canon = exp.canonical()
        typer.echo(json.dumps({"config": exp.path, "name": exp.name, "question": exp.question,
                               "fingerprint": exp.fingerprint(), "out": exp.out,
                               "blocks": exp.blocks, "games_per_block": per,
                               "games": exp.blocks * per,
                               "shard_blocks": canon["shard_blocks"],
                               "shards": shards, "design": canon["design"],
                               "rules": canon["rules"], "notes": plan.notes(exp)}))
        return
    sharded = (f"{shards:,} shard{'s' * (shards != 1)}" if shards is not None else
               "shards of about a minute each, sized when the run starts (shard_blocks = auto)")
    orders = ", every seat order" if exp.seat_orders == "all" else ""
    typer.echo(f"{exp.path}: ok: {exp.design} design{orders}, {exp.blocks:,} block{'s' * (exp.blocks != 1)} × {per:,} game{'s' * (per != 1)} = "
               f"{exp.blocks * per:,} games in {sharded}")
    for line in plan.notes(exp):  # what the design gives that one might not expect, one line each
        typer.echo(line)


@app.command("plan")
def plan_blocks(
    config: str = typer.Argument(..., help="Experiment config: a TOML file or a shipped "
                                           "config's name."),
    half_width: Optional[float] = typer.Option(
        None, "--half-width", help="The 95% interval's half-width wanted, in each quantity's "
                                   "unit but points (win share: 0.02 = ±2 pp); without it "
                                   "those are shown, not planned."),
    half_width_points: Optional[float] = typer.Option(
        None, "--half-width-points", help="The half-width for quantities in points (final "
                                          "margin, score); without it they are shown, not planned."),
    pilot: Optional[Path] = typer.Option(None, "--pilot",
                                         help="A stored run of this config's rules and design "
                                              "(any seed and blocks) whose between-block spread "
                                              "to use (default: play a pilot here)."),
    pilot_blocks: Optional[int] = typer.Option(None, "--pilot-blocks", min=2,
                                               help="Without --pilot: blocks of the pilot played "
                                                    "in this process (default 30)."),
    time_blocks: Optional[int] = typer.Option(None, "--time-blocks", min=1,
                                              help="With --pilot: blocks played in this process "
                                                   "to time one (default 5)."),
    beside: Optional[Path] = typer.Option(None, "--beside",
                                          help="Plan a comparison with this run (carcsim "
                                               "compare, A − B paired by block): it must have "
                                               "the config's run.seed, seats and expansions."),
    as_json: bool = typer.Option(False, "--json", help="Print the plan as JSON."),
) -> None:
    """Blocks and CPU-seconds each headline quantity of the config needs for a 95%
    interval of ±H, from a pilot's between-block spread (normal approximation); writes
    nothing."""
    import math

    from sim.analysis import planning
    from sim.tournament import plan
    from sim.tournament.config import load_experiment
    from sim.tournament.manifest import check_limits

    if half_width is None and half_width_points is None:
        raise InputError("plan: expected --half-width H (shares), --half-width-points H "
                         "(points), or both")
    for option, value in (("half-width", half_width), ("half-width-points", half_width_points)):
        if value is not None and not (math.isfinite(value) and value > 0):
            raise InputError(f"--{option} {value:g}: expected a number > 0 (the interval's "
                             f"half-width, in the quantity's unit)")
    if half_width is not None and half_width > 1:  # a share, or a difference of two, is within ±1
        raise InputError(f"--half-width {half_width:g}: expected at most 1 (a share's half-width: "
                         f"0.02 = ±2 pp; for points, --half-width-points)")
    if pilot is not None and pilot_blocks is not None:
        raise InputError(f"--pilot-blocks {pilot_blocks}: does nothing with --pilot (its stored "
                         f"blocks are the pilot)")
    if pilot is None and time_blocks is not None:
        raise InputError(f"--time-blocks {time_blocks}: does nothing without --pilot (the pilot "
                         f"played here is timed)")
    exp = load_experiment(config)
    check_limits(exp)
    plan.check_seating(exp)
    plan.check_sprt(exp)
    result = planning.make_plan(exp, half_width, half_width_points, pilot,
                                pilot_blocks or planning.PILOT_BLOCKS,
                                time_blocks or planning.TIME_BLOCKS, beside,
                                say=lambda line: typer.echo(line, err=True))
    typer.echo(json.dumps(result) if as_json else planning.render_text(result))


def _stored_seats(run_dir: Path, game_id: int) -> list[str]:
    """Each seat's strategy spec of a stored game, from its `players` rows."""
    import polars as pl

    from sim.analysis.summary import load

    rows = load(run_dir, "players").filter(pl.col("game_id") == game_id).sort("seat")
    return rows["player"].to_list()


@app.command()
def replay(
    run_dir: Path = typer.Argument(..., help="A run's output directory."),
    game_id: int = typer.Argument(..., help="The game's id (games.game_id)."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Draw the board to this SVG file."),
    turn: Optional[int] = typer.Option(None, "--turn", min=0, help="Draw the board after this turn."),
    page: Optional[Path] = typer.Option(None, "--html", help="Write a step-through page (slider)."),
    as_json: bool = typer.Option(False, "--json", help="Print the game and the check as JSON."),
) -> None:
    """Recompute one stored game from its seed and config, print its log, and check it
    equals the stored rows (exit code 1 when it does not)."""
    from sim.formats.log import format_log
    from sim.tournament.replay import replay_game

    _picture_options(svg, turn, page)
    game, problems = replay_game(run_dir, game_id)
    if svg is not None or page is not None:
        _pictures(game, svg, turn, page, f"carcsim game {game_id} of {run_dir}",
                  _stored_seats(run_dir, game_id))
    if as_json:
        typer.echo(_game_json(game, {"run": str(run_dir), "game_id": game_id,
                                     "equal": not problems, "problems": problems}))
        raise typer.Exit(1 if problems else 0)
    typer.echo(format_log(game.events))
    if problems:
        for p in problems:
            typer.echo(f"differs from the stored rows: {p}", err=True)
        raise typer.Exit(1)
    typer.echo(f"game {game_id}: equal to the stored rows")


@app.command()
def bench(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON list, a row per case."),
    case: Optional[list[str]] = typer.Option(None, "--case", help="Run only this case (repeatable)."),
    repeats: int = typer.Option(5, "--repeats", min=1, max=1000,
                                help="Batches per case; the median is reported."),
    scale: float = typer.Option(1.0, "--scale", min=0.001, max=1000.0,
                                help="Multiply every case's batch size."),
    everything: bool = typer.Option(False, "--all", help="Also the search cases (minutes each)."),
) -> None:
    """Games per second per core and peak memory for the standard cases (--all: the
    search cases too; --case: only those named)."""
    from sim.cli import bench as benchmark

    known = [c.name for c in benchmark.CASES]
    for name in case or []:
        if name not in known:
            raise InputError(f"--case: unknown case {name!r}: expected one of {', '.join(known)}")
    def line(r):  # each case as it finishes: a table row, or (with --json) a line on stderr
        text = (f"{r['case']:26} {r['games_per_s_per_core']:>13} {r['peak_rss_mb']:>8} "
                f"{r['games']:>7}  {r['rates']}")
        if "ms_per_decision" in r:  # the search cases: the cost of one decision
            text += f"  {r['ms_per_decision']} ms/decision"
        if "us_overhead_per_decision" in r:  # the py- cases: a Python seat's extra cost
            text += (f"  +{r['us_overhead_per_decision']} µs/decision from Python "
                     f"({r['decisions_per_game']} decisions a game)")
        typer.echo(text, err=as_json)

    from sim.engine.game import profile_guided

    chosen = benchmark.standard(case, everything)
    guided = "profile-guided" if profile_guided() else "not profile-guided (CARCSIM_PGO=0 or not GCC)"
    typer.echo(f"bench: {len(chosen)} cases, about {_minutes(benchmark.estimate_seconds(chosen, repeats, scale))}"
               + ("" if case or everything else " (the search cases too: --all)")
               + f"; the C core's build: {guided}", err=True)
    done = [0]

    def row(r):
        done[0] += 1
        line(r)
        left = chosen[done[0]:]
        if left:
            typer.echo(f"bench: {done[0]} of {len(chosen)} cases done, about "
                       f"{_minutes(benchmark.estimate_seconds(left, repeats, scale))} left", err=True)

    if not as_json:
        typer.echo(f"{'case':26} {'games/s/core':>13} {'peak MB':>8} {'games':>7}  batches (games/s)")
    rows = benchmark.run(case, repeats, scale, on_row=row, everything=everything)
    if as_json:
        keys = ("case", "games_per_s_per_core", "peak_rss_mb", "games", "ms_per_decision",
                "us_overhead_per_decision", "decisions_per_game")
        typer.echo(json.dumps([{k: r[k] for k in keys if k in r} | {"profile_guided": profile_guided()}
                               for r in rows]))


@app.command()
def tiles(source: str = typer.Argument("base", help="A shipped set (base, river, mayors, "
                                                   "courier, abbot) or a tile file path."),
          as_json: bool = typer.Option(False, "--json", help="Print the tile types as JSON.")) -> None:
    """Validate a tile set or file and print its tile types and counts."""
    from sim.formats.tiles import SETS, load_tile_file, tile_set

    if source not in SETS and os.sep not in source and not os.path.lexists(source):
        raise InputError(f"{source}: no such tile file, and no shipped set of that name: "
                         f"expected a path or one of {', '.join(SETS)}")
    types = tile_set(source) if source in SETS else load_tile_file(source)
    if as_json:
        typer.echo(json.dumps({"source": source, "tile_types": len(types),
                               "tiles": sum(t.count for t in types),
                               "types": [{"id": t.id, "count": t.count, "edges": t.edges,
                                          "segments": [s.kind for s in t.segments],
                                          "extras": list(t.extras), "line": t.line}
                                         for t in types]}))
        return
    for t in types:
        typer.echo(f"{t.id:6} x{t.count:<2} {t.edges}  {len(t.segments)} segments  "
                   f"{' '.join(t.extras)}".rstrip())
    typer.echo(f"{len(types)} tile types, {sum(t.count for t in types)} tiles")


@app.command()
def configs(as_json: bool = typer.Option(False, "--json", help="Print them as JSON.")) -> None:
    """List the shipped experiment configs (`carcsim run NAME`) with their questions."""
    from sim.tournament.config import load_experiment, shipped_configs

    rows = [{"name": name, "question": load_experiment(path).question, "path": str(path)}
            for name, path in shipped_configs().items()]
    if as_json:
        typer.echo(json.dumps(rows))
        return
    for r in rows:
        typer.echo(f"{r['name']:28} {r['question']}")


@app.command()
def strategies(
    action: str = typer.Argument("list", help="list (the default), or check SPEC: play SPEC "
                                              "over every combination of the rules"),
    spec: str = typer.Argument("", help="with check: the player, e.g. mystrat.py:Cautious(k=2)"),
    as_json: bool = typer.Option(False, "--json", help="Print them as JSON."),
    seed: int = typer.Option(0, "--seed", min=0, help="with check: the seed of the first game."),
) -> None:
    """List the registered strategies: the decisions each answers and its parameters;
    `strategies check SPEC` tries a player over every combination of the rules
    (docs/STRATEGIES.md)."""
    import strategies as registry

    if action == "check":
        _check_strategy(spec, seed, as_json)
        return
    if action != "list" or spec:
        raise InputError(f"strategies: {action!r}: expected list, or check SPEC")

    registry.make("first")  # loads the built-ins
    rows = [{"name": name, "about": " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split()),
             "decisions": list(getattr(cls, "KINDS", ())),
             "params": {k: t.__name__ for k, t in getattr(cls, "PARAMS", {}).items()}}
            for name, cls in sorted(registry.REGISTRY.items())]
    if as_json:
        typer.echo(json.dumps(rows))
        return
    for r in rows:
        params = ", ".join(f"{k}: {t}" for k, t in r["params"].items())
        typer.echo(f"{r['name']:14} {r['about']}\n{'':14} answers: {', '.join(r['decisions'])}"
                   + (f"\n{'':14} parameters: {params}" if params else ""))


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


def _check_strategy(spec: str, seed: int, as_json: bool) -> None:
    from sim.games import strategy_check

    if not spec:
        raise InputError("strategies check: expected a player, e.g. mystrat.py:Cautious")
    outcomes = strategy_check.check(spec, seed)
    if as_json:
        typer.echo(json.dumps([{"rules": o.label, "seed": o.seed, "decisions": o.decisions,
                                "seconds": o.seconds, "problem": o.problem} for o in outcomes]))
    else:
        for line in strategy_check.report(outcomes):
            typer.echo(line)
    if any(o.problem for o in outcomes):
        raise typer.Exit(1)


@app.command()
def check(
    games: int = typer.Option(300, "--games", help="How many seeded games."),
    expansions: str = typer.Option("all", "--expansions",
                                   help="Comma-separated expansions, 'base' for none, or 'all' to "
                                        "cycle through all 32 combinations."),
    players: str = typer.Option("2-6", "--players", help="Seats per game: 2..6, or a range such as 2-4 to cycle."),
    edition: str = typer.Option("both", "--edition", help="The Messages: c3.1, classic or both."),
    zmg: bool = typer.Option(False, "--zmg", help="Every other classic game with R-MSG-C4."),
    strategies: str = typer.Option("", "--strategies",
                                   help="Comma-separated strategies, cycled over the seats "
                                        "(default: the built-in mix of sim/games/differential.py)."),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the first game; the next ones count up."),
    out: str = typer.Option(".", "--out", help="Directory for a divergence's scripted game."),
    script: Optional[Path] = typer.Option(None, "--script", help="Check one scripted game instead."),
    tiles: list[str] = typer.Option([], "--tiles",
                                    help="SET=FILE: play tile set SET as the tile list in FILE, as a "
                                         "config's [rules.tiles] does (repeatable)."),
) -> int:
    """Play games in the production and the reference engine, comparing every decision."""
    from sim.games import differential

    _check_out(out)
    summary = differential.run_check(games, expansions, players, edition, zmg, strategies, seed,
                                     out, script, typer.echo,
                                     progress=lambda line: typer.echo(line, err=True), tiles=tiles)
    return 0 if summary.divergence is None else 1


_FULL = (errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO)  # a device that takes no more


def _fail(line: str, code: int) -> None:
    print(one_line(line), file=sys.stderr)  # one line, whatever a quoted path holds
    sys.exit(code)


def main() -> None:
    """Console entry point: turns bad input into one line and exit code 2 (README:
    errors and exit codes)."""
    # Ctrl-C (SIGINT) stops a run and keeps its finished shards, also when carcsim was
    # started with SIGINT ignored (a shell's background job, a test runner's worker):
    # Python installs its handler only over the default disposition
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        rv = app(prog_name="carcsim", standalone_mode=False)
    except InputError as e:
        _fail(f"carcsim: {e}", 2)
    except _UsageError as e:
        if type(e).__name__ == "NoArgsIsHelpError":  # the usage went to stdout already
            names = ", ".join(e.ctx.command.list_commands(e.ctx))
            _fail(f"carcsim: no command given: expected one of {names}", 2)
        where = f"{e.ctx.command_path}: " if e.ctx else "carcsim: "
        _fail(f"{where}{e.format_message()}", 2)
    except typer.Abort:
        sys.exit(130)
    except CoreError as e:  # a bug: the input should have been refused before reaching C
        _fail(f"carcsim: internal error, please report it: {e}", 3)
    except OSError as e:
        if e.errno in _FULL:
            # the output itself could not be written (`--json > /dev/full`): a sentence, and
            # stdout dropped so that Python's flush at exit does not fail a second time
            print(f"carcsim: cannot write the output: {e.strerror}", file=sys.stderr)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(2)
        if e.filename is None:
            raise
        # a path given that the system refuses (a name too long, a loop of links) where
        # no check stood before it: the path and the reason
        _fail(f"carcsim: {os.fsdecode(e.filename)}: {e.strerror}", 2)
    sys.exit(rv if isinstance(rv, int) else 0)
