"""The board: a Python owner of the C core's board handle (STYLE.md rule 6).

Callers see ints and tuples, never cdata. One C call per hot operation; results are
read from a buffer the call filled in one go.

Features are named by the segment at their root (`tile_index * 12 + local`); a root
is valid until the next placement, so keep segments, not roots, across placements.
"""

from __future__ import annotations

from typing import NamedTuple

from sim.core import check, ffi, lib
from sim.formats.tiles import ANY_EDGE, EDGE_TYPES, KINDS, Tile, distinct_rotations

MAX_SEGS = lib.CC_MAX_SEGS


class Catalogue:
    """The tile types a game can place, registered once in a C tileset.

    `types[i]` is the tile type with C index i; `variant(i, r)` the Tile turned r times.
    """

    def __init__(self, tiles: list[Tile] | tuple[Tile, ...]):
        self.types = tuple(tiles)
        self.index = {t.id: i for i, t in enumerate(self.types)}
        self._variants = tuple(tuple(t.rotated(r) for r in range(4)) for t in self.types)
        self.distinct = tuple(distinct_rotations(t) for t in self.types)
        self._ts = ffi.gc(lib.cc_tileset_new(max(1, len(self.types))), lib.cc_tileset_free)
        if self._ts == ffi.NULL:
            raise MemoryError("cc_tileset_new failed")
        for i, t in enumerate(self.types):
            defs = ffi.new("cc_tiledef[4]")
            for r in range(4):
                self._fill(defs[r], self._variants[i][r], r in self.distinct[i])
            check(lib.cc_tileset_add(self._ts, defs), f"cc_tileset_add({t.id})")

    @staticmethod
    def _fill(d, tile: Tile, distinct: bool) -> None:
        for e, ch in enumerate(tile.edges):
            d.edges[e] = lib.CC_EDGE_ANY if ch == ANY_EDGE else EDGE_TYPES.index(ch)
        d.nseg = len(tile.segments)
        d.distinct = int(distinct)
        d.no_value = int(tile.has("townhall"))  # R-MM-10
        for s, seg in enumerate(tile.segments):
            d.seg_kind[s] = KINDS.index(seg.kind)
            d.seg_mask[s] = sum(1 << e for e in seg.edges)
            d.seg_coats[s] = seg.coats
            d.seg_cities[s] = sum(1 << c for c in seg.cities)

    def variant(self, type_index: int, rotation: int) -> Tile:
        return self._variants[type_index][rotation]


class Feature(NamedTuple):
    root: int
    kind: str
    tiles: int  # distinct tiles; a monastery: 1 + tiles around it
    open: int  # open edges; a monastery: empty cells around it
    coats: int
    complete: bool
    segments: int
    figures: int


class FigureInfo(NamedTuple):
    player: int
    kind: int
    strength: int
    segment: int
    scores: int = 1  # 0: occupies its feature but never counts for the majority


class Board:
    """A Carcassonne board of at most `max_tiles` tiles over `catalogue`."""

    def __init__(self, catalogue: Catalogue, max_tiles: int, _ptr=None):
        self.catalogue = catalogue
        if _ptr is None:
            _ptr = lib.cc_board_new(catalogue._ts, max_tiles)
            if _ptr == ffi.NULL:
                raise MemoryError("cc_board_new failed")
        self._ptr = ffi.gc(_ptr, lib.cc_board_free)
        self._out()
        self._rows = self._values = None  # turn-option buffers, grown on demand

    @property
    def max_tiles(self) -> int:
        """The most tiles the board holds (the C board's own capacity)."""
        return lib.cc_board_max_tiles(self._ptr)

    def _out(self) -> None:
        """The output buffer of the queries below, with room for what any of them writes
        on a full board of n tiles (cc_board_max_tiles): a frontier has at most 2n + 2
        cells, 4 rotations of 3 ints each; a feature at most 12n segments; and every
        figure on the board (cc_figures) takes 6 ints."""
        n = lib.cc_board_max_tiles(self._ptr)
        self._cap = max(12 * (2 * n + 4), 6 * lib.CC_MAX_FIGURES)
        self._buf = ffi.new("int32_t[]", self._cap)

    def clone(self) -> Board:
        """An independent copy of this board."""
        ptr = lib.cc_board_clone(self._ptr)
        if ptr == ffi.NULL:
            raise MemoryError("cc_board_clone failed")
        return Board(self.catalogue, self.max_tiles, ptr)

    def __reduce__(self):
        raise TypeError("a Board holds C memory and is not pickled; pickle the Game")

    def __len__(self) -> int:
        return lib.cc_board_ntiles(self._ptr)

    # ------------------------------------------------------------ placement

    def legal_placements(self, type_index: int) -> list[tuple[int, int, int]]:
        """All (x, y, rotation) where the tile fits, sorted by y, x, rotation."""
        n = check(lib.cc_legal_placements(self._ptr, type_index, self._buf, self._cap),
                  "cc_legal_placements")
        flat = ffi.unpack(self._buf, 3 * n)
        return list(zip(flat[0::3], flat[1::3], flat[2::3]))

    _rule_arrays: dict = {}  # figure rules tuple -> cc_figure_rule[] (shared, read-only)

    @classmethod
    def _rules(cls, rules: tuple):
        """cdata for a tuple of figure rules (kind, segment_kinds, needs_free, strength,
        scores), built once per distinct tuple."""
        arr = cls._rule_arrays.get(rules)
        if arr is None:
            arr = ffi.new("cc_figure_rule[]", max(1, len(rules)))
            for i, r in enumerate(rules):
                arr[i].kind, arr[i].segment_kinds, arr[i].needs_free, arr[i].strength, \
                    arr[i].scores = r
            cls._rule_arrays[rules] = arr
        return arr

    def has_placement(self, type_index: int) -> bool:
        """Whether the tile fits anywhere (R-BASE-3)."""
        return check(lib.cc_legal_placements(self._ptr, type_index, self._buf, self._cap),
                     "cc_legal_placements") > 0

    def _grow_rows(self, cap: int) -> None:
        self._rows = ffi.new("int32_t[]", cap)
        self._values = ffi.new("double[]", cap // 5)

    def turn_options(self, type_index: int, rules: tuple, params=None):
        """Every legal placement × figure option as (x, y, rotation, figure_kind, segment)
        rows (kind and segment -1 for no figure), in the order of `cc_turn_options`;
        `rules` are the figure rules the player may use now (() for none).
        Returns (rows, None), or with `params` (a cc_greedy_params, core.h) (rows,
        each row's greedy value)."""
        if self._rows is None:
            self._grow_rows(5 * 1024)
        while True:
            n = lib.cc_turn_options(self._ptr, type_index, self._rules(rules), len(rules),
                                    ffi.NULL if params is None else params,
                                    self._rows, self._values, len(self._rows))
            if n != lib.CC_ERR_FULL:
                break
            self._grow_rows(2 * len(self._rows))
        if n < 0:
            check(n, "cc_turn_options")
        flat = ffi.unpack(self._rows, 5 * n)
        rows = list(zip(flat[0::5], flat[1::5], flat[2::5], flat[3::5], flat[4::5]))
        return rows, (None if params is None else ffi.unpack(self._values, n))

    def misfit(self, type_index: int, x: int, y: int, rotation: int) -> int:
        """0 if the tile fits; 1 + the clashing edge (1..4), 5 no neighbour, 6 cell taken.

        Raises CoreError for a bad type, rotation or position off the grid."""
        return check(lib.cc_misfit(self._ptr, type_index, x, y, rotation), "cc_misfit")

    def place(self, type_index: int, x: int, y: int, rotation: int) -> list[int]:
        """Place a tile; returns the features it completes (roots).

        Raises CoreError if it does not fit.
        """
        n = check(lib.cc_place(self._ptr, type_index, x, y, rotation, self._buf, self._cap),
                  f"cc_place(type {type_index} at {x},{y} r{rotation})")
        return ffi.unpack(self._buf, n)

    def tile(self, index: int) -> tuple[int, int, int, int]:
        """Placed tile `index` as (type, rotation, x, y)."""
        check(lib.cc_tile_info(self._ptr, index, self._buf, self._cap), "cc_tile_info")
        return tuple(ffi.unpack(self._buf, 4))

    def tile_at(self, x: int, y: int) -> int | None:
        """Index of the tile placed at (x, y), or None."""
        i = lib.cc_tile_at(self._ptr, x, y)
        return None if i == lib.CC_ERR_RANGE or i < 0 else i

    def variant_at(self, index: int) -> Tile:
        """The Tile as placed (rotated) for placed tile `index`."""
        t, r, _, _ = self.tile(index)
        return self.catalogue.variant(t, r)

    def tiles(self) -> list[tuple[int, int, int, int]]:
        return [self.tile(i) for i in range(len(self))]

    # ------------------------------------------------------------ features

    def find(self, segment: int) -> int:
        return check(lib.cc_find(self._ptr, segment), "cc_find")

    def feature(self, segment: int) -> Feature:
        check(lib.cc_feature_info(self._ptr, segment, self._buf, self._cap), "cc_feature_info")
        v = ffi.unpack(self._buf, 8)
        return Feature(v[0], KINDS[v[1]], v[2], v[3], v[4], bool(v[5]), v[6], v[7])

    def strength(self, segment: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(figure count per player, strength per player) on the feature; 6 players."""
        check(lib.cc_feature_strength(self._ptr, segment, self._buf, self._cap), "cc_feature_strength")
        v = ffi.unpack(self._buf, 12)
        return tuple(v[:6]), tuple(v[6:])

    def value(self, segment: int, final: bool) -> int:
        """What the feature of `segment` is worth, completed during play or (`final`) in
        final scoring: the C core's one feature value (cc_feature_value)."""
        return check(lib.cc_feature_value(self._ptr, segment, int(final)), "cc_feature_value")

    def field_cities(self, segment: int) -> list[int]:
        """Roots of the distinct cities the field of `segment` borders."""
        n = check(lib.cc_field_cities(self._ptr, segment, self._buf, self._cap), "cc_field_cities")
        return ffi.unpack(self._buf, n)

    def feature_segments(self, segment: int) -> list[int]:
        """Every segment of the feature of `segment`, ascending."""
        n = check(lib.cc_feature_segments(self._ptr, segment, self._buf, self._cap),
                  "cc_feature_segments")
        return ffi.unpack(self._buf, n)

    def sides(self, x: int, y: int) -> int:
        """How many of the 4 orthogonal neighbours of (x, y) hold tiles."""
        return sum(self.tile_at(x + dx, y + dy) is not None
                   for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)))

    def ride_targets(self, road: int) -> tuple[int, ...]:
        """R-MM-6: the segments a messenger on the road of segment `road` may ride to once
        that road is scored, ascending (cc_ride_targets: every segment of an incomplete
        road ending at the same junction of the same tile, or of the incomplete city the
        road enters). Raises CoreArgumentError unless `road` is a placed road segment."""
        n = check(lib.cc_ride_targets(self._ptr, road, self._buf, self._cap), "cc_ride_targets",
                  road=road)
        return tuple(ffi.unpack(self._buf, n))

    def activating_cells(self) -> frozenset[tuple[int, int]]:
        """R-MM-2/8: the cells whose tile would surround a tile holding a mayor or a
        standing scarecrow, so that placing there has step-1 activations
        (cc_activating_cells)."""
        n = check(lib.cc_activating_cells(self._ptr, self._buf, self._cap), "cc_activating_cells")
        flat = ffi.unpack(self._buf, 2 * n)
        return frozenset(zip(flat[0::2], flat[1::2]))

    def free_segments(self, index: int) -> list[int]:
        """Local segments of placed tile `index` whose feature holds no figure."""
        n = check(lib.cc_free_segments(self._ptr, index, self._buf, self._cap), "cc_free_segments")
        return ffi.unpack(self._buf, n)

    def occupied_features(self) -> list[int]:
        """Roots of all features holding a figure, ascending."""
        n = check(lib.cc_occupied_features(self._ptr, self._buf, self._cap), "cc_occupied_features")
        return ffi.unpack(self._buf, n)

    # ------------------------------------------------------------ figures

    def add_figure(self, player: int, kind: int, strength: int, segment: int, scores: bool = True) -> int:
        return check(lib.cc_figure_add(self._ptr, player, kind, strength, int(scores), segment),
                     "cc_figure_add")

    def set_figure(self, figure: int, strength: int, scores: bool) -> None:
        check(lib.cc_figure_set(self._ptr, figure, strength, int(scores)), "cc_figure_set")

    def remove_figure(self, figure: int) -> None:
        check(lib.cc_figure_remove(self._ptr, figure), "cc_figure_remove")

    def figure(self, figure: int) -> FigureInfo:
        check(lib.cc_figure_info(self._ptr, figure, self._buf, self._cap), "cc_figure_info")
        return FigureInfo(*ffi.unpack(self._buf, 5))

    def figures_on(self, segment: int) -> list[int]:
        """Figure ids on the feature of `segment`, ascending."""
        n = check(lib.cc_feature_figures(self._ptr, segment, self._buf, self._cap), "cc_feature_figures")
        return ffi.unpack(self._buf, n)

    def figures(self) -> list[tuple[int, FigureInfo]]:
        """Every figure on the board as (id, info), by id."""
        n = check(lib.cc_figures(self._ptr, self._buf, self._cap), "cc_figures")
        v = ffi.unpack(self._buf, 6 * n)
        return [(v[i], FigureInfo(v[i + 1], v[i + 2], v[i + 3], v[i + 4], v[i + 5]))
                for i in range(0, 6 * n, 6)]

    def segment_place(self, segment: int) -> tuple[int, int, str]:
        """(x, y, where) of a segment, `where` read on the tile as placed (`city N`)."""
        index, local = divmod(segment, MAX_SEGS)
        t, r, x, y = self.tile(index)
        return x, y, self.catalogue.variant(t, r).segments[local].where()


def majority(counts: tuple[int, ...], strengths: tuple[int, ...]) -> list[int]:
    """Seats holding the majority given each seat's figure count and strength on a
    feature (R-BASE-7: ties share; strength-0 presence wins only when nobody present has
    more, R-MM-4): the C core's rule (cc_majority), as scoring applies it."""
    n = len(counts)
    got = check(lib.cc_majority(ffi.new("int32_t[]", list(counts)),
                                ffi.new("int32_t[]", list(strengths)), n), "cc_majority",
                counts=counts, strengths=strengths)
    return [q for q in range(n) if got >> q & 1]
