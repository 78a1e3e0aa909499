"""The package's typed errors, all in one place.

Every error the package raises on bad input derives from :class:`ShockError` and from the
closest builtin (``ValueError``; :class:`InvalidArgumentError` also ``TypeError``), so callers
may catch either. Bad data (text, documents, configurations, an illegal action) raises one of
them with a reason; an argument of the wrong Python type (a dict where a ``State`` belongs)
raises ``TypeError``, as Python does.

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

import math

__all__ = [
    "QUOTE_LIMIT",
    "ConfigError",
    "EditionError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidNotationError",
    "InvalidStateError",
    "ShockError",
    "check_bool",
    "check_int",
    "check_number",
    "check_seat",
    "quoted",
]

#: The most characters of an input that an error message quotes.
QUOTE_LIMIT = 80


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """Return ``repr(value)`` for an error message, with at most ``limit`` characters of the
    value shown: a longer one is cut, an ellipsis marks the cut, and a string keeps its
    closing quote (inputs come from strangers and may be megabytes long, or nested deeper
    than ``repr`` goes)."""
    if isinstance(value, str):
        shown = repr(value[:limit + 1])  # escapes can only lengthen what is shown
        inner = shown[1:-1]
        if len(inner) <= limit and len(value) <= limit:
            return shown
        return shown[0] + inner[:limit - 1] + "\u2026" + shown[-1]
    try:
        text = repr(value)
    except ValueError:  # an int (or a list of one) past Python's limit on digits shown
        text = f"<{type(value).__name__} too large to show>"
    except RecursionError:  # lists or objects nested deeper than Python's recursion limit
        text = f"<{type(value).__name__} nested too deeply to show>"
    return text if len(text) <= limit + 2 else text[:limit + 1] + "\u2026"


def check_bool(name: str, value: object, error: type[ShockError] | None = None) -> bool:
    """Return ``value`` if it is a bool; else raise ``error`` (:class:`InvalidArgumentError`
    when not given; :class:`ConfigError` for a setting of a game or environment) naming the
    argument ``name``: ``zero_sum="no"`` or ``paired=1`` is not taken for true."""
    if type(value) is not bool:
        raise (error or InvalidArgumentError)(
            f"invalid {name} {quoted(value)}: expected True or False")
    return value


def check_int(name: str, value: object, least: int | None = None) -> int:
    """Return ``value`` if it is an integer, and at least ``least`` when that is given; else
    raise :class:`InvalidArgumentError` (a ``TypeError`` and a ``ValueError``) naming the
    argument ``name``. A bool is not taken for a number.

    The bots check their settings with this and :func:`check_number` when they are made, not
    at their first decision. Their constructors declare
    the parameters as ``object``: the compiled build would check a parameter declared ``int``
    or ``float`` itself, before these checks, with a ``TypeError`` of its own.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgumentError(f"invalid {name} {quoted(value)}: expected an integer")
    if least is not None and value < least:
        raise InvalidArgumentError(
            f"invalid {name} {quoted(value)}: expected an integer of at least {least}")
    return int(value)


def check_number(name: str, value: object, least: float | None = None,
                 most: float | None = None, positive: bool = False) -> float:
    """Return ``value`` as a float if it is a finite number (an ``int`` or a ``float``, not a
    bool) in range: at least ``least``, at most ``most``, above 0 when ``positive``; else
    raise :class:`InvalidArgumentError` naming the argument (see :func:`check_int`)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidArgumentError(f"invalid {name} {quoted(value)}: expected a finite number")
    try:
        number = float(value)
    except OverflowError:  # an int too large for a float
        raise InvalidArgumentError(
            f"invalid {name} {quoted(value)}: expected a finite number (this one is too large"
            f" for a float)") from None
    if not math.isfinite(number):
        raise InvalidArgumentError(f"invalid {name} {quoted(value)}: expected a finite number")
    if positive and number <= 0:
        raise InvalidArgumentError(f"invalid {name} {quoted(value)}: expected a number above 0")
    if least is not None and number < least:
        raise InvalidArgumentError(
            f"invalid {name} {quoted(value)}: expected a number of at least {least}")
    if most is not None and number > most:
        raise InvalidArgumentError(
            f"invalid {name} {quoted(value)}: expected a number of at most {most}")
    return number


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


def missing_extra(module: str, extra: str, exc: ImportError,
                  packages: frozenset[str]) -> ImportError:
    """Return the one-line error of a module imported without its extra's package (``exc``
    names it), or ``exc`` itself when the missing module is none of the extra's ``packages``
    (a real fault, to surface as it is)."""
    name = (exc.name or "").partition(".")[0]
    if name not in packages:
        return exc
    return ImportError(f"{module} needs {name}, which is not installed:"
                       f" pip install 'shock-rules[{extra}]'")


def check_seat(seat: object, players: int) -> int:
    """Return ``seat`` if it is a seat of a game of ``players`` (an integer 0 to
    ``players - 1``; not a bool, not a negative index from the end); else raise
    :class:`InvalidArgumentError`."""
    if type(seat) is not int or not 0 <= seat < players:
        raise InvalidArgumentError(f"invalid seat {quoted(seat)}: expected 0-{players - 1}")
    return seat
