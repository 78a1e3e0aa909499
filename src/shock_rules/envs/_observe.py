"""The observations of the adapters, written straight from a state for one seat (internal).

The functions of :func:`shock_rules.envs.encode_seat` and the adapters' action masks, in a
module of their own without attrs classes so that the compiled build compiles it (see
``hatch_build.py``): every environment step runs them once. They read only what the seat's
view shows (K34); ``tests/envs/test_encoding.py`` checks them against :func:`encode` of the
view over whole games.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Final

from .._rules.actions import Action
from .._rules.cards import NUM_CARDS, RANKS
from .._rules.config import MAX_PLAYERS, MIN_PLAYERS, Variant
from .._rules.engine import legal_actions
from .._rules.state import CHANCE_PHASES, Phase, State, Status, covered_mask, lead_suit

__all__ = ["write_mask", "write_seat"]

#: The number of decision-action indexes (``_encoding.NUM_ACTIONS``).
NUM_ACTIONS: Final = 4 * NUM_CARDS + 2
_SLOTS: Final = MAX_PLAYERS
_TRICK_SLOT: Final = 1 + _SLOTS + 1 + NUM_CARDS + 1
_POISON_TYPES: Final = 3
_STATUSES: Final = len(Status)
_CARD_AT: Final = 2 + _SLOTS  # where a trick slot's card block starts
_SEAT_SLOT: Final = 1 + _STATUSES + 4 + 2 * _POISON_TYPES + 2 + 4


def write_seat(v: MutableSequence[float], state: State, seat: int, f: dict[str, int],
               type_masks: tuple[int, ...]) -> None:
    """Write the encoding of ``seat``'s view of ``state`` into the zeroed vector ``v``, the
    fields at the offsets ``f`` (the layout's), the poison types' card masks ``type_masks``.

    Counts are written as ints, which the float vectors store as floats."""
    n = state.config.players
    phase = state.phase
    # The game's shape and progress.
    v[f["players"] + n - MIN_PLAYERS] = 1
    if state.config.variant is Variant.SIMPLIFIED:
        v[f["variant"]] = 1
    v[f["seat"] + seat] = 1
    v[f["round"] + state.round - 1] = 1
    v[f["trick_number"]] = state.trick_number
    v[f["phase"] + phase] = 1
    # Who must move and who led, relative to the viewer.
    actor = state.actor
    if actor >= 0 and phase not in CHANCE_PHASES and phase is not Phase.OVER:
        v[f["to_move"] + (actor - seat) % n] = 1
        if actor == seat:
            v[f["my_turn"]] = 1
    who = state.leader
    if who >= 0:
        v[f["leader"] + (who - seat) % n] = 1
    who = state.lead_seat
    if who >= 0:
        v[f["lead_seat"] + (who - seat) % n] = 1
    who = state.round_leader
    if who >= 0:
        v[f["round_leader"] + (who - seat) % n] = 1
    who = state.last_winner
    if who >= 0:
        v[f["last_winner"] + (who - seat) % n] = 1
    # The trump, the lead suit and the cards the seat may know.
    trump = state.trump_index
    if trump >= 0:
        v[f["trump"] + trump] = 1
        v[f["trump_suit"] + trump // RANKS] = 1
    trick = state.trick
    lead = lead_suit(trick)
    if lead is not None:
        v[f["lead_suit"] + lead] = 1
    down = state.face_down_masks
    all_down = 0
    for m in down:
        all_down |= m
    hands = state.hand_masks
    for base, mask in ((f["hand"], hands[seat]), (f["own_face_down"], down[seat]),
                       (f["discard"], state.discard_mask & ~all_down)):
        while mask:  # the set bits, inline: a generator per mask costs more than the loop
            low = mask & -mask
            v[base + low.bit_length() - 1] = 1
            mask ^= low
    # The trick: another seat's face-down card stays unknown (K34).
    base = f["trick"]
    gems = 0
    for p in trick:
        v[base] = 1
        v[base + 1 + (p.seat - seat) % n] = 1
        if p.face_up:
            v[base + 1 + _SLOTS] = 1
            v[base + _CARD_AT + p.card.index] = 1
        elif p.seat == seat:
            v[base + _CARD_AT + p.card.index] = 1
        v[base + _CARD_AT + NUM_CARDS] = p.gems
        gems += p.gems
        base += _TRICK_SLOT
    # Every seat's public facts.
    seats = f["seats"]
    status, on_bag, in_bag = state.status, state.on_bag, state.in_bag
    poison_masks, laid_on = state.poison_masks, covered_mask(state.potion_on_masks)
    potion_masks, void_suits = state.potion_masks, state.void_suits
    for i in range(n):
        base = seats + ((i - seat) % n) * _SEAT_SLOT
        v[base] = 1
        v[base + 1 + status[i]] = 1
        k = base + 1 + _STATUSES
        v[k] = hands[i].bit_count()
        v[k + 1] = down[i].bit_count()
        v[k + 2] = on_bag[i]
        v[k + 3] = in_bag[i]
        k += 4
        poisons = poison_masks[i]
        covered = laid_on & poisons
        if poisons:
            uncovered = poisons & ~covered
            for j, type_mask in enumerate(type_masks):
                v[k + j] = (uncovered & type_mask).bit_count()
                v[k + _POISON_TYPES + j] = (covered & type_mask).bit_count()
        k += 2 * _POISON_TYPES
        potions = potion_masks[i].bit_count()
        v[k] = potions
        v[k + 1] = potions - covered.bit_count()
        voids = void_suits[i]
        if voids:
            for suit in range(4):
                if voids >> suit & 1:
                    v[k + 2 + suit] = 1
    # The counts: the deck, the supply, the chest piles per kind, the gems at stake.
    v[f["deck_size"]] = state.pool_mask.bit_count()
    v[f["supply"]] = state.supply
    for base, counts in ((f["chest_deck"], state.chest_deck),
                         (f["chest_discard"], state.chest_discard),
                         (f["chest_centre"], state.chest_centre)):
        for count in counts:
            v[base] = count
            base += 1
    v[f["revealed"]] = state.revealed
    v[f["trick_gems"]] = gems


def write_mask(state: State, seat: int, index: dict[Action, int]) -> bytearray:
    """The action mask of ``seat`` as a ``bytearray`` (``index``: each decision's index),
    for the adapters: numpy wraps it as int8 without a copy. The state and seat are trusted."""
    mask = bytearray(NUM_ACTIONS)
    phase = state.phase
    if phase not in CHANCE_PHASES and phase is not Phase.OVER and state.actor == seat:
        for a in legal_actions(state):
            mask[index[a]] = 1
    return mask
