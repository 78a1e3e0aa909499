#!/usr/bin/env python3
"""Random-playout speed: player decisions per second and games per second.

Drives the public API exactly as a user would (and as ``vs_openspiel.py`` beside it does):
at a chance node sample from ``chance_outcomes``; at a decision pick uniformly from
``legal_actions``; ``apply``. Chance steps are not counted as decisions.

    python benchmarks/playouts.py [--players 4] [--variant standard] [--seconds 3] [--seed 1]

``--compare`` measures the pure and the compiled build side by side in one run: it runs itself
in two interpreters, alternating one repetition each so that both see the same machine load,
and prints the medians, spreads and the ratio. The pure build is ``--pure-python`` (default:
this interpreter with ``src/`` of this checkout first on the path); the compiled build is
``--compiled-python``, the interpreter of an environment with ``SHOCK_RULES_COMPILE=1 pip
install .``:

    python benchmarks/playouts.py --compare --compiled-python /tmp/venv-compiled/bin/python
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
from pathlib import Path

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
    ap.add_argument("--compare", action="store_true",
                    help="measure the pure and the compiled build side by side")
    ap.add_argument("--pure-python", help="the pure build's interpreter (with --compare)")
    ap.add_argument("--compiled-python", help="the compiled build's interpreter (with --compare)")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.compare:
        compare(args)
        return
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
    if args.json:  # one child run of --compare
        print(json.dumps({"compiled": sr.COMPILED, "dps": dps, "gps": gps}))
        return
    print(f"build: {'compiled' if sr.COMPILED else 'pure'}")
    print(f"{args.players} players, {args.variant}: "
          f"{statistics.median(dps):,.0f} decisions/s (min {min(dps):,.0f}, max {max(dps):,.0f}), "
          f"{statistics.median(gps):,.1f} games/s, {statistics.median(per):.1f} decisions/game")


def _spread(values: list[float]) -> str:
    return (f"{statistics.median(values):,.0f} decisions/s "
            f"(min {min(values):,.0f}, max {max(values):,.0f}, n={len(values)})")


def compare(args: argparse.Namespace) -> None:
    """Run one repetition at a time in each build, alternating; print both and the ratio."""
    if not args.compiled_python:
        raise SystemExit("--compare needs --compiled-python (an environment with "
                         "SHOCK_RULES_COMPILE=1 pip install .)")
    src = Path(__file__).resolve().parent.parent / "src"
    pure_env = dict(os.environ)
    if not args.pure_python:  # this interpreter, reading this checkout's sources
        pure_env["PYTHONPATH"] = os.pathsep.join(
            [str(src), *filter(None, [os.environ.get("PYTHONPATH")])])
    compiled_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    builds = {
        "pure": (args.pure_python or sys.executable, pure_env, False),
        "compiled": (args.compiled_python, compiled_env, True),
    }
    child = [str(Path(__file__).resolve()), "--json", "--repeat", "1",
             "--players", str(args.players), "--variant", args.variant,
             "--seconds", str(args.seconds)]
    results: dict[str, list[float]] = {name: [] for name in builds}
    for rep in range(args.repeat):
        for name, (python, env, compiled) in builds.items():
            seed = ["--seed", str(args.seed + rep)]
            out = subprocess.run([python, *child, *seed], env=env, capture_output=True,
                                 text=True, check=True, cwd=Path.home()).stdout
            got = json.loads(out)
            if got["compiled"] is not compiled:
                raise SystemExit(f"{python} runs the {'compiled' if got['compiled'] else 'pure'}"
                                 f" build, not the {name} one")
            results[name].extend(got["dps"])
    print(f"{args.players} players, {args.variant}, {args.repeat} alternating repetitions "
          f"of {args.seconds:g} s each:")
    for name, values in results.items():
        print(f"  {name:9} {_spread(values)}")
    ratio = statistics.median(results["compiled"]) / statistics.median(results["pure"])
    print(f"  compiled/pure: {ratio:.2f}x")


if __name__ == "__main__":
    main()
