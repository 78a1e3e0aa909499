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


#: A query's token, spelled as a client may spell it: the server reads each as the token.
TOKEN = "RLh-SECRETSECRETSECRET_x"
ENCODED = [
    f"token={TOKEN}",
    f"tok%65n={TOKEN}",
    f"%74%6F%6B%65%6E={TOKEN}",
    f"%74%6f%6b%65%6e={TOKEN}",
    f"token=%52{TOKEN[1:]}",
    f"tok%65n=%52%4C%68{TOKEN[3:]}",
    f"token={TOKEN}&token={TOKEN}",
]


@pytest.mark.parametrize("query", ENCODED)
def test_an_encoded_token_is_redacted_in_an_access_line(query: str) -> None:
    from urllib.parse import parse_qs

    assert parse_qs(query)["token"][0] == TOKEN  # how Starlette reads the query
    record = _access_record(f"/?table=abc&{query}&since=4")
    RedactTokens().filter(record)
    line = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s',
                           use_colors=False).format(record)
    assert TOKEN[3:] not in line and "***" in line
    name = query.partition("=")[0]  # the name is kept as it was written, and the rest too
    assert line.startswith(f'127.0.0.1:5 - "GET /?table=abc&{name}=***')
    assert line.endswith('&since=4 HTTP/1.1" 200 OK')


@pytest.mark.parametrize("query", ENCODED)
def test_an_encoded_token_is_redacted_in_a_websocket_line(query: str) -> None:
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1,
                               '%s - "WebSocket %s" [accepted]',
                               ("127.0.0.1:5", f"/ws/x?{query}"), None)
    RedactTokens().filter(record)
    message = record.getMessage()
    assert TOKEN[3:] not in message and message.endswith('=***" [accepted]')


@pytest.mark.parametrize(("text", "redacted"), [
    ("/ws/x?since=3&token=A&x=1", "/ws/x?since=3&token=***&x=1"),
    ("/?a=1?token=A", "/?a=1?token=***"),  # a "?" the server keeps in a's value
    ("/?token=A?token=B&c=d", "/?token=***&c=d"),
    ("/?tok%2565n=A", "/?tok%2565n=A"),  # the server reads the name as "tok%65n"
    ("/?Token=A&tokens=B&xtoken=C&to+ken=D", "/?Token=A&tokens=B&xtoken=C&to+ken=D"),
    ("/?token+=A&+token=B", "/?token+=A&+token=B"),  # "token " and " token"
    ("/?token=", "/?token=***"),
    ("/?table=abc", "/?table=abc"),
])
def test_only_the_values_of_token_parameters_are_redacted(text: str, redacted: str) -> None:
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, text, None, None)
    RedactTokens().filter(record)
    assert record.getMessage() == redacted


def test_a_token_filled_in_by_the_arguments_is_redacted() -> None:
    # A format string that holds "token=%s": the argument is the token.
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "open /ws/x?token=%s (%d)",
                               (TOKEN, 3), None)
    RedactTokens().filter(record)
    assert record.getMessage() == "open /ws/x?token=*** (3)"
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "open /ws/x?tok%%65n=%(t)s",
                               ({"t": TOKEN},), None)
    RedactTokens().filter(record)
    assert record.getMessage() == "open /ws/x?tok%65n=***"
