"""A game in the browser survives a reload of the page and a restart of the server: the page
shows the same step, hand and log again, and the game goes on by clicking. An action the server
refuses shows its error document and changes nothing."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("selenium")

from selenium.webdriver.remote.webdriver import WebDriver

from ._harness import Server
from ._page import act, choose, screenshot, wait_for, wait_step_after, wait_turn


def _play(driver: WebDriver, turns: int, rng: random.Random) -> dict[str, Any]:
    """Take ``turns`` turns by clicking (never withdrawing, so the seat stays in the game) and
    return the page's state at the next turn."""
    for _ in range(turns):
        state = wait_turn(driver)
        assert state["phase"] != "over"
        act(driver, state, choose(state, rng, withdraw_rate=0), rng)
        wait_step_after(driver, state["step"])
    return wait_turn(driver)


def _same_page(before: dict[str, Any], after: dict[str, Any]) -> None:
    assert after["step"] == before["step"] and after["your_turn"]
    assert after["hand"] == before["hand"]
    assert sorted(after["playable"]) == sorted(before["playable"])
    assert after["buttons"] == before["buttons"]
    assert after["trick"] == before["trick"]
    # The log is rebuilt from the events the server sends on connecting.
    assert after["log"] == before["log"]
    assert after["view"] == before["view"]


def test_reloading_the_page_mid_game_resumes(
    server: Server, browser: Callable[..., WebDriver], tmp_path: Path
) -> None:
    table, tokens = server.create_table(3, {1: "heuristic", 2: "random"})
    driver = browser()
    driver.get(server.link(table, tokens[0]))
    rng = random.Random(3)
    before = _play(driver, 6, rng)
    screenshot(driver, tmp_path / "before-reload.png")
    driver.refresh()
    after = wait_for(driver, lambda s: s["step"] == before["step"], f"step {before['step']}")
    screenshot(driver, tmp_path / "after-reload.png")
    _same_page(before, after)
    later = _play(driver, 3, rng)
    assert later["step"] > before["step"]
    assert server.seat_view(table, tokens[0])["step"] == later["step"]


def test_the_server_restarted_mid_game_resumes(
    server: Server, browser: Callable[..., WebDriver], tmp_path: Path
) -> None:
    table, tokens = server.create_table(4, {1: "random", 2: "heuristic", 3: "random"})
    driver = browser()
    driver.get(server.link(table, tokens[0]))
    rng = random.Random(4)
    before = _play(driver, 5, rng)
    server.kill()
    down = wait_for(driver, lambda s: s["connection"] == "closed", "the connection lost")
    assert down["step"] == before["step"]
    screenshot(driver, tmp_path / "server-down.png")
    server.start()
    # The page reconnects by itself, with the same token, and shows the same position.
    after = wait_for(driver, lambda s: s["connection"] == "open" and s["your_turn"],
                     "the page reconnected")
    screenshot(driver, tmp_path / "server-back.png")
    _same_page(before, after)
    later = _play(driver, 3, rng)
    assert later["step"] > before["step"]
    # A reload after the restart shows the same step too.
    driver.refresh()
    again = wait_for(driver, lambda s: s["step"] == later["step"], f"step {later['step']}")
    _same_page(later, again)
    assert server.seat_view(table, tokens[0])["step"] == later["step"]


def test_a_refused_action_shows_the_error_and_changes_nothing(
    server: Server, browser: Callable[..., WebDriver], tmp_path: Path
) -> None:
    table, tokens = server.create_table(3, {1: "random", 2: "random"})
    driver = browser()
    driver.get(server.link(table, tokens[0]))
    before = _play(driver, 1, random.Random(5))
    # What a page with a stale or tampered view would send: an action that is not legal now.
    legal = {a["notation"] for a in before["view"]["legal_actions"]}
    wrong = ({"notation": "stop", "kind": "stop"} if "stop" not in legal else
             {"notation": f"play {before['hand'][0]}", "kind": "play",
              "card": before["hand"][0]})
    driver.execute_script("window.shockClient.send(arguments[0])", wrong)
    after = wait_for(driver, lambda s: bool(s["error"]), "an error")
    screenshot(driver, tmp_path / "error.png")
    # The page shows the reason in words; the protocol's code stays out of sight (data-code).
    assert after["error_code"] == "illegal_action"
    assert after["error"] and "illegal_action" not in after["error"]
    assert after["step"] == before["step"] and after["your_turn"]
    assert after["hand"] == before["hand"]
    assert server.seat_view(table, tokens[0])["step"] == before["step"]
    # The person carries on; the error goes away with the next step.
    later = _play(driver, 1, random.Random(6))
    assert later["step"] > before["step"] and not later["error"]
