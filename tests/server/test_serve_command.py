"""``shock-rules serve`` on the command line: its arguments, and a clear message when the
``[server]`` extra is missing (these tests need no server)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable
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
    (("--keep-finished", "0"), "--keep-finished must be a positive integer, not '0'"),
    (("--table-rate", "-5"), "--table-rate must be a positive integer, not '-5'"),
    (("--idle-minutes", "0"), "--idle-minutes must be a number of minutes above 0"
                              " (at most 1000000), not '0'"),
    (("--idle-minutes", "inf"), "--idle-minutes must be a number of minutes above 0"),
    (("--idle-minutes", "nan"), "--idle-minutes must be a number of minutes above 0"),
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


def _damaged(path: Path) -> Path:
    """Write an SQLite file of tables whose second page is overwritten."""
    import sqlite3

    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE tables (id TEXT PRIMARY KEY, config TEXT, bots TEXT,"
                    " seats TEXT, seed TEXT, created REAL)")
        con.executemany("INSERT INTO tables VALUES (?, '{}', '{}', '{}', 's', 0)",
                        [(f"t{i}" * 50,) for i in range(200)])
    con.close()
    with path.open("r+b") as f:
        f.seek(4096)
        f.write(b"\xff" * 4096)
    return path


def _other_program(path: Path) -> Path:
    """Write an SQLite file with a ``tables`` relation of other columns."""
    import sqlite3

    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE tables (id TEXT, name TEXT)")
    con.close()
    return path


def _fifo(p: Path) -> Path:
    os.mkfifo(p)
    return p


@pytest.mark.parametrize(("make", "says"), [
    (lambda p: (p.write_text("not a database\n"), p)[1], "file is not a database"),
    (_other_program, "no such column: config"),
    (_damaged, "it is damaged ("),
    (_fifo, "it is not a regular file"),
])
def test_serve_refuses_a_file_that_is_no_database_of_tables(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        make: Callable[[Path], Path], says: str) -> None:
    pytest.importorskip("starlette")
    import shock_rules.server

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server started")

    monkeypatch.setattr(shock_rules.server, "serve", never)
    if says == "it is not a regular file" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    db = make(tmp_path / "t.sqlite3")
    status, err = _error(capsys, "--db", str(db))
    assert status == 1
    assert err.startswith(f"shock-rules serve: error: cannot use {db} as the database: ")
    assert says in err and err.count("\n") == 1


def test_serve_refuses_a_device_before_it_listens(tmp_path: Path) -> None:
    # The real command: one line, no traceback, and it never got to listen.
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    if not Path("/dev/null").exists():
        pytest.skip("no /dev/null here")
    for db in ("/dev/null", str(_other_program(tmp_path / "o.sqlite3"))):
        done = subprocess.run([sys.executable, "-m", "shock_rules.cli", "serve", "--port", "0",
                               "--db", db], capture_output=True, text=True, timeout=60)
        assert done.returncode == 1 and done.stdout == ""
        assert done.stderr.startswith(f"shock-rules serve: error: cannot use {db} as the"
                                      " database: ")
        assert done.stderr.count("\n") == 1, done.stderr


@pytest.mark.parametrize(("host", "status", "says"), [
    ("127.0.0.1", 1, "cannot listen on 127.0.0.1:{port}: address already in use"),
    ("999.1.1.1", 2, "cannot listen on host '999.1.1.1': it does not resolve ("),
    ("no such host", 2, "cannot listen on host 'no such host': it does not resolve ("),
])
def test_serve_says_in_one_line_where_it_cannot_listen(tmp_path: Path, host: str, status: int,
                                                       says: str) -> None:
    # Checked before the server starts: one line and a status of 1 or 2, not uvicorn's log
    # lines and its status 3.
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "shock_rules.cli", "serve", "--host", host,
                               "--port", str(port), "--db", str(tmp_path / "t.sqlite3")],
                              capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (status, "")
    assert done.stderr.startswith(f"shock-rules serve: error: {says.format(port=port)}")
    assert done.stderr.count("\n") == 1, done.stderr


def test_listen_binds_before_anything_starts() -> None:
    pytest.importorskip("uvicorn")
    import socket

    from shock_rules.server import ListenError, listen, serve

    sockets = listen("127.0.0.1", 0)
    try:
        (sock,) = sockets
        host, port = sock.getsockname()
        assert host == "127.0.0.1" and port > 0
        with pytest.raises(ListenError, match="address already in use") as info:
            serve("127.0.0.1", port, ":memory:")  # refused before the app is even made
        assert info.value.resolved and isinstance(info.value, OSError)
    finally:
        for s in sockets:
            s.close()
    with pytest.raises(ListenError, match="it does not resolve") as info:
        listen("999.1.1.1", 0)
    assert not info.value.resolved
    # Every address of the host, one free port for them all (a host with IPv4 and IPv6).
    both = listen("", 0)
    try:
        assert len({s.getsockname()[1] for s in both}) == 1
        assert {s.family for s in both} <= {socket.AF_INET, socket.AF_INET6}
    finally:
        for s in both:
            s.close()


def test_serve_says_in_one_line_why_a_postgresql_database_cannot_be_used(
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("psycopg")
    # Nothing listens on port 1: the database cannot be reached. The URL's password is never
    # shown, only the host and the database.
    status, err = _error(capsys, "--db", "postgresql://shock:s3cret-pw@127.0.0.1:1/tables")
    assert status == 1
    warning, error = err.splitlines()  # the warning of a password in --db, then the error
    assert warning.startswith("shock-rules serve: warning: the password in --db")
    assert "cannot" in error and "127.0.0.1:1/tables" in error
    assert "s3cret-pw" not in err


def test_serve_says_in_one_line_that_psycopg_cannot_read_a_url(
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("psycopg")
    # psycopg's own ProgrammingError, before any connection: still one line, no password.
    status, err = _error(capsys, "--db", "postgresql://shock:s3cret-pw@h/tables?badopt=1")
    assert status == 1
    assert err.splitlines()[1:] == ["shock-rules serve: error: cannot use PostgreSQL (an"
                                    " unreadable URL) as the database: ProgrammingError"]


def test_a_bug_planted_in_the_postgresql_store_is_not_reported_as_a_bad_database(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("psycopg")
    from shock_rules.server import _postgres

    def broken(url: str) -> None:
        raise ZeroDivisionError("planted")

    monkeypatch.setattr(_postgres, "PostgresStore", broken)
    with pytest.raises(ZeroDivisionError, match="planted"):
        main(["serve", "--db", "postgresql://127.0.0.1:1/tables"])


def test_serve_says_how_to_install_the_postgres_extra_when_it_is_missing(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "psycopg" else real(name, *a))
    status, err = _error(capsys, "--db", "postgresql://127.0.0.1/x")
    assert status == 1 and "pip install 'shock-rules[postgres]'" in err


@pytest.mark.parametrize(("argv", "says"), [
    (("--head-timeout", "0"), "--head-timeout must be a number of seconds above 0"),
    (("--body-timeout", "nan"), "--body-timeout must be a number of seconds above 0"),
    (("--keep-alive", "-1"), "--keep-alive must be a number of seconds above 0"),
    (("--write-timeout", "0"), "--write-timeout must be a number of seconds above 0"),
    (("--http", "h2"), "argument --http: invalid choice: 'h2'"),
    (("--connections-per-address", "0"), "--connections-per-address must be a positive"),
    (("--max-connections", "x"), "--max-connections must be a positive integer"),
    (("--forwarded-allow-ips", "127.0.0.1,proxy.example"),
     "--forwarded-allow-ips: 'proxy.example' is no IP address or network"),
    (("--forwarded-allow-ips", "10.0.0.0/33"), "'10.0.0.0/33' is no IP address or network"),
    (("--allow-origin", "example.com"), "--allow-origin: 'example.com' is no origin"),
    (("--allow-origin", "https://example.com/page"), "is no origin (such as"),
])
def test_serve_refuses_bad_public_options(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                          argv: tuple[str, ...], says: str) -> None:
    pytest.importorskip("starlette")
    status, err = _error(capsys, "--db", str(tmp_path / "t.sqlite3"), *argv)
    assert status == 2 and err.startswith("shock-rules serve: error:") and says in err, err
    assert err.count("\n") == 1 and not (tmp_path / "t.sqlite3").exists()


def _caught(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """Replace the server by a function that notes what it was given."""
    import shock_rules.server

    given: dict[str, object] = {}

    def caught(host: str, port: int, db: object, **options: object) -> None:
        given.update(options, db=db)
        for sock in options["sockets"]:  # type: ignore[attr-defined]
            sock.close()

    monkeypatch.setattr(shock_rules.server, "serve", caught)
    return given


def test_serve_takes_the_database_from_the_environment(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    given = _caught(monkeypatch)
    monkeypatch.setenv("SHOCK_RULES_DB", str(tmp_path / "env.sqlite3"))
    assert main(["serve", "--port", "0"]) == 0
    assert given["db"].path == str(tmp_path / "env.sqlite3")  # type: ignore[attr-defined]
    given["db"].close()  # type: ignore[attr-defined]
    # --db wins over the variable.
    assert main(["serve", "--port", "0", "--db", str(tmp_path / "arg.sqlite3")]) == 0
    assert given["db"].path == str(tmp_path / "arg.sqlite3")  # type: ignore[attr-defined]
    given["db"].close()  # type: ignore[attr-defined]
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("url", ["postgresql://shock:s3cret-pw@127.0.0.1:1/tables",
                                 "postgres://shock@127.0.0.1:1/tables?password=s3cret-pw"])
def test_a_password_in_db_is_warned_of_and_never_printed(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    pytest.importorskip("starlette")
    _caught(monkeypatch)
    # Whether psycopg is there (the database cannot be reached) or not, the warning comes first.
    status, err = _error(capsys, "--db", url)
    assert status == 1
    warning = err.splitlines()[0]
    assert warning == ("shock-rules serve: warning: the password in --db can be read by every"
                       " user of this machine (ps shows the command line): give it in"
                       " PGPASSWORD or ~/.pgpass, or the whole URL in SHOCK_RULES_DB")
    assert "s3cret-pw" not in err
    # Given in the environment, it is no one else's to read: no warning.
    monkeypatch.setenv("SHOCK_RULES_DB", url)
    status, err = _error(capsys)
    assert status == 1 and "warning" not in err and "s3cret-pw" not in err
