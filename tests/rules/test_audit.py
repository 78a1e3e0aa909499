"""An independent audit of the engine against the rulebook and the rulings (K1-K35).

Every expected value below was derived by hand from the rulebook text and the rulings, then
compared with the engine; the comments show the derivation. The scenarios aim at corner cases
the other rule tests do not reach: a trick whose only face-up card is a late player's, a trick
abandoned on its last card, potions and poisons of the same trick, cover choices that decide a
shock, a revealer left alone in the round, leaders skipping several out-of-round seats, the chest
deck running dry mid-challenge, 3- and 5-player gem counts and the end of the game.
"""

from __future__ import annotations

import random
import re

import pytest

import shock_rules as sr

from ._helpers import (
    SUITS_3,
    SUITS_4,
    acts,
    cards,
    collect,
    edition_with,
    events,
    full_round_script,
    mask,
    run,
    start,
)

IN, OUT, SHOCKED = sr.Status.IN, sr.Status.WITHDRAWN, sr.Status.SHOCKED


def _reason(state: sr.State) -> sr.RoundEndReason:
    (ended,) = events(state, sr.RoundEnded)
    return ended.reason


# -- lead suit and winner ------------------------------------------------------------------------


@pytest.mark.rule("TRICK-2")
@pytest.mark.rule("TRICK-7")
@pytest.mark.rule("WITHDRAW-4")
@pytest.mark.rule("ROUND-3")
@pytest.mark.rule("ROUND-5")
def test_a_trick_whose_only_face_up_card_is_the_last_players_is_won_by_it() -> None:
    # SUITS_4, clubs trump. Seats 0, 1 and 2 withdraw one after the other (1 gem on each
    # face-down card, Withdrawal); seat 3 is still in the round, so the trick goes on (K13 needs
    # *everyone* in the round to withdraw). Seat 3's 2C is the only face-up card: it sets the
    # lead suit and wins, taking 3 face-down gems + 1 on 2C (its icon) = 4.
    state = run(start(SUITS_4, "10C"), "withdraw 9H; withdraw 9S; withdraw 9D")
    assert state.lead_suit is None and state.actor == 3 and state.status[3] is IN
    # With no lead suit set, seat 3 may play any card face up (K9) or withdraw too.
    assert sr.legal_actions(state) == tuple(
        sr.Action.parse(f"{kind} {c}C") for kind in ("play", "withdraw") for c in range(1, 10)
    )
    state = run(state, "play 2C")
    assert events(state, sr.TrickWon) == [sr.TrickWon(3, 1, sr.Card.parse("2C"), 4)]
    assert state.on_bag == (0, 0, 0, 4) and state.supply == 276
    # The winner is in the round: the chest challenge is mandatory even though it is alone.
    assert (state.phase, state.actor) == (sr.Phase.CHEST, 3)
    # G1/1: the large icon to the revealer; the small icons to nobody (everyone else is out).
    state = run(state, "chest G1/1")
    assert events(state, sr.GemsGained) == [sr.GemsGained(3, 1)]
    state = run(state, "stop")
    # A new trick would start with one player in the round: the round ends and seat 3 banks.
    assert _reason(state) is sr.RoundEndReason.ONE_LEFT
    assert events(state, sr.GemsBanked) == [sr.GemsBanked(3, 5)]
    assert state.in_bag == (0, 0, 0, 5) and state.supply == 275
    assert events(state, sr.RoundStarted) == [sr.RoundStarted(2, 3)]


# Four players, spades trump (10S undealt). Seat 1 holds two trumps and a spade-free hand of
# hearts; seat 2 holds clubs and one trump; seat 3 holds diamonds and two trumps.
TRUMP_LEAD = (
    "1H 2H 3H 4H 5H 6H 8H 9H 10H",
    "2S 6S 1D 2D 3D 4D 5D 6D 7D",
    "3S 1C 2C 3C 4C 5C 6C 8C 9C",
    "1S 4S 5S 8S 9S 8D 9D 10D 10C",
)  # undealt: 7H 7S 10S 7C


@pytest.mark.rule("TRICK-2")
@pytest.mark.rule("TRICK-3")
@pytest.mark.rule("TRICK-4")
@pytest.mark.rule("WITHDRAW-4")
def test_when_the_leader_withdraws_a_trump_played_first_face_up_sets_the_lead_suit() -> None:
    state = start(TRUMP_LEAD, "10S")
    # Seat 0 leads and withdraws: no lead suit yet, so seat 1 may play anything face up.
    state = run(state, "withdraw 10H")
    assert {a for a in sr.legal_actions(state) if a.kind is sr.ActionKind.PLAY} == set(
        acts("play 2S; play 6S; play 1D; play 2D; play 3D; play 4D; play 5D; play 6D; play 7D")
    )
    # Seat 1 plays the trump 2S first face up: the lead suit is spades, which is also trump.
    state = run(state, "play 2S")
    assert state.lead_suit is sr.Suit.SPADES
    # Seat 2 holds 3S, so it must follow spades: its clubs are refused.
    assert [str(a) for a in sr.legal_actions(state) if a.kind is sr.ActionKind.PLAY] == [
        "play 3S"
    ]
    with pytest.raises(sr.IllegalActionError, match=re.escape(
        "'play 9C' is illegal: seat 2 must follow spades"
    )):
        sr.apply(state, sr.Action.parse("play 9C"))
    state = run(state, "play 3S")
    # Seat 3 must follow spades too; 9S is the highest trump and wins. Gems: 1 on the
    # face-down 10H, 1 on 2S, 1 on 3S (icons); 9S has none: 3.
    state = run(state, "play 9S")
    assert events(state, sr.TrickWon) == [sr.TrickWon(3, 1, sr.Card.parse("9S"), 3)]
    assert state.on_bag == (0, 0, 0, 3)


@pytest.mark.rule("TRICK-4")
@pytest.mark.rule("TRICK-6")
def test_a_higher_trump_played_face_down_does_not_beat_a_lower_face_up_trump() -> None:
    # TRUMP_LEAD, spades trump. Seat 0 leads 1H; seat 1 (no heart) trumps with 2S; seat 2 (no
    # heart) withdraws with its trump 3S face down; seat 3 (no heart) plays 8D off suit.
    # Only face-up cards compete: 2S is the only face-up trump and wins, although 3S is higher.
    state = run(start(TRUMP_LEAD, "10S"), "play 1H; play 2S; withdraw 3S; play 8D")
    assert events(state, sr.TrickWon) == [sr.TrickWon(1, 1, sr.Card.parse("2S"), 3)]
    # 1H (icon) + 2S (icon) + the face-down 3S (1 gem, its icon ignored) + 8D (none) = 3.
    assert state.on_bag == (0, 3, 0, 0)
    assert state.discard_mask == mask("1H 2S 3S 8D")


# -- withdrawal: everyone withdraws --------------------------------------------------------------


@pytest.mark.rule("WITHDRAW-5")
@pytest.mark.rule("ROUND-4")
@pytest.mark.rule("LEAD-2")
@pytest.mark.rule("GEM-1")
def test_a_trick_abandoned_on_its_last_card_returns_all_its_gems_and_ends_the_round() -> None:
    # SUITS_4, clubs trump. Trick 1: seats 0 and 1 withdraw; seat 2 plays 1D; seat 3 trumps
    # with 1C and wins 4 gems (two face-down cards, 1D and 1C icons).
    state = run(start(SUITS_4, "10C"), "withdraw 9H; withdraw 9S; play 1D; play 1C")
    assert state.on_bag == (0, 0, 0, 4)
    # G2/1: 2 to the revealer, 1 to seat 2, the only other seat still in the round.
    state = run(state, "chest G2/1; stop")
    assert state.on_bag == (0, 0, 1, 6) and state.supply == 280 - 4 - 3
    # Trick 2 is led by seat 3 and played 3, 0, 1, 2. Seats 3 and 2 are the only ones in the
    # round; both withdraw, seat 2 with the trick's last card. Nobody played face up, so the
    # trick has no winner even though it is complete: its 4 gems go back to the supply.
    state, evs = collect(state, "withdraw 9C; down 8H; down 8S; withdraw 9D")
    assert [e for e in evs if isinstance(e, sr.Withdrew)] == [sr.Withdrew(3, 6), sr.Withdrew(2, 1)]
    assert [e for e in evs if isinstance(e, sr.TrickAbandoned)] == [sr.TrickAbandoned(2, 4)]
    assert not [e for e in evs if isinstance(e, sr.TrickWon)]
    assert _reason(state) is sr.RoundEndReason.ALL_WITHDREW
    assert state.in_bag == (0, 0, 1, 6) and state.on_bag == (0, 0, 0, 0)
    assert state.supply == 273
    # Every seat played in both tricks, so every hand keeps 7 cards; the last trick winner,
    # seat 3, leads round 2 (K27).
    assert [state.hand_size(s) for s in range(4)] == [7, 7, 7, 7]
    assert (state.round, state.leader, state.phase) == (2, 3, sr.Phase.DEAL)
    # Everything not in a hand is gathered: 40 - 28 = 12 cards.
    assert state.pool_mask == mask("8H 9H 10H 8S 9S 10S 1D 9D 10D 1C 9C 10C")


# -- three and five players ----------------------------------------------------------------------


@pytest.mark.rule("TRICK-6")
@pytest.mark.rule("CHEST-2")
@pytest.mark.rule("CHEST-4")
def test_with_three_players_every_face_down_card_carries_two_gems() -> None:
    # SUITS_3 (ranks 2-10), clubs trump (all clubs undealt). Seat 0 leads 2H (1 icon gem);
    # seat 1 withdraws with 10S (2 gems, 3 players); seat 2 plays 10D off suit (no icon).
    # 2H is the only heart: seat 0 wins 3 gems.
    state = run(start(SUITS_3, "2C"), "play 2H; withdraw 10S; play 10D")
    assert state.on_bag == (3, 0, 0) and state.supply == 277
    # Two chest cards: G1/1 then G2/1. Seat 1 is out: no small icons for it.
    state = run(state, "chest G1/1; reveal; chest G2/1; stop")
    assert state.on_bag == (6, 0, 2) and state.supply == 280 - 3 - 2 - 3
    # Trick 2: seat 1, out of the round, plays 9S face down (2 gems again).
    state = run(state, "play 3H; down 9S")
    assert state.trick[-1] == sr.Play(1, sr.Card.parse("9S"), False, 2)
    state = run(state, "play 3D")
    # 3H (1) + 9S face down (2) + 3D (1): seat 0 wins 4.
    assert events(state, sr.TrickWon) == [sr.TrickWon(0, 2, sr.Card.parse("3H"), 4)]
    assert state.on_bag == (10, 0, 2) and state.supply == 268


# Five players (ranks 1-11, 8 cards each), clubs trump (11C undealt). Seat 4 holds the three
# poison cards and spades.
FIVE = (
    "1H 2H 3H 4H 5H 6H 8H 9H",
    "1S 2S 3S 4S 5S 6S 8S 9S",
    "1D 2D 3D 4D 5D 6D 8D 9D",
    "1C 2C 3C 4C 6C 8C 9C 10C",
    "7H 7S 7D 10H 10S 10D 11H 11S",
)  # undealt: 11D 5C 7C 11C


@pytest.mark.rule("TRICK-3")
@pytest.mark.rule("CHEST-2")
@pytest.mark.rule("CHEST-3")
@pytest.mark.rule("SHOCK-2")
@pytest.mark.rule("LEAD-1")
def test_five_players_a_shocked_winner_passes_the_lead_past_two_out_of_round_seats() -> None:
    state = start(FIVE, "11C")
    # Trick 1: seat 0 withdraws; seat 1 leads spades with 1S; seat 2 and 3 hold no spade;
    # seat 4 holds spades and must follow.
    state = run(state, "withdraw 9H; play 1S; play 1D; play 1C")
    assert [str(a) for a in sr.legal_actions(state) if a.kind is sr.ActionKind.PLAY] == [
        "play 7S", "play 10S", "play 11S",
    ]
    state = run(state, "play 7S")
    # 1C is the only trump: seat 3 wins 4 gems (9H face down, 1S, 1D, 1C) and the 7S.
    assert events(state, sr.TrickWon) == [sr.TrickWon(3, 1, sr.Card.parse("1C"), 4)]
    assert state.poison_count(3, "jellyfish") == 1
    # G1/1: +1 to seat 3, +1 to seats 1, 2 and 4 (seat 0 is out).
    state = run(state, "chest G1/1; stop")
    assert state.on_bag == (0, 1, 1, 5, 1) and state.supply == 272
    # Trick 2, led by seat 3: seat 4 withdraws (banking 1), seat 0 plays face down, seats 1
    # and 2 have no club. 2C wins 5 gems: 2C, 11H (down), 8H (down), 2S, 2D.
    state = run(state, "play 2C; withdraw 11H; down 8H; play 2S; play 2D")
    assert state.on_bag == (0, 1, 1, 10, 0) and state.in_bag == (0, 0, 0, 0, 1)
    # The chest jellyfish: +1 gem, then seat 3's count is 7S + centre = 2: shocked, losing 11.
    # Seats 1 and 2 are at 1; seats 0 and 4 are out and unaffected.
    state = run(state, "chest P:jellyfish")
    assert events(state, sr.Shocked) == [sr.Shocked(3, "jellyfish", 11)]
    assert state.status == (OUT, IN, IN, SHOCKED, OUT)
    assert state.supply == 280 - 1 - 1 - 1  # only the gems on seats 1 and 2 and in seat 4's bag
    # The next player clockwise from seat 3 still in the round: 4 and 0 are out, so seat 1.
    assert (state.phase, state.trick_number, state.leader, state.actor) == (
        sr.Phase.PLAY, 3, 1, 1,
    )


# -- potions and poisons ---------------------------------------------------------------------------

# Four players, hearts trump (10H undealt). Seat 0 holds spades, seat 1 hearts (with 7H),
# seat 2 diamonds and 5C, seat 3 clubs (with 7C).
SAME_TRICK = (
    "1S 2S 3S 4S 5S 6S 7S 8S 9S",
    "1H 2H 3H 4H 5H 6H 7H 8H 9H",
    "1D 2D 3D 4D 5D 6D 7D 8D 5C",
    "1C 2C 3C 4C 6C 7C 8C 9C 10C",
)  # undealt: 10H 10S 9D 10D


@pytest.mark.rule("POTION-2")
@pytest.mark.rule("POTION-3")
@pytest.mark.rule("POISON-2")
@pytest.mark.rule("POTION-5")
def test_two_potions_cover_two_poisons_of_the_same_trick_and_a_covered_card_counts_zero() -> None:
    # Seat 0 leads the jellyfish 7S; seat 1 has no spade and trumps with the bee 7H; seats 2
    # and 3 have no spade and discard the potions 5C and 7C. 7H is the only trump: seat 1
    # takes 7S, 7H, 5C and 7C. Two potions, two uncovered poison cards: both are covered at
    # once, with no choice (K16) and nothing stored.
    state = run(start(SAME_TRICK, "10H"), "play 7S; play 7H; play 5C")
    state = sr.apply(state, sr.Action.parse("play 7C"))
    assert [type(e) for e in state.events] == [
        sr.CardPlayed, sr.TrickWon, sr.PoisonTaken, sr.PoisonTaken, sr.PotionTaken,
        sr.PotionTaken, sr.PoisonCovered, sr.PoisonCovered,
    ]
    assert {e.card for e in events(state, sr.PoisonCovered)} == set(cards("7H 7S"))
    assert events(state, sr.TrickWon) == [sr.TrickWon(1, 1, sr.Card.parse("7H"), 0)]
    assert state.stored_potions(1) == 0
    assert state.poison_count(1, "bee") == 0 and state.poison_count(1, "jellyfish") == 0
    assert (state.phase, state.actor) == (sr.Phase.CHEST, 1)
    # A chest bee: the covered 7H counts zero, so seat 1's bee count is 1 and it is not
    # shocked (potions never cover the chest card, but the 7H stays covered).
    state = run(state, "chest P:bee")
    assert events(state, sr.Shocked) == []
    assert [state.poison_count(s, "bee") for s in range(4)] == [1, 1, 1, 1]
    assert (state.phase, state.actor) == (sr.Phase.CHEST_CHOICE, 1)
    assert state.on_bag == (0, 1, 0, 0)


def _three_poisons_one_potion() -> sr.State:
    """SUITS_4, diamonds trump. Seat 2 wins trick 1 and reveals a chest spider (everyone in
    the round at spider 1); in trick 2 it leads 7D and takes 7D, 5C, 7H and 7S."""
    state = run(start(SUITS_4, "10D"), "play 1H; play 1S; play 1D; play 1C")
    state = run(state, "chest P:spider; stop")
    # 4 icon gems + 1 from the chest poison.
    assert state.on_bag == (0, 0, 5, 0) and state.supply == 275
    return run(state, "play 7D; play 5C; play 7H; play 7S")


@pytest.mark.rule("POTION-4")
@pytest.mark.rule("SHOCK-1")
def test_one_potion_for_three_poison_cards_is_the_winners_choice_before_the_shock_check() -> None:
    state = _three_poisons_one_potion()
    # Three uncovered poison cards, one potion: seat 2 chooses. Its spider count stands at 2
    # (7D + the chest spider) for now, but the check waits for the choice (K17).
    assert (state.phase, state.actor) == (sr.Phase.COVER, 2)
    assert sr.legal_actions(state) == acts("cover 7H; cover 7S; cover 7D")
    assert state.status[2] is IN and events(state, sr.Shocked) == []
    # Covering 7D: bee 1, jellyfish 1, spider 0 + 1 = 1: no shock; the chest challenge follows.
    safe = run(state, "cover 7D")
    assert events(safe, sr.PoisonCovered) == [
        sr.PoisonCovered(2, sr.Card.parse("7D"), sr.Card.parse("5C"))]
    assert [safe.poison_count(2, p) for p in ("bee", "jellyfish", "spider")] == [1, 1, 1]
    assert (safe.phase, safe.actor, safe.status[2]) == (sr.Phase.CHEST, 2, IN)
    # Covering 7H instead leaves spider at 2: seat 2 is shocked, loses its 5 gems and opens no
    # chest; seat 3, next clockwise, leads.
    shocked = run(state, "cover 7H")
    assert events(shocked, sr.Shocked) == [sr.Shocked(2, "spider", 5)]
    assert shocked.supply == 280 and shocked.on_bag == (0, 0, 0, 0)
    assert (shocked.phase, shocked.leader, shocked.actor) == (sr.Phase.PLAY, 3, 3)


@pytest.mark.rule("POTION-3")
@pytest.mark.rule("POTION-4")
def test_a_stored_potion_meeting_two_new_poison_cards_asks_which_to_cover() -> None:
    # SUITS_4, diamonds trump. Trick 1: seat 2 trumps with 2D and takes 5C: no poison card to
    # cover, so the potion is stored.
    state = run(start(SUITS_4, "10D"), "play 5H; play 5S; play 2D; play 5C")
    assert state.stored_potions(2) == 1 and state.on_bag == (0, 0, 1, 0)
    state = run(state, "chest G1/1; stop")
    # Trick 2: seat 2 leads 3D and takes 1C, 7H and 7S: one stored potion, two new poison
    # cards: seat 2 chooses (K16, "with the same choice rule when several arrive").
    state = run(state, "play 3D; play 1C; play 7H; play 7S")
    assert (state.phase, state.actor) == (sr.Phase.COVER, 2)
    assert sr.legal_actions(state) == acts("cover 7H; cover 7S")
    state = run(state, "cover 7S")
    assert state.stored_potions(2) == 0
    assert state.poison_count(2, "bee") == 1 and state.poison_count(2, "jellyfish") == 0
    # 1 + 1 (G1/1) + 2 (3D and 1C icons).
    assert state.on_bag == (1, 1, 4, 1)
    assert (state.phase, state.actor) == (sr.Phase.CHEST, 2)


@pytest.mark.rule("POTION-3")
@pytest.mark.rule("SHOCK-1")
def test_a_stored_potion_covers_a_poison_card_that_would_meet_a_chest_poison() -> None:
    # Trick 1: seat 2 stores 5C and reveals a chest bee (everyone in the round at bee 1).
    state = run(start(SUITS_4, "10D"), "play 5H; play 5S; play 2D; play 5C; chest P:bee; stop")
    assert [state.poison_count(s, "bee") for s in range(4)] == [1, 1, 1, 1]
    # Trick 2: seat 2 takes 7H. Bee would be 2, but the stored potion covers 7H at once.
    state = run(state, "play 3D; play 1C")
    state = sr.apply(state, sr.Action.parse("play 7H"))
    state = run(state, "play 6S")
    assert events(state, sr.Shocked) == []
    assert state.poisons(2) == (
        sr.PoisonCard(sr.Card.parse("7H"), "bee", True, sr.Card.parse("5C")),)
    assert state.poison_count(2, "bee") == 1 and state.stored_potions(2) == 0
    assert (state.phase, state.actor) == (sr.Phase.CHEST, 2)


# -- the chest -------------------------------------------------------------------------------------

# Seat 3 leads (first_leader=3); spades trump (10S undealt).
ALONE = (
    "2H 3H 4H 5H 6H 7H 8H 9H 10H",
    "1S 2S 3S 4S 5S 6S 7S 8S 9S",
    "1D 2D 3D 4D 5D 6D 7D 8D 9D",
    "1H 1C 2C 3C 4C 6C 8C 9C 10C",
)  # undealt: 10S 10D 5C 7C


@pytest.mark.rule("CHEST-3")
@pytest.mark.rule("CHEST-4")
@pytest.mark.rule("POISON-3")
@pytest.mark.rule("SHOCK-3")
@pytest.mark.rule("ROUND-3")
@pytest.mark.rule("ROUND-4")
def test_a_revealer_left_alone_by_its_chest_poison_may_go_on_revealing() -> None:
    state = start(ALONE, "10S", leader=3)
    # Trick 1 (3, 0, 1, 2): clubs led; seat 0 has no club and discards 7H face up; seat 1
    # withdraws; seat 2 has no club. 1C wins: 1C, 9S (down), 2D = 3 gems, and the 7H.
    state = run(state, "play 1C; play 7H; withdraw 9S; play 2D; chest G3/0; stop")
    assert state.on_bag == (0, 0, 0, 6) and state.poison_count(3, "bee") == 1
    # Trick 2: seat 3 leads 1H; seat 0 follows with 10H; seat 1 plays face down; seat 2
    # withdraws (banking nothing). 10H wins 1H, 8S (down), 3D (down) = 3 gems.
    state = run(state, "play 1H; play 10H; down 8S; withdraw 3D")
    assert state.on_bag == (3, 0, 0, 6) and state.status == (IN, OUT, OUT, IN)
    # Seat 0 reveals a chest bee: +1, then seat 3 (7H + centre = 2) is shocked, losing 6.
    state = run(state, "chest P:bee")
    assert events(state, sr.Shocked) == [sr.Shocked(3, "bee", 6)]
    assert state.poison_count(0, "bee") == 1
    # Seat 0 is the only player left in the round but still the revealer: the challenge goes
    # on (the round only ends when a new trick would start).
    assert (state.phase, state.actor) == (sr.Phase.CHEST_CHOICE, 0)
    state = run(state, "reveal; chest G4/0")
    assert (state.phase, state.actor, state.on_bag[0]) == (sr.Phase.CHEST_CHOICE, 0, 8)
    state = run(state, "stop")
    assert _reason(state) is sr.RoundEndReason.ONE_LEFT
    assert events(state, sr.GemsBanked) == [sr.GemsBanked(0, 8)]
    assert state.in_bag == (8, 0, 0, 0) and state.supply == 272
    assert events(state, sr.RoundStarted) == [sr.RoundStarted(2, 0)]


@pytest.mark.rule("CHEST-5")
@pytest.mark.rule("CHEST-4")
def test_the_chest_deck_running_dry_mid_challenge_ends_it_without_a_choice() -> None:
    # An edition with only two chest cards (K23: possible with other editions).
    edition = edition_with(chest=[{"kind": "gem", "large": 2, "small": 1, "count": 2}])
    state = run(start(SUITS_4, "10C", edition=edition), "play 8H; play 8S; play 8D; play 9C")
    state = run(state, "chest G2/1")
    assert (state.phase, state.actor) == (sr.Phase.CHEST_CHOICE, 3)
    state = run(state, "reveal; chest G2/1")
    # Only two cards were revealed, but the deck is empty: no third reveal is offered.
    assert state.chest_deck_size == 0
    assert (state.phase, state.trick_number, state.actor) == (sr.Phase.PLAY, 2, 3)
    # 9C (no icon) + 2 + 2 for seat 3; 1 + 1 for each other seat.
    assert state.on_bag == (2, 2, 2, 4)


# -- rounds and the game ---------------------------------------------------------------------------


@pytest.mark.rule("LEAD-2")
@pytest.mark.rule("ROUND-3")
@pytest.mark.rule("ROUND-6")
@pytest.mark.rule("VAR-1")
def test_the_winner_shocked_by_the_last_trick_leads_the_next_round() -> None:
    # SUITS_4, clubs trump. Trick 1: seats 1 and 2 withdraw; seat 3 wins with 1C and takes
    # 7H (bee 1): 1S, 1D face down + 1C = 3 gems; then a chest bee: +1 gem, bee 2 for seat 3
    # (shocked, losing 4) and bee 1 for seat 0.
    state = run(start(SUITS_4, "10C"), "play 7H; withdraw 1S; withdraw 1D; play 1C")
    state = run(state, "chest P:bee")
    assert events(state, sr.Shocked) == [sr.Shocked(3, "bee", 4)]
    # Only seat 0 is left: the round ends, nobody banks anything.
    assert _reason(state) is sr.RoundEndReason.ONE_LEFT
    assert events(state, sr.GemsBanked) == []
    assert state.in_bag == (0, 0, 0, 0) and state.supply == 280
    # Seat 3 won the last trick, though shocked: it leads round 2 (K27). Standard variant:
    # every hand keeps its 8 cards; the 7H in front of seat 3, the chest bee, the discards
    # and the trump card all come back.
    assert (state.round, state.leader) == (2, 3)
    assert [state.hand_size(s) for s in range(4)] == [8, 8, 8, 8]
    assert state.pool_mask == mask("7H 10H 1S 10S 1D 10D 1C 10C")
    assert state.chest_deck_size == 24 and state.chest_centre_cards == ()
    assert state.status == (IN, IN, IN, IN) and state.poison_masks == (0, 0, 0, 0)


@pytest.mark.rule("GAME-1")
@pytest.mark.rule("GAME-2")
@pytest.mark.rule("ROUND-5")
@pytest.mark.rule("VAR-2")
def test_the_gems_on_the_bag_at_the_end_of_round_five_are_banked_and_decide_the_winner() -> None:
    config = sr.GameConfig(players=4, variant=sr.Variant.SIMPLIFIED, first_leader=1)
    state = sr.new_game(config)
    # Rounds 1-4: everyone withdraws at once (seat 1 leads: 1, 2, 3, 0). No trick is won, so
    # seat 1, the round's first leader, leads every round (K27).
    for rnd in range(1, 5):
        state = sr.deal_hands(state, list(SUITS_4), trump="10C")
        assert (state.round, state.leader) == (rnd, 1)
        state = run(state, "withdraw 9S; withdraw 9D; withdraw 9C; withdraw 9H")
        assert _reason(state) is sr.RoundEndReason.ALL_WITHDREW
    assert state.round == 5 and state.supply == 280
    # Simplified: the hands were discarded, all 40 cards are back.
    assert state.hand_masks == (0, 0, 0, 0) and state.deck_size == 40
    state = sr.deal_hands(state, list(SUITS_4), trump="10C")
    # Round 5: seat 3 trumps trick 1 (4 icon gems) and reveals G1/1; the others then withdraw
    # in trick 2 (led by seat 3, which plays 2C first), banking 1 each.
    state = run(state, "play 1S; play 1D; play 1C; play 1H; chest G1/1; stop")
    assert state.on_bag == (1, 1, 1, 5)
    state = run(state, "play 2C; withdraw 2H; withdraw 2S; withdraw 2D")
    # Seat 3 wins 2C (1) + three face-down cards (3) = 4 more: 9 on its bag, then the chest.
    state = run(state, "chest G3/0; stop")
    # One player left: round 5 ends, seat 3 banks 12 and the game is over.
    assert _reason(state) is sr.RoundEndReason.ONE_LEFT
    assert sr.is_terminal(state) and sr.legal_actions(state) == ()
    assert sr.scores(state) == (1, 1, 1, 12) and sr.winners(state) == frozenset({3})
    assert state.supply == 280 - 15
    (ended,) = events(state, sr.GameEnded)
    assert ended == sr.GameEnded((1, 1, 1, 12), frozenset({3}))


# SUITS_4 with seat 0's 7H and seat 3's 8C swapped. Clubs trump.
OWN_POISON = (
    "1H 2H 3H 4H 5H 6H 8H 9H 8C",
    "1S 2S 3S 4S 5S 6S 7S 8S 9S",
    "1D 2D 3D 4D 5D 6D 7D 8D 9D",
    "1C 2C 3C 4C 5C 6C 7C 9C 7H",
)  # undealt: 10H 10S 10D 10C


@pytest.mark.rule("SHOCK-1")
@pytest.mark.rule("SHOCK-2")
@pytest.mark.rule("CHEST-1")
@pytest.mark.rule("ROUND-2")
@pytest.mark.rule("LEAD-2")
def test_a_winner_shocked_by_its_own_poison_card_leaves_nobody_and_opens_no_chest() -> None:
    # Trick 1: seat 0 leads the trump 8C; seats 1 and 2 have no club; seat 3 beats it with 9C
    # and takes 2 gems (1S, 1D), then reveals a chest bee (+1): everyone in the round stands
    # at bee 1.
    state = run(start(OWN_POISON, "10C"), "play 8C; play 1S; play 1D; play 9C; chest P:bee; stop")
    assert state.on_bag == (0, 0, 0, 3)
    # Trick 2: seat 3 leads its own bee 7H; everyone else withdraws (banking nothing). Seat 3
    # played face up, so it stays in until the trick is resolved (K13): the trick is not
    # abandoned, and 7H, the only face-up card, wins 3 face-down gems.
    state = run(state, "play 7H; withdraw 9H; withdraw 9S")
    state = sr.apply(state, sr.Action.parse("withdraw 9D"))
    assert events(state, sr.TrickAbandoned) == []
    assert events(state, sr.TrickWon) == [sr.TrickWon(3, 2, sr.Card.parse("7H"), 3)]
    # Seat 3 takes its own 7H: bee 1 + the chest bee = 2, shocked; it loses 3 + 3 = 6 and
    # opens no chest. Nobody is left in the round.
    assert events(state, sr.Shocked) == [sr.Shocked(3, "bee", 6)]
    assert events(state, sr.ChestRevealed) == []
    assert _reason(state) is sr.RoundEndReason.NOBODY_LEFT
    assert state.in_bag == (0, 0, 0, 0) and state.supply == 280
    # The shocked seat 3 won the last trick: it leads round 2 (K27).
    assert (state.round, state.leader) == (2, 3)


@pytest.mark.rule("SHOCK-3")
@pytest.mark.rule("POISON-3")
def test_a_chest_poison_revealed_after_a_seat_withdrew_does_not_count_for_it() -> None:
    # SUITS_4, clubs trump: seat 1 withdraws in trick 1 (bee 0); seat 3 wins and reveals a
    # chest bee. Seats 0, 2 and 3 are poisoned (bee 1); seat 1 is out of the round and "not
    # affected by new Poison Cards" (rulebook, Withdrawal), so its bee count stays 0.
    state = run(start(SUITS_4, "10C"), "play 8H; withdraw 8S; play 8D; play 9C; chest P:bee")
    assert [state.poison_count(s, "bee") for s in (0, 2, 3)] == [1, 1, 1]
    assert state.poison_count(1, "bee") == 0


# -- illegal actions -------------------------------------------------------------------------------


@pytest.mark.rule("TRICK-3")
@pytest.mark.rule("WITHDRAW-3")
@pytest.mark.rule("INFO-2")
def test_illegal_plays_are_refused_with_a_message_naming_seat_and_reason() -> None:
    def refused(state: sr.State, text: str, message: str, seat: int | None = None) -> None:
        with pytest.raises(sr.IllegalActionError, match=re.escape(message)):
            sr.apply(state, sr.Action.parse(text), seat=seat)

    state = run(start(TRUMP_LEAD, "10S"), "play 1H")
    # Seat 1 has no heart: a trump or any card is fine; but it may not play face down while
    # in the round, nor out of turn.
    refused(state, "down 2S", "'down 2S' is illegal: seat 1 is in the round")
    refused(state, "play 8D", "'play 8D' is illegal: seat 1 does not hold 8D")
    refused(state, "play 2S", "seat 2 cannot act now: seat 1 must act", seat=2)
    refused(state, "reveal", "'reveal' is illegal: seat 1 must play a card face up or withdraw")
    state = run(state, "withdraw 7D; play 3S")
    # Seat 3, holding no heart, may trump; seat 1 (out) may not play face up nor withdraw.
    state = run(state, "play 9S")
    state = run(state, "chest G1/1; stop")
    # Seat 3 leads trick 2 with 8D; seat 0 has no diamond; seat 1 is out of the round.
    state = run(state, "play 8D; play 2H")
    refused(state, "play 1D", "'play 1D' is illegal: seat 1 is out of the round (withdrawn)")
    refused(state, "withdraw 1D", "'withdraw 1D' is illegal: seat 1 is out of the round")
    # Out of the round, any card face down, whatever the lead suit.
    assert {str(a) for a in sr.legal_actions(state)} == {
        "down 2S", "down 6S", "down 1D", "down 2D", "down 3D", "down 4D", "down 5D", "down 6D",
    }
    state = run(state, "down 6S")
    # Seat 2 holds clubs only, no diamond: it may play any of its 8 cards face up.
    assert len([a for a in sr.legal_actions(state) if a.kind is sr.ActionKind.PLAY]) == 8


@pytest.mark.rule("ROUND-1")
@pytest.mark.rule("ROUND-3")
@pytest.mark.rule("ROUND-4")
@pytest.mark.rule("ROUND-5")
def test_a_last_trick_that_empties_the_hands_and_leaves_one_player_ends_the_round_once() -> None:
    # The whole round of full_round_script (seat 3 wins every trick with a club), except that
    # in trick 9 seats 0, 1 and 2 withdraw. Seat 3 still plays 9C face up and wins alone.
    steps = full_round_script(0).split("; ")
    assert steps[-6:] == ["play 9C", "play 9H", "play 9S", "play 9D", "chest G1/1", "stop"]
    state = run(start(SUITS_4, "10C"), "; ".join(steps[:-6]))
    # Tricks 1-8: 16 icon gems and 4 x G3/0, 2 x G4/0, 2 x G1/1 for seat 3 (38); the small
    # icons of the two G1/1 cards for each other seat (2).
    assert state.on_bag == (2, 2, 2, 38)
    state = run(state, "play 9C; withdraw 9H; withdraw 9S; withdraw 9D")
    # 9C has no icon; three face-down cards carry 1 gem each.
    assert events(state, sr.TrickWon) == [sr.TrickWon(3, 9, sr.Card.parse("9C"), 3)]
    assert state.in_bag == (2, 2, 2, 0)
    # The hands are empty and one player is left, but the last winner still opens the chest.
    assert (state.phase, state.actor) == (sr.Phase.CHEST, 3)
    state = run(state, "chest G1/1")
    assert (state.phase, state.actor) == (sr.Phase.CHEST_CHOICE, 3)
    state = run(state, "stop")
    # One end, named by the engine's documented priority (every card played before one left).
    assert _reason(state) is sr.RoundEndReason.HANDS_EMPTY
    assert events(state, sr.GemsBanked) == [sr.GemsBanked(3, 42)]
    assert state.in_bag == (2, 2, 2, 42) and state.supply == 280 - 48
    # Round 2 (standard variant): the hands are empty, so everyone is dealt 9 new cards.
    assert (state.round, state.leader, state.deck_size) == (2, 3, 40)


@pytest.mark.rule("POTION-2")
def test_a_potion_alone_covers_an_older_poison_card_in_front_of_the_winner() -> None:
    # SUITS_4, diamonds trump. Trick 1: seat 2 trumps with 1D and takes 7H (bee 1, uncovered).
    state = run(start(SUITS_4, "10D"), "play 7H; play 1S; play 1D; play 1C; chest G3/0; stop")
    assert state.poisons(2) == (sr.PoisonCard(sr.Card.parse("7H"), "bee", False),)
    # Trick 2: seat 2 takes the potion 5C and no poison: the potion covers the 7H already in
    # front of it ("if you have a Poison Number Card in your play area, use it immediately").
    state = run(state, "play 2D; play 5C; play 2H; play 2S")
    assert events(state, sr.PoisonCovered) == [
        sr.PoisonCovered(2, sr.Card.parse("7H"), sr.Card.parse("5C"))]
    assert state.poison_count(2, "bee") == 0 and state.stored_potions(2) == 0


@pytest.mark.rule("INFO-1")
def test_a_face_down_card_is_known_only_to_the_seat_that_played_it() -> None:
    # SUITS_3, clubs trump: seat 1 withdraws with 10S, face down under 2 gems.
    state = run(start(SUITS_3, "2C"), "play 2H; withdraw 10S")
    assert sr.view(state, 1).trick[1].card == sr.Card.parse("10S")
    for seen_by in (sr.view(state, 0), sr.view(state, 2), sr.spectator_view(state)):
        assert seen_by.trick[1] == sr.TrickCard(1, None, False, 2)
        assert sr.Card.parse("10S") in seen_by.unseen
        assert sr.HiddenCardPlayed(1, 2) in seen_by.events
        assert all(not isinstance(e, sr.CardPlayed) for e in seen_by.events)
    # Once the trick is over the card lies in the discard pile, still face down: the public
    # discard pile shows only the face-up cards.
    state = run(state, "play 10D")
    assert sr.view(state, 0).discard == cards("2H 10D")
    assert sr.view(state, 1).own_face_down == cards("10S")
    # Other hands stay hidden; the sizes are public.
    assert sr.view(state, 0).hand == cards("3H 4H 5H 6H 7H 8H 9H 10H")
    assert [s.hand_size for s in sr.view(state, 0).seats] == [8, 8, 8]


# -- an independent referee ------------------------------------------------------------------------
#
# The scenarios above pin chosen situations; this referee re-derives *every* decision step of
# random games from the rulebook and compares the engine's next state with it. It knows the
# default edition's card data by heart (K30-K33) and shares no code with the engine: it only
# reads the position before the step.

_POISON_OF = {
    sr.Card.parse("7H"): "bee", sr.Card.parse("7S"): "jellyfish", sr.Card.parse("7D"): "spider",
}
_POTIONS = frozenset(sr.parse_cards("5C 7C"))
_TYPES = ("jellyfish", "bee", "spider")


class _Referee:
    """The position before one step, in plain sets and lists, and the rules applied to it."""

    def __init__(self, s: sr.State) -> None:
        n = self.n = s.players
        self.on_bag, self.in_bag, self.supply = list(s.on_bag), list(s.in_bag), s.supply
        self.status = list(s.status)
        self.poisons = [{p.card for p in s.poisons(i)} for i in range(n)]
        self.covered = [{p.card for p in s.poisons(i) if p.covered} for i in range(n)]
        self.potions = [set(s.potions(i)) for i in range(n)]
        self.centre = [c.poison for c in s.chest_centre_cards]
        self.chest = list(s.chest_deck_cards)
        self.hands = [set(s.hand(i)) for i in range(n)]
        self.trick = [(p.seat, p.card, p.face_up, p.gems) for p in s.trick]
        self.phase, self.actor, self.round = s.phase, s.actor, s.round
        self.trick_number, self.last_winner = s.trick_number, s.last_winner
        self.round_leader, self.leader, self.revealed = s.round_leader, s.leader, s.revealed
        assert s.trump is not None
        self.trump = s.trump.suit

    def count(self, seat: int, ptype: str) -> int:
        """K15: uncovered poison number cards of the type plus chest poisons in the centre."""
        mine = sum(_POISON_OF[c] == ptype for c in self.poisons[seat] - self.covered[seat])
        return mine + self.centre.count(ptype)

    def shock(self, seat: int) -> None:
        self.supply += self.on_bag[seat]
        self.on_bag[seat] = 0
        self.status[seat] = SHOCKED

    def lead(self) -> sr.Suit | None:
        return next((c.suit for _, c, up, _ in self.trick if up), None)

    def legal(self) -> set[tuple[str, sr.Card]]:
        """How to Play and Withdrawal: follow the first face-up card's suit if possible, or
        withdraw with any card; out of the round, any card face down."""
        hand = self.hands[self.actor]
        if self.status[self.actor] is not IN:
            return {("down", c) for c in hand}
        lead = self.lead()
        plays = {c for c in hand if c.suit == lead} or hand
        return {("play", c) for c in plays} | {("withdraw", c) for c in hand}

    def end_round(self) -> None:
        for i in range(self.n):
            if self.status[i] is IN:
                self.in_bag[i] += self.on_bag[i]
                self.on_bag[i] = 0
        if self.round == 5:
            self.phase = sr.Phase.OVER
            return
        self.round += 1
        self.leader = self.last_winner if self.last_winner >= 0 else self.round_leader
        self.phase = sr.Phase.DEAL

    def finish_trick(self) -> None:
        left = self.status.count(IN)
        if left <= 1 or not any(self.hands):
            self.end_round()
            return
        leader = self.last_winner
        while self.status[leader] is not IN:  # How to Play: next clockwise still in the round
            leader = (leader + 1) % self.n
        self.phase, self.actor, self.trick_number = sr.Phase.PLAY, leader, self.trick_number + 1

    def after_potions(self, w: int) -> None:
        if any(self.count(w, t) >= 2 for t in _TYPES):
            self.shock(w)
        if self.status[w] is IN and self.chest:
            self.phase, self.actor = sr.Phase.CHEST, w
        else:
            self.finish_trick()

    def apply_potions(self, w: int) -> None:
        stored = len(self.potions[w]) - len(self.covered[w])
        uncovered = self.poisons[w] - self.covered[w]
        if stored and len(uncovered) > stored:
            self.phase, self.actor = sr.Phase.COVER, w
            return
        if stored:
            self.covered[w] |= uncovered
        self.after_potions(w)

    def play(self, a: sr.Action) -> None:
        seat, card = self.actor, a.card
        assert card is not None
        up = a.kind is sr.ActionKind.PLAY
        gems = (1 if card.rank <= 4 else 0) if up else (2 if self.n == 3 else 1)
        self.hands[seat].discard(card)
        self.supply -= gems
        self.trick.append((seat, card, up, gems))
        if a.kind is sr.ActionKind.WITHDRAW:
            self.in_bag[seat] += self.on_bag[seat]
            self.on_bag[seat] = 0
            self.status[seat] = OUT
            if IN not in self.status:  # Withdrawal, Note 3 (K13)
                self.supply += sum(p[3] for p in self.trick)
                self.end_round()
                return
        if len(self.trick) < self.n:
            self.actor = (seat + 1) % self.n
            return
        lead = self.lead()

        def strength(p: tuple[int, sr.Card, bool, int]) -> int:
            c = p[1]
            if not p[2]:
                return -1
            return 100 + c.rank if c.suit == self.trump else c.rank if c.suit == lead else -1

        w = max(self.trick, key=strength)[0]
        self.on_bag[w] += sum(p[3] for p in self.trick)
        for _, c, up_, _ in self.trick:
            if up_ and c in _POISON_OF:
                self.poisons[w].add(c)
            if up_ and c in _POTIONS:
                self.potions[w].add(c)
        self.last_winner = w
        self.apply_potions(w)

    def step(self, a: sr.Action) -> None:
        """Apply one player decision or one chest card, by the rulebook."""
        if self.phase is sr.Phase.PLAY:
            self.play(a)
        elif self.phase is sr.Phase.COVER:
            assert a.card is not None
            self.covered[self.actor].add(a.card)
            if len(self.potions[self.actor]) == len(self.covered[self.actor]):
                self.after_potions(self.actor)
        elif self.phase is sr.Phase.CHEST:
            r, card = self.actor, a.chest_card
            assert card is not None
            self.chest.remove(card)
            self.revealed += 1
            self.on_bag[r] += card.large
            self.supply -= card.large
            if card.poison is None:
                for i in range(self.n):
                    if i != r and self.status[i] is IN:
                        self.on_bag[i] += card.small
                        self.supply -= card.small
            else:
                self.centre.append(card.poison)
                for i in [i for i in range(self.n) if self.status[i] is IN]:
                    if self.count(i, card.poison) >= 2:
                        self.shock(i)
            if self.revealed < 3 and self.status[r] is IN and self.chest:
                self.phase = sr.Phase.CHEST_CHOICE
            else:
                self.finish_trick()
        elif a.kind is sr.ActionKind.REVEAL:
            self.phase = sr.Phase.CHEST
        else:
            self.finish_trick()

    def differences(self, s: sr.State) -> list[str]:
        """Return how the engine's state ``s`` differs from the referee's."""
        mine: dict[str, object] = {
            "on_bag": tuple(self.on_bag), "in_bag": tuple(self.in_bag), "supply": self.supply,
            "round": self.round,
        }
        theirs: dict[str, object] = {
            "on_bag": s.on_bag, "in_bag": s.in_bag, "supply": s.supply, "round": s.round,
        }
        if self.phase is sr.Phase.DEAL:
            mine["leader"], theirs["leader"] = self.leader, s.leader
        else:
            mine["phase"], theirs["phase"] = self.phase, s.phase
        if self.phase not in (sr.Phase.DEAL, sr.Phase.OVER):
            mine.update(status=tuple(self.status), actor=self.actor, trick=self.trick_number,
                        poisons=self.poisons, covered=self.covered, potions=self.potions,
                        hands=self.hands, centre=sorted(map(str, self.centre)),
                        chest=sorted(map(str, self.chest)))
            theirs.update(
                status=s.status, actor=s.actor, trick=s.trick_number,
                hands=[set(s.hand(i)) for i in range(self.n)],
                centre=sorted(str(c.poison) for c in s.chest_centre_cards),
                chest=sorted(map(str, s.chest_deck_cards)),
                poisons=[{p.card for p in s.poisons(i)} for i in range(self.n)],
                covered=[{p.card for p in s.poisons(i) if p.covered} for i in range(self.n)],
                potions=[set(s.potions(i)) for i in range(self.n)],
            )
        return [
            f"{k}: rules {mine[k]!r}, engine {theirs[k]!r}" for k in mine if mine[k] != theirs[k]
        ]


@pytest.mark.rule("TRICK-3")
@pytest.mark.rule("TRICK-4")
@pytest.mark.rule("TRICK-9")
@pytest.mark.rule("POTION-4")
@pytest.mark.rule("CHEST-3")
@pytest.mark.rule("LEAD-1")
@pytest.mark.rule("ROUND-4")
@pytest.mark.rule("LEAD-2")
@pytest.mark.rule("WITHDRAW-5")
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("variant", list(sr.Variant))
def test_every_step_of_random_games_matches_an_independent_referee(
    players: int, variant: sr.Variant
) -> None:
    # Players withdraw rarely (weight 1/20), so games run deep enough for shocks, covers and
    # hands played out; every decision and every chest card is checked.
    for seed in range(12):
        rng = random.Random(1000 * players + seed)
        state = sr.new_game(sr.GameConfig(players=players, variant=variant))
        while not sr.is_terminal(state):
            if sr.is_chance(state) and state.phase is not sr.Phase.CHEST:
                state = sr.apply(state, sr.sample_chance(state, rng))
                continue
            referee = _Referee(state)
            if state.phase is sr.Phase.CHEST:
                action = sr.sample_chance(state, rng)
            else:
                options = sr.legal_actions(state)
                if state.phase is sr.Phase.PLAY:
                    assert {(a.kind.value, a.card) for a in options} == referee.legal()
                weights = [0.05 if a.kind is sr.ActionKind.WITHDRAW else 1.0 for a in options]
                action = rng.choices(options, weights=weights)[0]
            state = sr.apply(state, action)
            referee.step(action)
            assert referee.differences(state) == [], (seed, str(action))
