"""The chest odds the page computes and shows (from the view: the chest deck is public) are
exactly shock_rules.chest_odds on the same positions."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("selenium")

from selenium.webdriver.remote.webdriver import WebDriver

import shock_rules as sr
from shock_rules.bots import RandomBot

from ._harness import Server
from ._page import read, wait_for

#: The phases where chance acts (the dealer's cards, the trump card, the leader, chest cards).
_CHANCE = frozenset({sr.Phase.DEAL, sr.Phase.TRUMP, sr.Phase.LEADER, sr.Phase.CHEST})


def _chest_positions(games: int) -> Iterator[sr.State]:
    """Yield every state of random games where a chest card is about to be revealed or chosen
    (games of 3, 4 and 5 players, both variants)."""
    bot = RandomBot(withdraw_rate=0.05)
    for game in range(games):
        rng = random.Random(game)
        config = sr.GameConfig(players=3 + game % 3,
                               variant="simplified" if game % 2 else "standard")
        state = sr.new_game(config)
        while state.phase is not sr.Phase.OVER:
            if state.phase in (sr.Phase.CHEST, sr.Phase.CHEST_CHOICE):
                yield state
            if state.phase in _CHANCE:
                action = sr.sample_chance(state, rng)
            else:
                action = bot.choose(sr.view(state, state.actor), rng)
            state = sr.apply(state, action)


def _expected(odds: sr.ChestOdds) -> dict[str, Any]:
    return {"seat": odds.seat, "cards": odds.cards, "poison": str(odds.poison),
            "shock": str(odds.shock), "gain": str(odds.gain)}


def test_the_pages_chest_odds_are_chest_odds(
    server: Server, browser: Callable[..., WebDriver]
) -> None:
    driver = browser()
    # A table page with nothing behind it: the views below are handed to the page directly.
    driver.get(server.url + "/?table=none")
    wait_for(driver, lambda s: s["connection"] == "closed", "the page gave up on table 'none'")
    cases: list[tuple[dict[str, Any], int, dict[str, Any]]] = []
    states = list(_chest_positions(12))
    assert len(states) > 100
    for state in states:
        viewer = state.actor
        assert viewer is not None
        view = sr.view(state, viewer)
        doc = sr.to_dict(view)
        for seat in view.seats:
            if seat.status is sr.Status.IN:
                cases.append((doc, seat.seat, _expected(sr.chest_odds(view, seat.seat))))
    got = driver.execute_script(
        "return arguments[0].map(([view, seat]) => {"
        "  const o = window.shockClient.chestOdds(view, seat);"
        "  return {seat: o.seat, cards: o.cards, poison: o.poison, shock: o.shock, gain: o.gain};"
        "})", [[doc, seat] for doc, seat, _ in cases])
    assert got == [expected for _, _, expected in cases]
    assert any(e["shock"] != "0" for _, _, e in cases)
    assert any(e["gain"].startswith("-") for _, _, e in cases)

    # What the page shows before a reveal: the odds of the revealer, on a sample of positions.
    for state in states[::10]:
        viewer = state.actor
        assert viewer is not None
        doc = sr.to_dict(sr.view(state, viewer))
        driver.execute_script(
            "window.shockClient.receive({type: 'view', seat: arguments[0], view: arguments[1],"
            " events: []})", viewer, doc)
        shown = read(driver)
        assert shown["step"] == state.step
        assert shown["odds"] == _expected(sr.chest_odds(sr.view(state, viewer)))
