"""What the conformance suite needs of each game beyond the contract: random games walked
through the contract, and a state that differs from a given one only in what a seat may not
know (for the views' test)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs

import shock_rules as sr
from shock_rules import games
from shock_rules import melvin as mk
from shock_rules.games import AnyGame

#: The games of the registry, for ``pytest.mark.parametrize``.
NAMES = games.names()


def walk(game: AnyGame, players: int, seed: int) -> Iterator[Any]:
    """Every state of one game played at random through the contract alone: chance drawn
    with ``sample_chance``, each decision a legal action of a seat that may act."""
    rng = random.Random(seed)
    state = game.new_game(game.config(players=players))
    yield state
    while not game.is_terminal(state):
        if game.is_chance(state):
            action = game.sample_chance(state, rng)
        else:
            seat = rng.choice(game.seats_to_act(state))
            legal = game.legal_actions(state, seat)
            # A real-time game's random players rarely slap with no match (else games run
            # long on penalties): any action but a useless one, nine times in ten.
            useful = [a for a in legal if _useful(game, state, a)]
            action = rng.choice(useful if useful and rng.random() < 0.9 else legal)
        state = game.apply(state, action)
        yield state


def _useful(game: AnyGame, state: Any, action: Any) -> bool:
    if game.name == "melvin":
        return not isinstance(action, mk.Slap) or mk.match_shows(state)
    return True


def _melvin_redraw(state: mk.State, seat: int, rng: random.Random) -> mk.State:
    """``state`` with everything ``seat`` may not see drawn again: the faces of every card
    face down or buried in a discard pile, and the Gem cards of the deck and of the other
    seats (and a slap's drawn cards, unless the seat saw them), keeping every size."""
    over = state.end_reason is not None
    # Versus cards: the unseen pool, the known parts of draw piles, the discards under the tops.
    faces = [f + 1 for f, c in enumerate(state.pool) for _ in range(c)]
    faces += [f for k in state.known for f in k]
    faces += [f for d in state.discards for f, _ in d[:-1]]
    rng.shuffle(faces)
    hidden_total = sum(state.hidden)
    pool = [0] * len(state.pool)
    for f in faces[:hidden_total]:
        pool[f - 1] += 1
    rest = iter(faces[hidden_total:])
    known = tuple(tuple(next(rest) for _ in k) for k in state.known)
    discards = tuple(tuple((next(rest), c) for _, c in d[:-1]) + d[-1:] for d in state.discards)
    # Gem cards the seat may not see.
    aw = state.award
    sees_drawn = aw is not None and seat in (aw.winner, aw.taker)
    peek = state.in_game[seat] and "Oculos" in state.gems[seat]
    hidden_gems = [s for s in range(state.players)
                   if s != seat and not over and not (peek and s in state.oculos)]
    cards = [g for s in hidden_gems for g in state.gems[s]] + list(state.gem_pool)
    cards += list(state.gem_top)
    if aw is not None and not sees_drawn:
        cards += list(aw.drawn)
    rng.shuffle(cards)
    deal = iter(cards)
    gems = tuple(tuple(next(deal) for _ in g) if s in hidden_gems else g
                 for s, g in enumerate(state.gems))
    pool_gems = tuple(sorted(next(deal) for _ in state.gem_pool))
    top = tuple(next(deal) for _ in state.gem_top)
    award = aw if aw is None or sees_drawn else attrs.evolve(
        aw, drawn=tuple(next(deal) for _ in aw.drawn))
    return attrs.evolve(state, pool=tuple(pool), known=known, discards=discards, gems=gems,
                        gem_pool=pool_gems, gem_top=top, award=award)


def _shock_redraw(state: sr.State, seat: int, rng: random.Random) -> sr.State:
    return sr.determinize(sr.view(state, seat), rng)


#: Per game: a state that differs from ``state`` only in what ``seat`` may not know.
REDRAW: dict[str, Callable[[Any, int, random.Random], Any]] = {
    "shock": _shock_redraw, "melvin": _melvin_redraw,
}
