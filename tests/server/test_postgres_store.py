"""The PostgreSQL store against a real PostgreSQL server (``_postgres.py``), beyond the contract
of every store (``test_store_contract.py``): what several processes sharing it need -- one
winner per step, announcements of new steps, leases that end when their process stops renewing
them -- and what a database that fails does to it: restarted underneath, too slow, frozen, or
losing a connection in the middle of a commit (a real TCP proxy, ``_pgproxy.py``)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator

import pytest

psycopg = pytest.importorskip("psycopg")

from shock_rules.server._open import open_store  # noqa: E402
from shock_rules.server._postgres import PostgresStore  # noqa: E402 -- after the skip
from shock_rules.server._store import (  # noqa: E402
    SEATS_CHANGED,
    StepTakenError,
    StoredAction,
    StoredTable,
    StoreUnavailableError,
)

from ._pgproxy import PgProxy  # noqa: E402
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


def test_open_store_picks_the_store_by_the_url(postgres_db: str, tmp_path: object) -> None:
    s = open_store(postgres_db)
    assert isinstance(s, PostgresStore)
    s.close()


def test_two_stores_share_the_tables_and_hear_each_others_seat_changes(
        postgres_db: str) -> None:
    one, two = PostgresStore(postgres_db), PostgresStore(postgres_db)

    async def listen() -> list[tuple[str, int]]:
        stream = two.notifications()
        assert await anext(stream) == ("", -1)  # listening: catch up on what came before
        one.create_table(_table("t-shared", 2))
        # Steps are not announced (the table's owner alone plays it); a replaced seat token
        # is: the process playing the table closes the old token's connections.
        one.append_actions("t-shared", [StoredAction(2, 0, "x"), StoredAction(3, None, "y")])
        one.replace_seat_token("t-shared", 0, "cd" * 32)
        heard = [await asyncio.wait_for(anext(stream), 10)]
        await stream.aclose()
        return heard

    assert asyncio.run(listen()) == [("t-shared", SEATS_CHANGED)]
    assert two.seat_hashes("t-shared") == {0: "cd" * 32}
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


def test_postgresql_restarted_underneath_costs_a_clear_error_and_nothing_else(
        postgres: Postgres, postgres_db: str) -> None:
    store = PostgresStore(postgres_db)
    store.create_table(_table("t-restart", 3))
    assert store.lease(["t-restart"], 600) == {"t-restart"}

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
        store.replace_seat_token("t-restart", 0, "cd" * 32)
        heard = [await asyncio.wait_for(anext(stream), 10)]
        await stream.aclose()
        return heard

    assert asyncio.run(across()) == [("t-restart", SEATS_CHANGED)]
    # Nothing acknowledged was lost, nothing refused was kept.
    assert [a.action for a in store.actions_since("t-restart", 0)] == ["a0", "a1", "a2",
                                                                       "after"]
    # The lease is a row, not a session: it outlived the restart, and is renewed.
    assert store.lease(["t-restart"], 600) == {"t-restart"}
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



def test_a_hung_process_loses_its_leases_when_they_expire(postgres_db: str) -> None:
    # The holder renews its lease as a server does; stopped (SIGSTOP), it cannot, and the
    # lease goes to another process when it expires. Resumed, it is told it lost it.
    other = PostgresStore(postgres_db)
    other.create_table(_table("t-hang"))
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import time\n"
         "from shock_rules.server._postgres import PostgresStore\n"
         f"s = PostgresStore({postgres_db!r})\n"
         "assert s.lease(['t-hang'], 1.0) == {'t-hang'}\n"
         "print('held', flush=True)\n"
         "while s.lease(['t-hang'], 1.0) == {'t-hang'}:\n"
         "    time.sleep(0.1)\n"
         "print('lost', flush=True)\n"
         "time.sleep(600)\n"],
        stdout=subprocess.PIPE, text=True, env={**os.environ})
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert other.lease(["t-hang"], 60) == set()
        holder.send_signal(signal.SIGSTOP)
        deadline = time.monotonic() + 30
        while other.lease(["t-hang"], 60) != {"t-hang"}:
            assert time.monotonic() < deadline, "the hung process's lease never ended"
            time.sleep(0.1)
        holder.send_signal(signal.SIGCONT)
        assert holder.stdout.readline().strip() == "lost"
    finally:
        holder.kill()
        holder.wait(10)
        other.close()


def test_a_slow_call_holds_one_connection_not_the_store(postgres_db: str) -> None:
    store = PostgresStore(postgres_db, statement_timeout=60)
    store.create_table(_table("t-slow", 2))
    blocker = psycopg.connect(postgres_db, autocommit=True)
    outcome: list[object] = []
    try:
        blocker.execute("BEGIN")
        blocker.execute("LOCK TABLE actions IN ACCESS EXCLUSIVE MODE")
        reader = threading.Thread(
            target=lambda: outcome.append(store.actions_since("t-slow", 0)), daemon=True)
        reader.start()
        deadline = time.monotonic() + 30
        while not blocker.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND query LIKE 'SELECT step%%'").fetchone() == (1,):
            assert time.monotonic() < deadline, "the reader never waited for the lock"
            time.sleep(0.02)
        # The reader waits on its connection; the store's others answer meanwhile.
        assert store.seat_hashes("t-slow") == {0: "ab" * 32}
        assert store.lease(["t-slow"], 5) == {"t-slow"}
        assert reader.is_alive() and outcome == []
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    reader.join(30)
    assert outcome == [list(_table("t-slow", 2).actions)]
    store.close()


@pytest.fixture
def proxy(postgres: Postgres) -> Iterator[PgProxy]:
    p = PgProxy(postgres.port)
    yield p
    p.close()


def _appender(store: PostgresStore, how: str) -> Callable[[str, list[StoredAction]], None]:
    """``store``'s appends made in a thread (``append_actions``) or awaited on an event loop
    (``append_actions_async``: the server's way)."""
    if how == "thread":
        return store.append_actions
    return lambda table_id, actions: asyncio.run(store.append_actions_async(table_id, actions))


@pytest.mark.parametrize("how", ["thread", "loop"])
def test_a_commit_whose_answer_was_lost_is_stored_once_and_no_error(
        proxy: PgProxy, postgres_db: str, how: str) -> None:
    # The connection dies after PostgreSQL committed, before its answer: the store tries
    # again on a new connection, meets its own rows, and knows they are its own.
    store = PostgresStore(proxy.url(postgres_db))
    store.create_table(_table("t-lost", 2))
    mine = [StoredAction(2, 0, "mine"), StoredAction(3, None, "deal 5H")]
    append = _appender(store, how)
    if how == "loop":
        append("t-lost", [])  # nothing to store: no connection
    proxy.lose_commit_answer()
    append("t-lost", mine)  # no StepTakenError: they were stored, once
    assert proxy.failed.is_set()
    proxy.lose_commit_answer()
    store.create_table(_table("t-made", 1, listed=False))  # no TableExistsError either
    assert proxy.failed.is_set()
    direct = PostgresStore(postgres_db)
    assert direct.actions_since("t-lost", 0) == [*_table("t-lost", 2).actions, *mine]
    made = direct.load_table("t-made")
    assert made is not None and made.listed is False and len(made.actions) == 1
    # A different action at a step taken is still refused.
    with pytest.raises(StepTakenError):
        append("t-lost", [StoredAction(3, 1, "not mine")])
    direct.close()
    store.close()


@pytest.mark.parametrize("how", ["thread", "loop"])
def test_a_commit_lost_while_another_process_took_the_step_is_a_taken_step(
        proxy: PgProxy, postgres_db: str, how: str) -> None:
    # The connection dies before the COMMIT reaches PostgreSQL (rolled back), and another
    # process stores its own action at that step meanwhile: trying again, the store meets a
    # row that is not its own.
    store = PostgresStore(proxy.url(postgres_db))
    other = PostgresStore(postgres_db)
    store.create_table(_table("t-race", 2))
    proxy.lose_commit(lambda: other.append_actions("t-race", [StoredAction(2, 1, "theirs")]))
    with pytest.raises(StepTakenError):
        _appender(store, how)("t-race", [StoredAction(2, 0, "mine")])
    assert proxy.failed.is_set()
    assert [a.action for a in other.actions_since("t-race", 2)] == ["theirs"]
    other.close()
    store.close()


def test_a_frozen_database_costs_an_error_after_the_call_timeout(
        proxy: PgProxy, postgres_db: str) -> None:
    # Nothing answers and nothing closes: the database's own statement timeout cannot help,
    # the store's watchdog cuts the connection.
    store = PostgresStore(proxy.url(postgres_db), call_timeout=1.0)
    store.create_table(_table("t-frozen", 2))
    proxy.freeze()
    with pytest.raises(StoreUnavailableError, match=r"no answer within 1 s"):
        store.actions_since("t-frozen", 0)
    assert proxy.holding.is_set()
    proxy.thaw()
    assert len(store.actions_since("t-frozen", 0)) == 2  # on a new connection
    store.close()


def test_an_append_on_the_loop_to_a_frozen_database_ends_at_its_deadline_and_the_loop_runs(
        proxy: PgProxy, postgres_db: str) -> None:
    # Awaited on the event loop, with no thread: the statement's wait must not block the
    # loop, and the deadline (not the database, which cannot) must end it, on a connection
    # that was fine a moment before.
    store = PostgresStore(proxy.url(postgres_db), call_timeout=600)
    store.create_table(_table("t-frozen", 2))

    async def frozen() -> tuple[int, float]:
        await store.append_actions_async("t-frozen", [StoredAction(2, 0, "before")])
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.02)
                ticks += 1

        ticker = asyncio.create_task(tick())
        proxy.freeze()
        began = time.monotonic()
        with pytest.raises(StoreUnavailableError, match=r"did not answer within 1 s"):
            await store.append_actions_async("t-frozen", [StoredAction(3, 0, "held")],
                                             deadline=1.0)
        took = time.monotonic() - began
        ticker.cancel()
        return ticks, took

    ticks, took = asyncio.run(frozen())
    assert proxy.holding.is_set()
    assert 0.9 <= took < 10 and ticks >= 10  # the loop went on while the append waited
    proxy.thaw()
    # Whether the held statement was done is for a reader to find: here it is read whole.
    stored = [a.action for a in store.actions_since("t-frozen", 0)]
    assert stored[:3] == ["a0", "a1", "before"] and stored[3:] in ([], ["held"])
    asyncio.run(store.append_actions_async("t-frozen", [StoredAction(len(stored), 0, "after")]))
    assert store.actions_since("t-frozen", len(stored))[0].action == "after"
    store.close()


def test_postgresql_restarted_under_an_append_on_the_loop_costs_one_error(
        postgres: Postgres, postgres_db: str) -> None:
    store = PostgresStore(postgres_db)
    store.create_table(_table("t-again", 2))

    async def across() -> None:
        await store.append_actions_async("t-again", [StoredAction(2, 0, "before")])
        postgres.stop()
        with pytest.raises(StoreUnavailableError, match="cannot be reached"):
            await store.append_actions_async("t-again", [StoredAction(3, 0, "lost")])
        postgres.start()
        # The connection kept from before the restart is dead: a new one is made, once.
        await store.append_actions_async("t-again", [StoredAction(3, 0, "after")])

    asyncio.run(across())
    assert [a.action for a in store.actions_since("t-again", 0)] == ["a0", "a1", "before",
                                                                     "after"]
    store.close()


def test_closing_cuts_an_append_waiting_on_the_loop(proxy: PgProxy, postgres_db: str) -> None:
    store = PostgresStore(proxy.url(postgres_db), call_timeout=600)
    store.create_table(_table("t-shut", 1))

    async def shut() -> BaseException | None:
        await store.append_actions_async("t-shut", [StoredAction(1, 0, "x")])
        proxy.freeze()
        waiting = asyncio.create_task(
            store.append_actions_async("t-shut", [StoredAction(2, 0, "y")]))
        while not proxy.holding.is_set():
            await asyncio.sleep(0.01)
        store.close()
        try:
            await asyncio.wait_for(waiting, 30)
        except StoreUnavailableError as exc:
            return exc
        return None

    caught = asyncio.run(shut())
    proxy.thaw()
    assert isinstance(caught, StoreUnavailableError)
    with pytest.raises(StoreUnavailableError, match="the store is closed"):
        asyncio.run(store.append_actions_async("t-shut", [StoredAction(2, 0, "z")]))


def test_closing_does_not_wait_for_a_frozen_database(proxy: PgProxy, postgres_db: str) -> None:
    store = PostgresStore(proxy.url(postgres_db), call_timeout=600)
    store.create_table(_table("t-close", 1))
    proxy.freeze()
    outcome: list[BaseException | object] = []

    def read() -> None:
        try:
            outcome.append(store.load_tables())
        except BaseException as exc:  # handed to the test below
            outcome.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert proxy.holding.wait(30)
    store.close()  # returns: the stuck call's connection is cut, not waited for
    reader.join(30)
    assert not reader.is_alive() and len(outcome) == 1
    assert isinstance(outcome[0], StoreUnavailableError)
    assert str(outcome[0]) == "the store is closed"


def test_a_new_connection_is_told_what_the_store_holds_though_no_announcement_came(
        postgres_db: str) -> None:
    # Two processes' hubs on one database, neither listening: the first one's lease is ended
    # (as when it hung), so the second takes the table over and plays on; a connection to the
    # first, which did not hear the steps, is told them all the same.
    pytest.importorskip("starlette")
    import json

    from shock_rules.server._hub import Hub
    from shock_rules.server._tables import Connection

    async def run() -> None:
        one, two = Hub(PostgresStore(postgres_db)), Hub(PostgresStore(postgres_db))
        table_id, tokens = await one.create(3, "standard", {})
        stale = one.tables[table_id]
        await two.calls(two.store.evict, table_id, one.store.holder)
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
