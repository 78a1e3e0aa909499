"""Legal and illegal actions over whole games: every legal action applies; every illegal one
raises IllegalActionError and leaves the state as it was (INFO-2, DEAL-1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shock_rules import (
    Action,
    GameConfig,
    IllegalActionError,
    State,
    Variant,
    apply,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
)
from strategies import configs, game_steps

from ._support import VARIANTS, game_settings, targeted_illegal, universe


def assert_rejected(state: State, action: Action, seat: int | None = None) -> None:
    """Assert that ``apply`` rejects the action."""
    with pytest.raises(IllegalActionError):
        apply(state, action, seat=seat)


def check_state_actions(
    state: State, data: st.DataObject, probes: st.SearchStrategy[list[Action]]
) -> None:
    """Check the legal and illegal actions of one state; the state must be unchanged after
    every rejected action (equal to a copy taken before, and with the same hash)."""
    copy = state.replace()
    before = hash(state)
    legal = legal_actions(state)
    turn = current_player(state)
    assert len(set(legal)) == len(legal)
    for a in legal:  # every legal action applies, with or without naming the seat
        apply(state, a)
        if isinstance(turn, int):
            apply(state, a, seat=turn)
    for a in targeted_illegal(state):
        assert a not in legal, f"{a} was expected to be illegal"
        assert_rejected(state, a)
    # A few actions of the whole notation: legal exactly when apply accepts them.
    for a in data.draw(probes, label="probe"):
        if a in legal:
            apply(state, a)
        else:
            assert_rejected(state, a)
    # Acting for the wrong seat (or for a seat when chance or nobody must act).
    probe = legal[0] if legal else Action.reveal()
    for seat in range(state.config.players):
        if seat != turn:
            assert_rejected(state, probe, seat=seat)
    assert state == copy and hash(state) == before
    assert state.events == copy.events


@pytest.mark.rule("INFO-2")
@pytest.mark.rule("DEAL-1")
@pytest.mark.rule("TRICK-3")
@pytest.mark.rule("WITHDRAW-3")
@pytest.mark.parametrize("variant", VARIANTS)
@game_settings()
@given(data=st.data())
def test_legal_actions_apply_and_illegal_ones_are_rejected(
    variant: Variant, data: st.DataObject
) -> None:
    config: GameConfig = data.draw(configs(variant=variant), label="config")
    probes = st.lists(st.sampled_from(universe(config)), max_size=3)
    last = new_game(config)
    for step in game_steps(data, config):
        check_state_actions(step.state, data, probes)
        last = step.next
    assert is_terminal(last) and current_player(last) is None
    check_state_actions(last, data, probes)

