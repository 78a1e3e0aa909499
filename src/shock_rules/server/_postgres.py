"""The PostgreSQL store: tables that several server processes share (the ``[postgres]`` extra,
psycopg 3).

Every method of :class:`~shock_rules.server.Store` is one transaction on one connection of a
small pool, so that calls from several threads run at once and one slow statement holds one
connection, not the store. The primary key ``(table_id, step)`` of ``actions`` decides a race
for a step (:class:`StepTakenError`), a replaced seat token is announced with ``NOTIFY`` (the
process playing the table closes the connections of the old one), and a table is leased to one
process at a time by a row of ``leases`` that expires unless its holder renews it (a process
killed, or hung, loses its leases then): the holder alone plays the table.

When PostgreSQL cannot be reached, every call raises :class:`StoreUnavailableError` and a
later call connects again. A database that stops answering without closing its connections
(frozen) costs the call an error after ``call_timeout``: the store cuts that connection itself,
as the database's own statement timeout no longer runs. The connection URL is never logged or
put in an error with its password: errors name the host and the database only.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import AsyncGenerator, Callable, Collection, Mapping, Sequence
from typing import Final, TypeAlias, TypeVar

import attrs

from .._errors import missing_extra
from ._leases import Owner
from ._lobby import ListedRow, Summary
from ._rows import (
    POSTGRES,
    SCHEMA_VERSION,
    SEATS_CHANGED,
    Dialect,
    SchemaVersionError,
    Statements,
    StepTakenError,
    StoredAction,
    StoredTable,
    StoreUnavailableError,
    TableExistsError,
    decode_listed,
    decode_seats,
    decode_table,
    decode_tables,
    encode_seats,
    encode_table,
    group_actions,
    migrate,
    take_token,
    unanswered,
)

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg.conninfo import conninfo_to_dict, make_conninfo
except ImportError as exc:
    raise missing_extra("shock_rules.server's PostgreSQL store", "postgres", exc,
                        frozenset({"psycopg"})) from None

__all__ = ["SCHEMA_VERSION", "DriverError", "PostgresStore", "SchemaVersionError"]

#: The base class of psycopg's errors: what making a :class:`PostgresStore` raises, besides
#: :class:`StoreUnavailableError` and :class:`SchemaVersionError`, for a URL psycopg cannot
#: read (``ProgrammingError``) or a database that refuses the schema (a missing privilege).
DriverError: Final = psycopg.Error

log = logging.getLogger("shock_rules.server")

#: The channel on which a seat's replaced token is announced: ``"<table id> seats"`` (a
#: ``"<table id> <next step>"`` of another version is heard as steps stored).
CHANNEL: Final = "shock_rules_steps"
#: What an announcement of a replaced seat token holds instead of a step.
SEATS_NOTE: Final = "seats"
# One lock key for migrating the schema: processes starting together wait for one another.
_SCHEMA_LOCK: Final = 0x5348_4F43_4B00_0001

_SQL: Final = Statements.of(POSTGRES)
#: Take or renew leases, by the database's clock, in one statement: a lease row missing,
#: expired or this holder's is (re)written; the ids written are this holder's now. Tables in
#: id order, as every process asks: two processes asking at once cannot deadlock.
_NOW: Final = "extract(epoch FROM statement_timestamp())::double precision"
_LEASE: Final = f"""
    INSERT INTO leases (table_id, holder, expires, address)
    SELECT id, %(holder)s, {_NOW} + %(seconds)s::double precision, %(address)s
    FROM tables WHERE id = ANY(%(ids)s) ORDER BY id
    ON CONFLICT (table_id) DO UPDATE SET holder = EXCLUDED.holder, expires = EXCLUDED.expires,
                                         address = EXCLUDED.address
    WHERE leases.expires < {_NOW} OR leases.holder = EXCLUDED.holder
    RETURNING table_id"""
#: Take one table's lease (see :meth:`PostgresStore.claim`): the row inserted or updated if
#: it may be; then what the table and the lease were before (a data-modifying WITH is not
#: seen by the rest of its statement).
_CLAIM: Final = f"""
    WITH t AS (SELECT id, coalesce(over, false) AS over FROM tables WHERE id = %(id)s),
    taken AS (
        INSERT INTO leases (table_id, holder, expires, address)
        SELECT id, %(holder)s, {_NOW} + %(seconds)s::double precision, %(address)s
        FROM t WHERE NOT over
        ON CONFLICT (table_id) DO UPDATE
            SET holder = EXCLUDED.holder, expires = EXCLUDED.expires, address = EXCLUDED.address
        WHERE leases.holder = EXCLUDED.holder
           OR (EXCLUDED.address <> '' AND leases.address = EXCLUDED.address)
           OR leases.expires < {_NOW} - %(grace)s::double precision
        RETURNING table_id)
    SELECT (SELECT count(*) FROM t), (SELECT bool_or(over) FROM t),
           (SELECT count(*) FROM taken), l.holder, l.address
    FROM (SELECT 1) AS one LEFT JOIN leases l ON l.table_id = %(id)s"""
_UNLEASED: Final = f"""
    SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id
    WHERE NOT coalesce(t.over, false)
      AND (l.table_id IS NULL AND t.created < {_NOW} - %(grace)s::double precision
           OR l.expires < {_NOW} - %(grace)s::double precision)
    ORDER BY t.id LIMIT %(limit)s"""
_PEERS: Final = f"""
    SELECT DISTINCT address FROM leases
    WHERE holder <> %s AND expires > {_NOW} AND address IS NOT NULL AND address <> ''"""
#: Store a table's actions and its last activity in one statement (see
#: :meth:`PostgresStore.append_actions`): a data-modifying WITH runs whether read or not.
_APPEND: Final = """
    WITH stored AS (
        INSERT INTO actions (table_id, step, seat, action)
        SELECT %(id)s, step, seat, action
        FROM unnest(%(steps)s::integer[], %(seats)s::integer[], %(actions)s::text[])
             AS given(step, seat, action))
    UPDATE tables SET active = %(now)s WHERE id = %(id)s"""
#: The same for one action, the most frequent case: scalars are adapted in a fraction of an
#: array's time (measured: a quarter of the statement's CPU).
_APPEND_ONE: Final = """
    WITH stored AS (
        INSERT INTO actions (table_id, step, seat, action)
        VALUES (%(id)s, %(step)s, %(seat)s, %(action)s))
    UPDATE tables SET active = %(now)s WHERE id = %(id)s"""
_RELEASE: Final = "DELETE FROM leases WHERE table_id = %s AND holder = %s"
_STEPS_AT: Final = ("SELECT step, seat, action FROM actions WHERE table_id = %s"
                    " AND step = ANY(%s) ORDER BY step")

#: Seconds between the watchdog's looks at the connections in use (a connection is cut at
#: most this late).
_WATCH_SECONDS: Final = 1.0

T = TypeVar("T")
Conn: TypeAlias = psycopg.Connection[tuple[object, ...]]
AsyncConn: TypeAlias = psycopg.AsyncConnection[tuple[object, ...]]
AsyncCur: TypeAlias = psycopg.AsyncCursor[tuple[object, ...]]


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


@attrs.frozen
class _Schema:
    """What :func:`~shock_rules.server._rows.migrate` needs, on a PostgreSQL connection."""

    db: Conn
    dialect: Dialect = POSTGRES

    def execute(self, statement: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        cur = self.db.execute(statement, params or None)
        return cur.fetchall() if cur.description is not None else []

    def columns(self, relation: str) -> set[str]:
        rows = self.db.execute(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = %s", (relation,))
        return {str(r[0]) for r in rows}


class PostgresStore:
    """A :class:`~shock_rules.server.Store` in a PostgreSQL database, created on first use,
    for several server processes. ``url`` is a libpq connection string or URL
    (``postgresql://user@host/dbname``).

    At most ``connections`` calls run at once, each on a connection of its own; a call that
    finds none free within ``call_timeout`` raises :class:`StoreUnavailableError`, as does a
    call that holds one longer (its connection is cut: the database stopped answering). The
    database itself cancels a statement after ``statement_timeout``; ``call_timeout`` is by
    default 5 s more.
    """

    def __init__(self, url: str, *, connect_timeout: float = 10.0,
                 statement_timeout: float = 15.0, connections: int = 4,
                 call_timeout: float | None = None) -> None:
        if connections < 1:
            raise ValueError(f"a store needs a connection at least, not {connections}")
        self.url = url
        self.where = _where(url)
        self.holder = secrets.token_hex(8)
        self.address = ""
        #: Its calls cross the network to a database that may stop answering: each in a thread.
        self.inline = False
        self._timeout = max(1, round(connect_timeout))
        self._statement_ms = max(1, round(statement_timeout * 1000))
        self._call_timeout = (statement_timeout + 5.0 if call_timeout is None
                              else call_timeout)
        self._conninfo = _with_keepalives(url)
        self._slots = threading.BoundedSemaphore(connections)
        #: Guards the connections' lists and wakes the watchdog.
        self._guard = threading.Condition()
        self._idle: list[Conn] = []
        #: The connections in use, each with the time (time.monotonic) it is cut at.
        self._busy: dict[Conn, float] = {}
        self._closed = False
        # The connections of appends made on an event loop (append_actions_async), of the
        # loop that last made one: a connection belongs to the loop it was made on.
        self._connections = connections
        self._aloop: asyncio.AbstractEventLoop | None = None
        self._aslots: asyncio.Semaphore | None = None
        self._aidle: list[AsyncCur] = []
        self._abusy: set[AsyncCur] = set()
        self._watchdog = threading.Thread(target=self._watch, daemon=True,
                                          name="shock-rules database deadlines")
        self._watchdog.start()
        try:
            self._run(self._migrate)
        except BaseException:
            self.close()
            raise

    # -- connections ---------------------------------------------------------------------------

    def _run(self, work: Callable[[Conn], T], again: Callable[[Conn], T] | None = None) -> T:
        """Run ``work`` on a connection of the pool (a new one if none is idle). A connection
        that fails (PostgreSQL restarted since its last use, or the connection dropped) is
        dropped, and the work tried once more on a new connection: ``again`` if given, which
        must tell a first attempt that did commit from a conflict. A connection that cannot be
        made, a statement the database cancelled and a connection cut for taking too long are
        not tried again: the call raises :class:`StoreUnavailableError`."""
        if self._closed:
            raise StoreUnavailableError("the store is closed")
        if not self._slots.acquire(timeout=self._call_timeout):
            raise StoreUnavailableError(
                f"the database cannot be reached ({self.where}: no connection free within"
                f" {self._call_timeout:g} s)")
        try:
            for attempt in (0, 1):
                conn, fresh = self._take(new=attempt > 0)
                try:
                    self._watch_over(conn)
                except BaseException:
                    self._drop(conn)
                    raise
                try:
                    if fresh:
                        # A statement the database has not finished in this time is cancelled
                        # by it (a QueryCanceled, which is an OperationalError).
                        conn.execute("SELECT set_config('statement_timeout', %s, false)",
                                     (str(self._statement_ms),))
                    result = (again if attempt and again is not None else work)(conn)
                except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                    cut = self._done_with(conn)
                    self._drop(conn)
                    if (attempt or cut or self._closed
                            or isinstance(exc, pg_errors.QueryCanceled)):
                        raise self._unavailable(exc, cut) from None
                    continue
                except BaseException:
                    self._put_back(conn, cut=self._done_with(conn))
                    raise
                self._put_back(conn, cut=self._done_with(conn))
                return result
            raise AssertionError("unreachable")  # pragma: no cover
        finally:
            self._slots.release()

    def _take(self, *, new: bool) -> tuple[Conn, bool]:
        """Return an idle connection (unless ``new``) or a new one, and whether it is new."""
        dead: list[Conn] = []
        conn: Conn | None = None
        with self._guard:
            if self._closed:
                raise StoreUnavailableError("the store is closed")
            while not new and self._idle and conn is None:
                conn = self._idle.pop()
                if conn.closed or conn.broken:
                    dead.append(conn)
                    conn = None
        for gone in dead:
            self._drop(gone)
        if conn is not None:
            return conn, False
        try:
            return psycopg.connect(self._conninfo, autocommit=True,
                                   connect_timeout=self._timeout), True
        except psycopg.OperationalError as exc:
            raise self._unavailable(exc, False) from None

    def _watch_over(self, conn: Conn) -> None:
        """Give ``conn`` to the watchdog for one call: it is cut after ``call_timeout``."""
        with self._guard:
            if self._closed:
                raise StoreUnavailableError("the store is closed")
            # Not woken: it looks at least every WATCH_SECONDS (waking it at each call cost a
            # thread switch, a sixth of a stored step's CPU, to cut a connection 1 s sooner).
            self._busy[conn] = time.monotonic() + self._call_timeout

    def _done_with(self, conn: Conn) -> bool:
        """Take ``conn`` back from the watchdog; return whether it was cut meanwhile."""
        with self._guard:
            return self._busy.pop(conn, None) is None

    def _put_back(self, conn: Conn, *, cut: bool) -> None:
        """Keep a connection for the next call, unless it was cut, failed, or is still in a
        transaction (an error in the middle of one): those are dropped."""
        if (not cut and not conn.closed and not conn.broken
                and conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE):
            with self._guard:
                if not self._closed:
                    self._idle.append(conn)
                    return
        self._drop(conn)

    def _watch(self) -> None:
        """The watchdog: cut every connection held past its time (a frozen database enforces
        no statement timeout, and TCP keepalives are answered by its host's kernel), so that
        the call waiting on it raises and its thread is free."""
        with self._guard:
            while not self._closed:
                now = time.monotonic()
                for conn, due in list(self._busy.items()):
                    if due <= now:
                        del self._busy[conn]
                        _sever(conn)
                soonest = min(self._busy.values(), default=now + _WATCH_SECONDS)
                self._guard.wait(min(_WATCH_SECONDS, soonest - now))

    def _unavailable(self, exc: BaseException, cut: bool) -> StoreUnavailableError:
        # psycopg's message may quote the connection string: say only where and why, briefly.
        if self._closed:
            return StoreUnavailableError("the store is closed")
        reason = type(exc).__name__
        if cut:
            reason = f"no answer within {self._call_timeout:g} s"
        elif isinstance(exc, pg_errors.QueryCanceled):
            reason = f"no answer within {self._statement_ms / 1000:g} s"
        return StoreUnavailableError(f"the database cannot be reached ({self.where}: {reason})")

    @staticmethod
    def _drop(conn: Conn) -> None:
        try:
            conn.close()
        except psycopg.Error:  # a connection already gone (psycopg's close hardly raises)
            pass

    def _migrate(self, db: Conn) -> None:
        """Bring the schema up to date (creating it in an empty database); refuse a database
        of a newer version."""
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            migrate(_Schema(db), self.where)

    def close(self) -> None:
        """Close the connections, without waiting for a database that does not answer: the
        connections of calls under way are cut (those calls raise
        :class:`StoreUnavailableError`). The leases held end when they expire."""
        with self._guard:
            if self._closed:
                return
            self._closed = True
            idle, self._idle = self._idle, []
            for conn in self._busy:
                _sever(conn)
            self._busy.clear()  # their calls drop them
            self._guard.notify_all()
        for conn in idle:
            _sever(conn)  # closing says goodbye first: not to a database that does not answer
            self._drop(conn)
        for cur in self._abusy:  # their appends raise, and drop them
            _sever(cur.connection)
        aidle, self._aidle = self._aidle, []
        for cur in aidle:
            _sever(cur.connection)
            cur.connection.pgconn.finish()

    # -- storing -------------------------------------------------------------------------------

    def create_table(self, table: StoredTable) -> None:
        """Store a new table and its actions in one transaction; raise
        :class:`TableExistsError` if its id is taken."""
        row = encode_table(table)

        def store(db: Conn) -> None:
            try:
                with db.transaction():
                    db.execute(_SQL.insert_table, row)
                    _insert(db, table.id, table.actions)
            except pg_errors.UniqueViolation:
                raise TableExistsError(f"table {table.id} is stored already") from None

        def store_again(db: Conn) -> None:
            try:
                store(db)
            except TableExistsError:
                # The first attempt's commit may have been done, its answer lost: then the
                # table stored is this one (its last activity aside: the table is in use).
                mine = decode_table(row, table.actions)
                stored = _load(db, table.id)
                if stored is None or attrs.evolve(stored, active=mine.active) != mine:
                    raise
        self._run(store, store_again)

    def append_actions(self, table_id: str, actions: Sequence[StoredAction]) -> None:
        """Store actions in one transaction with the time as the table's last activity; raise
        :class:`StepTakenError`, storing none, if another process stored one of their steps
        first. (Not announced: only the table's owner plays it, and a process that takes a
        table over reads it whole.)"""
        if not actions:
            return

        def store(db: Conn) -> None:
            try:
                # One statement, so one round trip and one implicit transaction: all or none.
                db.execute(*_append(table_id, actions))
            except pg_errors.UniqueViolation:
                raise _taken(table_id, actions) from None

        def store_again(db: Conn) -> None:
            try:
                store(db)
            except StepTakenError:
                # The first attempt's commit may have been done, its answer lost: then the
                # actions at those steps are these, and they are stored (once).
                if not _are_stored(db, table_id, actions):
                    raise
        self._run(store, store_again)

    async def append_actions_async(self, table_id: str, actions: Sequence[StoredAction], *,
                                   deadline: float | None = None) -> None:
        """:meth:`append_actions`, awaited on the running event loop without a thread: the
        statement goes out and its answer is awaited on a connection of the store's own for
        that loop (at most ``connections`` at once), so a slow database delays only the
        callers waiting for it. (The thread of a call costs as much CPU as the statement: a
        stored step is the server's most frequent call.) A call not done within ``deadline``
        seconds (at most ``call_timeout``; the wait for a connection included) has its
        connection cut and raises :class:`StoreUnavailableError`: its commit may have been
        done, which reading the table again tells. Retried once on a new connection, as
        :meth:`append_actions` is, if the connection failed (PostgreSQL restarted)."""
        if not actions:
            return
        if self._closed:
            raise StoreUnavailableError("the store is closed")
        loop = asyncio.get_running_loop()
        limit = self._call_timeout if deadline is None else min(deadline, self._call_timeout)
        due = loop.time() + limit
        statement, params = _append(table_id, actions)
        slots = self._async_slots(loop)
        try:
            async with asyncio.timeout_at(due):
                await slots.acquire()
        except TimeoutError:
            raise unanswered(limit) from None
        try:
            for attempt in (0, 1):
                cur, fresh = await self._atake(new=attempt > 0, due=due, limit=limit)
                cut = _Cut(cur.connection)
                timer = loop.call_at(due, cut)  # a frozen database: cut, and the wait ends
                self._abusy.add(cur)
                try:
                    if fresh:
                        await cur.execute("SELECT set_config('statement_timeout', %s, false)",
                                          (str(self._statement_ms),))
                    await cur.execute(statement, params)
                except pg_errors.UniqueViolation:
                    self._aput_back(cur, timer)
                    # On a retry, the first attempt's commit may have been done, its answer
                    # lost: then the actions at those steps are these, stored once.
                    if not attempt or not await self._stored_already(table_id, actions, due,
                                                                     limit):
                        raise _taken(table_id, actions) from None
                    return
                except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                    self._aput_back(cur, timer, drop=True)
                    if cut.done:
                        raise unanswered(limit) from None
                    if attempt or self._closed or isinstance(exc, pg_errors.QueryCanceled):
                        raise self._unavailable(exc, False) from None
                    continue
                except BaseException:
                    self._aput_back(cur, timer, drop=True)
                    raise
                self._aput_back(cur, timer)
                return
        finally:
            slots.release()

    def _async_slots(self, loop: asyncio.AbstractEventLoop) -> asyncio.Semaphore:
        """The appends' connection slots on ``loop`` (a new loop starts afresh: the earlier
        loop's connections cannot be used on it)."""
        if self._aloop is not loop or self._aslots is None:
            for cur in self._aidle:
                cur.connection.pgconn.finish()
            self._aidle, self._aloop = [], loop
            self._aslots = asyncio.Semaphore(self._connections)
        return self._aslots

    async def _atake(self, *, new: bool, due: float, limit: float) -> tuple[AsyncCur, bool]:
        """Return the cursor of an idle connection of the loop's (unless ``new``) or of a new
        one, and whether it is new. (A connection keeps its cursor: making one per statement
        cost a third of the statement's CPU.)"""
        while not new and self._aidle:
            cur = self._aidle.pop()
            if not (cur.connection.closed or cur.connection.broken):
                return cur, False
            cur.connection.pgconn.finish()
        try:
            async with asyncio.timeout_at(due):
                conn = await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True, connect_timeout=self._timeout)
                return conn.cursor(), True
        except TimeoutError:
            raise unanswered(limit) from None
        except psycopg.OperationalError as exc:
            raise self._unavailable(exc, False) from None

    def _aput_back(self, cur: AsyncCur, timer: asyncio.TimerHandle, *,
                   drop: bool = False) -> None:
        """Done with an append's connection: keep it for the next one unless it failed, was
        cut or is in a transaction (then it is closed)."""
        timer.cancel()
        self._abusy.discard(cur)
        conn = cur.connection
        if (drop or self._closed or conn.closed or conn.broken
                or conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE):
            conn.pgconn.finish()
        else:
            self._aidle.append(cur)

    async def _stored_already(self, table_id: str, actions: Sequence[StoredAction],
                              due: float, limit: float) -> bool:
        """:func:`_are_stored`, asked on a thread's connection (rare: after a lost answer)."""
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout_at(due):
                return await loop.run_in_executor(
                    None, self._run, lambda db: _are_stored(db, table_id, actions))
        except TimeoutError:
            raise unanswered(limit) from None

    def delete_table(self, table_id: str) -> None:
        """Delete a table, its actions and its lease in one transaction."""
        def work(db: Conn) -> None:
            with db.transaction():
                db.execute(_SQL.delete_actions, (table_id,))
                db.execute(_SQL.delete_table, (table_id,))
        self._run(work)

    def mark_active(self, times: Mapping[str, float]) -> None:
        """Record tables' last activity in one transaction."""
        if not times:
            return

        def work(db: Conn) -> None:
            with db.transaction(), db.cursor() as cur:
                cur.executemany(_SQL.touch,
                                [(when, table_id) for table_id, when in times.items()])
        self._run(work)

    def replace_seat_token(self, table_id: str, seat: int, digest: str) -> None:
        """Replace a seat's token hash in one transaction (the row locked: two replacements at
        once keep both seats' new hashes), and announce it: the other processes close the
        connections that hold the seat with its old token."""
        def work(db: Conn) -> None:
            with db.transaction():
                row = db.execute(_SQL.seats_to_change, (table_id,)).fetchone()
                if row is None:
                    return
                seats = decode_seats("seats", row[0])
                seats[seat] = digest
                db.execute(_SQL.set_seats, (encode_seats(seats), table_id))
                db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id} {SEATS_NOTE}"))
        self._run(work)

    # -- reading -------------------------------------------------------------------------------

    def load_tables(self) -> list[StoredTable]:
        """Return every table, oldest first, with its actions in step order (a row that
        cannot be read is logged, without its contents, and left out)."""
        def work(db: Conn) -> tuple[list[tuple[object, ...]], dict[object, list[StoredAction]]]:
            with db.transaction():  # one snapshot: the actions of the tables read
                db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                rows = db.execute(_SQL.select_tables).fetchall()
                return rows, group_actions(db.execute(_SQL.select_actions))
        rows, acts = self._run(work)
        return decode_tables(rows, acts)

    def load_table(self, table_id: str) -> StoredTable | None:
        """Return one table with its actions in step order, or ``None`` (a row that cannot be
        read is logged, without its contents: ``None`` too)."""
        return self._run(lambda db: _load(db, table_id))

    def actions_since(self, table_id: str, step: int) -> list[StoredAction]:
        """Return a table's actions from ``step`` on, in step order."""
        return self._run(lambda db: _actions(db, table_id, step))

    def seat_hashes(self, table_id: str) -> dict[int, str] | None:
        """Return a table's seats' token hashes as stored now, or ``None``."""
        row = self._run(lambda db: db.execute(_SQL.seats, (table_id,)).fetchone())
        return None if row is None else decode_seats("seats", row[0])

    # -- several processes ---------------------------------------------------------------------

    async def notifications(self) -> AsyncGenerator[tuple[str, int], None]:
        """Yield ``(table id, next step)`` for every announcement, and ``("", -1)`` each time
        the listening connection is (re)made: what was stored while nobody listened was not
        heard, so every table should catch up. Reconnects with a growing pause (up to 5 s); a
        connection that does not answer its check within ``call_timeout`` is made anew."""
        pause = 0.25
        while not self._closed:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True, connect_timeout=self._timeout)
            except psycopg.OperationalError as exc:
                log.warning("listening for steps: %s", self._unavailable(exc, False))
                await asyncio.sleep(pause)
                pause = min(5.0, pause * 2)
                continue
            try:
                await asyncio.wait_for(conn.execute(f"LISTEN {CHANNEL}"), self._call_timeout)
                pause = 0.25
                yield "", -1
                while not self._closed:
                    async for note in conn.notifies(timeout=5.0):
                        table_id, _, step = note.payload.partition(" ")
                        if step.isdigit():
                            yield table_id, int(step)
                        elif step == SEATS_NOTE:
                            yield table_id, SEATS_CHANGED
                    # A quiet spell: is the connection alive (a frozen database is not)?
                    await asyncio.wait_for(conn.execute("SELECT 1"), self._call_timeout)
            except (psycopg.OperationalError, psycopg.InterfaceError, TimeoutError) as exc:
                log.warning("listening for steps: %s; listening again",
                            self._unavailable(exc, isinstance(exc, TimeoutError)))
            finally:
                await conn.close()

    def lease(self, table_ids: Collection[str], seconds: float) -> set[str]:
        """Take or renew this store's leases on these tables for ``seconds`` from now by the
        database's clock, in one statement; return the ids this store holds now (a table not
        stored, or leased to another store whose lease has not expired, is not among them)."""
        ids = sorted(set(table_ids))
        if not ids:
            return set()
        rows = self._run(lambda db: db.execute(
            _LEASE, {"holder": self.holder, "seconds": float(seconds), "ids": ids,
                     "address": self.address}).fetchall())
        return {str(r[0]) for r in rows}

    def release_lease(self, table_id: str) -> None:
        """Give a table's lease back, if this store holds it."""
        self._run(lambda db: db.execute(_RELEASE, (table_id, self.holder)))

    def claim(self, table_id: str, seconds: float, grace: float) -> bool | Owner | None:
        """Take a table's lease in one statement if no live other process holds it; see
        :meth:`Store.claim <shock_rules.server.Store.claim>`."""
        row = self._run(lambda db: db.execute(_CLAIM, {
            "id": table_id, "holder": self.holder, "seconds": float(seconds),
            "grace": float(grace), "address": self.address}).fetchone())
        assert row is not None  # one row always
        stored, over, taken, holder, address = row
        if not stored:
            return None
        if over:
            return False
        if taken:
            return True
        return Owner(str(address or ""), str(holder))

    def unleased(self, limit: int, grace: float) -> list[str]:
        """Return up to ``limit`` unfinished tables no live process holds."""
        rows = self._run(lambda db: db.execute(
            _UNLEASED, {"grace": float(grace), "limit": limit}).fetchall())
        return [str(r[0]) for r in rows]

    def evict(self, table_id: str, holder: str) -> None:
        """End ``holder``'s lease on a table now."""
        self._run(lambda db: db.execute(_RELEASE, (table_id, holder)))

    def peers(self) -> set[str]:
        """Return the addresses of the other processes that hold a live lease."""
        rows = self._run(lambda db: db.execute(_PEERS, (self.holder,)).fetchall())
        return {str(r[0]) for r in rows}

    def peer_secret(self) -> str:
        """Return the processes' secret (made by the first to ask)."""
        def work(db: Conn) -> str:
            with db.transaction():
                db.execute(_SQL.keep_setting, ("peer_secret", secrets.token_urlsafe(32)))
                row = db.execute(_SQL.setting, ("peer_secret",)).fetchone()
            assert row is not None
            return str(row[0])
        return self._run(work)

    def summarize(self, summaries: Mapping[str, Summary]) -> None:
        """Store the lobby's summaries in one transaction."""
        if not summaries:
            return

        def work(db: Conn) -> None:
            with db.transaction(), db.cursor() as cur:
                cur.executemany(_SQL.summarize, [(s.text(), s.over, table_id)
                                                 for table_id, s in summaries.items()])
        self._run(work)

    def listed(self, limit: int) -> list[ListedRow]:
        """Return up to ``limit`` listed tables, the latest active first."""
        return decode_listed(self._run(
            lambda db: db.execute(_SQL.listed, (True, limit)).fetchall()))

    def creator_tables(self, creator: str) -> int:
        """Return how many unfinished tables the creator key has."""
        row = self._run(lambda db: db.execute(_SQL.creator_tables, (creator, False)).fetchone())
        return int(row[0]) if row is not None else 0  # type: ignore[call-overload]

    def take(self, key: str, per_second: float, burst: float) -> float:
        """Take a token from the bucket ``key`` in one transaction (its row locked)."""
        def work(db: Conn) -> float:
            now = time.time()
            with db.transaction():
                db.execute(_SQL.new_bucket, (key, burst, now))
                row = db.execute(_SQL.bucket, (key,)).fetchone()
                assert row is not None
                left, wait = take_token(row, per_second, burst, now)
                db.execute(_SQL.set_bucket, (left, now, key))
            return wait
        return self._run(work)


def _append(table_id: str, actions: Sequence[StoredAction]
            ) -> tuple[str, dict[str, object]]:
    """The statement that stores ``actions`` (:data:`_APPEND`), and its parameters."""
    if len(actions) == 1:
        (one,) = actions
        return _APPEND_ONE, {"id": table_id, "now": time.time(), "step": one.step,
                             "seat": one.seat, "action": one.action}
    return _APPEND, {"id": table_id, "now": time.time(), "steps": [a.step for a in actions],
                     "seats": [a.seat for a in actions],
                     "actions": [a.action for a in actions]}


def _taken(table_id: str, actions: Sequence[StoredAction]) -> StepTakenError:
    return StepTakenError(f"table {table_id}: a step of {actions[0].step}-{actions[-1].step}"
                          " was stored first by another process")


def _are_stored(db: Conn, table_id: str, actions: Sequence[StoredAction]) -> bool:
    """Whether these very actions are stored at their steps."""
    rows = db.execute(_STEPS_AT, (table_id, [a.step for a in actions])).fetchall()
    return [StoredAction(*r) for r in rows] == sorted(  # type: ignore[arg-type]
        actions, key=lambda a: a.step)


@attrs.define
class _Cut:
    """Cut an append's connection at its deadline (called by the event loop's timer), and
    remember that it did."""

    conn: AsyncConn
    done: bool = False

    def __call__(self) -> None:
        self.done = True
        _sever(self.conn)


def _sever(conn: Conn | AsyncConn) -> None:
    """Shut a connection's socket down, from any thread: the call blocked on it gets an error
    at once (closing it would wait for that call, and free its descriptor under it)."""
    try:
        fd = conn.fileno()
    except psycopg.Error:  # closed already
        return
    try:
        with socket.socket(fileno=os.dup(fd)) as sock:
            sock.shutdown(socket.SHUT_RDWR)
    except OSError:  # gone already
        pass


def _insert(db: Conn, table_id: str, actions: Sequence[StoredAction]) -> None:
    if actions:
        with db.cursor() as cur:
            cur.executemany(_SQL.insert_action,
                            [(table_id, a.step, a.seat, a.action) for a in actions])


def _actions(db: Conn, table_id: str, step: int) -> list[StoredAction]:
    rows = db.execute(_SQL.actions_since, (table_id, step)).fetchall()
    return [StoredAction(s, seat, a) for s, seat, a in rows]  # type: ignore[arg-type]


def _load(db: Conn, table_id: str) -> StoredTable | None:
    """Read one table and its actions in one snapshot; ``None`` if it is not stored or its
    row cannot be read (logged)."""
    with db.transaction():
        db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        row = db.execute(_SQL.select_table, (table_id,)).fetchone()
        acts = _actions(db, table_id, 0) if row is not None else []
    if row is None:
        return None
    tables = decode_tables([row], {row[0]: acts})
    return tables[0] if tables else None
