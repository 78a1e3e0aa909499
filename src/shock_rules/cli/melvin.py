"""``shock-rules melvin demo|simulate``: Melvin Vs. Kronk from the command line.

- ``melvin demo [--players N] [--seed S]`` plays one game between bots and prints what each step
  shows to a spectator (no hidden card, MK-INFO-1).
- ``melvin simulate [--games N] [--players N] [--seed S] [--bots SPEC,...]`` plays games
  between bots (``random`` or ``reaction``, each with an optional mean reaction time in
  seconds: ``reaction:0.3``) and prints each seat's win rate with its 95% confidence interval.

Needs nothing beyond the package itself.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from typing import TextIO

from .. import melvin as mk
from ..simulation import wilson
from ._args import Parser, seed_arg

__all__ = ["bot_spec", "demo_command", "make_bots", "register", "simulate_command"]


def _players(text: str) -> int:
    if text not in ("3", "4", "5", "6"):
        raise argparse.ArgumentTypeError(f"players must be 3 to 6, not {text!r}")
    return int(text)


def _games(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 100_000:
        raise argparse.ArgumentTypeError(f"games must be 1 to 100000, not {text[:20]!r}")
    return int(text)


#: The slowest mean reaction a bot spec may ask for, in seconds.
MAX_MEAN = 10.0


def bot_spec(text: str) -> tuple[str, float | None]:
    """Read one bot spec: ``random`` or ``reaction``, with an optional mean reaction time in
    seconds after a colon (``reaction:0.3``)."""
    kind, colon, mean = text.strip().partition(":")
    if kind not in ("random", "reaction"):
        raise argparse.ArgumentTypeError(
            f"unknown bot {text[:30]!r}: expected random or reaction, optionally with a mean"
            " reaction time in seconds (reaction:0.3)")
    if not colon:
        return kind, None
    try:
        value = float(mean)
    except ValueError:
        value = math.nan
    if not 0.0 < value <= MAX_MEAN:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(
            f"invalid reaction time {mean[:20]!r} in {text[:30]!r}: expected seconds above 0"
            f" and at most {MAX_MEAN:g}")
    return kind, value


def _bot_specs(text: str) -> list[tuple[str, float | None]]:
    return [bot_spec(part) for part in text.split(",")]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``melvin`` sub-command and its own ``demo`` and ``simulate``."""
    p = sub.add_parser("melvin", help="Melvin Vs. Kronk: demo or simulate",
                       description="Melvin Vs. Kronk, the second game: a demo or a simulation.")
    inner = p.add_subparsers(dest="melvin_command", required=True, parser_class=Parser)
    d = inner.add_parser("demo", help="one game between bots, as a spectator sees it",
                         description="Play one game between bots and print it as a spectator"
                                     " sees it.")
    s = inner.add_parser("simulate", help="many games between bots, win rates per seat",
                         description="Play many games between bots and print each seat's win"
                                     " rate with its 95% confidence interval.")
    for q in (d, s):
        q.add_argument("--players", type=_players, default=4, help="3 to 6 (default 4)")
        q.add_argument("--seed", type=seed_arg, default=None, help="random seed")
    s.add_argument("--games", type=_games, default=100, help="how many games (default 100)")
    s.add_argument("--bots", type=_bot_specs, default=None, metavar="SPEC,SPEC,...",
                   help="one bot per seat: random or reaction, each with an optional mean"
                        " reaction time in seconds (reaction:0.3); default: reaction bots, a"
                        " little faster seat by seat")
    d.set_defaults(run=lambda a: demo_command(a.players, a.seed, sys.stdout), parser=d)
    s.set_defaults(run=lambda a: _simulate(a), parser=s)


def _simulate(args: argparse.Namespace) -> int:
    if args.bots is not None and len(args.bots) != args.players:
        args.parser.error(f"--bots names {len(args.bots)} bots for {args.players} players:"
                          " give one per seat")
    return simulate_command(args.players, args.seed, args.games, sys.stdout, args.bots)


def _default_specs(players: int) -> list[tuple[str, float | None]]:
    # Reaction bots, each a little faster than the seat before it.
    return [("reaction", round(0.6 - 0.05 * i, 2)) for i in range(players)]


def make_bots(specs: list[tuple[str, float | None]], seed: int) -> list[mk.Bot]:
    """Return one bot per spec, each seeded from ``seed`` and its seat."""
    bots: list[mk.Bot] = []
    for i, (kind, mean) in enumerate(specs):
        cls = mk.ReactionBot if kind == "reaction" else mk.RandomBot
        bots.append(cls(seed=seed + i) if mean is None else cls(seed=seed + i, mean=mean))
    return bots


def _label(spec: tuple[str, float | None], bot: mk.Bot) -> str:
    return f"{spec[0]} ({bot.mean:g} s)"


def demo_command(players: int, seed: int | None, out: TextIO) -> int:
    """Play one game between reaction bots and print what a spectator sees at each step, in
    words; return 0."""
    seed = random.randrange(2**32) if seed is None else seed
    rng = random.Random(seed)
    config = mk.GameConfig(players=players)
    specs = _default_specs(players)
    bots = make_bots(specs, seed)
    print(f"Melvin Vs. Kronk - {players} players, seed {seed}", file=out)
    print("Bots: " + ", ".join(f"seat {i} {_label(sp, b)}"
                               for i, (sp, b) in enumerate(zip(specs, bots, strict=True))),
          file=out)
    print("Versus cards are written by face, V1 to V12 (two equal faces on top of two piles"
          " are a match); Gem cards G1 to G3 by their gems.", file=out)
    state = mk.new_game(config)
    # The same loop as mk.simulate, printed step by step.
    while not state.over:
        if mk.is_chance(state):
            state = mk.resolve_chance(state, rng)
        else:
            state = mk.apply(state, _race(state, bots))
        for line in mk.spectator_view(state).events:
            print(line, file=out)
    result = ", ".join(f"seat {i}: {s}" for i, s in enumerate(mk.scores(state)))
    won = sorted(mk.winners(state))
    print(f"Final scores: {result}", file=out)
    print(("Winner: seat " if len(won) == 1 else "Winners (a shared victory): seats ")
          + ", ".join(map(str, won)), file=out)
    return 0


def _race(state: mk.State, bots: list[mk.Bot]) -> mk.Action:
    """The action a real-time race gives (M5): the fastest bot's offer, else the seat to move
    flips."""
    offers = []
    for seat, bot in enumerate(bots):
        legal = mk.legal_actions(state, seat)
        if not legal:
            continue
        v = mk.view(state, seat)
        act = bot.choose(v, legal)
        if act is not None:
            offers.append((bot.reaction(v, seat), seat, act))
    if offers:
        return min(offers)[2]
    legal = [a for a in mk.legal_actions(state) if isinstance(a, (mk.Flip, mk.Award))]
    return (legal or mk.legal_actions(state))[0]


def simulate_command(players: int, seed: int | None, games: int, out: TextIO,
                     specs: list[tuple[str, float | None]] | None = None) -> int:
    """Play ``games`` games and print each seat's win rate with its 95% interval (Wilson), a
    shared win counting ``1/k`` for each of its ``k`` winners; return 0."""
    seed = random.randrange(2**32) if seed is None else seed
    specs = specs or _default_specs(players)
    rng = random.Random(seed)
    shares = [0.0] * players
    for g in range(games):
        bots = make_bots(specs, seed + 1000 * g)
        final = mk.simulate(mk.GameConfig(players=players), bots, rng)
        won = mk.winners(final)
        for w in won:
            shares[w] += 1 / len(won)
    print(f"Melvin Vs. Kronk - {games} games, {players} players, seed {seed}", file=out)
    print(f"{'seat':<5} {'bot':<20} {'wins':>8} {'win rate':>9}  95% CI", file=out)
    for s, (spec, bot) in enumerate(zip(specs, make_bots(specs, seed), strict=True)):
        rate = shares[s] / games
        lo, hi = wilson(rate, games)
        print(f"{s:<5} {_label(spec, bot):<20} {shares[s]:>8.1f} {rate:>9.1%}  "
              f"{lo:.1%}-{hi:.1%}", file=out)
    print(f"equal strength would be {1 / players:.1%} each", file=out)
    return 0
