"""Which tables' bots this server process runs: leases that expire unless renewed.

With several processes on one PostgreSQL database, a table's bots are played by one process at
a time, the holder of the table's lease (a row of the ``leases`` relation with its holder and
expiry, by the database's clock). The holder renews all its leases in one statement every
:data:`RENEW_SECONDS`; a process that dies, or hangs (stopped, swapping, cut off), stops
renewing, and its tables are taken over by another process within :data:`LEASE_SECONDS`. A
process that comes back from a hang finds its leases past their local deadline and plays no bot
until it holds them again. A single process (SQLite) holds every lease at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from typing import Final

import attrs

__all__ = ["GRACE_SECONDS", "LEASE_SECONDS", "RENEW_SECONDS", "Leases", "Owner"]

#: How long a lease lasts unless renewed: a hung process's tables wait this long at most.
LEASE_SECONDS: Final = 5.0
#: How often the holder renews its leases (and tries to take the tables nobody holds).
RENEW_SECONDS: Final = 1.0
#: How long past its end a lease is still left to its holder by the other processes (it
#: renews it first: a database back after a pause of its own does not move every table).
GRACE_SECONDS: Final = 5.0
#: How much sooner than the database this process counts its leases ended: a renewal's
#: statement runs after the time it is counted from, and clocks drift a little.
_MARGIN: Final = 1.0


@attrs.frozen
class Owner:
    """Another live server process that owns a table (holds its lease): where a connection to
    the table is forwarded. ``address`` is that process's own URL (``http://host:port``),
    ``holder`` the id its leases are held by."""

    address: str
    holder: str


class Leases:
    """The leases this process holds, each with its local deadline (``clock()``, monotonic):
    past it, the process behaves as if it did not hold the lease, whatever the database says,
    since another process may have taken it over."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._until: dict[str, float] = {}

    def holds(self, table_id: str) -> bool:
        """Whether this process may run the table's bots now."""
        until = self._until.get(table_id)
        return until is not None and self._clock() < until

    def taken(self, asked_at: float, held: Collection[str], asked: Collection[str]) -> set[str]:
        """Note the answer to a lease call made at ``asked_at`` (``clock()`` before the call)
        for the tables ``asked``: those ``held`` are this process's until ``asked_at`` plus
        the lease's time (less a margin), the others not; return those newly held."""
        until = asked_at + LEASE_SECONDS - _MARGIN
        new = {t for t in held if not self.holds(t)}
        for table_id in asked:
            if table_id in held:
                self._until[table_id] = until
            else:
                self._until.pop(table_id, None)
        return new

    def forget(self, table_id: str) -> None:
        """Forget a lease given back (a finished or dropped table)."""
        self._until.pop(table_id, None)

    def clock(self) -> float:
        """The clock the deadlines are counted by."""
        return self._clock()
