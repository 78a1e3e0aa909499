"""Playing a trick: order, lead suit, following suit, the winner, gems and cards (TRICK-*)."""

from __future__ import annotations

import pytest

import shock_rules as sr

from ._helpers import SUITS_3, SUITS_4, acts, cards, events, mask, run, start

# A 4-player deal where seat 2 holds no hearts and everyone else does. Undealt: 5D 6D 5C 6C.
MIXED = (
    "10H 8H 6H 4H 1S 3S 2D 9C 1C",
    "9H 7H 5H 2H 2S 4S 1D 10C 2C",
    "10S 8S 6S 9D 7D 4D 3D 8C 3C",
    "3H 1H 9S 7S 5S 10D 8D 7C 4C",
)


@pytest.mark.rule("TRICK-1")
def test_play_goes_clockwise_from_the_leader_and_wraps() -> None:
    state = start(MIXED, "5D", leader=2)
    seen = []
    for card in ("8C", "4C", "9C", "10C"):
        seen.append(sr.current_player(state))
        state = run(state, f"play {card}")
    assert seen == [2, 3, 0, 1]
    # Every seat played exactly one card: each hand went from 9 to 8.
    assert [state.hand_size(s) for s in range(4)] == [8, 8, 8, 8]


@pytest.mark.rule("TRICK-1")
@pytest.mark.rule("WITHDRAW-3")
def test_out_of_round_players_still_play_one_card_per_trick() -> None:
    state = run(start(SUITS_4, "10C"), "withdraw 9H; play 8S; play 8D; play 9C; chest G3/0; stop")
    # Trick 2 is led by seat 3 (the winner); seat 0 is out and must still play, face down.
    state = run(state, "play 8C")
    assert sr.current_player(state) == 0
    assert set(sr.legal_actions(state)) == {sr.Action.down(c) for c in state.hand(0)}
    state = run(state, "down 8H; play 7S; play 7D")
    assert [state.hand_size(s) for s in range(4)] == [7, 7, 7, 7]


@pytest.mark.rule("TRICK-2")
def test_the_lead_suit_is_set_by_the_first_face_up_card() -> None:
    state = start(MIXED, "5D")
    assert state.lead_suit is None
    state = run(state, "play 4H")
    assert state.lead_suit is sr.Suit.HEARTS
    # A later card of another suit does not change it.
    state = run(state, "play 9H; play 3D")
    assert state.lead_suit is sr.Suit.HEARTS


@pytest.mark.rule("TRICK-3")
def test_a_player_holding_the_lead_suit_must_follow_it_or_withdraw() -> None:
    state = run(start(MIXED, "5D"), "play 4H")
    hand = state.hand(1)
    assert sr.legal_actions(state) == acts("play 2H; play 5H; play 7H; play 9H") + tuple(
        sr.Action.withdraw(c) for c in hand
    )
    with pytest.raises(sr.IllegalActionError, match="'play 2S' is illegal: seat 1 must follow"):
        sr.apply(state, sr.Action.parse("play 2S"))


@pytest.mark.rule("TRICK-3")
def test_without_the_lead_suit_any_card_trumps_included_and_before_it_any_card() -> None:
    state = start(MIXED, "5D")
    # Before the lead suit is set the leader may play any card of its hand face up.
    plays = [a for a in sr.legal_actions(state) if a.kind is sr.ActionKind.PLAY]
    assert plays == [sr.Action.play(c) for c in state.hand(0)]
    state = run(state, "play 4H; play 9H")
    # Seat 2 holds no heart: every card of its hand may be played face up, trumps included.
    plays = [a for a in sr.legal_actions(state) if a.kind is sr.ActionKind.PLAY]
    assert plays == [sr.Action.play(c) for c in state.hand(2)]
    assert sr.Action.parse("play 3D") in plays
    state = run(state, "play 10S")
    # Not following shows the void publicly (recorded for views), hearts = bit 0.
    assert state.void_suits == (0, 0, 1, 0)


@pytest.mark.rule("TRICK-4")
def test_the_only_trump_wins_over_higher_cards_of_the_lead_suit() -> None:
    # Trump diamonds. 4H led, 9H followed, seat 2 (no hearts) trumps with 3D, 3H followed.
    state = run(start(MIXED, "5D"), "play 4H; play 9H; play 3D; play 3H")
    (won,) = events(state, sr.TrickWon)
    assert (won.seat, won.card) == (2, sr.Card.parse("3D"))
    # The winner (seat 2) now opens the chest.
    assert state.phase is sr.Phase.CHEST and state.actor == 2


@pytest.mark.rule("TRICK-4")
def test_the_highest_trump_wins_when_several_are_played() -> None:
    # Trump clubs; seats 1 and 3 both hold clubs and no hearts, and both trump a heart lead:
    # 8C beats 6C although 9H and 9D are higher ranks.
    hands = (
        "1H 2H 3H 4H 5H 6H 7H 8H 9H",
        "1S 2S 3S 4S 5S 6S 7S 8S 8C",
        "1D 2D 3D 4D 5D 6D 7D 8D 9D",
        "1C 2C 3C 4C 5C 6C 7C 9S 9C",
    )
    state = run(start(hands, "10C"), "play 9H; play 8C; play 9D; play 6C")
    (won,) = events(state, sr.TrickWon)
    assert (won.seat, won.card) == (1, sr.Card.parse("8C"))


@pytest.mark.rule("TRICK-4")
def test_without_trumps_the_highest_card_of_the_lead_suit_wins_not_a_higher_off_suit_card() -> None:
    # Trump diamonds, none played: 9H is the highest heart; 10S (seat 2, off suit) cannot win.
    state = run(start(MIXED, "5D"), "play 4H; play 9H; play 10S; play 3H")
    (won,) = events(state, sr.TrickWon)
    assert (won.seat, won.card) == (1, sr.Card.parse("9H"))


@pytest.mark.rule("TRICK-5")
@pytest.mark.rule("TRICK-7")
def test_face_up_gem_icons_put_gems_on_the_cards_and_the_winner_takes_them_onto_the_bag() -> None:
    state = start(MIXED, "5D")
    state = run(state, "play 4H")
    # Default edition: one gem icon on every 1-4 (K33), taken from the supply.
    assert state.trick[0].gems == 1 and state.supply == 279
    state = run(state, "play 9H")
    assert state.trick[1].gems == 0 and state.supply == 279
    state = run(state, "play 3D; play 3H")
    # 4H, 3D and 3H carry one gem each: 3 gems go onto (not into) the winner's bag.
    assert events(state, sr.TrickWon)[0].gems == 3
    assert state.on_bag == (0, 0, 3, 0)
    assert state.in_bag == (0, 0, 0, 0)
    assert state.supply == 277


@pytest.mark.rule("TRICK-6")
def test_face_down_cards_carry_one_gem_ignore_icons_and_never_win() -> None:
    # Seat 3 withdraws with 1C, a trump with a gem icon: face down it carries 1 gem (not 1 for
    # the icon plus 1) and cannot win, though it is the only trump in the trick.
    state = run(start(SUITS_4, "10C"), "play 5H; play 6S; play 6D; withdraw 1C")
    assert [p.gems for p in events(state, sr.CardPlayed)] == [1]
    (won,) = events(state, sr.TrickWon)
    assert (won.seat, won.card, won.gems) == (0, sr.Card.parse("5H"), 1)
    assert state.on_bag == (1, 0, 0, 0)
    assert state.discard_mask == mask("5H 6S 6D 1C")
    assert state.face_down(3) == cards("1C")


@pytest.mark.rule("TRICK-6")
def test_face_down_cards_carry_two_gems_with_three_players() -> None:
    # 3 players: seat 1 withdraws with 2S (gem icon ignored): 2 gems on it, not 1 or 3.
    state = run(start(SUITS_3, "10C"), "play 2H; withdraw 2S")
    assert state.trick[1] == sr.Play(1, sr.Card.parse("2S"), False, 2)
    assert state.supply == 280 - 1 - 2
    state = run(state, "play 10D")
    # 2H (icon) 1 + 2S face down 2 + 10D 0: seat 0 wins with the only heart.
    assert events(state, sr.TrickWon)[0].gems == 3
    assert state.on_bag == (3, 0, 0)
    # Next trick: the withdrawn seat's face-down card again carries 2 gems.
    state = run(state, "chest G3/0; stop; play 5H; down 3S")
    assert state.trick[1].gems == 2


@pytest.mark.rule("TRICK-6")
def test_a_face_down_poison_card_is_not_a_poison_and_goes_to_the_discard_pile() -> None:
    # Seat 1 withdraws with 7S (the jellyfish 7) face down; seat 3 wins with a trump.
    state = run(start(SUITS_4, "10C"), "play 5H; withdraw 7S; play 5D; play 9C")
    assert state.poison_masks == (0, 0, 0, 0)
    assert state.discard_mask == mask("5H 7S 5D 9C")
    assert events(state, sr.PoisonTaken) == []


@pytest.mark.rule("TRICK-8")
def test_the_winner_takes_face_up_poisons_and_potions_and_the_rest_is_discarded() -> None:
    # Seat 3 wins with 7C (a trump and a potion), taking 7H and 7D too; 5S goes to the discard.
    state = run(start(SUITS_4, "10C"), "play 7H; play 5S; play 7D; play 7C")
    assert state.poison_masks == (0, 0, 0, mask("7H 7D"))
    assert state.potion_masks == (0, 0, 0, mask("7C"))
    assert state.discard_mask == mask("5S")
    assert state.trick == ()


@pytest.mark.rule("TRICK-9")
def test_a_trick_resolves_winner_gems_cards_potions_shock_then_chest() -> None:
    # Seat 3 wins with 5C (trump, potion) a trick holding 7H and 1S: it takes 1S's gem, then
    # 7H and 5C; the potion covers 7H (K16); no shock; then the chest challenge (K14).
    state = run(start(SUITS_4, "10C"), "play 7H; play 1S; play 8D")
    state = sr.apply(state, sr.Action.parse("play 5C"))
    assert [type(e) for e in state.events] == [
        sr.CardPlayed, sr.TrickWon, sr.PoisonTaken, sr.PotionTaken, sr.PoisonCovered,
    ]
    assert state.events[1] == sr.TrickWon(3, 1, sr.Card.parse("5C"), 1)
    assert state.events[2] == sr.PoisonTaken(3, sr.Card.parse("7H"), "bee")
    assert state.events[4] == sr.PoisonCovered(3, sr.Card.parse("7H"), sr.Card.parse("5C"))
    assert (state.phase, sr.current_player(state)) == (sr.Phase.CHEST, sr.CHANCE)
    assert state.actor == 3
    # After the challenge, the winner leads the next trick.
    state = run(state, "chest G4/0; stop")
    assert (state.phase, state.leader, state.actor, state.trick_number) == (
        sr.Phase.PLAY, 3, 3, 2,
    )
