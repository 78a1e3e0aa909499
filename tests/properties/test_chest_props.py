"""The chest challenge over whole games (CHEST-1 to CHEST-5, DEAL-4)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shock_rules import (
    ActionKind,
    ChestRevealed,
    GameConfig,
    GemsGained,
    Phase,
    PoisonCovered,
    Shocked,
    Status,
    TrickWon,
    Variant,
)
from strategies import configs, game_steps

from ._support import VARIANTS, events_of, game_settings, poison_count, round_ended


@pytest.mark.rule("CHEST-1")
@pytest.mark.rule("CHEST-2")
@pytest.mark.rule("CHEST-3")
@pytest.mark.rule("CHEST-4")
@pytest.mark.rule("CHEST-5")
@pytest.mark.rule("ROUND-4")
@pytest.mark.parametrize("variant", VARIANTS)
@game_settings()
@given(data=st.data())
def test_chest_challenges_follow_the_rules(variant: Variant, data: st.DataObject) -> None:
    config: GameConfig = data.draw(configs(variant=variant), label="config")
    n = config.players
    for step in game_steps(data, config):
        prev, s = step.state, step.next
        assert 0 <= s.revealed <= 3
        reveals = events_of(s.events, ChestRevealed)
        if step.action.kind is ActionKind.CHEST:
            card = step.action.chest_card
            assert card is not None
            r = prev.actor
            assert prev.status[r] is Status.IN and r == prev.last_winner
            assert prev.chest_deck_size > 0 and prev.revealed < 3
            assert reveals == [ChestRevealed(r, card, prev.revealed + 1)]
            gains: Counter[int] = Counter()
            for ev in events_of(s.events, GemsGained):
                gains[ev.seat] += ev.gems
            expected: Counter[int] = Counter()
            if card.large:
                expected[r] += card.large  # the revealer's large icons (K20, K21: 1 gem)
            if card.is_poison:
                assert card.poison is not None
                # K21: everyone in the round is poisoned; all who reach 2 are shocked at once.
                doomed = {seat for seat in range(n) if prev.status[seat] is Status.IN
                          and poison_count(prev, seat, card.poison) + 1 >= 2}
                assert {e.seat for e in events_of(s.events, Shocked)} == doomed
            else:
                for other in range(n):
                    if other != r and prev.status[other] is Status.IN and card.small:
                        expected[other] += card.small
                assert not events_of(s.events, Shocked)
            assert gains == expected
            if not round_ended(s):
                revealer_in = s.status[r] is Status.IN
                if revealer_in and prev.revealed + 1 < 3 and s.chest_deck_size:
                    assert s.phase is Phase.CHEST_CHOICE and s.actor == r  # CHEST-4
                else:
                    assert s.phase is Phase.PLAY and not s.trick  # CHEST-3, CHEST-5
        else:
            assert not reveals
        if s.phase is Phase.CHEST_CHOICE:
            assert 1 <= s.revealed <= 2 and s.chest_deck_size > 0
        # CHEST-1: once a trick's potions are settled, a winner still in the round opens the
        # chest if it has a card, even after the last trick of the round (ROUND-4).
        won = events_of(s.events, TrickWon)
        covered = events_of(s.events, PoisonCovered)
        settled = bool(won or (prev.phase is Phase.COVER and covered)) \
            and s.phase is not Phase.COVER
        if settled:
            winner = won[0].seat if won else prev.actor
            shocked = winner in {e.seat for e in events_of(s.events, Shocked)}
            if not shocked and prev.chest_deck_size:
                assert s.phase is Phase.CHEST and s.actor == winner
            else:
                assert s.phase is not Phase.CHEST
