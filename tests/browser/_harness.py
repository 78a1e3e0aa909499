"""A real `shock-rules serve` in a subprocess and real headless Chromium, for the browser
tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Final

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver

CHROMIUM: Final = Path("/usr/bin/chromium")
CHROMEDRIVER: Final = Path("/usr/bin/chromedriver")
#: How many games the whole-game test plays (raise it for longer runs).
GAMES: Final = int(os.environ.get("SHOCK_BROWSER_GAMES", "1"))


def free_port() -> int:
    """Return a TCP port of 127.0.0.1 that is free now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """A `shock-rules serve` subprocess that can be killed and started again on the same port
    and database (the restart test)."""

    def __init__(self, folder: Path, *, bot_delay: float = 0) -> None:
        self.folder = folder
        #: ``--bot-delay``: 0 (bots at once) for the turn-based tests; a real-time table's
        #: bots race at their own pace with 0.6 (each reaction time as the bot says).
        self.bot_delay = bot_delay
        self.db = folder / "tables.sqlite"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        """Start the server and wait until it answers its health check."""
        self.starts += 1
        log = (self.folder / f"server-{self.starts}.log").open("wb")
        command = [
            sys.executable, "-m", "shock_rules.cli", "serve", "--host", "127.0.0.1",
            "--port", str(self.port), "--db", str(self.db), "--bot-delay", str(self.bot_delay),
        ]
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                text = (self.folder / f"server-{self.starts}.log").read_text()
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n{text}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=2) as answer:
                    if json.load(answer) == {"ok": True}:
                        return
            except (OSError, ValueError):
                time.sleep(0.1)
        raise RuntimeError("the server did not answer its health check within 30 s")

    def kill(self) -> None:
        """Kill the server at once (SIGKILL: nothing is flushed on the way out)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        """Stop the server politely, or kill it."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def request(self, method: str, path: str, body: object = None) -> Any:
        """Return the JSON answer of one HTTP request to the server."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.url}{path}", data=data, method=method,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)

    def create_table(self, players: int, bots: dict[int, str],
                     variant: str = "standard") -> tuple[str, dict[int, str]]:
        """Return a new table's id and its human seats' tokens."""
        doc = self.request("POST", "/api/tables", {
            "players": players, "variant": variant,
            "bots": {str(seat): bot for seat, bot in bots.items()},
        })
        return doc["table"], {s["seat"]: s["token"] for s in doc["seats"]}

    def spectator_view(self, table: str) -> dict[str, Any]:
        """Return the table's spectator view document."""
        view: dict[str, Any] = self.request("GET", f"/api/tables/{table}")
        return view

    def seat_view(self, table: str, token: str) -> dict[str, Any]:
        """Return the seat's view document, read over the WebSocket as a client would."""
        from websockets.sync.client import connect

        with connect(f"ws://127.0.0.1:{self.port}/ws/{table}/seat") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            frame = json.loads(ws.recv(timeout=10))
        assert frame["type"] == "view" and frame["seat"] is not None
        view: dict[str, Any] = frame["view"]
        return view

    def link(self, table: str, token: str | None = None) -> str:
        """Return the page's link for a seat (or a spectator): the token in the fragment,
        which the browser never sends to a server."""
        return f"{self.url}/?table={table}" + (f"#token={token}" if token else "")


def chromium(folder: Path, width: int = 1280, height: int = 900, *,
             phone: bool = False) -> WebDriver:
    """Return a headless Chromium driver with its profile in ``folder``. ``phone``: the page is
    laid out for a ``width`` x ``height`` phone screen (touch, device metrics), as headless
    windows cannot be narrower than 500 pixels."""
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-extensions",
        "--disable-default-apps", "--hide-scrollbars", f"--window-size={width},{height}",
        f"--user-data-dir={folder}",
    ):
        options.add_argument(flag)
    # The driver's path is given, so Selenium Manager never looks for (or downloads) one.
    service = Service(str(CHROMEDRIVER), log_output=str(folder / "chromedriver.log"))
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_script_timeout(10)
    if phone:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": True,
        })
    return driver
