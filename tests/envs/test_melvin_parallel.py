"""The PettingZoo parallel environment of Melvin Vs. Kronk: PettingZoo's own API and seed
tests, seeded games, the race, the masks, hidden information and bad inputs.

Clauses of docs/melvin are named in comments (``rule`` markers belong to tests/melvin).
"""

from __future__ import annotations

import copy
import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import attrs
import numpy as np
from pettingzoo.test import parallel_api_test, parallel_seed_test

import shock_rules as sr
from shock_rules import melvin as mk
from shock_rules.envs import (
    MELVIN_WAIT,
    NUM_MELVIN_ACTIONS,
    EncodingError,
    encode_melvin,
    final_rewards,
    melvin_action_index,
    melvin_action_mask,
)
from shock_rules.envs._realtime import REACTION_MEAN, race, settle
from shock_rules.envs.pettingzoo import (
    MAX_CYCLES,
    MelvinParallelEnv,
    UnknownAgentError,
    parallel_env,
)

Obs = dict[str, Any]


def random_actions(obs: dict[str, Obs], rng: np.random.Generator) -> dict[str, int]:
    """A legal index of each agent's mask, uniformly."""
    return {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_pettingzoo_parallel_api_test(players: int) -> None:
    e = parallel_env(game="melvin", players=players)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the API test warns of anything amiss: none here
        parallel_api_test(e, num_cycles=1000)
    assert e.max_cycles == 1000  # the API test sets it


def test_pettingzoo_parallel_api_test_through_a_truncation() -> None:
    # 40 steps are too few for a game: the API test sees every agent truncated and leave.
    e = parallel_env(players=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(e, num_cycles=40)
    e.reset(seed=1)
    for _ in range(40):
        _, rewards, terminated, truncated, _ = e.step(dict.fromkeys(e.agents, MELVIN_WAIT))
    assert all(truncated.values()) and not any(terminated.values())
    assert set(rewards.values()) == {0.0} and e.agents == []


class _IllegalAsWait:
    """PettingZoo's ``parallel_seed_test`` samples actions without the mask: this stand-in
    (for that test only) turns an index the mask refuses into the wait index, so that the
    test checks what it is for, that the same seed gives the same game."""

    def __init__(self, env: MelvinParallelEnv) -> None:
        self.env = env
        self.obs: dict[str, Obs] = {}

    @property
    def agents(self) -> list[str]:
        return self.env.agents

    def action_space(self, agent: str) -> Any:
        return self.env.action_space(agent)

    def observation_space(self, agent: str) -> Any:
        return self.env.observation_space(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        self.obs, infos = self.env.reset(seed=seed, options=options)
        return self.obs, infos

    def step(self, actions: dict[str, int]) -> Any:
        fixed = {a: int(i) if self.obs[a]["action_mask"][int(i)] else MELVIN_WAIT
                 for a, i in actions.items()}
        out = self.env.step(fixed)
        self.obs = out[0]
        return out

    def close(self) -> None:
        self.env.close()


def test_pettingzoo_parallel_seed_test() -> None:
    parallel_seed_test(lambda: _IllegalAsWait(parallel_env(players=4)), num_cycles=200)


def play(e: MelvinParallelEnv, seed: int) -> list[tuple[Any, ...]]:
    """Play a whole game by random legal actions; return every step's actions and results."""
    obs, _ = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    log: list[tuple[Any, ...]] = [tuple(o["observation"].tolist() for o in obs.values())]
    while e.agents:
        actions = random_actions(obs, rng)
        obs, rewards, terminated, truncated, infos = e.step(actions)
        log.append((actions, rewards, terminated, truncated, infos,
                    [o["observation"].tolist() for o in obs.values()]))
    return log


def test_the_same_seed_gives_the_same_game() -> None:
    a, b = parallel_env(players=5), parallel_env(players=5)
    first = play(a, 3)
    assert play(b, 3) == first
    assert play(a, 3) == first  # a reset with the seed starts the same game again
    assert a.state_now == b.state_now and mk.is_terminal(a.state_now)
    assert play(a, 4) != first


def test_observations_are_the_agents_views_and_masks() -> None:
    # MK-INFO-1: each agent observes its own view only.
    e = parallel_env(players=4)
    obs, _ = e.reset(seed=11)
    rng = np.random.default_rng(11)
    steps = 0
    while e.agents:
        state = e.state_now
        for seat, agent in enumerate(e.possible_agents):
            v = mk.view(state, seat)
            assert obs[agent]["observation"].dtype == np.float32
            assert obs[agent]["observation"].tolist() == encode_melvin(v)
            assert obs[agent]["action_mask"].dtype == np.int8
            assert obs[agent]["action_mask"].tolist() == melvin_action_mask(v)
            assert e.observation_space(agent).contains(obs[agent])
        obs, *_ = e.step(random_actions(obs, rng))
        steps += 1
    assert steps > 50
    assert all(o["action_mask"].sum() == 0 for o in obs.values())  # the end: nothing legal


def _states(players: int, seed: int) -> list[mk.State]:
    """The states of a random game where the players act."""
    out = []
    actions: list[mk.Action] = []
    mk.random_playout(mk.GameConfig(players=players), random.Random(seed), actions)
    s = mk.new_game(mk.GameConfig(players=players))
    for a in actions:
        s = mk.apply(s, a)
        if not mk.is_chance(s):
            out.append(s)
    return out


def _race_times(state: mk.State, seats: list[int], clock: random.Random) -> dict[int, float]:
    """The reaction times the race draws for ``seats``, from a copy of its generator."""
    bot = mk.ReactionBot(mean=REACTION_MEAN)
    twin = copy.deepcopy(clock)
    return {s: bot.reaction(mk.view(state, s), twin) for s in sorted(seats)}


def test_the_fastest_slap_wins_the_race_and_the_others_are_skipped() -> None:
    # M5, MK-SLAP-2: the first slap while a match shows wins; the later ones are no longer
    # legal once its award window opens (MK-ACT-1), so they are skipped.
    matches = [s for s in _states(4, 5) if mk.match_shows(s) and s.award is None]
    assert matches
    for k, state in enumerate(matches):
        live = [s for s in range(4) if state.in_game[s]]
        clock, chance = random.Random(k), random.Random(100 + k)
        times = _race_times(state, live, clock)
        fastest = min(live, key=lambda s: (times[s], s))
        views = [mk.view(state, s) for s in range(4)]
        done = race(state, {s: mk.Slap(s) for s in live}, views, clock, chance)
        assert done.reactions == times
        won = [e for e in done.events if isinstance(e, mk.MatchSlapped)]
        assert [e.seat for e in won] == [fastest]
        assert [done.results[s] for s in live] == [
            "applied" if s == fastest else "skipped" for s in live]
        assert all(done.results[s] == "waited" for s in range(4) if s not in live)
        assert done.state.award is not None and done.state.award.winner == fastest


def test_a_flip_after_the_turn_moved_is_skipped_and_actions_apply_fastest_first() -> None:
    # A slap on a match and the seat to move's flip: if the slap comes first, its award window
    # opens, where nobody turns up a card (MK-SLAP-2), and the flip is skipped; if the flip
    # comes first it is applied, and the slap then meets the position after it.
    orders = set()
    for k, state in enumerate(s for s in _states(5, 8) if mk.match_shows(s) and s.award is None
                              and s.to_move is not None):
        mover = state.to_move
        assert mover is not None
        slapper = next(s for s in range(5) if s != mover and state.in_game[s])
        clock = random.Random(k)
        times = _race_times(state, [mover, slapper], clock)
        views = [mk.view(state, s) for s in range(5)]
        done = race(state, {mover: mk.Flip(mover), slapper: mk.Slap(slapper)}, views, clock,
                    random.Random(k))
        slap_first = (times[slapper], slapper) < (times[mover], mover)
        orders.add(slap_first)
        assert done.results[slapper] == "applied"
        assert done.results[mover] == ("skipped" if slap_first else "applied")
        turned = [e for e in done.events if isinstance(e, mk.CardTurnedUp)]
        slapped = [e for e in done.events if isinstance(e, (mk.MatchSlapped, mk.WrongSlap))]
        if not slap_first:
            assert done.events.index(turned[0]) < done.events.index(slapped[0])
    assert orders == {True, False}  # both orders occurred


def test_a_penalised_seat_reacts_more_slowly() -> None:
    # M9: under Mao para tras a seat's reaction is 1.5 times slower, so it loses most races.
    state = next(s for s in _states(3, 2) if mk.match_shows(s) and s.award is None
                 and all(s.in_game))
    slowed = attrs.evolve(state, penalties=(("Mao",), (), ()))
    wins = [0, 0, 0]
    views = [mk.view(slowed, s) for s in range(3)]
    for k in range(300):
        done = race(slowed, {0: mk.Slap(0), 1: mk.Slap(1)}, views, random.Random(k),
                    random.Random(k))
        wins[done.results.index("applied")] += 1
    assert wins[1] > 0.75 * 300 and wins[0] > 0


def test_settle_resolves_chance_and_keeps_its_events() -> None:
    events: list[mk.Event] = []
    s = settle(mk.new_game(mk.GameConfig(players=3)), random.Random(0), events)
    assert not mk.is_chance(s) and isinstance(events[0], mk.DealerChosen)


def _play_to_an_elimination(e: MelvinParallelEnv) -> tuple[dict[str, Obs], int]:
    """Play random games until a seat is eliminated with the game going on; return the
    observations and the eliminated seat."""
    for seed in range(200):
        obs, _ = e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while e.agents:
            out = [s for s in range(e.config.players) if not e.state_now.in_game[s]]
            if out:
                return obs, out[0]
            obs, *_ = e.step(random_actions(obs, rng))
    raise AssertionError("no elimination in 200 games")


def test_eliminated_agents_stay_with_only_wait_until_the_end_and_are_paid_then() -> None:
    # MK-ELIM-1, MK-END-2: an eliminated seat acts no more, its score still counts.
    e = parallel_env(players=6, reward="share")
    obs, out = _play_to_an_elimination(e)
    agent = e.possible_agents[out]
    assert agent in e.agents
    assert np.flatnonzero(obs[agent]["action_mask"]).tolist() == [MELVIN_WAIT]
    with pytest.raises(sr.IllegalActionError, match="not legal in its observation"):
        e.step({**dict.fromkeys(e.agents, MELVIN_WAIT), agent: 2})
    rng = np.random.default_rng(0)
    paid = dict.fromkeys(e.possible_agents, 0.0)
    while e.agents:
        assert agent in e.agents
        obs, rewards, terminated, truncated, infos = e.step(random_actions(obs, rng))
        assert infos[agent]["result"] == "waited"
        for a, r in rewards.items():
            paid[a] += r
    assert terminated[agent] and not truncated[agent]
    state = e.state_now
    final = final_rewards(mk.scores(state), "share", winners=mk.winners(state))
    assert [paid[a] for a in e.possible_agents] == pytest.approx(final)
    assert sum(paid.values()) == pytest.approx(1.0)


@pytest.mark.parametrize(("reward", "zero_sum", "total"), [("share", False, 1.0),
                                                           ("win", False, 1.0),
                                                           ("win", True, 0.0),
                                                           ("score", False, None)])
def test_rewards_are_paid_at_the_end_only(reward: str, zero_sum: bool,
                                          total: float | None) -> None:
    e = parallel_env(players=4, reward=reward, zero_sum=zero_sum)
    obs, _ = e.reset(seed=21)
    rng = np.random.default_rng(21)
    while e.agents:
        obs, rewards, terminated, _, _ = e.step(random_actions(obs, rng))
        if not all(terminated.values()):
            assert set(rewards.values()) == {0.0}
    state = e.state_now
    final = final_rewards(mk.scores(state), reward, zero_sum, winners=mk.winners(state))
    assert [rewards[a] for a in e.possible_agents] == pytest.approx(final)
    if total is not None:
        assert sum(rewards.values()) == pytest.approx(total)
    if reward == "win":  # MK-END-2: only seats still in the game win
        for s in range(4):
            if not state.in_game[s]:
                assert rewards[e.possible_agents[s]] == pytest.approx(-0.25 if zero_sum else 0)


def test_when_every_agent_waits_nothing_happens_until_the_truncation() -> None:
    e = parallel_env(players=3, max_cycles=5)
    e.reset(seed=2)
    start = e.state_now
    for k in range(5):
        _, rewards, _, truncated, infos = e.step(dict.fromkeys(e.agents, 0))
        assert e.state_now == start and e.state_now.step == start.step
        assert set(infos[a]["result"] for a in infos) == {"waited"}
        assert all(truncated.values()) == (k == 4)
    assert e.agents == [] and set(rewards.values()) == {0.0}
    with pytest.raises(sr.InvalidArgumentError, match="call reset"):
        e.step({})


def test_an_illegal_or_malformed_action_changes_nothing() -> None:
    e = parallel_env(players=4)
    obs, _ = e.reset(seed=5)
    before = e.state_now
    waits = dict.fromkeys(e.agents, MELVIN_WAIT)
    mask = obs["player_0"]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(sr.IllegalActionError, match="player_0: action"):
        e.step({**waits, "player_0": illegal})
    for bad in (True, 1.5, "1", None, NUM_MELVIN_ACTIONS, -1, np.float32(1)):
        with pytest.raises(EncodingError, match="invalid action index"):
            e.step({**waits, "player_0": bad})  # type: ignore[dict-item]
    with pytest.raises(EncodingError, match="seat"):
        e.step({**waits, "player_0": 50})  # toalha +4: a game of 4 has none
    with pytest.raises(UnknownAgentError, match="unknown agent 'player_9'"):
        e.step({**waits, "player_9": 0})
    with pytest.raises(sr.InvalidArgumentError, match="no action for player_3"):
        e.step({a: 0 for a in e.agents if a != "player_3"})
    with pytest.raises(sr.InvalidArgumentError, match="expected a dict"):
        e.step([0, 0, 0, 0])  # type: ignore[arg-type]
    assert e.state_now is before and e.agents == e.possible_agents
    numpy_wait: Any = np.int64(MELVIN_WAIT)  # a NumPy integer is an index
    e.step({**waits, "player_0": numpy_wait})
    assert e.state_now == before


def test_bad_settings_and_names_are_refused() -> None:
    for players in (2, 7, "4", True):
        with pytest.raises(sr.ConfigError, match="3 to 6 players"):
            parallel_env(players=players)  # type: ignore[arg-type]
    with pytest.raises(sr.ConfigError, match=r"turn-based.*env\(\)"):
        parallel_env(game="shock")
    with pytest.raises(sr.ConfigError, match="unknown game 'chess'"):
        parallel_env(game="chess")
    with pytest.raises(sr.ConfigError, match="render_mode"):
        parallel_env(render_mode="human")
    with pytest.raises(sr.ConfigError, match="unknown reward"):
        parallel_env(reward="gems")
    with pytest.raises(sr.ConfigError, match="zero_sum"):
        parallel_env(zero_sum="no")  # type: ignore[arg-type]
    for cycles in (0, True, "5", 2.5):
        with pytest.raises(sr.ConfigError, match="max_cycles"):
            parallel_env(max_cycles=cycles)  # type: ignore[arg-type]
    e = parallel_env(players=3)
    assert e.max_cycles == MAX_CYCLES and e.agents == []
    with pytest.raises(sr.InvalidArgumentError, match="call reset"):
        e.step({})
    for seed in ("x", 1.5, True):
        with pytest.raises(sr.InvalidArgumentError, match="invalid seed"):
            e.reset(seed=seed)  # type: ignore[arg-type]
    for bad in ("player_3", "p0", 0, None):
        with pytest.raises(UnknownAgentError, match="unknown agent"):
            e.observation_space(bad)  # type: ignore[arg-type]
        with pytest.raises(UnknownAgentError):
            e.action_space(bad)  # type: ignore[arg-type]
    assert e.action_space("player_0").n == NUM_MELVIN_ACTIONS  # type: ignore[attr-defined]


def test_ansi_render_shows_the_public_table_and_the_last_step() -> None:
    e = parallel_env(players=3, render_mode="ansi")
    obs, _ = e.reset(seed=9)
    text = e.render()
    assert isinstance(text, str)
    lines = text.splitlines()
    assert lines[0].startswith("Melvin Vs. Kronk, step")
    assert lines[1].split() == ["seat", "status", "draw", "discard", "top", "gems",
                                "penalties"]
    assert "deals" in text  # the deal, the reset's step
    mover = e.state_now.to_move
    assert mover is not None
    flip = melvin_action_index(mk.Flip(mover), 3)
    obs, *_ = e.step({**dict.fromkeys(e.agents, 0), f"player_{mover}": flip})
    text = e.render()
    assert isinstance(text, str) and f"seat {mover} turns up V" in text
    rng = np.random.default_rng(9)
    while e.agents:
        state = e.state_now
        text = e.render()
        assert isinstance(text, str)
        if not state.over:  # a spectator sees Gem counts, never the cards (M14)
            assert all(f"({' '.join(g)})" not in text for g in state.gems if g)
        obs, *_ = e.step(random_actions(obs, rng))
    assert parallel_env(players=3).render() is None
