"""The in-page host of the browser build: one table played in the page, in Pyodide.

It does what a table of ``shock-rules serve`` does (``shock_rules/server/_tables.py``) for one
page: a :class:`shock_rules.protocol.Table` whose chance is drawn from a secret seed, bots that
decide from their seat's view with a generator of their own per decision, and the same
documents on the wire: a ``"view"`` frame (the seat's view and the events since the last frame)
after every change, an ``"error"`` document for a refused message. local.js calls it and paces
the bots; nothing here touches the page.

``shock_rules.server`` imports Starlette, which the page does not ship; the bots field and the
action frames are read by the same functions the server uses, from ``shock_rules.protocol``.
"""

from __future__ import annotations

import json
import random
import secrets
import time

import shock_rules as sr
from shock_rules.bots import Bot, make_bot
from shock_rules.protocol import RequestError, Table, error_document, read_bots
from shock_rules.record import format_record


class LocalTable:
    """One game in the page: the person's seat (``None`` when every seat is a bot: the page
    watches), the bots of the other seats, and the last step the page was told about. The
    game itself is a :class:`shock_rules.protocol.Table`, the server's own host: its chance
    drawn from a secret seed, its bots' generators, its frames and its refusals."""

    def __init__(self, players: int, variant: str, bots: object, seed: str) -> None:
        try:
            config = sr.GameConfig(players=players, variant=sr.Variant(variant))
        except (ValueError, sr.ShockError) as exc:
            raise RequestError(str(exc)) from None
        names = read_bots(players, bots, host="this page")
        persons = [s for s in range(players) if s not in names]
        if len(persons) > 1:
            # One page shows one seat's hand: a second person would see the first one's cards.
            raise RequestError(
                f"seats {', '.join(map(str, persons))} are people, but a game in this page has"
                " one person (the others are bots): to play together, use `shock-rules serve`")
        self.id = f"local-{seed[:8]}"
        self.seat = persons[0] if persons else None
        self.bot_names = names
        self._bots: dict[int, Bot] = {s: make_bot(n) for s, n in names.items()}
        self._seed = seed
        self.table = Table(config, seed=seed)  # chance drawn as the server draws it
        self._seen = -1
        #: Seconds each bot decision took, by bot name (local.js reports them).
        self.thinking: dict[str, list[float]] = {}

    def frame(self) -> str:
        """Return the ``"view"`` frame for the page: the view and the events it has not had
        (all of them at first), as the server sends each connection."""
        frame = self.table.frame(self.seat, self._seen)
        self._seen = self.table.step
        return json.dumps(frame, separators=(",", ":"))

    def receive(self, text: str) -> str:
        """Apply the page's action message; return the new frame, or the error document (and
        the table unchanged)."""
        step = self.table.step
        try:
            error = self.table.receive(self.seat, text)
        except Exception:  # a bug: reported without its details, as the server does
            return json.dumps(error_document(RuntimeError(), step))
        return self.frame() if error is None else json.dumps(error)

    def bot_to_act(self) -> str | None:
        """Return the name of the bot that must act now, or ``None`` (a person's turn, or the
        game's end)."""
        seat = self.table.to_act
        return None if seat is None else self.bot_names.get(seat)

    def bot_step(self) -> str | None:
        """Let the bot whose turn it is act; return the new frame (``None``: no bot's turn)."""
        seat = self.table.to_act
        bot = None if seat is None else self._bots.get(seat)
        if seat is None or bot is None:
            return None
        began = time.perf_counter()
        action = self.table.bot_action(seat, bot, self._seed)
        self.thinking.setdefault(self.bot_names[seat], []).append(time.perf_counter() - began)
        self.table.act(seat, action)
        return self.frame()

    @property
    def is_over(self) -> bool:
        """Whether the game is over."""
        return self.table.is_over

    def record(self) -> str:
        """Return the game's record as text (every action, chance included)."""
        return format_record(self.table.record())


def make_table(body: str) -> LocalTable | str:
    """Return a new table for a lobby's ``{"players", "variant", "bots"}`` (JSON), or the
    message saying why not."""
    try:
        data = json.loads(body)
        if not isinstance(data, dict):
            raise RequestError("expected a JSON object")
        players = data.get("players", 4)
        variant = data.get("variant", "standard")
        if type(players) is not int or not isinstance(variant, str):
            raise RequestError("players: expected 3, 4 or 5; variant: expected 'standard' or"
                               " 'simplified'")
        return LocalTable(players, variant, data.get("bots", {}), secrets.token_hex(16))
    except (ValueError, sr.ShockError) as exc:
        return str(exc)


def selftest(seed: int) -> str:
    """Return the scores of ``random_playout`` for 4 players with ``random.Random(seed)``,
    comma-separated: the page's check that the engine runs here as it does in CPython."""
    end = sr.random_playout(sr.GameConfig(players=4), random.Random(seed))
    return ",".join(map(str, sr.scores(end)))
