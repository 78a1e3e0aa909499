"""Where the server keeps its tables: the :class:`Store` interface, which the SQLite store
(``_sqlite.py``) and the PostgreSQL store (``_postgres.py``) both implement in full.

The stored values, the errors and the row codec are in ``_rows.py``; they are named here too,
where the server's modules have always imported them.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Collection, Mapping, Sequence
from typing import Protocol, runtime_checkable

from ._leases import Owner
from ._lobby import ListedRow, Summary
from ._rows import (
    SEATS_CHANGED,
    SchemaVersionError,
    StepTakenError,
    StoredAction,
    StoredTable,
    StoreUnavailableError,
    TableExistsError,
    token_hash,
)
from ._sqlite import SQLiteStore

__all__ = [
    "SEATS_CHANGED",
    "SQLiteStore",
    "SchemaVersionError",
    "SharedStore",
    "StepTakenError",
    "Store",
    "StoreUnavailableError",
    "StoredAction",
    "StoredTable",
    "TableExistsError",
    "token_hash",
]


@runtime_checkable
class Store(Protocol):
    """The storage a server needs, and the coordination of the server processes that share
    it: tables are created once, then only grow by actions, until a finished one, or an
    abandoned one, is deleted; new steps are announced, and each table is leased to one
    process at a time.

    Every method may be called from several threads at once, and may block (on the disk, on
    the database): the server calls them from worker threads, never on its event loop, unless
    the store says its calls are short and local (:attr:`inline`); its most frequent call, a
    table's new steps, it awaits on the loop (:meth:`append_actions_async`). An
    SQLite store is one process's, so it is its own coordinator: it announces nothing (no
    other process stores anything) and leases every table to its process. Every method of a
    store whose database cannot be reached raises :class:`StoreUnavailableError`.
    """

    #: Who holds this store's leases: random, one per store (per server process).
    holder: str
    #: The URL of the process using the store, written with its leases: where the other
    #: processes forward connections to its tables ("" until the process sets it).
    address: str
    #: Whether the store's calls are short and local, to be made on the server's event loop
    #: (an SQLite file); otherwise each is made in a thread, with a deadline.
    inline: bool

    def create_table(self, table: StoredTable) -> None:
        """Store a new table (its actions, if any, too), all or nothing; raise
        :class:`TableExistsError`, storing nothing, if its id is taken."""
        ...

    def append_actions(self, table_id: str, actions: Sequence[StoredAction]) -> None:
        """Store applied actions (one decision and the chance steps it led to) durably and
        all or none: they must survive the process being killed once this returns; raise
        :class:`StepTakenError`, storing none, if the table already has an action at one of
        their steps (another process took it first). The time of the call is the table's last
        activity (:attr:`StoredTable.active`)."""
        ...

    async def append_actions_async(self, table_id: str, actions: Sequence[StoredAction], *,
                                   deadline: float | None = None) -> None:
        """:meth:`append_actions` awaited on the running event loop, for a store whose calls
        are not :attr:`inline`: the call waits on the network without blocking the loop or
        taking a thread, and one not done within ``deadline`` seconds raises
        :class:`StoreUnavailableError` (its outcome unknown until the table is read again).
        A store whose calls are inline makes the call at once."""
        ...

    def load_tables(self) -> list[StoredTable]:
        """Return every stored table with its actions in step order (a row that cannot be
        read is logged, without its contents, and left out)."""
        ...

    def load_table(self, table_id: str) -> StoredTable | None:
        """Return one table with its actions in step order, or ``None``."""
        ...

    def actions_since(self, table_id: str, step: int) -> list[StoredAction]:
        """Return a table's actions from ``step`` on, in step order."""
        ...

    def seat_hashes(self, table_id: str) -> dict[int, str] | None:
        """Return a table's seats' token hashes as stored now (another process may have
        replaced one), or ``None`` for a table that is not stored."""
        ...

    def delete_table(self, table_id: str) -> None:
        """Forget a table and its actions, all or none (a finished table the server no longer
        keeps, or an abandoned one); a table that is not stored is no error."""
        ...

    def mark_active(self, times: Mapping[str, float]) -> None:
        """Record the last activity of tables (table id → :func:`time.time`: a seat was
        connected until then); a table that is not stored is no error."""
        ...

    def replace_seat_token(self, table_id: str, seat: int, digest: str) -> None:
        """Store ``digest`` as the token hash of a table's seat, in place of its old one (the
        seat's link was replaced); a table that is not stored is no error."""
        ...

    def notifications(self) -> AsyncGenerator[tuple[str, int], None]:
        """Yield ``(table id, SEATS_CHANGED)`` when a seat's token was replaced by any
        process, and ``("", -1)`` after a lost connection: whatever happened meanwhile was not
        heard (a ``(table id, next step)`` says steps were stored elsewhere; the stores of this
        version announce none, the table's owner alone plays it). A store of one process
        yields nothing, and ends when it is closed."""
        ...

    def lease(self, table_ids: Collection[str], seconds: float) -> set[str]:
        """Take, or renew, this store's leases on these tables for ``seconds`` from now by
        the database's clock, in one statement: a table whose lease is missing, expired or
        this store's own is taken; return the ids this store holds now (a table not stored,
        or leased to a live other, is not among them). A process that stops renewing, killed
        or hung, loses its leases when they expire."""
        ...

    def release_lease(self, table_id: str) -> None:
        """Give a table's lease back, if this store holds it (its game ended, or it was
        dropped)."""
        ...

    def claim(self, table_id: str, seconds: float, grace: float) -> bool | Owner | None:
        """Take a table's lease for ``seconds`` if no live other process holds it: ``True``
        (this store holds it now: its process plays the table), ``False`` for a finished
        table (no lease: any process may show it), the :class:`Owner` that holds it, or
        ``None`` for a table not stored. A lease is taken if missing, this store's own, held
        at this store's :attr:`address` (an earlier run of this process) or ended more than
        ``grace`` seconds ago (its holder renews it first: :meth:`lease`)."""
        ...

    def unleased(self, limit: int, grace: float) -> list[str]:
        """Return up to ``limit`` unfinished tables that no live process holds: their lease
        ended more than ``grace`` seconds ago, or (made ``grace`` seconds ago or more) they
        have none."""
        ...

    def evict(self, table_id: str, holder: str) -> None:
        """End ``holder``'s lease on a table now (nothing listens at its address: it died)."""
        ...

    def peers(self) -> set[str]:
        """Return the addresses of the other processes that hold a live lease."""
        ...

    def peer_secret(self) -> str:
        """Return the secret the processes sharing the store prove themselves to one another
        with (made by the first to ask, the same for every one after)."""
        ...

    def summarize(self, summaries: Mapping[str, Summary]) -> None:
        """Store what the lobby shows of tables (and whether each is over), in one
        transaction; a table not stored is no error."""
        ...

    def listed(self, limit: int) -> list[ListedRow]:
        """Return up to ``limit`` listed tables, the latest active first, for the lobby."""
        ...

    def creator_tables(self, creator: str) -> int:
        """Return how many unfinished tables the creator key ``creator`` has."""
        ...

    def take(self, key: str, per_second: float, burst: float) -> float:
        """Take a token from the bucket ``key`` (refilled at ``per_second`` up to ``burst``;
        full when first used), for every process sharing the store at once: return 0 if
        taken, else the seconds until one will be there."""
        ...

    def close(self) -> None:
        """Release the store's resources, without waiting for a database that does not
        answer; a call after it raises :class:`StoreUnavailableError`."""
        ...


#: The name of the interface when only stores of several processes had these methods: every
#: store has them now (see :class:`Store`).
SharedStore = Store
