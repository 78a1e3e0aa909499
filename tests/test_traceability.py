"""Every clause of the rules specification is cited by a test, and every citation is a clause;
every ruling cited in the docs and the source is stated on the rulings page.

The clauses are read from ``docs/rules/*.md`` and the ``@pytest.mark.rule`` markers from
``tests/**/*.py`` by ``tests/_traceability.py``, the parser the docs' traceability table uses.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from _traceability import (
    Citation,
    Ruling,
    citations_from_source,
    clauses_from_markdown,
    page_order,
    report,
    ruling_citations,
    rulings_cited_by_clauses,
    rulings_from_markdown,
    split_rulings,
)

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
TESTS = ROOT / "tests"

# The clause IDs of the project's specification (issue 3). The docs may add clauses; none of
# these may disappear.
SPEC_IDS = (
    [f"SETUP-{i}" for i in range(1, 8)] + [f"DEAL-{i}" for i in range(1, 5)]
    + [f"TRICK-{i}" for i in range(1, 10)] + [f"WITHDRAW-{i}" for i in range(1, 6)]
    + [f"POISON-{i}" for i in range(1, 4)] + [f"POTION-{i}" for i in range(1, 6)]
    + [f"SHOCK-{i}" for i in range(1, 4)] + [f"CHEST-{i}" for i in range(1, 6)]
    + ["LEAD-1", "LEAD-2"] + [f"ROUND-{i}" for i in range(1, 7)] + ["VAR-1", "VAR-2"]
    + ["GAME-1", "GAME-2", "GEM-1", "GEM-2", "INFO-1", "INFO-2"]
)


def test_the_specification_defines_every_clause_once_in_the_expected_form() -> None:
    rep = report(RULES, TESTS, ROOT)
    assert not rep.problems, "\n".join(rep.problems)
    ids = [c.id for c in rep.clauses]
    absent = sorted(set(SPEC_IDS) - set(ids))
    assert not absent, f"clauses missing from docs/rules: {absent}"


def test_every_citation_names_an_existing_clause() -> None:
    rep = report(RULES, TESTS, ROOT)
    bad = [f"{c.test} (line {c.line}) cites unknown clause {c.clause!r}" for c in rep.unknown]
    assert not bad, "tests cite clauses that do not exist:\n" + "\n".join(bad)


def test_every_clause_is_cited_by_a_test() -> None:
    missing = report(RULES, TESTS, ROOT).missing
    assert not missing, f"{len(missing)} clause(s) have no test citing them: " + ", ".join(missing)


def test_melvin_vs_kronk_clauses_and_citations_match() -> None:
    # The second game's specification (docs/melvin) and its tests (tests/melvin) are checked
    # the same way, apart from Shock!'s.
    rep = report(ROOT / "docs" / "melvin", TESTS / "melvin", ROOT)
    assert rep.clauses and all(c.id.startswith("MK-") for c in rep.clauses)
    assert not rep.problems, "\n".join(rep.problems)
    assert not rep.unknown, [f"{c.test} cites {c.clause}" for c in rep.unknown]
    assert not rep.missing, f"Melvin clauses no test cites: {', '.join(rep.missing)}"


# -- the parser itself ------------------------------------------------------------------------


def test_clause_headings_need_their_label() -> None:
    page = textwrap.dedent("""\
        # Page

        (TRICK-4)=
        ### TRICK-4 — Who wins a trick

        ### TRICK-5 - Gem icons

        (TRICK-6)=
        ### TRICK-7 — Mismatch

        (TRICK-8)=
        Some text.

        ```
        ### TRICK-9 — inside a code fence: not a clause
        ```
        ## TRICK-10: malformed
        """)
    clauses, problems = clauses_from_markdown(page, "p.md")
    assert [(c.id, c.title, c.line) for c in clauses] == [
        ("TRICK-4", "Who wins a trick", 4), ("TRICK-5", "Gem icons", 6),
        ("TRICK-7", "Mismatch", 9),
    ]
    assert problems == [
        "p.md:6: heading of TRICK-5 has no (TRICK-5)= label above it",
        "p.md:9: heading of TRICK-7 follows the label of TRICK-6",
        "p.md:11: label (TRICK-8)= is not followed by its heading",
        "p.md:17: malformed clause heading or label: '## TRICK-10: malformed'",
    ]


def test_rule_markers_are_found_in_every_form() -> None:
    source = textwrap.dedent("""\
        import pytest
        from pytest import mark

        pytestmark = [pytest.mark.rule("GAME-1"), pytest.mark.slow]

        @pytest.mark.rule("TRICK-4")
        @pytest.mark.rule("TRICK-5", "TRICK-6")
        def test_a():
            pass

        @mark.rule(clause="SHOCK-1")
        class TestB:
            pytestmark = pytest.mark.rule("SHOCK-2")

            @pytest.mark.parametrize("x", [pytest.param(1, marks=pytest.mark.rule("SHOCK-3"))])
            def test_c(self, x):
                pass

        def test_unmarked():
            pytest.mark.rule("NOT-1")  # a call in a body is not a marker of the test
        """)
    found, problems = citations_from_source(source, "tests/t.py")
    assert problems == []
    assert sorted((c.clause, c.test) for c in found) == [
        ("GAME-1", "tests/t.py"),
        ("SHOCK-1", "tests/t.py::TestB"),
        ("SHOCK-2", "tests/t.py::TestB"),
        ("SHOCK-3", "tests/t.py::TestB::test_c"),
        ("TRICK-4", "tests/t.py::test_a"),
        ("TRICK-5", "tests/t.py::test_a"),
        ("TRICK-6", "tests/t.py::test_a"),
    ]


def test_rule_markers_must_name_literal_clauses() -> None:
    source = "import pytest\nID = 'X-1'\n@pytest.mark.rule(ID)\ndef test_x(): pass\n"
    found, problems = citations_from_source(source, "t.py")
    assert found == []
    assert problems == [
        "t.py::test_x (line 3): a rule marker's clause must be a string literal, "
        "so that it can be read without running the tests"
    ]


def test_a_test_module_that_does_not_parse_is_a_problem_not_a_crash() -> None:
    found, problems = citations_from_source("def test_x(:\n", "t.py")
    assert found == []
    assert len(problems) == 1 and problems[0].startswith("t.py (line 1): cannot be parsed: ")


def test_report_separates_covered_missing_and_unknown(tmp_path: Path) -> None:
    rules = tmp_path / "docs" / "rules"
    tests = tmp_path / "tests"
    rules.mkdir(parents=True)
    tests.mkdir()
    (rules / "a.md").write_text("(A-1)=\n## A-1 — One\n\n(A-2)=\n## A-2 — Two\n")
    (tests / "test_a.py").write_text(
        "import pytest\n@pytest.mark.rule('A-1')\ndef test_one(): pass\n"
        "@pytest.mark.rule('A-3')\ndef test_three(): pass\n"
    )
    rep = report(rules, tests, tmp_path)
    assert rep.tests == {"A-1": ("tests/test_a.py::test_one",), "A-2": ()}
    assert rep.missing == ("A-2",)
    assert rep.unknown == (Citation("A-3", "tests/test_a.py::test_three", 4),)


def test_pages_are_read_in_the_order_of_the_toctree(tmp_path: Path) -> None:
    for name in ("a", "b", "c", "index"):
        (tmp_path / f"{name}.md").write_text("")
    toctree = "```{toctree}\n:maxdepth: 2\n\nc\nmissing\na.md\n```\n"
    (tmp_path / "index.md").write_text("# Rules\n\n" + toctree)
    assert [p.name for p in page_order(tmp_path)] == ["c.md", "a.md", "b.md", "index.md"]


# -- rulings ----------------------------------------------------------------------------------

RULINGS_PAGE = RULES / "rulings.md"
RULING_IDS = [f"K{i}" for i in range(1, 36)]


def _rulings() -> list[Ruling]:
    rulings, problems = rulings_from_markdown(
        RULINGS_PAGE.read_text(encoding="utf-8"), RULINGS_PAGE.name
    )
    assert not problems, "\n".join(problems)
    return rulings


def test_the_rulings_page_states_k1_to_k35_once_each_in_order() -> None:
    assert [r.id for r in _rulings()] == RULING_IDS


def test_rulings_are_not_taken_for_clauses() -> None:
    clauses, problems = clauses_from_markdown(
        RULINGS_PAGE.read_text(encoding="utf-8"), RULINGS_PAGE.name
    )
    assert (clauses, problems) == ([], [])
    assert not [c.id for c in report(RULES, TESTS, ROOT).clauses if c.id.startswith("K")]


def test_every_cited_ruling_is_on_the_rulings_page() -> None:
    defined = {int(r.id[1:]) for r in _rulings()}
    sources = [
        *sorted((ROOT / "src").rglob("*.py")), *sorted((ROOT / "src").rglob("*.toml")),
        *sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md",
    ]
    bad = [
        f"{path.relative_to(ROOT)}:{line}: K{n}"
        for path in sources
        for n, line in ruling_citations(path.read_text(encoding="utf-8"))
        if n not in defined
    ]
    assert not bad, "rulings cited but not on docs/rules/rulings.md:\n" + "\n".join(bad)


def test_each_ruling_lists_the_clauses_that_cite_it_and_only_existing_ones() -> None:
    rulings = {r.id: r for r in _rulings()}
    clause_ids = {c.id for c in report(RULES, TESTS, ROOT).clauses}
    unlisted = []
    for page in sorted(RULES.glob("*.md")):
        for clause, cited in rulings_cited_by_clauses(page.read_text(encoding="utf-8")).items():
            unlisted += [f"K{n} does not list {clause}" for n in sorted(cited)
                         if f"K{n}" in rulings and clause not in rulings[f"K{n}"].clauses]
    assert not unlisted, "\n".join(unlisted)
    unknown = [f"{r.id} lists {c}" for r in rulings.values() for c in r.clauses
               if c not in clause_ids]
    assert not unknown, "rulings list clauses that do not exist:\n" + "\n".join(unknown)
    assert all(r.clauses for r in rulings.values())


def test_ruling_headings_need_their_label() -> None:
    page = textwrap.dedent("""\
        # Rulings

        (K1)=
        ### K1 — First

        Text citing {ref}`TRICK-1 <TRICK-1>` and {ref}`SETUP-2`, and again {ref}`TRICK-1`.

        ### K2 — No label

        (K3)=
        ### K4 — Mismatch

        ## A plain section

        {ref}`CHEST-1 <CHEST-1>` belongs to no ruling.

        ```
        ### K5 — inside a code fence: not a ruling
        ```
        (K6)=
        Some text.

        ## K7: malformed
        (K8) = is a malformed label, but (K8) opening a line of prose is not
        (K8) opens this line of prose.

        (K1)=
        ### K1 — Again
        """)
    rulings, problems = rulings_from_markdown(page, "r.md")
    assert rulings == [
        Ruling("K1", "First", 4, ("TRICK-1", "SETUP-2")),
        Ruling("K2", "No label", 8, ()),
        Ruling("K4", "Mismatch", 11, ()),
        Ruling("K1", "Again", 28, ()),
    ]
    assert problems == [
        "r.md:8: heading of K2 has no (K2)= label above it",
        "r.md:11: heading of K4 follows the label of K3",
        "r.md:20: label (K6)= is not followed by its heading",
        "r.md:23: malformed ruling heading or label: '## K7: malformed'",
        "r.md:24: malformed ruling heading or label: "
        "'(K8) = is a malformed label, but (K8) opening a line of prose is not'",
        "r.md:28: K1 is defined twice (first on line 4)",
    ]


def test_ruling_citations_are_found_with_their_ranges() -> None:
    text = "K16 and (K5).\nRulings K30-K33, K19–K23; not OK1, K7a, K0 or ``K_1``.\nK2,K3"
    assert ruling_citations(text) == [
        (16, 1), (5, 1), (30, 2), (31, 2), (32, 2), (33, 2),
        (19, 2), (20, 2), (21, 2), (22, 2), (23, 2), (2, 3), (3, 3),
    ]


def test_split_rulings_cuts_text_at_each_citation() -> None:
    assert split_rulings("see K16.") == ["see ", 16, "."]
    assert split_rulings("K30-K33") == [30, "-", 33]
    assert split_rulings("OK1 and K7a stay text") == ["OK1 and K7a stay text"]
    assert split_rulings("") == []


def test_rulings_cited_by_clauses_reads_each_clause_section() -> None:
    page = textwrap.dedent("""\
        (A-1)=
        ### A-1 — One

        **Source:** rulings K3 and K30-K32.

        (A-2)=
        ### A-2 — Two

        No ruling.

        ## Worked example

        K9 is not part of A-2.
        """)
    assert rulings_cited_by_clauses(page) == {"A-1": {3, 30, 31, 32}, "A-2": set()}
