"""The ``shock-rules`` command: play, simulate, replay, and one-line errors (exit status 2)."""

from __future__ import annotations

import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import shock_rules as sr
from shock_rules.cli import main
from shock_rules.cli.play import WITHDRAW, menu, parse_choice
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
                 "--save", str(record), "--fast"])
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
    code = main(["play", "--seed", "1", "--bots", "random", "--fast"])
    out = capsys.readouterr().out
    assert code == 0
    assert "type the number of an action" in out
    assert "cannot read 'foo'" in out
    assert "there is no action 99" in out
    # A refused action is answered with the engine's own reason.
    assert "'play 11H' is illegal: seat 0 does not hold 11H" in out
    assert out.count("your action [") == 5  # four refused answers, then end of input
    assert "you left: the game is abandoned" in out
    assert "Traceback" not in out


def test_play_ctrl_c_leaves_with_status_130(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "stdin", _Interrupting())
    record = tmp_path / "partial.txt"
    code = main(["play", "--seed", "2", "--save", str(record), "--fast"])
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
    assert main(["play", "--seed", "7", "--players", "3", "--fast"]) == 0
    out = out_file.getvalue()
    choice = out.index("1. reveal")
    assert "chest odds: next card shocks you" in out[:choice]
    assert "you left" in out


def test_parse_choice() -> None:
    acts = (A("play 7H"), A("play 9H"), A("withdraw 7H"), A("withdraw 9H"))
    # The withdrawals are one menu entry, after the other actions.
    assert menu(acts) == [A("play 7H"), A("play 9H"), WITHDRAW]
    assert parse_choice("2", acts) == A("play 9H")
    assert parse_choice("3", acts) == WITHDRAW
    assert parse_choice("w", acts) == parse_choice("Withdraw", acts) == WITHDRAW
    assert parse_choice(" play 7H ", acts) == A("play 7H")
    assert parse_choice("9h", acts) == A("play 9H")  # a bare card plays it face up
    assert parse_choice("withdraw 9H", acts) == A("withdraw 9H")
    for bad, message in (("0", "no action 0"), ("4", "no action 4"), ("2S", "not legal now"),
                         ("hello", "cannot read"), ("stop", "not legal now"),
                         ("leader \u00b2", "cannot read"), ("\u0662", "cannot read")):
        with pytest.raises(ValueError, match=message):
            parse_choice(bad, acts)
    with pytest.raises(ValueError, match="you cannot withdraw now"):
        parse_choice("w", acts[:2])
    # With the engine's reason at hand, a refused action is explained in its words.
    with pytest.raises(ValueError, match=r"^because: play 2S$"):
        parse_choice("2S", acts, lambda a: f"because: {a}")


# -- simulate -----------------------------------------------------------------------------------


def test_simulate_prints_a_table_and_is_reproducible_whatever_the_jobs(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    one, two, again = tmp_path / "1.json", tmp_path / "2.json", tmp_path / "3.json"
    args = ["simulate", "--games", "12", "--players", "3", "--bots", "heuristic,random",
            "--seed", "5"]
    assert main([*args, "--jobs", "1", "--out", str(one)]) == 0
    out = capsys.readouterr().out
    assert "heuristic" in out and "95% CI" in out and "12 games, 3 players" in out
    # The two random slots pooled: their row names the slots, and does not read "all".
    assert re.search(r"1,2\s*│\s*random \(pooled\)", out) and "│ all" not in out
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
    from shock_rules.simulation import game_seed

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
    assert main(["play", "--players", "3", "--seed", "8", "--save", str(record), "--fast"]) == 0
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
    assert "== Round 5" in out and "players: seat 0: you, seat 1: heuristic" in out
    # The JSON form of the same record replays the same.
    doc = tmp_path / "game.json"
    doc.write_text(sr.to_json(parse_record(record.read_text())))
    assert main(["replay", str(doc)]) == 0
    assert capsys.readouterr().out.splitlines()[-2] == f"Final scores: {list(end.in_bag)}"


def test_replay_step_waits_for_enter_between_tricks(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    record = _record_file(tmp_path, monkeypatch)
    capsys.readouterr()
    _stdin(monkeypatch, "\n\n")  # two Enters, then end of input: the rest runs on
    assert main(["replay", "--step", str(record)]) == 0
    out = capsys.readouterr().out
    assert out.count("-- press Enter for trick") == 3
    assert "-- press Enter for trick 1 of round 1, or q to stop --" in out
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
    assert err.startswith(f"shock-rules replay: error: {record}: line {n + 1}: 'play 11H' is "
                          "illegal")


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
    (["simulate", "--seed", "1" * 101], "seed must be an integer of at most 100 digits"),
    (["simulate", "--seed", "1.5"], "seed must be an integer of at most 100 digits, not '1.5'"),
    (["simulate", "--variant", "fancy"], "unknown variant 'fancy'"),
    (["simulate", "--players", "3", "--bots", "random,random,random,random"], "4 bots for 3"),
    (["simulate", "--bots", "mcts:0"], "the budget of mcts (its iterations per decision) must "
                                       "be a positive integer"),
    (["simulate", "--bots", "random:5"], "only mcts takes a budget"),
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
    main(["play", "--players", "3", "--seed", "4", "--bots", "random", "--fast"])
    out = capsys.readouterr().out
    turns = out.count("your action [")
    assert turns  # the game asked for decisions, then for a file name (answered "1")
    _stdin(monkeypatch, "1\n" * turns + f"{kept}\nn\n{fresh}\n")
    code = main(["play", "--players", "3", "--seed", "4", "--bots", "random", "--fast"])
    out = capsys.readouterr().out
    assert code == 0
    assert kept.read_text() == "precious"
    assert "exists: replace it?" in out
    assert parse_record(fresh.read_text()).config.players == 3


# -- play: help, menu, plurals, pacing, --save --------------------------------------------------


def test_play_help_and_question_mark_explain_the_commands_and_the_columns(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _stdin(monkeypatch, "help\n?\nquit\n")
    assert main(["play", "--players", "3", "--seed", "3", "--fast"]) == 0
    out = capsys.readouterr().out
    assert out.count("At your turn, type one of:") == 2
    for column in ("seat, player", "status", "hand", "on bag", "in bag", "poisons", "potions",
                   "void"):
        assert out.count(f"\n  {column} ") == 2, column
    assert "you left: the game is abandoned" in out


def test_play_offers_withdrawals_as_one_entry_that_asks_which_card(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    # Seat 0 leads the first trick with this seed: 'w', Enter goes back to the menu, 'w'
    # again, then the second card; then "1"s to the end.
    record = tmp_path / "w.txt"
    _stdin(monkeypatch, "w\n\nw\n2\n" + "1\n" * 400)
    assert main(["play", "--players", "3", "--seed", "3", "--fast", "--save", str(record)]) == 0
    out = capsys.readouterr().out
    first_menu = out[out.index("   1. "):out.index("seat 0, your action [")]
    entries = [line for line in first_menu.splitlines() if line.strip()]
    # The hand's cards, without their marks (◆ gem icon, ☠ poison, ⚗ potion).
    hand = [c.rstrip("◆☠⚗") for c in out[out.index("your hand: "):].split("\n", 1)[0].split()[2:]]
    # One entry per card to play, and one for withdrawing: not twice the hand.
    assert len(entries) == len(hand) + 1
    assert entries[-1].strip().startswith(f"{len(hand) + 1}. withdraw (bank your gems")
    assert not re.search(r"^\s+\d+\. withdraw \w+$", out, re.MULTILINE)
    assert out.count("which card? [") == 2
    rec = parse_record(record.read_text())
    first_decision = next(a for a in rec.actions if not a.is_chance)
    assert first_decision == sr.Action.withdraw(sr.Card.parse(hand[1]))
    assert "seat 0 (you) withdraws" in out


def test_play_writes_plurals_right(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from shock_rules._info.view import HiddenCardPlayed
    from shock_rules.cli._args import plural
    from shock_rules.cli.play import _describe

    assert (plural(0, "gem"), plural(1, "gem"), plural(2, "gem")) == ("0 gems", "1 gem", "2 gems")
    assert _describe(HiddenCardPlayed(2, 1), 0) == "seat 2 plays a card face down (1 gem on it)"
    assert _describe(HiddenCardPlayed(2, 3), 0) == "seat 2 plays a card face down (3 gems on it)"
    _stdin(monkeypatch, "1\n" * 12 + "quit\n")
    assert main(["play", "--players", "3", "--seed", "4", "--fast"]) == 0
    out = capsys.readouterr().out
    assert "(1 gem)" in out and "(0 gems)" in out  # the trick line
    assert "(s)" not in out and not re.search(r"\b1 gems\b|\b[02-9] gem\b", out)


def test_play_paces_the_bots_unless_fast(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from shock_rules.cli import play

    waits: list[float] = []
    monkeypatch.setattr(time, "sleep", waits.append)  # play_command sleeps with time.sleep
    _stdin(monkeypatch, "1\n" * 5 + "quit\n")
    assert main(["play", "--players", "3", "--seed", "4", "--bots", "random"]) == 0
    bot_moves = capsys.readouterr().out.count("  seat 1 plays")
    assert len(waits) >= bot_moves > 0
    assert all(0 < w <= play.BOT_DELAY for w in waits)
    waits.clear()
    _stdin(monkeypatch, "1\n" * 5 + "quit\n")
    assert main(["play", "--players", "3", "--seed", "4", "--bots", "random", "--fast"]) == 0
    assert capsys.readouterr().out.count("  seat 1 plays") == bot_moves
    assert waits == []


class _Output(io.StringIO):
    """Standard output that tells when the 'thinking' line has been written."""

    def __init__(self) -> None:
        super().__init__()
        self.thinking = threading.Event()

    def write(self, text: str) -> int:
        if "is thinking..." in text:
            self.thinking.set()
        return super().write(text)


def test_play_says_that_a_bot_is_thinking_when_it_takes_long(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from shock_rules.cli import play

    monkeypatch.chdir(tmp_path)  # the game ends by saving its record as "1" here

    out = _Output()

    class SlowBot(sr.RandomBot):
        """Decides only once the program has said it is thinking: a decision as long as
        need be, without depending on the clock."""

        def choose(self, v: sr.PlayerView, rng: random.Random) -> sr.Action:
            assert out.thinking.wait(10)
            return super().choose(v, rng)

    monkeypatch.setattr(play, "make_bot", lambda name: SlowBot())
    monkeypatch.setattr(play, "THINKING_AFTER", 0.0)
    monkeypatch.setattr(sys, "stdout", out)
    _stdin(monkeypatch, "1\n" * 400)
    assert main(["play", "--players", "3", "--seed", "5", "--fast"]) == 0
    text = out.getvalue()
    assert re.search(r"^seat [12] \(random\) is thinking\.\.\.$", text, re.MULTILINE)
    assert "final scores" in text and (tmp_path / "1").exists()


@pytest.mark.parametrize("where", ["missing-folder/game.txt", "."])
def test_play_checks_the_save_path_before_the_game(
        where: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "stdin", _Interrupting())  # the game must not start at all
    target = tmp_path / where
    assert main(["play", "--save", str(target), "--fast"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"shock-rules play: error: cannot write {target}: ")
    assert ("directory" in err) if where == "." else ("No such file or directory" in err)


def test_play_save_check_leaves_no_file_behind(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    from shock_rules.cli._args import unwritable

    target = tmp_path / "new.txt"
    assert unwritable(str(target)) is None and not target.exists()
    target.write_text("kept")
    assert unwritable(str(target)) is None and target.read_text() == "kept"


# -- simulate: Wilson intervals, progress, budgets, --out ---------------------------------------


def test_wilson_interval_is_right_at_zero_and_at_all_wins() -> None:
    from shock_rules.simulation import summarize, wilson

    lo, hi = wilson(0.0, 20)
    assert lo == 0.0 and hi == pytest.approx(0.16113, abs=1e-5)  # 1.96^2 / (20 + 1.96^2)
    assert wilson(1.0, 20) == pytest.approx((1 - hi, 1.0))
    lo, hi = wilson(0.3, 50)
    assert lo < 0.3 < hi and (lo, hi) == pytest.approx((0.1910, 0.4375), abs=1e-4)
    results = [{"win_share": [1.0, 0.0], "scores": [5, 1], "withdrawals": [0, 0],
                "shocks": [0, 0]}] * 10
    per_slot, _ = summarize(["a", "b"], results)
    assert per_slot[1]["win_rate"] == 0 and per_slot[1]["ci95"][0] == 0
    assert per_slot[1]["ci95"][1] > 0.2  # 0 wins in 10 games is not "0.0%-0.0%"
    assert per_slot[0]["ci95"][1] == 1 and per_slot[0]["ci95"][0] < 0.8


def test_simulate_shows_a_real_interval_for_a_slot_without_wins(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "r.json"
    assert main(["simulate", "--games", "4", "--players", "3", "--bots", "heuristic,random",
                 "--seed", "0", "--jobs", "1", "--out", str(out_file)]) == 0
    out = capsys.readouterr().out
    doc = json.loads(out_file.read_text())
    winless = [s for s in doc["slots"] if s["win_rate"] == 0]
    assert winless  # with this seed the random slots never win
    for s in winless:
        assert s["ci95"][0] == 0 and s["ci95"][1] > 0.4
    assert "0.0%-0.0%" not in out and "0.0%-49.0%" in out and "Wilson" in out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_simulate_progress_bar_only_on_a_terminal_and_not_quiet() -> None:
    from shock_rules.cli.simulate import simulate_command

    args = (sr.GameConfig(players=3), ["random"], 5, 1, 1, True, None)
    for err, quiet, shown in ((_Terminal(), False, True), (_Terminal(), True, False),
                              (io.StringIO(), False, False)):
        out = io.StringIO()
        assert simulate_command(*args, out, err, quiet=quiet) == 0
        bar = err.getvalue()
        assert ("5/5" in bar and "games/s" in bar and "left" in bar) is shown
        assert bar == "" or shown
        assert "5 games, 3 players" in out.getvalue()


@pytest.mark.parametrize("spec", ["mcts:abc", "mcts:0", "mcts:-1", "mcts:\u00b2", "mcts:"])
def test_an_mcts_budget_must_be_a_positive_integer(
        spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--bots", f"heuristic,{spec}"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err == (f"shock-rules simulate: error: argument --bots: invalid bot {spec!r}: the "
                   "budget of mcts (its iterations per decision) must be a positive integer, "
                   "as in 'mcts:50'\n")


def test_simulate_checks_the_out_path_before_the_games(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "no" / "r.json"
    assert main(["simulate", "--games", "1000000", "--out", str(target)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"shock-rules simulate: error: cannot write {target}: ")



def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


def _takes_sigint(pid: str) -> bool:
    """Whether the process ``pid`` neither blocks nor ignores SIGINT (Linux's /proc)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:  # it has ended
        return False
    masks = [int(line.split()[1], 16) for line in status.splitlines()
             if line.startswith(("SigBlk:", "SigIgn:"))]
    return not any(mask >> (signal.SIGINT - 1) & 1 for mask in masks)


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="Ctrl-C as a process group's SIGINT")
@pytest.mark.parametrize("delay", [0.0, 0.3, 1.5])
def test_simulate_ctrl_c_ends_the_workers_with_one_line_and_status_130(delay: float) -> None:
    # Ctrl-C at a terminal sends SIGINT to its whole foreground process group: the command and
    # its workers. Sent as the workers start (while they import), then while they play.
    pytest.importorskip("rich")
    proc = subprocess.Popen([sys.executable, "-m", "shock_rules.cli", "simulate", "--games",
                             "1000000", "--jobs", "2", "--quiet"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, process_group=0)
    try:
        # The resource tracker and the two workers (on Linux; elsewhere a second's wait).
        deadline = time.monotonic() + (60 if Path("/proc/self/task").is_dir() else 1)
        while len(_children(proc.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(delay)
        # A worker that takes SIGINT prints its traceback only if it is faster than the
        # command that ends it: seen on Linux, none may take it, whatever the race.
        assert not [pid for pid in _children(proc.pid) if _takes_sigint(pid)]
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert (proc.returncode, out) == (130, "")
    assert err == "\nshock-rules simulate: interrupted\n"  # no "Process SpawnPoolWorker-1:"

# -- replay: header, winners, q, other files ----------------------------------------------------


def test_replay_header_names_players_variant_seed_and_result_and_ends_with_the_winners(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    record = _record_file(tmp_path, monkeypatch)
    capsys.readouterr()
    assert main(["replay", str(record)]) == 0
    lines = capsys.readouterr().out.splitlines()
    rec = parse_record(record.read_text())
    end = replay(rec)[-1]
    result = " ".join(map(str, end.in_bag))
    assert lines[:5] == [
        f"Shock! Knights & Poisons - replay of {record}",
        f"3 players, standard variant; first leader: chance; {len(rec.actions)} actions",
        "players: seat 0: you, seat 1: heuristic, seat 2: heuristic",
        "seed: 8",
        f"result: scores {result}",
    ]
    best = sorted(sr.winners(end))
    names = ", ".join(f"seat {s} ({'you' if s == 0 else 'heuristic'})" for s in best)
    assert lines[-1] == (f"Winner: {names}" if len(best) == 1
                         else f"Winners (a shared victory): {names}")


def test_replay_step_stops_on_q(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    record = _record_file(tmp_path, monkeypatch)
    capsys.readouterr()
    _stdin(monkeypatch, "\nq\n\n\n")
    assert main(["replay", "--step", str(record)]) == 0
    out = capsys.readouterr().out
    assert out.count("-- press Enter for trick") == 2
    assert out.rstrip().endswith("stopped before trick 2 of round 1")
    assert "Final scores" not in out


def test_replay_says_what_a_simulate_result_file_is(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    assert main(["simulate", "--games", "2", "--players", "3", "--jobs", "1", "--out",
                 str(results)]) == 0
    capsys.readouterr()
    assert main(["replay", str(results)]) == 2
    assert capsys.readouterr().err == (f"shock-rules replay: error: {results} is a simulate "
                                       "result file, not a game record\n")


# -- the command as a whole ---------------------------------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    build = "compiled" if sr.COMPILED else "pure"
    assert capsys.readouterr().out == f"shock-rules {sr.__version__} ({build})\n"


@pytest.mark.parametrize(("argv", "prefix"), [
    (["fly"], "shock-rules: error: "),
    (["--colour"], "shock-rules: error: "),
    (["demo", "--seed", "x"], "shock-rules demo: error: "),
    (["play", "--seat", "9"], "shock-rules play: error: "),
    (["play", "extra"], "shock-rules play: error: "),
    (["simulate", "--games", "-3"], "shock-rules simulate: error: "),
    (["replay"], "shock-rules replay: error: "),
    (["replay", "a", "b"], "shock-rules replay: error: "),
])
def test_every_argument_error_starts_with_the_sub_command(
        argv: list[str], prefix: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(prefix) and err.count("\n") == 1


def test_a_huge_argument_is_not_echoed(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["play", "--seed", "9" * 5000 + "x"], ["demo", "--variant", "v" * 100_000],
                 ["x" * 100_000], ["simulate", "--bots", "mcts:" + "1x" * 5000]):
        with pytest.raises(SystemExit):
            main(argv)
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and len(err) < 400
        assert not re.search(r"[^\s'\"]{81,}", err)  # at most 80 characters of input


def test_the_command_alone_prints_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("usage: shock-rules") and "simulate" in out.out
    assert out.err == ""


@pytest.mark.parametrize("command", ["demo", "play", "simulate", "replay", "serve", "melvin",
                                     "melvin demo", "melvin simulate"])
def test_each_sub_command_help_opens_with_a_description(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as leaving:
        main([*command.split(), "--help"])
    assert leaving.value.code == 0
    lines = capsys.readouterr().out.split("\n\n")
    # usage, then one sentence saying what the sub-command does, then the arguments.
    assert lines[0].startswith(f"usage: shock-rules {command}")
    assert lines[1].strip().endswith(".")
    assert not lines[1].lstrip().startswith(("options", "positional"))


@pytest.mark.parametrize("columns", [80, 120])
def test_play_draws_a_header_that_fits_and_marks_the_hand(
        columns: int, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    _stdin(monkeypatch, "quit\n")
    assert main(["play", "--seed", "3", "--fast"]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Round 1/5, trick 1"))
    # The header's two lines, each whole: no phrase broken across lines.
    assert lines[start] == "Round 1/5, trick 1 · trump 2D (diamonds)"
    assert lines[start + 1] == ("chest: 24 cards (poisons: bee 2, jellyfish 2, spider 2)"
                                " · centre: -")
    assert all(len(line) <= columns for line in lines[start:start + 2])
    # The trick names the seat of each card; the hand marks gem icons, poisons and potions.
    trick = next(line for line in lines if line.startswith("trick: "))
    assert trick == "trick: seat 3: 10C (0 gems)"
    hand = next(line for line in lines if line.startswith("your hand: "))
    assert hand == "your hand: 4H◆ 7H☠ 10H 6S 9S 6D 9D 10D 8C"


def test_play_names_the_chest_cards_in_the_centre_in_words(potion_on_poison: sr.State) -> None:
    # A person reads "jellyfish poison", not the notation's P:jellyfish (issue 44, item 7).
    from shock_rules.bots import RandomBot
    from shock_rules.cli.play import _Game

    out = io.StringIO()
    game = _Game(sr.GameConfig(players=4, first_leader=0), 0,
                 {s: RandomBot() for s in (1, 2, 3)}, 1, io.StringIO(), out, 0, 0,
                 lambda _: None)
    game.draw(sr.view(potion_on_poison, 0))
    header = next(line for line in out.getvalue().splitlines() if line.startswith("chest: "))
    assert header.endswith("· centre: jellyfish poison"), header
    assert "P:" not in out.getvalue()
