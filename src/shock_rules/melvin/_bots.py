"""Bots for Melvin Vs. Kronk and a real-time simulation that orders their actions (M5).

A bot sees only its seat's view and legal actions. In a simulation every seat with a legal
action proposes one with a reaction time drawn from the bot's own seeded generator; the fastest
is applied, then all propose again. A bot under *Mão para trás* or *Olho fechado* reacts more
slowly (M9).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ._cards import Action, Award, Flip, GameConfig, Oculos, Orcolar, Slap, Toalha, gem_value
from ._engine import State, apply, is_chance, legal_actions, new_game, resolve_chance
from ._view import View, view

__all__ = ["Bot", "RandomBot", "ReactionBot", "simulate"]

#: How much slower a bot reacts under each penalty that hampers it (M9).
SLOWDOWN = {"Mao": 1.5, "Olho": 1.3}


@dataclass
class Bot:
    """The base bot: a seeded generator and a mean reaction time in seconds."""

    seed: int = 0
    mean: float = 0.4
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def reaction(self, v: View, seat: int) -> float:
        t = max(0.05, self.rng.gauss(self.mean, self.mean / 4))
        for p in v.penalties[seat]:
            t *= SLOWDOWN.get(p, 1.0)
        return t

    def choose(self, v: View, legal: list[Action]) -> Action | None:
        raise NotImplementedError


def _match(v: View) -> bool:
    """Whether two face-up cards on top of the seats' piles show the same face (R4)."""
    faces = [f for f in v.tops if f is not None]
    return len(faces) != len(set(faces))


class RandomBot(Bot):
    """Any legal action but a wrong slap; one time in twenty, it slaps without a match (or
    acts at random) all the same."""

    def choose(self, v: View, legal: list[Action]) -> Action | None:
        match = _match(v)
        useful = [a for a in legal if not isinstance(a, Slap) or match]
        if self.rng.random() < 0.05:
            return self.rng.choice(legal) if legal else None
        return self.rng.choice(useful) if useful else None


@dataclass
class ReactionBot(Bot):
    """Slaps every match, flips on its turn, keeps the best Gem card and gives the other to the
    seat with the fewest Gem cards, plays *Orcolar* and *Óculos Geek* whenever it can; it
    slaps without a match by mistake with probability ``mistakes`` each time it could."""

    mistakes: float = 0.02

    def choose(self, v: View, legal: list[Action]) -> Action | None:
        seat = v.seat
        assert seat is not None
        by_type: dict[type, list[Action]] = {}
        for a in legal:
            by_type.setdefault(type(a), []).append(a)
        if Slap in by_type and (_match(v) or self.rng.random() < self.mistakes):
            return by_type[Slap][0]
        for kind in (Orcolar, Oculos):
            if kind in by_type:
                return max(by_type[kind], key=lambda a: gem_value(getattr(a, "card", "G1")))
        if Award in by_type:
            def rank(a: Action) -> tuple[int, int]:
                assert isinstance(a, Award)
                fewest = -v.gem_counts[a.give] if a.give is not None else 0
                return (gem_value(a.keep), fewest)
            return max(by_type[Award], key=rank)
        if Flip in by_type:
            return by_type[Flip][0]
        if Toalha in by_type and self.rng.random() < 0.05:
            return max(by_type[Toalha], key=lambda a: v.draw_sizes[getattr(a, "target", 0)])
        # Amuleto Orc is never played: the bot keeps it for its 1 gem (M2).
        return None


def simulate(config: GameConfig, bots: list[Bot], rng: random.Random,
             max_steps: int = 100_000) -> State:
    """Play one game: chance steps from ``rng``, races decided by reaction times (M5)."""
    if len(bots) != config.players:
        raise ValueError(f"{config.players} players need {config.players} bots, not {len(bots)}")
    state = new_game(config)
    for _ in range(max_steps):
        if state.over:
            return state
        if is_chance(state):
            state = resolve_chance(state, rng)
            continue
        offers: list[tuple[float, int, Action]] = []
        for seat, bot in enumerate(bots):
            legal = legal_actions(state, seat)
            if not legal:
                continue
            v = view(state, seat)
            act = bot.choose(v, legal)
            if act is not None:
                offers.append((bot.reaction(v, seat), seat, act))
        if not offers:
            # Nobody wants to act: the seat to move flips (a bot that passes forever would stall).
            legal = [a for a in legal_actions(state) if isinstance(a, (Flip, Award))]
            if not legal:
                legal = legal_actions(state)
            state = apply(state, legal[0])
            continue
        state = apply(state, min(offers)[2])
    raise RuntimeError("simulate did not finish")
