"""Balance analyses: each a section of the report's one pass (sim/analysis/scan.py)
that reduces every batch of blocks to per-block sums, folds them over blocks
(sim/analysis/moments.py) and turns the folds into a table; the function of the same
name in lower case runs it on record frames already in memory (Polars).

Every estimate that compares arms is paired by block (the same seeds) and its
standard error is taken across blocks, which are independent; games within a block
are not. Win share counts a shared win as 1/winners.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from sim.analysis import stats
from sim.analysis.moments import Folds, Moments
from sim.analysis.scan import Batch, once
from sim.expansions.messages import KIND as MESSAGE_FORK


def _share_rows(folds: Folds, keys: list[str], null=lambda key: 0.5) -> list[dict]:
    """Per key of `folds` (per-block sums `s` and counts `c` of win share): games, blocks,
    wins and the win share with its cluster-robust (by block) 95% interval and p
    against `null(key)`."""
    s, c = folds.col("s"), folds.col("c")
    out = []
    for key, m in folds.items():
        e = stats.share_from(m, s, c, null(key))
        out.append({**dict(zip(keys, key)), "games": int(m.total[c]), "blocks": m.n,
                    "wins": float(m.total[s]), "win_share": e.estimate, "low": e.low,
                    "high": e.high, "p": e.p})
    return out


SHARE = [pl.col("win_share").sum().alias("s"), pl.len().alias("c")]  # a share's block sums
# a meeting of two specs at one table (a _pairs row): 1 if the first ended with more
# points, 1/2 with as many, else 0
AHEAD = (pl.when(pl.col("score") > pl.col("oscore")).then(1.0)
         .when(pl.col("score") == pl.col("oscore")).then(0.5).otherwise(0.0))
RANKS = range(1, 7)


class SeatAdvantage:
    """Per player count and seat: games, blocks, win share with its 95% interval
    (cluster-robust by block) and p against 1/players, mean score and margin, and the
    share of each rank."""

    KEYS = ["players", "seat"]

    def __init__(self):
        self.folds = Folds(["s", "c", "score", "margin", *(f"rank_{r}" for r in RANKS)])

    def add(self, b: Batch) -> None:
        self.folds.add(b.margin.group_by(*self.KEYS, "block").agg(
            *SHARE, pl.col("score").cast(pl.Float64).sum(), pl.col("margin").cast(pl.Float64).sum(),
            *[(pl.col("rank") == r).sum().cast(pl.Float64).alias(f"rank_{r}") for r in RANKS]),
            self.KEYS)

    def table(self) -> pl.DataFrame:
        f, c = self.folds, self.folds.col("c")
        rows = _share_rows(f, self.KEYS, lambda key: 1 / key[0])
        for r, (_, m) in zip(rows, f.items()):
            r.update({k: float(m.total[f.col(k)] / m.total[c])
                      for k in ("score", "margin", *(f"rank_{x}" for x in RANKS))})
        if not rows:
            return pl.DataFrame()
        out = pl.DataFrame(rows).sort(*self.KEYS)
        return out.with_columns(_holm_within(out, "p", pl.lit(True), ["players"]))


class SeatByPlayer:
    """Seat advantage by strategy: each player spec's win share in each seat, p against
    1/players (as the seats')."""

    KEYS = ["players", "player", "seat"]

    def __init__(self):
        self.folds = Folds(["s", "c", "score"])

    def add(self, b: Batch) -> None:
        self.folds.add(b.p.group_by(*self.KEYS, "block").agg(
            *SHARE, pl.col("score").cast(pl.Float64).sum()), self.KEYS)

    def table(self) -> pl.DataFrame:
        f = self.folds
        rows = _share_rows(f, self.KEYS, lambda key: 1 / key[0])
        for r, (_, m) in zip(rows, f.items()):
            r["score"] = float(m.total[f.col("score")] / m.total[f.col("c")])
        if not rows:
            return pl.DataFrame()
        out = pl.DataFrame(rows).sort(*self.KEYS)
        return out.with_columns(_holm_within(out, "p", pl.lit(True), ["players"]))


class SeatTest:
    """Per player count, the test that every seat wins 1/players of the time: Hotelling's
    T² over blocks on the seats' block-mean win shares (seats 0..n−2; they sum to 1), an
    F test. With two players it is seat 0's test (the t test, F = t²; the exact sign
    test over blocks when seat 0 won or lost every block)."""

    def __init__(self):
        self.folds: dict[int, Folds] = {}
        self.games: dict[int, int] = {}

    def add(self, b: Batch) -> None:
        for (n,), g in b.p.group_by("players"):
            per = g.group_by("block").agg(
                *[pl.col("win_share").filter(pl.col("seat") == s).mean().alias(f"w{s}")
                  for s in range(n - 1)], pl.lit(1.0).alias("one"))
            self.folds.setdefault(n, Folds([f"w{s}" for s in range(n - 1)] + ["one"])).add(per, [])
            self.games[n] = self.games.get(n, 0) + g["game_id"].n_unique()

    def table(self) -> pl.DataFrame:
        rows = []
        for n in sorted(self.folds):
            m = self.folds[n].by[()]
            f, k, dof, pval = stats.hotelling_from(m, range(n - 1), 1 / n)
            if n == 2:
                e = stats.share_from(m, 0, 1)
                pval = e.p
                f = ((e.estimate - 0.5) / e.se) ** 2 if e.se and math.isfinite(e.se) else math.nan
            rows.append({"players": n, "F": f, "dof1": k, "dof2": dof, "p": pval,
                         "games": self.games[n], "blocks": m.n})
        return pl.DataFrame(rows)


def _pairs(p: pl.DataFrame, *columns: str) -> pl.DataFrame:
    """Each ordered pair of different specs in a game: game_id, block, seat, player and
    `columns`, with the other seat's `os`, `opponent` and `columns` (prefixed o). Games
    of one spec in every seat (mirror runs) have no pair and are left out before the
    self-join."""
    mixed = p.filter(pl.col("player").n_unique().over("game_id") > 1).select(
        "game_id", "block", "seat", "player", *columns)
    return (mixed.join(mixed.select("game_id", pl.col("seat").alias("os"),
                                    pl.col("player").alias("opponent"),
                                    *[pl.col(c).alias("o" + c) for c in columns]), on="game_id")
            .filter((pl.col("seat") != pl.col("os")) & (pl.col("player") != pl.col("opponent"))))


class Pairwise:
    """Two-player games between different specs: A's win share against B, both seat
    orders pooled, with its 95% interval over blocks and the Elo difference (one-sided
    when A never won or never lost).

    Two spellings of one player (strategies/canonical.py, under every edition their
    games were played in and the decision kinds `kinds` that arise) play a mirror
    match: `identical` is true, and the row has no estimate (1/2 by construction; the
    share the name holds is its seat's), no interval, no p and is in no Holm family."""

    KEYS = ["player", "opponent"]

    def __init__(self, kinds=None, unread=()):
        self.kinds, self.unread = kinds, unread
        self.folds = Folds(["s", "c"])
        self.editions: dict[tuple, set] = {}

    def add(self, b: Batch) -> None:
        two = b.p.filter(pl.len().over("game_id") == 2)
        rows = _pairs(two, "win_share", *(["edition"] if "edition" in two.columns else []))
        if rows.height == 0:
            return
        self.folds.add(rows.group_by(*self.KEYS, "block").agg(*SHARE), self.KEYS)
        if "edition" in rows.columns:
            for a, o, e in rows.group_by(*self.KEYS).agg(pl.col("edition").unique()).iter_rows():
                self.editions.setdefault((a, o), set()).update(e)

    def table(self) -> pl.DataFrame:
        rows = _share_rows(self.folds, self.KEYS)
        if not rows:
            return pl.DataFrame()
        out = pl.DataFrame(rows).sort("player", "opponent")
        same = _identical(out, self.editions if self.editions else None, self.kinds, self.unread)
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
                                  for c, e in (("win_share", "elo"), ("low", "elo_low"),
                                               ("high", "elo_high"))])


class Ahead:
    """Tables of three or more where different specs sat: for each ordered pair of specs
    that met at one table, A's share of their meetings in which A finished with more
    points than B (equal points count 1/2), every seat pooled, with its 95% interval
    over blocks and p against 1/2. A spec seated twice meets the other in each of its
    seats. With two players this would be the head-to-head win share (Pairwise), which
    is where those games are.

    Not a test (no p, in no Holm family) where 1/2 is not what two equal players get:
    two spellings of one player (`identical`, as in Pairwise), and a pair not seated
    both ways round (`balanced` false): at a table of three or more who sits after whom
    matters, and seat rotations keep the order around the table, so with rotations only
    A may always sit just before B; the share then mixes their strengths with that
    seating. Balanced: each seat distance from A to B (clockwise) as often as its
    mirror, which holds for every pair when all seat orders are played."""

    KEYS = ["players", "player", "opponent"]

    def __init__(self, kinds=None, unread=()):
        self.kinds, self.unread = kinds, unread
        self.folds = Folds(["s", "c", "g"])  # g: the games they met in (c: their meetings)
        self.distances: dict[tuple, dict[int, int]] = {}  # key -> {clockwise seat distance: meetings}

    def add(self, b: Batch) -> None:
        rows = _pairs(b.p.filter(pl.col("players") > 2), "score", "players")
        if rows.height == 0:
            return
        self.folds.add(rows.group_by(*self.KEYS, "block").agg(
            AHEAD.sum().alias("s"), pl.len().alias("c"), pl.col("game_id").n_unique().alias("g")), self.KEYS)
        apart = (pl.col("os") - pl.col("seat")) % pl.col("players")
        for n, a, o, d, k in (rows.group_by(*self.KEYS, apart.alias("d")).agg(pl.len().alias("k"))
                              .select(*self.KEYS, "d", "k").iter_rows()):
            at = self.distances.setdefault((n, a, o), {})
            at[d] = at.get(d, 0) + k

    def table(self) -> pl.DataFrame:
        f = self.folds
        rows = _share_rows(f, self.KEYS)
        for r, (key, m) in zip(rows, f.items()):
            r["meetings"], r["games"] = r["games"], int(m.total[f.col("g")])
            seen = self.distances.get(tuple(key), {})
            r["balanced"] = all(seen.get(d, 0) == seen.get(key[0] - d, 0) for d in seen)
        if not rows:
            return pl.DataFrame()
        out = pl.DataFrame(rows).rename({"wins": "ahead", "win_share": "share"}).sort(*self.KEYS)
        same = _identical(out, None, self.kinds, self.unread)
        out = out.with_columns(pl.Series("identical", same, dtype=pl.Boolean)).with_columns(
            *[pl.when(pl.col("identical")).then(None).otherwise(pl.col(c)).alias(c)
              for c in ("share", "low", "high")],
            pl.when(pl.col("identical") | ~pl.col("balanced")).then(None).otherwise(pl.col("p")).alias("p"))
        # the family: each unordered pair once per table size (B against A mirrors A against B)
        tested = (pl.col("player") < pl.col("opponent")) & pl.col("p").is_not_null()
        once = out.with_columns(_holm_within(out, "p", tested, ["players"]))
        holm = {(n, a, o): h for n, a, o, h in once.select(*self.KEYS, "p_holm").iter_rows()
                if h is not None}
        return out.with_columns(pl.Series("p_holm", [holm.get((n, a, o), holm.get((n, o, a)))
                                                     for n, a, o in out.select(*self.KEYS).iter_rows()],
                                          dtype=pl.Float64))


class PlayerShare:
    """Tables of three or more where different specs sat: each spec's win share, every
    seat and every game it sat in pooled (a spec seated twice counts each seat), with its
    95% interval over blocks and p against 1/players, the share of a spec no better than
    the others; and its mean score."""

    KEYS = ["players", "player"]

    def __init__(self):
        self.folds = Folds(["s", "c", "score", "g"])  # g: the games it sat in (c: its seats)

    def add(self, b: Batch) -> None:
        mixed = b.p.filter((pl.col("players") > 2) & (pl.col("player").n_unique().over("game_id") > 1))
        if mixed.height:
            self.folds.add(mixed.group_by(*self.KEYS, "block").agg(
                *SHARE, pl.col("score").cast(pl.Float64).sum(), pl.col("game_id").n_unique().alias("g")),
                self.KEYS)

    def table(self) -> pl.DataFrame:
        f = self.folds
        rows = _share_rows(f, self.KEYS, lambda key: 1 / key[0])
        for r, (_, m) in zip(rows, f.items()):
            r["score"] = float(m.total[f.col("score")] / m.total[f.col("c")])
            r["seats"], r["games"] = r["games"], int(m.total[f.col("g")])
        if not rows:
            return pl.DataFrame()
        out = pl.DataFrame(rows).sort(*self.KEYS)
        return out.with_columns(_holm_within(out, "p", pl.lit(True), ["players"]))


def pairwise(games: pl.DataFrame, players: pl.DataFrame, kinds=None) -> pl.DataFrame:
    """Pairwise on frames in memory."""
    s = Pairwise(kinds)
    once([s], games, players)
    return s.table()


def seat_advantage(games: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """SeatAdvantage on frames in memory."""
    s = SeatAdvantage()
    once([s], games, players)
    return s.table()


def seat_by_player(games: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """SeatByPlayer on frames in memory."""
    s = SeatByPlayer()
    once([s], games, players)
    return s.table()


def seat_test(games: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """SeatTest on frames in memory."""
    s = SeatTest()
    once([s], games, players)
    return s.table()


def _identical(out: pl.DataFrame, editions: dict | None, kinds, unread=()) -> list[bool]:
    from sim.errors import InputError
    from strategies.canonical import same_player

    def same(a, b, e):
        try:
            return same_player(a, b, e or "", kinds, unread)
        except InputError:  # a name that is no spec here (tables built by hand): distinct
            return False

    where = {k: sorted(e) for k, e in (editions or {}).items()}
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


class Ratings:
    """What the Bradley–Terry ratings need (`ratings_from`): per block and ordered pair
    of different specs in a game, the comparisons the first won (a tie counts half).
    Kept per block, not folded: the bootstrap resamples blocks."""

    def __init__(self):
        self.parts: list[pl.DataFrame] = []

    def add(self, b: Batch) -> None:
        pw = _pairs(b.p, "rank").with_columns(
            pl.when(pl.col("rank") < pl.col("orank")).then(1.0)
            .when(pl.col("rank") == pl.col("orank")).then(0.5).otherwise(0.0).alias("beat"))
        if pw.height:
            self.parts.append(pw.group_by("block", "player", "opponent").agg(pl.col("beat").sum()))

    def table(self, boots: int = 200, seed: int = 0, prior: float = RATING_PRIOR,
              identical=()) -> pl.DataFrame:
        """`identical`: (a, b) pairs of two spellings of one player, whose results are
        their seats' (a mirror match plays one seat order), left out of the fit."""
        pw = (pl.concat(self.parts) if self.parts else
              pl.DataFrame(schema={"block": pl.Int64, "player": pl.String, "opponent": pl.String,
                                   "beat": pl.Float64}))
        same = sorted({pair for a, b in identical for pair in ((a, b), (b, a))})
        if same:  # (an anti-join: the rows are per block and pair, many on a long run)
            drop = pl.DataFrame({"player": [a for a, _ in same], "opponent": [b for _, b in same]},
                                schema={"player": pl.String, "opponent": pl.String})
            pw = pw.join(drop, on=["player", "opponent"], how="anti", maintain_order="left")
        return ratings_from(pw, boots, seed, prior)


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
    s = Ratings()
    once([s], games, players)
    return s.table(boots, seed, prior)


def ratings_from(pw: pl.DataFrame, boots: int = 200, seed: int = 0,
                 prior: float = RATING_PRIOR) -> pl.DataFrame:
    """`ratings` from its per-block comparisons (block, player, opponent, beat)."""
    names = sorted(set(pw["player"]) | set(pw["opponent"]))
    if len(names) < 2:
        return pl.DataFrame({"player": names})
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    blocks = sorted(set(pw["block"]))
    bpos = {b: i for i, b in enumerate(blocks)}
    per_block = np.zeros((len(blocks), k, k))
    for b, p, o, w in pw.select("block", "player", "opponent", "beat").iter_rows():
        per_block[bpos[b], idx[p], idx[o]] += w  # one row per block and pair: a few at most
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


class ArmEffects:
    """Variants designs: each arm's focal player against the baseline arm (the first
    arm by default: the run's first game's), paired by block within each edition:
    differences in win share, score and margin with standard errors across blocks (t
    intervals), each outcome Holm-adjusted over the edition's arms other than the
    baseline (its family). An arm the plan found identical to an earlier one has no
    games and is in no family; the baseline's own row is identical by construction: Δ 0
    with no interval and no p."""

    OWN = ["win_share", "score", "messages_drawn", "moves_live", "moves", "games"]
    PAIRED = ["d_win_share", "one", "d_score", "d_margin"]

    def __init__(self, baseline: str | None = None):
        self.base = baseline
        self.arms: dict[str, None] = {}  # in order of first appearance
        self.own, self.paired = Folds(self.OWN), Folds(self.PAIRED)

    def add(self, b: Batch) -> None:
        self.arms.update(dict.fromkeys(b.games["variant"].unique(maintain_order=True)))
        if self.base is None and b.first and b.games.height:
            self.base = b.games["variant"][0]
        p = b.margin.filter(pl.col("focal"))
        if p.height == 0:
            return
        per = p.group_by("edition", "variant", "block").agg(
            pl.col("win_share").mean(), pl.col("score").mean(), pl.col("margin").mean(),
            pl.col("messages_drawn").mean(), pl.col("moves_live").sum().cast(pl.Float64),
            pl.col("game_id").n_unique().alias("games"),
            (pl.col("moves_meeple").cast(pl.Int64) + pl.col("moves_messenger")).sum().alias("moves"))
        self.own.add(per, ["edition", "variant"])
        base = per.filter(pl.col("variant") == self.base).select(
            "edition", "block", *[pl.col(c).alias(c + "_base") for c in ("win_share", "score", "margin")])
        j = per.join(base, on=["edition", "block"])
        self.paired.add(j.select("edition", "variant",
                                 *[(pl.col(c) - pl.col(c + "_base")).alias("d_" + c)
                                   for c in ("win_share", "score", "margin")],
                                 pl.lit(1.0).alias("one")), ["edition", "variant"])

    def table(self) -> pl.DataFrame:
        if not self.own.by:
            return pl.DataFrame()
        base, own, paired = self.base, self.own, self.paired
        rows = []
        for edition in sorted({e for e, _ in own.by}):
            for arm in self.arms:
                a = own.by.get((edition, arm))
                if a is None:
                    continue
                d = paired.by.get((edition, arm))
                col = lambda c: float(a.total[own.col(c)])  # noqa: E731
                row = {"edition": edition, "arm": arm, "baseline": base, "blocks": 0 if d is None else d.n,
                       "games": int(col("games")), "win_share": col("win_share") / a.n,
                       "score": col("score") / a.n, "messages_per_game": col("messages_drawn") / a.n,
                       "live_share": col("moves_live") / max(1, col("moves"))}
                for c in ("win_share", "score", "margin"):
                    if arm == base:  # the baseline against itself: 0 by construction, no interval
                        row.update({f"d_{c}": 0.0, f"d_{c}_se": None, f"d_{c}_low": None,
                                    f"d_{c}_high": None, f"d_{c}_p": None})
                        continue
                    i = paired.col("d_" + c)
                    m = d if d is not None else Moments.empty(len(self.PAIRED))
                    est = (stats.share_difference_from(m, i, paired.col("one"), i, i)
                           if c == "win_share" else stats.mean_from(m, i))
                    row.update({f"d_{c}": est.estimate, f"d_{c}_se": est.se,
                                f"d_{c}_low": est.low, f"d_{c}_high": est.high, f"d_{c}_p": est.p})
                rows.append(row)
        out = pl.DataFrame(rows)
        family = pl.col("arm") != pl.col("baseline")
        return out.with_columns(pl.lit("arms vs " + base).alias("family"), *[
            _holm_within(out, f"d_{c}_p", family, ["edition"]).alias(f"d_{c}_p_holm")
            for c in ("win_share", "score", "margin")])


def arm_effects(games: pl.DataFrame, players: pl.DataFrame, baseline: str | None = None) -> pl.DataFrame:
    """ArmEffects on frames in memory."""
    s = ArmEffects(baseline)
    once([s], games, players)
    return s.table()


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


class NaiveMessages:
    """CONFOUNDED: win share of players who drew a message at least once minus that of
    players who did not, per edition and action, cluster-robust by block, Holm over
    the edition's actions. Drawing a message follows from scoring, so this mixes the
    message's value with the drawer's strength. Per block: rows, Σ win share, and per
    action its drawers and their Σ win share (stats.cluster_difference_from), folded
    for all actions at once: each action's moments are a part of the whole's."""

    def __init__(self, actions: list[str]):
        self.actions = list(actions)
        self.folds = Folds(["n", "y", *(f"x_{a}" for a in actions), *(f"xy_{a}" for a in actions)])

    def add(self, b: Batch) -> None:
        drew = [(pl.col(f"drawn_{a}") > 0).cast(pl.Float64).alias(f"x_{a}") for a in self.actions]
        per = (b.p.select("edition", "block", "win_share", *drew)
               .with_columns(*[(pl.col(f"x_{a}") * pl.col("win_share")).alias(f"xy_{a}")
                               for a in self.actions])
               .group_by("edition", "block")
               .agg(pl.len().cast(pl.Float64).alias("n"), pl.col("win_share").sum().alias("y"),
                    *[pl.col(c).sum() for c in self.folds.columns[2:]]))
        self.folds.add(per, ["edition"])

    def table(self) -> pl.DataFrame:
        f = self.folds
        n, y = f.col("n"), f.col("y")
        rows = []
        for (edition,) in sorted(f.by):
            m = f.by[(edition,)]
            for a in self.actions:
                x, xy = f.col(f"x_{a}"), f.col(f"xy_{a}")
                if m.total[x] in (0, m.total[n]):  # nobody drew it, or everybody did
                    continue
                est = stats.cluster_difference_from(m, n, x, y, xy)
                rows.append({"edition": edition, "action": a, "drawers": int(m.total[x]),
                             "blocks": est.n, "d_win_share": est.estimate,
                             "d_win_share_low": est.low, "d_win_share_high": est.high,
                             "d_win_share_p": est.p, "confounded": True})
        out = pl.DataFrame(rows)
        if out.height == 0:
            return out
        return out.with_columns(pl.lit("naive message values").alias("family"),
                                _holm_within(out, "d_win_share_p", pl.lit(True), ["edition"]))


def naive_message_values(games: pl.DataFrame, players: pl.DataFrame, actions: list[str]) -> pl.DataFrame:
    """NaiveMessages on frames in memory."""
    s = NaiveMessages(actions)
    once([s], games, players)
    return s.table()


def _message_forks(cf: pl.DataFrame) -> pl.DataFrame:
    """The message forks of a counterfactuals table (figure forks have their own
    analysis, sim/analysis/forks.py) with d_margin and d_win: the action's branch minus
    the 2 points' (the aligned 2-points branch where the run has it: extra tile/turn)."""
    if "fork" in cf.columns:
        cf = cf.filter(pl.col("fork").is_null() | (pl.col("fork") == MESSAGE_FORK))
    two_m, two_w = pl.col("margin_two"), pl.col("win_two")
    if "margin_two_aligned" in cf.columns:  # extra tile/turn: the aligned 2-points branch
        two_m = pl.coalesce("margin_two_aligned", "margin_two")
        two_w = pl.coalesce("win_two_aligned", "win_two")
    return cf.with_columns((pl.col("margin_action") - two_m).alias("d_margin"),
                           (pl.col("win_action") - two_w).alias("d_win"))


class CounterfactualValues:
    """Per edition, action (and phase): the mean difference the action makes over the
    2 points to the drawer's final margin and win share, from forked games (an extra
    tile or turn against the aligned 2-points branch, sim/tournament/counterfactual.py,
    when the run has it). Rollouts and draws are averaged within each block first
    (without games, each game is its own block); standard errors are across blocks, t
    intervals. Holm adjusts the margin and the win p-values over the actions of an
    edition (phase "all") and, separately, over the phase rows of an edition."""

    COLUMNS = ["d_margin", "d_win", "one", "rollouts", "games", "draws"]
    KEYS = ["edition", "action", "phase"]

    def __init__(self, phases: bool = True):
        self.phases = phases
        self.folds = Folds(self.COLUMNS)

    def add(self, b: Batch) -> None:
        if b.counterfactuals is None or b.counterfactuals.height == 0:
            return
        d = _message_forks(b.counterfactuals)
        blocks = (b.blocks if b.games is not None
                  else d.select("game_id").unique().with_columns(pl.col("game_id").alias("block")))
        d = d.join(blocks, on="game_id")
        for part in [d.with_columns(pl.lit("all").alias("phase"))] + ([d] if self.phases else []):
            self.folds.add(part.group_by(*self.KEYS, "block").agg(
                pl.col("d_margin").mean(), pl.col("d_win").mean(), pl.lit(1.0).alias("one"),
                pl.len().alias("rollouts"), pl.col("game_id").n_unique().alias("games"),
                pl.struct("game_id", "draw").n_unique().alias("draws")), self.KEYS)

    def table(self) -> pl.DataFrame:
        f = self.folds
        if not f.by:
            return pl.DataFrame()
        dm, dw, one = f.col("d_margin"), f.col("d_win"), f.col("one")
        rows = []
        for key, m in f.items():
            e = stats.mean_from(m, dm)
            w = stats.share_difference_from(m, dw, one, dw, dw)
            rows.append({"edition": key[0], "action": key[1], "phase": key[2],
                         "games": int(m.total[f.col("games")]), "blocks": m.n,
                         "draws": int(m.total[f.col("draws")]),
                         "rollouts": int(m.total[f.col("rollouts")]),
                         "d_margin": e.estimate, "d_margin_low": e.low, "d_margin_high": e.high,
                         "d_margin_p": e.p, "d_win": w.estimate, "d_win_low": w.low,
                         "d_win_high": w.high, "d_win_p": w.p,
                         "sd_block": math.sqrt(m.var(dm)) if m.n > 1 else None})
        out = pl.DataFrame(rows).sort(*self.KEYS)
        overall = pl.col("phase") == "all"
        return out.with_columns(
            pl.when(overall).then(pl.lit("message values")).otherwise(pl.lit("message values by phase"))
            .alias("family"),
            *[pl.when(overall).then(_holm_within(out, p, overall, ["edition"]))
              .otherwise(_holm_within(out, p, ~overall, ["edition"])).alias(p + "_holm")
              for p in ("d_margin_p", "d_win_p")])


def counterfactual_values(cf: pl.DataFrame, games: pl.DataFrame | None = None,
                          phases: bool = True) -> pl.DataFrame:
    """CounterfactualValues on frames in memory (`games` maps game_id to block;
    without it each game is its own block)."""
    s = CounterfactualValues(phases)
    s.add(Batch(games, None, cf))
    return s.table()
