"""check_state accepts exactly the reachable states: tested both ways.

Every state of random games passes (here over seeded games of every config; the rule
scenarios, ``test_random_games`` and the property tests check every state they make as well).
The other way, a mutation breaks exactly one condition of a reachable state -- a hand size, a
status, a face-down card, a leader, a last winner, the discard pile, the chest counts, the
supply, a void, a cover, the turn -- in a way the rules forbid whatever the rest of the state,
and the result must fail with InvalidStateError.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import shock_rules as sr
from shock_rules import Phase, State, Status
from shock_rules._rules.state import FIELDS, unchecked_replace
from strategies import positions, random_step

BETWEEN = (Phase.COVER, Phase.CHEST, Phase.CHEST_CHOICE)
IN_PLAY = (Phase.PLAY, *BETWEEN)


def _bits(mask: int) -> list[int]:
    return [i for i in range(44) if mask >> i & 1]


def _put(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    return values[:seat] + (value,) + values[seat + 1:]


def _seats(s: State, status: Status) -> list[int]:
    return [i for i in range(s.players) if s.status[i] is status]


Mutation = Callable[[State, random.Random], State | None]


def hand_to_deck(s: State, rng: random.Random) -> State | None:
    """A card leaves a hand for the dungeon deck mid-round (TRICK-1: hand sizes are fixed)."""
    seats = [i for i in range(s.players) if s.hand_masks[i]]
    if s.phase not in IN_PLAY or not seats:
        return None
    seat = rng.choice(seats)
    bit = 1 << rng.choice(_bits(s.hand_masks[seat]))
    return unchecked_replace(s, hand_masks=_put(s.hand_masks, seat, s.hand_masks[seat] ^ bit),
                        pool_mask=s.pool_mask | bit)


def hand_to_hand(s: State, rng: random.Random) -> State | None:
    """A card moves from one hand to another (hands are equal between tricks)."""
    seats = [i for i in range(s.players) if s.hand_masks[i]]
    if s.phase not in IN_PLAY or not seats:
        return None
    a = rng.choice(seats)
    b = rng.choice([i for i in range(s.players) if i != a])
    bit = 1 << rng.choice(_bits(s.hand_masks[a]))
    hands = _put(s.hand_masks, a, s.hand_masks[a] ^ bit)
    return unchecked_replace(s, hand_masks=_put(hands, b, hands[b] | bit))


def mark_withdrawn(s: State, rng: random.Random) -> State | None:
    """A seat in the round is marked withdrawn without a face-down card (WITHDRAW-1)."""
    seats = _seats(s, Status.IN)
    if s.phase not in IN_PLAY or not seats:
        return None
    seat = rng.choice(seats)
    return unchecked_replace(s, status=s.status[:seat] + (Status.WITHDRAWN,) + s.status[seat + 1:],
                        on_bag=_put(s.on_bag, seat, 0),
                        supply=s.supply + s.on_bag[seat])


def mark_in(s: State, rng: random.Random) -> State | None:
    """A withdrawn seat, whose face-down cards lie in the trick or discard, is marked in."""
    seats = _seats(s, Status.WITHDRAWN)
    if s.phase is Phase.DEAL or not seats:
        return None
    seat = rng.choice(seats)
    return unchecked_replace(s, status=s.status[:seat] + (Status.IN,) + s.status[seat + 1:])


def unshock(s: State, rng: random.Random) -> State | None:
    """A shocked seat, whose poison count reached 2, is marked in the round (SHOCK-1)."""
    seats = _seats(s, Status.SHOCKED)
    if not seats:
        return None
    seat = rng.choice(seats)
    return unchecked_replace(s, status=s.status[:seat] + (Status.IN,) + s.status[seat + 1:])


def face_down_for_in(s: State, rng: random.Random) -> State | None:
    """A face-up card of the discard pile is recorded as a face-down card of a seat in the
    round (WITHDRAW-3: seats in the round play face up)."""
    down = 0
    for m in s.face_down_masks:
        down |= m
    cards = _bits(s.discard_mask & ~down)
    seats = _seats(s, Status.IN)
    if not cards or not seats:
        return None
    seat = rng.choice(seats)
    bit = 1 << rng.choice(cards)
    return unchecked_replace(s, face_down_masks=_put(s.face_down_masks, seat,
                                                s.face_down_masks[seat] | bit))


def other_leader(s: State, rng: random.Random) -> State | None:
    """Another seat leads the trick in play (LEAD-1, and the order of play)."""
    if s.phase is not Phase.PLAY:
        return None
    return unchecked_replace(s, leader=(s.leader + rng.randrange(1, s.players)) % s.players)


def winner_in_trick_one(s: State, rng: random.Random) -> State | None:
    """Trick 1 is in play, yet a last winner is recorded."""
    if s.phase is not Phase.PLAY or s.trick_number != 1:
        return None
    return unchecked_replace(s, last_winner=rng.randrange(s.players))


def no_last_winner(s: State, rng: random.Random) -> State | None:
    """A trick was won this round, yet no last winner is recorded."""
    if s.phase not in IN_PLAY or (s.phase is Phase.PLAY and s.trick_number == 1):
        return None
    return unchecked_replace(s, last_winner=-1)


def discard_to_deck(s: State, rng: random.Random) -> State | None:
    """A card of a finished trick goes back to the dungeon deck (TRICK-8)."""
    down = 0
    for m in s.face_down_masks:
        down |= m
    cards = _bits(s.discard_mask & ~down)
    if s.phase not in IN_PLAY or not cards:
        return None
    bit = 1 << rng.choice(cards)
    return unchecked_replace(s, discard_mask=s.discard_mask ^ bit, pool_mask=s.pool_mask | bit)


def chest_in_trick_one(s: State, rng: random.Random) -> State | None:
    """A chest card is out of the deck before any trick was won (CHEST-1)."""
    kinds = [k for k, n in enumerate(s.chest_deck) if n]
    if s.phase is not Phase.PLAY or s.trick_number != 1 or not kinds:
        return None
    k = rng.choice(kinds)
    s = unchecked_replace(s, chest_deck=_put(s.chest_deck, k, s.chest_deck[k] - 1))
    if s.tables.chest_poison[k] >= 0:
        return unchecked_replace(s, chest_centre=_put(s.chest_centre, k, s.chest_centre[k] + 1))
    return unchecked_replace(s, chest_discard=_put(s.chest_discard, k, s.chest_discard[k] + 1))


def supply_off(s: State, rng: random.Random) -> State | None:
    """A gem appears from nowhere (SETUP-4: gems are conserved)."""
    return unchecked_replace(s, supply=s.supply + rng.choice((-1, 1)))


def revealed_in_play(s: State, rng: random.Random) -> State | None:
    """A chest challenge is recorded while a trick is being played."""
    if s.phase is not Phase.PLAY:
        return None
    return unchecked_replace(s, revealed=rng.randrange(1, 4))


def void_in_trick_one(s: State, rng: random.Random) -> State | None:
    """A seat that has not played in trick 1 shows a void (K9)."""
    played = {p.seat for p in s.trick}
    seats = [i for i in range(s.players) if i not in played]
    if s.phase is not Phase.PLAY or s.trick_number != 1 or not seats:
        return None
    seat = rng.choice(seats)
    return unchecked_replace(s, void_suits=_put(s.void_suits, seat,
                                           s.void_suits[seat] | 1 << rng.randrange(4)))


def flip_trick_card(s: State, rng: random.Random) -> State | None:
    """A card of the trick changes face, with the gems of its new face (WITHDRAW-3)."""
    if s.phase is not Phase.PLAY or not s.trick:
        return None
    i = rng.randrange(len(s.trick))
    p = s.trick[i]
    t = s.tables
    gems = t.face_down_gems if p.face_up else t.icons[p.card.index]
    fd = s.face_down_masks[p.seat] ^ p.card.bit
    trick = s.trick[:i] + (sr.Play(p.seat, p.card, not p.face_up, gems),) + s.trick[i + 1:]
    return unchecked_replace(s, trick=trick, supply=s.supply + p.gems - gems,
                        face_down_masks=_put(s.face_down_masks, p.seat, fd))


def bag_in_round_one(s: State, rng: random.Random) -> State | None:
    """A seat that never withdrew has gems in its bag in round 1 (WITHDRAW-2)."""
    seats = [i for i in range(s.players) if s.status[i] is not Status.WITHDRAWN]
    if s.round != 1 or not seats:
        return None
    seat = rng.choice(seats)
    return unchecked_replace(s, in_bag=_put(s.in_bag, seat, s.in_bag[seat] + 1),
                             supply=s.supply - 1)


def gems_before_a_win(s: State, rng: random.Random) -> State | None:
    """A seat has gems on its bag in trick 1, before any trick was won (TRICK-7)."""
    seats = _seats(s, Status.IN)
    if s.phase is not Phase.PLAY or s.trick_number != 1 or not seats:
        return None
    seat = rng.choice(seats)
    return unchecked_replace(s, on_bag=_put(s.on_bag, seat, s.on_bag[seat] + 1),
                             supply=s.supply - 1)


def _owner(s: State, poison_bit: int) -> int:
    return next(i for i in range(s.players) if s.poison_masks[i] & poison_bit)


def uncover(s: State, rng: random.Random) -> State | None:
    """A potion's cover is lifted: a potion then waits beside an uncovered poison (K16)."""
    laid = [k for k, on in enumerate(s.potion_on_masks) if on
            and not (s.phase is Phase.COVER and _owner(s, on) == s.actor)]
    if not laid:
        return None
    return unchecked_replace(s, potion_on_masks=_put(s.potion_on_masks, rng.choice(laid), 0))


def potion_to_another_seat(s: State, rng: random.Random) -> State | None:
    """A laid potion moves onto another seat's poison card (POTION-6: it stays where it was
    laid, on its own seat's poison)."""
    moves = [(k, bit) for k, on in enumerate(s.potion_on_masks) if on
             for i in range(s.players) if not s.poison_masks[i] & on
             for bit in (1 << b for b in _bits(s.poison_masks[i]))]
    if not moves:
        return None
    k, bit = rng.choice(moves)
    return unchecked_replace(s, potion_on_masks=_put(s.potion_on_masks, k, bit))


def second_potion_on_a_poison(s: State, rng: random.Random) -> State | None:
    """The other potion is laid on a poison card a potion covers already (POTION-6)."""
    laid = [k for k, on in enumerate(s.potion_on_masks) if on]
    if not laid:
        return None
    k = rng.choice(laid)
    return unchecked_replace(s, potion_on_masks=_put(s.potion_on_masks, 1 - k,
                                                     s.potion_on_masks[k]))


def actor_at_end(s: State, rng: random.Random) -> State | None:
    """Someone is to act after the game is over."""
    if s.phase is not Phase.OVER:
        return None
    return unchecked_replace(s, actor=rng.randrange(s.players))


def next_trick_number(s: State, rng: random.Random) -> State | None:
    """The trick number moves on without a trick being played (TRICK-1)."""
    if s.phase not in IN_PLAY or s.trick_number >= s.tables.hand_size:
        return None
    return unchecked_replace(s, trick_number=s.trick_number + 1)


def lopsided_deal(s: State, rng: random.Random) -> State | None:
    """Two cards more go to a seat that already holds the most (DEAL-2)."""
    if s.phase is not Phase.DEAL or s.pool_mask.bit_count() < 2:
        return None
    sizes = [h.bit_count() for h in s.hand_masks]
    seat = sizes.index(max(sizes))
    a, b = rng.sample(_bits(s.pool_mask), 2)
    bits = 1 << a | 1 << b
    return unchecked_replace(s, hand_masks=_put(s.hand_masks, seat, s.hand_masks[seat] | bits),
                        pool_mask=s.pool_mask & ~bits)


MUTATIONS: tuple[Mutation, ...] = (
    hand_to_deck, hand_to_hand, mark_withdrawn, mark_in, unshock, face_down_for_in,
    other_leader, winner_in_trick_one, no_last_winner, discard_to_deck, chest_in_trick_one,
    supply_off, revealed_in_play, void_in_trick_one, flip_trick_card, bag_in_round_one,
    gems_before_a_win, uncover, potion_to_another_seat, second_potion_on_a_poison,
    actor_at_end, next_trick_number, lopsided_deal,
)


def _states(count: int, seed: int) -> list[State]:
    """States of seeded random games over every player count and variant."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        cfg = sr.GameConfig(players=3 + i % 3, variant=list(sr.Variant)[i // 3 % 2],
                            first_leader=None if i % 4 else 0)
        s = sr.new_game(cfg)
        for _ in range(rng.randrange(0, 700)):
            if sr.is_terminal(s):
                break
            s = random_step(s, rng, rng.choice((3, 10, 40)))
        out.append(s)
    return out


@pytest.mark.rule("TRICK-1")
def test_every_state_of_random_games_passes() -> None:
    rng = random.Random(11)
    for i in range(36):
        cfg = sr.GameConfig(players=3 + i % 3, variant=list(sr.Variant)[i // 3 % 2],
                            first_leader=None if i % 2 else i % 3)
        s = sr.new_game(cfg)
        while True:
            sr.check_state(s)
            if sr.is_terminal(s):
                break
            s = random_step(s, rng, rng.choice((2, 6, 30)))


def test_each_mutation_breaks_a_reachable_state() -> None:
    applied = dict.fromkeys((m.__name__ for m in MUTATIONS), 0)
    rng = random.Random(12)
    for s in _states(400, 13):
        sr.check_state(s)
        for mutation in MUTATIONS:
            bad = mutation(s, rng)
            if bad is None:
                continue
            applied[mutation.__name__] += 1
            with pytest.raises(sr.InvalidStateError):
                sr.check_state(bad)
    assert all(applied.values()), applied  # every mutation found states to break


@pytest.mark.parametrize("variant", list(sr.Variant))
@given(data=st.data())
def test_mutated_states_fail(variant: sr.Variant, data: st.DataObject) -> None:
    s = data.draw(positions(variant), label="state")
    sr.check_state(s)
    usable = [m for m in MUTATIONS if m(s, random.Random(0)) is not None]
    mutation = data.draw(st.sampled_from(usable), label="mutation")
    bad = mutation(s, random.Random(data.draw(st.integers(0, 2**16), label="seed")))
    assert bad is not None
    with pytest.raises(sr.InvalidStateError):
        sr.check_state(bad)


def test_the_issue_examples_are_refused() -> None:
    # Seven-card hands at trick 1 of a four-player game; a trick-1 state with a last winner.
    s = sr.new_game(sr.GameConfig(players=4, first_leader=0))
    s = sr.resolve_chance(s, random.Random(3))
    assert s.phase is Phase.PLAY and s.trick_number == 1
    pool = s.pool_mask
    short = s
    for seat in range(4):
        two = _bits(short.hand_masks[seat])[:2]
        for i in two:
            short = unchecked_replace(short, hand_masks=_put(short.hand_masks, seat,
                                                        short.hand_masks[seat] ^ 1 << i))
            pool |= 1 << i
    short = unchecked_replace(short, pool_mask=pool)
    with pytest.raises(sr.InvalidStateError, match="holds 7 cards in trick 1, not 9"):
        sr.check_state(short)
    with pytest.raises(sr.InvalidStateError, match="no trick was won"):
        sr.check_state(unchecked_replace(s, last_winner=2))
    with pytest.raises(sr.InvalidStateError, match="expected a State"):
        sr.check_state(None)


def _int_fields(cls: type) -> set[str]:
    return {f.name for f in attrs.fields(cls) if f.type in ("int", int)}


def test_every_integer_field_is_type_checked_as_an_object() -> None:
    # The compiled build reads a field declared int unboxed (True as 1): the checks read these
    # fields as plain objects, and must cover every int field of the classes.
    from shock_rules._info import determinize as det
    from shock_rules._info.view import SeatView, TrickCard
    from shock_rules._rules import check
    s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(1))
    assert set(check._STATE_INTS) == {name for name in FIELDS if type(getattr(s, name)) is int}
    assert set(det._VIEW_INTS) == _int_fields(sr.PlayerView)
    assert set(det._SEAT_INTS) == _int_fields(SeatView)
    assert set(det._TRICK_INTS) == _int_fields(TrickCard)


@pytest.mark.parametrize("bad", [True, False, 1.0, "1", None])
def test_a_bool_or_other_non_integer_in_an_integer_field_is_refused(bad: Any) -> None:
    # The same in both builds: a bool is not an integer here, though True == 1.
    s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(1))
    assert s.round == 1 and s.trick_number == 1 and s.phase is Phase.PLAY
    for name in ("round", "trick_number", "revealed", "step"):
        try:
            forged = unchecked_replace(s, **{name: bad})
        except TypeError:
            continue  # the compiled build's typed fields take no such value at all
        if sr.COMPILED and type(bad) is bool:
            continue  # and a typed int field stores a bool as the integer it equals
        with pytest.raises(sr.InvalidStateError, match="must be integers"):
            sr.check_state(forged)
    play = s.trick + (sr.Play(s.actor, sr.Card.parse("7H"), True, 0),)
    for field in ("seat", "gems"):
        trick = (attrs.evolve(play[-1], **{field: bad}),)
        with pytest.raises(sr.InvalidStateError, match="the trick must be a tuple of plays"):
            sr.check_state(unchecked_replace(s, trick=trick))
    v = sr.view(s, s.actor)
    for name in ("round", "trick_number", "step"):
        with pytest.raises(sr.InvalidStateError, match=f"its {name} must be an integer"):
            sr.determinize(attrs.evolve(v, **{name: bad}), random.Random(2))
    seats = (attrs.evolve(v.seats[0], hand_size=bad), *v.seats[1:])
    with pytest.raises(sr.InvalidStateError, match="its hand_size must be an integer"):
        sr.determinize(attrs.evolve(v, seats=seats), random.Random(2))


def test_a_negative_step_is_refused() -> None:
    s = sr.new_game(sr.GameConfig(players=3))
    with pytest.raises(sr.InvalidStateError, match="step -1 is below 0"):
        sr.check_state(unchecked_replace(s, step=-1))


def _forged_placement(s: State, on: tuple[int, ...], message: str) -> None:
    with pytest.raises(sr.InvalidStateError, match=message):
        sr.check_state(unchecked_replace(s, potion_on_masks=on))


@pytest.mark.rule("POTION-6")
def test_a_forged_potion_placement_is_refused_saying_why() -> None:
    from rules._helpers import SUITS_4, mask, run, start
    # Seat 3 takes 7H with 7C (laid on it); seat 0 wins 7S (uncovered) while seat 3 withdraws.
    s = run(start(SUITS_4, "10C"), "play 7H; play 8S; play 8D; play 7C; chest G3/0; stop")
    assert s.potion_on_masks == (0, mask("7H"))
    _forged_placement(s, (0, mask("2H")), "the potion 7C lies on 2H, which is not a poison")
    _forged_placement(s, (0, mask("7H 7S")), "the potion 7C lies on several cards")
    _forged_placement(s, (0, -mask("7H")), "the potion 7C lies on several cards")
    _forged_placement(s, (0, 1 << 50), "the potion 7C lies on no card, which is not a poison")
    _forged_placement(s, (mask("7H"), mask("7H")), "two potions lie on the poison card 7H")
    _forged_placement(s, (mask("7H"), 0),
                      "the potion 5C lies on 7H, but no seat has 5C in front of it")
    _forged_placement(s, (0, 0), "seat 3 keeps a potion beside an uncovered poison card")
    _forged_placement(s, (0,), r"potion_on_masks must hold an integer per potion card \(2\)")
    _forged_placement(s, (0, True), "potion_on_masks must hold an integer per potion card")
    s = run(s, "withdraw 9C; play 6H; play 7S; play 6D; chest G3/0; stop")
    assert s.poison_masks[0] == mask("7S") and s.potion_on_masks == (0, mask("7H"))
    _forged_placement(s, (0, mask("7S")), "seat 3's potion 7C lies on 7S, which is not a"
                                          " poison card in front of seat 3")


@pytest.mark.rule("POTION-6")
def test_a_placement_that_one_trick_cannot_lay_needs_two_won_tricks() -> None:
    from rules._helpers import mask, run, start
    # Seat 3 wins 7H, 5C and 7C in one trick: 5C, first in card order, is laid on 7H.
    hands = ("1H 2H 3H 4H 5H 6H 7H 8H 9H", "1S 2S 3S 4S 5S 6S 7S 8S 9S",
             "1D 2D 3D 4D 5D 6D 7D 8D 5C", "1C 2C 3C 4C 9D 6C 7C 8C 9C")
    s = run(start(hands, "10C"), "play 7H; play 1S; play 5C; play 7C")
    assert s.potion_on_masks == (mask("7H"), 0) and s.stored_potions(3) == 1
    # 7C on 7H with 5C stored is reachable only over two won tricks (POTION-6).
    _forged_placement(s, (0, mask("7H")), "need 2 won tricks, more than the 1 won")
