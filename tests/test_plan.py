"""The plan: each distinct game once, seeds a function of (master seed, block) only."""

import polars as pl

from sim.tournament.config import parse_experiment
from sim.engine.rng import derive
from sim.tournament import plan
from sim.tournament.run import run_experiment

MIRROR = """
[run]
name = "mirror"
seed = 5
blocks = 6
shard_blocks = 3

[rules]
players = 2
expansions = ["messages"]

[design]
kind = "variants"
arms = [{name = "free", player = "greedy"},
        {name = "copy", player = "greedy"},
        {name = "no_extra_tile", player = 'greedy(extra_tile="2")'},
        {name = "spread", player = "greedy+scoring_figure=spread"}]
opponents = ["greedy"]
editions = ["c3.1", "classic"]
"""


def test_effective_spec_drops_actions_the_edition_lacks():
    assert plan.effective_spec('greedy(extra_tile="2")', "c3.1") == "greedy"
    assert plan.effective_spec('greedy(extra_tile="2")', "classic") == 'greedy(extra_tile="2")'
    assert plan.effective_spec('greedy(city=2.0,extra_turn="2")+scoring_figure=spread',
                               "classic") == "greedy(city=2.0)+scoring_figure=spread"


def test_mirror_design_plays_each_distinct_game_once(tmp_path):
    exp = parse_experiment(MIRROR, "mirror.toml")
    layout = [(s.edition, s.variant, s.rotation, s.focal) for s in plan.block_games(exp, 0)]
    # per edition: free is greedy vs greedy (one game, both seats focal); copy repeats free;
    # no_extra_tile is free in c3.1 (no message 4 extra tile there), its own arm in classic
    assert layout == [("c3.1", "free", 0, (0, 1)), ("c3.1", "spread", 0, (0,)),
                      ("c3.1", "spread", 1, (1,)),
                      ("classic", "free", 0, (0, 1)), ("classic", "no_extra_tile", 0, (0,)),
                      ("classic", "no_extra_tile", 1, (1,)), ("classic", "spread", 0, (0,)),
                      ("classic", "spread", 1, (1,))]
    run_experiment(exp, tmp_path / "out", workers=0)
    games = pl.read_parquet(str(tmp_path / "out" / "games" / "*.parquet"))
    players = pl.read_parquet(str(tmp_path / "out" / "players" / "*.parquet"))
    assert games.height == 6 * 8 and games["game_id"].n_unique() == 48
    seats = (players.sort("seat").group_by("game_id", maintain_order=True)
             .agg(pl.col("player")).join(games.select("game_id", "seed", "edition"), on="game_id"))
    keys = [(r["seed"], r["edition"], tuple(plan.effective_spec(p, r["edition"]) for p in r["player"]))
            for r in seats.iter_rows(named=True)]
    assert len(set(keys)) == len(keys)  # no two stored games share seed and seat specs
    free = players.join(games.select("game_id", "variant"), on="game_id").filter(
        pl.col("variant") == "free")
    assert free["focal"].all()  # the mirror game stands for both seat orders


def test_block_seeds_depend_on_seed_and_block_only():
    exp = parse_experiment(MIRROR, "mirror.toml")
    other = parse_experiment(MIRROR.replace("blocks = 6", "blocks = 40").replace(
        '{name = "copy", player = "greedy"},\n', ""), "other.toml")
    assert len(other.arms) == 3 and plan.games_per_block(other) == plan.games_per_block(exp)
    for b in range(6):
        want = derive(5, f"block{b}") >> 1
        assert {s.seed for s in plan.block_games(exp, b)} == {want}
        assert {s.seed for s in plan.block_games(other, b)} == {want}
    assert plan.game_spec(exp, 13) == plan.block_games(exp, 1)[5]
