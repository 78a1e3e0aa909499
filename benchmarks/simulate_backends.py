#!/usr/bin/env python3
"""Games per second of ``shock_rules.simulation.run_simulation`` on each backend.

Measures the same seeded simulation (heuristic against random bots) with the local backend in
one process (``jobs=1``), in two worker processes (``jobs=2``) and on Ray started embedded on
this machine with two CPUs; each is repeated and reported as median, minimum and maximum games
per second. The Ray figure is given with and without its start-up (``ray.init`` is a few
seconds), and the three documents are checked to be equal.

    pip install 'shock-rules[ray]'
    python benchmarks/simulate_backends.py [--games 200] [--repeat 3] [--bots heuristic,random]

On a real cluster, pass its address (``--address auto`` on a node of the cluster, or
``ray://HEAD:10001``) and a ``--jobs`` matching its CPUs; every node needs the same version of
shock-rules installed.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import shock_rules as sr
from shock_rules.simulation import lineup_of, run_simulation


def timed(run: Callable[[], dict[str, Any]], repeat: int) -> tuple[list[float], dict[str, Any]]:
    times = []
    doc: dict[str, Any] = {}
    for _ in range(repeat):
        t0 = time.perf_counter()
        doc = run()
        times.append(time.perf_counter() - t0)
    return times, doc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="heuristic,random")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--address", default=None, help="a Ray cluster (default: embedded Ray)")
    args = ap.parse_args()
    config = sr.GameConfig(players=args.players)
    lineup = lineup_of(args.bots.split(","), args.players)
    n = args.games

    def local(jobs: int) -> Callable[[], dict[str, Any]]:
        return lambda: run_simulation(config, lineup, n, seed=1, jobs=jobs)

    rows: list[tuple[str, list[float]]] = []
    docs = []
    for label, run in (("local --jobs 1", local(1)), (f"local --jobs {args.jobs}",
                                                       local(args.jobs))):
        times, doc = timed(run, args.repeat)
        rows.append((label, times))
        docs.append(doc)

    import ray

    def on_ray() -> dict[str, Any]:
        return run_simulation(config, lineup, n, seed=1, jobs=args.jobs, backend="ray",
                              address=args.address)

    times, doc = timed(on_ray, args.repeat)  # starts and stops Ray every time
    rows.append((f"ray ({args.jobs} CPUs), with start-up", times))
    docs.append(doc)
    ray.init(address=args.address, num_cpus=args.jobs if args.address is None else None,
             include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        on_ray()  # warm the workers
        times, doc = timed(on_ray, args.repeat)
    finally:
        ray.shutdown()
    rows.append((f"ray ({args.jobs} CPUs), running", times))
    docs.append(doc)
    assert all(d == docs[0] for d in docs), "backends disagree"
    print(f"{n} games, {args.players} players, lineup {','.join(lineup)}; "
          f"the documents of every backend are equal")
    print(f"{'backend':<34}{'games/s median':>16}{'min':>9}{'max':>9}")
    for label, ts in rows:
        rates = [n / t for t in ts]
        print(f"{label:<34}{statistics.median(rates):>16.1f}{min(rates):>9.1f}"
              f"{max(rates):>9.1f}")


if __name__ == "__main__":
    main()
