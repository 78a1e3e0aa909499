"""Races in a real-time game, settled fairly: the order in which a host applies the actions
that arrive while a race is on, lag compensation, round trips and a rate limit on claims.

Everything here is pure bookkeeping over times the host gives it (its own clock, in seconds):
no clock is read, so a test states exact outcomes, and a table's record stays an ordinary
sequence of legal actions (the judge only chooses the order in which the host hands actions
to :meth:`Table.act <shock_rules.protocol.Table.act>`, which judges each against the state it
meets).

The policy (see the Protocol page, *Real time*) follows lag compensation as Valve's Source
engine does it for hits: the host keeps a short history of states (immutable, so nearly free)
and judges an input against the view its sender saw, within a bounded window, so that a slower
connection does not lose a race it won at the table. Here a race is a *contested* state (Melvin:
a match shows, M5), and the actions arriving while it is on are applied by each seat's reaction
time, measured from when its view showed the race, less its round trip (capped by the window),
instead of by arrival.
"""

from __future__ import annotations

import collections
import math
import secrets
import statistics
from collections.abc import Callable
from typing import Any, Final

import attrs

from .._errors import InvalidArgumentError, quoted
from ..games import AnyGame
from ._table import HISTORY, Table

__all__ = [
    "MAX_WINDOW", "POLICIES", "Arrival", "ClaimLimit", "FairnessPolicy", "RaceJudge",
    "RoundTrip",
]

#: The policies a host may settle races by: by reaction times less each seat's (capped) round
#: trip, or by arrival alone.
POLICIES: Final = ("compensated", "arrival")
#: The largest window a policy may have, in seconds: beyond it, compensation would let a seat
#: claiming a slow connection win races it lost by far.
MAX_WINDOW: Final = 1.0


def _check_policy(instance: object, attribute: object, value: object) -> None:
    if value not in POLICIES:
        raise InvalidArgumentError(f"invalid race policy {quoted(value)}: expected"
                                   f" {' or '.join(POLICIES)}")


def _check_window(instance: object, attribute: object, value: object) -> None:
    if (not isinstance(value, int | float) or isinstance(value, bool)
            or not math.isfinite(value) or not 0 <= value <= MAX_WINDOW):
        raise InvalidArgumentError(f"invalid race window {quoted(value)}: expected seconds"
                                   f" from 0 to {MAX_WINDOW:g}")


@attrs.frozen
class FairnessPolicy:
    """How a host settles the races of a real-time game.

    ``policy`` is ``"compensated"`` (the default: by each seat's reaction time, measured from
    when its view showed the race, less its round trip capped by ``window``) or ``"arrival"``
    (plain arrival order, nothing held). ``window`` (seconds, default 0.25) bounds both the
    compensation a seat may get and how old a view an action may be judged against.

    >>> FairnessPolicy()
    FairnessPolicy(policy='compensated', window=0.25)
    """

    #: ``"compensated"`` or ``"arrival"``.
    policy: str = attrs.field(default="compensated", validator=_check_policy)
    #: The window, in seconds (0 to :data:`MAX_WINDOW`).
    window: float = attrs.field(default=0.25, validator=_check_window)

    @property
    def compensated(self) -> bool:
        """Whether races are settled by compensated reaction times."""
        return self.policy == "compensated"


@attrs.frozen
class Arrival:
    """An action as it arrived at the host: its ``seat``, the ``action``, the ``step`` of the
    view it was decided on as the judge honours it (``None``: judged on the state it meets,
    alone), its arrival time ``at``, its place in the arrival order, the sender's round trip
    then, and the host's handle for the answer (``reply``: its connection, say)."""

    seat: int
    action: Any
    step: int | None
    at: float
    order: int
    rtt: float = 0.0
    reply: object = attrs.field(default=None, eq=False, repr=False)


class RaceJudge:
    """The order in which a host applies a real-time game's actions (:meth:`next`).

    The host tells the judge when it showed each seat the view of each step (:meth:`shown`; a
    bot's view is shown when the state changes) and hands it every action as it arrives
    (:meth:`arrive`, with the sender's round trip, :class:`RoundTrip`). While the table's state
    is not contested, or with the ``"arrival"`` policy, :meth:`next` gives the actions back in
    arrival order at once. While a race is on (``game.contested``), each action's reaction time
    is ``r = at - shown - lag``: ``shown`` is when its seat's view first showed this race (the
    earliest step of the run of contested states the table is in), ``lag`` its round trip
    capped by the window, given only to an action decided on a view of this race; :meth:`next`
    holds the action with the smallest ``r`` (ties: arrival order; one seat's actions keep
    their order) until no other seat that may act could still arrive with a smaller one, and
    never longer than the window after it arrived (:meth:`deadline`). The actions held behind
    it follow, judged on the state they then meet (usually too late, M22).

    An action's step is honoured (:attr:`Arrival.step`) when its seat was shown that view and
    the table left it at most a window before the action arrived; otherwise the action is
    judged on the current state alone, as if it gave no step.
    """

    def __init__(self, game: AnyGame, fairness: FairnessPolicy | None = None) -> None:
        if fairness is None:
            fairness = FairnessPolicy()
        if not isinstance(fairness, FairnessPolicy):
            raise InvalidArgumentError(f"invalid fairness {quoted(fairness)}: expected a"
                                       " FairnessPolicy")
        #: The game whose races it settles.
        self.game = game
        #: The policy.
        self.fairness = fairness
        #: When each step was first shown to any seat (in step order).
        self._first: collections.OrderedDict[int, float] = collections.OrderedDict()
        #: When each seat was first shown each step.
        self._shown: dict[int, dict[int, float]] = {}
        #: Each seat's round trip, for the deadline (the largest of its connections').
        self._rtt: dict[int, float] = {}
        self._held: list[Arrival] = []
        self._count = 0

    # -- what the host tells it ------------------------------------------------------------

    def shown(self, seat: int, step: int, at: float) -> None:
        """Note that ``seat`` was shown the view of ``step`` at ``at`` (only the first time
        counts)."""
        mine = self._shown.setdefault(seat, {})
        mine.setdefault(step, at)
        if step not in self._first:
            self._first[step] = at
            while len(self._first) > HISTORY:
                old, _ = self._first.popitem(last=False)
                for times in self._shown.values():
                    for s in [s for s in times if s <= old]:
                        del times[s]

    def round_trip(self, seat: int, seconds: float | None) -> None:
        """Note the round trip of ``seat``'s connection (the largest of its connections'),
        ``None`` when unknown (counted as 0: no compensation)."""
        self._rtt[seat] = 0.0 if seconds is None else max(0.0, float(seconds))

    def arrive(self, table: Table, seat: int, action: Any, step: int | None, at: float, *,
               rtt: float | None = None, reply: object = None) -> Arrival:
        """Queue an action that arrived at ``at`` from ``seat``, decided on the view of
        ``step`` (``None``: not said), its connection's round trip ``rtt``; return it as
        queued (its step honoured or not). :meth:`next` gives it back when it is its turn."""
        if step is not None and step < table.step:
            mine = self._shown.get(seat, {}).get(step)
            left = next((t for s, t in self._first.items() if s > step), None)
            if mine is None or (left is not None and at - left > self.fairness.window):
                step = None  # a view it was not shown, or older than the window
        self._count += 1
        arrival = Arrival(seat, action, step, at, self._count,
                          0.0 if rtt is None else max(0.0, float(rtt)), reply)
        self._held.append(arrival)
        return arrival

    # -- what it tells the host ------------------------------------------------------------

    @property
    def held(self) -> tuple[Arrival, ...]:
        """The actions not given back yet, in arrival order."""
        return tuple(self._held)

    def next(self, table: Table, now: float) -> Arrival | None:
        """Return the action the host applies next at ``now`` (removed from the queue), or
        ``None``: nothing is held, or the race must stay open until :meth:`deadline`. Ask
        again after applying it: the state it leads to decides what follows."""
        if not self._held:
            return None
        onset = self._onset(table)
        if onset is None or not self.fairness.compensated:
            return self._held.pop(0)
        best = self._best(table, onset)
        if now >= self._deadline(table, onset, best):
            self._held.remove(best)
            return best
        return None

    def deadline(self, table: Table) -> float | None:
        """Return when :meth:`next` may give back the next action (``None``: nothing held)."""
        if not self._held:
            return None
        onset = self._onset(table)
        if onset is None or not self.fairness.compensated:
            return self._held[0].at
        return self._deadline(table, onset, self._best(table, onset))

    def reaction(self, table: Table, arrival: Arrival) -> float | None:
        """Return the reaction time :meth:`next` orders ``arrival`` by in the race on now, or
        ``None`` when no race is on."""
        onset = self._onset(table)
        return None if onset is None else self._reaction(table, onset, arrival)

    # -- inside ------------------------------------------------------------------------------

    def _onset(self, table: Table) -> int | None:
        """Return the first step of the run of contested states the table is in (chance steps
        in between do not break it: nobody sees them), or ``None`` when it is not contested."""
        game = self.game
        state = table.state
        if not game.contested(state):
            return None
        onset: int = state.step
        step = onset - 1
        while (earlier := table.state_at(step)) is not None:
            if not game.is_chance(earlier):
                if not game.contested(earlier):
                    break
                onset = step
            step -= 1
        return onset

    def _first_view(self, table: Table, seat: int, onset: int) -> float | None:
        """When ``seat`` was first shown a view of the race that began at ``onset``."""
        times = self._shown.get(seat, {})
        seen = [t for s, t in times.items() if onset <= s <= table.step]
        return min(seen) if seen else None

    def _lag(self, seconds: float) -> float:
        return min(seconds, self.fairness.window)

    def _reaction(self, table: Table, onset: int, arrival: Arrival) -> float:
        shown = self._first_view(table, arrival.seat, onset)
        if shown is None:  # a seat never shown this race (a host that did not say): none
            shown = arrival.at
        saw = arrival.step is not None and arrival.step >= onset
        return max(0.0, arrival.at - shown - (self._lag(arrival.rtt) if saw else 0.0))

    def _best(self, table: Table, onset: int) -> Arrival:
        """The held action with the smallest reaction time (ties: arrival order), a seat's
        later action never before its earlier one."""
        latest: dict[int, float] = {}
        keyed = []
        for a in self._held:
            r = max(self._reaction(table, onset, a), latest.get(a.seat, 0.0))
            latest[a.seat] = r
            keyed.append(((r, a.order), a))
        return min(keyed, key=lambda pair: pair[0])[1]

    def _deadline(self, table: Table, onset: int, best: Arrival) -> float:
        """When no other seat that may act could still arrive with a smaller reaction time
        than ``best``'s, and at most a window after ``best`` arrived."""
        r = self._reaction(table, onset, best)
        until = best.at
        for seat in self.game.seats_to_act(table.state):
            if seat == best.seat:
                continue
            shown = self._first_view(table, seat, onset)
            if shown is not None:
                until = max(until, shown + self._lag(self._rtt.get(seat, 0.0)) + r)
        return min(until, best.at + self.fairness.window)


class ClaimLimit:
    """A rate limit on each seat's claims (slaps), over the host's message limit: a token
    bucket of ``per_second`` claims a second (bursts of as many, at least one); the claim
    beyond it locks the seat out of claiming for ``cooldown`` seconds, every claim refused
    until then. A wrong slap costs a penalty (R8); flooding costs more: no slap at all.

    >>> limit = ClaimLimit(per_second=2, cooldown=2.0)
    >>> [limit.take(0, at=0.0) for _ in range(3)]
    [None, None, 2.0]
    >>> limit.take(0, at=1.9), limit.take(0, at=2.0)
    (2.0, None)
    """

    def __init__(self, per_second: float = 3.0, cooldown: float = 2.0) -> None:
        for name, value in (("per_second", per_second), ("cooldown", cooldown)):
            if (not isinstance(value, int | float) or isinstance(value, bool)
                    or not math.isfinite(value) or value < 0
                    or (name == "per_second" and value == 0)):
                raise InvalidArgumentError(f"invalid {name} {quoted(value)}: expected a"
                                           " positive number of seconds or claims")
        #: Claims a second, and the largest burst.
        self.per_second = float(per_second)
        self.burst = max(1.0, self.per_second)
        #: The seconds a seat over the limit may not claim.
        self.cooldown = float(cooldown)
        self._tokens: dict[int, tuple[float, float]] = {}
        self._locked: dict[int, float] = {}

    def take(self, seat: int, at: float) -> float | None:
        """Count a claim of ``seat`` at ``at``: return ``None`` when it may be made, or the
        time until which the seat is locked out (the claim refused)."""
        until = self._locked.get(seat)
        if until is not None:
            if at < until:
                return until
            del self._locked[seat]
        tokens, last = self._tokens.get(seat, (self.burst, at))
        tokens = min(self.burst, tokens + max(0.0, at - last) * self.per_second)
        if tokens >= 1:
            self._tokens[seat] = (tokens - 1, at)
            return None
        self._tokens[seat] = (tokens, at)
        self._locked[seat] = at + self.cooldown
        return at + self.cooldown


class RoundTrip:
    """The round-trip estimate of one connection, from the host's pings: the median of the
    last ``samples`` answers (a late answer or two do not move it), capped at ``cap`` seconds.

    Each ping has an unguessable id (``ids``, by default 16 random bytes), so a client cannot
    answer one before it got it: a client can only make itself look slower, by answering late,
    which earns it at most the race window.

    >>> names = iter(["a", "b"])
    >>> rtt = RoundTrip(ids=lambda: next(names))
    >>> rtt.ping(at=10.0), rtt.pong("a", at=10.25), rtt.pong("a", at=10.5), rtt.estimate
    ('a', True, False, 0.25)
    """

    def __init__(self, *, samples: int = 5, cap: float = MAX_WINDOW, outstanding: int = 4,
                 ids: Callable[[], str] | None = None) -> None:
        self._samples: collections.deque[float] = collections.deque(maxlen=max(1, samples))
        self._cap = cap
        self._sent: collections.OrderedDict[str, float] = collections.OrderedDict()
        self._outstanding = max(1, outstanding)
        self._ids = ids or (lambda: secrets.token_urlsafe(16))

    def ping(self, at: float) -> str:
        """Return the id of a new ping sent at ``at`` (the oldest unanswered ones are
        forgotten beyond a few)."""
        ident = self._ids()
        self._sent[ident] = at
        while len(self._sent) > self._outstanding:
            self._sent.popitem(last=False)
        return ident

    def pong(self, ident: object, at: float) -> bool:
        """Note the answer to ping ``ident`` at ``at``; return whether it answered a ping
        (each is answered once)."""
        if not isinstance(ident, str):
            return False
        sent = self._sent.pop(ident, None)
        if sent is None:
            return False
        self._samples.append(min(self._cap, max(0.0, at - sent)))
        return True

    @property
    def estimate(self) -> float | None:
        """The round trip in seconds, or ``None`` before any answer."""
        return statistics.median(self._samples) if self._samples else None
