"""Running the server with uvicorn, with logs that never show a seat's token."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Final
from urllib.parse import unquote_plus

import uvicorn

from ._app import Limits, create_app
from ._store import Store

__all__ = ["RedactTokens", "serve"]

#: Where a query parameter may start (after a "?" or a "&", or a word's start: a query
#: quoted on its own), with its name and its value. The lookahead finds parameters that
#: overlap, so a "?" inside another's value starts one too.
_PARAM: Final = re.compile(r"(?:^|(?<=[?&\s\"']))(?=([^=&?\s\"']*)=([^&\s\"']*))")
#: The query parameter that holds a seat's token (its name as the server reads it).
TOKEN_PARAM: Final = "token"
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


def serve(host: str = "127.0.0.1", port: int = 8000,
          db: Store | str | Path = "shock-rules.sqlite3", *, bot_delay: float = 0.6,
          limits: Limits | None = None, log_level: str = "info", compress: bool = True
          ) -> None:
    """Run the table server until interrupted (``shock-rules serve``); ``db`` is the path of
    its SQLite file, or a :class:`Store` (as for :func:`create_app`)."""
    limits = limits or Limits()
    app = create_app(db, bot_delay=bot_delay, limits=limits)
    # Messages over 16 times the limit are cut off by the WebSocket layer itself (close 1009);
    # the application answers smaller oversized ones with an error document.
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level,
                            ws_max_size=16 * limits.message_bytes, ws="auto",
                            ws_per_message_deflate=compress, lifespan="on",
                            timeout_graceful_shutdown=2)
    install_redaction()  # after uvicorn.Config, which sets up its loggers
    ours = logging.getLogger("shock_rules.server")
    ours.setLevel(log_level.upper())
    if not ours.handlers:  # print the server's own lines the way uvicorn prints its own
        ours.handlers = list(logging.getLogger("uvicorn").handlers)
        ours.propagate = False
    uvicorn.Server(config).run()
