"""The server's web face: the Starlette application (HTTP routes, the WebSocket, the page)."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import json
import logging
import math
import time
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Final

import attrs
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from .._json import SCHEMA
from ..protocol import FairnessPolicy, RoundTrip
from ._calls import DEFAULT_DEADLINE
from ._forward import MOVED, UNREACHABLE, forward, forwarded_for
from ._guard import CrossSiteGuard, QuietDisconnects, SecurityHeaders, static_redirect
from ._guard import client_key as client_key  # re-exported: it was defined here before
from ._hub import (
    DEFAULT_IDLE_MINUTES,
    DEFAULT_MAX_CLIENT_MCTS,
    DEFAULT_MAX_CLIENT_TABLES,
    DEFAULT_MAX_FINISHED,
    DEFAULT_MAX_TABLE_MCTS,
    MAX_LISTED,
    BotLimitError,
    ClientLimitError,
    CreationRateError,
    Hub,
    TableLimitError,
)
from ._leases import Owner
from ._open import open_store
from ._rows import UNAVAILABLE
from ._store import Store, StoreUnavailableError
from ._tables import (
    DEFAULT_CLAIM_COOLDOWN,
    DEFAULT_CLAIMS_PER_SECOND,
    Connection,
    LiveTable,
    RequestError,
)
from ._thinking import DEFAULT_WORKERS

__all__ = ["STATIC", "Limits", "create_app"]

log = logging.getLogger("shock_rules.server")

#: The browser client's files.
STATIC: Final = Path(__file__).parent / "static"

#: Close codes of the WebSocket (API.md).
BAD_REQUEST: Final = 4400
BAD_TOKEN: Final = 4401
NO_TABLE: Final = 4404
#: Too many WebSockets: from one address, of one seat, or opened too fast by one address.
TOO_MANY: Final = 4429
#: The reason of a 4400 close: a secret in a URL ends in access logs and browser histories.
TOKEN_IN_URL: Final = ("send the seat's token in the first message at /ws/ID/seat, not in"
                       " the URL")
#: What a seat's connection must send first (``/ws/ID/seat``).
HELLO: Final = '{"type": "hello", "token": TOKEN}'
#: The reason of the 4401 close of a connection whose seat's token was replaced.
REPLACED: Final = "the seat's link was replaced"
#: The WebSocket close code "try again later" (RFC 6455): the store cannot be reached now.
TRY_LATER: Final = 1013
POLICY: Final = 1008
#: The reasons of a 1008 close: too many messages refused as too fast, or frames not read.
FLOODING: Final = "flooding"
NOT_READING: Final = "not reading"


@attrs.frozen
class Limits:
    """What one server accepts: the largest message and request body (bytes), messages per
    second per connection, the connections of one seat sharing one limit (with bursts of as
    many; the first message after each view the connection got does not count, so a client
    never waits on the limit to answer a view),
    unfinished tables at once, unfinished tables one client address may have at once (an IPv6
    client is its /64; the tables of an earlier run of the server count for no address),
    finished tables kept (beyond them the oldest finished one is
    dropped, from memory and from the store, when another one finishes), tables a minute
    that one client address may create (with bursts of as many; an IPv6 client is its /64),
    and the minutes after which an unfinished table waiting for people, with no seat
    connected and no action, is abandoned: deleted from memory and from the store (checked
    every minute, or every quarter of that time if shorter; a fraction of a minute is fine)."""

    message_bytes: int = 4096
    messages_per_second: float = 20.0
    body_bytes: int = 4096
    max_tables: int = 1000
    tables_per_address: int = DEFAULT_MAX_CLIENT_TABLES
    finished_tables: int = DEFAULT_MAX_FINISHED
    tables_per_minute: float = 300.0
    idle_minutes: float = DEFAULT_IDLE_MINUTES
    #: A connection with this many messages refused as too fast within :attr:`flood_seconds`
    #: is flooding: it is closed (1008). A burst of a few dozen messages is refused in part and
    #: never closed; anything above about 1.5 times the rate, kept up, is.
    flood: int = 100
    flood_seconds: float = 10.0
    #: Worker processes that make every table's MCTS decisions, one at a time each, in turn
    #: by creator address then table (the server's process never searches).
    bot_workers: int = DEFAULT_WORKERS
    #: MCTS bots one table may have (more: ``400 bad_request``).
    mcts_per_table: int = DEFAULT_MAX_TABLE_MCTS
    #: Unfinished tables with an MCTS bot one client address may have (one more:
    #: ``429 too_many_bots``).
    mcts_tables_per_address: int = DEFAULT_MAX_CLIENT_MCTS
    #: WebSockets one client address (an IPv6 client is its /64) may have open at once, and
    #: connections one seat may have at once on one process (tabs, devices); one more is
    #: closed (4429) before any view is built for it.
    sockets_per_address: int = 32
    sockets_per_seat: int = 4
    #: New WebSockets a second one client address may open, in bursts of ``socket_burst``:
    #: reconnecting in a loop (each first frame may carry a whole game's events) is refused.
    sockets_per_second: float = 10.0
    socket_burst: float = 20.0
    #: Seat links one client address may replace a minute (``POST .../token``), in bursts of
    #: as many: each one reads and writes the store, and a wrong token must not be tried
    #: at will.
    replaces_per_minute: float = 30.0
    #: HTTP requests a second one client address may make (pages, files, the API), in bursts
    #: of twice as many; more answer ``429 too_fast``. Each is cheap, but a loop of them from
    #: a few connections filled a core.
    requests_per_second: float = 100.0
    #: Seconds a connection has to send a whole request head (from its opening, or from the
    #: first byte after an answer), and a whole body once its head came: past them it is
    #: closed (a late body is answered 408). Enforced by :func:`serve`'s protocols.
    head_seconds: float = 10.0
    body_seconds: float = 30.0
    #: Seconds an idle keep-alive connection stays open after an answer (uvicorn's own).
    keep_alive_seconds: float = 5.0
    #: TCP connections one client address (an IPv6 client: its /64) may have open at once,
    #: WebSockets included; a trusted proxy is not counted. Over it a new one is closed at once.
    connections_per_address: int = 64
    #: Connections at once in all; ``None``: as many as the file descriptor limit
    #: (``ulimit -n``) leaves room for (:func:`shock_rules.server._guard.connection_budget`).
    max_connections: int | None = None
    #: Seconds an answer may wait on a client that does not read it (data the kernel would
    #: not take, the connection open or closing) before the connection is aborted.
    write_seconds: float = 30.0
    #: Seconds between two pings of a seat's connection to a real-time table (its round trip,
    #: for the race policy; the first few come quicker, so that a new connection is measured
    #: within a second).
    ping_seconds: float = 2.0
    #: Slaps a second one seat of a real-time table may make (bursts of as many; more: a
    #: ``too_fast`` error and no slap at all for ``slap_cooldown_seconds``), on top of the
    #: message limit: a wrong slap costs a penalty, flooding must cost more.
    slaps_per_second: float = DEFAULT_CLAIMS_PER_SECOND
    slap_cooldown_seconds: float = DEFAULT_CLAIM_COOLDOWN
    #: Seconds the server waits for one PostgreSQL call (made in a thread, off the event loop)
    #: before it answers that the database cannot be reached: a database that stops answering
    #: without closing its connections enforces no timeout of its own.
    store_seconds: float = DEFAULT_DEADLINE


def _error(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"schema": SCHEMA, "type": "error", "code": code, "message": message},
                        status_code=status)


def _too_fast(bucket: _Bucket, what: str) -> Response:
    """Return the 429 answer to a client address over a limit of ``what`` (``"300 tables a
    minute"``), saying when it may try again (``Retry-After``) from ``bucket``."""
    wait = max(1, math.ceil(bucket.wait()))
    answer = _error("too_fast", f"more than {what} from this address: try again in {wait} s",
                    429)
    answer.headers["Retry-After"] = str(wait)
    return answer


class _Bucket:
    """A token bucket: ``rate`` messages a second, bursts of ``burst`` (default ``rate``)."""

    def __init__(self, rate: float, burst: float | None = None) -> None:
        self.rate = rate
        self.burst = rate if burst is None else burst
        self.tokens = self.burst
        self.last = time.monotonic()

    def _fill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now

    def take(self) -> bool:
        self._fill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def give_back(self) -> None:
        """Return a token taken for something that did not happen."""
        self.tokens = min(self.burst, self.tokens + 1)

    def wait(self) -> float:
        """Return the seconds until the next token."""
        self._fill()
        return max(0.0, (1 - self.tokens) / self.rate)

    def full(self) -> bool:
        """Return whether the bucket is full again (as good as a new one)."""
        return self.tokens + (time.monotonic() - self.last) * self.rate >= self.burst


#: Client addresses whose table-creation buckets are kept at most (the least recently seen
#: one is forgotten beyond: it starts again with a full burst).
MAX_CLIENTS: Final = 10_000


class _ClientLimits:
    """A token bucket per client address, for ``POST /api/tables``: ``per_minute`` tables a
    minute, bursts of as many; buckets full again are forgotten, so memory stays bounded."""

    def __init__(self, per_minute: float, burst: float | None = None) -> None:
        self.rate = per_minute / 60
        self.burst = max(1.0, per_minute if burst is None else burst)
        self.buckets: collections.OrderedDict[str, _Bucket] = collections.OrderedDict()

    def bucket(self, host: str | None) -> _Bucket:
        key = client_key(host)
        # The least recently used first: forget those that are full again (as good as new).
        while self.buckets:
            oldest = next(iter(self.buckets.values()))
            if not (oldest.full() or len(self.buckets) >= MAX_CLIENTS):
                break
            self.buckets.popitem(last=False)
        found = self.buckets.get(key)
        if found is None:
            found = self.buckets[key] = _Bucket(self.rate, self.burst)
        self.buckets.move_to_end(key)
        return found


class _RequestRate:
    """ASGI middleware: at most ``per_second`` HTTP requests a second from one client address
    (in bursts of twice as many); more answer ``429 too_fast`` with ``Retry-After`` before
    any route runs. (WebSocket handshakes have their own limit, in :meth:`_Server.play`.)"""

    def __init__(self, app: ASGIApp, per_second: float) -> None:
        self.app = app
        self.per_second = per_second
        self.clients = _ClientLimits(per_second * 60, 2 * per_second)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            client = scope.get("client")
            bucket = self.clients.bucket(client[0] if client else None)
            if not bucket.take():
                answer = _too_fast(bucket, f"{self.per_second:g} requests a second")
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(store: Store | str | Path = ":memory:", *, bot_delay: float = 0.0,
               limits: Limits | None = None, allow_origins: Iterable[str] = (),
               fairness: FairnessPolicy | None = None, address: str = "") -> Starlette:
    """Return the table server as an ASGI application.

    ``store`` is a :class:`Store`, the path of an SQLite file (created if missing), or a
    PostgreSQL URL (``postgresql://...``, the ``[postgres]`` extra) that several server
    processes may share; its tables are restored when the application starts. ``bot_delay``
    is the pause before each bot action, in seconds. A request that changes something, or a
    WebSocket, from a page of another site is refused, unless its origin is one of
    ``allow_origins`` (``https://example.com``). ``fairness`` is how the races of a real-time
    game (Melvin Vs. Kronk) are settled (default: lag-compensated, a 250 ms window).
    ``address`` is this process's own URL (``http://10.0.0.5:8000``): with a PostgreSQL store
    that other processes share, they forward the connections to the tables this one owns there
    (without it, they can only tell those clients to try again later, until the table moves).
    The HTTP and WebSocket contract is on the Server page of the docs.
    """
    limits = limits or Limits()
    store = open_store(store)
    hub = Hub(store, bot_delay=bot_delay, max_tables=limits.max_tables,
              max_client_tables=limits.tables_per_address,
              max_finished=limits.finished_tables, idle_seconds=limits.idle_minutes * 60,
              bot_workers=limits.bot_workers, max_table_mcts=limits.mcts_per_table,
              max_client_mcts=limits.mcts_tables_per_address, fairness=fairness,
              claims_per_second=limits.slaps_per_second,
              claim_cooldown=limits.slap_cooldown_seconds,
              store_deadline=limits.store_seconds, address=address,
              tables_per_minute=limits.tables_per_minute)
    server = _Server(hub, limits)
    routes = [
        Route("/", server.page),
        Route("/api/health", server.health),
        Route("/api/tables", server.create_table, methods=["POST"]),
        Route("/api/tables", server.list_tables, methods=["GET"]),
        Route("/api/tables/{table}", server.spectator_view),
        Route("/api/tables/{table}/seats/{seat}/token", server.replace_token, methods=["POST"]),
        WebSocketRoute("/ws/{table}", server.play),
        WebSocketRoute("/ws/{table}/seat", server.play_seat),
        Route("/static", static_redirect),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    guards = [Middleware(SecurityHeaders),
              Middleware(_RequestRate, per_second=limits.requests_per_second),
              Middleware(CrossSiteGuard, allow_origins=tuple(allow_origins)),
              Middleware(QuietDisconnects)]
    app = Starlette(routes=routes, middleware=guards, lifespan=server.lifespan)
    # Starlette's redirect to the path with(out) a slash is an absolute URL built from the
    # Host header, which the client chooses; the one redirect needed is a route of its own.
    app.router.redirect_slashes = False
    app.state.hub = hub
    return app


class _Server:
    """What the routes of one application share: its hub, its limits and the buckets of the
    table-creation limit; its methods are the routes' handlers."""

    def __init__(self, hub: Hub, limits: Limits) -> None:
        self.hub = hub
        self.limits = limits
        self.creators = _ClientLimits(limits.tables_per_minute)
        #: New WebSockets per client address (a token bucket each), and those open now.
        self.openers = _ClientLimits(limits.sockets_per_second * 60, limits.socket_burst)
        self.sockets: collections.Counter[str] = collections.Counter()
        #: Seat links replaced per client address (a token bucket each).
        self.replacers = _ClientLimits(limits.replaces_per_minute)
        #: The message limit of each table's seat, shared by its connections (with how many
        #: use it): N tabs of one seat do not get N times the rate.
        self.seat_throttles: dict[tuple[str, int], tuple[_Throttle, int]] = {}

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        """Restore the stored tables and sweep idle ones while the server runs."""
        hub = self.hub
        await hub.load()
        await hub.start()
        # What is loaded now (modules, restored tables) lives as long as the server: out of
        # the collector's sight, a full collection later scans only what came after.
        gc.freeze()
        log.info("serving %d tables", len(hub.tables))
        loop = asyncio.get_running_loop()
        # Hear the steps other processes store (none with SQLite) and keep the bots' leases.
        tasks = [loop.create_task(hub.sweep_forever()), loop.create_task(hub.listen_forever()),
                 loop.create_task(hub.keep_leases_forever()),
                 loop.create_task(hub.summarize_forever())]
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await hub.stop()
            hub.calls.close()

    @staticmethod
    async def page(request: Request) -> Response:
        """``GET /``: the browser client's page, or a note that it is not installed."""
        index = STATIC / "index.html"
        if index.is_file():
            return FileResponse(index)
        return HTMLResponse("<!doctype html><title>shock-rules</title>"
                            "<p>The browser client is not installed.</p>")

    @staticmethod
    async def health(request: Request) -> Response:
        """``GET /api/health``: whether the server answers."""
        return JSONResponse({"ok": True})

    async def create_table(self, request: Request) -> Response:
        """``POST /api/tables``: create a table; answer its id and its human seats' tokens."""
        body = await _read_body(request, self.limits.body_bytes)
        if body is None:
            return _error("too_large", f"the body is over {self.limits.body_bytes} bytes", 413)
        asked = _table_request(body)
        if isinstance(asked, Response):
            return asked
        host = request.client.host if request.client else None
        bucket = self.creators.bucket(host)
        if not bucket.take():
            return _too_fast(bucket, f"{self.limits.tables_per_minute:g} tables a minute")
        return await self._create(bucket, asked, client_key(host))

    async def _create(self, bucket: _Bucket, asked: _Asked, client: str) -> Response:
        """Create the table asked for; a table not made gives its token back to ``bucket``."""
        players, variant, bots, listed, game = asked
        try:
            table_id, tokens = await self.hub.create(players, variant, bots, client,
                                                     listed=listed, game=game)
        except RequestError as exc:  # only tables made count
            bucket.give_back()
            return _error("bad_request", str(exc), 400)
        except BotLimitError as exc:
            bucket.give_back()
            return _error("too_many_bots", str(exc), 429)
        except CreationRateError as exc:
            bucket.give_back()
            answer = _error("too_fast", str(exc), 429)
            answer.headers["Retry-After"] = str(exc.retry_after)
            return answer
        except ClientLimitError as exc:
            bucket.give_back()
            return _error("too_many_open", str(exc), 429)
        except TableLimitError as exc:
            bucket.give_back()
            return _error("too_many_tables", str(exc), 503)
        except StoreUnavailableError:
            bucket.give_back()
            return _error("unavailable", UNAVAILABLE, 503)
        except Exception:
            bucket.give_back()
            log.exception("a table could not be created")
            return _error("internal_error", "internal error", 500)
        return JSONResponse({"table": table_id, "seats": [
            {"seat": s, "token": t} for s, t in sorted(tokens.items())]}, status_code=201)

    async def list_tables(self, request: Request) -> Response:
        """``GET /api/tables``: the listed tables, the latest activity first (at most
        :data:`MAX_LISTED`). No per-address limit: the answer is bounded, built from memory
        without the store, and tells no more than each table's spectator view."""
        # An object, not a bare list: room for more fields without breaking a client.
        try:
            return JSONResponse({"tables": await self.hub.listing(MAX_LISTED)})
        except StoreUnavailableError:
            return _error("unavailable", UNAVAILABLE, 503)

    async def spectator_view(self, request: Request) -> Response:
        """``GET /api/tables/ID``: the table as a spectator sees it."""
        try:
            view = await self.hub.spectator_view(request.path_params["table"])
        except StoreUnavailableError:
            return _error("unavailable", UNAVAILABLE, 503)
        if view is None:
            return _error("no_such_table", "no such table", 404)
        return JSONResponse(view)

    async def replace_token(self, request: Request) -> Response:
        """``POST /api/tables/ID/seats/N/token`` with ``Authorization: Bearer TOKEN`` (the
        seat's current token): give the seat a new token; the old one stops working at once
        and the connections holding it are closed."""
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            return _unauthorized("send the seat's current token: Authorization: Bearer TOKEN")
        bucket = self.replacers.bucket(request.client.host if request.client else None)
        if not bucket.take():  # a right token and a wrong one alike: each costs the store
            return _too_fast(bucket, f"{self.limits.replaces_per_minute:g} seat links replaced"
                                     " a minute")
        table, seat = request.path_params["table"], request.path_params["seat"]
        try:
            found, new = await self.hub.replace_token(table, seat, token)
        except StoreUnavailableError:
            return _error("unavailable", UNAVAILABLE, 503)
        if not found:
            return _error("no_such_table", "no such table", 404)
        if new is None:
            # One answer for a wrong token and another seat's: nothing learnt from either.
            return _unauthorized("the token is not this seat's")
        log.info("table %s: seat %s's link replaced", table, seat)
        seat_number = int(seat)  # the digits of a seat: the token was that seat's
        # A secret: no cache (a proxy's, the browser's) may keep it.
        return JSONResponse({"seat": seat_number, "token": new},
                            headers={"Cache-Control": "no-store"})

    def _client(self, ws: WebSocket) -> str:
        """Return a WebSocket's client address (its :func:`client_key`): for one forwarded by
        another process of this server (its peer secret shows it), the address it forwards
        for."""
        key = forwarded_for(ws.headers, self.hub.peer_secret)
        if key is not None:
            return key
        return client_key(ws.client.host if ws.client else None)

    def _admit(self, ws: WebSocket) -> tuple[str, str | None]:
        """Return a new WebSocket's client address (its :func:`client_key`) and why it is
        refused, or ``None``: too many open from that address, or opened too fast."""
        key = self._client(ws)
        host = key or None
        limits = self.limits
        if self.sockets[key] >= limits.sockets_per_address:
            return key, (f"this address has {limits.sockets_per_address} WebSockets open"
                         " already: close one first")
        if not self.openers.bucket(host).take():
            return key, (f"more than {limits.sockets_per_second:g} new WebSockets a second"
                         " from this address: try again in a moment")
        return key, None

    async def play(self, ws: WebSocket) -> None:
        """``/ws/ID``: a spectator's connection to a table."""
        await self._socket(ws, seat=False)

    async def play_seat(self, ws: WebSocket) -> None:
        """``/ws/ID/seat``: a seat's connection to a table, once its first message is a hello
        with the seat's token (nothing is sent to it before)."""
        await self._socket(ws, seat=True)

    async def _socket(self, ws: WebSocket, *, seat: bool) -> None:
        """Admit a WebSocket (the caps of its address), refuse a token in its URL, and play."""
        await ws.accept()
        key, refused = self._admit(ws)
        if refused is not None:
            await ws.close(TOO_MANY, reason=refused)
            return
        self.sockets[key] += 1
        try:
            if "token" in ws.query_params:  # as Starlette reads it: tok%65n= too
                await ws.close(BAD_REQUEST, reason=TOKEN_IN_URL)
            else:
                await self._play(ws, seat=seat)
        finally:
            self.sockets[key] -= 1
            if not self.sockets[key]:
                del self.sockets[key]

    async def _play(self, ws: WebSocket, *, seat: bool) -> None:
        table_id = ws.path_params["table"]
        try:
            live = await self.hub.locate(table_id)
            if isinstance(live, Owner):  # another process plays it: served through that one
                if forwarded_for(ws.headers, self.hub.peer_secret) is not None:
                    # Forwarded here by a process that thought this one the owner: the table
                    # moved meanwhile. Once is enough: the client comes again.
                    await ws.close(TRY_LATER, reason=MOVED)
                    return
                with self.hub.forwarding(table_id) as moved:
                    served = await forward(ws, live.address, self.hub.peer_secret,
                                           self._client(ws), moved)
                if served:
                    return
                if served is None:  # the owner does not answer: its lease ends by itself
                    await ws.close(TRY_LATER, reason=UNREACHABLE)
                    return
                # Nothing listens where the owner was: it is gone, and this process takes
                # the table over now rather than when its lease ends.
                await self.hub.evict(table_id, live)
                live = await self.hub.locate(table_id)
                if isinstance(live, Owner):
                    await ws.close(TRY_LATER, reason=UNREACHABLE)
                    return
        except StoreUnavailableError:
            await ws.close(TRY_LATER, reason=UNAVAILABLE)
            return
        if live is None:
            await ws.close(NO_TABLE)
            return
        conn = Connection(None, _since(ws.query_params.get("since", "")))
        if seat and live.game.simultaneous:
            conn.round_trip = RoundTrip()  # the race policy needs its round trip
        if seat:
            held = await self._hello(ws, live, conn)
            if held is None:
                return
            throttle = self._seat_throttle(live.id, held)  # released as it ends
        else:
            await live.welcome(conn)  # a table dropped meanwhile: closed by the writer
            throttle = _Throttle(self.limits)
        loop = asyncio.get_running_loop()
        writer = loop.create_task(_write(ws, conn))
        pinger = (loop.create_task(_ping(conn, self.limits.ping_seconds))
                  if conn.round_trip is not None else None)
        try:
            await self._listen(ws, live, conn, writer, throttle)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("table %s: a connection failed", live.id)
        finally:
            if pinger is not None:
                pinger.cancel()
            conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await live.leave(conn)
            if conn.seat is not None:
                self._release(live.id, conn.seat)
            with contextlib.suppress(Exception):
                await writer

    def _seat_throttle(self, table: str, seat: int) -> _Throttle:
        """Return the message limit a table's seat shares among its connections."""
        throttle, users = self.seat_throttles.get((table, seat), (None, 0))
        if throttle is None:
            throttle = _Throttle(self.limits)
        self.seat_throttles[table, seat] = (throttle, users + 1)
        return throttle

    def _release(self, table: str, seat: int) -> None:
        """Note that a connection of a table's seat ended (its limit is forgotten with the
        last one: memory stays bounded by the connections)."""
        throttle, users = self.seat_throttles.pop((table, seat))
        if users > 1:
            self.seat_throttles[table, seat] = (throttle, users - 1)

    async def _hello(self, ws: WebSocket, live: LiveTable, conn: Connection) -> int | None:
        """Read a seat's connection's first message, a hello with the seat's token, and make
        the connection that seat's (its first frame: the seat's events since ``since``);
        return the seat, or ``None`` when it is closed instead (no hello in time, a wrong
        token, a full seat, a store that cannot be reached)."""
        limits = self.limits
        try:
            async with asyncio.timeout(limits.head_seconds):
                message = await ws.receive()
        except TimeoutError:
            await ws.close(BAD_REQUEST, reason=f"no hello within {limits.head_seconds:g} s: "
                           + HELLO)
            return None
        if message["type"] == "websocket.disconnect":
            return None
        text = _text_of(message)
        hello = _hello_of(text) if len(text.encode("utf-8")) <= limits.message_bytes else None
        token = None if hello is None else hello.get("token")
        if not isinstance(token, str):
            await ws.close(BAD_REQUEST, reason="the first message must be a hello: " + HELLO)
            return None
        try:
            why = await live.seat_welcome(conn, token, limits.sockets_per_seat)
        except StoreUnavailableError:
            await ws.close(TRY_LATER, reason=UNAVAILABLE)
            return None
        if why == "token":
            await ws.close(BAD_TOKEN, reason="not a token of this table's seats")
            return None
        if why == "full":
            await ws.close(TOO_MANY, reason=f"this seat has {limits.sockets_per_seat}"
                           " connections already: close one first")
            return None
        return conn.seat

    async def _listen(self, ws: WebSocket, live: LiveTable, conn: Connection,
                      writer: asyncio.Task[None], throttle: _Throttle) -> None:
        """Hand a connection's messages to its table until it ends, refusing those too fast
        (``throttle``: a spectator's own, a seat's shared by its connections) or too large,
        and closing it when it floods."""
        limits = self.limits
        while not writer.done():
            message = await ws.receive()
            at = time.monotonic()  # when it arrived: a real-time game's races are timed by it
            if message["type"] == "websocket.disconnect":
                break
            text = _text_of(message)
            if (conn.round_trip is not None and '"pong"' in text
                    and (pong := _pong_of(text)) is not None and live.pong(conn, pong, at)):
                continue  # the answer to the server's own ping: no message of the client's
            if conn.answer:
                conn.answer = False  # the first message after a view is always heard
            elif not throttle.bucket.take():
                if throttle.refuse():
                    await ws.close(POLICY, reason=FLOODING)
                    break
                conn.send(json.dumps(_too("too_fast", "more than"
                                          f" {limits.messages_per_second:g} messages a"
                                          " second: slow down", live.table.step)))
                continue
            if len(text.encode("utf-8")) > limits.message_bytes:
                conn.send(json.dumps(_too("too_large", "the message is over"
                                          f" {limits.message_bytes} bytes",
                                          live.table.step)))
                continue
            if '"hello"' in text and _hello_of(text) is not None:
                conn.send(json.dumps(_too("bad_document", "a hello is a seat's connection's"
                                          " first message, at /ws/ID/seat", live.table.step)))
                continue
            error = await live.act(conn, text, at)
            if error is not None:
                conn.send(json.dumps(error))


class _Throttle:
    """The message limit of one connection: a token bucket, and when it last refused."""

    def __init__(self, limits: Limits) -> None:
        self.bucket = _Bucket(limits.messages_per_second)
        # When its latest refused messages were refused: a window, not a count in a row (the
        # bucket lets one message through every 1/rate seconds of any flood, which must not
        # forgive it).
        self.refused: collections.deque[float] = collections.deque(maxlen=max(1, limits.flood))
        self.flood_seconds = limits.flood_seconds

    def refuse(self) -> bool:
        """Note a message refused now; return whether the connection is flooding."""
        now = time.monotonic()
        self.refused.append(now)
        return (len(self.refused) == self.refused.maxlen
                and now - self.refused[0] <= self.flood_seconds)


async def _read_body(request: Request, limit: int) -> bytes | None:
    """Return a request's body, or ``None`` as soon as it is over ``limit`` bytes."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return body


#: What a ``POST /api/tables`` asks for: players, variant (``None``: the game's default, or
#: none), bots, whether it is listed, the game.
_Asked = tuple[int, str | None, object, bool, str]


def _table_request(body: bytes) -> _Asked | Response:
    """Return the players, variant, bots, listing and game a ``POST /api/tables`` body asks
    for, or the 400 answer to a body that is not such a request."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return _error("bad_request", "the body is not JSON", 400)
    if not isinstance(data, dict):
        return _error("bad_request", "expected a JSON object", 400)
    unknown = sorted(set(data) - {"players", "variant", "bots", "listed", "game"})
    if unknown:
        return _error("bad_request", f"unknown field {unknown[0][:40]!r}", 400)
    game = data.get("game", "shock")
    if not isinstance(game, str):
        return _error("bad_request", "game: expected 'shock' or 'melvin'", 400)
    players = data.get("players", 4)
    variant = data.get("variant")
    if type(players) is not int or not (variant is None or isinstance(variant, str)):
        return _error("bad_request", "players: expected 3, 4 or 5 (Melvin Vs. Kronk: 3 to 6);"
                      " variant: expected 'standard' or 'simplified'", 400)
    listed = data.get("listed", True)
    if type(listed) is not bool:  # not 0 or 1 either: a typo should not list a private table
        return _error("bad_request", "listed: expected true or false", 400)
    return players, variant, data.get("bots", {}), listed, game


def _since(since: str) -> int:
    """Return the last step a connecting client saw (its ``since``), or -1 for none."""
    ok = since.isascii() and since.isdigit() and len(since) < 10
    return int(since) if ok else -1


def _text_of(message: Message) -> str:
    """Return the text of a WebSocket message (a binary one decoded as UTF-8, leniently)."""
    text = message.get("text")
    if text is None:
        raw = message.get("bytes") or b""
        text = raw.decode("utf-8", "replace")
    return text


def _unauthorized(message: str) -> Response:
    answer = _error("unauthorized", message, 401)
    answer.headers["WWW-Authenticate"] = "Bearer"
    return answer


def _hello_of(text: str) -> dict[str, object] | None:
    """Return a message that is a hello (``{"type": "hello", ...}``), or ``None``."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) and data.get("type") == "hello" else None


def _pong_of(text: str) -> str | None:
    """Return the id a pong answers (``{"type": "pong", "id": ID}``), or ``None``."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict) and data.get("type") == "pong" and isinstance(data.get("id"), str):
        ident: str = data["id"]
        return ident
    return None


#: How many pings a new connection gets quickly, and how far apart, before every
#: ``ping_seconds``: its round trip is known within a second.
_QUICK_PINGS: Final = 4
_QUICK_PING_SECONDS: Final = 0.2


async def _ping(conn: Connection, every: float) -> None:
    """Ping a seat's connection to a real-time table (``{"type": "ping", "id": ID}``, answered
    ``{"type": "pong", "id": ID}``) until cancelled: its round trip, for the race policy."""
    assert conn.round_trip is not None
    sent = 0
    while True:
        ident = conn.round_trip.ping(time.monotonic())
        conn.send(json.dumps({"type": "ping", "id": ident}, separators=(",", ":")))
        sent += 1
        await asyncio.sleep(_QUICK_PING_SECONDS if sent < _QUICK_PINGS else every)


def _too(code: str, message: str, step: int) -> dict[str, object]:
    return {"schema": SCHEMA, "type": "error", "code": code, "message": message, "step": step}


async def _write(ws: WebSocket, conn: Connection) -> None:
    """Send a connection's queued frames until it ends (or stops reading: then close it)."""
    while True:
        frame = await conn.queue.get()
        if frame is None:
            if conn.overflow:
                with contextlib.suppress(Exception):
                    await ws.close(POLICY, reason=NOT_READING)
            elif conn.revoked:
                with contextlib.suppress(Exception):
                    await ws.close(BAD_TOKEN, reason=REPLACED)
            elif conn.moved:  # taken over by another process: connect again, through it
                with contextlib.suppress(Exception):
                    await ws.close(TRY_LATER, reason=MOVED)
            elif conn.gone:  # a table the server dropped: as for an unknown one
                with contextlib.suppress(Exception):
                    await ws.close(NO_TABLE, reason="table dropped")
            return
        try:
            await ws.send_text(frame)
        except Exception:
            return
