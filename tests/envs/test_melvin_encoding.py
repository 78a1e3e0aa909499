"""Melvin Vs. Kronk's view encoding and decision indexes for the environments (no framework).

Clauses of docs/melvin are named in the tests' comments, not with ``rule`` markers: those
belong to tests/melvin, the folder the Melvin traceability report reads.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from shock_rules import ConfigError, InvalidArgumentError
from shock_rules import melvin as mk
from shock_rules.envs import (
    MELVIN_WAIT,
    NUM_MELVIN_ACTIONS,
    EncodingError,
    encode_melvin,
    final_rewards,
    melvin_action_index,
    melvin_action_mask,
    melvin_action_of,
    melvin_layout,
    melvin_observation_size,
)


def positions(players: int, seed: int) -> Iterator[mk.State]:
    """Yield every state of a random game where the players act (chance steps skipped)."""
    actions: list[mk.Action] = []
    mk.random_playout(mk.GameConfig(players=players), random.Random(seed), actions)
    state = mk.new_game(mk.GameConfig(players=players))
    for a in actions:
        state = mk.apply(state, a)
        if not mk.is_chance(state):
            yield state


GAMES = [(n, seed) for n in (3, 4, 5, 6) for seed in (1, 2)]


def test_the_layout_is_contiguous_and_sized() -> None:
    config = mk.GameConfig()
    fields = melvin_layout(config)
    assert fields[0].offset == 0
    for a, b in itertools.pairwise(fields):
        assert a.stop == b.offset
    assert melvin_observation_size(config) == fields[-1].stop == 233
    assert len({f.name for f in fields}) == len(fields)
    assert NUM_MELVIN_ACTIONS == 87 and MELVIN_WAIT == 0


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_mask_and_indexes_agree_with_legal_actions_over_whole_games(players: int,
                                                                    seed: int) -> None:
    # MK-ACT-1: each seat's own legal actions, plus wait for every seat until the end.
    seen: set[int] = set()
    for state in positions(players, seed):
        for seat in range(players):
            view = mk.view(state, seat)
            legal = mk.legal_actions(state, seat)
            indexes = [melvin_action_index(a, players) for a in legal]
            assert len(set(indexes)) == len(indexes)  # one index per action
            expected = set(indexes) | (set() if state.over else {MELVIN_WAIT})
            mask = melvin_action_mask(view)
            assert len(mask) == NUM_MELVIN_ACTIONS
            assert {i for i, bit in enumerate(mask) if bit} == expected
            for a, i in zip(legal, indexes, strict=True):
                assert melvin_action_of(i, seat, players) == a
            if not state.in_game[seat] and not state.over:
                assert mask.index(1) == MELVIN_WAIT and sum(mask) == 1  # MK-ELIM-1
            vector = encode_melvin(view)
            assert len(vector) == melvin_observation_size(state.config)
            for f in melvin_layout(state.config):
                assert all(f.low <= x <= f.high for x in vector[f.offset:f.stop]), f.name
            seen.update(indexes)
    assert {1, 2} <= seen  # flips and slaps at least; awards in most games
    assert melvin_action_of(MELVIN_WAIT, 0, players) is None


def _field(vector: list[float], config: mk.GameConfig, name: str) -> list[float]:
    f = next(f for f in melvin_layout(config) if f.name == name)
    return vector[f.offset:f.stop]


def test_fields_hold_the_views_facts_relative_to_the_viewer() -> None:
    for state in itertools.islice(positions(5, 4), 0, None, 9):
        for seat in range(5):
            view = mk.view(state, seat)
            v = encode_melvin(view)
            config = state.config
            order = [(seat + r) % 5 for r in range(5)]  # slot r: r places clockwise
            assert _field(v, config, "draw_sizes")[:5] == [view.draw_sizes[s] for s in order]
            assert _field(v, config, "in_game")[:5] == [float(view.in_game[s]) for s in order]
            assert _field(v, config, "present") == [1.0] * 5 + [0.0]
            tops = _field(v, config, "tops")
            for r, s in enumerate(order):
                block = tops[12 * r:12 * r + 12]
                top = view.tops[s]
                assert block == [float(top == f + 1) for f in range(12)]
            to_move = _field(v, config, "to_move")
            assert to_move == [float(view.to_move == s) for s in order] + [0.0]
            assert _field(v, config, "seat") == [float(s == seat) for s in range(6)]
            assert _field(v, config, "match") == [float(view.match_shows)]
            own = _field(v, config, "gems")[:7]
            assert sum(own) == view.gem_counts[seat]


def _swap_kinds(cards: tuple[str, ...]) -> tuple[str, ...]:
    """Other Gem cards, as many: each card replaced by the next kind."""
    kinds = ("G1", "G2", "G3", "Oculos", "Toalha", "Orcolar", "Amuleto")
    return tuple(kinds[(kinds.index(c) + 1) % len(kinds)] for c in cards)


def _hidden_variant(state: mk.State, seat: int) -> mk.State:
    """``state`` with everything ``seat`` may not see changed (MK-INFO-1): the faces and
    order of the known draw-pile parts, the unseen pool's faces, the Gem and Penalty decks,
    the other seats' Gem cards it may not see, the drawn Gem cards unless it won or takes
    them. Sizes stay: they are public."""
    view = mk.view(state, seat)
    gems = tuple(g if view.gems[s] is not None else _swap_kinds(g)
                 for s, g in enumerate(state.gems))
    aw = state.award
    if aw is not None and view.award_drawn is None:
        aw = attrs.evolve(aw, drawn=_swap_kinds(aw.drawn))
    return attrs.evolve(
        state, pool=tuple(reversed(state.pool)),
        known=tuple(tuple(13 - f for f in reversed(k)) for k in state.known),
        gem_top=_swap_kinds(state.gem_top), gem_pool=_swap_kinds(state.gem_pool),
        penalty_deck=("Mao",) * len(state.penalty_deck), gems=gems, award=aw)


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_the_vector_never_changes_when_only_hidden_information_changes(players: int,
                                                                        seed: int) -> None:
    changed = 0
    for state in itertools.islice(positions(players, seed), 0, None, 3):
        for seat in range(players):
            other = _hidden_variant(state, seat)
            changed += other.gems != state.gems or other.known != state.known
            assert encode_melvin(mk.view(other, seat)) == encode_melvin(mk.view(state, seat))
            assert melvin_action_mask(mk.view(other, seat)) == melvin_action_mask(
                mk.view(state, seat))
    assert changed  # the variants did hide something


def test_the_vector_shows_what_the_seat_may_see() -> None:
    # The check above is not vacuous: the drawn cards a seat takes (M30) and its own Gem
    # cards (M14) are in its vector.
    state = next(s for s in positions(4, 3) if s.award is not None)
    aw = state.award
    assert aw is not None
    other = attrs.evolve(state, award=attrs.evolve(aw, drawn=_swap_kinds(aw.drawn)))
    assert encode_melvin(mk.view(other, aw.taker)) != encode_melvin(mk.view(state, aw.taker))
    later = next(s for s in positions(4, 3) if any(s.gems))
    holder = next(s for s in range(4) if later.gems[s])
    swapped = attrs.evolve(later, gems=tuple(_swap_kinds(g) if s == holder else g
                                             for s, g in enumerate(later.gems)))
    assert encode_melvin(mk.view(swapped, holder)) != encode_melvin(mk.view(later, holder))


def test_bad_indexes_and_actions_are_refused() -> None:
    for bad in (True, 1.0, "1", None, -1, NUM_MELVIN_ACTIONS):
        with pytest.raises(EncodingError, match="invalid action index"):
            melvin_action_of(bad, 0, 4)  # type: ignore[arg-type]
    with pytest.raises(EncodingError, match=r"seat \+4"):
        melvin_action_of(50, 0, 4)  # toalha +4: a game of 4 has seats up to +3
    with pytest.raises(InvalidArgumentError):
        melvin_action_of(1, 4, 4)
    with pytest.raises(InvalidArgumentError):
        melvin_action_of(1, 0, 7)
    with pytest.raises(EncodingError, match="chance outcome"):
        melvin_action_index(mk.Reveal(3), 4)
    with pytest.raises(EncodingError, match="not another seat"):
        melvin_action_index(mk.Toalha(1, target=1), 4)
    with pytest.raises(EncodingError, match="seats 0-3"):
        melvin_action_index(mk.Slap(5), 4)
    with pytest.raises(InvalidArgumentError):
        melvin_action_index("0 slap", 4)  # type: ignore[arg-type]
    state = mk.new_game(mk.GameConfig(players=3))
    with pytest.raises(EncodingError, match="spectator"):
        encode_melvin(mk.spectator_view(state))
    with pytest.raises(InvalidArgumentError):
        encode_melvin(state)  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        melvin_layout(4)  # type: ignore[arg-type]


def test_every_index_names_one_action_and_back() -> None:
    for players in (3, 6):
        for seat in range(players):
            for i in range(NUM_MELVIN_ACTIONS):
                try:
                    action = melvin_action_of(i, seat, players)
                except EncodingError:
                    continue  # a target past the players
                if action is not None:
                    assert melvin_action_index(action, players) == i
                    assert action.actor == seat


def test_final_rewards_take_the_games_winners() -> None:
    # MK-END-2: an eliminated seat's gems count in its score, but it cannot win.
    assert final_rewards((5, 3, 1), "win", winners={1}) == [0.0, 1.0, 0.0]
    assert final_rewards((5, 3, 3), "win", winners=(1, 2)) == [0.0, 0.5, 0.5]
    assert final_rewards((6, 2, 0, 0), winners={1}) == [0.75, 0.25, 0.0, 0.0]  # share: scores
    for bad in (set(), {3}, "1", [True]):
        with pytest.raises(InvalidArgumentError, match="invalid winners"):
            final_rewards((1, 2, 3), "win", winners=bad)  # type: ignore[arg-type]


def test_the_documented_layout_matches_the_code() -> None:
    import shock_rules.envs._melvin as enc

    fields = melvin_layout(mk.GameConfig())
    page = Path(__file__).resolve().parents[2] / "docs" / "envs.md"
    text = page.read_text(encoding="utf-8")
    section = text[text.index("### The Melvin observation vector"):
                   text.index("### Melvin actions")]
    rows = re.findall(r"^\| (\w+) \| (\w+) \|", section, re.M)
    assert [(n, s) for n, s in rows if n != "field"] == [(f.name, str(f.size)) for f in fields]
    documented = re.findall(r"^(\w+)\s{2,}\S", enc.__doc__ or "", re.M)
    assert [n for n in documented if n in {f.name for f in fields}] == [f.name for f in fields]
