"""The view encoding and the decision-action indexes shared by the adapters (no framework)."""

from __future__ import annotations

import itertools
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shock_rules as sr
from shock_rules.envs import (
    NUM_ACTIONS,
    EncodingError,
    Field,
    action_index,
    action_mask,
    action_of,
    encode,
    final_rewards,
    layout,
    observation_size,
)
from strategies import random_editions


def positions(players: int, variant: str, seed: int, every: int = 7) -> list[sr.State]:
    """Return every ``every``-th state of a random game, chance steps included."""
    rng = random.Random(seed)
    s = sr.new_game(sr.GameConfig(players=players, variant=variant))
    out = []
    step = 0
    while not sr.is_terminal(s):
        if step % every == 0:
            out.append(s)
        s = sr.apply(s, rng.choice(sr.legal_actions(s)))
        step += 1
    out.append(s)
    return out


GAMES = [(3, "standard", 1), (4, "simplified", 2), (5, "standard", 3), (4, "standard", 4)]


def test_layout_fields_are_contiguous_and_sized() -> None:
    config = sr.GameConfig()
    fields = layout(config)
    assert fields[0].offset == 0
    for a, b in itertools.pairwise(fields):
        assert a.stop == b.offset
    assert observation_size(config) == fields[-1].stop == 618
    assert len({f.name for f in fields}) == len(fields)


@pytest.mark.parametrize(("players", "variant", "seed"), GAMES)
def test_encoding_never_changes_with_hidden_information(players: int, variant: str,
                                                        seed: int) -> None:
    # Determinizing a view redeals everything the seat cannot see (other hands, the dungeon
    # deck, other seats' face-down cards): the seat's encoding must not move (K34).
    rng = random.Random(seed)
    checked = 0
    for s in positions(players, variant, seed):
        for seat in range(players):
            v = sr.view(s, seat)
            e = encode(v)
            assert len(e) == observation_size(s.config)
            for _ in range(3):
                d = sr.determinize(v, rng)
                assert encode(sr.view(d, seat)) == e
                checked += 1
    assert checked > 100


def test_encoding_tells_seats_and_hands_apart() -> None:
    s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(5))
    encodings = [encode(sr.view(s, seat)) for seat in range(4)]
    assert len({tuple(e) for e in encodings}) == 4


@pytest.mark.parametrize(("players", "variant", "seed"), GAMES[:2])
def test_encoding_fields_hold_the_view(players: int, variant: str, seed: int) -> None:
    for s in positions(players, variant, seed, every=11):
        seat = (s.actor if s.actor >= 0 else 0) % players
        v = sr.view(s, seat)
        e = encode(v)
        f = {fl.name: fl for fl in layout(v.config)}

        def field(name: str, e: list[float] = e, f: dict[str, Field] = f) -> list[float]:
            return e[f[name].offset:f[name].stop]

        assert [i for i, x in enumerate(field("hand")) if x] == [c.index for c in v.hand]
        assert [i for i, x in enumerate(field("discard")) if x] == [c.index for c in v.discard]
        trump = [i for i, x in enumerate(field("trump")) if x]
        assert trump == ([v.trump.index] if v.trump is not None else [])
        assert field("round").index(1.0) == v.round - 1
        assert field("phase").index(1.0) == int(v.phase)
        assert field("my_turn") == [1.0 if v.my_turn else 0.0]
        assert field("deck_size") == [float(v.deck_size)]
        assert field("supply") == [float(v.supply)]
        assert sum(field("chest_deck")) == len(v.chest_deck)
        seats = field("seats")
        for sv in v.seats:
            slot = seats[20 * ((sv.seat - seat) % players):][:20]
            assert slot[0] == 1.0 and slot[1 + int(sv.status)] == 1.0
            assert slot[4:8] == [sv.hand_size, sv.face_down_count, sv.on_bag, sv.in_bag]
            assert sum(slot[8:14]) == len(sv.poisons)
            assert slot[14:16] == [len(sv.potions), sv.stored_potions]
        for fl in layout(v.config):
            assert all(fl.low <= x <= fl.high for x in e[fl.offset:fl.stop]), fl.name


def test_a_spectator_view_cannot_be_encoded() -> None:
    s = sr.new_game(sr.GameConfig())
    with pytest.raises(EncodingError, match="spectator"):
        encode(sr.spectator_view(s))


def test_action_indexes_cover_every_decision_kind_once() -> None:
    actions = [action_of(i) for i in range(NUM_ACTIONS)]
    assert len(set(actions)) == NUM_ACTIONS
    assert all(action_index(a) == i for i, a in enumerate(actions))
    assert {a.kind for a in actions} == {k for k in sr.ActionKind if not k.is_chance}
    assert str(action_of(0)) == "play 1H"
    assert str(action_of(44 + 43)) == "withdraw 11C"
    assert str(action_of(88 + 11)) == "down 1S"
    assert str(action_of(132 + 6)) == "cover 7H"
    assert (str(action_of(176)), str(action_of(177))) == ("reveal", "stop")


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 2.5, "3", None])
def test_a_bad_action_index_is_a_typed_error(bad: object) -> None:
    with pytest.raises(EncodingError, match="invalid action index"):
        action_of(bad)  # type: ignore[arg-type]


def test_chance_outcomes_have_no_action_index() -> None:
    with pytest.raises(EncodingError, match="chance outcome"):
        action_index(sr.Action.parse("deal 7H"))


@pytest.mark.parametrize(("players", "variant", "seed"), GAMES)
def test_the_mask_marks_exactly_the_legal_decisions(players: int, variant: str,
                                                    seed: int) -> None:
    kinds = set()
    for s in positions(players, variant, seed, every=1):
        for seat in range(players):
            v = sr.view(s, seat)
            mask = action_mask(v.legal_actions)
            assert [action_of(i) for i, m in enumerate(mask) if m] == list(v.legal_actions)
            if v.my_turn:
                assert sum(mask) > 0
                assert list(v.legal_actions) == list(sr.legal_actions(s))
                kinds |= {a.kind for a in v.legal_actions}
            else:
                assert sum(mask) == 0
    assert sr.ActionKind.PLAY in kinds and sr.ActionKind.WITHDRAW in kinds


def test_final_rewards_schemes() -> None:
    assert final_rewards((6, 2, 0, 0)) == [0.75, 0.25, 0.0, 0.0]
    assert final_rewards((0, 0, 0)) == pytest.approx([1 / 3] * 3)
    assert final_rewards((5, 5, 1), "win") == [0.5, 0.5, 0.0]
    assert final_rewards((5, 5, 2), "score") == [5.0, 5.0, 2.0]
    assert sum(final_rewards((5, 3, 1, 1), "win", zero_sum=True)) == pytest.approx(0.0)
    assert final_rewards((6, 2, 0, 0), zero_sum=True) == [0.5, 0.0, -0.25, -0.25]
    with pytest.raises(sr.ConfigError, match="unknown reward 'gems'"):
        final_rewards((1, 2, 3), "gems")


def test_the_documented_layouts_match_the_code() -> None:
    from pathlib import Path

    import shock_rules.envs._encoding as enc

    fields = layout(sr.GameConfig())
    page = Path(__file__).resolve().parents[2] / "docs" / "envs.md"
    text = page.read_text(encoding="utf-8")
    section = text[text.index("## The observation vector"):text.index("## Actions")]
    rows = re.findall(r"^\| (\w+) \| (\w+) \|", section, re.M)
    table = [(name, size) for name, size in rows if name != "field"]
    kinds = str(len(sr.GameConfig().edition.chest))
    assert [(n, kinds if s == "K" else s) for n, s in table] == [
        (f.name, str(f.size)) for f in fields]
    doc = enc.__doc__ or ""
    documented = re.findall(r"^(\w+)\s{2,}\S", doc, re.M)
    assert [n for n in documented if n in {f.name for f in fields}] == [f.name for f in fields]


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("variant", list(sr.Variant))
def test_the_fast_observation_is_the_views_encoding_over_whole_games(
        players: int, variant: sr.Variant) -> None:
    from shock_rules.envs import action_mask, encode_seat, mask_seat

    for seed in range(3):
        rng = random.Random(seed * 10 + players)
        state = sr.new_game(sr.GameConfig(players=players, variant=variant))
        steps = 0
        while True:
            for seat in range(players):
                v = sr.view(state, seat)
                assert encode_seat(state, seat) == encode(v), (seed, steps, seat)
                assert mask_seat(state, seat) == action_mask(v.legal_actions)
            if sr.is_terminal(state):
                break
            if sr.is_chance(state):
                state = sr.apply(state, sr.sample_chance(state, rng))
            else:
                acts = sr.legal_actions(state)
                # Withdraw now and then, so that out-of-round seats and face-down cards occur.
                stay = [a for a in acts if a.kind is not sr.ActionKind.WITHDRAW]
                state = sr.apply(state, rng.choice(stay if stay and rng.random() < 0.9
                                                   else acts))
            steps += 1
        assert steps > 100


@settings(max_examples=20, deadline=None)
@given(edition=random_editions(), seed=st.integers(0, 2**16))
def test_the_fast_observation_follows_the_edition(edition: sr.Edition, seed: int) -> None:
    from shock_rules.envs import encode_seat

    rng = random.Random(seed)
    state = sr.new_game(sr.GameConfig(players=4, edition=edition))
    for _ in range(150):
        if sr.is_terminal(state):
            break
        state = sr.apply(state, sr.sample_chance(state, rng) if sr.is_chance(state)
                         else rng.choice(sr.legal_actions(state)))
        seat = rng.randrange(4)
        assert encode_seat(state, seat) == encode(sr.view(state, seat))


def test_the_fast_observation_refuses_what_is_not_a_state_and_a_seat() -> None:
    from shock_rules.envs import encode_seat, mask_seat

    state = sr.new_game(sr.GameConfig(players=3))
    for bad in (3, -1, True, "0"):
        with pytest.raises(sr.InvalidArgumentError):
            encode_seat(state, bad)  # type: ignore[arg-type]
        with pytest.raises(sr.InvalidArgumentError):
            mask_seat(state, bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        encode_seat(sr.view(state, 0), 0)  # type: ignore[arg-type]
