#!/usr/bin/env python3
"""Table server load: N tables played at once over real WebSockets on localhost.

It starts ``shock-rules serve`` (a fresh SQLite file) on a free port of 127.0.0.1 unless
``--url`` names a running one, creates N tables of one human seat and three bots, and plays
every human seat at once from one client process, choosing at random among each view's
``legal_actions`` after ``--think`` seconds; the bots play on the server, ``--bot-delay``
seconds before each move. A run lasts until every game ends or ``--seconds`` pass; the first
``--warmup`` seconds, while all the tables start at once, are not timed. It prints, per run
and as the median of the runs: actions per second (every step the server applied and stored:
the clients', the bots' and chance), the clients' actions per second, the p50/p99 latency
from an action sent to the view of it received (the server reads it, applies it, stores it
and broadcasts), and the servers' CPU seconds per 1,000 actions (user + system time of every
server process, from ``/proc``, over the timed part). Only localhost traffic; every run is
bounded in time. ``--json FILE`` writes every run (and the medians) as JSON.

    python benchmarks/server_load.py [--tables 100] [--think 1] [--bot-delay 0.6] [--seconds 30]
    python benchmarks/server_load.py --think 0 --bot-delay 0    # as fast as it goes

Several processes on PostgreSQL: ``--db postgres --processes 2`` starts a throwaway PostgreSQL
(Debian's, as the tests do: ``tests/server/_postgres.py``) and two ``serve`` processes on it;
table k is created on process k (which owns it) and its seat plays through process k + 1, so
every seat's connection is forwarded to its table's owner; ``--route any`` picks a process at
random per seat (a load balancer without affinity), ``--route owner`` the owner itself (a load
balancer that routes a table's clients to it: none forwarded). ``--compare`` runs one
process on SQLite, then ``--processes`` (default 2) on PostgreSQL, in one invocation, runs
alternating, and prints both medians side by side.

Chaos: ``--kill-every SECONDS`` runs ``--processes`` (default 3) processes on a throwaway
PostgreSQL and kills one chosen at random with SIGKILL every SECONDS (±50 %, from ``--seed``),
restarting it on its port; ``--restart-postgres SECONDS`` stops and starts PostgreSQL instead
while the servers stay up. Each seat's client reconnects to another process (``?since=``) and
plays on until its game ends (``--seconds`` is the deadline; the pace is quicker by default,
``--think 0.1 --bot-delay 0.1``, so that games end). Then every table's record is read from
every process and compared with what the clients were told: ``lost_actions``,
``duplicate_events``, ``unfinished_games`` (and ``record_mismatches``, ``unrecorded_events``,
``unheard_events``) must all be 0, or the command exits with status 1. What each count means:
``tests/server/_chaos_client.py``, shared with ``tests/server/test_chaos.py``.

    python benchmarks/server_load.py --kill-every 5 --tables 100 --seconds 300
    python benchmarks/server_load.py --restart-postgres 10 --tables 100 --seconds 300
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import attrs
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# (after the path above: the tests' servers, PostgreSQL and chaos client are shared)
from tests.server._chaos_client import (
    STALL_SECONDS,
    Servers,
    chaos_run,
    create_tables,
    serve_args,
)
from tests.server._postgres import Postgres

#: The figures of a run that ``--json`` writes, in this order.
FIGURES = ("actions_per_s", "p50_ms", "p99_ms", "server_cpu_s_per_1000_actions")
#: The fault counts of a chaos run; every one must be 0.
FAULTS = ("lost_actions", "duplicate_events", "unfinished_games", "record_mismatches",
          "unrecorded_events", "unheard_events")


async def play_table(url: str, table: dict[str, Any], rng: random.Random, think: float,
                     warm: float, deadline: float, latencies: list[float]) -> tuple[int, int]:
    """Play the table's human seat until the game ends or ``deadline``; return (the steps the
    table took after ``warm``, the seat's actions). Latencies of actions sent before ``warm``
    are not kept."""
    ws_url = url.replace("http", "ws", 1) + f"/ws/{table['table']}/seat"
    sent_at: float | None = None
    acted = 0
    at_warm = last = None
    async with connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": table["seats"][0]["token"]}))
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            try:
                message = await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                break
            frame = json.loads(message)
            if frame["type"] == "seat":  # how many connections hold the seat: one
                continue
            if frame["type"] != "view":
                raise RuntimeError(f"refused: {frame}")
            now = time.perf_counter()
            if sent_at is not None:
                if sent_at >= warm:
                    latencies.append(now - sent_at)
                sent_at = None
            view = frame["view"]
            last = view["step"]
            if at_warm is None or now < warm:  # the step at the warm-up's end
                at_warm = last
            if view["phase"] == "over":
                break
            if view["your_turn"]:
                if think > 0:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                action = rng.choice(view["legal_actions"])
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": action,
                                          "step": view["step"]}))
                if sent_at >= warm:
                    acted += 1
    return (0 if at_warm is None or last is None else last - at_warm), acted


def _quantiles(latencies: list[float]) -> tuple[float, float]:
    if len(latencies) < 2:
        return (0.0, 0.0)
    q = statistics.quantiles(latencies, n=100)
    return 1000 * q[49], 1000 * q[98]


#: Where a seat's connection goes, with several processes (``--route``): each name with the
#: process it picks for table k (created on process k of n, round robin), given a seeded draw.
ROUTES: dict[str, Callable[[int, int, random.Random], int]] = {
    # Every connection reaches another process than the table's owner: all forwarded.
    "other": lambda k, n, draw: (k + 1) % n,
    # A load balancer without affinity: a process at random (forwarded unless it is the owner).
    "any": lambda k, n, draw: draw.randrange(n),
    # A load balancer that sends a table's clients to its owner: none forwarded.
    "owner": lambda k, n, draw: k % n,
}


async def run_once(urls: list[str], tables: int, bots: list[str], seed: int, think: float,
                   seconds: float, warmup: float,
                   cpu: Callable[[], float] = lambda: 0.0,
                   route: str = "other") -> dict[str, float]:
    """Create the tables (table k on server k, round robin), play them all at once (table k's
    seat through the server that ``route`` picks: :data:`ROUTES`); return the run's figures,
    from the warm-up's end (``cpu``: the servers' CPU seconds so far, sampled then and at the
    run's end)."""
    n = len(urls)
    created = await asyncio.to_thread(create_tables, urls, tables, bots)
    latencies: list[float] = []
    rng = random.Random(seed)
    draw = random.Random(seed + 1)
    through = [urls[ROUTES[route](k, n, draw)] for k in range(len(created))]
    t0 = time.perf_counter()
    warm = t0 + warmup
    at_warm: list[float] = []

    async def sample() -> None:
        await asyncio.sleep(warmup)
        at_warm.append(cpu())

    sampler = asyncio.create_task(sample())
    results = await asyncio.gather(
        *(play_table(through[k], t, random.Random(rng.random()), think, warm,
                     t0 + seconds, latencies) for k, t in enumerate(created)))
    end = time.perf_counter()
    spent = cpu() - at_warm[0] if at_warm else 0.0
    sampler.cancel()
    timed = max(1e-9, end - warm)
    steps = sum(s for s, _ in results)
    acted = sum(a for _, a in results)
    p50, p99 = _quantiles(latencies)
    return {"seconds": end - t0, "actions_per_s": steps / timed,
            "client_actions_per_s": acted / timed, "p50_ms": p50, "p99_ms": p99,
            "samples": len(latencies), "server_cpu": spent / timed,
            "server_cpu_s_per_1000_actions": 1000 * spent / steps if steps else 0.0}


#: How a setup's name tells its ``--route``.
ROUTE_NAMES: Final = {"other": "through another process", "any": "through any process",
                      "owner": "at their table's owner"}


def _setup_name(processes: int, db: str) -> str:
    return f"{processes} process{'es' * (processes != 1)}, {db}"


class Setup:
    """The servers of one kind of run (one process on SQLite, or several on PostgreSQL) and
    its runs' figures."""

    def __init__(self, folder: Path, name: str, tables: int, bot_delay: float,
                 processes: int, db: str | None) -> None:
        self.name = name
        self.servers = Servers(folder, db, processes, serve_args(tables, bot_delay),
                               re.sub(r"[^a-z0-9]+", "-", name.lower())[:40]).start()
        self.runs: list[dict[str, Any]] = []

    def stop(self) -> None:
        self.servers.stop()


def _report(setup: Setup, r: int, tables: int, got: dict[str, Any]) -> None:
    print(f"{setup.name} run {r + 1}: {tables} tables in {got['seconds']:.1f} s:"
          f" {got['actions_per_s']:.0f} actions/s", end="")
    if "client_actions_per_s" in got:
        print(f" ({got['client_actions_per_s']:.0f} from the clients)", end="")
    print(f", latency p50 {got['p50_ms']:.1f} ms, p99 {got['p99_ms']:.1f} ms"
          f"; servers' CPU {got['server_cpu_s_per_1000_actions']:.2f} s per 1,000 actions",
          end="")
    if "server_cpu" in got:
        print(f" ({100 * got['server_cpu']:.0f}% of a core)", end="")
    if "lost_actions" in got:
        print(f"; {got['kills']} processes killed, {got['pg_restarts']} PostgreSQL restarts,"
              f" {got['acknowledged']} actions acknowledged over {got['connections']}"
              f" connections ({got['stalls']} left after {STALL_SECONDS:g} s without a"
              f" frame), errors {got['errors']}; "
              + ", ".join(f"{k} {got[k]}" for k in FAULTS), end="")
    print(flush=True)


def _medians(setup: Setup) -> dict[str, Any]:
    """Print and return the median and the range of each figure over the setup's runs."""
    runs = setup.runs
    keys = [k for k in (*FIGURES, "server_cpu") if k in runs[0]]
    med = {k: statistics.median(r[k] for r in runs) for k in keys}
    spread = {k: [min(r[k] for r in runs), max(r[k] for r in runs)] for k in keys}
    print(f"{setup.name}: median of {len(runs)}: {med['actions_per_s']:.0f} actions/s"
          f" (runs {spread['actions_per_s'][0]:.0f}-{spread['actions_per_s'][1]:.0f}),"
          f" p50 {med['p50_ms']:.1f} ms (runs {spread['p50_ms'][0]:.1f}-"
          f"{spread['p50_ms'][1]:.1f}), p99 {med['p99_ms']:.1f} ms"
          f" (runs {spread['p99_ms'][0]:.1f}-{spread['p99_ms'][1]:.1f}), servers' CPU"
          f" {med['server_cpu_s_per_1000_actions']:.2f} s per 1,000 actions (runs"
          f" {spread['server_cpu_s_per_1000_actions'][0]:.2f}-"
          f"{spread['server_cpu_s_per_1000_actions'][1]:.2f})")
    return {"setup": setup.name, "runs": len(runs), "tables": runs[0]["tables"],
            **{k: round(v, 3) for k, v in med.items()},
            "range": {k: [round(x, 3) for x in v] for k, v in spread.items()}}


def _json_run(setup: Setup, tables: int, got: dict[str, Any]) -> dict[str, Any]:
    doc: dict[str, Any] = {"setup": setup.name, "tables": tables,
                           **{k: round(got[k], 3) for k in FIGURES}}
    doc.update({k: v for k, v in got.items() if k not in doc and k not in ("samples",)})
    return doc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--tables", type=int, default=100, help="tables at once (default 100)")
    ap.add_argument("--bots", default="heuristic,heuristic,heuristic",
                    help="the server's bots, one per seat after the client's seat 0")
    ap.add_argument("--repeat", type=int, default=None, help="runs (default 3; chaos: 1)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think", type=float, default=None,
                    help="the clients' mean pause before each action, seconds (default 1;"
                         " chaos 0.1)")
    ap.add_argument("--bot-delay", type=float, default=None,
                    help="the server's pause before each bot move, seconds (default 0.6, as"
                         " shock-rules serve; chaos 0.1)")
    ap.add_argument("--seconds", type=float, default=None,
                    help="seconds per run at most (default 30; chaos: 300, the deadline for"
                         " every game to end)")
    ap.add_argument("--warmup", type=float, default=3,
                    help="seconds at the start of a run that are not timed, while the tables"
                         " start all at once (default 3)")
    ap.add_argument("--url", default=None, help="a running server (default: start one)")
    ap.add_argument("--db", default=None,
                    help="'postgres': a throwaway PostgreSQL for the servers (default: a fresh"
                         " SQLite file), or a postgresql:// URL")
    ap.add_argument("--processes", type=int, default=None,
                    help="server processes on the --db (default 1; 2 with --compare; 3 in a"
                         " chaos run)")
    ap.add_argument("--route", choices=sorted(ROUTES), default="other",
                    help="where each seat connects with several processes: 'other' (another"
                         " process than its table's owner: every connection forwarded, the"
                         " default), 'any' (a process at random) or 'owner' (the table's"
                         " owner, as a load balancer routing a table's clients to it)")
    ap.add_argument("--compare", action="store_true",
                    help="one process on SQLite against --processes on PostgreSQL")
    ap.add_argument("--kill-every", type=float, default=None, metavar="SECONDS",
                    help="chaos: kill a server process at random (SIGKILL) about every"
                         " SECONDS and restart it")
    ap.add_argument("--restart-postgres", type=float, default=None, metavar="SECONDS",
                    help="chaos: stop and start PostgreSQL about every SECONDS")
    ap.add_argument("--json", type=Path, default=None, metavar="FILE",
                    help="write every run (\"runs\") and the medians (\"medians\") as JSON")
    args = ap.parse_args()
    chaos = args.kill_every is not None or args.restart_postgres is not None
    if args.repeat is None:
        args.repeat = 1 if chaos else 3
    if args.seconds is None:
        args.seconds = 300.0 if chaos else 30.0
    if args.think is None:
        args.think = 0.1 if chaos else 1.0
    if args.bot_delay is None:
        args.bot_delay = 0.1 if chaos else 0.6
    if not 1 <= args.tables <= 1000 or not 1 <= args.repeat <= 20 or not 0 < args.seconds <= 900:
        ap.error("--tables must be 1-1000, --repeat 1-20 and --seconds at most 900")
    if chaos and (args.compare or args.url or (args.db not in (None, "postgres")
                                               and args.restart_postgres is not None)):
        ap.error("a chaos run starts its own servers (--restart-postgres: its own PostgreSQL)")
    if args.kill_every is not None and args.restart_postgres is not None:
        ap.error("--kill-every or --restart-postgres, not both")
    bots = [b.strip() for b in args.bots.split(",")]
    if args.url:
        for r in range(args.repeat):
            got = asyncio.run(run_once([args.url], args.tables, bots, args.seed + r, args.think,
                                       args.seconds, args.warmup))
            print(f"run {r + 1}: {got['actions_per_s']:.0f} actions/s, p50"
                  f" {got['p50_ms']:.1f} ms, p99 {got['p99_ms']:.1f} ms", flush=True)
        return
    processes = args.processes or (3 if chaos else 2 if args.compare else 1)
    pg: Postgres | None = None
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        setups: list[Setup] = []
        try:
            if not chaos and (args.compare or args.db is None):
                setups.append(Setup(Path(folder), _setup_name(1, "SQLite"), args.tables,
                                    args.bot_delay, 1, None))
            if chaos or args.compare or args.db is not None:
                url = args.db
                if url is None or url == "postgres":
                    pg = Postgres().start()
                    url = pg.new_database()
                name = _setup_name(processes, "PostgreSQL")
                if processes > 1 and not chaos:
                    name += f", seats {ROUTE_NAMES[args.route]}"
                if args.kill_every is not None:
                    name += f", a process killed every {args.kill_every:g} s"
                elif args.restart_postgres is not None:
                    name += f", PostgreSQL restarted every {args.restart_postgres:g} s"
                setups.append(Setup(Path(folder), name, args.tables, args.bot_delay,
                                    processes, url))
            for r in range(args.repeat):  # alternating, so that both see the same machine
                for setup in setups:
                    got: dict[str, Any]
                    if chaos:
                        result = asyncio.run(chaos_run(
                            setup.servers, args.tables, bots=bots, seed=args.seed + r,
                            think=args.think, seconds=args.seconds, warmup=args.warmup,
                            kill_every=args.kill_every, pg=pg,
                            restart_every=args.restart_postgres))
                        got = attrs.asdict(result)
                        failed = failed or bool(result.faults())
                    else:
                        got = asyncio.run(run_once(setup.servers.urls, args.tables, bots,
                                                   args.seed + r, args.think, args.seconds,
                                                   args.warmup, setup.servers.cpu,
                                                   args.route))
                    got["tables"] = args.tables
                    setup.runs.append(got)
                    _report(setup, r, args.tables, got)
        finally:
            for setup in setups:
                setup.stop()
            if pg is not None:
                pg.close()
    medians = [_medians(setup) for setup in setups]
    if args.json is not None:
        doc = {"command": " ".join(sys.argv[1:]),
               "runs": [_json_run(s, args.tables, got) for s in setups for got in s.runs],
               "medians": medians}
        args.json.write_text(json.dumps(doc, indent=2) + "\n")
        print(f"wrote {args.json}")
    if failed:
        sys.exit("chaos: something was lost, duplicated or left unfinished (above)")


if __name__ == "__main__":
    main()
