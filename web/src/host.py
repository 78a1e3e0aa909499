"""The in-page host of the browser build: one table played in the page, in Pyodide.

It does what a table of ``shock-rules serve`` does (``shock_rules/server/_tables.py``) for one
page: a :class:`shock_rules.protocol.Table` whose chance is drawn from a secret seed, bots that
decide from their seat's view with a generator of their own per decision, and the same
documents on the wire: a ``"view"`` frame (the seat's view and the events since the last frame)
after every change, an ``"error"`` document for a refused message. local.js calls it and paces
the bots; nothing here touches the page.

The server's own helpers cannot be imported here: ``shock_rules.server`` imports Starlette,
which the page does not ship. The few lines of them this host needs (reading a bots field and
an action frame) are repeated below, with the same messages.
"""

from __future__ import annotations

import json
import random
import secrets
import time
from collections.abc import Mapping

import shock_rules as sr
from shock_rules.bots import BOTS, Bot, MCTSBot, make_bot
from shock_rules.protocol import (
    BadSeatError,
    StaleStepError,
    Table,
    error_document,
    read_action_message,
)
from shock_rules.record import format_record

#: The largest MCTS budget a table may ask for, as on the server (MAX_MCTS_ITERATIONS).
MAX_MCTS_ITERATIONS = 1000
_BOTS_HERE = (f"this page takes {', '.join(BOTS)}, or mcts:N with N from 1 to"
              f" {MAX_MCTS_ITERATIONS}")


class RequestError(sr.ShockError, ValueError):
    """A table this page will not make (shown in the lobby's error line)."""


def _bots(players: int, bots: object) -> dict[int, str]:
    """Return the bot seats of a ``"bots"`` field, checked as the server checks it."""
    if not isinstance(bots, Mapping):
        raise RequestError("bots: expected an object from seat to bot name")
    out: dict[int, str] = {}
    for key, name in bots.items():
        if not (isinstance(key, str) and key in {str(s) for s in range(players)}):
            raise RequestError(f"bots: invalid seat {str(key)[:20]!r}: expected 0-{players - 1}")
        if not isinstance(name, str):
            raise RequestError(f"bots: seat {key}: expected a bot name")
        spec = name.strip().lower()
        try:
            bot = make_bot(spec)
        except sr.ShockError as exc:
            raise RequestError(f"bots: seat {key}: {exc} ({_BOTS_HERE})") from None
        if isinstance(bot, MCTSBot) and bot.iterations > MAX_MCTS_ITERATIONS:
            raise RequestError(f"bots: seat {key}: invalid bot {name!r}: {_BOTS_HERE}")
        out[int(key)] = spec
    return out


def _read_frame(text: str) -> tuple[sr.Action, int]:
    """Return the action and step of a ``{"type": "action", "action": ..., "step": N}``
    message, refused as the server refuses it (``read_frame`` in server/_tables.py)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise sr.InvalidStateError("invalid message: not valid JSON") from None
    if not isinstance(data, dict):
        raise sr.InvalidStateError("invalid message: expected a JSON object")
    if data.get("type") != "action":
        raise sr.InvalidStateError(
            f"invalid message: expected type 'action', not {str(data.get('type'))[:40]!r}")
    unknown = sorted(set(data) - {"type", "action", "step"})
    if unknown:
        raise sr.InvalidStateError(f"invalid message: unknown field {unknown[0][:40]!r}")
    step = data.get("step")
    if type(step) is not int or step < 0:
        raise sr.InvalidStateError("invalid message: step: expected the step of the view it"
                                   f" was decided on, not {str(step)[:40]!r}")
    body = data.get("action")
    if isinstance(body, dict):
        body = {k: v for k, v in body.items() if k != "step"}
    elif not isinstance(body, str):
        raise sr.InvalidStateError("invalid message: action: expected its notation or an object")
    action, _ = read_action_message(body)
    return action, step


class LocalTable:
    """One game in the page: the person's seat (``None`` when every seat is a bot: the page
    watches), the bots of the other seats, and the last step the page was told about."""

    def __init__(self, players: int, variant: str, bots: object, seed: str) -> None:
        try:
            config = sr.GameConfig(players=players, variant=sr.Variant(variant))
        except (ValueError, sr.ShockError) as exc:
            raise RequestError(str(exc)) from None
        names = _bots(players, bots)
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
        self.table = Table(config, rng=random.Random(f"{seed}:chance"))
        self._seen = -1
        #: Seconds each bot decision took, by bot name (local.js reports them).
        self.thinking: dict[str, list[float]] = {}

    def frame(self) -> str:
        """Return the ``"view"`` frame for the page: the view and the events it has not had
        (all of them at first), as the server sends each connection."""
        events = self.table.events_document(self.seat, self._seen)["events"]
        self._seen = self.table.step
        return json.dumps({"type": "view", "seat": self.seat,
                           "view": self.table.view_document(self.seat), "events": events},
                          separators=(",", ":"))

    def receive(self, text: str) -> str:
        """Apply the page's action message; return the new frame, or the error document (and
        the table unchanged)."""
        step = self.table.step
        try:
            action, sent = _read_frame(text)
            if self.seat is None:
                raise BadSeatError("a spectator cannot act: connect with a seat's token")
            if sent != step:
                raise StaleStepError(
                    f"'{action}' was decided at step {sent}, but the table is at step {step}:"
                    " decide again on the current view", sent=sent, current=step)
            self.table.act(self.seat, action)
        except sr.ShockError as exc:
            return json.dumps(error_document(exc, step))
        except Exception:  # a bug: reported without its details, as the server does
            return json.dumps(error_document(RuntimeError(), step))
        return self.frame()

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
        step = self.table.step
        rng = random.Random(f"{self._seed}:bot:{step}")  # as the server's draw_rng
        began = time.perf_counter()
        action = bot.choose(self.table.view(seat), rng)
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
