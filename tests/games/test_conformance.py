"""One conformance suite for every game of the registry (``shock_rules.games``): random
games played through the contract alone, every state checked; JSON documents and records
that round-trip; views that hide what they must (OpenSpiel's ``random_sim_test`` and pgx's
per-game tests iterate their registries alike)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from shock_rules import CHANCE, IllegalActionError, InvalidArgumentError, games
from shock_rules.record import format_record, parse_record, record_game, replay

from ._support import NAMES, REDRAW, walk

SEEDS = range(2)


def _players(name: str) -> list[int]:
    return list(games.get(name).players)


CASES = [(name, n, seed) for name in NAMES for n in _players(name) for seed in SEEDS]


def test_the_registry_holds_both_games_and_refuses_what_it_lacks() -> None:
    assert games.names() == ("shock", "melvin")
    for name in NAMES:
        game = games.get(name)
        assert game.name == name and game.title
        state = game.new_game(game.config())
        assert games.of(state) is game and games.of(game.config()) is game
    assert games.get("melvin").simultaneous and not games.get("shock").simultaneous
    for bad in ("chess", None, 3):
        with pytest.raises(InvalidArgumentError, match="unknown game"):
            games.get(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="belongs to no registered game"):
        games.of(object())
    with pytest.raises(InvalidArgumentError, match="registered already"):
        games.register(games.get("shock"))


@pytest.mark.parametrize(("name", "players", "seed"), CASES)
def test_every_state_of_a_random_game_meets_the_contract(name: str, players: int,
                                                         seed: int) -> None:
    game = games.get(name)
    previous = None
    for state in walk(game, players, seed):
        game.check_state(state)
        assert game.state_type is type(state)
        if previous is not None:
            assert state.step == previous.step + 1
        previous = state
        seats = game.seats_to_act(state)
        legal = game.legal_actions(state)
        assert len(set(legal)) == len(legal)
        if game.is_terminal(state):
            assert legal == () and seats == () and not game.is_chance(state)
            _check_end(game, state)
            continue
        if game.is_chance(state):
            outcomes = game.chance_outcomes(state)
            assert outcomes and sum(p for _, p in outcomes) == Fraction(1)
            assert all(p > 0 for _, p in outcomes)
            assert legal == tuple(a for a, _ in outcomes) and seats == ()
            assert all(game.legal_actions(state, s) == () for s in range(players))
            game.apply(state, outcomes[0][0], CHANCE)
            continue
        assert game.chance_outcomes(state) == ()
        assert seats and seats == tuple(sorted(seats))
        assert (len(seats) == 1) or game.simultaneous
        by_seat = [a for s in range(players) for a in game.legal_actions(state, s)]
        assert set(by_seat) == set(legal)
        for s in range(players):
            assert bool(game.legal_actions(state, s)) == (s in seats)
        action = legal[len(legal) // 2]
        owner = next(s for s in seats if action in game.legal_actions(state, s))
        assert game.apply(state, action, owner) == game.apply(state, action)
        others = [s for s in range(players) if action not in game.legal_actions(state, s)]
        if others:
            with pytest.raises(IllegalActionError):
                game.apply(state, action, others[0])
        for a in legal:
            assert game.parse_action(str(a)) == a


def _check_end(game: Any, state: Any) -> None:
    scores = game.scores(state)
    best = game.winners(state)
    assert best and best <= set(range(len(scores)))
    assert len({scores[s] for s in best}) == 1


@pytest.mark.parametrize(("name", "players", "seed"), CASES[::2])
def test_documents_round_trip_at_every_step(name: str, players: int, seed: int) -> None:
    game = games.get(name)
    config = game.config(players=players)
    assert game.read_config(game.config_document(config)) == config
    for state in walk(game, players, seed + 10):
        back = game.read_state(game.state_document(state))
        assert back == state and back.events == state.events
        for a in game.legal_actions(state):
            assert game.read_action(game.action_document(a)) == a
            assert game.read_action(str(a)) == a
        views = [game.spectator_view(state), *(game.view(state, s) for s in range(players))]
        for v in views:
            assert game.read_view(game.view_document(v)) == v
        events = game.events_document(state.events, state.step)
        assert game.read_events(events) == state.events
        for e in state.events:
            assert game.describe_event(e)
        for v in views:
            for e in v.events:
                assert game.describe_event(e)


@pytest.mark.parametrize(("name", "players", "seed"), CASES[1::2])
def test_views_hide_what_their_seat_may_not_know(name: str, players: int, seed: int) -> None:
    game = games.get(name)
    rng = random.Random(seed)
    redraw = REDRAW[name]
    states = list(walk(game, players, seed + 20))
    changed = 0
    for state in states[:: max(1, len(states) // 40)]:
        if game.is_chance(state):
            continue
        for seat in range(players):
            other = redraw(state, seat, rng)
            game.check_state(other)
            assert game.view(other, seat) == game.view(state, seat)
            changed += other != state
    assert changed  # the redrawn states hold other secrets: the views' equality means something


@pytest.mark.parametrize("name", NAMES)
def test_records_replay_to_the_same_game(name: str) -> None:
    game = games.get(name)
    for players in game.players:
        actions: list[Any] = []
        config = game.config(players=players)
        end = game.random_playout(config, random.Random(players), actions)
        record = record_game(config, actions, {"Seat0": "Ann"}, result=True)
        text = format_record(record)
        back = parse_record(text)
        assert back == record and back.game == name
        assert replay(back)[-1] == end
        assert game.is_terminal(replay(back)[-1])


@pytest.mark.parametrize("name", NAMES)
def test_the_package_reads_and_writes_every_games_documents(name: str) -> None:
    import shock_rules as sr

    game = games.get(name)
    end = game.random_playout(game.config(), random.Random(4))
    objects = [end, end.config, game.view(end, 0), game.spectator_view(end),
               *game.legal_actions(game.new_game(end.config))]
    for obj in objects:
        assert sr.from_json(sr.to_json(obj)) == obj
    assert sr.from_json(sr.to_json(list(end.events))) == end.events
    doc = sr.to_dict(end)
    assert doc.get("game", "shock") == name
    with pytest.raises(sr.InvalidStateError):
        sr.from_dict({**doc, "game": "chess"})
