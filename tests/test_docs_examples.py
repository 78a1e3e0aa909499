"""The ``>>>`` examples of the documentation pages run and give what they show.

The pages in ``docs/**/*.md`` hold their examples in fenced blocks (```` ```{doctest} ````, or
```` ```pycon ```` / ```` ```python ```` blocks containing ``>>>``). This test extracts them and
runs each page's examples with :mod:`doctest`, in order and in one namespace per page (as
``sphinx.ext.doctest`` does), so CI checks them without building the docs.
"""

from __future__ import annotations

import codeop
import doctest
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)

_FENCE_OPEN = re.compile(r"^(`{3,}|~{3,})\s*(\S*)")
_EXAMPLE_LANGUAGES = frozenset({"{doctest}", "pycon", "python", "py"})


def example_blocks(text: str) -> list[tuple[int, str]]:
    """Return the fenced blocks of a Markdown text that hold ``>>>`` examples, as
    (line number of the first content line, content); directive options are dropped."""
    blocks: list[tuple[int, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE_OPEN.match(lines[i])
        if not m:
            i += 1
            continue
        fence = m.group(1)
        start = i + 1
        j = start
        while j < len(lines) and not (
            lines[j].startswith(fence[0] * len(fence)) and not lines[j].strip(fence[0]).strip()
        ):
            j += 1
        body = lines[start:j]
        # MyST directive options (":options: +ELLIPSIS") come first in a {doctest} block.
        while body and body[0].startswith(":") and m.group(2) == "{doctest}":
            body = body[1:]
            start += 1
        content = "\n".join(body)
        if m.group(2) in _EXAMPLE_LANGUAGES and re.search(r"^\s*>>>", content, re.MULTILINE):
            blocks.append((start + 1, content))
        i = j + 1
    return blocks


def test_example_blocks_are_found_and_cut_at_the_fence() -> None:
    page = (
        "Intro\n\n```console\n$ pip install x\n```\n\n```{doctest}\n:options: +ELLIPSIS\n"
        ">>> 1 + 1\n2\n```\n\n```text\n>>> not python\n```\n"
    )
    assert example_blocks(page) == [(9, ">>> 1 + 1\n2")]


EXAMPLE_PAGES = [p for p in PAGES if example_blocks(p.read_text(encoding="utf-8"))]


@pytest.mark.parametrize(
    "page", EXAMPLE_PAGES, ids=[p.relative_to(DOCS).as_posix() for p in EXAMPLE_PAGES]
)
def test_page_examples(page: Path) -> None:
    blocks = example_blocks(page.read_text(encoding="utf-8"))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS, verbose=False)
    globs: dict[str, object] = {"__name__": "__docs__"}
    name = page.relative_to(DOCS).as_posix()
    failed = 0
    for line, content in blocks:
        test = parser.get_doctest(content, globs, name, str(page), line - 1)
        failed += runner.run(test, clear_globs=False).failed
        globs = test.globs  # a DocTest works on a copy: carry the names to the next block
    assert failed == 0, f"{failed} example(s) failed in docs/{name} (see the output above)"


def test_page_examples_read_as_sessions_of_the_interactive_interpreter() -> None:
    # The interpreter ends an indented block only at a blank line: a loop's example must end
    # with a bare "..." line, or its lines typed or pasted at the >>> prompt, followed by the
    # next example's, are a SyntaxError. codeop decides "more input needed" as the REPL does.
    open_blocks = []
    for page in EXAMPLE_PAGES:
        for line, content in example_blocks(page.read_text(encoding="utf-8")):
            typed: list[str] = []
            for number, text in enumerate([*content.splitlines(), ""], line):
                prompt = re.match(r"\s*(>>>|\.\.\.)(?: |$)(.*)", text)
                if prompt is None or prompt.group(1) == ">>>":
                    if typed:  # output or a new prompt while the interpreter waits for more
                        open_blocks.append(f"{page.relative_to(DOCS)}:{number}")
                    typed = []
                    if prompt is None:
                        continue
                elif not typed:  # a "..." of an expected output
                    continue
                typed.append(prompt.group(2))
                if codeop.compile_command("\n".join(typed), symbol="single") is not None:
                    typed = []
    assert open_blocks == [], "examples not closed by a bare '...' line"


def test_the_pages_that_promise_examples_have_them() -> None:
    # The quickstart and the worked examples of the specification (a potion of the same trick,
    # a chest poison shocking several players, the leader withdrawing, everyone withdrawing).
    names = {p.relative_to(DOCS).as_posix() for p in EXAMPLE_PAGES}
    assert names >= {"quickstart.md", "rules/poisons.md", "rules/chest.md", "rules/withdrawal.md"}
