"""What the lobby's list of tables (``GET /api/tables``) shows, read from the store so that
every server process lists the tables of all of them.

The process that plays a table writes its :class:`Summary` (round, phase, seats connected,
whether over) when it changes, a second or two late at most; the lobby reads each table's row
with it (:class:`ListedRow`) and shows what a spectator would see anyway.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import attrs

from .. import games
from .._documents import from_json

__all__ = ["Listed", "ListedRow", "Summary"]


@attrs.frozen
class Summary:
    """What the lobby shows of a table that changes as it is played: its ``round`` (Shock!;
    ``None`` for a game without rounds), its ``phase`` (lower-case name), the seats with a
    person connected (``seated``) and whether it is ``over``."""

    round: int | None
    phase: str
    seated: int
    over: bool

    def text(self) -> str:
        """The summary as the store keeps it (JSON text)."""
        return json.dumps({"round": self.round, "phase": self.phase, "seated": self.seated,
                           "over": self.over}, separators=(",", ":"))

    @classmethod
    def read(cls, text: object) -> Summary | None:
        """Read a stored summary; ``None`` for none, or for one this version did not write
        (a damaged value hides a table's progress, nothing else)."""
        try:
            data = json.loads(text) if isinstance(text, str) else None
        except (ValueError, RecursionError):
            return None
        if not isinstance(data, dict):
            return None
        rnd, phase, seated, over = (data.get(k) for k in ("round", "phase", "seated", "over"))
        if not (rnd is None or (type(rnd) is int and 0 <= rnd < 100)):
            return None
        if not (isinstance(phase, str) and phase.isascii() and phase.isidentifier()
                and len(phase) < 40):
            return None
        if type(seated) is not int or not 0 <= seated < 100 or type(over) is not bool:
            return None
        return cls(rnd, phase, seated, over)


@attrs.frozen
class ListedRow:
    """A listed table as the store returns it for the lobby: its id, config document (JSON
    text), bots, creation time, last activity (``None``: unknown), its creator's key (a keyed
    hash of the address that created it: tables of one creator are counted together;
    ``None``: unknown) and its latest :class:`Summary` (``None``: none written yet)."""

    id: str
    config: str
    bots: Mapping[int, str]
    created: float
    active: float | None
    creator: str | None
    summary: Summary | None


@attrs.frozen
class Listed:
    """One table as the lobby ranks and shows it."""

    id: str
    game: str
    players: int
    variant: str | None
    bots: Mapping[int, str]
    created: float
    active: float
    creator: str | None
    summary: Summary

    @property
    def persons(self) -> int:
        """The seats for people."""
        return self.players - len(self.bots)

    @classmethod
    def read(cls, row: ListedRow) -> Listed | None:
        """The lobby's entry for a stored row, or ``None`` for a row it cannot show (a config
        no game reads: the table could not be played either)."""
        try:
            config: Any = from_json(row.config)
        except Exception:  # a damaged row: logged where the table is loaded, not per request
            return None
        game = next((games.get(n) for n in games.names()
                     if isinstance(config, games.get(n).config_type)), None)
        if game is None:
            return None
        summary = row.summary or Summary(None, "deal", 0, False)
        variant = config.variant.value if game.name == "shock" else None
        active = row.active if row.active is not None and math.isfinite(row.active) else 0.0
        return cls(row.id, game.name, config.players, variant, row.bots, row.created, active,
                   row.creator, summary)

    def document(self, now: float) -> dict[str, object]:
        """The entry of ``GET /api/tables``."""
        return {
            "table": self.id,
            "game": self.game,
            "players": self.players,
            "variant": self.variant,
            "round": self.summary.round,
            "phase": self.summary.phase,
            "persons": self.persons,
            # Who is at the table now and how old it is: rows of tables made alike differ.
            "seated": self.summary.seated,
            "age": max(0, int(now - self.created)),
            "bots": {str(s): n for s, n in sorted(self.bots.items())},
            "over": self.summary.over,
        }
