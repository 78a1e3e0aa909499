"""A table for hosts: the game's state, the actions of seats, and each seat's event log."""

from __future__ import annotations

import random
from collections.abc import Mapping

from .._errors import InvalidArgumentError, quoted
from .._info.view import PlayerView, spectator_view, view, visible_events
from .._json import SCHEMA, events_with_step, view_to_dict
from .._rules.actions import Action
from .._rules.config import GameConfig
from .._rules.engine import apply, current_player, new_game, sample_chance
from .._rules.events import Event
from .._rules.state import CHANCE, Phase, State
from ..record import GameRecord
from ._messages import (
    BadSeatError,
    GameOverError,
    NotYourTurnError,
    StaleStepError,
    read_action_message,
)

__all__ = ["Table"]


class Table:
    """One game at a host: pure bookkeeping over the engine, with no I/O.

    It holds the state, applies actions for seats (:meth:`act`), resolves chance with its
    ``rng`` (or, without one, takes chance outcomes from the host: :meth:`chance`, for a
    physical game whose cards are dealt by hand) and logs every step's events, so that
    :meth:`events_since` returns what a reconnecting client missed, as that seat may see it.

    >>> import random
    >>> import shock_rules as sr
    >>> table = Table(sr.GameConfig(players=3, first_leader=0), rng=random.Random(2))
    >>> table.step, table.to_act
    (28, 0)
    >>> doc = table.view_document(0)
    >>> doc["your_turn"], doc["legal_actions"][0]
    (True, {'notation': 'play 5H', 'kind': 'play', 'card': '5H'})
    >>> table.act(1, "play 3S")
    Traceback (most recent call last):
    ...
    shock_rules.protocol.NotYourTurnError: 'play 3S' is illegal: seat 1 cannot act now: ...
    """

    def __init__(self, config: GameConfig | None = None, *, rng: random.Random | None = None,
                 state: State | None = None) -> None:
        if config is not None and not isinstance(config, GameConfig):
            raise InvalidArgumentError(f"invalid config {quoted(config)}: expected a GameConfig")
        if state is not None and type(state) is not State:
            raise InvalidArgumentError(f"invalid state {quoted(state)}: expected a State")
        if rng is not None and not isinstance(rng, random.Random):
            raise InvalidArgumentError(f"invalid rng {quoted(rng)}: expected a random.Random")
        if state is not None and config is not None and state.config != config:
            raise InvalidArgumentError(
                "Table() takes a config or a state, not two different configs")
        start = new_game(config) if state is None else state
        self._state = start
        self._from_new_game = state is None
        self._rng = rng
        #: Every step's events, secrets included: (step, events) from the starting state on.
        self._log: list[tuple[int, tuple[Event, ...]]] = [(start.step, start.events)]
        self._actions: list[Action] = []
        self._resolve()

    # -- the game ------------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The current state (every secret included: never send it to a player)."""
        return self._state

    @property
    def step(self) -> int:
        """The current step: the number of actions applied since the game began."""
        return self._state.step

    @property
    def to_act(self) -> int | None:
        """The seat that must decide now, or ``None`` at a chance step or the game's end."""
        turn = current_player(self._state)
        return turn if isinstance(turn, int) else None

    @property
    def is_over(self) -> bool:
        """Whether the game is over."""
        return self._state.phase is Phase.OVER

    def record(self) -> GameRecord:
        """Return the record of the game so far (every action since the new game, chance
        included); raise :class:`~shock_rules.InvalidArgumentError` (a ``ValueError``) for a
        table that started from a given state, whose earlier actions it does not know."""
        if not self._from_new_game:
            raise InvalidArgumentError("the table started from a given state: it has no record"
                                       " of the actions before it")
        return GameRecord(self._state.config, tuple(self._actions))

    def act(self, seat: int, message: Action | str | Mapping[str, object]) -> State:
        """Apply the action ``seat`` sent and return the new state (after chance, when the
        table has an ``rng``).

        ``message`` is an action, its notation, an action object or an ``"action"`` document
        (see :func:`read_action_message`); when it carries the ``"step"`` its sender saw, that
        must be the current step. Raise, leaving the table unchanged:
        :class:`BadSeatError` (no such seat), :class:`~shock_rules.InvalidStateError` (not an
        action document), :class:`~shock_rules.InvalidNotationError` (an unreadable action),
        :class:`StaleStepError`, :class:`GameOverError`, :class:`NotYourTurnError` or
        :class:`~shock_rules.IllegalActionError`; :func:`error_document` turns each into a
        document for the sender.
        """
        if seat is None:
            raise BadSeatError("a spectator (seat None) cannot act")
        self._check_seat(seat)
        action, sent = read_action_message(message)
        if sent is not None and sent != self.step:
            raise StaleStepError(
                f"'{action}' was decided at step {sent}, but the table is at step {self.step}:"
                " decide again on the current view", sent=sent, current=self.step)
        turn = current_player(self._state)
        if turn is None:
            raise GameOverError(f"'{action}' is illegal: the game is over", action=action,
                                seat=seat)
        if turn != seat:
            who = "chance" if turn is CHANCE else f"seat {turn}"
            raise NotYourTurnError(
                f"'{action}' is illegal: seat {seat} cannot act now: {who} must act",
                action=action, seat=seat)
        self._apply(apply(self._state, action, seat), action)
        self._resolve()
        return self._state

    def chance(self, message: Action | str | Mapping[str, object]) -> State:
        """Apply a chance outcome the host enters (a card dealt by hand, say) and return the
        new state; raise :class:`~shock_rules.IllegalActionError` when no chance step is
        pending or the outcome is impossible (and the reading errors of :meth:`act`)."""
        action, _ = read_action_message(message)
        if current_player(self._state) is not CHANCE:
            raise NotYourTurnError(f"'{action}' is illegal: no chance step is pending",
                                   action=action)
        if not action.is_chance:
            raise NotYourTurnError(f"'{action}' is illegal: it is not a chance outcome",
                                   action=action)
        self._apply(apply(self._state, action), action)
        self._resolve()
        return self._state

    def _apply(self, state: State, action: Action) -> None:
        self._state = state
        self._actions.append(action)
        self._log.append((state.step, state.events))

    def _resolve(self) -> None:
        if self._rng is None:
            return
        while current_player(self._state) is CHANCE:
            action = sample_chance(self._state, self._rng)
            self._apply(apply(self._state, action), action)

    def _check_seat(self, seat: int | None) -> None:
        n = self._state.config.players
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise BadSeatError(f"invalid seat {quoted(seat)}: expected 0-{n - 1}")

    # -- what a seat may see -------------------------------------------------------------------

    def view(self, seat: int | None) -> PlayerView:
        """Return what ``seat`` (``None``: a spectator) knows now."""
        self._check_seat(seat)
        return spectator_view(self._state) if seat is None else view(self._state, seat)

    def view_document(self, seat: int | None) -> dict[str, object]:
        """Return the ``"view"`` document of :meth:`view`."""
        return {"schema": SCHEMA, "type": "view", **view_to_dict(self.view(seat))}

    def events_since(self, seat: int | None, step: int | None = None
                     ) -> tuple[tuple[int, Event], ...]:
        """Return the events of every step after ``step`` (``None``: from the start) as
        ``seat`` (``None``: a spectator) may see them, each with the step that caused it.

        A client that saw the view of step ``k`` calls this with ``k`` on reconnecting. Another
        seat's dealt and face-down cards stay hidden, as in views (K34).
        """
        self._check_seat(seat)
        after = _after(step)
        return tuple((s, e) for s, events in self._log if s > after
                     for e in visible_events(events, seat))

    def events_document(self, seat: int | None, step: int | None = None) -> dict[str, object]:
        """Return the ``"events"`` document of :meth:`events_since` (each event with its
        ``"step"``)."""
        self._check_seat(seat)
        after = _after(step)
        events: list[dict[str, object]] = []
        for s, logged in self._log:
            if s > after:
                events += events_with_step(visible_events(logged, seat), s)
        return {"schema": SCHEMA, "type": "events", "events": events}


def _after(step: object) -> int:
    """Return the step after which events are wanted (``None``: -1, from the start)."""
    if step is None:
        return -1
    if type(step) is not int:
        raise InvalidArgumentError(f"invalid step {quoted(step)}: expected a step number or None")
    return step
