"""The PostgreSQL store: tables that several server processes share (the ``[postgres]`` extra,
psycopg 3).

Every method of :class:`~shock_rules.server.Store` is one transaction on one connection, as in
SQLite, and the :class:`~shock_rules.server.SharedStore` methods let several processes serve
the same tables: the primary key ``(table_id, step)`` of ``actions`` decides a race for a step
(:class:`StepTakenError`), the transaction that stores actions announces them with ``NOTIFY``,
and a table's bots are leased to one process with a session-level advisory lock, which
PostgreSQL releases when the process's session ends (a process killed loses its leases).

When PostgreSQL cannot be reached, every call raises :class:`StoreUnavailableError` and the
next call connects again. A connection lost takes its leases with it: ``try_lease`` must be
asked again. The connection URL is never logged or put in an error with its password: errors
name the host and the database only.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
import time
from collections.abc import AsyncGenerator, Callable, Mapping, Sequence
from typing import Final, TypeVar

from .._errors import missing_extra
from ._store import (
    SEATS_CHANGED,
    StepTakenError,
    StoredAction,
    StoredTable,
    StoreUnavailableError,
    _BadRow,
    _id_text,
    _read_seat_map,
    _read_table,
    _seat_map,
)

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg.conninfo import conninfo_to_dict, make_conninfo
except ImportError as exc:
    raise missing_extra("shock_rules.server's PostgreSQL store", "postgres", exc,
                        frozenset({"psycopg"})) from None

__all__ = ["SCHEMA_VERSION", "DriverError", "PostgresStore"]

#: The base class of psycopg's errors: what making a :class:`PostgresStore` raises, besides
#: :class:`StoreUnavailableError` and :class:`SchemaVersionError`, for a URL psycopg cannot
#: read (``ProgrammingError``) or a database that refuses the schema (a missing privilege).
DriverError: Final = psycopg.Error

log = logging.getLogger("shock_rules.server")

#: The version of the schema this code writes (the ``schema_version`` relation).
SCHEMA_VERSION: Final = 1
#: The channel on which stored actions are announced: ``"<table id> <next step>"``, and a
#: seat's replaced token: ``"<table id> seats"``.
CHANNEL: Final = "shock_rules_steps"
#: What an announcement of a replaced seat token holds instead of a step.
SEATS_NOTE: Final = "seats"
# One lock key for creating the schema: processes starting together wait for one another.
_SCHEMA_LOCK: Final = 0x5348_4F43_4B00_0001

_SCHEMA: Final = (
    "CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)",
    """CREATE TABLE IF NOT EXISTS tables (
        id text PRIMARY KEY,
        config text NOT NULL,
        bots text NOT NULL,
        seats text NOT NULL,
        seed text NOT NULL,
        created double precision NOT NULL,
        active double precision,
        listed boolean NOT NULL DEFAULT true
    )""",
    """CREATE TABLE IF NOT EXISTS actions (
        table_id text NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        step integer NOT NULL,
        seat integer,
        action text NOT NULL,
        PRIMARY KEY (table_id, step)
    )""",
)
_SELECT_TABLES: Final = ("SELECT id, config, bots, seats, seed, created, active, listed::int"
                         " FROM tables")

T = TypeVar("T")


def _lease_key(table_id: str) -> int:
    """The advisory lock key of a table: 64 bits of its id's SHA-256, as PostgreSQL's bigint."""
    return int.from_bytes(hashlib.sha256(table_id.encode()).digest()[:8], "big", signed=True)


def _where(url: str) -> str:
    """Name a database by its host and name only (never its password)."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "PostgreSQL (an unreadable URL)"
    host = parts.get("host") or "localhost"
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"PostgreSQL at {host}{port}/{parts.get('dbname') or ''}"


#: TCP keepalives and a send timeout (libpq parameters), so that a database host that
#: vanishes without closing the connection (a cable pulled, a host frozen) is noticed in about
#: half a minute rather than the system's hours. A URL that sets one of them keeps its own.
_KEEPALIVE: Final = {"keepalives": "1", "keepalives_idle": "10", "keepalives_interval": "5",
                     "keepalives_count": "3", "tcp_user_timeout": "30000"}


def _keepalive_options(url: str) -> dict[str, str]:
    """Return the keepalive parameters the URL does not set itself."""
    try:
        given = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return {}  # the connection attempt will say what is wrong with the URL
    return {k: v for k, v in _KEEPALIVE.items() if k not in given}


def _with_keepalives(url: str) -> str:
    """Return the connection string ``url`` with the keepalive parameters it lacks."""
    extra = _keepalive_options(url)
    return make_conninfo(url, **extra) if extra else url


class SchemaVersionError(RuntimeError):
    """The database was written by a newer version of the package."""


class PostgresStore:
    """A :class:`~shock_rules.server.SharedStore` in a PostgreSQL database, created on first
    use. ``url`` is a libpq connection string or URL (``postgresql://user@host/dbname``)."""

    def __init__(self, url: str, *, connect_timeout: float = 10.0,
                 statement_timeout: float = 15.0) -> None:
        self.url = url
        self.where = _where(url)
        self._timeout = max(1, round(connect_timeout))
        #: The store's calls run on the server's event loop: a database that stops answering
        #: without closing its connections must cost an error after a while, not a hang.
        self._statement_ms = max(1, round(statement_timeout * 1000))
        self._conninfo = _with_keepalives(url)
        self._lock = threading.Lock()
        self._db: psycopg.Connection[tuple[object, ...]] | None = None
        self._lease_db: psycopg.Connection[tuple[object, ...]] | None = None
        self._closed = False
        #: The tables whose lease the current lease connection holds.
        self._held: set[str] = set()
        self._run(self._migrate)

    # -- connections ---------------------------------------------------------------------------

    def _connect(self) -> psycopg.Connection[tuple[object, ...]]:
        conn = psycopg.connect(self._conninfo, autocommit=True, connect_timeout=self._timeout)
        try:
            # A statement the server has not finished in this time is cancelled by it (an
            # OperationalError, which _run turns into StoreUnavailableError).
            conn.execute("SELECT set_config('statement_timeout', %s, false)",
                         (str(self._statement_ms),))
        except BaseException:
            conn.close()
            raise
        return conn

    def _unavailable(self, exc: BaseException) -> StoreUnavailableError:
        # psycopg's message may quote the connection string: say only where and why, briefly.
        reason = type(exc).__name__
        if isinstance(exc, pg_errors.QueryCanceled):
            reason = f"no answer within {self._statement_ms / 1000:g} s"
        return StoreUnavailableError(f"the database cannot be reached ({self.where}: {reason})")

    def _run(self, work: Callable[[psycopg.Connection[tuple[object, ...]]], T]) -> T:
        """Run ``work`` on the store's connection, connecting first if there is none. A
        connection found dead (PostgreSQL restarted since its last use) is replaced and
        ``work`` tried once more on the new one; a new connection that fails is dropped, to
        be made again at the next call."""
        with self._lock:
            if self._closed:
                raise StoreUnavailableError("the store is closed")
            for attempt in (0, 1):
                fresh = self._db is None or self._db.closed or self._db.broken
                try:
                    if fresh:
                        self._db = self._connect()
                    assert self._db is not None
                    return work(self._db)
                except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                    self._drop(self._db)
                    self._db = None
                    if fresh or attempt:
                        raise self._unavailable(exc) from None
            raise AssertionError("unreachable")  # pragma: no cover

    def _lease_connection(self) -> psycopg.Connection[tuple[object, ...]]:
        if self._lease_db is None or self._lease_db.closed or self._lease_db.broken:
            self._held.clear()  # a new session holds no lock
            self._lease_db = self._connect()
        return self._lease_db

    @staticmethod
    def _drop(conn: psycopg.Connection[tuple[object, ...]] | None) -> None:
        if conn is not None:
            try:
                conn.close()
            except psycopg.Error:  # a connection already gone (psycopg's close hardly raises)
                pass

    def _migrate(self, db: psycopg.Connection[tuple[object, ...]]) -> None:
        """Create the schema if it is missing; refuse a database of a newer version."""
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            for statement in _SCHEMA:
                db.execute(statement)
            row = db.execute("SELECT max(version) FROM schema_version").fetchone()
            version = row[0] if row is not None else None
            if version is None:
                db.execute("INSERT INTO schema_version (version) VALUES (%s)", (SCHEMA_VERSION,))
            elif not isinstance(version, int) or version > SCHEMA_VERSION:
                raise SchemaVersionError(
                    f"{self.where} holds tables of schema version {version}, newer than this"
                    f" shock_rules knows ({SCHEMA_VERSION}): upgrade shock_rules")

    # -- the Store methods ---------------------------------------------------------------------

    def create_table(self, table: StoredTable) -> None:
        """Store a new table and its actions in one transaction, and announce it."""
        created = table.created or time.time()

        def work(db: psycopg.Connection[tuple[object, ...]]) -> None:
            with db.transaction():
                db.execute(
                    "INSERT INTO tables (id, config, bots, seats, seed, created, active, listed)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                    (table.id, table.config, _seat_map(table.bots), _seat_map(table.seats),
                     table.seed, created, created if table.active is None else table.active,
                     table.listed))
                self._insert(db, table.id, table.actions)
                db.execute("SELECT pg_notify(%s, %s)",
                           (CHANNEL, f"{table.id} {len(table.actions)}"))
        self._run(work)

    def append_actions(self, table_id: str, actions: Sequence[StoredAction]) -> None:
        """Store actions in one transaction with the time as the table's last activity, and
        announce them; raise :class:`StepTakenError`, storing none, if another process stored
        one of their steps first."""
        if not actions:
            return

        def work(db: psycopg.Connection[tuple[object, ...]]) -> None:
            try:
                with db.transaction():
                    self._insert(db, table_id, actions)
                    db.execute("UPDATE tables SET active = %s WHERE id = %s",
                               (time.time(), table_id))
                    db.execute("SELECT pg_notify(%s, %s)",
                               (CHANNEL, f"{table_id} {actions[-1].step + 1}"))
            except pg_errors.UniqueViolation:
                raise StepTakenError(
                    f"table {table_id}: a step of {actions[0].step}-{actions[-1].step} was"
                    " stored first by another process") from None
        self._run(work)

    @staticmethod
    def _insert(db: psycopg.Connection[tuple[object, ...]], table_id: str,
                actions: Sequence[StoredAction]) -> None:
        if actions:
            with db.cursor() as cur:
                cur.executemany(
                    "INSERT INTO actions (table_id, step, seat, action) VALUES (%s, %s, %s, %s)",
                    [(table_id, a.step, a.seat, a.action) for a in actions])

    def load_tables(self) -> list[StoredTable]:
        """Return every table, oldest first, with its actions in step order (a row that
        cannot be read is logged, without its contents, and left out)."""
        def work(db: psycopg.Connection[tuple[object, ...]]
                 ) -> tuple[list[tuple[object, ...]], dict[object, list[StoredAction]]]:
            with db.transaction():  # one snapshot: the actions of the tables read
                db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                rows = db.execute(f"{_SELECT_TABLES} ORDER BY created, id").fetchall()
                acts: dict[object, list[StoredAction]] = {}
                for table_id, step, seat, action in db.execute(
                        "SELECT table_id, step, seat, action FROM actions"
                        " ORDER BY table_id, step"):
                    acts.setdefault(table_id, []).append(
                        StoredAction(step, seat, action))  # type: ignore[arg-type]
                return rows, acts
        rows, acts = self._run(work)
        return [t for r in rows if (t := self._read(r, acts.get(r[0], []))) is not None]

    @staticmethod
    def _read(row: tuple[object, ...], actions: list[StoredAction]) -> StoredTable | None:
        try:
            return _read_table(row, tuple(actions))
        except _BadRow as exc:
            log.error("table %s: could not be restored: %s", _id_text(row[0]), exc)
            return None

    def delete_table(self, table_id: str) -> None:
        """Delete a table and its actions (by the foreign key's cascade) in one transaction."""
        def work(db: psycopg.Connection[tuple[object, ...]]) -> None:
            with db.transaction():
                db.execute("DELETE FROM tables WHERE id = %s", (table_id,))
        self._run(work)

    def mark_active(self, times: Mapping[str, float]) -> None:
        """Record tables' last activity in one transaction."""
        if not times:
            return

        def work(db: psycopg.Connection[tuple[object, ...]]) -> None:
            with db.transaction(), db.cursor() as cur:
                cur.executemany("UPDATE tables SET active = %s WHERE id = %s",
                                [(when, table_id) for table_id, when in times.items()])
        self._run(work)

    def replace_seat_token(self, table_id: str, seat: int, digest: str) -> None:
        """Replace a seat's token hash in one transaction (the row locked: two replacements at
        once keep both seats' new hashes), and announce it: the other processes close the
        connections that hold the seat with its old token."""
        def work(db: psycopg.Connection[tuple[object, ...]]) -> None:
            with db.transaction():
                row = db.execute("SELECT seats FROM tables WHERE id = %s FOR UPDATE",
                                 (table_id,)).fetchone()
                if row is None:
                    return
                seats = _read_seat_map("seats", row[0])
                seats[seat] = digest
                db.execute("UPDATE tables SET seats = %s WHERE id = %s",
                           (_seat_map(seats), table_id))
                db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id} {SEATS_NOTE}"))
        self._run(work)

    def close(self) -> None:
        """Close the connections (their leases end with them)."""
        with self._lock:
            self._closed = True
            self._drop(self._db)
            self._drop(self._lease_db)
            self._db = self._lease_db = None

    # -- several processes ---------------------------------------------------------------------

    def load_table(self, table_id: str) -> StoredTable | None:
        """Return one table with its actions in step order, or ``None``."""
        def work(db: psycopg.Connection[tuple[object, ...]]
                 ) -> tuple[tuple[object, ...] | None, list[StoredAction]]:
            with db.transaction():
                db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                row = db.execute(f"{_SELECT_TABLES} WHERE id = %s", (table_id,)).fetchone()
                acts = self._actions(db, table_id, 0) if row is not None else []
                return row, acts
        row, acts = self._run(work)
        return None if row is None else self._read(row, acts)

    def seat_hashes(self, table_id: str) -> dict[int, str] | None:
        """Return a table's seats' token hashes as stored now, or ``None``."""
        row = self._run(lambda db: db.execute("SELECT seats FROM tables WHERE id = %s",
                                              (table_id,)).fetchone())
        return None if row is None else _read_seat_map("seats", row[0])

    def actions_since(self, table_id: str, step: int) -> list[StoredAction]:
        """Return a table's actions from ``step`` on, in step order."""
        return self._run(lambda db: self._actions(db, table_id, step))

    @staticmethod
    def _actions(db: psycopg.Connection[tuple[object, ...]], table_id: str,
                 step: int) -> list[StoredAction]:
        rows = db.execute("SELECT step, seat, action FROM actions WHERE table_id = %s"
                          " AND step >= %s ORDER BY step", (table_id, step)).fetchall()
        return [StoredAction(s, seat, a) for s, seat, a in rows]  # type: ignore[arg-type]

    async def notifications(self) -> AsyncGenerator[tuple[str, int], None]:
        """Yield ``(table id, next step)`` for every announcement, and ``("", -1)`` each time
        the listening connection is (re)made: what was stored while nobody listened was not
        heard, so every table should catch up. Reconnects with a growing pause (up to 5 s)."""
        pause = 0.25
        while not self._closed:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True, connect_timeout=self._timeout)
            except psycopg.OperationalError as exc:
                log.warning("listening for steps: %s", self._unavailable(exc))
                await asyncio.sleep(pause)
                pause = min(5.0, pause * 2)
                continue
            try:
                await conn.execute(f"LISTEN {CHANNEL}")
                pause = 0.25
                yield "", -1
                while True:
                    async for note in conn.notifies(timeout=5.0):
                        table_id, _, step = note.payload.partition(" ")
                        if step.isdigit():
                            yield table_id, int(step)
                        elif step == SEATS_NOTE:
                            yield table_id, SEATS_CHANGED
                    await conn.execute("SELECT 1")  # a quiet spell: is the connection alive?
            except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                log.warning("listening for steps: %s; listening again",
                            self._unavailable(exc))
            finally:
                await conn.close()

    def try_lease(self, table_id: str) -> bool:
        """Take the lease on a table's bots (a session-level advisory lock on the lease
        connection) unless another live session holds it; return whether this process holds
        it (asking again while holding it changes nothing). A lease connection found dead is
        replaced: the leases it held are gone, and this asks again on the new one."""
        with self._lock:
            if self._closed:
                raise StoreUnavailableError("the store is closed")
            for attempt in (0, 1):
                fresh = self._lease_db is None or self._lease_db.closed or self._lease_db.broken
                try:
                    if table_id in self._held:  # held: asking again would count it twice
                        return True
                    row = self._lease_connection().execute(
                        "SELECT pg_try_advisory_lock(%s)", (_lease_key(table_id),)).fetchone()
                    if row is not None and row[0]:
                        self._held.add(table_id)
                        return True
                    return False
                except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                    self._drop(self._lease_db)
                    self._lease_db = None
                    self._held.clear()
                    if fresh or attempt:
                        raise self._unavailable(exc) from None
            raise AssertionError("unreachable")  # pragma: no cover

    holder = "pg"

    def claim(self, table_id: str, seconds: float) -> object:
        if self.load_table(table_id) is None:
            return None
        if self.try_lease(table_id):
            return True
        from ._leases import Owner
        return Owner("")

    def unleased(self, limit: int) -> list[str]:
        return []

    def peer_secret(self) -> str:
        return "x"

    def lease(self, table_ids: object, seconds: float) -> set[str]:
        return {t for t in table_ids if self.try_lease(t)}  # type: ignore[attr-defined]

    def release_lease(self, table_id: str) -> None:
        """Give a table's lease back."""
        with self._lock:
            db = self._lease_db
            if table_id not in self._held or db is None or db.closed or db.broken:
                return  # not held, or the session ended: so did its leases
            self._held.discard(table_id)
            try:
                db.execute("SELECT pg_advisory_unlock(%s)", (_lease_key(table_id),))
            except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                self._drop(db)
                self._lease_db = None
                self._held.clear()
                raise self._unavailable(exc) from None

    def holds_lease(self, table_id: str) -> bool:
        """Whether the current lease connection holds the table's lease (no round trip: a
        connection that died unnoticed is found at the next lease call)."""
        db = self._lease_db
        return table_id in self._held and db is not None and not db.closed and not db.broken
