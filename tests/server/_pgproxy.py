"""A TCP proxy between a store and a real PostgreSQL that can fail a connection at the moment
that matters: after PostgreSQL committed but before its answer arrives, just before a
client's COMMIT reaches it, or by holding every answer back (a database that froze, its host's
kernel still acknowledging).

It reads the protocol's messages (one type byte and a 4-byte length, after the client's first
message, which has no type byte) to know the moment. A client must ask for neither SSL nor
GSS encryption (:meth:`PgProxy.url` says so), whose one-byte answers are no messages.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable

from psycopg.conninfo import conninfo_to_dict, make_conninfo

COMMIT_QUERY = b"Q" + (4 + len(b"COMMIT\x00")).to_bytes(4, "big") + b"COMMIT\x00"
#: What a statement that commits by itself (no BEGIN: an implicit transaction) starts with:
#: the parsing of the store's one-statement append of actions.
APPEND_PARSE = b"INSERT INTO actions"


def _commits(message: bytes) -> bool:
    """Whether a client's message is the one that commits: a COMMIT, or the parsing of a
    statement that commits by itself (the append of actions)."""
    return message == COMMIT_QUERY or (message[:1] == b"P" and APPEND_PARSE in message)


def _committed(tag: bytes) -> bool:
    """Whether a command's completion tag (a ``C`` message's text) ends in a commit when
    PostgreSQL is then idle: a COMMIT, or a statement in an implicit transaction."""
    return tag in (b"COMMIT", b"UPDATE 1")


class _Stream:
    """Cut a byte stream into protocol messages."""

    def __init__(self, typed: bool) -> None:
        self.typed = typed
        self.buffer = b""

    def feed(self, data: bytes) -> list[bytes]:
        self.buffer += data
        messages: list[bytes] = []
        while True:
            head = 5 if self.typed else 4
            if len(self.buffer) < head:
                return messages
            size = int.from_bytes(self.buffer[head - 4:head], "big") + head - 4
            if len(self.buffer) < size:
                return messages
            messages.append(self.buffer[:size])
            self.buffer = self.buffer[size:]
            self.typed = True  # only the client's first message (startup) has no type


class PgProxy:
    """Forward connections from a port of 127.0.0.1 to PostgreSQL at ``port``, failing one
    when armed (:meth:`lose_commit_answer`, :meth:`lose_commit`) or holding every answer back
    (:meth:`freeze`)."""

    def __init__(self, port: int, host: str = "127.0.0.1") -> None:
        self.upstream = (host, port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._state = threading.Condition()
        self._armed: str | None = None
        self._meanwhile: Callable[[], None] | None = None
        self._frozen = False
        self._sockets: list[socket.socket] = []
        self._closed = False
        #: Set when an armed failure happened.
        self.failed = threading.Event()
        #: Set when an answer was held back while frozen.
        self.holding = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, url: str) -> str:
        """``url`` (of the proxied server) through the proxy, without SSL or GSS."""
        parts = conninfo_to_dict(url)
        parts.update(host="127.0.0.1", port=str(self.port), sslmode="disable",
                     gssencmode="disable")
        return make_conninfo("", **parts)

    def lose_commit_answer(self) -> None:
        """At the next commit PostgreSQL reports (a COMMIT, or a statement that commits by
        itself), drop the connection instead of forwarding its last answer: the transaction is
        committed, the client does not know."""
        with self._state:
            self._armed, self.failed = "answer", threading.Event()

    def lose_commit(self, meanwhile: Callable[[], None] = lambda: None) -> None:
        """At the next COMMIT a client sends (or statement that commits by itself: the append
        of actions), close the connection to PostgreSQL instead of forwarding it (the
        transaction is rolled back, or never begun), run ``meanwhile``, then close the
        client's."""
        with self._state:
            self._armed, self._meanwhile, self.failed = "commit", meanwhile, threading.Event()

    def freeze(self) -> None:
        """Hold every answer back until :meth:`thaw` (what the client sends still goes on)."""
        with self._state:
            self._frozen, self.holding = True, threading.Event()

    def thaw(self) -> None:
        with self._state:
            self._frozen = False
            self._state.notify_all()

    def close(self) -> None:
        with self._state:
            self._closed = True
            self._frozen = False
            self._state.notify_all()
            sockets, self._sockets = self._sockets, []
        self._listener.close()
        for sock in sockets:
            _shut(sock)

    def _take(self, armed: str) -> Callable[[], None] | None:
        """Disarm and return ``meanwhile`` if ``armed`` is what the proxy is armed for."""
        with self._state:
            if self._armed != armed:
                return None
            self._armed = None
            meanwhile, self._meanwhile = self._meanwhile, None
            return meanwhile or (lambda: None)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.upstream)
            except OSError:
                _shut(client)
                continue
            for sock in (client, server):  # as PostgreSQL's own: no waiting for more to send
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._state:
                if self._closed:
                    _shut(client)
                    _shut(server)
                    return
                self._sockets += [client, server]
            threading.Thread(target=self._up, args=(client, server), daemon=True).start()
            threading.Thread(target=self._down, args=(client, server), daemon=True).start()

    def _up(self, client: socket.socket, server: socket.socket) -> None:
        """Forward what the client sends."""
        stream = _Stream(typed=False)
        try:
            while data := client.recv(65536):
                ahead = b""
                for message in stream.feed(data):
                    if _commits(message) and (meanwhile := self._take("commit")):
                        server.sendall(ahead)
                        _shut(server)
                        meanwhile()
                        _shut(client)
                        self.failed.set()
                        return
                    ahead += message
                server.sendall(ahead)
        except OSError:
            pass
        _shut(server)
        _shut(client)

    def _down(self, client: socket.socket, server: socket.socket) -> None:
        """Forward what PostgreSQL answers."""
        stream = _Stream(typed=True)
        tag = b""  # the latest command's completion tag
        try:
            while data := server.recv(65536):
                with self._state:
                    while self._frozen:
                        self.holding.set()
                        self._state.wait()
                ahead = b""
                for message in stream.feed(data):
                    if message[:1] == b"C":
                        tag = message[5:].rstrip(b"\x00")
                    # ReadyForQuery, idle, after a commit: it is done, and the client does not
                    # hear it.
                    if (message[:1] == b"Z" and message[5:6] == b"I" and _committed(tag)
                            and self._take("answer")):
                        client.sendall(ahead)
                        _shut(server)
                        _shut(client)
                        self.failed.set()
                        return
                    ahead += message
                client.sendall(ahead)
        except OSError:
            pass
        _shut(server)
        _shut(client)


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
