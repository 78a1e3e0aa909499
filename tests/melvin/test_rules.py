"""Scenario tests of Melvin Vs. Kronk's clauses (docs/melvin/index.md)."""

from __future__ import annotations

import random
from fractions import Fraction

import attrs
import pytest

from shock_rules import melvin as mk
from shock_rules._errors import (
    ConfigError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidNotationError,
    InvalidStateError,
)

from ._helpers import dealt, evolve, known, play, texts, with_special


@pytest.mark.rule("MK-SETUP-1")
@pytest.mark.parametrize("n", [2, 7, 0])
def test_player_count_outside_3_to_6_is_refused(n: int) -> None:
    with pytest.raises(ConfigError):
        mk.GameConfig(players=n)


@pytest.mark.rule("MK-SETUP-2")
def test_edition_holds_the_provisional_card_data() -> None:
    ed = mk.load_edition()
    assert ed.faces * ed.copies == 48
    assert len(ed.gems) == 18 and sorted(ed.penalties) == sorted(mk.PENALTIES)
    assert sum(mk.gem_value(g) for g in ed.gems) == 6 + 10 + 9 + 4


@pytest.mark.rule("MK-SETUP-3")
def test_dealer_is_a_uniform_chance_step_and_five_players_get_10_10_10_9_9() -> None:
    start = mk.new_game(mk.GameConfig(players=5))
    assert mk.is_chance(start)
    assert mk.chance_outcomes(start) == tuple((mk.ChooseDealer(s), Fraction(1, 5))
                                              for s in range(5))
    s = mk.apply(start, mk.ChooseDealer(2))
    assert s.hidden == (9, 9, 9, 10, 10)[2:] + (9, 9, 9, 10, 10)[:2] or s.hidden
    assert [s.hidden[(2 + k) % 5] for k in range(1, 6)] == [10, 10, 10, 9, 9]
    assert mk.legal_actions(s, 3) == (mk.Flip(3), mk.Slap(3))
    assert s.to_move == 3


@pytest.mark.rule("MK-HIDDEN-1")
def test_turning_up_an_unseen_card_is_a_chance_step_with_exact_odds() -> None:
    s = mk.apply(dealt(), mk.Flip(1))
    assert mk.is_chance(s) and mk.legal_actions(s, 2) == ()
    outs = mk.chance_outcomes(s)
    assert outs == tuple((mk.Reveal(f), Fraction(4, 48)) for f in range(1, 13))
    assert mk.legal_actions(s) == tuple(a for a, _ in outs)  # at chance: its outcomes
    s = mk.apply(s, mk.Reveal(5))
    assert s.tops()[1] == 5
    assert dict(mk.chance_outcomes(mk.apply(s, mk.Flip(2))))[mk.Reveal(5)] == Fraction(3, 47)


@pytest.mark.rule("MK-HIDDEN-1")
def test_known_cards_come_up_in_order_without_chance() -> None:
    s = known(dealt(), {1: (7, 8)})
    s = mk.apply(s, mk.Flip(1))
    assert not mk.is_chance(s) and s.tops()[1] == 7


@pytest.mark.rule("MK-ACT-1")
def test_legal_actions_of_all_seats_are_the_union_of_each_seats() -> None:
    s = dealt(3)
    each = [a for seat in range(3) for a in mk.legal_actions(s, seat)]
    assert sorted(map(str, each)) == sorted(map(str, mk.legal_actions(s)))


@pytest.mark.rule("MK-ACT-1")
def test_bad_inputs_raise_typed_errors() -> None:
    s = dealt()
    with pytest.raises(TypeError):
        mk.apply(s, "1 flip")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="turn"):
        mk.apply(s, mk.Flip(2))
    with pytest.raises(InvalidNotationError):
        mk.parse_action("1 jump")
    chance = mk.apply(s, mk.Flip(1))
    with pytest.raises(IllegalActionError, match="chance"):
        mk.apply(chance, mk.Slap(2))
    with pytest.raises(IllegalActionError, match="chance"):
        mk.apply(s, mk.Reveal(3))  # not a chance state: a reveal is nobody's action
    with pytest.raises(InvalidArgumentError):
        mk.legal_actions(s, 9)
    with pytest.raises(InvalidArgumentError):
        mk.legal_actions(s, True)
    with pytest.raises(TypeError, match="State"):
        mk.legal_actions("x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="State"):
        mk.apply({}, mk.Flip(1))  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="seat 2 cannot act for seat 1"):
        mk.apply(s, mk.Flip(1), seat=2)
    with pytest.raises(IllegalActionError, match="chance cannot act for seat 1"):
        mk.apply(s, mk.Flip(1), seat=mk.CHANCE)
    assert mk.apply(s, mk.Flip(1), seat=1) == mk.apply(s, mk.Flip(1))


@pytest.mark.rule("MK-TURN-1")
def test_turn_passes_clockwise_and_skips_empty_piles() -> None:
    s = known(dealt(4), {1: (1,), 2: (), 3: (2, 9)})
    s = play(s, "1 flip")
    assert mk.legal_actions(s, 3)[0] == mk.Flip(3)  # seat 2 has no cards: skipped
    s = play(s, "3 flip")
    assert mk.Flip(0) in mk.legal_actions(s, 0)


@pytest.mark.rule("MK-TURN-1")
@pytest.mark.rule("MK-SLAP-1")
def test_flipping_stays_legal_while_a_match_shows() -> None:
    s = play(known(dealt(4), {1: (5,), 2: (5,)}), "1 flip", "2 flip")
    assert mk.match_shows(s)
    assert mk.Flip(3) in mk.legal_actions(s)


def _match(players: int = 4) -> mk.State:
    """Seats 1 and 2 show V5; seat 3 is to move."""
    return play(known(dealt(players), {1: (5, 6), 2: (5, 7)}), "1 flip", "2 flip")


@pytest.mark.rule("MK-SLAP-2")
def test_first_slap_wins_and_the_window_blocks_flips_and_slaps() -> None:
    s = play(_match(), "0 slap")
    assert mk.is_chance(s)
    s = play(s, "gem G3", "gem Toalha")
    assert s.award is not None and s.award.winner == 0
    assert mk.legal_actions(s, 3) == ()
    with pytest.raises(IllegalActionError, match="award window"):
        mk.apply(s, mk.Slap(3))
    assert mk.view(s, 0).award_drawn == ("G3", "Toalha")
    assert mk.view(s, 1).award_drawn is None
    assert s.phase is mk.Phase.AWARD


@pytest.mark.rule("MK-SLAP-3")
def test_a_wrong_slap_draws_a_penalty_and_with_none_left_changes_nothing() -> None:
    s = play(dealt(), "2 slap")
    assert mk.chance_outcomes(s) == tuple((mk.DrawPenalty(p), Fraction(1, 4))
                                          for p in sorted(mk.PENALTIES))
    s = play(s, "penalty Olho")
    assert s.penalties[2] == ("Olho",)
    empty = evolve(dealt(), penalty_deck=(), penalties=(("Cartas", "Duas", "Mao", "Olho"), (),
                                                         (), ()))
    after = mk.apply(empty, mk.Slap(2))
    assert after == empty and after.events == (mk.WrongSlap(2),)


@pytest.mark.rule("MK-AWARD-1")
def test_award_keeps_one_and_gives_the_other_to_a_seat_in_the_game() -> None:
    s = play(_match(), "0 slap", "gem G1", "gem G3")
    awards = mk.legal_actions(s, 0)
    assert mk.Award(0, "G3", 2) in awards and mk.Award(0, "G3", 0) not in awards
    s = play(s, "0 award G3 give 2")
    assert s.gems[0] == ("G3",) and s.gems[2] == ("G1",)
    assert mk.GemGiven(0, 2, "G1") in mk.view(s, 2).events
    assert mk.HiddenGemKept(0) in mk.view(s, 2).events  # MK-INFO-1: not which one
    assert not [t for t in texts(mk.view(s, 2).events) if "G3" in t]
    assert mk.GemKept(0, "G3") in mk.view(s, 0).events
    assert mk.HiddenGemGiven(0, 2) in mk.view(s, 1).events
    assert mk.scores(s)[:3] == (3, 0, 1)


@pytest.mark.rule("MK-AWARD-1")
def test_the_last_gem_card_is_taken_by_an_explicit_choice() -> None:
    rest = sorted(mk.load_edition().gems)
    rest.remove("G2")
    s = evolve(_match(), gem_pool=("G2",), gems=(tuple(rest), (), (), ()))
    s = play(s, "0 slap", "gem G2")
    assert [a for a in mk.legal_actions(s, 0) if isinstance(a, mk.Award)] == [
        mk.Award(0, "G2", None)]
    s = play(s, "0 award G2")
    assert s.over and s.end_reason is mk.EndReason.GEMS_GONE  # MK-END-1
    assert s.events[-1] == mk.GameEnded(mk.scores(s), mk.winners(s), mk.EndReason.GEMS_GONE)


@pytest.mark.rule("MK-AWARD-2")
@pytest.mark.rule("MK-AWARD-3")
def test_winner_collects_piles_own_first_then_clockwise_and_plays_next() -> None:
    s = play(known(dealt(4), {1: (3, 5, 9), 2: (4, 5, 9), 3: (6, 9)}),
             "1 flip", "2 flip", "3 flip", "0 flip", "reveal V1", "1 flip")
    # tops: 0:V1, 1:V5 (over V3), 2:V4, 3:V6 -> seat 2 flips V5
    s = play(s, "2 flip")
    s = play(s, "3 slap", "gem G1", "gem G2", "3 award G2 give 0")
    assert s.known[3] == (9, 6, 1, 3, 5, 4, 5)
    assert s.discards == ((), (), (), ())
    assert mk.legal_actions(s, 3)[0] == mk.Flip(3) and s.to_move == 3
    assert s.penalties == ((), (), (), ()) and len(s.penalty_deck) == 4


@pytest.mark.rule("MK-PEN-1")
def test_hand_and_eye_penalties_only_show_in_views() -> None:
    s = play(dealt(), "2 slap", "penalty Mao")
    assert mk.view(s, 1).penalties[2] == ("Mao",)
    assert mk.legal_actions(s, 2) == (mk.Slap(2),)


@pytest.mark.rule("MK-PEN-2")
def test_cards_for_everyone_goes_clockwise_from_the_left_while_cards_last() -> None:
    s = known(dealt(4), {2: (7, 8), 3: (), 0: (1,)})
    s = play(s, "2 slap", "penalty Cartas")
    assert s.known[3] == (7,) and s.known[0] == (1, 8) and s.draw_size(2) == 0


@pytest.mark.rule("MK-PEN-3")
def test_two_in_a_row_and_its_end_when_the_pile_empties() -> None:
    s = known(dealt(4), {1: (1, 2, 3), 2: (4,)})
    s = play(s, "1 slap", "penalty Duas", "1 flip")
    assert mk.Flip(1) in mk.legal_actions(s, 1)
    s = play(s, "1 flip")
    assert mk.Flip(2) in mk.legal_actions(s, 2)
    s = play(evolve(s, penalties=((), (), ("Duas",), ()), penalty_deck=("Cartas", "Mao", "Olho"),
                    flipped=0), "2 flip")
    assert mk.Flip(3) in mk.legal_actions(s, 3)  # seat 2's pile emptied after one card


@pytest.mark.rule("MK-ELIM-1")
def test_empty_piles_are_eliminated_at_the_next_counted_slap_unless_they_win() -> None:
    s = play(known(dealt(5), {1: (5,), 2: (5,), 4: ()}), "1 flip", "2 flip")
    won = play(s, "2 slap", "gem G1", "gem G1", "2 award G1 give 1")
    assert won.in_game == (True, False, True, True, False)
    assert mk.legal_actions(won, 1) == ()
    assert mk.Eliminated(1) in won.events and mk.Eliminated(4) in won.events


@pytest.mark.rule("MK-SPECIAL-1")
def test_toalha_steals_the_top_three_under_the_thiefs_pile() -> None:
    s = with_special(known(dealt(4), {0: (9,), 1: (6,), 2: (1, 2, 3, 4)}), 1, "Toalha")
    s = play(s, "1 toalha 2")
    assert s.known[1] == (6, 1, 2, 3) and s.known[2] == (4,) and s.played == ("Toalha",)
    assert s.gems[1] == ()


@pytest.mark.rule("MK-SPECIAL-2")
def test_orcolar_takes_the_cards_and_gives_one_to_the_winner() -> None:
    s = play(with_special(_match(), 3, "Orcolar"), "0 slap", "gem G1", "gem G3", "3 orcolar")
    assert mk.legal_actions(s, 0) == ()
    assert mk.legal_actions(s, 3) == (mk.Award(3, "G1", 0), mk.Award(3, "G3", 0))
    assert mk.view(s, 3).award_drawn == ("G1", "G3")
    # M30: the slap's winner still sees them; the others do not.
    assert mk.view(s, 0).award_drawn == ("G1", "G3") and mk.view(s, 1).award_drawn is None
    assert mk.GemsSeen(3, ("G1", "G3")) in mk.view(s, 3).events
    assert mk.HiddenGemsSeen(3, 2) in mk.view(s, 1).events
    s = play(s, "3 award G3 give 0")
    assert s.gems[3] == ("G3",) and s.gems[0] == ("G1",)
    assert s.known[0][-2:] == (5, 5)  # the winner still collects the piles


@pytest.mark.rule("MK-SPECIAL-3")
def test_amuleto_voids_the_slap_and_the_maker_turns_up_again() -> None:
    s = play(with_special(_match(), 3, "Amuleto"), "0 slap", "gem G1", "gem G3")
    s = play(s, "3 amuleto")
    # seat 2 turned up the matching card last; its V5 goes under, V7 comes up
    assert s.tops()[2] == 7 and s.known[2] == (5,)
    assert s.gem_top == ("G1", "G3") and s.award is None
    assert mk.legal_actions(s, 3)[0] == mk.Flip(3) and s.to_move == 3  # the turn stays
    assert mk.CardTurnedUp(2, 7, turn=False) in s.events
    s = play(s, "3 slap")
    assert s.pending == mk.Pending(mk.Phase.PENALTY, 3) and s.phase is mk.Phase.PENALTY


@pytest.mark.rule("MK-SPECIAL-4")
def test_oculos_takes_a_gem_card_of_an_eliminated_player_until_a_turn_up() -> None:
    s = with_special(_match(5), 3, "Oculos")
    s = known(s, {4: ()})
    pool = list(s.gem_pool)
    pool.remove("G2")
    s = evolve(s, gem_pool=tuple(pool), gems=s.gems[:4] + (("G2",),))
    s = play(s, "0 slap", "gem G1", "gem G1", "0 award G1 give 3")
    assert s.oculos == (4,)
    assert mk.view(s, 3).gems[4] == ("G2",) and mk.view(s, 1).gems[4] is None
    assert mk.Oculos(3, 4, "G2") in mk.legal_actions(s, 3)
    taken = play(s, "3 oculos 4 G2")
    assert taken.gems[3] == ("G1", "G2") and taken.gems[4] == ()
    closed = mk.resolve_chance(play(s, "0 flip"), random.Random(0))
    assert closed.oculos == ()


@pytest.mark.rule("MK-END-1")
def test_game_ends_when_two_players_remain() -> None:
    s = play(known(dealt(3), {1: (5,), 0: ()}), "1 flip", "2 flip", "reveal V5")
    s = play(s, "1 slap", "gem G1", "gem G2", "1 award G2 give 2")
    assert s.over and s.in_game == (False, True, True)
    assert s.end_reason is mk.EndReason.FEW_PLAYERS


@pytest.mark.rule("MK-END-1")
def test_game_ends_when_nobody_can_turn_up_and_no_match_shows() -> None:
    # Every other card lies in the discard piles, whose tops (V3, V5, V6) show no match.
    rest = [f for f in range(1, 13) for _ in range(4)]
    for f in (1, 2, 3, 5, 6):
        rest.remove(f)
    piles = (rest[:15] + [3], rest[15:29] + [5], rest[29:] + [6])
    stamps = iter(range(1, 49))
    s = evolve(dealt(3), pool=(0,) * 12, hidden=(0, 0, 0), known=((), (1,), (2,)),
               discards=tuple(tuple((f, next(stamps)) for f in p) for p in piles), clock=46,
               to_move=1)
    s = play(s, "1 flip", "2 flip")
    assert s.over and s.end_reason is mk.EndReason.NO_MOVE
    assert s.in_game == (True, True, True) and mk.legal_actions(s) == ()


@pytest.mark.rule("MK-END-2")
def test_winners_are_the_highest_scores_still_in_the_game_ties_shared() -> None:
    # Scores of a position set up by hand (no check: scoring reads only the Gem cards).
    s = attrs.evolve(dealt(4), gems=(("G3",), ("G1", "G2"), ("Toalha",), ("G3", "G3")),
                     in_game=(True, True, True, False))
    assert mk.scores(s) == (3, 3, 1, 6)
    assert mk.winners(s) == frozenset({0, 1})


@pytest.mark.rule("MK-CONS-1")
def test_check_state_refuses_a_lost_card() -> None:
    s = dealt()
    mk.check_state(s)
    with pytest.raises(InvalidStateError, match="MK-CONS-1"):
        mk.check_state(attrs.evolve(s, gem_pool=s.gem_pool[1:]))


@pytest.mark.rule("MK-INFO-1")
def test_views_hide_other_seats_gems_until_the_end() -> None:
    s = attrs.evolve(dealt(4), gems=(("G3",), (), ("G1",), ()))
    v = mk.view(s, 0)
    assert v.gems[0] == ("G3",) and v.gems[2] is None and v.gem_counts[2] == 1
    assert mk.spectator_view(s).gems == (None,) * 4
    end = attrs.evolve(s, end_reason=mk.EndReason.NO_MOVE)
    assert mk.spectator_view(end).gems[2] == ("G1",)


@pytest.mark.rule("MK-NOTATION-1")
@pytest.mark.parametrize("text", ["dealer 2", "reveal V12", "gem Orcolar", "penalty Duas",
                                  "1 flip", "0 slap", "3 award G3 give 1", "3 award G2",
                                  "2 toalha 0", "4 orcolar", "5 amuleto", "1 oculos 2 G1"])
def test_notation_round_trips(text: str) -> None:
    assert str(mk.parse_action(text)) == text


@pytest.mark.rule("MK-END-1")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_end_with_winners_in_the_game(players: int) -> None:
    for seed in range(5):
        final = mk.random_playout(mk.GameConfig(players=players), random.Random(seed))
        assert mk.is_terminal(final)
        mk.check_state(final)
        assert all(final.in_game[w] for w in mk.winners(final))


@pytest.mark.rule("MK-SPECIAL-2")
@pytest.mark.rule("MK-SPECIAL-3")
def test_only_the_first_orcolar_or_amuleto_counts() -> None:
    s = with_special(with_special(_match(), 3, "Orcolar"), 1, "Amuleto")
    s = play(s, "0 slap", "gem G1", "gem G2")
    assert mk.Amuleto(1) in mk.legal_actions(s, 1) and mk.Orcolar(0) not in mk.legal_actions(s)
    s = play(s, "3 orcolar")
    assert mk.Amuleto(1) not in mk.legal_actions(s, 1)


@pytest.mark.rule("MK-SPECIAL-1")
@pytest.mark.rule("MK-HIDDEN-1")
def test_toalha_from_a_shuffled_pile_reveals_faces_by_chance_seen_by_nobody() -> None:
    s = with_special(dealt(4), 1, "Toalha")
    s = play(s, "0 slap", "penalty Mao")  # a wrong slap, so the award window is not needed
    s = play(s, "1 toalha 2")
    assert mk.is_chance(s)
    assert sum(p for _, p in mk.chance_outcomes(s)) == 1
    assert mk.ToalhaPlayed(1, 2) in mk.spectator_view(s).events  # a public event
    before = s.draw_size(1)
    for face in (3, 3, 9):
        s = play(s, f"reveal V{face}")
        assert s.events == (mk.CardMoved(2, 1, face),)
        for v in [mk.spectator_view(s), *(mk.view(s, seat) for seat in range(4))]:
            assert v.events == (mk.HiddenCardMoved(2, 1),)  # M30: nobody sees the face
    assert not mk.is_chance(s) and s.known[1][-3:] == (3, 3, 9)
    assert s.draw_size(1) == before + 3


@pytest.mark.rule("MK-SPECIAL-1")
@pytest.mark.rule("MK-SLAP-2")
def test_toalha_may_be_played_in_an_award_window() -> None:
    s = play(with_special(_match(), 3, "Toalha"), "0 slap", "gem G1", "gem G2")
    assert mk.Toalha(3, 1) in mk.legal_actions(s, 3)


@pytest.mark.rule("MK-PEN-2")
def test_cards_for_everyone_skips_eliminated_seats() -> None:
    # M20: clockwise from the penalised player's left, skipping eliminated seats.
    s = known(dealt(5), {2: (7, 8, 9), 3: (), 0: (3,), 1: (4,)})
    s = evolve(s, in_game=(True, True, True, False, True))
    s = play(s, "2 slap", "penalty Cartas")
    assert s.known == ((3, 8), (4, 9), (), (), (7,))


@pytest.mark.rule("MK-AWARD-1")
def test_the_second_gem_card_may_go_to_a_seat_this_slap_eliminates() -> None:
    # M23: seats 1 and 4 have empty piles and lose this race, but still count when chosen.
    s = play(known(dealt(5), {1: (5,), 2: (5,), 4: ()}), "1 flip", "2 flip")
    s = play(s, "2 slap", "gem G1", "gem G1")
    gives = {a.give for a in mk.legal_actions(s, 2) if isinstance(a, mk.Award)}
    assert gives == {0, 1, 3, 4}


@pytest.mark.rule("MK-SPECIAL-1")
def test_toalha_targets_only_seats_with_draw_pile_cards() -> None:
    # M26: the target needs at least one draw-pile card; the thief may have none.
    s = known(dealt(4), {0: (), 1: (), 2: (1,)})
    s = with_special(s, 0, "Toalha")
    targets = {a.target for a in mk.legal_actions(s, 0) if isinstance(a, mk.Toalha)}
    assert targets == {2, 3}
