"""Tile types: parsing the TILES.md line format, rotation, and the shipped tile sets.

A tile file has one tile type per line (`docs/TILES.md` section 1.4):

    <ID> x<count> <NESW> C:<cities> R:<roads> F:<fields> X:<extras>

Everything after `#` is a comment. Each segment of a tile gets a fixed local index:
cities in the order written, then roads, then fields, then the monastery, then the
garden (`X:garden`, R-ABB-2; a garden is part of a game's tiles only with the Abbot,
R-ABB-1: sim/engine/deal.py leaves it out otherwise). Rotation keeps local indices, so
a segment is the same segment in every rotation.

A tile marked `replaces(<ID>)` takes the place of one copy of tile <ID> of the same
game for each of its own copies (the Abbot's garden copies of base tiles).

Raises InputError naming `file:line` for anything malformed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from sim.errors import InputError, quote
from sim.text import read_input, split_top

EDGES = "NESW"
HALVES = ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")
EDGE_TYPES = "FRC~"  # index = C core edge code (CC_EDGE_FIELD, ROAD, CITY, RIVER)
ANY_EDGE = "*"  # town hall: C core CC_EDGE_ANY
KINDS = ("city", "road", "field", "monastery", "garden")  # index = C core kind code (CC_CITY ...)
CENTRE = ("monastery", "garden")  # features in the tile centre, on no edge
ROAD_ENDS = {"v": "village", "m": "monastery", "c": "city", "h": "house"}
SETS = ("base", "river", "mayors", "courier", "abbot")
TILE_ID = re.compile(r"[A-Za-z0-9_]{1,16}")
MAX_COUNT = 99  # copies of one tile type; the largest real count is 9
MAX_EXTRAS = 8  # extras of one tile; the most a shipped tile has is 2
# the extras the engine reads; any other word after X: is a note (TILES.md), unless it is
# one of these misspelt: in another case (MON), two letters swapped (mno: a monastery
# silently lost), or the feature's name in full (monastery). A letter changed, added or
# dropped is not taken for one: notes such as "star", "lane" or "warden" are words too
READ_EXTRAS = ("mon", "garden", "replaces", "start", "spring", "lake")


def _misspelt(word: str) -> str | None:
    """The extra of READ_EXTRAS that `word` misspells, or None."""
    if word in READ_EXTRAS:
        return None
    if word.lower() in ("monastery", "monk"):
        return "mon"
    for known in READ_EXTRAS:
        w = word.lower()
        if w == known:
            return known
        diff = [i for i in range(len(w)) if len(w) == len(known) and w[i] != known[i]]
        if len(diff) == 2 and diff[1] == diff[0] + 1 and w[diff[0]] == known[diff[1]] \
                and w[diff[1]] == known[diff[0]]:
            return known
    return None
    if word in ("monastery", "monk"):
        return "mon"
    for known in READ_EXTRAS:
        a, b = (word, known) if len(word) <= len(known) else (known, word)
        if len(b) - len(a) > 1:
            continue
        if len(a) == len(b):
            diff = [i for i in range(len(a)) if a[i] != b[i]]
            if len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]):
                return known
        elif any(b[:i] + b[i + 1:] == a for i in range(len(b))):
            return known
    return None
MAX_COATS = 9  # coats of arms on one city segment (the C core keeps them in 8 bits)


@dataclass(frozen=True)
class Segment:
    """One feature segment of a tile type.

    `edges` holds edge indices (0..3, N E S W) for cities and roads, half-edge indices
    (0..7, Nw..Wn) for fields, nothing for a monastery, a garden or an enclosed field.
    """

    kind: str
    edges: frozenset[int]
    coats: int = 0
    cities: tuple[int, ...] = ()  # field: local indices of the city segments it borders
    end: str = ""  # road ending on this tile: "village", "monastery", "city", "house"
    gate: int = -1  # road ending at a city gate: local index of that city
    enclosed: str = ""  # field touching no edge: "in1", "in2", ...

    def rotated(self, quarter_turns: int) -> Segment:
        if self.kind in ("city", "road"):
            edges = frozenset((e + quarter_turns) % 4 for e in self.edges)
        else:
            edges = frozenset((h + 2 * quarter_turns) % 8 for h in self.edges)
        return Segment(self.kind, edges, self.coats, self.cities, self.end, self.gate, self.enclosed)

    def where(self) -> str:
        """Name on the tile as placed: `city N`, `road E`, `field Nw`, `field in1`,
        `monastery`, `garden`."""
        if self.kind in CENTRE:
            return self.kind
        if self.enclosed:
            return f"field {self.enclosed}"
        names = HALVES if self.kind == "field" else EDGES
        return f"{self.kind} {names[min(self.edges)]}"

    def touches(self, name: str) -> bool:
        """Whether `name` (an edge, half-edge or `inK`) designates this segment."""
        if self.kind == "field":
            return name == self.enclosed or (name in HALVES and HALVES.index(name) in self.edges)
        return name in EDGES and len(name) == 1 and EDGES.index(name) in self.edges


@dataclass(frozen=True)
class Tile:
    """A tile type in one rotation (`rotation` quarter turns clockwise from its file line)."""

    id: str
    count: int
    edges: str
    segments: tuple[Segment, ...]
    extras: tuple[str, ...] = ()
    source: str = field(default="", compare=False)  # "file:line", for messages
    rotation: int = 0
    line: str = field(default="", compare=False)

    def rotated(self, quarter_turns: int) -> Tile:
        """The same tile type turned `quarter_turns` further clockwise."""
        r = quarter_turns % 4
        edges = "".join(self.edges[(i - r) % 4] for i in range(4))
        segs = tuple(s.rotated(r) for s in self.segments)
        return Tile(self.id, self.count, edges, segs, self.extras, self.source,
                    (self.rotation + r) % 4, self.line)

    def has(self, extra: str) -> bool:
        return any(x == extra or x.startswith(extra + "(") for x in self.extras)

    def segment_at(self, where: str) -> int:
        """Local index of the segment named `city N`, `road E`, `field Nw`, `monastery`,
        `garden`.

        Raises ValueError when no segment of that kind touches that place.
        """
        kind, _, place = where.strip().partition(" ")
        for i, s in enumerate(self.segments):
            if s.kind == kind and (kind in CENTRE or s.touches(place)):
                return i
        raise ValueError(f"tile {self.id} rotation {self.rotation} has no {where}")

    def without(self, kinds: frozenset[str]) -> Tile:
        """The same tile with no segment of `kinds` (the last ones: local indices stay)."""
        segs = tuple(s for s in self.segments if s.kind not in kinds)
        if len(segs) == len(self.segments):
            return self
        return Tile(self.id, self.count, self.edges, segs, self.extras, self.source, self.rotation,
                    self.line)

    def replaces(self) -> str:
        """The tile id this one takes the place of (`replaces(<ID>)`), "" for none."""
        for x in self.extras:
            if x.startswith("replaces(") and x.endswith(")"):
                return x[len("replaces("):-1]
        return ""

    @property
    def shape(self) -> tuple:
        """What placement can tell apart: edges and the set of segments."""
        return (self.edges, frozenset(self.segments))


def distinct_rotations(tile: Tile) -> tuple[int, ...]:
    """Rotations giving different tiles; a symmetric rotation is represented by the lowest."""
    seen, out = set(), []
    for r in range(4):
        shape = tile.rotated(r).shape
        if shape not in seen:
            seen.add(shape)
            out.append(r)
    return tuple(out)


def canonical_rotation(tile: Tile, rotation: int) -> int:
    """The lowest rotation that gives the same tile as `rotation`."""
    shape = tile.rotated(rotation).shape
    return next(r for r in range(4) if tile.rotated(r).shape == shape)


# ---------------------------------------------------------------- parsing


class _LineError(Exception):
    pass


def _edge_set(text: str, what: str) -> frozenset[int]:
    if not text or any(c not in EDGES for c in text) or len(set(text)) != len(text):
        raise _LineError(f"{what} {text!r}: expected edge letters from NESW")
    return frozenset(EDGES.index(c) for c in text)


def _parse_cities(text: str) -> tuple[list[Segment], list[str]]:
    if text == "-":
        return [], []
    segs, names = [], []
    for tok in text.split(";"):
        name, star, coats = tok.partition("*")
        if star and not (coats.isascii() and coats.isdigit() and 1 <= int(coats) <= MAX_COATS):
            raise _LineError(f"city {tok!r}: expected a coat-of-arms count 1..{MAX_COATS} after '*'")
        segs.append(Segment("city", _edge_set(name, "city"), int(coats) if star else 0))
        names.append(name)
    return segs, names


def _city_index(name: str, names: list[str]) -> int:
    for i, n in enumerate(names):
        if set(n) == set(name):
            return i
    raise _LineError(f"city {name!r} is not one of this tile's cities {names}")


def _parse_roads(text: str, city_names: list[str]) -> list[Segment]:
    if text == "-":
        return []
    segs = []
    for tok in text.split(";"):
        if ">" in tok:
            edge, _, end = tok.partition(">")
            kind, _, gate_name = end.partition(":")
            if len(edge) != 1 or kind not in ROAD_ENDS:
                raise _LineError(f"road {tok!r}: expected <edge>>v|m|c|h")
            gate = -1
            if kind == "c":
                if gate_name:
                    gate = _city_index(gate_name, city_names)
                elif len(city_names) == 1:
                    gate = 0
                else:
                    raise _LineError(f"road {tok!r}: name the city of the gate (c:<city>)")
            elif gate_name:
                raise _LineError(f"road {tok!r}: only a city gate takes ':<city>'")
            segs.append(Segment("road", _edge_set(edge, "road"), end=ROAD_ENDS[kind], gate=gate))
        else:
            parts = tok.split("-")
            if len(parts) < 2 or any(len(p) != 1 for p in parts):
                raise _LineError(f"road {tok!r}: expected edges joined by '-' or <edge>>end")
            segs.append(Segment("road", _edge_set("".join(parts), "road")))
    return segs


def _parse_fields(text: str, city_names: list[str]) -> list[Segment]:
    if text == "-":
        return []
    segs = []
    for tok in text.split(";"):
        halves, slash, adj = tok.partition("/")
        if not slash:
            raise _LineError(f"field {tok!r}: expected <half-edges>/<adjacent cities>")
        cities = () if adj == "-" else tuple(_city_index(c, city_names) for c in adj.split("+"))
        if halves.startswith("in") and halves[2:].isdigit():
            segs.append(Segment("field", frozenset(), cities=cities, enclosed=halves))
            continue
        idx = []
        for h in halves.split(","):
            if h not in HALVES:
                raise _LineError(f"field half-edge {h!r}: expected one of {' '.join(HALVES)}")
            idx.append(HALVES.index(h))
        if len(set(idx)) != len(idx):
            raise _LineError(f"field {tok!r} names a half-edge twice")
        segs.append(Segment("field", frozenset(idx), cities=cities))
    return segs


def _check_geometry(edges: str, segs: list[Segment]) -> None:
    """Every city/road edge in exactly one segment of its kind; every half of a
    non-city edge in exactly one field (TILES.md 1.2)."""
    for kind, ch in (("city", "C"), ("road", "R")):
        claimed = [e for s in segs if s.kind == kind for e in s.edges]
        for e in range(4):
            n = claimed.count(e)
            if edges[e] == ch and n != 1:
                raise _LineError(f"edge {EDGES[e]} is {ch} but {n} {kind} segments touch it")
            if edges[e] != ch and n:
                raise _LineError(f"{kind} segment touches edge {EDGES[e]}, which is {edges[e]}")
    halves = [h for s in segs if s.kind == "field" for h in s.edges]
    for h in range(8):
        n = halves.count(h)
        city = edges[h // 2] == "C"
        if city and n:
            raise _LineError(f"field touches half-edge {HALVES[h]} of a city edge")
        if not city and n != 1:
            raise _LineError(f"half-edge {HALVES[h]} belongs to {n} fields, expected 1")


def parse_line(text: str, source: str = "") -> Tile:
    """Parse one tile line. Raises InputError naming `source`."""
    try:
        toks = text.split()
        if len(toks) != 7:
            raise _LineError(f"expected 7 fields (<ID> x<count> <NESW> C: R: F: X:), got {len(toks)}")
        tid, count, edges, c, r, f, x = toks
        if not TILE_ID.fullmatch(tid):
            raise _LineError(f"tile id {tid!r}: expected 1..16 letters, digits or '_'")
        digits = count[1:]
        if not (count.startswith("x") and digits.isascii() and digits.isdigit()
                and 1 <= int(digits) <= MAX_COUNT):
            raise _LineError(f"count {count!r}: expected x1..x{MAX_COUNT}")
        if len(edges) != 4 or any(ch not in EDGE_TYPES for ch in edges):
            raise _LineError(f"edges {edges!r}: expected 4 characters from C R F ~")
        for tok, prefix in ((c, "C:"), (r, "R:"), (f, "F:"), (x, "X:")):
            if not tok.startswith(prefix):
                raise _LineError(f"{tok!r}: expected a field starting with {prefix}")
        cities, names = _parse_cities(c[2:])
        roads = _parse_roads(r[2:], names)
        fields = _parse_fields(f[2:], names)
        try:
            extras = () if x[2:] == "-" else tuple(split_top(x[2:], ","))
        except InputError as e:
            raise _LineError(f"{x[:60]!r}: {e}") from None
        if len(extras) > MAX_EXTRAS or len(set(extras)) != len(extras):
            raise _LineError(f"{len(extras):,} extras{' with repeats' if len(set(extras)) != len(extras) else ''}: "
                             f"expected at most {MAX_EXTRAS} different extras after X:")
        for extra in extras:
            meant = _misspelt(extra.split("(")[0])
            if meant is not None:
                raise _LineError(f"X:{extra[:40]}: not an extra the engine reads, but a misspelling "
                                 f"of {meant!r}: expected {meant!r} (a note must not look like one)")
        replacing = [x for x in extras if x.startswith("replaces(")]
        if replacing:  # R-ABB-1's garden copies: one tile id, not the tile's own
            target = replacing[0][len("replaces("):-1] if replacing[0].endswith(")") else ""
            if len(replacing) > 1 or not TILE_ID.fullmatch(target) or target == tid:
                raise _LineError(f"{', '.join(replacing)[:60]!r}: expected one replaces(<ID>) "
                                 f"naming another tile's id")
        mon = [Segment("monastery", frozenset())] if "mon" in extras else []
        if not mon and any(s.end == "monastery" for s in roads):
            raise _LineError("a road ends at a monastery (>m), but the tile has none: expected "
                             "'mon' among X: or another road end")
        garden = [Segment("garden", frozenset())] if any(
            x == "garden" or x.startswith("garden(") for x in extras) else []
        if mon and garden:
            raise _LineError("a monastery and a garden: a tile has one centre feature at most")
        segs = cities + roads + fields + mon + garden
        if len(segs) > 12:
            raise _LineError(f"{len(segs)} segments, at most 12 are supported")
        _check_geometry(edges, segs)
    except _LineError as e:
        raise InputError(f"{source}: {e}") from None
    return Tile(tid, int(count[1:]), edges, tuple(segs), extras, source, 0, text.strip())


def parse_tiles(text: str, name: str) -> list[Tile]:
    """Parse a whole tile file's text; `name` is used in error messages."""
    tiles, seen = [], set()
    for n, raw in enumerate(text.split("\n"), 1):
        bad = next((i for i, ch in enumerate(raw.rstrip("\r")) if not (ch.isprintable() or ch == "\t")),
                   None)
        if bad is not None:
            raise InputError(f"{name}:{n}: character U+{ord(raw[bad]):04X} at column {bad + 1}: "
                             f"expected printable text")
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        tile = parse_line(line, f"{name}:{n}")
        if tile.id in seen:
            raise InputError(f"{name}:{n}: tile id {tile.id!r} appears twice")
        seen.add(tile.id)
        tiles.append(tile)
    if not tiles:
        raise InputError(f"{name}: no tiles")
    return tiles


def load_tile_file(path: str | Path) -> list[Tile]:
    """Load a tile file from disk. Raises InputError for unreadable or malformed files."""
    return parse_tiles(read_input(path, "tile file"), str(path))


@cache
def tile_set(name: str) -> tuple[Tile, ...]:
    """A shipped tile set: `base`, `river`, `mayors`, `courier` or `abbot`."""
    if name not in SETS:
        raise InputError(f"tile set {name!r}: expected one of {', '.join(SETS)}")
    return tuple(parse_tiles(_shipped_text(name), f"{name}.tiles"))


def read_tile_lists(table, where: str, in_play=None, texts: dict | None = None) -> dict[str, str]:
    """A [rules.tiles] table (tile set = a tile file, named as from the working
    directory) as {set: the file's text}, each file read and parsed (errors name
    `where`.tiles.<set> and the file's line). `in_play`: the tile sets of the rules, when
    known (a set not among them is refused before its file is read); `texts` ({set:
    text}, a stored run's) stand in for the files. Raises InputError."""
    if not isinstance(table, dict):
        raise InputError(f"{where}.tiles: expected a [rules.tiles] table of tile set = tile file")
    out = {}
    for name, file in table.items():
        if name not in SETS:
            raise InputError(f"{where}.tiles.{name}: unknown tile set: expected one of {', '.join(SETS)}")
        if in_play is not None and name not in in_play:
            raise InputError(f"{where}.tiles.{name}: not a tile set of these rules: expected one of "
                             f"{', '.join(in_play)}")
        if not isinstance(file, str) or not file.strip():
            raise InputError(f"{where}.tiles.{name} = {quote(file)}: expected the path of a tile file")
        if texts is not None:  # a set the run stored no list for played as shipped (its file
            if isinstance(texts.get(name), str):  # held the shipped tiles: no replacement)
                out[name] = texts[name]
            continue
        try:
            out[name] = read_input(file, "tile file")
            normal_form(out[name], file)  # a malformed line: named by the file's own name
        except InputError as e:
            raise InputError(f"{where}.tiles.{name}: {e}") from None
    return out


@cache
def normal_form(text: str, name: str = "tile list") -> str:
    """A tile file's tile lines alone, one a line, each with single spaces (comments,
    blank lines and spacing dropped): what the tiles are, so two files of the same
    tiles are one tile list (a run's identity, the ruleset's mark). Raises InputError
    naming `name` for a malformed file."""
    return "".join(" ".join(t.line.split()) + "\n" for t in parse_tiles(text, name))


def shipped_form(name: str) -> str:
    """The normal form of shipped tile set `name`."""
    return normal_form(_shipped_text(name), f"{name}.tiles")


def _shipped_text(name: str) -> str:
    return resources.files("sim").joinpath("data", "tiles", f"{name}.tiles").read_text()
