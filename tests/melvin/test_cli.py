"""``shock-rules melvin demo|simulate``."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from shock_rules.cli import main
from shock_rules.cli.melvin import demo_command, simulate_command


@pytest.mark.rule("MK-INFO-1")
def test_demo_prints_a_spectators_game_without_hidden_cards() -> None:
    out = io.StringIO()
    assert demo_command(5, 3, out) == 0
    text = out.getvalue()
    assert text.startswith("Melvin Vs. Kronk - 5 players, seed 3")
    assert "Winner" in text and "the card moved is" not in text and " draws G" not in text


@pytest.mark.rule("MK-ACT-1")
def test_simulate_reports_win_rates_with_intervals_and_is_reproducible() -> None:
    a, b = io.StringIO(), io.StringIO()
    specs = [("random", None), ("reaction", 0.3), ("reaction", 1.0)]
    simulate_command(3, 11, 40, a, specs)
    simulate_command(3, 11, 40, b, specs)
    assert a.getvalue() == b.getvalue()
    rows = [line.split() for line in a.getvalue().splitlines()[2:5]]
    assert [r[1] for r in rows] == ["random", "reaction", "reaction"]
    # seat, bot, (mean, s), wins, win rate, interval
    rates = [float(r[5].rstrip("%")) for r in rows]
    assert sum(rates) == pytest.approx(100.0, abs=0.2)  # shared wins split: rates add up
    for r in rows:
        lo, hi = (float(x.rstrip("%")) for x in r[6].split("-"))
        assert lo <= float(r[5].rstrip("%")) <= hi
    # The fastest reaction bot wins most: the real-time race decides (M5).
    assert rates[1] == max(rates)


def test_simulate_takes_bots_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["melvin", "simulate", "--players", "3", "--games", "5", "--seed", "2",
                 "--bots", "reaction:0.2,random,reaction"]) == 0
    out = capsys.readouterr().out
    assert "reaction (0.2 s)" in out and "random (0.4 s)" in out and "95% CI" in out


@pytest.mark.parametrize(("bots", "message"), [
    ("reaction,random", "--bots names 2 bots for 3 players"),
    ("reaction,random,kronk", "unknown bot 'kronk'"),
    ("reaction:0,random,random", "invalid reaction time '0'"),
    ("reaction:fast,random,random", "invalid reaction time 'fast'"),
    ("reaction:nan,random,random", "invalid reaction time 'nan'"),
    ("reaction:11,random,random", "at most 10"),
])
def test_bad_bots_are_a_one_line_error(capsys: pytest.CaptureFixture[str], bots: str,
                                       message: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["melvin", "simulate", "--players", "3", "--bots", bots])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.rule("MK-ACT-1")
def test_the_demo_transcript_is_unchanged() -> None:
    """A golden transcript: the demo of seed 7 with 4 players, word for word. After an
    intended change, regenerate it with ``SHOCK_RULES_GOLDEN=write pytest -k demo_transcript``
    and review the diff."""
    golden = Path(__file__).parent.parent / "data" / "melvin" / "demo-4-players-seed-7.txt"
    out = io.StringIO()
    demo_command(4, 7, out)
    if os.environ.get("SHOCK_RULES_GOLDEN") == "write":
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(out.getvalue(), encoding="utf-8")
    assert out.getvalue() == golden.read_text(encoding="utf-8")
    text = out.getvalue()
    # A demo a reader learns from: matches won, wrong slaps punished, a winner.
    assert "slaps first: a match" in text and "slaps wrongly" in text
    assert "takes the penalty" in text and "Winner" in text


@pytest.mark.rule("MK-SETUP-1")
def test_bad_player_count_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["melvin", "demo", "--players", "7"])
    assert exc.value.code == 2
    assert "players must be 3 to 6" in capsys.readouterr().err
