"""Text notation of cards, chest cards and actions: parsing, errors and round trips."""

from __future__ import annotations

import pytest

import shock_rules as sr
from shock_rules._rules.cards import CARDS

_CARD_VERBS = ("play", "withdraw", "down", "cover", "deal", "trump")


def _every_action() -> list[sr.Action]:
    chest = [c for c, _ in sr.Edition.default().chest] + [
        sr.ChestCard.parse("P3:wasp"), sr.ChestCard.parse("G0/7"),
    ]
    return (
        [sr.parse_action(f"{verb} {card}") for verb in _CARD_VERBS for card in CARDS]
        + [sr.Action.chest(c) for c in chest]
        + [sr.Action.leader(seat) for seat in range(5)]
        + [sr.Action.reveal(), sr.Action.stop()]
    )


def test_every_card_round_trips_through_its_notation() -> None:
    assert len(CARDS) == 44
    for card in CARDS:
        assert sr.parse_card(str(card)) is card
        assert sr.Card.parse(str(card).lower()) is card
        assert eval(repr(card), {"Card": sr.Card}) is card
        assert sr.Card.from_index(card.index) is card and card.bit == 1 << card.index
    assert str(sr.Card(10, sr.Suit.SPADES)) == "10S"
    assert sr.Card.parse("7H").index == 6 and sr.Card.parse("1S").index == 11


def test_every_action_round_trips_through_its_notation() -> None:
    actions = _every_action()
    assert len(set(actions)) == len(actions) == 6 * 44 + 9 + 5 + 2
    for action in actions:
        assert sr.parse_action(str(action)) == action
        assert eval(repr(action), {"Action": sr.Action}) == action


def test_chest_cards_round_trip_through_their_notation() -> None:
    for text in ("G1/1", "G2/1", "G3/0", "G4/0", "P:bee", "P:jellyfish", "P2:spider", "G0/0"):
        card = sr.parse_chest_card(text)
        assert str(card) == text and sr.ChestCard.parse(str(card)) == card
    assert sr.parse_chest_card("P1:bee") == sr.parse_chest_card("P:bee")
    assert sr.parse_chest_card("G2/1") == sr.ChestCard(sr.ChestKind.GEM, 2, 1)


def test_action_notation_is_case_and_space_tolerant() -> None:
    assert sr.parse_action("  PLAY   7h ") is sr.parse_action("play 7H")
    assert sr.parse_action("Reveal") is sr.Action.reveal()
    assert str(sr.parse_action("withdraw 10s")) == "withdraw 10S"


@pytest.mark.parametrize(
    "text", ["", "0H", "12H", "7", "H7", "7HH", "7 H", "7X", "ten H", "-1H", "1.0H"],
)
def test_malformed_cards_are_notation_errors(text: str) -> None:
    with pytest.raises(sr.InvalidNotationError, match="invalid card"):
        sr.parse_card(text)


@pytest.mark.parametrize(
    "text",
    ["", "play", "jump 7H", "play 12H", "play 7X", "play 7H 8H", "leader 5", "leader x",
     "leader -1", "reveal now", "stop 7H", "chest", "chest G2", "chest P:Bee", "7H"],
)
def test_malformed_actions_are_notation_errors(text: str) -> None:
    with pytest.raises(sr.InvalidNotationError, match="invalid action"):
        sr.parse_action(text)


@pytest.mark.parametrize(
    "text", ["", "G2", "G2/", "/1", "P:", "P:Bee", "X1/1", "G-1/1", "P:b e", "G1/1/1", "bee"],
)
def test_malformed_chest_cards_are_notation_errors(text: str) -> None:
    with pytest.raises(sr.InvalidNotationError, match="invalid chest card"):
        sr.parse_chest_card(text)


def test_non_text_is_a_notation_error() -> None:
    with pytest.raises(sr.InvalidNotationError):
        sr.parse_card(7)  # type: ignore[arg-type]
    with pytest.raises(sr.InvalidNotationError):
        sr.parse_action(None)  # type: ignore[arg-type]
    with pytest.raises(sr.InvalidNotationError):
        sr.parse_chest_card(b"G1/1")  # type: ignore[arg-type]
    with pytest.raises(sr.InvalidNotationError):
        sr.Action.leader(5)
    assert issubclass(sr.InvalidNotationError, ValueError)
