"""Documents of any type: write any object of the package as a JSON document, and read any
document back by its ``"game"`` and ``"type"`` (the per-type readers and writers are in
``_json``, ``melvin._json`` and ``record``; this layer sits above them, so that none needs the
others)."""

from __future__ import annotations

import json
from collections.abc import Callable

from . import games
from ._errors import InvalidArgumentError, InvalidStateError, quoted
from ._info.view import PlayerView
from ._json import (
    action_from_json,
    action_to_dict,
    config_from_json,
    config_to_dict,
    edition_from_json,
    edition_to_dict,
    event_to_dict,
    events_from_json,
    state_from_json,
    state_to_dict,
    view_from_json,
    view_to_dict,
)
from ._reading import Doc, header, kind_of, parse_text
from ._rules.actions import Action
from ._rules.config import GameConfig
from ._rules.edition import Edition
from ._rules.events import Event
from ._rules.state import State
from .games import AnyGame
from .record import GameRecord, record_from_json, record_to_dict

__all__ = ["from_dict", "from_json", "to_dict", "to_json"]


def to_dict(obj: object, *, events: bool = True) -> dict[str, object]:
    """Return the JSON document of a config, edition, state, action, event, list or tuple of
    events, player view or game record, as plain Python data.

    The object may be of either game (a Melvin Vs. Kronk document carries ``"game":
    "melvin"``). ``events=False`` leaves a state's events out of its document (a Melvin
    state's are written as an empty list).

    >>> to_dict(Action.parse("play 7H"))  # doctest: +NORMALIZE_WHITESPACE
    {'schema': 'shock-rules/2', 'type': 'action', 'notation': 'play 7H', 'kind': 'play',
     'card': '7H'}
    """
    other = _other_game(obj)
    if other is not None:
        return _other_document(other, obj, events)
    out = header("")
    if isinstance(obj, State):
        out["type"] = "state"
        out.update(state_to_dict(obj, events=events))
    elif isinstance(obj, GameConfig):
        out["type"] = "config"
        out.update(config_to_dict(obj))
    elif isinstance(obj, Edition):
        out["type"] = "edition"
        out.update(edition_to_dict(obj))
    elif isinstance(obj, Action):
        out["type"] = "action"
        out.update(action_to_dict(obj))
    elif isinstance(obj, Event):
        out["type"] = "events"
        out["events"] = [event_to_dict(obj)]
    elif isinstance(obj, list | tuple) and all(isinstance(e, Event) for e in obj):
        out["type"] = "events"
        out["events"] = [event_to_dict(e) for e in obj]
    elif isinstance(obj, GameRecord):
        out["type"] = "record"
        out.update(record_to_dict(obj))
    elif isinstance(obj, PlayerView):
        out["type"] = "view"
        out.update(view_to_dict(obj))
    else:
        raise InvalidArgumentError(
            f"cannot write {type(obj).__name__} as a shock-rules document")
    return out


def to_json(obj: object, *, events: bool = True, indent: int | None = None) -> str:
    """Return the JSON text of :func:`to_dict`; ``indent`` is ``None`` (one line) or 0-16."""
    if indent is not None and (type(indent) is not int or not 0 <= indent <= 16):
        raise InvalidArgumentError(f"invalid indent {quoted(indent)}: expected None or 0-16")
    return json.dumps(to_dict(obj, events=events), indent=indent)


def _other_game(obj: object) -> AnyGame | None:
    """Return the game other than Shock! that ``obj`` (or, for a list, its first item)
    belongs to, or ``None``."""
    probe = obj[0] if isinstance(obj, list | tuple) and obj else obj
    for name in games.names()[1:]:
        game = games.get(name)
        if game.owns(probe):
            return game
    return None


def _other_document(game: AnyGame, obj: object, events: bool) -> dict[str, object]:
    if isinstance(obj, game.state_type):
        doc = game.state_document(obj)
        return doc if events else {**doc, "events": []}
    if isinstance(obj, game.config_type):
        return game.config_document(obj)
    if isinstance(obj, game.action_type):
        return game.action_document(obj)
    if isinstance(obj, game.view_type):
        return game.view_document(obj)
    items = list(obj) if isinstance(obj, list | tuple) else [obj]
    if all(isinstance(e, game.event_type) for e in items):
        return game.events_document(tuple(items))
    raise InvalidArgumentError(f"cannot write {type(obj).__name__} as a shock-rules document")


def from_dict(data: Doc) -> object:
    """Return the object a document of any type and either game describes (dispatching on
    ``"game"``, absent for Shock!, and ``"type"``)."""
    name = data.get("game", "shock") if isinstance(data, dict) else "shock"
    if name != "shock" and isinstance(data, dict) and data.get("type") != "record":
        if not isinstance(name, str) or name not in games.names():
            raise InvalidStateError(f"invalid document: unknown game {quoted(name)}")
        return _read_other(games.get(name), data)
    kind = data.get("type") if isinstance(data, dict) else None
    loaders: dict[object, Callable[[Doc], object]] = {
        "state": state_from_json, "config": config_from_json, "edition": edition_from_json,
        "action": action_from_json, "events": events_from_json, "view": view_from_json,
    }
    if kind == "record":
        return record_from_json(data)
    # Only a string can name a type: a list or an object there would not even be hashable.
    if not isinstance(kind, str) or kind not in loaders:
        raise InvalidStateError(f"invalid document: unknown document type {quoted(kind)}")
    return loaders[kind](data)


def _read_other(game: AnyGame, data: Doc) -> object:
    kind = data.get("type")
    readers: dict[object, Callable[[Doc], object]] = {
        "state": game.read_state, "config": game.read_config, "action": game.read_action,
        "events": game.read_events, "view": game.read_view,
    }
    if not isinstance(kind, str) or kind not in readers:
        raise InvalidStateError(f"invalid document: unknown {game.name} document type"
                                f" {quoted(kind)}")
    return readers[kind](data)


def from_json(text: str | bytes) -> object:
    """Return the object a JSON document of any type describes."""
    data = parse_text(text)
    if not isinstance(data, dict):
        raise InvalidStateError(f"invalid document: expected an object, not {kind_of(data)}")
    return from_dict(data)


