"""Simulations: the same document for the same arguments, whatever the backend, the number of
jobs or the batch size; the Ray backend runs on Ray started embedded on this machine."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import shock_rules as sr
from shock_rules import melvin as mk
from shock_rules.cli import main
from shock_rules.simulation import run_simulation

CONFIG = sr.GameConfig(players=3)
LINEUP = ["heuristic", "random", "random"]


def test_local_results_do_not_depend_on_jobs() -> None:
    one = run_simulation(CONFIG, LINEUP, 6, seed=4, jobs=1)
    two = run_simulation(CONFIG, LINEUP, 6, seed=4, jobs=2)
    assert one == two
    assert len(one["results"]) == 6 and one["slots"][0]["bot"] == "heuristic"
    assert run_simulation(CONFIG, LINEUP, 6, seed=5, jobs=1) != one


def test_progress_counts_every_game() -> None:
    seen: list[int] = []
    run_simulation(CONFIG, LINEUP, 3, seed=1, progress=seen.append)
    assert seen == [1, 2, 3]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"backend": "dask"}, "unknown backend 'dask'"),
    ({"jobs": 0}, "invalid jobs 0: expected an integer of at least 1"),
    ({"batch": 0}, "invalid batch 0: expected an integer of at least 1"),
])
def test_bad_arguments_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_simulation(CONFIG, LINEUP, 2, seed=1, **kwargs)  # type: ignore[arg-type]


def test_ray_backend_matches_the_local_one() -> None:
    ray = pytest.importorskip("ray")
    local = run_simulation(CONFIG, LINEUP, 12, seed=9, jobs=1)
    seen: list[int] = []
    # Batches of 5 games: three Ray tasks of uneven size, finishing in any order.
    on_ray = run_simulation(CONFIG, LINEUP, 12, seed=9, jobs=2, backend="ray", batch=5,
                            progress=seen.append)
    assert on_ray == local
    assert seen[-1] == 12 and seen == sorted(seen)
    assert not ray.is_initialized()  # started embedded for the call, and shut down after


def test_ray_backend_uses_a_session_the_caller_started() -> None:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    melvin = mk.GameConfig(players=5)
    try:
        doc = run_simulation(CONFIG, LINEUP, 4, seed=2, backend="ray")
        assert ray.is_initialized()  # left running: it is the caller's
        # The second game's games travel to Ray's workers and back the same way.
        races = run_simulation(melvin, ["reaction:0.3", "random"], 6, seed=2, backend="ray",
                               batch=4)
    finally:
        ray.shutdown()
    assert doc == run_simulation(CONFIG, LINEUP, 4, seed=2)
    assert races == run_simulation(melvin, ["reaction:0.3", "random"], 6, seed=2)
    assert races["game"] == "melvin" and races["lineup"][0] == "reaction:0.3"


def test_the_command_writes_the_same_file_with_either_backend(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray")
    files = []
    for backend in ("local", "ray"):
        out = tmp_path / f"{backend}.json"
        assert main(["simulate", "--games", "6", "--players", "3", "--jobs", "2", "--quiet",
                     "--backend", backend, "--out", str(out)]) == 0
        files.append(json.loads(out.read_text()))
    assert files[0] == files[1]
    assert "results written to" in capsys.readouterr().out


def test_the_command_refuses_an_address_without_ray_backend(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--address", "auto"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.startswith(
        "shock-rules simulate: error: --address needs --backend ray")


def test_without_ray_the_backend_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    with pytest.raises(RuntimeError, match=r"pip install 'shock-rules\[ray\]'"):
        run_simulation(CONFIG, LINEUP, 2, seed=1, backend="ray")
