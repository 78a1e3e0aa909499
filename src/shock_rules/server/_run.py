"""Running the server with uvicorn, with logs that never show a seat's token."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Final

import uvicorn

from ._app import Limits, create_app

__all__ = ["RedactTokens", "serve"]

# A token's value; not a %-placeholder of a message whose arguments fill it in.
_TOKEN: Final = re.compile(r"(token=)(?!%)[^&\s\"']+")
#: The loggers that print request paths with their query strings (where a seat link's token is).
URL_LOGGERS: Final = ("uvicorn.access", "uvicorn.error", "uvicorn")


class RedactTokens(logging.Filter):
    """A logging filter that replaces the value of every ``token=`` in a message by ``***``
    (uvicorn logs each WebSocket's path with its query string, and a seat's link holds its
    token)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Return true (keep the record) after redacting its message and its arguments.

        The arguments are redacted one by one, not merged into the message: uvicorn's access
        formatter reads them (client, method, path, ...) to build its line.
        """
        if isinstance(record.msg, str) and "token=" in record.msg:
            record.msg = _TOKEN.sub(r"\1***", record.msg)
        args = record.args
        if isinstance(args, tuple):
            record.args = tuple(_TOKEN.sub(r"\1***", a) if isinstance(a, str) else a
                                for a in args)
        elif isinstance(args, dict):
            record.args = {k: _TOKEN.sub(r"\1***", v) if isinstance(v, str) else v
                           for k, v in args.items()}
        return True


def install_redaction() -> None:
    """Put :class:`RedactTokens` on uvicorn's loggers and on their handlers."""
    redact = RedactTokens()
    for name in URL_LOGGERS:
        logger = logging.getLogger(name)
        logger.addFilter(redact)
        for handler in logger.handlers:
            handler.addFilter(redact)


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | Path = "shock-rules.sqlite3",
          *, bot_delay: float = 0.6, limits: Limits | None = None, log_level: str = "info",
          compress: bool = True
          ) -> None:
    """Run the table server until interrupted (``shock-rules serve``)."""
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
