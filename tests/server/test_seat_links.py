"""A seat's token never travels in a URL: it is the first message (a hello) of a seat's WebSocket,
``/ws/ID/seat``, which is sent nothing before; a seat's
link can be replaced (the old token stops working, its connections are closed); a seat hears
how many connections hold it; and WebSockets are capped per address, per seat and in rate
(a real ``shock-rules serve`` on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from shock_rules.server import token_hash

from ._client import Seat
from ._live import LiveServer

BOTS = {"1": "random", "2": "random"}


def replace(server: LiveServer, table: str, seat: int | str,
            token: str | None) -> tuple[int, dict[str, str], Any]:
    """``POST /api/tables/TABLE/seats/SEAT/token`` with ``token`` as the bearer; return the
    status, the headers and the JSON answer."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    request = urllib.request.Request(f"{server.url}/api/tables/{table}/seats/{seat}/token",
                                     data=b"", method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, _lower(answer.headers.items()), json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, _lower(exc.headers.items()), json.loads(exc.read())


def _lower(headers: Any) -> dict[str, str]:
    return {k.lower(): v for k, v in headers}


async def closed(seat: Seat) -> tuple[int | None, str | None]:
    """Receive until the server closes the connection; return its code and reason."""
    try:
        while True:
            await seat.recv()
    except ConnectionClosed as exc:
        return (exc.rcvd.code, exc.rcvd.reason) if exc.rcvd else (None, None)


async def close_of(url: str, *messages: object) -> tuple[int | None, str, list[Any]]:
    """Open ``url``, send ``messages``, and return the close code, its reason and the frames
    received before it."""
    frames: list[Any] = []
    async with connect(url) as ws:
        for message in messages:
            await ws.send(json.dumps(message))
        try:
            while True:
                frames.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
        except ConnectionClosed as exc:
            assert exc.rcvd is not None
            return exc.rcvd.code, exc.rcvd.reason, frames


def test_a_token_in_the_websocket_url_is_refused_before_any_view(server: LiveServer) -> None:
    doc = server.create(3, BOTS)
    token = doc["seats"][0]["token"]
    for path in ("", "/seat"):
        for query in (f"token={token}", f"tok%65n={token}", f"since=0&token={token}", "token="):
            code, reason, frames = asyncio.run(
                close_of(f"{server.ws_url}/ws/{doc['table']}{path}?{query}"))
            assert (code, frames) == (4400, [])
            assert reason == ("send the seat's token in the first message at /ws/ID/seat, not"
                              " in the URL")


def test_a_seats_connection_is_sent_nothing_before_its_hello(server: LiveServer) -> None:
    doc = server.create(3)  # no bot: no view comes between those of the hello
    token = doc["seats"][0]["token"]

    async def run() -> tuple[list[Any], list[Any], list[Any], Any]:
        url = f"{server.ws_url}/ws/{doc['table']}"
        async with connect(url) as ws:  # a spectator: a view at once, with no message sent
            spectator = [json.loads(await asyncio.wait_for(ws.recv(), 30))]
        async with connect(url + "/seat") as ws:
            with pytest.raises(TimeoutError):  # nothing for whoever has not said who it is
                await asyncio.wait_for(ws.recv(), 0.5)
            await ws.send(json.dumps({"type": "hello", "token": token}))
            seated = [json.loads(await asyncio.wait_for(ws.recv(), 30)) for _ in range(2)]
            # A second hello is refused, and changes nothing.
            await ws.send(json.dumps({"type": "hello", "token": token}))
            seated.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
        async with connect(url) as ws:  # a hello on a spectator's connection: refused
            await ws.recv()
            await ws.send(json.dumps({"type": "hello", "token": token}))
            late = [json.loads(await asyncio.wait_for(ws.recv(), 30))]
        # The hello must come first.
        closed = await close_of(url + "/seat", {"type": "action", "action": "pass", "step": 0})
        return spectator, seated, late, closed

    spectator, seated, late, (code, reason, frames) = asyncio.run(run())
    assert spectator[0]["type"] == "view" and spectator[0]["seat"] is None
    # The seat's frame first, then how many connections hold the seat.
    assert [f["type"] for f in seated] == ["view", "seat", "error"]
    assert seated[0]["seat"] == 0 and seated[0]["view"]["hand"]  # the seat's own cards
    # Its frame starts at the beginning: every event since the game began, as seat 0 sees
    # them (without since).
    dealt = [e for e in seated[0]["events"] if e["event"] == "CardDealt"]
    assert dealt and all(e["seat"] == 0 for e in dealt)
    assert seated[1] == {"type": "seat", "seat": 0, "connections": 1}
    assert seated[2]["code"] == "bad_document" and "first message" in seated[2]["message"]
    assert late[0]["code"] == "bad_document" and "/ws/ID/seat" in late[0]["message"]
    assert (code, frames) == (4400, []) and "the first message must be a hello" in reason


def test_a_hello_must_come_in_time(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, "--head-timeout", "0.5").start()
    try:
        doc = live.create(3, BOTS)
        code, reason, frames = asyncio.run(close_of(f"{live.ws_url}/ws/{doc['table']}/seat"))
        assert (code, frames) == (4400, []) and "no hello within 0.5 s" in reason
    finally:
        live.stop()


def test_a_bad_hello_is_closed(server: LiveServer) -> None:
    doc = server.create(3, BOTS)
    url = f"{server.ws_url}/ws/{doc['table']}/seat"
    code, reason, frames = asyncio.run(close_of(url, {"type": "hello", "token": "nope"}))
    assert (code, frames) == (4401, [])
    for bad in ({"type": "hello"}, {"type": "hello", "token": 7}, "hello", [1]):
        code, reason, frames = asyncio.run(close_of(url, bad))
        assert (code, frames) == (4400, []) and "hello" in reason
    code, _, frames = asyncio.run(close_of(f"{server.ws_url}/ws/nosuchtable1/seat"))
    assert (code, frames) == (4404, [])


def test_replacing_a_seats_link_closes_the_old_ones(server: LiveServer) -> None:
    doc = server.create(3, BOTS)
    table = doc["table"]
    old = doc["seats"][0]["token"]

    async def run() -> tuple[Any, ...]:
        async with Seat(server.ws_url, table, old) as first, \
                Seat(server.ws_url, table, old) as second, \
                Seat(server.ws_url, table) as spectator:
            await first.recv()
            await second.recv()
            await spectator.recv()
            status, headers, answer = await asyncio.to_thread(replace, server, table, 0, old)
            ends = await asyncio.gather(closed(first), closed(second))
            # The spectator stays.
            await spectator.send({"type": "action", "action": "pass", "step": 0})
            still = await spectator.recv()
        return status, headers, answer, ends, still

    status, headers, answer, ends, still = asyncio.run(run())
    assert status == 200 and headers["cache-control"] == "no-store"
    assert answer["seat"] == 0 and len(answer["token"]) >= 40 and answer["token"] != old
    assert ends == [(4401, "the seat's link was replaced")] * 2
    assert still["type"] == "error"
    new = answer["token"]
    url = f"{server.ws_url}/ws/{table}/seat"
    assert asyncio.run(close_of(url, {"type": "hello", "token": old}))[0] == 4401
    with sqlite3.connect(server.db) as con:
        (seats,) = con.execute("SELECT seats FROM tables WHERE id = ?", (table,)).fetchone()
    assert json.loads(seats) == {"0": token_hash(new)}

    async def play() -> dict[str, Any]:
        async with Seat(server.ws_url, table, new) as seat:
            return await seat.until_turn()

    assert asyncio.run(play())["seat"] == 0
    # The old token cannot replace it again; a wrong seat, a missing header neither.
    assert replace(server, table, 0, old)[0] == 401
    assert replace(server, table, 1, new)[0] == 401
    status, headers, answer = replace(server, table, 0, None)
    assert status == 401 and headers["www-authenticate"] == "Bearer"
    assert replace(server, "nosuchtable1", 0, new)[0] == 404


def test_a_replaced_token_stays_replaced_after_a_restart(fresh_server: LiveServer) -> None:
    doc = fresh_server.create(3, BOTS)
    old = doc["seats"][0]["token"]
    new = replace(fresh_server, doc["table"], 0, old)[2]["token"]
    fresh_server.kill()
    fresh_server.start()
    url = f"{fresh_server.ws_url}/ws/{doc['table']}/seat"
    assert asyncio.run(close_of(url, {"type": "hello", "token": old}))[0] == 4401

    async def play() -> dict[str, Any]:
        async with Seat(fresh_server.ws_url, doc["table"], new) as seat:
            return await seat.until_turn()

    assert asyncio.run(play())["seat"] == 0


def test_a_seat_hears_how_many_connections_hold_it(server: LiveServer) -> None:
    doc = server.create(3, BOTS)
    token = doc["seats"][0]["token"]

    async def next_count(seat: Seat) -> int:
        while True:
            frame = await seat.recv_any()
            if frame["type"] == "seat":
                count: int = frame["connections"]
                return count

    async def run() -> list[int]:
        counts = []
        async with Seat(server.ws_url, doc["table"], token) as one:
            counts.append(await next_count(one))
            async with Seat(server.ws_url, doc["table"], token):
                counts.append(await next_count(one))
                async with Seat(server.ws_url, doc["table"]):  # a spectator does not count
                    pass
            counts.append(await next_count(one))
        return counts

    assert asyncio.run(run()) == [1, 2, 1]


def test_websockets_are_capped_per_seat_and_per_address(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, "--sockets-per-address", "3", "--sockets-per-seat", "2",
                      "--socket-rate", "50").start()
    try:
        doc = live.create(3, BOTS)
        token = doc["seats"][0]["token"]
        url = f"{live.ws_url}/ws/{doc['table']}"

        async def run() -> tuple[Any, Any, Any]:
            async with Seat(live.ws_url, doc["table"], token), \
                    Seat(live.ws_url, doc["table"], token):
                third_seat = await close_of(url + "/seat", {"type": "hello", "token": token})
                await asyncio.sleep(0.3)  # the server's end of it
                async with Seat(live.ws_url, doc["table"]):
                    fourth = await close_of(url)
            await asyncio.sleep(0.3)
            again = await close_of(url + "/seat", {"type": "hello", "token": "x"})  # room again
            return third_seat, fourth, again

        third_seat, fourth, again = asyncio.run(run())
        assert third_seat[:2] == (4429, "this seat has 2 connections already: close one first")
        assert fourth == (4429, "this address has 3 WebSockets open already: close one first",
                          [])
        assert again[0] == 4401
    finally:
        live.stop()


def test_new_websockets_from_one_address_are_rate_limited(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, "--socket-rate", "1").start()
    try:
        doc = live.create(3, {"0": "random", **BOTS})
        url = f"{live.ws_url}/ws/{doc['table']}"

        async def one() -> int | None:
            async with connect(url) as ws:
                try:
                    await asyncio.wait_for(ws.recv(), 30)
                except ConnectionClosed as exc:
                    return exc.rcvd.code if exc.rcvd else None
                return 1000

        async def run() -> list[int | None]:
            return [await one() for _ in range(4)]

        codes = asyncio.run(run())
        assert codes[:2] == [1000, 1000] and 4429 in codes[2:]  # a burst of 2, then 1 a second
        code, reason, frames = asyncio.run(close_of(url))
        assert frames == [] and code == 4429 and "new WebSockets a second" in reason
    finally:
        live.stop()


def test_replacing_links_is_rate_limited_per_address(tmp_path: Path) -> None:
    # Each try reads (and a right one writes) the store: a wrong token may not be tried at
    # will, and a right one may not churn the store either.
    live = LiveServer(tmp_path, "--replace-rate", "3").start()
    try:
        doc = live.create(3, BOTS)
        table, token = doc["table"], doc["seats"][0]["token"]
        tries = [replace(live, table, 0, "x" * 43)[0] for _ in range(3)]
        assert tries == [401, 401, 401]
        status, headers, answer = replace(live, table, 0, token)
        assert status == 429 and answer["code"] == "too_fast"
        assert "seat links replaced a minute" in answer["message"]
        assert int(headers["retry-after"]) >= 1
        assert replace(live, table, 0, None)[0] == 401  # no token: nothing to try, no cost
    finally:
        live.stop()


def test_the_connections_of_one_seat_share_its_message_rate(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, "--rate-limit", "5").start()
    try:
        doc = live.create(3, BOTS)
        token = doc["seats"][0]["token"]

        async def run() -> int:
            async with Seat(live.ws_url, doc["table"], token) as one, \
                    Seat(live.ws_url, doc["table"], token) as two:
                # The seat's turn: no bot moves (and no view) while the messages come.
                await one.until_turn()
                await two.until_turn()
                # Stale messages from both: each gets an error, too_fast once the seat's
                # shared burst of 5 is spent (each connection's own burst would allow 10).
                for _ in range(5):
                    await one.send({"type": "action", "action": "pass", "step": 10**6})
                    await two.send({"type": "action", "action": "pass", "step": 10**6})
                answers = [await one.recv() for _ in range(5)] + [await two.recv()
                                                                  for _ in range(5)]
            return sum(1 for a in answers if a.get("code") == "too_fast")

        assert asyncio.run(run()) >= 2
    finally:
        live.stop()


def test_a_person_plays_a_whole_game_with_a_hello(server: LiveServer) -> None:
    doc = server.create(3, BOTS)

    async def run() -> dict[str, Any]:
        async with Seat(server.ws_url, doc["table"], doc["seats"][0]["token"]) as seat:
            return await seat.play(random.Random(3))

    assert asyncio.run(run())["phase"] == "over"


def test_a_link_replaced_on_one_process_is_refused_by_the_other(
        tmp_path: Path, postgres_db: str) -> None:
    pytest.importorskip("psycopg")
    one = LiveServer(tmp_path, db=postgres_db, name="one").start()
    two = LiveServer(tmp_path, db=postgres_db, name="two").start()
    try:
        doc = one.create(3, BOTS)
        table, old = doc["table"], doc["seats"][0]["token"]

        async def run() -> tuple[Any, Any]:
            async with Seat(two.ws_url, table, old) as there:  # process two knows the table
                await there.recv()
                status, _, answer = await asyncio.to_thread(replace, one, table, 0, old)
                assert status == 200
                # Process two hears of it and closes its connection of the old token.
                end = await closed(there)
            refused = await close_of(f"{two.ws_url}/ws/{table}/seat",
                                     {"type": "hello", "token": old})
            async with Seat(two.ws_url, table, answer["token"]) as seat:
                view = await seat.until_turn()
            return (end, refused[0]), view

        (end, refused), view = asyncio.run(run())
        assert end == (4401, "the seat's link was replaced") and refused == 4401
        assert view["seat"] == 0
    finally:
        one.stop()
        two.stop()


def test_the_commands_defaults_are_the_limits() -> None:
    # Every field of Limits, as `shock-rules serve` with no option builds it, is the default
    # a program gets from Limits(): the two are documented as one.
    import argparse

    import attrs

    from shock_rules.cli import serve
    from shock_rules.server import Limits

    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers())
    built = serve.limits_of(parser.parse_args(["serve"]))
    for field in attrs.fields(Limits):
        assert getattr(built, field.name) == getattr(Limits(), field.name), field.name
    assert (built.sockets_per_address, built.sockets_per_seat) == (32, 4)
    assert (built.sockets_per_second, built.socket_burst) == (10, 20)
