#!/usr/bin/env python3
"""Random-playout speed: player decisions per second and games per second.

Drives the public API exactly as a user would (and as ``vs_openspiel.py`` beside it does):
at a chance node sample from ``chance_outcomes``; at a decision pick uniformly from
``legal_actions``; ``apply``. Chance steps are not counted as decisions.

    python benchmarks/playouts.py [--players 4] [--variant standard] [--seconds 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import shock_rules as sr


def run(config: sr.GameConfig, rng: random.Random, games: int) -> tuple[int, int]:
    """Play ``games`` random games; return (decisions, chance steps)."""
    new_game, legal_actions, apply = sr.new_game, sr.legal_actions, sr.apply
    is_terminal, is_chance, chance_outcomes = sr.is_terminal, sr.is_chance, sr.chance_outcomes
    choice, choices = rng.choice, rng.choices
    dec = ch = 0
    for _ in range(games):
        s = new_game(config)
        while not is_terminal(s):
            if is_chance(s):
                outcomes = chance_outcomes(s)
                acts = [a for a, _ in outcomes]
                weights = [float(p) for _, p in outcomes]
                s = apply(s, choices(acts, weights)[0])
                ch += 1
            else:
                s = apply(s, choice(legal_actions(s)))
                dec += 1
    return dec, ch


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--seconds", type=float, default=3.0, help="time per repetition")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    config = sr.GameConfig(players=args.players, variant=sr.Variant.parse(args.variant))
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    run(config, rng, 20)  # warm up caches
    per_game = (time.perf_counter() - t0) / 20
    games = max(1, round(args.seconds / per_game))
    dps, gps, per = [], [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        dec, _ = run(config, rng, games)
        dt = time.perf_counter() - t0
        dps.append(dec / dt)
        gps.append(games / dt)
        per.append(dec / games)
    print(f"{args.players} players, {args.variant}: "
          f"{statistics.median(dps):,.0f} decisions/s (min {min(dps):,.0f}, max {max(dps):,.0f}), "
          f"{statistics.median(gps):,.1f} games/s, {statistics.median(per):.1f} decisions/game")


if __name__ == "__main__":
    main()
