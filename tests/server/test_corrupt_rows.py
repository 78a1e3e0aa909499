"""A stored table whose row is corrupt is logged (without its secrets) and left out; the other
tables load, and the server starts (a real SQLite file, and a real ``shock-rules serve``)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import shock_rules as sr
from shock_rules.server import SQLiteStore, StoredTable, token_hash
from shock_rules.server._hub import Hub

from ._live import LiveServer

SEED = "f00dfacef00dfacef00dfacef00dface"
HASH = token_hash("a-seat-token")
GOOD_CONFIG = sr.to_json(sr.GameConfig(players=3))

#: Corrupt rows: (id, config, bots, seats, seed, created), each with a column of the wrong kind
#: (a kind that the column's SQLite affinity does not turn into the right one).
CORRUPT = [
    ("bots-not-json", GOOD_CONFIG, "not json", f'{{"0": "{HASH}"}}', SEED, 1.0),
    ("bots-a-list", GOOD_CONFIG, '["random"]', f'{{"0": "{HASH}"}}', SEED, 2.0),
    ("seats-bad-key", GOOD_CONFIG, '{"1": "random"}', f'{{"x": "{HASH}"}}', SEED, 3.0),
    ("seats-not-text", GOOD_CONFIG, '{"1": "random"}', f'{{"0": {len(HASH)}}}', SEED, 4.0),
    ("seats-a-blob", GOOD_CONFIG, '{"1": "random"}', HASH.encode(), SEED, 5.0),
    ("bots-deep", GOOD_CONFIG, "[" * 100_000, f'{{"0": "{HASH}"}}', SEED, 6.0),
    (b"id-a-blob", GOOD_CONFIG, '{"1": "random"}', f'{{"0": "{HASH}"}}', SEED, 7.0),
    ("seed-a-blob", GOOD_CONFIG, '{"1": "random"}', f'{{"0": "{HASH}"}}', SEED.encode(), 8.0),
    ("created-text", GOOD_CONFIG, '{"1": "random"}', f'{{"0": "{HASH}"}}', SEED, "soon"),
    ("config-a-blob", b"\x00\xff", '{"1": "random"}', f'{{"0": "{HASH}"}}', SEED, 9.0),
    # Readable rows that do not rebuild (left out by Hub.load, as before).
    ("config-not-a-config", "[1, 2]", '{"1": "random"}', f'{{"0": "{HASH}"}}', SEED, 10.0),
    ("unknown-bot", GOOD_CONFIG, '{"1": "nobody"}', f'{{"0": "{HASH}"}}', SEED, 11.0),
]


def _db_with_corrupt_rows(db: Path) -> list[str]:
    """Store two good tables, add the corrupt rows; return the good tables' ids."""
    store = SQLiteStore(db)
    good = []
    for n, bots in enumerate(({"1": "random", "2": "random"}, {"0": "random", "2": "random"})):
        table = StoredTable(id=f"good{n}", config=GOOD_CONFIG,
                            bots={int(k): v for k, v in bots.items()},
                            seats={1 - n: HASH}, seed=SEED, created=n + 0.5,
                            active=time.time())  # not abandoned
        store.create_table(table)
        good.append(table.id)
    store.close()
    with sqlite3.connect(db) as con:
        con.executemany("INSERT INTO tables (id, config, bots, seats, seed, created)"
                        " VALUES (?, ?, ?, ?, ?, ?)", CORRUPT)
        con.execute("INSERT INTO actions VALUES ('bots-not-json', 0, NULL, 'deal 5H')")
    return good


def test_a_corrupt_row_is_logged_and_left_out(tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    good = _db_with_corrupt_rows(tmp_path / "db.sqlite3")
    with caplog.at_level("ERROR", logger="shock_rules.server"):
        loaded = SQLiteStore(tmp_path / "db.sqlite3").load_tables()
        hub = Hub(SQLiteStore(tmp_path / "db.sqlite3"))
        asyncio.run(hub.load())
    assert [t.id for t in loaded] == [*good, "config-not-a-config", "unknown-bot"]
    with caplog.at_level("ERROR", logger="shock_rules.server"):
        one = SQLiteStore(tmp_path / "db.sqlite3")
        assert one.load_table("bots-not-json") is None  # one table read alone: the same
        assert one.load_table(good[0]) == loaded[0]
        one.close()
    assert sorted(hub.tables) == good
    for row in CORRUPT:
        assert f"table {row[0]}: could not be restored" in caplog.text
    assert "its bots column is not a JSON object of seats" in caplog.text
    assert SEED not in caplog.text and HASH not in caplog.text

    async def resume() -> None:  # the good tables go on
        await hub.start()
        await hub.stop()

    asyncio.run(resume())
    assert not any(t.failed for t in hub.tables.values())


def test_the_server_starts_with_a_corrupt_row(tmp_path: Path) -> None:
    good = _db_with_corrupt_rows(tmp_path / "tables.sqlite3")
    live = LiveServer(tmp_path).start()
    try:
        for table_id in good:
            status, doc = live.get(f"/api/tables/{table_id}")
            assert status == 200 and doc["type"] == "view"
        assert live.get("/api/tables/bots-not-json")[0] == 404
    finally:
        live.stop()
    log = live.log.read_text()
    assert "table bots-not-json: could not be restored" in log
    assert "serving 2 tables" in log
    assert "Traceback" not in log.split("config-not-a-config")[0]  # the unreadable rows: one line
    assert SEED not in log and HASH not in log
