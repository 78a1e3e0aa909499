"""HTTP requests per client address (issue 42): a loop of cheap requests from a few
keep-alive connections filled a core; over ``--request-rate`` an address is answered 429."""

from __future__ import annotations

import http.client
import json
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from ._live import LiveServer


def _get(conn: http.client.HTTPConnection, path: str,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn.request("GET", path, headers=headers or {})
    answer = conn.getresponse()
    return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()


def test_an_address_over_its_request_rate_is_answered_429(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, "--request-rate", "5",
                      "--forwarded-allow-ips", "127.0.0.1").start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=30)
        # A burst of twice the rate passes (less the health checks of the server's start),
        # then most are refused (a few trickle back in as the bucket refills meanwhile).
        answers = [_get(conn, "/api/tables") for _ in range(40)]
        statuses = [status for status, _, _ in answers]
        assert statuses[:7] == [200] * 7
        assert statuses.count(429) >= 20
        _, headers, body = next(a for a in answers if a[0] == 429)
        doc = json.loads(body)
        assert doc["code"] == "too_fast" and "5 requests a second" in doc["message"]
        assert int(headers["retry-after"]) >= 1
        assert headers["x-content-type-options"] == "nosniff"  # still a server's answer
        # Another address (through the trusted proxy) is not held back by this one's loop.
        other = {"X-Forwarded-For": "198.51.100.7"}
        assert [_get(conn, "/api/health", other)[0] for _ in range(5)] == [200] * 5
        conn.close()
    finally:
        live.stop()
