"""Poisons, potions and anaphylactic shock after a trick (K15-K18)."""

from __future__ import annotations

from typing import Final

from .bits import iter_bits, put
from .cards import CARDS
from .chest import start_challenge
from .draft import Work
from .edition import POTIONS
from .events import PoisonCovered
from .round import finish_trick
from .state import POTION_BITS, Phase, Status, covered_mask

_IN: Final = Status.IN


def _waiting(held: int, potion_on: tuple[int, ...]) -> list[int]:
    """Return the potions (by their place in ``POTION_BITS``) that a seat holding the potion
    cards ``held`` has laid on no poison, in the order they are laid: card order, 5C first
    (POTION-6)."""
    return [k for k, bit in enumerate(POTION_BITS) if held & bit and not potion_on[k]]


def apply_potions(w: Work, seat: int) -> None:
    """Apply the seat's potions to its uncovered poison number cards (K16), asking the seat to
    choose when it has fewer potions than such cards; then continue the trick."""
    poisons = w.poison_masks[seat]
    potion_on = w.potion_on_masks
    uncovered = poisons & ~covered_mask(potion_on) if poisons else 0
    if uncovered:
        waiting = _waiting(w.potion_masks[seat], potion_on)
        if len(waiting) >= uncovered.bit_count():
            # POTION-3, POTION-6: every uncovered poison is covered, the waiting potions laid
            # in card order on the poisons in card order; the others stay stored.
            laid = [*potion_on]
            for k, i in zip(waiting, iter_bits(uncovered), strict=False):
                laid[k] = 1 << i
                w.events.append(PoisonCovered(seat, CARDS[i], POTIONS[k]))
            w.potion_on_masks = tuple(laid)
        elif waiting:
            w.set_phase(Phase.COVER, seat)  # POTION-4: the seat chooses
            return
    after_potions(w, seat)


def cover(w: Work, card_index: int) -> None:
    """Lay the seat's next waiting potion (POTION-6) on the poison card it chose (K16); ask
    again while potions wait."""
    seat = w.actor
    waiting = _waiting(w.potion_masks[seat], w.potion_on_masks)
    k = waiting[0]
    w.potion_on_masks = put(w.potion_on_masks, k, 1 << card_index)
    w.events.append(PoisonCovered(seat, CARDS[card_index], POTIONS[k]))
    if len(waiting) > 1:
        return  # still fewer potions than uncovered poisons: the next choice (stay in COVER)
    after_potions(w, seat)


def after_potions(w: Work, seat: int) -> None:
    """Shock check of the trick winner (K17), then the chest challenge if still in (K14)."""
    ptype = w.shock_type(seat)
    if ptype >= 0:
        w.shock(seat, ptype)
    if w.status[seat] is _IN:
        start_challenge(w, seat)
    else:
        finish_trick(w)
