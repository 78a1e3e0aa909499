"""The players' page (docs/play.md, *How to play*) names what the browser table shows: a new
player who reads "dungeon deck 3" on the table finds the dungeon deck explained there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "src" / "shock_rules" / "server" / "static" / "i18n.js"


def _english(key: str) -> str:
    # The first (English) message of the key: a plain "text {n}" message.
    found = re.search(rf'"{re.escape(key)}": "([^"]*)"', I18N.read_text(encoding="utf-8"))
    assert found, key
    return found.group(1)


def test_how_to_play_names_every_pile_the_table_counts() -> None:
    page = (ROOT / "docs" / "play.md").read_text(encoding="utf-8").lower()
    for key in ("board.deck", "board.discard", "board.chestDeck", "board.chestDiscard",
                "board.supply"):
        name = _english(key).replace("{n}", "").strip()
        assert name.lower() in page, f"How to play never names the table's {name!r}"
