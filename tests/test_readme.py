"""The README's quick start runs as written, pasted into a script or into the interactive
interpreter, and its two set-up commands are the ones CI uses."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import shock_rules as sr

README = Path(__file__).resolve().parent.parent / "README.md"


def test_quick_start_plays_a_whole_game() -> None:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "README has no python example"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    state = namespace["state"]
    assert isinstance(state, sr.State)
    assert sr.is_terminal(state)
    assert state.round == 5


def test_every_python_block_pastes_into_the_interactive_interpreter() -> None:
    # The interactive interpreter ends an indented block only at a blank line: a statement
    # right after a loop, fine in a script, is a SyntaxError when pasted at the >>> prompt.
    text = README.read_text(encoding="utf-8")
    for block in re.findall(r"```python\n(.*?)```", text, flags=re.S):
        done = subprocess.run([sys.executable, "-i", "-q"], input=block, capture_output=True,
                              text=True, timeout=120, check=True)
        assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr
        assert done.stdout.strip(), "the block printed nothing"


def test_readme_shows_exactly_two_setup_commands() -> None:
    text = README.read_text(encoding="utf-8")
    commands = re.findall(r"```sh\n(.*?)```", text, flags=re.S)
    assert len(commands) == 2
    assert "shock-rules" in commands[0]
    assert "pytest" in commands[1]


def test_the_readme_is_short_and_names_nothing_of_one_machine_or_one_session() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 150
    # Narratives of one session belong nowhere; benchmark details go to docs/performance.md.
    assert not re.search(r"\b[0-9a-f]{7,40}\b", text), "a commit id"
    assert "/tmp/" not in text, "a path of one machine"
    assert not re.search(r"\bissues?\b", text, flags=re.I), "a reference to an issue"
    assert "docs/performance.md" in text
