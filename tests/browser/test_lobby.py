"""The page at `/` creates a table (players, variant, which seat is which bot), takes its
creator to their seat and gives a link per person's seat; the links open that seat's table.
On a phone-sized screen the table page shows the hand and the action buttons without
horizontal scrolling."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("selenium")

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

from ._harness import Server
from ._page import act, choose, screenshot, wait_for, wait_step_after, wait_turn


def test_the_front_page_creates_a_table_with_a_link_per_person(
    server: Server, browser: Callable[..., WebDriver], tmp_path: Path
) -> None:
    driver = browser()
    driver.get(server.url + "/")
    Select(driver.find_element(By.ID, "players")).select_by_value("5")
    Select(driver.find_element(By.ID, "variant")).select_by_value("simplified")
    seats = driver.find_elements(By.CSS_SELECTOR, "#seat-choices select")
    assert len(seats) == 5
    for seat, choice in enumerate(["person", "mcts", "person", "random", "heuristic"]):
        Select(seats[seat]).select_by_value(choice)
    screenshot(driver, tmp_path / "lobby.png")
    driver.find_element(By.ID, "create").click()
    # The creator goes to their seat (the first person's); the panel beside the board has a
    # link per person's seat, to send.
    WebDriverWait(driver, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#seat-links li"))
    links = driver.find_elements(By.CSS_SELECTOR, "#seat-links li")
    assert [li.get_attribute("data-seat") for li in links] == ["0", "2"]
    screenshot(driver, tmp_path / "links.png")
    hrefs = [li.find_element(By.TAG_NAME, "a").get_attribute("href") or "" for li in links]
    table = driver.find_element(By.ID, "links-table").text
    assert all(f"table={table}" in href and "token=" in href for href in hrefs)
    assert driver.current_url == hrefs[0]
    # Each link opens its seat; the table has the chosen players and variant.
    for seat, href in zip([0, 2], hrefs, strict=True):
        driver.get(href)
        state = wait_for(driver, lambda s: s["step"] >= 0, "the table")
        assert state["seat"] == seat
        assert state["view"]["config"]["players"] == 5
        assert state["view"]["config"]["variant"] == "simplified"
        assert len(state["hand"]) == 8
    assert server.spectator_view(table)["config"]["variant"] == "simplified"


def _box(driver: WebDriver, css: str) -> list[dict[str, Any]]:
    boxes: list[dict[str, Any]] = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((n) => {"
        "  const r = n.getBoundingClientRect();"
        "  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,"
        "          width: window.innerWidth, height: window.innerHeight}; })", css)
    return boxes


def test_on_a_phone_the_hand_and_buttons_fit_the_screen(
    server: Server, browser: Callable[..., WebDriver], tmp_path: Path
) -> None:
    table, tokens = server.create_table(5, {1: "random", 2: "heuristic", 3: "random",
                                            4: "heuristic"})
    driver = browser(390, 844, phone=True)
    driver.get(server.url + "/")
    lobby = wait_for(driver, lambda s: s["client_width"] == 390, "the front page")
    assert lobby["scroll_width"] <= lobby["client_width"], "the front page scrolls sideways"
    driver.get(server.link(table, tokens[0]))
    rng = random.Random(8)
    seen_cards = seen_buttons = 0
    for turn in range(12):
        state = wait_turn(driver)
        if state["phase"] == "over":
            break
        assert state["client_width"] == 390
        assert state["scroll_width"] <= state["client_width"], "the page scrolls sideways"
        cards = _box(driver, "#hand .card")
        buttons = _box(driver, "#actions button")
        # A turn can come with an empty hand (after the round's last trick a seat may still
        # decide on its chest draws, say); then it is all buttons.
        assert len(cards) == len(state["hand"])
        assert cards or buttons, f"a turn with neither cards nor buttons: {state}"
        seen_cards += len(cards)
        seen_buttons += len(buttons)
        for box in cards + buttons:
            # Fully on the screen: no sideways scrolling, and no scrolling down either.
            assert 0 <= box["left"] and box["right"] <= box["width"], box
            assert 0 <= box["top"] and box["bottom"] <= box["height"], box
        if turn in (0, 5):
            screenshot(driver, tmp_path / f"phone-{turn}.png")
        act(driver, state, choose(state, rng, withdraw_rate=0), rng)
        wait_step_after(driver, state["step"])
    assert seen_cards, "no turn showed the hand"
    assert seen_buttons, "no turn offered a button (withdraw, cover, reveal or stop)"
