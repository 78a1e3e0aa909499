"""The public functional API: ordering, exact chance, turn markers, the pinned public names."""

from __future__ import annotations

import gc
import pickle
import random
from fractions import Fraction
from typing import Any

import pytest

import shock_rules as sr
from shock_rules._rules.tables import tables_for


def _positions(seed: int, games: int = 6) -> list[sr.State]:
    rng = random.Random(seed)
    out = []
    for g in range(games):
        config = sr.GameConfig(players=3 + g % 3, variant=list(sr.Variant)[g % 2])
        s = sr.new_game(config)
        while not sr.is_terminal(s):
            out.append(s)
            if sr.is_chance(s):
                s = sr.apply(s, sr.sample_chance(s, rng))
            else:
                acts = sr.legal_actions(s)
                stay = [a for a in acts if a.kind is not sr.ActionKind.WITHDRAW]
                s = sr.apply(s, rng.choice(stay if stay and rng.random() < 0.9 else acts))
        out.append(s)
    return out


POSITIONS = _positions(11)


@pytest.mark.rule("DEAL-1")
def test_chance_outcomes_are_exact_fractions_that_sum_to_one() -> None:
    for s in POSITIONS:
        outcomes = sr.chance_outcomes(s)
        if not sr.is_chance(s):
            assert outcomes == ()
            continue
        assert all(isinstance(p, Fraction) for _, p in outcomes)
        assert sum(p for _, p in outcomes) == 1
        assert [a for a, _ in outcomes] == list(sr.legal_actions(s))
        assert all(float(p) == p.numerator / p.denominator for _, p in outcomes)


def test_probabilities_survive_pickling_and_arithmetic() -> None:
    s = sr.new_game(sr.GameConfig(players=4))
    _, p = sr.chance_outcomes(s)[0]
    assert p == Fraction(1, 40)
    again = pickle.loads(pickle.dumps(p))
    assert again == p and float(again) == 1 / 40
    assert p * 40 == 1 and isinstance(p + p, Fraction)


def test_legal_actions_are_sorted_and_distinct() -> None:
    for s in POSITIONS:
        acts = sr.legal_actions(s)
        assert list(acts) == sorted(acts)
        assert len(set(acts)) == len(acts)
        assert (acts == ()) == sr.is_terminal(s)


def test_current_player_marks_chance_decisions_and_the_end() -> None:
    for s in POSITIONS:
        who = sr.current_player(s)
        if sr.is_terminal(s):
            assert who is None
        elif sr.is_chance(s):
            assert who is sr.CHANCE
        else:
            assert isinstance(who, int) and 0 <= who < s.config.players


@pytest.mark.rule("SETUP-1")
def test_new_game_defaults_to_four_players_and_rejects_non_configs() -> None:
    s = sr.new_game()
    assert s.config == sr.GameConfig() and s.config.players == 4
    with pytest.raises(sr.ConfigError):
        sr.new_game(4)  # type: ignore[arg-type]


def test_apply_rejects_what_is_not_an_action_with_a_type_error() -> None:
    s = sr.new_game()
    with pytest.raises(TypeError):
        sr.apply(s, "deal 7H")  # type: ignore[arg-type]


@pytest.mark.parametrize("call", [
    sr.legal_actions, sr.is_chance, sr.is_terminal, sr.current_player, sr.chance_outcomes,
    sr.scores, sr.winners, sr.spectator_view, sr.format_position, sr.seats_to_act,
])
@pytest.mark.parametrize("bad", [{}, None, "state", 3])
def test_a_non_state_argument_is_a_type_error(call: Any, bad: object) -> None:
    with pytest.raises(TypeError):
        call(bad)


def test_apply_for_a_seat_takes_a_seat_number_or_chance_and_checks_the_turn() -> None:
    # The same in both builds: the compiled apply must not refuse CHANCE, nor a bad seat with
    # a TypeError, before its own checks.
    rng = random.Random(4)
    s = sr.new_game(sr.GameConfig(players=4))
    deal = sr.sample_chance(s, rng)
    after = sr.apply(s, deal, sr.CHANCE)
    assert after == sr.apply(s, deal)
    with pytest.raises(sr.IllegalActionError, match="cannot act now: chance must act"):
        sr.apply(s, deal, 0)
    for bad in ("0", 1.0, object(), [0]):  # the wrong type (InvalidArgumentError is a TypeError)
        with pytest.raises(TypeError):
            sr.apply(s, deal, bad)  # type: ignore[arg-type]
    s = sr.resolve_chance(s, rng)
    seat = sr.current_player(s)
    assert type(seat) is int
    play = sr.legal_actions(s)[0]
    assert sr.apply(s, play, seat) == sr.apply(s, play)
    with pytest.raises(sr.IllegalActionError, match=f"cannot act now: seat {seat} must act"):
        sr.apply(s, play, (seat + 1) % 4)
    with pytest.raises(sr.IllegalActionError, match="cannot act now"):
        sr.apply(s, play, sr.CHANCE)


@pytest.mark.rule("INFO-2")
def test_seats_to_act_is_the_seat_to_decide_and_nobody_at_chance_or_the_end() -> None:
    kinds = set()
    for s in POSITIONS:
        who = sr.current_player(s)
        seats = sr.seats_to_act(s)
        assert seats == ((who,) if isinstance(who, int) else ())
        kinds.add("decision" if seats else "end" if sr.is_terminal(s) else "chance")
    assert kinds == {"decision", "chance", "end"}  # the positions meet all three


@pytest.mark.rule("INFO-2")
def test_legal_actions_for_a_seat_are_its_own_or_none() -> None:
    for s in POSITIONS:
        every = sr.legal_actions(s)
        acting = sr.seats_to_act(s)
        for seat in range(s.config.players):
            mine = sr.legal_actions(s, seat)
            assert mine == (every if seat in acting else ())
            assert sr.legal_actions(s, seat=seat) == mine
        # Without a seat: whoever acts, chance included; nothing at the end.
        assert sr.legal_actions(s, None) == every
        if sr.is_chance(s):
            assert every and every == tuple(a for a, _ in sr.chance_outcomes(s))
        assert (every == ()) == sr.is_terminal(s)


@pytest.mark.parametrize("seat", [True, False, -1, 3, 4, 5, 10**30, -10**30])
def test_legal_actions_refuses_a_seat_the_game_does_not_have(seat: int) -> None:
    # A bool is no seat number, nor is a negative index from the end (both builds).
    s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=3)), random.Random(2))
    for state in (s, sr.new_game(sr.GameConfig(players=3))):  # a decision and a chance step
        with pytest.raises(sr.InvalidArgumentError, match="invalid seat"):
            sr.legal_actions(state, seat)


@pytest.mark.parametrize("seat", ["0", 1.0, object(), [0], sr.CHANCE])
def test_legal_actions_refuses_a_seat_that_is_no_number_with_a_type_error(seat: object) -> None:
    # InvalidArgumentError in the pure build; the compiled build's own argument check raises
    # a plain TypeError first, and InvalidArgumentError is a TypeError too.
    s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=3)), random.Random(2))
    with pytest.raises(TypeError):
        sr.legal_actions(s, seat)  # type: ignore[arg-type]
    if not sr.COMPILED:
        with pytest.raises(sr.InvalidArgumentError, match="invalid seat"):
            sr.legal_actions(s, seat)  # type: ignore[arg-type]


def test_states_are_hashable_values() -> None:
    a = sr.random_playout(sr.GameConfig(players=3), random.Random(5))
    b = sr.random_playout(sr.GameConfig(players=3), random.Random(5))
    assert a == b and hash(a) == hash(b) and a is not b
    assert len({a, b}) == 1


def test_sample_chance_refuses_a_player_decision() -> None:
    s = sr.deal_hands(sr.new_game(sr.GameConfig(players=3, first_leader=0)),
                      ["2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
                       "2D 3D 4D 5D 6D 7D 8D 9D 10D"], trump="2C")
    with pytest.raises(sr.IllegalActionError, match="no chance decision"):
        sr.sample_chance(s, random.Random(1))


def test_random_playout_records_its_actions() -> None:
    actions: list[sr.Action] = []
    final = sr.random_playout(sr.GameConfig(players=5), random.Random(9), actions)
    s = sr.new_game(sr.GameConfig(players=5))
    for a in actions:
        s = sr.apply(s, a)
    assert s == final and sr.is_terminal(s)


def test_the_public_api_is_pinned() -> None:
    core = {
        "GameConfig", "Variant", "Edition", "State", "Action", "Card", "ChestCard", "Suit",
        "new_game", "legal_actions", "apply", "chance_outcomes", "current_player", "is_chance",
        "is_terminal", "scores", "winners", "resolve_chance", "random_playout", "CHANCE",
        "seats_to_act",
        "IllegalActionError", "InvalidNotationError", "ConfigError", "EditionError",
        "InvalidStateError", "ShockError", "parse_action", "parse_card", "parse_chest_card",
        "deal_hands", "apply_all", "view", "spectator_view", "PlayerView", "determinize",
    }
    assert core <= set(sr.__all__)
    assert all(hasattr(sr, name) for name in sr.__all__)
    assert not [n for n in sr.__all__ if n.startswith("_") and n != "__version__"]


@pytest.mark.rule("DEAL-4")
def test_chest_outcomes_follow_each_games_own_chest_across_many_editions(
        frozen_heap: None) -> None:
    # Regression: a cache of chest outcomes keyed by the identity of a config's tables served
    # another edition's cards once those tables were freed and the identity reused.
    hands = ["2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
             "2D 3D 4D 5D 6D 7D 8D 9D 10D"]
    base = sr.Edition.default().to_dict()
    for i in range(150):  # more editions than the tables cache holds
        data = {**base, "chest": [{"kind": "gem", "large": 1 + i % 7, "small": i % 3,
                                   "count": 1 + i % 4},
                                  {"kind": "poison", "poison": "bee", "count": 2}]}
        config = sr.GameConfig(players=3, first_leader=0, edition=sr.Edition.from_dict(data))
        tables_for.cache_clear()  # free the previous game's tables so their memory is reused
        gc.collect()
        s = sr.apply_all(sr.deal_hands(sr.new_game(config), hands, trump="2C"),
                         "play 10H; play 2S; play 2D")
        assert s.phase is sr.Phase.CHEST
        outcomes = dict(sr.chance_outcomes(s))
        gem = sr.ChestCard(sr.ChestKind.GEM, 1 + i % 7, i % 3)
        assert outcomes == {
            sr.Action.chest(gem): Fraction(1 + i % 4, 3 + i % 4),
            sr.Action.chest(sr.ChestCard.parse("P:bee")): Fraction(2, 3 + i % 4),
        }


def test_a_draft_declares_exactly_the_fields_of_a_state() -> None:
    # The rule modules change a draft (_work.Work) by the state's field names; a field added to
    # State but not to Work would be untyped there.
    import attrs

    from shock_rules._rules.draft import Work, draft

    names = {f.name for f in attrs.fields(sr.State)}
    # The compiled build's native class keeps no annotations: its attributes are slots.
    declared = ({n for n, v in vars(Work).items() if type(v).__name__ == "getset_descriptor"}
                if sr.COMPILED else set(Work.__annotations__))
    assert declared == names
    s = sr.new_game(sr.GameConfig(players=3))
    w = draft(s)
    assert all(getattr(w, n) == getattr(s, n) for n in names - {"events"}) and w.events == []


def test_replace_checks_the_result_and_unchecked_replace_does_not() -> None:
    import copy

    from shock_rules._rules.state import unchecked_replace

    s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(3))
    assert s.replace() == s and s.replace() is not s
    # The next seat to play is fixed by the trick (TRICK-1): moving it is no reachable state.
    with pytest.raises(sr.InvalidStateError, match="plays out of turn"):
        s.replace(actor=(s.actor + 1) % 4)
    forged = unchecked_replace(s, actor=(s.actor + 1) % 4, supply=s.supply - 1)
    assert (forged.actor, forged.supply) == ((s.actor + 1) % 4, s.supply - 1)
    assert forged != s and unchecked_replace(forged, actor=s.actor, supply=s.supply) == s
    with pytest.raises(sr.InvalidArgumentError, match="invalid field 'suply': a State has no"):
        s.replace(suply=3)
    with pytest.raises(sr.InvalidStateError, match="per-seat fields must hold integers"):
        s.replace(on_bag=("1", 0, 0, 0))
    if hasattr(copy, "replace"):  # Python 3.13
        assert copy.replace(s) == s
