"""The standard and simplified variants (VAR-*)."""

from __future__ import annotations

import pytest

import shock_rules as sr

from ._helpers import SUITS_4, mask, run, start

# Round 1 of both tests: seat 3 wins trick 1, then everyone withdraws in trick 2 (K13), so the
# hands still hold 7 cards each when the round ends.
ROUND_1 = "play 1H; play 1S; play 1D; play 1C; chest G3/0; stop;" \
    "withdraw 9C; withdraw 9H; withdraw 9S; withdraw 9D"
KEPT = ("2H 3H 4H 5H 6H 7H 8H", "2S 3S 4S 5S 6S 7S 8S", "2D 3D 4D 5D 6D 7D 8D",
        "2C 3C 4C 5C 6C 7C 8C")


@pytest.mark.rule("VAR-1")
@pytest.mark.rule("DEAL-2")
def test_standard_keeps_the_cards_left_in_hand_and_refills_each_hand() -> None:
    state = run(start(SUITS_4, "10C"), ROUND_1)
    assert state.round == 2 and state.phase is sr.Phase.DEAL
    assert state.hand_masks == tuple(mask(h) for h in KEPT)
    # The 12 other cards form the deck; two cards are dealt to each hand, round the table.
    assert state.deck_size == 12
    order = []
    while state.phase is sr.Phase.DEAL:
        order.append(state.actor)
        state = sr.apply(state, sr.legal_actions(state)[-1])
    assert order == [0, 1, 2, 3, 0, 1, 2, 3]
    assert all(state.hand_masks[s] & mask(KEPT[s]) == mask(KEPT[s]) for s in range(4))
    assert [state.hand_size(s) for s in range(4)] == [9, 9, 9, 9]
    assert state.deck_size == 4


@pytest.mark.rule("VAR-2")
def test_simplified_discards_the_hands_and_deals_fresh_ones() -> None:
    state = run(start(SUITS_4, "10C", variant=sr.Variant.SIMPLIFIED), ROUND_1)
    assert state.round == 2 and state.phase is sr.Phase.DEAL
    assert state.hand_masks == (0, 0, 0, 0)
    assert state.pool_mask == state.tables.deck and state.deck_size == 40
    # A fresh hand may hold any card, including ones the seat held before.
    state = sr.deal_hands(state, list(reversed(SUITS_4)), trump="10H")
    assert state.hand(0) == sr.parse_cards(SUITS_4[3])
    assert state.leader == 3 and state.actor == 3


@pytest.mark.rule("VAR-1")
def test_standard_rejects_a_deal_that_would_take_a_kept_card_away() -> None:
    state = run(start(SUITS_4, "10C"), ROUND_1)
    with pytest.raises(sr.IllegalActionError, match="seat 0 already holds cards"):
        sr.deal_hands(state, list(reversed(SUITS_4)), trump="10H")
