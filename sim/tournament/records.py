"""The record tables' schemas and the meaning and unit of every column, in one place
(ARCHITECTURE.md layer 5).

    games    one row a game: run, run_id, game_id, block, variant, rotation, edition,
             seed, ruleset, players, expansions, turns, winners
    players  one row a player and game: run_id, game_id, block, variant, seat, player
             spec, focal, score, rank, win_share, points by source, The Messages'
             figures, message counts and points in total and per action, figure moves,
             Messengers & Mayors' counts
    events   (optional) one row an event: run_id, game_id, seq, turn, kind, seat, data
             (JSON)
    counterfactuals  (counterfactual designs) one row a fork and rollout: the deciding
             seat's margin and win share in each branch (*_action: the action or the
             messenger; *_two: the 2 points, the meeple or the follower), the fork
             kind and its context (sim/tournament/counterfactual.py); columns that do
             not apply to a fork kind are null

`(run_id, game_id)` names a game in every table: run_id is the run's identity without
its number of blocks (sim/tournament/config.py run_id_of), so a run keeps it when it is
extended and two directories of one config hold the same games under the same keys.

COLUMNS describes every column (its unit and meaning): each Parquet file carries them
as field metadata (`description`, `unit`), and docs/RECORDS.md's column tables are
rendered from them (`python -m sim.tournament.records docs/RECORDS.md` rewrites them;
tests/test_compare_export.py checks the two agree and that every column is described).

SCHEMA_VERSION changes whenever a column changes meaning or is added; columns are
added, never renamed.
"""

from __future__ import annotations

import re
import sys
from typing import NamedTuple

import numpy as np
import pyarrow as pa

from sim import expansions
from sim.engine.game import EVENT_NAMES
from sim.expansions.base import SOURCES
from sim.expansions.declaration import ROW_POINTS, ROW_RANK, ROW_SCORE

# 2: players.moves_live; 3: Messengers & Mayors columns; 4: figure forks;
# 5: run_id in every table, players.block and players.variant, column metadata,
# players.points_garden and the Abbot's columns (R-ABB-4)
SCHEMA_VERSION = 5

# placeholders in the expansions' column names, each standing for one column per name
# of its set (The Messages' "<action>": one per message action; sim/expansions/
# `column_sets`)
PLACEHOLDERS: dict[str, tuple[str, ...]] = {k: tuple(v) for e in expansions.EXPANSIONS
                                            for k, v in e.column_sets.items()}


class Column(NamedTuple):
    """One row of docs/RECORDS.md's table of a record table: the columns it names (a
    name holding a PLACEHOLDERS key, e.g. <action>, stands for one column per name of
    its set), their unit and their meaning."""

    names: tuple[str, ...]
    unit: str
    meaning: str


_KEYS = [
    Column(("run_id",), "id", "the run's id: a hash of everything that decides its games except "
           "the number of blocks (manifest.json `run_id`); with `game_id` the key of a game "
           "across runs"),
    Column(("game_id",), "id", "the game's number in the run's plan (0, 1, ... in plan order)"),
]
_GAME = [
    Column(("block",), "id", "the block it belongs to (0 ... blocks − 1); the games of a block "
           "share their seed, so their tiles"),
    Column(("variant",), "text", "the arm's name (variants designs), the table `a+b` (round "
           "robin), else \"\""),
]

COLUMNS: dict[str, list[Column]] = {
    "games": [
        Column(("run",), "text", "the config's `run.name`"),
        *_KEYS, *_GAME,
        Column(("rotation",), "seats", "the seat order: seat s plays the table's player (s + rotation) "
               "mod players; with `seat_orders = \"all\"`, the rotation-th permutation p of the "
               "table's positions (Python's itertools.permutations order): seat s plays player p[s]"),
        Column(("edition",), "text", "The Messages' edition (\"classic\", \"c3.1\"), \"\" without "
               "The Messages"),
        Column(("seed",), "id", "the game's seed (from the run's seed and the block; the same for "
               "every game of a block)"),
        Column(("ruleset",), "text", "the parts of the rules in play with their versions and "
               "the knobs that differ from the rules as written, e.g. `base-1+messages-1` or "
               "`base-1+messages-1(two_points=4)`, and a tile set replaced by a tile list "
               "([rules.tiles]) by its text's mark, `mayors-1(tiles=1f90f783)`; in a sweep it "
               "names the game's value of the swept knob"),
        Column(("players",), "seats", "seats of the game (2..6)"),
        Column(("expansions",), "text", "the expansions in play, comma-separated (\"\" for the "
               "base game)"),
        Column(("turns",), "tile placements", "tile placements of the game (the start tile not "
               "counted)"),
        Column(("winners",), "seat numbers", "the seats with the top score (R-BASE-9: a tie "
               "shares the win); in CSV the seats joined by `;`"),
    ],
    "players": [
        *_KEYS, *_GAME,
        Column(("seat",), "seat number", "0 .. players − 1, in turn order"),
        Column(("player",), "text", "the seat's player spec as planned (a strategy, its "
               "parameters and per-decision policies)"),
        Column(("focal",), "flag", "the seat plays the arm being compared (variants), else false"),
        Column(("score",), "points", "final score"),
        Column(("rank",), "place", "1 + the number of players with a strictly higher score"),
        Column(("win_share",), "wins (0..1)", "1 / (number of winners) for a winner, else 0"),
        Column(("points_road", "points_city", "points_monastery", "points_field"), "points",
               "points by source, during play and at the end"),
        Column(("points_message",), "points", "points from messages (The Messages); 0 without it"),
        Column(("points_courier",), "points", "the Courier's thank-yous; 0 without it"),
        Column(("points_garden",), "points", "gardens (the Abbot): completed, at the end, or "
               "taken back with the abbot (R-ABB-4/5); 0 without it"),
        # every expansion's columns, described by its unit's declaration (`column_docs`)
        *(Column(*doc) for e in expansions.EXPANSIONS for doc in e.column_docs),
    ],
    "events": [
        *_KEYS,
        Column(("seq",), "event number", "the event's number in its game (0, 1, ...)"),
        Column(("turn",), "turn number", "the turn it happened in (0: the start tile; final "
               "scoring's: the last turn + 1)"),
        Column(("kind",), "text", ", ".join(EVENT_NAMES)),  # as the C core names them
        Column(("seat",), "seat number", "the seat it concerns, −1 when none"),
        Column(("data",), "JSON", "the event's other fields as JSON (what `carcsim play --json` "
               "shows)"),
    ],
    "counterfactuals": [
        *_KEYS,
        Column(("edition",), "text", "The Messages' edition of the game"),
        Column(("seat",), "seat number", "the deciding seat"),
        Column(("player",), "text", "the deciding seat's player spec"),
        Column(("fork",), "text", "`messages`, `scoring_figure` or `road_figure`"),
        Column(("draw",), "fork number", "the fork's number in its game (for messages forks the "
               "message draw's)"),
        Column(("turn",), "turn number", "the turn of the fork"),
        Column(("tiles_left",), "tiles", "tiles left in the stack at the fork"),
        Column(("phase",), "text", "the game phase: early, mid or late (thirds of the tiles)"),
        Column(("action",), "text", "messages forks: the action drawn; figure forks: "
               "`messenger`"),
        Column(("number",), "message number", "messages forks: the message's number in its "
               "edition (1..8); −1 for figure forks"),
        Column(("action_points",), "points", "the first option's immediate points (−1 for road "
               "forks; null for an extra tile or turn, whose points come in the play it gives)"),
        Column(("rollout",), "rollout number", "the rollout's number (each rollout reseeds both "
               "branches alike)"),
        Column(("margin_action", "margin_two"), "points", "the deciding seat's final margin (its "
               "score − the best other score) in the first and the second option's branch"),
        Column(("win_action", "win_two"), "wins (0..1)", "its win share in each branch"),
        Column(("margin_two_aligned",), "points", "the second branch's margin with the stack "
               "after the fork rotated by one (extra tile or turn), null otherwise and where the "
               "rotation would move a river tile (R-RIV-1)"),
        Column(("win_two_aligned",), "wins (0..1)", "its win share in that aligned branch, null "
               "otherwise"),
        Column(("other",), "text", "what the second option was (`two`, `meeple`, `follower`)"),
        Column(("chose_action",), "flag", "whether the player chose the first option in the "
               "game itself"),
        Column(("source",), "text", "scoring-figure forks: the points' source"),
        Column(("lands",), "text", "scoring-figure forks: which figure would land on a dark "
               "space"),
        Column(("dist_meeple", "dist_messenger"), "scoreboard spaces", "scoring-figure forks: "
               "each figure's distance to the next dark space"),
        Column(("road_tiles",), "tiles", "road forks: the road's tiles"),
        Column(("road_open",), "open ends", "road forks: the road's open ends"),
        Column(("ride_near",), "flag", "road forks: whether a ride target is near"),
    ],
}


def _expand(name: str) -> list[tuple[str, str | None]]:
    """(column, what it is one of: "action smallest_road", or None) of each column
    `name` stands for."""
    for key, values in PLACEHOLDERS.items():
        if key in name:
            return [(name.replace(key, v), f"{key.strip('<>')} {v}") for v in values]
    return [(name, None)]


def described(table: str) -> dict[str, tuple[str, str]]:
    """{column: (unit, meaning)} of every column COLUMNS describes for `table`; a
    name with a placeholder (<action>) has its meaning say which one the column is."""
    out = {}
    for c in COLUMNS[table]:
        for name in c.names:
            for concrete, which in _expand(name):
                out[concrete] = (c.unit, c.meaning if which is None else f"{c.meaning} ({which})")
    return out


def _schema(table: str, columns: list[tuple[str, pa.DataType]]) -> pa.Schema:
    """The schema with each field's meaning and unit as its metadata. KeyError names a
    column COLUMNS does not describe (describe it there, then rerender the docs)."""
    about = described(table)
    missing = [n for n, _ in columns if n not in about]
    if missing:
        raise KeyError(f"{table}.{missing[0]}: not described in sim/tournament/records.py COLUMNS")
    return pa.schema([pa.field(n, t, metadata={"description": about[n][1], "unit": about[n][0]})
                      for n, t in columns],
                     metadata={"carcsim.table": table, "carcsim.schema_version": str(SCHEMA_VERSION)})


_KEY_TYPES = [("run_id", pa.string()), ("game_id", pa.int64())]
_GAME_TYPES = [("block", pa.int32()), ("variant", pa.string())]

GAMES = _schema("games", [
    ("run", pa.string()), *_KEY_TYPES, *_GAME_TYPES, ("rotation", pa.int8()),
    ("edition", pa.string()), ("seed", pa.int64()), ("ruleset", pa.string()),
    ("players", pa.int8()), ("expansions", pa.string()), ("turns", pa.int16()),
    ("winners", pa.list_(pa.int8())),
])

PLAYERS = _schema("players",
    [*_KEY_TYPES, *_GAME_TYPES, ("seat", pa.int8()), ("player", pa.string()),
     ("focal", pa.bool_()), ("score", pa.int16()), ("rank", pa.int8()),
     ("win_share", pa.float64())]
    + [(f"points_{s}", pa.int16()) for s in SOURCES]
    + [(c, pa.int16()) for c in expansions.columns()]
)

EVENTS = _schema("events", [
    *_KEY_TYPES, ("seq", pa.int32()), ("turn", pa.int16()), ("kind", pa.string()),
    ("seat", pa.int8()), ("data", pa.string()),
])

COUNTERFACTUALS = _schema("counterfactuals", [
    *_KEY_TYPES, ("edition", pa.string()), ("draw", pa.int16()), ("turn", pa.int16()),
    ("tiles_left", pa.int16()), ("phase", pa.string()), ("seat", pa.int8()),
    ("player", pa.string()), ("action", pa.string()), ("number", pa.int8()),
    ("action_points", pa.int16()), ("rollout", pa.int16()), ("margin_action", pa.int16()),
    ("margin_two", pa.int16()), ("win_action", pa.float64()), ("win_two", pa.float64()),
    ("fork", pa.string()), ("other", pa.string()), ("chose_action", pa.bool_()),
    ("source", pa.string()), ("lands", pa.string()), ("dist_meeple", pa.int8()),
    ("dist_messenger", pa.int8()), ("road_tiles", pa.int16()), ("road_open", pa.int16()),
    ("ride_near", pa.bool_()),
    ("margin_two_aligned", pa.int16()), ("win_two_aligned", pa.float64()),
])

TABLES = {"games": GAMES, "players": PLAYERS, "events": EVENTS, "counterfactuals": COUNTERFACTUALS}


def player_row(game_id: int, spec: str, focal: bool, p: dict, winners: list[int], *,
               run_id: str, block: int, variant: str) -> dict:
    """A players-table row from one entry of Game.result()["players"]; run_id, block
    and variant are the game's (its games row)."""
    row = {"run_id": run_id, "game_id": game_id, "block": block, "variant": variant,
           "seat": p["seat"], "player": spec, "focal": focal, "score": p["score"],
           "rank": p["rank"], "win_share": (1.0 / len(winners)) if p["seat"] in winners else 0.0}
    row.update({f"points_{s}": p["points"].get(s, 0) for s in SOURCES})
    row.update(expansions.player_columns(p))
    return row


def players_table(rules, batch: dict, game_ids, seat_specs, focal, *, run_id: str, blocks,
                  variants):
    """The records' players table (PLAYERS) of a sim.engine.game `play_batch`
    result, column by column without a loop over games: game_ids, blocks, variants and
    focal per game (the focal seat, or a row of booleans per seat), seat_specs per game
    (the player spec of each seat). The same rows as records.player_row of each game's
    result."""
    res = batch["results"]  # games x seats x RESULT_INTS
    games, n = res.shape[:2]
    score = res[:, :, ROW_SCORE]
    won = (batch["winners"][:, None] >> np.arange(n)) & 1
    share = won / won.sum(axis=1, keepdims=True)
    each_seat = pa.array(np.repeat(np.arange(games), n))  # row -> its game
    cols = {"run_id": pa.repeat(pa.scalar(run_id, pa.string()), games * n),
            "game_id": np.repeat(np.asarray(game_ids, dtype=np.int64), n),
            "block": np.repeat(np.asarray(blocks, dtype=np.int32), n),
            "variant": pa.array(list(variants), type=pa.string()).take(each_seat),
            "seat": np.tile(np.arange(n, dtype=np.int8), games),
            "player": [s for specs in seat_specs for s in specs],
            "focal": (np.asarray(focal, dtype=bool) if np.ndim(focal) == 2 else
                      np.arange(n)[None, :] == np.asarray(focal)[:, None]).ravel(),
            "score": score.ravel(), "rank": res[:, :, ROW_RANK].ravel(), "win_share": share.ravel()}  # rank: C's (R-BASE-9)
    for i, source in enumerate(SOURCES):
        cols[f"points_{source}"] = res[:, :, ROW_POINTS.start + i].ravel()
    # each part in play's columns (sim/expansions/), the others' 0
    cols.update(dict.fromkeys(expansions.columns(), np.zeros(games * n, dtype=np.int16)))
    for e in expansions.in_play(rules.expansions):
        if e.read_batch is not None:
            cols.update(e.read_batch(rules, res))
    return pa.Table.from_pydict({f.name: cols[f.name] if isinstance(cols[f.name], pa.Array)
                                 else pa.array(cols[f.name], type=f.type) for f in PLAYERS},
                                schema=PLAYERS)


# --- docs/RECORDS.md's column tables -----------------------------------------------------

def _type_name(t: pa.DataType) -> str:
    if pa.types.is_list(t):
        return f"list of {_type_name(t.value_type)}"
    return {"double": "float64", "string": "string", "bool": "bool"}.get(str(t), str(t))


def markdown(table: str) -> str:
    """The column table of `table` as docs/RECORDS.md shows it: one row per COLUMNS entry."""
    schema = TABLES[table]
    lines = ["| column | type | unit | meaning |", "| --- | --- | --- | --- |"]
    for c in COLUMNS[table]:
        types = sorted({_type_name(schema.field(n).type) for name in c.names for n, _ in _expand(name)})
        names = ", ".join(f"`{n}`" for n in c.names)
        lines.append(f"| {names} | {', '.join(types)} | {c.unit} | {c.meaning} |")
    return "\n".join(lines)


BEGIN = "<!-- columns of {table}: rendered from sim/tournament/records.py COLUMNS -->"
END = "<!-- end of columns -->"


def render_docs(text: str) -> str:
    """`text` (docs/RECORDS.md) with each table's column table, between its BEGIN and
    END markers, rendered anew. ValueError when a table's markers are missing."""
    for table in TABLES:
        begin = BEGIN.format(table=table)
        pattern = re.compile(re.escape(begin) + r"\n.*?" + re.escape(END), re.S)
        if not pattern.search(text):
            raise ValueError(f"no {begin} ... {END} section")
        text = pattern.sub(lambda _: f"{begin}\n{markdown(table)}\n{END}", text, count=1)
    return text


if __name__ == "__main__":  # python -m sim.tournament.records docs/RECORDS.md
    from pathlib import Path

    doc = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/RECORDS.md")
    doc.write_text(render_docs(doc.read_text()))
