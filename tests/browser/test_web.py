"""The in-browser build (web/dist, `npm run build` in web/): the engine runs in the page in
Pyodide, behind the same client as `shock-rules serve`, served as static files with no server
of the package. Its self-test reproduces CPython's random playout, a person plays a whole game
against three bots by clicking, every file comes from the page's own origin, and refused
actions come back as the server's error documents."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("selenium")

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

import shock_rules as sr
from shock_rules.protocol import StaleStepError, Table, error_document

from ._page import act, choose, reachable, read, wait_for, wait_step_after, wait_turn
from ._web import StaticSite

#: Loading Pyodide compiles 10 MB of WebAssembly: seconds on a busy two-core machine.
LOAD_SECONDS = 120


def _create(driver: WebDriver, site: StaticSite, bots: list[str]) -> dict[str, Any]:
    """Open the lobby (bots without delay), seat a person at 0 and ``bots`` at the others,
    create the table and return the page's state at the person's first turn."""
    driver.get(f"{site.url}?bot-delay=0")
    return _seat_and_create(driver, bots)


def _seat_and_create(driver: WebDriver, bots: list[str]) -> dict[str, Any]:
    seats = driver.find_elements(By.CSS_SELECTOR, "#seat-choices select")
    assert len(seats) == 1 + len(bots)
    for select, choice in zip(seats, ["person", *bots], strict=True):
        Select(select).select_by_value(choice)
    driver.find_element(By.ID, "create").click()
    return wait_turn(driver, LOAD_SECONDS)


def _record(driver: WebDriver) -> sr.GameRecord:
    """Return the record of the page's game so far, read in CPython."""
    text: str = driver.execute_script("return window.shockHost.game.record()")
    return sr.parse_record(text)


def test_the_self_test_plays_the_same_random_game_as_cpython(
    web_site: StaticSite, browser: Callable[..., WebDriver]
) -> None:
    driver = browser()
    seed = 20240607
    driver.get(f"{web_site.url}index.html?selftest={seed}")
    WebDriverWait(driver, LOAD_SECONDS, poll_frequency=0.1).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-selftest"))
    body = driver.find_element(By.TAG_NAME, "body")
    assert body.get_attribute("data-selftest") == "ok", body.get_attribute("data-error")
    expected = sr.scores(sr.random_playout(sr.GameConfig(players=4), random.Random(seed)))
    assert body.get_attribute("data-scores") == ",".join(map(str, expected))


def test_a_person_plays_a_whole_game_in_the_page_against_three_bots(
    web_site: StaticSite, browser: Callable[..., WebDriver]
) -> None:
    driver = browser()
    state = _create(driver, web_site, ["random", "heuristic", "mcts"])
    assert state["seat"] == 0 and state["connection"] == "open"
    # The badge says where the game runs, in the chosen language.
    badge = driver.find_element(By.ID, "connection")
    assert badge.text == "in this page"
    Select(driver.find_element(By.ID, "lang")).select_by_value("pt-BR")
    assert badge.text == "nesta página"
    Select(driver.find_element(By.ID, "lang")).select_by_value("en")
    rng = random.Random(3)
    turns = 0
    while state["phase"] != "over":
        # The page offers exactly the legal actions of the view its host sent.
        view = state["view"]
        assert view["your_turn"] and view["step"] == state["step"]
        assert state["hand"] == view["hand"]
        assert reachable(driver) == {a["notation"] for a in view["legal_actions"]}
        act(driver, state, choose(state, rng), rng)
        after = wait_step_after(driver, state["step"])
        assert not after["error"], after["error"]
        turns += 1
        state = wait_turn(driver)
    assert turns >= 5, f"the person took only {turns} turns"
    # CPython replays the page's record to the same end: the same scores, the same last view.
    record = _record(driver)
    end = sr.replay(record)[-1]
    assert sr.is_terminal(end) and end.step == state["step"]
    scores = sr.scores(end)
    shown = driver.execute_script(
        "return [...document.querySelectorAll('#standings-body tr')].map((r) =>"
        " [Number(r.dataset.seat), r.querySelector('.score').textContent])")
    order = sorted(range(4), key=lambda s: (-scores[s], s))
    assert shown == [[s, f"{scores[s]} gem{'s' * (scores[s] != 1)}"] for s in order]
    final = read(driver)["view"]
    assert final == Table(state=end).view_document(0)
    assert read(driver)["log"] > 100
    # "Play again" starts a new game in the page, like the last one.
    driver.find_element(By.ID, "again").click()
    again = wait_for(driver, lambda s: s["phase"] not in (None, "over") and s["step"] >= 0,
                     "the new game", LOAD_SECONDS)
    assert again["seat"] == 0 and again["view"]["config"]["players"] == 4
    assert not driver.find_element(By.ID, "game-over").is_displayed()
    assert read(driver)["log"] < 20


def test_the_page_loads_only_from_its_origin_and_refuses_as_the_server_does(
    web_site: StaticSite, browser: Callable[..., WebDriver]
) -> None:
    driver = browser()
    driver.get(f"{web_site.url}?bot-delay=0")
    # One page shows one hand: a second person seat is refused in the lobby, saying why.
    seats = driver.find_elements(By.CSS_SELECTOR, "#seat-choices select")
    Select(seats[2]).select_by_value("person")
    driver.find_element(By.ID, "create").click()
    error = driver.find_element(By.ID, "create-error")
    WebDriverWait(driver, LOAD_SECONDS).until(lambda d: error.is_displayed())
    assert error.text == ("Could not create the table: seats 0, 2 are people, but a game in"
                          " this page has one person (the others are bots): to play together,"
                          " use `shock-rules serve`")
    # No server behind the page: no list of open tables, no box to list a table in.
    assert not driver.find_element(By.ID, "open-tables").is_displayed()
    assert not driver.find_element(By.ID, "listed-choice").is_displayed()
    assert driver.find_element(By.ID, "rules-link").is_displayed()
    state = _seat_and_create(driver, ["heuristic", "heuristic", "random"])
    # Every request of the page (the runtime, the standard library, the wheels, the host)
    # went to the page's own origin.
    urls: list[str] = driver.execute_script(
        "return performance.getEntriesByType('navigation').concat("
        "performance.getEntriesByType('resource')).map((e) => e.name)")
    assert any(u.endswith("/pyodide.asm.wasm") for u in urls), urls
    assert sum("/wheels/" in u for u in urls) == 4, urls
    assert [u for u in urls if not u.startswith(web_site.origin + "/")] == []
    assert [u for u in urls if "/api/" in u] == []  # nor asked for one

    # A stale step and an illegal card: the same error documents as the server's, step and
    # message included (the server makes them with error_document from Table.act's errors).
    view = state["view"]
    step = view["step"]
    legal = view["legal_actions"][0]
    last = sr.replay(_record(driver))[-1]
    assert last.step == step
    stale = StaleStepError(
        f"'{legal['notation']}' was decided at step {step - 1}, but the table is at step"
        f" {step}: decide again on the current view", sent=step - 1, current=step)
    mine = set(view["hand"])
    card = next(c for c in (f"{r}{s}" for r in range(1, 12) for s in "HSDC")
                if c not in mine and f"play {c}" not in {a["notation"] for a in
                                                          view["legal_actions"]})
    try:
        Table(state=last).act(0, f"play {card}")
    except sr.ShockError as exc:
        illegal = error_document(exc, step)
    else:  # pragma: no cover - the card is not in the hand
        raise AssertionError(f"play {card} was legal")
    for sent, expected in (({"type": "action", "action": legal, "step": step - 1},
                            error_document(stale, step)),
                           ({"type": "action", "action": f"play {card}", "step": step},
                            illegal)):
        driver.execute_script("window.shockClient.client.lastError = null;"
                              "window.shockClient.client.transport.send(arguments[0])", sent)
        got = wait_for(driver, lambda s: bool(s["error"]), "the error")
        doc = driver.execute_script("return window.shockClient.client.lastError")
        assert doc == expected
        assert (got["error"], got["error_code"]) == (expected["message"], expected["code"])
        assert got["step"] == step
