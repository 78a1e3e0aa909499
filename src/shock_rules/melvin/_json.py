"""JSON documents of Melvin Vs. Kronk: configs, states, actions, events and views.

Every document is a JSON object that opens with the package's tags: ``"schema"``
(``shock-rules/2``), ``"game": "melvin"`` and its ``"type"`` (``"config"``, ``"state"``,
``"action"``, ``"events"``, ``"view"``); its JSON Schema ships in
``shock_rules/melvin/schemas/<type>.schema.json`` (:func:`schema`). An action is written in
its notation with its fields (MK-NOTATION-1); an event as its class name and fields. A state
document holds every field, secrets included: it is for saving and debugging, never for a
client, which gets view documents only (MK-INFO-1).

Reading is strict and raises the package's typed errors itself: a malformed document, an
unknown or missing field, or a state no legal play reaches (``check_state``) raises
:class:`~shock_rules.InvalidStateError` naming the place; an action whose notation does not
read raises :class:`~shock_rules.InvalidNotationError`. Nothing else escapes for any JSON
input, and nothing is caught to be relabelled.

>>> from shock_rules import melvin
>>> s = melvin.new_game(melvin.GameConfig(players=3))
>>> melvin.state_from_json(melvin.state_to_json(s)) == s
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any, Final, TypeVar

import attrs

from shock_rules._errors import InvalidArgumentError, InvalidNotationError, quoted
from shock_rules._reading import (
    Doc,
    fail,
    header,
    load_doc,
    read_bool,
    read_header,
    read_int,
    read_list,
    read_obj,
    read_str,
)

from . import _events
from ._cards import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PENALTIES,
    SPECIALS,
    Action,
    GameConfig,
    parse_action,
)
from ._check import check_state
from ._events import EndReason, Event
from ._state import AwardWindow, Pending, Phase, State
from ._view import View

__all__ = [
    "GAME", "SCHEMA_NAMES", "action_from_json", "action_to_dict", "action_to_json",
    "config_from_json", "config_to_dict", "event_to_dict", "events_from_json",
    "events_to_dict", "schema", "state_from_json", "state_to_dict", "state_to_json",
    "view_from_json", "view_to_dict", "view_to_json",
]

#: The ``"game"`` tag of every Melvin document.
GAME: Final = "melvin"
#: The JSON Schemas shipped (``common`` holds the definitions the others share, ``event`` one
#: event).
SCHEMA_NAMES: Final = ("action", "common", "config", "event", "events", "record", "state",
                        "view")
T = TypeVar("T")


def _dumps(doc: Mapping[str, object]) -> str:
    return json.dumps(doc, ensure_ascii=False)


def schema(name: str) -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of the documents named ``name`` (one of
    :data:`SCHEMA_NAMES`), as a fresh dict. Schemas refer to each other by relative ``$ref``
    under their ``$id`` (``https://shock-rules.github.io/schemas/2/melvin/<name>.json``), as
    the protocol's do; raise :class:`~shock_rules.InvalidArgumentError` for an unknown name."""
    if not isinstance(name, str) or name not in SCHEMA_NAMES:
        raise InvalidArgumentError(f"unknown Melvin schema {quoted(name)}: expected one of"
                                   f" {', '.join(SCHEMA_NAMES)}")
    data: dict[str, Any] = json.loads(_schema(name))
    return data


@cache
def _schema(name: str) -> str:
    return resources.files("shock_rules.melvin").joinpath(
        "schemas", f"{name}.json").read_text(encoding="utf-8")


# -- configs ------------------------------------------------------------------------------------


def config_to_dict(config: GameConfig) -> dict[str, object]:
    """Return the fields of a config document (without its tags)."""
    return {"players": config.players, "edition": config.edition}


def _config(value: object, path: str) -> GameConfig:
    doc = read_obj(value, path, ("players", "edition"))
    players = read_int(doc["players"], f"{path}.players", 3, MAX_PLAYERS)
    edition = read_str(doc["edition"], f"{path}.edition")
    if edition != "default":
        raise fail(f"{path}.edition", f"no Melvin edition {quoted(edition)}: expected"
                   " 'default'")
    return GameConfig(players=players, edition=edition)


def config_from_json(text: str | bytes | Doc) -> GameConfig:
    """Return the config of a ``"config"`` document."""
    doc = read_header(load_doc(text), "config", ("players", "edition"), game=GAME)
    return _config({k: doc[k] for k in ("players", "edition")}, "config")


# -- actions ------------------------------------------------------------------------------------


def action_to_dict(action: Action) -> dict[str, object]:
    """Return the fields of an action document (without its tags): its notation, its kind
    and its fields."""
    return {"notation": str(action), "kind": action.kind, **attrs.asdict(action)}


def read_action(value: object, path: str) -> Action:
    """Return the action of an action object at ``path``: its ``notation`` is read, and any
    other field given must agree with it."""
    if isinstance(value, str):
        return parse_action(value)
    if not isinstance(value, dict):
        raise fail(path, f"expected an action object or its notation, not {quoted(value)}")
    action = parse_action(read_str(value.get("notation"), f"{path}.notation"))
    written = action_to_dict(action)
    for key, given in value.items():
        if key in ("schema", "game", "type"):
            continue
        if key not in written:
            raise fail(path, f"unknown field {quoted(key)} of a {action.kind} action")
        if given != written[key] or type(given) is not type(written[key]):
            raise fail(f"{path}.{key}", f"{quoted(given)} does not agree with the notation"
                       f" {quoted(str(action))}")
    return action


def action_from_json(text: str | bytes | Doc) -> Action:
    """Return the action of an ``"action"`` document; raise
    :class:`~shock_rules.InvalidNotationError` when its notation does not read."""
    data = load_doc(text)
    read_header(data, "action", ("notation",), ("kind", "seat", "dealer", "face", "card",
                                                 "keep", "give", "target"), game=GAME)
    return read_action(data, "action")


def _expect(value: object, kind: type, what: str) -> None:
    if not isinstance(value, kind):
        raise TypeError(f"expected {what}, not {type(value).__name__} {quoted(value, 40)}")


def action_to_json(action: Action) -> str:
    """Return the ``"action"`` document of an action as JSON text."""
    _expect(action, Action, "a Melvin action")
    return _dumps({**header("action", GAME), **action_to_dict(action)})


# -- events -------------------------------------------------------------------------------------

#: Every event class by the name its documents use.
EVENT_TYPES: Final[dict[str, type[Event]]] = {
    name: cls for name in _events.__all__
    if isinstance(cls := getattr(_events, name), type) and issubclass(cls, Event)
    and cls is not Event}


def event_to_dict(event: Event) -> dict[str, object]:
    """Return an event as a document: its class name and its fields."""
    data: dict[str, object] = {"event": type(event).__name__}
    for f in attrs.fields(type(event)):
        value = getattr(event, f.name)
        if isinstance(value, EndReason):
            value = value.name.lower()
        elif isinstance(value, frozenset):
            value = sorted(value)
        elif isinstance(value, tuple):
            value = list(value)
        data[f.name] = value
    return data


def _read_field(kind: str, value: object, path: str, players: int) -> object:
    """Return an event field of type ``kind`` (its annotation) read from ``value``."""
    if kind == "int":
        high = players - 1 if path.rsplit(".", 1)[-1] in _SEAT_FIELDS else None
        return read_int(value, path, 0, high)
    if kind == "bool":
        return read_bool(value, path)
    if kind == "str":
        return read_str(value, path)
    if kind == "EndReason":
        name = read_str(value, path).upper()
        if name not in EndReason.__members__:
            raise fail(path, f"unknown end reason {quoted(value)}")
        return EndReason[name]
    items = read_list(value, path)
    if kind == "tuple[str, ...]":
        return tuple(read_str(v, f"{path}[{i}]") for i, v in enumerate(items))
    seats = kind == "frozenset[int]"
    values = tuple(read_int(v, f"{path}[{i}]", 0, players - 1 if seats else None)
                   for i, v in enumerate(items))
    return frozenset(values) if seats else values


_SEAT_FIELDS: Final = frozenset({"seat", "dealer", "maker", "receiver", "source", "target"})


def _event(value: object, path: str, players: int, step: int | None) -> Event:
    if not isinstance(value, dict):
        raise fail(path, f"expected an object, not {quoted(value)}")
    name = value.get("event")
    if not isinstance(name, str) or name not in EVENT_TYPES:
        raise fail(f"{path}.event", f"unknown event {quoted(name)}")
    cls = EVENT_TYPES[name]
    names = [f.name for f in attrs.fields(cls)]
    doc = read_obj(value, path, ("event", *names), ("step",))
    if "step" in doc and step is not None:
        read_int(doc["step"], f"{path}.step", step, step)
    fields = {f.name: _read_field(str(f.type), doc[f.name], f"{path}.{f.name}", players)
              for f in attrs.fields(cls)}
    return cls(**fields)


def events_to_dict(events: tuple[Event, ...], step: int | None = None) -> list[dict[str, object]]:
    """Return events as documents, each with the ``step`` that caused it when given."""
    if step is None:
        return [event_to_dict(e) for e in events]
    return [{**event_to_dict(e), "step": step} for e in events]


def _events_of(value: object, path: str, players: int, step: int | None) -> tuple[Event, ...]:
    return tuple(_event(e, f"{path}[{i}]", players, step)
                 for i, e in enumerate(read_list(value, path)))


def events_from_json(text: str | bytes | Doc, players: int = MAX_PLAYERS) -> tuple[Event, ...]:
    """Return the events of an ``"events"`` document (seats are checked against ``players``,
    3 to 6: by default any seat a game may have)."""
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidArgumentError(f"invalid players {quoted(players)}: expected 3 to 6")
    doc = read_header(load_doc(text), "events", ("events",), game=GAME)
    return _events_of(doc["events"], "events.events", players, None)


# -- states -------------------------------------------------------------------------------------


def state_to_dict(state: State) -> dict[str, object]:
    """Return the fields of a state document (without its tags)."""
    aw = state.award
    p = state.pending
    return {
        "config": config_to_dict(state.config), "step": state.step,
        "phase": state.phase.value, "dealer": state.dealer, "to_move": state.to_move,
        "flipped": state.flipped, "pool": list(state.pool), "hidden": list(state.hidden),
        "known": [list(k) for k in state.known],
        "discards": [[[f, c] for f, c in d] for d in state.discards], "clock": state.clock,
        "gem_top": list(state.gem_top), "gem_pool": list(state.gem_pool),
        "penalty_deck": list(state.penalty_deck), "gems": [list(g) for g in state.gems],
        "played": list(state.played), "penalties": [list(x) for x in state.penalties],
        "in_game": list(state.in_game),
        "pending": None if p is None else {"phase": p.phase.value, "seat": p.seat,
                                           "by_turn": p.by_turn},
        "transfers": [list(t) for t in state.transfers],
        "award": None if aw is None else {
            "winner": aw.winner, "maker": aw.maker, "drawn": list(aw.drawn),
            "to_draw": aw.to_draw, "taker": aw.taker, "special_played": aw.special_played},
        "oculos": list(state.oculos),
        "end_reason": None if state.end_reason is None else state.end_reason.name.lower(),
        "events": events_to_dict(state.events, state.step),
    }


_STATE_FIELDS: Final = (
    "config", "step", "phase", "dealer", "to_move", "flipped", "pool", "hidden", "known",
    "discards", "clock", "gem_top", "gem_pool", "penalty_deck", "gems", "played", "penalties",
    "in_game", "pending", "transfers", "award", "oculos", "end_reason", "events")


def state_to_json(state: State) -> str:
    """Return the ``"state"`` document of a state as JSON text (hidden fields included: for
    saving, never for a client)."""
    _expect(state, State, "a Melvin State")
    return _dumps({**header("state", GAME), **state_to_dict(state)})


def _seq(value: object, path: str, read: Callable[[object, str], T],
         length: int | None = None) -> tuple[T, ...]:
    return tuple(read(v, f"{path}[{i}]") for i, v in enumerate(read_list(value, path, length)))


def _nat(value: object, path: str) -> int:
    return read_int(value, path, 0)


def _gem(value: object, path: str) -> str:
    card = read_str(value, path)
    if card not in SPECIALS and not (len(card) == 2 and card[0] == "G" and card[1] in "123"):
        raise fail(path, f"not a Gem card: {quoted(card)}")
    return card


def _penalty(value: object, path: str) -> str:
    card = read_str(value, path)
    if card not in PENALTIES:
        raise fail(path, f"not a Penalty card: {quoted(card)}")
    return card


def _seat_or_none(value: object, path: str, players: int) -> int | None:
    return None if value is None else read_int(value, path, 0, players - 1)


def _pending(value: object, path: str, players: int) -> Pending | None:
    if value is None:
        return None
    doc = read_obj(value, path, ("phase", "seat", "by_turn"))
    phases = {p.value: p for p in Phase if p.is_chance}
    phase = read_str(doc["phase"], f"{path}.phase")
    if phase not in phases:
        raise fail(f"{path}.phase", f"expected a chance step ({', '.join(phases)}), not"
                   f" {quoted(phase)}")
    return Pending(phases[phase], read_int(doc["seat"], f"{path}.seat", -1, players - 1),
                   read_bool(doc["by_turn"], f"{path}.by_turn"))


def _award(value: object, path: str, players: int) -> AwardWindow | None:
    if value is None:
        return None
    doc = read_obj(value, path, ("winner", "maker", "drawn", "to_draw", "taker",
                                 "special_played"))
    def seat(key: str) -> int:
        return read_int(doc[key], f"{path}.{key}", 0, players - 1)

    return AwardWindow(
        winner=seat("winner"), maker=seat("maker"), drawn=_seq(doc["drawn"], f"{path}.drawn",
                                                               _gem),
        to_draw=read_int(doc["to_draw"], f"{path}.to_draw", 1, 2), taker=seat("taker"),
        special_played=read_bool(doc["special_played"], f"{path}.special_played"))


def _state(data: object) -> State:
    doc = read_header(data, "state", _STATE_FIELDS, game=GAME)
    config = _config(doc["config"], "state.config")
    n = config.players

    def seat(key: str) -> int | None:
        return _seat_or_none(doc[key], f"state.{key}", n)

    def per_seat(key: str, read: Callable[[object, str], T]) -> tuple[T, ...]:
        return _seq(doc[key], f"state.{key}", read, n)

    step = read_int(doc["step"], "state.step", 0)
    end = doc["end_reason"]
    reason = None if end is None else _read_field("EndReason", end, "state.end_reason", n)
    assert reason is None or isinstance(reason, EndReason)
    state = State(
        config=config, dealer=seat("dealer"), pool=_seq(doc["pool"], "state.pool", _nat),
        hidden=per_seat("hidden", _nat),
        known=per_seat("known", lambda v, p: _seq(v, p, _nat)),
        discards=per_seat("discards", lambda v, p: _seq(
            v, p, lambda c, q: (_pair(c, q)))),
        clock=read_int(doc["clock"], "state.clock", 0),
        gem_top=_seq(doc["gem_top"], "state.gem_top", _gem),
        gem_pool=_seq(doc["gem_pool"], "state.gem_pool", _gem),
        penalty_deck=_seq(doc["penalty_deck"], "state.penalty_deck", _penalty),
        gems=per_seat("gems", lambda v, p: _seq(v, p, _gem)),
        played=_seq(doc["played"], "state.played", _gem),
        penalties=per_seat("penalties", lambda v, p: _seq(v, p, _penalty)),
        in_game=per_seat("in_game", read_bool), to_move=seat("to_move"),
        flipped=read_int(doc["flipped"], "state.flipped", 0, 1),
        pending=_pending(doc["pending"], "state.pending", n),
        transfers=_seq(doc["transfers"], "state.transfers",
                       lambda v, p: _pair(v, p, n - 1)),
        award=_award(doc["award"], "state.award", n),
        oculos=_seq(doc["oculos"], "state.oculos", lambda v, p: read_int(v, p, 0, n - 1)),
        end_reason=reason, events=_events_of(doc["events"], "state.events", n, step),
        step=step)
    if doc["phase"] != state.phase.value:
        raise fail("state.phase", f"the fields say {quoted(state.phase.value)}, not"
                   f" {quoted(doc['phase'])}")
    check_state(state)
    return state


def _pair(value: object, path: str, high: int | None = None) -> tuple[int, int]:
    a, b = _seq(value, path, lambda v, p: read_int(v, p, 0, high), 2)
    return a, b


def state_from_json(text: str | bytes | Doc) -> State:
    """Return the state of a ``"state"`` document; raise
    :class:`~shock_rules.InvalidStateError` for a malformed document or a state no legal play
    reaches."""
    return _state(load_doc(text))


# -- views --------------------------------------------------------------------------------------


def view_to_dict(view: View) -> dict[str, object]:
    """Return the fields of a view document (without its tags)."""
    return {
        "config": config_to_dict(view.config), "seat": view.seat, "step": view.step,
        "phase": view.phase.value, "to_move": view.to_move, "tops": list(view.tops),
        "discard_sizes": list(view.discard_sizes), "draw_sizes": list(view.draw_sizes),
        "gem_counts": list(view.gem_counts),
        "gems": [None if g is None else list(g) for g in view.gems],
        "penalties": [list(p) for p in view.penalties], "played": list(view.played),
        "gem_deck_size": view.gem_deck_size, "penalty_deck_size": view.penalty_deck_size,
        "in_game": list(view.in_game), "award_winner": view.award_winner,
        "award_taker": view.award_taker,
        "award_drawn": None if view.award_drawn is None else list(view.award_drawn),
        "oculos_targets": list(view.oculos_targets),
        "end_reason": None if view.end_reason is None else view.end_reason.name.lower(),
        "legal_actions": [action_to_dict(a) for a in view.legal_actions],
        "events": events_to_dict(view.events, view.step),
    }


_VIEW_FIELDS: Final = tuple(f.name for f in attrs.fields(View))


def view_to_json(view: View) -> str:
    """Return the ``"view"`` document of a view as JSON text: only what its seat may see."""
    _expect(view, View, "a Melvin View")
    return _dumps({**header("view", GAME), **view_to_dict(view)})


def view_from_json(text: str | bytes | Doc) -> View:
    """Return the view of a ``"view"`` document (for a remote bot or client); raise
    :class:`~shock_rules.InvalidStateError` for a malformed one. A view cannot be checked
    against a state it does not show: the reader checks its form and the ranges of its
    values."""
    doc = read_header(load_doc(text), "view", _VIEW_FIELDS, game=GAME)
    config = _config(doc["config"], "view.config")
    n = config.players

    def per_seat(key: str, read: Callable[[object, str], T]) -> tuple[T, ...]:
        return _seq(doc[key], f"view.{key}", read, n)

    def seat(key: str) -> int | None:
        return _seat_or_none(doc[key], f"view.{key}", n)

    def optional(read: Callable[[object, str], T]) -> Callable[[object, str], T | None]:
        return lambda v, p: None if v is None else read(v, p)

    phases = {p.value: p for p in Phase}
    phase = read_str(doc["phase"], "view.phase")
    if phase not in phases:
        raise fail("view.phase", f"unknown phase {quoted(phase)}")
    step = read_int(doc["step"], "view.step", 0)
    end = doc["end_reason"]
    reason = None if end is None else _read_field("EndReason", end, "view.end_reason", n)
    assert reason is None or isinstance(reason, EndReason)
    try:
        legal = _seq(doc["legal_actions"], "view.legal_actions", read_action)
    except InvalidNotationError as exc:
        raise fail("view.legal_actions", str(exc)) from None
    return View(
        config=config, seat=seat("seat"), step=step, phase=phases[phase],
        to_move=seat("to_move"), tops=per_seat("tops", optional(_nat)),
        discard_sizes=per_seat("discard_sizes", _nat), draw_sizes=per_seat("draw_sizes", _nat),
        gem_counts=per_seat("gem_counts", _nat),
        gems=per_seat("gems", optional(lambda v, p: _seq(v, p, _gem))),
        penalties=per_seat("penalties", lambda v, p: _seq(v, p, _penalty)),
        played=_seq(doc["played"], "view.played", _gem),
        gem_deck_size=read_int(doc["gem_deck_size"], "view.gem_deck_size", 0),
        penalty_deck_size=read_int(doc["penalty_deck_size"], "view.penalty_deck_size", 0),
        in_game=per_seat("in_game", read_bool), award_winner=seat("award_winner"),
        award_taker=seat("award_taker"),
        award_drawn=optional(lambda v, p: _seq(v, p, _gem))(doc["award_drawn"],
                                                             "view.award_drawn"),
        oculos_targets=_seq(doc["oculos_targets"], "view.oculos_targets",
                            lambda v, p: read_int(v, p, 0, n - 1)),
        end_reason=reason, legal_actions=legal,
        events=_events_of(doc["events"], "view.events", n, step))
