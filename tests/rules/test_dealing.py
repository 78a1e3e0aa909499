"""Dealing, the trump card and chance decisions (DEAL-*)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import shock_rules as sr

from ._helpers import SUITS_4, mask


@pytest.mark.rule("DEAL-1")
def test_every_random_event_is_a_chance_decision_with_exact_probabilities() -> None:
    rng = random.Random(5)
    state = sr.new_game(sr.GameConfig(players=4))
    seen = set()
    while sr.is_chance(state):
        assert sr.current_player(state) is sr.CHANCE
        outcomes = sr.chance_outcomes(state)
        assert tuple(a for a, _ in outcomes) == sr.legal_actions(state)
        assert all(isinstance(p, Fraction) for _, p in outcomes)
        assert sum(p for _, p in outcomes) == 1
        seen.add(state.phase)
        state = sr.apply(state, sr.sample_chance(state, rng))
    assert seen == {sr.Phase.DEAL, sr.Phase.TRUMP, sr.Phase.LEADER}
    # Player decisions are not chance decisions.
    assert sr.chance_outcomes(state) == ()


@pytest.mark.rule("DEAL-1")
def test_no_deck_order_exists_the_same_actions_give_the_same_state() -> None:
    config = sr.GameConfig(players=3)
    actions: list[sr.Action] = []
    final = sr.random_playout(config, random.Random(11), actions)
    replayed = sr.new_game(config)
    for a in actions:
        replayed = sr.apply(replayed, a)
    assert replayed == final and hash(replayed) == hash(final)
    # The undealt cards are an unordered set: two deals of the same hands in a different
    # order give equal states.
    first = sr.deal_hands(sr.new_game(sr.GameConfig(first_leader=0)), list(SUITS_4), trump="10C")
    second = sr.new_game(sr.GameConfig(first_leader=0))
    queues = [list(reversed(sr.parse_cards(h))) for h in SUITS_4]
    while second.phase is sr.Phase.DEAL:
        second = sr.apply(second, sr.Action.deal(queues[second.actor].pop(0)))
    second = sr.apply(second, sr.Action.parse("trump 10C"))
    assert first == second and hash(first) == hash(second)
    assert first.pool_mask == mask("10H 10S 10D")


@pytest.mark.rule("DEAL-2")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_cards_are_dealt_one_at_a_time_round_the_table_uniformly(players: int) -> None:
    state = sr.new_game(sr.GameConfig(players=players, first_leader=0))
    total = state.deck_size
    size = 8 if players == 5 else 9
    for k in range(players * size):
        # The seat with the fewest cards, lowest first: seat k mod n.
        assert (state.phase, state.actor) == (sr.Phase.DEAL, k % players)
        outcomes = sr.chance_outcomes(state)
        assert len(outcomes) == total - k
        assert {p for _, p in outcomes} == {Fraction(1, total - k)}
        action = outcomes[k % len(outcomes)][0]
        assert action.card is not None
        state = sr.apply(state, action)
        assert state.events == (sr.CardDealt(k % players, action.card),)
    assert state.phase is sr.Phase.TRUMP


@pytest.mark.rule("DEAL-3")
def test_after_dealing_one_undealt_card_is_revealed_as_trump() -> None:
    state = sr.new_game(sr.GameConfig(players=4, first_leader=1))
    while state.phase is sr.Phase.DEAL:
        state = sr.apply(state, sr.legal_actions(state)[0])
    # Always dealing the first outcome (the lowest card, hearts first) gives away hearts,
    # spades and diamonds 1-10 and clubs 1-6: clubs 7-10 are left.
    left = state.pool_mask
    assert left == mask("7C 8C 9C 10C")
    assert sr.chance_outcomes(state) == tuple(
        (sr.Action.parse(f"trump {c}"), Fraction(1, 4)) for c in ("7C", "8C", "9C", "10C")
    )
    state = sr.apply(state, sr.Action.parse("trump 8C"))
    assert state.events == (sr.TrumpRevealed(sr.Card.parse("8C")),)
    assert state.trump == sr.Card.parse("8C") and state.trump_suit is sr.Suit.CLUBS
    assert state.pool_mask == mask("7C 9C 10C")
    assert (state.phase, state.actor) == (sr.Phase.PLAY, 1)
