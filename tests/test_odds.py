"""chest_odds: the exact odds of the next chest card for its revealer (K15, K20-K23, K34).

The default chest (K31, K32) holds 24 cards: 6 x G1/1, 6 x G2/1, 4 x G3/0, 2 x G4/0 and two
poison cards of each of the three types, each giving its revealer 1 gem. A full deck's large
icons therefore add up to 6*1 + 6*2 + 4*3 + 2*4 + 6*1 = 44.
"""

from __future__ import annotations

import random
from fractions import Fraction

import attrs
import pytest

import shock_rules as sr
from shock_rules._info.odds import ChestOdds, chest_odds

# Three players (ranks 2-10); clubs undealt, so with a club trump nobody can ruff.
HANDS_3 = (
    "2H 3H 4H 5H 6H 7H 8H 9H 10H",
    "2S 3S 4S 5S 6S 7S 8S 9S 10S",
    "2D 3D 4D 5D 6D 7D 8D 9D 10D",
)


def _start(hands: tuple[str, ...] = HANDS_3, trump: str = "2C") -> sr.State:
    config = sr.GameConfig(players=len(hands), first_leader=0)
    return sr.deal_hands(sr.new_game(config), list(hands), trump=trump)


@pytest.mark.rule("CHEST-2")
def test_a_full_chest_cannot_shock_a_seat_without_poison() -> None:
    # Seat 0 wins 10H / 2S / 2D (the 2s carry a gem each, K33) and must reveal (K19).
    s = sr.apply_all(_start(), "play 10H; play 2S; play 2D")
    assert s.phase is sr.Phase.CHEST
    odds = chest_odds(sr.view(s, 0))
    assert odds == ChestOdds(
        seat=0, cards=24, poison=Fraction(6, 24), shock=Fraction(0), gain=Fraction(44, 24),
        at_risk=2, counts=(("jellyfish", 0), ("bee", 0), ("spider", 0)),
    )
    assert odds.safe


@pytest.mark.rule("CHEST-3")
def test_a_chest_poison_in_the_centre_makes_its_twin_deadly() -> None:
    # After P:bee every seat in the round has a bee count of 1 (K15); the other P:bee among
    # the 23 cards left would shock the revealer (K21), costing its 2 + 1 gems on the bag.
    s = sr.apply_all(_start(), "play 10H; play 2S; play 2D; chest P:bee")
    assert s.phase is sr.Phase.CHEST_CHOICE
    odds = chest_odds(sr.view(s, 0))
    assert odds.at_risk == 3
    assert odds.cards == 23
    assert odds.poison == Fraction(5, 23)
    assert odds.shock == Fraction(1, 23)
    # 38 gems of gem cards + 4 harmless poison cards x 1 gem - 3 lost on the deadly card.
    assert odds.gain == Fraction(38 + 4 - 3, 23)
    assert dict(odds.counts)["bee"] == 1
    assert not odds.safe


@pytest.mark.rule("POISON-1")
def test_an_uncovered_poison_number_card_counts() -> None:
    # Seat 1 cannot follow hearts and plays 7S (jellyfish); seat 0 wins it (K14) with one gem
    # (2D). Both P:jellyfish cards of the 24 would now shock seat 0.
    s = sr.apply_all(_start(), "play 10H; play 7S; play 2D")
    assert s.poison_count(0, "jellyfish") == 1
    odds = chest_odds(sr.view(s, 0))
    assert odds.shock == Fraction(2, 24)
    assert odds.gain == Fraction(38 + 4 * 1 - 2 * 1, 24)


@pytest.mark.rule("POTION-2")
def test_a_covered_poison_card_counts_zero() -> None:
    hands = ("2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
             "2D 3D 4D 5D 6D 8D 9D 10D 5C")
    s = sr.apply_all(_start(hands, trump="2C"), "play 10H; play 7S; play 5C")
    # 5C is a potion: it covers 7S at once (K16), so jellyfish counts zero (K15).
    assert s.poison_count(0, "jellyfish") == 0
    odds = chest_odds(sr.view(s, 0))
    assert odds.shock == 0
    assert odds.gain == Fraction(44, 24)


@pytest.mark.rule("CHEST-5")
def test_an_empty_chest_deck_gives_zero_odds() -> None:
    v = sr.view(sr.apply_all(_start(), "play 10H; play 2S; play 2D"), 0)
    odds = chest_odds(attrs.evolve(v, chest_deck=()))  # K23: nothing would be revealed
    assert odds.cards == 0
    assert odds.poison == odds.shock == odds.gain == Fraction(0)


def test_odds_need_a_seat_in_the_round() -> None:
    s = sr.apply_all(_start(), "play 10H; play 2S; play 2D")
    with pytest.raises(ValueError, match="needs a seat"):
        chest_odds(sr.spectator_view(s))
    assert chest_odds(sr.spectator_view(s), seat=0).seat == 0
    out = sr.apply_all(_start(), "withdraw 2H")
    with pytest.raises(ValueError, match="seat 0 is out of the round"):
        chest_odds(sr.view(out, 0))


def _engine_odds(state: sr.State, seat: int) -> tuple[Fraction, Fraction]:
    """The same two numbers computed by playing every chest outcome with the engine. (A shock
    may end the round at once, which resets the statuses and banks the bags: so the shock is
    read from the events and the gems from the bag's content and top together.)"""
    shock = gain = Fraction(0)
    for action, p in sr.chance_outcomes(state):
        after = sr.apply(state, action)
        if any(isinstance(e, sr.Shocked) and e.seat == seat for e in after.events):
            shock += p
            gain -= p * state.on_bag[seat]
        else:
            gain += p * (after.on_bag[seat] + after.in_bag[seat]
                         - state.on_bag[seat] - state.in_bag[seat])
    return shock, gain


@pytest.mark.rule("CHEST-3")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_odds_agree_with_the_engine_at_every_chest_reveal(players: int) -> None:
    rng = random.Random(players)
    config = sr.GameConfig(players=players)
    checked = 0
    for _ in range(15):
        s = sr.new_game(config)
        while not sr.is_terminal(s):
            if s.phase is sr.Phase.CHEST:
                seat = s.actor
                odds = chest_odds(sr.view(s, seat))
                assert (odds.shock, odds.gain) == _engine_odds(s, seat)
                checked += 1
            if sr.is_chance(s):
                s = sr.apply(s, sr.sample_chance(s, rng))
            else:
                acts = sr.legal_actions(s)
                stay = [a for a in acts if a.kind is not sr.ActionKind.WITHDRAW]
                s = sr.apply(s, rng.choice(stay if stay and rng.random() > 0.05 else acts))
    assert checked > 50
