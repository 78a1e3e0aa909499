"""Bots: computer players that decide from a :class:`~shock_rules.PlayerView` only.

- :class:`Bot` is the interface: ``choose(view, rng)`` returns one of the view's legal actions.
- :class:`RandomBot` picks a legal action uniformly (optionally withdrawing rarely).
- :class:`HeuristicBot` plays sensibly by weighing its gems at risk against the poison danger.
- :class:`MCTSBot` searches over determinizations of its view (information-set MCTS).
- :func:`play_game` seats one bot per seat and plays a whole game; :func:`make_bot` makes a bot
  from its name on the command line (``"heuristic"``, ``"mcts:50"``).

All of these are also importable from :mod:`shock_rules` itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from .._errors import InvalidArgumentError, quoted
from .._public import publish
from .base import Bot, RandomBot, play_game
from .heuristic import HeuristicBot
from .mcts import MCTSBot

__all__ = ["BOTS", "Bot", "HeuristicBot", "MCTSBot", "RandomBot", "make_bot", "play_game"]


#: The bots by name, as the command line knows them: each makes a fresh bot.
BOTS: Final[dict[str, Callable[[], Bot]]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "mcts": MCTSBot,
}


def make_bot(name: str) -> Bot:
    """Return a new bot of the registered ``name`` (see :data:`BOTS`).

    Raise :class:`~shock_rules.InvalidArgumentError` (a ``ValueError``) naming the known bots
    for an unknown name.
    An MCTS bot's iteration budget may follow a colon: ``"mcts:50"``.
    """
    if not isinstance(name, str):
        raise InvalidArgumentError(f"invalid bot {quoted(name)}: expected a name such as 'random'")
    base, colon, budget = name.strip().lower().partition(":")
    factory = BOTS.get(base)
    if factory is None:
        raise InvalidArgumentError(
            f"unknown bot {quoted(name)}: expected one of {', '.join(BOTS)}")
    if not colon:
        return factory()
    if base != "mcts":
        raise InvalidArgumentError(
            f"invalid bot {quoted(name)}: only mcts takes a budget, as in 'mcts:50'")
    if not re.fullmatch(r"[1-9][0-9]{0,8}", budget):
        raise InvalidArgumentError(
            f"invalid bot {quoted(name)}: the budget is a number of playouts from 1 to"
            f" 999999999, as in 'mcts:50'")
    return MCTSBot(iterations=int(budget))



publish(__name__, globals(), __all__)
