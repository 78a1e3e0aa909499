"""Abandoned tables expire: an unfinished table waiting for people, with no seat connected and
no action for ``--idle-minutes``, is deleted from memory and from the SQLite file, while the
server runs and when it starts (a real ``shock-rules serve`` on 127.0.0.1, and the hub with a
clock of the test's own)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
from websockets.exceptions import ConnectionClosed

import shock_rules as sr
from shock_rules._errors import InvalidArgumentError
from shock_rules.server import Limits, SQLiteStore, Store, StoredTable, create_app
from shock_rules.server._hub import DEFAULT_IDLE_MINUTES, Hub, TableLimitError
from shock_rules.server._tables import Connection

from ._client import Seat
from ._live import LiveServer
from .test_limits import BOTS, _finish, stored_ids

#: A hang guard, not a timing assertion.
DEADLINE = 60.0


def _until_gone(live: LiveServer, table: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while live.get(f"/api/tables/{table}")[0] != 404:
        assert time.monotonic() < deadline, f"table {table} did not expire"
        time.sleep(0.05)


async def _close_code(seat: Seat) -> int | None:
    """Receive frames until the server closes the connection; return its close code."""
    try:
        while True:
            await seat.recv()
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd else None


def test_abandoned_tables_are_deleted_and_a_connected_seat_keeps_one(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, "--idle-minutes", "0.02").start()  # 1.2 s, swept every 0.3 s
    tokens: list[str] = []

    def create(*args: dict[str, str]) -> str:
        doc = live.create(3, *args)
        tokens.extend(s["token"] for s in doc["seats"])
        return str(doc["table"])

    try:
        done = create(BOTS)
        _finish(live, done)  # finished: kept (--keep-finished), however old

        async def run() -> tuple[int | None, int | None]:
            held = create()
            async with Seat(live.ws_url, held, tokens[-3]) as seat:
                await seat.recv()
                # A seat that came and went: the table is idle from then on.
                left = create({"1": "random", "2": "random"})
                async with Seat(live.ws_url, left, tokens[-1]) as gone:
                    await gone.recv()
                alone = create()  # after both: once it expires, so would they have
                # A spectator keeps no table: it is closed as for an unknown one.
                watched = create()
                async with Seat(live.ws_url, watched) as spectator:
                    await spectator.recv()
                    watched_code = await _close_code(spectator)
                await asyncio.to_thread(_until_gone, live, alone)
                assert live.get(f"/api/tables/{left}")[0] == 404
                assert live.get(f"/api/tables/{held}")[0] == 200  # its seat is here
                assert stored_ids(live.db) == {held, done}
                async with Seat(live.ws_url, alone) as late:
                    alone_code = await _close_code(late)
            await asyncio.to_thread(_until_gone, live, held)  # its seat left
            expired.update(held=held, alone=alone)
            return watched_code, alone_code

        expired: dict[str, str] = {}

        assert asyncio.run(asyncio.wait_for(run(), 4 * DEADLINE)) == (4404, 4404)
        assert live.get(f"/api/tables/{done}")[0] == 200
        assert stored_ids(live.db) == {done}
    finally:
        live.stop()
    log = live.log.read_text()
    for table in expired.values():
        assert (f"table {table}: deleted, abandoned: no seat connected and no action for"
                " 0.02 minutes") in log
    assert log.count(": deleted, abandoned:") == 4 and "Traceback" not in log
    assert tokens and not any(token in log for token in tokens)


def test_a_restarted_server_deletes_the_tables_abandoned_while_it_was_down(
        tmp_path: Path) -> None:
    live = LiveServer(tmp_path).start()  # the default: an hour
    try:
        old, fresh = live.create(3)["table"], live.create(3)["table"]
        done = live.create(3, BOTS)["table"]
        _finish(live, done)
        live.stop()
        two_hours_ago = time.time() - 7200
        with sqlite3.connect(live.db) as con:
            con.execute("UPDATE tables SET created = ?, active = ? WHERE id IN (?, ?)",
                        (two_hours_ago, two_hours_ago, old, done))
        con.close()
        live.start()
        assert live.get(f"/api/tables/{old}")[0] == 404
        assert live.get(f"/api/tables/{fresh}")[0] == 200
        assert live.get(f"/api/tables/{done}")[0] == 200  # finished: not abandoned
        assert stored_ids(live.db) == {fresh, done}
    finally:
        live.stop()
    log = live.log.read_text()
    assert "deleted 1 abandoned tables: no seat connected and no action for 60 minutes" in log
    assert "Traceback" not in log


# -- the pieces ---------------------------------------------------------------------------------


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        # Ahead of the store's own clock (it stores the time of each action it keeps): what
        # it stored is older than anything the hub notes.
        self.now = time.time() + 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _stored_active(store: Store) -> dict[str, float | None]:
    return {t.id: t.active for t in store.load_tables()}


def test_the_limit_of_tables_counts_no_abandoned_table(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()

    async def run() -> Hub:
        hub = Hub(SQLiteStore(":memory:"), max_tables=2, idle_seconds=60, clock=clock)
        first = [(await hub.create(3, "standard", {}))[0] for _ in range(2)]
        with pytest.raises(TableLimitError):
            await hub.create(3, "standard", {})
        clock.now += 59
        with pytest.raises(TableLimitError):
            await hub.create(3, "standard", {})
        clock.now += 1  # a minute without anyone: the next table takes their place
        table_id, _ = await hub.create(3, "standard", {})
        assert set(hub.tables) == {table_id} and hub.expired == 2
        assert {t.id for t in hub.store.load_tables()} == {table_id}
        assert all(f"table {t}: deleted, abandoned" in caplog.text for t in first)
        await hub.stop()
        return hub

    caplog.set_level("INFO", "shock_rules.server")
    asyncio.run(run())


def test_a_connected_seat_keeps_a_table_and_its_leaving_is_stored(tmp_path: Path) -> None:
    clock = Clock()

    async def run() -> None:
        store = SQLiteStore(tmp_path / "db.sqlite3")
        hub = Hub(store, idle_seconds=60, clock=clock)
        seated, _ = await hub.create(3, "standard", {})
        watched, _ = await hub.create(3, "standard", {})
        seat, spectator = Connection(0), Connection(None)
        async with hub.tables[seated].lock:
            hub.tables[seated].join(seat)
        async with hub.tables[watched].lock:
            hub.tables[watched].join(spectator)
        clock.now += 1000
        assert await hub.sweep() == [watched]  # a spectator keeps no table
        assert spectator.gone and watched not in hub.tables
        # The seat is here: its table is active now, in the store too.
        assert _stored_active(store) == {seated: clock.now}
        clock.now += 30
        await hub.tables[seated].leave(seat)
        assert _stored_active(store) == {seated: clock.now}
        clock.now += 59
        assert await hub.sweep() == []
        clock.now += 1
        assert await hub.sweep() == [seated] and hub.tables == {}
        assert store.load_tables() == []
        await hub.stop()
        store.close()

    asyncio.run(run())


def test_bots_to_play_keep_a_table_and_a_table_waiting_for_people_goes(tmp_path: Path) -> None:
    clock = Clock()
    config = sr.to_json(sr.GameConfig(players=3))
    store = SQLiteStore(tmp_path / "db.sqlite3")
    # Not dealt yet: the server deals, then the bots play (or it waits for its people).
    store.create_table(StoredTable(id="bots", config=config, bots={0: "random", 1: "random",
                                   2: "random"}, seats={}, seed="s", created=1.0,
                                   active=clock.now))
    store.create_table(StoredTable(id="people", config=config, bots={}, seats={0: "h"},
                                   seed="s", created=1.0, active=clock.now))
    store.close()

    async def run() -> None:
        hub = Hub(SQLiteStore(tmp_path / "db.sqlite3"), bot_delay=1000, idle_seconds=60,
                  clock=clock)
        await hub.load()
        assert set(hub.tables) == {"bots", "people"} and hub.expired == 0
        await hub.start()  # dealt: "people" waits for its people, "bots" for a bot
        clock.now += 61
        assert await hub.sweep() == ["people"]
        clock.now += 10**6
        assert await hub.sweep() == [] and set(hub.tables) == {"bots"}
        await hub.stop()
        hub.store.close()

    asyncio.run(run())
    # Restarted with an hour's limit: a table of people idle for longer is deleted at once;
    # one idle for less, and one whose bots are to play (idle for ever so long), are kept.
    store = SQLiteStore(tmp_path / "db.sqlite3")
    for table_id, active in (("old", clock.now - 3600), ("later", clock.now - 3599)):
        store.create_table(StoredTable(id=table_id, config=config, bots={}, seats={0: "h"},
                                       seed="s", created=1.0, active=active))
    store.mark_active({"bots": 1.0})
    store.close()
    hub = Hub(SQLiteStore(tmp_path / "db.sqlite3"), idle_seconds=3600, clock=clock)
    asyncio.run(hub.load())
    assert set(hub.tables) == {"bots", "later"} and hub.expired == 1
    assert set(_stored_active(hub.store)) == {"bots", "later"}
    hub.store.close()


def test_a_file_of_the_first_version_gets_the_column(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    with sqlite3.connect(db) as con:  # the schema before the last activity was kept
        con.executescript("""
            CREATE TABLE tables (id TEXT PRIMARY KEY, config TEXT NOT NULL, bots TEXT NOT NULL,
                                 seats TEXT NOT NULL, seed TEXT NOT NULL, created REAL NOT NULL);
            CREATE TABLE actions (table_id TEXT NOT NULL REFERENCES tables(id),
                                  step INTEGER NOT NULL, seat INTEGER, action TEXT NOT NULL,
                                  PRIMARY KEY (table_id, step));
        """)
        con.execute("INSERT INTO tables VALUES ('t1', ?, '{}', '{\"0\": \"h\"}', 's', 1.0)",
                    (sr.to_json(sr.GameConfig(players=3)),))
    con.close()
    clock = Clock()
    store = SQLiteStore(db)
    assert _stored_active(store) == {"t1": None}  # unknown: counted from the load
    hub = Hub(store, idle_seconds=60, clock=clock)
    asyncio.run(hub.load())
    assert set(hub.tables) == {"t1"} and _stored_active(store) == {"t1": clock.now}
    store.close()
    store = SQLiteStore(db)  # once only
    assert _stored_active(store) == {"t1": clock.now}
    store.close()


def test_the_idle_time_is_a_limit_like_the_others() -> None:
    from shock_rules.cli import serve

    assert Limits().idle_minutes == DEFAULT_IDLE_MINUTES == 60
    assert "default=60.0," in Path(serve.__file__).read_text()
    assert Hub(SQLiteStore(":memory:")).check_every == 60  # a minute
    assert Hub(SQLiteStore(":memory:"), idle_seconds=2).check_every == 0.5
    for bad in (0.0, -1.0, float("nan")):
        with pytest.raises(InvalidArgumentError, match="idle time must be positive"):
            create_app(limits=Limits(idle_minutes=bad))
