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

Melvin Vs. Kronk, a real-time game, has a *parallel* environment:
:func:`parallel_env` ``(game="melvin", players=4, render_mode=None, reward="share",
zero_sum=False, max_cycles=3000)`` returns a :class:`MelvinParallelEnv` (PettingZoo has no
wrappers for parallel environments to add).

- The agents are ``player_0`` ... ``player_{n-1}`` (3 to 6). At each step every agent in
  ``agents`` submits an action index of :func:`shock_rules.envs.melvin_action_of`: a decision,
  or the wait index 0. The actions race (:mod:`shock_rules.envs._realtime`): each one that is
  not a wait gets a reaction time drawn from the environment's generator as the bots draw
  theirs, and they are applied fastest first, chance resolved after each; an action that is no
  longer legal when its turn comes is skipped (``infos[agent]["result"]`` is ``"skipped"``).
- An action that was not legal in the observation its agent received raises
  :class:`~shock_rules.IllegalActionError`; an agent missing from the actions,
  :class:`~shock_rules.InvalidArgumentError`.
- Observations: ``{"observation": encode_melvin(view), "action_mask": mask}`` of the agent's
  own view (:func:`shock_rules.envs.encode_melvin`, :func:`shock_rules.envs.melvin_action_mask`).
- Rewards are 0 until the end, then :func:`~shock_rules.envs.final_rewards` of the scores
  (``"win"``: the game's winners, the best among the seats still in the game). Eliminated
  agents stay in ``agents`` with only the wait index legal until the end, when every agent is
  terminated: their score still counts and may still change. A game not over after
  ``max_cycles`` steps (every agent may wait) is truncated, with reward 0.
- ``parallel_env(game="shock")`` raises :class:`~shock_rules.ConfigError`: Shock! is
  turn-based, its environment is :func:`env`.

>>> from shock_rules.envs.pettingzoo import parallel_env
>>> p = parallel_env(game="melvin", players=4)
>>> observations, infos = p.reset(seed=7)
>>> sorted(observations), observations["player_0"]["observation"].shape
(['player_0', 'player_1', 'player_2', 'player_3'], (233,))
>>> observations, rewards, terminated, truncated, infos = p.step(dict.fromkeys(p.agents, 0))
>>> infos["player_0"], rewards["player_0"], p.agents == p.possible_agents
({'result': 'waited'}, 0.0, True)
"""

from __future__ import annotations

import random
from typing import Any, Final

from .. import melvin
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
from ._melvin import NUM_MELVIN_ACTIONS, encode_melvin, melvin_action_mask, melvin_action_of
from ._realtime import race, settle
from ._rewards import check_reward, final_rewards
from ._text import melvin_table_text, table_text

# The extra's packages, after the package's own modules so that a missing one can be named
# with the pip command that installs it.
try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils import wrappers

    from ._spaces import melvin_observation_box, observation_box  # (Gymnasium's spaces)
except ImportError as exc:
    raise missing_extra("shock_rules.envs.pettingzoo", "pettingzoo", exc,
                        frozenset({"gymnasium", "numpy", "pettingzoo"})) from None

__all__ = ["MAX_CYCLES", "MelvinParallelEnv", "UnknownAgentError", "env", "parallel_env",
           "raw_env"]

#: The default ``max_cycles`` of :func:`parallel_env`: the steps after which a game that has
#: not ended is truncated (random legal play ends in about 200).
MAX_CYCLES: Final = 3000

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


def _seat_of(agent: object, possible_agents: list[str]) -> int:
    """Return the seat of ``agent``, one of ``possible_agents``; raise
    :class:`UnknownAgentError` for anything else."""
    if isinstance(agent, str) and agent in possible_agents:
        return possible_agents.index(agent)
    raise UnknownAgentError(
        f"unknown agent {quoted(agent)}: expected one of {', '.join(possible_agents)}"
    )


def _check_seed(seed: object) -> int | None:
    """Return a ``reset`` seed: an integer or ``None``; raise
    :class:`~shock_rules.InvalidArgumentError` for anything else."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidArgumentError(f"invalid seed {quoted(seed)}: expected an integer or None")
    return seed


def _check_render_mode(render_mode: object) -> str | None:
    """Return a render mode, ``None`` or ``"ansi"``; raise :class:`~shock_rules.ConfigError`."""
    if render_mode is None or (isinstance(render_mode, str) and render_mode == "ansi"):
        return render_mode
    raise ConfigError(f"unknown render_mode {quoted(render_mode)}: expected None or 'ansi'")


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
        self.render_mode = _check_render_mode(render_mode)
        #: The configuration of every game this environment plays.
        self.config = GameConfig(players=players, variant=variant)
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
        return _seat_of(agent, self.possible_agents)

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
        self._rng = random.Random(_check_seed(seed))
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


# -- Melvin Vs. Kronk: a parallel environment --------------------------------------------------


def parallel_env(game: str = "melvin", players: int = 4, render_mode: str | None = None,
                 reward: str = "share", zero_sum: bool = False,
                 max_cycles: int = MAX_CYCLES) -> MelvinParallelEnv:
    """Return the parallel environment of a real-time game: ``game="melvin"`` (Melvin Vs.
    Kronk, :class:`MelvinParallelEnv`; PettingZoo has no wrappers for parallel environments
    to add, so it is returned as it is).

    Raise :class:`~shock_rules.ConfigError` for a bad setting, for ``game="shock"`` (Shock! is
    turn-based: its environment is :func:`env`) and for any other game."""
    if game == "melvin":
        return MelvinParallelEnv(players=players, render_mode=render_mode, reward=reward,
                                 zero_sum=zero_sum, max_cycles=max_cycles)
    if game == "shock":
        raise ConfigError(
            "parallel_env(game='shock'): Shock! is turn-based, one seat decides at a time: use"
            " env(), its AEC environment (pettingzoo.utils.conversions."
            "turn_based_aec_to_parallel(env()) gives a parallel view of it)")
    raise ConfigError(f"unknown game {quoted(game)}: parallel_env() plays 'melvin' (Shock! is"
                      " turn-based: use env())")


class MelvinParallelEnv(ParallelEnv[str, ObsDict, int]):
    """The parallel environment of Melvin Vs. Kronk (see the module's docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 -- PettingZoo reads it from the class
        "render_modes": ["ansi"],
        "name": "shock_rules_melvin_v0",
    }

    def __init__(self, players: int = 4, render_mode: str | None = None,
                 reward: str = "share", zero_sum: bool = False,
                 max_cycles: int = MAX_CYCLES) -> None:
        super().__init__()
        self.render_mode = _check_render_mode(render_mode)
        #: The configuration of every game this environment plays.
        self.config = melvin.GameConfig(players=players)
        self.reward = check_reward(reward)
        self.zero_sum = check_bool("zero_sum", zero_sum, ConfigError)
        if isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1:
            raise ConfigError(f"invalid max_cycles {quoted(max_cycles)}: expected an integer"
                              " of at least 1")
        #: The steps after which a game that has not ended is truncated (PettingZoo's
        #: ``parallel_api_test`` sets it too).
        self.max_cycles = max_cycles
        self.possible_agents = [f"player_{i}" for i in range(players)]
        #: The agents of the game in progress: every seat until the game ends or is truncated
        #: (an eliminated seat too: its reward is settled at the end), none before ``reset``.
        self.agents: list[str] = []
        box = melvin_observation_box(self.config)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": box,
                "action_mask": spaces.Box(0, 1, shape=(NUM_MELVIN_ACTIONS,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_MELVIN_ACTIONS)
                              for a in self.possible_agents}
        self._chance = random.Random()
        self._clock = random.Random()
        self._state = melvin.new_game(self.config)
        self._views: list[melvin.View] = []
        self._masks: list[list[int]] = []
        self._events: tuple[melvin.Event, ...] = ()
        self._cycles = 0

    @property
    def state_now(self) -> melvin.State:
        """The full state of the game in progress (for analysis; agents observe views)."""
        return self._state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Return the agent's observation space (the same object on every call); raise
        :class:`UnknownAgentError` for a name that is not one of ``possible_agents``."""
        _seat_of(agent, self.possible_agents)
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Return the agent's action space: ``Discrete(NUM_MELVIN_ACTIONS)``."""
        _seat_of(agent, self.possible_agents)
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, ObsDict], dict[str, dict[str, Any]]]:
        """Start a new game and return every agent's observation and an empty info. Chance
        and the reaction times come from two generators seeded from ``random.Random(seed)``
        (a fresh random seed when ``seed`` is ``None``). Raise
        :class:`~shock_rules.InvalidArgumentError` for a seed that is neither an integer nor
        ``None``."""
        master = random.Random(_check_seed(seed))
        self._chance = random.Random(master.getrandbits(64))
        self._clock = random.Random(master.getrandbits(64))
        events: list[melvin.Event] = []
        self._state = settle(melvin.new_game(self.config), self._chance, events)
        self._events = tuple(events)
        self._cycles = 0
        self.agents = self.possible_agents[:]
        return self._observe(), {a: {} for a in self.agents}

    def _observe(self) -> dict[str, ObsDict]:
        """Every agent's observation of the state now, its view and mask kept to check the
        next step's actions against."""
        self._views = [melvin.view(self._state, seat) for seat in range(self.config.players)]
        self._masks = [melvin_action_mask(v) for v in self._views]
        return {
            a: {"observation": np.array(encode_melvin(self._views[seat]), dtype=np.float32),
                "action_mask": np.array(self._masks[seat], dtype=np.int8)}
            for seat, a in enumerate(self.possible_agents) if a in self.agents
        }

    def step(self, actions: dict[str, int]) -> tuple[
            dict[str, ObsDict], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        """Race the agents' actions (one index per agent in ``agents``, the wait index 0 to
        let the others act), fastest first, and return every agent's observation, reward,
        termination, truncation and info (``info["result"]``: ``"waited"``, ``"applied"`` or
        ``"skipped"``, an action that was no longer legal when its turn came).

        Raise :class:`UnknownAgentError` for an unknown agent name,
        :class:`~shock_rules.InvalidArgumentError` for actions that are not a dict with one
        action per agent in ``agents`` (or when no game is in progress),
        :class:`~shock_rules.envs.EncodingError` for an action that is not an action index,
        and :class:`~shock_rules.IllegalActionError` for one that was not legal in the
        observation its agent received (its mask); nothing is changed then."""
        offers = self._offers(actions)
        done = race(self._state, offers, self._views, self._clock, self._chance)
        self._state, self._events = done.state, done.events
        self._cycles += 1
        live = self.agents
        observations = self._observe()
        over = self._state.end_reason is not None
        truncated = not over and self._cycles >= self.max_cycles
        rewards = dict.fromkeys(live, 0.0)
        if over:
            final = final_rewards(melvin.scores(self._state), self.reward, self.zero_sum,
                                  winners=melvin.winners(self._state))
            rewards = {a: final[self.possible_agents.index(a)] for a in live}
        infos = {a: {"result": done.results[self.possible_agents.index(a)]} for a in live}
        terminations = dict.fromkeys(live, over)
        truncations = dict.fromkeys(live, truncated)
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _offers(self, actions: object) -> dict[int, melvin.Action]:
        """Return the seats' decisions of ``actions``, checked (see :meth:`step`)."""
        if not self.agents:
            raise InvalidArgumentError("no game in progress: call reset() first (a game that"
                                       " ended or was truncated has no agents left)")
        if not isinstance(actions, dict):
            raise InvalidArgumentError(f"invalid actions {quoted(actions)}: expected a dict of"
                                       " one action index per agent")
        offers: dict[int, melvin.Action] = {}
        for agent, index in actions.items():
            seat = _seat_of(agent, self.possible_agents)
            action = melvin_action_of(index, seat, self.config.players)  # an index now
            if not self._masks[seat][int(index)]:
                raise IllegalActionError(
                    f"{agent}: action {index} ({action}) is not legal in its observation"
                    " (its action mask)", action=action, seat=seat)
            if action is not None:
                offers[seat] = action
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise InvalidArgumentError(
                f"no action for {', '.join(missing)}: every agent in env.agents acts at each"
                " step (0 to wait)")
        return offers

    def render(self) -> str | None:
        """Return the public table as text with ``render_mode="ansi"`` (nothing otherwise):
        a spectator's view and the events of the last step as a spectator saw them."""
        if self.render_mode != "ansi":
            return None
        return melvin_table_text(melvin.spectator_view(self._state),
                                 melvin.visible_events(self._events, None))

    def close(self) -> None:
        """Release nothing: the environment holds no outside resource."""
