"""The remote-seat protocol (docs/protocol.md): step numbers, turn fields, action documents,
the Table's event logs, error documents, and JSON Schemas that every emitted document meets."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import jsonschema
import pytest
import referencing

import shock_rules as sr
from shock_rules import protocol
from shock_rules.protocol import Table, error_document, schema

CONFIGS = [sr.GameConfig(players=3), sr.GameConfig(players=4, first_leader=1),
           sr.GameConfig(players=5, variant=sr.Variant.SIMPLIFIED)]


def _registry() -> referencing.Registry[Any]:
    resources = [referencing.Resource.from_contents(schema(n)) for n in protocol.SCHEMA_NAMES]
    return referencing.Registry().with_resources((r.id() or "", r) for r in resources)


REGISTRY = _registry()
VALIDATORS = {n: jsonschema.Draft202012Validator(schema(n), registry=REGISTRY)
              for n in protocol.SCHEMA_NAMES}


def valid(name: str, doc: object) -> bool:
    return bool(VALIDATORS[name].is_valid(doc))


def check(name: str, doc: object) -> None:
    errors = sorted(VALIDATORS[name].iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, f"{name}: {errors[0].message} at {list(errors[0].path)}"


# -- the step count -------------------------------------------------------------------------


def test_step_counts_every_apply_on_every_path() -> None:
    # Every step function (deal, trump, leader, play mid-trick, the last card of a trick, a
    # withdrawal that ends a trick, cover, chest, reveal/stop, a round's end) adds exactly 1.
    rng = random.Random(7)
    seen_phases: set[sr.Phase] = set()
    for game in range(30):
        s = sr.new_game(CONFIGS[game % 3])
        assert s.step == 0
        n = 0
        while not sr.is_terminal(s):
            seen_phases.add(s.phase)
            acts = sr.legal_actions(s)
            # Mostly keep playing (a random withdrawal per decision would end rounds early).
            stay = [a for a in acts if a.kind is not sr.ActionKind.WITHDRAW]
            s = sr.apply(s, rng.choice(stay if stay and rng.random() < 0.9 else acts))
            n += 1
            assert s.step == n
    assert seen_phases == set(sr.Phase) - {sr.Phase.OVER}


def test_step_is_history_not_position() -> None:
    s = sr.new_game(sr.GameConfig(players=3, first_leader=0))
    later = sr.apply(s, sr.legal_actions(s)[0])
    loaded = sr.parse_position(sr.format_position(later))
    # Like events, the step is not part of a position: equal and equally hashed, and a state
    # read from a position starts at 0, while a JSON state document keeps it.
    assert loaded == later and hash(loaded) == hash(later) and loaded.step == 0
    assert sr.state_from_json(sr.to_json(later)).step == 1 == later.step
    actions: list[sr.Action] = []
    end = sr.random_playout(sr.GameConfig(players=4), random.Random(3), actions)
    assert end.step == len(actions)


# -- views ---------------------------------------------------------------------------------


def test_to_act_is_none_while_dealing_although_actor_is_the_seat_dealt_to() -> None:
    s = sr.new_game(sr.GameConfig(players=3, first_leader=0))
    s = sr.apply(s, sr.legal_actions(s)[0])
    v = sr.view(s, 1)
    assert v.phase is sr.Phase.DEAL and v.actor == 1
    assert v.to_act is None and not v.your_turn and not v.my_turn and v.legal_actions == ()
    doc: dict[str, Any] = sr.to_dict(v)
    assert doc["to_act"] is None and doc["your_turn"] is False and doc["actor"] == 1
    assert doc["step"] == 1 and all(e["step"] == 1 for e in doc["events"])


def test_view_documents_carry_turn_step_and_structured_actions() -> None:
    table = Table(sr.GameConfig(players=3, first_leader=0), rng=random.Random(4))
    seat = table.to_act
    assert seat == 0
    doc: dict[str, Any] = table.view_document(seat)
    assert doc["to_act"] == 0 and doc["your_turn"] is True and doc["step"] == table.step
    assert doc["legal_actions"] and all(
        a == {"notation": str(act), "kind": act.kind.value, "card": str(act.card)}
        for a, act in zip(doc["legal_actions"], sr.legal_actions(table.state), strict=True))
    other: dict[str, Any] = table.view_document(1)
    assert other["to_act"] == 0 and other["your_turn"] is False and other["legal_actions"] == []
    assert sr.view_from_json(doc) == table.view(seat)


def test_no_minus_one_in_any_document() -> None:
    # Before the first leader is chosen, every "no seat" is null (K5).
    table = Table(sr.GameConfig(players=3))
    docs: list[dict[str, Any]] = [sr.to_dict(table.state), table.view_document(0),
                                  table.view_document(None)]
    assert docs[0]["leader"] is None and docs[0]["round_leader"] is None
    assert docs[0]["last_winner"] is None and docs[0]["events"][0]["leader"] is None

    def ints(x: object) -> Iterator[int]:
        if isinstance(x, dict):
            for v in x.values():
                yield from ints(v)
        elif isinstance(x, list):
            for v in x:
                yield from ints(v)
        elif type(x) is int:
            yield x
    assert all(v >= 0 for d in docs for v in ints(d))


# -- actions -------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["play 7H", "withdraw 10S", "down 1C", "cover 7D", "reveal",
                                  "stop", "deal 11C", "trump 2D", "chest G2/1", "chest P:bee",
                                  "leader 4"])
def test_action_documents_round_trip_as_text_object_or_document(text: str) -> None:
    action = sr.Action.parse(text)
    doc = sr.to_dict(action)
    check("action", doc)
    body = {k: v for k, v in doc.items() if k not in ("schema", "type")}
    assert body["notation"] == text and body["kind"] == text.split()[0]
    for message in (text, body, doc, {**doc, "step": 3}, {"notation": text}):
        assert protocol.read_action_message(message)[0] is action
    assert sr.action_from_json(json.dumps(doc)) is action


@pytest.mark.parametrize("doc", [
    {"kind": "play"}, {"kind": "play", "card": "12H"}, {"kind": "dance"}, 42, None, [],
    {"kind": "reveal", "card": "7H"}, {"kind": "play", "card": "7H", "notation": "play 8H"},
    {"kind": "leader", "seat": 9}, {"kind": "leader", "seat": "2"}, {},
])
def test_bad_actions_raise_invalid_notation_error(doc: object) -> None:
    with pytest.raises(sr.InvalidNotationError):
        protocol.read_action_message(doc)
    full = {"schema": sr.SCHEMA, "type": "action", **doc} if isinstance(doc, dict) else doc
    with pytest.raises(sr.InvalidNotationError):
        sr.action_from_json(json.dumps(full))
    if isinstance(doc, dict) and "notation" not in doc:
        # (That a notation agrees with the fields is beyond a schema: only the reader checks.)
        assert not valid("action", full)


def test_action_from_json_never_raises_invalid_state_error() -> None:
    for text in ["", "{", "[]", '{"schema": "shock-rules/1", "type": "action", "action": "x"}',
                 '{"schema": "shock-rules/2", "type": "state"}']:
        with pytest.raises(sr.InvalidNotationError):
            sr.action_from_json(text)


# -- the table -----------------------------------------------------------------------------


def _errors_of(table: Table, seat: int, message: object) -> dict[str, object]:
    before = (table.state, table.step)
    try:
        table.act(seat, message)
    except sr.ShockError as exc:
        assert (table.state, table.step) == before  # a refused message changes nothing
        doc = error_document(exc, table.step)
        check("error", doc)
        return doc
    raise AssertionError(f"{message!r} was accepted")


def test_table_refuses_with_typed_errors_and_error_documents() -> None:
    table = Table(sr.GameConfig(players=3, first_leader=0), rng=random.Random(4))
    hand = table.state.hand(0)
    other = table.state.hand(1)[0]
    cases: list[tuple[int, object, str]] = [
        (1, f"play {other}", "not_your_turn"),
        (0, "play 99X", "bad_notation"),
        (0, {"kind": "play"}, "bad_notation"),
        (0, {"schema": sr.SCHEMA, "type": "view"}, "bad_document"),
        (0, f"play {other}", "illegal_action"),
        (0, {"schema": sr.SCHEMA, "type": "action", "notation": f"play {hand[0]}",
             "step": table.step - 1}, "stale_step"),
        (7, f"play {hand[0]}", "bad_seat"),
        (0, "deal 2H", "illegal_action"),
    ]
    for seat, message, code in cases:
        doc = _errors_of(table, seat, message)
        assert doc["code"] == code, (message, doc)
        assert doc["step"] == table.step and doc["message"]
    choices: list[dict[str, Any]] = table.view_document(0)["legal_actions"]  # type: ignore
    table.act(0, {"schema": sr.SCHEMA, "type": "action", "step": table.step, **choices[0]})
    assert table.to_act == 1
    with pytest.raises(protocol.NotYourTurnError):
        table.chance("deal 2H")


def test_error_documents_hide_what_is_not_a_shock_error() -> None:
    doc = error_document(KeyError("/etc/secret"))
    assert doc == {"schema": sr.SCHEMA, "type": "error", "code": "internal_error",
                   "message": "internal error"}
    with pytest.raises(protocol.BadSeatError):
        Table().view(5)
    assert set(protocol.ERROR_CODES) == set(schema("error")["properties"]["code"]["enum"])


def test_a_host_that_cannot_act_now_says_so_with_a_code_of_its_own() -> None:
    doc = error_document(protocol.UnavailableError("the database cannot be reached"), step=3)
    assert doc == {"schema": sr.SCHEMA, "type": "error", "code": "unavailable",
                   "message": "the database cannot be reached", "step": 3}
    assert protocol.error_code(protocol.UnavailableError("x")) == "unavailable"
    assert isinstance(protocol.UnavailableError("x"), sr.ShockError)


def test_table_with_chance_from_the_host() -> None:
    # A physical game: the host types in the cards as they are dealt.
    table = Table(sr.GameConfig(players=3, first_leader=0))
    assert table.step == 0 and table.to_act is None
    with pytest.raises(protocol.NotYourTurnError, match="not a chance outcome"):
        table.chance("play 2H")
    with pytest.raises(protocol.NotYourTurnError, match="chance must act"):
        table.act(0, "play 2H")
    cards = iter(sr.legal_actions(table.state))
    while table.to_act is None:
        table.chance(next(cards) if table.state.phase is sr.Phase.DEAL
                     else sr.legal_actions(table.state)[0])
    assert table.step == 28 and table.to_act == 0
    assert sr.replay(table.record())[-1] == table.state


def test_events_since_shows_a_reconnecting_seat_only_what_it_may_see() -> None:
    rng = random.Random(12)
    table = Table(sr.GameConfig(players=4), rng=random.Random(12))
    seen = {seat: 0 for seat in range(4)}  # the last step each seat received
    while not table.is_over:
        seat = table.to_act
        assert seat is not None
        missed = table.events_since(seat, seen[seat])
        doc = table.events_document(seat, seen[seat])
        check("events", doc)
        assert sr.events_from_json(doc) == tuple(e for _, e in missed)
        assert [e["step"] for e in doc["events"]] == [s for s, _ in missed]  # type: ignore
        assert all(seen[seat] < s <= table.step for s, _ in missed)
        seen[seat] = table.step
        table.act(seat, rng.choice(table.view(seat).legal_actions))
    state = table.state
    # Replay the game: every card dealt to another seat, or played face down by another seat,
    # must stay hidden in every seat's log, and spectators see no card dealt or face down.
    states = sr.replay(table.record())
    assert states[-1] == state and len(states) == state.step + 1
    for viewer in [0, 1, 2, 3, None]:
        log = table.events_since(viewer)
        assert [s for s, _ in log] == sorted(s for s, _ in log)
        dealt = [e for _, e in log if isinstance(e, sr.CardDealt)]
        hidden = [e for _, e in log if isinstance(e, sr.HiddenCardDealt)]
        assert all(e.seat == viewer for e in dealt) and all(e.seat != viewer for e in hidden)
        assert len(dealt) + len(hidden) == sum(isinstance(e, sr.CardDealt)
                                               for s in states for e in s.events)
        downs = [e for _, e in log if isinstance(e, sr.CardPlayed) and not e.face_up]
        assert all(e.seat == viewer for e in downs)
        # No event names a card another seat holds at that step, or played face down.
        for step, e in log:
            secret = 0
            for other in range(4):
                if other != viewer:
                    secret |= states[step].hand_masks[other] | states[step].face_down_masks[other]
            card = getattr(e, "card", None)
            if isinstance(card, sr.Card) and type(e).__name__ != "TrickWon":
                assert not secret & card.bit, (viewer, step, e)
    assert table.events_since(2, state.step) == ()


# -- schemas -------------------------------------------------------------------------------


def test_schemas_are_draft_2020_12_with_an_id_and_the_protocol_version() -> None:
    for name in protocol.SCHEMA_NAMES:
        s = schema(name)
        jsonschema.Draft202012Validator.check_schema(s)
        assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert s["$id"].endswith(f"/2/{name}.json") and s["x-protocol"] == protocol.PROTOCOL
    assert protocol.PROTOCOL == sr.SCHEMA == "shock-rules/2"
    with pytest.raises(ValueError, match="unknown schema"):
        schema("pizza")


def test_the_event_schema_knows_every_event_class() -> None:
    from shock_rules._json import EVENT_TYPES

    branches = schema("event")["oneOf"]
    assert sorted(b["properties"]["event"]["const"] for b in branches) == sorted(EVENT_TYPES)


def _emitted(game: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield every kind of document the package writes, over one random game: at each step
    (chance included) the state and the view of one seat in turn (or a spectator's); at each
    decision the events the seat missed, its action and refused messages; then the record."""
    rng = random.Random(game)
    config = CONFIGS[game % 3]
    table = Table(config, rng=random.Random(game))
    n = config.players
    yield "config", sr.to_dict(config)
    last = {seat: -1 for seat in range(n)}
    while not table.is_over:
        seat = table.to_act
        assert seat is not None
        if table.step % 4 == 0:  # (a sample: events documents are long to validate)
            yield "events", table.events_document(seat, last[seat])
            last[seat] = table.step
        acts = table.view(seat).legal_actions
        yield "action", sr.to_dict(acts[0])
        for message in [((seat + 1) % n, str(acts[0])), (seat, "play 99X"), (seat, {"kind": 1})]:
            try:
                table.act(*message)
            except sr.ShockError as exc:
                yield "error", error_document(exc, table.step)
        stay = [a for a in acts if a.kind is not sr.ActionKind.WITHDRAW]
        table.act(seat, rng.choice(stay if stay and rng.random() < 0.9 else acts))
    for state in sr.replay(table.record()):
        yield "state", sr.to_dict(state)
        seat = state.step % (n + 1)
        yield "view", sr.to_dict(sr.view(state, seat) if seat < n else sr.spectator_view(state))
    yield "events", table.events_document(None)
    yield "record", sr.to_dict(sr.record_game(config, table.record().actions, {"Seat0": "A"},
                                              result=True))


def test_every_emitted_document_meets_its_schema() -> None:
    counts: dict[str, int] = {}
    for game in range(3):
        for name, doc in _emitted(game):
            if not VALIDATORS[name].is_valid(doc):
                check(name, doc)  # names the first error
            counts[name] = counts.get(name, 0) + 1
    # A thousand steps, chance included, each with its state and a view (every seat's and a
    # spectator's in turn), and thousands of the other kinds of document.
    assert counts["state"] > 1000 and counts["view"] == counts["state"]
    assert counts["action"] + counts["error"] + counts["events"] > 1500
    assert set(counts) == set(protocol.SCHEMA_NAMES) - {"common", "event"}



def test_an_embedded_edition_meets_the_config_schema_which_knows_its_fields() -> None:
    data = sr.Edition.default().to_dict()
    data["edition"]["name"] = "custom"
    config = sr.GameConfig(players=4, edition=sr.Edition.from_dict(data))
    doc = sr.to_dict(config)
    assert doc["edition"] == data
    check("config", doc)
    check("state", sr.to_dict(sr.new_game(config)))
    # An edition is closed like every object of the documents: what it does not know, the
    # schema rejects and the loader refuses.
    for where in [(), ("edition",), ("number_cards",), ("gems", 0), ("chest", 0)]:
        bad = copy.deepcopy(doc)
        _get(bad["edition"], where)["unexpected"] = 1
        assert not valid("config", bad), where
        with pytest.raises(sr.InvalidStateError, match="unknown key 'unexpected'"):
            sr.config_from_json(bad)

# -- what the schemas reject, the loaders refuse ---------------------------------------------

LOADERS: dict[str, Callable[[Any], object]] = {
    "state": sr.state_from_json, "view": sr.view_from_json, "action": sr.action_from_json,
    "events": sr.events_from_json, "record": sr.record_from_json,
    "config": sr.config_from_json,
}
NONE_SEATS = {"leader", "actor", "round_leader", "last_winner", "to_act", "first_leader", "seat"}


def _paths(doc: object, path: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    yield path
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*path, i))


def _mutants(doc: dict[str, Any], rng: random.Random) -> Iterator[tuple[str, dict[str, Any]]]:
    paths = [p for p in _paths(doc) if p]
    for path in rng.sample(paths, min(12, len(paths))):
        *head, last = path
        for what, value in [("a string", "x"), ("a number", 1.5), ("null", None), ("a list", []),
                            ("an object", {"x": 1}), ("true", True), ("-1", -1)]:
            if what == "-1" and not (last in NONE_SEATS and (len(path) == 1 or last != "seat")):
                continue  # -1 used to mean "no seat": it must now be refused there
            bad = copy.deepcopy(doc)
            parent: Any = bad
            for k in head:
                parent = parent[k]
            parent[last] = value
            yield f"{path} = {what}", bad
        if isinstance(last, str):
            bad = copy.deepcopy(doc)
            parent = bad
            for k in head:
                parent = parent[k]
            del parent[last]
            yield f"{path} removed", bad
    for container in [p for p in [(), *paths] if isinstance(_get(doc, p), dict)][:8]:
        bad = copy.deepcopy(doc)
        _get(bad, container)["unexpected"] = 1
        yield f"{container} + unexpected", bad
    yield "version 1", {**copy.deepcopy(doc), "schema": "shock-rules/1"}


def _get(doc: Any, path: tuple[object, ...]) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def test_documents_the_schemas_reject_are_refused_by_the_loaders() -> None:
    rng = random.Random(2)
    rejected = 0
    for game in range(3):
        docs = [(n, d) for n, d in _emitted(game) if n in LOADERS]
        picked = [d for kind, k in [("state", 1), ("view", 2), ("events", 1), ("action", 2),
                                    ("config", 1), ("record", 1)]
                  for d in rng.sample([d for d in docs if d[0] == kind], k)]
        for name, doc in picked:
            LOADERS[name](doc)  # the document as written loads
            for what, bad in _mutants(doc, rng):
                if valid(name, bad):
                    continue
                rejected += 1
                try:
                    LOADERS[name](json.dumps(bad))
                except (sr.InvalidStateError, sr.InvalidNotationError):
                    pass
                else:
                    raise AssertionError(f"{name}: {what} is rejected by the schema but loads")
    assert rejected > 1000


def test_a_table_resumes_a_saved_state_with_its_step() -> None:
    first = Table(sr.GameConfig(players=3, first_leader=0), rng=random.Random(9))
    saved = sr.to_json(first.state)
    table = Table(state=sr.state_from_json(saved), rng=random.Random(9))
    assert table.step == first.step == 28 and table.to_act == 0
    assert table.events_since(0) == first.events_since(0, 27)  # its log starts at the state
    with pytest.raises(ValueError, match="given state"):
        table.record()
    with pytest.raises(protocol.BadSeatError, match="spectator"):
        table.act(None, "play 2H")  # type: ignore[arg-type]


def test_bad_arguments_of_tables_and_schemas_are_typed_errors() -> None:
    cfg = sr.GameConfig(players=3)
    table = Table(cfg, rng=random.Random(1))
    calls: list[Callable[[], object]] = [
        lambda: protocol.schema("nope"),
        lambda: protocol.schema(None),  # type: ignore[arg-type]
        lambda: Table(state=object()),
        lambda: Table("3 players"),
        lambda: Table(cfg, rng=7),  # type: ignore[arg-type]
        lambda: Table(cfg, state=sr.new_game(sr.GameConfig(players=4))),
        lambda: Table(state=sr.new_game(cfg)).record(),
        lambda: table.events_since(0, "x"),  # type: ignore[arg-type]
        lambda: table.events_document(0, [1]),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(sr.InvalidArgumentError):
            call()
    assert table.events_since(0, None) == table.events_since(0)
