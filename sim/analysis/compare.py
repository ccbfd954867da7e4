"""`carcsim compare RUN_A RUN_B`: the headline quantities of two runs, A − B, paired by
block.

Two runs of the same game (the same number of players and expansions, so the same
tiles for the same seed) are paired on their common blocks: the blocks both stored with the same seed
(the same `run.seed` gives every block the same seed). Each quantity is computed per
block in each run (the mean over the block's rows: the designs are balanced, so it is
the report's estimate too), and its difference A − B is the mean of the per-block
differences over the common blocks, with a Student-t interval over blocks
(stats.paired_difference); a win share's difference d takes the score interval of the
share (1 + d)/2 at its effective trials, and one whose every block differs alike (not
at all, or by a whole win) gets the exact bound instead of a zero-width interval
(stats.share_difference).

The quantities (`block_values`): each player spec's win share, mean score and (with The
Messages) message tiles drawn per game; each seat's win share and mean score; in
2-player games each head-to-head pair's win share; in variants designs each arm's win
share and score minus the baseline arm's (the report's arm effects); each game's length
in tile placements and the share of tied games. When a run plays more than one
edition, every quantity is per edition. A quantity only one run has (a player spec the
other does not seat) is listed by name, not compared.

Runs of different player counts or expansions are refused (their blocks share no
tiles), and
so are runs with no common block. Other differences of the rules (an edition, a
follower count) are what a comparison may be for: they are stated above the table.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from sim import expansions
from sim.analysis import stats
from sim.analysis.balance import AHEAD
from sim.analysis.fmt import fmt_interval, fmt_p
from sim.analysis.scan import KEYS, Batch, batches
from sim.tournament import manifest as mf
from sim.tournament.config import shown
from sim.tournament.manifest import RunError
from sim.tournament.sink import read_manifest

# the rules that decide a block's tiles and seats: runs differing in them share no game
SAME_GAME = ("players", "expansions")  # the rules that make a block's seats and tile sets
FAMILIES = ("players", "seats", "head-to-head", "arms", "games")

NOTE = ("A − B, paired by block: each block's value in A minus its value in B, over the "
        "blocks both runs stored with the same seed; Student-t 95% intervals over blocks "
        "(blocks − 1 degrees of freedom); a win share's difference d the score interval of "
        "(1 + d)/2 at its effective trials, or where every block differs alike (not at all, "
        "or by a whole win) the exact bound; q is the "
        "Benjamini–Hochberg adjustment over every row.")


def paired(va: pl.DataFrame, vb: pl.DataFrame):
    """Each quantity both block tables hold, A − B paired by block: yields ((order,
    family, question, kind), its joined rows sorted by block (value, value_b, games,
    games_b), the estimate: a share difference for a win share, else a paired mean)."""
    joined = va.join(vb.select("question", "block", "value", "games"),
                     on=["question", "block"], suffix="_b")
    for key, q in joined.group_by("order", "family", "question", "kind"):
        q = q.sort("block")
        x, y = q["value"].to_numpy(), q["value_b"].to_numpy()
        est = (stats.share_difference(x - y, q["block"].to_numpy()) if key[3] == "share"
               else stats.paired_difference(x, y))
        yield key, q, est


def block_values(games: pl.DataFrame, players: pl.DataFrame, messages: bool,
                 by_edition: bool, base: str | None = None) -> pl.DataFrame:
    """Every quantity of one run (or of some of its whole blocks), per block: family,
    question, kind ("share": a win share, "mean": anything else), block, value, games,
    and `order` (the order the comparison lists them in). `base`: the baseline arm (the
    run's first game's variant; by default the first of `games`)."""
    g = games.select("game_id", "block", "edition", "variant", "turns",
                     (pl.col("winners").list.len() > 1).cast(pl.Float64).alias("tie"))
    p = players.drop([c for c in KEYS if c in players.columns]).join(g, on="game_id")
    suffix = (pl.lit(" (") + pl.col("edition") + pl.lit(")")) if by_edition else pl.lit("")
    frames = []

    def add(frame: pl.DataFrame, family: str, kind: str, label: pl.Expr, value: str) -> None:
        frames.append(frame.select(pl.lit(family).alias("family"),
                                   (label + suffix).alias("question"), pl.lit(kind).alias("kind"),
                                   pl.col("block"), pl.col(value).cast(pl.Float64).alias("value"),
                                   pl.col("games").cast(pl.Int64),
                                   pl.lit(len(frames)).alias("order")))

    per = p.group_by("edition", "player", "block").agg(
        pl.col("win_share").mean(), pl.col("score").mean(), pl.col("messages_drawn").mean(),
        pl.col("game_id").n_unique().alias("games"))
    add(per, "players", "share", pl.lit("win share: ") + pl.col("player"), "win_share")
    add(per, "players", "mean", pl.lit("mean score: ") + pl.col("player"), "score")
    if messages:
        add(per, "players", "mean", pl.lit("message tiles drawn per game: ") + pl.col("player"),
            "messages_drawn")

    seat = p.group_by("edition", "seat", "block").agg(
        pl.col("win_share").mean(), pl.col("score").mean(),
        pl.col("game_id").n_unique().alias("games"))
    label = pl.lit("seat ") + pl.col("seat").cast(pl.String)
    add(seat, "seats", "share", label + pl.lit(": win share"), "win_share")
    add(seat, "seats", "mean", label + pl.lit(": mean score"), "score")

    seats = p.group_by("game_id").agg(pl.len().alias("n"))
    two = p.join(seats.filter(pl.col("n") == 2), on="game_id")
    pairs = (two.join(two.select("game_id", pl.col("seat").alias("os"),
                                 pl.col("player").alias("opponent")), on="game_id")
             .filter((pl.col("seat") != pl.col("os")) & (pl.col("player") < pl.col("opponent"))))
    if pairs.height:
        h2h = pairs.group_by("edition", "player", "opponent", "block").agg(
            pl.col("win_share").mean(), pl.col("game_id").n_unique().alias("games"))
        add(h2h, "head-to-head", "share",
            pl.col("player") + pl.lit(" vs ") + pl.col("opponent") + pl.lit(": win share"),
            "win_share")
    # three or more at a table: each pair's share of finishing ahead (report.py's `ahead`)
    many = p.join(seats.filter(pl.col("n") > 2), on="game_id")
    met = (many.join(many.select("game_id", pl.col("seat").alias("os"), pl.col("player").alias("opponent"),
                                 pl.col("score").alias("oscore")), on="game_id")
           .filter((pl.col("seat") != pl.col("os")) & (pl.col("player") < pl.col("opponent"))))
    if met.height:
        per_pair = met.group_by("edition", "player", "opponent", "block").agg(
            AHEAD.mean().alias("ahead"), pl.col("game_id").n_unique().alias("games"))
        add(per_pair, "head-to-head", "share",
            pl.col("player") + pl.lit(" ahead of ") + pl.col("opponent"), "ahead")

    focal = p.filter(pl.col("focal") & (pl.col("variant") != ""))
    if focal.height:
        arms = focal.group_by("edition", "variant", "block").agg(
            pl.col("win_share").mean(), pl.col("score").mean(),
            pl.col("game_id").n_unique().alias("games"))
        base = base or games["variant"][0]  # the first arm (balance.ArmEffects)
        d = (arms.filter(pl.col("variant") != base)
             .join(arms.filter(pl.col("variant") == base), on=["edition", "block"], suffix="_base")
             .with_columns((pl.col("win_share") - pl.col("win_share_base")).alias("d_win"),
                           (pl.col("score") - pl.col("score_base")).alias("d_score"),
                           (pl.col("games") + pl.col("games_base")).alias("games")))
        label = pl.col("variant") + pl.lit(f" − {base}: ")
        add(d, "arms", "mean", label + pl.lit("win share"), "d_win")
        add(d, "arms", "mean", label + pl.lit("mean score"), "d_score")

    per_game = g.group_by("edition", "block").agg(
        pl.col("turns").mean(), pl.col("tie").mean(), pl.len().alias("games"))
    add(per_game, "games", "mean", pl.lit("game length (tile placements)"), "turns")
    add(per_game, "games", "share", pl.lit("share of tied games"), "tie")
    return pl.concat(frames)


class BlockValues:
    """`block_values` of a run, batch by batch of the report's pass (sim/analysis/scan.py):
    kept per block (O(blocks × quantities)), since A − B pairs the blocks of two runs;
    with each block's seed and the blocks stored."""

    def __init__(self, messages: bool, by_edition: bool):
        # messages: whether an expansion in play counts message tiles drawn
        self.drawn, self.by_edition = messages, by_edition
        self.base: str | None = None
        self.parts, self.seeds, self.blocks = [], [], 0

    def add(self, b: Batch) -> None:
        if b.first and self.base is None and b.games.height:
            self.base = b.games["variant"][0]
        self.parts.append(block_values(b.games, b.players, self.drawn, self.by_edition, self.base))
        self.seeds.append(b.games.select("block", "seed").unique())
        self.blocks += b.games["block"].n_unique()


PLAYERS_COLUMNS = ["game_id", "seat", "player", "focal", "win_share", "score", "messages_drawn"]


def _load(run_dir: str | Path) -> dict:
    """A run's manifest and the editions its games played (one streaming scan of a column)."""
    m = read_manifest(run_dir)
    files = [str(mf.shard_file(Path(run_dir), "games", int(k))) for k in m["shards"]]
    editions = pl.scan_parquet(files).select(pl.col("edition").unique()).collect(engine="streaming")
    return {"dir": str(run_dir), "manifest": m, "editions": sorted(editions["edition"])}


def _values(run: dict, messages: bool, by_edition: bool) -> BlockValues:
    v = BlockValues(messages, by_edition)
    for batch in batches(run["dir"], run["manifest"], PLAYERS_COLUMNS, counterfactuals=False):
        v.add(batch)
    return v


def _refuse_other_games(a: dict, b: dict) -> list[str]:
    """RunError when the runs' player counts or expansions differ; a note per other rule
    that does."""
    ra, rb = a["manifest"]["config"]["rules"], b["manifest"]["config"]["rules"]
    for key in SAME_GAME:
        va, vb = ra.get(key), rb.get(key)
        if (sorted(va) if isinstance(va, list) else va) != (sorted(vb) if isinstance(vb, list) else vb):
            raise RunError(f"{a['dir']} and {b['dir']}: different games (rules.{key} = "
                           f"{shown(key, va)} and {shown(key, vb)}): a difference paired by block "
                           f"needs the same player count and tiles in both runs")
    notes = [f"note: rules.{key} differs: {shown(key, ra.get(key))} in A, {shown(key, rb.get(key))} in B"
             + (" (blocks pair by seed, but their tiles differ: the pairing takes out less noise)"
                if key == "tiles" else "")
             for key in sorted(set(ra) | set(rb)) if key not in SAME_GAME and ra.get(key) != rb.get(key)]
    ea, eb = a["editions"], b["editions"]
    if ea != eb:
        notes.append(f"note: editions played differ: {', '.join(ea) or 'none'} in A, "
                     f"{', '.join(eb) or 'none'} in B")
    return notes


def _common_blocks(a: dict, b: dict, va: BlockValues, vb: BlockValues) -> pl.DataFrame:
    ba, bb = (pl.concat(v.seeds).unique() for v in (va, vb))
    common = ba.join(bb, on=["block", "seed"]).select("block").sort("block")
    if common.height == 0:
        sa, sb = (r["manifest"]["config"].get("seed") for r in (a, b))
        why = (f"their blocks have different seeds (run.seed = {sa} and {sb})" if sa != sb
               else "no block is stored by both")
        raise RunError(f"{a['dir']} and {b['dir']}: no common block to pair on: {why}")
    return common


def compare(run_a: str | Path, run_b: str | Path) -> dict:
    """A − B for every quantity both runs have, paired on their common blocks: rows of
    question, family, difference, low, high (95%), p, q, a and b (each run's mean over
    the common blocks), blocks, games_a, games_b; with the runs' ids, blocks and notes.
    RunError (one line) for a run that cannot be read, runs of different seats or
    expansions, or runs with no common block."""
    a, b = _load(run_a), _load(run_b)
    notes = _refuse_other_games(a, b)
    # the message tiles drawn, where an expansion in play counts them
    messages = any("messages_drawn" in e.columns
                   for e in expansions.in_play(a["manifest"]["config"]["rules"]["expansions"]))
    by_edition = any(len(r["editions"]) > 1 for r in (a, b))
    values = [_values(r, messages, by_edition) for r in (a, b)]
    common = _common_blocks(a, b, *values)
    va, vb = (pl.concat(v.parts).join(common, on="block") for v in values)
    rows = []
    for (order, family, question, kind), q, est in paired(va, vb):
        rows.append({"order": (FAMILIES.index(family), order, question), "family": family, "question": question, "difference": _num(est.estimate),
                     "low": _num(est.low), "high": _num(est.high), "p": _num(est.p),
                     "q": None, "a": float(q["value"].mean()), "b": float(q["value_b"].mean()), "blocks": est.n,
                     "games_a": int(q["games"].sum()), "games_b": int(q["games_b"].sum())})
    rows.sort(key=lambda r: r.pop("order"))
    for r, v in zip(rows, stats.benjamini_hochberg([r["p"] for r in rows])):
        r["q"] = _num(v)
    only = {name: sorted(set(v["question"]) - set(w["question"]))
            for name, v, w in (("A", va, vb), ("B", vb, va))}
    for name, questions in only.items():
        if questions:
            shown = "; ".join(questions[:4]) + (f"; ... ({len(questions)} in all)"
                                               if len(questions) > 4 else "")
            notes.append(f"note: only in {name}, not compared: {shown}")
    return {"a": a["dir"], "b": b["dir"], "run_id_a": mf.run_id(a["manifest"]),
            "run_id_b": mf.run_id(b["manifest"]), "blocks_a": values[0].blocks,
            "blocks_b": values[1].blocks, "common_blocks": common.height,
            "notes": notes, "note": NOTE, "rows": rows}


def _num(v):
    return None if v is None or not np.isfinite(v) else float(v)


def _signed(text: str) -> str:
    """A difference as written: with its sign, and none on a 0 (-0.000 is 0.000)."""
    if text.lstrip("-").strip("0.") == "":
        return text.lstrip("-")
    return text if text.startswith(("-", "—", "+", "−")) else "+" + text


def render_text(c: dict) -> str:
    """The comparison as the terminal shows it: each difference's interval first, then
    the difference and each run's own value, all to the digits the interval supports."""
    w = min(80, max([len("question")] + [len(r["question"]) for r in c["rows"]]))
    lines = [f"compare A = {c['a']} (run_id {c['run_id_a']}) − B = {c['b']} (run_id "
             f"{c['run_id_b']}): {c['common_blocks']} common blocks (A stored {c['blocks_a']}, "
             f"B {c['blocks_b']})", c["note"], *c["notes"],
             f"{'question':{w}} {'95% interval':>21} {'A − B':>9} {'A':>9} {'B':>9} {'blocks':>6} "
             f"{'p':>8} {'q (BH)':>8}  family"]
    for r in c["rows"]:
        diff, low, high = fmt_interval(r["difference"], r["low"], r["high"])
        a, _, _ = fmt_interval(r["a"], r["low"], r["high"])
        b, _, _ = fmt_interval(r["b"], r["low"], r["high"])
        interval = "(none)" if r["low"] is None and r["high"] is None else f"[{low}, {high}]"
        lines.append(f"{r['question'][:w]:{w}} {interval:>21} {_signed(diff):>9} {a:>9} {b:>9} "
                     f"{r['blocks']:>6} {fmt_p(r['p']):>8} {fmt_p(r['q']):>8}  {r['family']}")
    return "\n".join(lines)
