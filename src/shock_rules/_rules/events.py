"""Events: what one call of :func:`~shock_rules.apply` caused, in order.

``state.events`` holds the events of the step that produced ``state`` (empty for a new game), so
a front-end can animate a step without comparing states. Events are not part of a state's
equality: two states that are the same position compare equal however they were reached.

Some events carry hidden information (the card dealt, the identity of a face-down card); a
per-player view must filter them.
"""

from __future__ import annotations

import enum

import attrs

from .cards import Card
from .edition import ChestCard

__all__ = [
    "CardDealt",
    "CardPlayed",
    "ChestRevealed",
    "ChestStopped",
    "Event",
    "GameEnded",
    "GemsBanked",
    "GemsGained",
    "HiddenCardDealt",
    "HiddenCardPlayed",
    "LeaderChosen",
    "PoisonCovered",
    "PoisonTaken",
    "PotionTaken",
    "RoundEndReason",
    "RoundEnded",
    "RoundStarted",
    "Shocked",
    "TrickAbandoned",
    "TrickWon",
    "TrumpRevealed",
    "Withdrew",
]


class Event:
    """Base class of all events."""

    __slots__ = ()


@attrs.frozen
class CardDealt(Event):
    """A number card was dealt to a seat (hidden from the other seats)."""

    seat: int
    card: Card


@attrs.frozen
class TrumpRevealed(Event):
    """The trump card of the round was revealed; its suit is trump."""

    card: Card


@attrs.frozen
class LeaderChosen(Event):
    """Chance chose the first leader of the game (K5)."""

    seat: int


@attrs.frozen
class RoundStarted(Event):
    """A round was set up: cards are about to be dealt; ``leader`` leads its first trick."""

    round: int
    leader: int


@attrs.frozen
class CardPlayed(Event):
    """A seat played a card into the trick, face up or face down, with gems placed on it."""

    seat: int
    card: Card
    face_up: bool
    gems: int


@attrs.frozen
class Withdrew(Event):
    """A seat withdrew from the round, moving ``banked`` gems from on its bag into it (K11)."""

    seat: int
    banked: int


@attrs.frozen
class TrickWon(Event):
    """A seat won a trick with ``card`` and took ``gems`` onto its bag."""

    seat: int
    trick: int
    card: Card
    gems: int


@attrs.frozen
class TrickAbandoned(Event):
    """Everyone still in the round withdrew: the trick has no winner (K13).

    Its ``gems`` went back to the supply.
    """

    trick: int
    gems: int


@attrs.frozen
class PoisonTaken(Event):
    """A trick winner took a poison number card into their play area."""

    seat: int
    card: Card
    poison: str


@attrs.frozen
class PotionTaken(Event):
    """A trick winner took a potion card into their play area."""

    seat: int
    card: Card


@attrs.frozen
class PoisonCovered(Event):
    """The potion ``potion`` of the seat was laid on its poison number card ``card`` (K16),
    where it stays until the round's cards are cleared (POTION-6)."""

    seat: int
    card: Card
    potion: Card


@attrs.frozen
class Shocked(Event):
    """A seat suffered anaphylactic shock from ``poison`` and returned ``lost`` gems (K18)."""

    seat: int
    poison: str
    lost: int


@attrs.frozen
class ChestRevealed(Event):
    """A seat revealed a chest card (``number`` 1-3 within the challenge)."""

    seat: int
    card: ChestCard
    number: int


@attrs.frozen
class GemsGained(Event):
    """A seat gained gems from the supply onto its bag from a chest card."""

    seat: int
    gems: int


@attrs.frozen
class ChestStopped(Event):
    """The revealer chose not to reveal another chest card."""

    seat: int


@attrs.frozen
class GemsBanked(Event):
    """At the end of a round a seat still in it moved its gems on the bag into the bag."""

    seat: int
    gems: int


class RoundEndReason(enum.Enum):
    """Why a round ended (K25, K13)."""

    HANDS_EMPTY = "every card of the hands was played"
    NOBODY_LEFT = "no player is left in the round"
    ONE_LEFT = "only one player is left in the round"
    ALL_WITHDREW = "everyone left in the round withdrew during a trick"


@attrs.frozen
class RoundEnded(Event):
    """A round ended."""

    round: int
    reason: RoundEndReason


@attrs.frozen
class GameEnded(Event):
    """The fifth round ended: the game is over."""

    scores: tuple[int, ...]
    winners: frozenset[int]


# -- public forms of events that carry a secret ---------------------------------------------
# What a view shows instead of CardDealt and of another seat's face-down CardPlayed.


@attrs.frozen
class HiddenCardDealt(Event):
    """A number card was dealt to ``seat``; which card is that seat's secret (K34)."""

    #: The seat that received the card.
    seat: int


@attrs.frozen
class HiddenCardPlayed(Event):
    """``seat`` played a card face down with ``gems`` on it; which card is that seat's secret
    (K10, K34)."""

    #: The seat that played the card.
    seat: int
    #: The gems placed on the card (1, or 2 with 3 players).
    gems: int
