"""Server processes that divide the work: each unfinished table is owned by one process (its
lease), a connection that reaches another process is served through the owner, a dead or hung
owner's tables are taken over, the lobby and the limits per address hold across processes,
and a database that freezes costs clear errors, not a server that hangs. Real processes, a
real PostgreSQL (``_postgres.py``)."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sqlite3
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")
pytest.importorskip("psycopg")

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from ._client import Seat
from ._live import LiveServer
from ._postgres import Postgres

BOTS = {"1": "random", "2": "heuristic", "3": "random"}


@pytest.fixture
def pair(tmp_path: Path, postgres_db: str) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two servers on one fresh PostgreSQL database."""
    one = LiveServer(tmp_path, db=postgres_db, name="one").start()
    two = LiveServer(tmp_path, db=postgres_db, name="two").start()
    try:
        yield one, two
    finally:
        for server in (one, two):
            if server.process is not None and server.process.poll() is None:
                server.process.send_signal(signal.SIGCONT)
            server.stop()


def _events(server: LiveServer, table: str, token: str | None = None) -> list[dict[str, Any]]:
    """Every event of a table so far, as a fresh connection to ``server`` is told them."""
    async def look() -> list[dict[str, Any]]:
        async with Seat(server.ws_url, table, token) as fresh:
            frame = await fresh.recv()
            events: list[dict[str, Any]] = frame["events"]
            return events
    return asyncio.run(look())


async def _closed(seat: Seat) -> tuple[int, str]:
    """Read a connection's frames until it is closed; return its close code and reason."""
    assert seat.ws is not None
    try:
        while True:
            await asyncio.wait_for(seat.ws.recv(), 60)
    except ConnectionClosed as closed:
        assert closed.rcvd is not None, "closed without a close frame"
        return closed.rcvd.code, closed.rcvd.reason


def _unique(events: list[dict[str, Any]]) -> bool:
    """Whether no step's events were told twice."""
    keys = [json.dumps(e, sort_keys=True) for e in events]
    return len(keys) == len(set(keys))


def _heard_whole(server: LiveServer, made: dict[str, Any], seat: Seat, seen: int,
                 again: Seat) -> None:
    """Assert that a seat that heard a table up to step ``seen`` on one connection, then
    played it to its end on ``again``, heard the whole game as ``server`` tells it: nothing
    lost, nothing twice."""
    assert again.views[-1]["view"]["phase"] == "over"
    whole = _events(server, made["table"], made["seats"][0]["token"])
    heard = [e for e in seat.events if e["step"] <= seen] + again.events
    assert heard == whole and _unique(whole)


def test_a_seat_reaching_another_process_is_served_through_the_owner(
        pair: tuple[LiveServer, LiveServer]) -> None:
    one, two = pair
    made = one.create(4, BOTS)
    token = made["seats"][0]["token"]

    async def play() -> Seat:
        async with Seat(two.ws_url, made["table"], token) as seat:
            await seat.play(random.Random(1))
        return seat

    seat = asyncio.run(play())
    assert seat.views[-1]["view"]["phase"] == "over"
    # One game, told alike by both processes and to the seat, every step once.
    whole = _events(one, made["table"], token)
    assert seat.events == whole == _events(two, made["table"], token) and _unique(whole)
    # The owner alone played it: the other process never loaded it.
    assert f"table {made['table']}: played here" not in two.log.read_text()


def test_a_killed_owners_table_goes_on_through_the_other_at_once(
        pair: tuple[LiveServer, LiveServer]) -> None:
    one, two = pair
    made = one.create(4, BOTS)
    bots_only = one.create(3, {"0": "random", "1": "random", "2": "heuristic"})
    token = made["seats"][0]["token"]
    rng = random.Random(5)

    async def before() -> tuple[Seat, tuple[int, str]]:
        async with Seat(two.ws_url, made["table"], token) as seat:
            await seat.play(rng, turns=5)
            one.kill()  # SIGKILL: its leases stay in the database until they end
            return seat, await _closed(seat)

    seat, (code, reason) = asyncio.run(before())
    assert code == 1013 and "try again" in reason  # the client comes again: it may
    seen = seat.views[-1]["view"]["step"]

    async def after() -> Seat:
        async with Seat(two.ws_url, made["table"], token, since=seen) as again:
            await again.play(rng)
        return again

    _heard_whole(two, made, seat, seen, asyncio.run(after()))
    assert "is gone; taken over" in two.log.read_text()

    # The bot-only table, with nobody connected, is taken over once its lease has ended.
    async def watch() -> dict[str, Any]:
        async with Seat(two.ws_url, bots_only["table"]) as spectator:
            return await spectator.watch()
    assert asyncio.run(watch())["phase"] == "over"


def test_a_hung_owner_loses_its_tables_and_finds_them_gone(
        pair: tuple[LiveServer, LiveServer]) -> None:
    one, two = pair
    made = one.create(4, BOTS)
    token = made["seats"][0]["token"]
    rng = random.Random(9)
    process = one.process
    assert process is not None

    async def before() -> tuple[Seat, tuple[int, str]]:
        async with Seat(two.ws_url, made["table"], token) as seat:
            await seat.play(rng, turns=3)
            process.send_signal(signal.SIGSTOP)  # hung: its socket open, no answer
            # Its lease ends unrenewed; the other process takes the table over and closes
            # the connection it forwarded to the hung one: the client comes again.
            return seat, await _closed(seat)

    seat, (code, reason) = asyncio.run(before())
    assert code == 1013 and "moved" in reason
    seen = seat.views[-1]["view"]["step"]

    async def after() -> Seat:
        async with Seat(two.ws_url, made["table"], token, since=seen) as again:
            view = await again.until_turn()
            process.send_signal(signal.SIGCONT)  # back: its lease is another's now
            await again.act(view, rng)
            await again.play(rng)
        return again

    _heard_whole(two, made, seat, seen, asyncio.run(after()))
    deadline = time.monotonic() + 30  # the hung process notices at its next renewal
    while "taken over by another server process" not in one.log.read_text():
        assert time.monotonic() < deadline, one.log.read_text()[-2000:]
        time.sleep(0.2)


def test_the_lobby_lists_the_tables_of_every_process(
        pair: tuple[LiveServer, LiveServer]) -> None:
    one, two = pair
    ones = one.create(3, {"1": "random", "2": "random"})["table"]
    twos = two.create(4, {"1": "random"}, variant="simplified")["table"]
    deadline = time.monotonic() + 30
    while True:
        lists = [{row["table"]: row for row in server.get("/api/tables")[1]["tables"]}
                 for server in (one, two)]
        if all({ones, twos} <= set(listed) for listed in lists):
            break
        assert time.monotonic() < deadline, lists
        time.sleep(0.2)
    for listed in lists:
        assert listed[twos]["players"] == 4 and listed[twos]["variant"] == "simplified"
        assert listed[ones]["bots"] == {"1": "random", "2": "random"}
        assert listed[ones]["persons"] == 1 and listed[ones]["over"] is False


def test_the_limits_per_address_hold_across_processes(tmp_path: Path, postgres: Postgres,
                                                      postgres_db: str) -> None:
    one = LiveServer(tmp_path, "--tables-per-address", "2", db=postgres_db, name="one").start()
    two = LiveServer(tmp_path, "--tables-per-address", "2", db=postgres_db, name="two").start()
    try:
        one.create(3)
        two.create(3)
        for server in (one, two):  # two unfinished tables of this address, made on two
            status, doc = server.request("POST", "/api/tables", b'{"players": 3}')
            assert (status, doc["code"]) == (429, "too_many_open"), doc
    finally:
        one.stop()
        two.stop()
    fresh = postgres.new_database()  # a bucket of this address's that nothing took from
    rate = [LiveServer(tmp_path, "--table-rate", "2", db=fresh, name=f"r{i}").start()
            for i in range(2)]
    try:
        rate[0].create(3)
        rate[1].create(3)
        # Each process's own bucket has one more: the two processes together have none.
        status, doc = rate[0].request("POST", "/api/tables", b'{"players": 3}')
        assert (status, doc["code"]) == (429, "too_fast"), doc
        assert "on all of this server's processes" in doc["message"]
    finally:
        for server in rate:
            server.stop()


def test_a_frozen_database_costs_clear_errors_not_a_hung_server(
        tmp_path: Path, postgres: Postgres, postgres_db: str) -> None:
    server = LiveServer(tmp_path, "--store-timeout", "2", db=postgres_db).start()
    made = server.create(4, BOTS)
    token = made["seats"][0]["token"]
    rng = random.Random(3)
    try:
        async def frozen() -> dict[str, Any]:
            async with Seat(server.ws_url, made["table"], token) as seat:
                view = await seat.play(rng, turns=2)
                postgres.freeze()
                try:
                    # The server answers what needs no database at once...
                    with urllib.request.urlopen(server.url + "/api/health", timeout=10) as ok:
                        assert json.loads(ok.read()) == {"ok": True}
                    # ...and an action waits for the database no longer than its deadline.
                    await seat.act(view, rng)
                    error = await seat.recv()
                finally:
                    postgres.thaw()
                # As a client does after an error: act again on the view it has. The action
                # the database did not answer for may have been stored as it woke (then this
                # one is stale, and the table, reading the store again, says so in a view).
                await seat.act(view, rng)
                await seat.play(rng)
                return error

        error = asyncio.run(frozen())
        assert error["type"] == "error" and error["code"] == "unavailable", error
        assert "did not answer within 2 s" in error["message"]
        assert _unique(_events(server, made["table"], token))
    finally:
        postgres.thaw()
        server.stop()


def test_a_forged_forwarding_header_is_not_believed(tmp_path: Path) -> None:
    server = LiveServer(tmp_path, "--sockets-per-address", "1").start()
    made = server.create(3, {"1": "random", "2": "random"})
    (secret,) = sqlite3.connect(server.db).execute(
        "SELECT value FROM settings WHERE name = 'peer_secret'").fetchone()
    url = f"{server.ws_url}/ws/{made['table']}"

    async def sockets() -> tuple[str, str]:
        async with connect(url) as first:
            await first.recv()
            outcomes = []
            for shown in ("not the secret", secret):
                headers = {"x-shock-rules-peer": shown, "x-shock-rules-client": "203.0.113.9"}
                async with connect(url, additional_headers=headers) as second:
                    try:
                        await asyncio.wait_for(second.recv(), 10)
                        outcomes.append("served")
                    except ConnectionClosed as closed:
                        assert closed.rcvd is not None
                        outcomes.append(f"closed {closed.rcvd.code}")
        return outcomes[0], outcomes[1]

    try:
        # A client naming another address is counted by its own (one socket open already);
        # another process of the server, showing the secret, is believed.
        assert asyncio.run(sockets()) == ("closed 4429", "served")
    finally:
        server.stop()
