"""The server's budget for bot thinking: every MCTS decision of every table goes through one
queue, served by a pool of worker processes, so the event loop's process never searches.

The queue is fair: it serves the client addresses that created the tables in turn (round
robin), and within an address its tables in turn; each table waits for one decision at a time,
and at most as many decisions as there are workers are in the pool, so nothing piles up (a
table waits its turn). What goes to a worker is plain data (the bot's name, the view as its
JSON document, the state of the decision's generator) and what comes back is the action's
notation: a mypyc-compiled bot or view need not be picklable, and the worker decides exactly as
the server's process would (same bot, same view, same generator state).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import random
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final

from .._documents import from_json, to_json
from .._errors import InvalidStateError, ShockError
from .._info.view import PlayerView
from .._rules.actions import Action
from ..bots import Bot, make_bot

__all__ = ["DEFAULT_WORKERS", "Thinker", "ThinkingError", "decide", "is_mcts"]

log = logging.getLogger("shock_rules.server")

#: Worker processes for the bots' thinking by default: one core, whatever the tables ask.
DEFAULT_WORKERS: Final = 1
#: Times a decision is tried when its worker process dies under it: once more (the death may
#: have been another decision's, or a signal), not for ever (a decision that kills every
#: worker it meets would otherwise take the pool down in a loop).
TRIES: Final = 2

#: How much a worker lowers its scheduling priority (``os.nice``): bot thinking is background
#: work, and on a busy machine the event loop's process (people's actions, every table's
#: views) comes first; a bot waits a little longer instead.
NICE: Final = 10

#: The bots a worker made, by name (a bot keeps nothing between decisions; this only saves
#: building one per decision).
_MADE: dict[str, Bot] = {}


def is_mcts(name: str) -> bool:
    """Whether the bot of this (read) name searches: its decisions go to the workers."""
    return name == "mcts" or name.startswith("mcts:")


def _start_worker() -> None:
    """Lower the worker's priority (:data:`NICE`), where the system lets it."""
    with contextlib.suppress(AttributeError, OSError):  # no os.nice on Windows
        os.nice(NICE)


def decide(bot: str, view: str, rng_state: tuple[Any, ...]) -> str:
    """Return the notation of the action the bot named ``bot`` chooses on the view document
    ``view`` with a generator in state ``rng_state``: what a worker process runs (and, with the
    same arguments, what the server's process would have chosen)."""
    made = _MADE.get(bot)
    if made is None:
        made = _MADE[bot] = make_bot(bot)
    seen = from_json(view)
    if not isinstance(seen, PlayerView):
        raise InvalidStateError("a bot decides on a view document")
    rng = random.Random()
    rng.setstate(rng_state)
    return str(made.choose(seen, rng))


class ThinkingError(ShockError, RuntimeError):
    """A decision could not be made: its worker process died on every try."""


class _Job:
    """One decision waiting for, or in, a worker."""

    __slots__ = ("args", "future", "tries")

    def __init__(self, args: tuple[str, str, tuple[Any, ...]],
                 future: asyncio.Future[str]) -> None:
        self.args = args
        self.future = future
        self.tries = 0


def _context() -> multiprocessing.context.BaseContext:
    # Not fork: the server's process may run threads (psycopg's, asyncio's executor) that a
    # forked child would inherit in whatever state they were, locks held included.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class Thinker:
    """The queue of bot decisions and its pool of ``workers`` processes (started with the
    first decision, so a server whose tables have no MCTS bot starts none). ``work`` is what
    a worker runs (:func:`decide`; a test passes another module-level function) and
    ``context`` how workers start (by default forkserver where there is one, else spawn)."""

    def __init__(self, workers: int = DEFAULT_WORKERS, *,
                 work: Callable[[str, str, tuple[Any, ...]], str] = decide,
                 context: multiprocessing.context.BaseContext | None = None) -> None:
        if workers < 1:
            raise InvalidStateError(f"bot workers must be 1 or more, not {workers}")
        self.workers = workers
        self._work = work
        self._context = context
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        #: The decisions waiting, by creator address then table, each dict in its turn order:
        #: the address served moves to the end, and so does a table when it asks again.
        self._waiting: dict[str | None, dict[str, _Job]] = {}
        #: The decisions in the pool now (never more than :attr:`workers`).
        self.running = 0
        #: How many times the pool was started (a dead worker breaks it: the next is new).
        self.pools = 0
        self._closed = False

    @property
    def closed(self) -> bool:
        """Whether the thinker was closed (the server is shutting down)."""
        return self._closed

    def waiting(self) -> int:
        """Return how many decisions wait for a worker."""
        return sum(len(tables) for tables in self._waiting.values())

    async def decide(self, address: str | None, table: str, bot: str, view: PlayerView,
                     rng: random.Random) -> Action:
        """Return the action the bot named ``bot`` chooses on ``view`` with ``rng`` (which is
        not advanced), decided in a worker when its turn comes: ``address`` is the creator of
        the table ``table`` (``None``: a table loaded from the store, all in one turn).
        Cancelling it takes the decision out of the queue (one in a worker runs to its end,
        unheard). Raise :class:`ThinkingError` if every worker it was sent to died."""
        if self._closed:
            raise ThinkingError("the server is shutting down")
        tables = self._waiting.setdefault(address, {})
        if table in tables:
            raise InvalidStateError(f"table {table}: a decision is waiting already")
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        job = tables[table] = _Job((bot, to_json(view), rng.getstate()), future)
        self._pump()
        try:
            text = await future
        finally:
            # Cancelled while waiting its turn: no turn for it (a no-op once it had its turn).
            self._forget(address, table, job)
        return Action.parse(text)

    def _forget(self, address: str | None, table: str, job: _Job) -> None:
        tables = self._waiting.get(address)
        if tables is not None and tables.get(table) is job:
            del tables[table]
            if not tables:
                del self._waiting[address]

    def _next(self) -> _Job | None:
        """Take the next decision to make: the first table of the first address, which then
        goes to the end of the turn (if it has more tables waiting)."""
        for address in self._waiting:
            tables = self._waiting.pop(address)
            table = next(iter(tables))
            job = tables.pop(table)
            if tables:
                self._waiting[address] = tables
            return job
        return None

    def _pump(self) -> None:
        """Send waiting decisions to the pool while a worker is free."""
        while self.running < self.workers and not self._closed:
            job = self._next()
            if job is None:
                return
            if job.future.done():  # cancelled: taken out, nothing to send
                continue
            self._send(job)

    def _send(self, job: _Job) -> None:
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=self._context or _context(),
                initializer=_start_worker)
            self.pools += 1
        pool = self._pool
        job.tries += 1
        self.running += 1
        try:
            done = pool.submit(self._work, *job.args)
        except BrokenProcessPool as exc:  # broken by another decision's worker just now
            self._finished(pool, job, exc)
            return
        loop = asyncio.get_running_loop()
        done.add_done_callback(
            lambda f: loop.call_soon_threadsafe(self._heard, pool, job, f))

    def _heard(self, pool: concurrent.futures.ProcessPoolExecutor, job: _Job,
               done: concurrent.futures.Future[str]) -> None:
        exc = done.exception() if not done.cancelled() else ThinkingError("cancelled")
        self._finished(pool, job, exc, None if exc is not None else done.result())

    def _finished(self, pool: concurrent.futures.ProcessPoolExecutor, job: _Job,
                  exc: BaseException | None, text: str | None = None) -> None:
        self.running -= 1
        if isinstance(exc, BrokenProcessPool):
            if pool is self._pool:  # the first to hear of it: the next decision starts a pool
                log.warning("a bot worker process died: starting another")
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            if job.tries < TRIES and not self._closed and not job.future.done():
                self._send(job)  # again, ahead of the queue: it had its turn
                return
            exc = ThinkingError(f"the bot worker process died {job.tries} times on this"
                                " decision")
        if not job.future.done():
            if exc is not None:
                job.future.set_exception(exc)
            elif text is not None:
                job.future.set_result(text)
        self._pump()

    async def close(self) -> None:
        """Refuse new decisions, fail those waiting, and stop the workers (a decision in a
        worker ends first: at most one decision's time)."""
        self._closed = True
        for tables in self._waiting.values():
            for job in tables.values():
                if not job.future.done():
                    job.future.set_exception(ThinkingError("the server is shutting down"))
        self._waiting.clear()
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
