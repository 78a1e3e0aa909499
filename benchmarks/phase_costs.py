#!/usr/bin/env python3
"""Where a random playout's time goes: the cost of each kind of step, per call and per game.

Records random games first (the same loop as ``playouts.py``), then replays every recorded
step and times, separately, ``apply`` and the call that lists the next choices
(``chance_outcomes`` at a chance decision, ``legal_actions`` at a player's), grouped by the
phase the step starts in. A card played into a trick is split into ``PLAY`` (mid-trick) and
``PLAY-last`` (the card that completes the trick, whose step resolves it). ``tests`` is one
``is_chance`` and one ``is_terminal`` per step, as a driver loop calls them. ``driver`` is the
loop's own work on what the engine returned, as ``../shared/bench/vs_openspiel.py`` does it (at a
chance decision: the list of actions, the ``float`` of each probability and ``random.choices``;
at a player's: ``random.choice``). The engine can make it cheaper only by a cheaper ``float()``
of its probabilities, and OpenSpiel's side of that benchmark pays the rest of it too.

    python benchmarks/playouts.py            # the whole loop's speed
    python benchmarks/phase_costs.py [--games 300] [--repeat 5] [--players 4]

Each figure is the median over ``--repeat`` replays of the recorded games; the spread of the
total is printed too. Each timed call carries the clock's own cost (printed as ``clock``, about
0.1 us here), so compare rows with each other and builds with each other, not with
``playouts.py``'s totals. Run it under each build's interpreter to see which steps the compiled
build speeds up.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter, defaultdict

import shock_rules as sr


def record(config: sr.GameConfig, games: int, seed: int) -> list[list[tuple[sr.State, sr.Action]]]:
    """Play random games; return each game's (state, action taken) steps."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = sr.new_game(config)
        steps = []
        while not sr.is_terminal(s):
            if sr.is_chance(s):
                outcomes = sr.chance_outcomes(s)
                a = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
            else:
                a = rng.choice(sr.legal_actions(s))
            steps.append((s, a))
            s = sr.apply(s, a)
        out.append(steps)
    return out


def kind_of(state: sr.State) -> str:
    """Return the row a step belongs to."""
    name = state.phase.name
    if state.phase is sr.Phase.PLAY and len(state.trick) == state.config.players - 1:
        return "PLAY-last"
    return name


def replay(games: list[list[tuple[sr.State, sr.Action]]]) -> dict[str, int]:
    """Replay the recorded steps once; return the nanoseconds spent per row and call."""
    apply, legal_actions, chance_outcomes = sr.apply, sr.legal_actions, sr.chance_outcomes
    is_chance, is_terminal = sr.is_chance, sr.is_terminal
    clock = time.perf_counter_ns
    rng = random.Random(0)
    choice, choices = rng.choice, rng.choices
    spent: dict[str, int] = defaultdict(int)
    for steps in games:
        for state, action in steps:
            key = kind_of(state)
            t0 = clock()
            apply(state, action)
            t1 = clock()
            chance = is_chance(state)
            if chance:
                outcomes = chance_outcomes(state)
            else:
                legal = legal_actions(state)
            t2 = clock()
            is_chance(state)
            is_terminal(state)
            t3 = clock()
            if chance:
                choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])
            else:
                choice(legal)
            t4 = clock()
            spent[key + " apply"] += t1 - t0
            spent[key + " list"] += t2 - t1
            spent["tests"] += t3 - t2
            spent["driver"] += t4 - t3
    return spent


def clock_cost() -> float:
    """Return the nanoseconds one pair of clock readings adds to a timed call."""
    clock = time.perf_counter_ns
    n = 100_000
    t0 = clock()
    for _ in range(n):
        clock()
    return (clock() - t0) / n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.games < 1 or args.repeat < 1:
        ap.error("--games and --repeat must be at least 1")
    games = record(sr.GameConfig(players=args.players), args.games, args.seed)
    counts: Counter[str] = Counter()
    for steps in games:
        counts.update(kind_of(state) for state, _ in steps)
    steps_total = sum(counts.values())
    runs = [replay(games) for _ in range(args.repeat)]
    n = len(games)
    print(f"build: {'compiled' if sr.COMPILED else 'pure'}, Python {sys.version.split()[0]}, "
          f"{args.players} players, {n} games x {args.repeat} replays")
    print("| step | calls/game | us/call (median) | us/game (median) |")
    print("|---|---:|---:|---:|")
    for key in sorted(runs[0]):
        calls = counts[key.split()[0]] if key not in ("tests", "driver") else steps_total
        total = statistics.median(r[key] for r in runs)
        print(f"| {key} | {calls / n:.1f} | {total / calls / 1000:.2f} | {total / n / 1000:.1f} |")
    totals = [sum(r.values()) / n / 1000 for r in runs]
    engine = [(sum(r.values()) - r["driver"]) / n / 1000 for r in runs]
    print(f"total us/game: {statistics.median(totals):.0f} "
          f"({min(totals):.0f}-{max(totals):.0f}); engine alone: {statistics.median(engine):.0f} "
          f"({min(engine):.0f}-{max(engine):.0f}); clock: {clock_cost() / 1000:.2f} us per reading")
    return 0


if __name__ == "__main__":
    sys.exit(main())
