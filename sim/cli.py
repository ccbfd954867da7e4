"""The `carcsim` command line (typer). Bad input: one line on stderr, exit code 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from sim.errors import InputError

# typer ships its own click; its UsageError is the public BadParameter's base class
_UsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True,
                  help="carcsim: seeded Carcassonne games and tournaments.")


def _pictures(game, svg: Optional[Path], turn: Optional[int], page: Optional[Path], title: str) -> None:
    """Write the board SVG (after `turn`, or at the end) and/or the step-through page."""
    from sim import render

    if turn is not None and not 0 <= turn <= render.turns_of(game):
        raise InputError(f"--turn {turn}: expected 0..{render.turns_of(game)} (the game's placements)")
    for path, text in ((svg, lambda: render.board_svg(
            game if turn is None else game.replayed(turn),
            "end of game" if turn is None else f"after turn {turn}")),
            (page, lambda: render.step_through_html(game, title))):
        if path is None:
            continue
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text())
        tmp.replace(path)


def _emit(game, as_json: bool) -> None:
    from sim.log import format_log

    if as_json:
        out = game.result()
        out["events"] = game.events
        typer.echo(json.dumps(out))
    else:
        typer.echo(format_log(game.events))


@app.command()
def play(
    script: Optional[Path] = typer.Option(None, "--script", help="Play a scripted game (TOML)."),
    seed: int = typer.Option(0, "--seed", help="Seed of a seeded game."),
    players: str = typer.Option("random,random", "--players",
                                help="Comma-separated strategies, one per seat, e.g. "
                                     "'greedy(city=2.0),random'."),
    expansions: str = typer.Option("", "--expansions",
                                   help="Comma-separated expansions of a seeded game, e.g. 'messages'."),
    edition: str = typer.Option("c3.1", "--edition", help="The Messages' rules: c3.1 or classic."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Draw the board to this SVG file."),
    turn: Optional[int] = typer.Option(None, "--turn", help="Draw the board after this turn."),
    page: Optional[Path] = typer.Option(None, "--html", help="Write a step-through page (slider)."),
) -> None:
    """Play one game, scripted or seeded, and print its log or JSON result."""
    from sim.play import play_seeded
    from sim.rules import Rules
    from sim.script import load_script, play_script
    from sim.text import split_top
    from strategies import player

    if script is not None:
        game = play_script(load_script(script))
    else:
        from sim.messages import MessagesOptions

        seats = [player(p.strip(), "--players") for p in split_top(players, ",")]
        if not 2 <= len(seats) <= 6:
            raise InputError(f"--players: {len(seats)} strategies given: expected 2..6")
        chosen = tuple(e.strip() for e in expansions.split(",") if e.strip())
        try:
            rules = Rules(players=len(seats), expansions=chosen,
                          messages=MessagesOptions(edition=edition))
        except InputError as e:
            raise InputError(f"--expansions/--edition: {e}") from None
        game = play_seeded(rules, seed, seats)
    _pictures(game, svg, turn, page, f"carcsim game: {script or f'seed {seed}'}")
    _emit(game, as_json)


@app.command()
def run(
    config: Path = typer.Argument(..., help="Experiment config (TOML)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Output directory (default: run.out)."),
    workers: Optional[int] = typer.Option(None, "--workers", min=0,
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
) -> None:
    """Run, resume or extend (more blocks) an experiment: Parquet tables and a manifest
    in the output directory."""
    if force and repair:
        raise InputError("--force starts over, --repair keeps the verified shards: give one")
    try:
        from sim.config import load_experiment
        from sim.tournament.run import run_experiment

        exp = load_experiment(config)
        s = run_experiment(exp, out, workers, address, force, progress=not quiet, repair=repair,
                           connect_timeout=connect_timeout)
    except KeyboardInterrupt:  # while loading, connecting or opening the directory
        typer.echo("interrupted: nothing was played", err=True)
        raise typer.Exit(130) from None
    rate = s.games / s.seconds if s.seconds else 0.0
    typer.echo(f"{s.out}: {s.shards_run} shards run, {s.shards_skipped} already done, "
               f"{s.games} games in {s.seconds:.1f} s ({rate:.0f} games/s)")
    if s.sprt:
        d = s.sprt
        typer.echo(f"SPRT: {d['decision']} after {d['blocks']} blocks (LLR {d['llr']:.3f}, bounds "
                   f"{d['lower']:.3f} / {d['upper']:.3f}); the run stops there")
    if not s.interrupted and not quiet:
        from sim.analysis.summary import by_player, format_table, load

        typer.echo(format_table(by_player(load(s.out, "players"))))
    if s.interrupted:
        typer.echo("interrupted: finished shards are kept; run the same command to resume",
                   err=True)
        raise typer.Exit(130)


@app.command()
def report(
    run_dir: Path = typer.Argument(..., help="A run's output directory."),
    as_json: bool = typer.Option(False, "--json", help="Print the headline table as JSON."),
    html_path: Optional[Path] = typer.Option(None, "--html",
                                             help="Where to write the HTML (default RUN_DIR/report.html)."),
) -> None:
    """Answers with error bars: a terminal summary and one self-contained HTML file."""
    from sim.analysis.report import build, render_html, render_text

    rep = build(run_dir)
    if as_json:
        typer.echo(json.dumps(rep["headline"]))
        return
    target = html_path or Path(run_dir) / "report.html"
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(render_html(rep))
    tmp.replace(target)
    typer.echo(render_text(rep))
    typer.echo(f"report: {target}")


@app.command()
def validate(config: Path = typer.Argument(..., help="Experiment config (TOML).")) -> None:
    """Check an experiment config and print its plan, without playing."""
    from sim.config import load_experiment
    from sim.tournament import plan

    from sim.tournament.manifest import check_limits

    exp = load_experiment(config)
    check_limits(exp)
    per = plan.games_per_block(exp)
    shards = -(-exp.blocks // exp.shard_blocks)  # counted, not listed: blocks may be huge
    typer.echo(f"{config}: ok: {exp.design} design, {exp.blocks} blocks × {per} games = "
               f"{exp.blocks * per} games in {shards} shards")


@app.command()
def replay(
    run_dir: Path = typer.Argument(..., help="A run's output directory."),
    game_id: int = typer.Argument(..., help="The game's id (games.game_id)."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Draw the board to this SVG file."),
    turn: Optional[int] = typer.Option(None, "--turn", help="Draw the board after this turn."),
    page: Optional[Path] = typer.Option(None, "--html", help="Write a step-through page (slider)."),
) -> None:
    """Recompute one stored game from its seed and config, print its log, and check it
    equals the stored rows."""
    from sim.log import format_log
    from sim.tournament.replay import replay_game

    game, problems = replay_game(run_dir, game_id)
    _pictures(game, svg, turn, page, f"carcsim game {game_id} of {run_dir}")
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
    repeats: int = typer.Option(5, "--repeats", min=1, help="Batches per case; the median is reported."),
    scale: float = typer.Option(1.0, "--scale", min=0.001, help="Multiply every case's batch size."),
) -> None:
    """Games per second per core and peak memory for the standard cases."""
    from sim import bench as benchmark

    known = [c.name for c in benchmark.CASES]
    for name in case or []:
        if name not in known:
            raise InputError(f"--case: unknown case {name!r}: expected one of {', '.join(known)}")
    def line(r):  # each case as it finishes: a table row, or (with --json) a line on stderr
        text = (f"{r['case']:26} {r['games_per_s_per_core']:>13} {r['peak_rss_mb']:>8} "
                f"{r['games']:>7}  {r['rates']}")
        typer.echo(text, err=as_json)

    if not as_json:
        typer.echo(f"{'case':26} {'games/s/core':>13} {'peak MB':>8} {'games':>7}  batches (games/s)")
    rows = benchmark.run(case, repeats, scale, on_row=line)
    if as_json:
        typer.echo(json.dumps([{k: r[k] for k in ("case", "games_per_s_per_core", "peak_rss_mb", "games")}
                               for r in rows]))


@app.command()
def tiles(source: str = typer.Argument("base", help="A shipped set (base, river, mayors, "
                                                   "courier) or a tile file path.")) -> None:
    """Validate a tile set or file and print its tile types and counts."""
    from sim.tiles import SETS, load_tile_file, tile_set

    types = tile_set(source) if source in SETS else load_tile_file(source)
    for t in types:
        typer.echo(f"{t.id:6} x{t.count:<2} {t.edges}  {len(t.segments)} segments  "
                   f"{' '.join(t.extras)}".rstrip())
    typer.echo(f"{len(types)} tile types, {sum(t.count for t in types)} tiles")


@app.command()
def strategies() -> None:
    """List the registered strategies."""
    import strategies as registry

    registry.make("first")  # loads the built-ins
    for name, cls in sorted(registry.REGISTRY.items()):
        doc = (cls.__doc__ or "").strip().splitlines()[0]
        typer.echo(f"{name:12} {doc}")


def main() -> None:
    """Console entry point: turns bad input into one line and exit code 2."""
    try:
        rv = app(standalone_mode=False)
    except InputError as e:
        print(f"carcsim: {e}", file=sys.stderr)
        sys.exit(2)
    except _UsageError as e:
        where = f"{e.ctx.command_path}: " if e.ctx else ""
        print(f"{where}{e.format_message()}", file=sys.stderr)
        sys.exit(2)
    except typer.Abort:
        sys.exit(130)
    sys.exit(rv if isinstance(rv, int) else 0)
