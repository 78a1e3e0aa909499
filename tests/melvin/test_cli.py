"""Melvin Vs. Kronk from the command line: ``demo --game melvin``, ``simulate --game
melvin`` and their shorthand ``melvin demo|simulate``."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from shock_rules import melvin as mk
from shock_rules.cli import main
from shock_rules.cli.demo import melvin_demo


@pytest.mark.rule("MK-INFO-1")
def test_demo_prints_a_spectators_game_without_hidden_cards() -> None:
    out = io.StringIO()
    assert melvin_demo(mk.GameConfig(players=5), 3, out) == 0
    text = out.getvalue()
    assert text.startswith("Melvin Vs. Kronk - 5 players, seed 3")
    assert "Winner" in text
    # A spectator sees no moved card's face, no drawn Gem card, no kept one (MK-INFO-1).
    assert " gives its V" not in text and "sees the Gem cards" not in text
    assert " keeps G" not in text and " keeps Oculos" not in text


@pytest.mark.rule("MK-ACT-1")
def test_the_demo_transcript_is_unchanged() -> None:
    """A golden transcript: the demo of seed 7 with 4 players, word for word. After an
    intended change, regenerate it with ``SHOCK_RULES_GOLDEN=write pytest -k demo_transcript``
    and review the diff."""
    golden = Path(__file__).parent.parent / "data" / "melvin" / "demo-4-players-seed-7.txt"
    out = io.StringIO()
    melvin_demo(mk.GameConfig(players=4), 7, out)
    if os.environ.get("SHOCK_RULES_GOLDEN") == "write":
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(out.getvalue(), encoding="utf-8")
    assert out.getvalue() == golden.read_text(encoding="utf-8")
    text = out.getvalue()
    # A demo a reader learns from: matches won, wrong slaps punished, a winner, and turn-ups
    # that show many faces (the sampler draws every face, not the first one left).
    assert "slaps first: a match" in text and "slaps with no match" in text
    assert "takes the penalty" in text and "Winner" in text
    faces = {line.rsplit(" ", 1)[1] for line in text.splitlines() if " turns up V" in line}
    assert len(faces) == 12


@pytest.mark.rule("MK-ACT-1")
def test_simulate_reports_win_rates_with_intervals_and_is_reproducible(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = []
    for name in ("a.json", "b.json"):
        argv = ["simulate", "--game", "melvin", "--players", "3", "--games", "40", "--seed",
                "11", "--bots", "random,reaction:0.3,reaction:1", "--jobs", "1", "--quiet",
                "--out", str(tmp_path / name)]
        assert main(argv) == 0
        docs.append(json.loads((tmp_path / name).read_text(encoding="utf-8")))
    assert docs[0] == docs[1] and docs[0]["game"] == "melvin"
    out = capsys.readouterr().out
    assert "Melvin Vs. Kronk: 40 games, 3 players" in out and "95% CI" in out
    slots = docs[0]["slots"]
    assert [s["bot"] for s in slots] == ["random", "reaction:0.3", "reaction:1"]
    assert sum(s["win_rate"] for s in slots) == pytest.approx(1.0)
    for s in slots:
        assert s["ci95"][0] <= s["win_rate"] <= s["ci95"][1]
    # The fastest reaction bot wins most: the real-time race decides (M5).
    assert max(slots, key=lambda s: s["win_rate"])["bot"] == "reaction:0.3"


def test_the_melvin_shorthand_is_the_same_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["melvin", "demo", "--players", "3", "--seed", "5"]) == 0
    short = capsys.readouterr().out
    assert main(["demo", "--game", "melvin", "--players", "3", "--seed", "5"]) == 0
    assert capsys.readouterr().out == short


@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "--game", "melvin", "--players", "3", "--bots", "reaction,random,kronk"],
     "unknown bot 'kronk'"),
    (["simulate", "--game", "melvin", "--bots", "reaction:0"], "invalid reaction time '0'"),
    (["simulate", "--game", "melvin", "--bots", "reaction:fast"],
     "invalid reaction time 'fast'"),
    (["simulate", "--game", "melvin", "--bots", "reaction:nan"], "invalid reaction time 'nan'"),
    (["simulate", "--game", "melvin", "--bots", "reaction:11"], "at most 10"),
    (["simulate", "--game", "melvin", "--bots", "heuristic"], "unknown bot 'heuristic'"),
    (["simulate", "--game", "melvin", "--players", "3", "--bots", "random,random,random,random"],
     "--bots names 4 bots for 3 players"),
    (["melvin", "simulate", "--bots", "kronk"], "unknown bot 'kronk'"),
    (["demo", "--game", "melvin", "--variant", "simplified"], "--variant is an option of shock"),
    (["demo", "--game", "melvin", "--withdraw-rate", "0.5"], "an option of shock"),
    (["demo", "--game", "kronk"], "invalid choice: 'kronk'"),
])
def test_bad_arguments_are_a_one_line_error(capsys: pytest.CaptureFixture[str],
                                            argv: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.splitlines()) == 1


@pytest.mark.rule("MK-SETUP-1")
def test_bad_player_count_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["melvin", "demo", "--players", "7"])
    assert exc.value.code == 2
    assert "players must be 3 to 6" in capsys.readouterr().err


@pytest.mark.rule("MK-NOTATION-1")
def test_a_melvin_record_replays_from_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import random

    from shock_rules.record import format_record, record_game, record_to_dict

    actions: list[mk.Action] = []
    end = mk.random_playout(mk.GameConfig(players=4), random.Random(8), actions)
    record = record_game(mk.GameConfig(players=4), actions, {"Seat1": "Kronk"}, result=True)
    text = tmp_path / "game.txt"
    text.write_text(format_record(record), encoding="utf-8")
    doc = tmp_path / "game.json"
    doc.write_text(json.dumps({"schema": "shock-rules/2", "type": "record",
                               **record_to_dict(record)}), encoding="utf-8")
    outs = []
    for path in (text, doc):
        assert main(["replay", str(path)]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0].replace("game.txt", "game.json") == outs[1]
    out = outs[0]
    assert out.startswith("Melvin Vs. Kronk - replay of") and "seat 1: Kronk" in out
    assert "turns up V" in out and "the game ends" in out
    assert f"Final scores: {list(mk.scores(end))}" in out
    # A record that does not replay is a one-line error, exit status 2.
    broken = tmp_path / "broken.txt"
    broken.write_text(format_record(record).replace("dealer ", "dealer 9", 1), encoding="utf-8")
    assert main(["replay", str(broken)]) == 2
    assert "error:" in capsys.readouterr().err
