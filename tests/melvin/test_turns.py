"""When the turn is decided (M31): eagerly, when it passes and when the seat to move loses its
last draw-pile card; a seat that regains cards rejoins the rotation without taking the turn
back. And the ends one slap can reach."""

from __future__ import annotations

import json

import pytest

from shock_rules import IllegalActionError
from shock_rules import melvin as mk

from ._helpers import dealt, evolve, known, play, with_special


@pytest.mark.rule("MK-TURN-2")
def test_a_seat_to_move_robbed_of_its_last_card_does_not_take_the_turn_back() -> None:
    # Seat 1 is to move with two cards; seat 3's Toalha takes both: the turn passes to seat 2.
    s = with_special(known(dealt(4), {1: (5, 6), 0: (7, 8, 9)}), 3, "Toalha")
    assert s.to_move == 1
    s = play(s, "3 toalha 1")
    assert s.to_move == 2 and s.draw_size(1) == 0
    # Seat 0 slaps wrongly and must give each player a card: seat 1 has one again...
    s = play(s, "0 slap", "penalty Cartas")
    assert s.draw_size(1) == 1 and s.known[1] == (7,)
    # ...but the turn was decided when seat 1 lost its last card: seat 2 turns up next.
    assert s.to_move == 2
    assert mk.Flip(1) not in mk.legal_actions(s) and mk.Flip(2) in mk.legal_actions(s, 2)
    with pytest.raises(IllegalActionError, match="seat 2's turn"):
        mk.apply(s, mk.Flip(1))


@pytest.mark.rule("MK-TURN-2")
def test_a_seat_skipped_when_the_turn_passed_rejoins_the_rotation_later() -> None:
    # Seat 2 has no card when seat 1's turn ends: the turn skips it to seat 3.
    s = known(dealt(4), {1: (5, 1), 2: (), 3: (6, 2)})
    s = play(s, "1 flip")
    assert s.to_move == 3
    # Seat 0's wrong slap and Cartas para todos give seat 2 a card before the next turn-up
    # (from seat 0's shuffled pile: each face is a chance step).
    s = play(s, "0 slap", "penalty Cartas", "reveal V7", "reveal V8", "reveal V9")
    assert s.draw_size(2) == 1 and s.to_move == 3
    # The rotation goes on from seat 3, and seat 2 plays when it comes round again.
    s = play(s, "3 flip", "0 flip", "reveal V4", "1 flip")
    assert s.to_move == 2
    s = play(s, "2 flip")
    assert s.to_move == 3


@pytest.mark.rule("MK-PEN-3")
@pytest.mark.rule("MK-TURN-2")
def test_two_in_a_row_ends_when_the_pile_empties_even_if_it_is_refilled() -> None:
    # M28: seat 1, under Jogue duas seguidas, turns up its only card: its turn ends there.
    s = with_special(known(dealt(4), {1: (5,), 3: (1, 2, 3, 4)}), 1, "Toalha")
    s = play(s, "1 slap", "penalty Duas")
    assert s.to_move == 1
    s = play(s, "1 flip")
    assert s.to_move == 2 and s.flipped == 0
    # Toalha refills seat 1's pile before anyone else moved: no second card for seat 1.
    s = play(s, "1 toalha 3")
    assert s.known[1] == (1, 2, 3) and s.to_move == 2
    assert mk.Flip(1) not in mk.legal_actions(s, 1)


@pytest.mark.rule("MK-TURN-2")
def test_inside_an_award_window_the_turn_is_settled_when_the_window_closes() -> None:
    # Seats 1 and 2 show V5 and seat 3 is to move, with two cards left.
    s = known(dealt(4), {1: (5, 6), 2: (5, 7), 3: (9, 10)})
    s = play(s, "1 flip", "2 flip")
    assert s.to_move == 3
    gems = list(s.gems)
    gems[0], gems[1] = ("Toalha",), ("Amuleto",)
    pool = [g for g in s.gem_pool]
    pool.remove("Toalha")
    pool.remove("Amuleto")
    s = evolve(s, gems=tuple(gems), gem_pool=tuple(pool))
    s = play(s, "2 slap", "gem G1", "gem G2")
    # In the window seat 0's Toalha empties seat 3's pile: the turn is not decided yet...
    s = play(s, "0 toalha 3")
    assert s.draw_size(3) == 0 and s.to_move == 3
    # ...and when Amuleto Orc closes the window without counting the slap, it passes on.
    s = play(s, "1 amuleto")
    assert s.award is None and s.to_move == 0
    assert mk.Flip(0) in mk.legal_actions(s, 0)


@pytest.mark.rule("MK-END-1")
@pytest.mark.rule("MK-ELIM-1")
def test_one_slap_that_eliminates_both_other_players_of_three_ends_the_game() -> None:
    # Seats 1 and 2 turn up their last cards, a match; seat 0 slaps first and wins.
    s = play(known(dealt(3), {1: (5,), 2: (5,)}), "1 flip", "2 flip")
    assert mk.match_shows(s) and s.to_move == 0
    s = play(s, "0 slap", "gem G1", "gem G3", "0 award G3 give 1")
    assert s.in_game == (True, False, False)
    assert s.end_reason is mk.EndReason.FEW_PLAYERS and mk.winners(s) == frozenset({0})
    mk.check_state(s)  # M15: two or fewer players left, here one
    assert mk.state_from_json(mk.state_to_json(s)) == s
    doc = json.loads(mk.state_to_json(s))
    assert doc["end_reason"] == "few_players" and doc["phase"] == "over"
