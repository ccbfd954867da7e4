"""A slow, obviously-correct pure-Python board used to check the C core's geometry
(tests/test_board.py: perft counts, placements, free segments, feature aggregates) on
the production tile objects.

No union-find and no incremental state: features are found by breadth-first search
over segment adjacency each time they are asked for. The rules themselves (scoring,
every expansion) have their own independent engine, sim/reference/, compared with
the production engine at every decision by sim/games/differential.py.
"""

from __future__ import annotations

from sim.formats.tiles import Tile, distinct_rotations

DX = (0, 1, 0, -1)
DY = (1, 0, -1, 0)
HALF_PARTNER = (5, 4, 7, 6, 1, 0, 3, 2)


class RefBoard:
    def __init__(self):
        self.tiles: dict[tuple[int, int], Tile] = {}
        self.figures: set[tuple[int, int, int]] = set()  # segments (x, y, local) holding one

    def fits(self, tile: Tile, x: int, y: int) -> bool:
        if (x, y) in self.tiles:
            return False
        touching = False
        for e in range(4):
            n = self.tiles.get((x + DX[e], y + DY[e]))
            if n is None:
                continue
            touching = True
            if tile.edges[e] != n.edges[(e + 2) % 4]:
                return False
        return touching or not self.tiles

    def legal(self, tile: Tile) -> list[tuple[int, int, int]]:
        cells = {(x + DX[e], y + DY[e]) for (x, y) in self.tiles for e in range(4)}
        out = []
        for (x, y) in cells:
            for r in distinct_rotations(tile):
                if self.fits(tile.rotated(r), x, y):
                    out.append((x, y, r))
        return sorted(out, key=lambda p: (p[1], p[0], p[2]))

    def place(self, tile: Tile, x: int, y: int, rot: int) -> None:
        assert self.fits(tile.rotated(rot), x, y)
        self.tiles[(x, y)] = tile.rotated(rot)

    def linked(self, seg: tuple[int, int, int]) -> list[tuple[int, int, int]]:
        x, y, l = seg
        s = self.tiles[(x, y)].segments[l]
        out = []
        if s.kind in ("city", "road"):
            for e in s.edges:
                n = self.tiles.get((x + DX[e], y + DY[e]))
                if n is None:
                    continue
                for j, t in enumerate(n.segments):
                    if t.kind == s.kind and (e + 2) % 4 in t.edges:
                        out.append((x + DX[e], y + DY[e], j))
        elif s.kind == "field":
            for h in s.edges:
                e = h // 2
                n = self.tiles.get((x + DX[e], y + DY[e]))
                if n is None:
                    continue
                for j, t in enumerate(n.segments):
                    if t.kind == "field" and HALF_PARTNER[h] in t.edges:
                        out.append((x + DX[e], y + DY[e], j))
        return out

    def feature(self, seg) -> set:
        seen, todo = {seg}, [seg]
        while todo:
            for n in self.linked(todo.pop()):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    def info(self, seg) -> dict:
        """kind, distinct tiles, open edges, coats, complete, segments."""
        x, y, l = seg
        kind = self.tiles[(x, y)].segments[l].kind
        if kind == "monastery":
            around = sum((x + dx, y + dy) in self.tiles
                         for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
            return dict(kind=kind, tiles=1 + around, open=8 - around, coats=0,
                        complete=around == 8, segments=1)
        f = self.feature(seg)
        opened = coats = 0
        for (sx, sy, sl) in f:
            s = self.tiles[(sx, sy)].segments[sl]
            coats += s.coats
            if kind in ("city", "road"):
                opened += sum((sx + DX[e], sy + DY[e]) not in self.tiles for e in s.edges)
        return dict(kind=kind, tiles=len({(a, b) for a, b, _ in f}), open=opened, coats=coats,
                    complete=kind != "field" and opened == 0, segments=len(f))

    def free(self, x: int, y: int) -> list[int]:
        """Local segments of the tile at (x, y) whose feature holds no figure."""
        return [l for l in range(len(self.tiles[(x, y)].segments))
                if not (self.feature((x, y, l)) & self.figures)]
