"""What bounds a server's memory and disk: finished tables beyond ``--keep-finished`` are
dropped (from memory and from the SQLite file), and one client address creates at most
``--table-rate`` tables a minute (a real ``shock-rules serve`` on 127.0.0.1, and the pieces
in-process)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
from websockets.exceptions import ConnectionClosed

import shock_rules as sr
from shock_rules.server import Limits, SQLiteStore, StoredAction, StoredTable
from shock_rules.server._app import MAX_CLIENTS, _ClientLimits, client_key
from shock_rules.server._hub import DEFAULT_MAX_CLIENT_TABLES, DEFAULT_MAX_FINISHED, Hub

from ._client import Seat
from ._live import LiveServer

BOTS = {"0": "random", "1": "random", "2": "random"}


def stored_ids(db: Path) -> set[str]:
    """Return the ids of the tables in the SQLite file, and check no action is left over."""
    with sqlite3.connect(db) as con:
        ids = {i for (i,) in con.execute("SELECT id FROM tables")}
        orphans = con.execute("SELECT COUNT(*) FROM actions WHERE table_id NOT IN"
                              " (SELECT id FROM tables)").fetchone()
    assert orphans == (0,)
    return ids


def _finish(live: LiveServer, table: str) -> None:
    async def watch() -> dict[str, Any]:
        async with Seat(live.ws_url, table) as spectator:
            return await spectator.watch()

    assert asyncio.run(watch())["phase"] == "over"


def test_finished_tables_beyond_the_limit_are_dropped_oldest_first(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, "--keep-finished", "2").start()
    try:
        human = live.create(3)["table"]  # unfinished: never dropped
        done = []
        for _ in range(2):
            done.append(live.create(3, BOTS)["table"])
            _finish(live, done[-1])
        assert stored_ids(live.db) == {human, *done}

        # A spectator of the oldest finished table is there when it is dropped.
        async def dropped_while_watching() -> int | None:
            async with Seat(live.ws_url, done[0]) as spectator:
                assert (await spectator.recv())["view"]["phase"] == "over"
                done.append(live.create(3, BOTS)["table"])
                try:
                    while True:
                        await spectator.recv()
                except ConnectionClosed as exc:
                    return exc.rcvd.code if exc.rcvd else None

        assert asyncio.run(dropped_while_watching()) == 4404
        _finish(live, done[-1])
        assert live.get(f"/api/tables/{done[0]}")[0] == 404
        assert all(live.get(f"/api/tables/{t}")[0] == 200 for t in (human, *done[1:]))
        assert stored_ids(live.db) == {human, *done[1:]}

        # Restarted with a lower limit: the oldest finished one goes at once.
        live.stop()
        live.args = ("--keep-finished", "1")
        live.start()
        assert live.get(f"/api/tables/{done[1]}")[0] == 404
        assert live.get(f"/api/tables/{done[2]}")[0] == 200
        assert stored_ids(live.db) == {human, done[2]}
    finally:
        live.stop()
    log = live.log.read_text()
    assert "dropped 1 finished tables, beyond the 1 kept" in log and "Traceback" not in log


def test_one_address_creates_at_most_so_many_tables_a_minute(tmp_path: Path) -> None:
    # Bursts of 60, then 1 a second (and room for them all at once).
    live = LiveServer(tmp_path, "--table-rate", "60", "--tables-per-address", "200").start()
    try:
        # Refused requests do not count.
        assert live.request("POST", "/api/tables", b'{"players": 9}')[0] == 400
        start = time.monotonic()
        made = 0
        while (answer := live.request("POST", "/api/tables", b"{}"))[0] == 201:
            made += 1
            assert made <= 200
        status, doc = answer
        assert (status, doc["code"]) == (429, "too_fast"), doc
        # The burst, and one a second since.
        assert 60 <= made <= 60 + (time.monotonic() - start) + 1
        assert "more than 60 tables a minute from this address: try again in 1 s" \
            in doc["message"]
        import urllib.error
        import urllib.request

        req = urllib.request.Request(live.url + "/api/tables", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(req, timeout=10)
        assert info.value.code == 429 and info.value.headers["Retry-After"] == "1"
        time.sleep(1.1)
        live.create(3)  # a second later, a table again
    finally:
        live.stop()


def test_one_address_has_at_most_so_many_unfinished_tables(tmp_path: Path) -> None:
    # Three at once from 127.0.0.1; five tables a minute, so that refusals that counted
    # towards the rate would show as a 429 too_fast at the end.
    live = LiveServer(tmp_path, "--tables-per-address", "3", "--table-rate", "5").start()
    try:
        live.create(3)
        live.create(3)
        bots_only = live.create(3, BOTS)["table"]
        status, doc = live.request("POST", "/api/tables", b"{}")
        assert (status, doc["code"]) == (429, "too_many_open"), doc
        assert doc["message"] == (
            "this client address has 3 unfinished tables already: finish one first, or wait"
            " until one is deleted (no seat connected and no action for 60 minutes)")
        _finish(live, bots_only)  # a finished table counts no more
        live.create(3)
        for _ in range(3):
            assert live.request("POST", "/api/tables", b"{}")[1]["code"] == "too_many_open"
    finally:
        live.stop()
    assert "Traceback" not in live.log.read_text()


# -- the pieces ---------------------------------------------------------------------------------


def test_the_tables_of_each_address_are_counted_apart() -> None:
    from shock_rules.server._hub import ClientLimitError, TableLimitError

    from .test_idle import Clock

    clock = Clock()

    async def run() -> None:
        hub = Hub(SQLiteStore(":memory:"), max_tables=5, max_client_tables=2,
                  idle_seconds=60, clock=clock)
        for client in ("203.0.113.7", "203.0.113.7", "2001:db8:1:2::/64", None, None):
            await hub.create(3, "standard", {}, client)
        with pytest.raises(ClientLimitError, match="has 2 unfinished tables already"):
            await hub.create(3, "standard", {}, "203.0.113.7")
        assert await hub.client_tables("203.0.113.7") == 2 and await hub.client_tables("x") == 0
        # The server's own limit is the other one, with its own error.
        with pytest.raises(TableLimitError) as info:
            await hub.create(3, "standard", {}, "198.51.100.1")
        assert type(info.value) is TableLimitError
        clock.now += 60  # all abandoned: the address may create again
        await hub.create(3, "standard", {}, "203.0.113.7")
        assert await hub.client_tables("203.0.113.7") == 1 and len(hub.tables) == 1
        await hub.stop()

    asyncio.run(run())



def test_the_command_line_defaults_are_the_libraries() -> None:
    from shock_rules.cli import serve

    limits = Limits()
    assert limits.finished_tables == DEFAULT_MAX_FINISHED == 200
    assert limits.tables_per_minute == 300
    assert limits.tables_per_address == DEFAULT_MAX_CLIENT_TABLES == 20
    assert (limits.bot_workers, limits.mcts_per_table, limits.mcts_tables_per_address) == (
        1, 1, 4)
    text = Path(serve.__file__).read_text()
    assert "default=200," in text and "default=300," in text and "default=20," in text
    assert "default=4," in text


@pytest.mark.parametrize(("host", "key"), [
    ("203.0.113.7", "203.0.113.7"),
    ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),
    ("::ffff:203.0.113.7", "203.0.113.7"),
    ("testclient", "testclient"),
    (None, ""),
])
def test_a_client_is_an_ipv4_address_or_an_ipv6_64(host: str | None, key: str) -> None:
    assert client_key(host) == key


def test_the_buckets_of_clients_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    clients = _ClientLimits(6)  # bursts of 6, one every 10 seconds
    first = clients.bucket("198.51.100.1")
    assert all(first.take() for _ in range(6)) and not first.take()
    assert first.wait() == pytest.approx(10)
    clock[0] += 5
    assert clients.bucket("198.51.100.1") is first and not first.take()
    for n in range(MAX_CLIENTS + 50):  # many addresses at once: the oldest are forgotten
        assert clients.bucket(f"10.{n >> 16}.{(n >> 8) & 255}.{n & 255}").take()
    assert len(clients.buckets) == MAX_CLIENTS
    clock[0] += 61  # all full again: as good as new, forgotten
    assert clients.bucket("198.51.100.2") is not first and len(clients.buckets) == 1


def test_the_store_deletes_a_table_and_its_actions(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "db.sqlite3")
    for table_id in ("t1", "t2"):
        store.create_table(StoredTable(id=table_id, config=sr.to_json(sr.GameConfig(players=3)),
                                       bots={}, seats={}, seed="x", created=1.0,
                                       actions=(StoredAction(0, None, "deal 5H"),)))
    store.delete_table("t1")
    store.delete_table("nosuchtable")
    assert [t.id for t in store.load_tables()] == ["t2"]
    store.close()
    assert stored_ids(tmp_path / "db.sqlite3") == {"t2"}


def test_a_finished_table_keeps_nothing_it_no_longer_needs(tmp_path: Path) -> None:
    async def run() -> Hub:
        hub = Hub(SQLiteStore(tmp_path / "db.sqlite3"), max_finished=1)
        ids = [(await hub.create(3, "standard", BOTS))[0] for _ in range(3)]
        async with asyncio.timeout(60):
            while len(hub.tables) > 1 or not all(t.is_over for t in hub.tables.values()):
                await asyncio.sleep(0.01)
        (kept,) = hub.tables.values()
        assert kept.id in ids and hub.dropped == 2
        assert kept._stored == [] and kept._bots == {}
        assert len(kept.table.record().actions) > 50  # what it shows is still there
        await hub.stop()
        return hub

    hub = asyncio.run(run())
    assert stored_ids(tmp_path / "db.sqlite3") == set(hub.tables)
    assert json.loads(json.dumps(next(iter(hub.tables.values())).table.view_document(None)))
