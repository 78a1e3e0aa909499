"""``shock-rules demo``: one game as a readable transcript.

``--game shock`` (the default) plays random players and prints a referee's transcript;
``--game melvin`` plays reaction bots of different speeds at Melvin Vs. Kronk and prints what a
spectator sees at each step (no hidden card, MK-INFO-1). Needs nothing beyond the package
itself (no ``rich``).

``--save FILE`` writes the game's record (text form, with its seed and result) for
``shock-rules replay FILE``; the file is checked to be writable before the game (exit status 1
if not).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
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
from ..record import format_record, record_game
from ._args import (
    game_args,
    game_config,
    path_text,
    report,
    result_lines,
    seed_arg,
    unwritable,
)

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
    p.add_argument("--save", metavar="FILE", default=None,
                   help="write the game record (text form) to FILE, for 'shock-rules replay';"
                        " checked before the game")
    p.set_defaults(run=_run, parser=p)


def _run(args: argparse.Namespace) -> int:
    config = game_config(args)
    rate = 0.08 if args.withdraw_rate is None else args.withdraw_rate
    if isinstance(config, mk.GameConfig):
        if args.withdraw_rate is not None:
            args.parser.error("--withdraw-rate is an option of shock, not of melvin")
    elif not 0.0 <= rate <= 1.0:
        args.parser.error(f"--withdraw-rate must be between 0 and 1, not {rate}")
    if args.save is not None and (why := unwritable(args.save)) is not None:
        return report("demo", f"cannot write {path_text(args.save)}: {why}", 1)
    seed = random.randrange(2**32) if args.seed is None else args.seed
    actions: list[Any] = []
    if isinstance(config, mk.GameConfig):
        melvin_demo(config, seed, sys.stdout, actions)
        names = [f"reaction:{bot.mean:g}" for bot in melvin_bots(config.players)]
    else:
        assert isinstance(config, GameConfig)
        demo_command(config.players, config.variant, seed, rate, sys.stdout, actions)
        names = ["random"] * config.players
    if args.save is None:
        return 0
    headers = {f"Seat{seat}": name for seat, name in enumerate(names)} | {"Seed": str(seed)}
    text = format_record(record_game(config, actions, headers, result=True))
    try:
        Path(args.save).write_text(text, encoding="utf-8")
    except OSError as exc:
        return report("demo", f"cannot write {path_text(args.save)}: {exc.strerror or exc}", 1)
    print(f"the game record is saved to {args.save}")
    return 0


def demo_command(players: int, variant: Variant, seed: int | None, withdraw_rate: float,
                 out: TextIO, actions: list[Any] | None = None) -> int:
    """Play one game with random players, print its transcript to ``out``; return 0. The
    actions taken, chance outcomes included, are appended to ``actions`` when it is given (for
    a game record)."""
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
        if actions is not None:
            actions.append(action)
        state = apply(state, action)
        for line in narrate(state):
            print(line, file=out)
    print("", *result_lines(scores(state), sorted(winners(state))), sep="\n", file=out)
    return 0


def melvin_bots(players: int) -> list[mk.ReactionBot]:
    """Return the demo's bots of Melvin Vs. Kronk: reaction bots, each a little faster than the
    seat before it (0.6 s, 0.55 s...)."""
    return [mk.ReactionBot(round(0.6 - 0.05 * i, 2)) for i in range(players)]


def melvin_demo(config: mk.GameConfig, seed: int | None, out: TextIO,
                actions: list[Any] | None = None) -> int:
    """Play one game of Melvin Vs. Kronk between reaction bots of different speeds and print,
    step by step, what a spectator sees (MK-INFO-1); return 0. The actions taken are appended
    to ``actions`` when it is given (for a game record)."""
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

    end = play_game(config, bots, random.Random(seed), actions, on_step=show)
    print("", *result_lines(mk.scores(end), sorted(mk.winners(end))), sep="\n", file=out)
    return 0
