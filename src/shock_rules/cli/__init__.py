"""The ``shock-rules`` command, one module per sub-command.

- ``shock-rules demo [--game shock|melvin] [--players N] [--variant standard|simplified]
  [--seed S] [--save FILE]`` plays one random game and prints a readable transcript; ``--save``
  writes its record for ``replay`` (:mod:`shock_rules.cli.demo`).
- ``shock-rules play [--seat S] [--players N] [--variant V] [--bots heuristic,mcts] [--seed S]
  [--save FILE] [--fast]``: play in the terminal against bots (:mod:`shock_rules.cli.play`).
- ``shock-rules simulate [--games N] [--players N] [--variant V] [--bots heuristic,random]
  [--seed S] [--jobs J] [--no-rotate] [--out results.json] [--quiet]``: games between bots,
  with win rates and 95% confidence intervals (:mod:`shock_rules.cli.simulate`).
- ``shock-rules replay RECORD [--step]``: the transcript of a saved game record
  (:mod:`shock_rules.cli.replay`).
- ``shock-rules serve [--host H] [--port P] [--db PATH] [--bot-delay S] [--max-tables N]
  [--forwarded-allow-ips LIST] [--allow-origin ORIGIN]``: the table server, with a browser
  client (:mod:`shock_rules.cli.serve`; the ``[server]`` extra; its limits and deadlines are
  on the Server page).
- ``shock-rules melvin demo|simulate [--players N] [--seed S] [--games N]``: Melvin Vs.
  Kronk, the second game (:mod:`shock_rules.cli.melvin`).
- ``shock-rules --version`` prints ``shock-rules <version>``; ``shock-rules`` alone prints the
  help (exit status 0).

``play`` and ``simulate`` draw with ``rich`` (the ``[cli]`` extra); ``demo`` and ``replay`` need
nothing but the package.

Every error is one line on standard error that starts with the sub-command:
``shock-rules replay: error: ...`` (``shock-rules: error: ...`` for the command line as a
whole); input quoted in it is cut to 80 characters. Exit status:

- 0 on success, and when the person leaves ``play`` (``quit`` or end of input);
- 1 when a file cannot be read or written: the record given to ``replay``, the ``--save`` file
  of ``demo`` or ``play`` or the ``--out`` file of ``simulate`` (checked before any game starts),
  the ``--db`` file of ``serve`` (not writable, or no SQLite file of tables: checked before the
  server listens);
- 2 for a bad argument, or a record that is not UTF-8 text, is malformed, is some other kind
  of document, or does not replay;
- 130 when interrupted with Ctrl-C.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from . import demo, melvin, play, replay, serve, simulate
from ._args import PROG, Parser, version_text

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """Return the command's argument parser; each sub-command module adds its own sub-parser,
    and ``args.run(args)`` runs the chosen one."""
    parser = Parser(prog=PROG, description="Shock! Knights & Poisons rules engine.")
    parser.add_argument("--version", action="version", version=version_text(),
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for module in (demo, play, simulate, replay, serve, melvin):
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command with ``argv`` (default: the process arguments); return the exit code."""
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else list(argv)):
        # Nothing asked for: show what the command can do rather than an error about it.
        parser.print_help()
        return 0
    args, extra = parser.parse_known_args(argv)
    if extra:
        # Arguments after a sub-command belong to it: its name starts the error.
        getattr(args, "parser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        status: int = args.run(args)
    except BrokenPipeError:
        # The reader went away (e.g. piped into `head`): stop quietly. Pointing stdout at
        # /dev/null keeps Python from failing again when it flushes stdout at exit.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):  # stdout is no file (e.g. in a test)
            pass
        return 0
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
