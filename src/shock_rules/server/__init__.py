"""The table server (``shock-rules serve``): games on the protocol over HTTP and WebSockets,
with bots, a browser client and every action kept in SQLite. Needs the ``[server]`` extra
(Starlette and uvicorn).

- :func:`create_app` returns the ASGI application; :func:`serve` runs it with uvicorn, on the
  sockets :func:`listen` binds first (:class:`ListenError`: a port in use, a host that does
  not resolve).
- Each table is a :class:`~shock_rules.protocol.Table`: people act over a WebSocket with their
  seat's token, bots act on the server, chance is drawn by the server from the table's secret
  seed (:func:`draw_rng`), and every applied action is stored (:class:`Store`,
  :class:`SQLiteStore`) before anyone hears of it, so a restarted server resumes every table.
- The HTTP and WebSocket contract is on the Server page of the documentation (and in
  ``API.md`` next to this file).
"""

from __future__ import annotations

from .._errors import missing_extra
from .._public import publish
from ._store import SQLiteStore, Store, StoredAction, StoredTable, token_hash
from ._tables import draw_rng

# The extra's packages, after the package's own modules so that a missing one can be named
# with the pip command that installs it.
try:
    from ._app import Limits, create_app
    from ._run import ListenError, RedactTokens, listen, serve
except ImportError as exc:
    raise missing_extra("shock_rules.server", "server", exc,
                        frozenset({"anyio", "starlette", "uvicorn", "websockets"})) from None

__all__ = [
    "Limits",
    "ListenError",
    "RedactTokens",
    "SQLiteStore",
    "Store",
    "StoredAction",
    "StoredTable",
    "create_app",
    "draw_rng",
    "listen",
    "serve",
    "token_hash",
]

publish(__name__, globals(), __all__)
