"""Sphinx extension: the clause-to-test table of the rules specification.

``traceability.md`` holds a ``traceability-table`` directive. At build time the directive reads
the clauses of ``docs/rules/*.md`` and the rule markers of ``tests/**/*.py`` with the parser the
test suite uses (``tests/_traceability.py``) and renders one row per clause: a link to the
clause and the tests that cite it. Clauses without a test are shown, not hidden; the test suite
(``tests/test_traceability.py``) is what fails on them.

It also links every ruling cited in running text (``K16``, each end of ``K30-K33``) to that
ruling's anchor on the rulings page (``docs/rules/rulings.md``, labels ``(K16)=``): on the
Markdown pages and in the docstrings autodoc renders alike. Code, literals, headings and text
that is already a link are left alone. A citation of a ruling the page does not define is an
undefined reference, so the ``-W`` build fails on it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
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


# Text under these nodes is not linked: code and literals (a ``K1`` in backquotes is meant
# verbatim), headings (a ruling's own title), links, targets and signatures.
_NO_LINKS = (
    nodes.FixedTextElement, nodes.literal, nodes.raw, nodes.math, nodes.reference,
    nodes.target, nodes.title, nodes.subtitle, nodes.Invisible, nodes.system_message,
    addnodes.pending_xref, addnodes.desc_signature, addnodes.toctree,
)


def _linkable(text: nodes.Text) -> bool:
    node: nodes.Node | None = text.parent
    while node is not None:
        if isinstance(node, _NO_LINKS):
            return False
        node = node.parent
    return True


class RulingLinks(SphinxTransform):
    """Turn each ruling cited in plain text (``K7``) into a reference to its label ``k7``."""

    # After the parsers and autodoc have built the doctree, before references are resolved.
    default_priority = 500

    def apply(self, **kwargs: Any) -> None:
        """Replace each text node that cites rulings by its pieces and the references."""
        for text in list(self.document.findall(nodes.Text)):
            pieces = _traceability.split_rulings(text.astext())
            if all(isinstance(p, str) for p in pieces) or not _linkable(text):
                continue
            new: list[nodes.Node] = []
            for piece in pieces:
                if isinstance(piece, str):
                    new.append(nodes.Text(piece))
                    continue
                rid = f"K{piece}"
                ref = addnodes.pending_xref(
                    "", refdomain="std", reftype="ref", reftarget=rid.lower(),
                    refexplicit=True, refwarn=True, refdoc=self.env.docname,
                )
                ref += nodes.inline(rid, rid)
                new.append(ref)
            assert text.parent is not None
            text.parent.replace(text, new)


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
    """Register the directive, its settings and the links of ruling citations."""
    app.add_config_value("traceability_rules_dir", "rules", "env")
    app.add_config_value("traceability_tests_dir", "tests", "env")
    app.add_directive("traceability-table", TraceabilityTable)
    app.add_transform(RulingLinks)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
