"""A real table server for tests: ``shock-rules serve`` in a subprocess on a free port of
127.0.0.1, with its SQLite file (or a PostgreSQL database shared with other servers) and its
log (stdout and stderr) in a temporary folder."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    """Return a TCP port of 127.0.0.1 that nothing listens on (now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """``shock-rules serve`` running in a subprocess; :meth:`kill` and :meth:`start` again
    (on the same file and port) to test a restart."""

    def __init__(self, folder: Path, *args: str, db: str | None = None,
                 name: str = "server") -> None:
        self.folder = folder
        self.db = folder / "tables.sqlite3"
        #: What ``--db`` says: the SQLite file, or ``db``, a PostgreSQL URL that several
        #: servers share.
        self.db_arg = str(self.db) if db is None else db
        self.log = folder / f"{name}.log"
        self.args = args
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> LiveServer:
        """Start the server and wait until it answers ``/api/health``."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "shock_rules.cli", "serve", "--port", str(self.port),
                 "--db", self.db_arg, "--bot-delay", "0", *self.args],
                stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 30
        while True:
            try:
                if self.get("/api/health") == (200, {"ok": True}):
                    return self
            except (urllib.error.URLError, ConnectionError):
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start:\n{self.log.read_text()}")
            time.sleep(0.05)

    def kill(self) -> None:
        """Kill the server at once (SIGKILL: no shutdown of any kind)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL if it does not end)."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.kill()

    def request(self, method: str, path: str, body: bytes | None = None
                ) -> tuple[int, Any]:
        """Return the status and the JSON answer of an HTTP request."""
        req = urllib.request.Request(self.url + path, data=body, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def get(self, path: str) -> tuple[int, Any]:
        """``GET path``."""
        return self.request("GET", path)

    def create(self, players: int = 4, bots: dict[str, str] | None = None,
               **fields: object) -> dict[str, Any]:
        """Create a table and return the answer (``table`` and ``seats``)."""
        status, doc = self.request("POST", "/api/tables", json.dumps(
            {"players": players, "bots": bots or {}, **fields}).encode())
        assert status == 201, doc
        assert isinstance(doc, dict)
        return doc
