"""Determinization: a full state drawn from a view is a real-looking state that the viewer
cannot tell from the true one, and every consistent placement of the hidden cards can occur.
"""

from __future__ import annotations

import random
from itertools import permutations
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from shock_rules import (
    Card,
    GameConfig,
    InvalidStateError,
    PlayerView,
    SeatView,
    State,
    Suit,
    TrickCard,
    Variant,
    apply_all,
    deal_hands,
    determinize,
    is_terminal,
    new_game,
    parse_cards,
    resolve_chance,
    spectator_view,
    view,
)
from shock_rules._rules.check import check_state
from shock_rules._rules.events import (
    GameEnded,
    GemsGained,
    HiddenCardDealt,
    HiddenCardPlayed,
    RoundStarted,
    Shocked,
    TrickWon,
)
from strategies import positions, random_step

VARIANTS = tuple(Variant)




def _view_of(s: State, seat: int | None) -> PlayerView:
    return spectator_view(s) if seat is None else view(s, seat)


def _suits(mask: int) -> set[Suit]:
    return {Card.from_index(i).suit for i in range(44) if mask >> i & 1}


def _voids(s: State, seat: int) -> set[Suit]:
    return {suit for suit in Suit if s.void_suits[seat] >> suit & 1}


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_a_determinized_state_is_valid_and_looks_the_same(variant: Variant,
                                                          data: st.DataObject) -> None:
    s = data.draw(positions(variant), label="state")
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="rng seed"))
    for seat in [None, *range(s.config.players)]:
        v = _view_of(s, seat)
        d = determinize(v, rng)
        check_state(d)
        assert _view_of(d, seat) == v
        if seat is not None:
            assert d.hand(seat) == s.hand(seat)
            assert d.face_down(seat) == s.face_down(seat)
        # K9: a seat that did not follow suit holds no card of that suit, and played none
        # face down afterwards (a seat plays face down only once out of the round, K11/K12).
        for j in range(s.config.players):
            if j != seat:
                assert not _suits(d.hand_masks[j] | d.face_down_masks[j]) & _voids(d, j)
        # The drawn state plays on like a real one.
        for _ in range(12):
            if is_terminal(d):
                break
            d = random_step(d, rng, 8)


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_real_states_respect_the_voids_determinize_relies_on(variant: Variant,
                                                              data: st.DataObject) -> None:
    # The constraint determinize() imposes must hold in every real state, or it would rule out
    # the truth: no seat holds or played face down a card of a suit it showed it lacks.
    s = data.draw(positions(variant), label="state")
    for j in range(s.config.players):
        assert not _suits(s.hand_masks[j] | s.face_down_masks[j]) & _voids(s, j)


# -- an endgame position, with every consistent placement worked out by hand -------------------

HANDS = ["1H 2H 3H 4H 5H 6H 7H 8H 9H", "1S 2S 3S 4S 5S 6S 7S 8S 9S",
         "1D 2D 3D 4D 5D 6D 7D 8D 9D", "1C 2C 3C 4C 5C 6C 7C 8C 9C"]


def _endgame() -> State:
    """Four players, each dealt one suit; clubs are trump; the undealt cards are 10H, 10S and
    10D (K3: no 11s with 4 players).

    Seat 0 leads 1H; seats 1-3 cannot follow (voids in hearts); seat 3 trumps and wins, then
    leads clubs every trick, so seats 0-2 show voids in clubs. In trick 7 seat 3 takes 7C
    (with the stored 5C: two potions) and the three poison 7s, and covers 7H and 7S (K16). In
    trick 8 seat 0 withdraws with 8H; in trick 9 seat 3 leads 9C, seat 0 plays 9H face down,
    and seat 1 is to play.
    """
    s = deal_hands(new_game(GameConfig(players=4, first_leader=0)), HANDS, trump="10C")
    s = apply_all(s, "play 1H; play 1S; play 1D; play 1C; chest G1/1; stop")
    for r in range(2, 7):
        s = apply_all(s, f"play {r}C; play {r}H; play {r}S; play {r}D; chest G1/1; stop")
    s = apply_all(s, "play 7C; play 7H; play 7S; play 7D; cover 7H; cover 7S; chest G2/1; stop")
    s = apply_all(s, "play 8C; withdraw 8H; play 8S; play 8D; chest G2/1; stop")
    return apply_all(s, "play 9C; down 9H")


H, S, D, C = Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS
# The voids shown in the script above: seat 0 clubs; seats 1 and 2 hearts and clubs; seat 3
# hearts.
VOIDS = {0: {C}, 1: {H, C}, 2: {H, C}, 3: {H}}


def _expected(cards: str, slots: list[int]) -> set[tuple[object, ...]]:
    """Every way to give one unseen card to each slot (the seat named, avoiding its voids),
    the rest going to the dungeon deck (an unordered pool)."""
    unseen = parse_cards(cards)
    out: set[tuple[object, ...]] = set()
    for perm in permutations(unseen, len(slots)):
        if all(c.suit not in VOIDS[seat] for c, seat in zip(perm, slots, strict=True)):
            out.add((*perm, frozenset(unseen) - set(perm)))
    return out


def test_every_consistent_placement_occurs_for_a_seat() -> None:
    s = _endgame()
    v = view(s, 1)
    assert {j: set(sv.void_suits) for j, sv in enumerate(v.seats)} == VOIDS
    # Seat 1 sees its 9S. Unseen: 10H 10S 10D (deck), seat 0's two face-down hearts (8H in the
    # discard pile, 9H in the trick) and seat 2's last diamond 9D. Places: seat 2's hand (not
    # hearts or clubs), seat 0's face-down card in the trick and the one in the discard pile
    # (not clubs: none is unseen anyway), and the deck. 3 * 5 * 4 = 60 placements.
    expected = _expected("10H 10S 10D 8H 9H 9D", [2, 0, 0])
    assert len(expected) == 60
    seen: set[tuple[object, ...]] = set()
    rng = random.Random(4)
    for _ in range(2000):
        d = determinize(v, rng)
        (trick_down,) = [p.card for p in d.trick if not p.face_up]
        (discard_down,) = set(d.face_down(0)) - {trick_down}
        (hand2,) = d.hand(2)
        pool = frozenset(Card.from_index(i) for i in range(44) if d.pool_mask >> i & 1)
        seen.add((hand2, trick_down, discard_down, pool))
    assert seen == expected


def test_every_consistent_placement_occurs_for_a_spectator() -> None:
    s = _endgame()
    v = spectator_view(s)
    # A spectator does not see seat 1's 9S either: seats 1 and 2 each hold one card that is not
    # a heart or a club (4 * 3 ways), then seat 0's two face-down cards (5 * 4): 240.
    expected = _expected("10H 10S 10D 8H 9H 9D 9S", [1, 2, 0, 0])
    assert len(expected) == 240
    seen: set[tuple[object, ...]] = set()
    rng = random.Random(5)
    for _ in range(6000):
        d = determinize(v, rng)
        (trick_down,) = [p.card for p in d.trick if not p.face_up]
        (discard_down,) = set(d.face_down(0)) - {trick_down}
        pool = frozenset(Card.from_index(i) for i in range(44) if d.pool_mask >> i & 1)
        seen.add((*d.hand(1), *d.hand(2), trick_down, discard_down, pool))
    assert seen == expected


def test_without_voids_the_hidden_cards_are_dealt_uniformly() -> None:
    # Right after the deal nothing constrains the hidden cards: each unseen card lies in a
    # given other hand with probability hand size / unseen cards (9 / 30 with 4 players: 40
    # cards, seat 0 sees its 9 and the trump card).
    s = deal_hands(new_game(GameConfig(players=4, first_leader=0)),
                   [h.split() for h in HANDS], trump="10C")
    v = view(s, 0)
    assert len(v.unseen) == 30
    rng = random.Random(6)
    n = 3000
    hits = sum(Card.parse("5S") in determinize(v, rng).hand(1) for _ in range(n))
    # Binomial(3000, 0.3): mean 900, standard deviation 25; allow 5 deviations.
    assert abs(hits - 900) < 125


def test_an_inconsistent_view_is_rejected() -> None:
    v = view(_endgame(), 1)
    with pytest.raises(ValueError, match="inconsistent"):
        determinize(attrs.evolve(v, deck_size=v.deck_size + 1), random.Random(0))
    # Seat 2 holds one card; if it had shown voids in every suit, no card could be its.
    seats = list(v.seats)
    seats[2] = attrs.evolve(seats[2], void_suits=tuple(Suit))
    with pytest.raises(ValueError, match="inconsistent"):
        determinize(attrs.evolve(v, seats=tuple(seats)), random.Random(0))


def _random_groups(rng: random.Random) -> tuple[list[int], list[int], list[int]]:
    """Return ``(left, cap, allowed)`` for the feasibility check: 1 to 6 groups of seats, each
    with room for 0 to 4 cards of the suits in its mask ``allowed`` (1 to 15), and the cards
    left of each of the four suits, as many in all as the groups have room for."""
    groups = rng.randint(1, 6)
    cap = [rng.randint(0, 4) for _ in range(groups)]
    allowed = [rng.randint(1, 15) for _ in range(groups)]
    total = sum(cap)
    cuts = sorted(rng.randint(0, total) for _ in range(3))
    left = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], total - cuts[2]]
    return left, cap, allowed


def test_the_feasibility_check_is_halls_condition() -> None:
    # _feasible groups the seats that accept the same suits; it must say exactly what Hall's
    # condition says suit set by suit set, ungrouped.
    from itertools import combinations

    from shock_rules._info.determinize import _feasible

    def plain(left: list[int], cap: list[int], allowed: list[int]) -> bool:
        for k in range(1, 5):
            for combo in combinations(range(4), k):
                sset = sum(1 << s for s in combo)
                need = sum(left[s] for s in combo)
                if need > sum(c for c, a in zip(cap, allowed, strict=True) if a & sset):
                    return False
        return True

    rng = random.Random(3)
    for _ in range(5000):
        left, cap, allowed = _random_groups(rng)
        assert _feasible(left, cap, allowed) == plain(left, cap, allowed)


def test_the_tight_suits_decide_each_group_as_the_feasibility_check() -> None:
    # _assign takes a card out of the counts and offers it the groups that meet no tight
    # suit; that must be exactly the groups that _feasible accepts after the placement.
    from shock_rules._info.determinize import _feasible, _tight_suits

    rng = random.Random(5)
    checked = 0
    for _ in range(5000):
        left, cap, allowed = _random_groups(rng)
        if not sum(cap) or not _feasible(left, cap, allowed):
            continue
        s = rng.choice([x for x in range(4) if left[x]])
        left[s] -= 1
        tight = _tight_suits(left, cap, allowed)
        for g in range(len(cap)):
            if not cap[g] or not allowed[g] >> s & 1:
                continue
            cap[g] -= 1
            assert (not allowed[g] & tight) == _feasible(left, cap, allowed)
            cap[g] += 1
            checked += 1
    assert checked > 2000


def test_redeterminize_draws_as_determinize_without_the_final_check() -> None:
    # The search bots' unchecked draw: the same state from the same generator, and it passes
    # the check that it leaves out, on views from every phase of seeded games.
    from shock_rules._info.determinize import redeterminize

    cases = 0
    for seed in range(3):
        state = new_game(GameConfig(players=3 + seed))
        rng = random.Random(seed)
        while not is_terminal(state):
            for seat in range(state.players):
                v = view(state, seat)
                a = determinize(v, random.Random(cases))
                b = redeterminize(v, random.Random(cases))
                assert a == b and a.events == b.events and a.step == b.step
                check_state(b)
                cases += 1
            state = random_step(state, rng, 6)
    assert cases > 500


def _true_and_forged_views() -> tuple[PlayerView, dict[str, PlayerView]]:
    """A decision's view, and views that no state shows: each field plausible, together they
    disagree."""
    s = resolve_chance(new_game(GameConfig(players=4)), random.Random(1))
    me = s.actor
    v = view(s, me)
    assert v.your_turn and v.legal_actions
    mine = v.seats[me]

    def with_own(seat_view: SeatView) -> tuple[SeatView, ...]:
        return (*v.seats[:me], seat_view, *v.seats[me + 1:])

    return v, {
        "own face_down_count": attrs.evolve(
            v, seats=with_own(attrs.evolve(mine, face_down_count=99))),
        "own hand_size": attrs.evolve(v, seats=with_own(attrs.evolve(mine, hand_size=3))),
        "no legal actions on its turn": attrs.evolve(v, legal_actions=()),
    }


@pytest.mark.parametrize("name", list(_true_and_forged_views()[1]))
def test_determinize_refuses_a_view_that_no_state_shows(name: str) -> None:
    true, forged = _true_and_forged_views()
    with pytest.raises(InvalidStateError, match="no state shows it: its field"):
        determinize(forged[name], random.Random(2))
    # The view it was forged from is drawn for and shown back.
    assert true.seat is not None
    assert view(determinize(true, random.Random(2)), true.seat) == true


def _forged_events() -> dict[str, tuple[object, ...]]:
    """Event lists that no step makes: a wrong type in a field, or a seat the game lacks."""
    card = Card.parse("7H")
    return {
        "a bool seat": (HiddenCardDealt(True),),  # a bool is an int to mypy
        "a bool for gems": (HiddenCardPlayed(1, True),),
        "a string for gems": (GemsGained(0, "5"),),  # type: ignore[arg-type]
        "a number for a poison": (Shocked(0, 5, 3),),  # type: ignore[arg-type]
        "a text for a card": (TrickWon(0, 1, "7H", 2),),  # type: ignore[arg-type]
        "no event at all": ("round 1 started",),
        "a seat past the last": (TrickWon(4, 1, card, 2),),
        "a leader below -1": (RoundStarted(2, -2),),
        "a bool among the scores": (GameEnded((1, True, 3, 4), frozenset({0})),),
        "a winner past the last": (GameEnded((1, 2, 3, 4), frozenset({4})),),
    }


@pytest.mark.parametrize("name", list(_forged_events()))
def test_determinize_refuses_a_view_whose_events_no_step_makes(name: str) -> None:
    # A view's events go into the drawn state: a forged one must be refused, by both builds
    # alike (the compiled one would otherwise turn True into the seat 1).
    true, _ = _true_and_forged_views()
    forged = attrs.evolve(true, events=(*true.events, *_forged_events()[name]))  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match=rf"events\[{len(true.events)}\]"):
        determinize(forged, random.Random(2))
    # The view's own events, well formed, are taken and shown back.
    assert true.events and true.seat is not None
    assert view(determinize(true, random.Random(2)), true.seat).events == true.events


def _seat_forgeries() -> dict[str, PlayerView]:
    """Views made by hand whose seat numbers are not the game's (each of the right type)."""
    true, _ = _true_and_forged_views()
    me = true.seat
    assert me is not None
    played = TrickCard(seat=(me + 1) % 4, card=Card.parse("10H"), face_up=True, gems=1)
    return {
        "a viewer past the last seat": attrs.evolve(true, seat=7),
        "seats out of order": attrs.evolve(true, seats=true.seats[::-1]),
        "a seat missing": attrs.evolve(true, seats=true.seats[:-1]),
        "a trick card of seat 9": attrs.evolve(true, trick=(attrs.evolve(played, seat=9),)),
        "a seat twice in the trick": attrs.evolve(true, trick=(played, played)),
        "the viewer's own card hidden": attrs.evolve(
            true, trick=(*true.trick, attrs.evolve(played, seat=me, card=None))),
    }


@pytest.mark.parametrize("name", list(_seat_forgeries()))
def test_determinize_refuses_a_view_whose_seat_numbers_are_not_the_games(name: str) -> None:
    # A view made by hand: numbers of the right type but of no seat are bad data, refused
    # with the typed error (the draw indexes by them), not an IndexError or a KeyError.
    with pytest.raises(InvalidStateError, match="invalid view: "):
        determinize(_seat_forgeries()[name], random.Random(2))


def _potion_views() -> tuple[PlayerView, dict[str, PlayerView]]:
    """Seat 1's view with seat 3's 7C on 7H and 5C stored (POTION-6), and forged placements."""
    from rules._helpers import SUITS_4, run, start
    s = run(start(SUITS_4, "10C"), "play 7H; play 8S; play 8D; play 7C; chest G3/0; stop;"
                                   " play 5C; play 6H; play 6S; play 6D")
    v = view(s, 1)
    seat = v.seats[3]
    bee = seat.poisons[0]
    assert (bee.card, bee.covered_by) == (Card.parse("7H"), Card.parse("7C"))

    def with_bee(**changes: Any) -> PlayerView:
        poisons = (attrs.evolve(bee, **changes),)
        return attrs.evolve(v, seats=(*v.seats[:3], attrs.evolve(seat, poisons=poisons)))

    return v, {
        "is covered, but covered_by names no potion": with_bee(covered_by=None),
        "covered_by is 7C, but the poison is not covered": with_bee(covered=False),
        "covered_by: 7S is not a potion card": with_bee(covered_by=Card.parse("7S")),
        "covered_by: 7C is not a potion in front of seat 3": attrs.evolve(
            v, seats=(*v.seats[:3], attrs.evolve(seat, potions=(Card.parse("5C"),)))),
    }


@pytest.mark.rule("POTION-6")
def test_a_determinized_state_keeps_the_placement_of_the_view() -> None:
    true, _ = _potion_views()
    for seed in range(5):
        drawn = determinize(true, random.Random(seed))
        assert drawn.potion_on_masks == (0, Card.parse("7H").bit)
        assert view(drawn, 1) == true


@pytest.mark.rule("POTION-6")
@pytest.mark.parametrize("message", list(_potion_views()[1]))
def test_determinize_refuses_a_view_with_a_forged_placement(message: str) -> None:
    _, forged = _potion_views()
    with pytest.raises(InvalidStateError, match=r"its seats\[3\]\.poisons\[0\].*" + message):
        determinize(forged[message], random.Random(2))
