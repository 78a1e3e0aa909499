"""A Gymnasium environment: one seat against bots. Importing it registers ``ShockRules-v0``.

Needs the ``gymnasium`` extra (``pip install 'shock-rules[gymnasium]'``).

>>> import gymnasium
>>> import shock_rules.envs.gymnasium
>>> env = gymnasium.make("ShockRules-v0", players=3, opponents="random")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, int(info["action_mask"].sum()) > 0
((618,), True)

- The agent plays seat ``seat`` (default 0); every other seat is a bot made by
  :func:`shock_rules.make_bot` from ``opponents``: one name for all (default ``"heuristic"``)
  or one name per other seat, in seat order.
- Chance and the bots draw from one :class:`random.Random` seeded at each ``reset`` from the
  environment's ``np_random`` (so ``reset(seed=...)`` makes the episode reproducible).
- Observations are :func:`shock_rules.envs.encode` of the agent's view (float32). Actions are
  the :data:`~shock_rules.envs.NUM_ACTIONS` decision indexes (``Discrete``);
  ``info["action_mask"]`` (int8) marks the legal ones.
- Rewards are 0 until the game ends, then the agent's final reward from
  :func:`shock_rules.envs.final_rewards` (``reward="share"`` by default, ``"win"`` or
  ``"score"``; ``zero_sum`` subtracts the mean). ``info["scores"]`` holds the final scores and
  ``info["winners"]`` the winning seats.
- An illegal action, with ``illegal_action="penalty"`` (the default), changes nothing: the
  step returns the same observation, reward ``illegal_penalty`` (default -1.0), not
  terminated, and ``info["illegal_action"] = True``. With ``illegal_action="raise"`` it raises
  :class:`~shock_rules.IllegalActionError`.
- ``render_mode="ansi"``: :meth:`~ShockRulesEnv.render` returns the agent's table as text.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, Final

from .._errors import ConfigError, IllegalActionError, check_bool, missing_extra, quoted
from .._info.view import view
from .._rules.config import GameConfig, Variant
from .._rules.engine import apply, is_chance, is_terminal, legal_actions, new_game, sample_chance
from .._rules.state import State
from ..bots import Bot, make_bot
from ._encoding import (
    NUM_ACTIONS,
    EncodingError,
    action_of,
    encode_seat_f32,
    mask_seat_bytes,
)
from ._rewards import check_reward, final_rewards
from ._text import table_text

# The extra's packages, after the package's own modules so that a missing one can be named
# with the pip command that installs it.
try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces

    from ._spaces import observation_box  # (Gymnasium's spaces)
except ImportError as exc:
    raise missing_extra("shock_rules.envs.gymnasium", "gymnasium", exc,
                        frozenset({"gymnasium", "numpy"})) from None

__all__ = ["ENV_ID", "ShockRulesEnv"]

#: The id the environment is registered under.
ENV_ID: Final = "ShockRules-v0"

Obs = np.ndarray[Any, Any]


class ShockRulesEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of a game against bots (see the module's docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 -- Gymnasium's API

    def __init__(self, players: int = 4, variant: str | Variant = "standard", seat: int = 0,
                 opponents: str | Sequence[str] = "heuristic", reward: str = "share",
                 zero_sum: bool = False, illegal_action: str = "penalty",
                 illegal_penalty: float = -1.0, render_mode: str | None = None) -> None:
        #: The configuration of every game.
        self.config = GameConfig(players=players, variant=variant)
        if type(seat) is not int or not 0 <= seat < players:
            raise ConfigError(f"invalid seat {quoted(seat)}: expected 0-{players - 1}")
        if isinstance(opponents, str):
            names: list[str] = [opponents] * (players - 1)
        elif isinstance(opponents, Sequence):
            names = list(opponents)
        else:
            raise ConfigError(
                f"invalid opponents {quoted(opponents)}: expected a bot name or a list of"
                f" {players - 1} bot names"
            )
        if len(names) != players - 1:
            raise ConfigError(
                f"opponents must name one bot or {players - 1} bots, not {len(names)}"
            )
        if illegal_action not in ("penalty", "raise"):
            raise ConfigError(
                f"unknown illegal_action {quoted(illegal_action)}: expected 'penalty' or 'raise'"
            )
        if (not isinstance(illegal_penalty, (int, float)) or isinstance(illegal_penalty, bool)
                or not math.isfinite(illegal_penalty)):
            raise ConfigError(
                f"invalid illegal_penalty {quoted(illegal_penalty)}: expected a finite number"
            )
        if render_mode not in (None, "ansi"):
            raise ConfigError(
                f"unknown render_mode {quoted(render_mode)}: expected None or 'ansi'"
            )
        #: The agent's seat.
        self.seat = seat
        others = [s for s in range(players) if s != seat]
        #: The bots, by seat.
        self.bots: dict[int, Bot] = {}
        for s, name in zip(others, names, strict=True):
            try:
                self.bots[s] = make_bot(name)
            except ValueError as exc:
                raise ConfigError(f"invalid opponent {quoted(name)}: {exc}") from None
        self.reward = check_reward(reward)
        self.zero_sum = check_bool("zero_sum", zero_sum, ConfigError)
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.observation_space = observation_box(self.config)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._rng = random.Random(0)
        self._state: State = new_game(self.config)

    @property
    def state_now(self) -> State:
        """The full state of the game in progress (for analysis; the agent observes a view)."""
        return self._state

    def _advance(self, state: State) -> State:
        # Chance and the bots act until the agent must decide or the game ends.
        while not is_terminal(state):
            if is_chance(state):
                state = apply(state, sample_chance(state, self._rng))
            elif state.actor != self.seat:
                bot = self.bots[state.actor]
                state = apply(state, bot.choose(view(state, state.actor), self._rng))
            else:
                break
        return state

    def _observe(self) -> tuple[Obs, dict[str, Any]]:
        # Written from the state for the seat (the view's facts only): no view is built.
        obs = np.frombuffer(encode_seat_f32(self._state, self.seat), dtype=np.float32)
        return obs, {"action_mask": np.frombuffer(mask_seat_bytes(self._state, self.seat),
                                                  dtype=np.int8)}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """Start a new game and play until the agent must decide."""
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**63)))
        self._state = self._advance(new_game(self.config))
        return self._observe()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Play the agent's decision index, then chance and the bots until the agent must
        decide again or the game ends.

        The action is an integer (a Python or NumPy one, or a 0-d integer array, as the action
        space samples it); anything else (a bool, a float, an index out of range) raises
        :class:`~shock_rules.IllegalActionError` whatever ``illegal_action`` says, since it
        is not in the action space."""
        if is_terminal(self._state):
            raise IllegalActionError("the game is over: call reset() to start a new one")
        try:
            act = action_of(action)
        except EncodingError as exc:
            raise IllegalActionError(str(exc)) from None
        if act not in legal_actions(self._state):
            if self.illegal_action == "raise":
                apply(self._state, act, self.seat)  # raises, saying why
            obs, info = self._observe()
            info["illegal_action"] = True
            return obs, self.illegal_penalty, False, False, info
        self._state = self._advance(apply(self._state, act, self.seat))
        obs, info = self._observe()
        if not is_terminal(self._state):
            return obs, 0.0, False, False, info
        scores = self._state.in_bag
        final = final_rewards(scores, self.reward, self.zero_sum)
        best = max(scores)
        info["scores"] = tuple(scores)
        info["winners"] = tuple(s for s, x in enumerate(scores) if x == best)
        return obs, final[self.seat], True, False, info

    def render(self) -> str | None:
        """Return the agent's table as text with ``render_mode="ansi"``; nothing otherwise."""
        if self.render_mode != "ansi":
            return None
        return table_text(view(self._state, self.seat))


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="shock_rules.envs.gymnasium:ShockRulesEnv")
