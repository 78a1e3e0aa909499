"""``shock-rules replay RECORD``: print the transcript of a saved game record.

The record is read as JSON when its text starts with ``{``, otherwise as the text form
(:func:`~shock_rules.record.parse_record`). The transcript opens with a header (the players,
the variant, the seed and the stated result when the record has them) and ends with the
final scores and the winners. ``--step`` waits for Enter before each trick; ``q`` stops there.

Any file gets either the transcript or a one-line error, never a traceback: exit status 1
when the file cannot be read (missing, a directory, no permission); 2 when it is not a game
record: not UTF-8 text, larger than :data:`MAX_BYTES` or with a line longer than
:data:`MAX_LINE`, malformed (the error names the line of
a text record or the place in a JSON one), another kind of document (a ``simulate`` result
file is named as such), or a record that does not replay (an illegal action, or a stated
result the replay does not reach). Input quoted in an error is cut to 80 characters.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path
from typing import Any, Final, TextIO

from .. import games
from .._errors import ShockError
from .._json import SCHEMA
from .._notation.transcript import narrate
from .._rules.edition import Edition
from .._rules.events import CardPlayed
from .._rules.state import Phase, State
from ..record import GameRecord, parse_record, record_from_json, replay
from ._args import PROG, clip_message, path_text, quote, report, result_lines

__all__ = ["MAX_BYTES", "MAX_LINE", "ReplayError", "load_record", "register", "replay_command"]

#: A record file larger than this is refused unread: a whole game's record is a few
#: kilobytes, even with an embedded edition.
MAX_BYTES: Final = 64 * 1024 * 1024
#: A text record with a longer line is refused before it is parsed: its longest line, an
#: embedded edition, is a few kilobytes, and parsing a line of megabytes takes seconds.
MAX_LINE: Final = 100_000

# What a JSON document of the package is, by its "type", for an error that says what a
# file is when it is not a record.
_KINDS: Final = {"simulation": "a simulate result file", "state": "a game state document",
                 "view": "a player view document", "config": "a game config document",
                 "edition": "an edition document", "action": "an action document",
                 "events": "an events document"}


class ReplayError(Exception):
    """The record could not be replayed; ``status`` is the exit status (1 or 2)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        #: 1: the file cannot be read; 2: it is not a record, or it does not replay.
        self.status = status


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``replay`` sub-command to the command's sub-parsers."""
    p = sub.add_parser("replay", help="print the transcript of a saved game record",
                       description=("Print the transcript of a saved game record, all at once or "
                                    "trick by trick."))
    p.add_argument("record", metavar="RECORD",
                   help="a game record file, text or JSON ('-': standard input)")
    p.add_argument("--step", action="store_true",
                   help="wait for Enter before each trick ('q' stops)")
    p.set_defaults(run=_run, parser=p)


def _run(args: argparse.Namespace) -> int:
    try:
        return replay_command(args.record, args.step, sys.stdin, sys.stdout)
    except ReplayError as exc:
        return report("replay", str(exc), exc.status)
    except KeyboardInterrupt:
        print(f"\n{PROG} replay: interrupted", file=sys.stderr)
        return 130


def _read(path: str, stdin: TextIO) -> str:
    """Return the text of the file ``path`` (``-``: standard input)."""
    name = path_text(path)
    try:
        if path == "-":
            text = stdin.read(MAX_BYTES + 1)
            too_big = len(text) > MAX_BYTES
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_BYTES + 1)
            too_big = len(data) > MAX_BYTES
            text = "" if too_big else data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReplayError(f"{name} is not a game record: it is not UTF-8 text (byte "
                          f"0x{exc.object[exc.start]:02x} at offset {exc.start})", 2) from None
    except OSError as exc:
        raise ReplayError(f"cannot read {name}: {exc.strerror or clip_message(str(exc))}",
                          1) from None
    except ValueError as exc:  # e.g. a NUL character in the path
        raise ReplayError(f"cannot read {name}: {clip_message(str(exc))}", 1) from None
    if too_big:
        raise ReplayError(f"{name} is not a game record: it is larger than "
                          f"{MAX_BYTES // (1024 * 1024)} MB", 2)
    return text


def _kind_of(data: object) -> str | None:
    """Return what a JSON document is when it is a document of the package but no record."""
    if not isinstance(data, dict) or data.get("type") == "record":
        return None
    kind, schema = data.get("type"), data.get("schema")
    # Any version of the package's documents: a file of an older version is still named.
    if isinstance(schema, str) and schema.startswith("shock-rules/") and isinstance(kind, str):
        what = _KINDS.get(kind, f"a {quote(kind)} document")
        return what if schema == SCHEMA else f"{what} ({quote(schema)})"
    return None


def load_record(path: str, stdin: TextIO) -> GameRecord:
    """Return the record in the file ``path`` (``-``: standard input); raise
    :class:`ReplayError` when it cannot be read or is not a game record."""
    text = _read(path, stdin)
    name = path_text(path)
    try:
        if text.lstrip().startswith("{"):
            try:
                data = json.loads(text)
            except RecursionError:
                raise ReplayError(f"{name} is not a game record: its JSON is nested too "
                                  "deeply", 2) from None
            except ValueError as exc:
                raise ReplayError(f"{name} is not a game record: it is not valid JSON "
                                  f"({clip_message(str(exc))})", 2) from None
            kind = _kind_of(data)
            if kind is not None:
                raise ReplayError(f"{name} is {kind}, not a game record", 2)
            return record_from_json(data)
        for number, line in enumerate(text.splitlines(), 1):
            if len(line) > MAX_LINE:
                raise ReplayError(f"{name} is not a game record: line {number} is longer than "
                                  f"{MAX_LINE} characters ({quote(line)})", 2)
        base = None if path == "-" else Path(path).parent
        return parse_record(text, base_dir=base)
    except ShockError as exc:
        raise ReplayError(f"{name}: {clip_message(str(exc))}", 2) from None
    except UnicodeDecodeError as exc:
        # Only an edition file named by the record's [Edition] header is read here.
        raise ReplayError(f"{name}: [Edition]: the edition file is not UTF-8 text ({exc.reason}"
                          f" at offset {exc.start})", 2) from None
    except OSError as exc:
        raise ReplayError(f"{name}: [Edition]: cannot read the edition file: "
                          f"{exc.strerror or clip_message(str(exc))}", 1) from None
    except (ValueError, RecursionError) as exc:
        # The library promises its own errors; this keeps the command to one line if an
        # untyped one slips through (e.g. digits that str.isdigit accepts but int refuses).
        raise ReplayError(f"{name}: {clip_message(str(exc))}", 2) from None


def _header(record: GameRecord, path: str, out: TextIO) -> None:
    cfg = record.config
    first = "chance" if cfg.first_leader is None else f"seat {cfg.first_leader}"
    print(f"Shock! Knights & Poisons - replay of {path}", file=out)
    edition = "" if cfg.edition == Edition.default() else f", edition {quote(cfg.edition.name)}"
    print(f"{cfg.players} players, {cfg.variant.value} variant{edition}; first leader: "
          f"{first}; {len(record.actions)} actions", file=out)
    players = ", ".join(f"seat {s}: {record.header(f'Seat{s}') or '?'}"
                        for s in range(cfg.players))
    print(f"players: {players}", file=out)
    seed = record.header("Seed")
    if seed is not None:
        print(f"seed: {seed}", file=out)
    result = record.header("Result")
    print(f"result: {'scores ' + result if result is not None else 'not stated'}", file=out)
    for key, value in record.headers:
        if key not in ("Seed", "Result") and not (key.startswith("Seat") and key[4:].isdigit()):
            print(f"{key}: {value}", file=out)


def _names(record: GameRecord, seat: int) -> str:
    name = record.header(f"Seat{seat}")
    return f"seat {seat}" + (f" ({name})" if name else "")


def _ending(record: GameRecord, end: State, out: TextIO) -> None:
    if end.phase is Phase.OVER:
        best = [s for s in range(record.config.players) if end.in_bag[s] == max(end.in_bag)]
        print("", *result_lines(end.in_bag, best, lambda s: _names(record, s)), sep="\n",
              file=out)
    else:
        print(f"\nThe record stops before the end of the game (round {end.round}, "
              f"trick {end.trick_number}); bags: {list(end.in_bag)}", file=out)


def replay_command(path: str, step: bool, stdin: TextIO, out: TextIO) -> int:
    """Run ``shock-rules replay``; return the exit status (raise :class:`ReplayError`)."""
    record = load_record(path, stdin)
    try:
        states = replay(record)
    except (ShockError, ValueError) as exc:
        raise ReplayError(f"{path_text(path)}: {clip_message(str(exc))}", 2) from None
    if record.game != "shock":
        return _replay_other(record, states, path, step, stdin, out)
    _header(record, path, out)
    waiting = step
    prev = states[0]
    for line in narrate(states[0]):
        print(line, file=out)
    for state in states[1:]:
        first_card = not prev.trick and any(isinstance(e, CardPlayed) for e in state.events)
        if waiting and first_card:
            print(f"-- press Enter for trick {prev.trick_number} of round {prev.round}, "
                  "or q to stop --", end="", file=out, flush=True)
            answer = stdin.readline()
            if not answer:
                waiting = False  # input ended: print the rest without waiting
                print(file=out)
            elif answer.strip().lower() in ("q", "quit"):
                print(f"stopped before trick {prev.trick_number} of round {prev.round}",
                      file=out)
                return 0
        for line in narrate(state):
            print(line, file=out)
        prev = state
    _ending(record, states[-1], out)
    return 0


def _ask(out: TextIO, stdin: TextIO, prompt: str) -> bool | None:
    """Ask for Enter before going on; return ``True`` to go on, ``False`` to stop (``q``),
    ``None`` when the input ended (go on without asking again)."""
    print(f"-- press Enter for {prompt}, or q to stop --", end="", file=out, flush=True)
    answer = stdin.readline()
    if not answer:
        print(file=out)
        return None
    return answer.strip().lower() not in ("q", "quit")


def _replay_other(record: GameRecord, states: list[Any], path: str, step: bool,
                  stdin: TextIO, out: TextIO) -> int:
    """The transcript of a record of another game than Shock! (Melvin Vs. Kronk): every
    event of every step in words, a referee's account (moved cards' faces included);
    ``--step`` waits before each slap."""
    game = games.get(record.game)
    n = game.players_of(record.config)
    print(f"{game.title} - replay of {path}", file=out)
    print(f"{n} players; {len(record.actions)} actions", file=out)
    print("players: " + ", ".join(f"seat {s}: {record.header(f'Seat{s}') or '?'}"
                                  for s in range(n)), file=out)
    for key, value in record.headers:
        if not (key.startswith("Seat") and key[4:].isdigit()):
            print(f"{key.lower()}: {value}", file=out)
    waiting = step
    for number, (before, state) in enumerate(itertools.pairwise(states), 1):
        slap = str(record.actions[number - 1]).endswith(" slap")
        if waiting and slap:
            answer = _ask(out, stdin, f"the slap of step {before.step + 1}")
            if answer is False:
                print(f"stopped before step {before.step + 1}", file=out)
                return 0
            waiting = answer is True
        for event in state.events:
            print(game.describe_event(event), file=out)
    end = states[-1]
    if game.is_terminal(end):
        print("", *result_lines(game.scores(end), sorted(game.winners(end)),
                                lambda s: _names(record, s)), sep="\n", file=out)
    else:
        print(f"\nThe record stops before the end of the game (step {end.step}); scores:"
              f" {list(game.scores(end))}", file=out)
    return 0
