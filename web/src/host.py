"""The in-page host of the browser build: one table played in the page, in Pyodide.

It does what a table of ``shock-rules serve`` does (``shock_rules/server/_tables.py``) for one
page: a :class:`shock_rules.protocol.Table` whose chance is drawn from a secret seed, bots that
decide from their seat's view with a generator of their own per decision, and the same
documents on the wire: a ``"view"`` frame (the seat's view and the events since the last frame)
after every change, an ``"error"`` document for a refused message. local.js calls it and paces
the bots; nothing here touches the page.

A table plays either game of the platform: Shock! (turn-based: the bot whose turn it is acts,
:meth:`LocalTable.bot_step`) or Melvin Vs. Kronk (real time, M5: after every change each bot
that may act decides and says how fast it reacts, :meth:`LocalTable.bot_plans`; local.js times
them and applies one with :meth:`LocalTable.bot_act` unless the table moved on meanwhile).

``shock_rules.server`` imports Starlette, which the page does not ship; the bots field and the
action frames are read by the same functions the server uses, from ``shock_rules.protocol``.
"""

from __future__ import annotations

import json
import random
import secrets
import time
from typing import Any

import shock_rules as sr
from shock_rules import games, melvin
from shock_rules.bots import Bot, make_bot
from shock_rules.protocol import RequestError, Table, draw_rng, error_document, read_bots
from shock_rules.record import format_record


class LocalTable:
    """One game in the page: the person's seat (``None`` when every seat is a bot: the page
    watches), the bots of the other seats, and the last step the page was told about. The
    game itself is a :class:`shock_rules.protocol.Table`, the server's own host: its chance
    drawn from a secret seed, its bots' generators, its frames and its refusals."""

    def __init__(self, players: int, variant: str | None, bots: object, seed: str,
                 game: str = "shock") -> None:
        config = _config(game, players, variant)
        names = read_bots(players, bots, host="this page", game=game)
        persons = [s for s in range(players) if s not in names]
        if len(persons) > 1:
            # One page shows one seat's hand: a second person would see the first one's cards.
            raise RequestError(
                f"seats {', '.join(map(str, persons))} are people, but a game in this page has"
                " one person (the others are bots): to play together, use `shock-rules serve`")
        self.id = f"local-{seed[:8]}"
        self.seat = persons[0] if persons else None
        self.bot_names = names
        self._bots: dict[int, Bot] = {s: make_bot(n, game) for s, n in names.items()}
        self._seed = seed
        self.table = Table(config, seed=seed)  # chance drawn as the server draws it
        self._seen = -1
        #: Whether several seats may act at once (Melvin Vs. Kronk): local.js times the bots
        #: by their reaction (bot_plans, bot_act) instead of pacing them in turn (bot_step).
        self.realtime = games.of(config).simultaneous
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

    # -- a turn-based game's bots (Shock!) ------------------------------------------------------

    def bot_to_act(self) -> str | None:
        """Return the name of the bot that must act now, or ``None`` (a person's turn, the
        game's end, or a real-time game, whose bots say when they act: :meth:`bot_plans`)."""
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
        self._thought(seat, began)
        self.table.act(seat, action)
        return self.frame()

    # -- a real-time game's bots (Melvin Vs. Kronk) ---------------------------------------------

    def _decide(self, seat: int) -> tuple[Any, float]:
        """Return what the bot of ``seat`` does on its view now (``None``: it waits) and how
        many seconds it takes to react: both drawn from the generator of this step and seat,
        so a decision asked for again at the same step is the same decision (M5)."""
        bot: Any = self._bots[seat]
        view = self.table.view(seat)
        rng = draw_rng(self._seed, self.table.step, f"bot{seat}")
        began = time.perf_counter()
        action = bot.choose(view, rng)
        reaction = 0.0 if action is None else float(bot.reaction(view, rng))
        self._thought(seat, began)
        return action, reaction

    def bot_plans(self) -> str:
        """Return, as JSON, what the bots will do on the table as it is now: a list of
        ``{"seat", "delay", "step"}``, one per bot seat that may act and does not wait, with
        its reaction time in seconds and the step it decided on (an empty list at the game's
        end, and for a turn-based game)."""
        if not self.realtime or self.table.is_over:
            return "[]"
        step = self.table.step
        plans = []
        for seat in self.table.seats_to_act:
            if seat in self._bots:
                action, delay = self._decide(seat)
                if action is not None:
                    plans.append({"seat": seat, "delay": round(delay, 4), "step": step})
        return json.dumps(plans)

    def bot_act(self, seat: int, step: int) -> str | None:
        """Apply what the bot of ``seat`` decided at ``step`` (:meth:`bot_plans`), and return
        the new frame; ``None`` when the table moved on since (the bot decides again on the
        new view) or the bot waits."""
        if seat not in self._bots or step != self.table.step or self.table.is_over:
            return None
        action, _ = self._decide(seat)
        if action is None or seat not in self.table.seats_to_act:
            return None
        self.table.act(seat, action)
        return self.frame()

    def _thought(self, seat: int, began: float) -> None:
        self.thinking.setdefault(self.bot_names[seat], []).append(time.perf_counter() - began)

    @property
    def is_over(self) -> bool:
        """Whether the game is over."""
        return self.table.is_over

    def record(self) -> str:
        """Return the game's record as text (every action, chance included)."""
        return format_record(self.table.record())


def _config(game: str, players: int, variant: str | None) -> Any:
    """Return the configuration of a table of ``game`` ("shock" or "melvin"); raise
    :class:`RequestError` (or the config's own :class:`~shock_rules.ShockError`) for a bad
    one."""
    if game not in ("shock", "melvin"):
        raise RequestError(f"game: expected 'shock' or 'melvin', not {game[:20]!r}")
    if game == "melvin" and variant is not None:
        raise RequestError("variant: Melvin Vs. Kronk has none")
    try:
        if game == "melvin":
            return melvin.GameConfig(players=players)
        return sr.GameConfig(players=players, variant=sr.Variant(variant or "standard"))
    except (ValueError, sr.ShockError) as exc:
        raise RequestError(str(exc)) from None


def make_table(body: str) -> LocalTable | str:
    """Return a new table for a lobby's ``{"game", "players", "variant", "bots"}`` (JSON), or
    the message saying why not."""
    try:
        data = json.loads(body)
        if not isinstance(data, dict):
            raise RequestError("expected a JSON object")
        game = data.get("game", "shock")
        players = data.get("players", 4)
        variant = data.get("variant", None if game == "melvin" else "standard")
        if not isinstance(game, str):
            raise RequestError("game: expected 'shock' or 'melvin'")
        if type(players) is not int or not (variant is None or isinstance(variant, str)):
            raise RequestError("players: expected 3, 4 or 5 (Melvin Vs. Kronk: 3 to 6);"
                               " variant: expected 'standard' or 'simplified'")
        return LocalTable(players, variant, data.get("bots", {}), secrets.token_hex(16), game)
    except (ValueError, sr.ShockError) as exc:
        return str(exc)


def selftest(seed: int, game: str = "shock") -> str:
    """Return the scores of ``random_playout`` of ``game`` for 4 players with
    ``random.Random(seed)``, comma-separated: the page's check that the engine runs here as it
    does in CPython."""
    if game == "melvin":
        final = melvin.random_playout(melvin.GameConfig(players=4), random.Random(seed))
        return ",".join(map(str, melvin.scores(final)))
    end = sr.random_playout(sr.GameConfig(players=4), random.Random(seed))
    return ",".join(map(str, sr.scores(end)))
