"""``shock-rules simulate --backend ray`` with an address Ray cannot use: a one-line error, no
traceback (and, without Ray, the line that says how to install it)."""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys

import pytest

import shock_rules as sr
from shock_rules import simulation
from shock_rules.cli import main

pytest.importorskip("rich")


@pytest.mark.parametrize(("address", "says"), [
    ("nonsense://x", "Module: nonsense does not exist."),
    ("", "Invalid address format"),
    # Ray itself would retry this one for about two minutes (past the timeout below).
    ("127.0.0.1:1", "nothing answers at '127.0.0.1:1' (Connection refused)"),
])
def test_a_bad_ray_address_is_one_line_of_error(address: str, says: str) -> None:
    pytest.importorskip("ray")
    # The real command, in a process of its own (Ray is not left behind in this one).
    done = subprocess.run([sys.executable, "-m", "shock_rules.cli", "simulate", "--games", "1",
                           "--quiet", "--backend", "ray", "--address", address],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"shock-rules simulate: error: cannot start or reach Ray at"
                                  f" {address!r}: ")
    assert says in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr


def test_the_ray_backend_without_ray_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "ray" else real(name, *a))
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--games", "1", "--quiet", "--backend", "ray", "--address",
              "nonsense://x"])
    assert exc.value.code == 2
    assert capsys.readouterr().err == ("shock-rules simulate: error: --backend ray needs Ray:"
                                       " pip install 'shock-rules[ray]'\n")


def test_a_bug_planted_in_starting_ray_is_not_reported_as_a_bad_address(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ray")
    from shock_rules.cli import simulate

    def broken(address: str | None, jobs: int) -> None:
        raise ZeroDivisionError("planted")

    monkeypatch.setattr(simulate, "start_ray", broken)
    with pytest.raises(ZeroDivisionError, match="planted"):
        main(["simulate", "--games", "1", "--quiet", "--backend", "ray", "--address", "auto"])


def _closed_port() -> int:
    """Return a port of 127.0.0.1 where nothing listens (it was bound a moment ago)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_an_address_where_nothing_listens_is_refused_before_ray_is_asked() -> None:
    port = _closed_port()
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        with pytest.raises(ConnectionError, match=f"nothing answers at '{address}' "
                                                  r"\(Connection refused\)"):
            simulation._check_reachable(address)
    for bad in ("127.0.0.1:0", "ray://head:65536"):
        with pytest.raises(sr.InvalidArgumentError, match="the port must be 1-65535"):
            simulation._check_reachable(bad)


def test_an_address_that_listens_or_names_no_port_is_left_to_ray() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        simulation._check_reachable(f"127.0.0.1:{port}")  # no error
        simulation._check_reachable(f"ray://127.0.0.1:{port}")
    # Ray's own forms, and those it rejects at once with its own message.
    for address in ("auto", "local", "nonsense://x", "", "head:port", "head:\u0661"):
        simulation._check_reachable(address)  # no error
