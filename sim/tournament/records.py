"""The record tables' schemas, in one place (ARCHITECTURE.md layer 5).

    games    one row a game: run, game_id, block, variant, rotation, edition, seed,
             ruleset, players, expansions, turns, winners
    players  one row a player and game: seat, player spec, focal, score, rank,
             win_share, points by source, The Messages' figures, message counts and
             points in total and per action, figure moves
    events   (optional) one row an event: game_id, seq, turn, kind, seat, data (JSON)
    counterfactuals  (counterfactual designs) one row a fork and rollout: the deciding
             seat's margin and win share in each branch (*_action: the action or the
             messenger; *_two: the 2 points, the meeple or the follower), the fork
             kind and its context (sim/tournament/counterfactual.py); columns that do
             not apply to a fork kind are null

SCHEMA_VERSION changes whenever a column changes meaning; columns are added, never
renamed.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from sim import expansions
from sim.expansions.base import SOURCES
from sim.expansions.declaration import ROW_POINTS, ROW_RANK, ROW_SCORE

SCHEMA_VERSION = 5  # 2: players.moves_live; 3: Messengers & Mayors columns; 4: figure forks;
# 5: points_garden (R-ABB-4)

# Messengers & Mayors, per player (0 when not in play); every expansion's columns are
# declared with it in sim/expansions/
MM_COLUMNS = expansions.BY_NAME["mayors"].columns

GAMES = pa.schema([
    ("run", pa.string()), ("game_id", pa.int64()), ("block", pa.int32()),
    ("variant", pa.string()), ("rotation", pa.int8()), ("edition", pa.string()),
    ("seed", pa.int64()), ("ruleset", pa.string()), ("players", pa.int8()),
    ("expansions", pa.string()), ("turns", pa.int16()), ("winners", pa.list_(pa.int8())),
])

PLAYERS = pa.schema(
    [("game_id", pa.int64()), ("seat", pa.int8()), ("player", pa.string()), ("focal", pa.bool_()),
     ("score", pa.int16()), ("rank", pa.int8()), ("win_share", pa.float64())]
    + [(f"points_{s}", pa.int16()) for s in SOURCES]
    + [(c, pa.int16()) for c in expansions.columns()]
)

EVENTS = pa.schema([
    ("game_id", pa.int64()), ("seq", pa.int32()), ("turn", pa.int16()), ("kind", pa.string()),
    ("seat", pa.int8()), ("data", pa.string()),
])

COUNTERFACTUALS = pa.schema([
    ("game_id", pa.int64()), ("edition", pa.string()), ("draw", pa.int16()), ("turn", pa.int16()),
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


def player_row(game_id: int, spec: str, focal: bool, p: dict, winners: list[int]) -> dict:
    """A players-table row from one entry of Game.result()["players"]."""
    row = {"game_id": game_id, "seat": p["seat"], "player": spec, "focal": focal,
           "score": p["score"], "rank": p["rank"],
           "win_share": (1.0 / len(winners)) if p["seat"] in winners else 0.0}
    row.update({f"points_{s}": p["points"].get(s, 0) for s in SOURCES})
    row.update(expansions.player_columns(p))
    return row


def players_table(rules, batch: dict, game_ids, seat_specs, focal):
    """The records' players table (PLAYERS) of a sim.engine.game `play_batch`
    result, column by column without a loop over games: game_ids and focal per game
    (the focal seat, or a row of booleans per seat), seat_specs per game (the player
    spec of each seat). The same rows as records.player_row of each game's result."""
    res = batch["results"]  # games x seats x CC_RESULT_INTS
    games, n = res.shape[:2]
    score = res[:, :, ROW_SCORE]
    won = (batch["winners"][:, None] >> np.arange(n)) & 1
    share = won / won.sum(axis=1, keepdims=True)
    cols = {"game_id": np.repeat(np.asarray(game_ids, dtype=np.int64), n),
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
    return pa.Table.from_pydict({f.name: pa.array(cols[f.name], type=f.type) for f in PLAYERS},
                                schema=PLAYERS)
