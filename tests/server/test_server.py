"""The table server over real HTTP and WebSockets: ``shock-rules serve`` (uvicorn) on 127.0.0.1
with an SQLite file, driven as a browser or a program would."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

import shock_rules as sr

from ._client import Seat
from ._live import LiveServer

CARD = re.compile(r"(?<![\w/])(?:1[01]|[1-9])[HSDC](?!\w)")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def stored_states(db: Path, table: str) -> list[sr.State]:
    """Return the table's states after 0, 1, 2... of its stored actions, read from the
    SQLite file directly (not through the server's code)."""
    with sqlite3.connect(db) as con:
        (config,) = con.execute("SELECT config FROM tables WHERE id = ?", (table,)).fetchone()
        rows = con.execute("SELECT step, seat, action FROM actions WHERE table_id = ?"
                           " ORDER BY step", (table,)).fetchall()
    cfg = sr.from_json(config)
    assert isinstance(cfg, sr.GameConfig)
    states = [sr.new_game(cfg)]
    for step, seat, action in rows:
        assert step == len(states) - 1  # one action per step, none missing
        states.append(sr.apply(states[-1], sr.parse_action(action), seat))
    return states


# -- HTTP ----------------------------------------------------------------------------------------


def test_health_page_and_static_files(server: LiveServer) -> None:
    assert server.get("/api/health") == (200, {"ok": True})
    import urllib.request

    with urllib.request.urlopen(server.url + "/", timeout=10) as page:
        assert page.status == 200 and "text/html" in page.headers["Content-Type"]


def test_create_table_lists_the_human_seats_with_tokens(server: LiveServer) -> None:
    doc = server.create(5, {"1": "random", "3": "heuristic"}, variant="simplified")
    assert [s["seat"] for s in doc["seats"]] == [0, 2, 4]
    tokens = [s["token"] for s in doc["seats"]]
    assert len(set(tokens)) == 3 and all(len(t) >= 40 for t in tokens)
    status, view = server.get(f"/api/tables/{doc['table']}")
    assert status == 200 and view["type"] == "view" and view["seat"] is None
    assert view["config"]["players"] == 5 and view["config"]["variant"] == "simplified"
    # A spectator sees no hand: every hand is a count only.
    assert view["phase"] == "play" and view["step"] > 0
    assert view["hand"] == [] and all(s["hand_size"] in (7, 8) for s in view["seats"])


@pytest.mark.parametrize(("body", "status", "code", "says"), [
    (b"not json", 400, "bad_request", "not JSON"),
    (b"[4]", 400, "bad_request", "object"),
    (b'{"players": 6}', 400, "bad_request", "players must be 3, 4 or 5"),
    (b'{"players": "4"}', 400, "bad_request", "players"),
    (b'{"variant": "fast"}', 400, "bad_request", "fast"),
    (b'{"bots": {"1": "genius"}}', 400, "bad_request", "unknown bot 'genius'"),
    (b'{"bots": {"4": "random"}}', 400, "bad_request", "invalid seat '4'"),
    (b'{"bots": {"1": "mcts:99999"}}', 400, "bad_request", "mcts:N"),
    ('{"bots": {"1": "mcts:\u00b2"}}'.encode(), 400, "bad_request", "mcts:N"),
    ('{"bots": {"\u00b2": "random"}}'.encode(), 400, "bad_request", "invalid seat"),
    (b'{"bots": ["random"]}', 400, "bad_request", "bots"),
    # Names that only make_bot refused once (answered 500, with a row stored anyway).
    (b'{"bots": {"1": "mcts:"}}', 400, "bad_request", "invalid bot 'mcts:': this server"),
    (b'{"bots": {"1": "mcts:001"}}', 400, "bad_request", "invalid bot 'mcts:001'"),
    (b'{"bots": {"1": "mcts:0"}}', 400, "bad_request", "invalid bot 'mcts:0'"),
    (b'{"bots": {"1": "random:"}}', 400, "bad_request", "only mcts takes a budget"),
    (b'{"bots": {"1": "heuristic:5"}}', 400, "bad_request", "only mcts takes a budget"),
    (b'{"colour": "red"}', 400, "bad_request", "unknown field 'colour'"),
    (b'{"players": 4, "pad": "' + b"x" * 5000 + b'"}', 413, "too_large", "4096 bytes"),
])
def test_create_table_refuses_a_bad_body(server: LiveServer, body: bytes, status: int,
                                         code: str, says: str) -> None:
    got, doc = server.request("POST", "/api/tables", body)
    assert (got, doc["type"], doc["code"]) == (status, "error", code)
    assert says in doc["message"]


def test_a_refused_bot_leaves_nothing_behind(tmp_path: Path) -> None:
    # Every name is checked by make_bot before anything is stored: no row, no table counted
    # or not counted by --max-tables, and nothing for a restart to fail on.
    live = LiveServer(tmp_path, "--max-tables", "1").start()
    try:
        for bot in ("mcts:", "mcts:001", "mcts:", "random:", "mcts:1001"):
            status, doc = live.request("POST", "/api/tables", json.dumps(
                {"players": 3, "bots": {"1": bot}}).encode())
            assert (status, doc["code"]) == (400, "bad_request"), doc
            assert "this server takes random, heuristic, mcts, or mcts:N with N from 1 to 1000" \
                in doc["message"]
        with sqlite3.connect(live.db) as con:
            assert con.execute("SELECT COUNT(*) FROM tables").fetchone() == (0,)
        live.create(3, {"1": " MCTS:1000 "})  # the limit itself, spelled loosely, is a bot
        assert live.request("POST", "/api/tables", b"{}")[0] == 503
        live.stop()
        live.start()
        with sqlite3.connect(live.db) as con:
            assert con.execute("SELECT bots FROM tables").fetchall() == [('{"1": "mcts:1000"}',)]
    finally:
        live.stop()
    log = live.log.read_text()
    assert "Traceback" not in log and "could not be" not in log and "serving 1 tables" in log


def test_unknown_table_is_404(server: LiveServer) -> None:
    status, doc = server.get("/api/tables/nosuchtable")
    assert (status, doc["code"]) == (404, "no_such_table")


def test_the_number_of_unfinished_tables_is_bounded(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, "--max-tables", "2").start()
    try:
        live.create(3)
        bots = live.create(3, {"0": "random", "1": "random", "2": "random"})
        status, doc = live.request("POST", "/api/tables", b"{}")
        assert (status, doc["code"]) == (503, "too_many_tables")

        # A finished table no longer counts: the bot-only one ends by itself.
        async def watch() -> dict[str, Any]:
            async with Seat(live.ws_url, bots["table"]) as spectator:
                return await spectator.watch()

        assert asyncio.run(watch())["phase"] == "over"
        live.create(3)
        assert live.request("POST", "/api/tables", b"{}")[0] == 503
    finally:
        live.stop()


# -- WebSocket -----------------------------------------------------------------------------------


def test_a_bot_only_game_observed_by_a_spectator(server: LiveServer) -> None:
    doc = server.create(4, {"0": "random", "1": "heuristic", "2": "mcts:20", "3": "random"})
    assert doc["seats"] == []

    async def run() -> Seat:
        async with Seat(server.ws_url, doc["table"]) as spectator:
            await spectator.watch()
            return spectator

    spectator = asyncio.run(run())
    steps = [f["view"]["step"] for f in spectator.views]
    assert steps == sorted(set(steps)) and all(f["seat"] is None for f in spectator.views)
    # Each frame's events are those after the previous frame's step, up to its own.
    last = -1
    for f in spectator.views:
        assert all(last < e["step"] <= f["view"]["step"] for e in f["events"])
        last = f["view"]["step"]
    final = spectator.views[-1]["view"]
    states = stored_states(server.db, doc["table"])
    assert sr.is_terminal(states[-1]) and final["step"] == states[-1].step
    (ended,) = [e for e in spectator.events if e["event"] == "GameEnded"]
    assert ended["scores"] == list(sr.scores(states[-1]))
    assert server.get(f"/api/tables/{doc['table']}")[1]["phase"] == "over"


def test_a_person_plays_a_whole_game_against_three_bots(server: LiveServer) -> None:
    doc = server.create(4, {"1": "random", "2": "heuristic", "3": "mcts"})
    ((me,),) = [[s for s in doc["seats"]]]
    assert me["seat"] == 0

    async def run() -> Seat:
        async with Seat(server.ws_url, doc["table"], me["token"]) as seat:
            await seat.play(random.Random(3))
            return seat

    seat = asyncio.run(run())
    assert not [f for f in seat.frames if f["type"] != "view"]  # no action was refused
    mine = [v["view"] for v in seat.views if v["view"]["your_turn"]]
    assert len(mine) > 10 and all(v["seat"] == 0 for v in mine)
    states = stored_states(server.db, doc["table"])
    assert sr.is_terminal(states[-1])
    # Every action of seat 0 in the store was one it sent, at the step it was sent for.
    with sqlite3.connect(server.db) as con:
        steps = [s for (s,) in con.execute(
            "SELECT step FROM actions WHERE table_id = ? AND seat = 0", (doc["table"],))]
    assert steps == [v["step"] for v in mine]


def _turn(seat: Seat) -> Any:
    return asyncio.wait_for(seat.until_turn(), 30)


def test_refused_messages_get_an_error_and_change_nothing(server: LiveServer) -> None:
    doc = server.create(3)  # three people
    tokens = {s["seat"]: s["token"] for s in doc["seats"]}

    async def run() -> list[dict[str, Any]]:
        seats = [Seat(server.ws_url, doc["table"], tokens[i]) for i in range(3)]
        for s in seats:
            await s.__aenter__()
        try:
            first = [await s.recv() for s in seats]
            view = first[0]["view"]
            turn = view["to_act"]
            mover, other = seats[turn], seats[(turn + 1) % 3]
            mine = first[turn]["view"]
            legal = {a["notation"] for a in mine["legal_actions"]}
            not_mine = next(f"play {c}" for c in ("1H", "2H", "3H", "4H", "5H", "6H", "8H")
                            if f"play {c}" not in legal)
            step = view["step"]
            big = json.dumps({"type": "action", "action": "x" * 5000, "step": step})
            tries: list[tuple[Seat, object]] = [
                (mover, {"type": "action", "action": mine["legal_actions"][0], "step": step - 1}),
                (mover, {"type": "action", "action": not_mine, "step": step}),
                (other, {"type": "action", "action": "stop", "step": step}),
                (mover, "{not json"),
                (mover, {"type": "hello"}),
                (mover, {"type": "action", "action": "play 99X", "step": step}),
                (mover, {"type": "action", "action": 7, "step": step}),
                (mover, {"type": "action", "action": "stop"}),
                (mover, big),
            ]
            answers = []
            for who, message in tries:
                await who.send(message)
                answers.append(await who.recv())
            _, after = server.get(f"/api/tables/{doc['table']}")
            assert after["step"] == step
            # And the right action still works, at the step it was decided on.
            await mover.send({"type": "action", "action": mine["legal_actions"][0]["notation"],
                              "step": step})
            nxt = await mover.recv()
            assert nxt["type"] == "view" and nxt["view"]["step"] > step
            return answers
        finally:
            for s in seats:
                await s.__aexit__()

    answers = asyncio.run(run())
    assert all(a["type"] == "error" and a["schema"] == "shock-rules/2" for a in answers)
    assert [a["code"] for a in answers] == [
        "stale_step", "illegal_action", "not_your_turn", "bad_document", "bad_document",
        "bad_notation", "bad_document", "bad_document", "too_large"]
    assert "decide again" in answers[0]["message"]


def test_a_spectator_cannot_act(server: LiveServer) -> None:
    doc = server.create(3)

    async def run() -> dict[str, Any]:
        async with Seat(server.ws_url, doc["table"]) as spectator:
            view = (await spectator.recv())["view"]
            await spectator.send({"type": "action", "action": "stop", "step": view["step"]})
            return await spectator.recv()

    answer = asyncio.run(run())
    assert answer["code"] == "bad_seat" and "spectator" in answer["message"]


def test_too_many_messages_a_second_are_refused_then_the_flood_is_closed(
        fresh_server: LiveServer) -> None:
    server = fresh_server  # the default limit: 20 messages a second
    doc = server.create(3)
    token = doc["seats"][0]["token"]

    async def run() -> tuple[list[str], int | None]:
        async with Seat(server.ws_url, doc["table"], token) as seat:
            view = (await seat.recv())["view"]
            stale = {"type": "action", "action": "stop", "step": view["step"] + 1000}
            for _ in range(40):
                await seat.send(stale)
            codes = [(await seat.recv())["code"] for _ in range(40)]
            # Keep flooding: the server closes the connection (policy violation).
            try:
                for _ in range(400):
                    await seat.send(stale)
                while True:
                    await seat.recv()
            except ConnectionClosed as exc:
                return codes, exc.rcvd.code if exc.rcvd else None

    codes, closed = asyncio.run(run())
    assert set(codes) == {"stale_step", "too_fast"}
    assert 15 <= codes.count("stale_step") <= 25  # a burst of about 20 passes
    assert closed == 1008


async def _flood(seat: Seat, per_second: float, seconds: float, step: int,
                 most: int | None = None) -> tuple[dict[str, int], tuple[int, str] | None]:
    """Send stale actions at ``per_second`` for ``seconds`` (``most`` of them at most) while
    reading every frame; return the codes of the frames received and the close code and
    reason if the server closed."""
    assert seat.ws is not None
    codes: dict[str, int] = {}
    closed: list[tuple[int, str]] = []

    async def read() -> None:
        try:
            while True:
                code = (await seat.recv())["code"]
                codes[code] = codes.get(code, 0) + 1
        except ConnectionClosed as exc:
            closed.append((exc.rcvd.code, exc.rcvd.reason) if exc.rcvd else (0, ""))

    reader = asyncio.create_task(read())
    stale = json.dumps({"type": "action", "action": "stop", "step": step + 1000})
    start = time.monotonic()
    sent = 0
    with contextlib.suppress(ConnectionClosed):
        while ((now := time.monotonic() - start) < seconds and not closed
               and (most is None or sent < most)):
            if sent < now * per_second:
                await seat.send(stale)
                sent += 1
            else:
                await asyncio.sleep(0.002)
    await asyncio.sleep(0.5)  # the last answers
    reader.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await reader
    return codes, closed[0] if closed else None


def test_a_sustained_flood_is_closed_though_some_of_it_gets_through(
        fresh_server: LiveServer) -> None:
    # At 5 times the limit the bucket lets a message through every 50 ms: the flood is closed
    # all the same (100 refused within 10 seconds), with every frame read meanwhile (so not
    # for frames left unread), within about 1.5 seconds.
    doc = fresh_server.create(3)

    async def run() -> tuple[dict[str, int], tuple[int, str] | None, float]:
        async with Seat(fresh_server.ws_url, doc["table"], doc["seats"][0]["token"]) as seat:
            step = (await seat.recv())["view"]["step"]
            start = time.monotonic()
            codes, closed = await _flood(seat, 100, 8, step)
            return codes, closed, time.monotonic() - start

    codes, closed, took = asyncio.run(run())
    assert closed == (1008, "flooding")
    assert codes.get("stale_step", 0) > 20 and 95 <= codes["too_fast"] <= 100
    assert took < 4


def test_bursts_and_a_rate_just_over_the_limit_are_refused_in_part_not_closed(
        fresh_server: LiveServer) -> None:
    doc = fresh_server.create(3)

    async def run() -> list[tuple[dict[str, int], tuple[int, str] | None]]:
        async with Seat(fresh_server.ws_url, doc["table"], doc["seats"][0]["token"]) as seat:
            step = (await seat.recv())["view"]["step"]
            got = []
            for _ in range(2):  # two bursts of 50: about 30 refused each
                got.append(await _flood(seat, 100_000, 1, step, most=50))
                await asyncio.sleep(1.5)  # the bucket refills
            got.append(await _flood(seat, 25, 4, step))  # 1.25 times the limit, for a while
            # Still open, and heard.
            await seat.send({"type": "action", "action": "stop", "step": step + 1000})
            got.append(({(await seat.recv())["code"]: 1}, None))
            return got

    (burst1, burst2, over, last) = asyncio.run(run())
    for codes, closed in (burst1, burst2):
        assert closed is None and codes["too_fast"] >= 20 and codes["stale_step"] >= 15
    assert over[1] is None and over[0].get("too_fast", 0) < 30 and over[0]["stale_step"] > 70
    assert last == ({"stale_step": 1}, None)


def test_a_bad_token_is_closed_with_4401_and_an_unknown_table_with_4404(
        server: LiveServer) -> None:
    doc = server.create(3, {"2": "random"})

    async def close_code(table: str, token: str) -> int | None:
        try:
            async with Seat(server.ws_url, table, token) as seat:
                await seat.recv()
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd else None
        return None

    good = doc["seats"][0]["token"]
    assert asyncio.run(close_code(doc["table"], good[:-1] + ("A" if good[-1] != "A" else "B"))) \
        == 4401
    assert asyncio.run(close_code(doc["table"], "")) == 4401
    assert asyncio.run(close_code("nosuchtable", good)) == 4404
    other = server.create(3)
    assert asyncio.run(close_code(other["table"], good)) == 4401  # another table's token


def test_a_seat_reconnecting_gets_the_events_it_missed(server: LiveServer) -> None:
    doc = server.create(4, {"1": "random", "2": "heuristic", "3": "random"})
    token = doc["seats"][0]["token"]

    async def run() -> tuple[int, Seat, Seat, Seat]:
        async with Seat(server.ws_url, doc["table"], token) as first:
            view = await first.until_turn()
            await first.act(view, random.Random(1))
            seen = view["step"]
        # Gone before the bots' answers: back with the step it saw.
        async with Seat(server.ws_url, doc["table"], token, since=seen) as again:
            await again.until_turn()
        async with Seat(server.ws_url, doc["table"], token) as whole:
            await whole.recv()
        return seen, first, again, whole

    seen, first, again, whole = asyncio.run(run())
    missed = again.views[0]["events"]
    assert missed and all(e["step"] > seen for e in missed)
    # What it heard before plus what it got on reconnecting is everything, once each.
    before = [e for e in first.events if e["step"] <= seen]
    assert before + [e for f in again.views for e in f["events"]] == \
        [e for e in whole.views[0]["events"] if e["step"] <= again.views[-1]["view"]["step"]]


def test_a_server_killed_mid_game_resumes_every_table(tmp_path: Path) -> None:
    server = LiveServer(tmp_path).start()
    human = server.create(4, {"1": "random", "2": "heuristic", "3": "random"})
    bots = server.create(3, {"0": "random", "1": "random", "2": "heuristic"})
    token = human["seats"][0]["token"]
    rng = random.Random(5)

    async def before() -> Seat:
        async with Seat(server.ws_url, human["table"], token) as seat:
            await seat.play(rng, turns=6)
            view = seat.views[-1]["view"]
            await seat.act(view, rng)
            await seat.recv()  # its view of the action: the bots are answering it now
            server.kill()
            return seat

    seat = asyncio.run(before())
    seen = seat.views[-1]["view"]["step"]
    # Everything broadcast was stored first.
    assert len(stored_states(server.db, human["table"])) - 1 >= seen
    server.start()

    async def after() -> tuple[Seat, Seat]:
        async with Seat(server.ws_url, human["table"], token, since=seen) as again:
            await again.play(rng)
        async with Seat(server.ws_url, human["table"], token) as whole:
            await whole.recv()
        return again, whole

    again, whole = asyncio.run(after())
    assert again.views[-1]["view"]["phase"] == "over"
    heard = [e for e in seat.events if e["step"] <= seen] + again.events
    assert heard == whole.views[0]["events"]  # nothing lost, nothing twice
    states = stored_states(server.db, human["table"])
    assert sr.is_terminal(states[-1])
    # The bot-only table went on too.
    async def watch() -> dict[str, Any]:
        async with Seat(server.ws_url, bots["table"]) as spectator:
            return await spectator.watch()

    assert asyncio.run(watch())["phase"] == "over"
    assert sr.is_terminal(stored_states(server.db, bots["table"])[-1])
    server.stop()


def _secret_cards(state: sr.State, viewer: int | None) -> int:
    """Return the mask of the cards ``viewer`` may not know: the deck, and every other
    seat's hand and face-down cards."""
    secret = state.pool_mask
    for other in range(state.config.players):
        if other != viewer:
            secret |= state.hand_masks[other] | state.face_down_masks[other]
    return secret


def _leaks(frame: dict[str, Any], states: list[sr.State], who: int | None
           ) -> list[tuple[str, str]]:
    """Return the cards of a view frame that ``who`` may not know, each with its context.

    The view is checked against the state of its step; each event against the states before
    and after the step that caused it: a card hidden in both (dealt to another seat, played
    face down) must not show, one hidden before and shown after (played face up) may, and
    one shown then may be hidden again later (gathered into the deck for a new round), and
    one played face up in the step is shown whatever the states around it say.
    """
    view = {k: v for k, v in frame["view"].items() if k != "events"}
    events = [*frame["events"], *frame["view"]["events"]]
    # A card played face up is public from that step on, even when the same step also ends
    # the round and gathers it into the deck again (hidden before, hidden after).
    shown: dict[int, int] = {}
    for e in events:
        if e["event"] == "CardPlayed" and e["face_up"]:
            shown[e["step"]] = shown.get(e["step"], 0) | sr.parse_card(e["card"]).bit
    parts = [(_secret_cards(states[view["step"]], who), view),
             *((_secret_cards(states[e["step"]], who)
                & _secret_cards(states[max(e["step"] - 1, 0)], who)
                & ~shown.get(e["step"], 0), e) for e in events)]
    leaked = []
    for secret, part in parts:
        text = json.dumps(part)
        leaked += [(m.group(0), text[max(0, m.start() - 100):m.end() + 30])
                   for m in CARD.finditer(text) if secret >> sr.parse_card(m.group(0)).index & 1]
    return leaked


def test_no_frame_holds_another_seats_hidden_cards(server: LiveServer) -> None:
    for game in range(2):
        doc = server.create(4, {"2": "heuristic", "3": "random"})
        tokens = {s["seat"]: s["token"] for s in doc["seats"]}

        async def run(game: int = game, doc: dict[str, Any] = doc,
                      tokens: dict[int, str] = tokens) -> list[Seat]:
            seats = [Seat(server.ws_url, doc["table"], tokens[i]) for i in (0, 1)]
            spectator = Seat(server.ws_url, doc["table"])
            for s in (*seats, spectator):
                await s.__aenter__()
            try:
                await asyncio.gather(*(s.play(random.Random(10 * game + i))
                                       for i, s in enumerate(seats)), spectator.watch())
            finally:
                for s in (*seats, spectator):
                    await s.__aexit__()
            return [*seats, spectator]

        connections = asyncio.run(run())
        states = stored_states(server.db, doc["table"])
        for who, conn in zip((0, 1, None), connections, strict=True):
            assert len(conn.frames) > 20 and all(f["type"] == "view" for f in conn.frames)
            for frame in conn.frames:
                assert frame["seat"] == who
                assert not _leaks(frame, states, who), (who, frame["view"]["step"])
        # The check sees a leak: seat 0's frames hold seat 0's hand, secret to seat 1.
        assert any(_leaks(frame, states, 1) for frame in connections[0].frames)


def test_no_token_is_ever_written_to_the_log(server: LiveServer) -> None:
    doc = server.create(3, {"2": "random"})
    tokens = [s["token"] for s in doc["seats"]]
    import urllib.request

    # A seat's link (the page), its WebSocket, a bad token's WebSocket.
    urllib.request.urlopen(f"{server.url}/?table={doc['table']}&token={tokens[0]}",
                           timeout=10).read()

    async def run() -> None:
        async with Seat(server.ws_url, doc["table"], tokens[1]) as seat:
            await seat.recv()
        try:
            async with Seat(server.ws_url, doc["table"], tokens[0] + "x") as bad:
                await bad.recv()
        except ConnectionClosed:
            pass

    asyncio.run(run())
    log = server.log.read_text()
    assert f"/?table={doc['table']}&token=*** HTTP/1.1" in log  # the line is there, redacted
    assert not [t for t in tokens if t in log or t[:16] in log]


def _encoded_queries(token: str) -> list[str]:
    """The query ``token=<token>`` spelled in ways the server reads the same."""
    first = f"%{ord(token[0]):02X}"
    return [f"tok%65n={token}", f"token={first}{token[1:]}", f"%74%6F%6B%65%6E={token}",
            f"since=0&tok%65n={first}{token[1:]}"]


def test_no_percent_encoded_token_is_written_to_the_log(server: LiveServer) -> None:
    doc = server.create(3, {"1": "random", "2": "random"})
    token = doc["seats"][0]["token"]
    import urllib.request

    queries = _encoded_queries(token)
    for query in queries:
        urllib.request.urlopen(f"{server.url}/?table={doc['table']}&{query}", timeout=10).read()

    async def run() -> None:
        for query in queries:  # the server reads each as a token in the URL: refused
            async with connect(f"{server.ws_url}/ws/{doc['table']}?{query}") as ws:
                with pytest.raises(ConnectionClosed) as closed:
                    await asyncio.wait_for(ws.recv(), 30)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400

    asyncio.run(run())
    time.sleep(0.5)  # the access lines of the last connection
    log = server.log.read_text()
    for query in queries:  # the lines are there, whole but for the token
        kept = query.rpartition("=")[0]
        assert f"?table={doc['table']}&{kept}=*** HTTP/1.1" in log
        assert f"/ws/{doc['table']}?{kept}=***\"" in log
    assert token[1:17] not in log


def test_the_example_client_plays_a_seat(server: LiveServer) -> None:
    done = subprocess.run([sys.executable, str(EXAMPLES / "ws_client.py"), server.url],
                          capture_output=True, text=True, timeout=120, check=True)
    out = done.stdout.strip().splitlines()
    assert done.stderr == ""
    got = re.fullmatch(r"table (\S+), seat 0: game over after (\d+) steps; I took (\d+) turns;"
                       r" scores (.+)", out[-1])
    assert got is not None and int(got.group(3)) > 0
    states = stored_states(server.db, got.group(1))
    assert sr.is_terminal(states[-1]) and int(got.group(2)) == states[-1].step
    assert got.group(4) == " ".join(map(str, sr.scores(states[-1])))
