"""Poisons, potions and anaphylactic shock after a trick (K15-K18)."""

from __future__ import annotations

from typing import Final

from .bits import iter_bits, put
from .cards import CARDS
from .chest import start_challenge
from .draft import Work
from .events import PoisonCovered
from .round import finish_trick
from .state import Phase, Status, covering_potions

_IN: Final = Status.IN


def apply_potions(w: Work, seat: int) -> None:
    """Apply the seat's potions to its uncovered poison number cards (K16), asking the seat to
    choose when it has fewer potions than such cards; then continue the trick."""
    covered = w.covered_masks[seat]
    stored = w.potion_masks[seat].bit_count() - covered.bit_count()
    uncovered = w.poison_masks[seat] & ~covered
    if stored and uncovered:
        if stored >= uncovered.bit_count():
            w.covered_masks = put(w.covered_masks, seat, covered | uncovered)
            on = covering_potions(covered | uncovered, w.potion_masks[seat])
            for i in iter_bits(uncovered):
                w.events.append(PoisonCovered(seat, CARDS[i], on[i]))
        else:
            w.set_phase(Phase.COVER, seat)
            return
    after_potions(w, seat)


def cover(w: Work, card_index: int) -> None:
    """Cover one poison card the seat chose (K16); ask again while potions remain."""
    seat = w.actor
    covered = w.covered_masks[seat] | 1 << card_index
    w.covered_masks = put(w.covered_masks, seat, covered)
    on = covering_potions(covered, w.potion_masks[seat])
    w.events.append(PoisonCovered(seat, CARDS[card_index], on[card_index]))
    if w.potion_masks[seat].bit_count() > covered.bit_count():
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
