"""Shared helpers of the property tests: settings for whole-game properties and independent
re-computations of rule quantities (so the properties do not trust the engine's own helpers).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from hypothesis import settings

from shock_rules import Card, Event, GameConfig, RoundEnded, State, Variant

__all__ = [
    "GAME_EXAMPLES",
    "VARIANTS",
    "deck_mask",
    "events_of",
    "game_settings",
    "poison_count",
    "round_ended",
]

#: Whole games cost about 20-40 ms each with every check, so game-level properties run a third
#: of the profile's examples, but never fewer than 100 when the profile asks for more (CI: 300
#: -> 100 per variant) and never more than the profile (dev: 40).
GAME_EXAMPLES = min(settings().max_examples, max(100, settings().max_examples // 3))

#: Every property runs under both rules variants (K2).
VARIANTS = tuple(Variant)

E = TypeVar("E", bound=Event)


def game_settings() -> settings:
    """Return the settings of a whole-game property (see :data:`GAME_EXAMPLES`)."""
    return settings(max_examples=GAME_EXAMPLES, deadline=None)


def deck_mask(config: GameConfig) -> int:
    """Return the bitmask of the number cards in play (SETUP-2), computed from the rulebook:
    3 players drop the 1s and 11s, 4 players the 11s, 5 players use all 44 cards."""
    low, high = {3: (2, 10), 4: (1, 10), 5: (1, 11)}[config.players]
    mask = 0
    for i in range(44):
        card = Card.from_index(i)
        if low <= card.rank <= high:
            mask |= card.bit
    return mask


def poison_count(state: State, seat: int, poison: str) -> int:
    """Return a seat's count of ``poison`` as POISON-2 / K15 defines it: its uncovered poison
    number cards of that type plus the chest poison cards of that type in the centre."""
    ed = state.config.edition
    cards = 0
    for card, ptype in ed.poisons:
        if ptype == poison and state.poison_masks[seat] & card.bit \
                and not state.covered_masks[seat] & card.bit:
            cards += 1
    centre = sum(1 for c in state.chest_centre_cards if c.poison == poison)
    return cards + centre


def events_of(events: Iterable[Event], kind: type[E]) -> list[E]:
    """Return the events of one type, in order."""
    return [e for e in events if isinstance(e, kind)]


def round_ended(state: State) -> bool:
    """Return whether the step that produced ``state`` ended a round."""
    return any(isinstance(e, RoundEnded) for e in state.events)
