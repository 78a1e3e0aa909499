"""JSON documents of Melvin Vs. Kronk: round trips, strict reading, and readers that raise
their typed errors themselves (a bug inside shows its own traceback)."""

from __future__ import annotations

import json

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shock_rules import melvin as mk
from shock_rules._errors import InvalidNotationError, InvalidStateError

from ._helpers import dealt, walk


@pytest.mark.rule("MK-NOTATION-1")
@pytest.mark.rule("MK-CONS-1")
@settings(max_examples=15, deadline=None)
@given(st.integers(3, 6), st.integers(0, 2**32 - 1))
def test_states_views_events_and_actions_round_trip(n: int, seed: int) -> None:
    for state in walk(n, seed):
        back = mk.state_from_json(mk.state_to_json(state))
        assert back == state and back.events == state.events and back.step == state.step
        for a in mk.legal_actions(state):
            assert mk.action_from_json(mk.action_to_json(a)) == a
        for v in [mk.spectator_view(state), *(mk.view(state, s) for s in range(n))]:
            assert mk.view_from_json(mk.view_to_json(v)) == v
    config = mk.GameConfig(players=n)
    text = json.dumps({"schema": "shock-rules/2", "game": "melvin", "type": "config",
                       "players": n, "edition": "default"})
    assert mk.config_from_json(text) == config


@pytest.mark.rule("MK-CONS-1")
@pytest.mark.parametrize("change", [
    {"pool": [9] * 12}, {"config": {"players": 2, "edition": "default"}},
    {"gems": [["G9"], [], [], []]}, {"hidden": "x"}, {"schema": "other"}, {"game": "shock"},
    {"surprise": 1}, {"pending": {"phase": "turn_up", "seat": 1}}, {"to_move": 9},
    {"pending": {"phase": "turn_up", "seat": 9, "by_turn": True}},
    {"pending": {"phase": "gem", "seat": -1, "by_turn": False}}, {"oculos": [1]},
    {"flipped": 2}, {"flipped": 1}, {"phase": "award"}, {"to_move": None}, {"events": [{}]},
    {"events": [{"event": "CardTurnedUp", "seat": 7, "face": 3, "turn": True}]},
    {"events": [{"event": "Nope"}]}, {"end_reason": "bored"}, {"discards": [[[1]], [], [], []]},
    {"transfers": [[1, 1]]}, {"award": {"winner": 1}}, {"clock": -1}, {"dealer": None},
])
def test_impossible_state_documents_are_refused(change: dict[str, object]) -> None:
    doc = json.loads(mk.state_to_json(dealt()))
    doc.update(change)
    with pytest.raises(InvalidStateError):
        mk.state_from_json(json.dumps(doc))


@pytest.mark.parametrize("text", ["", "[]", "{", "null", '"1 flip"', "1e999",
                                  '{"schema": "shock-rules/2", "type": "action"}'])
def test_what_is_no_document_is_an_invalid_state_error(text: str) -> None:
    for read in (mk.state_from_json, mk.view_from_json, mk.config_from_json,
                 mk.events_from_json):
        with pytest.raises(InvalidStateError):
            read(text)


def test_an_action_document_must_agree_with_its_notation() -> None:
    doc = {"schema": "shock-rules/2", "game": "melvin", "type": "action",
           "notation": "1 award G3 give 2", "kind": "award", "seat": 1, "keep": "G3", "give": 2}
    assert mk.action_from_json(json.dumps(doc)) == mk.Award(1, "G3", 2)
    with pytest.raises(InvalidStateError, match="does not agree"):
        mk.action_from_json(json.dumps({**doc, "give": 3}))
    with pytest.raises(InvalidNotationError):
        mk.action_from_json(json.dumps({**doc, "notation": "1 award G4 give 2"}))


@pytest.mark.rule("MK-INFO-1")
def test_a_view_document_holds_no_other_seats_gem_cards() -> None:
    s = mk.apply(mk.apply(dealt(), mk.Slap(1)), mk.DrawPenalty("Olho"))
    s = attrs.evolve(s, gems=(("G3",), ("G1",), (), ()))  # a view reads the state as it is
    doc = json.loads(mk.view_to_json(mk.view(s, 1)))
    assert doc["gems"] == [None, ["G1"], None, None]
    assert doc["penalties"][1] == ["Olho"]
    assert "G3" not in json.dumps(doc)


@pytest.mark.parametrize("reader", ["state", "view", "events"])
def test_a_bug_inside_a_reader_shows_its_own_exception(
        monkeypatch: pytest.MonkeyPatch, reader: str) -> None:
    # Check at the gate, trust inside: nothing relabels an unexpected error as a complaint
    # about the document, so a maintainer's bug keeps its own type and traceback.
    state = mk.apply(dealt(), mk.Flip(1))
    texts = {"state": mk.state_to_json(state), "view": mk.view_to_json(mk.view(state, 1)),
             "events": json.dumps({"schema": "shock-rules/2", "game": "melvin",
                                   "type": "events", "events": [
                                       {"event": "WrongSlap", "seat": 1}]})}

    def planted(*args: object, **kwargs: object) -> object:
        raise ZeroDivisionError("planted")

    monkeypatch.setattr("shock_rules.melvin._json._read_field", planted)
    monkeypatch.setattr("shock_rules.melvin._json._config", planted)
    read = {"state": mk.state_from_json, "view": mk.view_from_json,
            "events": mk.events_from_json}[reader]
    with pytest.raises(ZeroDivisionError, match="planted"):
        read(texts[reader])


def test_a_bug_planted_in_the_edition_reader_shows_its_own_exception(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from shock_rules.melvin import _cards

    text = mk.state_to_json(dealt())

    def planted(data: object, name: str) -> object:
        raise ZeroDivisionError("planted in the edition reader")

    _cards._load.cache_clear()
    monkeypatch.setattr(_cards, "_read", planted)
    try:
        with pytest.raises(ZeroDivisionError, match="planted"):
            mk.state_from_json(text)
    finally:
        _cards._load.cache_clear()
