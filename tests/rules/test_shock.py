"""Anaphylactic shock (SHOCK-*)."""

from __future__ import annotations

import pytest

import shock_rules as sr

from ._helpers import SUITS_4, events, run, start

# SUITS_4 but seat 1 holds 10S instead of 9S and seat 3 holds 9S instead of 8C, so that seat 3
# can play off suit on a heart lead. Undealt: 10H 8C 10D 10C.
SWAPPED = (
    "1H 2H 3H 4H 5H 6H 7H 8H 9H",
    "1S 2S 3S 4S 5S 6S 7S 8S 10S",
    "1D 2D 3D 4D 5D 6D 7D 8D 9D",
    "1C 2C 3C 4C 5C 6C 7C 9C 9S",
)


def _banked_seven_then_round_two() -> sr.State:
    """Simplified variant. Round 1: seat 3 wins 1H 1S 1D 1C (4 gems) and G3/0, then everyone
    withdraws in trick 2, seat 3 first (banking 7). Round 2 is dealt SUITS_4 again."""
    state = run(
        start(SUITS_4, "10C", variant=sr.Variant.SIMPLIFIED),
        "play 1H; play 1S; play 1D; play 1C; chest G3/0; stop;"
        "withdraw 9C; withdraw 9H; withdraw 9S; withdraw 9D",
    )
    assert state.round == 2 and state.in_bag == (0, 0, 0, 7) and state.supply == 273
    return sr.deal_hands(state, list(SUITS_4), trump="10C")


@pytest.mark.rule("SHOCK-1")
@pytest.mark.rule("SHOCK-2")
@pytest.mark.rule("LEAD-1")
def test_a_second_poison_of_a_type_shocks_the_winner_who_loses_only_the_gems_on_the_bag() -> None:
    state = _banked_seven_then_round_two()
    assert state.leader == 3  # the last winner of round 1 (K27)
    # Trick 1 of round 2: seat 3 wins and reveals a chest bee (+1 gem; everyone at bee 1).
    state = run(state, "play 8C; play 8H; play 8S; play 8D; chest P:bee; stop")
    assert state.on_bag == (0, 0, 0, 1)
    # Trick 2: seat 3 wins 4C, 7H, 1S, 1D: 3 gems, then 7H makes its bee count 2.
    state = run(state, "play 4C; play 7H; play 1S")
    state = sr.apply(state, sr.Action.parse("play 1D"))
    assert [type(e) for e in state.events] == [
        sr.CardPlayed, sr.TrickWon, sr.PoisonTaken, sr.Shocked,
    ]
    assert events(state, sr.TrickWon) == [sr.TrickWon(3, 2, sr.Card.parse("4C"), 3)]
    assert events(state, sr.Shocked) == [sr.Shocked(3, "bee", 4)]
    assert state.status[3] is sr.Status.SHOCKED
    # The 4 gems on its bag go back to the supply; the 7 in its bag stay.
    assert state.on_bag == (0, 0, 0, 0)
    assert state.in_bag == (0, 0, 0, 7)
    assert state.supply == 273
    # No chest challenge; the next seat clockwise still in the round leads trick 3.
    assert (state.phase, state.trick_number, state.leader, state.actor) == (
        sr.Phase.PLAY, 3, 0, 0,
    )
    # The shocked seat plays face down from now on.
    state = run(state, "play 6H; play 6S; play 6D")
    assert {a.kind for a in sr.legal_actions(state)} == {sr.ActionKind.DOWN}


@pytest.mark.rule("SHOCK-1")
@pytest.mark.rule("CHEST-3")
@pytest.mark.rule("LEAD-1")
def test_a_chest_poison_shocks_another_player_then_the_revealer_ending_the_challenge() -> None:
    # Trick 1: hearts led, seat 3 plays 9S off suit: seat 0 wins with 9H and takes 7D.
    state = run(start(SWAPPED, "10C"), "play 9H; play 8S; play 7D; play 9S; chest G3/0; stop")
    assert state.poison_count(0, "spider") == 1 and state.on_bag == (3, 0, 0, 0)
    # Trick 2: seat 3 trumps and takes 7S (jellyfish 1).
    state = run(state, "play 8H; play 7S; play 6D; play 9C")
    state = run(state, "chest P:spider")
    # The revealer gains 1 gem; seat 0 reaches spider 2 and is shocked (losing 3 gems); the
    # others are at spider 1. The revealer is still in: it may reveal again.
    assert events(state, sr.GemsGained) == [sr.GemsGained(3, 1)]
    assert events(state, sr.Shocked) == [sr.Shocked(0, "spider", 3)]
    assert (state.phase, state.actor) == (sr.Phase.CHEST_CHOICE, 3)
    state = run(state, "reveal")
    state = sr.apply(state, sr.Action.parse("chest P:jellyfish"))
    # 7S + the chest jellyfish: the revealer is shocked (losing 2); seats 1 and 2 stay at 1.
    assert events(state, sr.Shocked) == [sr.Shocked(3, "jellyfish", 2)]
    assert state.status == (
        sr.Status.SHOCKED, sr.Status.IN, sr.Status.IN, sr.Status.SHOCKED,
    )
    assert [state.poison_count(s, "jellyfish") for s in (1, 2)] == [1, 1]
    # The challenge ends at once; from seat 3 clockwise, seat 0 is out: seat 1 leads.
    assert (state.phase, state.trick_number, state.leader, state.actor) == (
        sr.Phase.PLAY, 3, 1, 1,
    )
    assert state.supply == 280


@pytest.mark.rule("SHOCK-3")
def test_a_withdrawn_player_is_never_shocked() -> None:
    # Seat 0 withdraws at once; seat 3 wins and reveals two chest bees.
    state = run(start(SUITS_4, "10C"), "withdraw 8H; play 8S; play 8D; play 9C; chest P:bee")
    state = run(state, "reveal; chest P:bee")
    shocked = [e.seat for e in events(state, sr.Shocked)]
    assert shocked == [1, 2, 3]
