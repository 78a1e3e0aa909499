"""The JSON Schemas of Shock!'s documents (the protocol's), shipped as data files in
``shock_rules/protocol/schemas``.

Read through the top package's resources, so that the layers below the protocol (the game
contract) can give them without importing the protocol's host."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Final

from ._errors import InvalidArgumentError, quoted

__all__ = ["SCHEMA_NAMES", "schema"]

#: The documents that have a schema (``common`` holds the definitions the others share).
SCHEMA_NAMES: Final = (
    "action", "common", "config", "error", "event", "events", "record", "state", "view",
)


@cache
def _load(name: str) -> str:
    return resources.files("shock_rules").joinpath(
        "protocol", "schemas", f"{name}.json").read_text("utf-8")


def schema(name: str) -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of the documents named ``name`` (one of
    :data:`SCHEMA_NAMES`), as a fresh dict.

    Schemas refer to each other by relative ``$ref`` (``"common.json#/$defs/card"``) under their
    ``$id``; a validator needs all of them (see the Protocol page for a ``referencing`` registry).

    >>> schema("view")["$id"]
    'https://shock-rules.github.io/schemas/2/view.json'

    Raise :class:`~shock_rules.InvalidArgumentError` (a ``ValueError``) for an unknown name.
    """
    if not isinstance(name, str) or name not in SCHEMA_NAMES:
        raise InvalidArgumentError(
            f"unknown schema {quoted(name)}: expected one of {', '.join(SCHEMA_NAMES)}")
    data: dict[str, Any] = json.loads(_load(name))
    return data
