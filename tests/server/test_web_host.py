"""The in-page host of the browser build (web/src/host.py), run here in CPython: it reads a bots
field and an action frame with the server's own functions (from shock_rules.protocol, which
needs no Starlette); these tests hold its answers to the server's, and play a game through it."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("starlette")

import shock_rules as sr
from shock_rules.protocol import MAX_MCTS_ITERATIONS, Table, read_bots, read_frame

HOST_PY = Path(__file__).resolve().parents[2] / "web" / "src" / "host.py"


@pytest.fixture(scope="module")
def host() -> ModuleType:
    spec = importlib.util.spec_from_file_location("shock_web_host", HOST_PY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _outcome(call: Any, *args: object) -> tuple[str, str]:
    """Return what a call returned, or the name and message of what it raised."""
    try:
        return "ok", repr(call(*args))
    except Exception as exc:
        return type(exc).__name__, str(exc).replace("this server", "this page")


FRAMES = [
    "", "[]", "{", '{"type": "view"}', '{"type": "action", "step": 1, "x": 0}',
    '{"type": "action", "action": "play 7H"}',
    '{"type": "action", "action": "play 7H", "step": -1}',
    '{"type": "action", "action": 5, "step": 3}', '{"type": "action", "action": "jump", "step": 3}',
    '{"type": "action", "action": {"kind": "play", "card": "7H", "step": 9}, "step": 3}',
    '{"type": "action", "action": {"kind": "play", "card": "7H", "x": 1}, "step": 3}',
    '{"type": "action", "action": "withdraw 10s", "step": 0}',
]


@pytest.mark.parametrize("text", FRAMES)
def test_the_host_reads_an_action_frame_as_the_server(host: ModuleType, text: str) -> None:
    # The page keeps its game in the protocol's own Table, whose receive() reads a frame with
    # the server's read_frame: not a copy of either.
    assert host.Table is Table
    expected = _outcome(read_frame, text)
    if expected[0] != "ok":
        assert expected[0] in {"InvalidStateError", "InvalidNotationError"}
    page = host.LocalTable(4, "standard", {"1": "random", "2": "random", "3": "random"}, "s")
    answer = json.loads(page.receive(text))
    if expected[0] != "ok":
        assert answer["type"] == "error" and answer["message"] == expected[1]
        assert answer == Table(page.table.config, seed="s").receive(0, text)


BOT_FIELDS: list[tuple[int, object]] = [
    (4, {"1": "random", "2": "Heuristic ", "3": "mcts:50"}), (4, []), (4, {"4": "random"}),
    (3, {"x": "random"}), (3, {"1": 7}), (3, {"1": "genius"}), (3, {"1": "random:5"}),
    (3, {"1": f"mcts:{MAX_MCTS_ITERATIONS + 1}"}), (3, {"1": "mcts:0"}),
]


@pytest.mark.parametrize(("players", "bots"), BOT_FIELDS)
def test_the_host_reads_a_bots_field_as_the_server(host: ModuleType, players: int,
                                                   bots: object) -> None:
    assert host.read_bots is read_bots  # the server's own function, not a copy
    in_page = _outcome(lambda p, b: host.read_bots(p, b, host="this page"), players, bots)
    ours, theirs = in_page, _outcome(read_bots, players, bots)
    assert ours[1] == theirs[1]
    assert (ours[0] == "ok") == (theirs[0] == "ok")


def test_a_page_has_one_person_at_most(host: ModuleType) -> None:
    message = host.make_table(json.dumps({"players": 3, "bots": {"1": "random"}}))
    assert message == ("seats 0, 2 are people, but a game in this page has one person (the"
                       " others are bots): to play together, use `shock-rules serve`")
    # As the server answers POST /api/tables.
    assert host.make_table(json.dumps({"variant": "easy"})) == "'easy' is not a valid Variant"
    watched = host.make_table(json.dumps({"players": 3, "bots": {
        "0": "random", "1": "random", "2": "random"}}))
    assert watched.seat is None  # every seat a bot: the page watches


def test_a_game_through_the_host_sends_what_the_server_sends(host: ModuleType) -> None:
    game = host.make_table(json.dumps({"players": 4, "bots": {
        "1": "random", "2": "heuristic", "3": "mcts:10"}}))
    assert game.seat == 0
    rng = random.Random(4)
    events: list[dict[str, Any]] = []
    frame = json.loads(game.frame())
    while True:
        assert frame["type"] == "view" and frame["seat"] == 0
        events += frame["events"]
        view = frame["view"]
        if game.bot_to_act() is not None:
            frame = json.loads(game.bot_step())
            continue
        if view["phase"] == "over":
            break
        legal = view["legal_actions"]
        # A stale step is refused, the table unchanged, with the server's error document.
        stale = json.loads(game.receive(json.dumps(
            {"type": "action", "action": legal[0], "step": view["step"] - 1})))
        assert stale["type"] == "error" and stale["code"] == "stale_step"
        assert stale["step"] == view["step"] == game.table.step
        frame = json.loads(game.receive(json.dumps(
            {"type": "action", "action": rng.choice(legal), "step": view["step"]})))
    end = game.table.state
    assert view == Table(state=end).view_document(0)
    # Frame by frame, the page heard every event its seat may see, once.
    assert events == game.table.events_document(0)["events"]
    assert sr.replay(sr.parse_record(game.record()))[-1] == end
    assert set(game.thinking) == {"random", "heuristic", "mcts:10"}
    over = json.loads(game.receive(json.dumps(
        {"type": "action", "action": "play 7H", "step": end.step})))
    assert over["code"] == "game_over"


def test_the_self_test_is_cpythons_random_playout(host: ModuleType) -> None:
    end = sr.random_playout(sr.GameConfig(players=4), random.Random(11))
    assert host.selftest(11) == ",".join(map(str, sr.scores(end)))
