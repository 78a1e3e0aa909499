"""The server's tables: each a protocol :class:`~shock_rules.protocol.Table` with its seats'
tokens, its bots, its connections and its stored actions; no web framework here.

Every table of a server process together, its store and its limits, are the hub's
(:class:`~shock_rules.server._hub.Hub`, ``_hub.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

import attrs

from .. import games
from .._documents import from_json
from .._errors import InvalidStateError, ShockError
from .._json import SCHEMA
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
from ._calls import StoreCalls
from ._leases import Leases
from ._lobby import Summary
from ._rows import UNAVAILABLE, StoreDeadlineError
from ._store import (
    StepTakenError,
    Store,
    StoredAction,
    StoredTable,
    StoreUnavailableError,
    token_hash,
)
from ._thinking import Thinker, ThinkingError, is_mcts

__all__ = [
    "DEFAULT_CLAIMS_PER_SECOND",
    "DEFAULT_CLAIM_COOLDOWN",
    "MAX_MCTS_ITERATIONS",
    "STORE_RETRY_SECONDS",
    "Connection",
    "LiveTable",
    "RequestError",
    "draw_rng",
    "in_background",
    "read_bots",
    "replay",
    "seat_of",
]

log = logging.getLogger("shock_rules.server")

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
#: The ``--bot-delay`` at which a real-time game's bots (Melvin's) act after their own
#: reaction time (``bot.reaction``); another delay scales every reaction alike (0: at once, in
#: the order of their reaction times).
REACTION_PACE: Final = 0.6
#: Claims (slaps) a second one seat may make, and the seconds a seat over it may not claim.
DEFAULT_CLAIMS_PER_SECOND: Final = 3.0
DEFAULT_CLAIM_COOLDOWN: Final = 2.0
#: The margin past a race's deadline at which the table settles it (the event loop's timers
#: may fire a little early).
_TIMER_SLACK: Final = 0.001


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
            except StoreUnavailableError as exc:
                return error_document(_told(exc), self.table.step)
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
            except StoreUnavailableError as exc:
                return error_document(_told(exc), self.table.step)
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
            in_background(self._calls(self._store.release_lease, self.id),
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


def _spectator_error() -> ShockError:
    return BadSeatError("a spectator cannot act: connect with a seat's token")


def _told(exc: StoreUnavailableError) -> StoreUnavailableError | UnavailableError:
    """What a seat is told of a store that cannot be reached (nothing was applied: it may
    send its action again): a deadline's own words, which name no database, else words
    that name none either (the error's own, with the database's host, are the log's)."""
    return exc if isinstance(exc, StoreDeadlineError) else UnavailableError(UNAVAILABLE)


#: The tasks :func:`in_background` started, until they end (the loop keeps only weak
#: references to its tasks).
_TASKS: set[asyncio.Task[None]] = set()


def in_background(work: Awaitable[object], failed: str) -> None:
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
