"""``examples/train_random_vs_heuristic.py`` learns a policy that beats the random bot."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_random_vs_heuristic.py"


def test_the_learned_policy_beats_the_random_bot(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("train_random_vs_heuristic", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # A small budget: 5 generations of 12 candidates, 10 games each (600 training games), then
    # 300 seeded evaluation games for the learned policy and for the random bot in its seat.
    rates = module.main(["--generations", "5", "--population", "12", "--games", "10",
                         "--eval-games", "300", "--no-heuristic"])
    out = capsys.readouterr().out
    assert "learned - random" in out
    # Deterministic (every game seeded); the margin is in standard errors of the difference of
    # two win rates over 300 games each: 3 is far beyond chance.
    assert rates["margin_se"] >= 3.0
    assert rates["learned"] - rates["random"] >= 0.1
