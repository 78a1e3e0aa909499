"""The front page lists the open tables (the listed ones only) with a Watch link each, and a
link to a table that does not exist, or with a token that is none of its seats', shows a panel
saying so with a way back to the front page instead of an empty board."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

pytest.importorskip("selenium")

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

from ._harness import Server
from ._page import screenshot, wait_for

BOTS = {"1": "heuristic", "2": "random", "3": "random"}


def _create(server: Server, *, listed: bool) -> str:
    doc = server.request("POST", "/api/tables", {"players": 4, "bots": BOTS, "listed": listed})
    table: str = doc["table"]
    return table


def _shown(driver: WebDriver) -> dict[str, str]:
    """Return the open tables the page lists: table id → the line's text."""
    rows: dict[str, str] = driver.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#open-tables-list li')]"
        ".map((li) => [li.dataset.table, li.innerText]))")
    return rows


def _until_shown(driver: WebDriver, table: str, timeout: float) -> dict[str, str]:
    WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: table in _shown(d))
    return _shown(driver)


def test_the_lobby_lists_the_listed_tables_and_watches_one(
    server: Server, browser: Callable[..., WebDriver], tmp_path: Path
) -> None:
    listed = _create(server, listed=True)
    unlisted = _create(server, listed=False)
    driver = browser()
    driver.get(server.url + "/")
    shown = _until_shown(driver, listed, 10)
    assert unlisted not in shown
    assert driver.find_element(By.ID, "open-tables-empty").is_displayed() is False
    line = shown[listed]
    for part in ("4 players", "standard", "1 person", "heuristic (seat 1)", "random (seat 3)",
                 "Watch"):
        assert part in line, line
    rules = driver.find_element(By.ID, "rules-link")
    assert rules.is_displayed() and (rules.get_attribute("href") or "").endswith("/docs/play.md")
    # The link follows the game chosen: Melvin Vs. Kronk has a players' page of its own.
    game = Select(driver.find_element(By.ID, "game"))
    game.select_by_value("melvin")
    assert (rules.get_attribute("href") or "").endswith("/docs/melvin/play.md")
    game.select_by_value("shock")
    assert (rules.get_attribute("href") or "").endswith("/docs/play.md")
    screenshot(driver, tmp_path / "open-tables.png")

    # The form's box: a table created unticked is not listed, on the server or on the page
    # (refreshed every 10 s: a table created meanwhile elsewhere shows without a reload).
    box = driver.find_element(By.ID, "listed")
    assert box.is_displayed() and box.is_selected()
    box.click()
    driver.find_element(By.ID, "create").click()
    # The creator is taken to their seat of the new table.
    wait_for(driver, lambda s: s["seat"] == 0, "the creator's seat", 30)
    private = parse_qs(urlparse(driver.current_url).query)["table"][0]
    driver.get(server.url + "/")
    _until_shown(driver, listed, 10)
    later = _create(server, listed=True)
    shown = _until_shown(driver, later, 25)
    on_server = {t["table"] for t in server.request("GET", "/api/tables")["tables"]}
    assert on_server == {listed, later} and set(shown) == on_server
    assert private not in shown and server.spectator_view(private)["config"]["players"] == 4

    # Watch opens the spectator's view of that table.
    watch = driver.find_element(By.CSS_SELECTOR, f'#open-tables-list li[data-table="{listed}"] a')
    assert watch.get_attribute("href") == f"{server.url}/?table={listed}"
    watch.click()
    state = wait_for(driver, lambda s: s["view"] is not None, "the watched table", 30)
    assert state["view"]["seat"] is None and state["hand"] == []
    assert state["view"]["config"]["players"] == 4
    assert not driver.find_element(By.ID, "gone").is_displayed()
    assert not driver.find_element(By.ID, "lobby").is_displayed()


def _gone(driver: WebDriver) -> dict[str, Any]:
    WebDriverWait(driver, 20, poll_frequency=0.05).until(
        lambda d: d.find_element(By.ID, "gone").is_displayed())
    return {
        "title": driver.find_element(By.ID, "gone-title").text,
        "kind": driver.find_element(By.ID, "gone").get_attribute("data-kind"),
        "board": driver.find_element(By.ID, "table").is_displayed(),
        "back": driver.find_element(By.ID, "gone-back"),
        "watch": driver.find_element(By.ID, "gone-watch"),
    }


def test_an_unknown_table_says_so_and_leads_back_to_the_lobby(
    server: Server, browser: Callable[..., WebDriver], tmp_path: Path
) -> None:
    driver = browser()
    driver.get(server.url + "/?table=nope")
    gone = _gone(driver)
    assert (gone["title"], gone["kind"], gone["board"]) == (
        "There is no table nope", "missing", False)
    assert not gone["watch"].is_displayed()
    screenshot(driver, tmp_path / "missing.png")
    back = gone["back"]
    assert back.text == "Back to the lobby"
    back.click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "lobby").is_displayed())
    assert driver.current_url == server.url + "/"
    assert not driver.find_element(By.ID, "gone").is_displayed()
    # No table on this server: the panel says so rather than staying blank.
    WebDriverWait(driver, 10).until(
        lambda d: d.find_element(By.ID, "open-tables-empty").is_displayed())
    assert driver.find_element(By.ID, "open-tables-empty").text.startswith("No open tables")


def test_a_refused_token_says_so_and_offers_to_watch(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    table = _create(server, listed=False)
    driver = browser()
    driver.get(server.link(table, "not-a-token"))
    gone = _gone(driver)
    assert (gone["title"], gone["kind"], gone["board"]) == (
        "This link's seat token is not valid", "refused", False)
    watch = gone["watch"]
    assert watch.is_displayed()
    watch.click()
    state = wait_for(driver, lambda s: s["view"] is not None, "the watched table", 30)
    assert state["view"]["seat"] is None
    assert not driver.find_element(By.ID, "gone").is_displayed()
