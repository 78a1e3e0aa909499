"""A table for hosts: the game's state, the actions of seats, each seat's event log, and what
a host sends its clients (frames), for either game of the platform.

The table server (``shock_rules.server``) and the in-browser build's host (``web/src/host.py``)
both keep their games in a :class:`Table`: one implementation of turns, chance from a secret
seed, bots' generators, stale steps, views and frames, as boardgame.io's local master runs its
server's master.
"""

from __future__ import annotations

import collections
import random
from collections.abc import Mapping
from typing import Any, Final

from .. import games
from .._errors import InvalidArgumentError, ShockError, quoted
from .._shared import CHANCE
from ..games import AnyGame, Bot
from ..record import GameRecord
from ._messages import (
    BadSeatError,
    GameOverError,
    NotYourTurnError,
    StaleStepError,
    TooLateError,
    error_document,
    read_action_message,
)
from ._requests import read_frame

__all__ = ["HISTORY", "Table", "draw_rng"]

#: The states a table of a real-time game keeps, the latest ones, to judge an action against
#: the view its seat decided it on (:meth:`Table.act`); states are immutable, so each costs
#: only its own fields.
HISTORY: Final = 256


def draw_rng(seed: str, step: int, purpose: str) -> random.Random:
    """Return the generator for the decision at ``step`` of a table with secret ``seed``:
    ``purpose`` is ``"chance"`` (a card dealt, a chest card, a dealer...) or ``"bot"``.

    Each decision gets its own generator, seeded from the seed, the step and the purpose
    (``random.Random`` seeds from text with SHA-512, the same in every process), so a table
    rebuilt from its stored actions after a restart draws exactly the cards and makes exactly
    the bot moves it would have made: nothing but the seed needs saving.
    """
    return random.Random(f"{seed}:{purpose}:{step}")


class Table:
    """One game at a host: pure bookkeeping over a game's rules, with no I/O.

    It holds the state of any registered game (the one ``config`` or ``state`` belongs to),
    applies actions for seats (:meth:`act`), resolves chance at once with its ``rng``, or each
    outcome from its secret ``seed`` (:func:`draw_rng`; or, with neither, takes chance outcomes
    from the host: :meth:`chance`, for a physical game whose cards are dealt by hand) and logs
    every step's events, so that :meth:`events_since` returns what a reconnecting client
    missed, as that seat may see it. :meth:`frame` is what a host sends a client after every
    change; :meth:`receive` reads a client's action frame.

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

    def __init__(self, config: object = None, *, rng: random.Random | None = None,
                 state: object = None, seed: str | None = None) -> None:
        if config is not None and not any(isinstance(config, games.get(n).config_type)
                                          for n in games.names()):
            raise InvalidArgumentError(f"invalid config {quoted(config)}: expected a game's"
                                       " config (a GameConfig)")
        if state is not None and not any(isinstance(state, games.get(n).state_type)
                                         for n in games.names()):
            raise InvalidArgumentError(f"invalid state {quoted(state)}: expected a State")
        if rng is not None and not isinstance(rng, random.Random):
            raise InvalidArgumentError(f"invalid rng {quoted(rng)}: expected a random.Random")
        if seed is not None and not isinstance(seed, str):
            raise InvalidArgumentError(f"invalid seed {quoted(seed)}: expected a string")
        if rng is not None and seed is not None:
            raise InvalidArgumentError("Table() draws chance with an rng or from a seed, not both")
        game = games.of(state if state is not None else config if config is not None
                        else games.get("shock").config())
        given: Any = state
        if state is not None and config is not None and given.config != config:
            raise InvalidArgumentError(
                "Table() takes a config or a state, not two different configs")
        #: The game the table plays (:mod:`shock_rules.games`).
        self.game: AnyGame = game
        start: Any = (game.new_game(game.config() if config is None else config)
                      if state is None else state)
        self._state: Any = start
        self._from_new_game = state is None
        self._rng = rng
        self._seed = seed
        #: Every step's events, secrets included: (step, events) from the starting state on.
        self._log: list[tuple[int, tuple[Any, ...]]] = [(start.step, start.events)]
        self._actions: list[Any] = []
        #: A real-time game's latest states, each with the seat (``None``: chance) and the
        #: action that made it: what a late action is judged against (:meth:`act`).
        self._history: collections.deque[tuple[Any, int | None, Any]] = collections.deque(
            [(start, None, None)], maxlen=HISTORY if game.simultaneous else 1)
        self._resolve()

    # -- the game ------------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The current state (every secret included: never send it to a player)."""
        return self._state

    @property
    def config(self) -> Any:
        """The game's configuration."""
        return self._state.config

    @property
    def step(self) -> int:
        """The current step: the number of actions applied since the game began."""
        step: int = self._state.step
        return step

    @property
    def to_act(self) -> int | None:
        """The seat that must decide now when exactly one may (a turn-based game), or
        ``None``: at a chance step, at the game's end, and when several seats may act at once
        (a real-time game; see :attr:`seats_to_act`)."""
        seats = self.game.seats_to_act(self._state)
        return seats[0] if len(seats) == 1 and not self.game.simultaneous else None

    @property
    def seats_to_act(self) -> tuple[int, ...]:
        """The seats that may act now (none at a chance step or the game's end)."""
        return self.game.seats_to_act(self._state)

    @property
    def is_chance(self) -> bool:
        """Whether chance acts next (the host's :meth:`chance`, or :meth:`resolve`)."""
        return self.game.is_chance(self._state)

    @property
    def is_over(self) -> bool:
        """Whether the game is over."""
        return self.game.is_terminal(self._state)

    def record(self) -> GameRecord:
        """Return the record of the game so far (every action since the new game, chance
        included); raise :class:`~shock_rules.InvalidArgumentError` (a ``ValueError``) for a
        table that started from a given state, whose earlier actions it does not know."""
        if not self._from_new_game:
            raise InvalidArgumentError("the table started from a given state: it has no record"
                                       " of the actions before it")
        return GameRecord(self._state.config, tuple(self._actions))

    def act(self, seat: int, message: object, *, step: int | None = None) -> Any:
        """Apply the action ``seat`` sent and return the new state (after chance, when the
        table draws it).

        ``message`` is an action, its notation, an action object or an ``"action"`` document
        (see :func:`read_action_message`), which may carry the ``"step"`` of the view its
        sender decided on (or give it as ``step``). In a turn-based game that must be the
        current step. In a real-time game (:attr:`~shock_rules.games.Game.simultaneous`)
        it is not a reason to refuse: the action is judged against the state it arrives at,
        in arrival order (M5), and its step only says what its sender saw. One that was legal
        on that view (kept among the latest :data:`HISTORY` states) but is not now lost a race:
        :class:`TooLateError`, naming the seat that came first; so does a claim decided on a
        contested view (a slap on a match) that would no longer win (the match was covered
        or slapped since), which is never turned into a mistake (a wrong slap's penalty).
        The same action sent again on the same view, once applied, is a
        :class:`StaleStepError`: a repeated message never plays twice.

        Raise, leaving the table unchanged: :class:`BadSeatError` (no such seat),
        :class:`~shock_rules.InvalidStateError` (not an action document),
        :class:`~shock_rules.InvalidNotationError` (an unreadable action),
        :class:`StaleStepError`, :class:`TooLateError`, :class:`GameOverError`,
        :class:`NotYourTurnError` or :class:`~shock_rules.IllegalActionError`;
        :func:`error_document` turns each into a document for the sender.
        """
        if seat is None:
            raise BadSeatError("a spectator (seat None) cannot act")
        self._check_seat(seat)
        action, sent = read_action_message(message, self.game)
        if step is not None:
            if type(step) is not int or step < 0:
                raise InvalidArgumentError(f"invalid step {quoted(step)}: expected a step"
                                           " number")
            if sent is not None and sent != step:
                raise InvalidArgumentError(f"the message says step {sent}, the caller {step}")
            sent = step
        if self.game.simultaneous:
            self._judge_late(seat, action, sent)
        else:
            self.check_step(action, sent)
        seats = self.game.seats_to_act(self._state)
        if self.is_over:
            raise GameOverError(f"'{action}' is illegal: the game is over", action=action,
                                seat=seat)
        if seat not in seats:
            who = ("chance" if self.is_chance
                   else "seat " + " or ".join(map(str, seats)) if seats else "nobody")
            raise NotYourTurnError(
                f"'{action}' is illegal: seat {seat} cannot act now: {who} must act",
                action=action, seat=seat)
        self._apply(self.game.apply(self._state, action, seat), action, seat)
        self._resolve()
        return self._state

    def state_at(self, step: int) -> Any:
        """Return the state the table was in at ``step`` (every secret included), or ``None``
        when it does not keep it: a real-time game keeps its latest :data:`HISTORY` states,
        a turn-based game only the current one."""
        for state, _, _ in reversed(self._history):
            if state.step == step:
                return state
            if state.step < step:
                break
        return None

    def _judge_late(self, seat: int, action: Any, sent: int | None) -> None:
        """Raise when ``seat``'s ``action``, decided on the view of step ``sent``, must not be
        judged on the current state (a real-time game): a step not reached yet, a repeated
        message, a race lost since (M5, M22)."""
        now = self._state
        if sent is None or sent == now.step:
            return
        if sent > now.step:
            raise StaleStepError(
                f"'{action}' was decided at step {sent}, but the table is at step {now.step}:"
                " decide again on the current view", sent=sent, current=now.step)
        then = self.state_at(sent)
        if then is None:  # older than the table keeps: judged on the current state alone
            return
        since = [(s, by, a) for s, by, a in self._history if s.step > sent]
        if any(by == seat and a == action for _, by, a in since):
            raise StaleStepError(
                f"'{action}' was decided at step {sent} and applied already: a message sent"
                " twice plays once", sent=sent, current=now.step)
        game = self.game

        def legal(state: Any) -> bool:
            return action in game.legal_actions(state, seat)

        if game.is_claim(action) and game.contested(then) and legal(then):
            # M5, M27: a slap on a match the seat saw wins while a match still shows; once it
            # is gone it is too late, never a wrong slap.
            def good(state: Any) -> bool:
                return bool(game.contested(state)) and legal(state)
        elif legal(then):
            good = legal
        else:
            return  # not legal on its own view either: judged on the current state
        if good(now):
            return
        # Who came first: the seat of the latest action before the first state (one a seat
        # may see: chance steps are resolved at once) where the action no longer holds.
        winner, first = None, None
        for state, by, made_by in since:
            if by is not None:
                winner, first = by, made_by
            if not game.is_chance(state) and not good(state):
                break
        if winner is None:
            return  # only chance moved on (a host entering outcomes): judged as it is now
        if winner == seat:
            raise StaleStepError(
                f"'{action}' was decided at step {sent}, before this seat's own '{first}':"
                " decide again on the current view", sent=sent, current=now.step)
        raise TooLateError(f"'{action}' is too late: seat {winner} came first ('{first}')",
                           sent=sent, winner=winner, action=action, seat=seat)

    def check_step(self, action: object, sent: int | None) -> None:
        """Raise :class:`StaleStepError` when an action decided at step ``sent`` (``None``:
        not said) comes after the table moved on."""
        if sent is not None and sent != self.step:
            raise StaleStepError(
                f"'{action}' was decided at step {sent}, but the table is at step {self.step}:"
                " decide again on the current view", sent=sent, current=self.step)

    def chance(self, message: object) -> Any:
        """Apply a chance outcome the host enters (a card dealt by hand, say) and return the
        new state; raise :class:`~shock_rules.IllegalActionError` when no chance step is
        pending or the outcome is impossible (and the reading errors of :meth:`act`)."""
        action, _ = read_action_message(message, self.game)
        if not self.is_chance:
            raise NotYourTurnError(f"'{action}' is illegal: no chance step is pending",
                                   action=action)
        if not action.is_chance:
            raise NotYourTurnError(f"'{action}' is illegal: it is not a chance outcome",
                                   action=action)
        self._apply(self.game.apply(self._state, action, CHANCE), action, None)
        self._resolve()
        return self._state

    def resolve(self, seed: str) -> list[tuple[int, Any]]:
        """Draw the pending chance steps, each outcome from ``seed`` and its step
        (:func:`draw_rng`), until a seat may act or the game ends; return the ``(step,
        outcome)`` pairs applied. For a host that stores each step as it is taken."""
        taken = []
        while self.is_chance:
            step = self.step
            outcome = self.game.sample_chance(self._state, draw_rng(seed, step, "chance"))
            self._apply(self.game.apply(self._state, outcome), outcome, None)
            taken.append((step, outcome))
        return taken

    def _apply(self, state: Any, action: Any, seat: int | None) -> None:
        self._state = state
        self._actions.append(action)
        self._log.append((state.step, state.events))
        self._history.append((state, seat, action))

    def _resolve(self) -> None:
        if self._seed is not None:
            self.resolve(self._seed)
            return
        if self._rng is None:
            return
        while self.is_chance:
            action = self.game.sample_chance(self._state, self._rng)
            self._apply(self.game.apply(self._state, action), action, None)

    def _check_seat(self, seat: int | None) -> None:
        n = self._state.config.players
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise BadSeatError(f"invalid seat {quoted(seat)}: expected 0-{n - 1}")

    # -- bots ----------------------------------------------------------------------------------

    def bot_action(self, seat: int, bot: Bot, seed: str) -> Any:
        """Return what ``bot`` decides for ``seat`` on its view now, with the generator of this
        step drawn from ``seed`` (:func:`draw_rng`): a table rebuilt from its actions makes the
        same bot moves. ``None`` when the bot waits (a real-time game)."""
        self._check_seat(seat)
        return bot.choose(self.view(seat), draw_rng(seed, self.step, "bot"))

    # -- what a seat may see -------------------------------------------------------------------

    def view(self, seat: int | None) -> Any:
        """Return what ``seat`` (``None``: a spectator) knows now."""
        self._check_seat(seat)
        if seat is None:
            return self.game.spectator_view(self._state)
        return self.game.view(self._state, seat)

    def view_document(self, seat: int | None) -> dict[str, object]:
        """Return the ``"view"`` document of :meth:`view`."""
        return self.game.view_document(self.view(seat))

    def events_since(self, seat: int | None, step: int | None = None
                     ) -> tuple[tuple[int, Any], ...]:
        """Return the events of every step after ``step`` (``None``: from the start) as
        ``seat`` (``None``: a spectator) may see them, each with the step that caused it.

        A client that saw the view of step ``k`` calls this with ``k`` on reconnecting.
        Another seat's secrets stay hidden, as in views.
        """
        self._check_seat(seat)
        after = _after(step)
        return tuple((s, e) for s, events in self._log if s > after
                     for e in self.game.visible_events(events, seat))

    def events_document(self, seat: int | None, step: int | None = None) -> dict[str, object]:
        """Return the ``"events"`` document of :meth:`events_since` (each event with its
        ``"step"``)."""
        self._check_seat(seat)
        after = _after(step)
        events: list[object] = []
        for s, logged in self._log:
            if s > after:
                doc = self.game.events_document(self.game.visible_events(logged, seat), s)
                listed = doc["events"]
                assert isinstance(listed, list)
                events += listed
        return {**self.game.events_document((), None), "events": events}

    def frame(self, seat: int | None, since: int | None = None,
              view: Mapping[str, object] | None = None) -> dict[str, object]:
        """Return the ``"view"`` frame a host sends ``seat`` (``None``: a spectator): its view
        document and the events of the steps after ``since`` (all of them when ``None``), as
        the server sends each connection after every change. ``view`` is the seat's view
        document when the host made it already (one per seat for many connections)."""
        doc = self.view_document(seat) if view is None else view
        return {"type": "view", "seat": seat, "view": doc,
                "events": self.events_document(seat, since)["events"]}

    def receive(self, seat: int | None, text: str) -> dict[str, object] | None:
        """Apply the action frame a client of ``seat`` sent (``{"type": "action", "action":
        ..., "step": N}``, :func:`read_frame`); return ``None`` when it was applied, or the
        error document to send back (the table unchanged) when it is refused: a spectator's,
        a stale step's, an illegal action's, a malformed message's."""
        step = self.step
        try:
            action, sent = read_frame(text, self.game)
            if seat is None:
                raise BadSeatError("a spectator cannot act: connect with a seat's token")
            self.act(seat, action, step=sent)
        except ShockError as exc:
            return error_document(exc, step)
        return None


def _after(step: object) -> int:
    """Return the step after which events are wanted (``None``: -1, from the start)."""
    if step is None:
        return -1
    if type(step) is not int:
        raise InvalidArgumentError(f"invalid step {quoted(step)}: expected a step number or None")
    return step
