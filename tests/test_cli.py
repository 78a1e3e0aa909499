"""The ``shock-rules`` command: play, simulate, replay, and one-line errors (exit status 2)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

import shock_rules as sr
from shock_rules.cli import main
from shock_rules.cli.play import parse_choice
from shock_rules.record import parse_record, replay

A = sr.Action.parse


class _Interrupting:
    """A stdin whose reads raise KeyboardInterrupt, like Ctrl-C at the prompt."""

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        raise KeyboardInterrupt


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


# -- play ---------------------------------------------------------------------------------------


def test_play_a_whole_game_by_numbers_and_save_the_record(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    # Always answering "1" is always legal (there is always a first action).
    _stdin(monkeypatch, "1\n" * 400)
    record = tmp_path / "game.txt"
    code = main(["play", "--players", "3", "--seed", "4", "--bots", "heuristic,random",
                 "--save", str(record)])
    out = capsys.readouterr().out
    assert code == 0
    assert "final scores" in out and "your hand:" in out and "== Round 5" in out
    assert "seat 1: heuristic, seat 2: random" in out
    rec = parse_record(record.read_text())
    states = replay(rec)  # the saved record replays to its stated result
    assert sr.is_terminal(states[-1])
    assert rec.header("Seat0") == "you" and rec.header("Seed") == "4"


def test_play_rejects_bad_input_and_asks_again_then_leaves_at_end_of_input(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _stdin(monkeypatch, "\nfoo\n99\nplay 11H\n")
    code = main(["play", "--seed", "1", "--bots", "random"])
    out = capsys.readouterr().out
    assert code == 0
    assert "type the number of an action" in out
    assert "cannot read 'foo'" in out
    assert "there is no action 99" in out
    assert "'play 11H' is not legal now" in out
    assert out.count("your action [") == 5  # four refused answers, then end of input
    assert "you left: the game is abandoned" in out
    assert "Traceback" not in out


def test_play_ctrl_c_leaves_with_status_130(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "stdin", _Interrupting())
    record = tmp_path / "partial.txt"
    code = main(["play", "--seed", "2", "--save", str(record)])
    out = capsys.readouterr().out
    assert code == 130
    assert "interrupted: the game is abandoned" in out
    # The game so far is saved, without a result, and replays.
    rec = parse_record(record.read_text())
    assert rec.header("Result") is None and not sr.is_terminal(replay(rec)[-1])


class _UntilReveal:
    """A stdin that answers "1" until the program offers another chest card, then "quit"."""

    def __init__(self, out: io.StringIO) -> None:
        self.out = out

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        return "quit\n" if "1. reveal" in self.out.getvalue() else "1\n"


def test_play_shows_chest_odds_before_a_reveal_decision_and_quits(
        monkeypatch: pytest.MonkeyPatch) -> None:
    out_file = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out_file)
    monkeypatch.setattr(sys, "stdin", _UntilReveal(out_file))
    assert main(["play", "--seed", "7", "--players", "3"]) == 0
    out = out_file.getvalue()
    choice = out.index("1. reveal")
    assert "chest odds: next card shocks you" in out[:choice]
    assert "you left" in out


def test_parse_choice() -> None:
    acts = (A("play 7H"), A("play 9H"), A("withdraw 7H"), A("withdraw 9H"))
    assert parse_choice("2", acts) == A("play 9H")
    assert parse_choice(" play 7H ", acts) == A("play 7H")
    assert parse_choice("9h", acts) == A("play 9H")  # a bare card plays it face up
    assert parse_choice("withdraw 9H", acts) == A("withdraw 9H")
    for bad, message in (("0", "no action 0"), ("5", "no action 5"), ("2S", "not playable"),
                         ("hello", "cannot read"), ("stop", "not legal now")):
        with pytest.raises(ValueError, match=message):
            parse_choice(bad, acts)


# -- simulate -----------------------------------------------------------------------------------


def test_simulate_prints_a_table_and_is_reproducible_whatever_the_jobs(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    one, two, again = tmp_path / "1.json", tmp_path / "2.json", tmp_path / "3.json"
    args = ["simulate", "--games", "12", "--players", "3", "--bots", "heuristic,random",
            "--seed", "5"]
    assert main([*args, "--jobs", "1", "--out", str(one)]) == 0
    out = capsys.readouterr().out
    assert "heuristic" in out and "95% CI" in out and "12 games, 3 players" in out
    assert main([*args, "--jobs", "2", "--out", str(two)]) == 0
    assert main([*args, "--jobs", "1", "--out", str(again)]) == 0
    assert one.read_text() == two.read_text() == again.read_text()
    doc = json.loads(one.read_text())
    assert doc["type"] == "simulation" and doc["lineup"] == ["heuristic", "random", "random"]
    # The win shares of every game add up to one, so the slots' win rates add up to one.
    assert sum(s["win_rate"] for s in doc["slots"]) == pytest.approx(1.0)
    assert len(doc["results"]) == 12
    # Seats rotate: slot 0 sits at seat g % 3 in game g.
    assert [r["slot_at_seat"].index(0) for r in doc["results"][:4]] == [0, 1, 2, 0]
    assert main([*args[:-1], "6", "--jobs", "1", "--out", str(again)]) == 0
    assert json.loads(again.read_text())["results"] != doc["results"]


def test_simulate_results_match_the_games_they_describe(tmp_path: Path) -> None:
    # Each game is seeded by (seed, game): replaying game 3 with its seed gives its scores.
    import random

    from shock_rules.bots import make_bot, play_game
    from shock_rules.cli.simulate import game_seed

    out = tmp_path / "r.json"
    assert main(["simulate", "--games", "4", "--bots", "random,heuristic", "--seed", "9",
                 "--jobs", "1", "--no-rotate", "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    bots = [make_bot(n) for n in ("random", "heuristic", "heuristic", "heuristic")]
    end = play_game(sr.GameConfig(players=4), bots, random.Random(game_seed(9, 3)))
    assert doc["results"][3]["scores"] == list(end.in_bag)


# -- replay -------------------------------------------------------------------------------------


def _record_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    record = tmp_path / "game.txt"
    _stdin(monkeypatch, "1\n" * 400)
    assert main(["play", "--players", "3", "--seed", "8", "--save", str(record)]) == 0
    return record


def test_replay_prints_the_transcript(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    record = _record_file(tmp_path, monkeypatch)
    capsys.readouterr()
    assert main(["replay", str(record)]) == 0
    out = capsys.readouterr().out
    end = replay(parse_record(record.read_text()))[-1]
    assert f"Final scores: {list(end.in_bag)}" in out
    assert "== Round 5" in out and "seat 0 is you" in out
    # The JSON form of the same record replays the same.
    doc = tmp_path / "game.json"
    doc.write_text(sr.to_json(parse_record(record.read_text())))
    assert main(["replay", str(doc)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"Final scores: {list(end.in_bag)}"


def test_replay_step_waits_for_enter_between_tricks(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    record = _record_file(tmp_path, monkeypatch)
    capsys.readouterr()
    _stdin(monkeypatch, "\n\n")  # two Enters, then end of input: the rest runs on
    assert main(["replay", "--step", str(record)]) == 0
    out = capsys.readouterr().out
    assert out.count("-- press Enter for trick") == 3
    assert "-- press Enter for trick 1 of round 1 --" in out
    assert "Final scores" in out


def test_replay_of_an_illegal_record_names_the_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    record = _record_file(tmp_path, monkeypatch)
    lines = record.read_text().splitlines()
    # Replace the first player decision by a card nobody can play.
    n = next(i for i, line in enumerate(lines) if line.startswith("play "))
    lines[n] = "play 11H"
    record.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["replay", str(record)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"shock-rules: error: {record}: line {n + 1}: 'play 11H' is illegal")


def test_replay_of_a_malformed_or_missing_record(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text('[Players "4"]\n[Variant "standard"]\n\ndeal 7H\nflip 7H\n')
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 5" in err
    assert main(["replay", str(tmp_path / "nope.txt")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read" in err
    bad.write_text('{"schema": "shock-rules/2", "type": "record"}')
    assert main(["replay", str(bad)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


# -- arguments ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "message"), [
    (["play", "--players", "6"], "players must be 3, 4 or 5"),
    (["play", "--bots", "heuristic,alphago"], "unknown bot 'alphago'"),
    (["play", "--players", "3", "--seat", "3"], "--seat must be 0-2 with 3 players"),
    (["play", "--players", "3", "--bots", "random,random,random"], "3 bots for 2 other seats"),
    (["simulate", "--games", "0"], "--games must be a positive integer"),
    (["simulate", "--jobs", "x"], "--jobs must be a positive integer"),
    (["simulate", "--variant", "fancy"], "unknown variant 'fancy'"),
    (["simulate", "--players", "3", "--bots", "random,random,random,random"], "4 bots for 3"),
    (["simulate", "--bots", "mcts:0"], "only mcts takes a budget"),
    (["replay"], "the following arguments are required: RECORD"),
    (["fly"], "invalid choice: 'fly'"),
])
def test_bad_arguments_give_a_one_line_error_and_status_2(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("shock-rules")
    assert message in err


def test_demo_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", "3", "--seed", "1"]) == 0
    assert "Final scores" in capsys.readouterr().out


def test_play_and_simulate_without_rich_say_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "rich", None)  # makes `import rich` fail
    for command in ("play", "simulate"):
        with pytest.raises(SystemExit) as exc:
            main([command])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "pip install 'shock-rules[cli]'" in err


def test_play_asks_before_replacing_a_file_when_saving_at_the_end(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # the first game saves its record as "1" here
    kept = tmp_path / "kept.txt"
    kept.write_text("precious")
    fresh = tmp_path / "fresh.txt"
    # Play the whole game by "1"s, then: name an existing file, refuse to replace it, then
    # give a new name.
    answers = "1\n" * 400
    _stdin(monkeypatch, answers)
    main(["play", "--players", "3", "--seed", "4", "--bots", "random"])
    out = capsys.readouterr().out
    turns = out.count("your action [")
    assert turns  # the game asked for decisions, then for a file name (answered "1")
    _stdin(monkeypatch, "1\n" * turns + f"{kept}\nn\n{fresh}\n")
    code = main(["play", "--players", "3", "--seed", "4", "--bots", "random"])
    out = capsys.readouterr().out
    assert code == 0
    assert kept.read_text() == "precious"
    assert "exists: replace it?" in out
    assert parse_record(fresh.read_text()).config.players == 3
