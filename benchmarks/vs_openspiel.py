#!/usr/bin/env python3
"""Random-playout speed of shock_rules beside OpenSpiel's C++ ``oh_hell``, in one process.

Both engines are driven by the same Python loop (``playouts.run`` for this engine): at a chance
node a weighted draw from the chance outcomes, at a decision a uniform choice among the legal
actions, then apply. The figure is player decisions per second (chance steps are not counted).
OpenSpiel's ``oh_hell`` with 4 players, 9 tricks and a 40-card deck is the anchor: it is the
speed a user would get by writing the game in OpenSpiel's C++ instead. Rounds alternate between
the two engines so that a noisy spell of a shared machine hits both alike; the ratio of each
round's pair is reported with its median and spread.

    pip install open_spiel
    python benchmarks/vs_openspiel.py [--rounds 7] [--seconds 2] [--players 4]

It measures the build that the interpreter imports (it prints which): run it once with the pure
and once with the compiled build (``SHOCK_RULES_COMPILE=1 pip install .``) for both ratios.

A third row times the driver loop alone, on recorded games of this engine with an engine that
costs nothing (:func:`loop_only_run`): the loop's own list building and weighted draws at this
game's chance steps (two per decision with 4 players: every card is dealt one by one, K6, and
random players withdraw early, so rounds are short beside their deals). Its rate over
OpenSpiel's is the ceiling of the ratio: no engine driven by this loop can exceed it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import playouts

import shock_rules as sr


def openspiel_run(rng: random.Random) -> Callable[[int], int]:
    """Return a function playing ``n`` random oh_hell games, returning the decisions made."""
    import pyspiel  # the [openspiel] extra: only this benchmark needs it

    game = pyspiel.load_game(
        "oh_hell(players=4,num_suits=4,num_cards_per_suit=10,num_tricks_fixed=9)")
    choice, choices = rng.choice, rng.choices

    def run(n: int) -> int:
        dec = 0
        for _ in range(n):
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    acts, probs = zip(*s.chance_outcomes(), strict=True)
                    s.apply_action(choices(acts, probs)[0])
                else:
                    s.apply_action(choice(s.legal_actions()))
                    dec += 1
        return dec

    return run


def loop_only_run(config: sr.GameConfig, rng: random.Random) -> Callable[[int], int]:
    """Return a function that runs the driver loop's own work for ``n`` recorded games of this
    engine, with an engine that costs nothing: the chance outcomes and legal actions of each
    step were recorded beforehand, and "apply" only moves on to the next recorded step.

    What it leaves out (the engine's calls, and the loop's ``is_terminal``/``is_chance``
    tests) only makes it faster, so its rate is an upper bound for any engine with this game's
    chance steps driven by this loop: the ratio to OpenSpiel that no implementation can pass.
    """
    games: list[list[tuple[Any, ...]]] = []
    kinds: list[list[bool]] = []
    record_rng = random.Random(12345)
    for _ in range(50):
        s = sr.new_game(config)
        steps: list[tuple[Any, ...]] = []
        chance: list[bool] = []
        while not sr.is_terminal(s):
            if sr.is_chance(s):
                outcomes = sr.chance_outcomes(s)
                steps.append(outcomes)
                chance.append(True)
                s = sr.apply(s, sr.sample_chance(s, record_rng))
            else:
                legal = sr.legal_actions(s)
                steps.append(legal)
                chance.append(False)
                s = sr.apply(s, record_rng.choice(legal))
        games.append(steps)
        kinds.append(chance)
    choice, choices = rng.choice, rng.choices

    def run(n: int) -> int:
        dec = 0
        for g in range(n):
            for step, is_chance in zip(games[g % 50], kinds[g % 50], strict=True):
                if is_chance:
                    acts = [a for a, _ in step]
                    weights = [float(p) for _, p in step]
                    choices(acts, weights)[0]
                else:
                    choice(step)
                    dec += 1
        return dec

    return run


def rate(run: Callable[[int], int], seconds: float) -> float:
    """Return decisions per second of ``run`` over about ``seconds``."""
    t0 = time.perf_counter()
    run(5)
    games = max(1, round(seconds * 5 / (time.perf_counter() - t0)))
    t0 = time.perf_counter()
    dec = run(games)
    return dec / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seconds", type=float, default=2.0, help="time per engine per round")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    config = sr.GameConfig(players=args.players, variant=sr.Variant.parse(args.variant))
    rng = random.Random(args.seed)

    def ours(n: int) -> int:
        return playouts.run(config, rng, n)[0]

    theirs = openspiel_run(random.Random(args.seed))
    alone = loop_only_run(config, random.Random(args.seed))
    runs = [(rate(ours, args.seconds), rate(theirs, args.seconds), rate(alone, args.seconds))
            for _ in range(args.rounds)]
    mine = [a for a, _, _ in runs]
    other = [b for _, b, _ in runs]
    loop = [c for _, _, c in runs]
    ratios = [a / b for a, b, _ in runs]
    ceilings = [c / b for _, b, c in runs]
    print(f"shock_rules build: {'compiled' if sr.COMPILED else 'pure'}")
    print(f"{'engine':<34}{'median decisions/s':>20}{'min':>12}{'max':>12}")
    for name, xs in (("shock_rules", mine), ("OpenSpiel oh_hell (C++)", other),
                     ("the driver loop alone (see doc)", loop)):
        print(f"{name:<34}{statistics.median(xs):>20,.0f}{min(xs):>12,.0f}{max(xs):>12,.0f}")
    print(f"ratio: median {statistics.median(ratios):.3f}, "
          f"min {min(ratios):.3f}, max {max(ratios):.3f} over {args.rounds} rounds")
    print(f"ceiling (the loop alone / OpenSpiel): median {statistics.median(ceilings):.3f}, "
          f"min {min(ceilings):.3f}, max {max(ceilings):.3f}")
    print(f"ratio={statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
