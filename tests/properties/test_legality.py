"""Legal and illegal actions over whole games: every legal action applies; every illegal one
raises IllegalActionError, saying which rule excludes it, and leaves the state as it was; apply
accepts exactly what legal_actions lists (INFO-2, DEAL-1)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shock_rules import (
    Action,
    ActionKind,
    GameConfig,
    IllegalActionError,
    Phase,
    State,
    Status,
    Suit,
    Variant,
    apply,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
    seats_to_act,
)
from strategies import configs, game_steps, random_step

from ._support import (
    GAME_EXAMPLES,
    GAME_HEALTH_CHECKS,
    VARIANTS,
    game_settings,
    targeted_illegal,
    universe,
)


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



# -- apply accepts exactly what legal_actions lists -------------------------------------------

#: The action kinds each phase takes (K35 for decisions, K6 for chance).
_TAKES = {
    Phase.DEAL: {ActionKind.DEAL}, Phase.TRUMP: {ActionKind.TRUMP},
    Phase.LEADER: {ActionKind.LEADER}, Phase.COVER: {ActionKind.COVER},
    Phase.PLAY: {ActionKind.PLAY, ActionKind.WITHDRAW, ActionKind.DOWN},
    Phase.CHEST: {ActionKind.CHEST}, Phase.CHEST_CHOICE: {ActionKind.REVEAL, ActionKind.STOP},
    Phase.OVER: set(),
}

#: What the game waits for, by phase: the reason given for an action of another kind.
_WAITS = {
    Phase.DEAL: "chance deals a card", Phase.TRUMP: "chance reveals the trump card",
    Phase.LEADER: "chance chooses the first leader", Phase.CHEST: "chance reveals a chest card",
    Phase.COVER: "must choose a poison card", Phase.CHEST_CHOICE: "must choose 'reveal' or 'stop'",
    Phase.OVER: "the game is over",
}


def _lead(state: State) -> Suit | None:
    """The suit of the trick's first face-up card (K8), read here from the plays."""
    return next((p.card.suit for p in state.trick if p.face_up and p.card is not None), None)


def refusal_reason(state: State, action: Action) -> tuple[str, int | None]:
    """Return the words the message of an illegal ``action`` must hold (the rule that excludes
    it, worked out from the state's fields) and the seat the error must name."""
    phase, kind, seat = state.phase, action.kind, state.actor
    card = action.card
    if kind not in _TAKES[phase]:
        if phase is Phase.PLAY:
            return ("must play a card face up or withdraw" if state.status[seat] is Status.IN
                    else "is out of the round and must play a card face down"), None
        return _WAITS[phase], None
    if phase is Phase.PLAY:
        assert card is not None
        if not state.hand_masks[seat] & card.bit:
            return f"seat {seat} does not hold {card}", seat  # INFO-2: only its own cards
        if state.status[seat] is not Status.IN:  # WITHDRAW-3: face down only
            return f"seat {seat} is out of the round ({state.status[seat]})", seat
        if kind is ActionKind.DOWN:
            return f"seat {seat} is in the round: play a card face up or withdraw", seat
        return f"seat {seat} must follow {_lead(state)}", seat  # TRICK-3
    if phase in (Phase.DEAL, Phase.TRUMP):
        return f"{card} is not in the dungeon deck", None  # DEAL-1
    if phase is Phase.COVER:
        assert card is not None
        if not state.poison_masks[seat] & card.bit:
            return f"seat {seat} has no poison card {card} in front of it", seat
        return f"seat {seat} {card} is already covered", seat
    if phase is Phase.LEADER:
        return f"there is no seat {action.seat} with {state.config.players} players", None
    assert phase is Phase.CHEST
    return f"no {action.chest_card} card is left in the chest deck", None


def check_gate(state: State, actions: tuple[Action, ...]) -> None:
    """Check that ``apply`` accepts each action iff ``legal_actions`` lists it, also when the
    acting seat is named, and that each refusal names its rule."""
    legal = set(legal_actions(state))
    acting = seats_to_act(state)
    for seat in range(state.config.players):
        assert legal_actions(state, seat) == (legal_actions(state) if seat in acting else ())
    for a in actions:
        try:
            apply(state, a)
        except IllegalActionError as exc:
            assert a not in legal, f"{a} is listed but refused: {exc}"
            reason, named = refusal_reason(state, a)
            assert str(exc).startswith(f"'{a}' is illegal: "), str(exc)
            assert reason in str(exc), f"{str(exc)!r} does not say {reason!r}"
            assert exc.action is a and exc.seat == named
        else:
            assert a in legal, f"{a} is accepted but not listed"
        for seat in acting:  # named for the acting seat: the same verdict
            try:
                apply(state, a, seat=seat)
            except IllegalActionError:
                assert a not in legal_actions(state, seat)
            else:
                assert a in legal_actions(state, seat)


@pytest.mark.rule("INFO-2")
@pytest.mark.rule("DEAL-1")
@pytest.mark.rule("TRICK-3")
@pytest.mark.rule("WITHDRAW-3")
@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=max(4, GAME_EXAMPLES // 8), deadline=None,
          suppress_health_check=GAME_HEALTH_CHECKS)
@given(config=st.data(), seed=st.integers(0, 2**32 - 1), odds=st.sampled_from([2, 8, 30]))
def test_apply_accepts_exactly_the_legal_actions_over_whole_games(
    variant: Variant, config: st.DataObject, seed: int, odds: int
) -> None:
    game: GameConfig = config.draw(configs(variant=variant), label="config")
    actions = universe(game)  # every action the notation can write, and a foreign chest card
    rng = random.Random(seed)
    state = new_game(game)
    while not is_terminal(state):
        check_gate(state, actions)
        state = random_step(state, rng, odds)
    check_gate(state, actions)
