"""The scripts of examples/ run and do what their comment blocks say."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

import shock_rules as sr
import shock_rules.protocol

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
CARD = re.compile(r"\b(?:1[01]|[1-9])[HSDC]\b")


def _run(name: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True,
                          text=True, timeout=120, check=True)
    assert done.stderr == ""
    return done.stdout


def _load(name: str) -> ModuleType:
    sys.path.insert(0, str(EXAMPLES))
    try:
        return __import__(name)
    finally:
        sys.path.remove(str(EXAMPLES))


def test_every_example_has_a_comment_block_and_a_test() -> None:
    tests = Path(__file__).resolve().parent
    source = "".join(p.read_text() for p in tests.rglob("test_*.py"))
    for path in EXAMPLES.glob("*.py"):
        text = path.read_text()
        # A docstring or a block of comments first, saying what the example shows.
        assert text.startswith('"""') or text.startswith("# "), path.name
        assert path.name in source, f"{path.name} is run by no test"


def test_quickstart_prints_a_whole_game() -> None:
    out = _run("quickstart.py", "5").splitlines()
    assert "round 1 begins" in out[0] and any("round 5 ends" in line for line in out)
    # The last line names the winners of the scores it prints, as the engine counts them.
    scores = [int(x) for x in re.findall(r"\d+", out[-1].split(";")[0])]
    best = max(scores)
    assert out[-1].endswith(", ".join(f"seat {i}" for i, s in enumerate(scores) if s == best))
    assert _run("quickstart.py", "5").splitlines() == out  # the same seed, the same game


def test_custom_edition_plays_with_the_house_data() -> None:
    out = _run("custom_edition.py")
    assert "edition 'house-greedy': poison types snake, scorpion, toad" in out
    assert "replays to scores" in out and out.rstrip().endswith(": same")
    house = sr.Edition.load(EXAMPLES / "custom_edition.toml")
    assert house != sr.Edition.default() and house.poison_types == ("snake", "scorpion", "toad")


def test_odds_explains_a_real_position() -> None:
    out = _run("odds.py")
    got = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
    assert got["cards left in the chest deck"] == "23"
    assert got["chance it shocks seat 0"].startswith("2/23 ")   # one jellyfish: 2 of 23 cards
    assert got["chance the next card is a poison card"].startswith("6/23 ")
    gain = Fraction(got["expected change of its gems on the bag if it reveals"].split()[0])
    assert gain > 0 and out.rstrip().endswith("seat 0 should reveal")


def test_chat_table_tells_each_player_only_what_it_may_know() -> None:
    chat = _load("chat_table")
    names = ["Ann", "Bob", "Cy", "Di"]
    table = chat.ChatTable(names, seed=11)
    rng = __import__("random").Random(11)
    bots = [sr.HeuristicBot() for _ in names]
    table.say("Bob", "play 99X")
    assert table.outbox[-1][0] == "Bob" and "invalid card '99X'" in table.outbox[-1][1]
    before = table.state
    table.say("Cy", "stop")
    assert table.state is before and table.outbox[-1][0] == "Cy"
    sent = 0
    while not sr.is_terminal(table.state):
        seat = table.state.actor
        table.say(names[seat], str(bots[seat].choose(sr.view(table.state, seat), rng)))
        state = table.state
        for recipient, text in table.outbox[sent:]:
            # Cards another player holds, or played face down, or still in the deck, are
            # secrets: no message may name one (the public channel keeps every seat's secrets).
            viewer = None if recipient is None else names.index(recipient)
            secret = state.pool_mask
            for other in range(len(names)):
                if other != viewer:
                    secret |= state.hand_masks[other] | state.face_down_masks[other]
            named = {sr.parse_card(c).index for c in CARD.findall(text)}
            assert not [i for i in named if secret >> i & 1], (recipient, text)
        sent = len(table.outbox)
    last = table.outbox[-1]
    assert last[0] is None and last[1].startswith("the game is over")
    assert any(names[max(sr.winners(state))] in text for _, text in table.outbox[-1:])


def test_chat_table_script_runs() -> None:
    out = _run("chat_table.py", "3").splitlines()
    assert out[-1].startswith("[table] the game is over")
    assert any(line.startswith("[Bob] not done: invalid action 'play 99X'") for line in out)
    assert any(line.startswith("[Cy] not done:") and "must act" in line for line in out)


def test_remote_seat_plays_a_game_over_a_pipe_in_documents() -> None:
    out = _run("remote_seat.py", "3").splitlines()
    turns = re.match(r"remote seat 1 took (\d+) turns over the pipe; 1 message refused"
                     r" \(stale_step\); it last heard of step (\d+)$", out[0])
    assert turns is not None and int(turns.group(1)) > 0
    # The seat heard of every step up to the last one, through views and events documents.
    assert out[2].endswith(f"after {turns.group(2)} steps")
    sent = {kind: count for count, kind in (item.split() for item in
                                            out[1].split(": ")[1].split(", "))}
    assert sent == {"error": "1", "events": str(int(turns.group(1)) + 1),
                    "view": str(int(turns.group(1)) + 2)}


def test_remote_seat_answers_a_view_with_one_of_its_legal_actions() -> None:
    # The child side alone, fed by hand: it answers a view saying your_turn, with the step.
    table = sr.protocol.Table(sr.GameConfig(players=4), rng=__import__("random").Random(5))
    seat = table.to_act
    assert seat is not None
    view = table.view_document(seat)
    done = subprocess.run([sys.executable, str(EXAMPLES / "remote_seat.py"), "--seat", "2"],
                          input=json.dumps(view) + "\n", capture_output=True, text=True,
                          timeout=60, check=True)
    reply = json.loads(done.stdout)
    assert reply["type"] == "action" and reply["step"] == table.step - 1  # the planned mistake
    legal = view["legal_actions"]
    assert isinstance(legal, list)
    assert {k: v for k, v in reply.items() if k not in ("schema", "type", "step")} in legal
    with pytest.raises(sr.protocol.StaleStepError):
        table.act(seat, reply)
    table.act(seat, {**reply, "step": table.step})
    assert table.step > view["step"]  # type: ignore[operator]


@pytest.mark.parametrize(("name", "blocked", "extra"), [
    ("train_random_vs_heuristic.py", "gymnasium", "gymnasium"),
    ("ws_client.py", "websockets", "server"),
])
def test_an_example_without_its_extra_says_which_to_install_in_one_line(
        name: str, blocked: str, extra: str) -> None:
    # The extra's package made unimportable, as in an environment without it.
    code = (f"import sys, runpy; sys.modules[{blocked!r}] = None; sys.argv = [{name!r}];"
            f" runpy.run_path({str(EXAMPLES / name)!r}, run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        done.stderr.strip()] and f"pip install 'shock-rules[{extra}]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_ws_client_without_a_server_says_so_in_one_line() -> None:
    pytest.importorskip("websockets")
    # A socket bound but not listening: a connection to its port is refused, and no other
    # process can take the port while the test runs.
    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{bound.getsockname()[1]}"
        done = subprocess.run([sys.executable, str(EXAMPLES / "ws_client.py"), url],
                              capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (f"cannot connect to {url}: connection refused"
                           " (start `shock-rules serve` first)\n")


@pytest.mark.parametrize(("module", "blocked", "extra"), [
    ("shock_rules.envs.pettingzoo", "pettingzoo", "pettingzoo"),
    ("shock_rules.envs.gymnasium", "gymnasium", "gymnasium"),
    ("shock_rules.envs.openspiel", "pyspiel", "openspiel"),
    ("shock_rules.server", "starlette", "server"),
])
def test_a_module_without_its_extra_names_the_pip_command(
        module: str, blocked: str, extra: str) -> None:
    code = f"import sys; sys.modules[{blocked!r}] = None; import {module}"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last == (f"ImportError: {module} needs {blocked}, which is not installed:"
                    f" pip install 'shock-rules[{extra}]'")
    # One error, not a chain of two ("During handling of the above exception...").
    assert done.stderr.count("Traceback") == 1


def test_a_fault_inside_an_adapter_is_not_taken_for_a_missing_extra() -> None:
    from shock_rules._errors import missing_extra
    inner = ImportError("cannot import name 'x' from 'shock_rules.envs._encoding'",
                        name="shock_rules.envs._encoding")
    assert missing_extra("shock_rules.envs.gymnasium", "gymnasium", inner,
                         frozenset({"gymnasium"})) is inner
