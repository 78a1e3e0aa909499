"""The OpenSpiel game passes OpenSpiel's own tests and plays with its bots."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402 -- after the skip: numpy comes with the extra

import shock_rules as sr  # noqa: E402
from shock_rules.envs import encode  # noqa: E402
from shock_rules.envs.openspiel import GAME_NAME, ShockRulesGame, chance_of  # noqa: E402


@pytest.mark.parametrize("params", [{"players": 3}, {"players": 4, "variant": "simplified"},
                                    {"players": 5, "reward": "win", "zero_sum": True}])
def test_random_sim_test_with_serialization(params: dict[str, object]) -> None:
    game = pyspiel.load_game(GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_game_type_and_info() -> None:
    game = pyspiel.load_game(GAME_NAME)
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.num_players() == 4
    assert game.num_distinct_actions() == sr.envs.NUM_ACTIONS
    assert game.max_chance_outcomes() == 44 + 44 + 7 + 5
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    with pytest.raises(sr.ConfigError, match="unknown reward 'score'"):
        pyspiel.load_game(GAME_NAME, {"reward": "score"})


@pytest.mark.parametrize(("params", "message"), [
    ({"players": "x"}, "players must be 3, 4 or 5, not 'x'"),
    ({"players": 2}, "players must be 3, 4 or 5, not 2"),
    ({"players": 6}, "players must be 3, 4 or 5, not 6"),
    ({"players": True}, "players must be 3, 4 or 5, not True"),
    ({"players": 3.0}, r"players must be 3, 4 or 5, not 3\.0"),
    ({"variant": "x"}, "unknown variant 'x': expected 'standard' or 'simplified'"),
    ({"variant": 3}, "unknown variant 3: expected"),
    ({"reward": "score"}, "unknown reward 'score': expected 'share' or 'win'"),
    ({"reward": None}, "unknown reward None"),
    ({"zero_sum": "no"}, "invalid zero_sum 'no': expected True or False"),
    ({"zero_sum": 1}, "invalid zero_sum 1: expected True or False"),
    ({"players": 3, "seats": 3},
     "unknown parameter 'seats': expected one of players, variant, reward, zero_sum"),
    ({1: 2}, "unknown parameter 1"),
    ("players=3", "invalid parameters 'players=3': expected a dict"),
    ([("players", 3)], "invalid parameters"),
], ids=repr)
def test_a_game_made_with_a_bad_parameter_raises_a_config_error(params: Any,
                                                                message: str) -> None:
    # The package's typed error with the reason; a ConfigError is a ValueError too.
    with pytest.raises(sr.ConfigError, match=message) as exc:
        ShockRulesGame(params)
    assert isinstance(exc.value, ValueError)


def test_load_game_refuses_bad_parameters() -> None:
    # pyspiel checks each parameter's type and name against the game's specification before it
    # makes the game (a SpielError); the values are the game's to check (a ConfigError).
    for params in ({"players": "x"}, {"players": True}, {"zero_sum": 1}, {"seats": 3}):
        with pytest.raises((pyspiel.SpielError, sr.ConfigError)):
            pyspiel.load_game(GAME_NAME, params)
    with pytest.raises(sr.ConfigError, match="players must be 3, 4 or 5, not 6"):
        pyspiel.load_game(GAME_NAME, {"players": 6})
    with pytest.raises(sr.ConfigError, match="unknown variant 'x'"):
        pyspiel.load_game(GAME_NAME, {"variant": "x"})
    game = ShockRulesGame({"players": 5, "variant": " Simplified", "reward": "win",
                           "zero_sum": True})
    assert (game.num_players(), game.config.variant, game.reward, game.zero_sum) == (
        5, sr.Variant.SIMPLIFIED, "win", True)
    assert ShockRulesGame(None).config == ShockRulesGame({}).config == sr.GameConfig()


def test_chance_nodes_carry_the_engines_exact_probabilities() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    seen = set()
    while not state.is_terminal():
        if state.is_chance_node():
            exact = state.exact_chance_outcomes()
            assert sum(p for _, p in exact) == Fraction(1)
            s = state.shock_state
            assert sorted((chance_of(s, i), p) for i, p in exact) == sorted(
                sr.chance_outcomes(s))
            assert state.chance_outcomes() == [(i, float(p)) for i, p in exact]
            seen.add(s.phase)
            ids = [i for i, _ in exact]
            state.apply_action(ids[rng.integers(len(ids))])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert {sr.Phase.DEAL, sr.Phase.TRUMP, sr.Phase.LEADER, sr.Phase.CHEST} <= seen


def test_tensors_and_strings_come_from_the_view() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    a, b = game.new_initial_state(), game.new_initial_state()
    # Deal the same cards to seat 0 but swap what seats 1 and 2 receive: seat 0 cannot tell.
    dealt: dict[int, list[int]] = {0: [], 1: [], 2: []}
    others: list[int] = []
    while a.is_chance_node():
        first = a.chance_outcomes()[0][0]
        if a.shock_state.phase is sr.Phase.DEAL:
            dealt[a.shock_state.actor].append(first)
        else:
            others.append(first)
        a.apply_action(first)
    swap = {0: list(dealt[0]), 1: list(dealt[2]), 2: list(dealt[1])}
    while b.is_chance_node():
        if b.shock_state.phase is sr.Phase.DEAL:
            b.apply_action(swap[b.shock_state.actor].pop(0))
        else:
            b.apply_action(others.pop(0))
    assert a.shock_state != b.shock_state
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert list(a.observation_tensor(0)) == pytest.approx(encode(sr.view(a.shock_state, 0)))
    assert a.observation_tensor(1) != b.observation_tensor(1)


def test_openspiel_bots_play_a_full_game() -> None:
    from open_spiel.python.algorithms import evaluate_bots, mcts

    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    rng = np.random.RandomState(4)
    # OpenSpiel's MCTS with random rollouts (a small budget) in seat 0, its uniform random bot
    # elsewhere.
    searcher = mcts.MCTSBot(game, uct_c=2.0, max_simulations=4,
                            evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    bots = [searcher] + [pyspiel.make_uniform_random_bot(p, 10 + p) for p in (1, 2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 3
    assert sum(returns) == pytest.approx(1.0)
    assert all(0.0 <= r <= 1.0 for r in returns)


def test_serialization_round_trip() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 4})
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    for _ in range(80):
        if state.is_chance_node():
            ids = [i for i, _ in state.chance_outcomes()]
            state.apply_action(ids[rng.integers(len(ids))])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    _, state2 = pyspiel.deserialize_game_and_state(text)
    assert state2.shock_state == state.shock_state
    assert state2.history() == state.history()
    clone = state.clone()
    assert clone.shock_state == state.shock_state and str(clone) == str(state)


def _play_to_a_decision(game: Any, seed: int, decisions: int) -> Any:
    """Play random moves until ``decisions`` decisions were made and a seat decides."""
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    made = 0
    while True:
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(ids, p=probs)))
        elif made == decisions:
            return state
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            made += 1


@pytest.mark.parametrize(("players", "decisions"), [(3, 7), (4, 30), (5, 45)])
def test_a_resampled_state_is_one_the_player_cannot_tell_apart(players: int,
                                                                decisions: int) -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": players})
    state = _play_to_a_decision(game, players, decisions)
    seat = state.current_player()
    sampler = iter(np.random.RandomState(1).uniform(size=20))
    worlds = [state.resample_from_infostate(seat, lambda: next(sampler)) for _ in range(20)]
    for world in worlds:
        sr.check_state(world.shock_state)
        assert sr.view(world.shock_state, seat) == sr.view(state.shock_state, seat)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.legal_actions() == state.legal_actions()
        # Another seat's information state in a world is the seat's past as the resampling
        # seat saw it, then what the world dealt it: no card of the true game it was not shown.
        other = (seat + 1) % players
        text = world.information_state_string(other)
        assert text.endswith(" ".join(str(c) for c in (*world.shock_state.hand(other),
                                                       *world.shock_state.face_down(other))))
    # The hidden cards differ between worlds (the draw is not the true deal every time).
    assert len({w.shock_state for w in worlds}) > 1
    # A world drawn from a world keeps the first seat's past.
    again = worlds[0].resample_from_infostate(seat, lambda: 0.5)
    assert again.information_state_string(seat) == state.information_state_string(seat)


def test_resampling_is_refused_where_no_seat_decides() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    state = game.new_initial_state()
    with pytest.raises(sr.IllegalActionError, match="where a seat decides"):
        state.resample_from_infostate(0, lambda: 0.5)
    state = _play_to_a_decision(game, 1, 0)
    with pytest.raises(sr.IllegalActionError, match="invalid player"):
        state.resample_from_infostate(3, lambda: 0.5)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_openspiels_ismcts_bot_plays_whole_games(players: int) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(GAME_NAME, {"players": players})
    rng = np.random.RandomState(players)
    # The information-set search of OpenSpiel itself, with its default consistency checks
    # (the same information state always offers the same actions), in seat 0; its uniform
    # random bot elsewhere.
    searcher = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8,
                                random_state=rng)
    others = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(players)]
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(ids, p=probs)))
        elif state.current_player() == 0:
            action = int(searcher.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            state.apply_action(others[state.current_player()].step(state))
    assert searched >= 5
    assert sum(state.returns()) == pytest.approx(1.0)
