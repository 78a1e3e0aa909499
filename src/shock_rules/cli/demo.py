"""``shock-rules demo``: one game as a readable transcript.

``--game shock`` (the default) plays random players and prints a referee's transcript;
``--game melvin`` plays reaction bots of different speeds at Melvin Vs. Kronk and prints what a
spectator sees at each step (no hidden card, MK-INFO-1). Needs nothing beyond the package
itself (no ``rich``).
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, TextIO

from .. import melvin as mk
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
from ..bots import play_game
from ._args import game_args, game_config, result_lines, seed_arg

__all__ = ["demo_command", "register"]


def register(sub: argparse._SubParsersAction[Any], game: str = "shock") -> None:
    """Add the ``demo`` sub-command to the command's sub-parsers (``game``: the default of
    ``--game``)."""
    p = sub.add_parser("demo", help="play one random game and print its transcript",
                       description=("Play one game between bots and print its transcript "
                                    "(nothing to install but the package)."))
    game_args(p, game)
    p.add_argument("--seed", type=seed_arg, default=None, help="random seed (default: random)")
    p.add_argument("--withdraw-rate", type=float, default=None,
                   help="shock only: chance that a random player withdraws when it may"
                        " (default 0.08)")
    p.set_defaults(run=_run, parser=p)


def _run(args: argparse.Namespace) -> int:
    config = game_config(args)
    if isinstance(config, mk.GameConfig):
        if args.withdraw_rate is not None:
            args.parser.error("--withdraw-rate is an option of shock, not of melvin")
        return melvin_demo(config, args.seed, sys.stdout)
    rate = 0.08 if args.withdraw_rate is None else args.withdraw_rate
    if not 0.0 <= rate <= 1.0:
        args.parser.error(f"--withdraw-rate must be between 0 and 1, not {rate}")
    assert isinstance(config, GameConfig)
    return demo_command(config.players, config.variant, args.seed, rate, sys.stdout)


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


def melvin_bots(players: int) -> list[mk.ReactionBot]:
    """Return the demo's bots of Melvin Vs. Kronk: reaction bots, each a little faster than the
    seat before it (0.6 s, 0.55 s...)."""
    return [mk.ReactionBot(round(0.6 - 0.05 * i, 2)) for i in range(players)]


def melvin_demo(config: mk.GameConfig, seed: int | None, out: TextIO) -> int:
    """Play one game of Melvin Vs. Kronk between reaction bots of different speeds and print,
    step by step, what a spectator sees (MK-INFO-1); return 0."""
    if seed is None:
        seed = random.randrange(2**32)
    bots = melvin_bots(config.players)
    print(f"Melvin Vs. Kronk - {config.players} players, seed {seed}", file=out)
    print("Bots: " + ", ".join(f"seat {i} reaction ({b.mean:g} s)" for i, b in enumerate(bots)),
          file=out)
    print("Versus cards are written by face, V1 to V12 (two equal faces on top of two piles"
          " are a match); Gem cards G1 to G3 by their gems.", file=out)

    def show(state: mk.State) -> None:
        for event in mk.visible_events(state.events, None):
            print(mk.describe_event(event), file=out)

    end = play_game(config, bots, random.Random(seed), on_step=show)
    print("", *result_lines(mk.scores(end), sorted(mk.winners(end))), sep="\n", file=out)
    return 0
