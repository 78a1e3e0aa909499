"""Chaos: server processes sharing a real PostgreSQL lose nothing when one of them is killed
with SIGKILL every few seconds, nor when PostgreSQL itself restarts (docs/server.md, "Several
processes": "a process killed mid-game loses nothing acknowledged", "nothing a client was told
is lost"). The CI-sized form of ``benchmarks/server_load.py --kill-every`` and
``--restart-postgres``; the logic and what each count means are in ``_chaos_client.py``."""

from __future__ import annotations

import asyncio
from pathlib import Path

from ._chaos_client import ChaosResult, Servers, chaos_run, serve_args
from ._postgres import Postgres

TABLES = 6
BOTS = ("heuristic", "heuristic", "heuristic")
#: The clients' and bots' pace (seconds): a game of about 300 steps lasts some 20 s, long
#: enough for several faults.
PACE = 0.12
DEADLINE = 50.0


def _run(folder: Path, db: str, processes: int, seed: int, *,
         kill_every: float | None = None, pg: Postgres | None = None,
         restart_every: float | None = None, most_restarts: int | None = None) -> ChaosResult:
    servers = Servers(folder, db, processes, serve_args(TABLES, PACE), "chaos").start()
    try:
        return asyncio.run(chaos_run(servers, TABLES, bots=BOTS, seed=seed, think=PACE,
                                     seconds=DEADLINE, warmup=0.0, kill_every=kill_every,
                                     pg=pg, restart_every=restart_every,
                                     most_restarts=most_restarts))
    finally:
        servers.stop()


def test_a_process_killed_every_two_seconds_loses_no_acknowledged_action(
        tmp_path: Path, postgres_db: str) -> None:
    seed = 45
    got = _run(tmp_path, postgres_db, 3, seed, kill_every=2.0)
    assert got.kills >= 3, got  # the run met its faults
    assert got.faults() == {}, (f"seed {seed}: {got}; logs in {tmp_path}")
    assert got.acknowledged > 0


def test_postgresql_restarted_twice_loses_no_acknowledged_action(
        tmp_path: Path, postgres: Postgres, postgres_db: str) -> None:
    seed = 46
    try:
        got = _run(tmp_path, postgres_db, 2, seed, pg=postgres, restart_every=5.0,
                   most_restarts=2)
    finally:
        if not _running(postgres):  # the next tests' database
            postgres.start()
    assert got.pg_restarts == 2, got
    assert got.faults() == {}, (f"seed {seed}: {got}; logs in {tmp_path}")
    assert got.acknowledged > 0


def _running(pg: Postgres) -> bool:
    return (pg.data / "postmaster.pid").exists()
