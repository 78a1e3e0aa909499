"""``shock-rules demo``: one game between random players, as a readable transcript.

Needs nothing beyond the package itself (no ``rich``).
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import TextIO

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
from ._args import common_args, result_lines, seed_arg

__all__ = ["demo_command", "register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``demo`` sub-command to the command's sub-parsers."""
    p = sub.add_parser("demo", help="play one random game and print its transcript",
                       description=("Play one random game and print its transcript (nothing to "
                                    "install but the package)."))
    common_args(p)
    p.add_argument("--seed", type=seed_arg, default=None, help="random seed (default: random)")
    p.add_argument("--withdraw-rate", type=float, default=0.08,
                   help="chance that a random player withdraws when it may (default 0.08)")
    p.set_defaults(run=_run, parser=p)


def _run(args: argparse.Namespace) -> int:
    if not 0.0 <= args.withdraw_rate <= 1.0:
        args.parser.error(f"--withdraw-rate must be between 0 and 1, not {args.withdraw_rate}")
    return demo_command(args.players, args.variant, args.seed, args.withdraw_rate, sys.stdout)


def demo_command(players: int, variant: Variant, seed: int | None, withdraw_rate: float,
                 out: TextIO) -> int:
    """Play one game with random players, print its transcript to ``out``; return 0."""
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
    print("", *result_lines(scores(state), sorted(winners(state))), sep="\n", file=out)
    return 0
