"""Melvin Vs. Kronk in the in-browser build (web/dist): the engine runs in the page in Pyodide,
against reaction bots whose speed the lobby chooses, with no server. Its self-test reproduces
CPython's random playout; a person plays a whole game with the keys (F turns up, Space slaps,
1-9 choose the Gem card to keep) and CPython replays the page's record to the same end; a
wrong slap shows its penalty on the seat; the table speaks Portuguese and its slap is a big
target on a phone."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

pytest.importorskip("selenium")

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

import shock_rules as sr
from shock_rules import melvin
from shock_rules.protocol import Table

from ._melvin import COUNT_SENT, create_in_lobby, play, press, read, wait_for
from ._web import StaticSite

#: Loading Pyodide compiles 10 MB of WebAssembly: seconds on a busy two-core machine.
LOAD_SECONDS = 120


def _lobby(driver: WebDriver, site: StaticSite) -> None:
    """Create a Melvin table in the page's lobby: a person at seat 0, fast reaction bots."""
    create_in_lobby(driver, f"{site.url}index.html?game=melvin", LOAD_SECONDS)


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
    played = play(driver, random.Random(5))
    state, used, codes = played.state, played.used, played.codes
    assert used["flip"] >= 5 and used["slap"] >= 1, used
    assert played.turned_up > 0  # tops turn up with their animation
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
    driver.execute_script(COUNT_SENT + "document.getElementById('melvin-slap').focus()")
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
    # A race lost, as a host says it (too_late, with the seat that came first), in words. Read
    # in the same script: the bots play on, and the next view clears the line.
    shown = driver.execute_script(
        "window.shockClient.receive({schema: 'shock-rules/2', type: 'error', code: 'too_late',"
        " message: \"'0 slap' is too late: seat 2 came first ('2 slap')\", step: 1,"
        " winner: 2});"
        "const error = document.getElementById('error');"
        "return [error.hidden, error.textContent, error.dataset.code];")
    assert shown == [False, "Tarde demais: lugar 2 foi mais rápido", "too_late"]
    # English again: the same table, its words switched back.
    Select(driver.find_element(By.ID, "lang")).select_by_value("en")
    assert driver.find_element(By.ID, "melvin-slap").text == "Slap! (Space)"
    assert any(line.startswith("you slapped with no match") for line in read(driver)["log"])
