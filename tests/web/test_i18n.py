"""The browser client speaks English and Brazilian Portuguese: every message of one language
has its counterpart in the other (a missing one would show English, or the key itself, in the
middle of a Portuguese page), in the client's words (i18n.js) and in each game's own
(melvin-words.js)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "shock_rules" / "server" / "static"
KEY = re.compile(r'"([a-zA-Z][\w.-]*)":\s')


def _keys(block: str) -> set[str]:
    return set(KEY.findall(block))


@pytest.mark.parametrize(("name", "least"), [("i18n.js", 150), ("melvin-words.js", 80)])
def test_both_languages_have_the_same_messages(name: str, least: int) -> None:
    text = (STATIC / name).read_text(encoding="utf-8")
    english, _, portuguese = text.partition('"pt-BR": {')
    english = english.partition("en: {")[2]
    portuguese = portuguese.partition("\n  },\n")[0]
    en, pt = _keys(english), _keys(portuguese)
    assert len(en) > least
    assert en - pt == set(), f"no Portuguese for {sorted(en - pt)}"
    assert pt - en == set(), f"no English for {sorted(pt - en)}"


def test_a_game_adds_no_word_the_client_has() -> None:
    # A game's words are added to the client's (i18n.addMessages): one that the client has
    # already would replace it on every page.
    client = _keys((STATIC / "i18n.js").read_text(encoding="utf-8"))
    melvin = _keys((STATIC / "melvin-words.js").read_text(encoding="utf-8"))
    assert client & melvin == {"pt-BR"}  # (the languages' own tables)
