"""What a new player trips on at the table (issue 44): the connection badge in the chosen
language; "Create table" takes the creator to their seat, with the other seats' links beside
the board; open tables that can be told apart; the rules link leads to *How to play*; the game's
end as labelled standings with "Play again"; poisons and potions in hand marked unlike a
playable card, the potion drawn (not a font's glyph), labels clear of their cards, seat names
under the last trick apart on a phone, the "Last trick" line never covered, a legend for faded
and dashed cards, the log oldest first; chest cards in words.

A seat is played quickly from Python over the seat's WebSocket (as a second client of the same
seat, or of another seat) where only the page's picture of a position is under test."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlparse

import pytest

pytest.importorskip("selenium")

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

from ._harness import Server

if TYPE_CHECKING:
    from websockets.sync.client import ClientConnection
from ._page import read, wait_for, wait_turn


@contextmanager
def _seat_socket(server: Server, table: str, token: str) -> Iterator[ClientConnection]:
    """Yield a WebSocket holding the seat of ``token`` (its hello sent)."""
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{server.port}/ws/{table}/seat") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        yield ws


def _move(view: dict[str, Any], rng: random.Random, *, withdraw: bool) -> str:
    """Return the action message of a random legal action of ``view``, the chest's "stop"
    first (so that games are short); no withdrawal unless ``withdraw`` (a random pick among
    one withdrawal per card ends rounds at once)."""
    legal = [a for a in view["legal_actions"] if withdraw or a["kind"] != "withdraw"]
    legal = legal or view["legal_actions"]
    stops = [a for a in legal if a["kind"] == "stop"]
    action = stops[0] if stops else rng.choice(legal)
    return json.dumps({"type": "action", "action": action, "step": view["step"]})


def _play_to_the_end(server: Server, table: str, token: str, seed: int = 1) -> dict[str, Any]:
    """Play a seat from Python (:func:`_move`, withdrawals included) until the game's end;
    return the last view."""
    rng = random.Random(seed)
    with _seat_socket(server, table, token) as ws:
        view: dict[str, Any] = {}
        for _ in range(2000):
            frame = json.loads(ws.recv(timeout=30))
            if frame["type"] != "view":
                continue
            view = frame["view"]
            if view["phase"] == "over":
                return view
            if view["your_turn"]:
                ws.send(_move(view, rng, withdraw=True))
    raise AssertionError(f"the game did not end: step {view.get('step')}")


def _token_of(driver: WebDriver) -> tuple[str, str]:
    """Return the table and the seat token of the page's address."""
    url = urlparse(driver.current_url)
    table = parse_qs(url.query)["table"][0]
    token = parse_qs(url.fragment)["token"][0]
    return table, token


def _boxes(driver: WebDriver, css: str) -> list[dict[str, float]]:
    boxes: list[dict[str, float]] = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((n) => {"
        " const r = n.getBoundingClientRect();"
        " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })", css)
    return boxes


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5
            and a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5)


def test_the_connection_badge_speaks_the_chosen_language(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    driver = browser()
    table, tokens = server.create_table(3, {1: "random", 2: "random"})
    driver.get(server.link(table, tokens[0]))
    wait_turn(driver)
    badge = driver.find_element(By.ID, "connection")
    assert badge.text == "connected"
    Select(driver.find_element(By.ID, "lang")).select_by_value("pt-BR")
    assert badge.text == "conectado"
    driver.refresh()  # the choice is remembered, and the badge starts in it
    wait_turn(driver)
    assert driver.find_element(By.ID, "connection").text == "conectado"
    Select(driver.find_element(By.ID, "lang")).select_by_value("en")


def test_create_table_takes_the_creator_to_their_seat_with_the_other_links_beside(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    driver = browser()
    driver.get(server.url + "/")
    seats = driver.find_elements(By.CSS_SELECTOR, "#seat-choices select")
    for select, choice in zip(seats, ["person", "random", "person", "heuristic"], strict=True):
        Select(select).select_by_value(choice)
    driver.find_element(By.ID, "create").click()
    state = wait_for(driver, lambda s: s["seat"] is not None and s["step"] >= 0, "the seat")
    assert state["seat"] == 0
    table, token = _token_of(driver)
    links = driver.find_elements(By.CSS_SELECTOR, "#links #seat-links li")
    assert [li.get_attribute("data-seat") for li in links] == ["0", "2"]
    assert driver.find_element(By.ID, "links").is_displayed()
    assert "yours" in links[0].text
    other = links[1].find_element(By.TAG_NAME, "a").get_attribute("href") or ""
    assert f"table={table}" in other and token not in other
    # The other person's link opens seat 2 of the same table.
    second = browser()
    second.get(other)
    assert wait_for(second, lambda s: s["seat"] is not None, "seat 2")["seat"] == 2
    # A table with one person's seat goes straight to it, with no panel of links.
    driver.get(server.url + "/")
    WebDriverWait(driver, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#seat-choices select"))
    driver.find_element(By.ID, "create").click()
    wait_for(driver, lambda s: s["seat"] == 0 and s["step"] >= 0, "the new seat")
    assert _token_of(driver)[0] != table
    assert not driver.find_element(By.ID, "links").is_displayed()


def test_open_tables_made_alike_can_be_told_apart_and_the_rules_link_teaches(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    first, tokens = server.create_table(3, {1: "random", 2: "random"})
    second, _ = server.create_table(3, {1: "random", 2: "random"})
    seat = browser()
    seat.get(server.link(first, tokens[0]))
    wait_turn(seat)
    driver = browser()
    driver.get(server.url + "/")
    WebDriverWait(driver, 20).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#open-tables-list li")) == 2)
    rows = {li.get_attribute("data-table"): li.text
            for li in driver.find_elements(By.CSS_SELECTOR, "#open-tables-list li")}
    assert rows[first] != rows[second]
    assert f"Table {first}" in rows[first] and f"Table {second}" in rows[second]
    assert "(1 here now)" in rows[first] and "(0 here now)" in rows[second]
    assert "created just now" in rows[first]
    rules = driver.find_element(By.ID, "rules-link")
    assert rules.text == "How to play"
    assert (rules.get_attribute("href") or "").endswith("/docs/play.md")


def test_the_games_end_shows_labelled_standings_and_play_again(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    driver = browser()
    driver.get(server.url + "/")
    Select(driver.find_element(By.ID, "players")).select_by_value("3")
    seats = driver.find_elements(By.CSS_SELECTOR, "#seat-choices select")
    for select, choice in zip(seats, ["person", "random", "random"], strict=True):
        Select(select).select_by_value(choice)
    Select(driver.find_element(By.ID, "variant")).select_by_value("simplified")
    driver.find_element(By.ID, "create").click()
    wait_for(driver, lambda s: s["seat"] == 0, "the seat")
    table, token = _token_of(driver)
    end = _play_to_the_end(server, table, token)
    assert end["phase"] == "over"
    state = wait_for(driver, lambda s: s["phase"] == "over", "the game's end")
    panel = driver.find_element(By.ID, "game-over")
    assert panel.is_displayed()
    heads = [th.text for th in panel.find_elements(By.CSS_SELECTOR, "thead th")]
    assert heads == ["Place", "Player", "Gems in the bag"]
    rows = panel.find_elements(By.CSS_SELECTOR, "tbody tr")
    scores = [s["in_bag"] for s in end["seats"]]
    shown = [(int(r.get_attribute("data-seat") or -1),
              r.find_element(By.CSS_SELECTOR, ".score").text) for r in rows]
    order = sorted(range(3), key=lambda s: (-scores[s], s))
    assert shown == [(s, f"{scores[s]} gem{'s' if scores[s] != 1 else ''}") for s in order]
    best = max(scores)
    winners = [int(r.get_attribute("data-seat") or -1) for r in rows
               if "winner" in (r.get_attribute("class") or "")]
    assert winners == [s for s in order if scores[s] == best]
    assert rows[0].find_element(By.CSS_SELECTOR, ".place").text == "1st"
    # The log's last line labels the scores with their seats.
    last = driver.find_elements(By.CSS_SELECTOR, "#log li")[-1].text
    assert re.search(r"Gems in the bag: (you|seat \d) \d+", last), last
    # In Portuguese too.
    Select(driver.find_element(By.ID, "lang")).select_by_value("pt-BR")
    assert [th.text for th in panel.find_elements(By.CSS_SELECTOR, "thead th")] == [
        "Posição", "Jogador", "Joias na Bolsa"]
    assert driver.find_element(By.ID, "again").text == "Jogar de novo"
    Select(driver.find_element(By.ID, "lang")).select_by_value("en")
    # "Play again": the tab that created the table gets a new one like it, at its seat.
    driver.find_element(By.ID, "again").click()
    WebDriverWait(driver, 20).until(lambda d: _token_of(d)[0] != table)
    again = wait_for(driver, lambda s: s["seat"] == 0 and s["phase"] != "over", "the new game")
    assert again["view"]["config"]["players"] == 3
    assert again["view"]["config"]["variant"] == "simplified"
    # Anyone else's "Play again" leads to the lobby with the same players and variant chosen.
    other = browser()
    other.get(server.link(table, None))
    wait_for(other, lambda s: s["phase"] == "over", "the spectator's end")
    other.find_element(By.ID, "again").click()
    WebDriverWait(other, 20).until(lambda d: d.find_element(By.ID, "lobby").is_displayed())
    assert Select(other.find_element(By.ID, "players")).first_selected_option.get_attribute(
        "value") == "3"
    assert Select(other.find_element(By.ID, "variant")).first_selected_option.get_attribute(
        "value") == "simplified"
    assert state["view"]["phase"] == "over"


def _hand_with_a_special(server: Server, driver: WebDriver) -> dict[str, Any]:
    """Open seats of new tables until a hand holds a poison or a potion card (most do)."""
    for _ in range(8):
        table, tokens = server.create_table(4, {1: "random", 2: "random", 3: "random"})
        driver.get(server.link(table, tokens[0]))
        state = wait_turn(driver)
        if set(state["hand"]) & {"7H", "7S", "7D", "5C", "7C"}:
            return state
    raise AssertionError("eight deals without a poison or potion in seat 0's hand")


def test_poisons_and_potions_in_hand_are_not_marked_as_playable_and_the_potion_is_drawn(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    driver = browser()
    _hand_with_a_special(server, driver)
    cards = driver.execute_script(
        "return [...document.querySelectorAll('#hand .card')].map((n) => ({card: n.dataset.card,"
        " legal: n.classList.contains('legal'), shadow: getComputedStyle(n).boxShadow,"
        " svg: !!n.querySelector('.potion-mark svg'), text: n.innerText}))")
    ring = re.compile(r"0px 0px 0px 3px")  # the outer ring of a card one may play
    for c in cards:
        special = c["card"] in ("7H", "7S", "7D", "5C", "7C")
        assert bool(ring.search(c["shadow"])) == c["legal"], c
        if special:
            assert "inset" in c["shadow"], c
        assert c["svg"] == (c["card"] in ("5C", "7C")), c
        assert "\u2697" not in c["text"] and "m" not in c["text"], c
    assert "\u2697" not in driver.find_element(By.TAG_NAME, "body").text


def test_a_played_position_reads_clearly_on_a_phone(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    # Seats 0 and 1 are played from Python until, at the turn of one of them (the game waits
    # there), a chest poison lies in the centre, someone has a poison card in front of them and
    # a trick has just been won; the phone shows seat 1. A game that ends before: another one.
    phone = browser(390, 844, phone=True)
    for attempt in range(6):
        table, tokens = server.create_table(4, {2: "random", 3: "random"})
        phone.get(server.link(table, tokens[1]))
        wait_for(phone, lambda s: s["step"] >= 0, "the table")
        step = _reach_a_lively_position(server, table, tokens, random.Random(attempt))
        if step is not None:
            break
    else:
        raise AssertionError("six games without the position")
    state = wait_for(phone, lambda s: s["step"] == step, "the position")
    page = read(phone)
    assert page["scroll_width"] <= page["client_width"]
    # The log reads oldest first: steps never go down from one line to the next.
    steps = [int(x) for x in phone.execute_script(
        "return [...document.querySelectorAll('#log li')].map((n) => n.dataset.step)") if x]
    assert steps == sorted(steps) and len(steps) > 5
    # Chest cards in words: the centre names its poisons, the log what each card gave.
    chips = [c.text for c in phone.find_elements(By.CSS_SELECTOR, "#chest-centre .chest-card")]
    assert chips and all(c.endswith(" poison") for c in chips), chips
    log = phone.find_element(By.ID, "log").get_attribute("textContent") or ""
    assert "for the revealer" in log
    assert not re.search(r"\u25c6\d+ / \u25c7\d+|\bG\d+/\d+|\bP\d*:[a-z]", log)
    # A poison's label keeps clear of its card (and of the card's corner mark).
    for item in phone.find_elements(By.CSS_SELECTOR, "#seats .poison"):
        card = item.find_element(By.CSS_SELECTOR, ".card").rect
        label = item.find_element(By.CSS_SELECTOR, ".ptype").rect
        assert label["x"] - (card["x"] + card["width"]) >= 6, (card, label)
    # The last trick: names apart, the label never under its cards, even at the start of the
    # cards' animation, and a legend for what is faded.
    assert phone.find_elements(By.CSS_SELECTOR, "#last-trick:not([hidden]) .played")
    phone.execute_script(
        "document.getAnimations().forEach((a) => { a.pause(); a.currentTime = 0; });")
    names = _boxes(phone, "#last-trick .played .who")
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not _overlap(a, b), (a, b)
    (label,) = _boxes(phone, "#last-trick .label")
    for card in _boxes(phone, "#last-trick .played .card"):
        assert not _overlap(label, card), (label, card)
    legend = phone.find_element(By.CSS_SELECTOR, "#last-trick .legend").text
    assert "faded" in legend or "dashed" in legend
    assert state["chest_centre"]


def _reach_a_lively_position(server: Server, table: str, tokens: dict[int, str],
                             rng: random.Random) -> int | None:
    """Play seats 0 and 1 from Python until, at the turn of one of them, a chest poison lies in
    the centre, a seat has a poison card and the trick is empty after a won trick; return
    its step, or ``None`` if the game ended first."""
    def goal(v: dict[str, Any]) -> bool:
        return (v["your_turn"] and bool(v["chest_centre"]) and not v["trick"]
                and v["trick_number"] > 1 and any(s["poisons"] for s in v["seats"]))

    with (_seat_socket(server, table, tokens[0]) as zero,
          _seat_socket(server, table, tokens[1]) as one):
        sockets = ((0, zero), (1, one))
        latest: dict[int, dict[str, Any]] = {}
        sent: set[tuple[int, int]] = set()
        for _ in range(4000):
            for seat, ws in sockets:
                try:
                    frame = json.loads(ws.recv(timeout=0.05))
                except TimeoutError:
                    continue
                if frame["type"] == "view":
                    latest[seat] = frame["view"]
            for seen in latest.values():
                if goal(seen):
                    return int(seen["step"])
            if any(seen["phase"] == "over" for seen in latest.values()):
                return None
            for seat, ws in sockets:
                v = latest.get(seat)
                if v and v["your_turn"] and (seat, v["step"]) not in sent:
                    ws.send(_move(v, rng, withdraw=False))
                    sent.add((seat, v["step"]))
    return None


def _holders(server: Server, table: str, token: str) -> int:
    """Return how many other connections hold the seat, as a new one of it is told."""
    with _seat_socket(server, table, token) as ws:
        for _ in range(5):
            frame = json.loads(ws.recv(timeout=10))
            if frame["type"] == "seat":
                return int(frame["connections"]) - 1
    raise AssertionError("no seat frame")


def test_a_page_left_lets_go_of_its_seat_and_a_page_brought_back_reconnects(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    # Chromium keeps a page left for another whole, for the Back button: its connection used
    # to stay open, so the seat's next page said "open elsewhere (2 connections)".
    driver = browser()
    table, tokens = server.create_table(3, {1: "random", 2: "random"})
    driver.get(server.link(table, tokens[0]))
    wait_turn(driver)
    assert _holders(server, table, tokens[0]) == 1
    driver.get(server.url + "/")
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "lobby").is_displayed())
    WebDriverWait(driver, 10, poll_frequency=0.2).until(
        lambda d: _holders(server, table, tokens[0]) == 0)
    driver.back()
    state = wait_for(driver, lambda s: s["connection"] == "open" and s["your_turn"], "back")
    assert state["seat"] == 0 and _holders(server, table, tokens[0]) == 1
    assert not driver.find_element(By.ID, "elsewhere").is_displayed()
