"""Sphinx extension: the clause-to-test table of the rules specification.

``traceability.md`` holds a ``traceability-table`` directive. At build time the directive reads
the clauses of ``docs/rules/*.md`` and the rule markers of ``tests/**/*.py`` with the parser the
test suite uses (``tests/_traceability.py``) and renders one row per clause: a link to the
clause and the tests that cite it. Clauses without a test are shown, not hidden; the test suite
(``tests/test_traceability.py``) is what fails on them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

_TESTS = Path(__file__).resolve().parents[2] / "tests"
if str(_TESTS) not in sys.path:
    sys.path.insert(0, str(_TESTS))

import _traceability  # noqa: E402  (lives in tests/, shared with the test suite)


def _clause_ref(clause_id: str, docname: str) -> nodes.Node:
    # MyST labels are normalised to lower case, like :ref: targets.
    ref = addnodes.pending_xref(
        "", refdomain="std", reftype="ref", reftarget=clause_id.lower(),
        refexplicit=True, refwarn=True, refdoc=docname,
    )
    ref += nodes.inline(clause_id, clause_id)
    return ref


def _row(cells: list[list[nodes.Node]]) -> nodes.row:
    row = nodes.row()
    for content in cells:
        entry = nodes.entry()
        entry.extend(content)
        row += entry
    return row


class TraceabilityTable(SphinxDirective):
    """Render the table of clauses and the tests that cite them."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        """Return the summary paragraph, the table and the list of unknown citations."""
        root = Path(self.env.srcdir).parent
        rules_dir = Path(self.env.srcdir) / self.config.traceability_rules_dir
        tests_dir = root / self.config.traceability_tests_dir
        rep = _traceability.report(rules_dir, tests_dir, root)
        for path in [*rules_dir.glob("*.md"), *tests_dir.rglob("*.py")]:
            self.env.note_dependency(str(path))
        docname = self.env.docname

        covered = len(rep.clauses) - len(rep.missing)
        summary = nodes.paragraph(
            text=f"{covered} of {len(rep.clauses)} clauses are cited by at least one test."
        )
        out: list[nodes.Node] = [summary]

        table = nodes.table(classes=["traceability"])
        group = nodes.tgroup(cols=3)
        table += group
        for width in (14, 30, 56):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += _row([[nodes.paragraph(text=t)] for t in ("Clause", "Title", "Tests")])
        group += head
        body = nodes.tbody()
        for clause in rep.clauses:
            tests: list[nodes.Node] = []
            for name in rep.tests[clause.id]:
                line = nodes.line()
                line += nodes.literal(name, name)
                tests.append(line)
            cell: list[nodes.Node]
            if tests:
                block = nodes.line_block()
                block.extend(tests)
                cell = [block]
            else:
                cell = [nodes.paragraph("", "", nodes.emphasis(text="no test yet"))]
            para = nodes.paragraph()
            para += _clause_ref(clause.id, docname)
            body += _row([[para], [nodes.paragraph(text=clause.title)], cell])
        group += body
        out.append(table)

        if rep.unknown:
            out.append(nodes.paragraph(text="Tests citing clause IDs that do not exist:"))
            items = nodes.bullet_list()
            for cit in rep.unknown:
                item = nodes.list_item()
                item += nodes.paragraph("", "", nodes.literal(text=cit.test),
                                        nodes.Text(f" cites {cit.clause!r}"))
                items += item
            out.append(items)
        return out


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive and its settings."""
    app.add_config_value("traceability_rules_dir", "rules", "env")
    app.add_config_value("traceability_tests_dir", "tests", "env")
    app.add_directive("traceability-table", TraceabilityTable)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
