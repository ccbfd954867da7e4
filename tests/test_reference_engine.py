"""The reference engine (sim/reference/) on its own: what it may import, and rules on
small positions worked out by hand from RULES.md and TILES.md."""

import ast
from pathlib import Path

import pytest

import sim.reference
from sim.reference.board import Board
from sim.reference.game import RefGame
from sim.reference.river import River
from sim.reference.scoring import value
from sim.reference.tiles import tile_set, tile_types
from sim.engine.rules import Rules

REFERENCE = Path(sim.reference.__file__).parent
ALLOWED = {"sim.engine.rules", "sim.errors", "sim.reference"}


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                out.add(node.module)
            else:  # resolved from the package: `..game` in sim.reference is sim.engine.game
                base = "sim.reference".split(".")[:3 - node.level]
                out.add(".".join(base + ([node.module] if node.module else [])))
    return out


def test_importing_the_reference_loads_no_production_module():
    """What actually loads (an importlib call or a relative import the AST walk above
    missed would show here): only sim, sim.errors and the reference itself."""
    import subprocess
    import sys

    code = ("import sim.reference, sys; print('\\n'.join(m for m in sys.modules "
            "if m.split('.')[0] in ('sim', 'strategies')))")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True).stdout.split())
    extra = {m for m in loaded if m not in ("sim", "sim.errors") and not m.startswith("sim.reference")}
    assert "sim.reference.game" in loaded and not extra, extra


def test_reference_imports_only_the_standard_library_and_errors():
    import sys

    modules = sorted(REFERENCE.glob("*.py"))
    assert {m.stem for m in modules} >= {"tiles", "board", "scoring", "game", "messages", "mayors",
                                         "river", "courier"}
    for m in modules:
        for name in _imports(m):
            top = name.split(".")[0]
            ok = (name in ALLOWED or name.startswith("sim.reference.")
                  or (top != "sim" and top != "strategies" and top in sys.stdlib_module_names))
            assert ok, f"{m.name} imports {name}"


def test_tile_reader_totals():
    """TILES.md 2.3: 72 tiles, 6 monasteries, 10 coats, 49 city segments, edges city 79,
    road 94, field 115; the Courier's 6 tiles carry letters; M&M has 11 land tiles + MMR."""
    base = tile_set("base")
    assert sum(t.count for t in base) == 72
    assert sum(t.count for t in base if t.has("mon")) == 6
    assert sum(t.count * sum(s.coats for s in t.segs) for t in base) == 10
    assert sum(t.count * sum(s.kind == "city" for s in t.segs) for t in base) == 49
    for ch, n in (("C", 79), ("R", 94), ("F", 115)):
        assert sum(t.count * t.edges.count(ch) for t in base) == n
    assert sum(t.has("letter") for t in tile_set("courier")) == 6
    assert [t.id for t in tile_set("mayors") if t.river] == ["MMR"]
    assert len(tile_set("mayors")) == 12
    # local numbering: cities, roads, fields, monastery (A: road S>m, one field, monastery)
    a = tile_types(("base",))["A"]
    assert [s.kind for s in a.segs] == ["road", "field", "monastery"]
    assert a.segs[0].end == "monastery"


def test_rotations_that_look_alike_are_offered_once():
    t = tile_types(("base",))
    assert t["B"].rotations() == (0,)  # monastery: the same in every rotation
    assert t["U"].rotations() == (0, 1)  # straight road: r2 looks like r0
    assert t["X"].rotations() == (0,)
    assert t["V"].rotations() == (0, 1, 2, 3)


def _base_board(*tiles):
    types = tile_types(("base", "mayors"))
    b = Board()
    for tid, x, y, r in tiles:
        b.place(types[tid], x, y, r)
    return b, types


def test_town_hall_surrounds_a_monastery_but_adds_nothing():
    """R-MM-10: a monastery completed with a town hall scores 8; in final scoring a
    monastery with a field tile and a town hall beside it scores 1 + 1 = 2."""
    b, types = _base_board(("B", 0, 0, 0), ("B", 1, 0, 0), ("B", -1, 0, 0), ("B", 0, 1, 0))
    b.place(types["townhall"], 1, 1, 0)
    f = b.feature(0 * 12 + 1)  # the monastery of the first B (local 1)
    assert (f.kind, f.complete, value(b, f, final=True)) == ("monastery", False, 1 + 3)
    for x, y in ((-1, 1), (-1, -1), (0, -1), (1, -1)):
        b.place(types["B"], x, y, 0)
    f = b.feature(1)
    assert f.complete and value(b, f, final=False) == 8
    b2, types = _base_board(("B", 0, 0, 0), ("B", 1, 0, 0))
    b2.place(types["townhall"], 0, 1, 0)
    assert value(b2, b2.feature(1), final=True) == 2


def test_two_fields_of_one_tile_meet_through_the_board():
    """R-BASE-4: the start tile D's two fields meet around the end of its road at the
    monastery tile A (r1, road from the west); a straight road U west of D then has
    both its fields in that one field, so a farmer there blocks both."""
    b, types = _base_board(("D", 0, 0, 0), ("A", 1, 0, 1))
    assert b.feature_of(2) == b.feature_of(3)  # D's north strip and south field
    u = types["U"].turned(0)
    joins = b.would_join(u, -1, 0)
    assert joins[1] == joins[2] == {b.feature_of(2)}
    b.put(0, 0, 1, True, 3)  # a farmer on D's south field
    assert joins[1] & b.busy_features()


def test_river_never_turns_the_same_way_twice():
    """R-RIV-2: after a right-hand curve the next curve must turn left."""
    types = tile_types(("base", "river"))
    river = River(types["RA"])  # the spring flows east
    curve = types["RG"]  # river on S and W
    assert river.allows(curve.turned(0), 1, 0)  # enters from the west, leaves south: right
    assert not river.allows(curve.turned(0), 0, 1)  # not at the open end
    river.follow(curve.turned(0), 1, 0)
    assert river.end == (1, 0, 2)
    assert not river.allows(curve.turned(1), 1, -1)  # N -> W: right again
    assert river.allows(curve.turned(2), 1, -1)  # N -> E: left
    straight = types["RD"].turned(1)  # river N-S
    river.follow(straight, 1, -1)
    assert not river.allows(curve.turned(1), 1, -2)  # a straight does not reset it


def test_messenger_rides_to_the_roads_of_both_junctions():
    """R-MM-6: seat 0's messenger on U east of the start tile; seat 1 closes the west
    end with a village W, seat 0 the east end with the crossroads X. The road (W, D, U,
    X: 4 tiles) scores 4 and the messenger may ride to every other road ending at
    either junction: W's south and west arms (tile 2, locals 1, 2) and X's north, east
    and south arms (tile 3, locals 0, 1, 2)."""
    g = RefGame(Rules(players=2, expansions=("mayors",)), ["U", "W", "X"])
    for move in ((1, 0, 0, 2, 0),  # U, messenger (kind 2) on its road (local 0)
                 (-1, 0, 0, -1, -1),  # W: its east arm meets D's road
                 (2, 0, 0, -1, -1)):  # X closes the east end
        assert g.decision.kind == "town_hall" and g.decision.choices[0] == "draw"  # R-MM-10
        g.apply("draw")
        assert g.decision.kind == "place" and move in g.decision.choices
        g.apply(move)
    scored = [e for e in g.events if e["e"] == "score"]
    assert [(e["feature"], e["tiles"], e["points"], e["winners"]) for e in scored] == [("road", 4, 4, [0])]
    d = g.decision
    assert (d.kind, d.seat, d.choices) == ("ride", 0, ("return", 25, 26, 36, 37, 38))
    g.apply(37)
    assert g.events[-1] == {"e": "ride", "turn": 3, "seat": 0, "to": [2, 0], "where": "road E"}
    assert g.scores == [4, 0]


def test_the_full_city_fits_only_on_a_city_edge():
    """R-BASE-3: next to the start tile D (city N, road E and W, field S) the full city
    C fits only north of D, in one rotation (all four look alike), with a follower
    allowed on its city (R-BASE-4)."""
    g = RefGame(Rules(players=2), ["C"])
    assert g.decision.choices == ((0, 1, 0, -1, -1), (0, 1, 0, 0, 0))


def test_unknown_stack_tile_is_bad_input():
    from sim.errors import InputError

    with pytest.raises(InputError, match="tile 2 of the stack: unknown tile id 'ZZ'"):
        RefGame(Rules(players=2), ["U", "ZZ"])


def _road_of_five(closer_is_owner: bool):
    """Seat 0 has a follower on a straight road east of the start tile D; the road W,
    D, U, U, X (5 tiles) is closed last by seat 0 (W) or by seat 1 (X)."""
    from sim.expansions.messages import MessagesOptions

    rules = Rules(players=2, expansions=("messages",),
                  messages=MessagesOptions(edition="classic", deck=("per_knight",)))
    if closer_is_owner:  # seat 0: U + follower, seat 1: U, seat 0: X, seat 1: E north of D, seat 0: W
        stack, moves = ["U", "U", "X", "E", "W"], [(1, 0, 0, 0, 0), (2, 0, 0, -1, -1), (3, 0, 0, -1, -1),
                                                   (0, 1, 2, -1, -1), (-1, 0, 0, -1, -1)]
    else:  # seat 0: U + follower, seat 1: U, seat 0: W, seat 1: X
        stack, moves = ["U", "U", "W", "X"], [(1, 0, 0, 0, 0), (2, 0, 0, -1, -1), (-1, 0, 0, -1, -1),
                                              (3, 0, 0, -1, -1)]
    g = RefGame(rules, stack, list(rules.messages.deck) + ["smallest_road"])
    for move in moves:
        while g.decision.kind == "scoring_figure":  # the 2-tile city of E scores nobody
            g.apply("meeple")
        g.apply(move)
    return g


def test_r_msg_c2_the_active_player_landing_on_a_dark_space_draws_a_message():
    """5 road points move seat 0's meeple to 5, a dark space (R-BASE-10), in seat 0's
    own turn: one message (R-MSG-C2); 'per knight' with no knight is worth 0, and the
    2 points are always offered (R-MSG-8)."""
    g = _road_of_five(closer_is_owner=True)
    d = g.decision
    assert (d.kind, d.seat, d.info["source"], d.info["points"]) == ("scoring_figure", 0, "road", 5)
    g.apply("meeple")
    d = g.decision
    assert (d.kind, d.seat, d.choices, d.info["points"]) == (
        "messages", 0, (("2", None), ("per_knight", None)), (2, 0))


def test_r_msg_c2_a_dark_space_in_another_players_turn_draws_nothing():
    g = _road_of_five(closer_is_owner=False)
    assert (g.decision.kind, g.decision.seat) == ("scoring_figure", 0)
    g.apply("meeple")
    assert g.msg.figures[0] == [5, 0]
    assert g.decision is None and g.scores == [5, 0]  # the stack is empty: the game is over
    assert not any(e["e"] == "message_draw" for e in g.events)


def test_setup_is_checked_by_the_reference():
    """The harness takes the tile stack from production; the reference checks it first
    by the setup rulings (R-BASE-2, R-RIV-1, R-MM-0, R-COU-1)."""
    from sim.engine.deal import tile_order
    from sim.reference.game import stack_problem

    for exp in ((), ("river",), ("mayors",), ("river", "mayors", "courier")):
        rules = Rules(expansions=exp)
        _, order = tile_order(rules, 5)
        assert stack_problem(rules, order) is None, exp
    rules = Rules(expansions=("river",))
    _, order = tile_order(rules, 5)
    lake_last = order.index("RL")
    swapped = order[:lake_last - 1] + [order[lake_last], order[lake_last - 1]] + order[lake_last + 1:]
    assert "lake last" in stack_problem(rules, swapped)
    assert "counts differ for D" in stack_problem(Rules(), tile_order(Rules(), 5)[1] + ["D"])
    assert "counts differ for MMR" in stack_problem(Rules(expansions=("mayors",)),
                                                   tile_order(Rules(expansions=("mayors",)), 5)[1] + ["MMR"])
