"""The hub: every table a server process plays, its store and its limits. Tables are created
within the server's limits and each client address's (:meth:`Hub.create`), loaded from the
store, taken over from other processes by their leases, dropped when finished beyond those
kept or abandoned, and listed for the lobby; no web framework here.

Each table is a :class:`~shock_rules.server._tables.LiveTable` (``_tables.py``)."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import heapq
import hmac
import itertools
import logging
import math
import re
import secrets
import time
import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any, Final

from .. import games
from .._documents import from_json, to_json
from .._errors import InvalidArgumentError, ShockError
from .._rules.config import Variant
from ..protocol import ClaimLimit, FairnessPolicy, RequestError, read_bots
from ._calls import DEFAULT_DEADLINE, StoreCalls
from ._leases import GRACE_SECONDS, LEASE_SECONDS, RENEW_SECONDS, Leases, Owner
from ._lobby import Listed, Summary
from ._store import SEATS_CHANGED, Store, StoredTable, StoreUnavailableError, token_hash
from ._tables import (
    DEFAULT_CLAIM_COOLDOWN,
    DEFAULT_CLAIMS_PER_SECOND,
    STORE_RETRY_SECONDS,
    LiveTable,
    in_background,
    replay,
    seat_of,
)
from ._thinking import DEFAULT_WORKERS, Thinker, is_mcts

__all__ = [
    "DEFAULT_IDLE_MINUTES",
    "DEFAULT_MAX_CLIENT_MCTS",
    "DEFAULT_MAX_CLIENT_TABLES",
    "DEFAULT_MAX_FINISHED",
    "DEFAULT_MAX_TABLE_MCTS",
    "MAX_LISTED",
    "BotLimitError",
    "ClientLimitError",
    "CreationRateError",
    "Hub",
    "TableLimitError",
]

log = logging.getLogger("shock_rules.server")

#: A table id as the hub makes them (``secrets.token_urlsafe(9)``): anything else is no table.
_TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{12}")
#: Finished tables a server keeps (in memory, with their events, and in its store) by default.
DEFAULT_MAX_FINISHED: Final = 200
#: Unfinished tables one client address may have at once (``--tables-per-address``): a few
#: friends' games, or a club's evening, from behind one address; fifty addresses to fill the
#: server's 1,000 (and beyond half of them, :meth:`Hub.share` lowers it).
DEFAULT_MAX_CLIENT_TABLES: Final = 20
#: MCTS bots one table may have (``--mcts-per-table``): one strong opponent for people (the
#: other seats may be heuristic bots, which cost nothing). Every MCTS decision of the server
#: waits its turn for the same few worker processes, and each MCTS seat of a table is another
#: turn to wait before a person at that table plays again.
DEFAULT_MAX_TABLE_MCTS: Final = 1
#: Unfinished tables with an MCTS bot one client address may have (``--mcts-tables-per-address``).
#: The thinking queue serves addresses in turn, so more tables would not take more of the
#: workers from other addresses, only wait longer each; the bound keeps what one address holds
#: waiting (and resumed after a restart, when its tables count for no address) small.
DEFAULT_MAX_CLIENT_MCTS: Final = 4
#: Tables the lobby's list (``GET /api/tables``) gives at most: the answer stays small and its
#: cost bounded however many tables the server has.
MAX_LISTED: Final = 50
#: Tables of one creator address the lobby's list gives at most: one address's hundred bot
#: tables must not push everyone else's out of the list.
MAX_LISTED_PER_ADDRESS: Final = 3
#: The latest active listed tables the lobby reads from the store to choose from: its cost
#: stays bounded however many tables the processes have.
LISTING_ROWS: Final = 1000
#: Seconds between two writes of the lobby's summaries of the tables a process plays.
SUMMARY_SECONDS: Final = 1.0
#: Minutes an unfinished table waiting for people is kept with no seat connected and no action
#: (then it is abandoned: deleted), by default.
DEFAULT_IDLE_MINUTES: Final = 60.0
#: Seconds an id the store did not have is answered as unknown without asking it again, and
#: how many such ids are remembered at most (the oldest forgotten first).
UNKNOWN_SECONDS: Final = 10.0
MAX_UNKNOWN: Final = 10_000
#: Tables no live process owns that one process takes over in one second at most (a process
#: that died leaves many: the survivors share them, a second's worth each at a time).
ORPHANS_AT_ONCE: Final = 50


class TableLimitError(ShockError, RuntimeError):
    """The server already has as many unfinished tables as it may."""


class ClientLimitError(TableLimitError):
    """The client address asking for a table already has as many unfinished tables as one
    address may have."""


class CreationRateError(ClientLimitError):
    """The client address asking for a table created as many as it may a minute, on all the
    server's processes together; it may try again in ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class BotLimitError(ClientLimitError):
    """The client address asking for a table with an MCTS bot already has as many unfinished
    tables with one as one address may have."""


def _host_of(address: str) -> str:
    """The host of a process's URL (``http://10.0.0.5:8000`` → ``10.0.0.5``)."""
    return urllib.parse.urlsplit(address).hostname or ""


def _listed(live: LiveTable) -> Listed:
    """The lobby's entry of a table this process plays: as it is now."""
    return Listed(live.id, live.game.name, live.config.players,
                  live.config.variant.value if live.game.name == "shock" else None,
                  live.bot_names, live.created, live.active, live.creator, live.summary())


class Hub:
    """Every table of a server, its store and its limits: ``max_tables`` unfinished tables at
    most, of them ``max_client_tables`` at most created by one client address (and beyond half
    of ``max_tables``, its :meth:`share`), ``max_table_mcts`` MCTS bots a table and
    ``max_client_mcts`` unfinished tables with one an address, every MCTS decision made by
    the :attr:`thinker`'s ``bot_workers`` processes, ``max_finished`` finished tables (when
    one more finishes, the oldest of the address with the most is dropped from memory and
    from the store: :meth:`_over`), and unfinished tables dropped
    once abandoned (:meth:`LiveTable.abandoned`) for ``idle_seconds``: checked every
    :attr:`check_every` seconds (:meth:`sweep_forever`), when the tables are loaded, and
    before a table is refused for one of those limits. ``clock`` is :func:`time.time` (the times
    are stored, and the store records its own with each action: a test's clock only moves
    what the hub itself notes)."""

    def __init__(self, store: Store, *, bot_delay: float = 0.0, max_tables: int = 1000,
                 max_client_tables: int = DEFAULT_MAX_CLIENT_TABLES,
                 max_finished: int = DEFAULT_MAX_FINISHED,
                 idle_seconds: float = DEFAULT_IDLE_MINUTES * 60,
                 clock: Callable[[], float] = time.time,
                 bot_workers: int = DEFAULT_WORKERS,
                 max_table_mcts: int = DEFAULT_MAX_TABLE_MCTS,
                 max_client_mcts: int = DEFAULT_MAX_CLIENT_MCTS,
                 fairness: FairnessPolicy | None = None,
                 claims_per_second: float = DEFAULT_CLAIMS_PER_SECOND,
                 claim_cooldown: float = DEFAULT_CLAIM_COOLDOWN,
                 store_deadline: float = DEFAULT_DEADLINE, address: str = "",
                 tables_per_minute: float | None = None) -> None:
        if not idle_seconds > 0:
            raise InvalidArgumentError(f"idle time must be positive, not {idle_seconds!r}")
        ClaimLimit(claims_per_second, claim_cooldown)  # checked here, not at each table
        self.store = store
        #: The store's calls, off the event loop and with a deadline.
        self.calls = StoreCalls(store, deadline=store_deadline)
        #: The tables this process owns now (renewed by :meth:`keep_leases_forever`).
        self.leases = Leases()
        #: This process's own URL, where the other processes forward connections to the
        #: tables it owns ("": none can); written with its leases.
        self.address = store.address = address
        #: The secret the processes sharing the store prove themselves to one another with
        #: (read from the store when the tables are loaded).
        self.peer_secret = ""
        #: The hosts of the other live processes sharing the store (from their addresses):
        #: their connections are forwarded clients'.
        self.peer_hosts: set[str] = set()
        #: Table ids lately asked for and not stored (id -> when to forget it): a client trying
        #: ids costs the store one query each per :data:`UNKNOWN_SECONDS`, not one a request.
        self._unknown: collections.OrderedDict[str, float] = collections.OrderedDict()
        #: The lobby's summaries of this process's tables as last written to the store.
        self._summaries: dict[str, Summary] = {}
        #: The connections forwarded to other processes, by table: each one's event is set
        #: when this process takes the table over.
        self._pipes: dict[str, set[asyncio.Event]] = {}
        #: Held while a table is created: the limits count the tables stored before it.
        self._creating = asyncio.Lock()
        #: Tables one client address may create a minute on all the processes together
        #: (``None``: no such limit; each process's own burst limit is the application's).
        self.tables_per_minute = tables_per_minute
        #: How a real-time game's races are settled (:class:`FairnessPolicy`).
        self.fairness = fairness or FairnessPolicy()
        #: Each seat's claims (slaps) a second at a real-time table, and the lockout past it.
        self.claims = (claims_per_second, claim_cooldown)
        #: Seconds between two renewals of this process's leases (and looks for tables whose
        #: bots no live process runs).
        self.lease_every = RENEW_SECONDS
        self.bot_delay = bot_delay
        self.max_tables = max_tables
        self.max_client_tables = max_client_tables
        self.max_finished = max(1, max_finished)
        self.max_table_mcts = max_table_mcts
        self.max_client_mcts = max_client_mcts
        #: Every table's MCTS decisions, in turn, in ``bot_workers`` processes.
        self.thinker = Thinker(bot_workers)
        self.idle_seconds = idle_seconds
        #: Seconds between two sweeps: a minute, or a quarter of the idle time if shorter.
        self.check_every = min(60.0, max(0.01, idle_seconds / 4))
        self._clock = clock
        self.tables: dict[str, LiveTable] = {}
        #: The ids of the finished tables kept, the one that finished first first.
        self._finished: dict[str, None] = {}
        #: How many finished tables were dropped.
        self.dropped = 0
        #: How many abandoned tables were dropped.
        self.expired = 0

    def _live(self, stored: StoredTable) -> LiveTable:
        return LiveTable(stored, self.calls, self.leases, bot_delay=self.bot_delay,
                         on_over=self._over,
                         clock=self._clock, thinker=self.thinker, fairness=self.fairness,
                         claims=self.claims)

    def _over(self, live: LiveTable) -> None:
        """Keep a table that just finished; beyond the limit, drop the oldest finished table
        of the creator address that has the most (those loaded from the store, of no known
        address, count as one address): one address finishing many tables drops its own, not
        everyone's."""
        self._finished[live.id] = None
        while len(self._finished) > self.max_finished:
            oldest = self._oldest_of_most()
            del self._finished[oldest]
            self.dropped += 1
            self._drop(oldest)

    def _oldest_of_most(self) -> str:
        """Return the finished table to drop (:meth:`_over`): a pass over the finished ones
        (a few hundred), done only when one more finishes. Between addresses with as many, the
        one whose table finished first."""
        def creator(table_id: str) -> str | None:
            live = self.tables.get(table_id)
            return None if live is None else live.client

        counts = collections.Counter(creator(t) for t in self._finished)
        most = max(counts.values())
        return next(t for t in self._finished if counts[creator(t)] == most)

    def _forget(self, table_id: str) -> None:
        """Drop a table from memory (its connections closed as for an unknown table)."""
        live = self.tables.pop(table_id, None)
        if live is not None:
            live.drop()

    def _drop(self, table_id: str) -> None:
        """Drop a table from memory now and from the store in the background (a row that
        stays is dropped again by the next start)."""
        self._forget(table_id)
        in_background(self.calls(self.store.delete_table, table_id),
                    f"table {table_id}: could not be deleted")

    async def _mark(self, times: dict[str, float]) -> None:
        if not times:
            return
        try:
            await self.calls(self.store.mark_active, times)
        except StoreUnavailableError as exc:  # for a moment: the next sweep stores them
            log.warning("the tables' last activity was not stored: %s", exc)
        except Exception:  # only the times are lost: a restart counts from the older ones
            log.exception("the tables' last activity could not be stored")

    def _idle_text(self) -> str:
        return f"no seat connected and no action for {self.idle_seconds / 60:g} minutes"

    async def expire(self, *, log_each: bool = True) -> list[str]:
        """Drop the abandoned tables (from memory and from the store; their links then answer
        as for an unknown table), each with one line of log; return their ids."""
        now = self._clock()
        gone = [t.id for t in self.tables.values() if t.abandoned(now, self.idle_seconds)]
        gone = [t for t in gone if await self._idle_everywhere(t, now)]
        for table_id in gone:
            self.expired += 1
            self._forget(table_id)
            try:
                await self.calls(self.store.delete_table, table_id)
            except Exception:  # the row stays; the next sweep or start drops it again
                log.exception("table %s: could not be deleted", table_id)
            if log_each:
                log.info("table %s: deleted, abandoned: %s", table_id, self._idle_text())
        return gone

    async def _idle_everywhere(self, table_id: str, now: float) -> bool:
        """Whether a table idle here is idle for every process sharing the store: another may
        have a seat connected (it stores that activity as it sweeps)."""
        try:
            stored = await self.calls(self.store.load_table, table_id)
        except StoreUnavailableError:
            return False  # next sweep
        if stored is None:  # deleted by another process: forget it here
            self._forget(table_id)
            return False
        live = self.tables.get(table_id)
        if live is None:  # dropped meanwhile
            return False
        # Activity stored later than this process knows of is another process's (a seat
        # connected there); with one process, the store holds nothing newer.
        if (stored.active is not None and stored.active > live.active
                and now - stored.active < self.idle_seconds):
            live.active = stored.active
            return False
        return True

    async def spectator_view(self, table_id: str) -> dict[str, object] | None:
        """Return the table's spectator view, or ``None`` if there is no such table: as this
        process plays it, or (another process owns it) rebuilt from the store. Raise
        :class:`StoreUnavailableError` if the store cannot be asked."""
        found = await self.locate(table_id)
        if isinstance(found, LiveTable):
            async with found.lock:
                return found.table.view_document(None)
        if found is None:
            return None
        stored = await self.calls(self.store.load_table, table_id)
        if stored is None:
            return None
        try:
            return replay(table_id, from_json(stored.config),
                          stored.actions).view_document(None)
        except ShockError as exc:
            log.error("table %s: could not be read: %s", table_id, exc)
            return None

    async def replace_token(self, table_id: str, seat: str, token: str
                            ) -> tuple[bool, str | None]:
        """Give a table's seat (its number as text) a new token if ``token`` is its current
        one; return whether the table exists, and the new token (``None`` if the token is not
        that seat's: one answer for a wrong token and another seat's). The old token stops
        working at once, on every process, and the connections that hold it are closed.
        Raise :class:`StoreUnavailableError` if the store cannot be asked."""
        found = await self.locate(table_id)
        if found is None:
            return False, None
        new = secrets.token_urlsafe(32)
        if isinstance(found, LiveTable):
            await found.reload_seats()  # another process may have replaced it already
            held = found.seat_of(token)
            if held is None or str(held) != seat:
                return True, None
            await found.replace_token(held, token_hash(new))
            return True, new
        # Another process plays it: the store is changed, which tells that process.
        hashes = await self.calls(self.store.seat_hashes, table_id)
        held = None if hashes is None else seat_of(hashes, token)
        if held is None or str(held) != seat:
            return hashes is not None, None
        await self.calls(self.store.replace_seat_token, table_id, held, token_hash(new))
        return True, new

    async def find(self, table_id: str) -> LiveTable | None:
        """Return the table with this id if this process serves it (it owns it, or it is
        finished), else ``None`` (:meth:`locate` says where it is served)."""
        found = await self.locate(table_id)
        return found if isinstance(found, LiveTable) else None

    async def locate(self, table_id: str) -> LiveTable | Owner | None:
        """Return the table with this id if this process serves it: one it owns, one it takes
        over (no live process holds its lease: it is loaded from the store), or a finished
        one; an :class:`Owner` if another live process owns it (a connection is forwarded
        there); ``None`` if the store has no such table. An id the store did not have is
        remembered as unknown for :data:`UNKNOWN_SECONDS` (a table created meanwhile is
        announced, which forgets it). Raise :class:`StoreUnavailableError` if the store
        cannot be asked."""
        live = self.tables.get(table_id)
        if live is not None or not _TABLE_ID.fullmatch(table_id):
            return live
        now = time.monotonic()
        if self._unknown.get(table_id, now) > now:
            return None
        at = self.leases.clock()
        claim = await self.calls(self.store.claim, table_id, LEASE_SECONDS, GRACE_SECONDS)
        if claim is None:
            self._remember_unknown(table_id, now)
            return None
        if isinstance(claim, Owner):
            return claim
        if claim:  # this process holds its lease now (none did, or it is finished)
            self.leases.taken(at, {table_id}, {table_id})
        live = await self._load_one(table_id)
        if live is None:  # a row that cannot be read: logged once, not at every request
            self._remember_unknown(table_id, now)
        return live

    def _remember_unknown(self, table_id: str, now: float) -> None:
        """Answer ``table_id`` as unknown without asking the store for a while."""
        self._unknown[table_id] = now + UNKNOWN_SECONDS
        self._unknown.move_to_end(table_id)
        while len(self._unknown) > MAX_UNKNOWN:
            self._unknown.popitem(last=False)

    @contextlib.contextmanager
    def forwarding(self, table_id: str) -> Iterator[asyncio.Event]:
        """Note a connection forwarded to the table's owner while the block runs; the event
        is set if this process takes the table over meanwhile (the connection is then closed
        as "try again", and comes back to be served here)."""
        moved = asyncio.Event()
        pipes = self._pipes.setdefault(table_id, set())
        pipes.add(moved)
        try:
            yield moved
        finally:
            pipes.discard(moved)
            if not pipes:
                del self._pipes[table_id]

    async def evict(self, table_id: str, owner: Owner) -> None:
        """End ``owner``'s lease on a table now: nothing listens at its address any more (it
        died), so the table need not wait for its lease to end."""
        log.warning("table %s: its server process at %s is gone; taken over", table_id,
                    owner.address)
        await self.calls(self.store.evict, table_id, owner.holder)

    async def _load_one(self, table_id: str) -> LiveTable | None:
        """Load a table from the store (this process owns it, or it is finished) and let it
        go on."""
        stored = await self.calls(self.store.load_table, table_id)
        if stored is None:
            return None
        if table_id in self.tables:  # loaded meanwhile
            return self.tables[table_id]
        try:
            live = self._live(stored)
        except ShockError as exc:
            log.error("table %s: could not be loaded: %s", table_id, exc)
            return None
        self.tables[table_id] = live
        if not live.is_over:  # (a finished one is only shown: any process may)
            log.info("table %s: played here from now on (loaded from the store)", table_id)
        for moved in self._pipes.get(table_id, ()):  # forwarded to the old owner: come here
            moved.set()
        if live.is_over:
            self._over(live)
        await live.start()
        return live

    async def listen_forever(self) -> None:
        """Take the steps other processes store as they are announced (and load the tables
        they create), until cancelled (a store of one process announces nothing)."""
        while True:
            try:
                async for table_id, step in self.store.notifications():
                    await self._heard(table_id, step)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the store's notifications stopped; listening again")
            await asyncio.sleep(STORE_RETRY_SECONDS)

    async def _heard(self, table_id: str, step: int) -> None:
        try:
            if not table_id:  # notifications were lost: every table catches up
                for each in list(self.tables.values()):
                    await each.catch_up()
                return
            live = self.tables.get(table_id)
            if step == SEATS_CHANGED:  # a seat's token replaced by another process
                if live is not None:
                    await live.reload_seats()
                return
            if live is None:  # another process's: it owns it (this one forwards to it)
                self._unknown.pop(table_id, None)  # created now, if not before
            elif live.table.step < step:
                await live.catch_up()
        except StoreUnavailableError as exc:
            log.warning("table %s: could not catch up: %s", table_id or "(all)", exc)
        except Exception:
            log.exception("table %s: could not catch up", table_id or "(all)")

    async def _take_leases(self, asked: list[str]) -> None:
        """Take or renew the leases on the tables ``asked`` in one store call; let those
        newly held go on (pending chance, bots), and let those another process took over go
        (their connections connect again, through it)."""
        if not asked:
            return
        at = self.leases.clock()
        held = await self.calls(self.store.lease, asked, LEASE_SECONDS)
        for table_id in self.leases.taken(at, held, asked):
            live = self.tables.get(table_id)
            if live is not None:
                try:
                    await live.start()
                except Exception:
                    live.failed = True
                    log.exception("table %s: could not be resumed", live.id)
        for table_id in asked:
            live = self.tables.get(table_id)
            if table_id not in held and live is not None and not live.is_over:
                log.warning("table %s: taken over by another server process", table_id)
                del self.tables[table_id]
                live.disown()

    async def keep_leases_forever(self) -> None:
        """Every :attr:`lease_every` seconds, renew this process's leases in one store call,
        then take over the tables no live process owns (their owner died or hangs: they are
        loaded from the store and go on here), until cancelled."""
        while True:
            await asyncio.sleep(self.lease_every)
            try:
                await self._take_leases([t.id for t in self.tables.values() if t.wants_lease])
                for table_id in await self.calls(self.store.unleased, ORPHANS_AT_ONCE,
                                                 GRACE_SECONDS):
                    # (one that could not be read is tried again after a while)
                    if self._unknown.get(table_id, 0.0) <= time.monotonic():
                        await self.locate(table_id)
                hosts = {_host_of(a) for a in await self.calls(self.store.peers)}
                self.peer_hosts.clear()  # in place: the connection guard holds this set
                self.peer_hosts.update(hosts)
            except StoreUnavailableError as exc:
                # The leases held run out by themselves: this process's bots stop with them.
                log.warning("the tables' leases could not be renewed: %s", exc)
            except Exception:
                log.exception("the tables' leases could not be renewed")

    async def sweep(self) -> list[str]:
        """Note the tables with a seat connected as active now (in the store too: a server
        killed and restarted counts from there), then :meth:`expire`."""
        now = self._clock()
        seated = {}
        for live in self.tables.values():
            if live.seated and not live.is_over:
                live.active = seated[live.id] = now
        await self._mark(seated)
        return await self.expire()

    async def sweep_forever(self) -> None:
        """:meth:`sweep` every :attr:`check_every` seconds, until cancelled."""
        while True:
            await asyncio.sleep(self.check_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("the abandoned tables could not be swept")

    async def load(self) -> None:
        """Rebuild every stored table from its actions; a table that fails to rebuild is
        logged and left out, the others load. Finished tables beyond :attr:`max_finished` are
        dropped, the oldest first, and abandoned ones (by their stored last activity; one
        stored without it counts from now)."""
        before = self.dropped
        unknown: dict[str, float] = {}
        self.peer_secret = await self.calls(self.store.peer_secret)
        for stored in await self.calls(self.store.load_tables):
            try:
                live = self.tables[stored.id] = self._live(stored)
            except ShockError as exc:  # a row this server would not have written: one line
                log.error("table %s: could not be restored: %s", stored.id, exc)
            except Exception:
                log.exception("table %s: could not be restored", stored.id)
            else:
                if stored.active is None:
                    unknown[stored.id] = live.active
                if live.is_over:  # in the order they were created: the oldest dropped first
                    self._over(live)
        if (dropped := self.dropped - before) > 0:
            log.info("dropped %d finished tables, beyond the %d kept", dropped,
                     self.max_finished)
        if expired := await self.expire(log_each=False):
            log.info("deleted %d abandoned tables: %s", len(expired), self._idle_text())
        await self._mark({k: v for k, v in unknown.items() if k in self.tables})

    async def start(self) -> None:
        """Take the leases of the loaded tables that no other process holds, and let them go
        on (pending chance, bots); those another process holds are let go."""
        try:
            await self._take_leases([t.id for t in self.tables.values() if t.wants_lease])
        except StoreUnavailableError as exc:  # the leases are asked again every second
            log.warning("the tables' leases could not be taken: %s", exc)

    async def stop(self) -> None:
        """Store the activity of the tables with a seat connected, stop every table's bots and
        close the connections' writers."""
        now = self._clock()
        await self._mark({t.id: now for t in self.tables.values()
                          if t.seated and not t.is_over})
        for live in self.tables.values():
            await live.stop()
            for conn in list(live.connections):
                conn.queue.put_nowait(None)
        await self.thinker.close()  # the bots are stopped: the workers may go

    def open_tables(self) -> int:
        """Return how many tables this process plays that are not over."""
        return sum(1 for t in self.tables.values() if not t.is_over)

    async def client_tables(self, client: str) -> int:
        """Return how many unfinished tables the client address ``client`` created, on every
        process sharing the store."""
        return await self.calls(self.store.creator_tables, self.creator_key(client))

    async def _check_rate(self, client: str) -> None:
        """Take a token of ``client``'s bucket of tables a minute (:attr:`tables_per_minute`,
        in bursts of as many) that every process sharing the store takes from; raise
        :class:`CreationRateError` if there is none."""
        if self.tables_per_minute is None:
            return
        rate = self.tables_per_minute
        wait = await self.calls(self.store.take, "tables " + self.creator_key(client),
                                rate / 60, rate)
        if wait > 0:
            raise CreationRateError(
                f"more than {rate:g} tables a minute from this address, on all of this"
                f" server's processes: try again in {max(1, math.ceil(wait))} s",
                retry_after=max(1, math.ceil(wait)))

    def creator_key(self, client: str) -> str:
        """Return the key the store counts ``client``'s tables by: a keyed hash of its address
        (HMAC-SHA-256 with the processes' secret), never the address."""
        return hmac.new(self.peer_secret.encode(), client.encode("utf-8", "replace"),
                        "sha256").hexdigest()[:32]

    def client_mcts_tables(self, client: str) -> int:
        """Return how many unfinished tables with an MCTS bot ``client`` created."""
        return sum(1 for t in self.tables.values() if t.client == client and not t.is_over
                   and any(is_mcts(n) for n in t.bot_names.values()))

    def share(self, client: str) -> int | None:
        """Return the unfinished tables ``client`` may hold at most to create one more now,
        or ``None`` (only :attr:`max_client_tables`) while one more leaves at most half of
        :attr:`max_tables` in use. Beyond half, an address's share is half of
        :attr:`max_tables` divided among the addresses holding unfinished tables (``client``
        among them; an address alone has no share to keep to): the second half of the server
        goes to the addresses that hold few. (Tables loaded from the store count as in use,
        for no address.)"""
        if 2 * (self.open_tables() + 1) <= self.max_tables:
            return None
        holders = {t.client for t in self.tables.values()
                   if t.client is not None and not t.is_over} | {client}
        if len(holders) == 1:
            return None
        return max(1, self.max_tables // 2 // len(holders))

    async def _check_client(self, client: str, mcts: bool) -> None:
        """Raise :class:`ClientLimitError` if ``client`` may not create one more table now
        (:class:`BotLimitError` for one more with an MCTS bot)."""
        held = await self.client_tables(client)
        if held >= self.max_client_tables:
            raise ClientLimitError(
                f"this client address has {self.max_client_tables} unfinished tables already:"
                f" finish one first, or wait until one is deleted ({self._idle_text()})")
        share = self.share(client)
        if share is not None and held >= share:
            raise ClientLimitError(
                f"the server is busy, and this client address has {held} unfinished tables,"
                f" its share of the server now ({share}): finish one first, or try again"
                " later")
        if mcts and self.client_mcts_tables(client) >= self.max_client_mcts:
            raise BotLimitError(
                f"this client address has {self.max_client_mcts} unfinished tables with an"
                " MCTS bot already: finish one first, or choose other bots")

    async def listing(self, limit: int = MAX_LISTED,
                      per_address: int = MAX_LISTED_PER_ADDRESS) -> list[dict[str, object]]:
        """Return the listed tables a newcomer may watch, of every process sharing the store
        (read from it: its :data:`LISTING_ROWS` latest active), ``limit`` at most and
        ``per_address`` at most of one creator address (a table whose creator is unknown
        counts alone), tables with person seats before bot-only ones, then the latest activity
        first: for each, what its spectator view shows anyway (players, variant, round, phase,
        whether it is over) and which seats are bots; never a token, a seed or an address.
        A table this process plays is shown as it is now; another's, as its owner last wrote
        it (:meth:`summarize_forever`: a second or two ago)."""
        rows = await self.calls(self.store.listed, LISTING_ROWS)
        entries: list[Listed] = []
        for row in rows:
            live = self.tables.get(row.id)
            if live is not None:
                if live.listed and not live.dropped:
                    entries.append(_listed(live))
                continue
            entry = Listed.read(row)
            if entry is not None:
                entries.append(entry)

        def rank(t: Listed) -> tuple[bool, float]:
            return t.persons > 0, t.active

        # Heaps, not sorts: a thousand rows cost a pass, not a sort, per request. Each
        # creator keeps its best ``per_address`` (the counter breaks ties: no entry compared).
        count = itertools.count()
        best: dict[str, list[tuple[tuple[bool, float], int, Listed]]] = {}
        alone: list[Listed] = []
        for t in entries:
            if t.creator is None:
                alone.append(t)
                continue
            heap = best.setdefault(t.creator, [])
            item = (rank(t), next(count), t)
            if len(heap) < per_address:
                heapq.heappush(heap, item)
            else:
                heapq.heappushpop(heap, item)
        kept = itertools.chain(alone, (t for heap in best.values() for _, _, t in heap))
        now = self._clock()
        return [t.document(now) for t in heapq.nlargest(limit, kept, key=rank)]

    async def summarize(self) -> None:
        """Write what the lobby shows of the tables this process plays (round, phase, seats
        connected, whether over), for those that changed since last written, in one store
        call: the other processes' lobbies read it."""
        changed: dict[str, Summary] = {}
        for live in self.tables.values():
            summary = live.summary()
            if self._summaries.get(live.id) != summary:
                changed[live.id] = summary
        if changed:
            await self.calls(self.store.summarize, changed)
            self._summaries.update(changed)
        for gone in [t for t in self._summaries if t not in self.tables]:
            del self._summaries[gone]

    async def summarize_forever(self) -> None:
        """:meth:`summarize` every :data:`SUMMARY_SECONDS`, until cancelled."""
        while True:
            await asyncio.sleep(SUMMARY_SECONDS)
            try:
                await self.summarize()
            except StoreUnavailableError as exc:
                log.warning("the lobby's summaries were not written: %s", exc)
            except Exception:
                log.exception("the lobby's summaries could not be written")

    async def create(self, players: int, variant: str | None, bots: object,
                     client: str | None = None, *, listed: bool = True,
                     game: str = "shock") -> tuple[str, dict[int, str]]:
        """Create, store and start a table of ``game`` (``"shock"`` or ``"melvin"``; only
        Shock! has a ``variant``, ``None`` for its default) for the client address ``client``
        (``None``: no per-address limit), shown in the lobby's list if ``listed``; return its
        id and each human seat's token."""
        if game not in games.names():
            raise RequestError(f"game: expected {' or '.join(games.names())}, not"
                               f" {str(game)[:20]!r}")
        played = games.get(game)
        if game != "shock" and variant is not None:
            raise RequestError(f"variant: {played.title} has no variant")
        try:
            options = {"variant": Variant(variant or "standard")} if game == "shock" else {}
            config = played.config(players=players, **options)
        except (ValueError, ShockError) as exc:
            raise RequestError(str(exc)) from None
        bot_seats = read_bots(players, bots, game=game)
        mcts = sum(1 for name in bot_seats.values() if is_mcts(name))
        if mcts > self.max_table_mcts:
            raise RequestError(
                f"bots: at most {self.max_table_mcts} MCTS bot{'s' * (self.max_table_mcts != 1)}"
                f" a table on this server, not {mcts} (the other seats may be heuristic bots)")
        # One creation at a time: the limits below count the tables stored before it.
        async with self._creating:
            return await self._create(config, game, players, bot_seats, mcts, client, listed)

    async def _create(self, config: Any, game: str, players: int, bot_seats: dict[int, str],
                      mcts: int, client: str | None, listed: bool
                      ) -> tuple[str, dict[int, str]]:
        # One address may not take the whole server (nor keep it full by creating again as
        # its tables expire): its own unfinished tables are counted first, abandoned ones gone.
        creator = None if client is None else self.creator_key(client)
        if client is not None:
            try:
                await self._check_client(client, mcts > 0)
            except ClientLimitError:
                if not await self.expire():
                    raise
                await self._check_client(client, mcts > 0)
        if self.open_tables() >= self.max_tables and (
                not await self.expire() or self.open_tables() >= self.max_tables):
            raise TableLimitError(f"the server has {self.max_tables} unfinished tables already:"
                                  " try again later")
        if client is not None:  # last: a table refused for another reason takes no token
            await self._check_rate(client)
        tokens = {s: secrets.token_urlsafe(32) for s in range(players) if s not in bot_seats}
        table_id = secrets.token_urlsafe(9)
        while table_id in self.tables:  # pragma: no cover - 72 random bits
            table_id = secrets.token_urlsafe(9)
        stored = StoredTable(id=table_id, config=to_json(config), bots=bot_seats,
                             seats={s: token_hash(t) for s, t in tokens.items()},
                             seed=secrets.token_hex(16), created=time.time(),
                             listed=listed, creator=creator)
        # Built (its bots made) before it is stored: a table that cannot be made leaves no row.
        live = self._live(stored)
        live.client = client
        await self.calls(self.store.create_table, stored)
        self.tables[table_id] = live
        log.info("table %s: created, %s, %d players, %d bots", table_id, game, players,
                 len(bot_seats))
        try:
            await self._take_leases([table_id])  # this process owns it: it deals, and so on
        except StoreUnavailableError as exc:  # asked again within a second
            log.warning("table %s: its lease could not be taken: %s", table_id, exc)
        return table_id, tokens
