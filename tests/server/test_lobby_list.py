"""``GET /api/tables``: the lobby's list of the tables a newcomer may watch. Only listed tables,
the latest activity first, at most 50, and nothing a spectator does not see already; the
``listed`` choice is stored, and a database file from before it still loads."""

from __future__ import annotations

import json
import sqlite3
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import shock_rules as sr
from shock_rules.server import SQLiteStore, token_hash

from ._live import LiveServer

#: The fields of one listed table, all of them.
FIELDS = {"table", "game", "players", "variant", "round", "phase", "persons", "seated", "age",
          "bots", "over"}


def _listed(server: LiveServer) -> list[dict[str, Any]]:
    status, doc = server.get("/api/tables")
    assert status == 200, doc
    assert set(doc) == {"tables"}
    tables: list[dict[str, Any]] = doc["tables"]
    return tables


def test_only_listed_tables_are_listed_the_latest_first_and_stay_so(
        fresh_server: LiveServer) -> None:
    # Tables of people only: nothing plays on them, so their order is that of their creation.
    first = fresh_server.create(3)["table"]
    hidden = fresh_server.create(3, listed=False)["table"]
    second = fresh_server.create(5, {"1": "heuristic", "3": "mcts:5"}, variant="simplified",
                                 listed=True)["table"]
    rows = _listed(fresh_server)
    assert [r["table"] for r in rows] == [second, first]
    by_id = {r["table"]: r for r in rows}
    assert 0 <= by_id[first].pop("age") < 60
    assert by_id[first] == {"table": first, "game": "shock", "players": 3,
                            "variant": "standard", "round": 1,
                            "phase": "play", "persons": 3, "seated": 0, "bots": {},
                            "over": False}
    row = by_id[second]
    assert set(row) == FIELDS
    assert (row["players"], row["variant"], row["persons"]) == (5, "simplified", 3)
    assert row["bots"] == {"1": "heuristic", "3": "mcts:5"}
    # The round and the phase are the spectator view's.
    view = fresh_server.get(f"/api/tables/{second}")[1]
    assert (row["round"], row["phase"], row["over"]) == (
        view["round"], view["phase"], view["phase"] == "over")
    # The choice is stored: a restarted server lists the same tables.
    fresh_server.stop()
    fresh_server.start()
    assert {r["table"] for r in _listed(fresh_server)} == {first, second}
    assert fresh_server.get(f"/api/tables/{hidden}")[0] == 200  # unlisted, not gone
    with sqlite3.connect(fresh_server.db) as con:
        stored = dict(con.execute("SELECT id, listed FROM tables").fetchall())
    con.close()
    assert stored == {first: 1, hidden: 0, second: 1}


def test_a_row_says_how_many_people_sit_at_the_table_and_its_age(
        fresh_server: LiveServer) -> None:
    # Two tables made alike differ in their rows: who sits at them now, and how old they are.
    from websockets.sync.client import connect

    doc = fresh_server.create(3, {"2": "random"})
    table, tokens = doc["table"], [s["token"] for s in doc["seats"]]

    def row() -> dict[str, Any]:
        (found,) = [r for r in _listed(fresh_server) if r["table"] == table]
        return found

    assert row()["seated"] == 0
    url = f"ws://127.0.0.1:{fresh_server.port}/ws/{table}"
    with connect(url + "/seat") as one, connect(url + "/seat") as again, connect(url) as watcher:
        for ws in (one, again):
            ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
            ws.recv(timeout=10)
        watcher.recv(timeout=10)
        # One seat, twice, and a spectator: one person seated.
        assert row()["seated"] == 1
        with connect(url + "/seat") as other:
            other.send(json.dumps({"type": "hello", "token": tokens[1]}))
            other.recv(timeout=10)
            assert row()["seated"] == 2
    first = row()["age"]
    assert isinstance(first, int) and first >= 0
    with sqlite3.connect(fresh_server.db) as con:
        (created,) = con.execute("SELECT created FROM tables WHERE id = ?", (table,)).fetchone()
    con.close()
    # A restarted server reads the stored creation time: the age goes on from it.
    with sqlite3.connect(fresh_server.db) as con:
        con.execute("UPDATE tables SET created = ? WHERE id = ?", (created - 3600, table))
    con.close()
    fresh_server.stop()
    fresh_server.start()
    assert 3600 <= row()["age"] < 3600 + 120


def test_the_list_tells_no_token_and_nothing_hidden(fresh_server: LiveServer) -> None:
    doc = fresh_server.create(4, {"2": "random"})
    tokens = [s["token"] for s in doc["seats"]]
    assert len(tokens) == 3
    status, answer = fresh_server.get("/api/tables")
    text = json.dumps(answer)
    with sqlite3.connect(fresh_server.db) as con:
        (seed,) = con.execute("SELECT seed FROM tables").fetchone()
    con.close()
    secrets = [*tokens, *(token_hash(t) for t in tokens), seed]
    assert status == 200 and all(secret not in text for secret in secrets)
    (row,) = answer["tables"]
    assert set(row) == FIELDS  # no hand, no deck, no seat map with hashes


def test_the_list_is_bounded_at_50_the_latest(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, "--tables-per-address", "55",
                      "--forwarded-allow-ips", "127.0.0.1").start()

    def create(address: str) -> str:
        req = urllib.request.Request(live.url + "/api/tables", data=b'{"players": 3}',
                                     method="POST", headers={
                                         "Content-Type": "application/json",
                                         "X-Forwarded-For": address})
        with urllib.request.urlopen(req, timeout=30) as answer:
            table: str = json.loads(answer.read())["table"]
            return table

    try:
        one = [create("198.51.100.1") for _ in range(5)]
        made = [create(f"203.0.113.{n}") for n in range(55)]
        # People-only tables keep the time of their creation as their last activity: the 50
        # latest, of which three at most of one client address (known after a restart too:
        # the store keeps a keyed hash of it).
        for restarted in (False, True):
            if restarted:
                live.stop()
                live.start()
            rows = _listed(live)
            assert [r["table"] for r in rows] == made[::-1][:50]
        live.stop()
        live.start()
        for table in made:  # a table made is finished: out of the list's way
            with sqlite3.connect(live.db) as con:
                con.execute("UPDATE tables SET listed = 0 WHERE id = ?", (table,))
            con.close()
        live.stop()
        live.start()
        assert [r["table"] for r in _listed(live)] == one[::-1][:3]
    finally:
        live.stop()


@pytest.mark.parametrize("listed", [b'"yes"', b"1", b"0", b"null", b"[]"])
def test_a_listed_choice_that_is_not_a_bool_is_refused(server: LiveServer,
                                                       listed: bytes) -> None:
    status, doc = server.request("POST", "/api/tables", b'{"players": 3, "listed": ' + listed
                                 + b"}")
    assert (status, doc["type"], doc["code"]) == (400, "error", "bad_request")
    assert doc["message"] == "listed: expected true or false"


def test_a_database_file_from_before_the_choice_loads_its_tables_listed(
        tmp_path: Path) -> None:
    live = LiveServer(tmp_path)
    with sqlite3.connect(live.db) as con:  # the schema before the lobby's list
        con.executescript("""
            CREATE TABLE tables (id TEXT PRIMARY KEY, config TEXT NOT NULL, bots TEXT NOT NULL,
                                 seats TEXT NOT NULL, seed TEXT NOT NULL, created REAL NOT NULL,
                                 active REAL);
            CREATE TABLE actions (table_id TEXT NOT NULL REFERENCES tables(id),
                                  step INTEGER NOT NULL, seat INTEGER, action TEXT NOT NULL,
                                  PRIMARY KEY (table_id, step));
        """)
        con.execute("INSERT INTO tables VALUES ('old1', ?, '{\"1\": \"random\"}',"
                    " '{\"0\": \"h\", \"2\": \"h\"}', 's', 1.0, NULL)",
                    (sr.to_json(sr.GameConfig(players=3)),))
    con.close()
    live.start()
    try:
        (row,) = _listed(live)
        assert row["table"] == "old1" and row["persons"] == 2 and row["bots"] == {"1": "random"}
        new = live.create(3, listed=False)["table"]
        assert [r["table"] for r in _listed(live)] == ["old1"]
    finally:
        live.stop()
    store = SQLiteStore(live.db)
    try:
        assert {t.id: t.listed for t in store.load_tables()} == {"old1": True, new: False}
    finally:
        store.close()
    assert "Traceback" not in live.log.read_text()


def test_a_damaged_listed_value_hides_the_table(tmp_path: Path) -> None:
    # Only a 1 shows a table: a value the server never wrote must not put a table its
    # creator kept out of the lobby in it.
    store = SQLiteStore(tmp_path / "db.sqlite3")
    store.close()
    with sqlite3.connect(tmp_path / "db.sqlite3") as con:
        for table_id, listed in (("one", 1), ("text", "yes"), ("two", 2), ("zero", 0)):
            con.execute("INSERT INTO tables (id, config, bots, seats, seed, created, active,"
                        " listed) VALUES (?, ?, '{}', '{}', 's', 1.0, NULL, ?)",
                        (table_id, sr.to_json(sr.GameConfig(players=3)), listed))
    con.close()
    store = SQLiteStore(tmp_path / "db.sqlite3")
    try:
        assert {t.id: t.listed for t in store.load_tables()} == {
            "one": True, "text": False, "two": False, "zero": False}
    finally:
        store.close()
