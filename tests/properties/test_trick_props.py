"""Tricks over whole games: play order, following suit, the winner, what it takes, the next
leader (TRICK-1 to TRICK-8, WITHDRAW-4, WITHDRAW-5, LEAD-1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shock_rules import (
    ActionKind,
    CardPlayed,
    GameConfig,
    Phase,
    Play,
    PoisonTaken,
    PotionTaken,
    Status,
    Suit,
    TrickAbandoned,
    TrickWon,
    Variant,
    legal_actions,
)
from strategies import configs, game_steps

from ._support import VARIANTS, events_of, game_settings, round_ended


def expected_winner(trick: list[Play], trump: Suit) -> Play:
    """Return the winning play by the rulebook: the highest face-up trump, else the highest
    face-up card of the lead suit, the suit of the first face-up card (K8, K10)."""
    up = [p for p in trick if p.face_up]
    lead = up[0].card.suit
    trumps = [p for p in up if p.card.suit is trump]
    pool = trumps or [p for p in up if p.card.suit is lead]
    return max(pool, key=lambda p: p.card.rank)


@pytest.mark.rule("TRICK-1")
@pytest.mark.rule("TRICK-2")
@pytest.mark.rule("TRICK-3")
@pytest.mark.rule("WITHDRAW-1")
@pytest.mark.rule("WITHDRAW-4")
@pytest.mark.rule("INFO-2")
@pytest.mark.parametrize("variant", VARIANTS)
@game_settings()
@given(data=st.data())
def test_play_order_and_following_suit(variant: Variant, data: st.DataObject) -> None:
    config: GameConfig = data.draw(configs(variant=variant), label="config")
    n = config.players
    for step in game_steps(data, config):
        s = step.state
        if s.phase is not Phase.PLAY:
            continue
        # K7: from the leader clockwise, each seat once.
        assert s.actor == (s.leader + len(s.trick)) % n
        assert [p.seat for p in s.trick] == [(s.leader + i) % n for i in range(len(s.trick))]
        if not s.trick:
            sizes = {s.hand_size(seat) for seat in range(n)}
            assert len(sizes) == 1 and sizes != {0}, "hands differ in size at a trick start"
            assert s.status[s.leader] is Status.IN
        hand = set(s.hand(s.actor))
        legal = legal_actions(s)
        if s.status[s.actor] is Status.IN:
            up = [p for p in s.trick if p.face_up]
            lead = up[0].card.suit if up else None  # K8: the first face-up card's suit
            follow = {c for c in hand if c.suit is lead}
            playable = follow or hand  # K9
            assert {a.card for a in legal if a.kind is ActionKind.PLAY} == playable
            assert {a.card for a in legal if a.kind is ActionKind.WITHDRAW} == hand  # K11
            assert len(legal) == len(playable) + len(hand)
        else:
            assert {a.card for a in legal} == hand


@pytest.mark.rule("TRICK-4")
@pytest.mark.rule("TRICK-7")
@pytest.mark.rule("TRICK-8")
@pytest.mark.rule("LEAD-1")
@pytest.mark.rule("WITHDRAW-5")
@pytest.mark.parametrize("variant", VARIANTS)
@game_settings()
@given(data=st.data())
def test_trick_winner_takings_and_next_leader(variant: Variant, data: st.DataObject) -> None:
    config: GameConfig = data.draw(configs(variant=variant), label="config")
    ed = config.edition
    n = config.players
    for step in game_steps(data, config):
        prev, s = step.state, step.next
        won = events_of(s.events, TrickWon)
        abandoned = events_of(s.events, TrickAbandoned)
        if won or abandoned:
            last = events_of(s.events, CardPlayed)[-1]
            trick = [*prev.trick, Play(last.seat, last.card, last.face_up, last.gems)]
            gems = sum(p.gems for p in trick)
        if abandoned:
            # K13: everyone left withdrew: no winner, gems back to the supply, round over.
            assert step.action.kind is ActionKind.WITHDRAW and not won
            assert all(not p.face_up for p in trick)
            assert abandoned[0].gems == gems and round_ended(s)
            in_before = [seat for seat in range(n) if prev.status[seat] is Status.IN]
            assert in_before == [prev.actor], "only the last seat in the round withdrew now"
        if won:
            assert len(trick) == n
            trump = prev.trump_suit
            assert trump is not None
            best = expected_winner(trick, trump)
            assert won[0].seat == best.seat and won[0].card == best.card
            assert won[0].gems == gems
            special = {c for c, _ in ed.poisons} | set(ed.potions)
            taken = {p.card for p in trick if p.face_up and p.card in special}
            got = {e.card for e in events_of(s.events, PoisonTaken)}
            got |= {e.card for e in events_of(s.events, PotionTaken)}
            assert got == taken
            assert all(e.seat == best.seat for e in events_of(s.events, PoisonTaken))
            if not round_ended(s):
                rest = {p.card for p in trick} - taken
                assert all(s.discard_mask & c.bit for c in rest)
                assert all(s.poison_masks[best.seat] & c.bit or s.potion_masks[best.seat] & c.bit
                           for c in taken)
        # LEAD-1: a new trick of the same round is led by the last winner, or if it is out of
        # the round, by the next seat clockwise still in it.
        if s.phase is Phase.PLAY and not s.trick and s.round == prev.round \
                and s.trick_number == prev.trick_number + 1:
            seat = s.last_winner
            while s.status[seat] is not Status.IN:
                seat = (seat + 1) % n
            assert s.leader == seat
