"""Players out of the round (withdrawn or shocked) over whole games (WITHDRAW-3, SHOCK-3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shock_rules import (
    ActionKind,
    CardPlayed,
    GameConfig,
    GemsGained,
    Phase,
    PoisonTaken,
    PotionTaken,
    Shocked,
    Status,
    TrickWon,
    Variant,
    Withdrew,
    legal_actions,
)
from strategies import configs, game_steps

from ._support import VARIANTS, events_of, game_settings, round_ended


@pytest.mark.rule("WITHDRAW-3")
@pytest.mark.rule("SHOCK-3")
@pytest.mark.rule("TRICK-6")
@pytest.mark.rule("INFO-2")
@pytest.mark.parametrize("variant", VARIANTS)
@game_settings()
@given(data=st.data())
def test_out_of_round_seats_gain_nothing_win_nothing_and_are_not_poisoned(
    variant: Variant, data: st.DataObject
) -> None:
    config: GameConfig = data.draw(configs(variant=variant), label="config")
    for step in game_steps(data, config):
        prev, s = step.state, step.next
        out = {seat for seat in range(config.players) if prev.status[seat] is not Status.IN}
        if prev.phase is Phase.PLAY and prev.actor in out:
            # Out of the round, a seat only plays a card of its choice face down (K12, K35).
            assert {a.kind for a in legal_actions(prev)} == {ActionKind.DOWN}
            assert {a.card for a in legal_actions(prev)} == set(prev.hand(prev.actor))
        for ev in s.events:
            if isinstance(ev, TrickWon | GemsGained | PoisonTaken | PotionTaken | Shocked
                          | Withdrew):
                assert ev.seat not in out, f"{ev} for seat {ev.seat}, out of the round"
        for ev in events_of(s.events, CardPlayed):
            if ev.seat in out:
                assert not ev.face_up
        for seat in out:
            assert s.on_bag[seat] == 0
            assert s.in_bag[seat] == prev.in_bag[seat], "no gem reaches an out seat's bag"
            if not round_ended(s):
                assert s.status[seat] is prev.status[seat]
                assert s.poison_masks[seat] == prev.poison_masks[seat]
                assert s.potion_masks[seat] == prev.potion_masks[seat]
                assert s.covered_masks[seat] == prev.covered_masks[seat]
