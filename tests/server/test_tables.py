"""The server's tables without the web: restoring a table from its stored actions, the SQLite
store, and one table's failure leaving the others alone."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path

import attrs
import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import shock_rules as sr
from shock_rules.server import SQLiteStore, StoredAction, StoredTable, draw_rng, token_hash
from shock_rules.server._calls import StoreCalls
from shock_rules.server._hub import Hub
from shock_rules.server._leases import Leases, Owner
from shock_rules.server._store import StepTakenError, TableExistsError
from shock_rules.server._tables import Connection, LiveTable
from shock_rules.server._thinking import Thinker

BOTS = {"0": "random", "1": "heuristic", "2": "random", "3": "mcts:10"}


async def _finish(live: LiveTable, seconds: float = 30) -> None:
    async with asyncio.timeout(seconds):
        while not (live.is_over or live.failed):
            await asyncio.sleep(0.01)


def _play_out(db: Path) -> tuple[str, list[StoredAction]]:
    async def run() -> str:
        hub = Hub(SQLiteStore(db))
        table_id, tokens = await hub.create(4, "standard", BOTS)
        assert tokens == {}
        await _finish(hub.tables[table_id])
        await hub.stop()
        return table_id

    table_id = asyncio.run(run())
    (stored,) = SQLiteStore(db).load_tables()
    assert stored.id == table_id
    return table_id, list(stored.actions)


@pytest.fixture(scope="module")
def whole_game(tmp_path_factory: pytest.TempPathFactory) -> StoredTable:
    """A bot-only table played to its end, as stored."""
    db = tmp_path_factory.mktemp("whole") / "whole.sqlite3"
    _play_out(db)
    (whole,) = SQLiteStore(db).load_tables()
    return whole


@pytest.mark.parametrize("kept", [0, 10, 29, 60, 150])
def test_a_table_rebuilt_from_part_of_its_actions_plays_the_same_game(
        tmp_path: Path, whole_game: StoredTable, kept: int) -> None:
    # The same secret seed, the same stored prefix: the same cards come and the bots make the
    # same moves, whether the server was restarted at step `kept` or not (chance and bot
    # decisions are drawn from the seed and the step, never from a running generator).
    table_id, actions = whole_game.id, list(whole_game.actions)
    assert len(actions) > kept and sr.is_terminal(
        LiveTable(whole_game, StoreCalls(SQLiteStore(":memory:")), Leases(), bot_delay=0,
                  thinker=Thinker()).table.state)
    whole = whole_game
    cut = SQLiteStore(tmp_path / "cut.sqlite3")
    cut.create_table(attrs.evolve(whole, actions=tuple(actions[:kept])))

    async def resume() -> list[StoredAction]:
        hub = Hub(cut)
        await hub.load()
        await hub.start()
        await _finish(hub.tables[table_id])
        await hub.stop()
        return list(hub.store.load_tables()[0].actions)

    assert asyncio.run(resume()) == actions


def test_chance_draws_depend_only_on_the_seed_and_the_step() -> None:
    assert draw_rng("s", 3, "chance").random() == draw_rng("s", 3, "chance").random()
    draws = {draw_rng(seed, step, purpose).random() for seed in ("s", "t")
             for step in (3, 4) for purpose in ("chance", "bot")}
    assert len(draws) == 8


def test_the_store_keeps_token_hashes_only_and_refuses_a_step_twice(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "db.sqlite3")
    table = StoredTable(id="t1", config=sr.to_json(sr.GameConfig(players=3)), bots={2: "random"},
                        seats={0: token_hash("secret-a"), 1: token_hash("secret-b")},
                        seed="x", created=1.0)
    store.create_table(table)
    store.append_actions("t1", [StoredAction(0, None, "deal 5H")])
    with pytest.raises(StepTakenError):  # all or nothing: step 1 is not stored
        store.append_actions("t1", [StoredAction(1, None, "deal 7H"),
                                    StoredAction(0, None, "deal 6H")])
    with pytest.raises(TableExistsError):
        store.create_table(table)
    store.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("db.sqlite3*"))
    assert b"secret-a" not in raw and token_hash("secret-a").encode() in raw
    (back,) = SQLiteStore(tmp_path / "db.sqlite3").load_tables()
    # The time of the last action stored is the table's last activity.
    assert back.active is not None and back.active > time.time() - 600
    assert back == attrs.evolve(table, actions=(StoredAction(0, None, "deal 5H"),),
                                active=back.active)


def stored_steps(folder: Path) -> dict[str, int]:
    """Return each table's number of stored actions."""
    with sqlite3.connect(folder / "db.sqlite3") as con:
        return dict(con.execute("SELECT table_id, COUNT(*) FROM actions GROUP BY table_id"))


class _FailingStore(SQLiteStore):
    """A store whose disk fails for one table after a number of actions."""

    def __init__(self, path: Path, fail_id: list[str], after: int) -> None:
        super().__init__(path)
        self.fail_id = fail_id
        self.after = after

    def append_actions(self, table_id: str, actions: Sequence[StoredAction]) -> None:
        if self.fail_id and table_id == self.fail_id[0] and actions[-1].step >= self.after:
            raise OSError("disk full")
        super().append_actions(table_id, actions)


def test_one_tables_failure_leaves_the_others_alone(tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    fail: list[str] = []
    store = _FailingStore(tmp_path / "db.sqlite3", fail, after=40)

    async def run() -> tuple[LiveTable, LiveTable]:
        hub = Hub(store)
        bad_id, _ = await hub.create(4, "standard", {"1": "random", "2": "random", "3": "random"})
        good_id, _ = await hub.create(4, "standard", BOTS)
        bad, good = hub.tables[bad_id], hub.tables[good_id]
        fail.append(bad_id)
        # The person of the bad table plays until its table fails.
        conn = Connection(0)
        async with bad.lock:
            bad.join(conn)
        errors = []
        while not bad.failed:
            view = bad.table.view_document(0)
            legal = view["legal_actions"]
            assert isinstance(legal, list)
            if view["your_turn"]:
                error = await bad.act(conn, json.dumps({
                    "type": "action", "action": legal[0]["notation"], "step": view["step"]}))
                if error is not None:
                    errors.append(error)
            await asyncio.sleep(0.001)
        await _finish(good)
        await hub.stop()
        assert all(e["code"] == "internal_error" for e in errors)
        return bad, good

    with caplog.at_level("ERROR", logger="shock_rules.server"):
        bad, good = asyncio.run(run())
    assert bad.failed and not bad.is_over
    # The bad table went back to its last stored step.
    assert bad.table.step == len(bad.table.record().actions) == stored_steps(tmp_path)[bad.id]
    assert good.is_over and not good.failed
    assert "disk full" in caplog.text and bad.id in caplog.text
    stored = {t.id: t for t in SQLiteStore(tmp_path / "db.sqlite3").load_tables()}
    assert len(stored[bad.id].actions) <= 40 and sr.is_terminal(
        LiveTable(stored[good.id], StoreCalls(store), Leases(), bot_delay=0,
                  thinker=Thinker()).table.state)


def test_the_store_checkpoints_its_log_in_a_thread_of_its_own(tmp_path: Path) -> None:
    # Commits only append to the write-ahead log; the store's own thread copies the log into
    # the database file, so that no commit on the event loop waits for the disk.
    store = SQLiteStore(tmp_path / "db.sqlite3", checkpoint_every=0.02)
    store.create_table(StoredTable(id="t1", config=sr.to_json(sr.GameConfig(players=3)),
                                   bots={}, seats={}, seed="x", created=1.0))
    store.append_actions("t1", [StoredAction(0, None, "deal 11C")])
    assert b"deal 11C" in (tmp_path / "db.sqlite3-wal").read_bytes()

    async def copied() -> None:
        async with asyncio.timeout(30):
            while b"deal 11C" not in (tmp_path / "db.sqlite3").read_bytes():
                await asyncio.sleep(0.01)

    asyncio.run(copied())
    store.close()
    assert not (tmp_path / "db.sqlite3-wal").exists()  # the last one out folds the log in


class _CountingStore(SQLiteStore):
    """A store that counts the claims of tables (what an unknown id costs)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.claims: list[str] = []

    def claim(self, table_id: str, seconds: float, grace: float) -> bool | Owner | None:
        self.claims.append(table_id)
        return super().claim(table_id, seconds, grace)


def test_an_unknown_table_id_asks_the_store_once(tmp_path: Path) -> None:
    # A client trying ids (or a link to a table long gone, reloaded in a loop) costs one store
    # query per id, not one per request; a table created meanwhile is found at once.
    store = _CountingStore(tmp_path / "db.sqlite3")

    async def run() -> None:
        hub = Hub(store)
        for _ in range(100):
            assert await hub.find("x" * 12) is None
        assert store.claims == ["x" * 12]
        for n in range(5):
            assert await hub.find(f"{n}" * 12) is None
        assert len(store.claims) == 6
        made, _ = await hub.create(3, "standard", {})
        assert await hub.find(made) is hub.tables[made]
        assert len(store.claims) == 6  # a table of this process: no store call
        await hub.stop()

    asyncio.run(run())
