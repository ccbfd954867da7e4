"""Balance analyses: pure functions from the record frames (Polars) to tables.

Every estimate that compares arms is paired by block (the same seeds) and its
standard error is taken across blocks, which are independent; games within a block
are not. Win share counts a shared win as 1/winners.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from sim.analysis import stats


def with_margin(players: pl.DataFrame) -> pl.DataFrame:
    """Adds `margin`: score minus the best other score in the same game."""
    best_other = (players.select("game_id", "seat", "score")
                  .join(players.select("game_id", pl.col("seat").alias("o"),
                                       pl.col("score").alias("os")), on="game_id")
                  .filter(pl.col("seat") != pl.col("o"))
                  .group_by("game_id", "seat").agg(pl.col("os").max().alias("best_other")))
    return (players.join(best_other, on=["game_id", "seat"])
            .with_columns((pl.col("score") - pl.col("best_other")).alias("margin")))


def seat_advantage(games: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """Per player count and seat: games, win share with Wilson 95% interval, mean
    score and margin, and the share of each rank."""
    p = with_margin(players).join(games.select("game_id", "players", "block"), on="game_id")
    out = (p.group_by("players", "seat")
           .agg(pl.len().alias("games"), pl.col("block").n_unique().alias("blocks"),
                pl.col("win_share").sum().alias("wins"),
                pl.col("score").mean().alias("score"), pl.col("margin").mean().alias("margin"),
                *[(pl.col("rank") == r).mean().alias(f"rank_{r}") for r in range(1, 7)])
           .sort("players", "seat"))
    lows, highs = zip(*(stats.wilson(w, n) for w, n in zip(out["wins"], out["games"])))
    return out.with_columns((pl.col("wins") / pl.col("games")).alias("win_share"),
                            pl.Series("low", lows), pl.Series("high", highs))


def seat_by_player(games: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """Seat advantage by strategy: each player spec's win share in each seat."""
    p = players.join(games.select("game_id", "players"), on="game_id")
    out = (p.group_by("players", "player", "seat")
           .agg(pl.len().alias("games"), pl.col("win_share").sum().alias("wins"),
                pl.col("score").mean().alias("score"))
           .sort("players", "player", "seat"))
    lows, highs = zip(*(stats.wilson(w, n) for w, n in zip(out["wins"], out["games"])))
    return out.with_columns((pl.col("wins") / pl.col("games")).alias("win_share"),
                            pl.Series("low", lows), pl.Series("high", highs))


def seat_test(table: pl.DataFrame) -> pl.DataFrame:
    """χ² test per player count that all seats win equally often."""
    rows = []
    for n in sorted(set(table["players"])):
        t = table.filter(pl.col("players") == n)
        stat, dof, p = stats.chi2_equal(list(t["wins"]))
        rows.append({"players": n, "chi2": stat, "dof": dof, "p": p, "games": int(t["games"][0])})
    return pl.DataFrame(rows)


def pairwise(players: pl.DataFrame) -> pl.DataFrame:
    """Two-player games between different specs: A's win share against B, both seat
    orders pooled, with Wilson 95% interval and the Elo difference."""
    two = players.join(players.group_by("game_id").agg(pl.len().alias("n")), on="game_id").filter(
        pl.col("n") == 2)
    pairs = (two.join(two.select("game_id", pl.col("seat").alias("os"),
                                 pl.col("player").alias("opponent")), on="game_id")
             .filter(pl.col("seat") != pl.col("os"))
             .filter(pl.col("player") != pl.col("opponent"))
             .group_by("player", "opponent")
             .agg(pl.len().alias("games"), pl.col("win_share").sum().alias("wins"))
             .sort("player", "opponent"))
    lows, highs = zip(*(stats.wilson(w, n) for w, n in zip(pairs["wins"], pairs["games"]))) \
        if pairs.height else ((), ())
    out = pairs.with_columns((pl.col("wins") / pl.col("games")).alias("win_share"),
                             pl.Series("low", lows, dtype=pl.Float64),
                             pl.Series("high", highs, dtype=pl.Float64))
    return out.with_columns(*[pl.col(c).map_elements(stats.elo, return_dtype=pl.Float64).alias(e)
                              for c, e in (("win_share", "elo"), ("low", "elo_low"), ("high", "elo_high"))])


def ratings(players: pl.DataFrame, games: pl.DataFrame, boots: int = 200, seed: int = 0,
            prior: float = 0.5) -> pl.DataFrame:
    """Bradley–Terry ratings of the specs (Elo scale: 400/ln 10 per unit of log
    strength), with 95% bootstrap intervals resampling blocks. Every pair of different
    specs in a game is one comparison decided by their ranks (a tie counts half), so
    games of 3-6 players enter as all their pairwise orders (a Plackett–Luce model
    approximated by its pairs). `prior` virtual wins each way between every pair that
    met keep a perfect record finite."""
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
    blocks = sorted(set(pw["block"]))
    per_block = {b: np.zeros((len(names), len(names))) for b in blocks}
    for b, p, o, w in pw.select("block", "player", "opponent", "beat").iter_rows():
        per_block[b][idx[p], idx[o]] += w
    scale = 400 / np.log(10)
    total = sum(per_block.values())
    met = (total + total.T) > 0
    virtual = prior * met

    def fit(w):
        return stats.bradley_terry(w + virtual) * scale

    point = fit(total)
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(boots):
        pick = rng.integers(0, len(blocks), len(blocks))
        draws.append(fit(sum(per_block[blocks[i]] for i in pick)))
    draws = np.array(draws)
    return pl.DataFrame({"player": names, "rating": point,
                         "low": np.percentile(draws, 2.5, axis=0),
                         "high": np.percentile(draws, 97.5, axis=0)}).sort("rating", descending=True)


def arm_effects(games: pl.DataFrame, players: pl.DataFrame, baseline: str | None = None) -> pl.DataFrame:
    """Variants designs: each arm's focal player against the baseline arm (the first
    arm by default), paired by block within each edition: differences in win share,
    score and margin with standard errors across blocks, Holm-adjusted over the arms."""
    p = with_margin(players).filter(pl.col("focal")).join(
        games.select("game_id", "block", "variant", "edition"), on="game_id")
    if p.height == 0:
        return pl.DataFrame()
    arms = list(dict.fromkeys(games["variant"]))
    base = baseline or arms[0]
    per_block = p.group_by("edition", "variant", "block").agg(
        pl.col("win_share").mean(), pl.col("score").mean(), pl.col("margin").mean(),
        pl.col("messages_drawn").mean(), pl.col("moves_live").sum(),
        (pl.col("moves_meeple") + pl.col("moves_messenger")).sum().alias("moves"))
    rows = []
    for edition in sorted(set(per_block["edition"])):
        e = per_block.filter(pl.col("edition") == edition)
        b = e.filter(pl.col("variant") == base).sort("block")
        for arm in arms:
            a = e.filter(pl.col("variant") == arm).sort("block")
            joined = a.join(b, on="block", suffix="_base")
            row = {"edition": edition, "arm": arm, "baseline": base, "blocks": joined.height,
                   "win_share": float(a["win_share"].mean()), "score": float(a["score"].mean()),
                   "messages_per_game": float(a["messages_drawn"].mean()),
                   "live_share": float(a["moves_live"].sum() / max(1, a["moves"].sum()))}
            for col in ("win_share", "score", "margin"):
                est = stats.paired_difference(joined[col], joined[f"{col}_base"])
                row.update({f"d_{col}": est.estimate, f"d_{col}_se": est.se,
                            f"d_{col}_low": est.low, f"d_{col}_high": est.high,
                            f"d_{col}_p": est.p})
            rows.append(row)
    out = pl.DataFrame(rows)
    adjusted = []
    for edition in out["edition"].unique(maintain_order=True):
        sub = out.filter((pl.col("edition") == edition) & (pl.col("arm") != base))
        adj = dict(zip(sub["arm"], stats.holm(list(sub["d_win_share_p"]))))
        adjusted += [adj.get(a, 1.0) for a in out.filter(pl.col("edition") == edition)["arm"]]
    return out.with_columns(pl.Series("d_win_share_p_holm", adjusted))


def naive_message_values(games: pl.DataFrame, players: pl.DataFrame, actions: list[str]) -> pl.DataFrame:
    """CONFOUNDED: win share of players who drew a message at least once minus that of
    players who did not, per edition and action. Drawing a message follows from
    scoring, so this mixes the message's value with the drawer's strength."""
    p = players.join(games.select("game_id", "edition"), on="game_id")
    rows = []
    for edition in sorted(set(p["edition"])):
        e = p.filter(pl.col("edition") == edition)
        for a in actions:
            drew = e.filter(pl.col(f"drawn_{a}") > 0)["win_share"]
            not_drew = e.filter(pl.col(f"drawn_{a}") == 0)["win_share"]
            if drew.len() == 0:
                continue
            rows.append({"edition": edition, "action": a, "drawers": drew.len(),
                         "d_win_share": float(drew.mean() - not_drew.mean()), "confounded": True})
    return pl.DataFrame(rows)


def counterfactual_values(cf: pl.DataFrame, phases: bool = True) -> pl.DataFrame:
    """Per edition, action (and phase): the mean difference the action makes over the
    2 points to the drawer's final margin and win share, from forked games. Rollouts and
    draws are averaged within each game first; standard errors are across games; Holm
    adjusts the margin p-values over the actions of an edition (phase "all")."""
    if cf.height == 0:
        return pl.DataFrame()
    d = cf.with_columns((pl.col("margin_action") - pl.col("margin_two")).alias("d_margin"),
                        (pl.col("win_action") - pl.col("win_two")).alias("d_win"))
    frames = [d.with_columns(pl.lit("all").alias("phase"))]
    if phases:
        frames.append(d)
    rows = []
    for part in frames:
        per_game = part.group_by("edition", "action", "phase", "game_id").agg(
            pl.col("d_margin").mean(), pl.col("d_win").mean(), pl.len().alias("rollouts"))
        for key, g in per_game.group_by("edition", "action", "phase", maintain_order=True):
            m = stats.mean_estimate(g["d_margin"])
            w = stats.mean_estimate(g["d_win"])
            rows.append({"edition": key[0], "action": key[1], "phase": key[2],
                         "games": g.height, "rollouts": int(g["rollouts"].sum()),
                         "d_margin": m.estimate, "d_margin_low": m.low, "d_margin_high": m.high,
                         "d_margin_p": m.p, "d_win": w.estimate, "d_win_low": w.low,
                         "d_win_high": w.high})
    out = pl.DataFrame(rows).sort("edition", "action", "phase")
    holm = {}
    for edition in out["edition"].unique():
        sub = out.filter((pl.col("edition") == edition) & (pl.col("phase") == "all"))
        holm.update({(edition, a): p for a, p in zip(sub["action"], stats.holm(list(sub["d_margin_p"])))})
    return out.with_columns(pl.Series("d_margin_p_holm", [
        holm.get((e, a), None) if ph == "all" else None
        for e, a, ph in out.select("edition", "action", "phase").iter_rows()], dtype=pl.Float64))


def block_outcomes(games: pl.DataFrame, players: pl.DataFrame, arm: str,
                   baseline: str | None) -> dict[int, float]:
    """One outcome in [0, 1] per block for an A/B question, for the SPRT.

    With a baseline (variants designs): 1 if the arm's focal player has the higher
    mean win share in the block than the baseline's, 0 if lower, 0.5 if equal. Without
    (the arm is a player spec): that player's mean win share in the block."""
    if baseline is None:
        p = players.filter(pl.col("player") == arm).join(games.select("game_id", "block"), on="game_id")
        per = p.group_by("block").agg(pl.col("win_share").mean())
        return dict(per.iter_rows())
    p = players.filter(pl.col("focal")).join(games.select("game_id", "block", "variant"), on="game_id")
    per = p.filter(pl.col("variant").is_in([arm, baseline])).group_by("block", "variant").agg(
        pl.col("win_share").mean())
    a = dict(per.filter(pl.col("variant") == arm).select("block", "win_share").iter_rows())
    b = dict(per.filter(pl.col("variant") == baseline).select("block", "win_share").iter_rows())
    return {k: 1.0 if a[k] > b[k] else 0.0 if a[k] < b[k] else 0.5 for k in a if k in b}
