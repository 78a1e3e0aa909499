"""The protocol's messages: reading what a client sends, and errors as documents."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from .. import games
from .._errors import (
    IllegalActionError,
    InvalidNotationError,
    InvalidStateError,
    ShockError,
    quoted,
)
from .._json import SCHEMA
from .._reading import kind_of
from ..games import AnyGame

__all__ = [
    "ERROR_CODES",
    "BadSeatError",
    "GameOverError",
    "NotYourTurnError",
    "StaleStepError",
    "TooLateError",
    "error_code",
    "error_document",
    "read_action_message",
    "read_document",
]


class NotYourTurnError(IllegalActionError):
    """A seat sent an action while another seat (or chance) must act."""


class GameOverError(IllegalActionError):
    """An action arrived after the game ended."""


class StaleStepError(ShockError, ValueError):
    """An action was decided on an older view: the table has moved on since ``sent``."""

    def __init__(self, message: str, *, sent: int, current: int) -> None:
        super().__init__(message)
        #: The step the sender saw.
        self.sent = sent
        #: The table's step.
        self.current = current


class TooLateError(IllegalActionError):
    """In a real-time game, an action that was legal on the view its seat decided it on
    (``sent``) lost a race since: another seat's action, ``winner``'s, came first (a slap
    after another seat's counted slap, a flip after a slap opened an award window, a slap on a
    match a flip has covered since). Nothing changed: no penalty for a seat that saw a match."""

    def __init__(self, message: str, *, sent: int, winner: int, action: object = None,
                 seat: int | None = None) -> None:
        super().__init__(message, action=action, seat=seat)
        #: The step the sender decided on.
        self.sent = sent
        #: The seat whose action came first.
        self.winner = winner


class BadSeatError(ShockError, ValueError):
    """A seat number that is not a seat of the game."""


class UnavailableError(ShockError, RuntimeError):
    """The host cannot act on the message now (what it keeps its tables in is away for a
    moment): nothing was done, and the same message may be sent again later."""


#: Every code of an error document, with the exception (or the cause) behind it.
ERROR_CODES: Final = {
    "bad_document": "the message is not a protocol document (InvalidStateError)",
    "bad_notation": "the action cannot be read, as text or as an object (InvalidNotationError)",
    "bad_seat": "no such seat (BadSeatError)",
    "illegal_action": "the action is read but not legal now (IllegalActionError)",
    "not_your_turn": "another seat, or chance, must act (NotYourTurnError)",
    "game_over": "the game is over (GameOverError)",
    "stale_step": "the action was decided on an older view (StaleStepError)",
    "too_late": "a real-time race was lost: another seat's action came first (TooLateError)",
    "unavailable": "the host cannot act on it now; nothing was done: send it again later"
                   " (UnavailableError)",
    "internal_error": "any other exception: a bug in the host, reported without details",
}


def error_code(exc: BaseException) -> str:
    """Return the code of :data:`ERROR_CODES` that an exception maps to."""
    for cls, code in (
        (StaleStepError, "stale_step"), (TooLateError, "too_late"),
        (NotYourTurnError, "not_your_turn"),
        (GameOverError, "game_over"), (IllegalActionError, "illegal_action"),
        (InvalidNotationError, "bad_notation"), (BadSeatError, "bad_seat"),
        (InvalidStateError, "bad_document"), (UnavailableError, "unavailable"),
    ):
        if isinstance(exc, cls):
            return code
    return "internal_error"


def error_document(exc: BaseException, step: int | None = None) -> dict[str, object]:
    """Return the error document of an exception: its code and its message (for any
    exception that is not a :class:`~shock_rules.ShockError`, only ``"internal error"``, so
    that nothing of the host leaks); ``step`` is the table's step, when given. A
    :class:`TooLateError`'s document also names the ``"winner"``, the seat that came first.

    >>> error_document(NotYourTurnError("seat 1 cannot act now: seat 2 must act"), step=40)
    ... # doctest: +NORMALIZE_WHITESPACE
    {'schema': 'shock-rules/2', 'type': 'error', 'code': 'not_your_turn',
     'message': 'seat 1 cannot act now: seat 2 must act', 'step': 40}
    """
    code = error_code(exc)
    message = str(exc) if isinstance(exc, ShockError) and str(exc) else code.replace("_", " ")
    doc: dict[str, object] = {"schema": SCHEMA, "type": "error", "code": code,
                              "message": message}
    if step is not None:
        doc["step"] = step
    if isinstance(exc, TooLateError):
        doc["winner"] = exc.winner
    return doc


def read_document(text: str | bytes) -> dict[str, object]:
    """Return the protocol document in JSON ``text`` (one object with this protocol's
    ``"schema"`` and a ``"type"``); raise :class:`~shock_rules.InvalidStateError` if it is
    not one. What the document holds is checked by the reader of its type."""
    if not isinstance(text, str | bytes):
        raise InvalidStateError(f"invalid document: expected JSON text, not {kind_of(text)}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise InvalidStateError(f"invalid document: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidStateError(f"invalid document: expected an object, not {kind_of(data)}")
    if data.get("schema") != SCHEMA:
        raise InvalidStateError(
            f"invalid document: expected schema {SCHEMA!r}, not {quoted(data.get('schema'))}")
    if not isinstance(data.get("type"), str):
        raise InvalidStateError("invalid document: missing its \"type\"")
    return data


def read_action_message(message: object, game: AnyGame | None = None
                        ) -> tuple[Any, int | None]:
    """Return the action a client sent and the step it saw (``None`` when it did not say), in
    ``game`` (by default Shock!).

    ``message`` is an action of the game, its notation (``"play 7H"``, ``"2 slap"``), an
    action object of a view's ``legal_actions`` (``{"kind": "play", "card": "7H"}``, ``"step"``
    allowed), or a whole ``"action"`` document. Raise
    :class:`~shock_rules.InvalidStateError` for a document of another type and
    :class:`~shock_rules.InvalidNotationError` for an action that cannot be read.
    """
    game = game or games.get("shock")
    if isinstance(message, game.action_type):
        return message, None
    if isinstance(message, str):
        return game.read_action(message), None
    if not isinstance(message, Mapping):
        raise InvalidNotationError(
            f"invalid action: expected an action or its notation, not {kind_of(message)}")
    doc = dict(message)
    step = doc.pop("step", None)
    if step is not None and (type(step) is not int or step < 0):
        raise InvalidNotationError(
            f"invalid action: step: expected a step number, not {quoted(step)}")
    if "type" in doc or "schema" in doc:
        if doc.get("type") != "action":
            raise InvalidStateError(
                f"invalid document: expected an \"action\" document, not {doc.get('type')!r}")
        if doc.get("schema") != SCHEMA:
            raise InvalidStateError(
                f"invalid document: expected schema {SCHEMA!r}, not {doc.get('schema')!r}")
    return game.read_action(doc), step
