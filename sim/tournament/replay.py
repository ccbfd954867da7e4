"""Replaying a stored game from its run's manifest and checking it against the rows."""

from __future__ import annotations

from pathlib import Path

import pyarrow.dataset as ds

from strategies import plugins
from sim.errors import InputError
from sim.engine.game import Game
from sim.engine.play import play
from sim.tournament import plan
from sim.tournament.counterfactual import play_with_branches
from sim.tournament.records import player_row
from sim.tournament.config import parse_experiment
from sim.tournament.manifest import config_label, stored_tiles
from sim.tournament.sink import read_manifest
from sim.tournament.worker import _player


def replay_game(run_dir: str | Path, game_id: int) -> tuple[Game, list[str]]:
    """(the recomputed game with its events, differences from the stored rows)."""
    manifest = read_manifest(run_dir)
    recorded = manifest["config"].get("plugins", {}) if isinstance(manifest.get("config"), dict) else {}
    plugins.check_unchanged(recorded if isinstance(recorded, dict) else {}, f"{run_dir}/manifest.json")
    # parsed as the run was (its name, its tile lists), its strategy files loaded to play
    label = config_label(manifest)
    try:
        exp = parse_experiment(manifest["config_text"], label, tile_texts=stored_tiles(manifest))
    except InputError as e:
        raise InputError(str(e).replace(label, f"{run_dir}/manifest.json", 1)) from None
    try:
        spec = plan.game_spec(exp, game_id)
    except ValueError as e:
        raise InputError(f"game id {game_id}: {e}") from None
    g = Game(spec.rules, spec.seed)
    seats = [_player(s) for s in spec.seats]
    if exp.design == "counterfactual":
        play_with_branches(g, seats, exp.rollouts, exp.forks)  # branches work on clones
    else:
        play(g, seats)
    stored = ds.dataset(Path(run_dir) / "players", format="parquet").to_table(
        filter=ds.field("game_id") == game_id).to_pylist()
    if not stored:
        raise InputError(f"{run_dir}: game {game_id} is planned but not stored yet (resume the run)")
    res = g.result()
    # a run written before schema 5 stores no run_id, block or variant: only the
    # stored columns are compared
    fresh = [player_row(game_id, spec.seats[p["seat"]], p["seat"] in spec.focal, p, res["winners"],
                        run_id=exp.run_id(), block=spec.block, variant=spec.variant)
             for p in res["players"]]
    problems = []
    for want, got in zip(sorted(stored, key=lambda r: r["seat"]), fresh):
        for k, v in want.items():
            if got[k] != v:
                problems.append(f"seat {want['seat']} {k}: stored {v!r}, replayed {got[k]!r}")
    return g, problems
