"""Five rounds, scores, shared victory and the gem supply (GAME-*, GEM-*, SETUP-4)."""

from __future__ import annotations

import pytest

import shock_rules as sr

from ._helpers import SUITS_4, collect, edition_with, full_round_script, run, start


@pytest.mark.rule("GAME-1")
@pytest.mark.rule("GAME-2")
def test_the_game_has_five_rounds_and_the_highest_bag_wins() -> None:
    state = start(SUITS_4, "10C")
    for round_number in range(1, 6):
        assert state.round == round_number
        state, evs = collect(state, full_round_script(leader=state.leader))
        assert sr.RoundEnded(round_number, sr.RoundEndReason.HANDS_EMPTY) in evs
        if round_number < 5:
            assert state.leader == 3  # the last trick winner (K27)
            state = sr.deal_hands(state, list(SUITS_4), trump="10C")
    # Each round, by hand (see full_round_script): seats 0-2 bank 3, seat 3 banks 39.
    assert state.phase is sr.Phase.OVER and sr.is_terminal(state)
    assert sr.current_player(state) is None and sr.legal_actions(state) == ()
    assert sr.chance_outcomes(state) == ()
    assert sr.scores(state) == (15, 15, 15, 195)
    assert sr.winners(state) == frozenset({3})
    assert evs[-1] == sr.GameEnded((15, 15, 15, 195), frozenset({3}))
    assert state.supply == 280 - 5 * 48
    with pytest.raises(sr.IllegalActionError, match="the game is over"):
        sr.apply(state, sr.Action.parse("play 1H"))


@pytest.mark.rule("GAME-2")
def test_tied_players_share_the_victory() -> None:
    # Simplified variant; each round one seat wins trick 1 (4 gems) and a G3/0, then withdraws
    # first in trick 2, banking 7, and the others withdraw too (K13).
    def win_and_bank(state: sr.State, trump: str, script: str) -> sr.State:
        return run(sr.deal_hands(state, list(SUITS_4), trump=trump), script)

    state = run(
        start(SUITS_4, "10C", variant=sr.Variant.SIMPLIFIED),
        "play 1H; play 1S; play 1D; play 1C; chest G3/0; stop;"
        "withdraw 9C; withdraw 9H; withdraw 9S; withdraw 9D",
    )
    assert state.in_bag == (0, 0, 0, 7)
    # Round 2, led by seat 3; hearts are trump, so seat 0 wins with 1H.
    seat0 = "play 1C; play 1H; play 1S; play 1D; chest G3/0; stop;" \
        "withdraw 9H; withdraw 9S; withdraw 9D; withdraw 9C"
    seat3 = "play 1H; play 1S; play 1D; play 1C; chest G3/0; stop;" \
        "withdraw 9C; withdraw 9H; withdraw 9S; withdraw 9D"
    state = win_and_bank(state, "10H", seat0)
    assert state.in_bag == (7, 0, 0, 7)
    state = win_and_bank(state, "10C", seat3)
    state = win_and_bank(state, "10H", seat0)
    assert state.in_bag == (14, 0, 0, 14) and state.round == 5
    # Round 5: everyone withdraws at once; nobody gains anything.
    state, evs = collect(
        sr.deal_hands(state, list(SUITS_4), trump="10C"),
        "withdraw 9H; withdraw 9S; withdraw 9D; withdraw 9C",
    )
    assert sr.is_terminal(state)
    assert sr.winners(state) == frozenset({0, 3})
    assert evs[-1] == sr.GameEnded((14, 0, 0, 14), frozenset({0, 3}))


@pytest.mark.rule("GEM-1")
def test_gems_are_conserved_at_every_step_of_a_round() -> None:
    state = start(SUITS_4, "10C")
    for text in full_round_script(leader=0).split("; "):
        state = sr.apply(state, sr.Action.parse(text))
        total = state.supply + state.trick_gems + sum(state.on_bag) + sum(state.in_bag)
        assert total == 280, text


@pytest.mark.rule("GEM-2")
def test_exchanging_gems_is_presentation_only() -> None:
    edition = sr.Edition.default()
    assert edition.split_gems(27) == {"gold": 2, "red": 1, "clear": 2}
    assert edition.split_gems(0) == {"gold": 0, "red": 0, "clear": 0}
    assert edition.split_gems(195) == {"gold": 19, "red": 1, "clear": 0}
    with pytest.raises(ValueError, match="cannot split -1"):
        edition.split_gems(-1)


@pytest.mark.rule("SETUP-4")
def test_the_supply_starts_at_280_and_may_go_below_zero() -> None:
    state = start(SUITS_4, "10C")
    assert (state.supply, state.on_bag, state.in_bag) == (280, (0,) * 4, (0,) * 4)
    # An edition with a 5-gem supply and 50 gem icons on 1H and 1S: nothing is capped.
    tiny = edition_with(
        gems=[{"name": "clear", "value": 1, "count": 5}],
        gem_icons={"1H": 50, "1S": 50},
    )
    state = start(SUITS_4, "10C", edition=tiny)
    assert state.supply == 5
    state = run(state, "play 1H; play 1S")
    assert state.supply == -95
    state = run(state, "play 8D; play 9C; chest G4/0")
    assert state.on_bag == (0, 0, 0, 104)
    assert state.supply == -99
