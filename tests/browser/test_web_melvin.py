"""Melvin Vs. Kronk in the in-browser build (web/dist): the engine runs in the page in Pyodide,
against reaction bots whose speed the lobby chooses, with no server. Its self-test reproduces
CPython's random playout; a person plays a whole game with the keys (F turns up, Space slaps,
1-9 choose the Gem card to keep) and CPython replays the page's record to the same end; a
wrong slap shows its penalty on the seat; the table speaks Portuguese and its slap is a big
target on a phone."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("selenium")

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

import shock_rules as sr
from shock_rules import melvin
from shock_rules.protocol import Table

from ._web import StaticSite

#: Loading Pyodide compiles 10 MB of WebAssembly: seconds on a busy two-core machine.
LOAD_SECONDS = 120

#: What a test reads of a Melvin table, in one round trip.
_READ = r"""
const root = document.getElementById("table");
const all = (sel) => [...document.querySelectorAll(sel)];
const client = window.shockClient ? window.shockClient.client : null;
const view = client && client.view && client.view.game === "melvin" ? client.view : null;
const error = document.getElementById("error");
const button = (id) => { const b = document.getElementById(id); return !!b && !b.disabled; };
return {
  step: root && root.dataset.step ? Number(root.dataset.step) : -1,
  phase: root ? (root.dataset.phase || null) : null,
  game: root ? (root.dataset.game || null) : null,
  your_turn: !!root && root.dataset.yourTurn === "true",
  flip: button("melvin-flip"),
  slap: button("melvin-slap"),
  match: all("#melvin-seats .vcard.match").length > 0,
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
  log: all("#log li").map((li) => li.textContent),
  turn_line: document.getElementById("turn-line").textContent,
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
                             f" {state['error']!r}") from None
    return found[-1]


def press(driver: WebDriver, key: str) -> None:
    """Press a key on the page, as a person does."""
    ActionChains(driver).send_keys(key).perform()


def _lobby(driver: WebDriver, site: StaticSite) -> None:
    """Open the lobby on Melvin Vs. Kronk (?game=melvin), with a person at seat 0, fast
    reaction bots at the others, and create the table."""
    driver.get(f"{site.url}index.html?game=melvin")
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
    wait_for(driver, lambda s: s["game"] == "melvin" and s["step"] >= 1, "the new table",
             LOAD_SECONDS)


def _record(driver: WebDriver) -> sr.GameRecord:
    text: str = driver.execute_script("return window.shockHost.game.record()")
    return sr.parse_record(text)


@pytest.mark.parametrize("seed", [3, 20240607])
def test_the_melvin_self_test_plays_the_same_random_game_as_cpython(
    web_site: StaticSite, browser: Callable[..., WebDriver], seed: int
) -> None:
    driver = browser()
    driver.get(f"{web_site.url}index.html?game=melvin&selftest={seed}")
    WebDriverWait(driver, LOAD_SECONDS, poll_frequency=0.1).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-selftest"))
    body = driver.find_element(By.TAG_NAME, "body")
    assert body.get_attribute("data-selftest") == "ok", body.get_attribute("data-error")
    end = melvin.random_playout(melvin.GameConfig(players=4), random.Random(seed))
    assert body.get_attribute("data-scores") == ",".join(map(str, melvin.scores(end)))


def test_a_person_plays_a_whole_melvin_game_with_the_keys(
    web_site: StaticSite, browser: Callable[..., WebDriver]
) -> None:
    driver = browser()
    _lobby(driver, web_site)
    # Every message the page sends, counted (the shell sends through its transport).
    driver.execute_script(
        "const tr = window.shockClient.client.transport; const send = tr.send.bind(tr);"
        "window.sent = []; tr.send = (doc) => { window.sent.push(doc); send(doc); };")
    rng = random.Random(5)
    used: dict[str, int] = {"flip": 0, "slap": 0, "award": 0}
    codes: set[str] = set()
    turned_up = 0
    focused_once = False
    state = read(driver)
    deadline = time.monotonic() + 600
    while state["phase"] != "over":
        assert time.monotonic() < deadline, "the game did not end in 10 minutes"
        view = state["view"]
        legal = {a["notation"]: a["kind"] for a in view["legal_actions"]} if view else {}
        kinds = set(legal.values())
        if state["error_code"]:
            codes.add(state["error_code"])
        turned_up = max(turned_up, state["turn_ups"])
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
        used[what] += 1
        state = wait_for(driver, lambda s, step=state["step"]: s["step"] > step
                         or bool(s["error"]) or s["phase"] == "over", "an answer", 30)
        sent = driver.execute_script("return window.sent")
        assert len(sent) == before + 1, sent[before:]  # one key, one message
        assert sent[-1]["type"] == "action" and sent[-1]["action"] in legal
    assert used["flip"] >= 5 and used["slap"] >= 1, used
    assert turned_up > 0  # tops turn up with their animation
    # A refusal here is a race lost (the table moved on since the key), never a bad message.
    assert codes <= {"stale_step", "too_late"}, codes
    # CPython replays the page's record to the same end: the same last view, the same scores
    # in the standings, best first among the seats still in the game (M15).
    record = _record(driver)
    end = sr.replay(record)[-1]
    assert melvin.is_terminal(end) and end.step == state["step"]
    assert state["view"] == Table(state=end).view_document(0)
    scores = melvin.scores(end)
    shown = driver.execute_script(
        "return [...document.querySelectorAll('#standings-body tr')].map((r) =>"
        " [Number(r.dataset.seat), r.querySelector('.score').textContent])")
    order = sorted(range(4), key=lambda s: (not end.in_game[s], -scores[s], s))
    assert shown == [[s, f"{scores[s]} gem{'s' * (scores[s] != 1)}"] for s in order]
    assert driver.find_element(By.ID, "game-over").is_displayed()
    assert len(state["log"]) > 30
    assert any("turned up" in line for line in state["log"])
    # "Play again" starts a new Melvin game in the page.
    driver.find_element(By.ID, "again").click()
    again = wait_for(driver, lambda s: s["phase"] not in (None, "over") and s["game"] == "melvin"
                     and s["view"] is not None and s["view"]["step"] < 10, "the new game",
                     LOAD_SECONDS)
    assert again["view"]["config"]["players"] == 4


def test_a_wrong_slap_shows_its_penalty_in_portuguese_and_the_slap_fits_a_phone(
    web_site: StaticSite, browser: Callable[..., WebDriver]
) -> None:
    driver = browser(390, 844, phone=True)
    _lobby(driver, web_site)
    Select(driver.find_element(By.ID, "lang")).select_by_value("pt-BR")
    # No card is up yet: no match, and a slap now is a wrong slap (R8): a penalty (M9). Space
    # on the focused slap button (a person who tapped it before) slaps once, not twice.
    driver.execute_script(
        "const tr = window.shockClient.client.transport; const send = tr.send.bind(tr);"
        "window.sent = []; tr.send = (doc) => { window.sent.push(doc); send(doc); };"
        "document.getElementById('melvin-slap').focus()")
    state = read(driver)
    assert not state["match"] and state["slap"]
    press(driver, " ")
    state = wait_for(driver, lambda s: bool(s["penalties"][0]), "the penalty on seat 0")
    ((card, name, what),) = state["penalties"][0]
    assert name == {"Mao": "Mão para trás", "Olho": "Olho fechado", "Cartas": "Cartas para todos",
                    "Duas": "Jogue duas seguidas"}[card]
    assert what in ("uma mão atrás das costas", "um olho fechado",
                    "dê uma das suas cartas a cada jogador", "vire duas cartas em cada vez sua")
    assert any(line.startswith("você bateu sem cartas iguais") for line in state["log"])
    assert any(f"recebeu a penalidade {name}" in line for line in state["log"])
    sent = driver.execute_script("return window.sent")
    assert [doc["action"] for doc in sent] == ["0 slap"]
    slap = driver.find_element(By.ID, "melvin-slap")
    assert slap.text == "Bater! (Espaço)"
    assert driver.find_element(By.ID, "melvin-flip").text == "Virar (F)"
    assert "Melvin Vs. Kronk" in driver.find_element(By.ID, "status-line").text
    # The seats' words, and the keys' help, in Portuguese.
    seats = driver.find_element(By.ID, "melvin-seats").text
    assert "para virar" in seats and "Lugar 0 (você)" in seats
    help_text = driver.execute_script("return document.getElementById('keys-help').textContent")
    assert "Espaço bate no monte de Gemas" in help_text
    # On a phone the slap is a big target on the first screen, and nothing is wider than it.
    box = driver.execute_script(
        "const r = document.getElementById('melvin-slap').getBoundingClientRect();"
        "return [r.top, r.bottom, r.width, r.height, innerHeight,"
        " document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    top, bottom, width, height, screen, scroll_width, client_width = box
    assert height >= 64 and width >= 300, box
    assert 0 <= top and bottom <= screen, box
    assert scroll_width <= client_width, box
    # English again: the same table, its words switched back.
    Select(driver.find_element(By.ID, "lang")).select_by_value("en")
    assert driver.find_element(By.ID, "melvin-slap").text == "Slap! (Space)"
    assert any(line.startswith("you slapped with no match") for line in read(driver)["log"])
