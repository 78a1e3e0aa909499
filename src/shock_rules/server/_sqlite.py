"""The SQLite store: one server process's tables in one file (the default)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import sqlite3
import stat
import threading
import time
from collections.abc import AsyncGenerator, Collection, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Final

from ._leases import Owner
from ._lobby import ListedRow, Summary
from ._rows import (
    SQLITE,
    Dialect,
    Statements,
    StepTakenError,
    StoredAction,
    StoredTable,
    StoreUnavailableError,
    TableExistsError,
    decode_listed,
    decode_seats,
    decode_tables,
    encode_seats,
    encode_table,
    group_actions,
    migrate,
    take_token,
)

__all__ = ["SQLiteStore"]

log = logging.getLogger("shock_rules.server")

_SQL: Final = Statements.of(SQLITE)


class _Schema:
    """What :func:`~shock_rules.server._rows.migrate` needs, on an SQLite connection."""

    dialect: Dialect = SQLITE

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, statement: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        return self._db.execute(statement, params).fetchall()

    def columns(self, relation: str) -> set[str]:
        return {row[1] for row in self._db.execute(f"PRAGMA table_info({relation})")}


class SQLiteStore:
    """A :class:`~shock_rules.server.Store` in one SQLite file (``":memory:"`` for none), for
    one server process: it is its own coordinator (it announces nothing, and leases every table
    to its process).

    The file is in WAL mode with ``synchronous=NORMAL``: a committed action survives the
    server process being killed at any moment (it is in the write-ahead log), though not
    necessarily a power cut right after it; ``durable=True`` makes every commit wait for the
    disk (``synchronous=FULL``) for that too. One connection serves every thread, one call at
    a time.
    """

    def __init__(self, path: str | Path, *, durable: bool = False,
                 checkpoint_every: float = 1.0) -> None:
        self.path = str(path)
        self.holder = secrets.token_hex(8)
        self.address = ""
        #: Its calls are local and short (a commit appends to the write-ahead log; the disk is
        #: waited for by the checkpoint thread): made on the server's event loop.
        self.inline = True
        self._lock = threading.Lock()
        self._closed = False
        #: The notification streams waiting for the store to close: (their loop, a future).
        self._waiting: set[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = set()
        #: What :meth:`load_tables` says, once, of a file others can read (said then, when
        #: the server has its log and uses the file, not for a file it goes on to refuse).
        self._exposed = _private(self.path) if self.path not in ("", ":memory:") else None
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            self._db.execute("PRAGMA foreign_keys=ON")
            with self._transaction():
                migrate(_Schema(self._db), self.path)
        except BaseException:
            self._db.close()
            raise
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self.path != ":memory:" and checkpoint_every > 0:
            # A commit in WAL mode only appends to the log; copying the log into the database
            # (a checkpoint) waits for the disk, for tens or hundreds of milliseconds on a busy
            # machine. Done by the committing call, as SQLite does by default, it would hold
            # the store's connection from every other thread: a thread of its own does it.
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._db.execute("PRAGMA journal_size_limit=8388608")  # 8 MB of log kept at most
            self._checkpointer = threading.Thread(
                target=self._checkpoints, args=(checkpoint_every,), daemon=True,
                name="shock-rules checkpoints")
            self._checkpointer.start()

    def _checkpoints(self, every: float) -> None:
        try:
            db = sqlite3.connect(self.path, isolation_level=None)
            try:
                while not self._stop.wait(every):
                    # PASSIVE: copy what no reader needs, never waiting for a writer.
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            finally:
                db.close()
        except sqlite3.Error as exc:  # a damaged file: the commits still go to the log
            log.error("the database's checkpoints stopped: %s", exc)

    # -- the connection ------------------------------------------------------------------------

    @contextlib.contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        """Hold the connection for one call (a closed store raises
        :class:`StoreUnavailableError`)."""
        with self._lock:
            if self._closed:
                raise StoreUnavailableError("the store is closed")
            yield self._db

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """Hold the connection for one transaction, taking the file's write lock at once:
        committed if the block ends, rolled back if it raises."""
        with self._connection() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                if db.in_transaction:  # SQLite rolls back by itself after some errors
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    # -- storing -------------------------------------------------------------------------------

    def create_table(self, table: StoredTable) -> None:
        """Store a new table and its actions in one transaction."""
        try:
            with self._transaction() as db:
                db.execute(_SQL.insert_table, encode_table(table))
                _insert(db, table.id, table.actions)
        except sqlite3.IntegrityError as exc:
            if exc.sqlite_errorname != "SQLITE_CONSTRAINT_PRIMARYKEY":
                raise
            raise TableExistsError(f"table {table.id} is stored already") from None

    def append_actions(self, table_id: str, actions: Sequence[StoredAction]) -> None:
        """Store actions in one transaction (committed when this returns), with the time as
        the table's last activity."""
        if not actions:
            return
        try:
            with self._transaction() as db:
                _insert(db, table_id, actions)
                db.execute(_SQL.touch, (time.time(), table_id))
        except sqlite3.IntegrityError as exc:
            if exc.sqlite_errorname != "SQLITE_CONSTRAINT_PRIMARYKEY":
                raise
            raise StepTakenError(f"table {table_id}: a step of {actions[0].step}-"
                                 f"{actions[-1].step} is stored already") from None

    async def append_actions_async(self, table_id: str, actions: Sequence[StoredAction], *,
                                   deadline: float | None = None) -> None:
        """:meth:`append_actions`, made at once: a local file's write is short (``deadline``
        does not apply)."""
        self.append_actions(table_id, actions)

    def delete_table(self, table_id: str) -> None:
        """Delete a table and its actions in one transaction (their pages are reused by the
        tables stored after: the file stops growing, though it does not shrink)."""
        with self._transaction() as db:
            db.execute(_SQL.delete_actions, (table_id,))
            db.execute(_SQL.delete_table, (table_id,))

    def mark_active(self, times: Mapping[str, float]) -> None:
        """Record tables' last activity in one transaction."""
        if not times:
            return
        with self._transaction() as db:
            db.executemany(_SQL.touch, [(when, table_id) for table_id, when in times.items()])

    def replace_seat_token(self, table_id: str, seat: int, digest: str) -> None:
        """Replace a seat's token hash in one transaction."""
        with self._transaction() as db:
            row = db.execute(_SQL.seats_to_change, (table_id,)).fetchone()
            if row is not None:
                seats = decode_seats("seats", row[0])
                seats[seat] = digest
                db.execute(_SQL.set_seats, (encode_seats(seats), table_id))

    # -- reading -------------------------------------------------------------------------------

    def load_tables(self) -> list[StoredTable]:
        """Return every table, oldest first, with its actions in step order (a row that
        cannot be read is logged, without its contents, and left out)."""
        exposed, self._exposed = self._exposed, None
        if exposed is not None:
            log.warning("%s", exposed)
        with self._connection() as db:  # one call at a time: the actions of the tables read
            rows = db.execute(_SQL.select_tables).fetchall()
            acts = group_actions(db.execute(_SQL.select_actions))
        return decode_tables(rows, acts)

    def load_table(self, table_id: str) -> StoredTable | None:
        """Return one table with its actions in step order, or ``None`` (a row that cannot be
        read is logged, without its contents: ``None`` too)."""
        with self._connection() as db:
            row = db.execute(_SQL.select_table, (table_id,)).fetchone()
            acts = _actions(db, table_id, 0) if row is not None else []
        if row is None:
            return None
        tables = decode_tables([row], {row[0]: acts})
        return tables[0] if tables else None

    def actions_since(self, table_id: str, step: int) -> list[StoredAction]:
        """Return a table's actions from ``step`` on, in step order."""
        with self._connection() as db:
            return _actions(db, table_id, step)

    def seat_hashes(self, table_id: str) -> dict[int, str] | None:
        """Return a table's seats' token hashes, or ``None`` for a table not stored."""
        with self._connection() as db:
            row = db.execute(_SQL.seats, (table_id,)).fetchone()
        return None if row is None else decode_seats("seats", row[0])

    def check(self) -> str | None:
        """Return ``None`` if the file reads whole (SQLite's ``quick_check``, which reads every
        page), else its first problem; raise :class:`sqlite3.DatabaseError` if it cannot say."""
        with self._connection() as db:
            rows = db.execute("PRAGMA quick_check(1)").fetchall()
        first = str(rows[0][0]) if rows else "no answer"
        return None if first == "ok" else first

    # -- coordination: one process holds everything -------------------------------------------

    async def notifications(self) -> AsyncGenerator[tuple[str, int], None]:
        """Yield nothing: no other process stores anything in this file. Ends when the store
        is closed (or the caller cancels it), waiting meanwhile without polling."""
        loop = asyncio.get_running_loop()
        closed: asyncio.Future[None] = loop.create_future()
        entry = (loop, closed)
        with self._lock:
            if self._closed:
                return
            self._waiting.add(entry)
        try:
            await closed
        finally:
            with self._lock:
                self._waiting.discard(entry)
        return
        yield  # what makes this a generator (one that yields nothing)

    def lease(self, table_ids: Collection[str], seconds: float) -> set[str]:
        """Return every id given: this process holds every table of its file."""
        if self._closed:
            raise StoreUnavailableError("the store is closed")
        return set(table_ids)

    def release_lease(self, table_id: str) -> None:
        """Nothing to give back: no other process could take it."""

    def claim(self, table_id: str, seconds: float, grace: float) -> bool | Owner | None:
        """``None`` for a table not stored, ``False`` for a finished one, else ``True``: no
        other process holds anything of this file."""
        with self._connection() as db:
            row = db.execute(_SQL.unfinished, (table_id,)).fetchone()
        return None if row is None else not row[0]

    def unleased(self, limit: int, grace: float) -> list[str]:
        """None: this process holds every table of its file."""
        return []

    def evict(self, table_id: str, holder: str) -> None:
        """Nothing to end: no other process holds anything of this file."""

    def peers(self) -> set[str]:
        """None: one process."""
        return set()

    def peer_secret(self) -> str:
        """Return the file's secret (made on first use)."""
        with self._transaction() as db:
            db.execute(_SQL.keep_setting, ("peer_secret", secrets.token_urlsafe(32)))
            (value,) = db.execute(_SQL.setting, ("peer_secret",)).fetchone()
        return str(value)

    def summarize(self, summaries: Mapping[str, Summary]) -> None:
        """Store the lobby's summaries in one transaction."""
        if not summaries:
            return
        with self._transaction() as db:
            db.executemany(_SQL.summarize, [(s.text(), s.over, table_id)
                                            for table_id, s in summaries.items()])

    def listed(self, limit: int) -> list[ListedRow]:
        """Return up to ``limit`` listed tables, the latest active first."""
        with self._connection() as db:
            return decode_listed(db.execute(_SQL.listed, (True, limit)).fetchall())

    def creator_tables(self, creator: str) -> int:
        """Return how many unfinished tables the creator key has."""
        with self._connection() as db:
            (count,) = db.execute(_SQL.creator_tables, (creator, False)).fetchone()
        return int(count)

    def take(self, key: str, per_second: float, burst: float) -> float:
        """Take a token from the bucket ``key`` in one transaction (the file's write lock)."""
        now = time.time()
        with self._transaction() as db:
            db.execute(_SQL.new_bucket, (key, burst, now))
            row = db.execute(_SQL.bucket, (key,)).fetchone()
            left, wait = take_token(row, per_second, burst, now)
            db.execute(_SQL.set_bucket, (left, now, key))
        return wait

    def close(self) -> None:
        """Close the database (after a last checkpoint), and end the notification streams."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            waiting, self._waiting = self._waiting, set()
        for loop, closed in waiting:
            with contextlib.suppress(RuntimeError):  # its loop has ended: nothing to wake
                loop.call_soon_threadsafe(_settle, closed)
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
        with self._lock:
            self._db.close()


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _insert(db: sqlite3.Connection, table_id: str, actions: Sequence[StoredAction]) -> None:
    db.executemany(_SQL.insert_action, [(table_id, a.step, a.seat, a.action) for a in actions])


def _actions(db: sqlite3.Connection, table_id: str, step: int) -> list[StoredAction]:
    return [StoredAction(s, seat, a)
            for s, seat, a in db.execute(_SQL.actions_since, (table_id, step))]


def _private(path: str) -> str | None:
    """Create the SQLite file ``path`` readable by its owner only (it holds the tables' secret
    seeds and the cards dealt; SQLite gives its ``-wal`` and ``-shm`` files the database's
    mode); return what to say of an existing one that others can read, else ``None``."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return None
        if stat.S_ISREG(mode) and mode & 0o077:
            return (f"the database {path} can be read by other users of this machine (mode"
                    f" {oct(mode & 0o777)}): chmod 600 it (and its -wal and -shm files)")
        return None
    except OSError:  # a folder that is not there, or not writable: sqlite3 says so
        return None
    os.close(fd)
    return None
