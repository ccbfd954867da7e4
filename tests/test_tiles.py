"""Tile data files: equal to the spec blocks of docs/TILES.md, counts, validation."""

import re
from pathlib import Path

import pytest

from sim.errors import InputError
from sim.formats.tiles import (SETS, canonical_rotation, distinct_rotations, load_tile_file, parse_line,
                       parse_tiles, tile_set)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "TILES.md"


def spec_blocks():
    return re.findall(r"```tiles\n(.*?)```", DOCS.read_text(), re.S)


# the sets TILES.md gives as blocks of tile lines; the Abbot's set is made from its
# section 2.4 (test_garden_copies_are_the_base_tiles_with_a_garden)
BLOCK_SETS = ("base", "river", "mayors", "courier")


def test_data_files_equal_the_spec_blocks():
    blocks = spec_blocks()
    assert len(blocks) == len(BLOCK_SETS)
    assert set(SETS) == set(BLOCK_SETS) | {"abbot"}
    for name, block in zip(BLOCK_SETS, blocks):
        assert list(tile_set(name)) == parse_tiles(block, f"TILES.md {name}"), name


def test_garden_copies_are_the_base_tiles_with_a_garden():
    """R-ABB-1 (TILES.md 2.4): one copy each of E, H, I, M, N, R, U, V shows a garden;
    the abbot set holds exactly those copies, each its base tile's geometry plus a
    garden, the last segment, and takes one copy's place. The River's curve RJ is the
    ninth garden."""
    base = {t.id: t for t in tile_set("base")}
    gardens = tile_set("abbot")
    assert sorted(t.replaces() for t in gardens) == list("EHIMNRUV")
    for t in gardens:
        b = base[t.replaces()]
        assert (t.count, t.edges) == (1, b.edges)
        assert t.segments[:-1] == b.segments
        assert t.segments[-1].kind == "garden" and not t.segments[-1].edges
        assert t.segment_at("garden") == len(b.segments)
    rj = next(t for t in tile_set("river") if t.id == "RJ")
    assert [s.kind for s in rj.segments][-1] == "garden"
    assert sum(t.has("garden") for t in tile_set("river")) == 1


def test_a_tile_has_one_centre_feature():
    with pytest.raises(InputError, match="one centre feature"):
        parse_line("Z x1 FFFF C:- R:- F:Nw,Ne,En,Es,Se,Sw,Ws,Wn/- X:mon,garden", "t:1")


def test_base_totals():
    """TILES.md 2.3, checked against the data: 72 tiles, 6 monasteries, 10 shields,
    edge totals 79 city, 94 road, 115 field."""
    base = tile_set("base")
    assert len(base) == 24
    assert sum(t.count for t in base) == 72
    assert sum(t.count for t in base if t.has("mon")) == 6
    assert sum(t.count * sum(s.coats for s in t.segments) for t in base) == 10
    edges = {c: sum(t.count * t.edges.count(c) for t in base) for c in "CRF"}
    assert edges == {"C": 79, "R": 94, "F": 115}
    assert sum(t.count for t in base if "C" in t.edges) == 44
    assert sum(t.count * sum(s.kind == "city" for s in t.segments) for t in base) == 49
    assert [t.id for t in base if t.has("start")] == ["D"]


def test_other_set_totals():
    assert sum(t.count for t in tile_set("river")) == 12
    assert sum(t.count for t in tile_set("mayors")) == 12
    assert sum(t.count for t in tile_set("courier")) == 6


def test_rotation_moves_edges_and_half_edges_clockwise():
    d = next(t for t in tile_set("base") if t.id == "D")  # CRFR, north strip Wn,En
    r1 = d.rotated(1)
    assert r1.edges == "RCRF"
    assert r1.segment_at("city E") == d.segment_at("city N")
    assert r1.segment_at("field Ne") == d.segment_at("field Wn")  # Wn -> Ne
    assert d.rotated(4) == d


def test_distinct_rotations_of_symmetric_tiles():
    by_id = {t.id: t for t in tile_set("base")}
    assert distinct_rotations(by_id["C"]) == (0,)
    assert distinct_rotations(by_id["X"]) == (0,)
    assert distinct_rotations(by_id["U"]) == (0, 1)
    assert distinct_rotations(by_id["H"]) == (0, 1)
    assert distinct_rotations(by_id["E"]) == (0, 1, 2, 3)
    assert canonical_rotation(by_id["U"], 3) == 1


@pytest.mark.parametrize("line, message", [
    ("E x5 CFFF C:N R:- F:En,Es,Se,Sw,Ws/N", "expected 7 fields"),
    ("E x0 CFFF C:N R:- F:En,Es,Se,Sw,Ws,Wn/N X:-", "count 'x0'"),
    ("E x5 CFQF C:N R:- F:En,Es,Se,Sw,Ws,Wn/N X:-", "edges 'CFQF'"),
    ("E x5 CFFF C:S R:- F:En,Es,Se,Sw,Ws,Wn/S X:-", "edge N is C but 0 city segments"),
    ("E x5 CFFF C:N R:- F:En,Es,Se,Sw,Ws/N X:-", "half-edge Wn belongs to 0 fields"),
    ("E x5 CFFF C:N R:- F:En,Es,Se,Sw,Ws,Wx/N X:-", "field half-edge 'Wx'"),
    ("E x5 CFFF C:N R:- F:En,Es,Se,Sw,Ws,Wn/S X:-", "city 'S' is not one of"),
    ("L x3 CRRR C:N R:E>q;S>v;W>v F:Wn,En/N;Ws,Sw/-;Es,Se/- X:-", "road 'E>q'"),
    # an extra one letter from one the engine reads is a typo, not a note: B without its
    # monastery would have played as a plain field tile
    ("B x4 FFFF C:- R:- F:Nw,Ne,En,Es,Se,Sw,Ws,Wn/- X:mno", "X:mno: not an extra the engine reads, "
     "but a misspelling of 'mon': expected 'mon'"),
    ("B x4 FFFF C:- R:- F:Nw,Ne,En,Es,Se,Sw,Ws,Wn/- X:MON", "expected 'mon'"),
    ("B x4 FFFF C:- R:- F:Nw,Ne,En,Es,Se,Sw,Ws,Wn/- X:monastery", "expected 'mon'"),
    ("B x4 FFFF C:- R:- F:Nw,Ne,En,Es,Se,Sw,Ws,Wn/- X:gadren", "expected 'garden'"),
    ("B x4 FFFF C:- R:- F:Nw,Ne,En,Es,Se,Sw,Ws,Wn/- X:well,rpelaces(A)", "expected 'replaces'"),
])
def test_malformed_lines_name_the_line(line, message):
    with pytest.raises(InputError) as err:
        parse_tiles(f"# header\n\n{line}\n", "bad.tiles")
    assert str(err.value).startswith("bad.tiles:3: ")
    assert message in str(err.value)


def test_notes_after_x_stay_notes():
    """TILES.md: X: holds the extras the engine reads "plus notes": words far from those
    (every note the rule book's tile list uses) are kept and change nothing."""
    plain = parse_line("B x4 FFFF C:- R:- F:Nw,Ne,En,Es,Se,Sw,Ws,Wn/- X:mon", "t.tiles:1")
    for note in ("letter", "bridge", "walkway-bridge", "tunnel", "farmhouse", "well", "river",
                 "city-touches-corners", "field-joined-across-river",
                 # words a letter from a read extra are words, not typos
                 "star", "lane", "late", "warden", "string", "moon", "son", "on"):
        t = parse_line(f"B x4 FFFF C:- R:- F:Nw,Ne,En,Es,Se,Sw,Ws,Wn/- X:mon,{note}", "t.tiles:1")
        assert t.segments == plain.segments and note in t.extras


def test_duplicate_id_and_unreadable_file(tmp_path):
    line = "E x5 CFFF C:N R:- F:En,Es,Se,Sw,Ws,Wn/N X:-"
    with pytest.raises(InputError, match=r"dup.tiles:2: tile id 'E' appears twice"):
        parse_tiles(f"{line}\n{line}\n", "dup.tiles")
    with pytest.raises(InputError, match="cannot read tile file"):
        load_tile_file(tmp_path / "missing.tiles")
    with pytest.raises(InputError, match="tile set 'bogus'"):
        tile_set("bogus")


def test_road_gate_names_its_city():
    t = parse_line("MM04 x1 CRRC C:N;W R:E>c:N;S>c:W F:En/N;Sw/W;Es,Se/N+W X:-")
    roads = [s for s in t.segments if s.kind == "road"]
    assert [(s.end, s.gate) for s in roads] == [("city", 0), ("city", 1)]


def test_notation_round_trips():
    from sim.formats.notation import figure_text, parse_figure, parse_placement, placement_text
    for p in [("E", 0, 1, 2), ("MM04", -3, 12, 0), ("X", 5, -7, 3)]:
        assert parse_placement(placement_text(*p)) == p
    assert parse_figure(figure_text("follower", "field Nw")) == ("follower", "field Nw")
    for bad in ("E 0,1", "E 0 1 r2", "E 0,1 r4"):
        with pytest.raises(ValueError):
            parse_placement(bad)
