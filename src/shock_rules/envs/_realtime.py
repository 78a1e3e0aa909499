"""One step of Melvin Vs. Kronk in real time, for the environments (pure Python).

At a step every seat offers one decision or waits. The offers race as
:func:`shock_rules.bots.play_game` races bots' offers (M5: a race goes to whoever acts first):

- each seat that offers a decision gets a reaction time, drawn in seat order from the
  environment's own generator the way the bots draw theirs
  (:meth:`shock_rules.melvin.ReactionBot.reaction` with its default mean: normal around
  :data:`REACTION_MEAN` seconds with a standard deviation of a quarter of it, at least 0.05 s,
  times 1.5 under *Mão para trás* and 1.3 under *Olho fechado*, M9); every seat is otherwise
  equally fast;
- the offers are applied fastest first (a tie to the lower seat, as in ``play_game``), each
  followed at once by the chance steps it leads to (MK-ACT-1: chance never races);
- an offer that is no longer legal when its turn comes -- a slap that lost the race, a flip
  after the turn moved, anything after the game ended -- is skipped: in real time the later
  hand simply comes too late. An offer is applied to the position it meets, which may not be
  the one its seat saw (a slap that lands after another seat's card made a match wins it).

>>> import random
>>> from shock_rules import melvin
>>> chance, clock = random.Random(1), random.Random(2)
>>> s = settle(melvin.new_game(melvin.GameConfig(players=3)), chance, [])
>>> views = [melvin.view(s, seat) for seat in range(3)]
>>> step = race(s, {0: melvin.Slap(0), 1: melvin.Slap(1)}, views, clock, chance)
>>> step.results
('applied', 'applied', 'waited')
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final

import attrs

from .._errors import IllegalActionError
from ..melvin import (
    Action,
    Event,
    ReactionBot,
    State,
    View,
    apply,
    sample_chance,
)

__all__ = ["APPLIED", "REACTION_MEAN", "SKIPPED", "WAITED", "Race", "race", "settle"]

#: What became of a seat's offer at a step.
WAITED: Final = "waited"
APPLIED: Final = "applied"
SKIPPED: Final = "skipped"

#: The mean reaction time of every seat, in seconds (the bots' default).
REACTION_MEAN: Final = 0.4
_HAND: Final = ReactionBot(mean=REACTION_MEAN)


@attrs.frozen
class Race:
    """A step raced: the state it reached, what became of each seat's offer (``"waited"``,
    ``"applied"`` or ``"skipped"``), each offering seat's reaction time, and every event of the
    step in order, chance steps' included (secrets too: show them with
    :func:`~shock_rules.melvin.visible_events`)."""

    state: State
    results: tuple[str, ...]
    reactions: Mapping[int, float]
    events: tuple[Event, ...]


def settle(state: State, chance: random.Random, events: list[Event]) -> State:
    """Return the state once chance has acted with ``chance`` until a seat may act or the
    game is over, appending the events of its steps to ``events``."""
    while state.pending is not None:
        state = apply(state, sample_chance(state, chance))
        events += state.events
    return state


def race(state: State, offers: Mapping[int, Action], views: Sequence[View],
         clock: random.Random, chance: random.Random) -> Race:
    """Return the step where each seat of ``offers`` offers its action (the other seats wait):
    reaction times drawn with ``clock`` from the seats' ``views`` (the positions they acted
    on), the fastest applied first, chance resolved with ``chance`` after each (see the
    module). The offers must be legal in those views (the caller checks them) and each
    be its seat's."""
    n = state.config.players
    times = {seat: _HAND.reaction(views[seat], clock) for seat in sorted(offers)}
    results = [WAITED] * n
    events: list[Event] = []
    for seat in sorted(times, key=lambda s: (times[s], s)):
        try:  # apply's gate is the check: its legal actions are worked out once
            state = apply(state, offers[seat], seat)
        except IllegalActionError:  # too late: the race was lost, the turn moved, it ended
            results[seat] = SKIPPED
            continue
        events += state.events
        state = settle(state, chance, events)
        results[seat] = APPLIED
    return Race(state, tuple(results), times, tuple(events))
