"""Bad arguments to the environments' helpers and adapters raise the package's typed errors."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

import shock_rules as sr
from shock_rules import envs
from shock_rules.envs import EncodingError


def a_view() -> sr.PlayerView:
    s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(3))
    return sr.view(s, s.actor)


HELPERS: list[tuple[str, Callable[[], object], type[sr.ShockError], str]] = [
    ("encode(None)", lambda: envs.encode(None), sr.InvalidArgumentError,  # type: ignore[arg-type]
     "expected a PlayerView"),
    ("encode(config)", lambda: envs.encode(sr.GameConfig()),  # type: ignore[arg-type]
     sr.InvalidArgumentError, "expected a PlayerView"),
    ("layout(None)", lambda: envs.layout(None), sr.ConfigError,  # type: ignore[arg-type]
     "layout.. needs a GameConfig"),
    ("observation_size('x')", lambda: envs.observation_size("x"),  # type: ignore[arg-type]
     sr.ConfigError, "observation_size.. needs a GameConfig, not 'x'"),
    ("action_index([])", lambda: envs.action_index([]),  # type: ignore[arg-type]
     sr.InvalidArgumentError, "expected an Action"),
    ("action_index('play 1H')", lambda: envs.action_index("play 1H"),  # type: ignore[arg-type]
     sr.InvalidArgumentError, "expected an Action"),
    ("action_of(inf)", lambda: envs.action_of(math.inf), EncodingError,  # type: ignore[arg-type]
     "invalid action index inf"),
    ("action_of(nan)", lambda: envs.action_of(math.nan), EncodingError,  # type: ignore[arg-type]
     "invalid action index nan"),
    ("action_of(True)", lambda: envs.action_of(True), EncodingError,
     "invalid action index True"),
    ("action_of(False)", lambda: envs.action_of(False), EncodingError,
     "invalid action index False"),
    ("action_of(1.0)", lambda: envs.action_of(1.0), EncodingError,  # type: ignore[arg-type]
     "invalid action index 1.0"),
    ("action_of(10**30)", lambda: envs.action_of(10**30), EncodingError,
     "invalid action index"),
    ("action_mask(None)", lambda: envs.action_mask(None),  # type: ignore[arg-type]
     sr.InvalidArgumentError, "expected a list of Actions"),
    ("action_mask('reveal')", lambda: envs.action_mask("reveal"),  # type: ignore[arg-type]
     sr.InvalidArgumentError, "expected a list of Actions"),
    ("action_mask([None])", lambda: envs.action_mask([None]),  # type: ignore[list-item]
     sr.InvalidArgumentError, "expected an Action"),
    ("final_rewards(None)", lambda: envs.final_rewards(None),  # type: ignore[arg-type]
     sr.InvalidArgumentError, "invalid scores None"),
    ("final_rewards([])", lambda: envs.final_rewards([]), sr.InvalidArgumentError,
     "invalid scores"),
    ("final_rewards('12')", lambda: envs.final_rewards("12"),  # type: ignore[arg-type]
     sr.InvalidArgumentError, "invalid scores"),
    ("final_rewards([1, None])", lambda: envs.final_rewards([1, None]),  # type: ignore[list-item]
     sr.InvalidArgumentError, "invalid scores"),
    ("final_rewards([True, 0])", lambda: envs.final_rewards([True, 0]),
     sr.InvalidArgumentError, "invalid scores"),
    ("final_rewards([-1, 2])", lambda: envs.final_rewards([-1, 2]), sr.InvalidArgumentError,
     "invalid scores"),
    ("final_rewards(reward=None)", lambda: envs.final_rewards([1, 2], None),  # type: ignore[arg-type]
     sr.ConfigError, "unknown reward None"),
    ("final_rewards(reward=[])", lambda: envs.final_rewards([1, 2], []),  # type: ignore[arg-type]
     sr.ConfigError, "unknown reward"),
    ("final_rewards(zero_sum='no')",
     lambda: envs.final_rewards([1, 2], zero_sum="no"),  # type: ignore[arg-type]
     sr.ConfigError, "invalid zero_sum 'no'"),
]


@pytest.mark.parametrize(("call", "error", "message"),
                         [(c, e, m) for _, c, e, m in HELPERS],
                         ids=[name for name, *_ in HELPERS])
def test_bad_helper_arguments_raise_typed_errors(call: Callable[[], object],
                                                 error: type[sr.ShockError],
                                                 message: str) -> None:
    with pytest.raises(error, match=message):
        call()


def test_integer_indexes_of_other_kinds_still_work() -> None:
    np = pytest.importorskip("numpy")
    for index in (np.int64(176), np.uint8(176), np.array(176)):
        assert envs.action_of(index) == sr.Action.parse("reveal")
    for bad in (np.True_, np.float64(176.0), np.array([176])):
        with pytest.raises(EncodingError, match="invalid action index"):
            envs.action_of(bad)
    v = a_view()
    assert envs.action_mask(tuple(v.legal_actions)) == envs.action_mask(iter(v.legal_actions))
    assert envs.final_rewards((3, 1)) == [0.75, 0.25]


def test_a_long_bad_argument_is_quoted_short() -> None:
    with pytest.raises(sr.ConfigError) as exc:
        envs.layout("x" * 10_000)  # type: ignore[arg-type]
    assert len(str(exc.value)) < 200


def test_gymnasium_bad_inputs() -> None:
    pytest.importorskip("gymnasium")
    import numpy as np

    from shock_rules.envs.gymnasium import ShockRulesEnv

    env = ShockRulesEnv(players=4)
    _, info = env.reset(seed=1)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    before = env.state_now
    for bad in (math.inf, -math.inf, math.nan, 1.5, float(legal), True, False, "1", None,
                np.float64(legal), np.array([legal]), np.True_):
        with pytest.raises(sr.IllegalActionError, match="invalid action index"):
            env.step(bad)
    assert env.state_now == before
    env.step(np.int64(legal))  # what Discrete.sample() returns
    env.reset(seed=1)
    env.step(np.array(legal))  # a 0-d integer array
    for kwargs, message in [
        ({"opponents": 5}, "invalid opponents 5"),
        ({"opponents": None}, "invalid opponents None"),
        ({"opponents": [5, "random", "random"]}, "invalid opponent 5"),
        ({"seat": True}, "invalid seat True"),
        ({"seat": 1.0}, "invalid seat 1.0"),
        ({"illegal_penalty": None}, "invalid illegal_penalty None"),
        ({"illegal_penalty": math.nan}, "invalid illegal_penalty nan"),
        ({"illegal_penalty": True}, "invalid illegal_penalty True"),
        ({"zero_sum": "no"}, "invalid zero_sum 'no'"),
        ({"reward": None}, "unknown reward None"),
        ({"illegal_action": []}, "unknown illegal_action"),
        ({"render_mode": 1}, "unknown render_mode 1"),
    ]:
        with pytest.raises(sr.ConfigError, match=message):
            ShockRulesEnv(**kwargs)  # type: ignore[arg-type]


def test_pettingzoo_bad_inputs() -> None:
    pytest.importorskip("pettingzoo")
    import numpy as np

    from shock_rules.envs.pettingzoo import UnknownAgentError, raw_env

    e = raw_env(players=4)
    e.reset(seed=1)
    for agent in ("player_9", "x", None, ["player_0"], 0):
        for method in (e.observe, e.observation_space, e.action_space):
            with pytest.raises(UnknownAgentError, match="unknown agent") as exc:
                method(agent)  # type: ignore[arg-type]
            # Both what PettingZoo's dict lookup raised and what list.index raised.
            assert isinstance(exc.value, sr.InvalidArgumentError)
            assert isinstance(exc.value, KeyError) and isinstance(exc.value, ValueError)
            assert str(exc.value).startswith("unknown agent")
    before = e.state_now
    for bad in (True, False, 1.5, math.inf, math.nan, "1", np.True_, np.float64(1.0)):
        with pytest.raises(EncodingError, match="invalid action index"):
            e.step(bad)  # type: ignore[arg-type]
    assert e.state_now == before
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    e.step(np.int64(legal))  # type: ignore[arg-type]
    assert e.state_now != before
    for seed in (1.5, "1", True, [1]):
        with pytest.raises(sr.InvalidArgumentError, match="invalid seed"):
            e.reset(seed=seed)  # type: ignore[arg-type]
    for kwargs, message in [
        ({"zero_sum": "no"}, "invalid zero_sum 'no'"),
        ({"reward": None}, "unknown reward None"),
        ({"render_mode": 1}, "unknown render_mode 1"),
    ]:
        with pytest.raises(sr.ConfigError, match=message):
            raw_env(**kwargs)  # type: ignore[arg-type]
