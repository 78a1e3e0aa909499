"""Properties of Melvin Vs. Kronk's engine over random play (Hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shock_rules import IllegalActionError
from shock_rules import melvin as mk

from ._helpers import walk

players = st.integers(min_value=3, max_value=6)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def settle(state: mk.State, rng: random.Random) -> mk.State:
    return mk.resolve_chance(state, rng)


@pytest.mark.rule("MK-CONS-1")
@pytest.mark.rule("MK-TURN-2")
@settings(max_examples=40, deadline=None)
@given(players, seeds)
def test_every_state_of_random_play_meets_every_condition(n: int, seed: int) -> None:
    for state in walk(n, seed, careful=0.8):
        mk.check_state(state)
        assert sum(p for _, p in mk.chance_outcomes(state)) in (0, 1)
        assert mk.is_chance(state) == state.phase.is_chance
        # The seat to move is the seat that may turn up a card, and only it (MK-TURN-1).
        flips = [a.seat for a in mk.legal_actions(state) if isinstance(a, mk.Flip)]
        assert flips == ([] if state.phase is not mk.Phase.PLAY or state.to_move is None
                         else [state.to_move])


@pytest.mark.rule("MK-ACT-1")
@settings(max_examples=25, deadline=None)
@given(players, seeds)
def test_apply_accepts_exactly_the_legal_actions(n: int, seed: int) -> None:
    rng = random.Random(seed)
    for state in walk(n, seed):
        legal = set(mk.legal_actions(state))
        assert legal == {a for s in range(n) for a in mk.legal_actions(state, s)} | {
            a for a, _ in mk.chance_outcomes(state)}
        assert set(mk.seats_to_act(state)) == {a.actor for a in legal if a.actor is not None}
        probes = [mk.Flip(s) for s in range(n)] + [mk.Slap(s) for s in range(n)] + [
            mk.Reveal(1), mk.DrawGem("G1"), mk.DrawPenalty("Mao"), mk.Orcolar(rng.randrange(n)),
            mk.Toalha(rng.randrange(n), rng.randrange(n)), mk.Award(0, "G1", 1)]
        for a in probes:
            if a in legal:
                mk.apply(state, a)
            else:
                with pytest.raises(IllegalActionError, match="is illegal: "):
                    mk.apply(state, a)


@pytest.mark.rule("MK-SLAP-3")
@settings(max_examples=30, deadline=None)
@given(players, seeds)
def test_a_wrong_slap_never_gains_gems(n: int, seed: int) -> None:
    rng = random.Random(seed)
    for state in walk(n, seed):
        if state.phase is not mk.Phase.PLAY or mk.match_shows(state):
            continue
        for seat in range(n):
            if state.in_game[seat]:
                after = settle(mk.apply(state, mk.Slap(seat)), rng)
                assert mk.scores(after) == mk.scores(state)
                assert after.gems == state.gems


@pytest.mark.rule("MK-SLAP-2")
@pytest.mark.rule("MK-ACT-1")
@settings(max_examples=30, deadline=None)
@given(players, seeds)
def test_the_first_slap_applied_after_a_match_wins(n: int, seed: int) -> None:
    rng = random.Random(seed)
    for state in walk(n, seed):
        if state.phase is not mk.Phase.PLAY or not mk.match_shows(state):
            continue
        for seat in range(n):
            if not state.in_game[seat]:
                continue
            after = settle(mk.apply(state, mk.Slap(seat)), rng)
            assert after.award is not None and after.award.winner == seat
            assert not [a for a in mk.legal_actions(after) if isinstance(a, mk.Slap)]


@pytest.mark.rule("MK-INFO-1")
@pytest.mark.rule("MK-INFO-2")
@settings(max_examples=40, deadline=None)
@given(players, seeds)
def test_a_view_shows_no_hidden_card(n: int, seed: int) -> None:
    for state in walk(n, seed):
        for viewer in [None, *range(n)]:
            v = mk.view(state, viewer) if viewer is not None else mk.spectator_view(state)
            for t in range(n):
                may = state.over or t == viewer or (
                    t in state.oculos and viewer is not None and state.in_game[viewer]
                    and "Oculos" in state.gems[viewer])  # M26: a holder still in the game
                assert (v.gems[t] is not None) == may
            for e in v.events:
                assert not isinstance(e, mk.CardMoved)  # M30: nobody sees a moved card
                if isinstance(e, mk.GemsSeen | mk.GemKept):
                    assert e.seat == viewer
                if isinstance(e, mk.GemGiven):
                    assert viewer in (e.seat, e.receiver)
                if isinstance(e, mk.GemTaken):
                    assert viewer in (e.seat, e.target)
            if v.award_drawn is not None:
                assert state.award is not None
                assert viewer in (state.award.taker, state.award.winner)
