"""Melvin Vs. Kronk's players' page (docs/melvin/play.md, *How to play Melvin Vs. Kronk*): its
pictures come from one scripted game played through ``shock_rules.melvin`` when the docs are
built (``docs/_ext/pictures.py``), each part checked against the events the page tells; the page
explains every special card and every penalty by name; and the built page shows each picture,
drawn from the position its text describes."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from shock_rules import melvin as mk

pytest.importorskip("sphinx")
pytest.importorskip("myst_parser")

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "melvin" / "play.md"
SVG = "{http://www.w3.org/2000/svg}"
# The cards' Portuguese names (R8, R10), kept as names on the page, by their notation.
SPECIAL_NAMES = {"Oculos": "Óculos Geek", "Toalha": "Toalha", "Orcolar": "Orcolar",
                 "Amuleto": "Amuleto Orc"}
PENALTY_NAMES = {"Mao": "Mão para trás", "Olho": "Olho fechado", "Cartas": "Cartas para todos",
                 "Duas": "Jogue duas seguidas"}


@pytest.fixture(scope="module")
def pictures() -> Iterator[ModuleType]:
    """The Sphinx extension that draws the pictures (``docs/_ext/pictures.py``)."""
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        yield importlib.import_module("pictures")
    finally:
        sys.path.remove(str(ROOT / "docs" / "_ext"))


def _page() -> str:
    return PAGE.read_text(encoding="utf-8")


def test_the_game_of_the_page_does_every_thing_the_page_promises(pictures: ModuleType) -> None:
    # Each part's events, in words, and its facts are checked as the game is played; a part
    # that did not do what the page says would have raised instead.
    scenes = pictures._melvin_scenes()
    assert list(scenes) == [name for name, _, _ in pictures.MELVIN_SCRIPT]
    final = scenes["end"]
    # MK-END-1, MK-END-2: the Gem deck ran out; the page's scores and winner.
    assert final.end_reason is mk.EndReason.GEMS_GONE
    assert mk.scores(final) == (10, 8, 7, 0) and mk.winners(final) == frozenset({0})
    assert final.in_game == (True, True, True, False)
    # The game meets every special card played and one penalty, as the page tells it.
    assert final.played == ("Toalha", "Amuleto", "Oculos", "Orcolar")
    assert scenes["wrong-slap"].penalties[3] == ("Cartas",)
    mk.check_state(final)  # MK-CONS-1: raises on a card out of place


def test_a_game_that_no_longer_does_what_the_page_says_stops_the_build(
    pictures: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sphinx.errors import ExtensionError

    script = list(pictures.MELVIN_SCRIPT)
    # Seat 2 keeps the G2 instead of the Toalha: the page's "keeps Toalha" is wrong now.
    name, actions, promised = script[4]
    assert name == "collect"
    script[4] = (name, actions.replace("Toalha give 3", "G2 give 3"), promised)
    monkeypatch.setattr(pictures, "MELVIN_SCRIPT", tuple(script))
    with pytest.raises(ExtensionError, match="melvin picture 'collect': the game told"):
        pictures._melvin_scenes()
    # Seat 3 turns up another face: no match shows where the page says one does.
    script = list(pictures.MELVIN_SCRIPT)
    script[2] = ("match", "3 flip V7", ())
    monkeypatch.setattr(pictures, "MELVIN_SCRIPT", tuple(script))
    with pytest.raises(ExtensionError, match="'match': the page says 'seats 1 and 3 show V9"):
        pictures._melvin_scenes()


def test_a_turn_up_the_script_names_is_checked_against_a_known_card(
    pictures: ModuleType,
) -> None:
    from sphinx.errors import ExtensionError

    # Seat 0 wins a race and puts the two V5 under its draw pile (MK-AWARD-2): once its 15
    # unseen cards are turned up, its next card is a known V5, with no chance step.
    state = mk.apply(mk.new_game(mk.GameConfig(players=3)), mk.ChooseDealer(2))
    for text in ("0 flip V5", "1 flip V5", "0 slap", "gem G1", "gem G2", "0 award G1 give 1"):
        state = pictures._melvin_step(state, text)
    assert state.known[0] == (5, 5)
    while state.hidden[0] or state.to_move != 0:
        # The face with the most unseen copies that no discard pile shows: never a match.
        tops = set(state.tops())
        face = max(range(1, 13), key=lambda f: (f not in tops, state.pool[f - 1]))
        state = pictures._melvin_step(state, f"{state.to_move} flip V{face}")
        assert not mk.match_shows(state)
    with pytest.raises(ExtensionError, match="'0 flip V6': the card turned up is V5"):
        pictures._melvin_step(state, "0 flip V6")
    after = pictures._melvin_step(state, "0 flip V5")
    assert after.tops()[0] == 5 and after.known[0] == (5,) and not mk.is_chance(after)


def test_every_picture_of_the_page_is_a_part_of_the_game_in_order(
    pictures: ModuleType,
) -> None:
    shown = re.findall(r"^```\{melvin-picture\} (\S+)$", _page(), re.MULTILINE)
    assert shown == list(pictures.MELVIN_SEATS)
    parts = [name for name, _, _ in pictures.MELVIN_SCRIPT]
    assert [p for p in parts if p in pictures.MELVIN_SEATS] == shown
    assert set(pictures.MELVIN_FACTS) <= set(parts)


def test_the_page_explains_every_special_card_and_penalty_by_name() -> None:
    page = _page()
    assert set(SPECIAL_NAMES) == set(mk.SPECIALS) and set(PENALTY_NAMES) == set(mk.PENALTIES)
    for name in (*SPECIAL_NAMES.values(), *PENALTY_NAMES.values()):
        # A list item of its own: the name, its English gloss, then what it does.
        item = re.search(rf'^- \*\*\*{re.escape(name)}\*\*\* \("[^"]+"\)[,:] (.+)$', page,
                         re.MULTILINE)
        assert item, f"the page has no item explaining {name!r}"
    assert '*Fica pra próxima* ("' in page  # R7, with its gloss
    # The clauses the page's decisions link to exist on the rules page.
    labels = set(re.findall(r"^\((MK-[A-Z]+-\d+)\)=$",
                            (ROOT / "docs" / "melvin" / "index.md").read_text(encoding="utf-8"),
                            re.MULTILINE))
    cited = set(re.findall(r"\{ref\}`(MK-[A-Z]+-\d+) <", page))
    assert cited and cited <= labels
    assert {"MK-PEN-1", "MK-PEN-2", "MK-PEN-3", "MK-ELIM-1", "MK-SPECIAL-1", "MK-SPECIAL-2",
            "MK-SPECIAL-3", "MK-SPECIAL-4", "MK-END-1"} <= cited


# -- the built page -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The HTML of the page, from the docs built as CI builds them (warnings are errors)."""
    pytest.importorskip("furo")
    out = tmp_path_factory.mktemp("docs-html")
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         str(ROOT / "docs"), str(out)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return (out / "melvin" / "play.html").read_text(encoding="utf-8")


def _pictures_of(html: str) -> dict[str, ET.Element]:
    found = re.findall(r'<div class="shock-picture melvin-picture" data-picture="([^"]+)">'
                       r"(<svg .*?</svg>)</div>", html, re.DOTALL)
    return {name: ET.fromstring(svg) for name, svg in found}


def _seat(picture: ET.Element, seat: int) -> ET.Element:
    found = picture.find(f".//{SVG}g[@class='seat'][@data-seat='{seat}']")
    assert found is not None
    return found


def _attrs(element: ET.Element, kind: str, attribute: str) -> list[str]:
    return [g.get(attribute, "") for g in element.iter(f"{SVG}g") if g.get("class") == kind]


def test_the_built_page_shows_every_picture_drawn_from_its_position(
    built_page: str, pictures: ModuleType
) -> None:
    drawn = _pictures_of(built_page)
    assert list(drawn) == list(pictures.MELVIN_SEATS)
    for name, picture in drawn.items():
        seat = pictures.MELVIN_SEATS[name]
        whose = "a spectator's view" if seat is None else f"seat {seat}'s view"
        assert picture.get("aria-label") == f"Melvin Vs. Kronk, {whose}", name
        assert len(picture.findall(f".//{SVG}g[@class='seat']")) == 4, name
    # The match: seats 1 and 3 show V9 (MK-SLAP-1).
    match = drawn["match"]
    assert [_attrs(_seat(match, s), "versus", "data-face") for s in range(4)] == [
        ["V4"], ["V9"], ["V1"], ["V9"]]
    # The award: the winner, seat 2, sees its two Gem cards (M30); a spectator would not.
    assert {"G2", "Toalha"} <= set(_attrs(drawn["award"], "gem-card", "data-gem"))
    assert "seat 2 won the slap" in ET.tostring(drawn["award"], encoding="unicode")
    # The wrong slap: seat 3 suffers Cartas para todos (MK-PEN-2).
    assert _attrs(_seat(drawn["wrong-slap"], 3), "penalty", "data-penalty") == ["Cartas"]
    # Fica pra próxima: seat 3 has no draw pile left but is in the game (MK-ELIM-1).
    last = ET.tostring(_seat(drawn["last-card"], 3), encoding="unicode")
    assert "draw 0" in last and "in the game" in last
    # Óculos Geek's holder, seat 1, sees the eliminated seat 3's G2 (MK-INFO-1).
    out = _seat(drawn["eliminated"], 3)
    assert _attrs(out, "gem-card", "data-gem") == ["G2"]
    assert "out of the game" in ET.tostring(out, encoding="unicode")
    # Orcolar: seat 0 takes the cards of seat 2's slap, and sees them (MK-SPECIAL-2).
    orcolar = ET.tostring(drawn["orcolar"], encoding="unicode")
    assert "seat 2 won the slap; seat 0 takes the Gem cards" in orcolar
    assert {"G3", "G2"} <= set(_attrs(drawn["orcolar"], "gem-card", "data-gem"))
    # The end: everyone's Gem cards shown, seat 0 the winner with 10 gems (MK-END-2).
    end = drawn["end"]
    assert "winner" in ET.tostring(_seat(end, 0), encoding="unicode")
    assert sorted(_attrs(_seat(end, 0), "gem-card", "data-gem")) == ["G2", "G2", "G3", "G3"]
    assert "10 gems" in ET.tostring(_seat(end, 0), encoding="unicode")
