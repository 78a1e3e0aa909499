"""What every game of the package shares below its rules: the marker of chance, and the schema
tag of every JSON document.

Both games' engines import this module and nothing else of the package but ``_errors``, so
``apply(state, outcome, seat=CHANCE)`` and a document's ``"schema"`` mean the same in both.
"""

from __future__ import annotations

import enum
from typing import Final

__all__ = ["CHANCE", "SCHEMA", "ChanceMarker"]


class ChanceMarker(enum.Enum):
    """The type of :data:`CHANCE`."""

    CHANCE = "chance"

    def __repr__(self) -> str:
        return "CHANCE"


#: Who acts at a chance step: ``apply(state, outcome, seat=CHANCE)``, and what
#: :func:`~shock_rules.current_player` returns there.
CHANCE: Final = ChanceMarker.CHANCE

#: The schema tag written into (and required in) every JSON document of the package.
SCHEMA: Final = "shock-rules/2"
