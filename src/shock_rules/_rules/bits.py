"""Small helpers on bitmasks and per-seat tuples, used throughout the rule modules (internal).

They live in a module of their own, apart from the classes of ``cards`` and ``draft``, so that
the compiled build (``hatch_build.py``) can compile them: the compiled rule modules and bots
then call them as native functions instead of through Python calls (the search and the
playouts call them tens of thousands of times a second).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

_T = TypeVar("_T")


def iter_bits(mask: int) -> Iterator[int]:
    """Yield the indexes of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def put(values: tuple[_T, ...], seat: int, value: _T) -> tuple[_T, ...]:
    """Return ``values`` with the entry of ``seat`` replaced by ``value``."""
    changed = [*values]  # a list round trip: twice as fast as slicing a 3-5 tuple
    changed[seat] = value
    return tuple(changed)
