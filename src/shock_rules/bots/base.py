"""The bot interface, the random bot, and the game loop that seats bots at a table.

A bot never receives the full state: :func:`~shock_rules.view` strips the other hands, the
undealt cards and other seats' face-down cards (K34), so a bot cannot cheat by construction.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from .._errors import ConfigError, InvalidArgumentError, check_number, quoted
from .._info.view import PlayerView, view
from .._rules.actions import Action, ActionKind
from .._rules.config import GameConfig
from .._rules.engine import apply, new_game, sample_chance
from .._rules.state import CHANCE_PHASES, Phase, State

__all__ = ["Bot", "RandomBot", "play_game"]


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


@runtime_checkable
class Bot(Protocol):
    """A computer player: it chooses one of the view's legal actions.

    ``choose`` is called only when ``view.my_turn`` is true; it must return one of
    ``view.legal_actions``. All randomness comes from ``rng`` so games are reproducible.
    """

    #: A short name for tables and records ("random", "heuristic", ...).
    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Return the action to take in the position ``view`` describes."""
        ...


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
    config: GameConfig,
    bots: Sequence[Bot],
    rng: random.Random,
    actions: list[Action] | None = None,
    on_step: Callable[[State], object] | None = None,
) -> State:
    """Return the final state of a game where ``bots[seat]`` decides for each seat, from its
    view only, and chance is sampled with ``rng`` (K6). The actions taken, chance outcomes
    included, are appended to ``actions`` when it is given (for a game record), and
    ``on_step`` is called with every new state (to count its events, say)."""
    if not isinstance(config, GameConfig):
        raise ConfigError(f"play_game() needs a GameConfig, not {type(config).__name__}")
    if not isinstance(bots, Sequence) or isinstance(bots, str) \
            or not all(isinstance(b, Bot) for b in bots):
        raise InvalidArgumentError(f"play_game() needs a list of bots, not {quoted(bots)}")
    if len(bots) != config.players:
        raise InvalidArgumentError(
            f"play_game() needs {config.players} bots, got {len(bots)}")
    if not isinstance(rng, random.Random):
        raise InvalidArgumentError(f"play_game() needs a random.Random, not {quoted(rng)}")
    if actions is not None and not isinstance(actions, list):
        raise InvalidArgumentError(f"play_game() appends to a list, not {quoted(actions)}")
    if on_step is not None and not callable(on_step):
        raise InvalidArgumentError(f"play_game() calls on_step, which is not callable: "
                                   f"{quoted(on_step)}")
    state = new_game(config)
    while state.phase is not Phase.OVER:
        if state.phase in CHANCE_PHASES:
            action = sample_chance(state, rng)
        else:
            seat = state.actor
            action = bots[seat].choose(view(state, seat), rng)
        if actions is not None:
            actions.append(action)
        state = apply(state, action)
        if on_step is not None:
            on_step(state)
    return state
