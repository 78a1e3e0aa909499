"""Melvin Vs. Kronk's bots: the package's bot interface (``choose(view, rng)``, ``reaction``),
and races decided by reaction times (M5)."""

from __future__ import annotations

import random

import pytest

from shock_rules import InvalidArgumentError
from shock_rules import melvin as mk
from shock_rules.bots import play_game

from ._helpers import dealt, known, play


@pytest.mark.rule("MK-ACT-1")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_mixed_bots_play_to_the_end_reproducibly(players: int) -> None:
    def bots() -> list[mk.RandomBot | mk.ReactionBot]:
        return [mk.ReactionBot() if i % 2 else mk.RandomBot() for i in range(players)]

    actions: list[mk.Action] = []
    a = play_game(mk.GameConfig(players=players), bots(), random.Random(7), actions)
    b = play_game(mk.GameConfig(players=players), bots(), random.Random(7))
    assert mk.is_terminal(a) and a == b
    mk.check_state(a)
    assert len(actions) == a.step


@pytest.mark.rule("MK-ACT-1")
def test_the_fastest_bot_wins_the_race() -> None:
    s = play(known(dealt(3), {1: (5, 1), 2: (5, 2)}), "1 flip", "2 flip")
    bots = [mk.ReactionBot(1.0), mk.ReactionBot(0.1), mk.ReactionBot(2.0)]
    offers = []
    for seat, bot in enumerate(bots):
        rng = random.Random(seat)
        v = mk.view(s, seat)
        assert bot.choose(v, rng) == mk.Slap(seat)
        offers.append((bot.reaction(v, rng), seat))
    assert min(offers)[1] == 1


@pytest.mark.rule("MK-PEN-1")
def test_a_penalty_that_hampers_makes_a_bot_slower() -> None:
    s = play(dealt(), "2 slap", "penalty Mao")
    bot = mk.ReactionBot(0.5)
    slow = bot.reaction(mk.view(s, 2), random.Random(1))
    fast = bot.reaction(mk.view(s, 1), random.Random(1))
    assert slow == pytest.approx(fast * 1.5)


def test_make_bot_reads_names_and_reaction_times() -> None:
    assert isinstance(mk.make_bot("reaction:0.3"), mk.ReactionBot)
    assert mk.make_bot("reaction:0.3").mean == 0.3
    assert mk.make_bot("random").name == "random"
    for bad in ("kronk", "reaction:0", "reaction:fast", "reaction:nan", "reaction:11", 3):
        with pytest.raises(InvalidArgumentError):
            mk.make_bot(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        mk.ReactionBot(mean=-1)
    with pytest.raises(InvalidArgumentError, match=r"melvin\.View"):
        mk.ReactionBot().choose("view", random.Random())  # type: ignore[arg-type]
