"""The table server's tests run a real ``shock-rules serve`` (uvicorn) on 127.0.0.1; all but
those of the command line need the ``[server]`` extra."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ._live import LiveServer


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
