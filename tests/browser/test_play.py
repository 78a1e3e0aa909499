"""A person plays a whole game in headless Chromium against three bots, by clicking the cards and
buttons the page offers; at every turn the page must offer exactly the seat's legal actions,
show its real hand, and show the chest odds of shock_rules.chest_odds before a reveal."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("selenium")

from selenium.webdriver.remote.webdriver import WebDriver

import shock_rules as sr

from ._harness import GAMES, Server
from ._page import act, choose, reachable, read, screenshot, wait_step_after, wait_turn


def test_a_person_plays_a_whole_game_against_three_bots_by_clicking(
    server: Server, browser: Callable[..., WebDriver], tmp_path: Path
) -> None:
    driver = browser()
    chest_choices = 0
    game = 0
    # About one game in thirty the person never wins a trick that opens the chest: then one or
    # two more games are played, so that the reveal and stop buttons are surely clicked.
    while game < GAMES or (not chest_choices and game < GAMES + 2):
        table, tokens = server.create_table(4, {1: "random", 2: "heuristic", 3: "mcts"})
        assert list(tokens) == [0]
        driver.get(server.link(table, tokens[0]))
        rng = random.Random(game)
        turns = 0
        while True:
            state = wait_turn(driver)
            if state["phase"] == "over":
                break
            # The server's own view of the seat, over a second connection, is the truth.
            truth = server.seat_view(table, tokens[0])
            assert truth["your_turn"] and truth["step"] == state["step"]
            assert state["seat"] == 0
            assert state["hand"] == truth["hand"]
            # The table as the server sees it: the trick (others' face-down cards as backs),
            # trump, the chest centre, and every seat's status, bag, gems, poisons and potions.
            assert state["trick"] == [t["card"] for t in truth["trick"]]
            assert state["trump"] == truth["trump"]
            assert state["chest_centre"] == truth["chest_centre"]
            assert state["seats"] == [
                {"seat": s["seat"], "status": s["status"], "in_bag": s["in_bag"],
                 "on_bag": s["on_bag"], "hand_size": s["hand_size"],
                 "poisons": [[p["card"], p["covered"]] for p in s["poisons"]],
                 "potions": s["potions"],
                 "stored": len(s["potions"]) - sum(p["covered"] for p in s["poisons"])}
                for s in truth["seats"]]
            assert reachable(driver) == {a["notation"] for a in truth["legal_actions"]}
            if "reveal" in state["buttons"]:
                # The odds are shown before the seat decides whether to reveal another card.
                odds = sr.chest_odds(sr.view_from_json(truth))
                assert state["odds"] is not None and state["odds"]["seat"] == 0
                assert (state["odds"]["poison"], state["odds"]["shock"],
                        state["odds"]["gain"], state["odds"]["cards"]) == (
                    str(odds.poison), str(odds.shock), str(odds.gain), odds.cards)
                chest_choices += 1
            act(driver, state, choose(state, rng), rng)
            after = wait_step_after(driver, state["step"])
            assert not after["error"], after["error"]
            turns += 1
            if game == 0 and turns in (1, 15):
                screenshot(driver, tmp_path / f"game-{game}-turn-{turns}.png")
        screenshot(driver, tmp_path / f"game-{game}-over.png")
        final = server.spectator_view(table)
        assert final["phase"] == "over" and final["step"] == state["step"]
        assert final["round"] == 5 or any(
            e["event"] == "GameEnded" for e in final["events"])
        # The page names the winners and every score (the gems in each bag).
        scores = [s["in_bag"] for s in final["seats"]]
        assert "Game over" in state["text"]
        standings = driver.execute_script(
            "return [...document.querySelectorAll('#standings-body tr')].map((r) =>"
            " [Number(r.dataset.seat), r.querySelector('.score').textContent])")
        assert sorted(standings) == [[s, f"{n} gem{'s' * (n != 1)}"] for s, n in enumerate(scores)]
        assert turns >= 5, f"the person took only {turns} turns"
        assert read(driver)["log"] > 100
        game += 1
    assert chest_choices >= 1
