"""No module tests which expansion is on, or reads an expansion's options or state,
outside that expansion's own unit (issue 22 item 2; docs/ARCHITECTURE.md "Adding an
expansion"): the rest of `sim/` and `strategies/` loops over the registry
(sim/expansions/__init__.py) and asks the declarations.

An AST walk over every .py file under sim/ and strategies/ finds, for each registered
expansion:

- a comparison or membership test (==, !=, in, not in, is, is not; a `match` case)
  against its name or one of its rule editions as a string literal, alone or in a
  tuple, list or set literal: `"mayors" in rules.expansions`, `kind == "messages"`,
  `edition != "classic"`;
- a subscript by such a literal: `snapshots["courier"]`, `p["mayors"]`,
  `cfg["rules"]["messages"]`;
- a read of one of its fields, as an attribute (`rules.messages`, `game.msg`) or by
  getattr/hasattr/setattr/delattr and a literal name: its options' field
  (`Options.field`), its view snapshot (`snapshot`: view.messages, .river, .courier,
  .mayors, .abbot) and the Game attributes reading its C state (`state`: Game.msg,
  Game.mm, Game.courier_at, Game.river_end). An assignment is not a read (greedy's
  own `self.courier` weight).

Allowed where they belong: the expansion's own module (sim/expansions/<name>.py), the
reference engine (sim/reference/, which shares nothing with the production engine)
and the differential harness (sim/games/differential.py, which compares the two);
tests are not walked. A decision or fork kind that shares an expansion's name is
named by the constant its unit declares (sim/expansions/messages.py KIND), so a
literal always means the expansion. Anything else needs a line in EXCEPTIONS, with
its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

from sim import expansions

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = ("sim/reference/", "sim/games/differential.py")
# (path, the offending expression as ast.unparse writes it) -> why it stays; keep it empty
EXCEPTIONS: dict[tuple[str, str], str] = {}


def _owners() -> tuple[dict[str, str], dict[str, str]]:
    """(literal -> expansion, field -> expansion), from the declarations."""
    literals, fields = {}, {}
    for e in expansions.EXPANSIONS:
        literals[e.name] = e.name
        literals.update(dict.fromkeys(e.editions, e.name))
        if e.options is not None:
            fields[e.options.field] = e.name
        if e.snapshot:
            fields[e.snapshot] = e.name
        fields.update(dict.fromkeys(e.state, e.name))
    return literals, fields


LITERALS, FIELDS = _owners()
ACCESSORS = ("getattr", "hasattr", "setattr", "delattr")


def _literals(node) -> list[str]:
    """The expansions a literal (or a tuple, list or set of literals) names."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in LITERALS:
        return [LITERALS[node.value]]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [x for item in node.elts for x in _literals(item)]
    return []


def _named(node) -> list[str]:
    """The expansions `node` tests or reads (see the module docstring)."""
    if isinstance(node, ast.Compare):
        return [x for operand in (node.left, *node.comparators) for x in _literals(operand)]
    if isinstance(node, ast.MatchValue):
        return _literals(node.value)
    if isinstance(node, ast.Subscript):
        return _literals(node.slice)
    if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Store):
        return [FIELDS[node.attr]] if node.attr in FIELDS else []
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ACCESSORS \
            and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
        name = node.args[1].value
        return [FIELDS[name]] if name in FIELDS else []
    return []


def findings(source: str, path: str) -> list[tuple[str, str, str]]:
    """(path:line, the expression, the expansion it names) of every test or read of an
    expansion outside its own module in `source` (the file at `path`, relative to the
    repository)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        for name in _named(node):
            if path != f"sim/expansions/{name}.py":  # its own unit may
                out.append((node.lineno, node.col_offset, ast.unparse(node), name))
    return [(f"{path}:{line}", expr, name) for line, _, expr, name in sorted(out)]


def _walked() -> list[str]:
    paths = sorted(p.relative_to(ROOT).as_posix() for top in ("sim", "strategies")
                   for p in (ROOT / top).rglob("*.py"))
    return [p for p in paths if not p.startswith(ALLOWED)]


def test_no_module_tests_an_expansion_outside_its_own_unit():
    found = [f for path in _walked() for f in findings((ROOT / path).read_text(), path)]
    bad = [f for f in found if (f[0].partition(":")[0], f[1]) not in EXCEPTIONS]
    assert not bad, ("tests of an expansion outside its unit (ask the registry, sim/expansions/, "
                     "or move the code into the expansion's module):\n"
                     + "\n".join(f"  {where}: {expr}  ({name})" for where, expr, name in bad))
    used = {(f[0].partition(":")[0], f[1]) for f in found}
    stale = [k for k in EXCEPTIONS if k not in used]
    assert not stale, f"exceptions that no longer match anything: {stale}"


def test_the_guard_walks_sim_and_strategies_and_knows_every_expansion():
    walked = _walked()
    assert "sim/engine/game.py" in walked and "strategies/greedy.py" in walked
    assert not any(p.startswith(ALLOWED) for p in walked)
    assert set(expansions.NAMES) <= set(LITERALS) and "classic" in LITERALS
    assert {"messages", "msg", "mm", "courier_at", "river_end", "river", "courier", "mayors",
            "abbot"} <= set(FIELDS)


SNIPPET = '''
if "mayors" in rules.expansions or kind == "messages" or x in ("river", "base"):
    pass
if edition != "classic" and rules.messages.zmg_alone:
    pass
at = snapshots["courier"].at
a, b, c = game.msg, game.mm, getattr(game, "river_end")
view.abbot.seats
match name:
    case "courier":
        pass
self.courier = 1.0
ok = d.kind == KIND or "place" in kinds or rules.expansions
'''


def test_the_guard_sees_each_kind_of_test_and_read():
    got = findings(SNIPPET, "sim/somewhere.py")
    lines = {int(where.rpartition(":")[2]) for where, _, _ in got}
    assert sorted(name for _, _, name in got) == sorted(
        ["mayors", "messages", "river", "messages", "messages", "courier", "messages", "mayors",
         "river", "abbot", "courier"])
    assert lines == {2, 4, 6, 7, 8, 10}  # nothing from the assignment or the last line
    assert ("sim/somewhere.py:6", "snapshots['courier']", "courier") in got
    # an expansion's own unit may name itself, not the others
    own = findings(SNIPPET, "sim/expansions/courier.py")
    assert not any(name == "courier" for _, _, name in own) and any(name == "mayors" for _, _, name in own)
