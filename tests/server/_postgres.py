"""A real, throwaway PostgreSQL server for the tests: Debian's ``postgresql`` binaries, a data
directory in a temporary folder, listening on a free port of 127.0.0.1 (and a socket in the
folder), trust authentication, run as an unprivileged user (``initdb`` refuses root: as root,
the user ``shockpg`` is created if missing and the server runs as it)."""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from ._live import free_port

USER = "shockpg"


def _binaries() -> Path | None:
    """The folder of initdb and pg_ctl (the newest Debian version), or ``None``."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[4]) if Path(p).parts[4].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


class Postgres:
    """One PostgreSQL server; :meth:`stop` and :meth:`start` again restart it on the same data
    directory and port."""

    def __init__(self) -> None:
        bins = _binaries()
        if bins is None:
            raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
        self.bins = bins
        self.folder = Path(tempfile.mkdtemp(prefix="shock-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            try:
                pwd.getpwnam(USER)
            except KeyError:
                subprocess.run(["useradd", "--system", "--no-create-home", "--shell",
                                "/usr/sbin/nologin", USER], check=True, capture_output=True)
            shutil.chown(self.folder, USER, USER)
            self.as_user = ["runuser", "-u", USER, "--"]
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "--no-sync", "-E", "UTF8")

    def _run(self, tool: str, *args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([*self.as_user, str(self.bins / tool), *args],
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{tool} failed: {done.stdout}{done.stderr}")
        return done

    def start(self) -> Postgres:
        """Start the server and wait until it accepts connections."""
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
                   " -c fsync=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w",
                  "-t", "60", "start")
        return self

    def stop(self) -> None:
        """Stop the server (fast shutdown: clients are disconnected)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def _pids(self) -> list[int]:
        """The postmaster's process id and its children's (every PostgreSQL process)."""
        first = int((self.data / "postmaster.pid").read_text().split()[0])
        children = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:  # "pid (name) state ppid ...": the name may hold spaces, not a ")"
                fields = stat.read_text().rpartition(")")[2].split()
            except OSError:  # a process that ended meanwhile
                continue
            if int(fields[1]) == first:
                children.append(int(stat.parent.name))
        return [first, *children]

    def freeze(self) -> None:
        """Stop every PostgreSQL process (SIGSTOP): the kernel still accepts and acknowledges
        on their sockets, but nothing answers, and no timeout of the server's own fires."""
        for pid in self._pids():
            os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        """Let the processes :meth:`freeze` stopped go on (SIGCONT)."""
        for pid in self._pids():
            os.kill(pid, signal.SIGCONT)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def new_database(self) -> str:
        """Create a fresh database and return its URL."""
        import psycopg

        name = "t_" + secrets.token_hex(6)
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def close(self) -> None:
        """Stop the server if it runs and remove its folder."""
        try:
            self.stop()
        except RuntimeError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)
