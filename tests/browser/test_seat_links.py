"""A seat's link keeps its token in the fragment (never sent to a server); a link of before
(`?token=`) moves it there at once; a seat open in two pages says so in both, and one of them
replaces the seat's link: its address becomes the new link and it plays on, the other page is
told its link was replaced."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("selenium")

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.wait import WebDriverWait

from ._harness import Server
from ._page import wait_for


def test_the_lobbys_seat_links_keep_the_token_in_the_fragment(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    driver = browser()
    driver.get(server.url + "/")
    driver.find_element(By.ID, "create").click()
    # The creator is taken to their seat by its link.
    state = wait_for(driver, lambda s: s["step"] >= 0, "the creator's seat")
    assert state["seat"] == 0
    href = driver.current_url
    assert href.startswith(f"{server.url}/?table=") and "#token=" in href
    assert "token" not in href.partition("#")[0]


def test_a_link_of_before_moves_its_token_to_the_fragment(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    table, tokens = server.create_table(3, {1: "random", 2: "heuristic"})
    driver = browser()
    driver.get(f"{server.url}/?table={table}&token={tokens[0]}")
    state = wait_for(driver, lambda s: s["step"] >= 0, "the table")
    assert state["seat"] == 0
    assert driver.current_url == f"{server.url}/?table={table}#token={tokens[0]}"


def test_a_seat_open_twice_says_so_and_one_page_replaces_its_link(
    server: Server, browser: Callable[..., WebDriver], tmp_path: Path
) -> None:
    table, tokens = server.create_table(3, {1: "random", 2: "heuristic"})
    first, second = browser(), browser()
    for page in (first, second):
        page.get(server.link(table, tokens[0]))
        wait_for(page, lambda s: s["step"] >= 0 and s["seat"] == 0, "the table")
    for page in (first, second):
        WebDriverWait(page, 20).until(
            lambda d: d.find_element(By.ID, "elsewhere").is_displayed())
        assert "also open elsewhere (2 connections" in page.find_element(By.ID,
                                                                         "elsewhere").text
    first.find_element(By.ID, "replace-link").click()
    WebDriverWait(first, 20).until(lambda d: d.find_element(By.ID, "replaced").is_displayed())
    new = first.current_url.partition("#token=")[2]
    assert new and new != tokens[0]
    # The other page is told, and shown the way to watch instead.
    WebDriverWait(second, 20).until(lambda d: d.find_element(By.ID, "gone").is_displayed())
    assert second.find_element(By.ID, "gone").get_attribute("data-kind") == "replaced"
    assert second.find_element(By.ID, "gone-title").text == "This seat's link was replaced"
    # This page plays on with the new token, alone on the seat now.
    WebDriverWait(first, 20).until(
        lambda d: not d.find_element(By.ID, "elsewhere").is_displayed())
    state = wait_for(first, lambda s: s["connection"] == "open" and s["seat"] == 0,
                     "the seat again")
    assert state["seat"] == 0
    assert server.seat_view(table, new)["seat"] == 0
