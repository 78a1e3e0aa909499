"""The package's typed errors, all in one place.

Every error the engine raises on bad input derives from :class:`ShockError` and from the
closest builtin (``ValueError``), so callers may catch either.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "EditionError",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidStateError",
    "ShockError",
]


class ShockError(Exception):
    """Base class of every error raised by shock_rules."""


class InvalidNotationError(ShockError, ValueError):
    """A text (card, chest card or action notation) cannot be parsed."""


class IllegalActionError(ShockError, ValueError):
    """An action parses but is not legal in the given state.

    The state passed to :func:`shock_rules.apply` is never changed when this is raised.
    """

    def __init__(self, message: str, *, action: object = None, seat: int | None = None) -> None:
        super().__init__(message)
        #: The offending action (an :class:`~shock_rules.Action`), when there is one.
        self.action = action
        #: The seat that tried to act, when known.
        self.seat = seat


class ConfigError(ShockError, ValueError):
    """A game configuration is invalid (player count, first leader, variant, edition)."""


class EditionError(ConfigError):
    """An edition (card data file) is malformed or inconsistent."""


class InvalidStateError(ShockError, ValueError):
    """A state (for example one loaded from JSON) breaks an invariant of the game."""
