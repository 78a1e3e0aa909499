"""A PettingZoo AEC environment: every seat an agent, chance resolved inside.

Needs the ``pettingzoo`` extra (``pip install 'shock-rules[pettingzoo]'``).

>>> from shock_rules.envs.pettingzoo import env
>>> e = env(players=4)
>>> e.reset(seed=7)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((618,), True)

- :func:`env` returns the environment wrapped like PettingZoo's classic games
  (``TerminateIllegalWrapper`` -- an illegal action ends the game with reward -1 for the agent
  that made it and 0 for the others --, ``AssertOutOfBoundsWrapper``, ``OrderEnforcingWrapper``);
  :class:`raw_env` is the unwrapped class, which raises
  :class:`~shock_rules.IllegalActionError` on an illegal action instead.
- The agents are ``player_0`` ... ``player_{n-1}``, one per seat; the agent to act is the seat
  that must decide (trick winners lead, so the order is not round-robin).
- Chance (dealing, the trump card, chest cards, the first leader; K6) is resolved inside with
  a :class:`random.Random` seeded from ``reset(seed=...)``: the same seed and actions give the
  same game.
- Each observation is ``{"observation": encode(view), "action_mask": mask}``: the vector of
  :func:`shock_rules.envs.encode` of the agent's own view (float32) and the 0/1 mask (int8)
  over the :data:`~shock_rules.envs.NUM_ACTIONS` decision indexes; the mask is all zero for an
  agent that is not to act.
- Rewards are 0 until the game ends, then the final rewards of
  :func:`shock_rules.envs.final_rewards`: by default each seat's share of the total score
  (``reward="share"``); ``reward="win"`` pays ``1/k`` to each of ``k`` winners, and
  ``reward="score"`` the raw score. ``zero_sum=True`` subtracts the mean.
- ``render_mode="ansi"``: :meth:`raw_env.render` returns the public table as text.
"""

from __future__ import annotations

import random
from typing import Any

from .._errors import (
    ConfigError,
    IllegalActionError,
    InvalidArgumentError,
    check_bool,
    missing_extra,
    quoted,
)
from .._info.view import spectator_view
from .._rules.config import GameConfig, Variant
from .._rules.engine import apply, is_chance, is_terminal, new_game, sample_chance
from .._rules.state import State
from ._encoding import NUM_ACTIONS, action_of, encode_seat_f32, mask_seat_bytes
from ._rewards import check_reward, final_rewards
from ._text import table_text

# The extra's packages, after the package's own modules so that a missing one can be named
# with the pip command that installs it.
try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    from ._spaces import observation_box  # (Gymnasium's spaces)
except ImportError as exc:
    raise missing_extra("shock_rules.envs.pettingzoo", "pettingzoo", exc,
                        frozenset({"gymnasium", "numpy", "pettingzoo"})) from None

__all__ = ["UnknownAgentError", "env", "raw_env"]

ObsDict = dict[str, np.ndarray[Any, Any]]


class UnknownAgentError(InvalidArgumentError, KeyError):
    """An agent name that is not one of the environment's ``possible_agents``.

    An :class:`~shock_rules.InvalidArgumentError` (so a ``ValueError``) that is also a
    ``KeyError``, the error PettingZoo's own lookup in ``observation_spaces`` and
    ``action_spaces`` raises for an unknown agent.
    """

    def __str__(self) -> str:
        # KeyError would show the message in quotes, as it shows a missing key.
        return str(self.args[0]) if len(self.args) == 1 else super().__str__()


def env(players: int = 4, variant: str | Variant = "standard", render_mode: str | None = None,
        reward: str = "share", zero_sum: bool = False) -> AECEnv[str, ObsDict, int]:
    """Return the AEC environment wrapped like PettingZoo's classic games (see the module)."""
    e: AECEnv[str, ObsDict, int] = raw_env(players=players, variant=variant,
                                          render_mode=render_mode, reward=reward,
                                          zero_sum=zero_sum)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv[str, ObsDict, int]):
    """The unwrapped AEC environment of one game (see the module's docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 -- PettingZoo reads it from the class
        "render_modes": ["ansi"],
        "name": "shock_rules_v0",
        "is_parallelizable": False,
    }

    def __init__(self, players: int = 4, variant: str | Variant = "standard",
                 render_mode: str | None = None, reward: str = "share",
                 zero_sum: bool = False) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ConfigError(
                f"unknown render_mode {quoted(render_mode)}: expected None or 'ansi'"
            )
        #: The configuration of every game this environment plays.
        self.config = GameConfig(players=players, variant=variant)
        self.render_mode = render_mode
        self.reward = check_reward(reward)
        self.zero_sum = check_bool("zero_sum", zero_sum, ConfigError)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        box = observation_box(self.config)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": box,
                "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng = random.Random()
        self._state: State = new_game(self.config)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    @property
    def state_now(self) -> State:
        """The full state of the game in progress (for analysis; agents observe views)."""
        return self._state

    def _seat(self, agent: object) -> int:
        # The seat of a possible agent; UnknownAgentError for anything else.
        if isinstance(agent, str) and agent in self.possible_agents:
            return self.possible_agents.index(agent)
        raise UnknownAgentError(
            f"unknown agent {quoted(agent)}: expected one of {', '.join(self.possible_agents)}"
        )

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Return the agent's observation space (the same object on every call).

        Raise :class:`UnknownAgentError` (a ``KeyError`` and a ``ValueError``) for a name that
        is not one of ``possible_agents``; so do :meth:`action_space` and :meth:`observe`."""
        self._seat(agent)
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Return the agent's action space, :data:`~shock_rules.envs.NUM_ACTIONS` indexes."""
        self._seat(agent)
        return self.action_spaces[agent]

    def observe(self, agent: str) -> ObsDict:
        """Return the agent's observation: its view's vector and its action mask."""
        seat = self._seat(agent)
        # Written from the state for the seat (the view's facts only): no view is built, and
        # numpy wraps the float32 and byte buffers without converting element by element.
        return {
            "observation": np.frombuffer(encode_seat_f32(self._state, seat), dtype=np.float32),
            "action_mask": np.frombuffer(mask_seat_bytes(self._state, seat), dtype=np.int8),
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; chance is drawn from ``random.Random(seed)`` (a fresh random seed
        when ``seed`` is ``None``). Raise :class:`~shock_rules.InvalidArgumentError` for a
        seed that is neither an integer nor ``None``."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise InvalidArgumentError(f"invalid seed {quoted(seed)}: expected an integer or None")
        self._rng = random.Random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._state = self._resolve(new_game(self.config))
        self.agent_selection = self.possible_agents[self._state.actor]

    def _resolve(self, state: State) -> State:
        while is_chance(state):
            state = apply(state, sample_chance(state, self._rng))
        return state

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (a decision index: a Python or NumPy integer,
        never a bool or a float); at the game's end pay the final rewards. Raise
        :class:`~shock_rules.envs.EncodingError` for anything that is not a decision index and
        :class:`~shock_rules.IllegalActionError` for an illegal one."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must act: None is only for a finished agent")
        seat = self.possible_agents.index(agent)
        state = apply(self._state, action_of(action), seat)
        self._state = self._resolve(state)
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        if is_terminal(self._state):
            final = final_rewards(self._state.in_bag, self.reward, self.zero_sum)
            for a, r in zip(self.possible_agents, final, strict=True):
                self.rewards[a] = r
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self._state.actor]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """Return the public table as text with ``render_mode="ansi"`` (nothing otherwise)."""
        if self.render_mode != "ansi":
            return None
        return table_text(spectator_view(self._state))

    def close(self) -> None:
        """Release nothing: the environment holds no outside resource."""
