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
    ws_url = url.replace("http", "ws", 1) + f"/ws/{table['table']}?token={seats[0]['token']}"
    sent_at: float | None = None
    acted = 0
    first = last = None
    async with connect(ws_url, max_size=2**22) as ws:
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            try:
                message = await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                break
            frame = json.loads(message)
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


async def run_once(url: str, tables: int, bots: list[str], seed: int, think: float,
                   seconds: float, warmup: float) -> dict[str, float]:
    """Create the tables, play them all at once; return the run's figures."""
    created = [_post(url, {"players": len(bots) + 1,
                           "bots": {str(i + 1): b for i, b in enumerate(bots)}})
               for _ in range(tables)]
    latencies: list[float] = []
    rng = random.Random(seed)
    t0 = time.perf_counter()
    results = await asyncio.gather(
        *(play_table(url, t, random.Random(rng.random()), think, t0 + warmup, t0 + seconds,
                     latencies) for t in created))
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


def start_server(folder: Path, tables: int, bot_delay: float
                 ) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``shock-rules serve`` on a free port; return the process and its URL."""
    port = _free_port()
    log = (folder / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "shock_rules.cli", "serve", "--port", str(port),
         "--db", str(folder / "load.sqlite3"), "--bot-delay", str(bot_delay),
         # Every table comes from this one address: the per-address limits are raised with
         # the server's own, so that a run of up to 1,000 tables is never refused.
         "--max-tables", str(10 * tables), "--tables-per-address", str(10 * tables),
         "--table-rate", str(max(300, 10 * tables))],
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
    args = ap.parse_args()
    if not 1 <= args.tables <= 1000 or not 1 <= args.repeat <= 20 or not 0 < args.seconds <= 600:
        ap.error("--tables must be 1-1000, --repeat 1-20 and --seconds at most 600")
    bots = [b.strip() for b in args.bots.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        proc, url = (None, args.url) if args.url else start_server(Path(folder), args.tables,
                                                                  args.bot_delay)
        try:
            runs = []
            for r in range(args.repeat):
                cpu = _cpu_seconds(proc)
                got = asyncio.run(run_once(url, args.tables, bots, args.seed + r, args.think,
                                           args.seconds, args.warmup))
                got["server_cpu"] = (_cpu_seconds(proc) - cpu) / got["seconds"]
                runs.append(got)
                print(f"run {r + 1}: {args.tables} tables in {got['seconds']:.1f} s:"
                      f" {got['actions_per_s']:.0f} actions/s ({got['client_actions_per_s']:.0f}"
                      f" from the clients), latency p50 {got['p50_ms']:.1f} ms, p99"
                      f" {got['p99_ms']:.1f} ms ({got['samples']} actions timed)"
                      + (f"; server CPU {100 * got['server_cpu']:.0f}% of a core"
                         if proc is not None else ""), flush=True)
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(10)
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    spread = {k: (min(r[k] for r in runs), max(r[k] for r in runs)) for k in runs[0]}
    print(f"median of {len(runs)}: {med['actions_per_s']:.0f} actions/s"
          f" (runs {spread['actions_per_s'][0]:.0f}-{spread['actions_per_s'][1]:.0f}),"
          f" p50 {med['p50_ms']:.1f} ms, p99 {med['p99_ms']:.1f} ms"
          f" (runs {spread['p99_ms'][0]:.1f}-{spread['p99_ms'][1]:.1f})")


if __name__ == "__main__":
    main()
