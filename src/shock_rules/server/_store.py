"""Where the server keeps its tables: the :class:`Store` interface and its SQLite store."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import os
import sqlite3
import stat
import threading
import time
from collections.abc import AsyncGenerator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Final, Protocol, runtime_checkable

import attrs

from .._errors import ShockError

__all__ = [
    "SQLiteStore",
    "SharedStore",
    "StepTakenError",
    "Store",
    "StoreUnavailableError",
    "StoredAction",
    "StoredTable",
    "token_hash",
]

log = logging.getLogger("shock_rules.server")


#: What :meth:`SharedStore.notifications` yields as the step when a seat's token was replaced.
SEATS_CHANGED: Final = -2


def token_hash(token: str) -> str:
    """Return the hex SHA-256 of a seat's token: what the store keeps instead of the token.

    A token is 32 random bytes (``secrets.token_urlsafe``), so an unsalted fast hash is enough:
    nobody can search that space, and a copy of the database lets nobody take a seat.
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class StepTakenError(RuntimeError):
    """The table already has an action stored at one of the steps being appended: another
    server process sharing the store took that step first. Nothing was stored."""


class StoreUnavailableError(ShockError, RuntimeError):
    """The store cannot be reached now (its database server is down or restarting); nothing
    was stored. The store reconnects by itself at a later call."""


@attrs.frozen
class StoredAction:
    """One applied action of a table: its ``step`` (the table's step before it), the ``seat``
    that took it (``None`` for chance) and its notation."""

    step: int
    seat: int | None
    action: str


@attrs.frozen
class StoredTable:
    """A table as the store keeps it: enough to rebuild it exactly.

    ``config`` is the game's config document (JSON text), ``bots`` maps bot seats to bot
    names, ``seats`` maps human seats to their token hashes, and ``seed`` is the table's secret
    seed from which every chance outcome and bot decision is derived (see
    :func:`shock_rules.server.draw_rng`). ``active`` is the table's last activity (an action
    stored, a seat connected until then), as :func:`time.time`; ``None`` when it is unknown
    (a table stored before the store kept it): the server counts from when it loads it.
    ``listed`` is whether the lobby's list of tables (``GET /api/tables``) shows it; a table
    stored before the store kept that is listed, as new tables are by default.
    """

    id: str
    config: str
    bots: Mapping[int, str]
    seats: Mapping[int, str]
    seed: str
    created: float
    actions: tuple[StoredAction, ...] = ()
    active: float | None = None
    listed: bool = True


class Store(Protocol):
    """The storage a server needs: tables are created once, then only grow by actions, until
    a finished one, or an abandoned one, is deleted.

    Every method is called from the server's event loop and must not block long; a store for
    several server processes (PostgreSQL, say) implements the same methods, see the Server page
    of the documentation.
    """

    def create_table(self, table: StoredTable) -> None:
        """Store a new table (its actions, if any, too); raise if its id is taken."""
        ...

    def append_actions(self, table_id: str, actions: Sequence[StoredAction]) -> None:
        """Store applied actions (one decision and the chance steps it led to) durably and
        all or none: they must survive the process being killed once this returns; raise,
        storing none, if the table already has an action at one of their steps. The time of
        the call is the table's last activity (:attr:`StoredTable.active`)."""
        ...

    def load_tables(self) -> list[StoredTable]:
        """Return every stored table with its actions in step order."""
        ...

    def delete_table(self, table_id: str) -> None:
        """Forget a table and its actions, all or none (a finished table the server no longer
        keeps, or an abandoned one); a table that is not stored is no error."""
        ...

    def mark_active(self, times: Mapping[str, float]) -> None:
        """Record the last activity of tables (table id → :func:`time.time`: a seat was
        connected until then); a table that is not stored is no error."""
        ...

    def close(self) -> None:
        """Release the store's resources."""
        ...

    def replace_seat_token(self, table_id: str, seat: int, digest: str) -> None:
        """Store ``digest`` as the token hash of a table's seat, in place of its old one (the
        seat's link was replaced); a table that is not stored is no error."""
        ...


@runtime_checkable
class SharedStore(Store, Protocol):
    """A store that several server processes share (PostgreSQL): beyond :class:`Store`, it
    reads one table and the actions another process appended, tells of new steps, and leases
    a table's bots to one process at a time. Its ``append_actions`` raises
    :class:`StepTakenError` when another process stored that step first, and every method
    raises :class:`StoreUnavailableError` while its database cannot be reached."""

    def load_table(self, table_id: str) -> StoredTable | None:
        """Return one table with its actions in step order, or ``None``."""
        ...

    def actions_since(self, table_id: str, step: int) -> list[StoredAction]:
        """Return a table's actions from ``step`` on, in step order."""
        ...

    def notifications(self) -> AsyncGenerator[tuple[str, int], None]:
        """Yield ``(table id, next step)`` as actions are stored by any process (a table
        created: its number of actions), ``(table id, SEATS_CHANGED)`` when a seat's token was
        replaced, and ``("", -1)`` after a lost connection: whatever happened meanwhile was
        not heard."""
        ...

    def try_lease(self, table_id: str) -> bool:
        """Take the lease on a table's bots for this process, if no live process has it;
        return whether this process holds it. A process that dies loses its leases."""
        ...

    def release_lease(self, table_id: str) -> None:
        """Give a table's lease back (its game ended, or it was dropped)."""
        ...

    def holds_lease(self, table_id: str) -> bool:
        """Whether this process still holds the table's lease, as far as it knows without
        asking the database (a lost connection lost its leases)."""
        ...

    def seat_hashes(self, table_id: str) -> dict[int, str] | None:
        """Return a table's seats' token hashes as stored now (another process may have
        replaced one), or ``None`` for a table that is not stored."""
        ...


_SELECT_TABLES = ("SELECT id, config, bots, seats, seed, created, active, listed"
                  " FROM tables")
#: The columns of the first version (a file of another program is refused if it lacks them).
_SELECT_OLD_TABLES = "SELECT id, config, bots, seats, seed, created FROM tables"
_SELECT_ACTIONS = "SELECT table_id, step, seat, action FROM actions"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    bots TEXT NOT NULL,
    seats TEXT NOT NULL,
    seed TEXT NOT NULL,
    created REAL NOT NULL,
    active REAL,
    listed INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    step INTEGER NOT NULL,
    seat INTEGER,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, step)
);
"""


class SQLiteStore:
    """A :class:`Store` in one SQLite file (``":memory:"`` for none).

    The file is in WAL mode with ``synchronous=NORMAL``: a committed action survives the
    server process being killed at any moment (it is in the write-ahead log), though not
    necessarily a power cut right after it; ``durable=True`` makes every commit wait for the
    disk (``synchronous=FULL``) for that too.
    """

    def __init__(self, path: str | Path, *, durable: bool = False,
                 checkpoint_every: float = 1.0) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        #: What :meth:`load_tables` says, once, of a file others can read (said then, when
        #: the server has its log and uses the file, not for a file it goes on to refuse).
        self._exposed = _private(self.path) if self.path not in ("", ":memory:") else None
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        # A file of another program may have relations of these names with other columns:
        # say so now, not when the tables are loaded (and before changing anything).
        self._db.execute(f"{_SELECT_OLD_TABLES} LIMIT 0").fetchall()
        self._migrate()
        self._db.execute(f"{_SELECT_TABLES} LIMIT 0").fetchall()
        self._db.execute(f"{_SELECT_ACTIONS} LIMIT 0").fetchall()
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self.path != ":memory:" and checkpoint_every > 0:
            # A commit in WAL mode only appends to the log; copying the log into the database
            # (a checkpoint) waits for the disk, for tens or hundreds of milliseconds on a busy
            # machine. Done by the committing call, as SQLite does by default, it would stall
            # every table of the server's event loop: a thread of its own does it instead.
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._db.execute("PRAGMA journal_size_limit=8388608")  # 8 MB of log kept at most
            self._checkpointer = threading.Thread(
                target=self._checkpoints, args=(checkpoint_every,), daemon=True,
                name="shock-rules checkpoints")
            self._checkpointer.start()

    def _migrate(self) -> None:
        """Bring a file of an earlier version up to date: a ``tables`` relation without the
        ``active`` column gets it, empty (unknown: see :attr:`StoredTable.active`), and one
        without ``listed`` gets it, 1 in every row (the earlier server had no unlisted tables:
        its tables go on being shown as they were reachable by link anyway). Adding a column
        rewrites no row, so a file damaged further in is still only reported as such by
        :meth:`check`."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        if "active" not in columns:
            self._db.execute("ALTER TABLE tables ADD COLUMN active REAL")
        if "listed" not in columns:
            self._db.execute("ALTER TABLE tables ADD COLUMN listed INTEGER NOT NULL DEFAULT 1")

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

    def create_table(self, table: StoredTable) -> None:
        """Store a new table and its actions in one transaction."""
        created = table.created or time.time()
        with self._transaction():
            self._db.execute(
                "INSERT INTO tables (id, config, bots, seats, seed, created, active, listed)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (table.id, table.config, _seat_map(table.bots), _seat_map(table.seats),
                 table.seed, created, created if table.active is None else table.active,
                 int(table.listed)))
            self._insert(table.id, table.actions)

    def append_actions(self, table_id: str, actions: Sequence[StoredAction]) -> None:
        """Store actions in one transaction (committed when this returns), with the time as
        the table's last activity."""
        with self._transaction():
            self._insert(table_id, actions)
            self._db.execute("UPDATE tables SET active = ? WHERE id = ?",
                             (time.time(), table_id))

    def delete_table(self, table_id: str) -> None:
        """Delete a table and its actions in one transaction (their pages are reused by the
        tables stored after: the file stops growing, though it does not shrink)."""
        with self._transaction():
            self._db.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))
            self._db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    def mark_active(self, times: Mapping[str, float]) -> None:
        """Record tables' last activity in one transaction."""
        if not times:
            return
        with self._transaction():
            self._db.executemany("UPDATE tables SET active = ? WHERE id = ?",
                                 [(when, table_id) for table_id, when in times.items()])

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """Hold the connection's lock for one transaction: committed if the block ends,
        rolled back if it raises."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _insert(self, table_id: str, actions: Sequence[StoredAction]) -> None:
        self._db.executemany(
            "INSERT INTO actions (table_id, step, seat, action) VALUES (?, ?, ?, ?)",
            [(table_id, a.step, a.seat, a.action) for a in actions])

    def load_tables(self) -> list[StoredTable]:
        """Return every table, oldest first, with its actions in step order.

        A row that cannot be read (a column of the wrong type, a seat map that is not one) is
        logged, without its contents, and left out: the other tables load.
        """
        if self._exposed is not None:
            log.warning("%s", self._exposed)
            self._exposed = None
        with self._lock:
            rows = self._db.execute(f"{_SELECT_TABLES} ORDER BY created, id").fetchall()
            acts: dict[object, list[StoredAction]] = {}
            for table_id, step, seat, action in self._db.execute(
                    f"{_SELECT_ACTIONS} ORDER BY table_id, step"):
                acts.setdefault(table_id, []).append(StoredAction(step, seat, action))
        tables = []
        for r in rows:
            try:
                tables.append(_read_table(r, tuple(acts.get(r[0], ()))))
            except _BadRow as exc:
                log.error("table %s: could not be restored: %s", _id_text(r[0]), exc)
        return tables

    def replace_seat_token(self, table_id: str, seat: int, digest: str) -> None:
        """Replace a seat's token hash in one transaction."""
        with self._transaction():
            row = self._db.execute("SELECT seats FROM tables WHERE id = ?",
                                   (table_id,)).fetchone()
            if row is not None:
                seats = _read_seat_map("seats", row[0])
                seats[seat] = digest
                self._db.execute("UPDATE tables SET seats = ? WHERE id = ?",
                                 (_seat_map(seats), table_id))

    # TEMPORARY compat (replaced by the store45 branch)
    holder = "sqlite"

    def load_table(self, table_id: str) -> StoredTable | None:
        with self._lock:
            row = self._db.execute(f"{_SELECT_TABLES} WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return None
            acts = tuple(StoredAction(st, se, a) for st, se, a in self._db.execute(
                "SELECT step, seat, action FROM actions WHERE table_id = ? ORDER BY step",
                (table_id,)))
        return _read_table(row, acts)

    def actions_since(self, table_id: str, step: int) -> list[StoredAction]:
        with self._lock:
            return [StoredAction(st, se, a) for st, se, a in self._db.execute(
                "SELECT step, seat, action FROM actions WHERE table_id = ? AND step >= ?"
                " ORDER BY step", (table_id, step))]

    def seat_hashes(self, table_id: str) -> dict[int, str] | None:
        with self._lock:
            row = self._db.execute("SELECT seats FROM tables WHERE id = ?",
                                   (table_id,)).fetchone()
        return None if row is None else _read_seat_map("seats", row[0])

    async def notifications(self) -> AsyncGenerator[tuple[str, int], None]:
        import asyncio
        await asyncio.get_running_loop().create_future()
        yield "", -1

    def lease(self, table_ids: object, seconds: float) -> set[str]:
        return set(table_ids)  # type: ignore[call-overload]

    def release_lease(self, table_id: str) -> None:
        pass

    def claim(self, table_id: str, seconds: float) -> object:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else True

    def unleased(self, limit: int) -> list[str]:
        return []

    def peer_secret(self) -> str:
        return "x"

    def check(self) -> str | None:
        """Return ``None`` if the file reads whole (SQLite's ``quick_check``, which reads every
        page), else its first problem; raise :class:`sqlite3.DatabaseError` if it cannot say."""
        with self._lock:
            rows = self._db.execute("PRAGMA quick_check(1)").fetchall()
        first = str(rows[0][0]) if rows else "no answer"
        return None if first == "ok" else first

    def close(self) -> None:
        """Close the database (after a last checkpoint)."""
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
        with self._lock:
            self._db.close()


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


def _seat_map(seats: Mapping[int, str]) -> str:
    return json.dumps({str(k): v for k, v in sorted(seats.items())})


class _BadRow(ValueError):
    """A stored table's row that cannot be read; its message names the column, never what it
    holds (the seats' column holds token hashes, the seed is secret)."""


def _id_text(table_id: object) -> str:
    text = table_id if isinstance(table_id, str) else repr(table_id)
    return ascii(text[:40]) if not (text.isascii() and text.isprintable()) else text[:40]


def _read_table(row: tuple[object, ...], actions: tuple[StoredAction, ...]) -> StoredTable:
    table_id, config, bots, seats, seed, created, active, listed = row
    if not isinstance(table_id, str):
        raise _BadRow("its id column is not text")
    if not isinstance(config, str):
        raise _BadRow("its config column is not text")
    if not isinstance(seed, str):
        raise _BadRow("its seed column is not text")
    if (isinstance(created, bool) or not isinstance(created, int | float)
            or not math.isfinite(created)):
        raise _BadRow("its created column is not a time")
    # Not needed to rebuild the table: anything but a time is unknown (counted from the load).
    last = None
    if (not isinstance(active, bool) and isinstance(active, int | float)
            and math.isfinite(active)):
        last = float(active)
    # Not needed either: only a 1 is listed, so a damaged value hides a table rather than
    # showing one its creator kept out of the lobby.
    shown = type(listed) is int and listed == 1
    return StoredTable(id=table_id, config=config, bots=_read_seat_map("bots", bots),
                       seats=_read_seat_map("seats", seats), seed=seed, created=float(created),
                       actions=actions, active=last, listed=shown)


def _read_seat_map(column: str, text: object) -> dict[int, str]:
    """Return a seat map stored as JSON text (``{"0": "random"}``); raise :class:`_BadRow`
    if it is not one."""
    try:
        data = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and k.isascii() and k.isdigit() and len(k) < 4
            and isinstance(v, str) for k, v in data.items()):
        raise _BadRow(f"its {column} column is not a JSON object of seats")
    return {int(k): v for k, v in data.items()}
