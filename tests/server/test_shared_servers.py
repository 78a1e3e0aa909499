"""Several ``shock-rules serve`` processes on one PostgreSQL database: any process answers any
table, a step taken through one is heard through the other, two processes racing for a step
cannot both win, one process killed mid-game loses nothing (its seats go on through the
other, its bots are taken over), and PostgreSQL restarted mid-game costs a clear error
meanwhile and nothing else. Real processes, a real PostgreSQL (see ``_postgres.py``)."""

from __future__ import annotations

import asyncio
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


def _whole(server: LiveServer, table: str) -> dict[str, Any]:
    """The first frame of a fresh spectator: the whole game's events so far."""
    async def look() -> dict[str, Any]:
        async with Seat(server.ws_url, table) as spectator:
            return await spectator.recv()
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

    async def race() -> tuple[Seat, Seat]:
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
            # Each hears either its action applied (a view past the step) or an error.
            for seat in (a, b):
                while True:
                    frame = await seat.recv()
                    if frame["type"] == "error" or frame["view"]["step"] > va["step"]:
                        break
        return a, b

    a, b = asyncio.run(race())
    step = next(f for f in a.frames if f["type"] == "view")["view"]["step"]
    assert step >= 0
    errors = [f for f in a.frames + b.frames if f["type"] == "error"]
    # At most one of the two was refused; a refusal is a stale step, never anything else.
    assert len(errors) <= 1 and all(e["code"] == "stale_step" for e in errors)
    whole = _whole(one, made["table"])["events"]
    played = [e for e in whole if e["event"] in ("CardPlayed", "Withdrew") and e["seat"] == 0]
    assert len(played) == 1 or (len(played) == 2 and played[0]["event"] == "Withdrew")


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
    whole = _whole(two, human["table"])
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
            await seat.play(rng, turns=4)
            postgres.stop()
            view = await seat.until_turn()
            await seat.act(view, rng)
            error = await seat.recv()
            assert error["type"] == "error", error
            assert "database" in error["message"] and error["step"] == view["step"]
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
    assert _whole(one, made["table"])["events"] == again.views[0]["events"] + [
        e for f in again.views[1:] for e in f["events"]]
    assert seat.views  # it played before the restart
