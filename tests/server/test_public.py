"""A server on the public internet (issue 42): deadlines for slow clients, caps on
connections, cross-site requests refused, proxies believed only when named, security
headers, relative redirects, quiet disconnections and a private database file (a real
``shock-rules serve`` on 127.0.0.1, raw sockets for the slow clients)."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import importlib.util
import json
import os
import re
import socket
import sqlite3
import stat
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from shock_rules.server import SQLiteStore, StoredTable

from ._live import LiveServer

#: The deadlines of the servers of these tests, in seconds (the defaults are 10, 30 and 5).
SHORT = ("--head-timeout", "0.5", "--body-timeout", "0.5", "--keep-alive", "0.5")
TABLE = json.dumps({"players": 3, "bots": {"0": "random", "1": "random"}}).encode()
#: The HTTP parsers (``--http``) that the deadline and connection tests run under.
PARSERS = [pytest.param("h11"),
           pytest.param("httptools", marks=pytest.mark.skipif(
               importlib.util.find_spec("httptools") is None, reason="httptools not installed"))]
#: Requests for files of some size (three of the client's modules, about 60 KB in all).
BIG = b"".join(b"GET /static/%s HTTP/1.1\r\nHost: x\r\n\r\n" % name
               for name in (b"i18n.js", b"shell.js", b"shock.js"))


@pytest.fixture(scope="module", params=PARSERS)
def quick(request: pytest.FixtureRequest,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server with half-second deadlines, under each HTTP parser."""
    live = LiveServer(tmp_path_factory.mktemp("quick"), *SHORT, "--http", request.param).start()
    yield live
    live.stop()


def raw(live: LiveServer) -> socket.socket:
    """Return a TCP connection to the server."""
    sock = socket.create_connection(("127.0.0.1", live.port), timeout=10)
    return sock


def slow_reader(live: LiveServer) -> socket.socket:
    """Return a TCP connection to the server with a receive buffer as small as can be."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)  # before connecting: the window
    sock.settimeout(10)
    sock.connect(("127.0.0.1", live.port))
    return sock


def send_queue(server_port: int, client_port: int) -> int | None:
    """Return the bytes the server's end of a connection has sent and not had acknowledged
    (Linux's /proc/net/tcp), or ``None`` if that connection is no more."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, state = fields[1], fields[2], fields[3]
        if (int(local.rpartition(":")[2], 16) == server_port
                and int(remote.rpartition(":")[2], 16) == client_port and state == "01"):
            return int(fields[4].partition(":")[0], 16)
    return None


def read_all(sock: socket.socket) -> bytes:
    """Return what the server sends until it closes the connection."""
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            data += chunk
    return data


def read_answer(sock: socket.socket) -> bytes:
    """Return one whole answer (its head and its Content-Length of body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))  # type: ignore[union-attr]
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def closed_after(sock: socket.socket) -> tuple[float, bytes]:
    """Return how long the server took to close the connection, and what it sent."""
    start = time.monotonic()
    data = read_all(sock)
    return time.monotonic() - start, data


def ask(live: LiveServer, method: str, path: str, body: bytes | None = None,
        headers: Mapping[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
    """Return the status, the headers and the body (JSON if it is) of a request."""
    con = http.client.HTTPConnection("127.0.0.1", live.port, timeout=10)
    try:
        con.request(method, path, body, dict(headers or {}))
        answer = con.getresponse()
        data = answer.read()
        kind = answer.getheader("content-type", "")
        doc: Any = json.loads(data) if kind.startswith("application/json") else data
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, doc
    finally:
        con.close()


# --- 1. Deadlines ----------------------------------------------------------------------------


def test_a_connection_that_sends_nothing_is_closed(quick: LiveServer) -> None:
    with raw(quick) as sock:
        took, data = closed_after(sock)
    assert data == b"" and took < 3


def test_half_a_request_head_is_closed(quick: LiveServer) -> None:
    with raw(quick) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        took, data = closed_after(sock)
    assert data == b"" and took < 3


def test_a_head_trickled_after_a_keep_alive_answer_is_closed(quick: LiveServer) -> None:
    # Each byte cancels uvicorn's keep-alive timer: only the head's deadline ends this.
    with raw(quick) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert read_answer(sock).startswith(b"HTTP/1.1 200")
        start = time.monotonic()
        with contextlib.suppress(OSError):
            for byte in b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200:
                sock.sendall(bytes([byte]))
                time.sleep(0.1)
        took = time.monotonic() - start
        assert read_all(sock) == b""
    assert took < 3


@pytest.mark.parametrize("between", [b"\r\n", b"\r\n\r\n\r\n", b"\n"])
def test_a_blank_line_after_an_answer_does_not_lift_the_deadlines(quick: LiveServer,
                                                                  between: bytes) -> None:
    # A CRLF between requests cancels uvicorn's keep-alive timer and begins no request
    # (httptools skips it): the next head's deadline runs from it. (h11 answers 400 at once.)
    with raw(quick) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert read_answer(sock).startswith(b"HTTP/1.1 200")
        sock.sendall(between)
        took, data = closed_after(sock)
    assert data == b"" or data.startswith(b"HTTP/1.1 400 "), data
    assert took < 3


def test_a_body_that_stops_gets_408(quick: LiveServer) -> None:
    with raw(quick) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                     b"\r\nContent-Length: 100\r\n\r\n{\"players\"")
        took, data = closed_after(sock)
    assert data.startswith(b"HTTP/1.1 408 ") and took < 3
    assert json.loads(data.partition(b"\r\n\r\n")[2])["code"] == "timeout"


def test_a_body_that_trickles_gets_408(quick: LiveServer) -> None:
    with raw(quick) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                     b"\r\nContent-Length: 1000\r\n\r\n")
        start = time.monotonic()
        with contextlib.suppress(OSError):
            for _ in range(100):
                sock.sendall(b" ")
                time.sleep(0.1)
        data = read_all(sock)
    assert data.startswith(b"HTTP/1.1 408 ") and time.monotonic() - start < 3


def test_requests_and_websockets_outlive_the_deadlines(quick: LiveServer) -> None:
    # Keep-alive requests in turn, and a WebSocket that says nothing for longer.
    with raw(quick) as sock:
        for _ in range(3):
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert read_answer(sock).startswith(b"HTTP/1.1 200")
            time.sleep(0.3)
    table = quick.create(3)["table"]  # people only: one view, then quiet

    async def watch() -> int:
        async with connect(f"{quick.ws_url}/ws/{table}") as ws:
            await asyncio.sleep(1.5)
            await asyncio.wait_for(await ws.ping(), 5)  # still open, three deadlines later
            frames = 0
            with contextlib.suppress(asyncio.TimeoutError):
                while True:
                    await asyncio.wait_for(ws.recv(), 0.5)
                    frames += 1
            return frames

    assert asyncio.run(watch()) >= 1


# --- 2. Connections per address --------------------------------------------------------------


@pytest.mark.parametrize("http", PARSERS)
def test_connections_over_the_cap_of_an_address_are_closed_at_once(tmp_path: Path,
                                                                    http: str) -> None:
    live = LiveServer(tmp_path, "--connections-per-address", "3", "--http", http).start()
    try:
        held = [raw(live) for _ in range(3)]
        time.sleep(0.3)
        refused = []
        for _ in range(20):
            sock = raw(live)
            refused.append(closed_after(sock))
            sock.close()
        assert all(data == b"" and took < 2 for took, data in refused)
        held.pop().close()
        time.sleep(0.3)
        assert live.get("/api/health") == (200, {"ok": True})

        # A WebSocket counts as the connection it is.
        table = live.create(3)["table"]
        for sock in held:
            sock.close()
        time.sleep(0.3)

        async def three() -> None:
            sockets = [await connect(f"{live.ws_url}/ws/{table}") for _ in range(3)]
            try:
                with pytest.raises(OSError):
                    ask(live, "GET", "/api/health")
            finally:
                for ws in sockets:
                    await ws.close()

        asyncio.run(three())
        time.sleep(0.3)
        assert live.get("/api/health") == (200, {"ok": True})
    finally:
        live.stop()
    log = live.log.read_text()
    assert "Traceback" not in log
    assert log.count("over 3 connections at once from this address") == 1, log


@pytest.mark.parametrize("http", PARSERS)
def test_a_trusted_proxy_is_not_capped(tmp_path: Path, http: str) -> None:
    live = LiveServer(tmp_path, "--connections-per-address", "2",
                      "--forwarded-allow-ips", "127.0.0.1", "--http", http).start()
    try:
        held = [raw(live) for _ in range(5)]
        time.sleep(0.3)
        assert live.get("/api/health") == (200, {"ok": True})
        for sock in held:
            sock.close()
    finally:
        live.stop()


@pytest.mark.parametrize("http", PARSERS)
def test_at_the_file_descriptor_limit_the_log_stays_quiet(tmp_path: Path, http: str) -> None:
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    live = LiveServer(tmp_path, "--connections-per-address", "10000", "--http", http)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, hard), hard))  # inherited
    try:
        live.start()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        held = []
        for _ in range(400):  # more than the 256 files the server may open
            sock = socket.socket()
            sock.setblocking(False)  # the server accepts a few at a time: no waiting for it
            with contextlib.suppress(BlockingIOError):
                sock.connect(("127.0.0.1", live.port))
            held.append(sock)
        time.sleep(2)
        for sock in held:
            sock.close()
        time.sleep(0.5)
        assert live.get("/api/health") == (200, {"ok": True})
    finally:
        live.stop()
    log = live.log.read_text()
    assert "Traceback" not in log and "out of system resource" not in log, log[:3000]
    assert log.count("connections at once in all") == 1


@pytest.mark.parametrize("http", PARSERS)
def test_answers_a_client_does_not_read_are_aborted(tmp_path: Path, http: str) -> None:
    # Pipelined requests for a file, never read: the server's send buffer fills and the
    # answer waits; the write deadline frees the connections (and their places).
    live = LiveServer(tmp_path, "--connections-per-address", "2", "--write-timeout", "1",
                      "--http", http).start()
    try:
        held = [slow_reader(live) for _ in range(2)]
        for sock in held:
            sock.sendall(BIG * 60)
        time.sleep(0.3)
        with raw(live) as sock:  # both still count
            assert closed_after(sock)[1] == b""
        time.sleep(3)
        assert live.get("/api/health") == (200, {"ok": True})
        for sock in held:
            sock.close()
    finally:
        live.stop()
    assert "Traceback" not in live.log.read_text()


def _grown(server_port: int, client_port: int, before: int | None) -> int | None:
    """Wait up to a second for the server's send queue to the client to grow by a whole
    answer past ``before``; return its size then, or ``None`` if it did not."""
    until = time.monotonic() + 1.0
    while before is not None and time.monotonic() < until:
        time.sleep(0.03)
        now = send_queue(server_port, client_port)
        if now is None:
            return None
        if now - before >= 50_000:
            return now
    return None


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux's /proc/net/tcp")
@pytest.mark.parametrize("http", PARSERS)
def test_a_connection_closing_with_an_answer_unsent_still_counts(tmp_path: Path,
                                                                  http: str) -> None:
    # A client fills the server's send buffer, then asks for the connection to be closed
    # (Connection: close): asyncio keeps the socket until the client reads (never).
    live = LiveServer(tmp_path, "--connections-per-address", "2", "--http", http).start()
    try:
        held = []
        for _ in range(2):
            sock = slow_reader(live)
            client_port = sock.getsockname()[1]
            sock.sendall(BIG * 20)
            time.sleep(0.3)
            before = send_queue(live.port, client_port)
            for _ in range(100):  # one by one until the kernel no longer takes a whole answer
                sock.sendall(BIG)
                # A server slow to answer (a loaded machine) is not a full queue: the queue
                # counts as full only when it has not grown for a second.
                now = _grown(live.port, client_port, before)
                if now is None:
                    break
                before = now
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            held.append(sock)
        time.sleep(0.3)
        with raw(live) as sock:
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert closed_after(sock)[1] == b""
        for sock in held:
            sock.close()
        time.sleep(0.5)
        assert live.get("/api/health") == (200, {"ok": True})
    finally:
        live.stop()


def test_the_http_parser_is_chosen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    from shock_rules.cli import main
    from shock_rules.server._guard import http_parser

    assert http_parser("h11").__name__ == "_GuardedH11"
    with pytest.raises(ValueError, match="no HTTP parser"):
        http_parser("h2")
    monkeypatch.setitem(sys.modules, "uvicorn.protocols.http.httptools_impl", None)
    with pytest.raises(ImportError, match="httptools is not installed"):
        http_parser("httptools")
    assert http_parser("auto").__name__ == "_GuardedH11"
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "httptools" else find_spec(name, *a))
    with pytest.raises(SystemExit) as info:
        main(["serve", "--db", str(tmp_path / "t.sqlite3"), "--http", "httptools"])
    assert info.value.code == 2
    assert "--http httptools: httptools is not installed" in capsys.readouterr().err
    assert not (tmp_path / "t.sqlite3").exists()


# --- 3. Cross-site requests ------------------------------------------------------------------


def test_a_table_needs_a_json_body(server: LiveServer) -> None:
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None):
        headers = {} if kind is None else {"Content-Type": kind}
        status, _, doc = ask(server, "POST", "/api/tables", TABLE, headers)
        assert status == 415, kind
        assert doc["type"] == "error" and doc["code"] == "unsupported_media_type"
    status, _, _ = ask(server, "POST", "/api/tables", TABLE,
                       {"Content-Type": "Application/JSON; charset=utf-8"})
    assert status == 201


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Origin": "https://127.0.0.1:{port}"},  # another scheme: another origin
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "cross-site", "Origin": "http://127.0.0.1:{port}"},
])
def test_a_page_of_another_site_cannot_create_tables(server: LiveServer,
                                                     headers: dict[str, str]) -> None:
    sent = {k: v.format(port=server.port) for k, v in headers.items()}
    status, _, doc = ask(server, "POST", "/api/tables", TABLE,
                         {"Content-Type": "application/json", **sent})
    assert status == 403 and doc["code"] == "cross_site"
    assert set(doc) == {"schema", "type", "code", "message"}


def test_the_own_page_and_programs_create_tables(server: LiveServer) -> None:
    for headers in ({"Origin": f"http://127.0.0.1:{server.port}", "Sec-Fetch-Site": "same-origin"},
                    {"Origin": f"HTTP://127.0.0.1:{server.port}"}, {}):
        status, _, doc = ask(server, "POST", "/api/tables", TABLE,
                             {"Content-Type": "application/json", **headers})
        assert status == 201, (headers, doc)


def test_a_websocket_from_another_site_is_refused(server: LiveServer) -> None:
    table = server.create(3)["table"]

    async def attempt(origin: str | None) -> int:
        try:
            async with connect(f"{server.ws_url}/ws/{table}", origin=origin,  # type: ignore[arg-type]
                               ) as ws:
                await ws.recv()
                return 101
        except InvalidStatus as exc:
            return exc.response.status_code

    assert asyncio.run(attempt("http://evil.example")) == 403
    assert asyncio.run(attempt(f"http://127.0.0.1:{server.port}")) == 101
    assert asyncio.run(attempt(None)) == 101


def test_allowed_origins(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, "--allow-origin", "https://Friend.example:443").start()
    try:
        for sent, status in (("https://friend.example", 201), ("http://friend.example", 403)):
            got, _, _ = ask(live, "POST", "/api/tables", TABLE,
                            {"Content-Type": "application/json", "Origin": sent})
            assert got == status, sent
    finally:
        live.stop()


# --- 4. Proxies ------------------------------------------------------------------------------


def _forged(live: LiveServer) -> list[int]:
    """Create three tables, two of them with a forged X-Forwarded-For; return the statuses."""
    return [ask(live, "POST", "/api/tables", TABLE,
                {"Content-Type": "application/json", **xff})[0]
            for xff in ({"X-Forwarded-For": "203.0.113.1"}, {"X-Forwarded-For": "203.0.113.2"},
                        {})]


def test_x_forwarded_for_is_not_believed_by_default(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, "--tables-per-address", "2").start()
    try:
        assert _forged(live) == [201, 201, 429]
    finally:
        live.stop()


def test_x_forwarded_for_is_believed_from_a_named_proxy(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, "--tables-per-address", "2",
                      "--forwarded-allow-ips", "10.0.0.0/8,127.0.0.1").start()
    try:
        assert _forged(live) == [201, 201, 201]
    finally:
        live.stop()


# --- 5. Security headers ---------------------------------------------------------------------


def test_every_answer_has_the_security_headers(server: LiveServer) -> None:
    answers = [ask(server, "GET", "/"), ask(server, "GET", "/static/app.js"),
               ask(server, "GET", "/api/tables"), ask(server, "GET", "/api/tables/nope"),
               ask(server, "POST", "/api/tables", TABLE, {"Content-Type": "application/json"}),
               ask(server, "POST", "/api/tables", TABLE, {"Content-Type": "text/plain"}),
               ask(server, "GET", "/no/such/page")]
    for status, headers, _ in answers:
        assert headers["x-content-type-options"] == "nosniff", status
        assert headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["referrer-policy"] == "no-referrer"
    for status, headers, _ in answers[2:6]:
        assert headers["cache-control"] == "no-store", status
    assert answers[4][0] == 201 and "seats" in answers[4][2]


# --- 6. Redirects ----------------------------------------------------------------------------


def test_the_static_redirect_is_relative(server: LiveServer) -> None:
    status, headers, _ = ask(server, "GET", "/static", headers={"Host": "evil.example"})
    assert status in (301, 302, 307, 308) and headers["location"] == "/static/"
    status, headers, _ = ask(server, "GET", "/api/tables/", headers={"Host": "evil.example"})
    assert "evil.example" not in headers.get("location", "")


# --- 7. A body cut short ---------------------------------------------------------------------


def test_a_body_cut_short_leaves_no_traceback(tmp_path: Path) -> None:
    live = LiveServer(tmp_path).start()
    try:
        for _ in range(3):
            with raw(live) as sock:
                sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type:"
                             b" application/json\r\nContent-Length: 100\r\n\r\n{\"players\"")
                time.sleep(0.2)
        time.sleep(0.5)
        assert live.get("/api/health") == (200, {"ok": True})
    finally:
        live.stop()
    log = live.log.read_text()
    assert "Traceback" not in log and "ClientDisconnect" not in log, log


# --- 8. A private database file --------------------------------------------------------------


def test_the_database_files_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        store = SQLiteStore(tmp_path / "t.sqlite3")
        store.create_table(StoredTable("a", "{}", {}, {}, "seed", 1.0))
        names = sorted(p.name for p in tmp_path.iterdir())
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()}
        store.close()
    finally:
        os.umask(old)
    assert names == ["t.sqlite3", "t.sqlite3-shm", "t.sqlite3-wal"]
    assert modes == dict.fromkeys(names, 0o600)


def test_a_database_others_can_read_is_reported(tmp_path: Path,
                                                caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "t.sqlite3"
    sqlite3.connect(path).close()
    path.touch()
    path.chmod(0o644)
    store = SQLiteStore(path)
    assert not caplog.records  # said when the tables are loaded: when the file is used
    store.load_tables()
    store.load_tables()
    store.close()
    lines = [r.getMessage() for r in caplog.records if "other users" in r.getMessage()]
    assert len(lines) == 1 and "0o644" in lines[0] and "chmod 600" in lines[0]
    path.chmod(0o600)
    caplog.clear()
    store = SQLiteStore(path)
    store.load_tables()
    store.close()
    assert not [r for r in caplog.records if "other users" in r.getMessage()]


def test_the_log_says_it_once(tmp_path: Path) -> None:
    # Through the command: one line in the server's log, no traceback.
    path = tmp_path / "tables.sqlite3"
    sqlite3.connect(path).close()
    path.chmod(0o644)
    live = LiveServer(tmp_path).start()
    live.stop()
    log = live.log.read_text()
    assert len(re.findall("can be read by other users", log)) == 1 and "Traceback" not in log


# --- The pieces, in-process ------------------------------------------------------------------


class _Transport:
    """What the guard uses of a transport."""

    def __init__(self) -> None:
        self.closing = False
        self.buffered = 0

    def is_closing(self) -> bool:
        return self.closing

    def get_write_buffer_size(self) -> int:
        return self.buffered

    def abort(self) -> None:
        self.closing = True


def test_the_guard_counts_an_ipv6_client_as_its_64_and_trusts_proxies(
        caplog: pytest.LogCaptureFixture) -> None:
    from typing import cast

    from shock_rules.server._guard import Guard, TrustedProxies

    guard = Guard(head_seconds=1, body_seconds=1, per_address=2, total=None,
                  trusted=TrustedProxies("10.0.0.0/8, ::1"))

    def admit(host: str) -> tuple[bool, _Transport]:
        t = _Transport()
        return guard.admit(cast(asyncio.Transport, t), host, 1), t

    first, second = admit("2001:db8::1"), admit("2001:db8::2")
    assert first[0] and second[0]
    for _ in range(5):
        refused, t = admit("2001:db8::ffff")  # the same /64
        assert not refused and t.closing
    assert admit("2001:db8:0:1::1")[0]  # another /64
    assert all(admit("10.1.2.3")[0] for _ in range(5)) and admit("::1")[0]
    assert admit("::ffff:10.9.9.9")[0]  # an IPv4-mapped address of a trusted network
    first[1].closing, first[1].buffered = True, 10  # closing, an answer still unsent
    assert not admit("2001:db8::3")[0]
    first[1].buffered = 0  # a connection closed: its place is free again
    assert admit("2001:db8::3")[0]
    said = [r.getMessage() for r in caplog.records]
    assert said == ["2001:db8::/64: over 2 connections at once from this address: new ones are"
                    " closed at once (said once a minute)"]
    everyone = Guard(head_seconds=1, body_seconds=1, per_address=1, total=3)
    assert everyone.admit(cast(asyncio.Transport, _Transport()), "192.0.2.1", 3)
    assert not everyone.admit(cast(asyncio.Transport, _Transport()), "192.0.2.2", 4)


def test_proxies_and_origins_are_read_strictly() -> None:
    from shock_rules.server._guard import TrustedProxies, connection_budget, origin

    assert not TrustedProxies("") and not TrustedProxies(" , ")
    assert TrustedProxies("*").as_uvicorn() == ["*"]
    assert TrustedProxies("127.0.0.1,10.0.0.0/8").as_uvicorn() == ["127.0.0.1/32", "10.0.0.0/8"]
    for bad in ("localhost", "10.0.0.0/33", "1.2.3", "127.0.0.1;rm"):
        with pytest.raises(ValueError, match="is no IP address or network"):
            TrustedProxies(bad)
    assert origin("HTTPS://Example.COM:443/") == "https://example.com"
    assert origin("http://[::1]:8000") == "http://[::1]:8000"
    for bad in ("null", "example.com", "ftp://example.com", "https://example.com/x",
                "https://user@example.com", "http://example.com:99999"):
        with pytest.raises(ValueError, match="is no origin"):
            origin(bad)
    total, batch = connection_budget(1024)
    assert batch == 64 and 500 < total < 1024 - 4 * batch
