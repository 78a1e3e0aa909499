"""The 'shock-rules demo' command: a readable transcript, reproducible by seed, whose record
--save writes for 'shock-rules replay'; bad arguments get a one-line error and exit status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from shock_rules.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.rule("GAME-1")
def test_demo_prints_five_rounds_and_final_scores(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "demo", "--players", "3", "--seed", "4")
    assert code == 0
    assert "3 players, standard variant, seed 4" in out
    for rnd in range(1, 6):
        assert f"== Round {rnd}" in out
    assert "the trump card is" in out and "Final scores:" in out
    assert "== Round 6" not in out


def test_demo_is_reproducible_by_seed(capsys: pytest.CaptureFixture[str]) -> None:
    first = _run(capsys, "demo", "--variant", "simplified", "--seed", "12")[1]
    second = _run(capsys, "demo", "--variant", "simplified", "--seed", "12")[1]
    other = _run(capsys, "demo", "--variant", "simplified", "--seed", "13")[1]
    assert first == second
    assert first != other


@pytest.mark.parametrize("argv", [
    ("demo", "--players", "3", "--seed", "4"),
    ("demo", "--game", "melvin", "--players", "3", "--seed", "4"),
    ("melvin", "demo", "--seed", "5"),
])
def test_the_record_demo_saves_replays_to_the_same_game(tmp_path: Path,
                                                        argv: tuple[str, ...]) -> None:
    record = tmp_path / "demo.txt"

    def command(*args: str) -> list[str]:
        done = subprocess.run([sys.executable, "-m", "shock_rules.cli", *args],
                              capture_output=True, text=True, timeout=120, check=False)
        assert (done.returncode, done.stderr) == (0, "")
        return done.stdout.splitlines()

    shown = command(*argv, "--save", str(record))
    assert shown[-1] == f"the game record is saved to {record}"
    replayed = command("replay", str(record))
    assert "seed: " + argv[-1] in replayed
    # The same end, the seats named by the record.
    assert replayed[-2] == shown[-3] and replayed[-1].startswith(shown[-2])
    if argv[0] == "demo" and "melvin" not in argv:  # Shock!'s replay tells it word for word
        start = shown.index("== Round 1")
        assert replayed[replayed.index("== Round 1"):-2] == shown[start:-3]


def test_demo_checks_its_save_file_before_the_game(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    code, out, err = _run(capsys, "demo", "--save", str(tmp_path / "no" / "such" / "dir.txt"))
    assert (code, out) == (1, "")
    assert err.startswith("shock-rules demo: error: cannot write ") and len(err.splitlines()) == 1


@pytest.mark.parametrize("argv", [
    ("demo", "--players", "6"),
    ("demo", "--players", "four"),
    ("demo", "--variant", "expert"),
    ("demo", "--seed", "x"),
    ("demo", "--withdraw-rate", "2"),
    ("fly",),
])
def test_bad_arguments_get_one_line_and_status_2(capsys: pytest.CaptureFixture[str],
                                                 argv: tuple[str, ...]) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "error:" in err
