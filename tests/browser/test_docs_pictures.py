"""The players' page of the documentation ("How to play") is first in the table of contents and
shows its pictures: the docs are built with Sphinx as CI builds them, the page is opened in
headless Chromium, and each picture drawn by ``shock_rules.svg`` at build time is checked to be
laid out and painted (its pixels read back from a canvas hold the suits' colours), and on a
phone to keep text one can read. Melvin Vs. Kronk's players' page, linked from its rules, is
checked the same way."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("selenium")

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

ROOT = Path(__file__).resolve().parents[2]
# The pictures of docs/play.md, in the page's order, and the cards each must show.
PICTURES = {
    "cards": {"2H", "3S", "4D", "10C", "7H", "7S", "7D", "5C", "7C"},
    "deal": {"10D", "10H", "7S"},
    "trick": {"10H", "3H", "4H", "6H"},
    "won": {"10D"},
    "chest": {"10D"},
    "potion": {"7S", "5C"},
    "shock": {"7S", "5C", "7H"},
    "withdraw": {"8C", "7H"},
    "round-end": {"1H", "2S", "9C"},
}
# Draws a picture's SVG onto a canvas and counts the pixels of each suit's colour, so the test
# sees what Chromium painted, not only the page's markup.
PAINTED = """
const [svg, done] = [arguments[0], arguments[arguments.length - 1]];
const box = svg.getBoundingClientRect();
const image = new Image();
image.onload = () => {
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(box.width); canvas.height = Math.ceil(box.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  const suits = {hearts: [0xf2, 0xc2, 0x00], spades: [0x1f, 0x63, 0xc6],
                 diamonds: [0xd3, 0x2f, 0x2f], clubs: [0x2e, 0x8b, 0x3a]};
  const counts = {hearts: 0, spades: 0, diamonds: 0, clubs: 0};
  for (let i = 0; i < data.length; i += 4) {
    for (const [name, rgb] of Object.entries(suits)) {
      if (Math.abs(data[i] - rgb[0]) < 6 && Math.abs(data[i + 1] - rgb[1]) < 6
          && Math.abs(data[i + 2] - rgb[2]) < 6) counts[name] += 1;
    }
  }
  done({width: box.width, height: box.height, counts});
};
image.onerror = () => done({error: 'the SVG does not load as an image'});
image.src = 'data:image/svg+xml;charset=utf-8,'
  + encodeURIComponent(new XMLSerializer().serializeToString(svg));
"""

# Per picture: the size its text is drawn at (font-size in the SVG's units) and shown at (CSS
# pixels, through the SVG's scaling to its box), and the widths of its box and of its content.
TEXT_SIZES = """
return [...document.querySelectorAll('.shock-picture')].map(box => ({
  name: box.dataset.picture, box: box.clientWidth, content: box.scrollWidth,
  texts: [...box.querySelectorAll('svg text')].map(text => {
    const drawn = parseFloat(getComputedStyle(text).fontSize);
    return [text.textContent, drawn, drawn * text.getScreenCTM().a];
  }),
}));
"""


@pytest.fixture(scope="module")
def built_docs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The documentation, built into a temporary folder with warnings as errors."""
    out = tmp_path_factory.mktemp("docs-html")
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         str(ROOT / "docs"), str(out)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    yield out


def test_the_players_page_comes_first_and_shows_its_pictures(
    built_docs: Path, browser: Callable[..., WebDriver]
) -> None:
    driver = browser(1280, 900)
    driver.get((built_docs / "index.html").as_uri())
    first = driver.find_elements(By.CSS_SELECTOR, ".sidebar-tree a.reference")[0]
    assert first.text == "How to play"
    first.click()
    assert driver.find_element(By.TAG_NAME, "h1").text.startswith("How to play")
    pictures = driver.find_elements(By.CSS_SELECTOR, ".shock-picture")
    assert [p.get_attribute("data-picture") for p in pictures] == list(PICTURES)
    for picture, cards in zip(pictures, PICTURES.values(), strict=True):
        name = picture.get_attribute("data-picture")
        svg = picture.find_element(By.TAG_NAME, "svg")
        shown = {g.get_attribute("data-card") or ""
                 for g in svg.find_elements(By.CSS_SELECTOR, "g.card")}
        assert cards <= shown, (name, cards - shown)
        painted = driver.execute_async_script(PAINTED, svg)
        assert "error" not in painted, (name, painted)
        # Laid out within the page's column, and painted: every suit shown has its colour.
        assert 50 < painted["height"] and 300 < painted["width"] <= 1280, (name, painted)
        suits = {c[-1] for c in shown}
        for letter, suit in (("H", "hearts"), ("S", "spades"), ("D", "diamonds"),
                             ("C", "clubs")):
            if letter in suits:
                assert painted["counts"][suit] > 100, (name, suit, painted["counts"])


def test_on_a_phone_a_table_picture_keeps_its_text_readable_and_scrolls_sideways(
    built_docs: Path, browser: Callable[..., WebDriver]
) -> None:
    # Shrunk to a 390-pixel phone's column, a table's text was about 4 CSS px high.
    driver = browser(390, 844, phone=True)
    driver.get((built_docs / "play.html").as_uri())
    pictures = driver.execute_script(TEXT_SIZES)
    assert [p["name"] for p in pictures] == list(PICTURES)
    for picture in pictures:
        name, texts = picture["name"], picture["texts"]
        assert texts, name
        # 9 CSS px at least; the cards' labels, drawn at 8.5, at their size.
        small = [(words, round(shown, 1)) for words, drawn, shown in texts
                 if shown < min(9, drawn) - 0.01]
        assert not small, (name, small)
        if name != "cards":  # a table is wider than the phone: its box scrolls, not the page
            assert picture["content"] > picture["box"], (name, picture["content"])
    assert driver.execute_script("return document.documentElement.scrollWidth") <= 390


# The pictures of docs/melvin/play.md, Melvin Vs. Kronk's players' page, in the page's order.
MELVIN_PICTURES = ("deal", "turn-up", "match", "award", "collect", "wrong-slap", "toalha",
                   "amuleto", "last-card", "eliminated", "orcolar", "end")


def test_melvin_players_page_is_linked_from_its_rules_and_shows_its_pictures(
    built_docs: Path, browser: Callable[..., WebDriver]
) -> None:
    driver = browser(1280, 900)
    driver.get((built_docs / "melvin" / "index.html").as_uri())
    driver.find_element(By.CSS_SELECTOR, "article a[href='play.html']").click()
    assert driver.find_element(By.TAG_NAME, "h1").text.startswith("How to play Melvin Vs. Kronk")
    pictures = driver.find_elements(By.CSS_SELECTOR, ".melvin-picture")
    assert [p.get_attribute("data-picture") for p in pictures] == list(MELVIN_PICTURES)
    matches = set()
    for picture in pictures:
        name = picture.get_attribute("data-picture")
        svg = picture.find_element(By.TAG_NAME, "svg")
        painted = driver.execute_async_script(PAINTED, svg)
        assert "error" not in painted, (name, painted)
        assert 300 < painted["height"] and 300 < painted["width"] <= 1280, (name, painted)
        # PAINTED counts hearts' yellow, the gold of a match's cards, and clubs' green, the back
        # of a Gem card its viewer may not see.
        if svg.find_elements(By.CSS_SELECTOR, "g.versus rect[stroke-width='3']"):
            matches.add(name)
            assert painted["counts"]["hearts"] > 100, (name, painted["counts"])
        if svg.find_elements(By.CSS_SELECTOR, "g.gem-back"):
            assert painted["counts"]["clubs"] > 100, (name, painted["counts"])
    assert matches == {"match", "award", "orcolar"}


def test_on_a_phone_a_melvin_picture_keeps_its_text_readable_and_scrolls_sideways(
    built_docs: Path, browser: Callable[..., WebDriver]
) -> None:
    driver = browser(390, 844, phone=True)
    driver.get((built_docs / "melvin" / "play.html").as_uri())
    pictures = driver.execute_script(TEXT_SIZES)
    assert [p["name"] for p in pictures] == list(MELVIN_PICTURES)
    for picture in pictures:
        name, texts = picture["name"], picture["texts"]
        small = [(words, round(shown, 1)) for words, drawn, shown in texts
                 if shown < min(9, drawn) - 0.01]
        assert texts and not small, (name, small)
        assert picture["content"] > picture["box"], (name, picture["content"])
    assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
