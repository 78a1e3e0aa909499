"""Tokens never reach a log line, and redacting them leaves uvicorn's log lines whole."""

from __future__ import annotations

import logging

import pytest

pytest.importorskip("uvicorn")
from uvicorn.logging import AccessFormatter

from shock_rules.server._run import RedactTokens


def _access_record(path: str) -> logging.LogRecord:
    # The record uvicorn's access logger makes for a request: its line is built from the args.
    return logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                             '%s - "%s %s HTTP/%s" %d', ("127.0.0.1:5", "GET", path, "1.1", 200),
                             None)


def test_an_access_line_keeps_its_shape_without_the_token() -> None:
    record = _access_record("/?table=abc&token=SECRETSECRET")
    assert RedactTokens().filter(record)
    line = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s',
                           use_colors=False).format(record)
    assert "SECRETSECRET" not in line
    assert line == '127.0.0.1:5 - "GET /?table=abc&token=*** HTTP/1.1" 200 OK'


def test_a_plain_message_is_redacted_too() -> None:
    # uvicorn logs a WebSocket as '%s - "WebSocket %s" [accepted]' with the path as an argument.
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1,
                               '%s - "WebSocket %s" [accepted]',
                               ("127.0.0.1:5", "/ws/x?token=TOPSECRET"), None)
    RedactTokens().filter(record)
    assert record.getMessage() == '127.0.0.1:5 - "WebSocket /ws/x?token=***" [accepted]'
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1,
                               "connection open /ws/x?token=TOPSECRET", None, None)
    RedactTokens().filter(record)
    assert record.getMessage() == "connection open /ws/x?token=***"
