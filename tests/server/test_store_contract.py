"""The contract of every store, run the same against the SQLite store (a file) and the
PostgreSQL store (a real PostgreSQL server): what is stored comes back whole, a taken step or
id stores nothing, deletion takes the actions with it, leases, the schema's versions, and
calls from several threads at once."""

from __future__ import annotations

import asyncio
import concurrent.futures
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import shock_rules as sr
from shock_rules.server._rows import SCHEMA_VERSION
from shock_rules.server._store import (
    SchemaVersionError,
    SharedStore,
    SQLiteStore,
    StepTakenError,
    Store,
    StoredAction,
    StoredTable,
    StoreUnavailableError,
    TableExistsError,
    token_hash,
)

CONFIG = sr.to_json(sr.GameConfig(players=3))


class Backend:
    """One kind of store: :meth:`open` makes a store on the test's database (each a process
    of its own, for PostgreSQL), :meth:`raw` runs SQL on it past the store."""

    def __init__(self, kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
        self.kind = kind
        self.opened: list[Store] = []
        if kind == "sqlite":
            self.path = tmp_path / "db.sqlite3"
        else:
            self.url: str = request.getfixturevalue("postgres_db")

    def open(self) -> Store:
        store: Store
        if self.kind == "sqlite":
            store = SQLiteStore(self.path)
        else:
            from shock_rules.server._postgres import PostgresStore

            store = PostgresStore(self.url)
        self.opened.append(store)
        return store

    def raw(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        """Run ``sql`` (written with ``?``) on a connection of its own; return its rows."""
        if self.kind == "sqlite":
            con = sqlite3.connect(self.path)
            try:
                with con:
                    return con.execute(sql, params).fetchall()
            finally:
                con.close()
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            cur = conn.execute(sql.replace("?", "%s"), params or None)
            return cur.fetchall() if cur.description is not None else []


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    made = Backend(request.param, tmp_path, request)
    yield made
    for store in made.opened:
        store.close()


@pytest.fixture
def store(backend: Backend) -> Store:
    return backend.open()


def _table(table_id: str, actions: int = 0, **fields: object) -> StoredTable:
    acts = tuple(StoredAction(i, None if i % 2 else 0, f"a{i}") for i in range(actions))
    return StoredTable(id=table_id, config=CONFIG, bots={1: "random"},
                       seats={0: token_hash(f"seat of {table_id}")}, seed="5eed",
                       created=100.0 + len(table_id), actions=acts,
                       **fields)  # type: ignore[arg-type]


def test_every_store_has_the_whole_interface(store: Store) -> None:
    assert isinstance(store, Store) and isinstance(store, SharedStore)
    assert len(store.holder) == 16 and int(store.holder, 16) >= 0


def test_tables_are_stored_whole_and_come_back_in_order(store: Store) -> None:
    store.create_table(_table("t-one", 3, listed=False))
    store.create_table(_table("t-second", 0))
    store.append_actions("t-second", [StoredAction(0, None, "deal 7H"),
                                      StoredAction(1, 2, "play 7H")])
    tables = store.load_tables()
    assert [t.id for t in tables] == ["t-one", "t-second"]
    one, two = tables
    assert one == _table("t-one", 3, listed=False, active=one.created)
    assert two.actions == (StoredAction(0, None, "deal 7H"), StoredAction(1, 2, "play 7H"))
    assert two.listed is True and two.active is not None and two.active > two.created
    assert store.load_table("t-one") == one and store.load_table("t-second") == two
    assert store.load_table("nope") is None
    assert store.actions_since("t-one", 1) == list(one.actions[1:])
    assert store.actions_since("t-one", 3) == [] and store.actions_since("nope", 0) == []


def test_a_taken_id_or_a_taken_step_stores_nothing(store: Store) -> None:
    store.create_table(_table("t-x", 2))
    with pytest.raises(TableExistsError):
        store.create_table(_table("t-x", 5))
    with pytest.raises(StepTakenError):  # all or none: step 2 is not stored either
        store.append_actions("t-x", [StoredAction(2, 1, "new"), StoredAction(1, 1, "again")])
    assert store.actions_since("t-x", 0) == list(_table("t-x", 2).actions)
    store.append_actions("t-x", [StoredAction(2, 1, "new")])
    assert [a.action for a in store.actions_since("t-x", 0)] == ["a0", "a1", "new"]


def test_appends_awaited_on_the_event_loop_store_the_same(store: Store) -> None:
    # The server's way to store a table's steps (PostgreSQL: on the loop, no thread): all or
    # none, a taken step refused, eight tables at once (more than a pool's connections).
    for k in range(8):
        store.create_table(_table(f"t-a{k}", 2))

    async def append() -> None:
        await store.append_actions_async("t-a0", [StoredAction(2, 0, "x"),
                                                  StoredAction(3, None, "y")], deadline=10)
        with pytest.raises(StepTakenError):
            await store.append_actions_async("t-a0", [StoredAction(4, 1, "z"),
                                                      StoredAction(3, 1, "again")])
        await asyncio.gather(*(store.append_actions_async(f"t-a{k}", [StoredAction(2, k, "b")])
                               for k in range(1, 8)))

    asyncio.run(append())
    asyncio.run(store.append_actions_async("t-a0", [StoredAction(4, 1, "z")]))  # a new loop
    assert [a.action for a in store.actions_since("t-a0", 0)] == ["a0", "a1", "x", "y", "z"]
    for k in range(1, 8):
        assert store.actions_since(f"t-a{k}", 2) == [StoredAction(2, k, "b")]


def test_delete_takes_the_actions_with_it(store: Store, backend: Backend) -> None:
    store.create_table(_table("t-del", 4))
    store.create_table(_table("t-keep", 1))
    store.lease(["t-del"], 60)
    store.delete_table("t-del")
    store.delete_table("t-never")  # no error
    assert [t.id for t in store.load_tables()] == ["t-keep"]
    assert store.load_table("t-del") is None and store.actions_since("t-del", 0) == []
    assert backend.raw("SELECT count(*) FROM actions WHERE table_id = ?", ("t-del",)) == [(0,)]
    assert backend.raw("SELECT count(*) FROM leases") == [(0,)]


def test_mark_active_and_replace_seat_token(store: Store) -> None:
    store.create_table(_table("t-a", 1))
    store.mark_active({"t-a": 12345.5, "t-gone": 1.0})
    loaded = store.load_table("t-a")
    assert loaded is not None and loaded.active == 12345.5
    assert store.seat_hashes("t-a") == {0: token_hash("seat of t-a")}
    store.replace_seat_token("t-a", 0, token_hash("new"))
    store.replace_seat_token("t-a", 2, token_hash("third"))
    store.replace_seat_token("t-gone", 0, token_hash("x"))  # no error
    assert store.seat_hashes("t-a") == {0: token_hash("new"), 2: token_hash("third")}
    assert store.seat_hashes("t-gone") is None


def test_an_unreadable_row_is_left_out_and_the_others_load(
        store: Store, backend: Backend, caplog: pytest.LogCaptureFixture) -> None:
    store.create_table(_table("t-good", 1))
    store.create_table(_table("t-bad", 1))
    backend.raw("UPDATE tables SET bots = 'not json' WHERE id = 't-bad'")
    with caplog.at_level("ERROR", logger="shock_rules.server"):
        assert [t.id for t in store.load_tables()] == ["t-good"]
        assert store.load_table("t-bad") is None
    assert "table t-bad: could not be restored: its bots column" in caplog.text
    assert "5eed" not in caplog.text


def test_calls_from_eight_threads_at_once(store: Store) -> None:
    def play(n: int) -> list[str]:
        table_id = f"t-thread-{n}"
        store.create_table(_table(table_id))
        for step in range(15):
            store.append_actions(table_id, [StoredAction(step, n % 3, f"{n}:{step}")])
            assert len(store.actions_since(table_id, 0)) == step + 1
            store.lease([table_id], 30)
            store.mark_active({table_id: 1000.0 + step})
            assert store.seat_hashes(table_id) is not None
        loaded = store.load_table(table_id)
        assert loaded is not None
        return [a.action for a in loaded.actions]

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        played = list(pool.map(play, range(8)))
    assert played == [[f"{n}:{s}" for s in range(15)] for n in range(8)]
    assert len(store.load_tables()) == 8


def test_a_closed_store_says_so(backend: Backend) -> None:
    store = backend.open()
    store.create_table(_table("t-c"))
    store.close()
    store.close()  # twice is no error
    for call in (store.load_tables, lambda: store.load_table("t-c"),
                 lambda: store.append_actions("t-c", [StoredAction(0, 0, "x")])):
        with pytest.raises(StoreUnavailableError, match="the store is closed"):
            call()


def test_a_database_of_a_newer_version_is_refused(backend: Backend) -> None:
    backend.open().close()
    assert backend.raw("SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
    backend.open().close()  # a second start changes nothing
    assert backend.raw("SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
    backend.raw("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(SchemaVersionError, match="newer than this shock_rules knows"):
        backend.open()
    assert backend.raw("SELECT version FROM schema_version") == [(SCHEMA_VERSION + 1,)]


# -- leases -----------------------------------------------------------------------------------


def test_leases_of_one_process_hold_every_table(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "db.sqlite3")
    assert store.lease(["a", "b"], 0.5) == {"a", "b"}
    store.release_lease("a")
    assert store.lease(["a"], 0.5) == {"a"} and store.lease([], 1) == set()
    store.close()


def test_a_lease_is_held_by_one_store_until_it_expires_or_is_released(
        postgres_db: str) -> None:
    from shock_rules.server._postgres import PostgresStore

    one, two = PostgresStore(postgres_db), PostgresStore(postgres_db)
    for table_id in ("t-1", "t-2", "t-3"):
        one.create_table(_table(table_id))
    assert one.lease(["t-1", "t-2", "t-1", "nope"], 0.5) == {"t-1", "t-2"}
    assert two.lease(["t-1", "t-2", "t-3"], 60) == {"t-3"}
    assert one.lease(["t-3"], 60) == set()
    # Expired: the other takes it. No timing is asserted beyond that.
    deadline = time.monotonic() + 30
    while two.lease(["t-1"], 60) != {"t-1"}:
        assert time.monotonic() < deadline, "an expired lease was never taken"
        time.sleep(0.1)
    # Renewed: kept (and renewing is asking again).
    assert one.lease(["t-2"], 60) == {"t-2"} and one.lease(["t-2"], 60) == {"t-2"}
    assert two.lease(["t-2"], 60) == set()
    # Released: free at once; releasing another's lease does nothing.
    two.release_lease("t-2")
    assert two.lease(["t-2"], 60) == set()
    one.release_lease("t-2")
    assert two.lease(["t-1", "t-2", "t-3"], 60) == {"t-1", "t-2", "t-3"}
    one.close()
    two.close()


# -- notifications ----------------------------------------------------------------------------


def test_a_store_of_one_process_announces_nothing_and_ends_when_closed(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "db.sqlite3")

    async def listen() -> None:
        stream = store.notifications()
        waiting = asyncio.ensure_future(anext(stream))
        store.create_table(_table("t-n", 2))
        store.append_actions("t-n", [StoredAction(2, 0, "x")])
        await asyncio.sleep(0.05)
        assert not waiting.done()
        await asyncio.to_thread(store.close)
        with pytest.raises(StopAsyncIteration):
            await waiting
        # A stream asked for after the close ends at once.
        assert [n async for n in store.notifications()] == []

    asyncio.run(listen())


def test_a_stream_of_one_process_can_be_cancelled(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "db.sqlite3")

    async def cancel() -> None:
        task = asyncio.ensure_future(anext(store.notifications()))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel())
    store.close()


# -- files of earlier versions ----------------------------------------------------------------

#: The schema of the first SQLite files (no schema_version, no active, no listed).
FIRST_SQLITE = """
    CREATE TABLE tables (id TEXT PRIMARY KEY, config TEXT NOT NULL, bots TEXT NOT NULL,
                         seats TEXT NOT NULL, seed TEXT NOT NULL, created REAL NOT NULL);
    CREATE TABLE actions (table_id TEXT NOT NULL REFERENCES tables(id),
                          step INTEGER NOT NULL, seat INTEGER, action TEXT NOT NULL,
                          PRIMARY KEY (table_id, step));
"""
#: The schema of the first PostgreSQL databases: version 1, no leases.
FIRST_POSTGRES = (
    "CREATE TABLE schema_version (version integer NOT NULL)",
    "INSERT INTO schema_version VALUES (1)",
    """CREATE TABLE tables (id text PRIMARY KEY, config text NOT NULL, bots text NOT NULL,
        seats text NOT NULL, seed text NOT NULL, created double precision NOT NULL,
        active double precision, listed boolean NOT NULL DEFAULT true)""",
    """CREATE TABLE actions (table_id text NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        step integer NOT NULL, seat integer, action text NOT NULL,
        PRIMARY KEY (table_id, step))""",
)


def test_an_sqlite_file_of_the_first_version_is_brought_up_to_date(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    con = sqlite3.connect(db)
    with con:
        con.executescript(FIRST_SQLITE)
        con.execute("INSERT INTO tables VALUES ('t1', ?, '{\"1\": \"random\"}',"
                    " '{\"0\": \"h\"}', 's', 1.0)", (CONFIG,))
        con.executemany("INSERT INTO actions VALUES ('t1', ?, ?, ?)",
                        [(0, None, "deal 5H"), (1, 0, "play 5H")])
    con.close()
    store = SQLiteStore(db)
    (old,) = store.load_tables()
    assert old == StoredTable("t1", CONFIG, {1: "random"}, {0: "h"}, "s", 1.0,
                              (StoredAction(0, None, "deal 5H"), StoredAction(1, 0, "play 5H")),
                              active=None, listed=True)
    store.append_actions("t1", [StoredAction(2, 1, "play 6H")])
    assert store.lease(["t1"], 1) == {"t1"}
    store.delete_table("t1")  # its actions too, though the old relation has no cascade
    store.close()
    con = sqlite3.connect(db)
    assert con.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    assert con.execute("SELECT count(*) FROM actions").fetchall() == [(0,)]
    con.close()
    SQLiteStore(db).close()  # once only


def test_a_postgresql_database_of_the_first_version_is_brought_up_to_date(
        postgres_db: str) -> None:
    psycopg = pytest.importorskip("psycopg")
    from shock_rules.server._postgres import PostgresStore

    with psycopg.connect(postgres_db, autocommit=True) as conn:
        for statement in FIRST_POSTGRES:
            conn.execute(statement)
        conn.execute("INSERT INTO tables VALUES ('t1', %s, '{}', '{}', 's', 1.0, 2.0, false)",
                     (CONFIG,))
    store = PostgresStore(postgres_db)
    assert store.load_tables() == [StoredTable("t1", CONFIG, {}, {}, "s", 1.0, active=2.0,
                                               listed=False)]
    assert store.lease(["t1"], 5) == {"t1"}
    store.close()
    with psycopg.connect(postgres_db, autocommit=True) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [
            (SCHEMA_VERSION,)]


def test_a_file_of_another_program_is_refused_unchanged(tmp_path: Path) -> None:
    db = tmp_path / "other.sqlite3"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE tables (id TEXT, name TEXT)")
    con.commit()
    con.close()
    with pytest.raises(sqlite3.OperationalError, match="no such column: config"):
        SQLiteStore(db)
    con = sqlite3.connect(db)
    assert [r[0] for r in con.execute("SELECT name FROM sqlite_master")] == ["tables"]
    con.close()

