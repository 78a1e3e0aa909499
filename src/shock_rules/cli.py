"""The ``shock-rules`` command.

``shock-rules demo [--players N] [--variant standard|simplified] [--seed S]`` plays one random
game and prints a readable transcript. A bad argument gets a one-line error and exit status 2.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO

from ._actions import ActionKind
from ._config import GameConfig, Variant
from ._engine import apply, is_chance, legal_actions, new_game, sample_chance, scores, winners
from ._errors import ShockError
from ._events import RoundEnded, RoundStarted, TrumpRevealed
from ._state import Phase
from ._transcript import describe_event

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
    print(f"\n== Round {state.round}", file=out)
    while state.phase is not Phase.OVER:
        if is_chance(state):
            action = sample_chance(state, rng)
        else:
            acts = legal_actions(state)
            stay = [a for a in acts if a.kind is not ActionKind.WITHDRAW]
            action = rng.choice(stay if stay and rng.random() >= withdraw_rate else acts)
        state = apply(state, action)
        for event in state.events:
            if isinstance(event, RoundStarted):
                print(f"\n== Round {event.round}", file=out)
                continue
            if isinstance(event, RoundEnded):
                print(f"   {describe_event(event)}; bags: {list(state.in_bag)}", file=out)
                continue
            if type(event).__name__ == "CardDealt":
                continue
            print(f"   {describe_event(event)}", file=out)
            if isinstance(event, TrumpRevealed):
                for seat in range(players):
                    hand = " ".join(str(c) for c in state.hand(seat))
                    print(f"   seat {seat} holds {hand}", file=out)
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
    parser.error(f"unknown command {args.command!r}")  # pragma: no cover - argparse checks


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
