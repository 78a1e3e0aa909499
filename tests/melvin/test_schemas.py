"""The JSON Schemas of Melvin Vs. Kronk's documents (``shock_rules/melvin/schemas``): every
document the package writes over whole games meets its schema, and documents changed to break
the game's conditions, which a schema cannot see, are refused by the reader with a typed
error."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from shock_rules import melvin as mk
from shock_rules._errors import InvalidArgumentError, InvalidNotationError, InvalidStateError

from ._helpers import walk

jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")


def _validator(name: str) -> Any:
    resources = [referencing.Resource.from_contents(mk.schema(n)) for n in mk.SCHEMA_NAMES]
    registry = referencing.Registry().with_resources((r.id() or "", r) for r in resources)
    schema = mk.schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, registry=registry)


def test_every_schema_is_shipped_and_an_unknown_name_is_refused() -> None:
    for name in mk.SCHEMA_NAMES:
        assert mk.schema(name)["$id"].endswith(f"/melvin/{name}.json")
    with pytest.raises(InvalidArgumentError, match="unknown Melvin schema"):
        mk.schema("nope")


@pytest.mark.rule("MK-NOTATION-1")
@pytest.mark.rule("MK-INFO-1")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_document_of_whole_games_meets_its_schema(players: int) -> None:
    states, actions, views = _validator("state"), _validator("action"), _validator("view")
    events = _validator("events")
    kinds: set[str] = set()
    seen: set[str] = set()
    for seed in range(2):
        for state in walk(players, seed * 7 + players):
            states.validate(json.loads(mk.state_to_json(state)))
            for action in mk.legal_actions(state):
                actions.validate(json.loads(mk.action_to_json(action)))
                kinds.add(action.kind)
            if state.step % 5 == 0 or (state.events and not isinstance(
                    state.events[0], mk.CardTurnedUp)):  # every step but most turn-ups
                for v in [mk.spectator_view(state),
                          *(mk.view(state, s) for s in range(players))]:
                    views.validate(json.loads(mk.view_to_json(v)))
            seen.update(type(e).__name__ for e in state.events)
            events.validate({"schema": "shock-rules/2", "game": "melvin", "type": "events",
                             "events": json.loads(mk.state_to_json(state))["events"]})
    assert {"dealer", "reveal", "gem", "penalty", "flip", "slap", "award"} <= kinds
    assert {"CardTurnedUp", "MatchSlapped", "GemsSeen", "GemKept", "PilesCollected",
            "GameEnded"} <= seen


@pytest.mark.parametrize("text", ["7 slap", "0 fly", "reveal V0", "gem G4", "", "0 toalha",
                                  "² slap", "1 award G1 give 6"])
def test_texts_that_are_no_action_fail_the_schema_and_the_reader(text: str) -> None:
    doc = {"schema": "shock-rules/2", "game": "melvin", "type": "action", "notation": text}
    assert not _validator("action").is_valid(doc)
    with pytest.raises((InvalidNotationError, InvalidStateError)):
        mk.action_from_json(json.dumps(doc))


@pytest.mark.rule("MK-CONS-1")
def test_documents_that_break_the_game_are_refused_by_the_reader() -> None:
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
        broken.append({**doc, "to_move": 5})
        broken.append({**doc, "in_game": doc["in_game"][:-1]})
        for bad in broken:
            assert validator.is_valid(bad) or bad is broken[-1]
            with pytest.raises(InvalidStateError):
                mk.state_from_json(json.dumps(bad))


@pytest.mark.rule("MK-NOTATION-1")
def test_record_documents_meet_their_schema_and_read_back() -> None:
    from shock_rules import record as rec

    validator = _validator("record")
    for players in (3, 6):
        actions: list[mk.Action] = []
        mk.random_playout(mk.GameConfig(players=players), random.Random(players), actions)
        record = rec.record_game(mk.GameConfig(players=players), actions, {"Seat0": "Ann"},
                                 result=True)
        doc = {"schema": "shock-rules/2", "type": "record", **rec.record_to_dict(record)}
        validator.validate(doc)
        assert doc["game"] == "melvin"
        assert rec.record_from_json(json.dumps(doc)) == record
        assert not validator.is_valid({**doc, "headers": {"Game": "shock"}})
