"""Withdrawing from the round and what out-of-round players do (WITHDRAW-*)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shock_rules as sr
from strategies import positions

from ._helpers import SUITS_4, cards, events, mask, run, start
from .test_tricks import MIXED


@pytest.mark.rule("WITHDRAW-1")
def test_a_player_holding_the_lead_suit_may_withdraw_with_any_card() -> None:
    state = run(start(MIXED, "5D"), "play 4H")
    # Seat 1 holds hearts, yet may withdraw with 2S (face down, no need to follow).
    assert sr.Action.parse("withdraw 2S") in sr.legal_actions(state)
    state = run(state, "withdraw 2S")
    assert state.status == (sr.Status.IN, sr.Status.WITHDRAWN, sr.Status.IN, sr.Status.IN)
    assert state.trick[1] == sr.Play(1, sr.Card.parse("2S"), False, 1)
    assert state.face_down(1) == cards("2S")
    assert state.lead_suit is sr.Suit.HEARTS


@pytest.mark.rule("WITHDRAW-2")
def test_withdrawing_moves_the_gems_on_the_bag_into_the_bag() -> None:
    # Seat 3 wins trick 1 (1H, 1S, 1D, 1C: four gems) and a G3/0 chest card: 7 on its bag.
    state = run(start(SUITS_4, "10C"), "play 1H; play 1S; play 1D; play 1C; chest G3/0; stop")
    assert (state.on_bag, state.in_bag, state.supply) == ((0, 0, 0, 7), (0, 0, 0, 0), 273)
    state = run(state, "withdraw 8C")
    assert events(state, sr.Withdrew) == [sr.Withdrew(3, 7)]
    assert state.on_bag == (0, 0, 0, 0)
    assert state.in_bag == (0, 0, 0, 7)
    # The face-down card takes its one gem from the supply.
    assert state.supply == 272
    assert state.status[3] is sr.Status.WITHDRAWN


@pytest.mark.rule("WITHDRAW-3")
def test_out_of_round_players_play_any_card_face_down_only() -> None:
    # Seat 0 leads by withdrawing; 10C sets clubs as the lead suit and wins (trump diamonds).
    state = run(start(MIXED, "5D"), "withdraw 1C; play 10C; play 3C; play 4C")
    assert events(state, sr.TrickWon) == [sr.TrickWon(1, 1, sr.Card.parse("10C"), 3)]
    state = run(state, "chest G4/0; stop")
    assert state.actor == 1
    # Trick 2: hearts led; seat 2 has none; seat 3 follows.
    state = run(state, "play 9H; play 10S; play 3H")
    # Seat 0 still holds hearts but is out of the round: it plays any card, face down only.
    assert state.actor == 0
    assert sr.legal_actions(state) == tuple(sr.Action.down(c) for c in state.hand(0))
    with pytest.raises(sr.IllegalActionError, match=r"seat 0 is out of the round \(withdrawn\)"):
        sr.apply(state, sr.Action.parse("play 10H"))
    state = run(state, "down 1S")
    # The face-down 1S carries 1 gem (its icon is ignored) and cannot win: 9H wins.
    assert events(state, sr.CardPlayed) == [sr.CardPlayed(0, sr.Card.parse("1S"), False, 1)]
    assert events(state, sr.TrickWon) == [sr.TrickWon(1, 2, sr.Card.parse("9H"), 2)]


@pytest.mark.rule("WITHDRAW-3")
@pytest.mark.rule("CHEST-2")
def test_out_of_round_players_get_no_small_chest_gems() -> None:
    # Seat 1 withdraws in trick 1; seat 3 wins and reveals G2/1: +2 for seat 3, +1 for the
    # other seats still in the round (0 and 2), nothing for seat 1.
    state = run(start(SUITS_4, "10C"), "play 8H; withdraw 8S; play 8D; play 9C")
    assert state.on_bag == (0, 0, 0, 1)
    state = run(state, "chest G2/1")
    assert events(state, sr.GemsGained) == [
        sr.GemsGained(3, 2), sr.GemsGained(0, 1), sr.GemsGained(2, 1),
    ]
    assert state.on_bag == (1, 0, 1, 3)
    assert state.supply == 280 - 1 - 4


@pytest.mark.rule("WITHDRAW-3")
@pytest.mark.rule("SHOCK-3")
@pytest.mark.rule("POISON-3")
@pytest.mark.rule("CHEST-3")
@pytest.mark.rule("ROUND-2")
def test_out_of_round_players_are_not_poisoned_when_the_rest_are_all_shocked() -> None:
    # Seat 1 withdraws; seat 3 wins (1 gem from 8S face down), then reveals two bee poisons.
    state = run(start(SUITS_4, "10C"), "play 8H; withdraw 8S; play 8D; play 9C; chest P:bee")
    # The revealer gains 1 gem first; everyone still in the round (0, 2, 3) is at bee 1.
    assert state.on_bag == (0, 0, 0, 2)
    assert [state.poison_count(s, "bee") for s in (0, 2, 3)] == [1, 1, 1]
    assert state.status[1] is sr.Status.WITHDRAWN
    assert state.phase is sr.Phase.CHEST_CHOICE
    state = run(state, "reveal")
    state = sr.apply(state, sr.Action.parse("chest P:bee"))
    # Seats 0, 2 and 3 (the revealer) are shocked at once; the revealer loses its 3 gems.
    # Seat 1 is out of the round and is not shocked. Nobody is left: the round ends (K25b).
    assert events(state, sr.Shocked) == [
        sr.Shocked(0, "bee", 0), sr.Shocked(2, "bee", 0), sr.Shocked(3, "bee", 3),
    ]
    assert events(state, sr.RoundEnded) == [sr.RoundEnded(1, sr.RoundEndReason.NOBODY_LEFT)]
    assert events(state, sr.GemsBanked) == []
    assert state.in_bag == (0, 0, 0, 0)
    assert state.supply == 280
    # The shocked revealer was the last trick winner: it leads round 2 (K27).
    assert events(state, sr.RoundStarted) == [sr.RoundStarted(2, 3)]


@pytest.mark.rule("WITHDRAW-4")
def test_when_the_leader_withdraws_the_next_player_in_the_round_sets_the_lead_suit() -> None:
    state = run(start(SUITS_4, "10C"), "withdraw 9H")
    assert state.lead_suit is None and state.actor == 1
    # Note 2: seat 1, the next player in the round, is now the trick's leader.
    assert (state.leader, state.lead_seat) == (0, 1)
    state = run(state, "play 8S")
    assert state.lead_suit is sr.Suit.SPADES and state.lead_seat == 1
    # Seat 2 holds no spade and plays a diamond; seat 3 trumps with 9C and wins.
    state = run(state, "play 8D; play 9C")
    assert events(state, sr.TrickWon) == [sr.TrickWon(3, 1, sr.Card.parse("9C"), 1)]
    state = run(state, "chest G3/0; stop")
    assert state.on_bag == (0, 0, 0, 4)

    # Trick 2: leader 3 withdraws (banking 4); seat 0, out of the round, plays face down in
    # seat order; then seat 1, the next player in the round, sets the lead suit.
    state = run(state, "withdraw 8C")
    assert state.in_bag == (0, 0, 0, 4)
    assert state.actor == 0
    # Seat 0 is out of the round: the lead passes over it to seat 1.
    assert state.lead_seat == 1
    assert all(a.kind is sr.ActionKind.DOWN for a in sr.legal_actions(state))
    state = run(state, "down 8H")
    assert state.lead_suit is None
    state = run(state, "play 6S")
    assert state.lead_suit is sr.Suit.SPADES
    assert (state.leader, state.lead_seat) == (3, 1)  # the trick opened at seat 3
    state = run(state, "play 6D")
    # 6S is the only spade and nobody played a trump face up: seat 1 wins the 2 gems of the
    # two face-down cards.
    assert events(state, sr.TrickWon) == [sr.TrickWon(1, 2, sr.Card.parse("6S"), 2)]
    assert state.on_bag == (0, 2, 0, 0)
    assert state.supply == 280 - 1 - 3 - 2


@pytest.mark.rule("WITHDRAW-5")
@pytest.mark.rule("VAR-1")
@pytest.mark.rule("DEAL-2")
def test_when_everyone_left_withdraws_the_trick_has_no_winner_and_the_round_ends() -> None:
    # Trick 1: seat 2 withdraws (9D face down); seat 3 trumps with 1C and wins 4 gems, + G3/0.
    state = run(
        start(SUITS_4, "10C"),
        "play 1H; play 1S; withdraw 9D; play 1C; chest G3/0; stop",
    )
    assert (state.on_bag, state.supply) == ((0, 0, 0, 7), 273)
    # Trick 2, led by seat 3: seats 3, 0 and 1 (everyone still in the round) withdraw.
    state = run(state, "withdraw 9C; withdraw 9H")
    assert state.supply == 271
    state = sr.apply(state, sr.Action.parse("withdraw 9S"))
    # No winner: the 3 gems on the trick go back to the supply; the round ends at once.
    assert [type(e) for e in state.events] == [
        sr.Withdrew, sr.CardPlayed, sr.TrickAbandoned, sr.RoundEnded, sr.RoundStarted,
    ]
    assert events(state, sr.TrickAbandoned) == [sr.TrickAbandoned(2, 3)]
    assert events(state, sr.RoundEnded) == [sr.RoundEnded(1, sr.RoundEndReason.ALL_WITHDREW)]
    # 273 before the trick, 3 onto the face-down cards, the same 3 back.
    assert state.supply == 273
    assert state.in_bag == (0, 0, 0, 7)
    # Seat 2 had not played in trick 2: it keeps its card (and its 8 cards carry over, K26).
    assert state.hand(2) == cards("1D 2D 3D 4D 5D 6D 7D 8D")
    assert [state.hand_size(s) for s in range(4)] == [7, 7, 8, 7]
    # Round 2: the 11 cards not in hands form the dungeon deck; the fewest-card seat, lowest
    # first, is dealt to: seats 0, 1, 3 get their 8th card, then everyone their 9th.
    assert state.round == 2 and state.phase is sr.Phase.DEAL
    assert state.pool_mask == mask("1H 9H 10H 1S 9S 10S 9D 10D 1C 9C 10C")
    order = []
    while state.phase is sr.Phase.DEAL:
        order.append(state.actor)
        outcomes = sr.chance_outcomes(state)
        assert {p for _, p in outcomes} == {Fraction(1, state.deck_size)}
        state = sr.apply(state, outcomes[0][0])
    assert order == [0, 1, 3, 0, 1, 2, 3]
    assert [state.hand_size(s) for s in range(4)] == [9, 9, 9, 9]
    assert state.deck_size == 4 and state.phase is sr.Phase.TRUMP


@pytest.mark.rule("WITHDRAW-4")
@given(data=st.data())
def test_the_trick_leader_is_the_first_face_up_player_or_the_next_in_the_round(
    data: st.DataObject,
) -> None:
    # Rulebook, Withdrawal, Note 2: after a withdrawing leader, the next player in the round
    # clockwise leads the trick. So during play the trick's leader is the seat of the first
    # face-up card, or, before one, the first seat from the opener that is still in the round.
    s = data.draw(positions(data.draw(st.sampled_from(list(sr.Variant)))), label="state")
    if s.phase is not sr.Phase.PLAY:
        assert s.lead_seat == -1
        return
    n = s.config.players
    face_up = [p.seat for p in s.trick if p.face_up]
    if face_up:
        assert s.lead_seat == face_up[0]
        return
    order = [(s.leader + i) % n for i in range(n)]
    in_round = [seat for seat in order if s.status[seat] is sr.Status.IN]
    assert s.lead_seat == in_round[0]
    # Nobody in the round has played yet: the trick's leader is the next one to play face up.
    assert all(p.seat not in in_round for p in s.trick)
