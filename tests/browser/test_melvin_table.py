"""Melvin Vs. Kronk at a table of `shock-rules serve`, played whole: the same page and the same
game module as in the browser build, over the server's WebSocket (its pings answered, its races
judged by its fairness policy). A person creates the table in the lobby and plays a whole game
against the server's reaction bots with the keys, as in the page (tests/browser/_melvin.py);
the page's last view is the server's. (Races between two people, penalties on every page, a
restart and the lobby's list: test_server_melvin.py.)"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

pytest.importorskip("selenium")

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from shock_rules import melvin

from ._harness import Server
from ._melvin import create_in_lobby, play


@pytest.fixture
def realtime_server(tmp_path: Path) -> Iterator[Server]:
    """A server whose bots race at their own pace (``--bot-delay 0.6``: each reaction time as
    the bot draws it), not at once: a person can win a slap."""
    srv = Server(tmp_path, bot_delay=0.6)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_a_person_plays_a_whole_melvin_game_at_a_server_table(
    realtime_server: Server, browser: Callable[..., WebDriver]
) -> None:
    server = realtime_server
    driver = browser()
    create_in_lobby(driver, f"{server.url}/?game=melvin")
    # The lobby created the table at the server and went to its person's seat.
    address = urlparse(driver.current_url)
    table = parse_qs(address.query)["table"][0]
    token = parse_qs(address.fragment)["token"][0]
    assert driver.find_element(By.ID, "connection").get_attribute("data-state") == "open"
    played = play(driver, random.Random(8))
    assert played.used["flip"] >= 5, played.used
    # A refusal is a race lost (the server's too_late, or the table moved on), never a bad
    # message nor a wrong slap for a seat that saw a match.
    assert played.codes <= {"too_late", "stale_step"}, played.codes
    final = played.state["view"]
    assert final["phase"] == "over"
    assert server.seat_view(table, token) == final
    # The standings: every seat's kept Gem cards (all shown at the end, M30), the seats still
    # in the game first (M15).
    scores = [sum(melvin.gem_value(c) for c in cards) for cards in final["gems"]]
    shown = driver.execute_script(
        "return [...document.querySelectorAll('#standings-body tr')].map((r) =>"
        " [Number(r.dataset.seat), r.querySelector('.score').textContent])")
    order = sorted(range(4), key=lambda s: (not final["in_game"][s], -scores[s], s))
    assert shown == [[s, f"{scores[s]} gem{'s' * (scores[s] != 1)}"] for s in order]
