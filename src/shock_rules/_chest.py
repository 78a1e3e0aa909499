"""The chest challenge (K19-K23)."""

from __future__ import annotations

from ._events import ChestStopped, chest_revealed, shared
from ._round import finish_trick
from ._state import Phase, Status
from ._work import Work, put

_IN = Status.IN
_CHOICE = Phase.CHEST_CHOICE
_CHEST = Phase.CHEST

MAX_REVEALS = 3  # K22: the mandatory card and up to two optional ones


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
    w.chest_deck = put(w.chest_deck, kind, w.chest_deck[kind] - 1)
    w.revealed += 1
    w.events.append(chest_revealed(seat, card, w.revealed))
    if card.large:
        w.gain(seat, card.large)
    ptype = t.chest_poison[kind]
    if ptype < 0:
        # K20: every *other* seat still in the round gains the small icons.
        w.chest_discard = put(w.chest_discard, kind, w.chest_discard[kind] + 1)
        if card.small:
            status = w.status
            for other in range(t.players):
                if other != seat and status[other] is _IN:
                    w.gain(other, card.small)
    else:
        # K21: the card goes to the centre and poisons everyone still in the round, revealer
        # included; all whose count reaches 2 are shocked at once.
        w.chest_centre = put(w.chest_centre, kind, w.chest_centre[kind] + 1)
        in_centre = w.centre_poisons()[ptype]
        mask = t.type_masks[ptype]
        shocked = [
            s for s in w.in_round()
            if (w.poison_masks[s] & ~w.covered_masks[s] & mask).bit_count() + in_centre >= 2
        ]
        for s in shocked:
            w.shock(s, ptype)
    if w.status[seat] is _IN and w.revealed < MAX_REVEALS and any(w.chest_deck):
        w.set_phase(_CHOICE, seat)
    else:
        finish_trick(w)


def stop(w: Work) -> None:
    """The revealer chose not to reveal another chest card (K22): close the trick.

    (Choosing to reveal only moves the game back to the chest reveal; the engine does that.)
    """
    w.events.append(shared(ChestStopped, w.actor))
    finish_trick(w)
