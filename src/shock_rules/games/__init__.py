"""The games of the platform, by name: one contract, every layer written once against it.

>>> from shock_rules import games
>>> games.names()
('shock', 'melvin')
>>> game = games.get("melvin")
>>> import random
>>> end = game.random_playout(game.config(players=3), random.Random(2))
>>> game.is_terminal(end), game.winners(end) <= set(range(3))
(True, True)

Every game is a :class:`Game`: its facts (``name``, ``title``, ``players``, ``simultaneous``)
and its functions, with the same names and meanings in every game (``new_game``,
``legal_actions(state, seat=None)``, ``seats_to_act``, ``apply(state, action, seat=None)``,
chance, ``is_terminal``, ``scores``, ``winners``, views and events, the notation, JSON
documents and schemas, text records' headers). :func:`of` finds the game of any of its
objects. A third game plugs in with :func:`register` (see the architecture page).
"""

from __future__ import annotations

from typing import Any

from .._errors import ConfigError, InvalidArgumentError, quoted
from .._public import publish
from ._contract import Bot, Game, RealTimeBot
from ._melvin import MELVIN
from ._shock import SHOCK

__all__ = [
    "AnyGame", "Bot", "Game", "RealTimeBot", "config_game", "get", "names", "of", "register",
]

#: A game of any configuration, state, action and view types (what the registry holds).
AnyGame = Game[Any, Any, Any, Any]

_GAMES: dict[str, AnyGame] = {}


def register(game: AnyGame) -> None:
    """Add ``game`` to the registry under its name; raise
    :class:`~shock_rules.InvalidArgumentError` for what is no :class:`Game`, or a name taken."""
    if not isinstance(game, Game):
        raise InvalidArgumentError(f"register() needs a Game, not {quoted(game)}")
    if game.name in _GAMES:
        raise InvalidArgumentError(f"a game named {quoted(game.name)} is registered already")
    _GAMES[game.name] = game


def names() -> tuple[str, ...]:
    """Return the names of the registered games, Shock! first."""
    return tuple(_GAMES)


def get(name: str) -> AnyGame:
    """Return the game registered as ``name``; raise
    :class:`~shock_rules.InvalidArgumentError` naming the known games for any other name."""
    game = _GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise InvalidArgumentError(f"unknown game {quoted(name)}: expected one of"
                                   f" {', '.join(_GAMES)}")
    return game


def of(obj: object) -> AnyGame:
    """Return the game whose config, state, action or view ``obj`` is; raise
    :class:`~shock_rules.InvalidArgumentError` for an object of no registered game."""
    for game in _GAMES.values():
        if game.owns(obj):
            return game
    raise InvalidArgumentError(f"{type(obj).__name__} {quoted(obj, 40)} belongs to no"
                               f" registered game ({', '.join(_GAMES)})")


def config_game(config: object, caller: str) -> AnyGame:
    """Return the game ``config`` is a configuration of; raise
    :class:`~shock_rules.ConfigError` naming ``caller`` for anything else (a state, an action
    of a game, or no game's object at all)."""
    for game in _GAMES.values():
        if isinstance(config, game.config_type):
            return game
    names = " or ".join(f"{g.module}.GameConfig" for g in _GAMES.values())
    raise ConfigError(f"{caller} needs a game's config ({names}), not {quoted(config)}")


register(SHOCK)
register(MELVIN)

publish(__name__, globals(), __all__)
