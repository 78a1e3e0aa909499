"""The table server's tests run a real ``shock-rules serve`` (uvicorn) on 127.0.0.1; all but
those of the command line need the ``[server]`` extra."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from ._live import LiveServer
from ._postgres import Postgres


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for a module's tests."""
    live = LiveServer(tmp_path_factory.mktemp("server")).start()
    yield live
    live.stop()


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server of the test's own, with the default limits (to kill and restart)."""
    live = LiveServer(tmp_path).start()
    yield live
    live.stop()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A real PostgreSQL server for the session (skipped, with the reason, where it cannot
    start: CI installs Debian's postgresql)."""
    pytest.importorskip("psycopg")
    try:
        pg = Postgres()
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"no PostgreSQL to test with: {exc}")
    try:
        pg.start()
    except RuntimeError as exc:
        pg.close()
        pytest.skip(f"PostgreSQL did not start: {exc}")
    yield pg
    pg.close()


@pytest.fixture
def postgres_db(postgres: Postgres) -> str:
    """The URL of a fresh database of the session's PostgreSQL (restarted if a test stopped
    it)."""
    try:
        return postgres.new_database()
    except Exception:
        postgres.start()
        return postgres.new_database()
