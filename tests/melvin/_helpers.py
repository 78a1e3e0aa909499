"""Helpers for Melvin Vs. Kronk's tests: positions built from a dealt game."""

from __future__ import annotations

from dataclasses import replace

from shock_rules import melvin as mk


def dealt(players: int = 4, dealer: int = 0) -> mk.State:
    """A game just dealt by ``dealer``."""
    return mk.apply(mk.new_game(mk.GameConfig(players=players)), mk.ChooseDealer(dealer))


def known(state: mk.State, piles: dict[int, tuple[int, ...]]) -> mk.State:
    """``state`` with the given seats' draw piles made known (top first): their unseen cards go
    back to the pool and the named faces leave it, so the cards stay conserved."""
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
    return replace(state, pool=tuple(pool), hidden=tuple(hidden), known=tuple(known_))


def play(state: mk.State, *moves: str) -> mk.State:
    for m in moves:
        state = mk.apply(state, mk.parse_action(m))
    return state
