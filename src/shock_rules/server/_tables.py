"""The server's tables: each a protocol :class:`~shock_rules.protocol.Table` with its seats'
tokens, its bots, its connections and its stored actions; no web framework here."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import heapq
import hmac
import itertools
import json
import logging
import math
import random
import re
import secrets
import time
import urllib.parse
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, Final

import attrs

from .. import games
from .._documents import from_json, to_json
from .._errors import InvalidArgumentError, InvalidStateError, ShockError
from .._json import SCHEMA
from .._rules.config import Variant
from ..bots import Bot, make_bot
from ..games import AnyGame, RealTimeBot
from ..protocol import (
    MAX_MCTS_ITERATIONS,
    BadSeatError,
    ClaimLimit,
    FairnessPolicy,
    RaceJudge,
    RequestError,
    RoundTrip,
    StaleStepError,
    Table,
    UnavailableError,
    draw_rng,
    error_document,
    read_bots,
    read_frame,
)
from ..protocol import Arrival as RaceArrival
from ._calls import DEFAULT_DEADLINE, StoreCalls
from ._leases import GRACE_SECONDS, LEASE_SECONDS, RENEW_SECONDS, Leases, Owner
from ._lobby import Listed, Summary
from ._rows import UNAVAILABLE, StoreDeadlineError
from ._store import (
    SEATS_CHANGED,
    StepTakenError,
    Store,
    StoredAction,
    StoredTable,
    StoreUnavailableError,
    token_hash,
)
from ._thinking import DEFAULT_WORKERS, Thinker, ThinkingError, is_mcts

__all__ = [
    "MAX_LISTED",
    "MAX_MCTS_ITERATIONS",
    "BotLimitError",
    "ClientLimitError",
    "Connection",
    "Hub",
    "LiveTable",
    "RequestError",
    "TableLimitError",
    "draw_rng",
    "read_bots",
]

log = logging.getLogger("shock_rules.server")

#: A table id as the hub makes them (``secrets.token_urlsafe(9)``): anything else is no table.
_TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{12}")
#: Seconds a table's bots wait before trying again while the store cannot be reached.
STORE_RETRY_SECONDS: Final = 1.0
#: Seconds a table's MCTS bot waits before asking again when its decision could not be made
#: (the worker died on every try: killed by the system short of memory, say), and how many
#: such failures in a row stop the table: a passing fault costs a pause, not the table; a
#: decision that kills every worker it meets does not loop for ever.
THINK_RETRY_SECONDS: Final = 5.0
THINK_FAILURES: Final = 3
#: The pacing's jitter (not a secret, and not part of any game: no seed needed).
_JITTER: Final = random.Random()
#: Frames waiting for a connection that does not read them: past this, it is closed.
MAX_QUEUED_FRAMES: Final = 512
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
#: The ``--bot-delay`` at which a real-time game's bots (Melvin's) act after their own
#: reaction time (``bot.reaction``); another delay scales every reaction alike (0: at once, in
#: the order of their reaction times).
REACTION_PACE: Final = 0.6
#: Claims (slaps) a second one seat may make, and the seconds a seat over it may not claim.
DEFAULT_CLAIMS_PER_SECOND: Final = 3.0
DEFAULT_CLAIM_COOLDOWN: Final = 2.0
#: Seconds an id the store did not have is answered as unknown without asking it again, and
#: how many such ids are remembered at most (the oldest forgotten first).
UNKNOWN_SECONDS: Final = 10.0
MAX_UNKNOWN: Final = 10_000
#: Tables no live process owns that one process takes over in one second at most (a process
#: that died leaves many: the survivors share them, a second's worth each at a time).
ORPHANS_AT_ONCE: Final = 50
#: The margin past a race's deadline at which the table settles it (the event loop's timers
#: may fire a little early).
_TIMER_SLACK: Final = 0.001


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





@attrs.define(eq=False)
class Connection:
    """One WebSocket client of a table: its seat (``None``: a spectator), the last step it was
    told about and the frames waiting to be sent to it."""

    seat: int | None
    seen: int = -1
    queue: asyncio.Queue[str | None] = attrs.field(factory=asyncio.Queue)
    #: Set when the connection must be closed (it stopped reading its frames).
    overflow: bool = False
    #: Whether the connection may answer its latest view whatever its message rate: a client
    #: that plays as fast as the bots is never too fast.
    answer: bool = False
    #: Set when its table was dropped (a finished table past the server's limit): the writer
    #: closes the connection as it would for an unknown table.
    gone: bool = False
    #: The hash of the token its hello gave (``None``: a spectator): when the seat's token is
    #: replaced, the connections holding the old one are closed.
    key: str | None = None
    #: Set when the seat's token it holds was replaced: the writer closes it (4401).
    revoked: bool = False
    #: Set when another server process took the table over (this one lost its lease): the
    #: writer closes it as "try again" (1013), and the client's next connection is served
    #: through the new owner.
    moved: bool = False
    #: The round trip of a seat's connection to a real-time table, from the server's pings
    #: (``None``: not pinged).
    round_trip: RoundTrip | None = None

    @property
    def rtt(self) -> float | None:
        """The connection's round trip in seconds, or ``None`` while unknown."""
        return None if self.round_trip is None else self.round_trip.estimate

    def send(self, frame: str) -> None:
        """Queue a frame (the connection's writer sends it)."""
        if self.queue.qsize() >= MAX_QUEUED_FRAMES:
            self.overflow = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(frame)


class LiveTable:
    """A table being played: its protocol table, its seats' token hashes, its bots, the
    connections watching it; every change is stored before anyone hears of it."""

    def __init__(self, stored: StoredTable, calls: StoreCalls, leases: Leases, *,
                 bot_delay: float, thinker: Thinker,
                 on_over: Callable[[LiveTable], None] | None = None,
                 clock: Callable[[], float] = time.time,
                 fairness: FairnessPolicy | None = None,
                 claims: tuple[float, float] = (DEFAULT_CLAIMS_PER_SECOND,
                                                DEFAULT_CLAIM_COOLDOWN),
                 race_clock: Callable[[], float] = time.monotonic) -> None:
        config = from_json(stored.config)
        game = next((games.get(n) for n in games.names()
                     if isinstance(config, games.get(n).config_type)), None)
        if game is None:
            raise InvalidStateError(f"table {stored.id}: the stored config is not a config")
        self.id = stored.id
        #: The game the table plays (:mod:`shock_rules.games`).
        self.game: AnyGame = game
        self.config: Any = config
        #: The store (every table code's store call goes through ``self._calls``: off the
        #: event loop, with a deadline).
        self._store: Store = calls.store
        self._calls = calls
        #: The leases of this process: its bots play only while it holds the table's.
        self._leases = leases
        self._seed = stored.seed
        self._hashes = dict(stored.seats)
        self.bot_names = dict(stored.bots)
        #: Whether the lobby's list of tables shows it (its creator's choice, stored).
        self.listed = stored.listed
        self._bots: dict[int, Bot] = {s: make_bot(n, game) for s, n in stored.bots.items()}
        self._bot_delay = bot_delay
        #: A real-time game's races: the order of the actions that arrive (lag compensation),
        #: each seat's rate of claims, the server's monotonic clock they are timed by.
        self._judge = RaceJudge(game, fairness)
        self._claims = ClaimLimit(*claims)
        self._race_clock = race_clock
        self._race_timer: asyncio.TimerHandle | None = None
        self._settling: asyncio.Task[None] | None = None
        #: Set (and replaced) at every change a real-time game's bots must see.
        self._changed = asyncio.Event()
        #: The server's queue of MCTS decisions (its worker processes make them).
        self._thinker = thinker
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self._task: asyncio.Task[None] | None = None
        #: Catching up with the store after a write whose outcome is unknown.
        self._rechecking: asyncio.Task[None] | None = None
        #: Set when the table cannot go on (a bot failed, the store refused an action).
        self.failed = False
        #: Set when the server dropped the table (finished, past its limit of those it keeps).
        self.dropped = False
        #: Called once the action that ends the game is stored.
        self._on_over = on_over
        self._clock = clock
        #: The last activity (``clock()``): an action stored, a seat connected until then.
        self.active = stored.active if stored.active is not None else clock()
        #: When the table was created (``clock()``; the lobby shows its age).
        self.created = stored.created
        #: Set when the server is shutting down (its store is about to close).
        self.stopped = False
        #: The client address that created the table (:func:`~shock_rules.server._app.client_key`),
        #: or ``None`` for a table loaded from the store: kept in memory only (the limit of
        #: MCTS tables per address, the server's shares), never written to the store.
        self.client: str | None = None
        #: The creator's key (:meth:`Hub.creator_key`: a keyed hash of its address, stored
        #: with the table until it is over, for the limits that hold across processes and the
        #: lobby's per-creator share), or ``None`` if unknown.
        self.creator = stored.creator
        #: Every action in the store, in step order (to go back to after a failed write).
        self._stored = list(stored.actions)
        self.table = self._replay(stored.actions)

    def _replay(self, actions: tuple[StoredAction, ...]) -> Table:
        return replay(self.id, self.config, actions)

    @property
    def is_over(self) -> bool:
        """Whether the game is over."""
        return self.table.is_over

    def seat_of(self, token: str) -> int | None:
        """Return the seat whose token this is, or ``None`` (:func:`seat_of`)."""
        return seat_of(self._hashes, token)

    # -- changes -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Resolve any pending chance and let the bots play (after a restart too)."""
        async with self.lock:
            try:
                await self._settle()
            except StoreUnavailableError as exc:  # not the table's fault: a later catch-up
                log.warning("table %s: %s; it goes on later", self.id, exc)
            self._broadcast()
            self._kick()

    async def _settle(self) -> None:
        """Resolve and store pending chance; if another process stored it first, take its
        steps instead (they are the same: chance comes from the table's seed and step)."""
        try:
            await self._keep(self._resolve())
        except StepTakenError:
            await self._catch_up()
            await self._keep(self._resolve())

    async def _take_theirs(self) -> bool:
        """After :class:`StepTakenError`: take the steps stored first (by another process,
        or by this one in a call whose answer was lost), and any chance after them; return
        ``False`` (logged) if the store cannot be reached now, the table then staying at its
        last stored step until a later catch-up."""
        try:
            await self._catch_up()
            await self._settle()
        except StoreUnavailableError as exc:
            log.warning("table %s: %s; it catches up later", self.id, exc)
            return False
        return True

    async def catch_up(self) -> None:
        """Take the steps other server processes stored for this table, tell every
        connection, and let the bots go on (a notification said there are some)."""
        async with self.lock:
            if await self._catch_up():
                await self._take_theirs()
                self._broadcast()
            self._kick()

    async def _catch_up(self) -> bool:
        """Apply the actions stored after this table's step (by other processes, or by a call
        of this one whose answer was lost); return whether there were any. Call with the lock
        held."""
        if self.dropped:
            return False
        newer = await self._calls(self._store.actions_since, self.id, self.table.step)
        if newer and newer[0].step < self.table.step:
            # Read past a step this table took meanwhile: the store answers from the step
            # asked, which it has already.
            newer = [a for a in newer if a.step >= self.table.step]
        for a in newer:
            if a.step != self.table.step:
                raise InvalidStateError(
                    f"table {self.id}: stored action at step {a.step}, expected {self.table.step}")
            if a.seat is None:
                self.table.chance(a.action)
            else:
                self.table.act(a.seat, a.action)
        if newer:
            self._kept(newer)
        return bool(newer)

    async def act(self, conn: Connection, text: str, at: float | None = None
                  ) -> dict[str, object] | None:
        """Apply the action in a client's message for its seat; return the error document
        to send back, or ``None`` when it was applied (and broadcast). In a real-time game
        the action arrived at ``at`` (the race clock's time, by default now) goes to the
        table's race judge, and its answer, if any, is sent to ``conn`` when it is judged."""
        if at is None:
            at = self._race_clock()
        async with self.lock:
            try:
                action, sent = read_frame(text, self.game)
                if conn.seat is None:
                    return error_document(_spectator_error(), self.table.step)
                if self.failed:  # logged when it failed
                    return error_document(RuntimeError(), self.table.step)
                if self.game.simultaneous:
                    return await self._arrive(conn.seat, action, sent, at, conn)
                self.table.check_step(action, sent)
                await self._apply(conn.seat, action)
            except StepTakenError:
                # Another process stored this step first: its step is now this table's, and
                # every connection hears of it; this seat decides again.
                step = self.table.step
                await self._take_theirs()
                self._broadcast()
                self._kick()
                return error_document(StaleStepError(
                    f"another action was taken at step {step} first: decide again on the"
                    " current view", sent=step, current=self.table.step), self.table.step)
            except StoreDeadlineError as exc:  # its message names no database
                return error_document(exc, self.table.step)
            except StoreUnavailableError:  # nothing applied: the seat may send it again
                return error_document(UnavailableError(UNAVAILABLE), self.table.step)
            except ShockError as exc:
                return error_document(exc, self.table.step)
            except Exception:
                log.exception("table %s: a message failed", self.id)
                return error_document(RuntimeError(), self.table.step)
            self._broadcast()
            self._kick()
            return None

    async def _apply(self, seat: int, action: Any, decided: int | None = None) -> None:
        """Apply an action of ``seat`` (decided on the view of step ``decided``, in a
        real-time game; raising, unchanged, if it is not legal), resolve the chance steps it
        leads to, and store them all before anyone hears of them."""
        step = self.table.step
        self.table.act(seat, action, step=decided)
        await self._keep([StoredAction(step, seat, str(action)), *self._resolve()])

    # -- a real-time game's races ----------------------------------------------------------

    async def _arrive(self, seat: int, action: Any, sent: int | None, at: float,
                conn: Connection | None) -> dict[str, object] | None:
        """Hand an action of a real-time game to the race judge (a claim over the seat's rate
        first), then apply what it gives back; return the error document of a claim refused
        as too fast (every other answer goes to ``conn`` when its action is judged). Call
        with the lock held."""
        if conn is not None and self.game.is_claim(action):
            until = self._claims.take(seat, at)
            if until is not None:
                claims = self._claims
                return {"schema": SCHEMA, "type": "error", "code": "too_fast",
                        "message": f"more than {claims.per_second:g} slaps a second: this seat"
                        f" may not slap for {max(0.0, until - at):.1f} s"
                        f" ({claims.cooldown:g} s from the first slap over the limit)",
                        "step": self.table.step}
        rtt = 0.0 if conn is None else conn.rtt
        self._judge.arrive(self.table, seat, action, sent, at, rtt=rtt, reply=conn)
        await self._settle_races()
        return None

    async def _settle_races(self) -> None:
        """Apply the actions the race judge gives back now, each answered to its connection
        when refused, and set a timer for its next deadline. Call with the lock held."""
        while (arrival := self._judge.next(self.table, self._race_clock())) is not None:
            error = await self._judged(arrival)
            reply = arrival.reply
            if error is not None and isinstance(reply, Connection):
                reply.send(json.dumps(error, separators=(",", ":")))
        self._time_races()

    async def _judged(self, arrival: RaceArrival) -> dict[str, object] | None:
        """Apply one action the judge gave back, broadcast what it changed; return the error
        document of one refused."""
        for attempt in range(2):
            try:
                await self._apply(arrival.seat, arrival.action, arrival.step)
            except StepTakenError:
                # Another process stored a step of this table first: take it (every
                # connection hears of it), then judge the action on the state it meets.
                await self._take_theirs()
                self._broadcast()
                if attempt:
                    return error_document(StaleStepError(
                        "another action was taken first: decide again on the current view",
                        sent=self.table.step, current=self.table.step), self.table.step)
                continue
            except StoreDeadlineError as exc:  # its message names no database
                return error_document(exc, self.table.step)
            except StoreUnavailableError:  # nothing applied: the seat may send it again
                return error_document(UnavailableError(UNAVAILABLE), self.table.step)
            except ShockError as exc:
                return error_document(exc, self.table.step)
            except Exception:
                log.exception("table %s: an action failed", self.id)
                return error_document(RuntimeError(), self.table.step)
            self._broadcast()
            self._kick()
            return None
        return None  # pragma: no cover - the loop returns

    def _time_races(self) -> None:
        """Set the timer that settles the race held open, at its deadline (none: no timer)."""
        if self._race_timer is not None:
            self._race_timer.cancel()
            self._race_timer = None
        deadline = self._judge.deadline(self.table)
        if deadline is None or self.stopped or self.dropped:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, deadline - self._race_clock()) + _TIMER_SLACK
        self._race_timer = loop.call_later(delay, self._race_due)

    def _race_due(self) -> None:
        self._race_timer = None
        self._settling = asyncio.get_running_loop().create_task(self._settle_later())

    async def _settle_later(self) -> None:
        async with self.lock:
            try:
                await self._settle_races()
            except Exception:
                log.exception("table %s: a race could not be settled", self.id)

    def pong(self, conn: Connection, ident: object, at: float) -> bool:
        """Note a seat's connection's answer to a ping (its round trip); return whether it
        answered one."""
        if conn.round_trip is None or not conn.round_trip.pong(ident, at):
            return False
        if conn.seat is not None:
            known = [c.rtt for c in self.connections if c.seat == conn.seat and c.rtt is not None]
            self._judge.round_trip(conn.seat, max(known, default=None))
        return True

    def _resolve(self) -> list[StoredAction]:
        """Resolve chance (each outcome drawn from the seed and its step); return the steps
        taken."""
        return [StoredAction(step, None, str(outcome))
                for step, outcome in self.table.resolve(self._seed)]

    async def _keep(self, actions: list[StoredAction]) -> None:
        """Store actions the table has applied; if the store refuses them, put the table back
        at its last stored step, and stop it (a restarted server resumes it from there)."""
        if not actions:
            return
        try:
            await self._write(actions)
        except StepTakenError:
            # Not the table's fault: another process took the step. Back to the last stored
            # step; the caller decides what follows.
            self.table = self._replay(tuple(self._stored))
            raise
        except StoreUnavailableError:
            # The database is away for a moment, or did not answer in time: back to the last
            # stored step. The write may still have been done (its answer lost, or done after
            # the deadline): the table reads the store again once it answers.
            self.table = self._replay(tuple(self._stored))
            self._recheck_later()
            raise
        except asyncio.CancelledError:
            raise
        except BaseException:
            self.failed = True
            self.table = self._replay(tuple(self._stored))
            raise
        self._kept(actions)
        if self.table.is_over:
            # Stored as over before anyone hears of the end: the limits per address, which
            # count unfinished tables in the store, count it no more from then on.
            try:
                await self._calls(self._store.summarize, {self.id: self.summary()})
            except StoreUnavailableError as exc:  # the lobby's next summaries store it
                log.warning("table %s: its end was not stored for the lobby: %s", self.id, exc)

    async def _write(self, actions: list[StoredAction]) -> None:
        """Store actions: on the loop for a store whose calls are local and short, else
        awaited on the loop (with the store's deadline). Cancelled meanwhile (the server
        stopping), a write under way is let end first (within the deadline), and the table
        with it."""
        if self._calls.inline:  # on the loop: done or failed, never cut halfway
            self._store.append_actions(self.id, actions)
            return
        write = asyncio.ensure_future(self._calls.append_actions(self.id, actions))
        try:
            await asyncio.shield(write)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await write
            if write.cancelled() or write.exception() is not None:
                self.table = self._replay(tuple(self._stored))
            else:
                self._kept(actions)
            raise

    def _recheck_later(self) -> None:
        """Catch up with the store once it answers again (a write whose outcome is unknown
        may have been done: then its steps are taken, and heard of, as another's would be)."""
        if self._rechecking is None or self._rechecking.done():
            self._rechecking = asyncio.get_running_loop().create_task(self._recheck())

    async def _recheck(self) -> None:
        while not (self.dropped or self.stopped):
            await asyncio.sleep(STORE_RETRY_SECONDS)
            try:
                await self.catch_up()
                return
            except StoreUnavailableError:
                continue
            except Exception:
                log.exception("table %s: could not catch up with the store", self.id)
                return

    def _kept(self, actions: list[StoredAction]) -> None:
        """Note actions as stored (by this process or another)."""
        self._stored += actions
        self.active = self._clock()
        if self.table.is_over:
            # Nothing is stored after the end: no step to go back to, no bot to ask. (A
            # finished table is kept, to be seen, for as long as the server keeps finished
            # ones: as small as it can be.)
            self._stored, self._bots = [], {}
            self._release()
            if self._on_over is not None:
                on_over, self._on_over = self._on_over, None
                on_over(self)

    def _kick(self) -> None:
        if self.game.simultaneous:
            if (self._bots and not self.failed and not self.stopped and not self.is_over
                    and (self._task is None or self._task.done()) and self._lease()):
                self._task = asyncio.get_running_loop().create_task(self._race_bots())
            return
        seat = self.table.to_act
        if (seat in self._bots and not self.failed and not self.stopped
                and (self._task is None or self._task.done()) and self._lease()):
            self._task = asyncio.get_running_loop().create_task(self._run_bots())

    @property
    def wants_lease(self) -> bool:
        """Whether the table is still played here: unfinished, not dropped (its lease makes
        this process its owner: the one that applies its steps and runs its bots)."""
        return not (self.is_over or self.dropped or self.stopped)

    def _lease(self) -> bool:
        """Whether this process may run the table's bots: only while it holds the table's
        lease (one process at a time; another takes it over when its holder dies or hangs:
        :mod:`~shock_rules.server._leases`). Asked of memory only: the hub renews the leases
        in the background, all in one call."""
        return self._leases.holds(self.id)

    def _release(self) -> None:
        """Give the table's lease back (the game is over, or the table dropped), in the
        background: a lease not given back ends by itself."""
        if self._leases.holds(self.id):
            self._leases.forget(self.id)
            _background(self._calls(self._store.release_lease, self.id),
                        f"table {self.id}: its lease could not be given back")

    async def _run_bots(self) -> None:
        failures = 0  # decisions in a row that the bot workers could not make
        try:
            while True:
                async with self.lock:
                    seat = self.table.to_act
                    bot = None if seat is None else self._bots.get(seat)
                    if seat is None or bot is None or self.failed or not self._lease():
                        return  # (a lease lost: the process holding it now plays)
                    step = self.table.step
                    view = self.table.view(seat)
                if self._bot_delay > 0:
                    # A little jitter, as a person's pace would have (and tables started
                    # together do not stay in step); the bot's decision does not depend on it.
                    await asyncio.sleep(self._bot_delay * _JITTER.uniform(0.75, 1.25))
                rng = draw_rng(self._seed, step, "bot")  # as Table.bot_action draws it
                name = self.bot_names[seat]
                if is_mcts(name):
                    # MCTS thinks for a tenth of a second or more: in a worker process, in
                    # its turn with every other table's (a thread would hold the GIL against
                    # the event loop). The others decide in tens of microseconds, here.
                    try:
                        action = await self._thinker.decide(self.client, self.id, name, view,
                                                            rng)
                    except ThinkingError as exc:
                        if self.stopped or self._thinker.closed:
                            return  # the server is shutting down
                        failures += 1
                        if failures >= THINK_FAILURES:
                            raise
                        log.warning("table %s: %s; its bot tries again in %g s", self.id, exc,
                                    THINK_RETRY_SECONDS)
                        await asyncio.sleep(THINK_RETRY_SECONDS)
                        continue
                    failures = 0
                else:
                    action = bot.choose(view, rng)
                    await asyncio.sleep(0)  # let the other tables and connections in
                async with self.lock:
                    if self.table.step != step:
                        continue
                    try:
                        await self._apply(seat, action)
                        unavailable = False
                    except StepTakenError:  # another process played this step: take it
                        unavailable = not await self._take_theirs()
                    except StoreUnavailableError as exc:
                        log.warning("table %s: %s; its bots wait", self.id, exc)
                        unavailable = True
                    self._broadcast()
                if unavailable:
                    await asyncio.sleep(STORE_RETRY_SECONDS)
        except asyncio.CancelledError:
            raise
        except Exception:
            self.failed = True
            log.exception("table %s: its bots stopped", self.id)

    async def _race_bots(self) -> None:
        """Play a real-time game's bots: at each change every bot seat that may act decides
        on its view (its generator drawn from the seed, the step and the seat, so a table
        rebuilt after a restart decides the same), and each action goes to the race judge
        after the bot's reaction time (paced by the bot delay) unless the table moved on
        first; then every bot decides again. The task ends when no bot has anything to do."""
        pace = self._bot_delay / REACTION_PACE
        try:
            while True:
                async with self.lock:
                    if self.failed or self.stopped or self.is_over or not self._lease():
                        return
                    step, changed = self.table.step, self._changed
                    plans = self._bot_plans()
                    start = self._race_clock()
                if not plans:
                    return
                for reaction, seat, action in plans:
                    wait = start + reaction * pace - self._race_clock()
                    if wait > 0:
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(changed.wait(), wait)
                    else:
                        await asyncio.sleep(0)  # let the other tables and connections in
                    async with self.lock:
                        if self.table.step != step or self.failed or self.stopped:
                            break
                        await self._arrive(seat, action, step, self._race_clock(), None)
                else:
                    await changed.wait()  # held by the judge, or refused: the next change
        except asyncio.CancelledError:
            raise
        except Exception:
            self.failed = True
            log.exception("table %s: its bots stopped", self.id)

    def _bot_plans(self) -> list[tuple[float, int, Any]]:
        """What each bot seat that may act decides now, with its reaction time, the fastest
        first (a tie: the lower seat)."""
        plans = []
        for seat in self.table.seats_to_act:
            bot = self._bots.get(seat)
            if bot is None:
                continue
            view = self.table.view(seat)
            rng = draw_rng(self._seed, self.table.step, f"bot{seat}")
            action = bot.choose(view, rng)
            if action is None:
                continue
            reaction = bot.reaction(view, rng) if isinstance(bot, RealTimeBot) else 0.0
            plans.append((reaction, seat, action))
        return sorted(plans, key=lambda plan: plan[:2])

    def _stop_races(self) -> None:
        """Forget the race held open: no timer settles it any more."""
        if self._race_timer is not None:
            self._race_timer.cancel()
            self._race_timer = None
        if self._settling is not None and self._settling is not asyncio.current_task():
            self._settling.cancel()

    async def stop(self) -> None:
        """Stop the bots (the server is shutting down)."""
        self.stopped = True
        self._stop_races()
        if self._rechecking is not None:
            self._rechecking.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._leases.holds(self.id):  # given back now: another process takes it at once
            self._leases.forget(self.id)
            with contextlib.suppress(Exception):
                await self._calls(self._store.release_lease, self.id)

    # -- what clients hear ---------------------------------------------------------------------

    async def welcome(self, conn: Connection) -> None:
        """Add a new connection: first take the steps the store holds beyond this table's (a
        process that owned it before this one took it over may have stored one late, or a
        write of this one's may have been done after its answer was lost), so a connection is
        never told less than the store holds; then :meth:`join`. A store that cannot be
        reached leaves the table at its last step (logged): the connection hears the rest when
        this process catches up."""
        async with self.lock:
            await self._welcome(conn)

    async def _welcome(self, conn: Connection) -> None:
        try:
            if await self._catch_up():
                await self._take_theirs()
                self._broadcast()
                self._kick()
        except StoreUnavailableError as exc:
            log.warning("table %s: %s; a new connection sees its last step", self.id, exc)
        self.join(conn)

    def join(self, conn: Connection) -> None:
        """Add a connection and queue its first frame (call with the lock held); a connection
        to a dropped table is told it is gone instead."""
        if self.dropped:
            conn.gone = True
            conn.queue.put_nowait(None)
            return
        self.connections.add(conn)
        if conn.seat is not None:
            self.active = self._clock()
        self._send_view(conn, {})

    async def seat_welcome(self, conn: Connection, token: str, most: int) -> str | None:
        """Add a new connection as the seat of ``token`` (:meth:`welcome`: its first frame is
        the seat's, with its events since the connection's ``seen``, and the seat's
        connections hear how many hold it); return ``None``, or why not: ``"token"`` (none of
        the seats'), ``"full"`` (the seat has ``most`` connections here already). The hashes
        are read from the store again first: another process may have replaced the token.
        Raise :class:`StoreUnavailableError` if they cannot be."""
        async with self.lock:
            self._reload_seats(await self._calls(self._store.seat_hashes, self.id))
            seat = self.seat_of(token)
            if seat is None:
                return "token"
            if self.holding(seat) >= most:
                return "full"
            conn.seat, conn.key = seat, self._hashes[seat]
            await self._welcome(conn)
            if not conn.gone:
                self._tell_seat(seat)
            return None

    def holding(self, seat: int) -> int:
        """Return how many of this process's connections hold ``seat``."""
        return sum(1 for conn in self.connections if conn.seat == seat)

    def _tell_seat(self, seat: int) -> None:
        """Tell every connection of ``seat`` how many connections hold it (on this process):
        a person sees that the seat is open elsewhere too."""
        held = [conn for conn in self.connections if conn.seat == seat]
        frame = json.dumps({"type": "seat", "seat": seat, "connections": len(held)},
                           separators=(",", ":"))
        for conn in held:
            conn.send(frame)

    async def replace_token(self, seat: int, digest: str) -> None:
        """Store ``digest`` as the hash of the seat's new token; the old token stops working
        at once, and the connections that hold the seat with it are closed (4401). Raise
        :class:`StoreUnavailableError`, changing nothing, if the store cannot be reached."""
        async with self.lock:
            await self._calls(self._store.replace_seat_token, self.id, seat, digest)
            self._reload_seats({**self._hashes, seat: digest})

    async def reload_seats(self) -> None:
        """Read the seats' token hashes from the store again (another process replaced one)
        and close the connections that hold a seat with an old token."""
        async with self.lock:
            self._reload_seats(await self._calls(self._store.seat_hashes, self.id))

    def _reload_seats(self, hashes: dict[int, str] | None) -> None:
        if hashes is None:  # deleted by another process: its own sweep drops it here
            return
        self._hashes = hashes
        stale = [conn for conn in self.connections
                 if conn.seat is not None and conn.key != hashes.get(conn.seat)]
        for conn in stale:
            conn.revoked = True
            self.connections.discard(conn)  # no frame for it from now on
            conn.queue.put_nowait(None)
        for seat in {conn.seat for conn in stale}:
            if seat is not None:
                self._tell_seat(seat)

    async def leave(self, conn: Connection) -> None:
        """Forget a connection; a seat's is the table's last activity, stored (a restarted
        server counts from there)."""
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        if conn.seat is None:
            return
        self._tell_seat(conn.seat)
        if not (self.dropped or self.stopped or self.is_over):
            self.active = self._clock()
            try:
                await self._calls(self._store.mark_active, {self.id: self.active})
            except StoreUnavailableError as exc:  # for a moment: the next sweep stores it
                log.warning("table %s: its last activity was not stored: %s", self.id, exc)
            except Exception:  # the store is not the table: it goes on
                log.exception("table %s: its last activity could not be stored", self.id)

    def summary(self) -> Summary:
        """What the lobby shows of the table now (its spectator view tells as much)."""
        state = self.table.state
        return Summary(state.round if self.game.name == "shock" else None,
                       state.phase.name.lower(),
                       len({c.seat for c in self.connections if c.seat is not None}),
                       self.is_over)

    @property
    def seated(self) -> bool:
        """Whether a seat (a person, not a spectator) is connected."""
        return any(conn.seat is not None for conn in self.connections)

    def abandoned(self, now: float, idle: float) -> bool:
        """Whether the table is abandoned at ``now``: unfinished, not for its bots to play
        (unless it failed), with no seat connected and no activity for ``idle`` seconds.
        (Chance to draw does not keep a table: it is drawn as soon as the table starts.)"""
        if self.is_over or self.dropped or self.seated:
            return False
        if self._task is not None and not self._task.done():  # its bots are playing
            return False
        if not self.failed and self.table.to_act in self._bots:  # it goes on by itself
            return False
        return now - self.active >= idle

    def disown(self) -> None:
        """Let the table go to the process that took its lease over: stop its bots and races
        here and close its connections as moved (they connect again, through the owner)."""
        self.dropped = True
        self._stop_races()
        if self._task is not None:
            self._task.cancel()
        for conn in list(self.connections):
            conn.moved = True
            conn.queue.put_nowait(None)
        self.connections.clear()

    def drop(self) -> None:
        """Mark the table dropped and close its connections (as for an unknown table)."""
        self.dropped = True
        self._stop_races()
        self._release()
        for conn in list(self.connections):
            conn.gone = True
            conn.queue.put_nowait(None)
        self.connections.clear()

    def _broadcast(self) -> None:
        views: dict[int | None, dict[str, object]] = {}
        for conn in list(self.connections):
            self._send_view(conn, views)
        if self.game.simultaneous:
            # The bots see every change at once (a bot's view is shown as the state changes).
            now = self._race_clock()
            for seat in self._bots:
                self._judge.shown(seat, self.table.step, now)
            self._changed.set()
            self._changed = asyncio.Event()

    def _send_view(self, conn: Connection, views: dict[int | None, dict[str, object]]) -> None:
        step = self.table.step
        doc = views.get(conn.seat)
        if doc is None:
            doc = views[conn.seat] = self.table.view_document(conn.seat)
        frame = self.table.frame(conn.seat, conn.seen, doc)
        conn.seen = step
        conn.answer = True
        conn.send(json.dumps(frame, separators=(",", ":")))
        if conn.seat is not None and self.game.simultaneous:
            # When the seat was shown this step: its reaction to a race is timed from here.
            self._judge.shown(conn.seat, step, self._race_clock())


def replay(table_id: str, config: Any, actions: tuple[StoredAction, ...]) -> Table:
    """Rebuild a table from its config and stored actions (raising if they do not follow)."""
    table = Table(config)  # without an rng: chance comes from the stored actions
    for a in actions:
        if a.step != table.step:
            raise InvalidStateError(
                f"table {table_id}: stored action at step {a.step}, expected {table.step}")
        if a.seat is None:
            table.chance(a.action)
        else:
            table.act(a.seat, a.action)
    return table


def seat_of(hashes: dict[int, str], token: str) -> int | None:
    """Return the seat whose token this is by the seats' token ``hashes``, or ``None``; the
    hashes are compared in constant time, and every seat is compared, so the time tells
    nothing."""
    digest = token_hash(token)
    found = None
    for seat, stored in hashes.items():
        if hmac.compare_digest(digest, stored):
            found = seat
    return found


def _host_of(address: str) -> str:
    """The host of a process's URL (``http://10.0.0.5:8000`` → ``10.0.0.5``)."""
    return urllib.parse.urlsplit(address).hostname or ""


def _listed(live: LiveTable) -> Listed:
    """The lobby's entry of a table this process plays: as it is now."""
    return Listed(live.id, live.game.name, live.config.players,
                  live.config.variant.value if live.game.name == "shock" else None,
                  live.bot_names, live.created, live.active, live.creator, live.summary())


def _spectator_error() -> ShockError:
    return BadSeatError("a spectator cannot act: connect with a seat's token")


#: The tasks :func:`_background` started, until they end (the loop keeps only weak
#: references to its tasks).
_TASKS: set[asyncio.Task[None]] = set()


def _background(work: Awaitable[object], failed: str) -> None:
    """Run a store call nobody waits for; log ``failed`` with the reason if it fails (a store
    away for a moment: a warning line)."""
    async def run() -> None:
        try:
            await work
        except StoreUnavailableError as exc:
            log.warning("%s: %s", failed, exc)
        except Exception:
            log.exception("%s", failed)

    task = asyncio.get_running_loop().create_task(run())
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)


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
        _background(self.calls(self.store.delete_table, table_id),
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
