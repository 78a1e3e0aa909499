"""Picking card-indexed entries by mask, and shared events: the engine's fast paths give the
same values as the plain definitions."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shock_rules._rules.cards import NUM_CARDS, Card
from shock_rules._rules.draft import shared
from shock_rules._rules.events import ChestStopped, RoundEnded, RoundEndReason, TrickWon, Withdrew
from shock_rules._rules.pick import pick, picker

TABLE = tuple(f"entry {i}" for i in range(NUM_CARDS))
PICK = picker(TABLE)
masks = st.integers(min_value=0, max_value=(1 << NUM_CARDS) - 1)


def _plain(mask: int) -> tuple[str, ...]:
    return tuple(TABLE[i] for i in range(NUM_CARDS) if mask >> i & 1)


@given(masks)
def test_picker_gives_the_entries_of_the_mask_in_card_order(mask: int) -> None:
    assert PICK(mask) == _plain(mask)
    assert PICK(mask) == _plain(mask)  # again, from the chunk caches


@given(masks)
def test_pick_gives_the_entries_of_the_mask_in_card_order(mask: int) -> None:
    assert pick(TABLE, mask) == _plain(mask)


def test_pick_of_an_empty_mask_is_empty() -> None:
    assert PICK(0) == () and pick(TABLE, 0) == ()


def test_shared_events_equal_fresh_ones_and_are_made_once() -> None:
    assert shared(Withdrew, 1, 3) == Withdrew(1, 3)
    assert shared(Withdrew, 1, 3) is shared(Withdrew, 1, 3)
    assert shared(Withdrew, 1, 3) != shared(Withdrew, 3, 1)
    assert shared(ChestStopped, 2) == ChestStopped(2)
    reason = RoundEndReason.ONE_LEFT
    assert shared(RoundEnded, 2, reason) == RoundEnded(2, reason)
    card = Card.parse("7H")
    assert shared(TrickWon, 0, 4, card, 2) == TrickWon(0, 4, card, 2)
    assert shared(TrickWon, 0, 4, card, 2) != shared(TrickWon, 0, 4, Card.parse("8H"), 2)
