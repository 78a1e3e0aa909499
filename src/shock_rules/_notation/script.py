"""Scripting a game: deal chosen hands and apply a list of actions written in notation.

These helpers force a situation by choosing the chance outcomes, for tests, puzzles, tutorials
and for people entering a physical game:

>>> from shock_rules import GameConfig, new_game, deal_hands, apply_all
>>> s = deal_hands(new_game(GameConfig(players=3, first_leader=0)),
...                ["2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
...                 "2D 3D 4D 5D 6D 7D 8D 9D 10D"], trump="2C")
>>> s = apply_all(s, "play 10H; play 2S; play 2D")
>>> s.on_bag, s.phase.name   # 2S and 2D carry a gem each; seat 0 now opens the chest
((2, 0, 0), 'CHEST')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from .._errors import IllegalActionError, InvalidArgumentError, InvalidNotationError, quoted
from .._rules.actions import Action, parse_action
from .._rules.cards import Card, mask_of, parse_card
from .._rules.engine import apply
from .._rules.state import Phase, State, not_a_state

__all__ = ["apply_all", "deal_hands", "parse_cards"]


def parse_cards(text: str | Iterable[Card | str]) -> tuple[Card, ...]:
    """Return the cards of a whitespace- or comma-separated text like ``"7H 10S, 2C"``, or of
    an iterable of cards and card texts; raise :class:`~shock_rules.InvalidNotationError`
    for anything else."""
    if isinstance(text, str):
        items: list[Card | str] = re.split(r"[ \t\r\n,]+", text.strip(" \t\r\n"))
    else:
        try:
            items = list(text)
        except TypeError:
            raise InvalidNotationError(
                f"invalid cards {quoted(text)}: expected text such as '7H 10S'") from None
    return tuple(c if isinstance(c, Card) else parse_card(c) for c in items if c != "")


def deal_hands(
    state: State,
    hands: Sequence[str | Iterable[Card | str]],
    trump: str | Card,
    leader: int | None = None,
) -> State:
    """Return the state after dealing so that each seat holds ``hands[seat]``, revealing
    ``trump`` and, when the first leader is a chance decision, choosing ``leader``.

    ``state`` must be waiting for the deal. In the standard variant a hand's kept cards must be
    among ``hands[seat]``; only the missing ones are dealt. Raise
    :class:`~shock_rules.IllegalActionError` if the wanted deal is impossible.
    """
    if type(state) is not State:
        raise not_a_state(state)
    if state.phase is not Phase.DEAL and state.phase is not Phase.TRUMP:
        raise IllegalActionError("deal_hands() needs a state waiting for the deal")
    n = state.config.players
    if isinstance(hands, str) or not isinstance(hands, Sequence):
        raise InvalidArgumentError(f"deal_hands() needs a list of {n} hands, not {quoted(hands)}")
    if len(hands) != n:
        raise IllegalActionError(f"deal_hands() needs {n} hands, got {len(hands)}")
    wanted = [mask_of(parse_cards(h)) for h in hands]
    queues: list[list[Card]] = []
    for seat in range(n):
        held = state.hand_masks[seat]
        if held & ~wanted[seat]:
            raise IllegalActionError(f"seat {seat} already holds cards not in its wanted hand")
        queues.append(sorted(parse_cards(hands[seat]), key=lambda c: c.index))
        queues[seat] = [c for c in queues[seat] if not held & c.bit]
    while state.phase is Phase.DEAL:
        seat = state.actor
        if not queues[seat]:
            raise IllegalActionError(f"seat {seat} is dealt more cards than its wanted hand")
        state = apply(state, Action.deal(queues[seat].pop(0)))
    if any(queues):
        raise IllegalActionError("a wanted hand has more cards than the hand size")
    state = apply(state, Action.trump(trump if isinstance(trump, Card) else parse_card(trump)))
    if state.phase is Phase.LEADER:
        if leader is None:
            raise IllegalActionError("the first leader is a chance decision: pass leader=")
        state = apply(state, Action.leader(leader))
    elif leader is not None and leader != state.leader:
        raise IllegalActionError(f"the leader is seat {state.leader}, not {leader}")
    return state


def apply_all(state: State, actions: str | Iterable[str | Action]) -> State:
    """Return the state after applying actions in order; text is split on ``;`` and newlines.

    An illegal action raises :class:`~shock_rules.IllegalActionError` whose message says
    which step (1-based) failed.
    """
    items: Iterable[str | Action]
    if type(state) is not State:
        raise not_a_state(state)
    if isinstance(actions, str):
        items = [a.strip() for a in re.split(r"[;\n]", actions) if a.strip()]
    else:
        try:
            items = list(actions)
        except TypeError:
            raise InvalidNotationError(
                f"invalid actions {quoted(actions)}: expected text such as 'play 7H; stop'"
            ) from None
    for i, a in enumerate(items, 1):
        action = a if isinstance(a, Action) else parse_action(a)
        try:
            state = apply(state, action)
        except IllegalActionError as exc:
            raise IllegalActionError(f"step {i}: {exc}", action=exc.action, seat=exc.seat) from None
    return state
