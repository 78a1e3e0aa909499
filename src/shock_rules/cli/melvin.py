"""``shock-rules melvin demo|simulate``: Melvin Vs. Kronk from the command line.

- ``melvin demo [--players N] [--seed S]`` plays one game between bots and prints what each step
  shows to a spectator (no hidden card, MK-INFO-1).
- ``melvin simulate [--games N] [--players N] [--seed S]`` plays games between reaction bots of
  different speeds and random bots and prints each seat's wins.

Needs nothing beyond the package itself.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import TextIO

from .. import melvin as mk
from ._args import Parser, seed_arg

__all__ = ["demo_command", "register", "simulate_command"]


def _players(text: str) -> int:
    if text not in ("3", "4", "5", "6"):
        raise argparse.ArgumentTypeError(f"players must be 3 to 6, not {text!r}")
    return int(text)


def _games(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 100_000:
        raise argparse.ArgumentTypeError(f"games must be 1 to 100000, not {text[:20]!r}")
    return int(text)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``melvin`` sub-command and its own ``demo`` and ``simulate``."""
    p = sub.add_parser("melvin", help="Melvin Vs. Kronk: demo or simulate",
                       description="Melvin Vs. Kronk, the second game: a demo or a simulation.")
    inner = p.add_subparsers(dest="melvin_command", required=True, parser_class=Parser)
    d = inner.add_parser("demo", help="one game between bots, as a spectator sees it",
                         description="Play one game between bots and print it as a spectator"
                                     " sees it.")
    s = inner.add_parser("simulate", help="many games between bots, wins per seat",
                         description="Play many games between bots and print each seat's"
                                     " wins.")
    for q in (d, s):
        q.add_argument("--players", type=_players, default=4, help="3 to 6 (default 4)")
        q.add_argument("--seed", type=seed_arg, default=None, help="random seed")
    s.add_argument("--games", type=_games, default=100, help="how many games (default 100)")
    d.set_defaults(run=lambda a: demo_command(a.players, a.seed, sys.stdout), parser=d)
    s.set_defaults(run=lambda a: simulate_command(a.players, a.seed, a.games, sys.stdout),
                   parser=s)


def _bots(players: int, seed: int) -> list[mk.Bot]:
    # Odd seats are reaction bots, faster the higher the seat; even seats are random bots.
    return [mk.ReactionBot(seed=seed + i, mean=0.6 - 0.05 * i) if i % 2
            else mk.RandomBot(seed=seed + i) for i in range(players)]


def demo_command(players: int, seed: int | None, out: TextIO) -> int:
    """Play one game and print the spectator's events; return 0."""
    seed = random.randrange(2**32) if seed is None else seed
    rng = random.Random(seed)
    config = mk.GameConfig(players=players)
    print(f"Melvin Vs. Kronk - {players} players, seed {seed}", file=out)
    bots = _bots(players, seed)
    state = mk.new_game(config)
    # The same loop as mk.simulate, printed step by step.
    while not state.over:
        if mk.is_chance(state):
            state = mk.resolve_chance(state, rng)
        else:
            offers = []
            for seat, bot in enumerate(bots):
                legal = mk.legal_actions(state, seat)
                v = mk.view(state, seat)
                act = bot.choose(v, legal) if legal else None
                if act is not None:
                    offers.append((bot.reaction(v, seat), seat, act))
            if offers:
                state = mk.apply(state, min(offers)[2])
            else:
                state = mk.apply(state, mk.legal_actions(state)[0])
        for line in mk.spectator_view(state).events:
            print(line, file=out)
    print(f"scores {list(mk.scores(state))}; winners {list(mk.winners(state))}", file=out)
    return 0


def simulate_command(players: int, seed: int | None, games: int, out: TextIO) -> int:
    """Play ``games`` games and print each seat's wins (a shared win counts for each)."""
    seed = random.randrange(2**32) if seed is None else seed
    rng = random.Random(seed)
    wins = [0] * players
    for g in range(games):
        final = mk.simulate(mk.GameConfig(players=players), _bots(players, seed + 1000 * g), rng)
        for w in mk.winners(final):
            wins[w] += 1
    print(f"Melvin Vs. Kronk - {games} games, {players} players, seed {seed}", file=out)
    for s, bots in enumerate(_bots(players, seed)):
        print(f"seat {s} ({type(bots).__name__}): {wins[s]} wins", file=out)
    return 0
