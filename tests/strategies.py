"""Hypothesis strategies for shock_rules: configurations, editions and whole games.

Games are drawn choice by choice from Hypothesis (``st.data()``): every player decision *and*
every chance outcome is an index drawn into :func:`~shock_rules.legal_actions` or
:func:`~shock_rules.chance_outcomes`, so a failing game shrinks towards a short, simple
counterexample (index 0 everywhere: the lowest card dealt, the first legal play, no withdrawal).

Withdrawing ends a seat's round, so a game where every decision were uniform would rarely get
deep into a round. A player in the round therefore first draws whether to withdraw at all, which
is true only once in :data:`WITHDRAW_ODDS` draws (and shrinks to false).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, NamedTuple

from hypothesis import strategies as st

from shock_rules import (
    Action,
    ActionKind,
    Card,
    Edition,
    GameConfig,
    Phase,
    State,
    Status,
    Variant,
    apply,
    chance_outcomes,
    is_chance,
    is_terminal,
    legal_actions,
    new_game,
    sample_chance,
)

__all__ = [
    "WITHDRAW_ODDS",
    "Step",
    "configs",
    "draw_action",
    "editions",
    "game_steps",
    "play_game",
    "positions",
    "random_editions",
    "random_step",
]

#: A seat in the round withdraws on about one decision in this many (see the module docstring).
WITHDRAW_ODDS = 24

_SEVENS = tuple(Card.parse(t) for t in ("7H", "7S", "7D"))
_TYPE_NAMES = ("jellyfish", "bee", "spider")
_ALL_CARDS = tuple(Card.from_index(i) for i in range(44))


class Step(NamedTuple):
    """One step of a game: the state, the action applied to it, and the resulting state."""

    state: State
    action: Action
    next: State


@st.composite
def random_editions(draw: st.DrawFn) -> Edition:
    """Return a random valid edition (K4): gem icons on random cards (0-3 each), the three
    poison types in any order over the three poison 7s (K30; the poison and potion cards
    themselves are fixed, K1), a chest of zero to six kinds (so small chests that run dry, K23),
    and a supply of one to three gem colours (small supplies go below zero, K29)."""
    types = _TYPE_NAMES
    pairing = draw(st.permutations(_TYPE_NAMES), label="types of 7H, 7S, 7D")
    poisons = {str(c): t for c, t in zip(_SEVENS, pairing, strict=True)}
    potions = [Card.parse("5C"), Card.parse("7C")]
    icons = draw(
        st.dictionaries(st.sampled_from(_ALL_CARDS), st.integers(0, 3), max_size=20),
        label="gem icons",
    )
    gem_card = st.fixed_dictionaries(
        {"kind": st.just("gem"), "large": st.integers(0, 4), "small": st.integers(0, 3),
         "count": st.integers(1, 6)}
    )
    poison_card = st.fixed_dictionaries(
        {"kind": st.just("poison"), "poison": st.sampled_from(types),
         "large": st.integers(0, 2), "count": st.integers(1, 3)}
    )
    chest = draw(st.lists(st.one_of(gem_card, poison_card), max_size=6), label="chest")
    gems = draw(
        st.lists(
            st.tuples(st.integers(1, 10), st.integers(0, 60)), min_size=1, max_size=3
        ).filter(lambda g: sum(v * n for v, n in g) > 0),
        label="supply",
    )
    data: dict[str, Any] = {
        "edition": {"name": "random", "provisional": True},
        "gems": [{"name": f"g{i}", "value": v, "count": n} for i, (v, n) in enumerate(gems)],
        "number_cards": {
            "poison_types": list(types),
            "poisons": poisons,
            "potions": [str(c) for c in potions],
            "gem_icons": {str(c): n for c, n in icons.items()},
        },
        "chest": chest,
    }
    return Edition.from_dict(data, source="'hypothesis'")


def editions() -> st.SearchStrategy[Edition]:
    """Return editions: the default one (what a failure shrinks to) or a random valid one."""
    return st.one_of(st.just(Edition.default()), random_editions())


@st.composite
def configs(
    draw: st.DrawFn,
    variant: Variant | None = None,
    players: int | None = None,
    edition: st.SearchStrategy[Edition] | None = None,
) -> GameConfig:
    """Return a game configuration: 3-5 players, either variant (unless ``variant`` is given),
    a given or a chance-chosen first leader, and an edition from ``edition`` (default:
    :func:`editions`)."""
    n = players if players is not None else draw(st.integers(3, 5), label="players")
    v = variant if variant is not None else draw(st.sampled_from(Variant), label="variant")
    leader = draw(st.none() | st.integers(0, n - 1), label="first leader")
    ed = draw(edition if edition is not None else editions(), label="edition")
    return GameConfig(players=n, variant=v, edition=ed, first_leader=leader)


_WITHDRAW_FLAG = st.sampled_from((False,) * (WITHDRAW_ODDS - 1) + (True,))


def draw_action(data: st.DataObject, state: State) -> Action:
    """Return an action for ``state`` drawn from ``data``: a chance outcome at a chance
    decision, else a legal decision (withdrawing only after a rare ``withdraw?`` draw)."""
    if is_chance(state):
        outcomes = chance_outcomes(state)
        i = data.draw(st.integers(0, len(outcomes) - 1), label=state.phase.name.lower())
        return outcomes[i][0]
    legal = legal_actions(state)
    if state.phase is Phase.PLAY and state.status[state.actor] is Status.IN:
        withdraw = data.draw(_WITHDRAW_FLAG, label="withdraw?")
        kind = ActionKind.WITHDRAW if withdraw else ActionKind.PLAY
        legal = tuple(a for a in legal if a.kind is kind)
    i = data.draw(st.integers(0, len(legal) - 1), label=f"seat {state.actor}")
    return legal[i]


def game_steps(data: st.DataObject, config: GameConfig) -> Iterator[Step]:
    """Yield the steps of a whole game whose every choice is drawn from ``data``."""
    state = new_game(config)
    while not is_terminal(state):
        action = draw_action(data, state)
        nxt = apply(state, action)
        yield Step(state, action, nxt)
        state = nxt


def play_game(data: st.DataObject, config: GameConfig) -> list[Step]:
    """Return all the steps of a whole game drawn from ``data``."""
    return list(game_steps(data, config))


def random_step(s: State, rng: random.Random, withdraw_odds: int) -> State:
    """Apply one random action; a seat in the round withdraws once in ``withdraw_odds`` turns,
    so that games reach deep into a round but still show face-down cards."""
    if is_chance(s):
        return apply(s, sample_chance(s, rng))
    acts = legal_actions(s)
    stay = [a for a in acts if a.kind is not ActionKind.WITHDRAW]
    if stay and rng.randrange(withdraw_odds):
        return apply(s, rng.choice(stay))
    return apply(s, rng.choice(acts))


@st.composite
def positions(draw: st.DrawFn, variant: Variant) -> State:
    """A state reached by seeded random play from a new game (cheap to draw and shrink)."""
    players = draw(st.sampled_from([3, 4, 5]), label="players")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    steps = draw(st.integers(0, 420), label="steps")
    odds = draw(st.sampled_from([2, 8, 30]), label="withdraw odds")
    rng = random.Random(seed)
    s = new_game(GameConfig(players=players, variant=variant))
    for _ in range(steps):
        if is_terminal(s):
            break
        s = random_step(s, rng, odds)
    return s
