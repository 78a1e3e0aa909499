"""Number cards, suits and their text notation (``7H``, ``10S``, ``11C``).

A number card is one of 44: ranks 1-11 in four suits (rulebook, Components). Internally a card
is also an index 0-43 (suit-major) and a bit in an ``int`` bitmask, which is how hands and piles
are stored in :class:`~shock_rules.State`; the 44 :class:`Card` objects are interned, so
``Card(7, Suit.HEARTS) is Card.parse("7H")``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final

import attrs

from .. import _pictures
from .._errors import InvalidNotationError, quoted
from .bits import iter_bits

__all__ = ["Card", "Suit", "cards_of", "mask_of", "parse_card"]

RANKS: Final = 11
NUM_CARDS: Final = 44


class Suit(enum.IntEnum):
    """The four suits, in the rulebook's order (hearts, spades, diamonds, clubs)."""

    HEARTS = 0
    SPADES = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """The one-letter notation: ``H``, ``S``, ``D`` or ``C``."""
        return "HSDC"[self]

    @property
    def mask(self) -> int:
        """The bitmask of the 11 cards of this suit."""
        return 0x7FF << (RANKS * self)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Return the suit named by a letter (``"H"``) or a word (``"hearts"``), in any case,
        with surrounding spaces allowed; raise :class:`InvalidNotationError` otherwise."""
        if isinstance(text, str) and text.isascii():
            found = _SUIT_NAMES.get(text.strip().upper())
            if found is not None:
                return found
        raise InvalidNotationError(f"invalid suit {quoted(text)}: expected one of H, S, D, C")

    def __str__(self) -> str:
        return self.name.lower()


_SUIT_NAMES: Final = {k: s for s in Suit for k in (s.letter, s.name)}


def _suit(value: Suit | int) -> Suit:
    """Return the suit of a :class:`Suit` or its number 0-3 (a card's suit converter)."""
    if type(value) is Suit:
        return value
    if type(value) is not int or not 0 <= value < 4:
        raise InvalidNotationError(f"invalid suit {quoted(value)}: expected a Suit or 0-3")
    return Suit(value)


def _check_rank(instance: object, attribute: object, value: int) -> None:
    if type(value) is not int or not 1 <= value <= RANKS:
        raise InvalidNotationError(f"invalid rank {quoted(value)}: expected an integer 1-11")


@attrs.frozen(repr=False, order=False, cache_hash=True)
class Card:
    """A number card: a rank 1-11 and a suit.

    >>> Card.parse("7H")
    Card.parse('7H')
    >>> str(Card(10, Suit.SPADES))
    '10S'
    """

    #: The number printed on the card, 1-11.
    rank: int = attrs.field(validator=_check_rank)
    #: The card's suit.
    suit: Suit = attrs.field(converter=_suit)
    #: The card's index 0-43 (suit-major); used for ordering and bitmasks.
    index: int = attrs.field(init=False, eq=False)
    #: ``1 << index``.
    bit: int = attrs.field(init=False, eq=False)

    def __attrs_post_init__(self) -> None:
        index = self.suit * RANKS + self.rank - 1
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "bit", 1 << index)

    def __new__(cls, rank: int, suit: Suit | int) -> Card:
        # Interning: each of the 44 cards exists once, so identity checks and dict lookups
        # on the hot path are cheap. The arguments' types are checked first: ``True`` equals
        # ``1`` as a key, and attrs' __init__ would then write it into the interned card.
        if type(rank) is not int:
            raise InvalidNotationError(f"invalid rank {quoted(rank)}: expected an integer 1-11")
        if type(suit) is not Suit and type(suit) is not int:
            raise InvalidNotationError(f"invalid suit {quoted(suit)}: expected a Suit or 0-3")
        try:
            return _INTERNED[(rank, suit)]
        except KeyError:
            return super().__new__(cls)

    def __getnewargs__(self) -> tuple[int, int]:
        return (self.rank, int(self.suit))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Return the card written as rank then suit letter: ``7H``, ``10S``, ``11C``."""
        return parse_card(text)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """Return the card with the given index 0-43; raise :class:`InvalidNotationError`
        for anything else."""
        if type(index) is not int or not 0 <= index < NUM_CARDS:
            raise InvalidNotationError(f"invalid card index {quoted(index)}: expected 0-43")
        return CARDS[index]

    def __str__(self) -> str:
        return f"{self.rank}{self.suit.letter}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def _repr_svg_(self) -> str | None:
        """Jupyter shows the card as a picture (:func:`shock_rules.svg.card`)."""
        return _pictures.picture(self)

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index


_INTERNED: dict[tuple[int, int], Card] = {}
CARDS: Final[tuple[Card, ...]] = tuple(
    Card(rank, suit) for suit in Suit for rank in range(1, RANKS + 1)
)
for _c in CARDS:
    _INTERNED[(_c.rank, _c.suit)] = _c
    _INTERNED[(_c.rank, int(_c.suit))] = _c
_BY_TEXT: Final[dict[str, Card]] = {str(c): c for c in CARDS}


def parse_card(text: str) -> Card:
    """Return the card written as ``<rank><suit letter>``; raise :class:`InvalidNotationError`.

    The notation is ASCII: a rank ``1``-``11`` in ASCII digits, then ``H``, ``S``, ``D`` or
    ``C`` in either case; spaces around it are ignored. Nothing else is read as a card (no
    other digits, no letters that only look like these or turn into them in upper case).

    >>> parse_card("11c")
    Card.parse('11C')
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"invalid card {quoted(text)}: expected text such as '7H'")
    card = _BY_TEXT.get(text.strip().upper()) if text.isascii() else None
    if card is None:
        raise InvalidNotationError(
            f"invalid card {quoted(text)}: expected a rank 1-11 then a suit letter H, S, D or C"
        )
    return card


def cards_of(mask: int) -> tuple[Card, ...]:
    """Return the cards of a bitmask, in index order."""
    return tuple(CARDS[i] for i in iter_bits(mask))


def mask_of(cards: Iterable[Card]) -> int:
    """Return the bitmask of some cards."""
    m = 0
    for c in cards:
        m |= c.bit
    return m
