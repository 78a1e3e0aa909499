"""The store's calls, made off the event loop: each in a thread of the store's own, with a
deadline the server keeps itself.

A store call blocks its thread until the database answers. On the event loop, one slow
statement would stall every table and every request of the process (its health check too);
in a thread, it delays only the table that waits for it. And a database that stops answering
without closing its connections (every PostgreSQL process stopped, the kernel still
acknowledging) enforces no timeout of its own: the server's deadline turns the wait into a
clear error.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Final, ParamSpec, TypeVar

from ._rows import StoredAction, unanswered
from ._store import Store

__all__ = ["DEFAULT_DEADLINE", "DEFAULT_THREADS", "StoreCalls"]

#: Seconds a store call may take before the server gives up waiting for it: beyond the
#: PostgreSQL store's own statement timeout (15 s), which a frozen database cannot enforce.
DEFAULT_DEADLINE: Final = 20.0
#: Threads that make store calls at once (the PostgreSQL store's connections: as many).
DEFAULT_THREADS: Final = 4

P = ParamSpec("P")
T = TypeVar("T")


class StoreCalls:
    """Call a store's methods from the event loop without blocking it: ``await calls(fn,
    *args)`` runs ``fn(*args)`` in one of ``threads`` threads and returns what it returns,
    raising what it raises; a call that has not returned within ``deadline`` seconds raises
    :class:`StoreUnavailableError` (its thread finishes it, or fails it, on its own: what it
    did then is found by the next catch-up, as for any write whose answer was lost). A store
    whose calls are short and local (its ``inline``: an SQLite file, with its checkpoints in a
    thread of its own) is called on the loop."""

    def __init__(self, store: Store, *, deadline: float = DEFAULT_DEADLINE,
                 threads: int = DEFAULT_THREADS) -> None:
        self.store = store
        self.deadline = deadline
        #: Whether the store's calls are made on the loop (:attr:`Store.inline`).
        self.inline = store.inline
        self._pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="shock-rules store")

    async def __call__(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        if self.inline:
            # A store whose calls are short and local (an SQLite file): the hop to a thread
            # and back would cost more than the call (measured: a quarter more CPU per action
            # and a millisecond more latency at 500 tables), and it has no network to wait on.
            return fn(*args, **kwargs)
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))
        try:
            # A timeout (or a cancelled caller) cancels the wait, not the thread's call, whose
            # result is then dropped.
            async with asyncio.timeout(self.deadline):
                return await future
        except TimeoutError:
            raise unanswered(self.deadline) from None

    async def append_actions(self, table_id: str, actions: Sequence[StoredAction]) -> None:
        """Store a table's applied actions, awaited on the loop without a thread
        (:meth:`Store.append_actions_async`: a thread's hop and wake-ups cost as much CPU as
        the statement, and this is the server's most frequent call), with the deadline."""
        await self.store.append_actions_async(table_id, actions, deadline=self.deadline)

    def close(self) -> None:
        """Close the store, then let the threads go (a call still stuck in one is left to
        end with its connection)."""
        self.store.close()
        self._pool.shutdown(wait=False, cancel_futures=True)

