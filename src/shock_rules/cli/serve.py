"""``shock-rules serve``: the table server, for people in a browser and for programs over
WebSockets (:mod:`shock_rules.server`; needs the ``[server]`` extra).

It keeps every table in one SQLite file (``--db``, or the environment variable
``SHOCK_RULES_DB``) and resumes them all when started again; with ``--db postgresql://...``
(the ``[postgres]`` extra), in a PostgreSQL database that several ``serve`` processes share.
``--bot-delay`` is the pause before each bot action, so that a person can follow the game.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import sqlite3
import stat
import sys
import urllib.parse
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

from .._errors import ShockError
from ._args import clip_message, path_text, positive_arg, quote, report, unwritable

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..server import Limits, Store

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


def _seconds(option: str) -> Callable[[str], float]:
    """Return a type that reads a number of seconds above 0 (at most a day)."""
    def parse(text: str) -> float:
        try:
            seconds = float(text)
        except ValueError:
            seconds = math.nan
        if not 0 < seconds <= 86400:
            raise argparse.ArgumentTypeError(f"{option} must be a number of seconds above 0"
                                             f" (at most 86400), not {quote(text)}")
        return seconds

    return parse


#: The environment variable that names the database when ``--db`` does not: a PostgreSQL
#: URL with a password in it stays out of the process list (``ps``), which anyone may read.
DB_VARIABLE = "SHOCK_RULES_DB"


def _has_password(url: str) -> bool:
    """Whether a ``postgresql://`` URL holds a password (after the user, or as a parameter)."""
    try:
        parts = urlsplit(url)
        return bool(parts.password) or "password" in parse_qs(parts.query)
    except ValueError:
        return ":" in url.partition("@")[0].partition("://")[2]


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
    p.add_argument("--db", metavar="PATH|URL", default=None,
                   help="the SQLite file of the tables, created if missing, or a"
                        " postgresql:// URL that several server processes share (the"
                        f" [postgres] extra); default ${DB_VARIABLE}, else"
                        " shock-rules.sqlite3 (a URL with a password belongs in"
                        f" ${DB_VARIABLE}, PGPASSWORD or ~/.pgpass: ps shows --db to all)")
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
    p.add_argument("--request-rate", type=positive_arg("--request-rate"), default=100,
                   metavar="N", help="HTTP requests a second one client address may make, in"
                                     " bursts of twice as many; more answer 429 (default 100)")
    p.add_argument("--replace-rate", type=positive_arg("--replace-rate"), default=30,
                   metavar="N", help="seat links one client address may replace a minute, in"
                                     " bursts of as many; more answer 429 (default 30)")
    p.add_argument("--head-timeout", type=_seconds("--head-timeout"), default=10.0,
                   metavar="SECONDS", help="a connection that has not sent a whole request"
                   " head this long after opening (or after its last answer) is closed"
                   " (default 10)")
    p.add_argument("--body-timeout", type=_seconds("--body-timeout"), default=30.0,
                   metavar="SECONDS", help="a request body not whole this long after its head"
                   " is answered 408 and its connection closed (default 30)")
    p.add_argument("--write-timeout", type=_seconds("--write-timeout"), default=30.0,
                   metavar="SECONDS", help="a connection whose answer the client has not read"
                   " (data waiting to be sent) this long is closed (default 30)")
    p.add_argument("--keep-alive", type=_seconds("--keep-alive"), default=5.0,
                   metavar="SECONDS", help="an idle connection is closed this long after its"
                   " last answer (default 5)")
    p.add_argument("--connections-per-address", type=positive_arg("--connections-per-address"),
                   default=64, metavar="N", help="TCP connections one client address (IPv6:"
                   " its /64) may have open at once, WebSockets included; more are closed at"
                   " once (default 64; a trusted proxy is not counted)")
    p.add_argument("--max-connections", type=positive_arg("--max-connections"), default=None,
                   metavar="N", help="connections at once in all (default: as many as the"
                   " file descriptor limit, ulimit -n, leaves room for)")
    p.add_argument("--http", choices=("auto", "h11", "httptools"), default="auto",
                   help="the HTTP parser: auto takes httptools if it is installed, else h11"
                   " (default auto)")
    p.add_argument("--forwarded-allow-ips", default="", metavar="LIST",
                   help="the proxies (a comma list of addresses and networks such as"
                   " 127.0.0.1,10.0.0.0/8; * for any peer) whose X-Forwarded-For and"
                   " X-Forwarded-Proto are believed (default: nobody's)")
    p.add_argument("--store-timeout", type=_seconds("--store-timeout"), default=20.0,
                   metavar="SECONDS", help="a database call not answered this long is an error"
                   " (\"the database cannot be reached\"), not a hang (default 20)")
    p.add_argument("--advertise", type=_advertised, default=None, metavar="URL",
                   help="this process's own URL, where the other processes sharing a"
                        " postgresql:// database forward the connections to the tables it"
                        " plays (default http://HOST:PORT, 127.0.0.1 for a --host of 0.0.0.0)")
    p.add_argument("--race-policy", choices=("compensated", "arrival"), default="compensated",
                   help="how the races of a real-time game (Melvin Vs. Kronk's slaps) are"
                        " settled: by each seat's reaction time less its round trip, within"
                        " --race-window (compensated, the default), or by arrival alone")
    p.add_argument("--race-window", type=_race_window, default=250.0, metavar="MS",
                   help="the most a seat's round trip is made up for, and how old a view an"
                        " action may be judged against, in milliseconds (default 250; 0 to"
                        " 1000)")
    p.add_argument("--allow-origin", action="append", default=[],
                   metavar="ORIGIN", help="an origin (https://example.com) whose pages may"
                   " create tables and open WebSockets here, besides the server's own"
                   " (repeat for more)")
    p.set_defaults(run=_run, parser=p)


def _race_window(text: str) -> float:
    """Read ``--race-window``: milliseconds from 0 to 1000."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 <= value <= 1000:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"expected milliseconds from 0 to 1000, not {text!r}")
    return value


def _advertised(text: str) -> str:
    """Read ``--advertise``: an ``http://`` or ``https://`` URL of a host and port, no path."""
    parts = urllib.parse.urlsplit(text)
    try:
        port = parts.port
    except ValueError:
        port = None
    if (parts.scheme not in ("http", "https") or not parts.hostname or port is None
            or parts.path not in ("", "/") or parts.query or parts.fragment
            or parts.username or parts.password):
        raise argparse.ArgumentTypeError(
            f"expected a URL such as http://10.0.0.5:8000 (a host and port, no path), not"
            f" {quote(text)}")
    return f"{parts.scheme}://{parts.netloc}"


def _sqlite(db: str) -> Store | int:
    """Open the SQLite file ``db``, or report why not (and return the exit status)."""
    if (why := _special(db)) is not None:
        return report("serve", f"cannot use {path_text(db)} as the database: {why}", 1)
    if (why := unwritable(db)) is not None:
        return report("serve", f"cannot write {path_text(db)}: {why}", 1)
    from ..server import SQLiteStore
    from ..server._store import SchemaVersionError

    # Opened here, before the server starts listening: a file that is no database of tables
    # (or one of a newer version) is one line of error, not a traceback of the server's
    # startup.
    try:
        store = SQLiteStore(db)
    except SchemaVersionError as exc:
        return report("serve", clip_message(str(exc)), 1)
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


def limits_of(args: argparse.Namespace) -> Limits:
    """Return the server's :class:`~shock_rules.server.Limits` that the options ask for (the
    defaults of both agree: a test checks every field)."""
    from ..server import Limits

    return Limits(max_tables=args.max_tables, tables_per_address=args.tables_per_address,
                  finished_tables=args.keep_finished, messages_per_second=args.rate_limit,
                  tables_per_minute=args.table_rate, idle_minutes=args.idle_minutes,
                  bot_workers=args.bot_workers, mcts_per_table=args.mcts_per_table,
                  mcts_tables_per_address=args.mcts_tables_per_address,
                  sockets_per_address=args.sockets_per_address,
                  sockets_per_seat=args.sockets_per_seat,
                  sockets_per_second=args.socket_rate, socket_burst=2 * args.socket_rate,
                  replaces_per_minute=args.replace_rate,
                  requests_per_second=args.request_rate,
                  head_seconds=args.head_timeout, body_seconds=args.body_timeout,
                  write_seconds=args.write_timeout, keep_alive_seconds=args.keep_alive,
                  connections_per_address=args.connections_per_address,
                  max_connections=args.max_connections, store_seconds=args.store_timeout)


def _run(args: argparse.Namespace) -> int:
    missing = [name for name in NEEDS if importlib.util.find_spec(name) is None]
    if missing:
        args.parser.error(f"'serve' needs {', '.join(missing)}:"
                          " pip install 'shock-rules[server]'")
    from ..protocol import FairnessPolicy
    from ..server import ListenError, listen, serve
    from ..server._guard import TrustedProxies, origin

    # Read here, not by argparse: the server package needs the [server] extra, checked above.
    try:
        TrustedProxies(args.forwarded_allow_ips)
    except ValueError as exc:
        args.parser.error(f"--forwarded-allow-ips: {exc}")
    try:
        origins = [origin(o) for o in args.allow_origin]
    except ValueError as exc:
        args.parser.error(f"--allow-origin: {exc}")
    if args.http == "httptools" and importlib.util.find_spec("httptools") is None:
        args.parser.error("--http httptools: httptools is not installed: pip install httptools")

    db = args.db if args.db is not None else os.environ.get(DB_VARIABLE) or "shock-rules.sqlite3"
    postgres = db.startswith(("postgresql://", "postgres://"))
    if postgres and args.db is not None and _has_password(args.db):
        print("shock-rules serve: warning: the password in --db can be read by every user of"
              " this machine (ps shows the command line): give it in PGPASSWORD or ~/.pgpass,"
              f" or the whole URL in {DB_VARIABLE}", file=sys.stderr)
    store = _postgres(db) if postgres else _sqlite(db)
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
              limits=limits_of(args), sockets=sockets,
              forwarded_allow_ips=args.forwarded_allow_ips, allow_origins=origins,
              http=args.http, advertise=args.advertise,
              fairness=FairnessPolicy(args.race_policy, args.race_window / 1000))
    except KeyboardInterrupt:
        return 130
    return 0
