"""``shock-rules replay RECORD``: print the transcript of a saved game record.

The record is read as JSON when its text starts with ``{``, otherwise as the text form
(:func:`~shock_rules.record.parse_record`). Exit status: 0 when the record replays; 1 when the
file cannot be read; 2 when it is malformed or does not replay (an illegal action, or a stated
result the replay does not reach) -- with a one-line error naming the line (text records) or
the action (JSON records).
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from .._errors import ShockError
from .._notation.transcript import narrate
from .._rules.events import CardPlayed
from ..record import GameRecord, parse_record, record_from_json, replay

__all__ = ["ReplayError", "load_record", "replay_command"]


class ReplayError(Exception):
    """The record could not be replayed; ``status`` is the exit status (1 or 2)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        #: 1: the file cannot be read; 2: it is malformed or illegal.
        self.status = status


def load_record(path: str, stdin: TextIO) -> GameRecord:
    """Return the record in the file ``path`` (``-``: standard input); raise
    :class:`ReplayError` when it cannot be read or parsed."""
    try:
        text = stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ReplayError(f"cannot read {path}: {reason}", 1) from None
    try:
        if text.lstrip().startswith("{"):
            return record_from_json(text)
        base = None if path == "-" else Path(path).parent
        return parse_record(text, base_dir=base)
    except ShockError as exc:
        raise ReplayError(f"{path}: {exc}", 2) from None


def replay_command(path: str, step: bool, stdin: TextIO, out: TextIO) -> int:
    """Run ``shock-rules replay``; return the exit status (raise :class:`ReplayError`)."""
    record = load_record(path, stdin)
    try:
        states = replay(record)
    except ShockError as exc:
        raise ReplayError(f"{path}: {exc}", 2) from None
    cfg = record.config
    names = {seat: record.header(f"Seat{seat}") for seat in range(cfg.players)}
    print(f"Shock! Knights & Poisons - {cfg.players} players, {cfg.variant.value} variant, "
          f"{len(record.actions)} actions", file=out)
    for key, value in record.headers:
        if not (key.startswith("Seat") and key[4:].isdigit()):
            print(f"[{key}] {value}", file=out)
    for seat, name in names.items():
        if name:
            print(f"seat {seat} is {name}", file=out)
    waiting = step
    prev = states[0]
    for line in narrate(states[0]):
        print(line, file=out)
    for state in states[1:]:
        first_card = not prev.trick and any(isinstance(e, CardPlayed) for e in state.events)
        if waiting and first_card:
            print(f"-- press Enter for trick {prev.trick_number} of round {prev.round} --",
                  end="", file=out, flush=True)
            if not stdin.readline():
                waiting = False  # input ended: print the rest without waiting
                print(file=out)
        for line in narrate(state):
            print(line, file=out)
        prev = state
    end = states[-1]
    if end.phase.name == "OVER":
        print(f"\nFinal scores: {list(end.in_bag)}", file=out)
    else:
        print(f"\nThe record stops before the end of the game (round {end.round}, "
              f"trick {end.trick_number}); bags: {list(end.in_bag)}", file=out)
    return 0
