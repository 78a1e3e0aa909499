#!/usr/bin/env python3
"""Table server under bot load: what one client address's MCTS bot tables cost a person.

Each run starts ``shock-rules serve`` (a fresh SQLite file, ``--bot-delay 0``, the server's
default limits) on a free port of 127.0.0.1, creates one table of a person and three
heuristic bots, and plays its seat over a WebSocket from one client, choosing at random among
each view's ``legal_actions`` after ``--think`` seconds (a new table when a game ends). It
times a person's action to the view of it (p50/p99) and ``GET /api/health`` (every 0.1 s),
first on the idle server for ``--seconds``, then while one address runs as many bot-only
``mcts:1000`` tables as the server lets it (created until refused, and again as they end:
all of its seats MCTS where allowed, else one MCTS bot and heuristic ones), after
``--warmup`` seconds. It prints each run and, per phase, the median of the runs with their
spread. Only localhost traffic; every phase is bounded in time.

    python benchmarks/server_bot_load.py [--repeat 3] [--seconds 10] [--think 0.02]
    python benchmarks/server_bot_load.py --compare /tmp/wt-old/src   # against another checkout

The server it starts is the ``shock_rules`` that this Python imports (``PYTHONPATH=.../src``
to pick a checkout); ``--compare SRC`` also runs a server from the ``src`` folder of another
checkout, the runs alternating (both see the same machine), and prints both.
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
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

#: The address the attacking tables claim (``X-Forwarded-For``; a server that does not read
#: it counts them as 127.0.0.1, the person's address too, whose table is made first).
ATTACKER = "198.51.100.66"
MCTS = "mcts:1000"


async def open_seat(ws_url: str, table: str, token: str, hello: bool = True
                    ) -> ClientConnection:
    """Connect to a table's seat: the one place that knows how a seat's token is sent (in a
    hello, the first message; a server of before issue 42 read it from the URL's query)."""
    if not hello:
        return await connect(f"{ws_url}/ws/{table}?token={token}", max_size=2**22)
    ws = await connect(f"{ws_url}/ws/{table}/seat", max_size=2**22)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


def _post(url: str, body: dict[str, object], forwarded: str | None = None
          ) -> tuple[int, dict[str, object]]:
    headers = {"Content-Type": "application/json"}
    if forwarded is not None:
        headers["X-Forwarded-For"] = forwarded
    req = urllib.request.Request(url + "/api/tables", json.dumps(body).encode(), method="POST",
                                 headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


class Attack:
    """One address keeping as many bot-only MCTS tables as the server lets it (a thread)."""

    def __init__(self, url: str, players: int = 3) -> None:
        self.url = url
        self.players = players
        self.all_mcts = True
        self.tables = 0
        self.refusal = ""
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _bots(self) -> dict[str, str]:
        if self.all_mcts:
            return {str(s): MCTS for s in range(self.players)}
        return {"0": MCTS, **{str(s): "heuristic" for s in range(1, self.players)}}

    def fill(self) -> None:
        """Create tables until the server refuses one for a limit."""
        while not self.stopping.is_set():
            status, doc = _post(self.url, {"players": self.players, "bots": self._bots(),
                                           "listed": False}, ATTACKER)
            if status == 201:
                self.tables += 1
                continue
            if status == 400 and self.all_mcts:  # fewer MCTS bots a table: one, then
                self.all_mcts = False
                continue
            self.refusal = f"{status} {doc.get('code')}"
            return

    def _run(self) -> None:
        while not self.stopping.wait(1.0):  # again as its tables end
            self.fill()

    def start(self) -> None:
        self.fill()
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(10)


async def _person(url: str, ws_url: str, rng: random.Random, think: float, start: float,
                  deadline: float, latencies: list[float], hello: bool) -> None:
    """Play a person's seat at tables of three heuristic bots until ``deadline``, keeping the
    latencies of the actions sent after ``start``."""
    while time.perf_counter() < deadline:
        status, doc = _post(url, {"players": 4, "listed": False,
                                  "bots": {"1": "heuristic", "2": "heuristic",
                                           "3": "heuristic"}})
        if status != 201:
            raise RuntimeError(f"the person's table was refused: {doc}")
        seats = doc["seats"]
        assert isinstance(seats, list)
        ws = await open_seat(ws_url, str(doc["table"]), seats[0]["token"], hello)
        sent_at: float | None = None
        try:
            while (left := deadline - time.perf_counter()) > 0:
                try:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), left))
                except TimeoutError:
                    return
                if frame["type"] == "seat":  # how many connections hold the seat: one
                    continue
                if frame["type"] != "view":
                    raise RuntimeError(f"refused: {frame}")
                if sent_at is not None:
                    if sent_at >= start:
                        latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
                view = frame["view"]
                if view["phase"] == "over":
                    break
                if view["your_turn"]:
                    if think > 0:
                        await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "action", "step": view["step"],
                                              "action": rng.choice(view["legal_actions"])}))
        finally:
            await ws.close()


async def _health(url: str, start: float, deadline: float, latencies: list[float]) -> None:
    """Time ``GET /api/health`` every 0.1 s (in a thread: urllib blocks)."""
    while (now := time.perf_counter()) < deadline:
        t0 = time.perf_counter()
        await asyncio.to_thread(lambda: urllib.request.urlopen(url + "/api/health",
                                                               timeout=30).read())
        if now >= start:
            latencies.append(time.perf_counter() - t0)
        await asyncio.sleep(0.1)


def _quantiles(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return (float("nan"), float("nan"))
    q = statistics.quantiles(values, n=100)
    return 1000 * q[49], 1000 * q[98]


def phase(url: str, seed: int, think: float, warmup: float, seconds: float, hello: bool
          ) -> dict[str, float]:
    """Play and time for ``warmup + seconds``; return the phase's figures."""
    actions: list[float] = []
    health: list[float] = []
    t0 = time.perf_counter()
    start, deadline = t0 + warmup, t0 + warmup + seconds

    async def both() -> None:
        await asyncio.gather(
            _person(url, url.replace("http", "ws", 1), random.Random(seed), think, start,
                    deadline, actions, hello),
            _health(url, start, deadline, health))

    asyncio.run(both())
    p50, p99 = _quantiles(actions)
    h50, h99 = _quantiles(health)
    return {"p50_ms": p50, "p99_ms": p99, "health_p50_ms": h50, "health_p99_ms": h99,
            "actions": len(actions)}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _cpu_seconds(pid: int) -> float:
    """Return the CPU time a process has used (Linux; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _knows_proxies(env: dict[str, str]) -> bool:
    """Whether the server these variables start has ``--forwarded-allow-ips`` (and the
    hello: both came with issue 42)."""
    out = subprocess.run([sys.executable, "-m", "shock_rules.cli", "serve", "--help"],
                         capture_output=True, text=True, env=env, check=False).stdout
    return "--forwarded-allow-ips" in out


def start_server(folder: Path, name: str, src: str | None = None
                 ) -> tuple[subprocess.Popen[bytes], str, bool]:
    """Start ``shock-rules serve`` (from the checkout ``src``, else this Python's) with its
    default limits and no bot delay; return it, its URL and whether it takes a hello."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if src is not None:
        env["PYTHONPATH"] = src
    new = _knows_proxies(env)
    port = _free_port()
    log = (folder / f"{name}.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "shock_rules.cli", "serve", "--port", str(port),
         "--db", str(folder / f"{name}.sqlite3"), "--bot-delay", "0",
         # The attacker's address comes from X-Forwarded-For, believed from 127.0.0.1 only
         # when named (a server of before issue 42 believed it from there by default).
         *(["--forwarded-allow-ips", "127.0.0.1"] if new else [])],
        stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/api/health", timeout=2):
                return proc, url, new
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def run_once(folder: Path, r: int, args: argparse.Namespace, label: str, src: str | None
             ) -> dict[str, dict[str, float]]:
    """One run on a fresh server: idle, then under the attack."""
    proc, url, hello = start_server(folder, f"{label.replace('/', '_')}-{r}", src)
    attack = Attack(url)
    out: dict[str, dict[str, float]] = {}
    try:
        cpu = _cpu_seconds(proc.pid)
        t0 = time.perf_counter()
        out["idle"] = phase(url, args.seed + r, args.think, 1.0, args.seconds, hello)
        out["idle"]["cpu"] = (_cpu_seconds(proc.pid) - cpu) / (time.perf_counter() - t0)
        attack.start()
        cpu = _cpu_seconds(proc.pid)
        t0 = time.perf_counter()
        out["load"] = phase(url, args.seed + r, args.think, args.warmup, args.seconds, hello)
        out["load"]["cpu"] = (_cpu_seconds(proc.pid) - cpu) / (time.perf_counter() - t0)
        out["load"]["tables"] = attack.tables
        print(f"  the attack: {attack.tables} tables"
              f" ({'all seats' if attack.all_mcts else 'one seat'} {MCTS}), then"
              f" {attack.refusal}", flush=True)
    finally:
        attack.stop()
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--repeat", type=int, default=3, help="runs, each on a fresh server"
                                                          " (default 3)")
    ap.add_argument("--seconds", type=float, default=10,
                    help="seconds timed per phase (default 10)")
    ap.add_argument("--warmup", type=float, default=3,
                    help="seconds after the attack's tables are made before timing (default 3)")
    ap.add_argument("--think", type=float, default=0.02,
                    help="the person's mean pause before each action, seconds (default 0.02)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compare", metavar="SRC", default=None,
                    help="also run the server of another checkout's src folder, alternating")
    args = ap.parse_args()
    if not 1 <= args.repeat <= 20 or not 0 < args.seconds <= 300 or args.warmup < 0:
        ap.error("--repeat must be 1-20, --seconds at most 300, --warmup 0 or more")
    import shock_rules

    here = str(Path(shock_rules.__file__).parent.parent)
    setups: dict[str, str | None] = {here: None}
    if args.compare is not None:
        setups[str(Path(args.compare).resolve())] = str(Path(args.compare).resolve())
    runs: dict[str, list[dict[str, dict[str, float]]]] = {label: [] for label in setups}
    with tempfile.TemporaryDirectory() as folder:
        for r in range(args.repeat):
            for label, src in setups.items():  # alternating: both see the same machine
                print(f"{label}, run {r + 1}:", flush=True)
                got = run_once(Path(folder), r, args, label, src)
                runs[label].append(got)
                for name, f in got.items():
                    print(f"  {name}: action to view p50 {f['p50_ms']:.1f} ms, p99"
                          f" {f['p99_ms']:.1f} ms ({f['actions']:.0f} actions); health p50"
                          f" {f['health_p50_ms']:.1f} ms, p99 {f['health_p99_ms']:.1f} ms;"
                          f" server process CPU {100 * f['cpu']:.0f}% of a core", flush=True)
    for label, done in runs.items():
        for name in ("idle", "load"):
            rows = [run[name] for run in done]
            parts = []
            for key, what in (("p50_ms", "action p50"), ("p99_ms", "action p99"),
                              ("health_p50_ms", "health p50"), ("health_p99_ms", "health p99")):
                values = [row[key] for row in rows]
                parts.append(f"{what} {statistics.median(values):.1f} ms"
                             f" ({min(values):.1f}-{max(values):.1f})")
            print(f"{label} {name}: median of {len(rows)}: " + ", ".join(parts))


if __name__ == "__main__":
    main()
