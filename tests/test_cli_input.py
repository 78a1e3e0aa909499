"""``shock-rules replay`` with any file: a one-line error and no traceback, input quoted in
it cut to 80 characters; and the helpers that cut it."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import shock_rules as sr
from shock_rules.cli import main
from shock_rules.cli._args import QUOTE_LIMIT, clip, clip_message, quote

_HEADERS = '[Players "3"]\n[Variant "standard"]\n'


def _record_text() -> str:
    config = sr.GameConfig(players=3)
    actions: list[sr.Action] = []
    import random

    sr.random_playout(config, random.Random(3), actions)
    return sr.format_record(sr.record_game(config, actions, {"Seat0": "Ann"}, result=True))


def _write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path


# Each case makes a file in a folder and names the exit status and a part of the error.
Case = Callable[[Path], Path]
CASES: dict[str, tuple[Case, int, str]] = {
    "binary": (lambda d: _write(d, "b.bin", bytes(range(256)) * 40), 2, "not UTF-8 text"),
    "latin-1 text": (lambda d: _write(d, "l.txt", (_HEADERS + "# caf\xe9\n").encode("latin-1")),
                     2, "not UTF-8 text (byte 0xe9 at offset"),
    "empty": (lambda d: _write(d, "e.txt", ""), 2, 'the record has no [Players "..."] header'),
    "truncated text": (lambda d: _write(d, "t.txt", _record_text()[:-200]), 2,
                       "line"),
    "truncated JSON": (lambda d: _write(d, "t.json", sr.to_json(sr.parse_record(
        _record_text()))[:-40]), 2, "not valid JSON"),
    "20 MB line": (lambda d: _write(d, "huge.txt", "x" * 20_000_000), 2,
                   "line 1 is longer than 100000 characters ('xxx"),
    "20 MB line after a record": (lambda d: _write(d, "h.txt", _record_text() + "y" * 20_000_000),
                                  2, "is longer than 100000 characters ('yyy"),
    "long line": (lambda d: _write(d, "long.txt", "z" * 90_000), 2, "invalid action 'zzz"),
    "long header": (lambda d: _write(d, "h.txt", '[Seat0 "' + "y" * 90_000), 2,
                    "malformed header"),
    "many digits": (lambda d: _write(d, "m.txt", _HEADERS + "leader " + "9" * 5000), 2, ""),
    "20 MB JSON string": (lambda d: _write(d, "h.json", json.dumps(
        {"schema": sr.SCHEMA, "type": "z" * 20_000_000})), 2, "document, not a game"),
    "a directory": (lambda d: d, 1, "cannot read"),
    "missing": (lambda d: d / "nope.txt", 1, "No such file or directory"),
    "a state document": (lambda d: _write(d, "s.json", sr.to_json(sr.new_game(
        sr.GameConfig(players=3)))), 2, "is a game state document, not a game record"),
    "a list": (lambda d: _write(d, "l.json", "[1, 2]"), 2, "line 1: malformed header"),
    "JSON of another program": (lambda d: _write(d, "o.json", '{"name": "x"}'), 2,
                                "invalid document"),
    "deep JSON": (lambda d: _write(d, "d.json", '{"a":' + "[" * 200_000), 2, ""),
    "edition not UTF-8": (lambda d: (_write(d, "ed.toml", b"\xff\xfe = 1"),
                                     _write(d, "r.txt", _HEADERS + '[Edition "ed.toml"]\n'))[1],
                          2, "not UTF-8 text"),
    "edition missing": (lambda d: _write(d, "r.txt", _HEADERS + '[Edition "no.toml"]\n'), 2,
                        "cannot read"),
    "superscript digit": (lambda d: _write(d, "s.txt", _HEADERS + "leader \u00b2\n"), 2, ""),
    "Arabic-Indic digit": (lambda d: _write(d, "a.txt", _HEADERS + "leader \u0662\n"), 2, ""),
    "NUL in a record": (lambda d: _write(d, "n.txt", _HEADERS + "play 7H\x00\n"), 2, "line 3"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_any_file_gets_one_line_error_and_no_traceback(
        case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make, status, part = CASES[case]
    path = make(tmp_path)
    assert main(["replay", str(path)]) == status
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("shock-rules replay: error: ")
    assert part in err
    # At most 80 characters of the file are quoted: no long run of one character survives.
    assert not re.search(r"(.)\1{80}", err) and len(err) < 600


def test_the_whole_error_line_for_a_long_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The package's message quotes the line twice; each quote is cut to 80 characters.
    path = _write(tmp_path, "long.txt", "leader " + "x" * 90_000)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    runs = re.findall(r"x{10,}", err)
    assert len(runs) == 2 and all(len(r) < QUOTE_LIMIT for r in runs)
    assert err == (f"shock-rules replay: error: {path}: line 1: invalid action "
                   f"'leader {'x' * 72}\u2026': invalid seat '{'x' * 79}\u2026': expected 0-4\n")


def test_the_whole_error_line_for_a_20_mb_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "huge.txt", _HEADERS + "play " + "9" * 20_000_000 + "\n")
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"shock-rules replay: error: {path} is not a game record: line 3 is longer than 100000 "
        f"characters ('play {'9' * 74}\u2026')\n")


def test_a_file_larger_than_the_limit_is_refused_unread(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from shock_rules.cli import replay

    monkeypatch.setattr(replay, "MAX_BYTES", 1000)
    path = _write(tmp_path, "big.txt", _record_text())
    assert main(["replay", str(path)]) == 2
    assert "is not a game record: it is larger than" in capsys.readouterr().err


def test_binary_standard_input(monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b"\x80\x81 not text"), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main(["replay", "-"]) == 2
    assert capsys.readouterr().err.startswith("shock-rules replay: error: - is not a game "
                                              "record: it is not UTF-8 text")


def test_a_nul_in_the_file_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "a\x00b"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("shock-rules replay: error: cannot read a") and err.count("\n") == 1


# -- the helpers ---------------------------------------------------------------------------------


def test_clip_and_quote_keep_at_most_80_characters() -> None:
    assert clip("short") == "short"
    assert clip("x" * 80) == "x" * 80
    assert clip("x" * 81) == "x" * 79 + "\u2026"
    assert quote("7H") == "'7H'"
    q = quote("z" * 10_000_000)
    assert q == "'" + "z" * 79 + "\u2026'"
    # Escapes count as what they show.
    assert len(quote("\x00" * 100)) == QUOTE_LIMIT + 2


def test_clip_message_cuts_quoted_input_and_long_runs_but_keeps_the_words() -> None:
    message = f"line 1: invalid action {'x' * 1000!r}: invalid seat {'y' * 90!r}: expected 0-4"
    assert clip_message(message) == (f"line 1: invalid action '{'x' * 79}\u2026': invalid seat"
                                     f" '{'y' * 79}\u2026': expected 0-4")
    assert clip_message("unrecognized arguments: " + "a" * 500) == (
        "unrecognized arguments: " + "a" * 79 + "\u2026")
    assert clip_message("two\nlines") == "two lines"
    assert len(clip_message(repr("w " * 10_000_000))) <= 400
    assert clip_message("seat 0 does not hold 8D") == "seat 0 does not hold 8D"


def test_demo_and_replay_work_without_rich(tmp_path: Path) -> None:
    record = _write(tmp_path, "r.txt", _record_text())
    code = (
        "import sys\n"
        "sys.modules['rich'] = None\n"  # any import of rich fails
        "from shock_rules.cli import main\n"
        f"assert main(['demo', '--players', '3', '--seed', '1']) == 0\n"
        f"assert main(['replay', {str(record)!r}]) == 0\n"
        "assert not [m for m in sys.modules if m.startswith('rich.')]\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "Winner" in done.stdout and "Final scores" in done.stdout


def test_python_m_shock_rules_cli_version() -> None:
    done = subprocess.run([sys.executable, "-m", "shock_rules.cli", "--version"],
                          capture_output=True, text=True, check=False)
    build = "compiled" if sr.COMPILED else "pure"
    assert (done.returncode, done.stdout) == (0, f"shock-rules {sr.__version__} ({build})\n")
