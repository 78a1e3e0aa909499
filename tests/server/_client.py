"""A test client of the table server's WebSocket: it records every frame and plays a seat from
its views' ``legal_actions``."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

TIMEOUT = 30.0


class Seat:
    """One WebSocket connection to a table: a seat's (``/ws/ID/seat``, its token sent in a
    hello, the first message) or a spectator's (``/ws/ID``)."""

    def __init__(self, ws_url: str, table: str, token: str | None = None,
                 since: int | None = None) -> None:
        self.url = (f"{ws_url}/ws/{table}" + ("/seat" if token is not None else "")
                    + (f"?since={since}" if since is not None else ""))
        self.token = token
        self.frames: list[dict[str, Any]] = []
        #: The ``connections`` of each ``seat`` frame so far.
        self.holders: list[int] = []
        self.ws: ClientConnection | None = None

    async def __aenter__(self) -> Seat:
        self.ws = await connect(self.url, max_size=2**22)
        if self.token is not None:
            await self.send({"type": "hello", "token": self.token})
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.ws is not None
        await self.ws.close()

    async def recv(self) -> dict[str, Any]:
        """Return the next frame but for ``seat`` frames (how many connections hold the seat),
        which are kept in :attr:`holders`."""
        while True:
            frame = await self.recv_any()
            if frame["type"] != "seat":
                self.frames.append(frame)
                return frame
            self.holders.append(frame["connections"])

    async def recv_any(self) -> dict[str, Any]:
        """Return the next frame, whatever it is (not kept in :attr:`frames`)."""
        assert self.ws is not None
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), TIMEOUT))
        return frame

    async def send(self, message: object) -> None:
        """Send a message (JSON-encoded unless it is text already)."""
        assert self.ws is not None
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    @property
    def views(self) -> list[dict[str, Any]]:
        """The view frames so far."""
        return [f for f in self.frames if f["type"] == "view"]

    @property
    def events(self) -> list[dict[str, Any]]:
        """Every event of every view frame so far."""
        return [e for f in self.views for e in f["events"]]

    async def until_turn(self) -> dict[str, Any]:
        """Return the next view that is the seat's turn or the game's end."""
        while True:
            frame = await self.recv()
            if frame["type"] == "view" and (frame["view"]["your_turn"]
                                            or frame["view"]["phase"] == "over"):
                view: dict[str, Any] = frame["view"]
                return view

    async def act(self, view: dict[str, Any], rng: random.Random) -> None:
        """Send one of the view's legal actions, with its step."""
        choice = rng.choice(view["legal_actions"])
        await self.send({"type": "action", "action": choice, "step": view["step"]})

    async def play(self, rng: random.Random, turns: int | None = None) -> dict[str, Any]:
        """Play the seat from its views until the game ends (or for ``turns`` turns); return
        the last view."""
        done = 0
        while True:
            view = await self.until_turn()
            if view["phase"] == "over" or (turns is not None and done == turns):
                return view
            await self.act(view, rng)
            done += 1

    async def watch(self) -> dict[str, Any]:
        """Receive frames until the game ends; return the last view."""
        while True:
            frame = await self.recv()
            if frame["type"] == "view" and frame["view"]["phase"] == "over":
                view: dict[str, Any] = frame["view"]
                return view
