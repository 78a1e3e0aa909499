"""Rounds and variants over whole games: dealing, round ends, banking, the next round's hands
and leader, the end of the game (DEAL-2, ROUND-1 to ROUND-6, VAR-1, VAR-2, LEAD-2, GAME-1/2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shock_rules import (
    ActionKind,
    GameConfig,
    GameEnded,
    GemsBanked,
    Phase,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    Shocked,
    Status,
    TrickAbandoned,
    TrickWon,
    Variant,
    Withdrew,
    scores,
    winners,
)
from strategies import configs, game_steps

from ._support import VARIANTS, deck_mask, events_of, game_settings


@pytest.mark.rule("DEAL-2")
@pytest.mark.rule("SETUP-3")
@pytest.mark.rule("VAR-1")
@pytest.mark.rule("VAR-2")
@pytest.mark.rule("ROUND-6")
@pytest.mark.parametrize("variant", VARIANTS)
@game_settings()
@given(data=st.data())
def test_hands_carry_over_or_are_fresh_by_variant(variant: Variant, data: st.DataObject) -> None:
    config: GameConfig = data.draw(configs(variant=variant), label="config")
    n = config.players
    size = 8 if n == 5 else 9  # rulebook Setup 7
    deck = deck_mask(config)
    kept: tuple[int, ...] = (0,) * n
    deals = 0
    for step in game_steps(data, config):
        prev, s = step.state, step.next
        if step.action.kind is ActionKind.DEAL:
            deals += 1
            # One card at a time to the seat with fewest cards, lowest seat first.
            fewest = min(prev.hand_size(seat) for seat in range(n))
            target = min(seat for seat in range(n) if prev.hand_size(seat) == fewest)
            assert step.action.card in s.hand(target) and prev.actor == target
        if step.action.kind is ActionKind.TRUMP:
            assert all(prev.hand_size(seat) == size for seat in range(n))
            assert all(prev.hand_masks[seat] & kept[seat] == kept[seat] for seat in range(n))
            # VAR-2 deals n full hands every round; VAR-1 only refills what was played.
            missing = sum(size - k.bit_count() for k in kept)
            assert deals == missing
            deals = 0
        ended = events_of(s.events, RoundEnded)
        if ended and not events_of(s.events, GameEnded):
            hands = list(prev.hand_masks)
            if step.action.card is not None and step.action.kind in (
                ActionKind.PLAY, ActionKind.WITHDRAW, ActionKind.DOWN
            ):
                hands[prev.actor] &= ~step.action.card.bit
            if variant is Variant.STANDARD:
                assert list(s.hand_masks) == hands  # cards left in hand carry over
            else:
                assert s.hand_masks == (0,) * n  # every hand is discarded
            kept = s.hand_masks
            # ROUND-6: everything not in a hand is gathered; everyone is back in the round.
            held = 0
            for h in s.hand_masks:
                held |= h
            assert s.pool_mask == deck & ~held and s.trump_index == -1
            assert s.status == (Status.IN,) * n and s.discard_mask == 0
            assert not any(s.poison_masks) and not any(s.potion_masks)
            assert s.chest_deck == tuple(c for _, c in config.edition.chest)
            assert s.phase in (Phase.DEAL, Phase.TRUMP)


@pytest.mark.rule("ROUND-1")
@pytest.mark.rule("ROUND-2")
@pytest.mark.rule("ROUND-3")
@pytest.mark.rule("ROUND-5")
@pytest.mark.rule("LEAD-2")
@pytest.mark.rule("GAME-1")
@pytest.mark.rule("GAME-2")
@pytest.mark.parametrize("variant", VARIANTS)
@game_settings()
@given(data=st.data())
def test_rounds_end_bank_and_hand_over_the_lead(variant: Variant, data: st.DataObject) -> None:
    config: GameConfig = data.draw(configs(variant=variant), label="config")
    n = config.players
    rounds_ended = 0
    last_winner = -1
    round_leader = -1 if config.first_leader is None else config.first_leader
    state = None
    for step in game_steps(data, config):
        prev, s = step.state, step.next
        state = s
        if prev.phase is Phase.PLAY and prev.round_leader >= 0:
            round_leader = prev.round_leader
        for ev in events_of(s.events, TrickWon):
            last_winner = ev.seat
        ended = events_of(s.events, RoundEnded)
        if not ended:
            if s.phase is Phase.PLAY and not s.trick:
                # No end condition holds when a trick starts (ROUND-1 to ROUND-3).
                assert sum(st is Status.IN for st in s.status) >= 2
                assert any(s.hand_masks)
            continue
        rounds_ended += 1
        assert ended[0].round == rounds_ended == prev.round
        # The status after the trick and chest (before the reset for the next round).
        out = {e.seat for e in events_of(s.events, Shocked)}
        out |= {e.seat for e in events_of(s.events, Withdrew)}
        in_round = [seat for seat in range(n) if prev.status[seat] is Status.IN
                    and seat not in out]
        reason = ended[0].reason
        hands = list(prev.hand_masks)
        if prev.phase is Phase.PLAY and step.action.card is not None:
            hands[prev.actor] &= ~step.action.card.bit
        hands_left = any(hands)
        if events_of(s.events, TrickAbandoned):
            assert reason is RoundEndReason.ALL_WITHDREW
        elif not in_round:
            assert reason is RoundEndReason.NOBODY_LEFT
        elif not hands_left:
            assert reason is RoundEndReason.HANDS_EMPTY
        else:
            assert reason is RoundEndReason.ONE_LEFT and len(in_round) == 1
        # ROUND-5: those still in bank their gems on the bag.
        banked = {e.seat: e.gems for e in events_of(s.events, GemsBanked)}
        assert set(banked) <= set(in_round)
        for seat in in_round:
            assert s.in_bag[seat] >= prev.in_bag[seat] + prev.on_bag[seat]
        assert s.on_bag == (0,) * n
        started = events_of(s.events, RoundStarted)
        if events_of(s.events, GameEnded):
            assert not started and s.phase is Phase.OVER
        else:
            # LEAD-2: the last trick winner of the round leads the next; else its first leader.
            expected = last_winner if last_winner >= 0 else round_leader
            assert started == [RoundStarted(prev.round + 1, expected)]
            assert s.leader == expected
            last_winner = -1
    assert rounds_ended == 5  # GAME-1
    assert state is not None
    best = max(scores(state))
    assert winners(state) == {seat for seat in range(n) if state.in_bag[seat] == best}
    assert events_of(state.events, GameEnded)[0].scores == state.in_bag
