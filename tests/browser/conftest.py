"""Fixtures of the browser tests: a real `shock-rules serve` on 127.0.0.1 (a subprocess, a SQLite
file in the test's folder, bots without delay) and real headless Chromium driven by Selenium
with Debian's chromedriver. The tests skip where Chromium, its driver or the server's packages
are missing (CI installs them)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Final

import pytest

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

    from ._harness import Server


def _missing() -> str | None:
    for binary in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
        if not Path(binary).exists():
            return f"the browser tests need {binary} (Debian: apt-get install chromium-driver)"
    for module in ("selenium", "uvicorn", "starlette", "websockets"):
        if importlib.util.find_spec(module) is None:
            return f"the browser tests need the {module} package"
    return None


MISSING: Final = _missing()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip this folder's tests where something they need is missing."""
    if MISSING is None:
        return
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.skip(reason=MISSING))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """Return a running server with a fresh database in the test's folder."""
    from ._harness import Server

    srv = Server(tmp_path)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Callable[..., WebDriver]]:
    """Return a factory of headless Chromium drivers (``browser(width, height)``, or
    ``browser(phone=True)``), each with its own profile in the test's folder; all quit at the
    end of the test."""
    from ._harness import chromium

    drivers: list[WebDriver] = []

    def make(width: int = 1280, height: int = 900, *, phone: bool = False) -> WebDriver:
        folder = tmp_path / f"chromium-{len(drivers)}"
        folder.mkdir()
        driver = chromium(folder, width, height, phone=phone)
        drivers.append(driver)
        return driver

    try:
        yield make
    finally:
        for driver in drivers:
            driver.quit()
