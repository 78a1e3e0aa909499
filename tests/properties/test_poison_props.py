"""Poisons, potions and shock over whole games (POISON-*, POTION-*, SHOCK-*)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shock_rules import (
    ActionKind,
    Card,
    GameConfig,
    GemsGained,
    Phase,
    PoisonCovered,
    PoisonTaken,
    Shocked,
    Status,
    TrickWon,
    Variant,
    spectator_view,
)
from strategies import configs, game_steps

from ._support import VARIANTS, events_of, game_settings, poison_count, round_ended


@pytest.mark.rule("POISON-2")
@pytest.mark.rule("SHOCK-1")
@pytest.mark.rule("POTION-4")
@pytest.mark.rule("CHEST-3")
@pytest.mark.parametrize("variant", VARIANTS)
@game_settings()
@given(data=st.data())
def test_a_seat_in_the_round_never_stands_at_two_of_a_poison(
    variant: Variant, data: st.DataObject
) -> None:
    config: GameConfig = data.draw(configs(variant=variant), label="config")
    types = config.edition.poison_types
    for step in game_steps(data, config):
        s = step.next
        for seat in range(config.players):
            for ptype in types:
                count = poison_count(s, seat, ptype)
                choosing = s.phase is Phase.COVER and s.actor == seat  # K17: choice first
                if s.status[seat] is Status.IN:
                    assert s.poison_count(seat, ptype) == count  # K15, computed independently
                    if not choosing:
                        assert count < 2, f"seat {seat} is in the round at {count} {ptype}"
                else:
                    # POISON-3: chest poisons do not reach a seat out of the round.
                    own = count - sum(1 for c in s.chest_centre_cards if c.poison == ptype)
                    assert s.poison_count(seat, ptype) == own
        if round_ended(s):
            continue
        # Whoever was shocked by this step stands at 2 or more of that poison now (SHOCK-1).
        for shock in events_of(s.events, Shocked):
            assert s.status[shock.seat] is Status.SHOCKED
            assert poison_count(s, shock.seat, shock.poison) >= 2


@pytest.mark.rule("POTION-2")
@pytest.mark.rule("POTION-3")
@pytest.mark.rule("POTION-5")
@pytest.mark.rule("POISON-1")
@pytest.mark.parametrize("variant", VARIANTS)
@game_settings()
@given(data=st.data())
def test_potions_cover_only_number_poison_cards(variant: Variant, data: st.DataObject) -> None:
    config: GameConfig = data.draw(configs(variant=variant), label="config")
    ed = config.edition
    poison_cards = {c for c, _ in ed.poisons}
    for step in game_steps(data, config):
        s, prev = step.next, step.state
        for seat in range(config.players):
            covered = s.covered_masks[seat]
            assert not covered & ~s.poison_masks[seat], "a potion covers a card not in front"
            potions = s.potion_masks[seat].bit_count()
            assert covered.bit_count() <= potions
            uncovered = s.poison_masks[seat] & ~covered
            stored = potions - covered.bit_count()
            if not (s.phase is Phase.COVER and s.actor == seat):
                # K16: a stored potion never sits beside an uncovered poison card.
                assert not (stored and uncovered)
        for ev in events_of(s.events, PoisonCovered):
            assert ev.card in poison_cards
        for taken in events_of(s.events, PoisonTaken):
            assert ed.poison_type(taken.card) == taken.poison
        if step.action.kind is ActionKind.CHEST and not round_ended(s):
            # POTION-5: a chest poison never consumes or is covered by a potion.
            assert s.covered_masks == prev.covered_masks
            assert s.potion_masks == prev.potion_masks


@pytest.mark.rule("SHOCK-2")
@pytest.mark.rule("SHOCK-3")
@pytest.mark.rule("POISON-3")
@pytest.mark.parametrize("variant", VARIANTS)
@game_settings()
@given(data=st.data())
def test_shock_returns_the_gems_on_the_bag_and_keeps_those_in_it(
    variant: Variant, data: st.DataObject
) -> None:
    config: GameConfig = data.draw(configs(variant=variant), label="config")
    for step in game_steps(data, config):
        s, prev = step.next, step.state
        gained = list(prev.on_bag)
        shocked_now: set[int] = set()
        for ev in s.events:
            if isinstance(ev, TrickWon):
                gained[ev.seat] += ev.gems
            elif isinstance(ev, GemsGained):
                gained[ev.seat] += ev.gems
            elif isinstance(ev, Shocked):
                assert prev.status[ev.seat] is Status.IN, "an out-of-round seat was shocked"
                assert ev.seat not in shocked_now
                assert ev.lost == gained[ev.seat], "shock must return every gem on the bag"
                gained[ev.seat] = 0
                shocked_now.add(ev.seat)
        for seat in shocked_now:
            assert s.on_bag[seat] == 0
            assert s.in_bag[seat] == prev.in_bag[seat]
        if not round_ended(s):
            # Out of the round until it ends: never shocked again, never back in (SHOCK-3).
            for seat in range(config.players):
                if prev.status[seat] is not Status.IN:
                    assert s.status[seat] is prev.status[seat]


# The potion cards in card order, as the rulebook names them (K1), and the order in which a
# seat's waiting potions are laid (POTION-6).
_POTIONS = (Card.parse("5C"), Card.parse("7C"))


def _cards(mask: int) -> list[Card]:
    return [Card.from_index(i) for i in range(44) if mask >> i & 1]


@pytest.mark.rule("POTION-6")
@pytest.mark.rule("POTION-3")
@pytest.mark.rule("POTION-4")
@pytest.mark.parametrize("variant", VARIANTS)
@game_settings()
@given(data=st.data())
def test_a_laid_potion_never_moves_and_potions_are_laid_in_card_order(
    variant: Variant, data: st.DataObject
) -> None:
    config: GameConfig = data.draw(configs(variant=variant), label="config")
    for step in game_steps(data, config):
        s, prev = step.next, step.state
        before = dict(zip(_POTIONS, prev.potion_on_masks, strict=True))
        after = dict(zip(_POTIONS, s.potion_on_masks, strict=True))
        if round_ended(s) and s.phase is not Phase.OVER:
            # K26: the round's cards are cleared, and the placement with them.
            assert not any(after.values())
            continue
        # POTION-6: a potion laid on a poison stays there.
        for potion, on in before.items():
            if on:
                assert after[potion] == on, f"{potion} moved off {_cards(on)}"
        laid = {potion: after[potion] for potion in _POTIONS
                if after[potion] and not before[potion]}
        covers = events_of(s.events, PoisonCovered)
        assert {e.potion: e.card.bit for e in covers} == laid
        if laid:
            seat = covers[0].seat
            held = s.potion_masks[seat]
            waiting = [p for p in _POTIONS if held & p.bit and not before[p]]
            # The first waiting potions in card order are the ones laid.
            assert list(laid) == waiting[:len(laid)]
            chosen = step.action.card
            if step.action.kind is ActionKind.COVER and chosen is not None:
                assert list(laid.values()) == [chosen.bit]
            else:
                # Laid without a choice: on every uncovered poison card, in card order.
                covered = 0
                for on in before.values():
                    covered |= on
                uncovered = s.poison_masks[seat] & ~covered
                assert list(laid.values()) == [c.bit for c in _cards(uncovered)]
        # Every view shows the placement recorded in the state (K34), drawn where the play
        # areas changed (a view every step made the test twice as long).
        if (prev.potion_on_masks, prev.poison_masks) == (s.potion_on_masks, s.poison_masks):
            continue
        shown = {pc.covered_by: pc.card.bit for sv in spectator_view(s).seats
                 for pc in sv.poisons if pc.covered_by is not None}
        assert shown == {p: on for p, on in after.items() if on}
