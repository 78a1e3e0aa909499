"""Golden games: replay every ``tests/data/golden/*.actions`` file and compare the transcript
it produces with the stored ``.transcript`` (DEAL-1: a game is reproduced exactly from its
configuration and its actions, chance outcomes included).

After an intended change of behaviour or wording, regenerate the files with
``python tests/data/make_golden.py`` and review the diff before committing.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from data.make_golden import GOLDEN, games, parse_actions_file, play_actions, render
from shock_rules import (
    ActionKind,
    PoisonCovered,
    Shocked,
    TrickAbandoned,
    apply,
    is_terminal,
    new_game,
)

GAMES = sorted(p.stem for p in GOLDEN.glob("*.actions"))
HINT = ("if this change is intended, regenerate the golden files with "
        "'python tests/data/make_golden.py' and review their diff")


def test_every_golden_game_has_both_files() -> None:
    assert GAMES == sorted(games())  # the games the script makes, no more, no less
    assert sorted(p.stem for p in GOLDEN.glob("*.transcript")) == GAMES


@pytest.mark.rule("DEAL-1")
@pytest.mark.rule("GAME-1")
@pytest.mark.parametrize("name", GAMES)
def test_golden_transcript_is_unchanged(name: str) -> None:
    config, actions = parse_actions_file((GOLDEN / f"{name}.actions").read_text("utf-8"))
    assert is_terminal(play_actions(config, actions)), f"{name}: the game does not finish"
    got = render(config, actions)
    want = (GOLDEN / f"{name}.transcript").read_text("utf-8").splitlines()
    if got != want:
        diff = "\n".join(difflib.unified_diff(
            want, got, f"{name}.transcript (stored)", f"{name}.transcript (replayed)",
            lineterm="", n=2,
        ))
        pytest.fail(f"golden game {name!r} replays differently:\n{diff}\n\n{HINT}",
                    pytrace=False)


@pytest.mark.rule("POTION-4")
@pytest.mark.rule("CHEST-3")
@pytest.mark.rule("WITHDRAW-5")
def test_the_scripted_game_still_hits_its_situations() -> None:
    config, actions = parse_actions_file((GOLDEN / "3p-scripted.actions").read_text("utf-8"))
    state = new_game(config)
    covers = shocked_at_once = abandoned = 0
    for action in actions:
        state = apply(state, action)
        if action.kind is ActionKind.COVER:
            covers += 1
            assert [type(e) for e in state.events][:1] == [PoisonCovered]
        if len([e for e in state.events if isinstance(e, Shocked)]) >= 2:
            shocked_at_once += 1
        abandoned += any(isinstance(e, TrickAbandoned) for e in state.events)
    assert covers >= 1 and shocked_at_once >= 1 and abandoned >= 1


def test_the_golden_directory_is_where_the_script_writes() -> None:
    assert GOLDEN == Path(__file__).resolve().parent / "data" / "golden"
