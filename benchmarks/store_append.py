#!/usr/bin/env python3
"""The CPU of storing one step: a table's new action appended, the table server's most frequent
store call, in each way the server can make it.

It starts a throwaway PostgreSQL (Debian's, as the tests do: ``tests/server/_postgres.py``) and
an SQLite file, and appends ``--appends`` single actions to one table each way, one after the
other, timing the CPU of this process (user + system, every thread's) per call:

- ``SQLite, on the loop``: :meth:`SQLiteStore.append_actions`, as the server calls it;
- ``PostgreSQL, in a thread``: :meth:`PostgresStore.append_actions` through the server's
  :class:`StoreCalls` thread pool (how every other PostgreSQL call is made);
- ``PostgreSQL, on the loop``: :meth:`PostgresStore.append_actions_async`, as the server calls
  it (no thread, the deadline kept by a timer that cuts the connection).

Each way is measured ``--repeat`` times, alternating; the medians and ranges are printed.
PostgreSQL's own CPU is not counted (another process). Only localhost; about a minute.

    python benchmarks/store_append.py [--appends 3000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# (after the path above: the tests' throwaway PostgreSQL is shared)
from tests.server._postgres import Postgres

from shock_rules.server._calls import StoreCalls
from shock_rules.server._postgres import PostgresStore
from shock_rules.server._store import SQLiteStore, StoredAction, StoredTable

Append = Callable[[str, list[StoredAction]], Awaitable[None]]


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def _table(table_id: str) -> StoredTable:
    return StoredTable(id=table_id, config="{}", bots={}, seats={}, seed="s", created=time.time())


async def _measure(append: Append, table_id: str, appends: int) -> float:
    """Append ``appends`` single actions (after 200 not timed); return µs of CPU per call."""
    for step in range(200):
        await append(table_id, [StoredAction(step, 0, "play 7H")])
    start = _cpu()
    for step in range(200, 200 + appends):
        await append(table_id, [StoredAction(step, 0, "play 7H")])
    return 1e6 * (_cpu() - start) / appends


async def _run(appends: int, repeat: int, folder: Path, url: str) -> dict[str, list[float]]:
    sqlite = SQLiteStore(folder / "append.sqlite3")
    pg = PostgresStore(url)
    pooled = StoreCalls(pg)

    async def on_loop_sqlite(table_id: str, actions: list[StoredAction]) -> None:
        sqlite.append_actions(table_id, actions)

    async def in_thread(table_id: str, actions: list[StoredAction]) -> None:
        await pooled(pg.append_actions, table_id, actions)

    ways: dict[str, tuple[Append, Callable[[StoredTable], None]]] = {
        "SQLite, on the loop": (on_loop_sqlite, sqlite.create_table),
        "PostgreSQL, in a thread": (in_thread, pg.create_table),
        "PostgreSQL, on the loop": (pg.append_actions_async, pg.create_table),
    }
    got: dict[str, list[float]] = {name: [] for name in ways}
    try:
        for r in range(repeat):
            for k, (name, (append, create)) in enumerate(ways.items()):
                table_id = f"t{r}-{k}"
                create(_table(table_id))
                got[name].append(await _measure(append, table_id, appends))
                print(f"run {r + 1}: {name}: {got[name][-1]:.0f} µs of CPU per append",
                      flush=True)
    finally:
        pooled.close()
        sqlite.close()
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--appends", type=int, default=3000, help="appends per way and run")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each way, alternating")
    args = ap.parse_args()
    if not 100 <= args.appends <= 100_000 or not 1 <= args.repeat <= 20:
        ap.error("--appends must be 100-100000 and --repeat 1-20")
    postgres = Postgres().start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            got = asyncio.run(_run(args.appends, args.repeat, Path(folder),
                                   postgres.new_database()))
    finally:
        postgres.close()
    for name, runs in got.items():
        print(f"{name}: median {statistics.median(runs):.0f} µs of CPU per append"
              f" (runs {min(runs):.0f}-{max(runs):.0f})")


if __name__ == "__main__":
    main()
