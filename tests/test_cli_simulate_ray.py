"""``shock-rules simulate --backend ray`` with an address Ray cannot use: a one-line error, no
traceback (and, without Ray, the line that says how to install it)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from shock_rules.cli import main

pytest.importorskip("rich")


@pytest.mark.parametrize(("address", "says"), [
    ("nonsense://x", "Module: nonsense does not exist."),
    ("", "Invalid address format"),
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
