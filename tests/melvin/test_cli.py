"""``shock-rules melvin demo|simulate``."""

from __future__ import annotations

import io

import pytest

from shock_rules.cli import main
from shock_rules.cli.melvin import demo_command, simulate_command


@pytest.mark.rule("MK-INFO-1")
def test_demo_prints_a_spectators_game_without_hidden_cards() -> None:
    out = io.StringIO()
    assert demo_command(5, 3, out) == 0
    text = out.getvalue()
    assert text.startswith("Melvin Vs. Kronk - 5 players, seed 3")
    assert "winners" in text and "the card moved is" not in text and " draws G" not in text


@pytest.mark.rule("MK-ACT-1")
def test_simulate_counts_wins_and_is_reproducible() -> None:
    a, b = io.StringIO(), io.StringIO()
    simulate_command(3, 11, 5, a)
    simulate_command(3, 11, 5, b)
    assert a.getvalue() == b.getvalue() and "seat 2 (RandomBot)" in a.getvalue()


@pytest.mark.rule("MK-SETUP-1")
def test_bad_player_count_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["melvin", "demo", "--players", "7"])
    assert exc.value.code == 2
    assert "players must be 3 to 6" in capsys.readouterr().err
