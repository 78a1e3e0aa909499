"""Where the package's pictures are found: ``_repr_svg_`` of cards, views and states.

:class:`~shock_rules.Card`, :class:`~shock_rules.PlayerView` and :class:`~shock_rules.State`
show as pictures in Jupyter through ``_repr_svg_``, but they are defined in the rule layers,
below :mod:`shock_rules.svg`, which draws them and may not be imported from there (no import
cycles). So the drawing functions register here when ``shock_rules.svg`` is imported, which the
package's ``__init__`` does, and ``_repr_svg_`` asks for them by the object's type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["picture", "register"]

_DRAWERS: dict[type, Callable[[Any], str]] = {}


def register(cls: type, drawer: Callable[[Any], str]) -> None:
    """Make ``drawer`` the picture of every object of type ``cls``."""
    _DRAWERS[cls] = drawer


def picture(obj: object) -> str | None:
    """Return the SVG picture of ``obj``, or ``None`` (Jupyter then shows its text) when no
    drawing is registered for its type."""
    drawer = _DRAWERS.get(type(obj))
    return None if drawer is None else drawer(obj)
