"""The protocol for remote seats (``shock-rules/2``): the documents a host and its clients
exchange, their JSON Schemas, and a :class:`Table` that keeps a game for a host.

- A player receives only ``"view"`` documents (``Table.view_document``) and ``"events"``
  documents (``Table.events_document``): each carries the ``step`` it belongs to, whose turn it
  is (``to_act``, ``your_turn``) and, on its turn, its ``legal_actions`` as objects.
- A player sends ``"action"`` documents (or one of its ``legal_actions`` objects, or the
  notation); :meth:`Table.act` applies them, and :func:`error_document` answers one it refuses.
- A host reads a new table's bots with :func:`read_bots` and a client's action frame with
  :func:`read_frame`.
- :func:`schema` returns the JSON Schema (draft 2020-12) of each kind of document.
- In a real-time game (Melvin Vs. Kronk) any seat may act at any time: :meth:`Table.act`
  judges an action against the state it arrives at, and answers a race lost since its sender's
  view with :class:`TooLateError`; a host settles races by a :class:`FairnessPolicy` with a
  :class:`RaceJudge` (lag compensation from each seat's :class:`RoundTrip`), and limits each
  seat's claims with a :class:`ClaimLimit`.

See the Protocol page of the documentation for a message-by-message walk through one turn.
"""

from __future__ import annotations

from typing import Final

from .._json import SCHEMA
from .._public import publish
from .._schemas import SCHEMA_NAMES, schema
from ._messages import (
    ERROR_CODES,
    BadSeatError,
    GameOverError,
    NotYourTurnError,
    StaleStepError,
    TooLateError,
    UnavailableError,
    error_code,
    error_document,
    read_action_message,
    read_document,
)
from ._race import (
    MAX_WINDOW,
    POLICIES,
    Arrival,
    ClaimLimit,
    FairnessPolicy,
    RaceJudge,
    RoundTrip,
)
from ._requests import MAX_MCTS_ITERATIONS, RequestError, read_bots, read_frame
from ._table import HISTORY, Table, draw_rng

__all__ = [
    "ERROR_CODES",
    "HISTORY",
    "MAX_MCTS_ITERATIONS",
    "MAX_WINDOW",
    "POLICIES",
    "PROTOCOL",
    "SCHEMA_NAMES",
    "Arrival",
    "BadSeatError",
    "ClaimLimit",
    "FairnessPolicy",
    "GameOverError",
    "NotYourTurnError",
    "RaceJudge",
    "RequestError",
    "RoundTrip",
    "StaleStepError",
    "Table",
    "TooLateError",
    "UnavailableError",
    "draw_rng",
    "error_code",
    "error_document",
    "read_action_message",
    "read_bots",
    "read_document",
    "read_frame",
    "schema",
]

#: The protocol version: the ``"schema"`` tag of every document (``shock_rules.SCHEMA``).
PROTOCOL: Final = SCHEMA

publish(__name__, globals(), __all__)
# The schemas are read below the protocol (the game contract gives them too), in a private
# module of the top package: their public path is here.
schema.__module__ = __name__
