"""Several ``shock-rules serve`` processes on one PostgreSQL database: a client may reach any
table through any process (served through the table's owner), a step taken through one is
heard through the other, two connections racing for a step cannot both win, one process killed
mid-game loses nothing (its seats go on through the other, its bots are taken over), and
PostgreSQL restarted mid-game costs a clear error meanwhile and nothing else. Real processes, a
real PostgreSQL (see ``_postgres.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")
pytest.importorskip("psycopg")

from ._client import Seat
from ._live import LiveServer
from ._postgres import Postgres


@pytest.fixture
def pair(tmp_path: Path, postgres_db: str) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two servers on one fresh PostgreSQL database."""
    one = LiveServer(tmp_path, db=postgres_db, name="one").start()
    two = LiveServer(tmp_path, db=postgres_db, name="two").start()
    try:
        yield one, two
    finally:
        one.stop()
        two.stop()


def _whole(server: LiveServer, table: str, token: str | None = None) -> dict[str, Any]:
    """The first frame of a fresh connection (a spectator's, or a seat's with ``token``): the
    whole game's events so far, as that connection may see them."""
    async def look() -> dict[str, Any]:
        async with Seat(server.ws_url, table, token) as fresh:
            return await fresh.recv()
    return asyncio.run(look())


def _watch(server: LiveServer, table: str) -> dict[str, Any]:
    async def watch() -> dict[str, Any]:
        async with Seat(server.ws_url, table) as spectator:
            return await spectator.watch()
    return asyncio.run(watch())


def test_a_table_created_on_one_process_is_played_through_the_other(
        pair: tuple[LiveServer, LiveServer]) -> None:
    one, two = pair
    made = one.create(4, {"1": "random", "2": "heuristic", "3": "random"})
    token = made["seats"][0]["token"]

    async def play() -> Seat:
        async with Seat(two.ws_url, made["table"], token) as seat:
            await seat.play(random.Random(1))
        return seat

    seat = asyncio.run(play())
    assert seat.views[-1]["view"]["phase"] == "over"
    # Both processes tell the same whole game, and the seat heard every step once.
    assert _whole(one, made["table"])["events"] == _whole(two, made["table"])["events"]
    status, spectator = one.get(f"/api/tables/{made['table']}")
    assert status == 200 and spectator["phase"] == "over"


def test_two_seats_on_two_processes_hear_each_other(
        pair: tuple[LiveServer, LiveServer]) -> None:
    one, two = pair
    made = one.create(4, {"2": "heuristic", "3": "random"})
    tokens = {s["seat"]: s["token"] for s in made["seats"]}

    async def play() -> tuple[Seat, Seat]:
        async with Seat(one.ws_url, made["table"], tokens[0]) as a, \
                Seat(two.ws_url, made["table"], tokens[1]) as b:
            await asyncio.gather(a.play(random.Random(2)), b.play(random.Random(3)))
        return a, b

    a, b = asyncio.run(play())
    assert a.views[-1]["view"]["phase"] == b.views[-1]["view"]["phase"] == "over"
    whole = _whole(one, made["table"])["events"]
    public = [e for e in whole if e.get("seat") not in (0, 1) or e["event"] not in (
        "CardDealt", "HiddenCardDealt")]
    assert len(a.events) >= len(public) // 2  # each heard the game, step by step
    assert a.views[-1]["view"]["step"] == b.views[-1]["view"]["step"]


def test_two_processes_racing_for_one_step_cannot_both_win(
        pair: tuple[LiveServer, LiveServer]) -> None:
    one, two = pair
    made = one.create(3, {"1": "random", "2": "random"})
    token = made["seats"][0]["token"]

    async def race() -> tuple[tuple[Seat, Seat], int, tuple[str, str]]:
        async with Seat(one.ws_url, made["table"], token) as a, \
                Seat(two.ws_url, made["table"], token) as b:
            va, vb = await a.until_turn(), await b.until_turn()
            while va["step"] != vb["step"]:  # the same position on both
                va, vb = (await a.until_turn() if va["step"] < vb["step"] else va,
                          await b.until_turn() if vb["step"] < va["step"] else vb)
            first, second = va["legal_actions"][0], va["legal_actions"][-1]
            await asyncio.gather(
                a.send({"type": "action", "action": first, "step": va["step"]}),
                b.send({"type": "action", "action": second, "step": vb["step"]}))
            # Both hear the step taken (a view past it); the loser also hears an error, which
            # may come after that view: listen a little longer for it.
            for seat in (a, b):
                while True:
                    frame = await seat.recv()
                    if frame["type"] == "view" and frame["view"]["step"] > va["step"]:
                        break
            for seat in (a, b):
                with contextlib.suppress(TimeoutError):
                    while not any(f["type"] == "error" for f in a.frames + b.frames):
                        await asyncio.wait_for(seat.recv(), 1.5)
        return (a, b), va["step"], (first, second)

    (a, b), step, actions = asyncio.run(race())
    errors = [f for f in a.frames + b.frames if f["type"] == "error"]
    # Exactly one of the two different actions was refused, as a stale step.
    assert actions[0] != actions[1]
    assert [e["code"] for e in errors] == ["stale_step"], errors
    whole = _whole(one, made["table"], token)["events"]
    at_step = [e for e in whole if e["step"] == step + 1 and e["event"] == "CardPlayed"]
    assert len(at_step) == 1 and at_step[0]["seat"] == 0, at_step


def test_a_process_killed_mid_game_loses_nothing_and_the_other_finishes_it(
        pair: tuple[LiveServer, LiveServer]) -> None:
    one, two = pair
    human = one.create(4, {"1": "random", "2": "heuristic", "3": "random"})
    bots = one.create(3, {"0": "random", "1": "random", "2": "heuristic"})
    token = human["seats"][0]["token"]
    rng = random.Random(5)

    async def before() -> Seat:
        async with Seat(one.ws_url, human["table"], token) as seat:
            await seat.play(rng, turns=6)
            await seat.act(seat.views[-1]["view"], rng)
            await seat.recv()
            one.kill()  # SIGKILL: its bots' lease goes with its PostgreSQL session
            return seat

    seat = asyncio.run(before())
    seen = seat.views[-1]["view"]["step"]

    async def after() -> Seat:
        async with Seat(two.ws_url, human["table"], token, since=seen) as again:
            await again.play(rng)
        return again

    again = asyncio.run(after())
    assert again.views[-1]["view"]["phase"] == "over"
    whole = _whole(two, human["table"], token)
    heard = [e for e in seat.events if e["step"] <= seen] + again.events
    assert heard == whole["events"]  # nothing lost, nothing twice
    assert _watch(two, bots["table"])["phase"] == "over"  # its bots were taken over


def test_postgresql_restarted_mid_game_costs_a_clear_error_and_nothing_else(
        pair: tuple[LiveServer, LiveServer], postgres: Postgres) -> None:
    one, two = pair
    made = one.create(4, {"1": "random", "2": "heuristic", "3": "random"})
    token = made["seats"][0]["token"]
    rng = random.Random(7)

    async def before() -> Seat:
        async with Seat(two.ws_url, made["table"], token) as seat:
            view = await seat.play(rng, turns=4)  # the seat's turn, not yet acted on
            postgres.stop()
            await seat.act(view, rng)
            error = await seat.recv()
            assert (error["type"], error["code"]) == ("error", "unavailable"), error
            assert "database" in error["message"] and error["step"] == view["step"]
            # The error's own words (the database's host and port) stay in the server's log.
            assert "127.0.0.1" not in error["message"], error
            assert str(postgres.port) not in error["message"], error
            return seat

    seat = asyncio.run(before())
    status, doc = two.get("/api/tables/" + "x" * 12)  # not in memory: the store is asked
    assert status == 503 and "database" in doc["message"]
    postgres.start()

    async def after() -> Seat:
        async with Seat(two.ws_url, made["table"], token) as again:
            await again.play(rng)
        return again

    again = asyncio.run(after())
    assert again.views[-1]["view"]["phase"] == "over"
    # Nothing lost, nothing twice: what the seat heard before and after is the whole game.
    whole = _whole(one, made["table"], token)["events"]
    assert again.events == whole
    assert seat.events == whole[:len(seat.events)]
