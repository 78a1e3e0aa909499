"""The JSON Schemas of Melvin Vs. Kronk's state and action documents (``schemas/``): every
document the package writes over whole games meets its schema, and documents changed to break
the game's conditions, which the schema cannot see, are refused by the loader with a typed
error."""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any

import pytest

from shock_rules import melvin as mk
from shock_rules._errors import InvalidNotationError, InvalidStateError

from .test_properties import walk

jsonschema = pytest.importorskip("jsonschema")


def _validator(name: str) -> Any:
    schema = json.loads(resources.files("shock_rules.melvin").joinpath(
        "schemas", f"{name}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.rule("MK-NOTATION-1")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_state_and_action_documents_meet_their_schemas(players: int) -> None:
    states, actions = _validator("state"), _validator("action")
    kinds: set[str] = set()
    for seed in range(3):
        for state in walk(players, seed * 7 + players):
            doc = json.loads(mk.state_to_json(state))
            states.validate(doc)
            offered = ([a for a, _ in mk.chance_outcomes(state)] if mk.is_chance(state)
                       else [a for s in range(players) for a in mk.legal_actions(state, s)])
            for action in offered:
                text = json.loads(mk.action_to_json(action))
                actions.validate(text)
                assert mk.action_from_json(mk.action_to_json(action)) == action
                kinds.add(text.split()[1] if text[0].isdigit() else text.split()[0])
    assert {"dealer", "reveal", "gem", "penalty", "flip", "slap", "award"} <= kinds


@pytest.mark.parametrize("text", ["7 slap", "0 fly", "reveal V0", "gem G4", "", "0 toalha",
                                  "² slap", "1 award G1 give 6"])
def test_texts_that_are_no_action_fail_the_schema_and_the_reader(text: str) -> None:
    assert not _validator("action").is_valid(text)
    with pytest.raises((InvalidNotationError, InvalidStateError)):
        mk.action_from_json(json.dumps(text))


@pytest.mark.rule("MK-CONS-1")
def test_documents_that_break_the_game_are_refused_by_the_loader() -> None:
    rng = random.Random(4)
    states = list(walk(4, 11))
    validator = _validator("state")
    for state in rng.sample(states, 30):
        doc = json.loads(mk.state_to_json(state))
        assert mk.state_from_json(json.dumps(doc)) == state
        # Each change keeps the document's form (the schema accepts it) but breaks a condition
        # of the game: a Versus card made or lost, a Gem card duplicated, a seat out of range.
        broken = []
        pool = list(doc["pool"])
        pool[0] += 1
        broken.append({**doc, "pool": pool})
        if any(doc["gems"]):
            seat = next(i for i, g in enumerate(doc["gems"]) if g)
            gems = [list(g) for g in doc["gems"]]
            gems[seat].append(gems[seat][0])
            broken.append({**doc, "gems": gems})
        broken.append({**doc, "turn": 5})
        broken.append({**doc, "in_game": doc["in_game"][:-1]})
        for bad in broken:
            text = json.dumps(bad)
            with pytest.raises(InvalidStateError):
                mk.state_from_json(text)
        assert validator.is_valid(broken[0])
