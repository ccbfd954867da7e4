"""Tiles for the reference engine: its own reader of the tile files (TILES.md 1.4).

    <ID> x<count> <NESW> C:<cities> R:<roads> F:<fields> X:<extras>

Each segment of a tile gets a local number: cities in the order written, then roads,
then fields, then the monastery, then the garden (only with the Abbot, R-ABB-1). That
numbering is part of the shared vocabulary (a segment is named `tile index * 12 +
local` in decisions), so both engines use it; the reading itself shares no code with
sim/formats/tiles.py.

Edges are numbered N=0 E=1 S=2 W=3, half-edges Nw=0 Ne=1 En=2 Es=3 Se=4 Sw=5 Ws=6 Wn=7
(TILES.md 1.2). Turning a tile a quarter clockwise sends edge e to e+1 and half-edge h
to h+2.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources

from sim.errors import InputError

EDGES = "NESW"
HALVES = ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")
ROAD_ENDS = {"v": "village", "m": "monastery", "c": "city", "h": "house"}
ANY = "*"  # a town hall's sides: they fit every neighbour (R-MM-10)
TOWN_HALL = "townhall"
SEGMENTS_PER_TILE = 12  # the segment naming's stride (tile index * 12 + local)


@dataclass(frozen=True)
class Seg:
    """One feature segment. `edges`: edge numbers for cities and roads, half-edge
    numbers for fields, empty for a monastery, a garden or an enclosed field."""

    kind: str  # "city", "road", "field", "monastery", "garden"
    edges: frozenset
    coats: int = 0
    cities: tuple = ()  # a field: local numbers of the cities it borders
    end: str = ""  # a road that ends on this tile: what it ends at
    gate: int = -1  # a road ending at a city gate: that city's local number
    enclosed: str = ""  # a field touching no edge: "in1", "in2", ...

    def turned(self, r: int) -> Seg:
        step, size = (2, 8) if self.kind == "field" else (1, 4)
        edges = frozenset((e + step * r) % size for e in self.edges)
        return Seg(self.kind, edges, self.coats, self.cities, self.end, self.gate, self.enclosed)

    def name(self) -> str:
        """How the notation names it on the tile as placed: `city N`, `field Nw`,
        `field in1`, `monastery`, `garden` (the lowest edge or half-edge it touches)."""
        if self.kind in ("monastery", "garden"):
            return self.kind
        if self.enclosed:
            return f"field {self.enclosed}"
        names = HALVES if self.kind == "field" else EDGES
        return f"{self.kind} {names[min(self.edges)]}"


@dataclass(frozen=True)
class TileType:
    id: str
    count: int
    edges: str  # N E S W, one of C R F ~ (or * for a town hall)
    segs: tuple
    extras: tuple
    _turns: dict = field(default_factory=dict, compare=False, repr=False)  # r -> turned tile

    def has(self, extra: str) -> bool:
        return any(x == extra or x.startswith(extra + "(") for x in self.extras)

    def turned(self, r: int) -> TileType:
        """The tile turned r quarter turns clockwise: the edge now facing e was facing
        e - r before."""
        if r not in self._turns:  # worked out once per tile and rotation
            edges = "".join(self.edges[(e - r) % 4] for e in range(4))
            self._turns[r] = TileType(self.id, self.count, edges,
                                      tuple(s.turned(r) for s in self.segs), self.extras)
        return self._turns[r]

    @property
    def river(self) -> bool:
        return "~" in self.edges

    def rotations(self) -> tuple:
        """The rotations that look different; of several that look alike, the lowest
        (the decision vocabulary lists each distinct placement once)."""
        if "distinct" in self._turns:
            return self._turns["distinct"]
        seen, out = [], []
        for r in range(4):
            t = self.turned(r)
            look = (t.edges, frozenset(t.segs))
            if look not in seen:
                seen.append(look)
                out.append(r)
        self._turns["distinct"] = tuple(out)
        return self._turns["distinct"]


TOWN_HALL_TILE = TileType(TOWN_HALL, 1, ANY * 4, (), ("townhall",))


def _split_extras(text: str) -> list[str]:
    """Split `mon,start(1-of-4)` on commas that are not inside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + [cur]


def _edges(text: str, where: str) -> frozenset:
    if not text or any(c not in EDGES for c in text):
        raise InputError(f"{where}: {text!r}: expected edge letters from NESW")
    return frozenset(EDGES.index(c) for c in text)


def _city_named(name: str, names: list, where: str) -> int:
    for i, n in enumerate(names):
        if set(n) == set(name):
            return i
    raise InputError(f"{where}: city {name!r} is not one of this tile's cities")


def read_line(line: str, where: str, gardens: bool = False) -> TileType:
    """One tile line; `gardens`: the Abbot is in play, so a tile marked `garden` or
    `garden(...)` has a garden segment, after every other one (R-ABB-1)."""
    parts = line.split()
    if len(parts) != 7 or not parts[1].startswith("x") or not parts[1][1:].isdigit():
        raise InputError(f"{where}: expected <ID> x<count> <NESW> C: R: F: X:")
    tid, count, edges, c, r, f, x = parts
    if len(edges) != 4 or any(ch not in "CRF~" for ch in edges):
        raise InputError(f"{where}: edges {edges!r}: expected 4 of C R F ~")
    for text, prefix in ((c, "C:"), (r, "R:"), (f, "F:"), (x, "X:")):
        if not text.startswith(prefix):
            raise InputError(f"{where}: {text!r}: expected a field starting with {prefix}")
    segs, names = [], []
    for tok in ([] if c == "C:-" else c[2:].split(";")):
        name, _, coats = tok.partition("*")
        segs.append(Seg("city", _edges(name, where), int(coats or 0)))
        names.append(name)
    for tok in ([] if r == "R:-" else r[2:].split(";")):
        if ">" in tok:  # a road ending on this tile: `S>m`, `E>c:N`
            edge, _, end = tok.partition(">")
            code, _, city = end.partition(":")
            if code not in ROAD_ENDS:
                raise InputError(f"{where}: road {tok!r}: expected an end v, m, c or h")
            gate = -1
            if code == "c":
                gate = _city_named(city, names, where) if city else 0
            segs.append(Seg("road", _edges(edge, where), end=ROAD_ENDS[code], gate=gate))
        else:  # a road running through: `E-W`, `N-E-W`
            segs.append(Seg("road", _edges(tok.replace("-", ""), where)))
    for tok in ([] if f == "F:-" else f[2:].split(";")):
        halves, _, adjacent = tok.partition("/")
        cities = () if adjacent in ("-", "") else tuple(
            _city_named(n, names, where) for n in adjacent.split("+"))
        if halves.startswith("in"):
            segs.append(Seg("field", frozenset(), cities=cities, enclosed=halves))
            continue
        try:
            hs = frozenset(HALVES.index(h) for h in halves.split(","))
        except ValueError:
            raise InputError(f"{where}: field {tok!r}: expected half-edges from "
                             f"{' '.join(HALVES)}") from None
        segs.append(Seg("field", hs, cities=cities))
    extras = () if x == "X:-" else tuple(_split_extras(x[2:]))
    if "mon" in extras:
        segs.append(Seg("monastery", frozenset()))
    if gardens and any(e == "garden" or e.startswith("garden(") for e in extras):
        segs.append(Seg("garden", frozenset()))  # R-ABB-2: in the centre, touching no edge
    if len(segs) > SEGMENTS_PER_TILE:
        raise InputError(f"{where}: {len(segs)} segments: at most {SEGMENTS_PER_TILE}")
    return TileType(tid, int(count[1:]), edges, tuple(segs), extras)


@cache
def tile_set(name: str, gardens: bool = False, text: str | None = None) -> tuple:
    """The shipped set `name` (sim/data/tiles/<name>.tiles), or the tile list `text`
    that replaces it ([rules.tiles]), read line by line; `gardens`: with the Abbot
    (R-ABB-1)."""
    if text is None:
        try:
            text = resources.files("sim").joinpath("data", "tiles", f"{name}.tiles").read_text()
        except OSError:
            raise InputError(f"{name}.tiles: no such shipped tile set") from None
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append(read_line(line, f"{name}.tiles:{n}", gardens))
    return tuple(out)


def sets_for(expansions) -> tuple:
    """The tile sets in play, in the catalogue order: base, river, mayors, courier,
    abbot."""
    return ("base",) + tuple(e for e in ("river", "mayors", "courier", "abbot") if e in expansions)


def tile_types(sets, given: dict | None = None) -> dict:
    """id -> TileType over the given sets (`given`: set -> the text of a tile list
    replacing it), with the town hall when Messengers & Mayors is in play (R-MM-10: a
    tile from supply, not from the stack). With the Abbot the tiles have their gardens,
    and each `replaces(X)` tile takes one copy away from X (R-ABB-1: the base game
    keeps 72 tiles)."""
    gardens, given = "abbot" in sets, given or {}
    types = {t.id: t for s in sets for t in tile_set(s, gardens, given.get(s))}
    for t in list(types.values()):
        for x in t.extras:
            if x.startswith("replaces(") and x.endswith(")"):
                old = types[x[len("replaces("):-1]]
                types[old.id] = replace(old, count=old.count - t.count, _turns={})  # a copy per copy
    if "mayors" in sets:
        types[TOWN_HALL] = TOWN_HALL_TILE
    return types
