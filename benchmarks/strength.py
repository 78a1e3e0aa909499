#!/usr/bin/env python3
"""Bot strength: one strong bot against three weaker ones, seats rotated (not run in CI).

Two matches by default: ``mcts`` against three ``heuristic`` bots, and ``heuristic`` against
three ``random`` bots, 4 players. The strong bot's win rate is reported with a 95% confidence
interval (normal approximation) against the 25% that equal strength would give; a shared
victory counts as ``1/k`` of a win for each of its ``k`` winners (K28), so win rates of a game
add up to 1. The games run on all cores and are seeded per game, so the numbers do not depend
on ``--jobs``.

    python benchmarks/strength.py [--mcts-games 400] [--heuristic-games 1000]
                                  [--mcts-iterations 120] [--variant standard] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import time

import shock_rules as sr
from shock_rules.simulation import run_simulation


def match(strong: str, weak: str, games: int, variant: sr.Variant, jobs: int,
          seed: int) -> None:
    """Play one match and print the strong bot's results."""
    config = sr.GameConfig(players=4, variant=variant)
    t0 = time.perf_counter()
    doc = run_simulation(config, [strong, weak, weak, weak], games, seed, jobs, rotate=True)
    dt = time.perf_counter() - t0
    s = doc["slots"][0]
    weak_row = next(b for b in doc["bots"] if b["bot"] == weak)
    lo, hi = s["ci95"]
    verdict = "stronger" if lo > 0.25 else "weaker" if hi < 0.25 else "not distinguishable"
    print(f"{strong} vs 3 x {weak} ({variant.value}, {games} games, {dt:.0f}s): "
          f"win rate {s['win_rate']:.1%} [95% CI {lo:.1%}-{hi:.1%}] vs 25% -> {verdict}; "
          f"mean score {s['mean_score']:.1f} (each {weak}: {weak_row['mean_score']:.1f}); "
          f"withdrawals/game {s['withdrawals_per_game']:.2f}, "
          f"shocks/game {s['shocks_per_game']:.2f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--mcts-games", type=int, default=400)
    ap.add_argument("--heuristic-games", type=int, default=1000)
    ap.add_argument("--mcts-iterations", type=int, default=120)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    variant = sr.Variant.parse(args.variant)
    if args.heuristic_games:
        match("heuristic", "random", args.heuristic_games, variant, args.jobs, args.seed)
    if args.mcts_games:
        match(f"mcts:{args.mcts_iterations}", "heuristic", args.mcts_games, variant, args.jobs,
              args.seed)


if __name__ == "__main__":
    main()
