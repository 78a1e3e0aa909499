"""Game configuration: player count, rules variant, edition and first leader.

A :class:`GameConfig` is validated when it is created; everything the engine derives from it
(the cards in play, hand size, face-down gems, lookup tables) is computed once in
:class:`Tables` and shared by every state of the game.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Final

import attrs

from .._errors import ConfigError, quoted
from .edition import Edition

if TYPE_CHECKING:
    pass

__all__ = ["GameConfig", "Variant"]

MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 5
ROUNDS: Final = 5


class Variant(enum.Enum):
    """The two rules variants (K2)."""

    #: Cards left in hand at the end of a round carry over to the next round.
    STANDARD = "standard"
    #: Every hand is discarded at the end of a round and a fresh hand is dealt.
    SIMPLIFIED = "simplified"

    @classmethod
    def parse(cls, text: str) -> Variant:
        """Return the variant named ``"standard"`` or ``"simplified"``."""
        try:
            return cls(text.strip().lower())
        except (ValueError, AttributeError):
            raise ConfigError(
                f"unknown variant {quoted(text)}: expected 'standard' or 'simplified'"
            ) from None


def _check_players(instance: GameConfig, attribute: object, value: int) -> None:
    if type(value) is not int or not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise ConfigError(f"players must be 3, 4 or 5, not {quoted(value)}")


def _check_variant(instance: GameConfig, attribute: object, value: Variant) -> None:
    if not isinstance(value, Variant):
        raise ConfigError(f"variant must be a Variant, not {quoted(value)}")


def _check_edition(instance: GameConfig, attribute: object, value: Edition) -> None:
    if not isinstance(value, Edition):
        raise ConfigError(f"edition must be an Edition, not {quoted(value)}")


def _check_leader(instance: GameConfig, attribute: object, value: int | None) -> None:
    if value is None:
        return
    if type(value) is not int or not 0 <= value < instance.players:
        raise ConfigError(
            f"first_leader must be a seat 0-{instance.players - 1} or None, not {quoted(value)}"
        )


def _variant(value: Variant | str) -> Variant:
    return Variant.parse(value) if isinstance(value, str) else value


@attrs.frozen(cache_hash=True)
class GameConfig:
    """What a game is played with. Seats are numbered ``0`` to ``players - 1`` clockwise.

    >>> GameConfig(players=3).hand_size
    9
    >>> GameConfig(players=6)
    Traceback (most recent call last):
    ...
    shock_rules.ConfigError: players must be 3, 4 or 5, not 6
    """

    #: Number of players: 3, 4 or 5 (K3).
    players: int = attrs.field(default=4, validator=_check_players)
    #: Standard or simplified rules (K2).
    variant: Variant = attrs.field(default=Variant.STANDARD, converter=_variant,
                                   validator=_check_variant)
    #: The card data (K4).
    edition: Edition = attrs.field(factory=Edition.default, validator=_check_edition)
    #: The first round's leader; ``None`` makes it a chance decision (K5).
    first_leader: int | None = attrs.field(default=None, validator=_check_leader)

    @property
    def hand_size(self) -> int:
        """Cards per hand: 9 with 3 or 4 players, 8 with 5 (rulebook Setup 7)."""
        return 8 if self.players == 5 else 9

    @property
    def face_down_gems(self) -> int:
        """Gems placed on a face-down card: 1, or 2 with 3 players (rulebook, Withdrawal)."""
        return 2 if self.players == 3 else 1

    @property
    def ranks(self) -> range:
        """The ranks in play: 2-10 (3 players), 1-10 (4), 1-11 (5) (K3)."""
        return {3: range(2, 11), 4: range(1, 11), 5: range(1, 12)}[self.players]
