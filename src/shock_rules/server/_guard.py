"""What a server on the public internet needs around the application: deadlines for a
request's head and body and caps on connections (uvicorn's HTTP protocols, subclassed), the
proxies whose ``X-Forwarded-For`` is believed, and ASGI middleware that refuses cross-site
requests, adds security headers and keeps a client's disconnection out of the log."""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import json
import logging
import math
import os
import time
import weakref
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Final
from urllib.parse import urlsplit

import h11
from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect, Request
from starlette.responses import RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from .._json import SCHEMA

__all__ = [
    "CrossSiteGuard",
    "Guard",
    "QuietDisconnects",
    "SecurityHeaders",
    "TrustedProxies",
    "client_key",
    "connection_budget",
    "guarded_protocol",
    "http_parser",
    "origin",
    "quiet_accept_errors",
    "static_redirect",
]

log = logging.getLogger("shock_rules.server")


def client_key(host: str | None) -> str:
    """Return what the per-address limits count as one client: an IPv4 address, the /64
    network of an IPv6 address (one machine usually has a whole /64), or the text given."""
    if not host:
        return ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:100]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


# --- Proxies -------------------------------------------------------------------------------


class TrustedProxies:
    """The peer addresses whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed:
    addresses and networks (CIDR), or ``*`` for any peer. Empty: nobody is believed."""

    def __init__(self, text: str | Iterable[str] = "") -> None:
        items = text.split(",") if isinstance(text, str) else list(text)
        self.everyone = False
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for raw in items:
            item = raw.strip()
            if not item:
                continue
            if item == "*":
                self.everyone = True
                continue
            try:
                self.networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                shown = item if len(item) <= 60 else item[:57] + "..."
                raise ValueError(f"{shown!r} is no IP address or network (such as 10.0.0.1,"
                                 " 10.0.0.0/8 or fd00::/8)") from None

    def __bool__(self) -> bool:
        return self.everyone or bool(self.networks)

    def as_uvicorn(self) -> list[str]:
        """Return the list uvicorn's ``forwarded_allow_ips`` takes."""
        return ["*"] if self.everyone else [str(n) for n in self.networks]

    def __contains__(self, host: object) -> bool:
        if self.everyone:
            return True
        if not self.networks or not isinstance(host, str):
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in n for n in self.networks)


# --- Connections and deadlines --------------------------------------------------------------


def connection_budget(soft_limit: int | None = None) -> tuple[int, int]:
    """Return the connections the server may hold at once and the sockets asyncio may accept
    in one go (uvicorn's ``backlog``), so that accepting never meets the file descriptor
    limit (``ulimit -n``).

    At that limit asyncio logs a traceback for every socket it fails to accept, thousands a
    second: what the server already holds, a few batches of sockets accepted before any is
    looked at (an accepted socket is only handed to its protocol one turn of the event loop
    later, and one refused is closed one turn after that), and a margin for the database and
    the like stay below it.
    """
    if soft_limit is None:
        try:
            import resource
        except ImportError:  # not on POSIX: no limit to keep below that we can read
            return 10_000, 128
        soft_limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if soft_limit == resource.RLIM_INFINITY:
            soft_limit = 1 << 20
    batch = max(16, min(512, soft_limit // 16))
    try:
        held = len(os.listdir("/proc/self/fd"))
    except OSError:
        held = 64
    return max(1, soft_limit - held - 4 * batch - 32), batch


def _held(transport: asyncio.Transport) -> bool:
    """Whether a connection still holds its file descriptor: open, or closing with an answer
    still to send (asyncio keeps it until the client has read it all)."""
    return not transport.is_closing() or transport.get_write_buffer_size() > 0


class Guard:
    """What the connections of one server share: the deadlines (seconds) for a request's head
    and body and for an answer the client does not read, and the caps on connections at once,
    from one address and in all; a refused connection is closed at once, with a line of log
    at most once a minute per address."""

    def __init__(self, *, head_seconds: float, body_seconds: float, per_address: int,
                 total: int | None, trusted: TrustedProxies | None = None,
                 write_seconds: float = 30.0) -> None:
        self.head_seconds = head_seconds
        self.body_seconds = body_seconds
        self.write_seconds = write_seconds
        self.per_address = per_address
        self.total = total
        self.trusted = trusted or TrustedProxies()
        #: The hosts of the other server processes sharing this one's store (kept up to date
        #: by its hub): they forward their clients' connections here, each counted by the
        #: application by the client address it names.
        self.peers: set[str] = set()
        #: The open connections of each client address (its transports: an upgraded
        #: WebSocket keeps its transport but gets a protocol object of another class).
        self.open: dict[str, weakref.WeakSet[asyncio.Transport]] = {}
        self._sweep_at = 1024
        #: When each address last had a line of log for a refused connection.
        self._said: collections.OrderedDict[str, float] = collections.OrderedDict()

    def admit(self, transport: asyncio.Transport, host: str | None, held: int) -> bool:
        """Count a new connection from ``host`` (``held`` connections are open, this one
        included); return whether it may stay (if not, close it at once)."""
        if self.total is not None and held > self.total:
            self._refuse(transport, "*", f"over {self.total} connections at once in all")
            return False
        if host is None or host in self.trusted or host in self.peers:
            # a proxy's, or another process's, clients are counted by the application
            return True
        key = client_key(host)
        live = self.open.get(key)
        if live is None:
            live = self.open[key] = weakref.WeakSet()
        else:
            for gone in [t for t in live if not _held(t)]:
                live.discard(gone)
        if len(live) >= self.per_address:
            self._refuse(transport, key, f"over {self.per_address} connections at once from"
                                         " this address")
            return False
        live.add(transport)
        if len(self.open) > self._sweep_at:  # forget addresses with nothing open any more
            for k in [k for k, s in self.open.items() if not any(_held(t) for t in s)]:
                del self.open[k]
            self._sweep_at = max(1024, 2 * len(self.open))
        return True

    def _refuse(self, transport: asyncio.Transport, key: str, why: str) -> None:
        transport.abort()
        now = time.monotonic()
        last = self._said.get(key)
        if last is not None and now - last < 60:
            return
        self._said[key] = now
        self._said.move_to_end(key)
        while len(self._said) > 10_000:
            self._said.popitem(last=False)
        who = "connections" if key == "*" else f"{key}:"
        log.warning("%s %s: new ones are closed at once (said once a minute)", who, why)


#: The phases of a connection, for its deadline: a request head expected, a body expected,
#: the application's turn (no deadline), and idle between requests (uvicorn's keep-alive).
HEAD, BODY, APP, IDLE, DONE = "head", "body", "app", "idle", "done"

_TIMEOUT_BODY: Final = json.dumps({
    "schema": SCHEMA, "type": "error", "code": "timeout",
    "message": "the request's body did not arrive in time"}).encode()
_TIMEOUT: Final = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
                   b"content-length: " + str(len(_TIMEOUT_BODY)).encode() + b"\r\n"
                   b"cache-control: no-store\r\nx-content-type-options: nosniff\r\n"
                   b"connection: close\r\n\r\n" + _TIMEOUT_BODY)


class _Deadline:
    """The one timer of a connection: its request head must be whole within the head
    deadline, its body within the body deadline after the head; past it, the connection is
    closed (a body too late gets a 408 first, if nothing was answered yet). And an answer the
    client does not read: data waiting to be sent (the kernel's buffer for the connection
    full) for the write deadline in a row, the connection open or closing, aborts it."""

    def __init__(self, loop: asyncio.AbstractEventLoop, transport: asyncio.Transport,
                 guard: Guard, answered: Callable[[], bool]) -> None:
        self.loop = loop
        self.transport = transport
        self.guard = guard
        self.answered = answered
        self.phase = HEAD
        #: When the phase's deadline and the write deadline pass (the loop's time), if they run.
        self.due: float | None = None
        self.write_due: float | None = None
        self.timer: asyncio.TimerHandle | None = None
        # Every byte asyncio cannot hand to the kernel at once pauses the protocol's writing
        # (uvicorn then waits before writing more), and resumes it once all is handed over:
        # the write deadline runs while paused, whatever closes the connection meanwhile.
        transport.set_write_buffer_limits(high=0)

    def _arm(self) -> None:
        """Set the timer for the nearer deadline (if it is not set for it already)."""
        at = min((t for t in (self.due, self.write_due) if t is not None), default=None)
        if self.timer is not None:
            if self.timer.when() == at:
                return
            self.timer.cancel()
            self.timer = None
        if at is not None:
            self.timer = self.loop.call_at(at, self._expired)

    def _set(self, phase: str, seconds: float | None) -> None:
        self.phase = phase
        if seconds is None or self.transport.is_closing():
            self.due = None
        else:
            self.due = self.loop.time() + seconds
        self._arm()

    def head(self) -> None:
        self._set(HEAD, self.guard.head_seconds)

    def body(self) -> None:
        self._set(BODY, self.guard.body_seconds)

    def app(self) -> None:
        self._set(APP, None)

    def idle(self) -> None:
        self._set(IDLE, None)

    def stop(self) -> None:
        """Stop for good (the connection is closed, or is a WebSocket now)."""
        self.write_due = None
        self._set(DONE, None)

    def paused(self) -> None:
        """The transport cannot send all it has (``pause_writing``): the write deadline runs."""
        if self.phase != DONE and self.write_due is None:
            self.write_due = self.loop.time() + self.guard.write_seconds
            self._arm()

    def resumed(self) -> None:
        """The transport has handed all its data to the kernel (``resume_writing``)."""
        if self.write_due is not None:
            self.write_due = None
            self._arm()

    def _expired(self) -> None:
        self.timer = None
        now = self.loop.time() + 1e-3  # call_at may run a callback a hair early
        if self.write_due is not None and now >= self.write_due:
            self.write_due = self.due = None
            self.transport.abort()  # a client that does not read what it asked for
            return
        if self.due is not None and now >= self.due:
            self.due = None
            self._phase_expired()
        self._arm()

    def _phase_expired(self) -> None:
        if self.transport.is_closing():
            return
        if self.phase == BODY and not self.answered():
            self.transport.write(_TIMEOUT)
            self.transport.close()
            # A client that reads nothing would keep it open until the 408 is sent.
            self.write_due = min(self.write_due or math.inf, self.loop.time() + 1.0)
        else:
            self.transport.abort()  # nothing to say to a client that never said what it wants


def _started(protocol: Any, transport: asyncio.Transport) -> _Deadline:
    """Return the deadline of a connection a guarded protocol (either parser's: ``loop``,
    ``client``, ``connections`` and ``cycle`` are uvicorn's) was just given: the head's
    running, or stopped if its guard refused it (then closed already)."""
    guard: Guard = protocol.guard

    def answered() -> bool:
        return protocol.cycle is not None and bool(protocol.cycle.response_started)

    deadline = _Deadline(protocol.loop, transport, guard, answered)
    client = protocol.client
    if guard.admit(transport, client[0] if client else None, len(protocol.connections)):
        deadline.head()
    else:
        deadline.stop()
    return deadline


def _upgraded(deadline: _Deadline) -> None:
    """A connection becomes a WebSocket: the WebSocket's own pings and limits judge it from
    now on, with asyncio's usual write buffer."""
    deadline.stop()
    deadline.transport.set_write_buffer_limits()


class _GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a :class:`Guard`: caps and deadlines. uvicorn has a
    deadline only for an idle keep-alive connection, and a byte of a next request cancels it;
    the phase is read from h11's state after each event."""

    guard: ClassVar[Guard]
    deadline: _Deadline

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.deadline = _started(self, transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self.deadline.stop()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.deadline.phase == IDLE:  # a next request begins: its head has a deadline
            self.deadline.head()
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        _upgraded(self.deadline)
        super().handle_websocket_upgrade(event)

    def pause_writing(self) -> None:
        super().pause_writing()
        self.deadline.paused()

    def resume_writing(self) -> None:
        super().resume_writing()
        self.deadline.resumed()

    def _follow(self) -> None:
        deadline = self.deadline
        if deadline.phase == DONE or self.transport.is_closing():
            return
        theirs = self.conn.their_state
        if theirs is h11.IDLE:
            if deadline.phase != HEAD:
                # uvicorn's keep-alive timer watches an idle connection, unless data came
                # (some of a next request) and cancelled it: then the head's deadline does.
                if self.timeout_keep_alive_task is None or self.conn.trailing_data[0]:
                    deadline.head()
                else:
                    deadline.idle()
        elif theirs is h11.SEND_BODY:
            if deadline.phase != BODY:
                deadline.body()
        else:
            deadline.app()


def _httptools_class() -> type[asyncio.Protocol] | None:
    """Return the guarded httptools protocol, or ``None`` without httptools (as uvicorn's
    ``auto`` then takes h11)."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return None

    class _GuardedHttpTools(HttpToolsProtocol):
        """uvicorn's httptools protocol with a :class:`Guard`, the phase read from the
        parser's callbacks; idle after an answer (uvicorn's keep-alive timer), and any data
        then starts the next head's deadline (a CRLF between requests, which the parser
        skips without beginning a message, cancels the keep-alive timer too)."""

        guard: ClassVar[Guard]
        deadline: _Deadline

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.deadline = _started(self, transport)

        def connection_lost(self, exc: Exception | None) -> None:
            self.deadline.stop()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self.deadline.phase == IDLE:
                self.deadline.head()
            super().data_received(data)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if (self.deadline.phase != DONE and not self.transport.is_closing()
                    and self.timeout_keep_alive_task is not None):
                self.deadline.idle()  # uvicorn's keep-alive timer watches it

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self.deadline.phase not in (HEAD, DONE):  # the first head's runs since connecting
                self.deadline.head()

        def on_headers_complete(self) -> None:
            super().on_headers_complete()
            if self.deadline.phase != DONE:
                self.deadline.body()

        def on_message_complete(self) -> None:
            super().on_message_complete()
            if self.deadline.phase == DONE:
                return
            if self.cycle is not None and self.cycle.response_complete:
                # Answered before the body ended: data since cancelled uvicorn's keep-alive
                # timer, so the next head's deadline runs from now.
                self.deadline.head()
            else:
                self.deadline.app()

        def handle_websocket_upgrade(self) -> None:
            _upgraded(self.deadline)
            super().handle_websocket_upgrade()

        def pause_writing(self) -> None:
            super().pause_writing()
            self.deadline.paused()

        def resume_writing(self) -> None:
            super().resume_writing()
            self.deadline.resumed()

    return _GuardedHttpTools


def http_parser(http: str = "auto") -> type[asyncio.Protocol]:
    """Return the guarded protocol class for uvicorn's ``--http`` ``http``: ``h11``,
    ``httptools`` (:class:`ImportError` if it is not installed) or ``auto`` (httptools if
    installed, else h11); :class:`ValueError` for another name."""
    if http not in ("auto", "h11", "httptools"):
        raise ValueError(f"{http!r} is no HTTP parser (auto, h11 or httptools)")
    base: type[asyncio.Protocol] | None = None
    if http in ("auto", "httptools"):
        base = _httptools_class()
        if base is None and http == "httptools":
            raise ImportError("httptools is not installed: pip install httptools")
    return base or _GuardedH11


def guarded_protocol(guard: Guard, http: str = "auto") -> type[asyncio.Protocol]:
    """Return uvicorn's HTTP protocol class (``http``: ``auto``, ``h11`` or ``httptools``, as
    uvicorn's ``--http``, :func:`http_parser`) made to enforce ``guard``, for
    ``uvicorn.Config(http=...)``."""
    base = http_parser(http)
    return type(base.__name__, (base,), {"guard": guard})


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Make the event loop say at most once a minute that it cannot accept a connection
    (asyncio logs a traceback for each failed ``accept``, thousands a second at the file
    descriptor limit); anything else it reports as before."""
    previous = loop.get_exception_handler()
    said = [-math.inf]

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == "socket.accept() out of system resource":
            now = time.monotonic()
            if now - said[0] >= 60:
                said[0] = now
                log.error("cannot accept connections: %s (raise the file descriptor limit,"
                          " ulimit -n, or lower the connection caps; said once a minute)",
                          context.get("exception"))
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


# --- ASGI middleware ------------------------------------------------------------------------


def _error_body(code: str, message: str) -> bytes:
    return json.dumps({"schema": SCHEMA, "type": "error", "code": code,
                       "message": message}).encode()


def origin(text: str) -> str:
    """Return an origin (``scheme://host[:port]``) in the form browsers send it: lower case,
    without the scheme's default port; raise :class:`ValueError` if ``text`` is none."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        raise ValueError(f"{text!r} is no origin (such as https://example.com)") from None
    scheme = parts.scheme.lower()
    host = parts.hostname
    if (scheme not in ("http", "https") or not host or parts.path not in ("", "/")
            or parts.query or parts.fragment or parts.username or parts.password):
        raise ValueError(f"{text!r} is no origin (such as https://example.com)")
    if ":" in host:
        host = f"[{host}]"
    if port is None or port == {"http": 80, "https": 443}[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


#: Methods that change nothing: never refused as cross-site.
SAFE_METHODS: Final = frozenset({"GET", "HEAD"})
#: Methods whose body the server reads: it must be JSON.
BODY_METHODS: Final = frozenset({"POST", "PUT", "PATCH"})


class CrossSiteGuard:
    """Refuse what a page of another site could make its visitors' browsers do here: a
    request other than GET or HEAD, or a WebSocket handshake, with ``Sec-Fetch-Site:
    cross-site`` or an ``Origin`` other than the server's own (the scheme and the ``Host``
    the request came to) or one allowed, answers 403; a POST, PUT or PATCH body not declared
    ``application/json`` answers 415 (a page can send a form or ``text/plain`` anywhere
    without asking; JSON needs the server's consent, which it never gives; a request with no
    body, such as replacing a seat's token with its ``Authorization`` header, has no content
    type to judge: a page of another site cannot send that header). A request without
    ``Origin`` or ``Sec-Fetch-Site`` (no browser sent it) is judged by its content type only."""

    def __init__(self, app: ASGIApp, allow_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = frozenset(origin(o) for o in allow_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http" and scope["method"] not in SAFE_METHODS:
            headers = Headers(scope=scope)
            refused = self._foreign(scope, headers)
            if refused is None and scope["method"] in BODY_METHODS and _has_body(headers):
                media = headers.get("content-type", "").split(";")[0].strip().lower()
                if media != "application/json":
                    refused = (415, "unsupported_media_type",
                               "the body must be JSON, sent with Content-Type: application/json")
            if refused is not None:
                status, code, message = refused
                answer = Response(_error_body(code, message), status,
                                  media_type="application/json",
                                  headers={"Connection": "close"})
                await answer(scope, receive, send)
                return
        elif kind == "websocket":
            refused = self._foreign(scope, Headers(scope=scope))
            if refused is not None:
                await _deny_websocket(scope, receive, send, *refused)
                return
        await self.app(scope, receive, send)

    def _foreign(self, scope: Scope, headers: Headers) -> tuple[int, str, str] | None:
        """Return the 403 answer (status, code, message) to a cross-site request, or ``None``."""
        if headers.get("sec-fetch-site", "").strip().lower() == "cross-site":
            return 403, "cross_site", "a page of another site may not do this"
        sent = headers.get("origin")
        if sent is None:
            return None
        try:
            theirs = origin(sent)
        except ValueError:  # "null" (a sandboxed page, a file) or garbage
            return 403, "cross_site", "requests from this origin are not allowed"
        if theirs in self.allowed:
            return None
        scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"),
                                                     scope.get("scheme", "http"))
        host = headers.get("host")
        try:
            ours = origin(f"{scheme}://{host}") if host else None
        except ValueError:
            ours = None
        if theirs == ours:
            return None
        return 403, "cross_site", "requests from this origin are not allowed"


def _has_body(headers: Headers) -> bool:
    """Whether a request declares a body (a chunked one, or a length other than 0)."""
    if "transfer-encoding" in headers:
        return True
    return headers.get("content-length", "0").strip() not in ("", "0")


async def _deny_websocket(scope: Scope, receive: Receive, send: Send, status: int, code: str,
                          message: str) -> None:
    """Refuse a WebSocket handshake with an HTTP answer (the error document where the server
    can send one, else uvicorn's plain 403)."""
    first = await receive()
    if first["type"] != "websocket.connect":
        return
    if "websocket.http.response" in scope.get("extensions", {}):
        await send({"type": "websocket.http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "websocket.http.response.body", "body": _error_body(code, message)})
    else:
        await send({"type": "websocket.close", "code": 1008})


#: The page runs its own scripts and styles only, fetches only from here (WebSockets
#: included: CSP 3's 'self' covers ws: and wss: of the same host), and is framed by nobody.
CSP: Final = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none';"
              " form-action 'self'; frame-ancestors 'none'")
_HEADERS: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", CSP.encode()),
    (b"referrer-policy", b"no-referrer"),
)


class SecurityHeaders:
    """Add the security headers to every HTTP answer (unless the answer sets its own), and
    ``Cache-Control: no-store`` to those of ``/api/`` (the answer to ``POST /api/tables``
    holds the seats' tokens)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        extra = list(_HEADERS)
        if scope["path"].startswith("/api/") or scope["type"] == "websocket":
            extra.append((b"cache-control", b"no-store"))

        async def send_with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(n, v) for n, v in extra if n not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class QuietDisconnects:
    """Let a request whose client left mid-body end without a word: Starlette raises
    :class:`~starlette.requests.ClientDisconnect`, which would be a traceback in the log for
    each body cut short (nobody is there to answer)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except ClientDisconnect:
            log.debug("a client left in the middle of its request's body")


async def static_redirect(request: Request) -> Response:
    """``/static``: to ``/static/``, by a relative ``Location`` (Starlette's own redirect
    would build it from the request's ``Host`` header, which the client chooses)."""
    return RedirectResponse("/static/", status_code=307)
