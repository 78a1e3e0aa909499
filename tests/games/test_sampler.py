"""Every game's chance sampler against its own ``chance_outcomes``: a chi-square test of
goodness of fit, with a fixed seed, over every kind of chance step of each game.

Each test draws ``DRAWS`` outcomes from one chance state and compares their counts with the
exact probabilities (cells expected fewer than 5 times are pooled). A correct sampler fails
one test with probability ``ALPHA`` (one in a million) for a random seed; with the fixed seeds
here the result is the same on every run, and the whole file's false-alarm rate for a fresh
choice of seeds is at most ``ALPHA`` times the number of tests (about 3 in 100,000). A sampler
that ignores the probabilities -- Melvin's used to draw the first outcome every time -- fails
by a p-value far below any of these.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest

from shock_rules import games

from ._support import NAMES, walk

#: Draws per chance state tested.
DRAWS = 4000
#: The chance of a false alarm per test (a correct sampler failing).
ALPHA = 1e-6
#: Chance states tested per kind of chance step.
PER_KIND = 3
#: The kinds of chance step of each game (its states' phase while chance acts).
KINDS = {"shock": {"DEAL", "TRUMP", "LEADER", "CHEST"},
         "melvin": {"DEAL", "TURN_UP", "MOVE", "GEM", "PENALTY"}}


def _upper_gamma(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x): a series below a + 1, a
    continued fraction above (Lentz's method), as Numerical Recipes computes it."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return 1.0 - total * math.exp(log_front)
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    i = 1
    while True:
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            return h * math.exp(log_front)
        i += 1


def p_value(counts: Sequence[int], probs: Sequence[Fraction]) -> float:
    """Return the chi-square test's p-value of ``counts`` against the probabilities ``probs``
    (cells expected fewer than 5 times pooled into one)."""
    n = sum(counts)
    cells: list[tuple[float, float]] = []
    pooled_o = pooled_e = 0.0
    for o, p in zip(counts, probs, strict=True):
        e = n * float(p)
        if e < 5:
            pooled_o, pooled_e = pooled_o + o, pooled_e + e
        else:
            cells.append((o, e))
    if pooled_e > 0:
        cells.append((pooled_o, pooled_e))
    if len(cells) < 2:
        return 1.0
    stat = sum((o - e) ** 2 / e for o, e in cells)
    return _upper_gamma((len(cells) - 1) / 2, stat / 2)


def test_the_p_value_matches_known_quantiles() -> None:
    # chi-square quantiles: 3.841 at p = 0.05 with 1 degree of freedom, 18.307 at 0.05 with 10
    # (two cells expected 50 each give 1 degree of freedom).
    assert _upper_gamma(0.5, 3.841 / 2) == pytest.approx(0.05, abs=1e-4)
    assert _upper_gamma(5.0, 18.307 / 2) == pytest.approx(0.05, abs=1e-4)
    assert p_value([50, 50], [Fraction(1, 2)] * 2) == pytest.approx(1.0)
    assert p_value([70, 30], [Fraction(1, 2)] * 2) < 1e-4


def _chance_states(name: str) -> dict[str, list[Any]]:
    """Up to PER_KIND chance states of each kind, each of another shape, from random games."""
    game = games.get(name)
    found: dict[str, list[Any]] = {}
    shapes: set[tuple[str, int]] = set()
    for seed in range(200):
        players = game.players[seed % len(game.players)]
        for state in walk(game, players, seed):
            if not game.is_chance(state):
                continue
            kind = state.phase.name
            shape = (kind, len(game.chance_outcomes(state)))
            if len(found.setdefault(kind, [])) < PER_KIND and shape not in shapes:
                found[kind].append(state)
                shapes.add(shape)
        if all(len(found.get(k, [])) == PER_KIND for k in KINDS[name]):
            break
    return found


def _test(name: str, sample: Callable[[Any, random.Random], Any]) -> list[float]:
    game = games.get(name)
    p_values = []
    found = _chance_states(name)
    assert set(found) == KINDS[name]  # every kind of chance step is tested
    for kind, states in sorted(found.items()):
        for i, state in enumerate(states):
            outcomes = game.chance_outcomes(state)
            rng = random.Random(f"sampler:{name}:{kind}:{i}")
            drawn = Counter(sample(state, rng) for _ in range(DRAWS))
            assert set(drawn) <= {a for a, _ in outcomes}
            p_values.append(p_value([drawn[a] for a, _ in outcomes], [p for _, p in outcomes]))
    return p_values


@pytest.mark.parametrize("name", NAMES)
def test_the_sampler_draws_each_outcome_with_its_probability(name: str) -> None:
    p_values = _test(name, games.get(name).sample_chance)
    assert min(p_values) > ALPHA, p_values


@pytest.mark.parametrize("name", NAMES)
def test_the_test_catches_a_sampler_that_ignores_the_probabilities(name: str) -> None:
    game = games.get(name)

    def first(state: Any, rng: random.Random) -> Any:
        return game.chance_outcomes(state)[0][0]  # Melvin's old sampler, in effect

    # Every kind with more than one outcome is caught, far below the false-alarm rate.
    caught = [p for p in _test(name, first) if p < 1.0]
    assert caught and max(caught) < ALPHA
