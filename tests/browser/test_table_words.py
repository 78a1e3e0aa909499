"""The table speaks to people, not to programs: cards in symbols, a deal in one log line, no
protocol notation or step numbers on screen; gem icons and poison/potion marks on the cards;
keyboard play; English and Brazilian Portuguese, switchable and remembered. With
``SHOCK_RULES_SCREENSHOTS=1`` the test of the phone layout also remakes the documentation's
screenshots, in English and Brazilian Portuguese (``docs/_static/table-desktop.png``,
``table-phone.png``, ``lobby.png`` and each one's ``-pt-BR.png``)."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("selenium")

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

from ._harness import Server
from ._page import act, choose, read, wait_for, wait_step_after, wait_turn

ROOT = Path(__file__).resolve().parents[2]
# Notation a person should never have to read: cards ("10H"), chest cards ("G2/1",
# "P:bee"), action texts ("play 5S") and the protocol's step counter.
NOTATION = re.compile(r"\b(?:10|[1-9])[HSDC]\b|\bG\d+/\d+\b|\bP\d*:[a-z]|\bplay \d|\bstep \d")


def _open_seat(server: Server, driver: WebDriver, bots: dict[int, str]) -> dict[str, Any]:
    table, tokens = server.create_table(4, bots)
    driver.get(server.link(table, tokens[0]))
    return wait_turn(driver)


def _play_until(driver: WebDriver, state: dict[str, Any], done: Callable[[dict[str, Any]], bool],
                rng: random.Random, limit: int = 400) -> dict[str, Any]:
    for _ in range(limit):
        if done(state) or state["phase"] == "over":
            return state
        act(driver, state, choose(state, rng, withdraw_rate=0), rng)
        wait_step_after(driver, state["step"])
        state = wait_turn(driver)
    return state


def test_the_log_groups_a_deal_and_the_page_shows_no_notation(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    driver = browser()
    state = _open_seat(server, driver, {1: "heuristic", 2: "random", 3: "heuristic"})
    rng = random.Random(3)
    # Play into round 2, so that two deals and some tricks, poisons and chest cards are logged.
    state = _play_until(driver, state, lambda s: s["view"]["round"] >= 2 and s["your_turn"], rng)
    items = driver.execute_script(
        "return [...document.querySelectorAll('#log li')].map((n) => [n.className, n.textContent])")
    dealt = [text for cls, text in items if "ev-Dealt" in cls]
    assert len(dealt) == 2, dealt  # one line per deal, not one per card
    assert not [text for cls, text in items if "ev-CardDealt" in cls or "ev-HiddenCardDealt" in cls]
    # The first deal (the log's oldest line, at its top: the log reads oldest first): the
    # seat's own nine cards in symbols, the others' counts in words (the second deal only tops
    # hands up, K26, so its counts vary).
    mine = driver.execute_script(
        "return window.shockClient.client.events.filter((e) => e.event === 'CardDealt')"
        ".map((e) => e.card)")
    symbols = {"H": "\u2665", "S": "\u2660", "D": "\u2666", "C": "\u2663"}
    first = dealt[0]
    assert all(f"{symbols[c[-1]]}{c[:-1]}" in first for c in mine[:9]), (mine, first)
    assert "seat 1 received 9 cards" in first and "seat 3 received 9 cards" in first
    page = read(driver)
    assert not NOTATION.search(page["board_text"]), NOTATION.search(page["board_text"])
    log_text = " ".join(text for _, text in items)
    assert not NOTATION.search(log_text), NOTATION.search(log_text)


def test_cards_show_their_gem_icons_and_poisons_and_potions_their_marks(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    driver = browser()
    _open_seat(server, driver, {1: "random", 2: "random", 3: "random"})
    cards = driver.execute_script(
        "return [...document.querySelectorAll('#hand .card')].map((n) => ({card: n.dataset.card,"
        " icons: n.dataset.icons || '', shown: n.querySelector('.icons') ?"
        " n.querySelector('.icons').textContent : '', poison: !!n.querySelector('.poison-mark'),"
        " potion: !!n.querySelector('.potion-mark'), label: n.getAttribute('aria-label')}))")
    assert cards
    for c in cards:
        rank = int(c["card"][:-1])
        # K33 (default edition): one gem icon on every 1, 2, 3 and 4.
        assert c["icons"] == ("1" if rank <= 4 else ""), c
        assert c["shown"] == ("\u25c6" if rank <= 4 else ""), c
        assert c["poison"] == (c["card"] in ("7H", "7S", "7D")), c
        assert c["potion"] == (c["card"] in ("5C", "7C")), c
        if c["poison"]:
            assert "poison" in c["label"]


def test_a_card_is_played_with_the_keyboard(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    driver = browser()
    state = _open_seat(server, driver, {1: "heuristic", 2: "heuristic", 3: "heuristic"})
    state = _play_until(driver, state, lambda s: bool(s["playable"]) and s["your_turn"],
                        random.Random(1))
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    focused = driver.execute_script("return document.activeElement.dataset.notation || null")
    assert focused == state["playable"][0]
    body = driver.switch_to.active_element
    body.send_keys(Keys.ENTER)
    after = wait_step_after(driver, state["step"])
    assert len(after["hand"]) == len(state["hand"]) - 1
    assert focused.split()[-1] not in after["hand"]
    # "?" opens the keys' help and Escape closes it.
    driver.find_element(By.TAG_NAME, "body").send_keys("?")
    assert driver.find_element(By.ID, "keys-help").is_displayed()
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    assert not driver.find_element(By.ID, "keys-help").is_displayed()


def test_the_language_follows_the_choice_and_is_remembered(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    driver = browser()
    _open_seat(server, driver, {1: "random", 2: "random", 3: "random"})
    line = driver.find_element(By.ID, "status-line")
    assert line.text.startswith("Round 1 of 5")
    Select(driver.find_element(By.ID, "lang")).select_by_value("pt-BR")
    assert line.text.startswith("Rodada 1 de 5")
    assert driver.find_element(By.CSS_SELECTOR, "[data-i18n='board.trump']").text == "Trunfo"
    assert driver.execute_script("return document.documentElement.lang") == "pt-BR"
    log = driver.find_element(By.ID, "log").text
    assert "Cartas distribuídas" in log and "Cards dealt" not in log
    driver.refresh()
    wait_turn(driver)
    assert driver.find_element(By.ID, "status-line").text.startswith("Rodada 1 de 5")
    Select(driver.find_element(By.ID, "lang")).select_by_value("en")
    assert driver.find_element(By.ID, "status-line").text.startswith("Round 1 of 5")


def test_the_phone_layout_fits_and_the_docs_screenshots(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    remake = os.environ.get("SHOCK_RULES_SCREENSHOTS") == "1"
    folder = ROOT / "docs" / "_static"
    phone = browser(390, 844, phone=True)
    desktop = browser(1280, 800)
    table, tokens = server.create_table(4, {1: "heuristic", 2: "mcts", 3: "random"})
    rng = random.Random(5)
    for driver in (desktop, phone):
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    desktop.get(server.url + "/")
    wait_for(desktop, lambda s: True, "the lobby")
    if remake:
        desktop.save_screenshot(str(folder / "lobby.png"))
        _in_portuguese(desktop, lambda: desktop.save_screenshot(str(folder / "lobby-pt-BR.png")))
    phone.get(server.link(table, tokens[0]))
    state = wait_turn(phone)
    # A lively position: round 2, cards in the trick, a poison or potion in front of someone.
    state = _play_until(phone, state, lambda s: s["view"]["round"] >= 2 and len(s["trick"]) >= 2
                        and any(x["poisons"] or x["potions"] for x in s["seats"]), rng)
    page = read(phone)
    assert page["scroll_width"] <= page["client_width"], "the phone page scrolls sideways"
    assert phone.find_element(By.ID, "hand").is_displayed()
    if remake:
        phone.save_screenshot(str(folder / "table-phone.png"))
        _in_portuguese(phone, lambda: phone.save_screenshot(str(folder / "table-phone-pt-BR.png")))
        phone.get(server.url + "/")  # one page on the seat: no "open elsewhere" notice
        desktop.get(server.link(table, tokens[0]))
        wait_turn(desktop)
        WebDriverWait(desktop, 30).until(
            lambda d: not d.find_element(By.ID, "elsewhere").is_displayed())
        desktop.save_screenshot(str(folder / "table-desktop.png"))
        _in_portuguese(desktop,
                       lambda: desktop.save_screenshot(str(folder / "table-desktop-pt-BR.png")))


def _in_portuguese(driver: WebDriver, then: Callable[[], object]) -> None:
    """Switch the page to Brazilian Portuguese, call ``then``, and switch back to English."""
    Select(driver.find_element(By.ID, "lang")).select_by_value("pt-BR")
    assert driver.execute_script("return document.documentElement.lang") == "pt-BR"
    then()
    Select(driver.find_element(By.ID, "lang")).select_by_value("en")


def test_the_lobby_and_the_missing_table_page_speak_the_chosen_language(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    driver = browser()
    driver.get(server.url + "/")
    Select(driver.find_element(By.ID, "lang")).select_by_value("pt-BR")
    assert driver.find_element(By.CSS_SELECTOR, "[data-i18n='lobby.newTable']").text == "Nova mesa"
    options = [o.text for o in driver.find_elements(By.CSS_SELECTOR, "#seat-choices select option")]
    assert "pessoa" in options and "robô: heurístico" in options
    assert driver.find_element(By.ID, "rules-link").text == "Como jogar (em inglês)"
    # The choice holds on the next page: a link to a table that does not exist.
    driver.get(server.url + "/?table=nope")
    title = driver.find_element(By.ID, "gone-title")
    WebDriverWait(driver, 20).until(lambda d: title.text)
    assert title.text == "Não existe a mesa nope"
    assert driver.find_element(By.ID, "gone-back").text == "Voltar ao saguão"
