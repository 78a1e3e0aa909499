"""Bots: computer players that decide from a seat's view only, for either game.

- :class:`Bot` is the interface of every game's bots: ``choose(view, rng)`` returns one of the
  view's legal actions (in a real-time game, or ``None`` to wait); :class:`RealTimeBot` adds
  ``reaction(view, rng)``, the seconds the bot takes to act.
- Shock!'s: :class:`RandomBot` picks a legal action uniformly (optionally withdrawing rarely);
  :class:`HeuristicBot` plays sensibly by weighing its gems at risk against the poison danger;
  :class:`MCTSBot` searches over determinizations of its view (information-set MCTS). Melvin
  Vs. Kronk's are in :mod:`shock_rules.melvin` (``RandomBot``, ``ReactionBot``).
- :func:`play_game` seats one bot per seat and plays a whole game of either game (a real-time
  one by races of reaction times); :func:`make_bot` makes a bot of a game from its name on the
  command line (``"heuristic"``, ``"mcts:50"``; ``make_bot("reaction:0.3", "melvin")``).

All of these but :func:`bot_names` and :func:`register_bots` are also importable from
:mod:`shock_rules` itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from .. import games
from .. import melvin as _melvin
from .._errors import InvalidArgumentError, quoted
from .._public import publish
from .base import Bot, RandomBot, RealTimeBot, play_game
from .heuristic import HeuristicBot
from .mcts import MCTSBot

__all__ = ["BOTS", "Bot", "HeuristicBot", "MCTSBot", "RandomBot", "RealTimeBot", "bot_names",
           "make_bot", "play_game", "register_bots"]


#: The bots by name, as the command line knows them: each makes a fresh bot.
BOTS: Final[dict[str, Callable[[], Bot]]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "mcts": MCTSBot,
}


def _shock_bot(name: str) -> Bot:
    """Return a new Shock! bot of the registered ``name`` (see :data:`BOTS`)."""
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


# The bots of each game, by the game's name: how make_bot makes one from its name, and the
# names it knows. A third game registers its own with register_bots.
_MAKERS: dict[str, tuple[Callable[[str], Bot], tuple[str, ...]]] = {
    "shock": (_shock_bot, tuple(BOTS)),
    "melvin": (_melvin.make_bot, tuple(_melvin.BOTS)),
}


def _game_name(game: str | games.AnyGame) -> str:
    name = game.name if isinstance(game, games.Game) else games.get(game).name
    if name not in _MAKERS:
        raise InvalidArgumentError(f"the game {quoted(name)} has no bots registered")
    return name


def register_bots(game: str, make: Callable[[str], Bot], names: tuple[str, ...]) -> None:
    """Make ``make(name)`` the maker of ``game``'s bots (a registered game's name), which
    knows ``names``; for a third game (see :func:`shock_rules.games.register`)."""
    games.get(game)
    if not callable(make):
        raise InvalidArgumentError(f"register_bots() needs a function, not {quoted(make)}")
    _MAKERS[game] = (make, tuple(names))


def make_bot(name: str, game: str | games.AnyGame = "shock") -> Bot:
    """Return a new bot of ``game`` (by default Shock!) from its name: for Shock!
    ``"random"``, ``"heuristic"``, ``"mcts"``, an MCTS bot's budget after a colon
    (``"mcts:50"``); for Melvin Vs. Kronk ``"random"`` or ``"reaction"``, a mean reaction time
    in seconds after a colon (``"reaction:0.3"``).

    Raise :class:`~shock_rules.InvalidArgumentError` (a ``ValueError``) naming the known bots
    for an unknown name, and for an unknown game.
    """
    return _MAKERS[_game_name(game)][0](name)


def bot_names(game: str | games.AnyGame = "shock") -> tuple[str, ...]:
    """Return the names of ``game``'s bots, as :func:`make_bot` knows them."""
    return _MAKERS[_game_name(game)][1]


publish(__name__, globals(), __all__)
