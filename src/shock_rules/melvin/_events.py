"""Melvin Vs. Kronk's events: what one call of ``apply`` caused, in order (MK-INFO-1).

``state.events`` holds the events of the step that made the state, secrets included; a view
(:func:`~shock_rules.melvin.view`) shows each event as its seat may see it. An event that
carries a secret says who may see it, and has a public form that leaves the secret out:

- :class:`GemsSeen` (the Gem cards a slap drew): its ``seat`` only (the slap's winner, then
  the *Orcolar* player too, M30); others see :class:`HiddenGemsSeen`.
- :class:`GemKept`: its ``seat`` only (M14); others see :class:`HiddenGemKept`.
- :class:`GemGiven`: its ``seat`` and its ``receiver``; others see :class:`HiddenGemGiven`.
- :class:`GemTaken` (*Óculos Geek*): its ``seat`` and its ``target``; others see
  :class:`HiddenGemTaken`.
- :class:`CardMoved` (a draw-pile card moved face down): nobody (M30: draw-pile contents are
  never shown); everyone sees :class:`HiddenCardMoved`.

Every other event is public. Events are not part of a state's equality.
"""

from __future__ import annotations

import enum

import attrs

__all__ = [
    "AmuletoPlayed", "CardMoved", "CardReturned", "CardTurnedUp", "DealerChosen",
    "Eliminated", "EndReason", "Event", "GameEnded", "GemGiven", "GemKept", "GemTaken",
    "GemsSeen", "HiddenCardMoved", "HiddenGemGiven", "HiddenGemKept", "HiddenGemTaken",
    "HiddenGemsSeen", "MatchSlapped", "OculosPlayed", "OrcolarPlayed", "PenaltiesReturned",
    "PenaltyTaken", "PilesCollected", "ToalhaPlayed", "WrongSlap", "describe_event",
    "visible", "visible_events",
]


@attrs.frozen
class Event:
    """The base class of Melvin Vs. Kronk's events."""


class EndReason(enum.Enum):
    """Why a game ended (MK-END-1)."""

    #: The Gem deck is empty after a counted slap's cards were handed out (M15).
    GEMS_GONE = "the Gem deck is empty"
    #: Two or fewer players remain in the game (M15).
    FEW_PLAYERS = "two or fewer players remain in the game"
    #: Nobody still in the game can turn up a card and no match shows (M12).
    NO_MOVE = "nobody can turn up a card and no match shows"


@attrs.frozen
class DealerChosen(Event):
    """Chance chose the dealer, who dealt ``cards[s]`` Versus cards to each seat ``s``; the
    seat to the dealer's left begins (MK-SETUP-3)."""

    dealer: int
    cards: tuple[int, ...]


@attrs.frozen
class CardTurnedUp(Event):
    """``seat`` turned up a card of face ``face`` onto its discard pile (MK-TURN-1); ``turn``
    is false for *Amuleto Orc*'s turn-up, which is nobody's turn (MK-SPECIAL-3)."""

    seat: int
    face: int
    turn: bool = True


@attrs.frozen
class MatchSlapped(Event):
    """``seat`` slapped first while a match showed (MK-SLAP-2); ``maker`` turned up the card
    that made the match (M21)."""

    seat: int
    maker: int


@attrs.frozen
class WrongSlap(Event):
    """``seat`` slapped while no match showed (MK-SLAP-3)."""

    seat: int


@attrs.frozen
class PenaltyTaken(Event):
    """``seat`` drew the Penalty card ``card`` and suffers it (MK-PEN-1 to 3); public (M30)."""

    seat: int
    card: str


@attrs.frozen
class GemsSeen(Event):
    """``seat`` saw the Gem cards ``cards`` a slap drew: the winner when they are drawn, the
    *Orcolar* player when it takes them (M22, M30). Seen by ``seat`` only."""

    seat: int
    cards: tuple[str, ...]


@attrs.frozen
class HiddenGemsSeen(Event):
    """The public form of :class:`GemsSeen`: ``seat`` saw ``count`` Gem cards."""

    seat: int
    count: int


@attrs.frozen
class GemKept(Event):
    """``seat`` kept the Gem card ``card`` (MK-AWARD-1). Seen by ``seat`` only (M14)."""

    seat: int
    card: str


@attrs.frozen
class HiddenGemKept(Event):
    """The public form of :class:`GemKept`: ``seat`` kept a Gem card."""

    seat: int


@attrs.frozen
class GemGiven(Event):
    """``seat`` gave the Gem card ``card`` to ``receiver`` (MK-AWARD-1). Seen by both."""

    seat: int
    receiver: int
    card: str


@attrs.frozen
class HiddenGemGiven(Event):
    """The public form of :class:`GemGiven`: ``seat`` gave a Gem card to ``receiver``."""

    seat: int
    receiver: int


@attrs.frozen
class PilesCollected(Event):
    """The slap's winner ``seat`` put ``cards`` discarded cards under its draw pile
    (MK-AWARD-2)."""

    seat: int
    cards: int


@attrs.frozen
class PenaltiesReturned(Event):
    """The Penalty cards in force, ``cards``, went back to the Penalty deck (M10)."""

    cards: tuple[str, ...]


@attrs.frozen
class Eliminated(Event):
    """``seat`` is out of the game: its draw pile was empty at a slap it did not win
    (MK-ELIM-1)."""

    seat: int


@attrs.frozen
class CardMoved(Event):
    """A draw-pile card of face ``face`` went face down from ``source`` to the bottom of
    ``receiver``'s draw pile (*Toalha*, *Cartas para todos*; M19). Seen by nobody (M30)."""

    source: int
    receiver: int
    face: int


@attrs.frozen
class HiddenCardMoved(Event):
    """The public form of :class:`CardMoved`: a card went from ``source`` to ``receiver``."""

    source: int
    receiver: int


@attrs.frozen
class ToalhaPlayed(Event):
    """``seat`` played *Toalha* on ``target`` (MK-SPECIAL-1)."""

    seat: int
    target: int


@attrs.frozen
class OrcolarPlayed(Event):
    """``seat`` played *Orcolar* and takes the slap's Gem cards (MK-SPECIAL-2)."""

    seat: int


@attrs.frozen
class AmuletoPlayed(Event):
    """``seat`` played *Amuleto Orc*: the slap does not count, and ``maker`` turns up again
    (MK-SPECIAL-3)."""

    seat: int
    maker: int


@attrs.frozen
class CardReturned(Event):
    """``seat`` put its top discard, of face ``face``, under its draw pile (*Amuleto Orc*,
    MK-SPECIAL-3)."""

    seat: int
    face: int


@attrs.frozen
class OculosPlayed(Event):
    """``seat`` played *Óculos Geek* on the eliminated ``target`` (MK-SPECIAL-4)."""

    seat: int
    target: int


@attrs.frozen
class GemTaken(Event):
    """``seat`` took the Gem card ``card`` from ``target`` (*Óculos Geek*). Seen by both."""

    seat: int
    target: int
    card: str


@attrs.frozen
class HiddenGemTaken(Event):
    """The public form of :class:`GemTaken`: ``seat`` took a Gem card from ``target``."""

    seat: int
    target: int


@attrs.frozen
class GameEnded(Event):
    """The game is over (MK-END-1): every seat's score, the winners (MK-END-2) and why."""

    scores: tuple[int, ...]
    winners: frozenset[int]
    reason: EndReason


def visible(event: Event, seat: int | None) -> Event:
    """Return ``event`` as ``seat`` (``None``: a spectator) may see it."""
    if isinstance(event, GemsSeen):
        return event if seat == event.seat else HiddenGemsSeen(event.seat, len(event.cards))
    if isinstance(event, GemKept):
        return event if seat == event.seat else HiddenGemKept(event.seat)
    if isinstance(event, GemGiven):
        return (event if seat in (event.seat, event.receiver)
                else HiddenGemGiven(event.seat, event.receiver))
    if isinstance(event, GemTaken):
        return (event if seat in (event.seat, event.target)
                else HiddenGemTaken(event.seat, event.target))
    if isinstance(event, CardMoved):
        return HiddenCardMoved(event.source, event.receiver)
    return event


def visible_events(events: tuple[Event, ...], seat: int | None) -> tuple[Event, ...]:
    """Return ``events`` as ``seat`` (``None``: a spectator) may see them (MK-INFO-1)."""
    return tuple(visible(e, seat) for e in events)


def _gems(cards: tuple[str, ...]) -> str:
    return " ".join(cards) if cards else "nothing"


def describe_event(event: Event) -> str:
    """Return one event as a line of English, e.g. ``"seat 2 turns up V7"``; a hidden event
    says no more than it holds."""
    e: object = event
    if isinstance(e, CardTurnedUp):
        return f"seat {e.seat} turns up V{e.face}" + ("" if e.turn else " (nobody's turn)")
    if isinstance(e, MatchSlapped):
        return f"seat {e.seat} slaps first: a match (seat {e.maker} made it)"
    if isinstance(e, WrongSlap):
        return f"seat {e.seat} slaps with no match"
    if isinstance(e, PenaltyTaken):
        return f"seat {e.seat} takes the penalty {e.card}"
    if isinstance(e, GemsSeen):
        return f"seat {e.seat} sees the Gem cards {_gems(e.cards)}"
    if isinstance(e, HiddenGemsSeen):
        return f"seat {e.seat} sees {e.count} Gem card{'s' if e.count != 1 else ''}"
    if isinstance(e, GemKept):
        return f"seat {e.seat} keeps {e.card}"
    if isinstance(e, HiddenGemKept):
        return f"seat {e.seat} keeps a Gem card"
    if isinstance(e, GemGiven):
        return f"seat {e.seat} gives {e.card} to seat {e.receiver}"
    if isinstance(e, HiddenGemGiven):
        return f"seat {e.seat} gives a Gem card to seat {e.receiver}"
    if isinstance(e, PilesCollected):
        return f"seat {e.seat} puts {e.cards} discarded cards under its draw pile"
    if isinstance(e, PenaltiesReturned):
        return f"the penalties end: {' '.join(e.cards)} go back to the Penalty deck"
    if isinstance(e, Eliminated):
        return f"seat {e.seat} is eliminated"
    if isinstance(e, CardMoved):
        return f"seat {e.source} gives its V{e.face} to seat {e.receiver}"
    if isinstance(e, HiddenCardMoved):
        return f"seat {e.source} gives a draw-pile card to seat {e.receiver}"
    return _describe_rest(e)


def _describe_rest(e: object) -> str:
    if isinstance(e, DealerChosen):
        dealt = ", ".join(f"seat {s} {k}" for s, k in enumerate(e.cards))
        return (f"seat {e.dealer} deals ({dealt}); seat {(e.dealer + 1) % len(e.cards)}"
                " begins")
    if isinstance(e, ToalhaPlayed):
        return f"seat {e.seat} plays Toalha on seat {e.target}"
    if isinstance(e, OrcolarPlayed):
        return f"seat {e.seat} plays Orcolar and takes the Gem cards"
    if isinstance(e, AmuletoPlayed):
        return (f"seat {e.seat} plays Amuleto Orc: the slap does not count, seat {e.maker}"
                " turns up again")
    if isinstance(e, CardReturned):
        return f"seat {e.seat} puts its V{e.face} back under its draw pile"
    if isinstance(e, OculosPlayed):
        return f"seat {e.seat} plays Oculos Geek on seat {e.target}"
    if isinstance(e, GemTaken):
        return f"seat {e.seat} takes {e.card} from seat {e.target}"
    if isinstance(e, HiddenGemTaken):
        return f"seat {e.seat} takes a Gem card from seat {e.target}"
    if isinstance(e, GameEnded):
        won = ", ".join(map(str, sorted(e.winners)))
        return (f"the game ends: {e.reason.value}; scores {' '.join(map(str, e.scores))};"
                f" {'winner' if len(e.winners) == 1 else 'winners'} {won}")
    raise TypeError(f"not a Melvin Vs. Kronk event: {type(e).__name__}")
