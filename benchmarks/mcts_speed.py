#!/usr/bin/env python3
"""MCTS speed: decisions per second of ``MCTSBot`` at a fixed iteration budget.

The positions are fixed: seeded 4-player games of four heuristic bots, from which every
``--every``-th decision of rounds 2-4 that the search does not leave to the heuristic (a
face-up play with a choice, or a chest choice) is taken. Each repetition asks a fresh
``MCTSBot(iterations=N)`` for a decision on every position, with a generator seeded per
position, so every repetition does the same work; the median and the spread over repetitions
are printed.

To compare two source trees in one run (the repetitions alternate between them, so a busy
machine slows both alike), name them with ``--tree``; each repetition then runs in a fresh
interpreter with that tree first on ``sys.path``:

    python benchmarks/mcts_speed.py [--iterations 120] [--positions 8] [--repeat 5]
    python benchmarks/mcts_speed.py --tree /path/to/old/src --tree src
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

import shock_rules as sr
from shock_rules.bots import HeuristicBot, MCTSBot


def positions(count: int, every: int = 5, seed: int = 1) -> list[sr.PlayerView]:
    """Return ``count`` views of searched decisions from seeded heuristic games."""
    out: list[sr.PlayerView] = []
    bot = HeuristicBot()
    config = sr.GameConfig(players=4)
    game = 0
    k = 0
    while len(out) < count:
        rng = random.Random(seed * 1000 + game)
        state = sr.new_game(config)
        while not sr.is_terminal(state) and len(out) < count:
            if sr.is_chance(state):
                state = sr.apply(state, sr.sample_chance(state, rng))
                continue
            v = sr.view(state, state.actor)
            searched = state.phase is sr.Phase.CHEST_CHOICE or (
                state.phase is sr.Phase.PLAY and state.status[state.actor] is sr.Status.IN
                and sum(a.kind is sr.ActionKind.PLAY for a in v.legal_actions) > 1)
            if searched and 2 <= state.round <= 4:
                if k % every == 0:
                    out.append(v)
                k += 1
            state = sr.apply(state, bot.choose(v, rng))
        game += 1
    return out


def measure(iterations: int, count: int, seconds: float | None = None) -> float:
    """Return decisions per second over the fixed positions (one pass)."""
    views = positions(count)
    t0 = time.perf_counter()
    for i, v in enumerate(views):
        MCTSBot(iterations=iterations, seconds=seconds).choose(v, random.Random(i))
    return len(views) / (time.perf_counter() - t0)


def _report(label: str, rates: list[float]) -> None:
    med = statistics.median(rates)
    print(f"{label}: {med:.2f} decisions/s median (min {min(rates):.2f}, max {max(rates):.2f}; "
          f"{1000 / med:.0f} ms/decision)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--iterations", type=int, default=120)
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--tree", action="append", default=[],
                    help="a source tree to measure (repeat to compare; runs in subprocesses)")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:  # one repetition, in a subprocess started below
        measure(args.iterations, 1)  # warm up
        print(json.dumps(measure(args.iterations, args.positions)))
        return
    print(f"MCTSBot(iterations={args.iterations}), {args.positions} positions, 4 players, "
          f"standard, {args.repeat} repetitions", flush=True)
    if not args.tree:
        measure(args.iterations, 1)  # warm up
        _report(sr.__file__, [measure(args.iterations, args.positions)
                              for _ in range(args.repeat)])
        return
    rates: dict[str, list[float]] = {t: [] for t in args.tree}
    for _ in range(args.repeat):
        for tree in args.tree:
            env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
            out = subprocess.run(
                [sys.executable, __file__, "--one", "--iterations", str(args.iterations),
                 "--positions", str(args.positions)],
                env=env, check=True, capture_output=True, text=True).stdout
            rates[tree].append(json.loads(out))
    for tree, r in rates.items():
        _report(tree, r)
    if len(args.tree) == 2:
        a, b = (statistics.median(rates[t]) for t in args.tree)
        pairs = [y / x for x, y in zip(rates[args.tree[0]], rates[args.tree[1]], strict=True)]
        print(f"speed-up {args.tree[1]} / {args.tree[0]}: {b / a:.2f}x median "
              f"(per-repetition pairs {min(pairs):.2f}-{max(pairs):.2f}x)")


if __name__ == "__main__":
    main()
