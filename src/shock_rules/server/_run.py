"""Running the server with uvicorn, with logs that never show a seat's token."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import re
import socket
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final, cast
from urllib.parse import unquote_plus

import uvicorn

from .._errors import quoted
from ..protocol import FairnessPolicy
from ._app import Limits, create_app
from ._guard import (
    Guard,
    TrustedProxies,
    connection_budget,
    guarded_protocol,
    http_parser,
    quiet_accept_errors,
)
from ._store import Store

__all__ = ["ListenError", "RedactTokens", "listen", "serve"]

#: Where a query parameter may start (after a "?" or a "&", or a word's start: a query
#: quoted on its own), with its name and its value. The lookahead finds parameters that
#: overlap, so a "?" inside another's value starts one too.
_PARAM: Final = re.compile(r"(?:^|(?<=[?&\s\"']))(?=([^=&?\s\"']*)=([^&\s\"']*))")
#: The query parameter that holds a seat's token (its name as the server reads it).
TOKEN_PARAM: Final = "token"
#: The kernel's queue of connections not yet accepted, on each listening socket.
BACKLOG: Final = 2048
#: The loggers that print request paths with their query strings (where a seat link's token is).
URL_LOGGERS: Final = ("uvicorn.access", "uvicorn.error", "uvicorn")


def redact(text: str) -> str:
    """Return ``text`` with the value of every ``token`` query parameter replaced by ``***``.

    A parameter's name counts as ``token`` once percent- and ``+``-decoded, as the server
    decodes it (``tok%65n=`` is ``token=``); its value is replaced whatever its encoding.
    """
    if "=" not in text:
        return text
    spans = [m.span(2) for m in _PARAM.finditer(text)
             if unquote_plus(m.group(1), errors="replace") == TOKEN_PARAM]
    if not spans:
        return text
    out, end = [], 0
    for start, stop in sorted(spans):
        if start < end:  # inside the value of a token already redacted
            continue
        out.append(text[end:start] + "***")
        end = stop
    out.append(text[end:])
    return "".join(out)


def _redact_value(value: object) -> object:
    return redact(value) if isinstance(value, str) else value


class RedactTokens(logging.Filter):
    """A logging filter that replaces the value of every ``token`` query parameter in a
    message by ``***`` (uvicorn logs each request's path with its query string, and a seat's
    link holds its token), however the query spells it (:func:`redact`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Return true (keep the record) after redacting its arguments and its message.

        The arguments are redacted one by one, not merged into the message: uvicorn's access
        formatter reads them (client, method, path, ...) to build its line. A message whose
        own text may hold a token parameter (an ``=`` in it: the arguments may fill in the
        name or the value) is merged with its arguments and redacted if the line holds one.
        """
        args = record.args
        if isinstance(args, tuple):
            record.args = tuple(_redact_value(a) for a in args)
        elif isinstance(args, Mapping):
            record.args = {k: _redact_value(v) for k, v in args.items()}
        msg = record.msg if isinstance(record.msg, str) else str(record.msg)
        if "=" in msg:
            try:
                whole = record.getMessage()
            except Exception:  # arguments that do not fit the message: the handler says so
                whole = msg
            if (redacted := redact(whole)) != whole:
                record.msg, record.args = redacted, None
        return True


def install_redaction() -> None:
    """Put :class:`RedactTokens` on uvicorn's loggers and on their handlers."""
    redact = RedactTokens()
    for name in URL_LOGGERS:
        logger = logging.getLogger(name)
        logger.addFilter(redact)
        for handler in logger.handlers:
            handler.addFilter(redact)


class ListenError(OSError):
    """The server cannot listen where it was asked to: a host that does not resolve
    (:attr:`resolved` false), or an address it cannot bind (a port in use, an address of
    another machine, a port it may not use); its message says which, on one line."""

    def __init__(self, message: str, *, resolved: bool) -> None:
        super().__init__(message)
        #: Whether the host resolved (false: the host is the problem, not the port).
        self.resolved = resolved


def _where(address: str, port: int) -> str:
    """Return a numeric address and a port as in a URL."""
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


def listen(host: str, port: int) -> list[socket.socket]:
    """Return sockets bound to ``host`` and ``port`` and listening (one per address the host
    resolves to, as uvicorn's own binding would; ``port`` 0 takes one free port for all of
    them); raise :class:`ListenError` if the host does not resolve or an address cannot
    be bound, before anything else of the server has started."""
    try:
        infos = socket.getaddrinfo(host or None, port, socket.AF_UNSPEC, socket.SOCK_STREAM,
                                   0, socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, socket.gaierror) and exc.strerror else str(exc)
        raise ListenError(f"cannot listen on host {quoted(host)}: it does not resolve"
                          f" ({why})", resolved=False) from None
    sockets: list[socket.socket] = []
    seen: set[tuple[int, object]] = set()
    refused: ListenError | None = None
    try:
        for family, kind, proto, _, address in infos:
            if (family, address) in seen or family not in (socket.AF_INET, socket.AF_INET6):
                continue
            seen.add((family, address))
            if port == 0 and sockets:  # the free port the first one got, for them all
                address = (address[0], sockets[0].getsockname()[1], *address[2:])
            sock = socket.socket(family, kind, proto)
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:  # "::" beside "0.0.0.0", as asyncio does
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind(address)
                # Listening at once holds the port (another socket of SO_REUSEADDR could
                # still bind it while the server loads its tables); connections wait in the
                # backlog until the server accepts them.
                sock.listen(BACKLOG)
            except OSError as exc:
                sock.close()
                refused = ListenError(
                    f"cannot listen on {_where(str(address[0]), int(address[1]))}:"
                    f" {(exc.strerror or str(exc)).lower()}", resolved=True)
                if exc.errno == errno.EADDRNOTAVAIL and len(infos) > 1:
                    continue  # a family this machine does not have (as asyncio skips it)
                raise refused from None
            sockets.append(sock)
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    if not sockets:
        raise refused or ListenError(f"cannot listen on host {quoted(host)}: it has no IP"
                                     " address", resolved=False)
    return sockets


def serve(host: str = "127.0.0.1", port: int = 8000,
          db: Store | str | Path = "shock-rules.sqlite3", *, bot_delay: float = 0.6,
          limits: Limits | None = None, log_level: str = "info", compress: bool = True,
          sockets: list[socket.socket] | None = None,
          forwarded_allow_ips: str | Iterable[str] = "",
          allow_origins: Iterable[str] = (), http: str = "auto",
          fairness: FairnessPolicy | None = None, advertise: str | None = None) -> None:
    """Run the table server until interrupted (``shock-rules serve``); ``db`` is the path of
    its SQLite file, or a :class:`Store` (as for :func:`create_app`, with ``allow_origins``).

    ``forwarded_allow_ips`` are the proxies (addresses and networks, a comma list as uvicorn
    takes it, ``*`` for any) whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` headers are
    believed; by default nobody's (:class:`ValueError` for what is no address or network).
    ``http`` is uvicorn's HTTP parser: ``h11``, ``httptools`` (:class:`ImportError` if it is
    not installed) or ``auto`` (httptools if installed, else h11). ``fairness`` is how the races
    of a real-time game are settled (``--race-policy``, ``--race-window``). ``advertise`` is
    this process's own URL, where the other processes sharing its PostgreSQL store forward
    the connections to the tables it plays (default ``http://HOST:PORT`` of the socket it
    listens on, ``127.0.0.1`` for a wildcard address: processes of one machine).

    It binds ``host`` and ``port`` (:func:`listen`, which raises :class:`ListenError` when it
    cannot) before it starts anything, unless given the bound ``sockets`` to listen on (the
    command line binds them first, to report a port in use on one line).
    """
    trusted = TrustedProxies(forwarded_allow_ips)  # before binding: a bad list binds nothing
    http_parser(http)  # an unknown or missing parser binds nothing either
    if sockets is None:
        sockets = listen(host, port)
    try:
        _serve(sockets, db, bot_delay=bot_delay, limits=limits, log_level=log_level,
               compress=compress, trusted=trusted, allow_origins=allow_origins, http=http,
               fairness=fairness, advertise=advertise)
    finally:
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.close()


def _own_url(sock: socket.socket) -> str:
    """The URL of the socket a process listens on, as the other processes of one machine
    reach it (a wildcard address: the loopback one)."""
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _serve(sockets: list[socket.socket], db: Store | str | Path, *, bot_delay: float,
           limits: Limits | None, log_level: str, compress: bool, trusted: TrustedProxies,
           allow_origins: Iterable[str], http: str = "auto",
           fairness: FairnessPolicy | None = None, advertise: str | None = None) -> None:
    limits = limits or Limits()
    app = create_app(db, bot_delay=bot_delay, limits=limits, allow_origins=allow_origins,
                     fairness=fairness, address=advertise or _own_url(sockets[0]))
    total, batch = connection_budget()
    guard = Guard(head_seconds=limits.head_seconds, body_seconds=limits.body_seconds,
                  per_address=limits.connections_per_address,
                  total=limits.max_connections or total, trusted=trusted,
                  write_seconds=limits.write_seconds)
    guard.peers = app.state.hub.peer_hosts  # one set: the hub keeps it up to date
    # Messages over 16 times the limit are cut off by the WebSocket layer itself (close 1009);
    # the application answers smaller oversized ones with an error document.
    host, port = sockets[0].getsockname()[:2]
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level,
                            ws_max_size=16 * limits.message_bytes, ws="auto",
                            ws_per_message_deflate=compress, lifespan="on",
                            timeout_graceful_shutdown=2, http=guarded_protocol(guard, http),
                            # uvicorn believes 127.0.0.1 (and $FORWARDED_ALLOW_IPS) by
                            # default: anyone on this machine could pick any address.
                            proxy_headers=bool(trusted),
                            forwarded_allow_ips=trusted.as_uvicorn() or [],
                            # uvicorn types it int but hands it to call_later: a fraction is
                            # fine.
                            timeout_keep_alive=cast(int, limits.keep_alive_seconds),
                            # The sockets asyncio accepts in one go (see connection_budget).
                            backlog=batch)
    install_redaction()  # after uvicorn.Config, which sets up its loggers
    ours = logging.getLogger("shock_rules.server")
    ours.setLevel(log_level.upper())
    if not ours.handlers:  # print the server's own lines the way uvicorn prints its own
        ours.handlers = list(logging.getLogger("uvicorn").handlers)
        ours.propagate = False
    _Server(config).run(sockets=sockets)


class _Server(uvicorn.Server):
    """uvicorn's server, which says where it listens once started on sockets given to it
    (uvicorn only says so when it binds them itself), and at most once a minute that it cannot
    accept a connection (asyncio's traceback for each one would flood the log)."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        quiet_accept_errors(asyncio.get_running_loop())
        await super().startup(sockets=sockets)
        # uvicorn's backlog is also how many sockets asyncio accepts in one go, kept small
        # (connection_budget); the kernel's queue of connections not yet accepted, which
        # costs no file descriptor, stays deep for a burst of clients.
        for sock in sockets or ():
            with contextlib.suppress(OSError):
                sock.listen(BACKLOG)
        if self.started and sockets:
            where = ", ".join("http://" + _where(*s.getsockname()[:2]) for s in sockets)
            logging.getLogger("uvicorn.error").info(
                "Uvicorn running on %s (Press CTRL+C to quit)", where)
