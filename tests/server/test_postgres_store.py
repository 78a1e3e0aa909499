"""The PostgreSQL store against a real PostgreSQL server (``_postgres.py``): the contract of
every store, and what several processes sharing it need -- one winner per step, announcements
of new steps, leases that die with their process, and a database restarted underneath."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

psycopg = pytest.importorskip("psycopg")

from shock_rules.server._open import open_store  # noqa: E402
from shock_rules.server._postgres import (  # noqa: E402 -- after the skip
    SCHEMA_VERSION,
    PostgresStore,
    SchemaVersionError,
)
from shock_rules.server._store import (  # noqa: E402
    StepTakenError,
    StoredAction,
    StoredTable,
    StoreUnavailableError,
)

from ._postgres import Postgres  # noqa: E402


@pytest.fixture
def store(postgres_db: str) -> Iterator[PostgresStore]:
    s = PostgresStore(postgres_db)
    yield s
    s.close()


def _table(table_id: str, actions: int = 0, **fields: object) -> StoredTable:
    acts = tuple(StoredAction(i, None if i % 2 else 0, f"a{i}") for i in range(actions))
    return StoredTable(id=table_id, config='{"type": "GameConfig"}', bots={1: "random"},
                       seats={0: "ab" * 32}, seed="5eed", created=100.0 + len(table_id),
                       actions=acts, **fields)  # type: ignore[arg-type]


def test_tables_are_stored_whole_and_come_back_in_order(store: PostgresStore) -> None:
    store.create_table(_table("t-one", 3, listed=False))
    store.create_table(_table("t-second", 0))
    store.append_actions("t-second", [StoredAction(0, None, "deal 7H"),
                                      StoredAction(1, 2, "play 7H")])
    tables = store.load_tables()
    assert [t.id for t in tables] == ["t-one", "t-second"]
    one, two = tables
    assert one.actions == _table("t-one", 3).actions and one.listed is False
    assert one.bots == {1: "random"} and one.seats == {0: "ab" * 32} and one.seed == "5eed"
    assert two.actions == (StoredAction(0, None, "deal 7H"), StoredAction(1, 2, "play 7H"))
    assert two.listed is True and two.active is not None and two.active > two.created
    assert store.load_table("t-one") == one
    assert store.load_table("nope") is None
    assert store.actions_since("t-one", 1) == list(one.actions[1:])


def test_a_taken_id_or_a_taken_step_stores_nothing(store: PostgresStore) -> None:
    store.create_table(_table("t-x", 2))
    with pytest.raises(psycopg.errors.UniqueViolation):
        store.create_table(_table("t-x", 5))
    with pytest.raises(StepTakenError):
        store.append_actions("t-x", [StoredAction(2, 1, "new"), StoredAction(1, 1, "again")])
    assert store.actions_since("t-x", 0) == list(_table("t-x", 2).actions)  # all or none
    store.append_actions("t-x", [StoredAction(2, 1, "new")])
    assert len(store.actions_since("t-x", 0)) == 3


def test_delete_and_mark_active(store: PostgresStore) -> None:
    store.create_table(_table("t-del", 4))
    store.create_table(_table("t-keep", 1))
    store.mark_active({"t-keep": 12345.5, "t-gone": 1.0})
    store.delete_table("t-del")
    store.delete_table("t-never")
    (kept,) = store.load_tables()
    assert kept.id == "t-keep" and kept.active == 12345.5
    assert store.actions_since("t-del", 0) == []


def test_an_unreadable_row_is_left_out_and_the_others_load(store: PostgresStore,
                                                           postgres_db: str) -> None:
    store.create_table(_table("t-good", 1))
    store.create_table(_table("t-bad", 1))
    with psycopg.connect(postgres_db, autocommit=True) as conn:
        conn.execute("UPDATE tables SET bots = 'not json' WHERE id = 't-bad'")
    assert [t.id for t in store.load_tables()] == ["t-good"]


def test_the_schema_is_made_once_with_its_version_and_a_newer_one_is_refused(
        postgres_db: str) -> None:
    stores = [PostgresStore(postgres_db) for _ in range(3)]  # a second start changes nothing
    with psycopg.connect(postgres_db, autocommit=True) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [
            (SCHEMA_VERSION,)]
        conn.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION + 1,))
    with pytest.raises(SchemaVersionError, match="newer than this shock_rules knows"):
        PostgresStore(postgres_db)
    for s in stores:
        s.close()


def test_open_store_picks_the_store_by_the_url(postgres_db: str, tmp_path: object) -> None:
    s = open_store(postgres_db)
    assert isinstance(s, PostgresStore)
    s.close()


def test_two_stores_share_the_tables_and_hear_each_others_steps(postgres_db: str) -> None:
    one, two = PostgresStore(postgres_db), PostgresStore(postgres_db)

    async def listen() -> list[tuple[str, int]]:
        heard: list[tuple[str, int]] = []
        stream = two.notifications()
        assert await anext(stream) == ("", -1)  # listening: catch up on what came before
        one.create_table(_table("t-shared", 2))
        one.append_actions("t-shared", [StoredAction(2, 0, "x"), StoredAction(3, None, "y")])
        while len(heard) < 2:
            heard.append(await asyncio.wait_for(anext(stream), 10))
        await stream.aclose()
        return heard

    assert asyncio.run(listen()) == [("t-shared", 2), ("t-shared", 4)]
    assert [a.step for a in two.actions_since("t-shared", 0)] == [0, 1, 2, 3]
    one.close()
    two.close()


def test_two_stores_racing_for_a_step_cannot_both_win(postgres_db: str) -> None:
    stores = [PostgresStore(postgres_db) for _ in range(4)]
    stores[0].create_table(_table("t-race", 5))
    won, lost = 0, 0
    for attempt in range(5, 25):
        for k, s in enumerate(stores):
            try:
                s.append_actions("t-race", [StoredAction(attempt, k, f"by {k}")])
                won += 1
            except StepTakenError:
                lost += 1
    assert won == 20 and lost == 60
    assert [a.step for a in stores[1].actions_since("t-race", 0)] == list(range(25))
    for s in stores:
        s.close()


def test_a_lease_is_held_by_one_store_and_ends_with_it(postgres_db: str) -> None:
    one, two = PostgresStore(postgres_db), PostgresStore(postgres_db)
    assert one.try_lease("t-bots") and one.try_lease("t-bots")  # again: still held
    assert one.holds_lease("t-bots") and not two.holds_lease("t-bots")
    assert not two.try_lease("t-bots")
    assert two.try_lease("t-other")
    one.release_lease("t-bots")  # once is enough, however often it was asked
    assert not one.holds_lease("t-bots")
    assert two.try_lease("t-bots")
    two.close()  # its session ends: PostgreSQL frees its locks (a moment later)
    deadline = time.monotonic() + 10
    while not one.try_lease("t-bots"):
        assert time.monotonic() < deadline, "a closed store's lease never ended"
        time.sleep(0.05)
    assert one.try_lease("t-other")
    one.close()


def test_a_process_killed_loses_its_leases(postgres_db: str) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time\n"
         "from shock_rules.server._postgres import PostgresStore\n"
         f"s = PostgresStore({postgres_db!r})\n"
         "assert s.try_lease('t-kill')\n"
         "print('held', flush=True)\n"
         "time.sleep(600)\n"],
        stdout=subprocess.PIPE, text=True, env={**os.environ})
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        other = PostgresStore(postgres_db)
        assert not other.try_lease("t-kill")
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
        deadline = time.monotonic() + 10
        while not other.try_lease("t-kill"):  # PostgreSQL ends the session's locks
            assert time.monotonic() < deadline, "the killed process's lease never ended"
            time.sleep(0.05)
        other.close()
    finally:
        holder.kill()


def test_postgresql_restarted_underneath_costs_a_clear_error_and_nothing_else(
        postgres: Postgres, postgres_db: str) -> None:
    store = PostgresStore(postgres_db)
    store.create_table(_table("t-restart", 3))
    assert store.try_lease("t-restart")

    async def across() -> list[tuple[str, int]]:
        stream = store.notifications()
        assert await anext(stream) == ("", -1)
        postgres.stop()
        with pytest.raises(StoreUnavailableError) as caught:
            store.append_actions("t-restart", [StoredAction(3, 0, "lost?")])
        message = str(caught.value)
        assert "cannot be reached" in message and "postgres@" not in message
        with pytest.raises(StoreUnavailableError):
            store.load_tables()
        postgres.start()
        # The listener comes back by itself and says it may have missed announcements.
        assert await asyncio.wait_for(anext(stream), 30) == ("", -1)
        store.append_actions("t-restart", [StoredAction(3, 0, "after")])
        heard = [await asyncio.wait_for(anext(stream), 10)]
        await stream.aclose()
        return heard

    assert asyncio.run(across()) == [("t-restart", 4)]
    # Nothing acknowledged was lost, nothing refused was kept.
    assert [a.action for a in store.actions_since("t-restart", 0)] == ["a0", "a1", "a2",
                                                                       "after"]
    # The lease's session ended with the restart: the store knows at the next lease call,
    # which takes it again on a new session.
    assert store.try_lease("t-restart") and store.holds_lease("t-restart")
    store.close()


def test_a_database_that_stops_answering_costs_an_error_not_a_hang(postgres_db: str) -> None:
    # Another session locks the actions away from everyone, as a stuck database would: the
    # store's statements wait on the server, which cancels them at the statement timeout.
    store = PostgresStore(postgres_db, statement_timeout=0.5)
    store.create_table(_table("t-stuck", 2))
    blocker = psycopg.connect(postgres_db, autocommit=True)
    try:
        blocker.execute("BEGIN")
        blocker.execute("LOCK TABLE actions IN ACCESS EXCLUSIVE MODE")
        outcome: list[BaseException | list[StoredAction]] = []

        def read() -> None:
            try:
                outcome.append(store.actions_since("t-stuck", 0))
            except BaseException as exc:  # handed to the test below
                outcome.append(exc)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(60)  # without a statement timeout it would wait for the lock for ever
        assert len(outcome) == 1 and isinstance(outcome[0], StoreUnavailableError)
        assert "no answer within 0.5 s" in str(outcome[0])
        with pytest.raises(StoreUnavailableError):
            store.append_actions("t-stuck", [StoredAction(2, 0, "held up")])
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    # Once the database answers again, so does the store, and nothing refused was kept.
    assert [a.action for a in store.actions_since("t-stuck", 0)] == ["a0", "a1"]
    store.close()


def test_keepalives_are_set_unless_the_url_sets_its_own() -> None:
    from shock_rules.server._postgres import _keepalive_options, _with_keepalives

    plain = _keepalive_options("postgresql://u@h/db")
    assert plain["keepalives"] == "1" and plain["tcp_user_timeout"] == "30000"
    own = _keepalive_options("postgresql://u@h/db?keepalives_idle=60&tcp_user_timeout=5000")
    assert "keepalives_idle" not in own and "tcp_user_timeout" not in own
    assert own["keepalives_count"] == "3"
    merged = psycopg.conninfo.conninfo_to_dict(
        _with_keepalives("postgresql://u@h/db?keepalives_idle=60"))
    assert merged["keepalives_idle"] == "60" and merged["keepalives"] == "1"
    assert merged["user"] == "u" and merged["dbname"] == "db"



def test_a_new_connection_is_told_what_the_store_holds_though_no_announcement_came(
        postgres_db: str) -> None:
    # Two processes' hubs on one database, neither listening: as when the announcements were
    # lost while PostgreSQL restarted, or a client reached a process before they arrived. A
    # connection to the process that did not hear the steps is told them all the same.
    pytest.importorskip("starlette")
    import json

    from shock_rules.server._tables import Connection, Hub

    async def run() -> None:
        one, two = Hub(PostgresStore(postgres_db)), Hub(PostgresStore(postgres_db))
        table_id, tokens = await one.create(3, "standard", {})
        stale = one.tables[table_id]
        there = await two.find(table_id)
        assert there is not None and set(tokens) == {0, 1, 2}
        behind = stale.table.step
        seats = [Connection(s) for s in range(3)]
        for seat in seats:
            await there.welcome(seat)
        for _ in range(5):  # five actions through the second process, whoever's turn it is
            (mover,) = [s for s in seats if there.table.view_document(s.seat)["your_turn"]]
            view = there.table.view_document(mover.seat)
            legal = view["legal_actions"]
            assert isinstance(legal, list)
            error = await there.act(mover, json.dumps({
                "type": "action", "action": legal[0]["notation"], "step": view["step"]}))
            assert error is None, error
        assert stale.table.step == behind < there.table.step
        fresh = Connection(None)
        await stale.welcome(fresh)
        first = json.loads(fresh.queue.get_nowait() or "null")
        assert first["view"]["step"] == there.table.step == stale.table.step
        for hub in (one, two):
            await hub.stop()
            hub.store.close()

    asyncio.run(run())
