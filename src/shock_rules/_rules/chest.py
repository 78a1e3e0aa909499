"""The chest challenge (K19-K23)."""

from __future__ import annotations

from typing import Final

from .bits import put
from .draft import Work, shared
from .events import ChestRevealed, ChestStopped, GemsGained
from .round import finish_trick
from .state import Phase, Status, covered_mask

_IN: Final = Status.IN
_CHOICE: Final = Phase.CHEST_CHOICE
_CHEST: Final = Phase.CHEST

MAX_REVEALS: Final = 3  # K22: the mandatory card and up to two optional ones


def start_challenge(w: Work, seat: int) -> None:
    """Begin the winner's chest challenge (K19), or skip it when the chest deck is empty
    (K23)."""
    w.revealed = 0
    if any(w.chest_deck):
        w.set_phase(_CHEST, seat)
    else:
        finish_trick(w)


def reveal(w: Work, kind: int) -> None:
    """Resolve the chest card ``kind`` revealed by ``w.actor`` (K20, K21), then offer the
    next optional reveal (K22) or close the trick."""
    t = w.tables
    seat = w.actor
    card = t.chest_cards[kind]
    deck = put(w.chest_deck, kind, w.chest_deck[kind] - 1)
    w.chest_deck = deck
    revealed = w.revealed + 1
    w.revealed = revealed
    events = w.events
    events.append(shared(ChestRevealed, seat, card, revealed))
    ptype = t.chest_poison[kind]
    # The gems of the card, from the supply (K29: it may go below zero): the large icons to
    # the revealer; on a gem card, the small icons to every *other* seat still in the round
    # (K20).
    on_bag = [*w.on_bag]
    paid = 0
    large = card.large
    if large:
        on_bag[seat] += large
        paid += large
        events.append(shared(GemsGained, seat, large))
    if ptype < 0:
        w.chest_discard = put(w.chest_discard, kind, w.chest_discard[kind] + 1)
        small = card.small
        if small:
            for other, status in enumerate(w.status):
                if other != seat and status is _IN:
                    on_bag[other] += small
                    paid += small
                    events.append(shared(GemsGained, other, small))
    w.on_bag = tuple(on_bag)
    w.supply -= paid
    if ptype >= 0:
        # K21: the card goes to the centre and poisons everyone still in the round, revealer
        # included; all whose count reaches 2 are shocked at once.
        w.chest_centre = put(w.chest_centre, kind, w.chest_centre[kind] + 1)
        centre = t.centre_poisons(w.chest_centre)
        covered = covered_mask(w.potion_on_masks)
        shocked = [s for s in w.in_round() if t.poison_counts(
            w.poison_masks[s] & ~covered, centre)[ptype] >= 2]
        for s in shocked:
            w.shock(s, ptype)
    if revealed < MAX_REVEALS and w.status[seat] is _IN and any(deck):
        w.set_phase(_CHOICE, seat)
    else:
        finish_trick(w)


def stop(w: Work) -> None:
    """The revealer chose not to reveal another chest card (K22): close the trick.

    (Choosing to reveal only moves the game back to the chest reveal; the engine does that.)
    """
    w.events.append(shared(ChestStopped, w.actor))
    finish_trick(w)
