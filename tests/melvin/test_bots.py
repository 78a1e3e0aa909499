"""Bots and the real-time simulation (M5: races go to the fastest reaction)."""

from __future__ import annotations

import random

import pytest

from shock_rules import melvin as mk

from ._helpers import dealt, known, play


@pytest.mark.rule("MK-ACT-1")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_mixed_bots_play_to_the_end_reproducibly(players: int) -> None:
    def bots() -> list[mk.Bot]:
        return [mk.ReactionBot(seed=i) if i % 2 else mk.RandomBot(seed=i) for i in range(players)]

    a = mk.simulate(mk.GameConfig(players=players), bots(), random.Random(7))
    b = mk.simulate(mk.GameConfig(players=players), bots(), random.Random(7))
    assert mk.is_terminal(a) and a == b
    mk.check_state(a)


@pytest.mark.rule("MK-ACT-1")
def test_the_fastest_bot_wins_the_race() -> None:
    s = play(known(dealt(3), {1: (5, 1), 2: (5, 2), 0: (3, 4)}), "1 flip", "2 flip")
    bots: list[mk.Bot] = [mk.ReactionBot(seed=0, mean=1.0), mk.ReactionBot(seed=1, mean=0.1),
                          mk.ReactionBot(seed=2, mean=2.0)]
    offers = []
    for seat, bot in enumerate(bots):
        v = mk.view(s, seat)
        act = bot.choose(v, mk.legal_actions(s, seat))
        assert act == mk.Slap(seat)
        offers.append((bot.reaction(v, seat), seat))
    assert min(offers)[1] == 1
