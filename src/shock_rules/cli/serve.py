"""``shock-rules serve``: the table server, for people in a browser and for programs over
WebSockets (:mod:`shock_rules.server`; needs the ``[server]`` extra).

It keeps every table in one SQLite file (``--db``) and resumes them all when started again;
with ``--db postgresql://...`` (the ``[postgres]`` extra), in a PostgreSQL database that several
``serve`` processes share.
``--bot-delay`` is the pause before each bot action, so that a person can follow the game.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import sqlite3
import stat
from typing import TYPE_CHECKING

from .._errors import ShockError
from ._args import clip_message, path_text, positive_arg, quote, report, unwritable

if TYPE_CHECKING:
    from ..server import Store

__all__ = ["register"]

#: The packages of the [server] extra.
NEEDS = ("starlette", "uvicorn", "websockets")


def _port(text: str) -> int:
    t = text.strip()
    if not (t.isascii() and t.isdigit() and len(t) < 6 and 0 <= int(t) <= 65535):
        raise argparse.ArgumentTypeError(f"port must be 0-65535, not {quote(text)}")
    return int(t)


def _delay(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds <= 60:
        raise argparse.ArgumentTypeError(f"bot delay must be 0-60 seconds, not {quote(text)}")
    return seconds


def _minutes(text: str) -> float:
    try:
        minutes = float(text)
    except ValueError:
        minutes = math.nan
    if not 0 < minutes <= 10**6:
        raise argparse.ArgumentTypeError("--idle-minutes must be a number of minutes above 0"
                                         f" (at most 1000000), not {quote(text)}")
    return minutes


def _special(path: str) -> str | None:
    """Return why ``path`` is no place for an SQLite file (a device, a FIFO...), or ``None``
    for a regular file, a folder (:func:`unwritable` says why not) or nothing yet."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return "it is not a regular file"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` sub-command to the command's sub-parsers."""
    p = sub.add_parser("serve", help="run the table server (browser client and WebSockets)",
                       description=("Run the table server: a browser client and a WebSocket API "
                                    "(the [server] extra)."))
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=_port, default=8000, help="the port (default 8000)")
    p.add_argument("--db", metavar="PATH|URL", default="shock-rules.sqlite3",
                   help="the SQLite file of the tables, created if missing (default"
                        " shock-rules.sqlite3), or a postgresql:// URL that several server"
                        " processes share (the [postgres] extra)")
    p.add_argument("--bot-delay", type=_delay, default=0.6, metavar="SECONDS",
                   help="pause before each bot action (default 0.6; 0 for none)")
    p.add_argument("--max-tables", type=positive_arg("--max-tables"), default=1000,
                   help="unfinished tables at most (default 1000)")
    p.add_argument("--tables-per-address", type=positive_arg("--tables-per-address"),
                   default=20, metavar="N",
                   help="unfinished tables one client address may have at once (default 20);"
                        " once more than half of --max-tables are in use, at most its share:"
                        " half of --max-tables divided among the addresses holding tables")
    p.add_argument("--keep-finished", type=positive_arg("--keep-finished"), default=200,
                   metavar="N", help="finished tables kept, in memory and in the database;"
                                     " beyond them the oldest of the client address with the"
                                     " most is deleted (default 200)")
    p.add_argument("--rate-limit", type=positive_arg("--rate-limit"), default=20,
                   metavar="N", help="messages a second per connection at most, the"
                                     " connections of one seat sharing one limit (default 20)")
    p.add_argument("--table-rate", type=positive_arg("--table-rate"), default=300,
                   metavar="N", help="tables a minute one client address may create, in"
                                     " bursts of as many (default 300)")
    p.add_argument("--bot-workers", type=positive_arg("--bot-workers"), default=1,
                   metavar="N", help="worker processes for the MCTS bots' thinking: every"
                                     " table's decisions wait their turn for them, in turn by"
                                     " client address then table (default 1)")
    p.add_argument("--mcts-per-table", type=positive_arg("--mcts-per-table"), default=1,
                   metavar="N", help="MCTS bots one table may have (default 1)")
    p.add_argument("--mcts-tables-per-address", type=positive_arg("--mcts-tables-per-address"),
                   default=4, metavar="N", help="unfinished tables with an MCTS bot one client"
                                                " address may have at once (default 4)")
    p.add_argument("--idle-minutes", type=_minutes, default=60.0, metavar="MINUTES",
                   help="an unfinished table with no seat connected and no action for this"
                        " long is deleted (default 60)")
    p.add_argument("--sockets-per-address", type=positive_arg("--sockets-per-address"),
                   default=32, metavar="N",
                   help="WebSockets one client address may have open at once; more are closed"
                        " with 4429 (default 32)")
    p.add_argument("--sockets-per-seat", type=positive_arg("--sockets-per-seat"), default=4,
                   metavar="N", help="connections one seat may have at once (tabs, devices);"
                                     " more are closed with 4429 (default 4)")
    p.add_argument("--socket-rate", type=positive_arg("--socket-rate"), default=10,
                   metavar="N", help="new WebSockets a second one client address may open, in"
                                     " bursts of twice as many; more are closed with 4429"
                                     " (default 10)")
    p.set_defaults(run=_run, parser=p)


def _sqlite(db: str) -> Store | int:
    """Open the SQLite file ``db``, or report why not (and return the exit status)."""
    if (why := _special(db)) is not None:
        return report("serve", f"cannot use {path_text(db)} as the database: {why}", 1)
    if (why := unwritable(db)) is not None:
        return report("serve", f"cannot write {path_text(db)}: {why}", 1)
    from ..server import SQLiteStore

    # Opened here, before the server starts listening: a file that is no database of tables
    # is one line of error, not a traceback of the server's startup.
    try:
        store = SQLiteStore(db)
    except (sqlite3.Error, OSError) as exc:
        return report("serve", f"cannot use {path_text(db)} as the database:"
                      f" {clip_message(str(exc) or type(exc).__name__)}", 1)
    try:
        problem = store.check()
    except (sqlite3.Error, OSError) as exc:
        problem = str(exc) or type(exc).__name__
    if problem is not None:
        store.close()
        return report("serve", f"cannot use {path_text(db)} as the database: it is"
                      f" damaged ({clip_message(problem)})", 1)
    return store


def _postgres(url: str) -> Store | int:
    """Open the PostgreSQL store at ``url``, or report why not, naming the database by its
    host and name only (the URL may hold a password)."""
    if importlib.util.find_spec("psycopg") is None:
        return report("serve", "a postgresql:// database needs psycopg:"
                      " pip install 'shock-rules[postgres]'", 1)
    from ..server._postgres import DriverError, PostgresStore, SchemaVersionError, _where

    try:
        return PostgresStore(url)
    except (SchemaVersionError, ShockError) as exc:
        return report("serve", clip_message(str(exc)), 1)
    except DriverError as exc:  # psycopg's own (a URL it cannot read...): name it, no URL
        return report("serve", f"cannot use {_where(url)} as the database:"
                      f" {type(exc).__name__}", 1)


def _run(args: argparse.Namespace) -> int:
    missing = [name for name in NEEDS if importlib.util.find_spec(name) is None]
    if missing:
        args.parser.error(f"'serve' needs {', '.join(missing)}:"
                          " pip install 'shock-rules[server]'")
    from ..server import Limits, ListenError, listen, serve

    store = (_postgres(args.db) if args.db.startswith(("postgresql://", "postgres://"))
             else _sqlite(args.db))
    if isinstance(store, int):
        return store
    # Bound here too, before the server starts: a port in use or a host that does not
    # resolve is one line of error (2 for the host, a bad argument), not uvicorn's log.
    try:
        sockets = listen(args.host, args.port)
    except ListenError as exc:
        store.close()
        return report("serve", clip_message(str(exc)), 1 if exc.resolved else 2)
    try:
        serve(args.host, args.port, store, bot_delay=args.bot_delay,
              limits=Limits(max_tables=args.max_tables,
                            tables_per_address=args.tables_per_address,
                            finished_tables=args.keep_finished,
                            messages_per_second=args.rate_limit,
                            tables_per_minute=args.table_rate,
                            idle_minutes=args.idle_minutes,
                            bot_workers=args.bot_workers,
                            mcts_per_table=args.mcts_per_table,
                            mcts_tables_per_address=args.mcts_tables_per_address,
                            sockets_per_address=args.sockets_per_address,
                            sockets_per_seat=args.sockets_per_seat,
                            sockets_per_second=args.socket_rate,
                            socket_burst=2 * args.socket_rate), sockets=sockets)
    except KeyboardInterrupt:
        return 130
    return 0
