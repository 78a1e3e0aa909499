"""Fixtures of the browser tests: a real `shock-rules serve` on 127.0.0.1 (a subprocess, a SQLite
file in the test's folder, bots without delay) and real headless Chromium driven by Selenium
with Debian's chromedriver; for test_web.py, the in-browser build (web/dist) served as static
files instead; for test_docs_pictures.py, the documentation built by Sphinx. The tests skip
where Chromium, its driver, the server's packages (for test_web.py: node and npm; for
test_docs_pictures.py: Sphinx and the docs' theme) are missing (CI installs them)."""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Final

import pytest

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

    from ._harness import Server
    from ._web import StaticSite


def _missing(modules: tuple[str, ...], tools: tuple[str, ...] = ()) -> str | None:
    for binary in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
        if not Path(binary).exists():
            return f"the browser tests need {binary} (Debian: apt-get install chromium-driver)"
    for module in modules:
        if importlib.util.find_spec(module) is None:
            return f"the browser tests need the {module} package"
    for tool in tools:
        if shutil.which(tool) is None:
            return f"the in-browser build's tests need {tool} (Debian: apt-get install nodejs npm)"
    return None


MISSING: Final = _missing(("selenium", "uvicorn", "starlette", "websockets"))
#: The tests of the in-browser build (test_web.py, test_web_melvin.py) run no server, but build
#: web/ with npm.
MISSING_WEB: Final = _missing(("selenium",), ("node", "npm"))
#: The test of the documentation's pictures (test_docs_pictures.py) builds the docs.
MISSING_DOCS: Final = _missing(("selenium", "sphinx", "myst_parser", "furo"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip this folder's tests where something they need is missing."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            reason = {"test_web.py": MISSING_WEB, "test_web_melvin.py": MISSING_WEB,
                      "test_docs_pictures.py": MISSING_DOCS}.get(item.path.name, MISSING)
            if reason is not None:
                item.add_marker(pytest.mark.skip(reason=reason))


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


@pytest.fixture(scope="session")
def web_site() -> Iterator[StaticSite]:
    """Return web/dist (built first when missing or stale) served as static files on
    127.0.0.1: the in-browser build, with no server of the package behind it."""
    from ._web import StaticSite, build

    site = StaticSite(build()).start()
    try:
        yield site
    finally:
        site.stop()
