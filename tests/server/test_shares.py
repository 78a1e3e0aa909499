"""Fair shares between client addresses: MCTS bots a table and MCTS tables an address, the
share of the tables once the server is half full, the lobby's list (a few tables an address,
people's first) and which finished table goes (the oldest of the address with the most)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from shock_rules.protocol import read_bots
from shock_rules.server import SQLiteStore
from shock_rules.server._hub import BotLimitError, ClientLimitError, Hub
from shock_rules.server._tables import RequestError

from ._live import LiveServer
from .test_idle import Clock

A, B, C = "203.0.113.7", "2001:db8:1:2::/64", "198.51.100.1"
BOTS = {"0": "random", "1": "random", "2": "random"}


async def _until_over(hub: Hub, *tables: str) -> None:
    async with asyncio.timeout(60):
        while not all(hub.tables[t].is_over for t in tables):
            await asyncio.sleep(0.01)


def test_an_mcts_budget_out_of_range_names_the_servers_cap() -> None:
    for name in ("mcts:0", "mcts:1001", "mcts:", "MCTS:00"):
        with pytest.raises(RequestError) as info:
            read_bots(3, {"1": name})
        text = str(info.value)
        assert "mcts:N with N from 1 to 1000" in text and "999999999" not in text, text
    assert read_bots(3, {"1": "mcts:1000"}) == {1: "mcts:1000"}


def test_a_table_has_one_mcts_bot_and_an_address_four_mcts_tables() -> None:
    async def run() -> None:
        hub = Hub(SQLiteStore(":memory:"))
        with pytest.raises(RequestError, match="at most 1 MCTS bot a table on this server,"
                                               " not 2"):
            await hub.create(3, "standard", {"0": "mcts:5", "1": "mcts"}, A)
        for _ in range(4):  # with a person seat each: unfinished
            await hub.create(3, "standard", {"1": "mcts:5", "2": "heuristic"}, A)
        with pytest.raises(BotLimitError) as info:
            await hub.create(3, "standard", {"1": "mcts:5"}, A)
        assert str(info.value) == ("this client address has 4 unfinished tables with an MCTS"
                                   " bot already: finish one first, or choose other bots")
        await hub.create(3, "standard", {"1": "heuristic"}, A)  # other bots: fine
        await hub.create(3, "standard", {"1": "mcts:5"}, B)  # another address: fine
        assert hub.client_mcts_tables(A) == 4 and hub.client_mcts_tables(B) == 1
        await hub.stop()

    asyncio.run(run())


def test_beyond_half_the_server_an_address_keeps_to_its_share() -> None:
    async def run() -> None:
        hub = Hub(SQLiteStore(":memory:"), max_tables=10, max_client_tables=5)
        for _ in range(5):  # alone, up to its own limit (half the server: not beyond)
            await hub.create(3, "standard", {}, A)
        assert hub.share(A) is None
        # Beyond half: five tables shared by two addresses, two each.
        await hub.create(3, "standard", {}, B)
        await hub.create(3, "standard", {}, B)
        with pytest.raises(ClientLimitError) as info:
            await hub.create(3, "standard", {}, B)
        assert str(info.value) == (
            "the server is busy, and this client address has 2 unfinished tables, its share"
            " of the server now (2): finish one first, or try again later")
        # A third address still gets one; the first gets no more, though under its limit.
        assert hub.share(C) == 1
        await hub.create(3, "standard", {}, C)
        with pytest.raises(ClientLimitError):
            await hub.create(3, "standard", {}, C)
        dropped = next(t for t, live in hub.tables.items() if live.client == A)
        hub._forget(dropped)
        await hub.calls(hub.store.delete_table, dropped)
        assert await hub.client_tables(A) == 4
        with pytest.raises(ClientLimitError, match="its share of the server now"):
            await hub.create(3, "standard", {}, A)
        assert hub.open_tables() == 7
        await hub.stop()

    asyncio.run(run())


def test_the_lobby_lists_three_tables_an_address_peoples_first() -> None:
    clock = Clock()

    async def run() -> None:
        hub = Hub(SQLiteStore(":memory:"), clock=clock)
        made = []
        for client, bots in [(A, {}), (A, {}), (A, {}), (A, {}), (B, {}), (A, BOTS),
                             (A, BOTS), (C, BOTS)]:
            clock.now += 1
            made.append((await hub.create(3, "standard", bots, client))[0])
        await _until_over(hub, *made[5:])
        listed = [row["table"] for row in await hub.listing()]
        await hub.stop()
        # A's three latest with people, B's; then the bot-only table of C (A has its three).
        assert listed == [made[4], made[3], made[2], made[1], made[7]]

    asyncio.run(run())


def test_the_finished_table_dropped_is_the_oldest_of_the_address_with_most() -> None:
    async def run() -> None:
        hub = Hub(SQLiteStore(":memory:"), max_finished=3)
        first = (await hub.create(3, "standard", BOTS, B))[0]
        await _until_over(hub, first)
        theirs = []
        for _ in range(3):
            theirs.append((await hub.create(3, "standard", BOTS, A))[0])
            await _until_over(hub, theirs[-1])
        # B's table finished first, but A holds three: A's oldest goes.
        assert set(hub.tables) == {first, *theirs[1:]} and hub.dropped == 1
        theirs.append((await hub.create(3, "standard", BOTS, A))[0])
        await _until_over(hub, theirs[-1])
        assert set(hub.tables) == {first, *theirs[2:]} and hub.dropped == 2
        await hub.stop()

    asyncio.run(run())


def test_the_limits_over_http(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, "--mcts-tables-per-address", "1", "--bot-workers",
                      "2").start()
    try:
        status, doc = live.request("POST", "/api/tables", json.dumps(
            {"players": 3, "bots": {"1": "mcts:0"}}).encode())
        assert (status, doc["code"]) == (400, "bad_request")
        assert "invalid bot 'mcts:0': this server takes random, heuristic, mcts, or mcts:N" \
            " with N from 1 to 1000" in doc["message"]
        status, doc = live.request("POST", "/api/tables", json.dumps(
            {"players": 3, "bots": {"1": "mcts:5", "2": "mcts:5"}}).encode())
        assert (status, doc["code"]) == (400, "bad_request")
        # A bot-only table with an MCTS bot plays to its end (in the workers), then counts
        # no more; one with a person seat counts until it ends.
        ended = live.create(3, {"0": "mcts:5", "1": "random", "2": "heuristic"})["table"]

        from .test_limits import _finish

        _finish(live, ended)
        live.create(3, {"1": "mcts:5"})
        status, doc = live.request("POST", "/api/tables", json.dumps(
            {"players": 3, "bots": {"1": "mcts:5"}}).encode())
        assert (status, doc["code"]) == (429, "too_many_bots"), doc
    finally:
        live.stop()
    log = live.log.read_text()
    assert "Traceback" not in log and "bots stopped" not in log
