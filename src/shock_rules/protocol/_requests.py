"""What a host reads from its clients before a game: the bots of a new table and an action
frame. The server (``shock_rules.server``) and the in-browser build's host (``web/src/host.py``,
which runs without the server's web framework) read them with these same functions."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

from .. import games
from .._errors import InvalidStateError, ShockError, quoted
from ..bots import MCTSBot, bot_names, make_bot
from ..games import AnyGame
from ._messages import read_action_message

__all__ = ["MAX_MCTS_ITERATIONS", "RequestError", "read_bots", "read_frame"]

#: The largest MCTS budget a table may ask for (``"mcts:N"``): a bound on one decision's time.
MAX_MCTS_ITERATIONS: Final = 1000


class RequestError(ShockError, ValueError):
    """A table a host refuses to make (a bad ``POST /api/tables`` body, or the lobby's form)."""


def read_bots(players: int, bots: object, *, host: str = "this server",
              game: str = "shock") -> dict[int, str]:
    """Return the bot seats of a ``"bots"`` field (seat number as text → bot name) of a table
    of ``game``; raise :class:`RequestError` for a bad one, saying which bots ``host`` takes.

    Each name is checked by :func:`~shock_rules.bots.make_bot` itself, the function that makes
    the table's bots (so a name accepted here is never refused when the table is made or
    restored), and an MCTS budget is bounded by :data:`MAX_MCTS_ITERATIONS`.

    >>> read_bots(3, {"1": "Heuristic"})
    {1: 'heuristic'}
    """
    takes = f"{host} takes {', '.join(bot_names(game))}" + (
        f", or mcts:N with N from 1 to {MAX_MCTS_ITERATIONS}" if game == "shock" else "")
    if not isinstance(bots, Mapping):
        raise RequestError("bots: expected an object from seat to bot name")
    out: dict[int, str] = {}
    for key, name in bots.items():
        if not (isinstance(key, str) and key in {str(s) for s in range(players)}):
            raise RequestError(f"bots: invalid seat {str(key)[:20]!r}: expected 0-{players - 1}")
        if not isinstance(name, str):
            raise RequestError(f"bots: seat {key}: expected a bot name")
        spec = name.strip().lower()
        base, colon, budget = spec.partition(":")
        if game == "shock" and base == "mcts" and colon and not (
                re.fullmatch(r"[1-9][0-9]{0,8}", budget)
                and int(budget) <= MAX_MCTS_ITERATIONS):
            # Before make_bot, whose message names its own bound (999999999), not the host's.
            raise RequestError(f"bots: seat {key}: invalid bot {quoted(name)}: {takes}")
        try:
            bot = make_bot(spec, game)
        except ShockError as exc:
            raise RequestError(f"bots: seat {key}: {exc} ({takes})") from None
        if isinstance(bot, MCTSBot) and bot.iterations > MAX_MCTS_ITERATIONS:
            raise RequestError(f"bots: seat {key}: invalid bot {quoted(name)}: {takes}")
        out[int(key)] = spec
    return out


def read_frame(text: str, game: AnyGame | None = None) -> tuple[Any, int]:
    """Return the action (of ``game``, by default Shock!) and the step of a client's
    ``{"type": "action", "action": ..., "step": N}`` message; raise
    :class:`~shock_rules.InvalidStateError` for a message of another shape and
    :class:`~shock_rules.InvalidNotationError` for an unreadable action."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise InvalidStateError("invalid message: not valid JSON") from None
    if not isinstance(data, dict):
        raise InvalidStateError("invalid message: expected a JSON object")
    if data.get("type") != "action":
        raise InvalidStateError(
            f"invalid message: expected type 'action', not {str(data.get('type'))[:40]!r}")
    unknown = sorted(set(data) - {"type", "action", "step"})
    if unknown:
        raise InvalidStateError(f"invalid message: unknown field {unknown[0][:40]!r}")
    step = data.get("step")
    if type(step) is not int or step < 0:
        raise InvalidStateError("invalid message: step: expected the step of the view it was"
                                f" decided on, not {str(step)[:40]!r}")
    body = data.get("action")
    if isinstance(body, dict):
        body = {k: v for k, v in body.items() if k != "step"}
    elif not isinstance(body, str):
        raise InvalidStateError("invalid message: action: expected its notation or an object")
    action, _ = read_action_message(body, game or games.get("shock"))
    return action, step
