"""The browser client speaks English and Brazilian Portuguese: every message of one language
has its counterpart in the other (a missing one would show English, or the key itself, in the
middle of a Portuguese page)."""

from __future__ import annotations

import re
from pathlib import Path

I18N = Path(__file__).resolve().parents[2] / "src" / "shock_rules" / "server" / "static" / "i18n.js"
KEY = re.compile(r'"([a-zA-Z][\w.-]*)":\s')


def _keys(block: str) -> set[str]:
    return set(KEY.findall(block))


def test_both_languages_have_the_same_messages() -> None:
    text = I18N.read_text(encoding="utf-8")
    english, _, portuguese = text.partition('"pt-BR": {')
    english = english.partition("en: {")[2]
    portuguese = portuguese.partition("\n  },\n")[0]
    en, pt = _keys(english), _keys(portuguese)
    assert len(en) > 150
    assert en - pt == set(), f"no Portuguese for {sorted(en - pt)}"
    assert pt - en == set(), f"no English for {sorted(pt - en)}"
