"""A WebSocket served through the server process that owns its table.

With several processes on one PostgreSQL database, each unfinished table is owned by one
process at a time (it holds the table's lease: :mod:`~shock_rules.server._leases`), which
alone applies its steps, runs its bots and sends its views. A connection that reaches another
process (the load balancer chose it) is forwarded: that process opens the same WebSocket to the
owner and passes every message both ways unread, and the owner's close to the client. The
owner trusts the client address the forwarding process names (for its per-address limits) only
with the processes' shared secret, which the database holds: a client cannot claim another
address.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from collections.abc import Mapping
from typing import Any, Final

from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ._guard import client_key

__all__ = ["CLIENT_HEADER", "MOVED", "PEER_HEADER", "UNREACHABLE", "forward", "forwarded_for"]

#: The header a forwarding process proves itself with (the processes' shared secret).
PEER_HEADER: Final = "x-shock-rules-peer"
#: The header naming the client address a forwarded connection comes from.
CLIENT_HEADER: Final = "x-shock-rules-client"
#: Seconds to reach the owner before the client is told to try again.
CONNECT_SECONDS: Final = 5.0
#: The largest message passed on (the owner refuses what is over its own limit with a reason:
#: this only bounds what a forwarding process holds).
MAX_MESSAGE: Final = 2**22
#: The WebSocket close code "try again later" (RFC 6455), and its reason when the process
#: that owns a table cannot be reached.
_TRY_LATER: Final = 1013
UNREACHABLE: Final = "the table's server process cannot be reached: try again in a moment"
#: The reason of the "try again" close of a connection whose table another process took over.
MOVED: Final = "the table moved to another server process: connect again"


def forwarded_for(headers: Mapping[str, str], secret: str) -> str | None:
    """Return the client address a forwarded connection names, if it shows the processes'
    secret (compared in constant time), else ``None``."""
    shown = headers.get(PEER_HEADER)
    if shown is None or not secret:
        return None
    if not hmac.compare_digest(shown.encode("utf-8", "replace"), secret.encode("utf-8")):
        return None
    return client_key(headers.get(CLIENT_HEADER) or None)


async def forward(ws: WebSocket, address: str, secret: str, client: str,
                  moved: asyncio.Event | None = None) -> bool | None:
    """Serve the accepted WebSocket ``ws`` through the process at ``address`` (``http://host:
    port``): the same path and query, every message passed on both ways, until either side
    closes (the owner's close code and reason reach the client); return ``True`` then. If the
    owner cannot be reached, return without using ``ws``: ``False`` if nothing listens at its
    address (the process is gone: its table may be taken over at once), ``None`` if it does
    not answer in time (it may hang: its lease ends by itself). When ``moved`` is set (this
    process took the table over), the client is closed as "try again": it comes back to be
    served here."""
    url = address.replace("http", "ws", 1) + ws.url.path
    if ws.url.query:
        url += "?" + ws.url.query
    try:
        async with asyncio.timeout(CONNECT_SECONDS):
            upstream = await connect(url, additional_headers={PEER_HEADER: secret,
                                                              CLIENT_HEADER: client},
                                     max_size=MAX_MESSAGE, compression=None,
                                     open_timeout=None, ping_interval=None)
    except ConnectionRefusedError:
        return False
    except (OSError, TimeoutError, InvalidHandshake, InvalidURI):
        return None
    async with upstream:
        up = asyncio.create_task(_up(ws, upstream))
        down = asyncio.create_task(_down(ws, upstream))
        waits: set[asyncio.Future[Any]] = {down}
        if moved is not None:
            waits.add(asyncio.ensure_future(moved.wait()))
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            if not down.done():  # taken over here: the client comes again
                with contextlib.suppress(Exception):
                    await ws.close(_TRY_LATER, reason=MOVED)
        finally:
            for task in (up, down, *waits):
                task.cancel()
            for task in (up, down, *waits):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
    return True


async def _up(ws: WebSocket, upstream: ClientConnection) -> None:
    """Pass the client's messages to the owner until the client leaves (then close it)."""
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text, data = message.get("text"), message.get("bytes")
            await upstream.send(text if text is not None else data or b"")
    except (WebSocketDisconnect, ConnectionClosed):
        pass
    await upstream.close()


async def _down(ws: WebSocket, upstream: ClientConnection) -> None:
    """Pass the owner's messages to the client, then its close (as the owner closed: an
    owner that vanished is "try again later")."""
    try:
        async for message in upstream:
            if isinstance(message, str):
                await ws.send_text(message)
            else:
                await ws.send_bytes(message)
    except ConnectionClosed:
        pass
    except (WebSocketDisconnect, RuntimeError):  # the client left first
        return
    code, reason = upstream.close_code, upstream.close_reason or ""
    if code is None or code in (1005, 1006):  # no close frame: the owner went away
        code, reason = _TRY_LATER, UNREACHABLE
    with contextlib.suppress(Exception):
        await ws.close(code, reason=reason)
