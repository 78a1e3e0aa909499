"""The server's budget for bot thinking (``_thinking``): every MCTS decision goes through one
queue, served in turn by address then table, by worker processes that decide exactly as the
server's process would; the server's process never searches, and a worker that dies does not
wedge its table."""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

import shock_rules as sr
from shock_rules import games
from shock_rules.bots import Bot, make_bot
from shock_rules.protocol import Table, draw_rng
from shock_rules.server import SQLiteStore, _tables
from shock_rules.server._hub import Hub
from shock_rules.server._tables import LiveTable
from shock_rules.server._thinking import NICE, Thinker, ThinkingError, decide

SEED = "a table's secret seed"
#: A table of an MCTS bot (seat 0) and two random ones.
BOTS = {"0": "mcts:5", "1": "random", "2": "random"}


def _views(count: int, players: int = 4) -> list[tuple[sr.PlayerView, int]]:
    """Return ``count`` views of seats to act, each with its step, from one game of random
    bots (the views a table's MCTS bot would decide on)."""
    table = Table(sr.GameConfig(players=players))
    out: list[tuple[sr.PlayerView, int]] = []
    while len(out) < count:
        table.resolve(SEED)
        seat = table.to_act
        assert seat is not None
        view = table.view(seat)
        if len(view.legal_actions) > 1:
            out.append((view, table.step))
        table.act(seat, make_bot("random").choose(view, draw_rng(SEED, table.step, "bot")))
    return out


def test_a_worker_decides_exactly_as_the_servers_process() -> None:
    views = _views(8)

    async def run() -> list[sr.Action]:
        thinker = Thinker(1)
        try:
            return [await thinker.decide("203.0.113.7", "t", "mcts:40", view,
                                         draw_rng(SEED, step, "bot")) for view, step in views]
        finally:
            await thinker.close()

    here = [make_bot("mcts:40").choose(view, draw_rng(SEED, step, "bot"))
            for view, step in views]
    assert asyncio.run(run()) == here
    # The generator handed over is not advanced (the table's is drawn afresh each step).
    rng = draw_rng(SEED, 1, "bot")
    before = rng.getstate()
    decide("mcts:5", sr.to_json(views[0][0]), before)
    assert rng.getstate() == before


def test_the_queue_serves_addresses_in_turn_then_their_tables() -> None:
    views = _views(8)
    # Address A asks for five tables' decisions at once, B for one, C for two.
    asks = [("A", "a1"), ("A", "a2"), ("A", "a3"), ("A", "a4"), ("A", "a5"), ("B", "b1"),
            ("C", "c1"), ("C", "c2")]

    async def run() -> tuple[list[str], int, int]:
        thinker = Thinker(1)
        served: list[str] = []

        async def ask(address: str, table: str, view: sr.PlayerView, step: int) -> None:
            await thinker.decide(address, table, "mcts:5", view, draw_rng(SEED, step, "bot"))
            served.append(table)

        tasks = [asyncio.ensure_future(ask(a, t, v, s))
                 for (a, t), (v, s) in zip(asks, views, strict=True)]
        await asyncio.sleep(0)  # every ask queued
        # Bounded: one decision in the pool (one worker), the others waiting their turn.
        running, waiting = thinker.running, thinker.waiting()
        with pytest.raises(sr.InvalidStateError, match="a decision is waiting already"):
            await thinker.decide("A", "a5", "mcts:5", views[0][0], random.Random(1))
        await asyncio.gather(*tasks)
        await thinker.close()
        return served, running, waiting

    served, running, waiting = asyncio.run(run())
    assert (running, waiting) == (1, 7)
    # a1 went at once; then A, B, C in turn, each address's tables in their order.
    assert served == ["a1", "a2", "b1", "c1", "a3", "c2", "a4", "a5"]


def test_a_decision_cancelled_while_waiting_leaves_the_queue() -> None:
    (first, s1), (second, s2) = _views(2)

    async def run() -> int:
        thinker = Thinker(1)
        busy = asyncio.ensure_future(thinker.decide("A", "t1", "mcts:5", first,
                                                    draw_rng(SEED, s1, "bot")))
        waiting = asyncio.ensure_future(thinker.decide("B", "t2", "mcts:5", second,
                                                       draw_rng(SEED, s2, "bot")))
        await asyncio.sleep(0)
        waiting.cancel()
        await asyncio.gather(busy, waiting, return_exceptions=True)
        left = thinker.waiting()
        # The table may ask again (its task was cancelled, not the table).
        await thinker.decide("B", "t2", "mcts:5", second, draw_rng(SEED, s2, "bot"))
        await thinker.close()
        return left

    assert asyncio.run(run()) == 0


class _NoSearchHere:
    """Stands for an MCTS bot in the server's process: searching here fails the table."""

    name = "mcts"

    def choose(self, view: Any, rng: random.Random) -> sr.Action:
        raise AssertionError("MCTS searched in the server's process")


async def _bot_table(bots: dict[str, str], work: Any = None, *,
                     until: Callable[[LiveTable], bool] = lambda live: False
                     ) -> tuple[LiveTable, int]:
    """Create a table of ``bots`` at a hub (whose workers run ``work``, if given, started by
    spawn: they import this module as pytest did), let it play until it ends, fails or
    ``until`` it, stop the hub; return the table and how many pools its thinker started."""
    hub = Hub(SQLiteStore(":memory:"))
    if work is not None:
        hub.thinker = Thinker(1, work=work, context=multiprocessing.get_context("spawn"))
    table_id, _ = await hub.create(3, "standard", bots, "203.0.113.7")
    live = hub.tables[table_id]
    async with asyncio.timeout(120):
        while not (live.failed or live.is_over or until(live)):
            await asyncio.sleep(0.01)
    await hub.stop()
    return live, hub.thinker.pools


def test_the_servers_process_never_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    # The tables' own bots, in this process, cannot search; the workers (other processes,
    # which know nothing of this patch) make every MCTS decision.
    def make_here(name: str, game: str | games.AnyGame = "shock") -> Bot:
        return _NoSearchHere() if name.startswith("mcts") else make_bot(name, game)

    monkeypatch.setattr(_tables, "make_bot", make_here)

    live, pools = asyncio.run(_bot_table({"0": "mcts:5", "1": "random", "2": "heuristic"}))
    assert (live.is_over, live.failed, pools) == (True, False, 1)


def _die(bot: str, view: str, rng_state: tuple[Any, ...]) -> str:
    os._exit(3)


def _die_once(marker: str, bot: str, view: str, rng_state: tuple[Any, ...]) -> str:
    if not os.path.exists(marker):
        Path(marker).touch()
        os._exit(3)
    return decide(bot, view, rng_state)


def test_a_worker_that_dies_is_replaced_and_the_decision_tried_again(tmp_path: Path) -> None:
    (view, step), = _views(1)

    async def run() -> tuple[sr.Action, int]:
        # spawn: the workers import this module as pytest did (same sys.path).
        thinker = Thinker(1, work=functools.partial(_die_once, str(tmp_path / "died")),
                          context=multiprocessing.get_context("spawn"))
        try:
            action = await thinker.decide("A", "t", "mcts:10", view, draw_rng(SEED, step, "bot"))
            return action, thinker.pools
        finally:
            await thinker.close()

    action, pools = asyncio.run(run())
    assert action == make_bot("mcts:10").choose(view, draw_rng(SEED, step, "bot"))
    assert pools == 2 and (tmp_path / "died").exists()


def _die_thrice(marker: str, bot: str, view: str, rng_state: tuple[Any, ...]) -> str:
    with open(marker, "a") as deaths:
        if deaths.tell() < 3:
            deaths.write("x")
            deaths.close()
            os._exit(3)
    return decide(bot, view, rng_state)


def test_a_table_whose_worker_dies_more_than_one_decisions_tries_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    # Three deaths in a row: the decision fails once (two tries), the table waits and asks
    # again, and the third worker to start lives: the table plays on (it used to stop for good).
    monkeypatch.setattr(_tables, "THINK_RETRY_SECONDS", 0.01)
    work = functools.partial(_die_thrice, str(tmp_path / "deaths"))

    with caplog.at_level(logging.WARNING, "shock_rules.server"):
        # Until seat 0 has decided a few times.
        live, pools = asyncio.run(_bot_table(BOTS, work, until=lambda t: t.table.step > 60))
    assert not live.failed and live.table.step > 60 and pools == 4
    assert "its bot tries again" in caplog.text and "its bots stopped" not in caplog.text


def test_a_table_whose_worker_always_dies_fails_with_a_line_of_log(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(_tables, "THINK_RETRY_SECONDS", 0.01)

    with caplog.at_level(logging.WARNING, "shock_rules.server"):
        live, pools = asyncio.run(_bot_table(BOTS, _die))
    # Three decisions in a row failed, each after two workers died: the table stops.
    assert (live.failed, live.is_over) == (True, False) and pools == 2 * _tables.THINK_FAILURES
    assert "the bot worker process died 2 times on this decision" in caplog.text
    assert caplog.text.count("its bot tries again") == _tables.THINK_FAILURES - 1
    assert "its bots stopped" in caplog.text


def test_a_closed_thinker_refuses_decisions() -> None:
    (view, step), = _views(1)

    async def run() -> None:
        thinker = Thinker(1)
        await thinker.close()
        with pytest.raises(ThinkingError, match="shutting down"):
            await thinker.decide("A", "t", "mcts:5", view, draw_rng(SEED, step, "bot"))

    asyncio.run(run())


def test_the_workers_run_at_a_lower_priority_than_the_server() -> None:
    (view, step), = _views(1)

    async def run() -> int:
        thinker = Thinker(1)
        try:
            await thinker.decide("A", "t", "mcts:5", view, draw_rng(SEED, step, "bot"))
            assert thinker._pool is not None
            return await asyncio.wrap_future(thinker._pool.submit(os.nice, 0))
        finally:
            await thinker.close()

    assert asyncio.run(run()) == min(19, os.nice(0) + NICE)
