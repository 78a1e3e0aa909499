"""Chaos runs of the table server, for ``tests/server/test_chaos.py`` and
``benchmarks/server_load.py --kill-every / --restart-postgres`` (one copy of the logic).

Several ``shock-rules serve`` processes share one PostgreSQL; each table (one human seat, bots
on the others) is played by a client that may reach any process. While the games run, either
a process chosen at random is killed with SIGKILL and restarted on its port (:func:`kill_loop`),
or PostgreSQL itself is stopped and started again (:func:`restart_loop`). Each client
reconnects to another process (``?since=`` the last step it saw) with a short backoff while
the one it tries is down, and plays on until its game ends or the deadline.

Then the final record of every table is read from every process (the seat's connection with
no ``since``: every event) and compared with what the clients were told:

- ``lost_actions``: actions a client sent that were *acknowledged* and are not in the record.
  Acknowledged means: on the connection it was sent on, a view past the action's step came
  after the send with no error frame before it nor right after it (the server sends a
  ``stale_step`` error right after the view it broadcasts, so an error next revokes the view's
  acknowledgment). An action answered with an error, or whose connection died first, is not
  acknowledged (it may or may not have been applied). The client's choice at a step is drawn
  from the table and the step, so an action sent again after a reconnect is the same action.
  An acknowledged action is in the record when the record reaches past its step and the
  record's events of the step after it are the ones the client heard in the acknowledgment.
- ``duplicate_events``: the same ``(step, event)`` twice in a final record, or in what a
  client heard once overlaps are dropped (a step heard again with the same events, as after
  a reconnect to a process that was behind).
- ``unfinished_games``: final records whose game is not over.

And, as strict as those: ``record_mismatches`` (tables whose final record differs from one
process to another), ``unrecorded_events`` (events a client heard that the record does not
hold at their step: a view is sent only after its step is stored) and ``unheard_events``
(events of the record, up to the last step a client saw, that it never heard: a reconnect
with ``since`` misses nothing).
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from ._live import LiveServer
from ._postgres import Postgres

#: Seconds without any frame after which a client leaves a connection for another process
#: (a process that is up but cannot move: behind, or waiting on its database).
STALL_SECONDS = 8.0
#: Seconds between two tries of a client whose connection failed: the first, doubled at each
#: failure in a row up to the last (randomised ±50 %).
BACKOFF_SECONDS = (0.05, 1.0)
#: Seconds PostgreSQL stays down at each restart of a restart run.
PG_DOWN_SECONDS = 1.0


def serve_args(tables: int, bot_delay: float) -> list[str]:
    """Return the ``serve`` options of a load or chaos run of ``tables`` tables: every table
    and connection comes from one address (127.0.0.1), so the per-address limits are raised
    with the server's own; a run of up to 1,000 tables is never refused, nor a burst of
    reconnects after a process dies."""
    return ["--bot-delay", str(bot_delay),
            "--max-tables", str(10 * tables), "--tables-per-address", str(10 * tables),
            "--keep-finished", str(10 * tables),
            "--table-rate", str(max(300, 10 * tables)),
            "--sockets-per-address", str(10 * tables), "--socket-rate", str(10 * tables),
            "--connections-per-address", str(10 * tables + 64),
            "--request-rate", str(max(100, 10 * tables)),
            "--mcts-per-table", "4", "--mcts-tables-per-address", str(10 * tables)]


def cpu_seconds(pid: int) -> float:
    """Return the user and system CPU seconds a process has used (Linux ``/proc``; 0 when it
    cannot be read: another system, or the process gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Servers:
    """``serve`` processes (:class:`LiveServer`) on one database, each of which may be killed
    and restarted on its port; their CPU time is counted over every life of each."""

    def __init__(self, folder: Path, db: str | None, processes: int, args: Sequence[str],
                 label: str = "server") -> None:
        self.live = [LiveServer(folder, *args, db=db, name=f"{label}-{i}")
                     for i in range(processes)]
        #: CPU seconds of the processes killed so far.
        self._spent = 0.0
        self.kills = 0

    @property
    def urls(self) -> list[str]:
        return [s.url for s in self.live]

    def start(self) -> Servers:
        for server in self.live:
            server.start()
        return self

    def cpu(self) -> float:
        """Return the CPU seconds the processes used so far, those killed included."""
        return self._spent + sum(cpu_seconds(s.process.pid) for s in self.live
                                 if s.process is not None and s.process.poll() is None)

    def restart(self, index: int) -> None:
        """Kill process ``index`` with SIGKILL and start it again on its port (blocking until
        it answers ``/api/health``)."""
        server = self.live[index]
        assert server.process is not None
        self._spent += cpu_seconds(server.process.pid)  # gone with it once killed
        server.kill()
        self.kills += 1
        server.start()

    def stop(self) -> None:
        for server in self.live:
            server.stop()


def create_tables(urls: Sequence[str], tables: int, bots: Sequence[str]
                  ) -> list[dict[str, Any]]:
    """Create ``tables`` tables of one human seat (seat 0) and ``bots`` on the others, table
    k on process k (round robin); return the answers (``table`` and ``seats``)."""
    import urllib.request

    made = []
    body = json.dumps({"players": len(bots) + 1,
                       "bots": {str(i + 1): b for i, b in enumerate(bots)}}).encode()
    for k in range(tables):
        req = urllib.request.Request(urls[k % len(urls)] + "/api/tables", body, method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as answer:
            made.append(json.loads(answer.read()))
    return made


def _by_step(events: Sequence[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    grouped: dict[int, list[dict[str, Any]]] = collections.defaultdict(list)
    for event in events:
        grouped[event["step"]].append(event)
    return dict(grouped)


def _repeats(events: Sequence[dict[str, Any]]) -> int:
    """Return how many events are another's repeat (the same ``(step, event)``)."""
    seen = collections.Counter(json.dumps(e, sort_keys=True) for e in events)
    return sum(n - 1 for n in seen.values())


class SeatClient:
    """The client of one table's human seat (seat 0): plays it through any of ``urls``
    (WebSocket bases), reconnecting to another process when its connection fails, until the
    game ends or ``deadline`` (``time.perf_counter()``); it keeps what it heard (the events of
    each step), what was acknowledged, and its latencies (send to acknowledgment; those of
    actions sent before ``warm`` are not kept)."""

    def __init__(self, urls: Sequence[str], table: dict[str, Any], first: int, seed: int,
                 think: float, warm: float, deadline: float) -> None:
        self.urls = list(urls)
        self.table: str = table["table"]
        self.token: str = table["seats"][0]["token"]
        self.first = first
        self.seed = seed
        self.rng = random.Random(f"{seed}:{self.table}:pace")
        self.think = think
        self.warm = warm
        self.deadline = deadline
        #: The events heard at each step (the first time it was heard).
        self.heard: dict[int, list[dict[str, Any]]] = {}
        #: The step of the latest view heard (a view from a process behind is not one).
        self.step = -1
        #: The step of the latest view heard before ``warm``, or the first one after it.
        self.step_at_warm: int | None = None
        #: Each acknowledged action's step and the events of the next step it was told of.
        self.acked: dict[int, list[dict[str, Any]]] = {}
        self.latencies: list[float] = []
        self.over = False
        self.connections = 0
        self.duplicates = 0
        self.overlaps = 0
        self.conflicts = 0
        self.revoked = 0
        #: Connections left for another process after :data:`STALL_SECONDS` without a frame.
        self.stalls = 0
        self.errors: collections.Counter[str] = collections.Counter()

    def action_at(self, view: dict[str, Any]) -> object:
        """Return the action the client takes on ``view``: drawn from the table and the step
        only, so that the action sent again at a step after a reconnect is the same."""
        rng = random.Random(f"{self.seed}:{self.table}:{view['step']}")
        return rng.choice(view["legal_actions"])

    async def play(self) -> SeatClient:
        """Play until the game ends or the deadline; return ``self``."""
        where, failures = self.first, 0
        while not self.over and time.perf_counter() < self.deadline:
            heard = self.step
            try:
                await self._connection(where)
            except (OSError, WebSocketException, TimeoutError):
                pass
            if self.over:
                break
            failures = 0 if self.step > heard else failures + 1
            low, high = BACKOFF_SECONDS
            await asyncio.sleep(min(high, low * 2 ** failures) * self.rng.uniform(0.5, 1.5))
            if len(self.urls) > 1:  # any other process
                where = self.rng.choice([i for i in range(len(self.urls)) if i != where])
        return self

    async def _connection(self, where: int) -> None:
        url = self.urls[where].replace("http", "ws", 1) + f"/ws/{self.table}/seat"
        if self.step >= 0:
            url += f"?since={self.step}"
        async with connect(url, max_size=2**22, open_timeout=5, close_timeout=1) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            self.connections += 1
            view: dict[str, Any] | None = None  # the latest fresh view of this connection
            pending: tuple[int, float] | None = None  # the action sent: its step, when
            tentative: int | None = None  # acknowledged by the last frame, unless an error next
            act_at: float | None = None  # when to send an action on ``view``
            while True:
                now = time.perf_counter()
                if now >= self.deadline:
                    return
                wait = min(self.deadline, now + STALL_SECONDS if act_at is None else act_at)
                try:
                    message = await asyncio.wait_for(ws.recv(), max(0.0, wait - now))
                except TimeoutError:
                    now = time.perf_counter()
                    if now >= self.deadline:
                        return
                    if act_at is None:
                        self.stalls += 1
                        return  # stalled: another process, then
                    if now < act_at:
                        continue
                    act_at = None
                    if view is not None and view["your_turn"] and pending is None:
                        await ws.send(json.dumps({"type": "action", "step": view["step"],
                                                  "action": self.action_at(view)}))
                        pending = (view["step"], time.perf_counter())
                    continue
                frame = json.loads(message)
                kind = frame.get("type")
                if kind == "error":
                    self.errors[str(frame.get("code"))] += 1
                    if tentative is not None:
                        del self.acked[tentative]
                        self.revoked += 1
                    tentative = pending = None
                    low, high = BACKOFF_SECONDS
                    act_at = time.perf_counter() + self.rng.uniform(4 * low, 2 * high / 5)
                    continue
                tentative = None  # the frame after the acknowledging view was no error
                if kind != "view":
                    continue  # how many connections hold the seat
                self._hear(frame["events"])
                fresh = frame["view"]
                step = fresh["step"]
                if pending is not None and step > pending[0]:
                    sent, at = pending
                    self.acked[sent] = self.heard.get(sent + 1, [])
                    tentative, pending = sent, None
                    if at >= self.warm:
                        self.latencies.append(time.perf_counter() - at)
                if step < self.step:
                    continue  # a process behind the client: wait for it, or leave it
                self.step = step
                if self.step_at_warm is None or time.perf_counter() < self.warm:
                    self.step_at_warm = step
                view = fresh
                if fresh["phase"] == "over":
                    self.over = True
                    return
                if fresh["your_turn"] and pending is None:
                    act_at = time.perf_counter() + self.think * self.rng.uniform(0.5, 1.5)
                else:
                    act_at = None

    def _hear(self, events: Sequence[dict[str, Any]]) -> None:
        """Note a frame's events: a step heard before is an overlap (dropped; counted as a
        conflict if its events differ), and the same event twice in a new step a
        duplicate."""
        for step, listed in _by_step(events).items():
            known = self.heard.get(step)
            if known is None:
                self.duplicates += _repeats(listed)
                self.heard[step] = listed
            elif known == listed:
                self.overlaps += len(listed)
            else:
                self.conflicts += len(listed)


async def read_record(url: str, table: str, token: str, tries: int = 20) -> dict[str, Any]:
    """Return the seat's first view frame from the process at ``url`` with no ``since``:
    the table's every event as the seat may see them, and its view (retried while the process
    or its database is away)."""
    ws_url = url.replace("http", "ws", 1) + f"/ws/{table}/seat"
    for attempt in range(tries):
        try:
            async with connect(ws_url, max_size=2**24, open_timeout=10) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                while True:
                    frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if frame.get("type") == "view":
                        return frame
        except (OSError, WebSocketException, TimeoutError):
            if attempt == tries - 1:
                raise
            await asyncio.sleep(0.5)
    raise AssertionError("unreachable")  # pragma: no cover


async def kill_loop(servers: Servers, every: float, rng: random.Random,
                    done: asyncio.Event) -> None:
    """Until ``done``: every ``every`` seconds (±50 %), kill a process chosen at random with
    SIGKILL and start it again on its port."""
    while True:
        try:
            await asyncio.wait_for(done.wait(), every * rng.uniform(0.5, 1.5))
            return
        except TimeoutError:
            pass
        await asyncio.to_thread(servers.restart, rng.randrange(len(servers.live)))


async def restart_loop(pg: Postgres, every: float, rng: random.Random, done: asyncio.Event,
                       most: int | None = None) -> int:
    """Until ``done`` (or ``most`` restarts): every ``every`` seconds (±50 %), stop PostgreSQL
    (fast shutdown: its clients are disconnected), wait :data:`PG_DOWN_SECONDS` and start it
    again; return how many restarts."""
    restarts = 0
    while most is None or restarts < most:
        try:
            await asyncio.wait_for(done.wait(), every * rng.uniform(0.5, 1.5))
            break
        except TimeoutError:
            pass
        await asyncio.to_thread(pg.stop)
        await asyncio.sleep(PG_DOWN_SECONDS)
        await asyncio.to_thread(pg.start)
        restarts += 1
    return restarts


@attrs.frozen
class ChaosResult:
    """What a chaos or restart run measured: its fault counts (all 0 when nothing was lost)
    and its figures (actions per second and latencies from the end of the warm-up on)."""

    tables: int
    seconds: float
    #: Processes killed, PostgreSQL restarts.
    kills: int
    pg_restarts: int
    lost_actions: int
    duplicate_events: int
    unfinished_games: int
    record_mismatches: int
    unrecorded_events: int
    unheard_events: int
    #: Actions acknowledged to the clients, of them revoked by an error right after, their
    #: connections (of them left after :data:`STALL_SECONDS` without a frame), error frames
    #: by code, events heard again after a reconnect.
    acknowledged: int
    revoked: int
    connections: int
    stalls: int
    errors: dict[str, int]
    overlaps: int
    #: Steps the tables took after the warm-up (every action: the clients', the bots',
    #: chance), a second; p50/p99 from an action sent to its acknowledgment (ms).
    actions_per_s: float
    p50_ms: float
    p99_ms: float
    server_cpu_s_per_1000_actions: float

    def faults(self) -> dict[str, int]:
        """Return the fault counts that are not 0 (empty: nothing lost, nothing twice, every
        game finished, every record the same everywhere)."""
        counts = {"lost_actions": self.lost_actions, "duplicate_events": self.duplicate_events,
                  "unfinished_games": self.unfinished_games,
                  "record_mismatches": self.record_mismatches,
                  "unrecorded_events": self.unrecorded_events,
                  "unheard_events": self.unheard_events}
        return {k: v for k, v in counts.items() if v}


def _quantiles(latencies: list[float]) -> tuple[float, float]:
    if len(latencies) < 2:
        return (1000 * latencies[0],) * 2 if latencies else (0.0, 0.0)
    q = statistics.quantiles(latencies, n=100)
    return 1000 * q[49], 1000 * q[98]


async def chaos_run(servers: Servers, tables: int, *, bots: Sequence[str], seed: int,
                    think: float, seconds: float, warmup: float,
                    kill_every: float | None = None, pg: Postgres | None = None,
                    restart_every: float | None = None,
                    most_restarts: int | None = None) -> ChaosResult:
    """Create ``tables`` tables on ``servers`` and play them all at once, table k's seat
    first through process k + 1, while processes are killed every ``kill_every`` seconds or
    ``pg`` is restarted every ``restart_every`` seconds (``most_restarts`` at most), until
    every game ends or ``seconds`` pass; then read every table's record from every process
    and compare it with what the clients heard."""
    urls = servers.urls
    made = await asyncio.to_thread(create_tables, urls, tables, bots)
    rng = random.Random(seed)
    t0 = time.perf_counter()
    warm, deadline = t0 + warmup, t0 + seconds
    clients = [SeatClient(urls, t, (k + 1) % len(urls), seed, think, warm, deadline)
               for k, t in enumerate(made)]
    done = asyncio.Event()
    faults: asyncio.Task[Any] | None = None
    if kill_every is not None:
        faults = asyncio.create_task(kill_loop(servers, kill_every, random.Random(rng.random()),
                                               done))
    elif restart_every is not None:
        assert pg is not None
        faults = asyncio.create_task(restart_loop(pg, restart_every, random.Random(rng.random()),
                                                  done, most_restarts))
    cpu_at_warm: list[float] = []

    async def sample() -> None:
        await asyncio.sleep(max(0.0, warm - time.perf_counter()))
        cpu_at_warm.append(servers.cpu())

    sampler = asyncio.create_task(sample())
    await asyncio.gather(*(c.play() for c in clients))
    end = time.perf_counter()
    cpu_end = servers.cpu()
    sampler.cancel()
    done.set()
    restarts = 0
    if faults is not None:
        got = await faults
        restarts = got if isinstance(got, int) else 0
    records = await _records(servers, clients, rng)
    return _judge(clients, records, servers, restarts, t0, warm, end,
                  (cpu_end - cpu_at_warm[0]) if cpu_at_warm else 0.0)


async def _records(servers: Servers, clients: Sequence[SeatClient], rng: random.Random
                   ) -> list[list[dict[str, Any]]]:
    """Return each table's record as every process gives it, the one the run is judged by
    (chosen at random) first."""
    gate = asyncio.Semaphore(16)
    urls = servers.urls

    async def one(client: SeatClient) -> list[dict[str, Any]]:
        order = list(range(len(urls)))
        rng.shuffle(order)
        async with gate:
            return [await read_record(urls[i], client.table, client.token) for i in order]

    return list(await asyncio.gather(*(one(c) for c in clients)))


def _judge(clients: Sequence[SeatClient], records: Sequence[list[dict[str, Any]]],
           servers: Servers, restarts: int, t0: float, warm: float, end: float,
           cpu: float) -> ChaosResult:
    lost = duplicates = unfinished = mismatches = unrecorded = unheard = 0
    for client, frames in zip(clients, records, strict=True):
        record = frames[0]
        events: list[dict[str, Any]] = record["events"]
        final = record["view"]["step"]
        steps = _by_step(events)
        duplicates += _repeats(events) + client.duplicates
        unfinished += record["view"]["phase"] != "over"
        # A game over changes no more: every process must give the same record of it (an
        # unfinished one may have moved on between two reads).
        if record["view"]["phase"] == "over":
            mismatches += any((f["events"], f["view"]["step"]) != (events, final)
                              for f in frames[1:])
        for step, told in client.acked.items():
            if final <= step or steps.get(step + 1, []) != told:
                lost += 1
        unrecorded += client.conflicts  # a step heard twice, two ways: one is not the record
        for step, heard in client.heard.items():
            if steps.get(step, []) != heard:
                unrecorded += len(heard)
        unheard += sum(len(e) for s, e in steps.items()
                       if s <= client.step and s not in client.heard)
    latencies = [x for c in clients for x in c.latencies]
    p50, p99 = _quantiles(latencies)
    actions = sum(c.step - (c.step_at_warm if c.step_at_warm is not None else c.step)
                  for c in clients)
    timed = max(1e-9, end - warm)
    errors: collections.Counter[str] = collections.Counter()
    for c in clients:
        errors.update(c.errors)
    return ChaosResult(
        tables=len(clients), seconds=end - t0, kills=servers.kills, pg_restarts=restarts,
        lost_actions=lost, duplicate_events=duplicates, unfinished_games=unfinished,
        record_mismatches=mismatches, unrecorded_events=unrecorded, unheard_events=unheard,
        acknowledged=sum(len(c.acked) for c in clients),
        revoked=sum(c.revoked for c in clients),
        connections=sum(c.connections for c in clients),
        stalls=sum(c.stalls for c in clients), errors=dict(errors),
        overlaps=sum(c.overlaps for c in clients),
        actions_per_s=actions / timed, p50_ms=p50, p99_ms=p99,
        server_cpu_s_per_1000_actions=1000 * cpu / actions if actions else 0.0)
