"""Properties of Melvin Vs. Kronk's engine over random play (Hypothesis)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shock_rules import melvin as mk

players = st.integers(min_value=3, max_value=6)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def walk(n: int, seed: int) -> Iterator[mk.State]:
    """Every state of one random game, chance steps sampled."""
    rng = random.Random(seed)
    state = mk.new_game(mk.GameConfig(players=n))
    yield state
    while not state.over:
        if mk.is_chance(state):
            outcomes = mk.chance_outcomes(state)
            assert sum(p for _, p in outcomes) == 1
            state = mk.resolve_chance(state, rng)
        else:
            acts = mk.legal_actions(state)
            useful = [a for a in acts if not isinstance(a, mk.Slap) or mk.match_shows(state)]
            state = mk.apply(state, rng.choice(useful if rng.random() < 0.9 else acts))
        yield state


def settle(state: mk.State, rng: random.Random) -> mk.State:
    while mk.is_chance(state):
        state = mk.resolve_chance(state, rng)
    return state


@pytest.mark.rule("MK-CONS-1")
@settings(max_examples=40, deadline=None)
@given(players, seeds)
def test_every_card_is_conserved(n: int, seed: int) -> None:
    for state in walk(n, seed):
        mk.check_state(state)


@pytest.mark.rule("MK-SLAP-3")
@settings(max_examples=40, deadline=None)
@given(players, seeds)
def test_a_wrong_slap_never_gains_gems(n: int, seed: int) -> None:
    rng = random.Random(seed)
    for state in walk(n, seed):
        if state.over or mk.is_chance(state) or state.award or mk.match_shows(state):
            continue
        for seat in range(n):
            if state.in_game[seat]:
                after = settle(mk.apply(state, mk.Slap(seat)), rng)
                assert mk.scores(after) == mk.scores(state)
                assert after.gems == state.gems


@pytest.mark.rule("MK-SLAP-2")
@pytest.mark.rule("MK-ACT-1")
@settings(max_examples=40, deadline=None)
@given(players, seeds)
def test_the_first_slap_applied_after_a_match_wins(n: int, seed: int) -> None:
    rng = random.Random(seed)
    for state in walk(n, seed):
        if state.over or mk.is_chance(state) or state.award or not mk.match_shows(state):
            continue
        for seat in range(n):
            if not state.in_game[seat]:
                continue
            after = settle(mk.apply(state, mk.Slap(seat)), rng)
            assert after.award is not None and after.award.winner == seat
            assert not [a for a in mk.legal_actions(after) if isinstance(a, mk.Slap)]


@pytest.mark.rule("MK-INFO-1")
@settings(max_examples=40, deadline=None)
@given(players, seeds)
def test_a_view_shows_no_hidden_card(n: int, seed: int) -> None:
    for state in walk(n, seed):
        for viewer in [None, *range(n)]:
            v = mk.view(state, viewer)
            for t in range(n):
                may = state.over or t == viewer or (
                    t in state.oculos and viewer is not None and "Oculos" in state.gems[viewer])
                assert (v.gems[t] is not None) == may
            private = {e.text for e in state.events
                       if e.seats is not None and viewer not in e.seats}
            assert not private & set(v.events)
            if v.award_drawn is not None:
                assert state.award is not None and viewer == state.award.taker
