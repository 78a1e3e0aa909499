"""The in-page host of the browser build (web/src/host.py) with a Melvin Vs. Kronk table, run
here in CPython: the bots of a real-time game say what they will do and how fast (M5), each
from a generator of its own seat and step, and act only on the table they decided on; the
person's actions go through the protocol's Table as they arrive; a whole game through the
host replays in CPython to the same end. (Shock!'s table: tests/server/test_web_host.py.)"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import shock_rules as sr
from shock_rules import melvin
from shock_rules.protocol import Table, draw_rng

HOST_PY = Path(__file__).resolve().parents[2] / "web" / "src" / "host.py"
BOTS = {"1": "reaction:0.35", "2": "reaction:0.6", "3": "reaction:0.9"}


@pytest.fixture(scope="module")
def host() -> ModuleType:
    spec = importlib.util.spec_from_file_location("shock_web_host", HOST_PY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _table(host: ModuleType, bots: dict[str, str] = BOTS, players: int = 4) -> Any:
    table = host.make_table(json.dumps({"game": "melvin", "players": players, "bots": bots}))
    assert not isinstance(table, str), table
    return table


def test_a_melvin_table_is_real_time_with_reaction_bots(host: ModuleType) -> None:
    table = _table(host)
    assert table.realtime and table.seat == 0
    assert isinstance(table.table.config, melvin.GameConfig)
    assert table.bot_to_act() is None  # no turn-based pacing: the bots say when they act
    frame = json.loads(table.frame())
    assert frame["view"]["game"] == "melvin" and frame["seat"] == 0
    # What the lobby may ask for, refused as the server refuses it.
    assert host.make_table(json.dumps({"game": "melvin", "players": 7})) == (
        "Melvin Vs. Kronk needs 3 to 6 players (M1), not 7")
    assert host.make_table(json.dumps({"game": "melvin", "variant": "standard"})) == (
        "variant: Melvin Vs. Kronk has none")
    assert host.make_table(json.dumps({"game": "chess"})) == (
        "game: expected 'shock' or 'melvin', not 'chess'")
    assert "reaction" in host.make_table(json.dumps(
        {"game": "melvin", "players": 3, "bots": {"1": "heuristic", "2": "reaction"}}))


def test_each_bot_decides_with_its_own_seat_and_steps_generator(host: ModuleType) -> None:
    # M5: a race depends only on the seed; each bot seat draws from its own generator of the
    # step (draw_rng(seed, step, "bot<seat>")), so asking again gives the same plan.
    table = _table(host, {"0": "reaction:0.6", "1": "reaction:0.35", "2": "reaction:0.9"}, 3)
    seed = table._seed
    plans = json.loads(table.bot_plans())
    assert plans == json.loads(table.bot_plans())
    step = table.table.step
    assert {p["step"] for p in plans} == {step}
    for plan in plans:
        seat = plan["seat"]
        bot = melvin.make_bot(table.bot_names[seat])
        view = table.table.view(seat)
        rng = draw_rng(seed, step, f"bot{seat}")
        assert bot.choose(view, rng) is not None
        assert plan["delay"] == round(bot.reaction(view, rng), 4)
    # At the start the seat to turn up flips; any other bot plans only a slap at nothing, its
    # rare mistake (drawn from the same generator: the plan is the bot's own choice).
    mover = table.table.state.to_move
    assert mover in [p["seat"] for p in plans]
    for plan in plans:
        seat = plan["seat"]
        rng = draw_rng(seed, step, f"bot{seat}")
        chosen = melvin.make_bot(table.bot_names[seat]).choose(table.table.view(seat), rng)
        assert isinstance(chosen, melvin.Flip if seat == mover else melvin.Slap)


def test_a_bot_acts_only_on_the_table_it_decided_on(host: ModuleType) -> None:
    table = _table(host, {"1": "reaction:0.35", "2": "reaction:0.35"}, 3)
    # The person's turn first, or a bot's: play until a bot has a plan.
    while not (plans := json.loads(table.bot_plans())):
        view = json.loads(table.frame())["view"]
        flip = next(a for a in view["legal_actions"] if a["kind"] == "flip")
        table.receive(json.dumps({"type": "action", "action": flip["notation"],
                                  "step": view["step"]}))
    plan = plans[0]
    assert table.bot_act(plan["seat"], plan["step"] - 1) is None  # the table moved on
    assert table.bot_act(5, plan["step"]) is None  # no bot there
    before = table.table.step
    frame = json.loads(table.bot_act(plan["seat"], plan["step"]))
    assert frame["type"] == "view" and table.table.step > before
    assert table.bot_act(plan["seat"], plan["step"]) is None  # once


def test_a_whole_game_through_the_host_replays_in_cpython(host: ModuleType) -> None:
    # The person acts on its frames (as the page sends: the notation, with the frame's step);
    # the bots act in the order of their reactions, as local.js's timers would.
    table = _table(host)
    rng = random.Random(7)
    events: list[dict[str, Any]] = []
    frame = json.loads(table.frame())
    clock = 0.0
    person_at = 0.0
    for _ in range(5000):
        assert frame["type"] == "view"
        events += frame["events"]
        view = frame["view"]
        if view["phase"] == "over":
            break
        plans = json.loads(table.bot_plans())
        # A casual person: slaps a match it sees, else does anything else it may.
        match = any(view["tops"].count(f) > 1 for f in view["tops"] if f is not None)
        slaps = [a for a in view["legal_actions"] if a["kind"] == "slap"]
        mine = slaps if match and slaps else [
            a for a in view["legal_actions"] if a["kind"] != "slap"]
        first = min(plans, key=lambda p: (p["delay"], p["seat"])) if plans else None
        if mine and (first is None or person_at <= clock + first["delay"]):
            person_at = clock + rng.uniform(0.2, 0.8)
            answer = json.loads(table.receive(json.dumps(
                {"type": "action", "action": rng.choice(mine)["notation"],
                 "step": view["step"]})))
            assert answer["type"] == "view", answer
            frame = answer
            continue
        assert first is not None, f"nobody acts at step {view['step']}"
        clock += first["delay"]
        frame = json.loads(table.bot_act(first["seat"], first["step"]))
    else:  # pragma: no cover - a game lasts a few hundred steps
        raise AssertionError("the game did not end")
    end = table.table.state
    assert melvin.is_terminal(end)
    assert view == Table(state=end).view_document(0)
    # Frame by frame, the page heard every event its seat may see, once.
    assert events == table.table.events_document(0)["events"]
    assert sr.replay(sr.parse_record(table.record()))[-1] == end
    assert set(table.thinking) == set(BOTS.values())
    assert json.loads(table.bot_plans()) == []


def test_the_self_test_is_cpythons_random_playout_of_either_game(host: ModuleType) -> None:
    end = melvin.random_playout(melvin.GameConfig(players=4), random.Random(11))
    assert host.selftest(11, "melvin") == ",".join(map(str, melvin.scores(end)))
    assert host.selftest(11) == host.selftest(11, "shock")
