"""Helpers for Melvin Vs. Kronk's tests: positions built from a dealt game."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import attrs

from shock_rules import melvin as mk


def dealt(players: int = 4, dealer: int = 0) -> mk.State:
    """A game just dealt by ``dealer``: the seat at its left is to move."""
    return mk.apply(mk.new_game(mk.GameConfig(players=players)), mk.ChooseDealer(dealer))


def evolve(state: mk.State, **changes: Any) -> mk.State:
    """``state`` with ``changes``, checked by ``check_state`` (a position a test sets up)."""
    new = attrs.evolve(state, **changes)
    mk.check_state(new)
    return new


def known(state: mk.State, piles: dict[int, tuple[int, ...]], *,
          to_move: int | None = -1) -> mk.State:
    """``state`` with the given seats' draw piles made known (top first): their unseen cards go
    back to the pool and the named faces leave it, so the cards stay conserved. ``to_move``
    sets the seat to move (by default the state's, or the next seat with cards if that one has
    none left)."""
    pool = list(state.pool)
    hidden = list(state.hidden)
    known_ = list(state.known)
    for s, faces in piles.items():
        for f in state.known[s]:
            pool[f - 1] += 1
        for f in faces:
            pool[f - 1] -= 1
        hidden[s] = 0
        known_[s] = faces
    # the other seats' unseen cards must match the pool
    rest = [s for s in range(state.players) if s not in piles]
    total = sum(pool)
    for i, s in enumerate(rest):
        hidden[s] = total // len(rest) + (1 if i < total % len(rest) else 0)
    out = attrs.evolve(state, pool=tuple(pool), hidden=tuple(hidden), known=tuple(known_))
    if to_move == -1:
        to_move = out.to_move
        n = out.players
        if to_move is not None and not out.draw_size(to_move):
            to_move = next((s for k in range(1, n + 1) if out.in_game[s := (to_move + k) % n]
                            and out.draw_size(s)), None)
    return evolve(out, to_move=to_move)


def play(state: mk.State, *moves: str) -> mk.State:
    """``state`` after the moves written in notation."""
    for m in moves:
        state = mk.apply(state, mk.parse_action(m))
    return state


def with_special(state: mk.State, seat: int, card: str) -> mk.State:
    """``state`` with ``seat`` holding the special ``card`` (taken from the Gem deck)."""
    gems = list(state.gems)
    gems[seat] = (card,)
    return evolve(state, gem_pool=tuple(g for g in state.gem_pool if g != card),
                  gems=tuple(gems))


def walk(n: int, seed: int, careful: float = 0.9) -> Iterator[mk.State]:
    """Every state of one random game, chance steps sampled; a wrong slap is chosen only in
    one step of ten (with ``careful=0.9``)."""
    rng = random.Random(seed)
    state = mk.new_game(mk.GameConfig(players=n))
    yield state
    while not mk.is_terminal(state):
        if mk.is_chance(state):
            state = mk.apply(state, mk.sample_chance(state, rng))
        else:
            acts = mk.legal_actions(state)
            useful = [a for a in acts if not isinstance(a, mk.Slap) or mk.match_shows(state)]
            state = mk.apply(state, rng.choice(useful if rng.random() < careful else acts))
        yield state


def texts(events: tuple[mk.Event, ...]) -> list[str]:
    """The events in words."""
    return [mk.describe_event(e) for e in events]
