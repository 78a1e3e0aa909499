"""Setting up a game (SETUP-*)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import shock_rules as sr
from shock_rules._rules.check import check_state


def _dealt(players: int) -> sr.State:
    """Return a game of ``players`` after the random deal and trump card (seeded)."""
    state = sr.new_game(sr.GameConfig(players=players, first_leader=0))
    return sr.resolve_chance(state, random.Random(players))


@pytest.mark.rule("SETUP-1")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_three_to_five_players_have_seats_zero_to_n_minus_one(players: int) -> None:
    state = sr.new_game(sr.GameConfig(players=players))
    assert state.players == players
    assert len(state.hand_masks) == len(state.status) == len(state.in_bag) == players
    assert sr.chance_outcomes(_dealt(players)) == ()


@pytest.mark.rule("SETUP-1")
@pytest.mark.parametrize("players", [0, 1, 2, 6, 7])
def test_any_other_player_count_is_a_config_error(players: int) -> None:
    with pytest.raises(sr.ConfigError, match=f"players must be 3, 4 or 5, not {players}"):
        sr.GameConfig(players=players)


@pytest.mark.rule("SETUP-2")
@pytest.mark.parametrize(
    ("players", "count", "ranks"),
    [(3, 36, range(2, 11)), (4, 40, range(1, 11)), (5, 44, range(1, 12))],
)
def test_the_cards_in_play_depend_on_the_player_count(
    players: int, count: int, ranks: range
) -> None:
    state = sr.new_game(sr.GameConfig(players=players))
    pool = [sr.Card.from_index(i) for i in range(44) if state.pool_mask >> i & 1]
    assert len(pool) == count == state.deck_size
    assert {c.rank for c in pool} == set(ranks)
    assert {c.suit for c in pool} == set(sr.Suit)
    # The first deal is uniform over exactly those cards.
    assert sr.legal_actions(state) == tuple(sr.Action.deal(c) for c in pool)


@pytest.mark.rule("SETUP-3")
@pytest.mark.parametrize(("players", "size", "left"), [(3, 9, 8), (4, 9, 3), (5, 8, 3)])
def test_hand_sizes(players: int, size: int, left: int) -> None:
    state = _dealt(players)
    check_state(state)
    assert [state.hand_size(s) for s in range(players)] == [size] * players
    # The rest minus the trump card is the dungeon deck: 36-27-1, 40-36-1, 44-40-1.
    assert state.deck_size == left
    assert state.trump is not None


@pytest.mark.rule("SETUP-5")
def test_the_chest_deck_holds_24_cards() -> None:
    state = sr.new_game(sr.GameConfig())
    deck = state.chest_deck_cards
    assert len(deck) == state.chest_deck_size == 24
    counts = {str(c): deck.count(c) for c in set(deck)}
    assert counts == {
        "G1/1": 6, "G2/1": 6, "G3/0": 4, "G4/0": 2,
        "P:jellyfish": 2, "P:bee": 2, "P:spider": 2,
    }
    assert sum(1 for c in deck if c.is_poison) == 6


@pytest.mark.rule("SETUP-6")
def test_the_first_leader_is_a_config_parameter() -> None:
    state = sr.new_game(sr.GameConfig(players=5, first_leader=3))
    state = sr.resolve_chance(state, random.Random(1))
    # No leader chance decision: seat 3 plays first once the trump card is revealed.
    assert (state.phase, state.leader, sr.current_player(state)) == (sr.Phase.PLAY, 3, 3)
    assert state.round_leader == 3


@pytest.mark.rule("SETUP-6")
def test_without_it_the_first_leader_is_a_uniform_chance_decision_after_the_trump() -> None:
    state = sr.new_game(sr.GameConfig(players=5))
    while state.phase is sr.Phase.DEAL:
        state = sr.apply(state, sr.legal_actions(state)[0])
    assert state.phase is sr.Phase.TRUMP
    state = sr.apply(state, sr.legal_actions(state)[0])
    assert (state.phase, sr.current_player(state)) == (sr.Phase.LEADER, sr.CHANCE)
    assert sr.chance_outcomes(state) == tuple(
        (sr.Action.parse(f"leader {s}"), Fraction(1, 5)) for s in range(5)
    )
    state = sr.apply(state, sr.Action.parse("leader 4"))
    assert state.events == (sr.LeaderChosen(4),)
    assert (state.phase, state.leader, state.round_leader, state.actor) == (
        sr.Phase.PLAY, 4, 4, 4,
    )
