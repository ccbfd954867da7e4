"""Balance analyses: pure functions from the record frames (Polars) to tables.

Every estimate that compares arms is paired by block (the same seeds) and its
standard error is taken across blocks, which are independent; games within a block
are not. Win share counts a shared win as 1/winners.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from eager import stats
from sim.expansions.messages import KIND as MESSAGE_FORK


def with_margin(players: pl.DataFrame) -> pl.DataFrame:
    """Adds `margin`: score minus the best other score in the same game."""
    best_other = (players.select("game_id", "seat", "score")
                  .join(players.select("game_id", pl.col("seat").alias("o"),
                                       pl.col("score").alias("os")), on="game_id")
                  .filter(pl.col("seat") != pl.col("o"))
                  .group_by("game_id", "seat").agg(pl.col("os").max().alias("best_other")))
    return (players.join(best_other, on=["game_id", "seat"])
            .with_columns((pl.col("score") - pl.col("best_other")).alias("margin")))


def _share_columns(rows: pl.DataFrame, keys: list[str], null=lambda key: 0.5) -> pl.DataFrame:
    """Per group of `keys`: games, blocks, win share with its cluster-robust (by block)
    95% interval and p against `null(key)`."""
    per_block = (rows.group_by(*keys, "block")
                 .agg(pl.col("win_share").sum().alias("s"), pl.len().alias("c")))
    out = []
    for key, g in per_block.group_by(*keys, maintain_order=True):
        e = stats.share_by_block(g["s"].to_numpy(), g["c"].to_numpy(), null(key))
        out.append({**dict(zip(keys, key)), "games": int(g["c"].sum()), "blocks": g.height,
                    "wins": float(g["s"].sum()), "win_share": e.estimate, "low": e.low,
                    "high": e.high, "p": e.p})
    return pl.DataFrame(out)


def seat_advantage(games: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """Per player count and seat: games, blocks, win share with its 95% interval
    (cluster-robust by block) and p against 1/players, mean score and margin, and the
    share of each rank."""
    p = with_margin(players).join(games.select("game_id", "players", "block"), on="game_id")
    shares = _share_columns(p, ["players", "seat"], lambda key: 1 / key[0])
    rest = (p.group_by("players", "seat")
            .agg(pl.col("score").mean().alias("score"), pl.col("margin").mean().alias("margin"),
                 *[(pl.col("rank") == r).mean().alias(f"rank_{r}") for r in range(1, 7)]))
    out = shares.join(rest, on=["players", "seat"]).sort("players", "seat")
    return out.with_columns(_holm_within(out, "p", pl.lit(True), ["players"]))


def seat_by_player(games: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """Seat advantage by strategy: each player spec's win share in each seat."""
    p = players.join(games.select("game_id", "players", "block"), on="game_id")
    shares = _share_columns(p, ["players", "player", "seat"], lambda key: 1 / key[0])  # (fixed with sim's)
    score = p.group_by("players", "player", "seat").agg(pl.col("score").mean())
    out = shares.join(score, on=["players", "player", "seat"]).sort("players", "player", "seat")
    return out.with_columns(_holm_within(out, "p", pl.lit(True), ["players"]))


def seat_test(games: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """Per player count, the test that every seat wins 1/players of the time: Hotelling's
    T² over blocks on the seats' block-mean win shares (seats 0..n−2; they sum to 1), an
    F test. With two players it is seat 0's test (the t test, F = t²; the exact sign
    test over blocks when seat 0 won or lost every block)."""
    p = players.join(games.select("game_id", "players", "block"), on="game_id")
    rows = []
    for n in sorted(set(p["players"])):
        per = (p.filter(pl.col("players") == n).group_by("block", "seat")
               .agg(pl.col("win_share").mean()).pivot("seat", index="block", values="win_share")
               .sort("block"))
        d = np.column_stack([per[str(s)].to_numpy() - 1 / n for s in range(n - 1)])
        f, k, dof, pval = stats.hotelling_zero(d)
        if n == 2:
            e = stats.share_by_block(d[:, 0] + 0.5, np.ones(len(d)))
            pval = e.p
            f = ((e.estimate - 0.5) / e.se) ** 2 if e.se and math.isfinite(e.se) else math.nan
        rows.append({"players": n, "F": f, "dof1": k, "dof2": dof, "p": pval,
                     "games": p.filter(pl.col("players") == n)["game_id"].n_unique(),
                     "blocks": per.height})
    return pl.DataFrame(rows)


def pairwise(games: pl.DataFrame, players: pl.DataFrame, kinds=None) -> pl.DataFrame:
    """Two-player games between different specs: A's win share against B, both seat
    orders pooled, with its 95% interval over blocks and the Elo difference (one-sided
    when A never won or never lost).

    Two spellings of one player (strategies/canonical.py, under every edition their
    games were played in and the decision kinds `kinds` that arise) play a mirror
    match: `identical` is true, and the row has no estimate (1/2 by construction; the
    share the name holds is its seat's), no interval, no p and is in no Holm family."""
    two = players.join(players.group_by("game_id").agg(pl.len().alias("n")), on="game_id").filter(
        pl.col("n") == 2)
    rows = (two.join(two.select("game_id", pl.col("seat").alias("os"),
                                pl.col("player").alias("opponent")), on="game_id")
            .filter(pl.col("seat") != pl.col("os"))
            .filter(pl.col("player") != pl.col("opponent"))
            .join(games.select("game_id", "block"), on="game_id"))
    if rows.height == 0:
        return pl.DataFrame()
    out = _share_columns(rows, ["player", "opponent"]).sort("player", "opponent")
    editions = (rows.join(games.select("game_id", "edition"), on="game_id")
                .group_by("player", "opponent").agg(pl.col("edition").unique())
                if "edition" in games.columns else None)
    same = _identical(out, editions, kinds)
    out = out.with_columns(pl.Series("identical", same, dtype=pl.Boolean)).with_columns(
        *[pl.when(pl.col("identical")).then(None).otherwise(pl.col(c)).alias(c)
          for c in ("win_share", "low", "high", "p")])  # a mirror's share is a seat's, not theirs
    # the family: each unordered pair once (B vs A mirrors A vs B), tests only
    once = out.with_columns(_holm_within(out, "p", (pl.col("player") < pl.col("opponent"))
                                         & ~pl.col("identical"), []))
    holm = {(a, b): h for a, b, h in once.select("player", "opponent", "p_holm").iter_rows()
            if h is not None}
    out = out.with_columns(pl.Series("p_holm", [holm.get((a, b), holm.get((b, a))) for a, b in
                                                out.select("player", "opponent").iter_rows()],
                                     dtype=pl.Float64))
    return out.with_columns(*[pl.col(c).map_elements(stats.elo, return_dtype=pl.Float64).alias(e)
                              for c, e in (("win_share", "elo"), ("low", "elo_low"), ("high", "elo_high"))])


def _identical(out: pl.DataFrame, editions: pl.DataFrame | None, kinds) -> list[bool]:
    from sim.errors import InputError
    from strategies.canonical import same_player

    def same(a, b, e):
        try:
            return same_player(a, b, e or "", kinds)
        except InputError:  # a name that is no spec here (tables built by hand): distinct
            return False

    where = ({(a, b): list(e) for a, b, e in editions.iter_rows()} if editions is not None else {})
    return [all(same(a, b, e) for e in where.get((a, b), [""]))
            for a, b in out.select("player", "opponent").iter_rows()]


RATING_PRIOR = 0.1  # virtual wins each way between two specs that met (report shows it)


def _components(beat: np.ndarray) -> list[list[int]]:
    """Strongly connected components of the 'i beat j at least once' graph: the
    Bradley–Terry likelihood has a finite maximum on each, not across them."""
    k = len(beat)
    reach = (beat > 0) | np.eye(k, dtype=bool)
    for m in range(k):  # transitive closure (Warshall)
        reach |= reach[:, [m]] & reach[[m], :]
    comps, seen = [], set()
    for i in range(k):
        if i not in seen:
            c = [j for j in range(k) if reach[i, j] and reach[j, i]]
            seen.update(c)
            comps.append(c)
    return comps


def ratings(players: pl.DataFrame, games: pl.DataFrame, boots: int = 200, seed: int = 0,
            prior: float = RATING_PRIOR) -> pl.DataFrame:
    """Bradley–Terry ratings of the specs (Elo scale: 400/ln 10 per unit of log
    strength), with 95% bootstrap intervals resampling blocks. Every pair of different
    specs in a game is one comparison decided by their ranks (a tie counts half), so
    games of 3-6 players enter as all their pairwise orders (a Plackett–Luce model
    approximated by its pairs). `prior` virtual wins each way between every pair that
    met regularise the fit (stated in the report; small against real records).

    Ratings exist only within a set of specs that each beat and lost to one another
    (a strongly connected component of the results): the largest such set is rated.
    A spec outside it won every comparison with it (or lost every one), so it gets a
    one-sided bound only: the weakest rating consistent with its record against each
    rated spec, each of its blocks with that spec counted as one trial at 97.5%."""
    pw = (players.join(players.select("game_id", pl.col("seat").alias("os"),
                                      pl.col("player").alias("opponent"),
                                      pl.col("rank").alias("orank")), on="game_id")
          .filter(pl.col("seat") != pl.col("os")).filter(pl.col("player") != pl.col("opponent"))
          .join(games.select("game_id", "block"), on="game_id")
          .with_columns(pl.when(pl.col("rank") < pl.col("orank")).then(1.0)
                        .when(pl.col("rank") == pl.col("orank")).then(0.5).otherwise(0.0)
                        .alias("beat")))
    names = sorted(set(pw["player"]) | set(pw["opponent"]))
    if len(names) < 2:
        return pl.DataFrame({"player": names})
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    blocks = sorted(set(pw["block"]))
    bpos = {b: i for i, b in enumerate(blocks)}
    per_block = np.zeros((len(blocks), k, k))
    for b, p, o, w in pw.select("block", "player", "opponent", "beat").iter_rows():
        per_block[bpos[b], idx[p], idx[o]] += w
    met_blocks = ((per_block + per_block.transpose(0, 2, 1)) > 0).sum(axis=0)
    total = per_block.sum(axis=0)
    games_of = (total + total.T).sum(axis=1)
    main = max(_components(total), key=lambda c: (len(c), games_of[c].sum()))
    sub = np.ix_(main, main)
    scale = 400 / np.log(10)
    virtual = prior * (met_blocks[sub] > 0)

    def fit(w):
        return stats.bradley_terry(w[sub] + virtual) * scale

    point = np.full(k, np.nan)
    low = np.full(k, np.nan)
    high = np.full(k, np.nan)
    point[main] = fit(total)
    if len(main) > 1:
        rng = np.random.default_rng(seed)
        draws = np.array([fit(per_block[rng.integers(0, len(blocks), len(blocks))].sum(axis=0))
                          for _ in range(boots)])
        low[main] = np.percentile(draws, 2.5, axis=0)
        high[main] = np.percentile(draws, 97.5, axis=0)
    bound = ["rated"] * k
    for i in set(range(k)) - set(main):
        rivals = [j for j in main if met_blocks[i, j] > 0]
        if not rivals:
            bound[i] = "not comparable"
            continue
        above = total[i, rivals].sum() > 0  # it won every comparison with the rated set
        q = [stats.ONE_SIDED ** (1 / met_blocks[i, j]) for j in rivals]
        if above:
            low[i] = max(point[j] + stats.elo(p) for j, p in zip(rivals, q))
            bound[i] = "lower bound only (never lost to a rated spec)"
        else:
            high[i] = min(point[j] + stats.elo(1 - p) for j, p in zip(rivals, q))
            bound[i] = "upper bound only (never beat a rated spec)"
    clean = lambda a: [None if not np.isfinite(v) else float(v) for v in a]  # noqa: E731
    order = sorted(range(k), key=lambda i: -np.nan_to_num(
        point[i], nan=low[i] if np.isfinite(low[i]) else (high[i] if np.isfinite(high[i]) else -1e9)))
    return pl.DataFrame({"player": [names[i] for i in order],
                         "rating": [clean(point)[i] for i in order],
                         "low": [clean(low)[i] for i in order],
                         "high": [clean(high)[i] for i in order],
                         "bound": [bound[i] for i in order], "prior": [prior] * k},
                        schema={"player": pl.String, "rating": pl.Float64, "low": pl.Float64,
                                "high": pl.Float64, "bound": pl.String, "prior": pl.Float64})


def arm_effects(games: pl.DataFrame, players: pl.DataFrame, baseline: str | None = None) -> pl.DataFrame:
    """Variants designs: each arm's focal player against the baseline arm (the first
    arm by default), paired by block within each edition: differences in win share,
    score and margin with standard errors across blocks (t intervals), each outcome
    Holm-adjusted over the edition's arms other than the baseline (its family). An arm
    the plan found identical to an earlier one has no games and is in no family; the
    baseline's own row is identical by construction: Δ 0 with no interval and no p."""
    p = with_margin(players).filter(pl.col("focal")).join(
        games.select("game_id", "block", "variant", "edition"), on="game_id")
    if p.height == 0:
        return pl.DataFrame()
    arms = list(dict.fromkeys(games["variant"]))
    base = baseline or arms[0]
    per_block = p.group_by("edition", "variant", "block").agg(
        pl.col("win_share").mean(), pl.col("score").mean(), pl.col("margin").mean(),
        pl.col("messages_drawn").mean(), pl.col("moves_live").sum(),
        pl.col("game_id").n_unique().alias("games"),
        (pl.col("moves_meeple") + pl.col("moves_messenger")).sum().alias("moves"))
    rows = []
    for edition in sorted(set(per_block["edition"])):
        e = per_block.filter(pl.col("edition") == edition)
        b = e.filter(pl.col("variant") == base).sort("block")
        for arm in arms:
            a = e.filter(pl.col("variant") == arm).sort("block")
            joined = a.join(b, on="block", suffix="_base")
            if a.height == 0:
                continue
            row = {"edition": edition, "arm": arm, "baseline": base, "blocks": joined.height,
                   "games": int(a["games"].sum()),
                   "win_share": float(a["win_share"].mean()), "score": float(a["score"].mean()),
                   "messages_per_game": float(a["messages_drawn"].mean()),
                   "live_share": float(a["moves_live"].sum() / max(1, a["moves"].sum()))}
            for col in ("win_share", "score", "margin"):
                if arm == base:  # the baseline against itself: 0 by construction, no interval
                    row.update({f"d_{col}": 0.0, f"d_{col}_se": None, f"d_{col}_low": None,
                                f"d_{col}_high": None, f"d_{col}_p": None})
                    continue
                est = (stats.share_difference(joined["win_share"] - joined["win_share_base"],
                                              joined["block"]) if col == "win_share"
                       else stats.paired_difference(joined[col], joined[f"{col}_base"]))
                row.update({f"d_{col}": est.estimate, f"d_{col}_se": est.se,
                            f"d_{col}_low": est.low, f"d_{col}_high": est.high,
                            f"d_{col}_p": est.p})
            rows.append(row)
    out = pl.DataFrame(rows)
    family = pl.col("arm") != pl.col("baseline")
    return out.with_columns(pl.lit("arms vs " + base).alias("family"), *[
        _holm_within(out, f"d_{c}_p", family, ["edition"]).alias(f"d_{c}_p_holm")
        for c in ("win_share", "score", "margin")])


def _holm_within(df: pl.DataFrame, pcol: str, member: pl.Expr, by: list[str]) -> pl.Series:
    """Holm-adjusted `pcol` within each group of `by`, over the rows where `member`
    holds (the family); None outside it."""
    adjusted = [None] * df.height
    d = df.with_row_index("_i").with_columns(member.alias("_m"))
    members = d.filter(pl.col("_m"))
    groups = members.group_by(*by, maintain_order=True) if by else [((), members)]
    for _, g in groups:
        for i, a in zip(g["_i"], stats.holm(list(g[pcol]))):
            adjusted[i] = None if not np.isfinite(a) else a
    return pl.Series(pcol + "_holm", adjusted, dtype=pl.Float64)


def naive_message_values(games: pl.DataFrame, players: pl.DataFrame, actions: list[str]) -> pl.DataFrame:
    """CONFOUNDED: win share of players who drew a message at least once minus that of
    players who did not, per edition and action, cluster-robust by block, Holm over
    the edition's actions. Drawing a message follows from scoring, so this mixes the
    message's value with the drawer's strength."""
    p = players.join(games.select("game_id", "edition", "block"), on="game_id")
    rows = []
    for edition in sorted(set(p["edition"])):
        e = p.filter(pl.col("edition") == edition)
        for a in actions:
            drew = (e[f"drawn_{a}"] > 0).to_numpy()
            if not drew.any() or drew.all():
                continue
            est = stats.cluster_difference(e["win_share"].to_numpy(), drew, e["block"].to_numpy())
            rows.append({"edition": edition, "action": a, "drawers": int(drew.sum()),
                         "blocks": est.n, "d_win_share": est.estimate, "d_win_share_low": est.low,
                         "d_win_share_high": est.high, "d_win_share_p": est.p, "confounded": True})
    out = pl.DataFrame(rows)
    if out.height == 0:
        return out
    return out.with_columns(pl.lit("naive message values").alias("family"),
                            _holm_within(out, "d_win_share_p", pl.lit(True), ["edition"]))


def counterfactual_values(cf: pl.DataFrame, games: pl.DataFrame | None = None,
                          phases: bool = True) -> pl.DataFrame:
    """Per edition, action (and phase): the mean difference the action makes over the
    2 points to the drawer's final margin and win share, from forked games (an extra
    tile or turn against the aligned 2-points branch, sim/tournament/counterfactual.py,
    when the run has it). Rollouts and
    draws are averaged within each block first (`games` maps game_id to block; without
    it each game is its own block); standard errors are across blocks, t intervals.
    Holm adjusts the margin and the win p-values over the actions of an edition
    (phase "all") and, separately, over the phase rows of an edition."""
    if "fork" in cf.columns:  # figure forks have their own analysis (sim/analysis/forks.py)
        cf = cf.filter(pl.col("fork").is_null() | (pl.col("fork") == MESSAGE_FORK))
    if cf.height == 0:
        return pl.DataFrame()
    blocks = (games.select("game_id", "block") if games is not None
              else cf.select("game_id").unique().with_columns(pl.col("game_id").alias("block")))
    two_m, two_w = pl.col("margin_two"), pl.col("win_two")
    if "margin_two_aligned" in cf.columns:  # extra tile/turn: the aligned 2-points branch
        two_m = pl.coalesce("margin_two_aligned", "margin_two")
        two_w = pl.coalesce("win_two_aligned", "win_two")
    d = cf.join(blocks, on="game_id").with_columns(
        (pl.col("margin_action") - two_m).alias("d_margin"),
        (pl.col("win_action") - two_w).alias("d_win"))
    frames = [d.with_columns(pl.lit("all").alias("phase"))]
    if phases:
        frames.append(d)
    rows = []
    for part in frames:
        per_block = part.group_by("edition", "action", "phase", "block").agg(
            pl.col("d_margin").mean(), pl.col("d_win").mean(), pl.len().alias("rollouts"),
            pl.col("game_id").n_unique().alias("games"),
            pl.struct("game_id", "draw").n_unique().alias("draws"))
        for key, g in per_block.group_by("edition", "action", "phase", maintain_order=True):
            m = stats.mean_estimate(g["d_margin"])
            w = stats.share_difference(g["d_win"], g["block"])
            rows.append({"edition": key[0], "action": key[1], "phase": key[2],
                         "games": int(g["games"].sum()), "blocks": g.height,
                         "draws": int(g["draws"].sum()), "rollouts": int(g["rollouts"].sum()),
                         "d_margin": m.estimate, "d_margin_low": m.low, "d_margin_high": m.high,
                         "d_margin_p": m.p, "d_win": w.estimate, "d_win_low": w.low,
                         "d_win_high": w.high, "d_win_p": w.p,
                         "sd_block": float(g["d_margin"].std()) if g.height > 1 else None})
    out = pl.DataFrame(rows).sort("edition", "action", "phase")
    overall = pl.col("phase") == "all"
    return out.with_columns(
        pl.when(overall).then(pl.lit("message values")).otherwise(pl.lit("message values by phase"))
        .alias("family"),
        *[pl.when(overall).then(_holm_within(out, p, overall, ["edition"]))
          .otherwise(_holm_within(out, p, ~overall, ["edition"])).alias(p + "_holm")
          for p in ("d_margin_p", "d_win_p")])
