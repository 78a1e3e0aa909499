"""Card and gem conservation at every step of whole games (SETUP-2, GEM-1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shock_rules import CardPlayed, GameConfig, Variant
from shock_rules._rules.check import check_state
from strategies import configs, game_steps

from ._support import VARIANTS, deck_mask, events_of, game_settings


@pytest.mark.rule("SETUP-2")
@pytest.mark.rule("TRICK-8")
@pytest.mark.rule("ROUND-6")
@pytest.mark.parametrize("variant", VARIANTS)
@game_settings()
@given(data=st.data())
def test_every_card_in_play_is_in_exactly_one_place(variant: Variant, data: st.DataObject) -> None:
    config: GameConfig = data.draw(configs(variant=variant), label="config")
    deck = deck_mask(config)
    assert deck.bit_count() == {3: 36, 4: 40, 5: 44}[config.players]
    for step in game_steps(data, config):
        s = step.next
        places = [s.pool_mask, s.discard_mask, *s.hand_masks, *s.poison_masks, *s.potion_masks]
        places += [p.card.bit for p in s.trick]
        if s.trump_index >= 0:
            places.append(1 << s.trump_index)
        union = 0
        for m in places:
            assert not m & union, f"a card is in two places after {step.action}"
            union |= m
        assert union == deck, f"cards lost or added after {step.action}"
        check_state(s)


@pytest.mark.rule("GEM-1")
@pytest.mark.rule("SETUP-4")
@pytest.mark.rule("TRICK-5")
@pytest.mark.rule("TRICK-6")
@pytest.mark.parametrize("variant", VARIANTS)
@game_settings()
@given(data=st.data())
def test_gems_are_conserved_and_placed_as_the_cards_say(
    variant: Variant, data: st.DataObject
) -> None:
    config: GameConfig = data.draw(configs(variant=variant), label="config")
    ed = config.edition
    total = sum(g.value * g.count for g in ed.gems)
    face_down = 2 if config.players == 3 else 1  # rulebook Withdrawal, Exception (K10)
    for step in game_steps(data, config):
        s = step.next
        on_cards = sum(p.gems for p in s.trick)
        assert s.supply + on_cards + sum(s.on_bag) + sum(s.in_bag) == total
        assert all(v >= 0 for v in (*s.on_bag, *s.in_bag))
        # Gems in a bag are safe: a bag's content never shrinks (WITHDRAW-2, SHOCK-2).
        assert all(a <= b for a, b in zip(step.state.in_bag, s.in_bag, strict=True))
        for played in events_of(s.events, CardPlayed):
            expected = ed.icons(played.card) if played.face_up else face_down
            assert played.gems == expected
