"""The in-browser build (web/dist) for the browser tests: built with npm when it is missing or
older than its sources, and served as plain static files by a thread of this process."""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parents[2]
WEB: Final = ROOT / "web"
DIST: Final = WEB / "dist"
#: The build's last file: its time is the build's.
STAMP: Final = DIST / "wheels.json"


def _sources() -> list[Path]:
    """Return every file the build reads (the package, the host, the build itself)."""
    found = [WEB / "package-lock.json", WEB / "requirements.txt", ROOT / "pyproject.toml",
             ROOT / "hatch_build.py"]
    for folder in (ROOT / "src" / "shock_rules", WEB / "src", WEB / "scripts"):
        found += [p for p in folder.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"]
    return found


def stale() -> bool:
    """Return whether web/dist is missing or older than one of its sources."""
    if not STAMP.exists():
        return True
    built = STAMP.stat().st_mtime
    return any(p.stat().st_mtime > built for p in _sources())


def build() -> Path:
    """Return web/dist, built first (``npm ci`` too, without node_modules) when stale; the
    wheels are built by this interpreter."""
    env = {**os.environ, "PYTHON": sys.executable}
    if not (WEB / "node_modules" / "pyodide").is_dir():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=WEB, env=env, check=True,
                       stdout=subprocess.DEVNULL)
    if stale():
        subprocess.run(["npm", "run", "build"], cwd=WEB, env=env, check=True,
                       stdout=subprocess.DEVNULL)
    return DIST


class _Files(http.server.SimpleHTTPRequestHandler):
    """Static files with the types a browser insists on: WebAssembly (for streaming
    compilation) and JavaScript modules."""

    extensions_map = {  # noqa: RUF012 - the base class declares it as a plain dict
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
        ".json": "application/json", ".whl": "application/zip", ".py": "text/plain",
    }

    def log_message(self, format: str, *args: Any) -> None:
        """Log nothing (the tests read the page, not the server)."""


class StaticSite:
    """A folder served on 127.0.0.1 by a thread; :attr:`url` ends with a slash."""

    def __init__(self, folder: Path) -> None:
        handler = functools.partial(_Files, directory=str(folder))
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        port = self._server.server_address[1]
        self.origin = f"http://127.0.0.1:{port}"
        self.url = f"{self.origin}/"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def start(self) -> StaticSite:
        """Start serving; return the site."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)
