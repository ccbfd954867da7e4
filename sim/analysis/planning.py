"""`carcsim plan CONFIG --half-width H`: how many blocks, and CPU-seconds, each headline
quantity of the config's question needs for a 95% interval of ±H.

The quantities are the report's headline rows (sim/analysis/report.py), computed from a
pilot at the report's unit, the block: seat 0's win share, each head-to-head win share,
each arm's win share minus the baseline's (paired by block), the counterfactual and
fork values in points of final margin and in win probability, the SPRT's block score.
For each, s is its between-block standard deviation in the pilot: se · √blocks, where
se is the report's standard error (the sd of the per-block values over √blocks; for
rows that are not one a block, such as forks, the block-clustered CR1 equivalent).
Under the normal approximation a run of n blocks has the half-width z · s / √n, so it
needs n = ceil((z · s / H)²) blocks, z = 1.960 for the report's 95% intervals (they use
Student-t with blocks − 1 degrees of freedom: a few blocks more when n is small).

The pilot is a stored run of the same rules and design (`--pilot RUN`; its seed and
blocks may differ), or a few blocks of the config played in this process. CPU-seconds
are n × the CPU time a block takes here (time.process_time over blocks played in this
process: the manifest records no time): one core's CPU, which workers share out.

Beside another run (`--beside RUN`): the quantities are `carcsim compare`'s, A − B
paired by block (sim/analysis/compare.py), and s is the sd of the per-block
differences over the blocks the pilot and RUN share. Blocks pair by seed, so the
config must have RUN's master seed (`run.seed`) and RUN's seats and expansions; a
config that has not is refused.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from sim import expansions
from sim.analysis import balance, compare, stats, sweep
from sim.analysis.balance import MESSAGE_FORK
from sim.analysis.fmt import edition_suffix as _edition
from sim.analysis.report import FORK_QUESTIONS
from sim.analysis.summary import load
from sim.tournament.config import Experiment, shown
from sim.tournament.manifest import RunError, tables_of
from sim.tournament.plan import games_per_block
from sim.tournament.shards import size_for
from sim.tournament.sequential import block_outcomes
from sim.tournament.sink import first_difference, read_manifest

LEVEL = 0.95  # the report's intervals
Z = stats.Z95  # the normal quantile of LEVEL, two-sided
PILOT_BLOCKS = 30  # blocks of the in-process pilot when no --pilot run is given
TIME_BLOCKS = 5  # blocks played in this process to time one, with a --pilot run
POINTS = "points"
SHARE, DIFFERENCE = 1, 2  # the width of the report's exact bound, in b (Quantity.exact)

ASSUMPTION = ("normal approximation: blocks needed = ceil((z·s/H)²), z = {z:.3f} for the "
              "report's 95% intervals (they use Student-t with blocks − 1 degrees of freedom: "
              "a few blocks more below about 30); s = the quantity's between-block standard "
              "deviation in the pilot, taken to be the run's; CPU-seconds = blocks × the CPU time "
              "a block took in this process (one core's CPU; workers divide the wall time, not "
              "the CPU-seconds)")


@dataclass(frozen=True)
class Quantity:
    """One headline quantity of a pilot: its question (the report's words), unit,
    estimate, between-block sd (0: no block differs; nan: too few blocks) and blocks."""

    question: str
    unit: str
    estimate: float
    sd: float
    blocks: int
    identical: bool = False  # the same player by behaviour: nothing to estimate
    # no block differed and the report gives the exact bound instead of the normal
    # interval: its width is `exact` × (1 − 0.025^(1/blocks)) (a share every block gave alike: 1, [c(1 − b), c + b(1 − c)];
    # a win-share difference: 2, [c − b(1 + c), c + b(1 − c)]); 0 when it gives none
    exact: float = 0


def _quantity(question: str, unit: str, est: stats.Estimate, exact: float = 0) -> Quantity:
    """A quantity from the report's estimate; `exact`: the width factor of its exact
    bound (stats.share_by_block: 1, stats.share_difference: 2), which the report takes
    when the estimate has no standard error (no block differs)."""
    return Quantity(question, unit, est.estimate, spread(est), est.n,
                    exact=exact if est.n and math.isnan(est.se) else 0)


def spread(est: stats.Estimate) -> float:
    """The between-block sd behind an estimate: se · √blocks. An exact bound (no block
    differs) has no se: 0; under two blocks: nan."""
    if est.n < 2 or est.se == math.inf:
        return math.nan
    return 0.0 if math.isnan(est.se) else est.se * math.sqrt(est.n)


def blocks_needed(sd: float, half_width: float, z: float = Z) -> int | None:
    """Blocks for a ±`half_width` interval on a mean whose per-block sd is `sd`:
    ceil((z·sd/half_width)²), and at least 2 (an interval over blocks has blocks − 1
    degrees of freedom); None when the pilot shows no spread (or too few blocks)."""
    if not math.isfinite(sd) or sd <= 0:
        return None
    return max(2, stats.sample_size_for_sd(half_width, sd, z))


# --- the headline quantities, per block --------------------------------------------------

def quantities(exp: Experiment, games: pl.DataFrame, players: pl.DataFrame,
               cf: pl.DataFrame | None = None) -> list[Quantity]:
    """The report's headline quantities of a pilot of `exp`, in the report's order; a
    sweep's per-value points first (the report's answers: its pooled rows mix rules)."""
    out = (_sweep_points(exp, games, players) + _seat(games, players)
           + _head_to_head(exp, games, players) + _tables(games, players))
    if exp.design == "variants":
        arms = balance.arm_effects(games, players)
        for r in arms.filter(pl.col("arm") != pl.col("baseline")).iter_rows(named=True):
            se = math.nan if r["d_win_share_se"] is None else r["d_win_share_se"]
            est = stats.Estimate(r["d_win_share"], se, 0, 0, 0, r["blocks"])
            out.append(_quantity(f"{r['arm']} − {r['baseline']}: win share{_edition(r['edition'])}",
                                 "win share", est, DIFFERENCE))
    if cf is not None and cf.height:
        out += _forks(cf, games) + _message_forks(cf, games)
    if exp.sprt:
        arm, baseline = exp.sprt[0], exp.sprt[1]
        scores = block_outcomes(games, players, arm, baseline or None)
        values = [scores[b] for b in sorted(scores)]
        est = stats.share_by_block(values, [1] * len(values))
        out.append(_quantity(f"SPRT {arm} vs {baseline or 'its opponents'}: block score",
                             "block score (0 to 1)", est, SHARE))
    return out


def _sweep_points(exp: Experiment, games: pl.DataFrame, players: pl.DataFrame) -> list[Quantity]:
    """A sweep's seat-0 win share at each swept value (and edition), as the report's
    sweep curve has it (sim/analysis/sweep.py: the mean over blocks of each block's mean
    over the value's games)."""
    if not exp.sweep:
        return []
    seat0 = players.filter(pl.col("seat") == 0).select("game_id", "win_share")
    per = (sweep.with_settings(games.select("game_id", "block"), sweep.settings_frame(exp))
           .join(seat0, on="game_id")
           .group_by("setting_edition", "value", "block").agg(pl.col("win_share").mean())
           .sort("setting_edition", "value", "block"))
    out = []
    for (edition, value), g in per.group_by("setting_edition", "value", maintain_order=True):
        est = stats.mean_estimate(g["win_share"].to_numpy())
        where = f", {edition}" if edition else ""
        out.append(_quantity(f"seat 0 win share, {exp.sweep[0]} = {value}{where}", "win share", est))
    return out


def _seat(games: pl.DataFrame, players: pl.DataFrame) -> list[Quantity]:
    p = players.filter(pl.col("seat") == 0).join(games.select("game_id", "players"), on="game_id")
    per = (p.group_by("players", "block").agg(pl.col("win_share").sum().alias("s"),
                                              pl.len().alias("c")).sort("players", "block"))
    out = []
    for (n,), g in per.group_by("players", maintain_order=True):
        est = stats.share_by_block(g["s"].to_numpy(), g["c"].to_numpy(), 1 / n)
        out.append(_quantity(f"seat 0 win share, {n} players", "win share", est, SHARE))
    return out


def _head_to_head(exp: Experiment, games: pl.DataFrame, players: pl.DataFrame) -> list[Quantity]:
    from sim import expansions

    pw = balance.pairwise(games, players, expansions.decision_kinds(exp.rules.expansions))
    if not pw.height:
        return []
    two = players.join(players.group_by("game_id").agg(pl.len().alias("n")), on="game_id").filter(
        pl.col("n") == 2)
    rows = (two.join(two.select("game_id", pl.col("seat").alias("os"),
                                pl.col("player").alias("opponent")), on="game_id")
            .filter((pl.col("seat") != pl.col("os")) & (pl.col("player") < pl.col("opponent"))))
    per = rows.group_by("player", "opponent", "block").agg(pl.col("win_share").sum().alias("s"),
                                                           pl.len().alias("c"))
    out = []
    for r in pw.filter(pl.col("player") < pl.col("opponent")).iter_rows(named=True):
        question = f"{r['player']} vs {r['opponent']}: win share"
        if r["identical"]:
            out.append(Quantity(question, "win share", math.nan, math.nan, r["blocks"], True))
            continue
        g = per.filter((pl.col("player") == r["player"]) & (pl.col("opponent") == r["opponent"]))
        est = stats.share_by_block(g["s"].to_numpy(), g["c"].to_numpy())
        out.append(_quantity(question, "win share", est, SHARE))
    return out


def _tables(games: pl.DataFrame, players: pl.DataFrame) -> list[Quantity]:
    """Tables of three or more with different strategies (report.py's answers): each
    strategy's win share against 1/players, each pair's share of finishing ahead."""
    p = players.join(games.select("game_id", "players"), on="game_id").filter(
        (pl.col("players") > 2) & (pl.col("player").n_unique().over("game_id") > 1))
    if not p.height:
        return []
    out = []
    per = p.group_by("players", "player", "block").agg(pl.col("win_share").sum().alias("s"),
                                                       pl.len().alias("c")).sort("players", "player", "block")
    for (n, spec), g in per.group_by("players", "player", maintain_order=True):
        est = stats.share_by_block(g["s"].to_numpy(), g["c"].to_numpy(), 1 / n)
        out.append(_quantity(f"{spec} win share, {n} players", "win share", est, SHARE))
    met = (p.join(p.select("game_id", pl.col("seat").alias("os"), pl.col("player").alias("opponent"),
                           pl.col("score").alias("oscore")), on="game_id")
           .filter((pl.col("seat") != pl.col("os")) & (pl.col("player") < pl.col("opponent"))))
    per = (met.group_by("players", "player", "opponent", "block").agg(balance.AHEAD.sum().alias("s"),
                                                                      pl.len().alias("c"))
           .sort("players", "player", "opponent", "block"))
    for (n, a, b), g in per.group_by("players", "player", "opponent", maintain_order=True):
        est = stats.share_by_block(g["s"].to_numpy(), g["c"].to_numpy())
        out.append(_quantity(f"{a} ahead of {b}, {n} players", "win share", est, SHARE))
    return out


def _fork_pair(question: str, edition: str, margin: stats.Estimate,
               win: stats.Estimate) -> list[Quantity]:
    return [_quantity(f"{question}: final margin{_edition(edition)}", POINTS, margin),
            _quantity(f"{question}: win probability{_edition(edition)}", "win share", win, DIFFERENCE)]


def _forks(cf: pl.DataFrame, games: pl.DataFrame) -> list[Quantity]:
    """The figure forks' overall values (sim/analysis/forks.py): fork rows clustered by block."""
    if "fork" not in cf.columns:
        return []
    out = []
    for kind, (question, _) in FORK_QUESTIONS.items():
        d = (cf.filter(pl.col("fork") == kind).join(games.select("game_id", "block"), on="game_id")
             .with_columns((pl.col("margin_action") - pl.col("margin_two")).alias("d_margin"),
                           (pl.col("win_action") - pl.col("win_two")).alias("d_win")))
        for (edition,), e in d.group_by("edition", maintain_order=True):
            blocks = e["block"].to_numpy()
            margin = stats.cluster_mean(e["d_margin"].to_numpy(), blocks)
            out += _fork_pair(question, edition, margin,
                              stats.share_difference(e["d_win"].to_numpy(), blocks))
    return out


def _message_forks(cf: pl.DataFrame, games: pl.DataFrame) -> list[Quantity]:
    """Each message action − 2 points (balance.counterfactual_values): block means."""
    if "fork" in cf.columns:
        cf = cf.filter(pl.col("fork").is_null() | (pl.col("fork") == MESSAGE_FORK))
    if cf.height == 0:
        return []
    two_m, two_w = pl.col("margin_two"), pl.col("win_two")
    if "margin_two_aligned" in cf.columns:  # extra tile/turn: the aligned 2-points branch
        two_m = pl.coalesce("margin_two_aligned", "margin_two")
        two_w = pl.coalesce("win_two_aligned", "win_two")
    per = (cf.join(games.select("game_id", "block"), on="game_id")
           .with_columns((pl.col("margin_action") - two_m).alias("d_margin"),
                         (pl.col("win_action") - two_w).alias("d_win"))
           .group_by("edition", "action", "block").agg(pl.col("d_margin").mean(),
                                                       pl.col("d_win").mean())
           .sort("edition", "action", "block"))
    out = []
    for (edition, action), g in per.group_by("edition", "action", maintain_order=True):
        out += _fork_pair(f"{action} − 2 points", edition, stats.mean_estimate(g["d_margin"]),
                          stats.share_difference(g["d_win"], g["block"]))
    return out


def _compare_unit(question: str) -> str:
    """The unit of a `carcsim compare` quantity, from its words (compare.block_values)."""
    for start, unit in (("win share: ", "win share"), ("mean score: ", POINTS),
                        ("message tiles drawn per game: ", "message tiles per game"),
                        ("game length", "tile placements"),
                        ("share of tied games", "share of games")):
        if question.startswith(start):
            return unit
    if ": win share" in question:
        return "win share"
    if " ahead of " in question:  # at tables of three or more: the share of meetings ahead
        return "share ahead"
    return POINTS if ": mean score" in question else ""


def beside_quantities(exp: Experiment, games: pl.DataFrame, players: pl.DataFrame,
                      other_games: pl.DataFrame, other_players: pl.DataFrame
                      ) -> tuple[list[Quantity], int, list[str]]:
    """`carcsim compare`'s quantities, A (a pilot of `exp`) − B (the other run), paired on
    the blocks both hold with the same seed: s is the sd of the per-block differences.
    Returns (quantities, common blocks, a note per run on the quantities only it has)."""
    # the message tiles drawn, where an expansion in play counts them (as compare does)
    messages = any("messages_drawn" in e.columns for e in expansions.in_play(exp.rules.expansions))
    by_edition = any(g["edition"].n_unique() > 1 for g in (games, other_games))
    common = (games.select("block", "seed").unique()
              .join(other_games.select("block", "seed").unique(), on=["block", "seed"])
              .select("block"))
    va, vb = (compare.block_values(g, p, messages, by_edition).join(common, on="block")
              for g, p in ((games, players), (other_games, other_players)))
    rows = []
    for (order, family, question, kind), _, est in compare.paired(va, vb):
        rows.append(((compare.FAMILIES.index(family), order, question),
                     _quantity(f"A − B: {question}", _compare_unit(question), est,
                               DIFFERENCE if kind == "share" else 0)))
    notes = []
    for name, v, w in (("A", va, vb), ("B", vb, va)):
        only = sorted(set(v["question"]) - set(w["question"]))
        if only:
            notes.append(f"note: only in {name}, not compared: {'; '.join(only[:4])}"
                         + (f"; ... ({len(only)} in all)" if len(only) > 4 else ""))
    return [q for _, q in sorted(rows, key=lambda r: r[0])], common.height, notes


# --- pilots -------------------------------------------------------------------------------

@dataclass
class Pilot:
    """A pilot's tables and where they came from (`run`: its directory, "" when played
    in this process)."""

    games: pl.DataFrame
    players: pl.DataFrame
    counterfactuals: pl.DataFrame | None
    run: str = ""
    # what its tables take on disk, as a run stores them (Parquet, zstd): per table
    # (bytes of a file's own, bytes a block) (stored_bytes), when played here
    disk: dict | None = None

    @property
    def blocks(self) -> int:
        return self.games["block"].n_unique()


def play_blocks(exp: Experiment, blocks: int) -> tuple[Pilot, float]:
    """Play blocks 0..blocks−1 of `exp` in this process: (the pilot, CPU-seconds they
    took). One block is played first, untimed, so that loading the strategies and the
    tile sets is not counted; then shards of the config's size, as a run plays them."""
    import pyarrow as pa

    from sim.tournament.worker import run_shard

    pilot = replace(exp, blocks=blocks)
    run_shard(pilot, range(0, 1))
    start = time.process_time()
    size = exp.shard_blocks or blocks  # an "auto" config: the pilot as one shard
    shards = [run_shard(pilot, range(b, min(b + size, blocks))) for b in range(0, blocks, size)]
    cpu = time.process_time() - start
    tables = {name: pa.concat_tables([s[name] for s in shards])
              for name in ("games", "players", "events", "counterfactuals")}
    frames = {name: pl.from_arrow(t) for name, t in tables.items()}
    cf = frames["counterfactuals"] if exp.design == "counterfactual" else None
    disk = stored_bytes({n: tables[n] for n in tables_of(exp)}, tables["games"]["block"].to_numpy())
    return Pilot(frames["games"], frames["players"], cf, disk=disk), cpu


def _parquet_bytes(table) -> int:
    import io

    import pyarrow.parquet as pq

    buf = io.BytesIO()
    pq.write_table(table, buf, compression="zstd")  # as the sink writes a shard
    return buf.tell()


def stored_bytes(tables: dict, game_blocks) -> dict:
    """Per table, (bytes a file takes of its own, bytes a block adds), from writing
    the tables of the first half of the blocks and then of all of them, as a run writes
    a shard: a run of S shards and B blocks then stores about S × own + B × per block
    of each table."""
    import numpy as np

    blocks = np.unique(game_blocks)
    half = blocks[:max(1, len(blocks) // 2)]
    first = tables["games"]["game_id"].to_numpy()[np.isin(game_blocks, half)]
    out = {}
    for name, t in tables.items():
        whole = _parquet_bytes(t)
        part = _parquet_bytes(t.filter(np.isin(t["game_id"].to_numpy(), first)))
        extra = len(blocks) - len(half)
        per = (whole - part) / extra if extra else whole / max(1, len(blocks))
        out[name] = (max(0.0, whole - per * len(blocks)), per)
    return out


def _read_run(run_dir: Path, option: str) -> dict:
    try:
        return read_manifest(run_dir)
    except RunError as e:
        raise RunError(f"{option}: {e}") from None


def load_pilot(run_dir: Path, exp: Experiment) -> Pilot:
    """A stored run of the same rules and design as `exp` (its seed, blocks, name may
    differ), as a pilot. RunError (one line naming `--pilot`) otherwise."""
    m = _read_run(run_dir, "--pilot")
    mine, theirs = exp.canonical(), m["config"]
    for key in ("rules", "design", "forks", "plugins"):
        d = first_difference(mine.get(key), theirs.get(key), key)
        if d:
            field, a, b = d
            raise RunError(f"--pilot {run_dir}: a run of another config: {field} = {shown(field, b)} "
                           f"there, {shown(field, a)} in {exp.path}: its blocks' spread is not this config's (a pilot "
                           f"has the same rules and design; its seed and blocks may differ)")
    pilot = Pilot(load(run_dir, "games"), load(run_dir, "players"),
                  load(run_dir, "counterfactuals") if "counterfactuals" in m["plan"]["tables"]
                  else None, str(run_dir))
    if pilot.blocks < 2:
        raise RunError(f"--pilot {run_dir}: {pilot.blocks} block stored: expected at least 2 "
                       f"to measure a spread between blocks")
    return pilot


def load_beside(run_dir: Path, exp: Experiment) -> Pilot:
    """The run a run of `exp` is to be compared with (`carcsim compare`): refused (one
    line naming `--beside`) unless it has `exp`'s master seed, seats and expansions, so
    that their blocks pair."""
    m = _read_run(run_dir, "--beside")
    cfg = m["config"]
    for key in compare.SAME_GAME:
        a, b = exp.canonical()["rules"].get(key), cfg["rules"].get(key)
        if (sorted(a) if isinstance(a, list) else a) != (sorted(b) if isinstance(b, list) else b):
            raise RunError(f"--beside {run_dir}: a run of another game: rules.{key} = {shown(key, b)} "
                           f"there, {shown(key, a)} in {exp.path}: `carcsim compare` pairs blocks of "
                           f"the same seats and tiles only")
    if cfg["seed"] != exp.seed:
        raise RunError(f"--beside {run_dir}: run.seed = {cfg['seed']} there, {exp.seed} in "
                       f"{exp.path}: blocks pair by seed, so `carcsim compare` would find no "
                       f"common block: give {exp.path} run.seed = {cfg['seed']}")
    return Pilot(load(run_dir, "games"), load(run_dir, "players"), None, str(run_dir))


# --- the plan -----------------------------------------------------------------------------

def make_plan(exp: Experiment, half_width: float, half_width_points: float | None = None,
              pilot_run: Path | None = None, pilot_blocks: int = PILOT_BLOCKS,
              time_blocks: int = TIME_BLOCKS, beside: Path | None = None,
              say=lambda line: None) -> dict:
    """Blocks and CPU-seconds per headline quantity of `exp` for ±`half_width` (in each
    quantity's unit; quantities in points: ±`half_width_points`, and without it they
    are shown, not planned: a share's half-width is no number of points).
    RunError (one line) for a pilot or a `beside` run that does not fit `exp`."""
    points = half_width_points
    other = load_beside(beside, exp) if beside is not None else None
    if pilot_run is not None:  # every check before any game is played
        pilot = load_pilot(pilot_run, exp)
        qs, of, notes = _quantities_of(exp, pilot, other, beside)
        say(f"plan: timing {time_blocks} block{'' if time_blocks == 1 else 's'} of {exp.path} "
            f"in this process")
        timing, cpu = play_blocks(exp, time_blocks)
        disk = timing.disk
        timed = time_blocks
    else:
        say(f"plan: playing a {pilot_blocks}-block pilot of {exp.path} in this process")
        pilot, cpu = play_blocks(exp, pilot_blocks)
        disk = pilot.disk
        timed = pilot_blocks
        qs, of, notes = _quantities_of(exp, pilot, other, beside)
    per_block = cpu / timed
    # a quantity some blocks lack (a message action never drawn there, a fork never
    # reached): the report averages the blocks that hold it, so a run needs its blocks
    # over the share of blocks holding it (`of`: the pilot's blocks, or those it shares
    # with the other run)
    rows = []
    for q in qs:
        h = points if q.unit == POINTS else half_width
        holding = None if q.identical or h is None else blocks_needed(q.sd, h)
        method = None if holding is None else "normal"
        if holding is None and h is not None and q.exact and q.sd == 0:
            holding, method = stats.blocks_for_bound(h, q.exact), "exact bound"
        share = min(1.0, q.blocks / of) if of else 1.0
        n = None if holding is None else math.ceil(holding / share - 1e-9)
        rows.append({"question": q.question, "unit": q.unit, "estimate": _num(q.estimate),
                     "sd": _num(q.sd), "pilot_blocks": q.blocks, "pilot_blocks_of": of,
                     "half_width": h, "blocks_holding_it": holding, "blocks_needed": n,
                     "method": method, "cpu_seconds": None if n is None else n * per_block,
                     "config_half_width": (None if q.identical or not math.isfinite(q.sd) else
                                           Z * q.sd / math.sqrt(exp.blocks * share)),
                     "identical": q.identical})
    return {"config": exp.path, "question": exp.question, "config_blocks": exp.blocks,
            "half_width": half_width, "half_width_points": points, "level": LEVEL, "z": Z,
            "pilot": {"run": pilot.run or None, "blocks": pilot.blocks,
                      "played_here": not pilot.run},
            "cpu": {"blocks_timed": timed, "seconds": cpu, "per_block": per_block},
            "beside": None if other is None else {"run": other.run, "blocks": other.blocks,
                                                  "seed": exp.seed},
            "whole": whole_run(exp, per_block, disk),
            "quantities": rows, "notes": notes, "assumption": ASSUMPTION.format(z=Z)}


def whole_run(exp: Experiment, per_block: float, disk: dict) -> dict:
    """The config as written: its blocks, games and shards, the CPU-seconds they take at
    the pilot's rate (one core's: W worker cores divide the hours, not the CPU time),
    and the bytes its shards write (each table: a file's own bytes per shard plus its
    bytes a block, measured on the pilot)."""
    size = exp.shard_blocks or size_for(exp, per_block, 1)  # "auto": a minute of one core
    n = -(-exp.blocks // size)
    stored = sum(own * n + per * exp.blocks for own, per in disk.values())
    return {"blocks": exp.blocks, "games": exp.blocks * games_per_block(exp), "shards": n,
            "shard_blocks": size, "auto": not exp.shard_blocks,
            "cpu_seconds": per_block * exp.blocks, "bytes": stored,
            "bytes_per_game": stored / max(1, exp.blocks * games_per_block(exp))}


def _quantities_of(exp: Experiment, pilot: Pilot, other: Pilot | None,
                   beside: Path | None) -> tuple[list[Quantity], int, list[str]]:
    """(quantities, the blocks they are counted in, notes) of a pilot, alone or beside
    the other run; RunError when the two share under 2 blocks."""
    if other is None:
        return quantities(exp, pilot.games, pilot.players, pilot.counterfactuals), pilot.blocks, []
    qs, common, notes = beside_quantities(exp, pilot.games, pilot.players, other.games,
                                          other.players)
    if common < 2:
        raise RunError(f"--beside {beside}: {common} blocks in common with the pilot "
                       f"({pilot.run or 'played here'}; blocks pair by seed): expected at least 2 "
                       f"to measure a spread of the paired differences")
    return qs, common, notes


def _num(v):
    return None if v is None or not math.isfinite(v) else float(v)


def _blocks(n: int) -> str:
    return f"{n:,} block{'' if n == 1 else 's'}"


def _fmt(v) -> str:
    return "—" if v is None else f"{v:.3g}"


def _cpu(seconds: float) -> str:
    text = f"{seconds:,.1f} CPU-s" if seconds < 100 else f"{seconds:,.0f} CPU-s"
    return text + (f" ({seconds / 3600:,.1f} CPU-h)" if seconds >= 3600 else "")


def _size(n: float) -> str:
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}"
    return f"{n:,.0f} bytes"


def _line(r: dict, config_blocks: int) -> str:
    head = f"{r['question']} [{r['unit']}]"
    if r["identical"]:
        return f"{head}: identical by construction (the same player by behaviour): nothing to plan"
    if r["sd"] is None:
        n = r["pilot_blocks"]
        return (f"{head}: in {n} pilot block{'' if n == 1 else 's'}: too few to measure a "
                f"spread; play a larger pilot")
    s = f"s = {r['sd']:.3g} {r['unit']} a block over {r['pilot_blocks']} pilot blocks"
    if r["pilot_blocks"] < r["pilot_blocks_of"]:
        s += f" (of {r['pilot_blocks_of']}: the others do not hold it)"
    if r["half_width"] is None:
        option = "--half-width-points" if r["unit"] == POINTS else "--half-width"
        return (f"{head}: {s}; the config's {config_blocks:,} blocks give ±"
                f"{r['config_half_width']:.2g} {r['unit']} ({option} H plans it)")
    if r["blocks_needed"] is None:
        return f"{head}: {s}: no block differs, so no spread to plan with; play a larger pilot"
    needs = (_blocks(r["blocks_needed"]) if r["blocks_holding_it"] == r["blocks_needed"] else
             f"{_blocks(r['blocks_holding_it'])} holding it, so about {_blocks(r['blocks_needed'])}")
    if r["method"] == "exact bound":
        return (f"{head}: {s} (every block {_fmt(r['estimate'])}): if none differs in the run "
                f"either, the report's exact bound (not the normal interval) is at most "
                f"{2 * r['half_width']:g} {r['unit']} wide (±{r['half_width']:g}) after {needs}, "
                f"{_cpu(r['cpu_seconds'])}")
    return (f"{head}: {s}; ±{r['half_width']:g} {r['unit']} needs {needs}, "
            f"{_cpu(r['cpu_seconds'])} (the config's {config_blocks:,} blocks give "
            f"±{r['config_half_width']:.2g})")


def render_text(p: dict) -> str:
    """The plan as the terminal shows it: one line per quantity, the assumption, and
    where comparisons go."""
    h, hp = p["half_width"], p["half_width_points"]
    if h is None:
        wanted = f"±{hp:g} for points (shares: not planned without --half-width)"
    else:
        wanted = f"±{h:g} in each quantity's unit" + (
            f" (±{hp:g} for points)" if hp is not None else
            " (points: not planned without --half-width-points)"
            if any(r["unit"] == POINTS for r in p["quantities"]) else "")
    lines = [f"plan {p['config']}: {100 * p['level']:.0f}% intervals of {wanted}, the block as "
             f"the unit"]
    if p["question"]:
        lines.append(f"question: {p['question']}")
    cpu = p["cpu"]
    timing = (f"{cpu['seconds']:.3g} CPU-s for {_blocks(cpu['blocks_timed'])}, "
              f"{cpu['per_block']:.4g} CPU-s a block")
    if p["pilot"]["played_here"]:
        lines.append(f"pilot: {p['pilot']['blocks']} blocks of the config played in this process "
                     f"(no --pilot run given; --pilot-blocks to change): {timing}")
    else:
        lines.append(f"pilot: {p['pilot']['run']}, {p['pilot']['blocks']} blocks stored (their "
                     f"spread); CPU time: {_blocks(cpu['blocks_timed'])} of the config played in "
                     f"this process, {timing}")
    if p["beside"]:
        b = p["beside"]
        lines.append(f"beside {b['run']} (run.seed {b['seed']}, {b['blocks']} blocks): A = a run "
                     f"of this config, B = it, A − B paired by block as `carcsim compare A "
                     f"{b['run']}` gives it")
    w = p["whole"]
    auto = (f" (shard_blocks = auto: {w['shard_blocks']:,} blocks, about a minute each at the "
            f"pilot's rate; fewer on many workers when the run is small)" if w["auto"] else "")
    lines.append(f"the config as written: {_blocks(w['blocks'])}, {w['games']:,} games in "
                 f"{w['shards']:,} shards{auto}: about {_cpu(w['cpu_seconds'])} at the pilot's rate, so "
                 f"{w['cpu_seconds'] / 3600:,.2g} h on one worker core ({w['cpu_seconds'] / 3600 / 2:,.2g} "
                 f"h on 2, {w['cpu_seconds'] / 3600 / 200:,.2g} h on 200), and about "
                 f"{_size(w['bytes'])} of Parquet written ({w['bytes_per_game']:,.0f} bytes a game)")
    lines += [_line(r, p["config_blocks"]) for r in p["quantities"]]
    lines += p["notes"]
    lines.append(f"assumption: {p['assumption']}")
    if p["beside"]:
        needed = max((r["blocks_needed"] or 0 for r in p["quantities"]), default=0)
        if needed > p["beside"]["blocks"]:
            lines.append(f"note: the comparison pairs only the blocks both runs hold: "
                         f"{p['beside']['run']} has {p['beside']['blocks']:,}; for {needed:,} "
                         f"extend it too (its config with run.blocks = {needed:,}, the same "
                         f"command)")
    else:
        lines.append("beside another run: keep its run.seed (and its seats and expansions) so "
                     "the blocks pair, then `carcsim compare NEW OLD` gives NEW − OLD paired by "
                     "block; `carcsim plan CONFIG --beside OLD` plans that difference")
    return "\n".join(lines)
