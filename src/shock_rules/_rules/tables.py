"""The lookup tables derived from a game's configuration (internal).

:func:`~shock_rules._rules.config.tables_for` builds one :class:`Tables` per configuration and
every state of a game shares it (``state.tables``). A module of its own, compiled in the
compiled build, where :class:`Tables` is a native class: the rule modules read these tables on
every step, and a native class's fields are read without a dictionary look-up.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import TYPE_CHECKING, Final

from .cards import CARDS, NUM_CARDS, Suit
from .edition import ChestCard

if TYPE_CHECKING:
    from .actions import Action
    from .config import GameConfig

__all__ = ["Tables", "tables_for"]


class Tables:
    """Lookup tables derived from a config, built once and shared by all states (internal).

    Compared by identity (one per config, from ``tables_for``); a pickle holds the config and
    loads as that config's tables. ``tables_for``'s cache is bounded, so a state made before its
    config's tables were evicted holds tables equal to the new ones, not the same object:
    ``check_state`` compares their fields then.
    """

    # Fields declared Final: read-only from Python in the compiled build, and the type
    # checker refuses any assignment outside __init__ in both builds.
    #: The configuration these tables derive from.
    config: Final[GameConfig]
    players: Final[int]
    hand_size: Final[int]
    face_down_gems: Final[int]
    #: Bitmask of the number cards in play.
    deck: Final[int]
    #: Gem icons by card index.
    icons: Final[tuple[int, ...]]
    #: Poison type index by card index, -1 if none.
    poison_of: Final[tuple[int, ...]]
    #: Bitmask of the poison number cards.
    poison_cards: Final[int]
    #: Bitmask of the potion cards.
    potion_cards: Final[int]
    #: Poison number cards by poison type.
    type_masks: Final[tuple[int, ...]]
    #: The distinct chest cards.
    chest_cards: Final[tuple[ChestCard, ...]]
    #: The position of each chest card in ``chest_cards``.
    chest_index: Final[dict[ChestCard, int]]
    #: How many of each chest card a full chest deck has.
    chest_counts: Final[tuple[int, ...]]
    #: Poison type index by chest card, -1 for gem cards.
    chest_poison: Final[tuple[int, ...]]
    #: The starting supply (K29).
    supply: Final[int]
    #: The number cards of each suit.
    suit_masks: Final[tuple[int, ...]]
    #: Chest outcomes by chest-deck contents, filled by the engine. It lives here, not in a
    #: module-level dict keyed by id(), so it can never outlive these tables' chest cards.
    chest_outcomes: Final[dict[tuple[int, ...], tuple[tuple[Action, Fraction], ...]]]

    def __init__(
        self, *, config: GameConfig, players: int, hand_size: int, face_down_gems: int,
        deck: int, icons: tuple[int, ...], poison_of: tuple[int, ...], poison_cards: int,
        potion_cards: int, type_masks: tuple[int, ...], chest_cards: tuple[ChestCard, ...],
        chest_index: dict[ChestCard, int], chest_counts: tuple[int, ...],
        chest_poison: tuple[int, ...], supply: int, suit_masks: tuple[int, ...],
    ) -> None:
        self.config = config
        self.players = players
        self.hand_size = hand_size
        self.face_down_gems = face_down_gems
        self.deck = deck
        self.icons = icons
        self.poison_of = poison_of
        self.poison_cards = poison_cards
        self.potion_cards = potion_cards
        self.type_masks = type_masks
        self.chest_cards = chest_cards
        self.chest_index = chest_index
        self.chest_counts = chest_counts
        self.chest_poison = chest_poison
        self.supply = supply
        self.suit_masks = suit_masks
        self.chest_outcomes = {}

    def __repr__(self) -> str:
        return f"<Tables of {self.config!r}>"

    def centre_poisons(self, chest_centre: tuple[int, ...]) -> list[int]:
        """Return how many chest poison cards of each poison type lie in the centre (K21)."""
        counts = [0] * len(self.type_masks)
        for kind, count in enumerate(chest_centre):
            if count:
                counts[self.chest_poison[kind]] += count
        return counts

    def poison_counts(self, uncovered: int, centre: list[int]) -> list[int]:
        """Return a seat's count of each poison type (K15): its uncovered poison cards
        (``uncovered``, a mask) of the type plus ``centre``, the centre's chest poison cards
        of the type (:meth:`centre_poisons`; none for a seat out of the round: POISON-3)."""
        return [(uncovered & m).bit_count() + c
                for m, c in zip(self.type_masks, centre, strict=True)]

    def chest_list(self, counts: tuple[int, ...]) -> tuple[ChestCard, ...]:
        """Return the chest cards of ``counts`` (a count per kind of :attr:`chest_cards`)."""
        return tuple(c for c, n in zip(self.chest_cards, counts, strict=True) for _ in range(n))

    def __reduce__(self) -> tuple[object, ...]:
        return (tables_for, (self.config,))


@functools.lru_cache(maxsize=64)
def tables_for(config: GameConfig) -> Tables:
    """Return the lookup tables of a config (cached)."""
    ed = config.edition
    types = ed.poison_types
    deck = 0
    for c in CARDS:
        if c.rank in config.ranks:
            deck |= c.bit
    icons = [0] * NUM_CARDS
    for card, n in ed.gem_icons:
        icons[card.index] = n
    poison_of = [-1] * NUM_CARDS
    type_masks = [0] * len(types)
    for card, t in ed.poisons:
        poison_of[card.index] = types.index(t)
        type_masks[types.index(t)] |= card.bit
    potions = 0
    for card in ed.potions:
        potions |= card.bit
    return Tables(
        config=config,
        players=config.players,
        hand_size=config.hand_size,
        face_down_gems=config.face_down_gems,
        deck=deck,
        icons=tuple(icons),
        poison_of=tuple(poison_of),
        poison_cards=sum(c.bit for c, _ in ed.poisons),
        potion_cards=potions,
        type_masks=tuple(type_masks),
        chest_cards=tuple(c for c, _ in ed.chest),
        chest_index={c: i for i, (c, _) in enumerate(ed.chest)},
        chest_counts=tuple(n for _, n in ed.chest),
        chest_poison=tuple(
            types.index(c.poison) if c.poison is not None else -1 for c, _ in ed.chest
        ),
        supply=ed.supply_total,
        suit_masks=tuple(s.mask for s in Suit),
    )
