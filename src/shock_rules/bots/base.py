"""The bot interface, the random bot, and the game loop that seats bots at a table.

A bot never receives the full state: :func:`~shock_rules.view` strips the other hands, the
undealt cards and other seats' face-down cards (K34), so a bot cannot cheat by construction.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from .. import games
from .._errors import InvalidArgumentError, check_number, quoted
from .._info.view import PlayerView
from .._rules.actions import Action, ActionKind
from ..games import AnyGame, Bot, RealTimeBot

__all__ = ["Bot", "RandomBot", "RealTimeBot", "play_game"]


def check_choice(view: object, rng: object) -> PlayerView:
    """Return ``view`` if a bot can decide on it with ``rng``: a :class:`PlayerView` of the
    seat to act, and a ``random.Random``; else raise
    :class:`~shock_rules.InvalidArgumentError`."""
    if type(view) is not PlayerView:
        raise InvalidArgumentError(
            f"invalid view {quoted(view)}: a bot decides on a PlayerView (see view())")
    if not isinstance(rng, random.Random):
        raise InvalidArgumentError(f"invalid rng {quoted(rng)}: expected a random.Random")
    if not view.my_turn or not view.legal_actions:
        raise InvalidArgumentError("the view has no legal actions: it is not this seat's turn")
    return view


class RandomBot:
    """A bot that picks uniformly among its legal actions.

    With ``withdraw_rate`` below 1 it first decides whether to consider withdrawing at all
    (with that probability), so that random players do not leave nearly every round at once.
    """

    name = "random"

    def __init__(self, withdraw_rate: float = 0.1) -> None:
        #: The chance of considering a withdrawal when one is possible.
        self.withdraw_rate = check_number("withdraw_rate", withdraw_rate, 0.0, 1.0)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Return a random legal action."""
        acts = check_choice(view, rng).legal_actions
        stay = [a for a in acts if a.kind is not ActionKind.WITHDRAW]
        if stay and rng.random() >= self.withdraw_rate:
            return rng.choice(stay)
        return rng.choice(acts)

    def __repr__(self) -> str:
        return f"RandomBot(withdraw_rate={self.withdraw_rate})"


def play_game(
    config: object,
    bots: Sequence[Bot],
    rng: random.Random,
    actions: list[Any] | None = None,
    on_step: Callable[[Any], object] | None = None,
) -> Any:
    """Return the final state of a game of any registered game (the one ``config`` is a
    configuration of) where ``bots[seat]`` decides for each seat from its view only, and chance
    is sampled with ``rng`` (K6). The actions taken, chance outcomes included, are appended to
    ``actions`` when it is given (for a game record), and ``on_step`` is called with every new
    state (to count its events, say).

    In a turn-based game (Shock!) the seat to decide is asked, and must answer. In a real-time
    game (:attr:`~shock_rules.games.Game.simultaneous`: Melvin Vs. Kronk) every seat that may
    act is asked at each step and may wait (``None``); each bot that offers an action says how
    fast it acts (``reaction``), and the fastest offer is applied (M5: a race goes to whoever
    acts first; a tie to the lower seat). Each seat draws its choices and reactions from a
    generator of its own, seeded from ``rng``, so a race depends only on the seed.

    Raise :class:`~shock_rules.ConfigError` for what is no game's configuration, and
    :class:`~shock_rules.InvalidArgumentError` for bots that are not one per seat (or, in a
    real-time game, that cannot say their reaction time), and when the bots stall a real-time
    game: every bot waits, or :data:`STALL` steps in a row change nothing (a bot that slaps
    with no match, fastest every time, once the Penalty deck is empty).
    """
    game = games.config_game(config, "play_game()")
    kind = RealTimeBot if game.simultaneous else Bot
    if not isinstance(bots, Sequence) or isinstance(bots, str) \
            or not all(isinstance(b, kind) for b in bots):
        need = "bots with choose() and reaction()" if game.simultaneous else "bots"
        raise InvalidArgumentError(f"play_game() needs a list of {need}, not {quoted(bots)}")
    players: int = game.players_of(config)
    if len(bots) != players:
        raise InvalidArgumentError(f"play_game() needs {players} bots, got {len(bots)}")
    if not isinstance(rng, random.Random):
        raise InvalidArgumentError(f"play_game() needs a random.Random, not {quoted(rng)}")
    if actions is not None and not isinstance(actions, list):
        raise InvalidArgumentError(f"play_game() appends to a list, not {quoted(actions)}")
    if on_step is not None and not callable(on_step):
        raise InvalidArgumentError(f"play_game() calls on_step, which is not callable: "
                                   f"{quoted(on_step)}")
    decide = _race(game, bots, rng) if game.simultaneous else _turn(game, bots, rng)
    state = game.new_game(config)
    still = 0
    while not game.is_terminal(state):
        action = game.sample_chance(state, rng) if game.is_chance(state) else decide(state)
        if actions is not None:
            actions.append(action)
        before, state = state, game.apply(state, action)
        if on_step is not None:
            on_step(state)
        still = still + 1 if state == before else 0
        if still >= STALL:
            raise InvalidArgumentError(
                f"the bots stall the game: {STALL} steps in a row changed nothing (at step"
                f" {state.step}, {action})")
    return state


#: How many steps in a row may change nothing before :func:`play_game` calls the game stalled.
STALL: Final = 10_000


def _turn(game: AnyGame, bots: Sequence[Bot], rng: random.Random) -> Callable[[Any], Any]:
    """The decisions of a turn-based game: the one seat to decide asks its bot."""
    def decide(state: Any) -> Any:
        seat = game.seats_to_act(state)[0]
        return bots[seat].choose(game.view(state, seat), rng)
    return decide


def _race(game: AnyGame, bots: Sequence[Bot], rng: random.Random) -> Callable[[Any], Any]:
    """The decisions of a real-time game: every seat that may act offers an action with its
    reaction time, drawn from its own generator; the fastest offer wins (M5)."""
    own = [random.Random(rng.getrandbits(64)) for _ in bots]

    def decide(state: Any) -> Any:
        offers = []
        for seat in game.seats_to_act(state):
            bot = bots[seat]
            assert isinstance(bot, RealTimeBot)
            v = game.view(state, seat)
            action = bot.choose(v, own[seat])
            if action is not None:
                offers.append((bot.reaction(v, own[seat]), seat, action))
        if not offers:
            raise InvalidArgumentError(
                f"every bot waits at step {getattr(state, 'step', '?')}: the game cannot go on"
                " (a real-time bot must act when the game needs it, as the seat to move)")
        return min(offers, key=lambda o: (o[0], o[1]))[2]
    return decide
