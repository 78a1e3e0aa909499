"""The package's typed errors, all in one place.

Every error the package raises on bad input derives from :class:`ShockError` and from the
closest builtin (``ValueError``; :class:`InvalidArgumentError` also ``TypeError``), so callers
may catch either. No public function lets another exception escape on bad input.

The hierarchy::

    ShockError
    ├── InvalidNotationError    (ValueError)  text that is not valid notation
    ├── IllegalActionError      (ValueError)  an action not legal now
    │   └── RecordError                       a record that does not replay (shock_rules.record)
    ├── ConfigError             (ValueError)  an invalid game configuration
    │   └── EditionError                      an invalid edition (card data)
    ├── InvalidStateError       (ValueError)  a state, view or document no legal play reaches
    └── InvalidArgumentError    (ValueError, TypeError)  any other argument of the wrong kind
"""

from __future__ import annotations

__all__ = [
    "QUOTE_LIMIT",
    "ConfigError",
    "EditionError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidNotationError",
    "InvalidStateError",
    "ShockError",
    "quoted",
]

#: The most characters of an input that an error message quotes.
QUOTE_LIMIT = 80


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """Return ``repr(value)`` for an error message, with at most ``limit`` characters of the
    value shown: a longer one is cut, an ellipsis marks the cut, and a string keeps its
    closing quote (inputs come from strangers and may be megabytes long)."""
    if isinstance(value, str):
        shown = repr(value[:limit + 1])  # escapes can only lengthen what is shown
        inner = shown[1:-1]
        if len(inner) <= limit and len(value) <= limit:
            return shown
        return shown[0] + inner[:limit - 1] + "\u2026" + shown[-1]
    text = repr(value)
    return text if len(text) <= limit + 2 else text[:limit + 1] + "\u2026"


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


class InvalidArgumentError(ShockError, ValueError, TypeError):
    """An argument is of the wrong kind or out of range where no more specific error applies:
    a seat that is not a seat number, a random generator that is not a ``random.Random``, a
    bot that is not a :class:`~shock_rules.Bot`, a list of events that holds something else.
    """
