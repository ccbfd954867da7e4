"""The folder tree is the architecture (docs/ARCHITECTURE.md): every module of `sim/`
and `strategies/` sits in one layer, imports point down the layers only, no import
circle exists, and only the engine's boundary touches the C core's handles.

The import graph is read from the source (every `import` anywhere in a module,
function-level ones included: a lazy import still ties two modules together)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Bottom to top. A module may import its own layer and the layers below it.
LAYERS = (
    ("sim", "sim.errors", "sim.text", "sim.safe_files"),  # the vocabulary every layer speaks
    ("sim.formats",),  # tile lines, notation, the turn log: text in, values out
    ("sim.core",),  # the one seam to the compiled C core
    ("sim.expansions",),  # the registry: one declaration module per expansion
    ("sim.engine",),  # the game contract over the C game, its view, rules, dealing
    ("strategies",),  # policies: they see the engine's view only
    ("sim.games",),  # one game in and out: scripts, pictures, the differential harness
    ("sim.tournament",),  # configs, plans, workers, records, the Ray runner
    ("sim.analysis",),  # statistics over the records, the report, the findings
    ("sim.cli", "sim.__main__"),  # the command line
)
# The reference engine stands apart: it shares nothing with the production engine.
REFERENCE = "sim.reference"
REFERENCE_MAY_IMPORT = {"sim.errors"}
# Who may import the reference engine: the harness comparing the two, and the CLI.
REFERENCE_USERS = ("sim.games.differential", "sim.cli")
# What a strategy may see of the layers below it: the view, and plain facts.
STRATEGIES_MAY_IMPORT = ("sim.errors", "sim.text", "sim.expansions", "sim.engine.view",
                         "sim.engine.rng")
# The engine's boundary: the only modules that hold C handles and call the C library.
BOUNDARY = ("sim.core", "sim.engine", "sim.expansions")  # an expansion module decodes its C slice
PRIVATE_HANDLES = {"_ptr", "_policies", "_stack", "_game"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for top in ("sim", "strategies")
           for p in sorted((ROOT / top).rglob("*.py"))}


def _resolve(name: str) -> str:
    """The module an imported name lives in: `sim.engine.game.Game` -> sim.engine.game."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def _imports(module: str) -> set[str]:
    path, out = MODULES[module], set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            # `from pkg import sub` imports the submodule when there is one
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                     for a in node.names]
        else:
            continue
        out.update(r for r in map(_resolve, names) if r and r != module)
    return out


GRAPH = {m: _imports(m) for m in MODULES}


def _layer(module: str) -> int:
    best, layer = -1, None
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, layer = len(p), i
    return layer


def _within(module: str, prefixes) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def test_every_module_has_a_layer():
    assert len(MODULES) > 60
    orphans = [m for m in MODULES if not _within(m, (REFERENCE,)) and _layer(m) is None]
    assert not orphans, orphans


def test_imports_point_down_the_layers():
    upward = [f"{m} (layer {_layer(m)}) imports {t} (layer {_layer(t)})"
              for m, targets in GRAPH.items() if not _within(m, (REFERENCE,))
              for t in targets if not _within(t, (REFERENCE,)) and _layer(t) > _layer(m)]
    assert not upward, "\n".join(upward)


def test_the_reference_engine_stands_apart():
    for m, targets in GRAPH.items():
        if _within(m, (REFERENCE,)):
            outside = {t for t in targets if not _within(t, (REFERENCE,))}
            assert outside <= REFERENCE_MAY_IMPORT, (m, outside)
        elif any(_within(t, (REFERENCE,)) for t in targets):
            assert _within(m, REFERENCE_USERS), f"{m} imports the reference engine"


def test_strategies_see_only_the_view():
    for m, targets in GRAPH.items():
        if _within(m, ("strategies",)):
            below = {t for t in targets if not _within(t, ("strategies",))}
            assert all(_within(t, STRATEGIES_MAY_IMPORT) for t in below), (m, below)


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle():
    assert not _cycles()


def test_the_cycle_finder_finds_a_cycle():
    """The check above would pass on a finder that never finds anything."""
    saved = {k: set(v) for k, v in GRAPH.items()}
    try:
        GRAPH["sim.errors"].add("sim.engine.game")  # game reaches errors: a circle
        assert any("sim.errors" in c and "sim.engine.game" in c for c in _cycles())
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


def _c_handles(module: str) -> list[str]:
    """Uses of the C library (`lib`, `ffi`) and of the engine's private handles
    (`x._ptr`, `x._policies`, ... on anything but self) in `module`."""
    found = []
    for node in ast.walk(ast.parse(MODULES[module].read_text())):
        if isinstance(node, ast.Name) and node.id in ("lib", "ffi"):
            found.append(f"{module}:{node.lineno} {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr in PRIVATE_HANDLES and not (
                isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            found.append(f"{module}:{node.lineno} .{node.attr}")
        elif isinstance(node, ast.Constant) and node.value in PRIVATE_HANDLES:
            found.append(f"{module}:{node.lineno} {node.value!r}")  # getattr(game, "_ptr")
    return found


@pytest.mark.parametrize("module", sorted(m for m in MODULES if not _within(m, BOUNDARY)))
def test_only_the_engine_boundary_touches_c_handles(module):
    assert not _c_handles(module)


def test_the_handle_check_sees_a_handle():
    assert _c_handles("sim.engine.game")  # the game owns its handle: the check can see one
