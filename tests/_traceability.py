"""Traceability between the rules specification and the tests (shared by the tests and docs).

The specification in ``docs/rules/*.md`` defines each clause by a MyST label followed by a
heading that starts with the clause ID::

    (TRICK-4)=
    ### TRICK-4 — Who wins a trick

Tests cite clauses with ``@pytest.mark.rule("TRICK-4")`` on a test function or class, or with a
``pytestmark`` assignment in a module or class body. Both sides are read statically (regular
expressions for the Markdown, :mod:`ast` for the tests), so nothing is imported or run.

The project's rulings (``K1``, ``K2``...) are stated on one page, ``docs/rules/rulings.md``,
each with a MyST label and a heading of its own::

    (K7)=
    ### K7 — Play order

A ruling ID has no hyphen, so a ruling is never taken for a clause. Docs and docstrings cite
rulings by ID in plain text (``K16``, ``K30-K33``); :func:`ruling_citations` finds them and
:func:`split_rulings` cuts a text at them, so that the docs can link each to its ruling.

This module is imported by ``tests/test_traceability.py`` and by the Sphinx extension
``docs/_ext/traceability.py``, which renders the clause-to-test table of the docs and links
ruling citations to the rulings page.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

__all__ = [
    "Citation",
    "Clause",
    "Report",
    "Ruling",
    "citations_from_source",
    "clauses_from_markdown",
    "page_order",
    "read_citations",
    "read_clauses",
    "report",
    "ruling_citations",
    "rulings_cited_by_clauses",
    "rulings_from_markdown",
    "split_rulings",
]

# One or more upper-case words joined by hyphens, then a number: "TRICK-4", "MK-SLAP-2".
CLAUSE_ID: Final = r"[A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*-[1-9][0-9]*"
#: Test folders that check another game's specification (Melvin Vs. Kronk's, docs/melvin):
#: a report on any other folder leaves their citations out, so one game's clause IDs are never
#: taken for unknown citations of the other's.
OTHER_SPECS: Final = ("tests/melvin/",)
_LABEL_RE: Final = re.compile(rf"^\(({CLAUSE_ID})\)=\s*$")
_HEADING_RE: Final = re.compile(rf"^#{{1,6}}\s+({CLAUSE_ID})\s+[-–—]\s+(\S.*?)\s*$")
# A line that looks like a clause heading or label, to catch malformed ones.
_LOOSE_RE: Final = re.compile(rf"^(?:#{{1,6}}\s+|\()({CLAUSE_ID})\b")
_FENCE_RE: Final = re.compile(r"^\s*(`{3,}|~{3,})")
_ANY_HEADING_RE: Final = re.compile(r"^#{1,6}\s")

RULING_ID: Final = r"K[1-9][0-9]*"
_RULING_LABEL_RE: Final = re.compile(rf"^\(({RULING_ID})\)=\s*$")
_RULING_HEADING_RE: Final = re.compile(rf"^#{{1,6}}\s+({RULING_ID})\s+[-–—]\s+(\S.*?)\s*$")
# A line that looks like a ruling heading or label. Unlike a clause ID, ``(K6)`` may well open a
# wrapped line of prose, so only a parenthesis followed by ``=`` counts as a label.
_RULING_LOOSE_RE: Final = re.compile(
    rf"^(?:#{{1,6}}\s+({RULING_ID})\b|\(\s*({RULING_ID})\s*\)\s*=)"
)
# A ruling cited in running text: ``K16``, or a range ``K30-K33`` / ``K19–K23``. Letters,
# digits and underscores around it make it part of another word (``OK1``, ``K7a``).
_RULING_TOKEN_RE: Final = re.compile(r"(?<![\w])K([1-9][0-9]*)(?![\w])")
_RULING_RANGE_RE: Final = re.compile(
    r"(?<![\w])K([1-9][0-9]*)(?:\s*[-–]\s*K([1-9][0-9]*))?(?![\w])"
)
# A reference to a clause in MyST: {ref}`TRICK-4` or {ref}`the winner <TRICK-4>`.
_CLAUSE_REF_RE: Final = re.compile(rf"\{{ref\}}`(?:[^`<]*<)?({CLAUSE_ID})>?`")


@dataclass(frozen=True)
class Clause:
    """A clause of the specification: its ID, its title and where it is defined."""

    id: str
    title: str
    path: str
    line: int


@dataclass(frozen=True)
class Citation:
    """A rule marker in the tests: the clause ID it names and the test that carries it.

    ``test`` is written like a pytest node ID without parameters: ``path::Class::function``
    for a function or method, ``path::Class`` for a class marker and ``path`` for a module's
    ``pytestmark``.
    """

    clause: str
    test: str
    line: int


def _unfenced(text: str) -> Iterator[tuple[int, str]]:
    """Yield the numbered lines of a Markdown text that lie outside fenced code blocks."""
    fence: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        fence_match = _FENCE_RE.match(line)
        if fence is not None:
            if fence_match and fence_match.group(1)[0] == fence[0] \
                    and len(fence_match.group(1)) >= len(fence):
                fence = None
            continue
        if fence_match:
            fence = fence_match.group(1)
            continue
        yield number, line


def clauses_from_markdown(text: str, path: str) -> tuple[list[Clause], list[str]]:
    """Return the clauses a Markdown page defines and the problems found in their form.

    A clause heading must come right after its label (blank lines aside) and name the same ID;
    a label must be followed by its heading. Text inside fenced code blocks is ignored.
    """
    clauses: list[Clause] = []
    problems: list[str] = []
    label: tuple[str, int] | None = None

    def unfollowed(cid: str, line: int) -> str:
        return f"{path}:{line}: label ({cid})= is not followed by its heading"

    for number, line in _unfenced(text):
        if not line.strip():
            continue
        label_match = _LABEL_RE.match(line)
        heading_match = _HEADING_RE.match(line)
        if label is not None and not heading_match:
            problems.append(unfollowed(*label))
            label = None
        if label_match:
            label = (label_match.group(1), number)
        elif heading_match:
            cid, title = heading_match.group(1), heading_match.group(2)
            where = f"{path}:{number}: heading of {cid}"
            if label is None:
                problems.append(f"{where} has no ({cid})= label above it")
            elif label[0] != cid:
                problems.append(f"{where} follows the label of {label[0]}")
            clauses.append(Clause(cid, title, path, number))
            label = None
        elif _LOOSE_RE.match(line):
            problems.append(f"{path}:{number}: malformed clause heading or label: {line.strip()!r}")
    if label is not None:
        problems.append(unfollowed(*label))
    return clauses, problems


def page_order(rules_dir: Path) -> list[Path]:
    """Return the ``*.md`` pages of ``rules_dir`` in reading order: first those listed in the
    ``toctree`` of its ``index.md``, in that order, then the others by name."""
    pages = sorted(rules_dir.glob("*.md"))
    index = rules_dir / "index.md"
    listed: list[Path] = []
    if index.exists():
        tree = re.search(r"^`{3,}\{toctree\}\n(.*?)^`{3,}", index.read_text(encoding="utf-8"),
                         re.MULTILINE | re.DOTALL)
        for entry in tree.group(1).splitlines() if tree else []:
            entry = entry.strip()
            page = rules_dir / f"{entry.removesuffix('.md')}.md"
            if entry and not entry.startswith(":") and page in pages and page not in listed:
                listed.append(page)
    return listed + [p for p in pages if p not in listed]


def read_clauses(rules_dir: Path) -> tuple[list[Clause], list[str]]:
    """Return the clauses of every ``*.md`` page of ``rules_dir`` (in reading order, see
    :func:`page_order`) and the problems found, duplicate IDs included."""
    clauses: list[Clause] = []
    problems: list[str] = []
    for page in page_order(rules_dir):
        found, bad = clauses_from_markdown(page.read_text(encoding="utf-8"), page.name)
        clauses += found
        problems += bad
    seen: dict[str, Clause] = {}
    for c in clauses:
        if c.id in seen:
            first = seen[c.id]
            problems.append(
                f"{c.path}:{c.line}: {c.id} is defined twice (first in {first.path}:{first.line})"
            )
        else:
            seen[c.id] = c
    return clauses, problems


def _is_rule_marker(func: ast.expr) -> bool:
    # pytest.mark.rule(...) or mark.rule(...) (after ``from pytest import mark``)
    if not isinstance(func, ast.Attribute) or func.attr != "rule":
        return False
    owner = func.value
    return (isinstance(owner, ast.Attribute) and owner.attr == "mark") or (
        isinstance(owner, ast.Name) and owner.id == "mark"
    )


def _marker_ids(expr: ast.expr, test: str, problems: list[str]) -> Iterator[tuple[str, int]]:
    """Yield the clause IDs of every rule marker inside ``expr`` (a decorator, a
    ``pytestmark`` value, a ``pytest.param(..., marks=...)``)."""
    for node in ast.walk(expr):
        if not isinstance(node, ast.Call) or not _is_rule_marker(node.func):
            continue
        args = [*node.args, *(k.value for k in node.keywords if k.arg == "clause")]
        if not args:
            problems.append(f"{test} (line {node.lineno}): a rule marker names no clause")
        for arg in args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                yield arg.value, node.lineno
            else:
                problems.append(
                    f"{test} (line {node.lineno}): a rule marker's clause must be a string "
                    "literal, so that it can be read without running the tests"
                )


def _pytestmark_values(body: Iterable[ast.stmt]) -> Iterator[ast.expr]:
    for stmt in body:
        if isinstance(stmt, ast.Assign):
            if any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets):
                yield stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            if isinstance(stmt.target, ast.Name) and stmt.target.id == "pytestmark":
                yield stmt.value


def _scan(
    body: Iterable[ast.stmt], prefix: str, out: list[Citation], problems: list[str]
) -> None:
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{prefix}::{stmt.name}"
            for decorator in stmt.decorator_list:
                out += (Citation(cid, name, n) for cid, n in _marker_ids(decorator, name, problems))
            if isinstance(stmt, ast.ClassDef):
                for value in _pytestmark_values(stmt.body):
                    out += (Citation(cid, name, n) for cid, n in _marker_ids(value, name, problems))
                _scan(stmt.body, name, out, problems)


def citations_from_source(source: str, path: str) -> tuple[list[Citation], list[str]]:
    """Return the rule markers of a test module's source and the problems found
    (a marker without a clause, a clause that is not a string literal, a syntax error)."""
    out: list[Citation] = []
    problems: list[str] = []
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        return out, [f"{path} (line {exc.lineno}): cannot be parsed: {exc.msg}"]
    for value in _pytestmark_values(tree.body):
        out += (Citation(cid, path, n) for cid, n in _marker_ids(value, path, problems))
    _scan(tree.body, path, out, problems)
    return out, problems


def read_citations(tests_dir: Path, root: Path) -> tuple[list[Citation], list[str]]:
    """Return the rule markers of every ``*.py`` file under ``tests_dir``, test names relative
    to ``root`` (with ``/`` separators), and the problems found."""
    out: list[Citation] = []
    problems: list[str] = []
    here = tests_dir.relative_to(root).as_posix() + "/"
    for file in sorted(tests_dir.rglob("*.py")):
        rel = file.relative_to(root).as_posix()
        if any(rel.startswith(o) and not here.startswith(o) for o in OTHER_SPECS):
            continue
        found, bad = citations_from_source(file.read_text(encoding="utf-8"), rel)
        out += found
        problems += bad
    return out, problems


@dataclass(frozen=True)
class Report:
    """The traceability of a specification to its tests."""

    #: The clauses, in the order of the pages.
    clauses: tuple[Clause, ...]
    #: For each clause ID, the tests citing it (sorted, without repeats).
    tests: dict[str, tuple[str, ...]]
    #: Citations of IDs that no clause defines.
    unknown: tuple[Citation, ...]
    #: Problems of form in the pages or the markers.
    problems: tuple[str, ...]

    @property
    def missing(self) -> tuple[str, ...]:
        """The IDs of the clauses no test cites, in page order."""
        return tuple(c.id for c in self.clauses if not self.tests[c.id])


def report(rules_dir: Path, tests_dir: Path, root: Path) -> Report:
    """Return the traceability report of the clauses in ``rules_dir`` and the tests in
    ``tests_dir``."""
    clauses, clause_problems = read_clauses(rules_dir)
    citations, citation_problems = read_citations(tests_dir, root)
    tests: dict[str, set[str]] = {c.id: set() for c in clauses}
    unknown: list[Citation] = []
    for cit in citations:
        if cit.clause in tests:
            tests[cit.clause].add(cit.test)
        else:
            unknown.append(cit)
    return Report(
        clauses=tuple(clauses),
        tests={cid: tuple(sorted(names)) for cid, names in tests.items()},
        unknown=tuple(unknown),
        problems=tuple(clause_problems + citation_problems),
    )


# -- rulings ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ruling:
    """A ruling on the rulings page: its ID, its title, where it is defined and the clauses its
    section refers to (in order of first mention)."""

    id: str
    title: str
    line: int
    clauses: tuple[str, ...]


def rulings_from_markdown(text: str, path: str) -> tuple[list[Ruling], list[str]]:
    """Return the rulings a Markdown page defines and the problems found in their form.

    As for clauses, a ruling heading must come right after its label and name the same ID; a
    ruling's section runs to the next heading of any level. Duplicate IDs are problems too.
    """
    rulings: list[Ruling] = []
    problems: list[str] = []
    label: tuple[str, int] | None = None
    current: tuple[str, str, int] | None = None
    refs: list[str] = []

    def close() -> None:
        if current is not None:
            rulings.append(Ruling(*current, clauses=tuple(dict.fromkeys(refs))))

    def unfollowed(rid: str, line: int) -> str:
        return f"{path}:{line}: label ({rid})= is not followed by its heading"

    for number, line in _unfenced(text):
        if not line.strip():
            continue
        label_match = _RULING_LABEL_RE.match(line)
        heading_match = _RULING_HEADING_RE.match(line)
        if label is not None and not heading_match:
            problems.append(unfollowed(*label))
            label = None
        if label_match:
            label = (label_match.group(1), number)
        elif heading_match:
            rid = heading_match.group(1)
            where = f"{path}:{number}: heading of {rid}"
            if label is None:
                problems.append(f"{where} has no ({rid})= label above it")
            elif label[0] != rid:
                problems.append(f"{where} follows the label of {label[0]}")
            label = None
            close()
            current, refs = (rid, heading_match.group(2), number), []
        elif _RULING_LOOSE_RE.match(line):
            problems.append(f"{path}:{number}: malformed ruling heading or label: {line.strip()!r}")
        elif _ANY_HEADING_RE.match(line):
            close()
            current = None
        elif current is not None:
            refs += _CLAUSE_REF_RE.findall(line)
    if label is not None:
        problems.append(unfollowed(*label))
    close()
    first: dict[str, Ruling] = {}
    for r in rulings:
        if r.id in first:
            problems.append(
                f"{path}:{r.line}: {r.id} is defined twice (first on line {first[r.id].line})"
            )
        first.setdefault(r.id, r)
    return rulings, problems


def ruling_citations(text: str) -> list[tuple[int, int]]:
    """Return the rulings a text cites, as ``(ruling number, line)`` pairs in order.

    A range ``K30-K33`` (hyphen or en dash) cites every ruling from its first to its last.
    """
    out: list[tuple[int, int]] = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in _RULING_RANGE_RE.finditer(line):
            low = int(match.group(1))
            high = int(match.group(2) or low)
            out += ((n, number) for n in range(low, max(low, high) + 1))
    return out


def split_rulings(text: str) -> list[str | int]:
    """Return ``text`` cut at its ruling citations: the plain-text pieces as strings and each
    citation as its ruling number (``"see K16."`` gives ``["see ", 16, "."]``).

    Empty pieces are left out; joining the pieces back (``f"K{n}"`` for a number) gives
    ``text``. A range is two citations with its dash as text between them.
    """
    out: list[str | int] = []
    start = 0
    for match in _RULING_TOKEN_RE.finditer(text):
        if match.start() > start:
            out.append(text[start:match.start()])
        out.append(int(match.group(1)))
        start = match.end()
    if start < len(text):
        out.append(text[start:])
    return out


def rulings_cited_by_clauses(text: str) -> dict[str, set[int]]:
    """Return, for each clause a rules page defines, the rulings its section cites.

    A clause's section runs from its heading to the next heading of any level (so worked
    examples after the clauses are not part of the last clause).
    """
    out: dict[str, set[int]] = {}
    current: str | None = None
    for _, line in _unfenced(text):
        heading = _HEADING_RE.match(line)
        if heading:
            current = heading.group(1)
            out.setdefault(current, set())
        elif _ANY_HEADING_RE.match(line):
            current = None
        elif current is not None:
            out[current].update(n for n, _ in ruling_citations(line))
    return out
