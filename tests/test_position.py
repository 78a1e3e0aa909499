"""The one-line position notation: parse(format(s)) == s for reachable states of every phase,
hand-checked strings, and the two kinds of error (malformed text, impossible state)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shock_rules as sr
from shock_rules._notation.position import format_position, parse_position
from strategies import configs, game_steps

# K3: with 3 players the ranks are 2-10; one suit per seat, so the lead suit is never followed.
HANDS_3 = ["2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
           "2C 3C 4C 5C 6C 7C 8C 9C 10C"]


def _start3() -> sr.State:
    return sr.deal_hands(sr.new_game(sr.GameConfig(players=3, first_leader=0)), HANDS_3,
                         trump="2D")


def cover_state() -> sr.State:
    """Seat 0 wins 7H (bee) + 7S (jellyfish) + the potion 5C: one potion for two uncovered
    poison cards, so it must choose which to cover (K16): phase COVER, actor 0."""
    s = sr.apply_all(_start3(), "play 7H; play 7S; play 5C")
    assert s.phase is sr.Phase.COVER and s.actor == 0
    return s


@settings(max_examples=15)
@given(st.data())
def test_every_reachable_state_round_trips(data: st.DataObject) -> None:
    config = data.draw(configs(), label="config")
    state = sr.new_game(config)
    for step in game_steps(data, config):
        state = step.next
        text = format_position(step.state)
        assert len(text.split(" ")) == 12 and "\n" not in text
        assert parse_position(text, config) == step.state
    assert state.phase is sr.Phase.OVER
    assert parse_position(format_position(state), config) == state


def test_cover_phase_round_trips() -> None:
    s = cover_state()
    text = format_position(s)
    # Seat 0 holds 7H, 7S (uncovered: no star yet) and 5C in front of it.
    assert text.split(" ")[2] == "cover@0"
    assert text.split(" ")[7] == "7H7S5C/-/-"
    assert parse_position(text) == s


@pytest.mark.rule("POTION-6")
def test_a_covered_poison_names_the_potion_lying_on_it() -> None:
    s = sr.apply_all(cover_state(), "cover 7S")
    # K16: 5C lies on 7S; the chest challenge follows (K19): seat 0 reveals.
    fields = format_position(s).split(" ")
    assert fields[2] == "chest@0"
    assert fields[7] == "7H7S(5C)/-/-"
    assert parse_position(" ".join(fields)) == s


def _both_potions_one_covered() -> sr.State:
    """Seat 3 took 7H with 7C, then 5C: 7C stays on 7H and 5C is stored (POTION-6)."""
    from rules._helpers import SUITS_4, run, start
    return run(start(SUITS_4, "10C"), "play 7H; play 8S; play 8D; play 7C; chest G3/0; stop;"
                                      " play 5C; play 6H; play 6S; play 6D")


@pytest.mark.rule("POTION-6")
def test_the_placement_round_trips_and_a_stored_potion_follows_the_poisons() -> None:
    s = _both_potions_one_covered()
    fields = format_position(s).split(" ")
    assert fields[7] == "-/-/-/7H(7C)5C"
    assert parse_position(" ".join(fields)) == s
    # The other reachable placement is another position.
    fields[7] = "-/-/-/7H(5C)7C"
    other = parse_position(" ".join(fields))
    assert other != s and other.poisons(3)[0].covered_by == sr.Card.parse("5C")


@pytest.mark.rule("POTION-6")
@pytest.mark.parametrize(("area", "error", "message"), [
    # (7H*5C7C, the older form, reads; mixed with today's it does not)
    ("7H*5C(7C)", sr.InvalidNotationError, r"followed by the potion lying on it, as 7H\(5C\)"),
    ("7H(2H)5C", sr.InvalidStateError, "2H lies on 7H: only a potion lies on a poison card"),
    ("7H5C(7C)", sr.InvalidStateError, "7C lies on 5C: only a potion lies on a poison card"),
    ("7H(7C)5C7C", sr.InvalidStateError, "7C is listed twice in seat 3's play area"),
    ("7H(7C)(5C)", sr.InvalidNotationError, "malformed areas field"),
    ("7H5C7C", sr.InvalidStateError, "keeps a potion beside an uncovered poison card"),
])
def test_a_forged_placement_in_a_position_is_refused(
        area: str, error: type[Exception], message: str) -> None:
    fields = format_position(_both_potions_one_covered()).split(" ")
    fields[7] = "-/-/-/" + area
    with pytest.raises(error, match=message):
        parse_position(" ".join(fields))


def test_hand_checked_position() -> None:
    # A new 4-player game with a chance first leader: nothing dealt, all 40 cards in the deck,
    # the whole chest deck undrawn and the supply full (280, K29).
    s = sr.new_game(sr.GameConfig(players=4))
    assert format_position(s) == (
        "4std 1.1 deal@0 -,-,- - -/-/-/- i0+0/i0+0/i0+0/i0+0 -/-/-/- -/-/-/- - - -|-|0")
    s = parse_position("4simpL2 1.1 deal@0 2,2,- - -/-/-/- i0+0/i0+0/i0+0/i0+0 -/-/-/- "
                       "-/-/-/- - - -|-|0")
    assert s == sr.new_game(sr.GameConfig(players=4, variant="simplified", first_leader=2))
    assert s.supply == 280 and s.deck_size == 40 and s.chest_deck_size == 24


def test_derived_fields() -> None:
    # After "play 2H; play 3S": seat 0 led 2H (one gem icon, K33), seat 1 played 3S (one gem).
    s = sr.apply_all(_start3(), "play 2H; play 3S")
    fields = format_position(s).split(" ")
    assert fields[9] == "2H3S"
    back = parse_position(" ".join(fields))
    assert [(p.seat, p.gems) for p in back.trick] == [(0, 1), (1, 1)]
    assert back.supply == 278
    # The dungeon deck is the 36 cards minus 27 dealt and the trump card (K3: 3 players).
    assert back.deck_size == 36 - 27 - 1


def test_custom_edition_needs_its_config() -> None:
    data = sr.Edition.default().to_dict()
    data["edition"]["name"] = "house rules with spaces"
    data["number_cards"]["gem_icons"] = {"10H": 2}
    config = sr.GameConfig(players=3, edition=sr.Edition.from_dict(data))
    s = sr.new_game(config)
    text = format_position(s)
    assert text.startswith("3std~ ")
    assert parse_position(text, config) == s
    with pytest.raises(sr.InvalidStateError, match="pass its config"):
        parse_position(text)
    with pytest.raises(sr.InvalidStateError, match="does not match the config"):
        parse_position(text, sr.GameConfig(players=3))


@pytest.mark.parametrize("text", [
    "",
    "4std 1.1 deal@0",  # too few fields
    "4std  1.1 deal@0 -,-,- - -/-/-/- i0+0/i0+0/i0+0/i0+0 -/-/-/- -/-/-/- - - -|-|0",
    "6std 1.1 deal@0 -,-,- - -/-/-/- i0+0/i0+0/i0+0/i0+0 -/-/-/- -/-/-/- - - -|-|0",
    "4std 1.1 dealing@0 -,-,- - -/-/-/- i0+0/i0+0/i0+0/i0+0 -/-/-/- -/-/-/- - - -|-|0",
    "4std 1.1 deal@0 -,-,- 12H -/-/-/- i0+0/i0+0/i0+0/i0+0 -/-/-/- -/-/-/- - - -|-|0",
    "4std 1.1 deal@0 -,-,- - -/-/- i0+0/i0+0/i0+0/i0+0 -/-/-/- -/-/-/- - - -|-|0",
    "4std 1.1 deal@0 -,-,- - -/-/-/- x0+0/i0+0/i0+0/i0+0 -/-/-/- -/-/-/- - - -|-|0",
    "4std 1.1 deal@0 -,-,- - -/-/-/- i-1+0/i0+0/i0+0/i0+0 -/-/-/- -/-/-/- - - -|-|0",
    "4std 1.1 deal@0 -,-,- - -/-/-/- i0+0/i0+0/i0+0/i0+0 -/-/-/- -/-/-/- - - -|-",
    "4std 1.1 deal@0 -,-,- - -/-/-/- i0+0/i0+0/i0+0/i0+0 -/-/-/- -/-/-/- - - X1/1|-|0",
    "4std 1.1 deal@0 -,-,- - -/-/-/- i0+0/i0+0/i0+0/i0+0 -/-/-/- -/-/-/- - - G1/1*0|-|0",
])
def test_malformed_text_raises_invalid_notation(text: str) -> None:
    with pytest.raises(sr.InvalidNotationError, match="invalid position"):
        parse_position(text)


def _fields(s: sr.State) -> list[str]:
    return format_position(s).split(" ")


@pytest.mark.parametrize(("field", "value", "message"), [
    (1, "6.1", "round 6"),
    (1, "1.10", "trick 10"),  # 3 players: 9 cards each, so at most 9 tricks
    (5, "2H2H3H4H5H6H8H9H10H/3S4S5S6S7S8S9S10S/2C3C4C5C6C7C8C9C10C", "listed twice"),
    (5, "2H3H4H5H6H8H9H10H/2H3S4S5S6S7S8S9S10S/2C3C4C5C6C7C8C9C10C", "somewhere else"),
    # 2H left out of every place is in the dungeon deck, and seat 0's hand is one card short.
    (5, "3H4H5H6H8H9H10H/3S4S5S6S7S8S9S10S/2C3C4C5C6C7C8C9C10C", "holds 7 cards in trick 1"),
    (5, "1H2H3H4H5H6H8H9H10H/3S4S5S6S7S8S9S10S/2C3C4C5C6C7C8C9C10C", "not in play"),
    (6, "i0+0/w0+3/i0+0", "out of the round but has gems"),
    (7, "2H/-/-", "neither a poison nor a potion"),
    (11, "G1/1*7|-|0", "chest_deck must count"),  # K32: there are only six G1/1
    (11, "G1/1,G1/1|-|0", "listed twice"),
    (11, "P:wasp|-|0", "not a chest card of the edition"),
])
def test_impossible_state_raises_invalid_state(field: int, value: str, message: str) -> None:
    # Base: 3 players, seat 0 led 7H, seat 1 is to play (see cover_state for the hands).
    fields = _fields(sr.apply_all(_start3(), "play 7H"))
    assert parse_position(" ".join(fields)) is not None  # the unchanged text is valid
    fields[field] = value
    with pytest.raises(sr.InvalidStateError, match=message):
        parse_position(" ".join(fields))


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        parse_position("nonsense")


def test_a_position_of_before_the_placement_reads_as_it_meant(
        potion_on_poison: sr.State) -> None:
    # Positions written before the placement was recorded marked a covered poison with '*'
    # and named no potion: they read with the potions in card order on the covered poisons in
    # card order (the convention they were written under), and what they meant is unchanged.
    state = potion_on_poison
    text = sr.format_position(state)
    assert "/7S(5C)/" in text
    old = text.replace("7S(5C)", "7S*5C")
    assert sr.format_position(sr.parse_position(old, state.config)) == text
    # '*' on a card that is not a poison, or more covered poisons than potions: refused.
    for bad in ("7S*5C*", "7S*"):
        with pytest.raises(sr.InvalidStateError, match="covered"):
            sr.parse_position(text.replace("7S(5C)", bad), state.config)
    # The two forms are not mixed in one play area.
    with pytest.raises(sr.InvalidNotationError, match="7H\\(5C\\)"):
        sr.parse_position(text.replace("7S(5C)", "7S*7C(5C)"), state.config)
