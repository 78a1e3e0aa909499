"""The Gymnasium adapter passes Gymnasium's environment checker."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402 -- after the skip: numpy comes with the extra
from gymnasium.utils.env_checker import check_env  # noqa: E402

import shock_rules as sr  # noqa: E402
from shock_rules.envs import encode, final_rewards  # noqa: E402
from shock_rules.envs.gymnasium import ENV_ID, ShockRulesEnv  # noqa: E402


@pytest.mark.parametrize("opponents", ["heuristic", "random"])
def test_check_env_passes_without_warnings(opponents: str) -> None:
    env = gymnasium.make(ENV_ID, players=4, opponents=opponents)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def run(env: ShockRulesEnv, seed: int) -> tuple[list[int], float, dict[str, object]]:
    _, info = env.reset(seed=seed)
    actions = []
    while True:
        a = int(np.flatnonzero(info["action_mask"])[-1])
        actions.append(a)
        _, reward, terminated, truncated, info = env.step(a)
        assert not truncated
        if terminated:
            return actions, float(reward), info
        assert reward == 0.0


def test_episodes_are_reproducible_and_pay_the_final_reward() -> None:
    env = ShockRulesEnv(players=3, seat=1, opponents=["random", "heuristic"], reward="win")
    a1, r1, info = run(env, 4)
    a2, r2, _ = run(env, 4)
    assert (a1, r1) == (a2, r2)
    scores = info["scores"]
    assert scores == env.state_now.in_bag
    assert r1 == final_rewards(env.state_now.in_bag, "win")[1]
    assert info["winners"] == tuple(sorted(sr.winners(env.state_now)))


def test_observations_are_the_agents_view() -> None:
    env = ShockRulesEnv(players=4, seat=2)
    obs, _ = env.reset(seed=8)
    assert env.state_now.actor == 2
    assert obs.tolist() == encode(sr.view(env.state_now, 2))
    assert env.observation_space.contains(obs)


def test_illegal_actions_penalise_or_raise() -> None:
    env = ShockRulesEnv(players=4, illegal_penalty=-2.5)
    obs, info = env.reset(seed=1)
    before = env.state_now
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-2.5, False, False, True)
    assert env.state_now == before and np.array_equal(obs, obs2)
    strict = ShockRulesEnv(players=4, illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(sr.IllegalActionError):
        strict.step(illegal)
    with pytest.raises(sr.IllegalActionError, match="invalid action"):
        strict.step(10_000)


def test_bad_configurations_are_config_errors() -> None:
    with pytest.raises(sr.ConfigError, match="invalid opponent 'nobody'"):
        ShockRulesEnv(opponents="nobody")
    with pytest.raises(sr.ConfigError, match="opponents must name one bot or 3 bots"):
        ShockRulesEnv(opponents=["random"])
    with pytest.raises(sr.ConfigError, match="invalid seat 4"):
        ShockRulesEnv(players=4, seat=4)
    with pytest.raises(sr.ConfigError, match="illegal_action"):
        ShockRulesEnv(illegal_action="ignore")


def test_ansi_render_shows_the_agents_hand() -> None:
    env = ShockRulesEnv(players=4, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text is not None
    hand = " ".join(str(c) for c in sr.view(env.state_now, 0).hand)
    assert f"seat 0 hand: {hand}" in text


def _pick(rng: np.random.Generator, mask: np.ndarray[Any, Any]) -> int:
    legal = np.flatnonzero(mask)
    # An all-zero mask: that episode just ended, and autoreset ignores its next action.
    return int(rng.choice(legal)) if len(legal) else 0


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_environments_step_reset_and_repeat_by_seed(mode: str) -> None:
    def run() -> tuple[np.ndarray[Any, Any], list[np.ndarray[Any, Any]], int]:
        envs = gymnasium.make_vec("ShockRules-v0", num_envs=3, vectorization_mode=mode,
                                  players=3, opponents="random")
        rng = np.random.default_rng(5)
        try:
            first, info = envs.reset(seed=11)
            assert first.shape == (3, *envs.single_observation_space.shape)
            assert first in envs.observation_space
            seen, ended = [], 0
            for _ in range(120):
                actions = np.array([_pick(rng, m) for m in info["action_mask"]])
                obs, rewards, terminated, truncated, info = envs.step(actions)
                assert obs.shape == first.shape and rewards.shape == (3,)
                assert not truncated.any()
                ended += int(terminated.sum())
                seen.append(obs)
            return first, seen, ended
        finally:
            envs.close()

    first, seen, ended = run()
    assert ended >= 3  # whole games end, and the environments start again by themselves
    # The three environments play different games from one seed...
    assert not np.array_equal(first[0], first[1]) or not np.array_equal(first[1], first[2])
    # ...and the same seed plays the same games again.
    again_first, again_seen, again_ended = run()
    assert np.array_equal(first, again_first) and again_ended == ended
    assert all(np.array_equal(a, b) for a, b in zip(seen, again_seen, strict=True))
