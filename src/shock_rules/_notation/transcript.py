"""Readable text for events: one line per event, and whole-game transcripts.

>>> from shock_rules import Card, CardPlayed
>>> describe_event(CardPlayed(2, Card.parse("3H"), True, 1))
'seat 2 plays 3H (1 gem on it)'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .._errors import InvalidArgumentError, quoted
from .._rules.events import (
    CardDealt,
    CardPlayed,
    ChestRevealed,
    ChestStopped,
    Event,
    GameEnded,
    GemsBanked,
    GemsGained,
    HiddenCardDealt,
    HiddenCardPlayed,
    LeaderChosen,
    PoisonCovered,
    PoisonTaken,
    PotionTaken,
    RoundEnded,
    RoundStarted,
    Shocked,
    TrickAbandoned,
    TrickWon,
    TrumpRevealed,
    Withdrew,
)

if TYPE_CHECKING:
    from .._rules.state import State

__all__ = ["describe_event", "narrate", "transcript"]


def _gems(n: int) -> str:
    return f"{n} gem" if n == 1 else f"{n} gems"


def describe_event(event: Event) -> str:
    """Return one line of plain English describing an event; raise
    :class:`~shock_rules.InvalidArgumentError` for anything that is not an event.

    Events are the package's own objects (made by a step, or read from a document, which
    checks their fields): one made by hand with fields of the wrong kind fails as Python
    fails on it."""
    if not isinstance(event, Event):
        raise InvalidArgumentError(f"expected an event, not {quoted(event)}")
    return _describe(event)


def _describe(event: Event) -> str:
    match event:
        case CardDealt(seat, card):
            return f"seat {seat} is dealt {card}"
        case TrumpRevealed(card):
            return f"the trump card is {card}: {card.suit} are trump"
        case LeaderChosen(seat):
            return f"seat {seat} is drawn to lead first"
        case RoundStarted(rnd, leader):
            who = f"seat {leader} will lead" if leader >= 0 else "the first leader will be drawn"
            return f"round {rnd} begins; {who}"
        case HiddenCardDealt(seat):
            return f"seat {seat} is dealt a card"
        case HiddenCardPlayed(seat, gems):
            return f"seat {seat} plays a card face down ({_gems(gems)} on it)"
        case CardPlayed(seat, card, face_up, gems):
            if face_up:
                return f"seat {seat} plays {card}" + (f" ({_gems(gems)} on it)" if gems else "")
            return f"seat {seat} plays {card} face down ({_gems(gems)} on it)"
        case Withdrew(seat, banked):
            return f"seat {seat} withdraws and puts {_gems(banked)} into its bag"
        case TrickWon(seat, trick, card, gems):
            return f"seat {seat} wins trick {trick} with {card} and takes {_gems(gems)}"
        case TrickAbandoned(trick, gems):
            return (f"everyone left withdrew: trick {trick} has no winner; "
                    f"{_gems(gems)} go back to the supply")
        case PoisonTaken(seat, card, poison):
            return f"seat {seat} takes the {poison} poison {card}"
        case PotionTaken(seat, card):
            return f"seat {seat} takes the potion {card}"
        case PoisonCovered(seat, card, potion):
            return f"{'a potion' if potion is None else f'the potion {potion}'} of seat {seat}" \
                f" covers {card}"
        case Shocked(seat, poison, lost):
            return (f"seat {seat} suffers anaphylactic shock ({poison}) and returns "
                    f"{_gems(lost)} to the supply")
        case ChestRevealed(seat, card, number):
            what = f"poison ({card.poison})" if card.is_poison else \
                f"gems {card.large} for the revealer, {card.small} for the others"
            return f"seat {seat} reveals chest card {number}: {card} - {what}"
        case GemsGained(seat, gems):
            return f"seat {seat} gains {_gems(gems)}"
        case ChestStopped(seat):
            return f"seat {seat} stops revealing chest cards"
        case GemsBanked(seat, gems):
            return f"seat {seat} puts {_gems(gems)} into its bag"
        case RoundEnded(rnd, reason):
            return f"round {rnd} ends: {reason.value}"
        case GameEnded(scores, winners):
            names = " and ".join(f"seat {w}" for w in sorted(winners))
            return f"the game is over: scores {list(scores)}; {names} " + (
                "win" if len(winners) > 1 else "wins")
    return repr(event)


def transcript(events: Iterable[Event], *, deals: bool = False) -> list[str]:
    """Return the lines describing a sequence of events.

    Individual deals are summarised per round unless ``deals`` is true.
    """
    if isinstance(events, Event) or not isinstance(events, Iterable):
        raise InvalidArgumentError(f"expected a list of events, not {quoted(events)}")
    lines: list[str] = []
    dealt = 0
    for e in events:
        if isinstance(e, CardDealt) and not deals:
            dealt += 1
            continue
        if dealt:
            lines.append(f"{dealt} cards are dealt")
            dealt = 0
        lines.append(describe_event(e))
    if dealt:
        lines.append(f"{dealt} cards are dealt")
    return lines


def narrate(state: State) -> list[str]:
    """Return the lines telling what the step that produced ``state`` did, as the
    ``demo`` and ``replay`` commands print them: a heading for each new round, each event but
    the individual deals, every hand once the trump card is revealed, and the bags at the end
    of a round."""
    lines: list[str] = []
    for event in state.events:
        if isinstance(event, CardDealt):
            continue
        if isinstance(event, RoundStarted):
            lines.append(f"\n== Round {event.round}")
            continue
        if isinstance(event, RoundEnded):
            lines.append(f"   {describe_event(event)}; bags: {list(state.in_bag)}")
            continue
        lines.append(f"   {describe_event(event)}")
        if isinstance(event, TrumpRevealed):
            for seat in range(state.config.players):
                hand = " ".join(str(c) for c in state.hand(seat))
                lines.append(f"   seat {seat} holds {hand}")
    return lines
