"""Helpers that read the table page and act on it the way a person would: by clicking its cards
and buttons."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.wait import WebDriverWait

#: Everything a test reads from the page, in one round trip.
_READ = r"""
const root = document.getElementById("table");
const all = (sel) => [...document.querySelectorAll(sel)];
const error = document.getElementById("error");
const odds = document.getElementById("odds");
const connection = document.getElementById("connection");
const client = window.shockClient ? window.shockClient.client : null;
return {
  step: root && root.dataset.step !== undefined ? Number(root.dataset.step) : -1,
  phase: root ? (root.dataset.phase || null) : null,
  seat: root && root.dataset.seat ? Number(root.dataset.seat) : null,
  your_turn: !!root && root.dataset.yourTurn === "true",
  hand: all("#hand .card").map((n) => n.dataset.card),
  playable: all("#hand button.card.legal").map((n) => n.dataset.notation),
  buttons: all("#actions button[data-notation]").map((n) => n.dataset.notation),
  withdraw: !!document.getElementById("withdraw-mode"),
  withdraw_mode: !!document.querySelector("#withdraw-mode.active"),
  error: error && !error.hidden ? error.textContent : "",
  error_code: error && !error.hidden ? (error.dataset.code || "") : "",
  connection: connection ? (connection.dataset.state || "") : "",
  odds: odds && !odds.hidden ? {seat: Number(odds.dataset.seat), poison: odds.dataset.poison,
    shock: odds.dataset.shock, gain: odds.dataset.gain, cards: Number(odds.dataset.cards)} : null,
  cards: all("[data-card]").map((n) => n.dataset.card).filter((c) => c),
  seats: all("#seats .seat").map((n) => ({
    seat: Number(n.dataset.seat),
    status: n.dataset.status,
    in_bag: Number(n.querySelector(".in-bag .v").textContent),
    on_bag: Number(n.querySelector(".on-bag .v").textContent.replace(/\D/g, "")),
    hand_size: Number(n.querySelector(".hand-size .v").textContent),
    poisons: [...n.querySelectorAll(".poisons .card")].map((c) =>
      [c.dataset.card, c.classList.contains("covered")]),
    potions: [...n.querySelectorAll(".potions .card")].map((c) => c.dataset.card),
    stored: n.querySelector(".potions") ? Number(n.querySelector(".potions").dataset.stored) : 0,
  })),
  trump: (document.querySelector("#trump .card") || {dataset: {card: null}}).dataset.card,
  chest_centre: all("#chest-centre .chest-card").map((n) => n.dataset.chestCard),
  trick: all("#trick .played").map((n) => n.querySelector(".card").dataset.card || null),
  log: all("#log li").length,
  text: document.body.innerText,
  board_text: (() => {
    const copy = document.body.cloneNode(true);
    const log = copy.querySelector("#log");
    if (log) log.remove();
    return copy.textContent;
  })(),
  scroll_width: document.documentElement.scrollWidth,
  client_width: document.documentElement.clientWidth,
  view: client && client.view ? client.view : null,
};
"""


def read(driver: WebDriver) -> dict[str, Any]:
    """Return what the page shows now (and the view document it holds, as ``view``)."""
    state: dict[str, Any] = driver.execute_script(_READ)
    return state


def wait_for(driver: WebDriver, condition: Callable[[dict[str, Any]], bool],
             what: str, timeout: float = 60) -> dict[str, Any]:
    """Return the page's state once ``condition`` holds; fail naming ``what`` after
    ``timeout`` seconds."""
    found: list[dict[str, Any]] = []

    def check(d: WebDriver) -> bool:
        state = read(d)
        if condition(state):
            found.append(state)
            return True
        return False

    try:
        WebDriverWait(driver, timeout, poll_frequency=0.05).until(check)
    except TimeoutException:
        state = read(driver)
        raise AssertionError(
            f"the page did not show {what} within {timeout} s: step {state['step']}, phase "
            f"{state['phase']}, your turn {state['your_turn']}, error {state['error']!r}, "
            f"connection {state['connection']!r}"
        ) from None
    return found[-1]


def at_step(step: int) -> Callable[[dict[str, Any]], bool]:
    """Return a condition for :func:`wait_for`: the page shows ``step``."""
    return lambda state: bool(state["step"] == step)


def after_step(step: int) -> Callable[[dict[str, Any]], bool]:
    """Return a condition for :func:`wait_for`: the page shows a step after ``step``."""
    return lambda state: bool(state["step"] > step)


def wait_turn(driver: WebDriver, timeout: float = 60) -> dict[str, Any]:
    """Return the page's state once it is the viewer's turn or the game is over."""
    return wait_for(driver, lambda s: s["your_turn"] or s["phase"] == "over",
                    "the viewer's turn or the game's end", timeout)


def wait_step_after(driver: WebDriver, step: int, timeout: float = 60) -> dict[str, Any]:
    """Return the page's state once it shows a step after ``step``."""
    return wait_for(driver, lambda s: s["step"] > step, f"a step after {step}", timeout)


def click(driver: WebDriver, css: str) -> None:
    """Click the element ``css`` selects (retrying once if the page redrew it meanwhile)."""
    for attempt in range(3):
        try:
            driver.find_element(By.CSS_SELECTOR, css).click()
            return
        except StaleElementReferenceException:
            if attempt == 2:
                raise
            time.sleep(0.05)


def reachable(driver: WebDriver) -> set[str]:
    """Return the notation of every action a person can take on the page now: the cards it
    highlights, its buttons, and the cards highlighted in withdraw mode (the mode is switched
    on to look, then off again)."""
    state = read(driver)
    found = set(state["playable"]) | set(state["buttons"])
    if state["withdraw"]:
        click(driver, "#withdraw-mode")
        found |= set(wait_for(driver, lambda s: s["withdraw_mode"], "withdraw mode")["playable"])
        click(driver, "#withdraw-mode")
        wait_for(driver, lambda s: not s["withdraw_mode"], "withdraw mode switched off")
    return found


def choose(state: dict[str, Any], rng: random.Random, withdraw_rate: float = 0.06) -> str:
    """Return the notation a casual person picks among what the page offers: mostly a card,
    sometimes a withdrawal, another chest card while it cannot shock."""
    buttons: list[str] = state["buttons"]
    if "reveal" in buttons:
        odds = state["odds"]
        safe = odds is not None and odds["shock"] == "0"
        return "reveal" if safe or rng.random() < 0.3 else "stop"
    covers = [b for b in buttons if b.startswith("cover ")]
    if covers:
        return rng.choice(covers)
    if state["withdraw"] and rng.random() < withdraw_rate:
        return "withdraw"
    playable: list[str] = state["playable"]
    assert playable, f"the page offers nothing to do on its turn at step {state['step']}"
    return rng.choice(playable)


def act(driver: WebDriver, state: dict[str, Any], choice: str,
        rng: random.Random) -> str:
    """Click what ``choice`` names (``"withdraw"``: the withdraw mode, then a card) and return
    the notation of the action sent."""
    if choice == "withdraw":
        click(driver, "#withdraw-mode")
        mode = wait_for(driver, lambda s: s["withdraw_mode"], "withdraw mode")
        choice = rng.choice(mode["playable"])
        assert choice.startswith("withdraw "), choice
        click(driver, f'#hand button[data-notation="{choice}"]')
    elif choice in state["buttons"]:
        click(driver, f'#actions button[data-notation="{choice}"]')
    else:
        click(driver, f'#hand button[data-notation="{choice}"]')
    return choice


def screenshot(driver: WebDriver, path: Path) -> Path:
    """Save a screenshot of the page to ``path`` and return it."""
    driver.save_screenshot(str(path))
    return path
