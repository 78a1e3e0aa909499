"""The chest challenge (CHEST-*, DEAL-4)."""

from __future__ import annotations

from fractions import Fraction

import pytest

import shock_rules as sr

from ._helpers import SUITS_4, acts, edition_with, events, run, start


def _chest(text: str) -> sr.ChestCard:
    return sr.ChestCard.parse(text)


@pytest.mark.rule("CHEST-1")
def test_the_trick_winner_must_reveal_a_chest_card() -> None:
    state = run(start(SUITS_4, "10C"), "play 8H; play 8S; play 8D; play 9C")
    assert (state.phase, state.actor, sr.current_player(state)) == (sr.Phase.CHEST, 3, sr.CHANCE)
    # Only chest outcomes: there is no "stop" before the first card.
    assert all(a.kind is sr.ActionKind.CHEST for a in sr.legal_actions(state))
    with pytest.raises(sr.IllegalActionError, match="'stop' is illegal: chance reveals a chest"):
        sr.apply(state, sr.Action.parse("stop"))


@pytest.mark.rule("CHEST-2")
def test_a_gem_card_pays_large_icons_to_the_revealer_and_small_ones_to_the_others() -> None:
    state = run(start(SUITS_4, "10C"), "play 8H; play 8S; play 8D; play 9C; chest G1/1")
    assert events(state, sr.ChestRevealed) == [sr.ChestRevealed(3, _chest("G1/1"), 1)]
    assert state.on_bag == (1, 1, 1, 1)
    assert state.chest_discard_cards == (_chest("G1/1"),)
    assert state.chest_deck_size == 23
    state = run(state, "reveal; chest G3/0")
    # A card with no small icons gives the others nothing.
    assert state.on_bag == (1, 1, 1, 4)
    assert state.supply == 280 - 7


@pytest.mark.rule("CHEST-3")
@pytest.mark.rule("POISON-3")
def test_a_poison_card_pays_the_revealer_one_gem_goes_to_the_centre_and_poisons_all() -> None:
    state = run(start(SUITS_4, "10C"), "play 8H; play 8S; play 8D; play 9C")
    state = sr.apply(state, sr.Action.parse("chest P:spider"))
    assert [type(e) for e in state.events] == [sr.ChestRevealed, sr.GemsGained]
    assert state.on_bag == (0, 0, 0, 1)
    assert state.chest_centre_cards == (_chest("P:spider"),)
    assert state.chest_discard_cards == ()
    assert [state.poison_count(s, "spider") for s in range(4)] == [1, 1, 1, 1]
    assert (state.phase, state.actor) == (sr.Phase.CHEST_CHOICE, 3)


@pytest.mark.rule("CHEST-4")
def test_the_revealer_may_reveal_up_to_two_more_cards_each_a_separate_choice() -> None:
    state = run(start(SUITS_4, "10C"), "play 8H; play 8S; play 8D; play 9C; chest G1/1")
    assert sr.legal_actions(state) == acts("reveal; stop")
    state = run(state, "reveal; chest G2/1")
    assert (state.phase, sr.legal_actions(state)) == (sr.Phase.CHEST_CHOICE, acts("reveal; stop"))
    state = run(state, "reveal")
    state = sr.apply(state, sr.Action.parse("chest G4/0"))
    # After the third card there is no choice: the winner leads trick 2.
    assert events(state, sr.ChestRevealed) == [sr.ChestRevealed(3, _chest("G4/0"), 3)]
    assert (state.phase, state.trick_number, state.actor) == (sr.Phase.PLAY, 2, 3)
    assert state.on_bag == (2, 2, 2, 7)
    assert state.chest_deck_size == 21


@pytest.mark.rule("CHEST-4")
def test_stopping_ends_the_challenge() -> None:
    state = run(start(SUITS_4, "10C"), "play 8H; play 8S; play 8D; play 9C; chest G3/0")
    state = sr.apply(state, sr.Action.parse("stop"))
    assert state.events == (sr.ChestStopped(3),)
    assert (state.phase, state.trick_number, state.leader) == (sr.Phase.PLAY, 2, 3)
    assert state.on_bag == (0, 0, 0, 3)


@pytest.mark.rule("DEAL-4")
def test_chest_reveals_are_uniform_over_the_cards_left_with_identical_cards_grouped() -> None:
    state = run(start(SUITS_4, "10C"), "play 8H; play 8S; play 8D; play 9C")
    # K32/K31: 6 G1/1, 6 G2/1, 4 G3/0, 2 G4/0 and 2 poison cards of each type, of 24.
    assert dict(sr.chance_outcomes(state)) == {
        sr.Action.parse("chest G1/1"): Fraction(6, 24),
        sr.Action.parse("chest G2/1"): Fraction(6, 24),
        sr.Action.parse("chest G3/0"): Fraction(4, 24),
        sr.Action.parse("chest G4/0"): Fraction(2, 24),
        sr.Action.parse("chest P:jellyfish"): Fraction(2, 24),
        sr.Action.parse("chest P:bee"): Fraction(2, 24),
        sr.Action.parse("chest P:spider"): Fraction(2, 24),
    }
    state = run(state, "chest G4/0; reveal; chest G4/0; reveal")
    # Both G4/0 are gone: 22 cards left, and G4/0 is no longer an outcome.
    outcomes = dict(sr.chance_outcomes(state))
    assert sr.Action.parse("chest G4/0") not in outcomes
    assert outcomes[sr.Action.parse("chest G1/1")] == Fraction(6, 22)
    assert sum(outcomes.values()) == 1
    with pytest.raises(sr.IllegalActionError, match="no G4/0 card is left in the chest deck"):
        sr.apply(state, sr.Action.parse("chest G4/0"))


@pytest.mark.rule("CHEST-5")
def test_an_empty_chest_deck_reveals_nothing_and_is_refilled_only_between_rounds() -> None:
    # An edition whose chest deck holds a single card (K23 can happen with other editions).
    edition = edition_with(chest=[{"kind": "gem", "large": 1, "small": 0, "count": 1}])
    state = run(
        start(SUITS_4, "10C", edition=edition, variant=sr.Variant.SIMPLIFIED),
        "play 8H; play 8S; play 8D; play 9C",
    )
    assert sr.legal_actions(state) == acts("chest G1/0")
    state = run(state, "chest G1/0")
    # The deck is empty: no optional reveal is offered.
    assert (state.phase, state.trick_number, state.chest_deck_size) == (sr.Phase.PLAY, 2, 0)
    # Trick 2: the winner reveals nothing; the next trick starts at once.
    state = sr.apply(run(state, "play 8C; play 7H; play 7S"), sr.Action.parse("play 7D"))
    assert events(state, sr.ChestRevealed) == []
    assert (state.phase, state.trick_number, state.actor) == (sr.Phase.PLAY, 3, 3)
    assert state.on_bag == (0, 0, 0, 1)
    # End the round (everyone withdraws): the chest card is reshuffled for round 2.
    state = run(state, "withdraw 6C; withdraw 6H; withdraw 6S; withdraw 6D")
    assert state.round == 2 and state.chest_deck_size == 1
