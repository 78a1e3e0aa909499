"""``shock-rules serve`` on the command line: its arguments, and a clear message when the
``[server]`` extra is missing (these tests need no server)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from shock_rules.cli import main


def _error(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        status = main(["serve", *argv])
    except SystemExit as exc:
        status = int(exc.code or 0)
    return status, capsys.readouterr().err


def test_serve_says_how_to_install_the_server_extra_when_it_is_missing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in ("starlette", "uvicorn", "websockets")
                        else real(name, *a))
    status, err = _error(capsys, "--db", str(tmp_path / "t.sqlite3"))
    assert status == 2
    assert err.strip().endswith("error: 'serve' needs starlette, uvicorn,"
                                " websockets:"
                                " pip install 'shock-rules[server]'")
    assert not (tmp_path / "t.sqlite3").exists()


@pytest.mark.parametrize(("argv", "says"), [
    (("--port", "70000"), "port must be 0-65535, not '70000'"),
    (("--port", "http"), "port must be 0-65535, not 'http'"),
    (("--bot-delay", "-1"), "bot delay must be 0-60 seconds, not '-1'"),
    (("--bot-delay", "nan"), "bot delay must be 0-60 seconds, not 'nan'"),
    (("--max-tables", "0"), "--max-tables must be a positive integer, not '0'"),
    (("--rate-limit", "x"), "--rate-limit must be a positive integer, not 'x'"),
])
def test_serve_refuses_bad_arguments(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                     says: str) -> None:
    status, err = _error(capsys, *argv)
    assert status == 2 and err.startswith("shock-rules serve: error:") and says in err


def test_serve_refuses_a_database_it_cannot_write(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    status, err = _error(capsys, "--db", str(tmp_path / "no" / "such" / "folder" / "t.db"))
    assert status == 1 and err.startswith("shock-rules serve: error: cannot write")
