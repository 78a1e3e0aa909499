"""JSON documents of Melvin Vs. Kronk's actions, states and views."""

from __future__ import annotations

import json
from dataclasses import replace
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shock_rules import melvin as mk
from shock_rules._errors import InvalidStateError

from ._helpers import dealt
from .test_properties import walk


@pytest.mark.rule("MK-NOTATION-1")
@pytest.mark.rule("MK-CONS-1")
@settings(max_examples=15, deadline=None)
@given(st.integers(3, 6), st.integers(0, 2**32 - 1))
def test_states_and_actions_round_trip(n: int, seed: int) -> None:
    for state in walk(n, seed):
        assert mk.state_from_json(mk.state_to_json(state)) == state
        for a in mk.legal_actions(state) + [a for a, _ in mk.chance_outcomes(state)]:
            assert mk.action_from_json(mk.action_to_json(a)) == a


@pytest.mark.rule("MK-CONS-1")
@pytest.mark.parametrize("change", [
    {"pool": [9] * 12}, {"players": 2}, {"gems": [["G9"], [], [], []]}, {"hidden": "x"},
    {"format": "other"}, {"surprise": 1}, {"pending": ["flip", 1]}, {"turn": 9},
    {"pending": ["flip", 9, True]}, {"pending": ["gem"]}, {"oculos": [1]}, {"flipped": 2},
])
def test_impossible_state_documents_are_refused(change: dict[str, object]) -> None:
    doc = json.loads(mk.state_to_json(dealt()))
    doc.update(change)
    with pytest.raises(InvalidStateError):
        mk.state_from_json(json.dumps(doc))


@pytest.mark.rule("MK-INFO-1")
def test_a_view_document_holds_no_other_seats_gem_cards() -> None:
    s = mk.apply(dealt(), mk.Slap(1))
    s = mk.apply(s, mk.DrawPenalty("Olho"))
    s = replace(s, gems=(("G3",), ("G1",), (), ()))  # a view does not check the state
    doc = json.loads(mk.view_to_json(mk.view(s, 1)))
    assert doc["gems"] == [None, ["G1"], None, None]
    assert doc["penalties"][1] == ["Olho"]


@pytest.mark.rule("MK-INFO-1")
@settings(max_examples=5, deadline=None)
@given(st.integers(3, 6), st.integers(0, 2**32 - 1))
def test_view_documents_match_the_shipped_schema(n: int, seed: int) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(resources.files("shock_rules.melvin").joinpath(
        "schemas", "view.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    for state in walk(n, seed):
        for seat in [None, *range(n)]:
            validator.validate(json.loads(mk.view_to_json(mk.view(state, seat))))
