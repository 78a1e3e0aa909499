"""The package's layout (docs/architecture.md): layers import only downwards, nothing imports in
a circle (imports inside functions count), and the core never imports an optional dependency."""

from __future__ import annotations

import ast
import re
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
            # h11: uvicorn's own dependency, whose protocol the server subclasses (_guard).
            "server": {"starlette", "uvicorn", "websockets", "anyio", "psycopg", "h11"}}


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


#: Every module's source, by name (replaced by the check's own test).
SOURCES = {name: path.read_text(encoding="utf-8") for name, path in MODULES.items()}
_CATCH_ALL = {"Exception", "BaseException"}
# What reports an error to the user as the outcome of a command: the command line's one line
# of "error: ..." (cli._args.report).
_REPORTERS = {"report"}
# Words of a message that blames the input (an error document's code or its text).
_BLAME = re.compile(r"\b(invalid|malformed|not valid|bad[ _]request|bad input)\b", re.IGNORECASE)


def _error_names(sources: dict[str, str]) -> set[str]:
    """Return the names of the package's typed errors (ShockError and every class derived
    from it) and of the functions declared to return one (``fail``, ``_err``...)."""
    trees = [ast.parse(source) for source in sources.values()]
    classes = [n for tree in trees for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    names = {"ShockError"}
    while True:
        more = {c.name for c in classes if c.name not in names and any(
            (b.id if isinstance(b, ast.Name) else getattr(b, "attr", None)) in names
            for b in c.bases)}
        if not more:
            break
        names |= more
    factories = {f.name for tree in trees for f in ast.walk(tree)
                 if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and f.returns is not None
                 and ast.unparse(f.returns).strip("'\"") in names}
    return names | factories


def _catches_everything(handler: ast.ExceptHandler) -> str | None:
    """Return what ``handler`` catches if that is every exception (``Exception``,
    ``BaseException``, a tuple holding one, or a bare ``except:``), else ``None``."""
    if handler.type is None:
        return "everything"
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    if any(ast.unparse(k).rpartition(".")[2] in _CATCH_ALL for k in kinds):
        return ast.unparse(handler.type)
    return None


def _relabels(source: str, errors: set[str]) -> list[tuple[int, str]]:
    """Return (line, what) for each handler of ``source`` that catches every exception and
    does more than re-raise it (a bare ``raise``), log it, or hand it on unchanged: one that
    raises an exception of its own (``raise X(...)``, ``raise X from exc``), makes one of the
    package's typed errors, reports a command's error, or words a message that blames the
    input."""
    found = []
    for handler in ast.walk(ast.parse(source)):
        if not isinstance(handler, ast.ExceptHandler):
            continue
        caught = _catches_everything(handler)
        if caught is None:
            continue
        for node in (n for stmt in handler.body for n in ast.walk(stmt)):
            if not isinstance(node, ast.stmt | ast.expr):
                continue
            why = None
            if isinstance(node, ast.Raise) and node.exc is not None:
                why = f"raises {ast.unparse(node.exc)}"
            elif isinstance(node, ast.Call) and ast.unparse(node.func).rpartition(".")[2] \
                    in errors:
                why = f"makes {ast.unparse(node.func)}(...)"
            elif isinstance(node, ast.Call) and ast.unparse(node.func).rpartition(".")[2] \
                    in _REPORTERS:
                why = f"reports it as an error of the command ({ast.unparse(node.func)})"
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and _BLAME.search(node.value):
                why = f"blames the input ({node.value!r})"
            if why is not None:  # the first reason is enough
                found.append((handler.lineno, f"except {caught}: line {node.lineno} {why}"))
                break
    return found


def test_no_module_relabels_an_exception() -> None:
    # docs/architecture.md, "Checked where it enters, trusted inside": no catch-all turns a
    # bug into the caller's fault. A handler of every exception may re-raise it, log it (or
    # answer "internal error") and go on, or hand it on unchanged; nothing else.
    errors = _error_names(SOURCES)
    assert {"InvalidStateError", "EditionError", "fail"} <= errors  # the typed errors were read
    wrong = [f"{name}:{line}: {what}" for name, source in sorted(SOURCES.items())
             for line, what in _relabels(source, errors)]
    assert not wrong, "handlers that relabel an exception:\n" + "\n".join(wrong)


_PLANTED = """
import logging
def load(text, failure):
    try:
        return parse(text)
    except Exception as exc:
        raise InvalidStateError(f"invalid document: {exc}") from None
def guarded(loader):
    try:
        return loader()
    except (ValueError, BaseException) as exc:
        raise RuntimeError("failed") from exc
def answer(request):
    try:
        return handle(request)
    except:
        return _error("bad_request", "the request failed", 400)
def reader(path):
    try:
        return read(path)
    except Exception as exc:
        return fail(path, str(exc))
def command(args):
    try:
        return start(args.address)
    except Exception as exc:
        return report("simulate", f"cannot start: {exc}", 2)
def fine(text, failure):
    try:
        return parse(text)
    except ValueError as exc:  # a specific error may be relabelled where it enters
        raise InvalidStateError("invalid document") from exc
    except BaseException as exc:
        failure.append(exc)  # handed on unchanged
    try:
        return parse(text)
    except Exception:
        logging.exception("a message failed")
        return error_document(RuntimeError(), 0)
    finally:
        close()
    try:
        return parse(text)
    except Exception:
        rollback()
        raise
"""


def test_the_relabelling_check_sees_a_relabel() -> None:
    saved = dict(SOURCES)
    try:
        SOURCES.clear()
        SOURCES.update({"shock_rules._planted": _PLANTED,
                        "shock_rules._errors": saved["shock_rules._errors"],
                        "shock_rules._json": saved["shock_rules._json"],
                        "shock_rules._reading": saved["shock_rules._reading"]})
        try:
            test_no_module_relabels_an_exception()
        except AssertionError as exc:
            report = [line.strip() for line in str(exc).splitlines()
                      if line.strip().startswith("shock_rules")]
        else:
            raise AssertionError("a relabelling handler went unnoticed")
    finally:
        SOURCES.clear()
        SOURCES.update(saved)
    # Each bad handler, by module and line; none of the fine ones.
    assert report == [
        "shock_rules._planted:6: except Exception: line 7 raises"
        " InvalidStateError(f'invalid document: {exc}')",
        "shock_rules._planted:11: except (ValueError, BaseException): line 12 raises"
        " RuntimeError('failed')",
        "shock_rules._planted:16: except everything: line 17 blames the input ('bad_request')",
        "shock_rules._planted:21: except Exception: line 22 makes fail(...)",
        "shock_rules._planted:26: except Exception: line 27 reports it as an error of the"
        " command (report)",
    ], report
