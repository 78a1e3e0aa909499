#!/usr/bin/env python3
"""MCTS speed: decisions per second of ``MCTSBot`` at a fixed iteration budget.

The positions are fixed: seeded 4-player games of four heuristic bots, from which every fifth
decision of rounds 2-4 that the search does not leave to the heuristic (a face-up play with a
choice, or a chest choice) is taken. Each repetition asks a fresh ``MCTSBot(iterations=N)``
for a decision on every position, with a generator seeded per position, so every repetition
does the same work; the median and the spread over repetitions are printed, by the wall clock
and by the process's CPU time.

To compare two source trees in one run (the repetitions alternate between them, so a busy
machine slows both alike), name them with ``--tree``; each repetition then runs in a fresh
interpreter with that tree first on ``sys.path``:

    python benchmarks/mcts_speed.py [--iterations 120] [--positions 16] [--repeat 7]
    python benchmarks/mcts_speed.py --tree /path/to/old/src --tree src
    python benchmarks/mcts_speed.py --seconds 0.2     # how closely a time budget is kept
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


def measure(iterations: int, count: int) -> tuple[float, float]:
    """Return decisions per second over the fixed positions (one pass), by the wall clock and
    by the process's CPU time (which other programs on a busy machine disturb less)."""
    views = positions(count)
    t0, c0 = time.perf_counter(), time.process_time()
    for i, v in enumerate(views):
        MCTSBot(iterations=iterations).choose(v, random.Random(i))
    return (len(views) / (time.perf_counter() - t0), len(views) / (time.process_time() - c0))


def _report(label: str, rates: list[tuple[float, float]]) -> None:
    for kind, r in (("wall", [w for w, _ in rates]), ("cpu", [c for _, c in rates])):
        med = statistics.median(r)
        print(f"{label} ({kind}): {med:.2f} decisions/s median (min {min(r):.2f}, "
              f"max {max(r):.2f}; {1000 / med:.0f} ms/decision)", flush=True)


def budget(seconds: float, count: int) -> None:
    """Print how long ``MCTSBot(iterations=10**6, seconds=...)`` takes per decision."""
    views = positions(count)
    took = []
    for i, v in enumerate(views):
        t0 = time.perf_counter()
        MCTSBot(iterations=10**6, seconds=seconds).choose(v, random.Random(i))
        took.append(time.perf_counter() - t0)
    over = [t - seconds for t in took]
    print(f"MCTSBot(seconds={seconds}): {statistics.median(took) * 1000:.1f} ms per decision "
          f"median, overrun {statistics.median(over) * 1000:.1f} ms median "
          f"(min {min(over) * 1000:.1f}, max {max(over) * 1000:.1f}) over {count} positions")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--iterations", type=int, default=120)
    ap.add_argument("--positions", type=int, default=16)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--tree", action="append", default=[],
                    help="a source tree to measure (repeat to compare; runs in subprocesses)")
    ap.add_argument("--seconds", type=float, default=None,
                    help="instead, measure how closely a time budget is kept")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.seconds is not None:
        budget(args.seconds, args.positions)
        return
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
    rates: dict[str, list[tuple[float, float]]] = {t: [] for t in args.tree}
    for _ in range(args.repeat):
        for tree in args.tree:
            env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
            out = subprocess.run(
                [sys.executable, __file__, "--one", "--iterations", str(args.iterations),
                 "--positions", str(args.positions)],
                env=env, check=True, capture_output=True, text=True).stdout
            rates[tree].append(tuple(json.loads(out)))
    for tree, r in rates.items():
        _report(tree, r)
    first = args.tree[0]
    for tree in args.tree[1:]:
        for k, kind in enumerate(("wall", "cpu")):
            pairs = [y[k] / x[k] for x, y in zip(rates[first], rates[tree], strict=True)]
            print(f"speed-up {tree} / {first} ({kind}): {statistics.median(pairs):.2f}x median "
                  f"of the alternating pairs (min {min(pairs):.2f}, max {max(pairs):.2f})")


if __name__ == "__main__":
    main()
