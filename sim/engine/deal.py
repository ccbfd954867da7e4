"""Dealing a game for the C core: the tile catalogue, the stack and the message deck
as the C game is given them (R-BASE-2, R-RIV-1, R-MSG-11), and the decisions and
figure kinds sim/engine/game.py reads back. What each expansion adds to them (its bit, tiles,
config fields, action codes) is its declaration's (sim/expansions/).

The shuffles themselves are done in C (the same Fisher-Yates on the same SplitMix64
streams as sim/engine/rng.py Stream.shuffle); `tile_order` and `deck_order` give the same
orders from Python for the reference engine (sim/games/differential.py) and the tests.
"""

from __future__ import annotations

import dataclasses
import functools
import struct
from typing import NamedTuple

from sim import expansions

from sim.expansions import messages
from sim.core import check, ffi, lib
from sim.engine.board import Catalogue
from sim.errors import InputError
from sim.expansions.mayors import KIND_NAMES
from sim.expansions.river import is_river_tile
from sim.engine.rng import Stream, derive
from sim.engine.rules import Rules
from sim.formats.tiles import KINDS, Tile, parse_tiles, tile_set

FIGURE_KINDS = KIND_NAMES  # index = the kind code stored in the C core

ROAD_ENDS = {"": lib.CC_END_NONE, "village": lib.CC_END_VILLAGE, "monastery": lib.CC_END_MONASTERY,
             "house": lib.CC_END_HOUSE}


_ROW = struct.Struct("=5i")  # a place decision's row: x, y, rotation, figure kind, segment


class Rows:
    """A place decision's choices, (x, y, rotation, figure, segment) rows, read from the
    C game's buffer as it is and unpacked only when asked for: a Python seat's every
    place decision would otherwise build ~200 tuples with every expansion in play, most
    of which a policy never looks at. An immutable sequence of tuples: equal to the
    tuple of its rows, and `index` finds a row (a 5-tuple or Place) in the buffer."""

    __slots__ = ("_buf", "_n")

    def __init__(self, buf: bytes):
        self._buf, self._n = buf, len(buf) // _ROW.size

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(self)[i]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("row index out of range")
        return _ROW.unpack_from(self._buf, i * _ROW.size)

    def __iter__(self):
        return _ROW.iter_unpack(self._buf)

    def index(self, row) -> int:
        try:
            key = _ROW.pack(*row)
        except (struct.error, TypeError):  # not five whole numbers: not a row
            raise ValueError(f"{row!r} is not a row") from None
        at = self._buf.find(key)
        while at >= 0 and at % _ROW.size:  # a match across two rows' ints
            at = self._buf.find(key, at + 1)
        if at < 0:
            raise ValueError(f"{row!r} is not a row")
        return at // _ROW.size

    def __contains__(self, row) -> bool:
        try:
            self.index(row)
        except ValueError:
            return False
        return True

    def __eq__(self, other) -> bool:
        if isinstance(other, Rows):
            return self._buf == other._buf
        try:
            return tuple(self) == tuple(other)
        except TypeError:
            return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __reduce__(self):
        return Rows, (self._buf,)

    def __repr__(self) -> str:
        return repr(tuple(self))


class Decision(NamedTuple):
    kind: str  # "place" | "scoring_figure" | "messages" | a Messengers & Mayors kind
    seat: int
    tile: str  # the tile being placed ("" for other decisions)
    choices: tuple
    info: dict | None = None


_catalogues: dict[tuple, Catalogue] = {}


def _built_in_tiles(rules: Rules) -> tuple[Tile, ...]:
    """The tile types the rules' parts add after their tile sets' own (sim/expansions/)."""
    return tuple(t for e in expansions.in_play(rules.expansions) for t in e.tiles)


def _left_out(rules: Rules) -> frozenset[str]:
    """The feature kinds no part in play brings onto tiles (R-ABB-1: without the Abbot a
    garden tile is plain)."""
    brought = {k for e in expansions.in_play(rules.expansions) for k in e.features}
    return frozenset(k for k in KINDS if k not in brought)


@functools.lru_cache(maxsize=64)
def _given_set(name: str, text: str) -> tuple[Tile, ...]:
    """A tile set replaced by a tile list ([rules.tiles]): its text parsed, each tile's
    source the list (its normal form has lost the file's line numbers)."""
    return tuple(dataclasses.replace(t, source=f"the tile list of rules.tiles.{name}")
                 for t in parse_tiles(text, f"rules.tiles.{name}"))


def _types_of(rules: Rules, name: str) -> tuple[Tile, ...]:
    """Tile set `name` as the rules have it: the tile list replacing it, or the shipped set."""
    given = dict(rules.tiles)
    return _given_set(name, given[name]) if name in given else tile_set(name)


def _set_tiles(rules: Rules) -> list[Tile]:
    """The tile types of the rules' tile sets (or the tile lists replacing them), in
    catalogue order, as these rules play them (segments of kinds not in play left out)."""
    out = _left_out(rules)
    return [t.without(out) for name in rules.tile_sets for t in _types_of(rules, name)]


_keys: dict[tuple, tuple] = {}


def _catalogue_key(rules: Rules) -> tuple:
    """(tile sets, the tile lists replacing some, built-in tile ids, feature kinds left
    out): what a catalogue is made of (looked up once per expansion list and tile lists:
    every game asks)."""
    key = _keys.get((rules.expansions, rules.tiles))
    if key is None:
        key = _keys[rules.expansions, rules.tiles] = (
            rules.tile_sets, rules.tiles, tuple(t.id for t in _built_in_tiles(rules)), _left_out(rules))
    return key


MAX_STACK = 3000  # tiles a game's stack may hold (the C game's bound, game.c game_check_config)


def check_tiles(rules: Rules) -> None:
    """Raises InputError when the rules' tiles cannot make a game: a tile id in two
    sets, no start tile (or spring), a `replaces` without copies to spare, or a stack
    past MAX_STACK tiles. Tile lists ([rules.tiles]) are checked here before any game."""
    seen: dict[str, str] = {}
    for name in rules.tile_sets:
        for t in _types_of(rules, name):
            if t.id in seen:
                raise InputError(f"tile {t.id} ({t.source}): also in tile set {seen[t.id]}: "
                                 f"expected tile ids that differ across the sets in play")
            seen[t.id] = name
    for t in _built_in_tiles(rules):
        if t.id in seen:
            raise InputError(f"tile {t.id} (tile set {seen[t.id]}): {t.id} is a built-in tile of "
                             f"these rules: expected another id")
    start, river, lake, land = stack_plan(rules)
    if len(river) + len(lake) + len(land) > MAX_STACK:
        raise InputError(f"{len(river) + len(lake) + len(land):,} tiles in the stack: expected at "
                         f"most {MAX_STACK:,}")
    catalogue_for(rules)


def catalogue_for(rules: Rules) -> Catalogue:
    """The tile catalogue of a rules' tile sets and its parts' built-in tiles (the town
    hall, R-MM-10), built once per process and key, with every road's end given to its
    C tile set (the messenger's rides, R-MM-6)."""
    key = _catalogue_key(rules)
    if key not in _catalogues:
        cat = Catalogue(_set_tiles(rules) + list(_built_in_tiles(rules)))
        for i, t in enumerate(cat.types):
            ends = [(lib.CC_END_GATE + s.gate) if s.end == "city" else ROAD_ENDS[s.end]
                    for s in t.segments]
            check(lib.cc_tileset_set_road_ends(cat._ts, i, ffi.new("int8_t[]", ends or [0]), len(ends)),
                  f"cc_tileset_set_road_ends({t.id})")
        _catalogues[key] = cat
    return _catalogues[key]


_plans: dict[tuple, tuple] = {}


def stack_plan(rules: Rules) -> tuple[Tile, list[str], list[str], list[str]]:
    """(start tile, river tiles, lake, land tiles) as ids with repeats.

    R-BASE-2: the start tile is the one marked `start`, one copy of it leaves the
    stack. R-RIV-1: with the River the spring starts instead, every land tile (the
    usual start tile's copies too) is a land tile, and the lake ends the river stack.
    A tile marked `replaces(<ID>)` takes the place of one copy of <ID> per copy of its
    own (R-ABB-1: the garden copies).
    """
    key = (rules.expansions, rules.tiles)
    if key not in _plans:
        tiles = _set_tiles(rules)
        copies = {t.id: t.count for t in tiles}
        for t in tiles:
            if t.replaces():
                if copies.get(t.replaces(), 0) < t.count:
                    raise InputError(f"tile {t.id} ({t.source}): replaces({t.replaces()}): "
                                     f"expected a tile of these tile sets with {t.count} copies to spare")
                copies[t.replaces()] -= t.count
        # R-RIV-1: a part in play deals the river tiles as a stack of their own, else
        # none plays (MMR joins only with the River, R-MM-0)
        river_stack = any(e.river_stack for e in expansions.in_play(rules.expansions))
        if not river_stack:
            tiles = [t for t in tiles if not is_river_tile(t)]
        river = [t for t in tiles if is_river_tile(t)]
        land = [t for t in tiles if not is_river_tile(t)]
        mark = "spring" if river_stack else "start"
        starts = [t for t in (river if river_stack else land) if t.has(mark)]
        sets = ", ".join(rules.tile_sets)
        if len(starts) != 1:
            raise InputError(f"tile sets {sets}: expected exactly one {mark} tile"
                             + (" among the river tiles (R-RIV-1)" if river_stack else " (R-BASE-2)"))
        start = starts[0]
        if copies[start.id] < 1:  # R-BASE-2: the start tile is one of its copies
            raise InputError(f"tile {start.id} ({start.source}): the {mark} tile: every copy is "
                             f"replaced (replaces): expected one left to start with")
        lakes = [t for t in river if t.has("lake")]
        if river_stack and (len(lakes) != 1 or copies[lakes[0].id] != 1 or copies[start.id] != 1):
            raise InputError(f"tile sets {sets}: expected one spring and one lake tile, one copy "
                             f"each (R-RIV-1)")
        lake = [t.id for t in lakes]
        flowing = [t.id for t in river if t is not start and not t.has("lake")
                   for _ in range(copies[t.id])]
        land_ids = [t.id for t in land for _ in range(copies[t.id] - (t is start))]
        _plans[key] = (start, tuple(flowing), tuple(lake), tuple(land_ids))
    start, flowing, lake, land = _plans[key]
    return start, list(flowing), list(lake), list(land)


def tile_order(rules: Rules, seed: int) -> tuple[Tile, list[str]]:
    """R-BASE-2 (and R-RIV-1): the start tile and every other tile in draw order, as
    the C game shuffles them."""
    start, river, lake, land = stack_plan(rules)
    stream = Stream(derive(seed, "tiles"))
    stream.shuffle(river)
    stream.shuffle(land)
    return start, river + lake + land


def deck_order(rules: Rules, seed: int) -> list[str]:
    """R-MSG-11: the message deck from the top, as the C game shuffles it ([] without
    The Messages)."""
    options = expansions.deck_options(rules)
    return [] if options is None else messages.deck_order(rules, Stream(derive(seed, "messages")))


def stack_tiles(rules: Rules) -> tuple[Tile, list[str]]:
    """(start tile, every tile a stack may hold, as ids with repeats)."""
    start, river, lake, land = stack_plan(rules)
    return start, river + lake + land


def check_stack(order: list[str], available: list[str]) -> None:
    """Raises InputError for a fixed stack naming an unknown tile or too many copies."""
    left: dict[str, int] = {}
    for i in available:
        left[i] = left.get(i, 0) + 1
    for n, tid in enumerate(order, 1):
        if tid not in left:
            raise InputError(f"tile {n} of the stack: unknown tile id {tid!r}")
        if left[tid] == 0:
            raise InputError(f"tile {n} of the stack: no copy of {tid!r} is left in the tile sets")
        left[tid] -= 1


_flags: dict[tuple, bytes] = {}


def tile_flags(rules: Rules) -> bytes:
    """CC_TILE_* of every tile type of the rules' catalogue (built once per catalogue)."""
    key = _catalogue_key(rules)
    if key not in _flags:
        _flags[key] = bytes((lib.CC_TILE_RIVER if is_river_tile(t) else 0)
                            | (lib.CC_TILE_LETTER if t.has("letter") else 0)
                            for t in catalogue_for(rules).types)
    return _flags[key]


_deals: dict[tuple, tuple] = {}


def dealt(rules: Rules, record: int, stack: list[str] | None = None, town_halls_at_end: bool = True):
    """(cc_game_config, stack cdata, its length) for `rules`: a seeded game's stack and
    deck in their unshuffled order with the shuffles left to C (the tiles stream and
    messages stream are the caller's to set), or a fixed `stack` of tile ids in draw
    order. The config is the caller's own; the stack cdata may be shared between games
    (the C game copies it), so it must not be written to.

    Raises InputError for a bad stack."""
    if stack is not None:
        return _deal(rules, record, stack, town_halls_at_end)
    # every seeded game of these rules is dealt alike until C shuffles: dealt once
    key = (rules, record, town_halls_at_end)
    deal = _deals.get(key)
    if deal is None:
        deal = _deals[key] = _deal(rules, record, None, town_halls_at_end)
    cfg, tiles, n = deal
    return ffi.new("cc_game_config *", cfg[0]), tiles, n


def _deal(rules: Rules, record: int, stack: list[str] | None, town_halls_at_end: bool):
    """dealt() worked out."""
    cat = catalogue_for(rules)
    cfg = ffi.new("cc_game_config *")
    start, river, lake, land = stack_plan(rules)
    if stack is None:
        order = river + lake + land
        cfg.shuffle_stack, cfg.river_tiles, cfg.lake_tiles = 1, len(river), len(lake)
    else:
        order = list(stack)
        check_stack(order, river + lake + land)
    cfg.nplayers, cfg.followers = rules.players, rules.followers
    cfg.start_type = cat.index[start.id]
    cfg.record = record
    for e in expansions.in_play(rules.expansions):
        cfg.expansions |= e.bit
        if e.fill_config is not None:
            e.fill_config(rules, cfg, cat, town_halls_at_end)
    return cfg, ffi.new("int32_t[]", [cat.index[t] for t in order] or [0]), len(order)
