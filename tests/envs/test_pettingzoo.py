"""The PettingZoo adapter passes PettingZoo's own API and seed tests."""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

import shock_rules as sr
from shock_rules.envs import NUM_ACTIONS, action_index, encode
from shock_rules.envs.pettingzoo import env, raw_env


@pytest.mark.parametrize(("players", "variant"), [(3, "standard"), (4, "simplified"),
                                                  (5, "standard")])
def test_pettingzoo_api_test(players: int, variant: str) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns that a dict observation is not an array, for every env outside its
        # own list of dict-observation games (its classic card games get the same warning).
        warnings.filterwarnings("ignore", message="Observation")
        api_test(env(players=players, variant=variant), num_cycles=1000)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(players=4), num_cycles=500)


def play_out(e: raw_env, seed: int) -> list[tuple[str, int]]:
    """Play a whole game by random legal actions; return the (agent, action) steps."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    steps = []
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        steps.append((agent, action))
        e.step(action)
    return steps


def test_the_same_seed_gives_the_same_game_and_observations_are_views() -> None:
    a, b = raw_env(players=4), raw_env(players=4)
    assert play_out(a, 3) == play_out(b, 3)
    assert play_out(a, 3) != play_out(b, 4)
    e = raw_env(players=4)
    e.reset(seed=11)
    for _ in range(30):
        s = e.state_now
        agent = e.agent_selection
        assert agent == f"player_{s.actor}"
        for seat, name in enumerate(e.possible_agents):
            obs = e.observe(name)
            v = sr.view(s, seat)
            assert obs["observation"].tolist() == encode(v)
            assert obs["observation"].dtype == np.float32
            assert np.flatnonzero(obs["action_mask"]).tolist() == [
                action_index(x) for x in v.legal_actions]
        e.step(int(np.flatnonzero(e.observe(agent)["action_mask"])[0]))


@pytest.mark.parametrize(("reward", "zero_sum", "total"), [("share", False, 1.0),
                                                           ("win", False, 1.0),
                                                           ("share", True, 0.0)])
def test_final_rewards_are_paid_at_the_end(reward: str, zero_sum: bool, total: float) -> None:
    e = raw_env(players=3, reward=reward, zero_sum=zero_sum)
    e.reset(seed=5)
    paid = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, r, terminated, truncated, _ = e.last()
        paid[agent] += r
        if terminated or truncated:
            e.step(None)
            continue
        assert r == 0.0
        e.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert sum(paid.values()) == pytest.approx(total)
    final = sr.envs.final_rewards(e.state_now.in_bag, reward, zero_sum)
    assert [paid[a] for a in e.possible_agents] == pytest.approx(final)


def test_an_illegal_action_raises_unwrapped_and_loses_wrapped() -> None:
    e = raw_env(players=4)
    e.reset(seed=2)
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(sr.IllegalActionError):
        e.step(illegal)
    with pytest.raises(sr.envs.EncodingError):
        e.step(NUM_ACTIONS)
    w = env(players=4)
    w.reset(seed=2)
    agent = w.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        w.step(illegal)
    assert all(w.terminations.values())
    assert w.rewards[agent] == -1


def test_ansi_render_returns_the_public_table() -> None:
    e = env(players=3, render_mode="ansi")
    e.reset(seed=9)
    text = e.render()
    assert isinstance(text, str)
    assert text.startswith("Round 1/5, trick 1")
    assert "hand:" not in text  # the public table: no seat's hand
    assert len(text.splitlines()) == 1 + 1 + 3 + 1
    with pytest.raises(sr.ConfigError, match="render_mode"):
        raw_env(render_mode="human")
