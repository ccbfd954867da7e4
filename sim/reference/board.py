"""The reference board: plain dicts and a breadth-first feature walk.

The board keeps its tiles, its figures and which segments touch across tile edges
(recorded when a tile is placed). A feature is found by walking from a segment to
every segment it touches (R-BASE-5/6); the walk is redone whenever a tile is added.
Nothing else is kept: sizes, open edges and majorities are counted when asked.

Names shared with the production engine (the decision vocabulary):
    tile index   the n-th tile placed (the start tile is 0; town halls count)
    segment      tile index * 12 + local segment number (sim/reference/tiles.py)
    figure id    the lowest number not used by a figure on the board, taken when a
                 figure is put down (a messenger that rides is put down anew)
A feature is named here by its lowest segment (the first tile placed of it).
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.reference.tiles import SEGMENTS_PER_TILE as STRIDE
from sim.reference.tiles import TOWN_HALL, TileType

DX = (0, 1, 0, -1)  # N E S W; y grows to the north
DY = (1, 0, -1, 0)
HALF_PARTNER = (5, 4, 7, 6, 1, 0, 3, 2)  # my Nw touches the north neighbour's Sw, ...
AROUND = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)
FIGURE_KINDS = ("follower", "mayor", "messenger", "scarecrow", "abbot")  # the index is the code
FOLLOWER, MAYOR, MESSENGER, SCARECROW, ABBOT = range(5)
CENTRES = ("monastery", "garden")  # features of one segment in the tile centre (R-ABB-2)


@dataclass(frozen=True)
class Placed:
    tile: TileType  # as placed (turned)
    x: int
    y: int
    rot: int


@dataclass
class Figure:
    player: int
    kind: int
    strength: int  # R-BASE-7: a follower 1; R-MM-3 mayor 0; R-MM-9 standing scarecrow 0
    scores: bool  # counts its player as present for the majority (not a standing scarecrow)
    seg: int


@dataclass(frozen=True)
class Feature:
    kind: str
    segs: tuple  # ascending; segs[0] names the feature
    tiles: int  # distinct tiles (R-BASE-6); a monastery or garden: its tile + the tiles
    # around it that are not town halls (R-MM-10, R-ABB-4)
    open: int  # open edges; a monastery or garden: empty cells around it
    coats: int
    complete: bool

    @property
    def name(self) -> int:
        return self.segs[0]


class Board:
    def __init__(self, farm_points: int = 3):
        self.farm_points = farm_points  # R-BASE-8: a field's points per completed city
        self.cells: dict[tuple[int, int], int] = {}
        self.placed: list[Placed] = []
        self.figures: dict[int, Figure] = {}
        self._links: dict[int, list[int]] = {}  # segment -> the segments it touches
        self._label: dict[int, int] | None = None  # segment -> feature name, after a walk
        self._members: dict[int, list[int]] = {}

    # ------------------------------------------------------------ tiles

    def at(self, x: int, y: int) -> Placed | None:
        i = self.cells.get((x, y))
        return None if i is None else self.placed[i]

    def fits(self, tile: TileType, x: int, y: int) -> bool:
        """R-BASE-3: an empty cell next to a placed tile, every shared edge matching
        (R-MM-10: a town hall's sides match anything)."""
        if (x, y) in self.cells:
            return False
        touching = False
        for e in range(4):
            n = self.at(x + DX[e], y + DY[e])
            if n is None:
                continue
            touching = True
            mine, theirs = tile.edges[e], n.tile.edges[(e + 2) % 4]
            if mine != theirs and "*" not in (mine, theirs):
                return False
        return touching

    def empty_neighbours(self) -> list[tuple[int, int]]:
        """Empty cells next to a placed tile, by y then x."""
        cells = {(x + DX[e], y + DY[e]) for (x, y) in self.cells for e in range(4)}
        return sorted((c for c in cells if c not in self.cells), key=lambda c: (c[1], c[0]))

    def placements(self, tile: TileType) -> list[tuple[int, int, int]]:
        """Every (x, y, rotation) where the tile fits, by y, x, rotation; rotations
        that look alike are offered once."""
        out = []
        for (x, y) in self.empty_neighbours():
            # what each side must show ("" where no tile lies beyond it)
            need = [(n.tile.edges[(e + 2) % 4] if (n := self.at(x + DX[e], y + DY[e])) else "")
                    for e in range(4)]
            for r in tile.rotations():
                edges = tile.turned(r).edges
                if all(not want or mine == want or "*" in (mine, want)
                       for mine, want in zip(edges, need)):
                    out.append((x, y, r))
        return out

    def place(self, tile: TileType, x: int, y: int, rot: int) -> int:
        turned = tile.turned(rot)
        if not self.fits(turned, x, y) and self.placed:
            raise ValueError(f"{tile.id} does not fit at {x},{y} r{rot}")
        index = len(self.placed)
        self.cells[(x, y)] = index
        self.placed.append(Placed(turned, x, y, rot))
        for local, s in enumerate(turned.segs):  # what its segments touch, both ways
            seg = index * STRIDE + local
            self._links[seg] = self.across(x, y, s)
            for other in self._links[seg]:
                self._links[other].append(seg)
        self._label = None
        return index

    def sides(self, x: int, y: int) -> int:
        return sum((x + DX[e], y + DY[e]) in self.cells for e in range(4))

    def around(self, x: int, y: int) -> list[Placed]:
        """The tiles on the 8 cells around (x, y)."""
        return [p for dx, dy in AROUND if (p := self.at(x + dx, y + dy)) is not None]

    def seg(self, seg: int):
        index, local = divmod(seg, STRIDE)
        return self.placed[index].tile.segs[local]

    def place_of(self, seg: int) -> tuple[int, int, str]:
        """(x, y, name on the tile as placed) of a segment, as the notation writes it."""
        p = self.placed[seg // STRIDE]
        return p.x, p.y, self.seg(seg).name()

    def segment_named(self, x: int, y: int, name: str) -> int:
        """The segment that `place_of` names (x, y, name)."""
        index = self.cells[(x, y)]
        for local, s in enumerate(self.placed[index].tile.segs):
            if s.name() == name:
                return index * STRIDE + local
        raise ValueError(f"no {name} on the tile at {x},{y}")

    # ------------------------------------------------------------ features

    def across(self, x: int, y: int, s) -> list[int]:
        """Segments of the neighbouring tiles that segment `s` of the tile at (x, y)
        touches: a city or road continues into the same kind on the shared edge; a
        field continues through each half-edge it holds."""
        out = []
        if s.kind in ("city", "road"):
            for e in s.edges:
                n = self.cells.get((x + DX[e], y + DY[e]))
                if n is None:
                    continue
                for local, t in enumerate(self.placed[n].tile.segs):
                    if t.kind == s.kind and (e + 2) % 4 in t.edges:
                        out.append(n * STRIDE + local)
        elif s.kind == "field":
            for h in s.edges:
                e = h // 2
                n = self.cells.get((x + DX[e], y + DY[e]))
                if n is None:
                    continue
                for local, t in enumerate(self.placed[n].tile.segs):
                    if t.kind == "field" and HALF_PARTNER[h] in t.edges:
                        out.append(n * STRIDE + local)
        return out  # a monastery or a garden touches nothing: a feature of one segment

    def _walk(self) -> None:
        """Label every segment with its feature (breadth first from each unlabelled one)."""
        self._label, self._members = {}, {}
        for index, p in enumerate(self.placed):
            for local in range(len(p.tile.segs)):
                start = index * STRIDE + local
                if start in self._label:
                    continue
                self._label[start] = start
                members, queue = [start], [start]
                while queue:
                    for t in self._links[queue.pop(0)]:
                        if t not in self._label:
                            self._label[t] = start
                            members.append(t)
                            queue.append(t)
                self._members[start] = sorted(members)

    def feature_of(self, seg: int) -> int:
        """The name (lowest segment) of the feature `seg` belongs to."""
        if self._label is None:
            self._walk()
        return self._label[seg]

    def segments(self, seg: int) -> list[int]:
        """Every segment of the feature of `seg`, ascending."""
        return self._members[self.feature_of(seg)]

    def feature(self, seg: int) -> Feature:
        s = self.seg(seg)
        if s.kind in CENTRES:  # R-BASE-5, R-ABB-2: complete with its tile and the 8 around it
            p = self.placed[seg // STRIDE]
            n = len(self.around(p.x, p.y))
            # R-MM-10, R-ABB-4: a town hall surrounds it but is not one of its tiles
            tiles = 1 + n - self.town_halls_around(p.x, p.y)
            return Feature(s.kind, (seg,), tiles, 8 - n, 0, n == 8)
        segs = self.segments(seg)
        tiles = {t // STRIDE for t in segs}
        coats = sum(self.seg(t).coats for t in segs)
        opened = 0
        if s.kind in ("city", "road"):
            for t in segs:
                p = self.placed[t // STRIDE]
                # an edge is open while no tile lies beyond it (R-MM-10: a town hall closes it)
                opened += sum((p.x + DX[e], p.y + DY[e]) not in self.cells for e in self.seg(t).edges)
        return Feature(s.kind, tuple(segs), len(tiles), opened, coats,
                       s.kind != "field" and opened == 0)

    def field_cities(self, seg: int) -> list[Feature]:
        """The distinct cities a field borders (TILES.md: each field segment lists them)."""
        seen, out = set(), []
        for t in self.segments(seg):
            index = t // STRIDE
            for c in self.seg(t).cities:
                name = self.feature_of(index * STRIDE + c)
                if name not in seen:
                    seen.add(name)
                    out.append(self.feature(name))
        return out

    def town_halls_around(self, x: int, y: int) -> int:
        return sum(p.tile.id == TOWN_HALL for p in self.around(x, y))

    def completed_by(self, index: int) -> list[int]:
        """Features the tile `index` just completed, in the shared order: its own roads
        and cities (local order), then the neighbours' roads and cities it closed (N, E,
        S, W: a town hall has no segment of its own), then monasteries and gardens
        around it and its own, row by row from the south-west (a tile has at most one
        of the two)."""
        p = self.placed[index]
        out: list[int] = []

        def add(seg: int) -> None:
            name = self.feature_of(seg)
            if name not in out and self.feature(seg).complete:
                out.append(name)

        for local, s in enumerate(p.tile.segs):
            if s.kind in ("city", "road"):
                add(index * STRIDE + local)
        for e in range(4):
            n = self.cells.get((p.x + DX[e], p.y + DY[e]))
            if n is None:
                continue
            for local, s in enumerate(self.placed[n].tile.segs):
                if s.kind in ("city", "road") and (e + 2) % 4 in s.edges:
                    add(n * STRIDE + local)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                n = self.cells.get((p.x + dx, p.y + dy))
                if n is None:
                    continue
                for local, s in enumerate(self.placed[n].tile.segs):
                    if s.kind in CENTRES:
                        add(n * STRIDE + local)
        return out

    # ------------------------------------------------------------ figures

    def figures_on(self, seg: int) -> list[int]:
        """Ids of the figures on the feature of `seg`, ascending."""
        name = self.feature_of(seg)
        return sorted(f for f, fig in self.figures.items() if self.feature_of(fig.seg) == name)

    def occupied(self, seg: int) -> bool:
        return bool(self.figures_on(seg))

    def put(self, player: int, kind: int, strength: int, scores: bool, seg: int) -> int:
        fid = next(i for i in range(len(self.figures) + 1) if i not in self.figures)
        self.figures[fid] = Figure(player, kind, strength, scores, seg)
        return fid

    def take(self, fid: int) -> Figure:
        return self.figures.pop(fid)

    def occupied_features(self) -> list[int]:
        """Names of the features holding a figure, ascending."""
        return sorted(self.busy_features())

    def would_join(self, tile: TileType, x: int, y: int) -> list[set[int]]:
        """For each segment of `tile` (turned) placed at (x, y), the existing features it
        would be part of: those it touches across its edges, and those touched by any
        other segment of the tile that one of them joins it to (two fields of one tile
        that meet again around a road's end are one field)."""
        touched = [{self.feature_of(t) for t in self.across(x, y, s)} for s in tile.segs]
        out = []
        for mine in touched:
            joined, grew = set(mine), True
            while grew:
                grew = False
                for other in touched:
                    if other & joined and not other <= joined:
                        joined |= other
                        grew = True
            out.append(joined)
        return out

    def busy_features(self) -> set[int]:
        """Names of the features holding a figure."""
        return {self.feature_of(f.seg) for f in self.figures.values()}
