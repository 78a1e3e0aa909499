"""Playing a trick: whose turn, following suit, the winner, and resolving the trick (K7-K14).
"""

from __future__ import annotations

from .bits import put
from .cards import RANKS
from .draft import Work, shared
from .events import (
    PoisonTaken,
    PotionTaken,
    RoundEndReason,
    TrickAbandoned,
    TrickWon,
)
from .poison import apply_potions
from .round import end_round
from .state import Play, lead_suit


def trick_winner(trick: tuple[Play, ...], trump_suit: int) -> Play:
    """Return the winning play: the highest trump, else the highest card of the lead suit;
    face-down cards never win (K10, rulebook How to Play)."""
    lead = lead_suit(trick)
    best: Play | None = None
    best_key = -1
    for p in trick:
        if not p.face_up:
            continue
        suit = p.card.suit
        if suit == trump_suit:
            key = 2 * RANKS + p.card.rank
        elif suit == lead:
            key = p.card.rank
        else:
            continue
        if key > best_key:
            best, best_key = p, key
    assert best is not None, "a completed trick always holds a face-up card (K13)"
    return best


def resolve_trick(w: Work) -> None:
    """Resolve a complete trick in the order of K14."""
    t = w.tables
    trick = w.trick
    win = trick_winner(trick, w.trump_index // RANKS)
    seat = win.seat
    gems = 0
    taken = 0
    rest = 0
    special = t.poison_cards | t.potion_cards
    for p in trick:
        gems += p.gems
        bit = p.card.bit
        if bit & special and p.face_up:
            taken |= bit
        else:
            rest |= bit
    w.on_bag = put(w.on_bag, seat, w.on_bag[seat] + gems)  # their gems left the supply in play
    w.discard_mask |= rest
    w.last_winner = seat
    w.trick = ()
    events = w.events
    events.append(shared(TrickWon, seat, w.trick_number, win.card, gems))
    if taken:
        poison_types = w.config.edition.poison_types
        poisons = taken & t.poison_cards
        for p in trick:
            bit = p.card.bit
            if bit & poisons:
                ptype = poison_types[t.poison_of[p.card.index]]
                events.append(shared(PoisonTaken, seat, p.card, ptype))
            elif bit & taken:
                events.append(shared(PotionTaken, seat, p.card))
        potions = taken & t.potion_cards
        if poisons:
            w.poison_masks = put(w.poison_masks, seat, w.poison_masks[seat] | poisons)
        if potions:
            w.potion_masks = put(w.potion_masks, seat, w.potion_masks[seat] | potions)
    apply_potions(w, seat)


def abandon_trick(w: Work) -> None:
    """Everyone still in the round withdrew during this trick (K13): no winner, the trick's
    gems go back to the supply, its cards to the discard pile, and the round ends at once."""
    gems = 0
    for p in w.trick:
        gems += p.gems
        w.discard_mask |= p.card.bit
    w.supply += gems
    w.trick = ()
    w.events.append(shared(TrickAbandoned, w.trick_number, gems))
    end_round(w, RoundEndReason.ALL_WITHDREW)
