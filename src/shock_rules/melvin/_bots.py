"""Bots for Melvin Vs. Kronk: they decide from their seat's :class:`View` only, and say how
fast they react (M5).

A bot has the package's bot interface (:class:`shock_rules.bots.Bot`): ``choose(view, rng)``
returns one of ``view.legal_actions``, or ``None`` to wait (in a real-time game a seat may let
the others act first), and ``reaction(view, rng)`` returns the seconds it takes to act. The
game loop of :func:`shock_rules.bots.play_game` asks every seat that may act, and applies the
action of the fastest; each seat draws from a generator of its own, so a race depends only on
the seed (M5). A bot under *Mão para trás* or *Olho fechado* reacts more slowly (M9).

>>> import random
>>> from shock_rules import melvin
>>> from shock_rules.bots import play_game
>>> bots = [melvin.ReactionBot(), melvin.ReactionBot(0.3), melvin.RandomBot()]
>>> end = play_game(melvin.GameConfig(players=3), bots, random.Random(1))
>>> end.end_reason is not None
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from shock_rules._errors import InvalidArgumentError, check_number, quoted

from ._cards import Action, Award, Flip, Oculos, Orcolar, Slap, Toalha, gem_value
from ._view import View

__all__ = ["BOTS", "RandomBot", "ReactionBot", "make_bot"]

#: How much slower a bot reacts under each penalty that hampers it (M9).
SLOWDOWN: Final = {"Mao": 1.5, "Olho": 1.3}
#: The fastest reaction any bot has, in seconds.
FASTEST: Final = 0.05
#: The slowest mean reaction a bot may be given, in seconds.
MAX_MEAN: Final = 10.0


def _check_view(view: object, rng: object) -> View:
    if type(view) is not View:
        raise InvalidArgumentError(
            f"invalid view {quoted(view)}: a Melvin bot decides on a melvin.View")
    if not isinstance(rng, random.Random):
        raise InvalidArgumentError(f"invalid rng {quoted(rng)}: expected a random.Random")
    return view


class _ReactingBot:
    """What both bots share: a mean reaction time and a rate of wrong slaps."""

    name = ""

    def __init__(self, mean: float = 0.4, mistakes: float = 0.02) -> None:
        #: The mean reaction time in seconds (above 0, at most :data:`MAX_MEAN`).
        self.mean = check_number("mean", mean, most=MAX_MEAN, positive=True)
        #: The chance of slapping with no match, each time the bot could.
        self.mistakes = check_number("mistakes", mistakes, 0.0, 1.0)

    def reaction(self, view: View, rng: random.Random) -> float:
        """Return the seconds this bot takes to act on ``view``: normal around :attr:`mean`,
        slower under *Mão para trás* or *Olho fechado* (M9)."""
        _check_view(view, rng)
        t = max(FASTEST, rng.gauss(self.mean, self.mean / 4))
        if view.seat is not None:
            for p in view.penalties[view.seat]:
                t *= SLOWDOWN.get(p, 1.0)
        return t

    def __repr__(self) -> str:
        return f"{type(self).__name__}(mean={self.mean:g}, mistakes={self.mistakes:g})"


class RandomBot(_ReactingBot):
    """Any legal action but a slap with no match; with probability ``mistakes`` (default one
    time in twenty) any legal action at all."""

    name = "random"

    def __init__(self, mean: float = 0.4, mistakes: float = 0.05) -> None:
        super().__init__(mean, mistakes)

    def choose(self, view: View, rng: random.Random) -> Action | None:
        """Return a random legal action, or ``None`` (wait) when only a wrong slap is left."""
        legal = _check_view(view, rng).legal_actions
        useful = [a for a in legal if view.match_shows or not isinstance(a, Slap)]
        if legal and rng.random() < self.mistakes:
            return rng.choice(legal)
        return rng.choice(useful) if useful else None


class ReactionBot(_ReactingBot):
    """Slaps every match, turns up its card on its turn, keeps its best Gem card and gives the
    other to the seat with the fewest Gem cards, plays *Orcolar* and *Óculos Geek* whenever it
    can and *Toalha* now and then on the biggest pile; it slaps with no match by mistake with
    probability ``mistakes`` each time it could. It keeps *Amuleto Orc* for its 1 gem (M2)."""

    name = "reaction"

    def choose(self, view: View, rng: random.Random) -> Action | None:
        """Return the bot's action on ``view``, or ``None`` to wait."""
        legal = _check_view(view, rng).legal_actions
        by_type: dict[type, list[Action]] = {}
        for a in legal:
            by_type.setdefault(type(a), []).append(a)
        if Slap in by_type and (view.match_shows or rng.random() < self.mistakes):
            return by_type[Slap][0]
        if Orcolar in by_type:
            return by_type[Orcolar][0]
        oculos = [a for a in legal if isinstance(a, Oculos)]
        if oculos:
            return max(oculos, key=lambda a: gem_value(a.card))
        awards = [a for a in legal if isinstance(a, Award)]
        if awards:
            return max(awards, key=lambda a: (gem_value(a.keep),
                                              0 if a.give is None else -view.gem_counts[a.give]))
        if Flip in by_type:
            return by_type[Flip][0]
        thefts = [a for a in legal if isinstance(a, Toalha)]
        if thefts and rng.random() < 0.05:
            return max(thefts, key=lambda a: view.draw_sizes[a.target])
        return None


#: The bots by name, as ``make_bot`` and the command line know them.
BOTS: Final[dict[str, Callable[..., _ReactingBot]]] = {
    "random": RandomBot,
    "reaction": ReactionBot,
}


def make_bot(name: str) -> RandomBot | ReactionBot:
    """Return a new bot of the registered ``name`` (``"random"`` or ``"reaction"``), with an
    optional mean reaction time in seconds after a colon (``"reaction:0.3"``; above 0, at most
    10); raise :class:`~shock_rules.InvalidArgumentError` for anything else."""
    if not isinstance(name, str):
        raise InvalidArgumentError(f"invalid bot {quoted(name)}: expected a name such as"
                                   " 'reaction'")
    base, colon, mean = name.strip().lower().partition(":")
    if base == "random":
        make: type[RandomBot] | type[ReactionBot] = RandomBot
    elif base == "reaction":
        make = ReactionBot
    else:
        raise InvalidArgumentError(f"unknown bot {quoted(name)}: expected one of"
                                   f" {', '.join(BOTS)}, with an optional mean reaction time"
                                   " (reaction:0.3)")
    if not colon:
        return make()
    try:
        seconds = float(mean)
    except ValueError:
        seconds = float("nan")
    if not 0.0 < seconds <= MAX_MEAN:  # also refuses nan and inf
        raise InvalidArgumentError(
            f"invalid reaction time {quoted(mean, 20)} in {quoted(name, 30)}: expected seconds"
            f" above 0 and at most {MAX_MEAN:g}")
    return make(mean=seconds)

