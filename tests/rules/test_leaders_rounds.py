"""Leaders, the end of a round and the set-up of the next one (LEAD-*, ROUND-*)."""

from __future__ import annotations

import pytest

import shock_rules as sr

from ._helpers import SUITS_4, collect, events, full_round_script, mask, run, start

END = sr.RoundEndReason


@pytest.mark.rule("LEAD-1")
def test_the_trick_winner_leads_the_next_trick() -> None:
    state = run(start(SUITS_4, "10D", leader=1), "play 9S; play 8D; play 8C; play 8H")
    # Trump diamonds: seat 2 wins with 8D and, after its challenge, leads trick 2.
    assert events(state, sr.TrickWon)[0].seat == 2
    state = run(state, "chest G1/1; stop")
    assert (state.phase, state.trick_number, state.leader, state.actor) == (
        sr.Phase.PLAY, 2, 2, 2,
    )


@pytest.mark.rule("ROUND-1")
@pytest.mark.rule("ROUND-4")
@pytest.mark.rule("ROUND-5")
@pytest.mark.rule("LEAD-2")
def test_a_round_ends_when_every_card_is_played_after_the_last_chest_challenge() -> None:
    script = full_round_script(leader=0).split("; ")
    state, _ = collect(start(SUITS_4, "10C"), "; ".join(script[:-2]))
    # The ninth trick is over and every hand is empty, yet its winner still opens the chest.
    assert state.hand_masks == (0, 0, 0, 0)
    assert (state.round, state.phase, state.actor) == (1, sr.Phase.CHEST, 3)
    state, evs = collect(state, "; ".join(script[-2:]))
    assert [e for e in evs if not isinstance(e, (sr.ChestRevealed, sr.GemsGained))] == [
        sr.ChestStopped(3),
        sr.GemsBanked(0, 3), sr.GemsBanked(1, 3), sr.GemsBanked(2, 3), sr.GemsBanked(3, 39),
        sr.RoundEnded(1, END.HANDS_EMPTY),
        sr.RoundStarted(2, 3),
    ]
    # Everyone still in the round banked the gems on their bag.
    assert state.in_bag == (3, 3, 3, 39)
    assert state.on_bag == (0, 0, 0, 0)
    assert state.supply == 232


@pytest.mark.rule("ROUND-3")
@pytest.mark.rule("ROUND-5")
def test_a_round_ends_when_a_new_trick_would_start_with_one_player_in_the_round() -> None:
    state = run(start(SUITS_4, "10C"), "play 8H; withdraw 8S; withdraw 8D; play 9C")
    # Two players in the round (0 and 3) after trick 1: the round goes on.
    state = run(state, "chest G3/0; stop")
    assert (state.phase, state.on_bag) == (sr.Phase.PLAY, (0, 0, 0, 5))
    # Trick 2: seat 3 plays face up; seat 0 withdraws, leaving seat 3 alone in the round, but
    # the trick is played out and resolved, chest challenge included.
    state = run(state, "play 7C; withdraw 7H")
    assert state.phase is sr.Phase.PLAY and state.actor == 1
    state = run(state, "down 7S; down 7D")
    assert (state.phase, state.on_bag) == (sr.Phase.CHEST, (0, 0, 0, 8))
    state = run(state, "chest G2/1")
    assert state.on_bag == (0, 0, 0, 10)  # nobody else is in the round for the small icon
    state, evs = collect(state, "stop")
    assert evs == [
        sr.ChestStopped(3), sr.GemsBanked(3, 10), sr.RoundEnded(1, END.ONE_LEFT),
        sr.RoundStarted(2, 3),
    ]
    assert state.in_bag == (0, 0, 0, 10)
    assert state.supply == 270


@pytest.mark.rule("ROUND-6")
@pytest.mark.rule("VAR-1")
def test_the_next_round_gathers_every_card_not_in_a_hand_and_resets_the_table() -> None:
    # Round 1 leaves poisons (one covered), a potion, chest cards in the centre and in the
    # discard pile, a withdrawn seat and shocked ones.
    state = run(
        start(SUITS_4, "10C"),
        "play 7H; play 8S; play 8D; play 5C; chest P:bee; reveal; chest G1/1; stop;"
        "play 8C; withdraw 8H; play 7S; play 7D",
    )
    assert state.poison_masks[3] == mask("7H 7S 7D") and state.status[0] is sr.Status.WITHDRAWN
    # The second chest bee shocks seats 1, 2 and 3: nobody is left, round 1 ends.
    state = run(state, "chest P:bee")
    assert events(state, sr.RoundEnded) == [sr.RoundEnded(1, END.NOBODY_LEFT)]
    assert state.round == 2
    # Standard variant: the hands keep their 7 cards each; every other card is in the deck.
    held = mask("1H 2H 3H 4H 5H 6H 9H 1S 2S 3S 4S 5S 6S 9S 1D 2D 3D 4D 5D 6D 9D")
    held |= mask("1C 2C 3C 4C 6C 7C 9C")
    assert sum(state.hand_masks) == held
    assert state.pool_mask == mask("7H 8H 10H 7S 8S 10S 7D 8D 10D 5C 8C 10C")
    assert state.trump_index == -1 and state.discard_mask == 0
    assert state.chest_deck_size == 24
    assert state.chest_centre_cards == () and state.chest_discard_cards == ()
    assert state.status == (sr.Status.IN,) * 4
    assert state.poison_masks == state.potion_masks == state.covered_masks == (0, 0, 0, 0)
    assert state.face_down_masks == (0, 0, 0, 0) and state.void_suits == (0, 0, 0, 0)
    assert (state.phase, state.trick_number, state.leader) == (sr.Phase.DEAL, 1, 3)
    # Each hand is refilled to 9 and a new trump card is revealed.
    state = sr.deal_hands(state, [
        "1H 2H 3H 4H 5H 6H 9H 10H 10S",
        "1S 2S 3S 4S 5S 6S 9S 8S 8H",
        "1D 2D 3D 4D 5D 6D 9D 7D 8D",
        "1C 2C 3C 4C 6C 7C 9C 5C 7H",
    ], trump="7S")
    assert state.trump == sr.Card.parse("7S") and state.phase is sr.Phase.PLAY
    assert state.pool_mask == mask("10D 8C 10C") and state.actor == 3


@pytest.mark.rule("LEAD-2")
def test_the_next_round_is_led_by_the_first_leader_when_no_trick_was_won() -> None:
    simplified = sr.Variant.SIMPLIFIED
    # Round 1 (first leader 2): everyone withdraws in trick 1, so no trick is won.
    state = run(
        start(SUITS_4, "10C", leader=2, variant=simplified),
        "withdraw 9D; withdraw 9C; withdraw 9H; withdraw 9S",
    )
    assert events(state, sr.RoundStarted) == [sr.RoundStarted(2, 2)]
    # Round 2, led by seat 2: seat 3 wins trick 1, then everyone withdraws in trick 2.
    state = sr.deal_hands(state, list(SUITS_4), trump="10C")
    state = run(
        state,
        "play 8D; play 8C; play 8H; play 8S; chest G3/0; stop;"
        "withdraw 9C; withdraw 9H; withdraw 9S; withdraw 9D",
    )
    assert events(state, sr.RoundStarted) == [sr.RoundStarted(3, 3)]
    # Round 3, led by seat 3: no trick is won, so round 4 is led by round 3's first leader (3),
    # not by the game's first leader (2).
    state = sr.deal_hands(state, list(SUITS_4), trump="10C")
    state = run(state, "withdraw 9C; withdraw 9H; withdraw 9S; withdraw 9D")
    assert events(state, sr.RoundStarted) == [sr.RoundStarted(4, 3)]
