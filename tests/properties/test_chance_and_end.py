"""Chance decisions and the end of the game over whole games (DEAL-1, DEAL-3, DEAL-4,
SETUP-6, GAME-1).

The step bound. A round has at most: ``n * H`` deal steps (every hand refilled from empty;
``H`` is the hand size), one trump reveal, ``n * H`` plays (each play takes a card from a hand
and a hand is never refilled during the round), and for each of its at most ``H`` tricks at most
five chest steps (the mandatory reveal plus two optional ones, each optional one after a
reveal/stop decision: 3 + 2) and the cover choices, at most one per poison number card in play
(a covered card stays covered until the round ends). The first round adds the first-leader
chance decision. Hence ``5 * (2*n*H + 1 + 5*H + P) + 1`` steps, where ``P`` is the number of
poison number cards in play; for the default edition that is 606 steps with 4 players.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shock_rules import (
    CHANCE,
    ActionKind,
    GameConfig,
    Phase,
    State,
    Variant,
    chance_outcomes,
    current_player,
    is_chance,
    is_terminal,
    legal_actions,
    new_game,
)
from strategies import configs, game_steps

from ._support import VARIANTS, deck_mask, game_settings

ROUNDS = 5  # rulebook, How to Play


def step_bound(config: GameConfig) -> int:
    """Return the most steps a game can take (see the module docstring)."""
    n = config.players
    size = 8 if n == 5 else 9
    deck = deck_mask(config)
    poisons = sum(1 for card, _ in config.edition.poisons if deck & card.bit)
    return ROUNDS * (2 * n * size + 1 + 5 * size + poisons) + 1


def test_the_bound_for_the_default_edition() -> None:
    # 4 players, 9 cards: 5 * (72 + 1 + 45 + 3) + 1, worked out by hand.
    assert step_bound(GameConfig(players=4)) == 606


def check_chance(state: State) -> None:
    """Check the chance outcomes of one state against K6."""
    outcomes = chance_outcomes(state)
    if not is_chance(state):
        assert outcomes == ()
        return
    assert current_player(state) is CHANCE
    acts = [a for a, _ in outcomes]
    assert tuple(acts) == legal_actions(state) and len(set(acts)) == len(acts)
    assert all(a.is_chance for a in acts)
    probs = [p for _, p in outcomes]
    assert all(isinstance(p, Fraction) and p > 0 for p in probs)
    assert sum(probs) == 1  # exactly: Fractions, no rounding
    if state.phase in (Phase.DEAL, Phase.TRUMP):
        # Uniform over the undealt cards (DEAL-2, DEAL-3).
        held = 0
        for h in state.hand_masks:
            held |= h
        undealt = deck_mask(state.config) & ~held  # everything is gathered before dealing
        assert sum(a.card.bit for a in acts if a.card) == undealt
        assert set(probs) == {Fraction(1, state.pool_mask.bit_count())}
    elif state.phase is Phase.CHEST:
        # Uniform over the chest cards left, identical cards grouped (DEAL-4).
        left = dict(zip((c for c, _ in state.config.edition.chest), state.chest_deck,
                        strict=True))
        total = sum(left.values())
        for a, p in outcomes:
            assert a.chest_card is not None
            assert p == Fraction(left[a.chest_card], total)
    else:
        # The first leader: uniform over the seats (SETUP-6).
        assert state.phase is Phase.LEADER and state.round == 1
        assert state.config.first_leader is None
        assert [a.seat for a in acts] == list(range(state.config.players))


@pytest.mark.rule("DEAL-1")
@pytest.mark.rule("DEAL-3")
@pytest.mark.rule("DEAL-4")
@pytest.mark.rule("SETUP-6")
@pytest.mark.parametrize("variant", VARIANTS)
@game_settings()
@given(data=st.data())
def test_chance_probabilities_are_exact_and_sum_to_one(
    variant: Variant, data: st.DataObject
) -> None:
    config: GameConfig = data.draw(configs(variant=variant), label="config")
    leaders = 0
    for step in game_steps(data, config):
        check_chance(step.state)
        if step.action.kind is ActionKind.LEADER:
            leaders += 1
        if step.action.kind is ActionKind.TRUMP:
            assert step.next.trump == step.action.card
            assert not step.next.pool_mask & step.action.card.bit  # type: ignore[union-attr]
    assert leaders == (1 if config.first_leader is None else 0)


@pytest.mark.rule("GAME-1")
@pytest.mark.rule("INFO-2")
@pytest.mark.parametrize("variant", VARIANTS)
@game_settings()
@given(data=st.data())
def test_every_game_ends_within_the_bound_and_only_the_end_has_no_action(
    variant: Variant, data: st.DataObject
) -> None:
    config: GameConfig = data.draw(configs(variant=variant), label="config")
    bound = step_bound(config)
    steps = 0
    last = new_game(config)
    for step in game_steps(data, config):
        steps += 1
        assert steps <= bound, f"the game is still running after {bound} steps"
        assert legal_actions(step.state) and not is_terminal(step.state)
        assert current_player(step.state) is not None
        last = step.next
    assert is_terminal(last) and last.phase is Phase.OVER and last.round == ROUNDS
    assert legal_actions(last) == () and chance_outcomes(last) == ()
    assert current_player(last) is None
