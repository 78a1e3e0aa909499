"""Melvin Vs. Kronk at a table of `shock-rules serve`, in the browser: the page the server ships
shows a Melvin table with the same module as the in-page build (melvin.js) over the
WebSocket. Two people, each in their own Chromium, race to slap one match and exactly one slap
counts (M5): the other page says it came too late and names the winner, and no penalty
follows (M27). A wrong slap's Penalty card shows, by its name, on every person's page and on
a spectator's (R8, M9), and again after the server restarts; a page that floods slaps is
locked out for a moment, in words. The lobby creates a Melvin table (players, reaction bots
and their speed) and lists it with its game, in both languages."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("selenium")

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

from ._harness import Server
from ._melvin import press, read, wait_for


def create_melvin(server: Server, players: int, bots: dict[str, str]) -> tuple[str, list[str]]:
    """Return a new Melvin table's id and its person seats' tokens, in seat order."""
    doc = server.request("POST", "/api/tables", {"game": "melvin", "players": players,
                                                 "bots": bots})
    return doc["table"], [s["token"] for s in doc["seats"]]


def stored_actions(server: Server, table: str) -> list[str]:
    """The table's actions as the server stored them, in step order (its record)."""
    with sqlite3.connect(server.db) as conn:
        rows = conn.execute("SELECT action FROM actions WHERE table_id = ? ORDER BY step",
                            (table,)).fetchall()
    return [r[0] for r in rows]


def flip_over_the_wire(server: Server, table: str, token: str) -> int:
    """Turn up the card of a person seat that has no page (the test plays it over the
    WebSocket, as any client of the protocol may); return the step it led to."""
    from websockets.sync.client import connect

    def frame(ws: Any) -> dict[str, Any]:
        while True:
            doc: dict[str, Any] = json.loads(ws.recv(timeout=30))
            if doc["type"] in ("view", "error"):
                return doc

    with connect(f"ws://127.0.0.1:{server.port}/ws/{table}/seat") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        view = frame(ws)["view"]
        flip = next(a["notation"] for a in view["legal_actions"] if a["kind"] == "flip")
        ws.send(json.dumps({"type": "action", "action": flip, "step": view["step"]}))
        answer = frame(ws)
        assert answer["type"] == "view", answer
        step: int = answer["view"]["step"]
        return step


def same_step(pages: list[WebDriver], step: int) -> list[dict[str, Any]]:
    """Return every page's state once each shows ``step`` or a later one."""
    return [wait_for(p, lambda s: s["step"] >= step, f"step {step}") for p in pages]


def turn_up(server: Server, pages: dict[int, WebDriver], table: str, tokens: list[str],
            state: dict[str, Any]) -> int:
    """Have the seat to move turn up its card: a page presses F, a seat with no page turns it
    up over the WebSocket; return the step it led to."""
    mover = state["view"]["to_move"]
    assert state["phase"] == "play" and mover is not None, state["view"]
    if mover in pages:
        page = pages[mover]
        wait_for(page, lambda s: s["flip"], f"seat {mover}'s Turn up button")
        press(page, "f")
        return int(wait_for(page, lambda s: s["step"] > state["step"], "the card turned up")
                   ["step"])
    return flip_over_the_wire(server, table, tokens[mover])


def test_two_people_race_to_slap_and_exactly_one_wins(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    # Three person seats: two in Chromium, the third played by the test over the WebSocket,
    # which turns up its cards and never slaps (no bot to join the race at its own pace).
    table, tokens = create_melvin(server, 3, {})
    pages = {seat: browser() for seat in (0, 1)}
    for seat, page in pages.items():
        page.get(server.link(table, tokens[seat]))
    states = [wait_for(p, lambda s: s["game"] == "melvin" and s["connection"] == "open",
                       "the Melvin table") for p in pages.values()]
    assert [s["seat"] for s in states] == [0, 1]
    # Turn up cards until a match shows on both pages.
    for _ in range(200):
        step = max(s["step"] for s in states)
        states = same_step(list(pages.values()), step)
        if any(s["step"] != step for s in states):
            continue  # a page went on meanwhile: wait for the other
        if states[0]["match"]:
            break
        turn_up(server, pages, table, tokens, states[0])
    else:
        pytest.fail("no match showed in 200 cards turned up")
    assert all(s["match"] and s["slap"] for s in states)
    # Both press Space at the same moment: each page is told when, by the clock both share
    # (two seconds ahead: telling a page may take a while on a loaded machine, and a page told
    # too late would press after the other's slap was settled, with nothing left to slap).
    press_at = time.time() * 1000 + 2000
    for page in pages.values():
        page.execute_script(
            "setTimeout(() => document.dispatchEvent(new KeyboardEvent('keydown',"
            " {key: ' ', bubbles: true})), Math.max(0, arguments[0] - Date.now()))", press_at)
    states = [wait_for(p, lambda s: s["phase"] == "award" and s["step"] > step,
                       "the slap counted") for p in pages.values()]
    winner = states[0]["view"]["award_winner"]
    assert winner in (0, 1) and states[1]["view"]["award_winner"] == winner
    loser = 1 - winner
    # The other page says it came too late, naming the seat that came first.
    late = wait_for(pages[loser], lambda s: s["error_code"] == "too_late", "the too-late answer")
    assert late["error"] == f"Too late: seat {winner} came first"
    assert late["penalties"] == [[], [], []]
    mine = read(pages[winner])
    assert mine["error"] == "" and mine["winner"] == [winner]
    assert any(line.startswith("you slapped first: a match") for line in mine["log"])
    assert any(line.startswith(f"seat {winner} slapped first") for line in late["log"])
    # Exactly one slap counted: in every page's events, and in the server's record.
    for state in (late, mine):
        slaps = [e for e in state["events"] if e["event"] == "MatchSlapped"]
        assert [e["seat"] for e in slaps] == [winner]
        assert not any(e["event"] == "WrongSlap" for e in state["events"])
    assert [a for a in stored_actions(server, table) if a.endswith("slap")] == [f"{winner} slap"]
    assert server.spectator_view(table)["award_winner"] == winner


def test_a_wrong_slap_shows_its_penalty_on_every_page_and_after_a_restart(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    table, tokens = create_melvin(server, 3, {})
    pages = {seat: browser() for seat in (0, 1)}
    for seat, page in pages.items():
        page.get(server.link(table, tokens[seat]))
    spectator = browser()
    spectator.get(server.link(table))
    everyone = [*pages.values(), spectator]
    for page in everyone:
        wait_for(page, lambda s: s["game"] == "melvin" and s["connection"] == "open",
                 "the Melvin table")
    # Nothing is turned up yet: seat 1's Space is a wrong slap (R8), and a Penalty card (M9).
    state = read(pages[1])
    assert not state["match"] and state["slap"]
    press(pages[1], " ")
    shown = [wait_for(p, lambda s: bool(s["penalties"][1]), "seat 1's penalty") for p in everyone]
    ((card, name, what),) = shown[0]["penalties"][1]
    assert name == {"Mao": "Mão para trás", "Olho": "Olho fechado", "Cartas": "Cartas para todos",
                    "Duas": "Jogue duas seguidas"}[card]
    assert all(s["penalties"] == [[], [[card, name, what]], []] for s in shown)
    assert any(line.startswith("you slapped with no match") for line in shown[1]["log"])
    assert any(line.startswith("seat 1 slapped with no match") for line in shown[2]["log"])
    assert server.spectator_view(table)["penalties"][1] == [card]
    # The server restarts: every page reconnects by itself and shows the same table again.
    step = shown[0]["step"]
    server.kill()
    for page in everyone:
        wait_for(page, lambda s: s["connection"] == "closed", "the connection lost")
    server.start()
    back = [wait_for(p, lambda s: s["connection"] == "open" and s["step"] == step,
                     "the page reconnected") for p in everyone]
    assert all(s["penalties"] == [[], [[card, name, what]], []] for s in back)
    assert [s["view"] for s in back[:2]] == [s["view"] for s in shown[:2]]
    # And the game goes on: the seat to move turns up its card, and every page sees it.
    later = turn_up(server, pages, table, tokens, back[0])
    for page in everyone:
        wait_for(page, lambda s: s["step"] >= later, f"step {later}")
    # A page that floods slaps (a script; the page's own keys send one at a time) is locked
    # out of slapping for a moment, and says so in words: three slaps a second at most.
    pages[0].execute_script(
        "const c = window.shockClient.client; const step = c.view.step;"
        "for (let i = 0; i < 4; i++) c.transport.send({type: 'action', action: '0 slap', step});")
    flooded = wait_for(pages[0], lambda s: s["error_code"] == "too_fast", "the lockout")
    assert flooded["error"] == "Too many slaps: no slapping for a moment"


def test_the_lobby_creates_a_melvin_table_and_lists_it_with_its_game(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    shock, _ = server.create_table(3, {1: "random", 2: "random"})
    driver = browser()
    driver.get(server.url + "/")
    game = Select(driver.find_element(By.ID, "game"))
    assert driver.find_element(By.ID, "game-choice").is_displayed()
    game.select_by_value("melvin")
    assert not driver.find_element(By.ID, "variant-choice").is_displayed()
    players = Select(driver.find_element(By.ID, "players"))
    assert [o.get_attribute("value") for o in players.options] == ["3", "4", "5", "6"]
    players.select_by_value("4")
    seats = [Select(s) for s in driver.find_elements(By.CSS_SELECTOR, "#seat-choices select")]
    assert [s.first_selected_option.get_attribute("value") for s in seats] == [
        "person", "reaction", "reaction", "reaction"]
    seats[2].select_by_value("person")
    Select(driver.find_element(By.ID, "speed")).select_by_value("0.9")
    driver.find_element(By.ID, "create").click()
    # The creator goes to their seat; the panel has a link per person's seat.
    state = wait_for(driver, lambda s: s["game"] == "melvin" and s["seat"] == 0,
                     "the creator's Melvin seat", 30)
    assert state["view"]["config"]["players"] == 4
    links = WebDriverWait(driver, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#seat-links li"))
    assert [li.get_attribute("data-seat") for li in links] == ["0", "2"]
    table = driver.find_element(By.ID, "links-table").text
    row = next(t for t in server.request("GET", "/api/tables")["tables"] if t["table"] == table)
    assert row["game"] == "melvin" and row["persons"] == 2
    assert row["bots"] == {"1": "reaction:0.9", "3": "reaction:0.9"}
    # The other person's link opens seat 2 of the same table.
    other = links[1].find_element(By.TAG_NAME, "a").get_attribute("href") or ""
    friend = browser()
    friend.get(other)
    assert wait_for(friend, lambda s: s["seat"] == 2, "seat 2")["game"] == "melvin"

    # The lobby lists both tables, each with its game.
    driver.get(server.url + "/")

    def rows(d: WebDriver) -> dict[str, tuple[str, str]]:
        found: dict[str, tuple[str, str]] = d.execute_script(
            "return Object.fromEntries([...document.querySelectorAll('#open-tables-list li')]"
            ".map((li) => [li.dataset.table, [li.dataset.game, li.innerText]]))")
        return found

    WebDriverWait(driver, 20, poll_frequency=0.1).until(lambda d: {table, shock} <= set(rows(d)))
    listed = rows(driver)
    kind, line = listed[table]
    assert kind == "melvin"
    for part in ("Melvin Vs. Kronk", "4 players", "in play", "2 persons",
                 "reaction, 0.9 s (seat 1)", "reaction, 0.9 s (seat 3)", "Watch"):
        assert part in line, line
    assert "round" not in line and "standard" not in line and "null" not in line
    kind, line = listed[shock]
    assert kind == "shock" and "Melvin" not in line
    for part in ("3 players", "standard", "round 1", "random (seat 1)"):
        assert part in line, line
    # In Portuguese too.
    Select(driver.find_element(By.ID, "lang")).select_by_value("pt-BR")
    WebDriverWait(driver, 20, poll_frequency=0.1).until(
        lambda d: "reflexo" in rows(d).get(table, ("", ""))[1])
    line = rows(driver)[table][1]
    for part in ("Melvin Vs. Kronk", "4 jogadores", "em jogo", "reflexo, 0,9 s (lugar 1)"):
        assert part in line, line
    Select(driver.find_element(By.ID, "lang")).select_by_value("en")
    # Watch opens the spectators' page of the Melvin table.
    driver.find_element(By.CSS_SELECTOR, f'#open-tables-list li[data-table="{table}"] a').click()
    watched = wait_for(driver, lambda s: s["view"] is not None, "the watched table", 30)
    assert watched["game"] == "melvin" and watched["view"]["seat"] is None
