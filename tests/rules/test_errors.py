"""Errors: illegal actions, bad configurations; and which decisions a player has (INFO-2)."""

from __future__ import annotations

import re

import attrs
import pytest

import shock_rules as sr

from ._helpers import SUITS_4, full_round_script, run, start
from .test_tricks import MIXED


def _rejects(state: sr.State, text: str, message: str, seat: int | None = None) -> None:
    """Check that ``text`` is illegal with ``message`` and leaves ``state`` unchanged."""
    before, before_hash = attrs.astuple(state), hash(state)
    action = sr.Action.parse(text)
    with pytest.raises(sr.IllegalActionError, match=re.escape(message)) as info:
        sr.apply(state, action, seat=seat)
    assert info.value.action is action
    assert attrs.astuple(state) == before and hash(state) == before_hash


def test_illegal_action_errors_are_value_errors_of_the_package() -> None:
    assert issubclass(sr.IllegalActionError, sr.ShockError)
    assert issubclass(sr.IllegalActionError, ValueError)


@pytest.mark.rule("TRICK-3")
def test_not_following_suit_names_the_action_the_seat_and_the_suit() -> None:
    state = run(start(MIXED, "5D"), "play 4H")
    _rejects(state, "play 2S", "'play 2S' is illegal: seat 1 must follow hearts")
    with pytest.raises(sr.IllegalActionError) as info:
        sr.apply(state, sr.Action.parse("play 2S"))
    assert info.value.seat == 1


def test_acting_out_of_turn_is_an_error_when_the_seat_is_given() -> None:
    state = start(MIXED, "5D")
    _rejects(state, "play 9H", "seat 1", seat=1)
    _rejects(state, "play 9H", "seat 1 cannot act now: seat 0 must act", seat=1)
    # The right seat may act.
    assert sr.apply(state, sr.Action.parse("play 4H"), seat=0).actor == 1
    chance = sr.new_game(sr.GameConfig())
    _rejects(chance, "deal 7H", "seat 0 cannot act now: chance must act", seat=0)


def test_playing_a_card_not_in_hand_is_an_error() -> None:
    state = start(MIXED, "5D")
    _rejects(state, "play 9H", "'play 9H' is illegal: seat 0 does not hold 9H")
    _rejects(state, "withdraw 5D", "'withdraw 5D' is illegal: seat 0 does not hold 5D")


def test_acting_in_the_wrong_phase_is_an_error() -> None:
    state = sr.new_game(sr.GameConfig(players=3, first_leader=0))
    _rejects(state, "play 7H", "'play 7H' is illegal: chance deals a card")
    state = start(SUITS_4, "10C")
    _rejects(state, "down 1H", "'down 1H' is illegal: seat 0 is in the round")
    _rejects(state, "reveal", "'reveal' is illegal: seat 0 must play a card face up or withdraw")
    _rejects(state, "deal 10H", "'deal 10H' is illegal: seat 0 must play a card face up")
    state = run(state, "play 8H; play 8S; play 8D; play 9C; chest G3/0")
    _rejects(state, "play 1C", "'play 1C' is illegal: seat 3 must choose 'reveal' or 'stop'")
    _rejects(state, "chest G3/0", "must choose 'reveal' or 'stop'")


def test_after_the_game_is_over_every_action_is_an_error() -> None:
    state = start(SUITS_4, "10C")
    for _ in range(5):
        state = run(state, full_round_script(state.leader))
        if not sr.is_terminal(state):
            state = sr.deal_hands(state, list(SUITS_4), trump="10C")
    for text in ("play 1H", "deal 1H", "reveal", "leader 0"):
        _rejects(state, text, f"'{text}' is illegal: the game is over")
    _rejects(state, "stop", "nobody (the game is over) must act", seat=3)


def test_a_non_action_is_a_type_error_and_changes_nothing() -> None:
    # An argument of the wrong Python type raises TypeError, as Python does (both builds).
    state = start(SUITS_4, "10C")
    with pytest.raises(TypeError):
        sr.apply(state, "play 1H")  # type: ignore[arg-type]
    assert sr.legal_actions(state) == sr.legal_actions(start(SUITS_4, "10C"))


@pytest.mark.rule("SETUP-1")
@pytest.mark.parametrize("players", [2, 6, True, 4.0, "4", None])
def test_bad_player_counts_are_config_errors(players: object) -> None:
    with pytest.raises(sr.ConfigError, match="players must be 3, 4 or 5"):
        sr.GameConfig(players=players)  # type: ignore[arg-type]


@pytest.mark.rule("SETUP-6")
@pytest.mark.parametrize("leader", [-1, 4, 5, True, "0"])
def test_a_first_leader_outside_the_seats_is_a_config_error(leader: object) -> None:
    with pytest.raises(sr.ConfigError, match="first_leader must be a seat 0-3 or None"):
        sr.GameConfig(players=4, first_leader=leader)  # type: ignore[arg-type]


def test_other_config_errors() -> None:
    with pytest.raises(sr.ConfigError, match="unknown variant 'easy'"):
        sr.GameConfig(variant="easy")
    with pytest.raises(sr.ConfigError, match="edition must be an Edition"):
        sr.GameConfig(edition="default")  # type: ignore[arg-type]
    with pytest.raises(sr.ConfigError, match="needs a GameConfig"):
        sr.new_game(4)  # type: ignore[arg-type]
    assert sr.GameConfig(variant="simplified").variant is sr.Variant.SIMPLIFIED


@pytest.mark.rule("INFO-2")
def test_players_decide_only_cards_to_play_covers_and_further_chest_reveals() -> None:
    kinds = sr.ActionKind
    state = start(SUITS_4, "10C")
    # In the round: play face up or withdraw with any card.
    assert {a.kind for a in sr.legal_actions(state)} == {kinds.PLAY, kinds.WITHDRAW}
    state = run(state, "withdraw 9H; play 7S")
    state = run(state, "play 7D; play 7C")
    # A potion and two poisons: which one to cover.
    assert {a.kind for a in sr.legal_actions(state)} == {kinds.COVER}
    state = run(state, "cover 7S")
    # The first chest card is chance, not a decision.
    assert sr.current_player(state) is sr.CHANCE
    state = run(state, "chest G1/1")
    assert {a.kind for a in sr.legal_actions(state)} == {kinds.REVEAL, kinds.STOP}
    state = run(state, "stop; play 8C")
    # Out of the round: which card to play face down.
    assert {a.kind for a in sr.legal_actions(state)} == {kinds.DOWN}
    # Every decision is a player's; everything else is chance (or automatic).
    for kind in kinds:
        assert kind.is_chance == (kind in {kinds.DEAL, kinds.TRUMP, kinds.CHEST, kinds.LEADER})
