"""Helpers that read a Melvin Vs. Kronk table in the page and play it with the keys, as a quick
person would: F (or Enter) turns up on the person's turn, Space slaps a match, a digit keeps a
Gem card. Shared by the tests of the in-page build and of a server's table."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

#: What a test reads of a Melvin table, in one round trip.
_READ = r"""
const root = document.getElementById("table");
const all = (sel) => [...document.querySelectorAll(sel)];
const client = window.shockClient ? window.shockClient.client : null;
const view = client && client.view && client.view.game === "melvin" ? client.view : null;
const error = document.getElementById("error");
const connection = document.getElementById("connection");
const button = (id) => { const b = document.getElementById(id); return !!b && !b.disabled; };
return {
  step: root && root.dataset.step ? Number(root.dataset.step) : -1,
  phase: root ? (root.dataset.phase || null) : null,
  game: root ? (root.dataset.game || null) : null,
  seat: root && root.dataset.seat ? Number(root.dataset.seat) : null,
  your_turn: !!root && root.dataset.yourTurn === "true",
  flip: button("melvin-flip"),
  slap: button("melvin-slap"),
  match: all("#melvin-seats .vcard.match").length > 0,
  winner: all("#melvin-seats .mseat").filter((n) => n.querySelector(".badge.winner"))
    .map((n) => Number(n.dataset.seat)),
  choices: all("#melvin-choices button").map((b) => [b.dataset.key || "", b.dataset.notation]),
  turn_ups: all("#melvin-seats .vcard.turn-up").length,
  tops: all("#melvin-seats .mseat").map((n) => {
    const card = n.querySelector(".vcard");
    return card && card.dataset.face ? Number(card.dataset.face) : null;
  }),
  penalties: all("#melvin-seats .mseat").map((n) =>
    [...n.querySelectorAll(".badge.penalty")].map((b) =>
      [b.dataset.penalty, b.textContent, b.title])),
  error: error && !error.hidden ? error.textContent : "",
  error_code: error && !error.hidden ? (error.dataset.code || "") : "",
  connection: connection ? (connection.dataset.state || "") : "",
  log: all("#log li").map((li) => li.textContent),
  turn_line: document.getElementById("turn-line").textContent,
  events: client ? client.events : [],
  view: view,
};
"""


def read(driver: WebDriver) -> dict[str, Any]:
    """Return what the Melvin table shows now (and the view it holds, as ``view``)."""
    state: dict[str, Any] = driver.execute_script(_READ)
    return state


def wait_for(driver: WebDriver, condition: Callable[[dict[str, Any]], bool], what: str,
             timeout: float = 60) -> dict[str, Any]:
    """Return the table's state once ``condition`` holds; fail naming ``what``."""
    found: list[dict[str, Any]] = []

    def check(d: WebDriver) -> bool:
        state = read(d)
        if condition(state):
            found.append(state)
            return True
        return False

    try:
        WebDriverWait(driver, timeout, poll_frequency=0.03).until(check)
    except Exception:
        state = read(driver)
        raise AssertionError(f"the page did not show {what} within {timeout} s: step"
                             f" {state['step']}, phase {state['phase']}, error"
                             f" {state['error']!r}, connection {state['connection']!r}"
                             ) from None
    return found[-1]


def press(driver: WebDriver, key: str) -> None:
    """Press a key on the page, as a person does."""
    ActionChains(driver).send_keys(key).perform()



def create_in_lobby(driver: WebDriver, url: str, timeout: float = 60) -> dict[str, Any]:
    """Open the lobby at ``url`` (``?game=melvin``), check that it offers Melvin Vs. Kronk's
    choices, seat a person at 0 and fast reaction bots at the others, create the table, and
    return the table's first state."""
    driver.get(url)
    assert Select(driver.find_element(By.ID, "game")).first_selected_option.get_attribute(
        "value") == "melvin"
    assert driver.find_element(By.ID, "game-choice").is_displayed()
    assert not driver.find_element(By.ID, "variant-choice").is_displayed()
    players = Select(driver.find_element(By.ID, "players"))
    assert [o.get_attribute("value") for o in players.options] == ["3", "4", "5", "6"]
    seats = driver.find_elements(By.CSS_SELECTOR, "#seat-choices select")
    assert [Select(s).first_selected_option.get_attribute("value") for s in seats] == [
        "person", "reaction", "reaction", "reaction"]
    speed = Select(driver.find_element(By.ID, "speed"))
    assert [o.get_attribute("value") for o in speed.options] == ["0.9", "0.6", "0.35"]
    speed.select_by_value("0.35")
    driver.find_element(By.ID, "create").click()
    return wait_for(driver, lambda s: s["game"] == "melvin" and s["step"] >= 1,
                    "the new table", timeout)


#: Counts every message the page sends (the shell sends through its transport's send).
COUNT_SENT = ("const tr = window.shockClient.client.transport; const send = tr.send.bind(tr);"
              "window.sent = []; tr.send = (doc) => { window.sent.push(doc); send(doc); };")


@dataclass
class Played:
    """What :func:`play` saw of a whole game."""

    #: The table's state at the end.
    state: dict[str, Any]
    #: The keys pressed, by what they did: "flip", "slap", "award".
    used: dict[str, int] = field(default_factory=lambda: {"flip": 0, "slap": 0, "award": 0})
    #: The error codes the page showed.
    codes: set[str] = field(default_factory=set)
    #: The most tops seen turning up at once (their animation's class).
    turned_up: int = 0


def play(driver: WebDriver, rng: random.Random, minutes: float = 10) -> Played:
    """Play the person's seat with the keys until the game ends; check on the way that the page
    offers what the view allows and no more, and that one key sends one message."""
    driver.execute_script(COUNT_SENT)
    played = Played(read(driver))
    focused_once = False
    state = played.state
    deadline = time.monotonic() + 60 * minutes
    while state["phase"] != "over":
        assert time.monotonic() < deadline, f"the game did not end in {minutes} minutes"
        view = state["view"]
        legal = {a["notation"]: a["kind"] for a in view["legal_actions"]} if view else {}
        kinds = set(legal.values())
        if state["error_code"]:
            played.codes.add(state["error_code"])
        played.turned_up = max(played.turned_up, state["turn_ups"])
        # The page offers what the view allows, no more: the big buttons and the choices.
        if state["your_turn"] or state["flip"]:
            assert state["flip"] == ("flip" in kinds), state["step"]
        assert {n for _, n in state["choices"]} <= set(legal)
        awards = [key for key, notation in state["choices"] if legal.get(notation) == "award"]
        key, what = None, ""
        if "flip" in kinds and state["flip"]:
            key, what = ("f" if rng.random() < 0.8 else Keys.ENTER), "flip"
            if not focused_once:
                # A focused button's own Enter must not act a second time.
                driver.execute_script("document.getElementById('melvin-flip').focus()")
                key, focused_once = Keys.ENTER, True
        elif awards:
            key, what = rng.choice(awards), "award"
        elif state["match"] and state["slap"]:
            key, what = " ", "slap"
        if key is None:
            time.sleep(0.03)
            state = read(driver)
            continue
        before = len(driver.execute_script("return window.sent"))
        press(driver, key)
        played.used[what] += 1
        step: int = state["step"]

        def answered(s: dict[str, Any], step: int = step) -> bool:
            return bool(s["step"] > step or s["error"] or s["phase"] == "over")

        state = wait_for(driver, answered, "an answer", 30)
        sent = driver.execute_script("return window.sent")
        assert len(sent) == before + 1, sent[before:]  # one key, one message
        assert sent[-1]["type"] == "action" and sent[-1]["action"] in legal
    played.state = state
    return played
