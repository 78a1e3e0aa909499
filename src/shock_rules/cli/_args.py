"""What the sub-commands share: the parser class, argument types, the one-line error format
and the helper that shortens quoted input.

Every error of the command is one line on standard error that starts with the program and
sub-command: ``shock-rules play: error: ...`` (``shock-rules: error: ...`` before a
sub-command is known). Input quoted in an error is cut to :data:`QUOTE_LIMIT` characters, so
a huge one-line file is never echoed back.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final, NoReturn, TextIO

from .. import COMPILED, __version__, games
from .._errors import QUOTE_LIMIT, ShockError, quoted
from .._rules.config import Variant
from ..bots import BOTS, make_bot

__all__ = [
    "PATH_LIMIT",
    "PROG",
    "QUOTE_LIMIT",
    "Parser",
    "bots_arg",
    "checked_names",
    "clip",
    "clip_message",
    "common_args",
    "game_args",
    "game_config",
    "jobs_default",
    "names_arg",
    "path_text",
    "players_arg",
    "plural",
    "positive_arg",
    "quote",
    "report",
    "seat_arg",
    "seed_arg",
    "unwritable",
    "variant_arg",
    "version_text",
]

#: The program's name, the first word of every error line.
PROG: Final = "shock-rules"
#: A file name in an error is shown whole up to this many characters.
PATH_LIMIT: Final = 200
#: No message of the package or of argparse is shown longer than this in an error.
_LINE_LIMIT: Final = 400
_ELLIPSIS: Final = "\u2026"

# A run of characters without a space that is longer than the quote limit.
_LONG_RUN: Final = re.compile(r"\S{" + str(QUOTE_LIMIT + 1) + ",}")


def version_text() -> str:
    """Return what ``shock-rules --version`` prints: ``shock-rules <version> (<build>)``, the
    build being ``compiled`` (mypyc) or ``pure`` (see :data:`shock_rules.COMPILED`)."""
    return f"{PROG} {__version__} ({'compiled' if COMPILED else 'pure'})"


def clip(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Return ``text``, or its first ``limit - 1`` characters and an ellipsis if it is longer
    than ``limit``."""
    return text if len(text) <= limit else text[:limit - 1] + _ELLIPSIS


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Return ``text`` quoted as :func:`repr` quotes it, with at most ``limit`` characters
    between the quotes (the rest replaced by an ellipsis)."""
    return quoted(text, limit)


def _closing(text: str, start: int) -> int:
    """Return the index of the quote that closes the one at ``start`` (a backslash escapes a
    quote, as in :func:`repr`), or -1."""
    mark = text[start]
    k = start + 1
    while (k := text.find(mark, k)) >= 0:
        b = k - 1
        while b > start and text[b] == "\\":
            b -= 1
        if (k - 1 - b) % 2 == 0:
            return k
        k += 1
    return -1


def _plain(text: str) -> str:
    """Return plain (unquoted) text of a message with long runs cut; a text far longer than
    an error line is cut first (it could not be shown anyway)."""
    if len(text) > 2 * _LINE_LIMIT:
        text = text[:2 * _LINE_LIMIT] + _ELLIPSIS
    return _LONG_RUN.sub(lambda m: clip(m.group(0)), text)


def clip_message(message: str) -> str:
    """Return an error message with every quoted span and every long unbroken run of input
    cut to :data:`QUOTE_LIMIT` characters, on one line of at most 400 characters.

    The package's own messages quote the offending input with ``repr``; this is the one place
    that keeps a 20 MB input out of a one-line error, whichever layer wrote the message. It
    scans with :meth:`str.find` and stops once it has a line's worth, so a message of
    megabytes costs milliseconds.
    """
    parts: list[str] = []
    size = 0
    i = 0
    # The next single and double quote at or after i (-1: none left).
    next_quote = {"'": message.find("'"), '"': message.find('"')}
    while i < len(message) and size <= 2 * _LINE_LIMIT:
        for mark, at in next_quote.items():
            if 0 <= at < i:
                next_quote[mark] = message.find(mark, i)
        starts = [at for at in next_quote.values() if at >= 0]
        start = min(starts) if starts else -1
        end = _closing(message, start) if start >= 0 else -1
        if end < 0:  # no quote left, or one that is never closed: plain text to the end
            parts.append(_plain(message[i:]))
            break
        parts.append(_plain(message[i:start]))
        parts.append(message[start] + clip(message[start + 1:end]) + message[end])
        size += len(parts[-2]) + len(parts[-1])
        i = end + 1
    else:
        if i < len(message):
            parts.append(_ELLIPSIS)
    return clip(" ".join("".join(parts).split()), _LINE_LIMIT)


def path_text(path: str) -> str:
    """Return a file name as an error shows it: whole, unless it is absurdly long."""
    return clip(" ".join(path.splitlines()), PATH_LIMIT)


def report(command: str | None, message: str, status: int, err: TextIO | None = None) -> int:
    """Print the one-line error ``shock-rules <command>: error: <message>`` and return
    ``status`` (the exit status).

    ``message`` is the command's own words: pass any text that holds input (an exception's
    message) through :func:`clip_message`, a file name through :func:`path_text`, a piece of
    input through :func:`quote`.
    """
    prog = PROG if command is None else f"{PROG} {command}"
    line = " ".join(message.split())  # one line, whatever the message holds
    print(f"{prog}: error: {clip(line, PATH_LIMIT + 2 * _LINE_LIMIT)}", file=err or sys.stderr)
    return status


def result_lines(scores: Sequence[int], best: Sequence[int],
                 name: Callable[[int], str] = lambda seat: f"seat {seat}") -> list[str]:
    """Return the two lines that end a game's transcript, worded alike by ``demo``, ``replay``
    and ``play``: the final scores, then the winner or the winners of a shared victory."""
    who = ", ".join(name(seat) for seat in sorted(best))
    return [f"Final scores: {list(scores)}",
            f"Winner: {who}" if len(best) == 1 else f"Winners (a shared victory): {who}"]


def plural(n: int, word: str) -> str:
    """Return ``"1 gem"``, ``"2 gems"``: the count and the word, plural unless ``n`` is 1."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def unwritable(path: str) -> str | None:
    """Return why ``path`` cannot be written (a sentence), or ``None`` if it can.

    The check opens the file for appending, which neither truncates an existing file nor
    leaves a new one behind, so it answers for permissions, missing folders and read-only
    file systems alike.
    """
    p = Path(path)
    try:
        existed = p.exists()
        if p.is_dir():
            return "it is a directory"
        with open(p, "a", encoding="utf-8"):
            pass
        if not existed:
            p.unlink()
    except OSError as exc:
        return exc.strerror or str(exc)
    except ValueError as exc:  # e.g. a NUL character in the path
        return str(exc)
    return None


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``<prog>: error: ...``, exit status 2),
    with quoted input cut short."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {clip_message(message)}\n")


# -- argument types ------------------------------------------------------------------------------


def players_arg(text: str) -> int:
    """Return a player count (3, 4 or 5)."""
    if text.strip() not in ("3", "4", "5"):
        raise argparse.ArgumentTypeError(f"players must be 3, 4 or 5, not {quote(text)}")
    return int(text)


def variant_arg(text: str) -> Variant:
    """Return a variant by name."""
    try:
        return Variant.parse(text)
    except ShockError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def seed_arg(text: str) -> int:
    """Return a random seed (an integer of at most 100 ASCII digits, maybe signed: the limit
    of :func:`shock_rules.simulation.run_simulation`)."""
    if not re.fullmatch(r"[+-]?[0-9]{1,100}", text.strip()):
        raise argparse.ArgumentTypeError(
            f"seed must be an integer of at most 100 digits, not {quote(text)}")
    return int(text)


def _whole(text: str) -> int | None:
    """Return the integer written in ASCII digits, or ``None`` (``int`` accepts more)."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 20 else None


def positive_arg(what: str) -> Callable[[str], int]:
    """Return a type that reads a positive integer; errors name ``what``."""
    def parse(text: str) -> int:
        n = _whole(text)
        if n is None or n < 1:
            raise argparse.ArgumentTypeError(f"{what} must be a positive integer, not "
                                             f"{quote(text)}")
        return n

    return parse


def seat_arg(text: str) -> int:
    """Return a seat number 0-4 (the player count narrows it later)."""
    n = _whole(text)
    if n is None or not 0 <= n <= 4:
        raise argparse.ArgumentTypeError(f"seat must be 0-4, not {quote(text)}")
    return n


def _shock_bot(name: str) -> str:
    """Return a Shock! bot's name once it is known (``mcts:N``: N a positive integer); raise
    ``argparse.ArgumentTypeError`` saying what is wrong."""
    base, colon, budget = name.partition(":")
    if base not in BOTS:
        raise argparse.ArgumentTypeError(f"unknown bot {quote(name)}: expected one of "
                                         f"{', '.join(BOTS)}")
    if colon and base != "mcts":
        raise argparse.ArgumentTypeError(f"invalid bot {quote(name)}: only mcts takes a "
                                         "budget, as in 'mcts:50'")
    if colon and ((n := _whole(budget)) is None or n < 1):
        raise argparse.ArgumentTypeError(
            f"invalid bot {quote(name)}: the budget of mcts (its iterations per decision) "
            "must be a positive integer, as in 'mcts:50'")
    try:
        make_bot(name)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return name


def bots_arg(text: str) -> list[str]:
    """Return the Shock! bot names of a comma-separated list, each checked (``mcts:N``: N a
    positive integer)."""
    return [_shock_bot(name) for name in names_arg(text)]


def common_args(p: argparse.ArgumentParser) -> None:
    """Add ``--players`` and ``--variant`` (Shock! only: ``play``)."""
    p.add_argument("--players", type=players_arg, default=4, help="3, 4 or 5 (default 4)")
    p.add_argument("--variant", type=variant_arg, default=Variant.STANDARD,
                   help="standard or simplified (default standard)")


def _count_arg(text: str) -> int:
    """Return a player count of any game (3 to 6); the game narrows it once it is known."""
    if text.strip() not in ("3", "4", "5", "6"):
        raise argparse.ArgumentTypeError(f"players must be 3 to 6, not {quote(text)}")
    return int(text)


def names_arg(text: str) -> list[str]:
    """Return the bot names of a comma-separated list (checked once the game is known)."""
    names = [n.strip().lower() for n in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"invalid bot list {quote(text)}: expected names "
                                         "such as 'heuristic,random'")
    return names


def game_args(p: argparse.ArgumentParser, game: str = "shock") -> None:
    """Add ``--game`` (default ``game``), ``--players`` and ``--variant`` (Shock!'s) for a
    sub-command that plays either game; :func:`game_config` reads them."""
    p.add_argument("--game", choices=games.names(), default=game,
                   help=f"the game: shock (Shock! Knights & Poisons) or melvin (Melvin Vs."
                        f" Kronk); default {game}")
    p.add_argument("--players", type=_count_arg, default=4,
                   help="3, 4 or 5 for shock, 3 to 6 for melvin (default 4)")
    p.add_argument("--variant", type=variant_arg, default=None,
                   help="shock only: standard or simplified (default standard)")


def game_config(args: argparse.Namespace) -> object:
    """Return the configuration ``--game``, ``--players`` and ``--variant`` ask for; a count
    or an option the game does not take is a one-line error of the sub-command's parser."""
    game = games.get(args.game)
    if args.players not in game.players:
        counts = game.players
        args.parser.error(f"players must be {counts[0]} to {counts[-1]} for {game.name},"
                          f" not {args.players}")
    if args.game != "shock":
        if args.variant is not None:
            args.parser.error(f"--variant is an option of shock, not of {args.game}")
        return game.config(players=args.players)
    return game.config(players=args.players, variant=args.variant or Variant.STANDARD)


def checked_names(args: argparse.Namespace, names: list[str]) -> list[str]:
    """Return ``names`` once each is a bot of ``--game``; else a one-line error."""
    for name in names:
        try:
            if args.game == "shock":
                _shock_bot(name)
            else:
                make_bot(name, args.game)
        except (ShockError, argparse.ArgumentTypeError) as exc:
            args.parser.error(f"argument --bots: {exc}")
    return names


def jobs_default() -> int:
    """Return the default number of worker processes: the machine's cores."""
    return os.cpu_count() or 1
