"""Exact chance probabilities whose ``float()`` is precomputed.

A module of its own, left out of the compiled build: :class:`Probability` subclasses
:class:`fractions.Fraction` and sets an instance slot in ``__new__``, which mypyc cannot
compile; the engine (compiled) imports it from here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

__all__ = ["Probability", "fraction"]


class Probability(Fraction):
    """An exact probability: a :class:`fractions.Fraction` whose ``float()`` is precomputed.

    Callers that sample with float weights convert every outcome's probability; the stock
    conversion goes through ``numbers.Rational`` properties and is the costliest step of a
    random playout, so each probability keeps its float.
    """

    # ``__float__`` is a slot holding a bound method of the precomputed float that returns the
    # float itself: the interpreter calls it without running Python code, which measured 30%
    # faster than a method returning a stored float (benchmarks/playouts.py converts ~1,700
    # per game). It is ``conjugate``, a plain built-in method, rather than the float's own
    # ``__float__`` (a slot wrapper): 2-6 ns less per ``float()``, about a tenth.
    __slots__ = ("__float__",)

    def __new__(cls, numerator: int, denominator: int) -> Probability:
        self = super().__new__(cls, numerator, denominator)
        self.__float__ = (numerator / denominator).conjugate  # type: ignore[method-assign]
        return self

    def __reduce__(self) -> tuple[type[Probability], tuple[int, int]]:
        return (type(self), (self.numerator, self.denominator))


_FRACTIONS: Final[dict[tuple[int, int], Probability]] = {}


def fraction(num: int, den: int) -> Probability:
    """Return the probability ``num/den``, made once per value and then shared."""
    f = _FRACTIONS.get((num, den))
    if f is None:
        f = _FRACTIONS[(num, den)] = Probability(num, den)
    return f
