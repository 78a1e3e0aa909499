"""The package's layout (docs/architecture.md): layers import only downwards, nothing imports in
a circle (imports inside functions count), and the core never imports an optional dependency."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import shock_rules

ROOT = Path(shock_rules.__file__).parent

# The layers of docs/architecture.md, lowest first: a module may import its own layer (without
# a cycle) and the layers below it.
LAYERS: list[tuple[str, ...]] = [
    ("_errors", "_public", "_pictures", "_shared", "_reading", "_schemas"),
    ("_rules", "melvin"),  # melvin: the second game, a rules layer of its own (layer 1 below)
    ("_info", "_notation"),
    ("_json", "svg"),
    ("games",),  # the game contract and the registry of both games
    ("record",),
    ("_documents", "bots"),
    ("simulation", "envs"),
    ("protocol",),
    ("__init__", "cli", "server"),
]
RUNTIME_DEPS = {"attrs", "cattrs"}
OPTIONAL = {"cli": {"rich"}, "simulation": {"ray"},
            "envs": {"numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel"},
            "server": {"starlette", "uvicorn", "websockets", "anyio", "psycopg"}}


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        out[".".join(parts).removesuffix(".__init__")] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> tuple[set[str], set[str]]:
    """Return the package modules and the outside top-level packages ``name`` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    typing_only = {id(x) for n in ast.walk(tree) if isinstance(n, ast.If)
                   and "TYPE_CHECKING" in ast.dump(n.test) for x in ast.walk(n)}
    inside: set[str] = set()
    outside: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [f"{target}.{a.name}" for a in node.names]
            found = [t for t in (target, *names) if t in MODULES]
            inside.update(found)
            if not found:
                outside.add(target.partition(".")[0])
        elif isinstance(node, ast.Import):
            for a in node.names:
                (inside if a.name in MODULES else outside).add(a.name.partition(".")[0])
    inside.discard(name)
    # A submodule importing its own package's __init__ is the package's face, not a dependency.
    inside = {t for t in inside if not name.startswith(t + ".")}
    return inside, outside


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _layer(name: str) -> int:
    top = name.split(".")[1] if name != "shock_rules" else "__init__"
    return next(i for i, group in enumerate(LAYERS) if top in group)


def test_every_module_has_a_layer() -> None:
    for name in MODULES:
        _layer(name)  # raises StopIteration for a module the architecture page does not place


def test_layers_import_only_downwards() -> None:
    wrong = [(a, b) for a, (inside, _) in GRAPH.items() for b in inside if _layer(b) > _layer(a)]
    assert not wrong, f"imports from a higher layer: {wrong}"


def test_no_import_cycles() -> None:
    # Depth-first search with colours: an edge to a module on the current path closes a cycle.
    colour: dict[str, int] = {}
    path: list[str] = []
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        colour[v] = 1
        path.append(v)
        for w in sorted(GRAPH[v][0]):
            if colour.get(w) == 1:
                cycles.append([*path[path.index(w):], w])
            elif w not in colour:
                visit(w)
        path.pop()
        colour[v] = 2

    for v in sorted(GRAPH):
        if v not in colour:
            visit(v)
    assert not cycles, f"import cycles: {cycles}"


def test_the_core_imports_only_the_standard_library_and_its_dependencies() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for name, (_, outside) in GRAPH.items():
        top = name.split(".")[1] if name != "shock_rules" else "__init__"
        allowed = stdlib | RUNTIME_DEPS | OPTIONAL.get(top, set())
        assert outside <= allowed, f"{name} imports {sorted(outside - allowed)}"


def test_imports_inside_functions_count() -> None:
    # The command imports its sub-commands inside main(), to keep rich out of demo and replay.
    assert "shock_rules.cli.play" in GRAPH["shock_rules.cli"][0]
    assert "rich" in GRAPH["shock_rules.cli.simulate"][1]


def test_the_cycle_check_sees_a_cycle() -> None:
    saved = dict(GRAPH)
    try:
        GRAPH.clear()
        GRAPH.update({"a": ({"b"}, set()), "b": ({"a"}, set())})
        try:
            test_no_import_cycles()
        except AssertionError as exc:
            assert "['a', 'b', 'a']" in str(exc)
        else:
            raise AssertionError("a cycle went unnoticed")
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


def _functions() -> list[tuple[str, int]]:
    """Every function and method of the package, as (module:name, lines)."""
    found = []
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assert node.end_lineno is not None
                found.append((f"{name}:{node.name}", node.end_lineno - node.lineno + 1))
    return found


def test_functions_stay_small() -> None:
    # docs/architecture.md: none over 120 lines, at most three over 80.
    lengths = _functions()
    assert len(lengths) > 500  # the package's functions were read
    assert [f for f, n in lengths if n > 120] == []
    assert len([f for f, n in lengths if n > 80]) <= 3, [f for f, n in lengths if n > 80]


def test_only_the_state_layer_knows_which_build_runs() -> None:
    # One plain source for both builds: the build switch is read where states are made.
    readers = {name for name, path in _modules().items()
               if "NATIVE" in {n.id for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                               if isinstance(n, ast.Name)}}
    assert readers == {"shock_rules._rules.state", "shock_rules._rules.draft"}


#: Modules that read outside data as it enters (an edition's fields, a view to determinize),
#: where turning whatever that data makes fail into the typed error is the gate's job.
_GATES = {"shock_rules._rules.edition", "shock_rules._info.determinize"}


def test_the_rule_modules_relabel_no_exception() -> None:
    # Inside the gate a state is trusted: no catch-all turns a bug into the caller's fault.
    for name, path in _modules().items():
        if not name.startswith(("shock_rules._rules", "shock_rules._info", "shock_rules.bots")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ExceptHandler):
                caught = ast.unparse(node.type) if node.type is not None else "everything"
                assert caught not in {"Exception", "BaseException", "everything"} or (
                    name in _GATES), f"{name} catches {caught}"
