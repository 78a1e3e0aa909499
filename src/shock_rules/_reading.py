"""Strict readers of JSON data, the pieces every document reader of the package is made of.

Each returns the value it was asked for or raises :class:`~shock_rules.InvalidStateError`
naming the place in the document (``state.hands[2]``) and what is wrong there; none lets another
exception through for any JSON value, so a reader built from them needs no catch-all.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from ._errors import InvalidNotationError, InvalidStateError, quoted
from ._shared import SCHEMA

__all__ = [
    "Doc", "fail", "header", "kind_of", "load_doc", "parse_text", "read_bool", "read_header",
    "read_int", "read_list", "read_notation", "read_obj", "read_str",
]

Doc = Mapping[str, object]
T = TypeVar("T")


def fail(path: str, message: str) -> InvalidStateError:
    """Return the error for a document whose value at ``path`` is wrong."""
    return InvalidStateError(f"invalid document: {path}: {message}")


def kind_of(value: object) -> str:
    """Return what a JSON value is, in words (``"a list"``, ``"null"``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


def read_obj(value: object, path: str, required: Sequence[str],
             optional: Sequence[str] = ()) -> dict[str, object]:
    """Return ``value`` as an object holding exactly the required keys and some optional ones."""
    if not isinstance(value, dict):
        raise fail(path, f"expected an object, not {kind_of(value)}")
    for key in value:
        if not isinstance(key, str) or (key not in required and key not in optional):
            raise fail(path, f"unknown field {quoted(key)}")
    for key in required:
        if key not in value:
            raise fail(path, f"missing field {quoted(key)}")
    return value


def read_int(value: object, path: str, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` if it is an integer (not a bool) within ``low..high``."""
    if type(value) is not int:
        raise fail(path, f"expected an integer, not {kind_of(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{'' if low is None else low}..{'' if high is None else high}"
        raise fail(path, f"{value} is out of range {bounds}")
    return value


def read_bool(value: object, path: str) -> bool:
    """Return ``value`` if it is ``true`` or ``false``."""
    if type(value) is not bool:
        raise fail(path, f"expected true or false, not {kind_of(value)}")
    return value


def read_str(value: object, path: str) -> str:
    """Return ``value`` if it is a string."""
    if not isinstance(value, str):
        raise fail(path, f"expected a string, not {kind_of(value)}")
    return value


def read_notation(value: object, path: str, parse: Callable[[str], T]) -> T:
    """Return what ``parse`` reads from the string ``value`` (a card, an action... in
    notation), its :class:`~shock_rules.InvalidNotationError` told as the document's fault."""
    try:
        return parse(read_str(value, path))
    except InvalidNotationError as exc:
        raise fail(path, str(exc)) from None


def read_list(value: object, path: str, length: int | None = None) -> list[object]:
    """Return ``value`` if it is a list (of ``length`` items, when given)."""
    if not isinstance(value, list):
        raise fail(path, f"expected a list, not {kind_of(value)}")
    if length is not None and len(value) != length:
        raise fail(path, f"expected {length} items, not {len(value)}")
    return value


def header(kind: str, game: str | None = None) -> dict[str, object]:
    """Return the tags that open a document of ``kind`` (and of ``game``, but Shock!'s)."""
    return {"schema": SCHEMA, "type": kind} if game is None else {
        "schema": SCHEMA, "game": game, "type": kind}


def read_header(data: object, kind: str, fields: Sequence[str], optional: Sequence[str] = (),
                game: str | None = None) -> dict[str, object]:
    """Return a top-level document of ``kind`` after checking its tags: the schema, the
    ``"type"`` and, for another game than Shock!, its ``"game"``."""
    tags = ("schema", "type") if game is None else ("schema", "game", "type")
    doc = read_obj(data, kind, (*tags, *fields), optional)
    if doc["schema"] != SCHEMA:
        raise fail(f"{kind}.schema", f"expected {quoted(SCHEMA)}, not {quoted(doc['schema'])}")
    if game is not None and doc["game"] != game:
        raise fail(f"{kind}.game", f"expected {quoted(game)}, not {quoted(doc['game'])}")
    if doc["type"] != kind:
        raise fail(f"{kind}.type", f"expected {quoted(kind)}, not {quoted(doc['type'])}")
    return doc


def parse_text(text: str | bytes) -> object:
    """Return the JSON value of ``text``; raise :class:`~shock_rules.InvalidStateError` for
    text that is not JSON (or nests too deeply for the parser)."""
    if not isinstance(text, str | bytes):
        raise InvalidStateError(f"invalid document: expected JSON text, not {kind_of(text)}")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise InvalidStateError(f"invalid document: not valid JSON: {exc}") from None


def load_doc(text: str | bytes | Doc) -> object:
    """Return the parsed JSON data of text, or the data itself."""
    return parse_text(text) if isinstance(text, str | bytes) else text
