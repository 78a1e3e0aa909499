"""Melvin Vs. Kronk at a real server table (``shock-rules serve``, uvicorn on 127.0.0.1): tables
made and listed, people and reaction bots at one table, races to slap settled with a
``too_late`` for the loser (M5), a wrong slap's penalty in every seat's view (R8, M9), a
restart that resumes a table, and the race policy with injected latency."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from shock_rules import melvin as mk
from shock_rules.record import GameRecord, replay

from ._live import LiveServer
from ._realtime import RealTimeSeat, match_shows


def stored_actions(db: Path, table: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT action FROM actions WHERE table_id = ? ORDER BY step",
                            (table,)).fetchall()
    return [r[0] for r in rows]


def replayed(db: Path, table: str, players: int) -> mk.State:
    """The state the stored actions lead to (the record is a sequence of legal actions)."""
    record = GameRecord(mk.GameConfig(players=players),
                        tuple(mk.parse_action(a) for a in stored_actions(db, table)))
    final: mk.State = replay(record)[-1]
    return final


async def to_a_match(seats: list[RealTimeSeat]) -> int:
    """Have the seat to move turn up cards until a match shows, every seat seeing each step;
    return the step of the view that shows it."""
    while True:
        step: int = max(s.view["step"] for s in seats)
        for s in seats:
            await s.after(step - 1)
        view = seats[0].view
        if match_shows(view):
            return step
        mover = view["to_move"]
        assert view["phase"] == "play" and mover is not None, view
        await seats[mover].send(f"{mover} flip", step)
        await seats[mover].after(step)


# -- tables --------------------------------------------------------------------------------


def test_a_melvin_table_is_made_and_listed_with_its_game(server: LiveServer) -> None:
    made = server.create(5, {"1": "reaction", "3": "reaction:0.3", "4": "random"},
                         game="melvin", listed=True)
    assert [s["seat"] for s in made["seats"]] == [0, 2]
    status, listing = server.get("/api/tables")
    row = next(t for t in listing["tables"] if t["table"] == made["table"])
    assert row["game"] == "melvin" and row["variant"] is None and row["round"] is None
    assert row["players"] == 5 and row["persons"] == 2 and row["phase"] == "play"
    assert row["bots"] == {"1": "reaction", "3": "reaction:0.3", "4": "random"}
    shock = server.create(3, {})
    status, listing = server.get("/api/tables")
    row = next(t for t in listing["tables"] if t["table"] == shock["table"])
    assert row["game"] == "shock" and row["variant"] == "standard" and row["round"] == 1
    status, view = server.get(f"/api/tables/{made['table']}")
    assert status == 200 and view["game"] == "melvin" and view["seat"] is None


@pytest.mark.parametrize(("body", "says"), [
    ({"game": "melvin", "players": 7}, "3 to 6 players"),
    ({"game": "melvin", "players": 2}, "3 to 6 players"),
    ({"game": "melvin", "variant": "standard"}, "has no variant"),
    ({"game": "melvin", "bots": {"1": "heuristic"}}, "unknown bot"),
    ({"game": "melvin", "bots": {"1": "mcts"}}, "unknown bot"),
    ({"game": "melvin", "bots": {"1": "reaction:0"}}, "reaction time"),
    ({"game": "chess"}, "game: expected shock or melvin"),
    ({"game": 3}, "game: expected"),
])
def test_a_bad_melvin_table_is_refused(server: LiveServer, body: dict[str, Any],
                                       says: str) -> None:
    status, doc = server.request("POST", "/api/tables", json.dumps(body).encode())
    assert status == 400 and doc["code"] == "bad_request"
    assert says in doc["message"]


def test_reaction_bots_play_a_melvin_table_to_the_end(server: LiveServer) -> None:
    made = server.create(4, {"0": "reaction", "1": "reaction:0.3", "2": "random",
                             "3": "reaction"}, game="melvin")

    async def watch() -> RealTimeSeat:
        async with RealTimeSeat(server.ws_url, made["table"]) as spectator:
            await spectator.until(lambda v: v["phase"] == "over")
            return spectator

    spectator = asyncio.run(watch())
    assert spectator.view["end_reason"] is not None and spectator.pongs == 0  # no pings
    final = replayed(server.db, made["table"], 4)
    assert mk.is_terminal(final) and final.step == spectator.view["step"]


def play_seat_zero(server: LiveServer, table: str, token: str) -> RealTimeSeat:
    """Play seat 0 to the end: it turns up its cards, slaps a match it sees, and keeps the
    first Gem card it is offered."""
    async def play() -> RealTimeSeat:
        async with RealTimeSeat(server.ws_url, table, token) as me:
            acted = -1
            while me.view["phase"] != "over":
                view = await me.after(acted)
                acted = view["step"]
                legal = [a["notation"] for a in view["legal_actions"]]
                pick = next((a for a in legal if "award" in a), None)
                if pick is None and match_shows(view) and "0 slap" in legal:
                    pick = "0 slap"
                if pick is None and "0 flip" in legal:
                    pick = "0 flip"
                if pick is not None:
                    await me.send(pick, acted)
            return me

    return asyncio.run(play())


def test_people_and_reaction_bots_play_one_table_to_the_end(server: LiveServer) -> None:
    made = server.create(3, {"1": "reaction", "2": "reaction:0.3"}, game="melvin")
    me = play_seat_zero(server, made["table"], made["seats"][0]["token"])
    assert me.view["end_reason"] is not None
    assert any(e["event"] == "CardTurnedUp" and e["seat"] == 0 for e in me.events)
    # Races lost to the bots, and (bots acting at once, no --bot-delay) slaps faster than a
    # hand: never a refusal of a move that was legal when it was sent.
    assert {e["code"] for e in me.errors} <= {"too_late", "stale_step", "too_fast"}, me.errors
    assert mk.is_terminal(replayed(server.db, made["table"], 3))


# -- races ---------------------------------------------------------------------------------


def test_two_people_race_to_slap_and_exactly_one_wins(server: LiveServer) -> None:
    made = server.create(3, {}, game="melvin")
    tokens = [s["token"] for s in made["seats"]]

    async def race() -> list[RealTimeSeat]:
        async with (RealTimeSeat(server.ws_url, made["table"], tokens[0]) as zero,
                    RealTimeSeat(server.ws_url, made["table"], tokens[1]) as one,
                    RealTimeSeat(server.ws_url, made["table"], tokens[2]) as two):
            seats = [zero, one, two]
            step = await to_a_match(seats)
            await asyncio.gather(zero.send("0 slap", step), one.send("1 slap", step))
            for s in (zero, one):
                await s.until(lambda v: v["phase"] == "award")
            loser = one if zero.view["award_winner"] == 0 else zero
            await loser.error()
            await asyncio.sleep(0.2)  # nothing more is said to anyone
            return seats

    seats = asyncio.run(race())
    winner = seats[0].view["award_winner"]
    assert winner in (0, 1)
    loser = 1 - winner
    assert all(s.view["award_winner"] == winner for s in seats)
    slapped = [e for e in seats[2].events if e["event"] == "MatchSlapped"]
    assert [e["seat"] for e in slapped] == [winner]
    assert seats[loser].errors == [{
        "schema": "shock-rules/2", "type": "error", "code": "too_late",
        "message": f"'{loser} slap' is too late: seat {winner} came first ('{winner} slap')",
        "step": seats[loser].errors[0]["step"], "winner": winner}]
    assert seats[winner].errors == [] and seats[2].errors == []
    assert not any(e["event"] == "WrongSlap" for e in seats[2].events)


def test_a_wrong_slap_shows_its_penalty_on_every_seat(server: LiveServer) -> None:
    made = server.create(3, {}, game="melvin")
    tokens = [s["token"] for s in made["seats"]]

    async def slap() -> list[RealTimeSeat]:
        async with (RealTimeSeat(server.ws_url, made["table"], tokens[0]) as zero,
                    RealTimeSeat(server.ws_url, made["table"], tokens[1]) as one,
                    RealTimeSeat(server.ws_url, made["table"], tokens[2]) as two,
                    RealTimeSeat(server.ws_url, made["table"]) as spectator):
            step = zero.view["step"]
            assert not match_shows(zero.view)  # nothing turned up yet: no match
            await one.send("1 slap", step)
            for s in (zero, one, two, spectator):
                await s.until(lambda v: bool(v["penalties"][1]))
            return [zero, one, two, spectator]

    seen = asyncio.run(slap())
    card = seen[0].view["penalties"][1][0]
    assert card in mk.PENALTIES
    for s in seen:
        assert s.view["penalties"] == [[], [card], []]
        kinds = [(e["event"], e.get("seat")) for e in s.events]
        assert ("WrongSlap", 1) in kinds and ("PenaltyTaken", 1) in kinds


def test_flooding_slaps_costs_a_lockout(tmp_path: Path) -> None:
    server = LiveServer(tmp_path).start()
    try:
        made = server.create(3, {}, game="melvin")
        token = made["seats"][0]["token"]

        async def flood() -> RealTimeSeat:
            async with RealTimeSeat(server.ws_url, made["table"], token) as me:
                for _ in range(3):  # each on its latest view: a wrong slap each
                    step = me.view["step"]
                    await me.send("0 slap", step)
                    await me.after(step)
                for _ in range(2):
                    await me.send("0 slap", me.view["step"])
                await me.until(lambda v: len(me.errors) >= 2)
                return me

        me = asyncio.run(flood())
    finally:
        server.stop()
    codes = [e["code"] for e in me.errors]
    assert codes == ["too_fast", "too_fast"], me.errors
    assert "may not slap for 2.0 s" in me.errors[0]["message"]
    # Three slaps went through (the burst): three wrong slaps, never a fourth.
    wrong = [e for e in me.events if e["event"] == "WrongSlap"]
    assert len(wrong) == 3


# -- restarts and stores ---------------------------------------------------------------------


def _resume(server: LiveServer) -> None:
    """A person and two bots; the server killed at the person's turn and started again: the
    table resumes at its stored step, and the person and the bots go on."""
    made = server.create(3, {"1": "reaction", "2": "reaction"}, game="melvin")
    token = made["seats"][0]["token"]

    async def before() -> dict[str, Any]:
        async with RealTimeSeat(server.ws_url, made["table"], token) as me:
            view = await me.until(lambda v: "0 flip" in [a["notation"]
                                                         for a in v["legal_actions"]])
            await me.send("0 flip", view["step"])
            view = await me.after(view["step"])
            return view

    seen = asyncio.run(before())
    server.kill()
    server.start()

    async def after() -> RealTimeSeat:
        async with RealTimeSeat(server.ws_url, made["table"], token,
                                since=seen["step"]) as me:
            assert me.view["step"] >= seen["step"]
            view = await me.until(lambda v: "0 flip" in [a["notation"]
                                                         for a in v["legal_actions"]])
            await me.send("0 flip", view["step"])
            await me.after(view["step"])
            return me

    me = asyncio.run(after())
    assert any(e["event"] == "CardTurnedUp" and e["seat"] == 0 and e["step"] > seen["step"]
               for e in me.events)


def test_a_melvin_table_resumes_after_a_restart(tmp_path: Path) -> None:
    server = LiveServer(tmp_path).start()
    try:
        _resume(server)
    finally:
        server.stop()


def test_melvin_tables_in_a_postgresql_store(tmp_path: Path, postgres_db: str) -> None:
    server = LiveServer(tmp_path, db=postgres_db).start()
    try:
        made = server.create(4, {str(s): "reaction" for s in range(4)}, game="melvin")

        async def watch() -> dict[str, Any]:
            async with RealTimeSeat(server.ws_url, made["table"]) as spectator:
                return await spectator.until(lambda v: v["phase"] == "over")

        assert asyncio.run(watch())["end_reason"] is not None
        _resume(server)
    finally:
        server.stop()


def test_a_melvin_table_played_through_two_processes_sharing_postgresql(
        tmp_path: Path, postgres_db: str) -> None:
    # The bots race on the process holding the table's lease; the person plays through the
    # other one: a step stored first by either process is the other's too.
    one = LiveServer(tmp_path, db=postgres_db, name="one").start()
    two = LiveServer(tmp_path, db=postgres_db, name="two").start()
    try:
        made = one.create(3, {"1": "reaction", "2": "random"}, game="melvin")
        me = play_seat_zero(two, made["table"], made["seats"][0]["token"])
        status, spectator = one.get(f"/api/tables/{made['table']}")
    finally:
        one.stop()
        two.stop()
    assert me.view["end_reason"] is not None
    assert any(e["event"] == "CardTurnedUp" and e["seat"] == 0 for e in me.events)
    assert {e["code"] for e in me.errors} <= {"too_late", "stale_step", "too_fast"}, me.errors
    assert status == 200 and spectator["step"] == me.view["step"]


# -- the race policy, with injected latency ----------------------------------------------------

#: Seat 0 has a round trip of 4 ms and reacts in 500 ms; seat 1 has 600 ms and reacts in
#: 150 ms. Seat 0's slap arrives about 250 ms first; seat 1 slapped 350 ms first at the table.
FAST, SLOW = (0.004, 0.500), (0.600, 0.150)


def _race_with_lag(server: LiveServer) -> tuple[int, dict[str, Any]]:
    made = server.create(3, {}, game="melvin")
    tokens = [s["token"] for s in made["seats"]]

    async def race() -> tuple[int, dict[str, Any]]:
        async with (RealTimeSeat(server.ws_url, made["table"], tokens[0], lag=FAST[0]) as zero,
                    RealTimeSeat(server.ws_url, made["table"], tokens[1], lag=SLOW[0]) as one,
                    RealTimeSeat(server.ws_url, made["table"], tokens[2]) as two):
            seats = [zero, one, two]
            # The server knows each round trip once a few pings are answered.
            async with asyncio.timeout(10):
                while one.pongs < 3 or zero.pongs < 3:
                    await asyncio.sleep(0.05)
            step = await to_a_match(seats)
            await asyncio.gather(zero.slap_after(FAST[1], step),
                                 one.slap_after(SLOW[1], step))
            await two.until(lambda v: v["phase"] == "award")
            loser = zero if two.view["award_winner"] == 1 else one
            return two.view["award_winner"], await loser.error()

    return asyncio.run(race())


def test_the_compensated_policy_gives_the_race_to_the_faster_hand_on_a_slower_line(
        tmp_path: Path) -> None:
    server = LiveServer(tmp_path, "--race-window", "600").start()
    try:
        winner, error = _race_with_lag(server)
    finally:
        server.stop()
    assert winner == 1
    assert error["code"] == "too_late" and error["winner"] == 1


def test_the_arrival_policy_gives_it_to_the_first_slap_to_arrive(tmp_path: Path) -> None:
    server = LiveServer(tmp_path, "--race-policy", "arrival", "--race-window", "600").start()
    try:
        winner, error = _race_with_lag(server)
    finally:
        server.stop()
    assert winner == 0
    assert error["code"] == "too_late" and error["winner"] == 0
