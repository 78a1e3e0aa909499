"""A test client of a real-time (Melvin Vs. Kronk) table's WebSocket: it reads every frame in
the background, answers the server's pings (after ``lag`` seconds: an injected round trip), and
keeps the latest view, the errors and the events it heard."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

TIMEOUT = 30.0


def match_shows(view: dict[str, Any]) -> bool:
    """Whether two discard tops show the same face in play (a slap would win, M5)."""
    tops = [t for t in view["tops"] if t is not None]
    return view["phase"] == "play" and len(tops) != len(set(tops))


class RealTimeSeat:
    """One connection to a real-time table: a seat's (with its token) or a spectator's.

    ``lag`` is the round trip this client pretends to have: each pong leaves ``lag`` seconds
    after its ping came, and :meth:`slap_after` waits ``lag`` on top of the reaction it is
    given, as half the round trip down and half back up would.
    """

    def __init__(self, ws_url: str, table: str, token: str | None = None, *,
                 lag: float = 0.0, since: int | None = None) -> None:
        self.url = (f"{ws_url}/ws/{table}" + ("/seat" if token is not None else "")
                    + (f"?since={since}" if since is not None else ""))
        self.token = token
        self.lag = lag
        self.ws: ClientConnection | None = None
        #: Every view frame, every error document, every ping id answered.
        self.views: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.pongs = 0
        self._changed = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> RealTimeSeat:
        self.ws = await connect(self.url, max_size=2**22)
        if self.token is not None:
            await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        self._reader = asyncio.get_running_loop().create_task(self._read())
        await self.until(lambda view: True)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.ws is not None and self._reader is not None
        self._reader.cancel()
        for task in self._tasks:
            task.cancel()
        await self.ws.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader

    async def _read(self) -> None:
        assert self.ws is not None
        async for text in self.ws:
            frame = json.loads(text)
            kind = frame.get("type")
            if kind == "ping":
                self._later(self.lag, {"type": "pong", "id": frame["id"]})
            elif kind == "view":
                self.views.append(frame)
            elif kind == "error":
                self.errors.append(frame)
            self._changed.set()

    def _later(self, delay: float, message: dict[str, Any]) -> None:
        async def send() -> None:
            await asyncio.sleep(delay)
            assert self.ws is not None
            await self.ws.send(json.dumps(message))
            if message["type"] == "pong":
                self.pongs += 1

        task = asyncio.get_running_loop().create_task(send())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @property
    def view(self) -> dict[str, Any]:
        """The latest view document."""
        view: dict[str, Any] = self.views[-1]["view"]
        return view

    @property
    def events(self) -> list[dict[str, Any]]:
        """Every event of every view frame so far."""
        return [e for f in self.views for e in f["events"]]

    async def until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Return the latest view once ``done(view)`` holds (waiting for new frames)."""
        async with asyncio.timeout(TIMEOUT):
            while not (self.views and done(self.view)):
                self._changed.clear()
                await self._changed.wait()
        return self.view

    async def after(self, step: int) -> dict[str, Any]:
        """Return the latest view once it is past ``step`` (or the game is over)."""
        return await self.until(lambda v: v["step"] > step or v["phase"] == "over")

    async def error(self) -> dict[str, Any]:
        """Return the first error document (waiting for it)."""
        async with asyncio.timeout(TIMEOUT):
            while not self.errors:
                self._changed.clear()
                await self._changed.wait()
        return self.errors[0]

    async def send(self, action: str, step: int) -> None:
        """Send an action frame (its notation) decided on the view of ``step``."""
        assert self.ws is not None
        await self.ws.send(json.dumps({"type": "action", "action": action, "step": step}))

    async def slap_after(self, reaction: float, step: int) -> None:
        """Slap ``reaction`` seconds after the view of ``step`` showed up here, as a player
        with this client's round trip would: its view comes half the round trip late, and its
        slap takes the other half to arrive."""
        assert self.token is not None
        seat = self.views[-1]["seat"]
        await asyncio.sleep(self.lag + reaction)
        await self.send(f"{seat} slap", step)
