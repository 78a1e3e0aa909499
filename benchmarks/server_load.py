#!/usr/bin/env python3
"""Table server load: N tables played at once over real WebSockets on localhost.

It starts ``shock-rules serve`` (a fresh SQLite file) on a free port of 127.0.0.1 unless
``--url`` names a running one, creates N tables of one human seat and three bots, and plays
every human seat at once from one client process, choosing at random among each view's
``legal_actions`` after ``--think`` seconds; the bots play on the server, ``--bot-delay``
seconds before each move. A run lasts until every game ends or ``--seconds`` pass (the first
``--warmup`` seconds, while all the tables start at once, are not timed). It prints,
per run and as the median of the runs: actions per second (every step the server applied and
stored: the clients', the bots' and chance), the clients' actions per second, and the p50/p99
latency from an action sent to the view of it received (the server reads it, applies it,
stores it in SQLite and broadcasts). Only localhost traffic; every run is bounded in time.

    python benchmarks/server_load.py [--tables 100] [--think 1] [--bot-delay 0.6] [--seconds 30]
    python benchmarks/server_load.py --think 0 --bot-delay 0    # as fast as it goes

Several processes on PostgreSQL: ``--db postgres --processes 2`` starts a throwaway PostgreSQL
(Debian's, as the tests do: ``tests/server/_postgres.py``) and two ``serve`` processes on it;
each table is created on one process and its seat plays through the next one, so every step
crosses processes (stored by one, announced, taken by the other). ``--compare`` runs one
process on SQLite, then ``--processes`` (default 2) on PostgreSQL, in one invocation, runs
alternating, and prints both medians side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect


def _post(url: str, body: dict[str, object]) -> dict[str, object]:
    req = urllib.request.Request(url + "/api/tables", json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as answer:
        doc: dict[str, object] = json.loads(answer.read())
        return doc


async def play_table(url: str, table: dict[str, object], rng: random.Random, think: float,
                     warm: float, deadline: float, latencies: list[float]) -> tuple[int, int]:
    """Play the table's human seat until the game ends or ``deadline``; return (the steps the
    table took meanwhile, the seat's actions). Latencies of actions sent before ``warm`` are
    not kept."""
    seats = table["seats"]
    assert isinstance(seats, list)
    ws_url = url.replace("http", "ws", 1) + f"/ws/{table['table']}/seat"
    sent_at: float | None = None
    acted = 0
    first = last = None
    async with connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": seats[0]["token"]}))
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
            if sent_at is not None:
                if sent_at >= warm:
                    latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            view = frame["view"]
            first = view["step"] if first is None else first
            last = view["step"]
            if view["phase"] == "over":
                break
            if view["your_turn"]:
                if think > 0:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                action = rng.choice(view["legal_actions"])
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": action,
                                          "step": view["step"]}))
                acted += 1
    return (0 if first is None or last is None else last - first), acted


async def run_once(urls: list[str], tables: int, bots: list[str], seed: int, think: float,
                   seconds: float, warmup: float) -> dict[str, float]:
    """Create the tables (table k on server k, round robin), play them all at once (table k's
    seat through server k + 1: another process when there are several); return the run's
    figures."""
    n = len(urls)
    created = [_post(urls[k % n], {"players": len(bots) + 1,
                                   "bots": {str(i + 1): b for i, b in enumerate(bots)}})
               for k in range(tables)]
    latencies: list[float] = []
    rng = random.Random(seed)
    t0 = time.perf_counter()
    results = await asyncio.gather(
        *(play_table(urls[(k + 1) % n], t, random.Random(rng.random()), think, t0 + warmup,
                     t0 + seconds, latencies) for k, t in enumerate(created)))
    wall = time.perf_counter() - t0
    steps = sum(s for s, _ in results)
    acted = sum(a for _, a in results)
    q = statistics.quantiles(latencies, n=100)
    return {"seconds": wall, "actions_per_s": steps / wall, "client_actions_per_s": acted / wall,
            "p50_ms": 1000 * q[49], "p99_ms": 1000 * q[98], "samples": len(latencies)}


def _cpu_seconds(proc: subprocess.Popen[bytes] | None) -> float:
    """Return the CPU time a process has used (Linux; 0 elsewhere or without one)."""
    if proc is None:
        return 0.0
    try:
        fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(folder: Path, tables: int, bot_delay: float, db: str | None = None,
                 name: str = "server") -> tuple[subprocess.Popen[bytes], str]:
    """Start ``shock-rules serve`` on a free port (on ``db``, else a fresh SQLite file);
    return the process and its URL."""
    port = _free_port()
    log = (folder / f"{name}.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "shock_rules.cli", "serve", "--port", str(port),
         "--db", db or str(folder / "load.sqlite3"), "--bot-delay", str(bot_delay),
         # Every table comes from this one address: the per-address limits are raised with
         # the server's own, so that a run of up to 1,000 tables is never refused.
         "--max-tables", str(10 * tables), "--tables-per-address", str(10 * tables),
         "--table-rate", str(max(300, 10 * tables)),
         "--sockets-per-address", str(10 * tables), "--socket-rate", str(10 * tables),
         "--connections-per-address", str(10 * tables + 64),
         "--request-rate", str(max(100, 10 * tables)),
         "--mcts-per-table", "4", "--mcts-tables-per-address", str(10 * tables)],
        stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/api/health", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


class Setup:
    """The servers of one kind of run: one process on SQLite, or several on PostgreSQL."""

    def __init__(self, folder: Path, label: str, tables: int, bot_delay: float,
                 processes: int, db: str | None) -> None:
        self.label = label
        self.procs: list[subprocess.Popen[bytes]] = []
        self.urls: list[str] = []
        for i in range(processes):
            proc, url = start_server(folder, tables, bot_delay, db, f"{label}-{i}")
            self.procs.append(proc)
            self.urls.append(url)
        self.runs: list[dict[str, float]] = []

    def cpu(self) -> float:
        return sum(_cpu_seconds(p) for p in self.procs)

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
            proc.wait(10)


def _postgres() -> tuple[object, str]:
    """Start a throwaway PostgreSQL as the tests do; return it and a fresh database's URL."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.server._postgres import Postgres

    pg = Postgres().start()
    return pg, pg.new_database()


def _report(setup: Setup, r: int, tables: int, got: dict[str, float]) -> None:
    print(f"{setup.label} run {r + 1}: {tables} tables in {got['seconds']:.1f} s:"
          f" {got['actions_per_s']:.0f} actions/s ({got['client_actions_per_s']:.0f}"
          f" from the clients), latency p50 {got['p50_ms']:.1f} ms, p99"
          f" {got['p99_ms']:.1f} ms ({got['samples']} actions timed)"
          f"; servers' CPU {100 * got['server_cpu']:.0f}% of a core", flush=True)


def _median(setup: Setup) -> None:
    runs = setup.runs
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    spread = {k: (min(r[k] for r in runs), max(r[k] for r in runs)) for k in runs[0]}
    print(f"{setup.label}: median of {len(runs)}: {med['actions_per_s']:.0f} actions/s"
          f" (runs {spread['actions_per_s'][0]:.0f}-{spread['actions_per_s'][1]:.0f}),"
          f" p50 {med['p50_ms']:.1f} ms (runs {spread['p50_ms'][0]:.1f}-"
          f"{spread['p50_ms'][1]:.1f}), p99 {med['p99_ms']:.1f} ms"
          f" (runs {spread['p99_ms'][0]:.1f}-{spread['p99_ms'][1]:.1f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--tables", type=int, default=100, help="tables at once (default 100)")
    ap.add_argument("--bots", default="heuristic,heuristic,heuristic",
                    help="the server's bots, one per seat after the client's seat 0")
    ap.add_argument("--repeat", type=int, default=3, help="runs (default 3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think", type=float, default=1.0,
                    help="the clients' mean pause before each action, seconds (default 1)")
    ap.add_argument("--bot-delay", type=float, default=0.6,
                    help="the server's pause before each bot move, seconds (default 0.6, as"
                         " shock-rules serve)")
    ap.add_argument("--seconds", type=float, default=30, help="seconds per run at most")
    ap.add_argument("--warmup", type=float, default=3,
                    help="seconds at the start of a run whose latencies are not counted, while"
                         " the tables start all at once (default 3)")
    ap.add_argument("--url", default=None, help="a running server (default: start one)")
    ap.add_argument("--db", default=None,
                    help="'postgres': a throwaway PostgreSQL for the servers (default: a fresh"
                         " SQLite file), or a postgresql:// URL")
    ap.add_argument("--processes", type=int, default=None,
                    help="server processes on the --db (default 1; 2 with --compare)")
    ap.add_argument("--compare", action="store_true",
                    help="one process on SQLite against --processes on PostgreSQL")
    args = ap.parse_args()
    if not 1 <= args.tables <= 1000 or not 1 <= args.repeat <= 20 or not 0 < args.seconds <= 600:
        ap.error("--tables must be 1-1000, --repeat 1-20 and --seconds at most 600")
    bots = [b.strip() for b in args.bots.split(",")]
    if args.url:
        for r in range(args.repeat):
            got = asyncio.run(run_once([args.url], args.tables, bots, args.seed + r, args.think,
                                       args.seconds, args.warmup))
            print(f"run {r + 1}: {got['actions_per_s']:.0f} actions/s, p50"
                  f" {got['p50_ms']:.1f} ms, p99 {got['p99_ms']:.1f} ms", flush=True)
        return
    processes = args.processes or (2 if args.compare else 1)
    pg = None
    with tempfile.TemporaryDirectory() as folder:
        setups = []
        try:
            if args.compare or args.db is None:
                setups.append(Setup(Path(folder), "sqlite x1", args.tables, args.bot_delay, 1,
                                    None))
            if args.compare or args.db is not None:
                url = args.db
                if url is None or url == "postgres":
                    pg, url = _postgres()
                setups.append(Setup(Path(folder), f"postgres x{processes}", args.tables,
                                    args.bot_delay, processes, url))
            for r in range(args.repeat):  # alternating, so that both see the same machine
                for setup in setups:
                    cpu = setup.cpu()
                    got = asyncio.run(run_once(setup.urls, args.tables, bots, args.seed + r,
                                               args.think, args.seconds, args.warmup))
                    got["server_cpu"] = (setup.cpu() - cpu) / got["seconds"]
                    setup.runs.append(got)
                    _report(setup, r, args.tables, got)
        finally:
            for setup in setups:
                setup.stop()
            if pg is not None:
                pg.close()  # type: ignore[attr-defined]
    for setup in setups:
        _median(setup)


if __name__ == "__main__":
    main()
