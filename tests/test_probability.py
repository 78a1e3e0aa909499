"""Exact chance probabilities: a Fraction whose float() is precomputed gives the same values as
a plain Fraction."""

from __future__ import annotations

import pickle
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from shock_rules._rules.probability import Probability, fraction


@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=1, max_value=10**6))
def test_a_probability_is_the_fraction_and_converts_to_its_float(num: int, den: int) -> None:
    p = fraction(num, den)
    assert isinstance(p, Fraction) and p == Fraction(num, den)
    assert type(float(p)) is float and float(p) == num / den == float(Fraction(num, den))
    back = pickle.loads(pickle.dumps(p))
    assert type(back) is Probability and back == p and float(back) == float(p)


def test_probabilities_are_made_once_per_value() -> None:
    assert fraction(1, 3) is fraction(1, 3)
    assert fraction(2, 6) == fraction(1, 3) and float(fraction(2, 6)) == float(fraction(1, 3))
