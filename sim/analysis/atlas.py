"""The balance atlas (docs/findings.md, "The atlas"): one table per question, the table
sizes (2 to 5 players) as columns, so a reader sees at a glance what changes with the
number of players. Each column is its own run (sim/configs/atlas_*_<n>p.toml); every
cell is that run's `carcsim report` estimate with its 95% interval, clustered by block.

Render functions take the reports in player-count order (the section's run first, then
the runs it sets itself beside) and return lines of markdown.
"""

from __future__ import annotations

import math

from sim.analysis.forks import ALL, FORKED, PRIMARY, PRIMARY_WORDS

PLAYER_COUNTS = (2, 3, 4, 5)


def _est(v, low, high, digits, signed=False) -> str:
    if v is None:
        return "—"
    sign = "+" if signed else ""
    lo, hi = ("—" if b is None or not math.isfinite(b) else f"{b:.{digits}f}" for b in (low, high))
    return f"{v:{sign}.{digits}f} [{lo}, {hi}]"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "| " + " | ".join("---" for _ in head) + " |"]
    return out + ["| " + " | ".join(r) + " |" for r in rows]


def _players(rep) -> int:
    return rep["provenance"]["config"]["rules"]["players"]


def _heads(reps) -> list[str]:
    return [f"{_players(r)} players ({r['provenance']['blocks_stored']:,} blocks)" for r in reps]


def seat_advantage(*reps) -> list[str]:
    """Each seat's win share at each table size, beside the fair share 1/players."""
    seats = max(_players(r) for r in reps)
    by = [{row["seat"]: row for row in r["seat"]} for r in reps]
    rows = []
    for s in range(seats):
        cells = []
        for r, b in zip(reps, by):
            row = b.get(s)
            cells.append("—" if row is None else _est(row["win_share"], row["low"], row["high"], 3))
        rows.append([f"seat {s}", *cells])
    rows.append(["fair share (1/players)", *(f"{1 / _players(r):.3f}" for r in reps)])
    rows.append(["games with a shared win", *(f"{r['tie_rate']:.3f}" for r in reps)])
    return (["Win share of each seat (a shared win counts 1/winners), identical greedy "
             "players with The Messages (c3.1); seat 0 moves first. Unit: a player-game; "
             "intervals over blocks.", ""]
            + _table(["seat", *_heads(reps)], rows))


def _values(rep) -> dict:
    return {(r["edition"], r["action"]): r for r in rep.get("counterfactual", []) if r["phase"] == "all"}


TARGET = 0.1  # points: the half-width every message-value cell of the atlas is sized for


def message_values(*reps) -> list[str]:
    """Each message's value against its 2 points at each table size: the drawer's final
    margin (points) and, in a second table, its win probability."""
    by = [_values(r) for r in reps]
    keys = list(dict.fromkeys(k for b in by for k in sorted(b)))
    out = ["Value of one action instead of its 2 points, when every other message is taken "
           "as 2 points (`always_2` seats, greedy placement), over the draws where the action "
           "is possible; unit: a draw (a fork), intervals over blocks. The drawer's final "
           "margin over the best other player, in points:", ""]
    head = ["edition", "action − 2 points", *_heads(reps)]
    out += _table(head, [[e, a, *("—" if (e, a) not in b else
                                 _est(b[(e, a)]["d_margin"], b[(e, a)]["d_margin_low"],
                                      b[(e, a)]["d_margin_high"], 2, True) for b in by)]
                         for e, a in keys])
    out += ["", "The same forks, the drawer's win probability:", ""]
    out += _table(head, [[e, a, *("—" if (e, a) not in b else
                                 _est(b[(e, a)]["d_win"], b[(e, a)]["d_win_low"],
                                      b[(e, a)]["d_win_high"], 3, True) for b in by)]
                         for e, a in keys])
    widest = [max(((v["d_margin_high"] - v["d_margin_low"]) / 2 for v in b.values()
                   if v.get("d_margin_low") is not None), default=0.0) for b in by]
    wide = sum((v["d_margin_high"] - v["d_margin_low"]) / 2 > TARGET for b in by for v in b.values()
               if v.get("d_margin_low") is not None)
    verdict = (f"every margin cell is within ±{TARGET} points" if not wide else
               f"{wide} margin cell{' is' if wide == 1 else 's are'} wider than ±{TARGET} points")
    out += ["", "Widest margin interval per table size: "
            + ", ".join(f"±{w:.3f} points ({_players(r)} players)" for w, r in zip(widest, reps))
            + f": {verdict}. Half-widths shrink as 1/√blocks; `carcsim plan "
              "atlas_message_values_<n>p --half-width 0.01 --half-width-points 0.1` gives the "
              "blocks and CPU-seconds each cell needs for ±0.1 points."]
    return out


def _strata(rep, kind: str) -> dict:
    """{(edition, stratum): row} of a fork run's overall row (stratum "all") and its rows
    per stratum of the primary condition (sim/analysis/forks.py PRIMARY)."""
    return {(r["edition"], r["stratum"]): r for r in rep.get(f"fork_{kind}", [])
            if r["dimension"] in (ALL, PRIMARY[kind])}


def _cell(r) -> str:
    if r.get("d_margin_low") is None:  # the fork analysis states why in words
        return f"{r['d_margin']:+.2f} ({r.get('d_margin_note') or 'no interval'}; {r['forks']:,} forks)"
    return f"{_est(r['d_margin'], r['d_margin_low'], r['d_margin_high'], 2, True)} ({r['forks']:,} forks)"


def forks(kind: str, first: str, other: str):
    """A render function for a fork kind: the overall value of `first` over `other` and
    its value within each stratum of the primary condition, at each table size."""
    def render(*reps) -> list[str]:
        by = [_strata(r, kind) for r in reps]
        keys = list(dict.fromkeys(k for b in by for k in b))
        keys.sort(key=lambda k: (k[0], k[1] != ALL))
        rows = [[e, "every fork" if st == ALL else f"{PRIMARY[kind]} = {st}",
                 *("—" if (e, st) not in b else _cell(b[(e, st)]) for b in by)] for e, st in keys]
        return ([f"{first} − {other} at the moment of choice, in the chooser's final margin "
                 f"(points), overall and within {PRIMARY_WORDS[kind]}; unit: a fork ({FORKED[kind]}), "
                 f"intervals over blocks; both branches finished by the same players with the "
                 f"same random streams:", ""]
                + _table(["edition", "forks", *_heads(reps)], rows))
    return render


scoring_figure_forks = forks("scoring_figure", "messenger", "meeple")
road_figure_forks = forks("road_figure", "messenger meeple", "follower")


def abbot_message_values(with_abbot, without) -> list[str]:
    """The c3.1 message values with the Abbot beside the same runs' without it."""
    a, b = _values(with_abbot), _values(without)
    keys = sorted(a)  # the editions its config plays (c3.1)
    rows = [[f"{k[1]} ({k[0]})", _est(a[k]["d_margin"], a[k]["d_margin_low"], a[k]["d_margin_high"], 2, True),
             "—" if k not in b else _est(b[k]["d_margin"], b[k]["d_margin_low"], b[k]["d_margin_high"], 2, True)]
            for k in keys]
    return (["The Messages (c3.1), 2 players: each action − its 2 points in the drawer's final "
             "margin (points), with the Abbot and gardens and without them (the same master "
             "seed). Message 3 counts an abbot as a monk and gardens with an abbot (R-ABB-6).", ""]
            + _table(["action − 2 points", f"with the Abbot ({with_abbot['provenance']['blocks_stored']:,} blocks)",
                      f"without ({without['provenance']['blocks_stored']:,} blocks)"], rows))
