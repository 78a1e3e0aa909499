"""Legal and illegal actions over whole games: every legal action applies; every illegal one
raises IllegalActionError and leaves the state as it was (INFO-2, DEAL-1)."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from shock_rules import (
    Action,
    ActionKind,
    Card,
    ChestCard,
    GameConfig,
    IllegalActionError,
    Phase,
    State,
    Status,
    Variant,
    apply,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
)
from strategies import configs, game_steps

from ._support import VARIANTS, game_settings

_CARDS = tuple(Card.from_index(i) for i in range(44))
_CARD_KINDS = (ActionKind.PLAY, ActionKind.WITHDRAW, ActionKind.DOWN, ActionKind.COVER,
               ActionKind.DEAL, ActionKind.TRUMP)
_CTORS = {ActionKind.PLAY: Action.play, ActionKind.WITHDRAW: Action.withdraw,
          ActionKind.DOWN: Action.down, ActionKind.COVER: Action.cover,
          ActionKind.DEAL: Action.deal, ActionKind.TRUMP: Action.trump}
#: A chest card no test edition holds (large icons 9).
_ALIEN_CHEST = ChestCard.parse("G9/9")


def universe(config: GameConfig) -> tuple[Action, ...]:
    """Return every action that can be written for this config's edition, and one more."""
    acts = [_CTORS[k](c) for k in _CARD_KINDS for c in _CARDS]
    acts += [Action.chest(c) for c, _ in config.edition.chest] + [Action.chest(_ALIEN_CHEST)]
    acts += [Action.leader(seat) for seat in range(5)]
    return (*acts, Action.reveal(), Action.stop())


def targeted_illegal(state: State) -> list[Action]:
    """Return actions that break one specific rule in ``state`` (none of them legal)."""
    n = state.config.players
    out: list[Action] = []
    held = state.hand_masks[state.actor] if 0 <= state.actor < n else 0
    in_play = state.tables.deck
    not_held = [c for c in _CARDS if in_play & c.bit and not held & c.bit]
    some_held = [c for c in _CARDS if held & c.bit]
    anywhere = [c for c in _CARDS if in_play & c.bit]
    if state.phase is Phase.PLAY:
        out += [Action.play(not_held[0]), Action.withdraw(not_held[-1]), Action.down(not_held[0])]
        if state.status[state.actor] is Status.IN:
            out.append(Action.down(some_held[0]))  # in the round: face up or withdraw
            lead = state.lead_suit
            if lead is not None and any(c.suit is lead for c in some_held):
                out += [Action.play(c) for c in some_held if c.suit is not lead]  # K9
        else:
            out += [Action.play(some_held[0]), Action.withdraw(some_held[0])]  # K12
        # Chance outcomes at a player's decision.
        out += [Action.deal(anywhere[0]), Action.trump(anywhere[0]), Action.leader(0),
                Action.reveal(), Action.cover(anywhere[0])]
        out += [Action.chest(c) for c, _ in state.config.edition.chest[:1]]
    elif state.phase in (Phase.DEAL, Phase.TRUMP, Phase.LEADER, Phase.CHEST):
        # Decisions at a chance node, and outcomes that chance cannot produce now.
        out += [Action.play(anywhere[0]), Action.withdraw(anywhere[-1]),
                Action.down(anywhere[0]), Action.cover(anywhere[0]), Action.reveal(),
                Action.stop(), Action.chest(_ALIEN_CHEST)]
        dealt = [c for c in anywhere if not state.pool_mask & c.bit]
        if dealt:
            out += [Action.deal(dealt[0]), Action.trump(dealt[-1])]
        out += [Action.deal(c) for c in _CARDS if not in_play & c.bit][:1]
        if n < 5:
            out.append(Action.leader(n))
        for (card, _), left in zip(state.config.edition.chest, state.chest_deck, strict=True):
            if not left:
                out.append(Action.chest(card))
    elif state.phase is Phase.COVER:
        out += [Action.cover(c) for c in anywhere
                if not state.poison_masks[state.actor] & ~state.covered_masks[state.actor]
                & c.bit][:3]
        out += [Action.reveal(), Action.play(anywhere[0]), Action.deal(anywhere[0])]
    elif state.phase is Phase.CHEST_CHOICE:
        out += [Action.play(anywhere[0]), Action.cover(anywhere[0]), Action.leader(0)]
    else:  # OVER: nothing is legal any more
        out += [Action.play(anywhere[0]), Action.deal(anywhere[0]), Action.reveal(),
                Action.stop(), Action.leader(0)]
        out += [Action.chest(c) for c, _ in state.config.edition.chest[:1]]
    return out


def assert_rejected(state: State, action: Action, seat: int | None = None) -> None:
    """Assert that ``apply`` rejects the action."""
    with pytest.raises(IllegalActionError):
        apply(state, action, seat=seat)


def check_state_actions(
    state: State, data: st.DataObject, probes: st.SearchStrategy[list[Action]]
) -> None:
    """Check the legal and illegal actions of one state; the state must be unchanged after
    every rejected action (equal to a copy taken before, and with the same hash)."""
    copy = attrs.evolve(state)
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

