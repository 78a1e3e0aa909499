"""Two people at one table, each in their own browser: each page shows its own hand, exactly the
server's, and no card of the other person's hand appears anywhere in it (not in the page's
elements, not in its text, not in the view document it received); a spectator sees no hand."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("selenium")

from selenium.webdriver.remote.webdriver import WebDriver

from ._harness import GAMES, Server
from ._page import act, after_step, at_step, choose, read, screenshot, wait_for

_CARD = re.compile(r"\b(?:1[01]|[1-9])[HSDC]\b")


def _cards_shown(state: dict[str, Any]) -> set[str]:
    """Return every card the page shows or holds now: its card elements, the card names in its
    text and in the view document it keeps. The event log is left out: it names cards played
    face up in earlier rounds, which may since have been dealt to anyone."""
    return (set(state["cards"]) | set(_CARD.findall(state["board_text"]))
            | set(_CARD.findall(json.dumps(state["view"]))))


def test_two_people_at_one_table_each_see_only_their_own_hand(
    server: Server, browser: Callable[..., WebDriver], tmp_path: Path
) -> None:
    table, tokens = server.create_table(4, {2: "heuristic", 3: "random"})
    assert sorted(tokens) == [0, 1]
    pages = {seat: browser() for seat in tokens}
    for seat, page in pages.items():
        page.get(server.link(table, tokens[seat]))
    spectator = browser()
    spectator.get(server.link(table))
    rng = random.Random(12)
    checked = 0
    for turn in range(24 * GAMES):
        # Wait until one of the two must decide (or the game is over): the table stands still.
        deadline = time.monotonic() + 60
        while True:
            states = {seat: read(page) for seat, page in pages.items()}
            if any(s["your_turn"] or s["phase"] == "over" for s in states.values()):
                break
            assert time.monotonic() < deadline, "neither page got its turn within 60 s"
            time.sleep(0.05)
        step = max(s["step"] for s in states.values())
        truth = {seat: server.seat_view(table, tokens[seat]) for seat in pages}
        # What every player may see (face-down cards played earlier may be public by now).
        public = set(_CARD.findall(json.dumps(server.spectator_view(table))))
        assert all(t["step"] == step for t in truth.values())
        states = {seat: wait_for(page, at_step(step), f"step {step}")
                  for seat, page in pages.items()}
        for seat, state in states.items():
            other = 1 - seat
            assert state["seat"] == seat
            assert state["hand"] == truth[seat]["hand"]
            hidden = set(truth[other]["hand"]) | (set(truth[other]["own_face_down"]) - public)
            leaked = _cards_shown(state) & hidden
            assert not leaked, f"seat {seat}'s page shows seat {other}'s cards {leaked}"
            assert not re.search(rf"seat {other} received {_CARD.pattern}", state["text"])
        watcher = wait_for(spectator, at_step(step), f"step {step}")
        assert watcher["seat"] is None and watcher["hand"] == [] and not watcher["buttons"]
        hands = set(truth[0]["hand"]) | set(truth[1]["hand"])
        assert not _cards_shown(watcher) & hands
        checked += 1
        if turn == 8:
            for seat, page in pages.items():
                screenshot(page, tmp_path / f"seat-{seat}.png")
            screenshot(spectator, tmp_path / "spectator.png")
        if states[0]["phase"] == "over":
            break
        seat = next(s for s, state in states.items() if state["your_turn"])
        act(pages[seat], states[seat], choose(states[seat], rng), rng)
        wait_for(pages[seat], after_step(step), f"a step after {step}")
    assert checked >= 10
