"""The ``shock-rules`` command.

- ``shock-rules demo [--players N] [--variant standard|simplified] [--seed S]`` plays one random
  game and prints a readable transcript.
- ``shock-rules play [--seat S] [--players N] [--variant V] [--bots heuristic,mcts] [--seed S]
  [--save FILE]``: play in the terminal against bots.
- ``shock-rules simulate [--games N] [--players N] [--variant V] [--bots heuristic,random]
  [--seed S] [--jobs J] [--no-rotate] [--out results.json]``: games between bots, with win
  rates and 95% confidence intervals.
- ``shock-rules replay RECORD [--step]``: the transcript of a saved game record.

Exit status: 0 on success; 2 for a bad argument or a malformed or illegal record (a one-line
error); 1 when a record file cannot be read; 130 when a game is interrupted with Ctrl-C.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO

from .._errors import ShockError
from .._notation.transcript import narrate
from .._rules.actions import ActionKind
from .._rules.config import GameConfig, Variant
from .._rules.engine import (
    apply,
    is_chance,
    legal_actions,
    new_game,
    sample_chance,
    scores,
    winners,
)
from .._rules.state import Phase
from ..bots import BOTS, make_bot

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _players(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"players must be 3, 4 or 5, not {text!r}") from None
    if n not in (3, 4, 5):
        raise argparse.ArgumentTypeError(f"players must be 3, 4 or 5, not {n}")
    return n


def _variant(text: str) -> Variant:
    try:
        return Variant.parse(text)
    except ShockError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be an integer, not {text!r}") from None


def _bots(text: str) -> list[str]:
    names = [n.strip().lower() for n in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"invalid bot list {text!r}: expected names such as "
                                         "'heuristic,random'")
    for n in names:
        try:
            make_bot(n)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return names


def _positive(what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a positive integer, not {text!r}"
                                             ) from None
        if n < 1:
            raise argparse.ArgumentTypeError(f"{what} must be a positive integer, not {n}")
        return n

    return parse


def _seat(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seat must be 0-4, not {text!r}") from None
    if not 0 <= n <= 4:
        raise argparse.ArgumentTypeError(f"seat must be 0-4, not {n}")
    return n


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=_players, default=4, help="3, 4 or 5 (default 4)")
    p.add_argument("--variant", type=_variant, default=Variant.STANDARD,
                   help="standard or simplified (default standard)")


def build_parser() -> argparse.ArgumentParser:
    """Return the command's argument parser."""
    parser = _Parser(prog="shock-rules", description="Shock! Knights & Poisons rules engine.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    demo = sub.add_parser("demo", help="play one random game and print its transcript")
    demo.add_argument("--players", type=_players, default=4, help="3, 4 or 5 (default 4)")
    demo.add_argument("--variant", type=_variant, default=Variant.STANDARD,
                      help="standard or simplified (default standard)")
    demo.add_argument("--seed", type=_seed, default=None, help="random seed (default: random)")
    demo.add_argument("--withdraw-rate", type=float, default=0.08,
                      help="chance that a random player withdraws when it may (default 0.08)")

    play = sub.add_parser("play", help="play in the terminal against bots")
    _common(play)
    play.add_argument("--seat", type=_seat, default=0, help="your seat (default 0)")
    play.add_argument("--bots", type=_bots, default=["heuristic"],
                      help="bots for the other seats in seat order, comma-separated; the last "
                           f"fills the rest ({', '.join(BOTS)}; 'mcts:N' sets its iterations;"
                           " default heuristic)")
    play.add_argument("--seed", type=_seed, default=None, help="random seed (default: random)")
    play.add_argument("--save", metavar="FILE", default=None,
                      help="write the game record (text form) to FILE")

    sim = sub.add_parser("simulate", help="play many games between bots and compare them")
    _common(sim)
    sim.add_argument("--games", type=_positive("--games"), default=200,
                     help="number of games (default 200)")
    sim.add_argument("--bots", type=_bots, default=["heuristic", "random"],
                     help="one bot per slot, comma-separated; the last fills the other slots "
                          "(default heuristic,random)")
    sim.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
    sim.add_argument("--jobs", type=_positive("--jobs"), default=os.cpu_count() or 1,
                     help="worker processes (default: all cores); results do not depend on it")
    sim.add_argument("--no-rotate", dest="rotate", action="store_false",
                     help="keep each slot at its seat (default: rotate seats every game)")
    sim.add_argument("--out", metavar="FILE", default=None, help="write the results as JSON")

    rep = sub.add_parser("replay", help="print the transcript of a saved game record")
    rep.add_argument("record", metavar="RECORD",
                     help="a game record file, text or JSON ('-': standard input)")
    rep.add_argument("--step", action="store_true",
                     help="wait for Enter before each trick")
    return parser


def demo(players: int, variant: Variant, seed: int | None, withdraw_rate: float,
         out: TextIO) -> int:
    """Play one game with random players and print its transcript to ``out``."""
    if seed is None:
        seed = random.randrange(2**32)
    rng = random.Random(seed)
    config = GameConfig(players=players, variant=variant)
    print(f"Shock! Knights & Poisons - {players} players, {variant.value} variant, "
          f"seed {seed}", file=out)
    state = new_game(config)
    for line in narrate(state):
        print(line, file=out)
    while state.phase is not Phase.OVER:
        if is_chance(state):
            action = sample_chance(state, rng)
        else:
            acts = legal_actions(state)
            stay = [a for a in acts if a.kind is not ActionKind.WITHDRAW]
            action = rng.choice(stay if stay and rng.random() >= withdraw_rate else acts)
        state = apply(state, action)
        for line in narrate(state):
            print(line, file=out)
    best = sorted(winners(state))
    print(f"\nFinal scores: {list(scores(state))}; winner(s): "
          + ", ".join(f"seat {s}" for s in best), file=out)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command with ``argv`` (default: the process arguments); return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "demo":
        if not 0.0 <= args.withdraw_rate <= 1.0:
            parser.error(f"--withdraw-rate must be between 0 and 1, not {args.withdraw_rate}")
        try:
            return demo(args.players, args.variant, args.seed, args.withdraw_rate, sys.stdout)
        except BrokenPipeError:  # e.g. piped into `head`: stop quietly
            sys.stderr.close()
            return 0
    if args.command in ("play", "simulate"):
        try:
            import rich  # noqa: F401
        except ImportError:
            parser.error(f"'{args.command}' needs the rich package: "
                         "pip install 'shock-rules[cli]'")
    if args.command == "play":
        if args.seat >= args.players:
            parser.error(f"--seat must be 0-{args.players - 1} with {args.players} players, "
                         f"not {args.seat}")
        if len(args.bots) > args.players - 1:
            parser.error(f"--bots names {len(args.bots)} bots for {args.players - 1} other seats")
        from .play import play_command

        return play_command(args.players, args.variant, args.seat, args.bots, args.seed,
                            args.save, sys.stdin, sys.stdout)
    if args.command == "simulate":
        if len(args.bots) > args.players:
            parser.error(f"--bots names {len(args.bots)} bots for {args.players} players")
        from .simulate import simulate_command

        try:
            return simulate_command(args.players, args.variant, args.bots, args.games,
                                    args.seed, args.jobs, args.rotate, args.out, sys.stdout,
                                    sys.stderr)
        except KeyboardInterrupt:
            print("shock-rules: interrupted", file=sys.stderr)
            return 130
        except OSError as exc:
            print(f"shock-rules: error: cannot write {args.out}: {exc.strerror}",
                  file=sys.stderr)
            return 1
    if args.command == "replay":
        from .replay import ReplayError, replay_command

        try:
            return replay_command(args.record, args.step, sys.stdin, sys.stdout)
        except ReplayError as exc:
            print(f"shock-rules: error: {exc}", file=sys.stderr)
            return exc.status
        except KeyboardInterrupt:
            print("\nshock-rules: interrupted", file=sys.stderr)
            return 130
    parser.error(f"unknown command {args.command!r}")  # pragma: no cover - argparse checks


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
