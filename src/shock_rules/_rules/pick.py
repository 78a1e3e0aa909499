"""Picking the entries of a card-indexed table for the cards of a bitmask (internal).

Legal actions and chance outcomes are built from a hand or the dungeon deck, both 44-bit
masks (``shock_rules._rules.cards``). A picker splits the mask by suit into four 11-bit chunks and
keeps, per suit, the tuple of entries of every chunk it has met, so a pick is at most four
list look-ups and three concatenations, with no per-card Python work.

:func:`pick` serves the many tables of chance outcomes (one per deck size) without keeping a
cache per table: it picks with an ``itemgetter`` per (suit, chunk), shared by all tables.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Final, TypeVar

from .cards import RANKS

_T = TypeVar("_T")

_CHUNK: Final = (1 << RANKS) - 1


def picker(table: tuple[_T, ...]) -> Callable[[int], tuple[_T, ...]]:
    """Return a function mapping a card mask to the entries of ``table`` (indexed by card
    index) for its cards, in card order."""
    # One list per suit, indexed by chunk (2,048 slots, 16 KiB): a list index is several
    # times cheaper than a dict look-up on this path.
    caches: tuple[list[tuple[_T, ...] | None], ...] = tuple(
        [None] * (_CHUNK + 1) for _ in range(4)
    )
    c0, c1, c2, c3 = caches

    def fill(suit: int, chunk: int) -> tuple[_T, ...]:
        base = RANKS * suit
        got = caches[suit][chunk] = tuple(
            table[base + r] for r in range(RANKS) if chunk >> r & 1
        )
        return got

    def pick(mask: int) -> tuple[_T, ...]:
        chunk = mask & _CHUNK
        out = (c0[chunk] or fill(0, chunk)) if chunk else ()
        chunk = mask >> RANKS & _CHUNK
        if chunk:
            out += c1[chunk] or fill(1, chunk)
        chunk = mask >> 2 * RANKS & _CHUNK
        if chunk:
            out += c2[chunk] or fill(2, chunk)
        chunk = mask >> 3 * RANKS
        if chunk:
            out += c3[chunk] or fill(3, chunk)
        return out

    return pick


_Getter = Callable[[tuple[object, ...]], tuple[object, ...]]
_GETTERS: Final[tuple[list[_Getter | None], ...]] = tuple([None] * (_CHUNK + 1) for _ in range(4))


def _getter(suit: int, chunk: int) -> _Getter:
    indexes = [RANKS * suit + r for r in range(RANKS) if chunk >> r & 1]
    get: _Getter
    if len(indexes) == 1:  # itemgetter of one index returns the item, not a tuple
        only = indexes[0]

        def one(seq: tuple[object, ...]) -> tuple[object, ...]:
            return (seq[only],)

        get = one
    else:
        get = itemgetter(*indexes)
    _GETTERS[suit][chunk] = get
    return get


def pick(table: tuple[_T, ...], mask: int) -> tuple[_T, ...]:
    """Return the entries of ``table`` (indexed by card index) for the cards of ``mask``, in
    card order."""
    g0, g1, g2, g3 = _GETTERS
    got: tuple[object, ...] = ()
    chunk = mask & _CHUNK
    if chunk:
        got = (g0[chunk] or _getter(0, chunk))(table)
    chunk = mask >> RANKS & _CHUNK
    if chunk:
        got += (g1[chunk] or _getter(1, chunk))(table)
    chunk = mask >> 2 * RANKS & _CHUNK
    if chunk:
        got += (g2[chunk] or _getter(2, chunk))(table)
    chunk = mask >> 3 * RANKS
    if chunk:
        got += (g3[chunk] or _getter(3, chunk))(table)
    return got  # type: ignore[return-value]  # the getters pick entries of ``table``
