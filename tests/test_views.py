"""Per-player views hold exactly the public facts plus the viewer's own secrets (K34).

The central property: two states that differ only in what a seat may not see (other hands, the
undealt cards, other seats' face-down cards) give that seat equal views, whether the states are
built by swapping hidden cards or reached by the same public step.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from shock_rules import (
    Action,
    ActionKind,
    Card,
    CardDealt,
    CardPlayed,
    GameConfig,
    HiddenCardDealt,
    HiddenCardPlayed,
    Phase,
    Play,
    PlayerView,
    State,
    Status,
    Suit,
    Variant,
    Withdrew,
    apply,
    apply_all,
    current_player,
    deal_hands,
    is_terminal,
    legal_actions,
    new_game,
    spectator_view,
    view,
)
from shock_rules._rules.check import check_state
from shock_rules._rules.state import unchecked_replace
from strategies import positions, random_step

# Every test here checks what a seat may and may not see (K34).
pytestmark = pytest.mark.rule("INFO-1")

VARIANTS = tuple(Variant)




def _viewers(s: State) -> list[int | None]:
    return [None, *range(s.config.players)]


def _view_of(s: State, seat: int | None) -> PlayerView:
    return spectator_view(s) if seat is None else view(s, seat)


def _bits(mask: int) -> list[int]:
    return [i for i in range(44) if mask >> i & 1]


# -- swapping hidden cards ----------------------------------------------------------------------


def _hidden_places(s: State, seat: int | None) -> dict[int, tuple[str, int]]:
    """Map each card the viewer may not see to its place (K34): another seat's hand, the
    undealt pool, or another seat's face-down card in the trick or the discard pile."""
    trick = {p.card.index for p in s.trick}
    out: dict[int, tuple[str, int]] = {}
    for j in range(s.config.players):
        if j == seat:
            continue
        for i in _bits(s.hand_masks[j]):
            out[i] = ("hand", j)
        for i in _bits(s.face_down_masks[j]):
            out[i] = ("trick" if i in trick else "discard", j)
    for i in _bits(s.pool_mask):
        out[i] = ("pool", -1)
    return out


def _swap_mask(mask: int, a: int, b: int) -> int:
    has_a, has_b = mask >> a & 1, mask >> b & 1
    return mask & ~(1 << a | 1 << b) | has_a << b | has_b << a


def _swap(s: State, a: int, b: int) -> State:
    """Return ``s`` with cards ``a`` and ``b`` exchanged everywhere they lie."""
    def card(c: Card) -> Card:
        return Card.from_index(b if c.index == a else a if c.index == b else c.index)

    return unchecked_replace(s,
        hand_masks=tuple(_swap_mask(m, a, b) for m in s.hand_masks),
        pool_mask=_swap_mask(s.pool_mask, a, b),
        discard_mask=_swap_mask(s.discard_mask, a, b),
        face_down_masks=tuple(_swap_mask(m, a, b) for m in s.face_down_masks),
        trick=tuple(Play(p.seat, card(p.card), p.face_up, p.gems) for p in s.trick),
    )


def _respects_voids(s: State) -> bool:
    """Whether no seat holds a card of a suit it showed it lacks (K9); a swap that breaks this
    makes a state no game can reach."""
    return not any(
        s.void_suits[j] >> suit & 1
        and (s.hand_masks[j] | s.face_down_masks[j]) & (0x7FF << (11 * suit))
        for j in range(s.config.players) for suit in range(4)
    )


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_swapping_hidden_cards_leaves_the_view_unchanged(variant: Variant,
                                                         data: st.DataObject) -> None:
    # K34: other hands, the undealt cards and others' face-down cards are hidden.
    s = data.draw(positions(variant), label="state")
    seat = data.draw(st.sampled_from(_viewers(s)), label="viewer")
    places = _hidden_places(s, seat)
    assume(len(set(places.values())) >= 2)
    cards = sorted(places)
    swapped = s
    for _ in range(data.draw(st.integers(1, 4), label="swaps")):
        a = data.draw(st.sampled_from(cards), label="a")
        b = data.draw(st.sampled_from([c for c in cards if places[c] != places[a]]), label="b")
        swapped = _swap(swapped, a, b)
        places[a], places[b] = places[b], places[a]
    assume(_respects_voids(swapped))
    check_state(swapped)
    before, after = _view_of(s, seat), _view_of(swapped, seat)
    assert before == after
    assert hash(before) == hash(after)


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_swapping_a_face_down_card_of_the_trick_leaves_the_view_unchanged(
        variant: Variant, data: st.DataObject) -> None:
    # K10, K34: a face-down card in the current trick shows only its gems.
    s = data.draw(positions(variant), label="state")
    rng = random.Random(data.draw(st.integers(0, 1000), label="advance seed"))
    for _ in range(80):  # move on to a trick holding a face-down card
        if any(not p.face_up for p in s.trick) or is_terminal(s):
            break
        s = random_step(s, rng, 3)
    downs = [p for p in s.trick if not p.face_up]
    assume(downs)
    down = data.draw(st.sampled_from(downs), label="face-down play")
    seat = data.draw(st.sampled_from([v for v in _viewers(s) if v != down.seat]), label="viewer")
    places = _hidden_places(s, seat)
    other = data.draw(st.sampled_from([c for c in places if c != down.card.index]),
                      label="other hidden card")
    swapped = _swap(s, down.card.index, other)
    assume(_respects_voids(swapped))
    check_state(swapped)
    assert swapped != s
    assert _view_of(swapped, seat) == _view_of(s, seat)
    assert view(swapped, down.seat) != view(s, down.seat)  # its player knows the card


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_a_swap_with_the_viewers_own_cards_changes_its_view(variant: Variant,
                                                            data: st.DataObject) -> None:
    # The converse: a view is not blind. Exchanging one of the viewer's cards (its hand or
    # its face-down cards) with a hidden card changes what it sees.
    s = data.draw(positions(variant), label="state")
    seat = data.draw(st.integers(0, s.config.players - 1), label="viewer")
    own = _bits(s.hand_masks[seat] | s.face_down_masks[seat])
    hidden = sorted(_hidden_places(s, seat))
    assume(own and hidden)
    a = data.draw(st.sampled_from(own), label="own card")
    b = data.draw(st.sampled_from(hidden), label="hidden card")
    assert view(_swap(s, a, b), seat) != view(s, seat)


# -- the same public step -----------------------------------------------------------------------


def _hidden_alternatives(s: State) -> tuple[int, list[Action]]:
    """Return the acting seat and its actions that differ only in a card nobody else sees:
    the card dealt to it, its withdrawal card, or its face-down card."""
    if s.phase is Phase.DEAL:
        return s.actor, list(legal_actions(s))
    if s.phase is Phase.PLAY:
        kind = ActionKind.WITHDRAW if s.status[s.actor] is Status.IN else ActionKind.DOWN
        return s.actor, [a for a in legal_actions(s) if a.kind is kind]
    return -1, []


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_the_same_public_step_gives_equal_views(variant: Variant, data: st.DataObject) -> None:
    # K34 through events: a deal to another seat and another seat's face-down card reach the
    # other viewers only as HiddenCardDealt / HiddenCardPlayed.
    s = data.draw(positions(variant), label="state")
    rng = random.Random(data.draw(st.integers(0, 1000), label="advance seed"))
    for _ in range(60):  # move on to the next step with a hidden alternative
        actor, alts = _hidden_alternatives(s)
        if len(alts) >= 2 or is_terminal(s):
            break
        s = random_step(s, rng, 4)
    assume(len(alts) >= 2)
    x = data.draw(st.sampled_from(alts), label="x")
    y = data.draw(st.sampled_from([a for a in alts if a != x]), label="y")
    sx, sy = apply(s, x), apply(s, y)
    for seat in _viewers(s):
        if seat != actor:
            assert _view_of(sx, seat) == _view_of(sy, seat)
    assert view(sx, actor) != view(sy, actor)  # the actor itself knows its card


# -- nothing hidden anywhere in a view ----------------------------------------------------------


def _cards_in(obj: object) -> set[Card]:
    """Return every number card mentioned in a view (its config excepted)."""
    if isinstance(obj, Card):
        return {obj}
    if isinstance(obj, GameConfig):
        return set()
    if isinstance(obj, tuple):
        return set().union(*(_cards_in(x) for x in obj))
    cls: Any = type(obj)
    if attrs.has(cls):
        return set().union(*(_cards_in(getattr(obj, f.name)) for f in attrs.fields(cls)))
    return set()


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_no_hidden_card_appears_in_a_view(variant: Variant, data: st.DataObject) -> None:
    s = data.draw(positions(variant), label="state")
    for seat in _viewers(s):
        v = _view_of(s, seat)
        hidden = {Card.from_index(i) for i in _hidden_places(s, seat)}
        # The last step's events may name cards played face up in the trick that just ended
        # the round, which are back in the deck now; they were public, so skip the events here
        # and check them by type below.
        fields: dict[str, Any] = attrs.asdict(v, recurse=False)
        del fields["events"]
        assert not _cards_in(tuple(fields.values())) & hidden
        for e in v.events:
            assert not (isinstance(e, CardDealt) and e.seat != seat)
            assert not (isinstance(e, CardPlayed) and not e.face_up and e.seat != seat)


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_a_seat_sees_its_own_cards_and_a_spectator_none(variant: Variant,
                                                        data: st.DataObject) -> None:
    s = data.draw(positions(variant), label="state")
    for seat in range(s.config.players):
        v = view(s, seat)
        assert v.seat == seat
        assert v.hand == s.hand(seat)
        assert v.own_face_down == s.face_down(seat)
        mine = current_player(s) == seat
        assert v.legal_actions == (legal_actions(s) if mine else ())
        assert v.my_turn == mine
        for p, q in zip(v.trick, s.trick, strict=True):
            assert p.card == (q.card if q.face_up or q.seat == seat else None)
    sv = spectator_view(s)
    assert sv.seat is None
    assert sv.hand == () and sv.own_face_down == () and sv.legal_actions == ()
    assert [p.card for p in sv.trick] == [p.card if p.face_up else None for p in s.trick]
    assert not any(isinstance(e, CardDealt) for e in sv.events)


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_a_view_reports_the_public_facts(variant: Variant, data: st.DataObject) -> None:
    # K34: sizes, statuses, gems on and in bags, the cards in front of players, the decks'
    # sizes and the voids shown are public.
    s = data.draw(positions(variant), label="state")
    v = view(s, data.draw(st.integers(0, s.config.players - 1), label="viewer"))
    assert (v.round, v.trick_number, v.phase, v.trump) == (s.round, s.trick_number, s.phase,
                                                            s.trump)
    assert v.deck_size == s.deck_size and v.supply == s.supply
    assert v.chest_deck_size == s.chest_deck_size
    assert v.chest_centre == s.chest_centre_cards
    assert v.trick_gems == s.trick_gems
    assert (v.leader, v.lead_seat, v.lead_suit) == (s.leader, s.lead_seat, s.lead_suit)
    down = set().union(*(s.face_down(j) for j in range(s.config.players)))
    assert set(v.discard) == set(s.discard) - down
    for j, sv in enumerate(v.seats):
        assert sv.hand_size == s.hand_size(j)
        assert sv.status is s.status[j]
        assert (sv.on_bag, sv.in_bag) == (s.on_bag[j], s.in_bag[j])
        assert sv.face_down_count == len(s.face_down(j))
        assert sv.poisons == s.poisons(j) and sv.potions == s.potions(j)
        assert sv.void_mask == s.void_suits[j]


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_views_are_values(variant: Variant, data: st.DataObject) -> None:
    s = data.draw(positions(variant), label="state")
    copy = s.replace()
    for seat in _viewers(s):
        v = _view_of(s, seat)
        assert v == _view_of(copy, seat) and hash(v) == hash(_view_of(copy, seat))
        assert {v: seat}[_view_of(copy, seat)] == seat
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            v.round = 9  # type: ignore[misc]
    assert view(s, 0) != view(s, 1)


# -- a scripted trick, checked by hand ----------------------------------------------------------

HANDS = ["2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
         "2D 3D 4D 5D 6D 7D 8D 9D 10D"]


def _scripted() -> State:
    s = deal_hands(new_game(GameConfig(players=3, first_leader=0)), HANDS, trump="2C")
    return apply_all(s, "play 10H; withdraw 2S")


def test_a_withdrawal_card_is_hidden_from_the_others() -> None:
    s = _scripted()
    v2 = view(s, 2)
    # K10, K34: seat 1's face-down 2S shows only its 2 gems (3 players).
    assert [(p.seat, p.card, p.face_up, p.gems) for p in v2.trick] == [
        (0, Card.parse("10H"), True, 0), (1, None, False, 2)]
    assert v2.events == (Withdrew(1, 0), HiddenCardPlayed(1, 2))
    assert view(s, 1).events == (Withdrew(1, 0), CardPlayed(1, Card.parse("2S"), False, 2))
    assert view(s, 1).trick[1].card == Card.parse("2S")
    assert spectator_view(s).events == v2.events
    # Seat 2 holds no heart: it may play any of its 9 cards face up or withdraw with one.
    assert v2.to_move == 2 and v2.lead_suit is Suit.HEARTS
    assert len(v2.legal_actions) == 18
    assert view(s, 0).legal_actions == () and view(s, 0).to_move == 2
    assert v2.status(1) is Status.WITHDRAWN and v2.in_round() == (0, 2)
    assert [v2.hand_size(j) for j in range(3)] == [8, 8, 9]
    # 36 cards with 3 players, 27 dealt, 1 trump: 8 in the dungeon deck.
    assert v2.deck_size == 8


def test_after_the_trick_the_face_down_card_stays_hidden_in_the_discard_pile() -> None:
    s = apply_all(_scripted(), "play 2D")
    v0 = view(s, 0)
    # Seat 0 wins with 10H (no club was played): 10H and 2D go face up to the discard pile,
    # 2S face down; the gems are 0 (10H) + 2 (face down) + 1 (2D's icon, K33).
    assert v0.discard == (Card.parse("10H"), Card.parse("2D"))
    assert v0.seats[0].on_bag == 3
    assert v0.seats[1].face_down_count == 1
    assert v0.own_face_down == ()
    assert view(s, 1).own_face_down == (Card.parse("2S"),)
    assert Card.parse("2S") in v0.unseen
    assert Card.parse("2S") not in view(s, 1).unseen
    assert v0.phase is Phase.CHEST and v0.to_move is None and v0.is_chance


def test_a_card_dealt_to_another_seat_is_hidden() -> None:
    s = new_game(GameConfig(players=4, first_leader=0))
    s = apply(s, Action.parse("deal 5C"))  # the first card goes to seat 0
    assert view(s, 0).events == (CardDealt(0, Card.parse("5C")),)
    assert view(s, 1).events == (HiddenCardDealt(0),)
    assert spectator_view(s).events == (HiddenCardDealt(0),)
    assert view(s, 1).seats[0].hand_size == 1


def test_view_rejects_a_seat_that_does_not_exist() -> None:
    s = new_game(GameConfig(players=3))
    with pytest.raises(ValueError, match="invalid seat 3"):
        view(s, 3)


def test_describe_event_tells_hidden_events_without_their_secret() -> None:
    from shock_rules import describe_event

    assert describe_event(HiddenCardDealt(2)) == "seat 2 is dealt a card"
    assert describe_event(HiddenCardPlayed(1, 2)) == "seat 1 plays a card face down (2 gems on it)"
    assert HiddenCardDealt.__module__ == "shock_rules"
