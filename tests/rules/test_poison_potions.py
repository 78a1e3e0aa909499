"""Poison cards, poison counts and potions (POISON-*, POTION-*)."""

from __future__ import annotations

import pytest

import shock_rules as sr
from shock_rules._rules.state import unchecked_replace

from ._helpers import SUITS_4, acts, collect, events, mask, run, start

# Throughout: SUITS_4 with clubs as trump, so seat 3 wins every trick it plays a club in, and
# 5C and 7C (the potions) are seat 3's trumps.


def _card(text: str) -> sr.Card:
    return sr.Card.parse(text)


@pytest.mark.rule("POISON-1")
def test_the_poison_cards_are_the_sevens_of_hearts_spades_and_diamonds_of_three_types() -> None:
    state = start(SUITS_4, "10C")
    assert state.tables.poison_cards == mask("7H 7S 7D")
    state = run(state, "play 7H; play 7S; play 7D; play 9C")
    assert events(state, sr.PoisonTaken) == [
        sr.PoisonTaken(3, _card("7H"), "bee"),
        sr.PoisonTaken(3, _card("7S"), "jellyfish"),
        sr.PoisonTaken(3, _card("7D"), "spider"),
    ]
    # Three different types: each count is 1, so no shock.
    assert [state.poison_count(3, t) for t in ("bee", "jellyfish", "spider")] == [1, 1, 1]
    assert state.status[3] is sr.Status.IN and state.phase is sr.Phase.CHEST


@pytest.mark.rule("POISON-1")
@pytest.mark.rule("POTION-1")
def test_the_seven_of_clubs_is_a_potion_not_a_poison_and_other_cards_are_neither() -> None:
    state = start(SUITS_4, "10C")
    assert state.tables.potion_cards == mask("5C 7C")
    state = run(state, "play 6H; play 6S; play 6D; play 7C")
    assert events(state, sr.PotionTaken) == [sr.PotionTaken(3, _card("7C"))]
    assert events(state, sr.PoisonTaken) == []
    assert state.potion_masks == (0, 0, 0, mask("7C"))
    assert state.discard_mask == mask("6H 6S 6D")
    state = run(state, "chest G3/0; stop; play 6C; play 5H; play 5S; play 5D")
    # 6C is neither a poison nor a potion: it goes to the discard pile with the rest.
    assert state.potion_masks == (0, 0, 0, mask("7C"))
    assert state.discard_mask == mask("6H 6S 6D 6C 5H 5S 5D")


@pytest.mark.rule("POISON-2")
@pytest.mark.rule("POISON-3")
def test_the_count_is_uncovered_poison_cards_plus_chest_poisons_in_the_centre() -> None:
    # Seat 3 takes 7H and 5C together: the potion covers 7H at once, so bee counts 0.
    state = run(start(SUITS_4, "10C"), "play 7H; play 8S; play 8D; play 5C")
    assert state.poisons(3) == (sr.PoisonCard(_card("7H"), "bee", True, _card("5C")),)
    assert state.poison_count(3, "bee") == 0
    # A chest bee in the centre counts 1 for everyone still in the round, revealer included;
    # the covered 7H still counts zero.
    state = run(state, "chest P:bee")
    assert state.chest_centre_cards == (sr.ChestCard.parse("P:bee"),)
    assert [state.poison_count(s, "bee") for s in range(4)] == [1, 1, 1, 1]
    assert [state.poison_count(s, "spider") for s in range(4)] == [0, 0, 0, 0]
    assert state.status == (sr.Status.IN,) * 4


@pytest.mark.rule("POTION-2")
@pytest.mark.rule("SHOCK-1")
def test_a_potion_covers_a_poison_taken_in_the_same_trick_preventing_a_shock() -> None:
    # A chest bee is in the centre (everyone at bee 1); then seat 3 wins 7H with 5C.
    state = run(start(SUITS_4, "10C"), "play 8H; play 8S; play 8D; play 9C; chest P:bee; stop")
    state = run(state, "play 5C; play 7H; play 6S; play 6D")
    assert events(state, sr.PoisonCovered) == [sr.PoisonCovered(3, _card("7H"), _card("5C"))]
    assert state.poison_count(3, "bee") == 1
    assert state.stored_potions(3) == 0
    assert state.status[3] is sr.Status.IN
    assert (state.phase, state.actor) == (sr.Phase.CHEST, 3)


@pytest.mark.rule("POTION-3")
def test_a_potion_without_a_poison_is_stored_and_covers_the_next_poison_taken() -> None:
    state = run(start(SUITS_4, "10C"), "play 8H; play 8S; play 8D; play 5C")
    assert events(state, sr.PoisonCovered) == []
    assert state.stored_potions(3) == 1
    state = run(state, "chest G3/0; stop; play 9C; play 7H; play 9S; play 9D")
    assert [type(e) for e in state.events[-3:]] == [
        sr.TrickWon, sr.PoisonTaken, sr.PoisonCovered,
    ]
    assert events(state, sr.PoisonCovered) == [sr.PoisonCovered(3, _card("7H"), _card("5C"))]
    assert state.stored_potions(3) == 0
    assert state.poison_count(3, "bee") == 0


@pytest.mark.rule("POTION-3")
@pytest.mark.rule("POTION-4")
def test_with_as_many_potions_as_poisons_all_are_covered_and_the_rest_stays_stored() -> None:
    state = run(
        start(SUITS_4, "10C"),
        "play 8H; play 8S; play 8D; play 5C; chest G3/0; stop;"
        "play 7C; play 6H; play 6S; play 6D; chest G3/0; stop",
    )
    assert state.stored_potions(3) == 2
    # Two stored potions, one poison: no decision, 7H covered, one potion left.
    state = run(state, "play 9C; play 7H; play 5S; play 5D")
    assert state.phase is sr.Phase.CHEST
    assert state.stored_potions(3) == 1
    # POTION-6: of two stored potions, 5C is laid first.
    assert state.poisons(3) == (sr.PoisonCard(_card("7H"), "bee", True, _card("5C")),)
    state = run(state, "chest G3/0; stop; play 6C; play 5H; play 7S; play 4D")
    assert events(state, sr.PoisonCovered) == [sr.PoisonCovered(3, _card("7S"), _card("7C"))]
    assert state.stored_potions(3) == 0


@pytest.mark.rule("POTION-4")
def test_with_fewer_potions_than_poisons_the_winner_chooses_which_to_cover() -> None:
    state = run(start(SUITS_4, "10C"), "play 8H; play 8S; play 8D; play 9C; chest G3/0; stop")
    state = run(state, "play 7C; play 7H; play 7S; play 7D")
    # One potion (7C), three uncovered poison cards: seat 3 decides, nothing covered yet.
    assert (state.phase, sr.current_player(state)) == (sr.Phase.COVER, 3)
    assert events(state, sr.PoisonCovered) == []
    assert sr.legal_actions(state) == acts("cover 7H; cover 7S; cover 7D")
    with pytest.raises(sr.IllegalActionError, match="'cover 7C' is illegal: seat 3 has no poison"):
        sr.apply(state, sr.Action.parse("cover 7C"))
    state = run(state, "cover 7S")
    assert events(state, sr.PoisonCovered) == [sr.PoisonCovered(3, _card("7S"), _card("7C"))]
    assert state.poisons(3) == (
        sr.PoisonCard(_card("7H"), "bee", False),
        sr.PoisonCard(_card("7S"), "jellyfish", True, _card("7C")),
        sr.PoisonCard(_card("7D"), "spider", False),
    )
    # No count at 2: the winner goes on to the chest challenge.
    assert (state.phase, state.actor) == (sr.Phase.CHEST, 3)


def _cover_choice_with_a_bee_in_the_centre() -> sr.State:
    # Trick 1: seat 3 wins and reveals a chest bee (everyone at bee 1; seat 3 gains 1 gem).
    state = run(start(SUITS_4, "10C"), "play 8H; play 8S; play 8D; play 9C; chest P:bee; stop")
    # Trick 2: seat 3 takes 7H (bee), 7S (jellyfish) and one potion, 5C.
    return run(state, "play 5C; play 7H; play 7S; play 6D")


@pytest.mark.rule("POTION-4")
@pytest.mark.rule("SHOCK-1")
def test_the_shock_check_follows_the_cover_choice() -> None:
    state = _cover_choice_with_a_bee_in_the_centre()
    # While the choice is pending the bee count stands at 2 (centre + 7H), without a shock.
    assert state.phase is sr.Phase.COVER and state.status[3] is sr.Status.IN
    assert state.poison_count(3, "bee") == 2
    assert state.on_bag == (0, 0, 0, 1)

    saved = sr.apply(state, sr.Action.parse("cover 7H"))
    assert events(saved, sr.Shocked) == []
    assert (saved.poison_count(3, "bee"), saved.poison_count(3, "jellyfish")) == (1, 1)
    assert (saved.phase, saved.actor) == (sr.Phase.CHEST, 3)

    shocked = sr.apply(state, sr.Action.parse("cover 7S"))
    assert events(shocked, sr.Shocked) == [sr.Shocked(3, "bee", 1)]
    assert shocked.status[3] is sr.Status.SHOCKED
    # No chest challenge: the next seat clockwise still in the round (seat 0) leads.
    assert (shocked.phase, shocked.leader, shocked.actor) == (sr.Phase.PLAY, 0, 0)


@pytest.mark.rule("POTION-5")
def test_potions_never_cover_chest_poison_cards() -> None:
    # Seat 3 stores 5C, then reveals a chest bee: the potion stays stored, the count is 1.
    state = run(start(SUITS_4, "10C"), "play 8H; play 8S; play 8D; play 5C; chest P:bee")
    assert state.stored_potions(3) == 1
    assert state.covered_masks == (0, 0, 0, 0)
    assert state.poison_count(3, "bee") == 1
    # A second chest bee shocks everyone in the round, seat 3 too although it keeps a potion.
    state = run(state, "reveal; chest P:bee")
    assert events(state, sr.Shocked) == [
        sr.Shocked(0, "bee", 0), sr.Shocked(1, "bee", 0), sr.Shocked(2, "bee", 0),
        sr.Shocked(3, "bee", 2),
    ]


def _placed(poisons: tuple[sr.PoisonCard, ...]) -> list[tuple[str, str | None]]:
    """Return each poison card with the potion lying on it, in notation."""
    return [(str(p.card), None if p.covered_by is None else str(p.covered_by)) for p in poisons]


def _seven_of_clubs_on_the_bee() -> sr.State:
    """Trick 1: seat 3 takes 7H with 7C, its only potion, which is laid on 7H (POTION-2)."""
    state, seen = collect(start(SUITS_4, "10C"), "play 7H; play 8S; play 8D; play 7C")
    assert [e.potion for e in seen if isinstance(e, sr.PoisonCovered)] == [_card("7C")]
    assert _placed(state.poisons(3)) == [("7H", "7C")]
    return run(state, "chest G3/0; stop")


@pytest.mark.rule("POTION-6")
def test_a_potion_laid_on_a_poison_stays_there_when_the_other_potion_is_taken() -> None:
    # Issue 44, item 8. Trick 2: seat 3 leads 5C and takes it back, with no poison card: 7C
    # stays on 7H and 5C is stored (the placement once showed 5C on 7H and 7C stored).
    state = run(_seven_of_clubs_on_the_bee(), "play 5C; play 6H; play 6S; play 6D")
    assert events(state, sr.PoisonCovered) == []
    assert state.potion_masks[3] == mask("5C 7C") and state.stored_potions(3) == 1
    assert _placed(state.poisons(3)) == [("7H", "7C")]
    for seat in range(4):
        seen = sr.view(state, seat).seats[3]
        assert _placed(seen.poisons) == [("7H", "7C")] and seen.stored_potions == 1
    assert _placed(sr.spectator_view(state).seats[3].poisons) == [("7H", "7C")]
    # Trick 3: the stored 5C is laid on the new 7S; 7C still lies on 7H.
    state, seen_events = collect(state, "chest G3/0; stop; play 9C; play 5H; play 7S; play 5D")
    assert [(e.card, e.potion) for e in seen_events if isinstance(e, sr.PoisonCovered)] == [
        (_card("7S"), _card("5C"))]
    assert _placed(state.poisons(3)) == [("7H", "7C"), ("7S", "5C")]
    assert _placed(sr.view(state, 0).seats[3].poisons) == [("7H", "7C"), ("7S", "5C")]


@pytest.mark.rule("POTION-4")
@pytest.mark.rule("POTION-6")
def test_the_cover_choice_lays_the_waiting_potion_and_the_laid_one_stays() -> None:
    # Trick 2: seat 3 takes 5C, 7S and 7D with 7C on 7H: one waiting potion, two uncovered
    # poison cards: it chooses 7D, and 5C is laid there; 7C stays on 7H.
    state = run(_seven_of_clubs_on_the_bee(), "play 5C; play 6H; play 7S; play 7D")
    assert (state.phase, state.actor) == (sr.Phase.COVER, 3)
    assert sr.legal_actions(state) == acts("cover 7S; cover 7D")
    state = run(state, "cover 7D")
    assert [e.potion for e in events(state, sr.PoisonCovered)] == [_card("5C")]
    assert _placed(state.poisons(3)) == [("7H", "7C"), ("7S", None), ("7D", "5C")]
    assert _placed(sr.view(state, 0).seats[3].poisons) == _placed(state.poisons(3))


@pytest.mark.rule("POTION-4")
@pytest.mark.rule("POTION-6")
def test_a_stored_and_a_new_potion_are_laid_in_card_order_on_the_poisons_chosen() -> None:
    # Trick 1: seat 3 stores 7C. Trick 2: it takes 5C, 7H, 7S and 7D: two waiting potions for
    # three poison cards, so it chooses twice; 5C is laid first, then 7C (POTION-6).
    state = run(start(SUITS_4, "10C"), "play 8H; play 8S; play 8D; play 7C; chest G3/0; stop")
    assert state.stored_potions(3) == 1
    state = run(state, "play 5C; play 7H; play 7S; play 7D")
    assert (state.phase, state.actor) == (sr.Phase.COVER, 3)
    state = run(state, "cover 7D")
    assert [(e.card, e.potion) for e in events(state, sr.PoisonCovered)] == [
        (_card("7D"), _card("5C"))]
    assert (state.phase, state.actor) == (sr.Phase.COVER, 3)
    state = run(state, "cover 7H")
    assert [(e.card, e.potion) for e in events(state, sr.PoisonCovered)] == [
        (_card("7H"), _card("7C"))]
    # The first potion stays where it was laid (it once moved to 7H, the first in card order).
    assert _placed(state.poisons(3)) == [("7H", "7C"), ("7S", None), ("7D", "5C")]


@pytest.mark.rule("POTION-3")
@pytest.mark.rule("POTION-6")
def test_with_enough_potions_the_waiting_ones_are_laid_in_card_order_on_poisons_in_card_order(
) -> None:
    # Trick 1: seat 3 stores 7C. Trick 2: it takes 5C and 7S: both potions wait for one
    # poison card; 5C, first in card order, is laid on it and 7C stays stored.
    state = run(start(SUITS_4, "10C"), "play 8H; play 8S; play 8D; play 7C; chest G3/0; stop")
    state = run(state, "play 5C; play 6H; play 7S; play 6D")
    assert events(state, sr.PoisonCovered) == [sr.PoisonCovered(3, _card("7S"), _card("5C"))]
    assert state.stored_potions(3) == 1
    # Trick 3: it takes 7H and 7D and no potion: one stored potion for two poison cards, so it
    # chooses; 7H gets 7C, and 5C stays on 7S.
    state = run(state, "chest G3/0; stop; play 9C; play 7H; play 9S; play 7D; cover 7H")
    assert _placed(state.poisons(3)) == [("7H", "7C"), ("7S", "5C"), ("7D", None)]


@pytest.mark.rule("POTION-6")
@pytest.mark.rule("SHOCK-2")
def test_the_placement_stays_through_a_shock_and_is_cleared_with_the_round() -> None:
    # 7C lies on 7H; seat 3 takes 7S uncovered, then reveals a chest jellyfish: its jellyfish
    # count reaches 2 and it is shocked. Its cards stay in front of it, 7C still on 7H.
    lying = run(_seven_of_clubs_on_the_bee(), "play 9C; play 6H; play 7S; play 6D")
    shocked = run(lying, "chest P:jellyfish")
    assert events(shocked, sr.Shocked) == [sr.Shocked(3, "jellyfish", 4)]
    assert shocked.round == 1 and shocked.status[3] is sr.Status.SHOCKED
    assert _placed(shocked.poisons(3)) == _placed(lying.poisons(3)) == [
        ("7H", "7C"), ("7S", None)]
    # Two chest bees shock everyone in the round instead: the round ends and its cards are
    # cleared with the placement (K26).
    cleared = run(_seven_of_clubs_on_the_bee(), "play 5C; play 6H; play 6S; play 6D;"
                  " chest P:bee; reveal; chest P:bee")
    assert cleared.round == 2 and cleared.potion_on_masks == (0, 0)
    assert cleared.poisons(3) == () and cleared.potions(3) == ()
    assert shocked.potion_on_masks == (0, mask("7H"))  # 5C lies on nothing, 7C on 7H


@pytest.mark.rule("POTION-6")
def test_the_placement_is_part_of_equality_and_the_hash() -> None:
    state = run(_seven_of_clubs_on_the_bee(), "play 5C; play 6H; play 6S; play 6D")
    other = unchecked_replace(state, potion_on_masks=(mask("7H"), 0))  # 5C on 7H instead
    sr.check_state(other)  # reachable too: 5C laid in trick 1, 7C stored in trick 2
    assert other != state and hash(other) != hash(state)
    assert sr.view(other, 0) != sr.view(state, 0)
    assert sr.PoisonCard(_card("7H"), "bee", True, _card("5C")) != \
        sr.PoisonCard(_card("7H"), "bee", True, _card("7C"))
    assert sr.PoisonCovered(3, _card("7H"), _card("5C")) != \
        sr.PoisonCovered(3, _card("7H"), _card("7C"))


@pytest.mark.rule("POTION-6")
def test_an_uncovered_poison_has_no_potion() -> None:
    state = run(start(SUITS_4, "10C"), "play 7H; play 8S; play 8D; play 9C")
    assert state.poisons(3) == (sr.PoisonCard(_card("7H"), "bee", False),)
    assert state.poisons(3)[0].covered_by is None
