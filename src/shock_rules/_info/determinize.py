"""Determinization: a full state that a seat cannot tell from the real one.

Search bots (information-set Monte Carlo tree search, perfect-information sampling) play on
complete states. :func:`determinize` turns a :class:`~shock_rules.PlayerView` into one: the
public facts and the viewer's own cards are copied, and every card the viewer cannot see is
placed in one of the hidden places -- another seat's hand, another seat's face-down cards (in
the trick or the discard pile) or the dungeon deck -- so that every constraint the view implies
holds: hand sizes, face-down counts, the deck size, and the suits a seat showed it lacks (K9).

A seat's void suits exclude its face-down cards too: a seat plays face down only once it is
out of the round (K11, K12), after every face-up play that showed a void, and no card is dealt
during a round, so those cards were in its hand when it showed the void.

>>> import random
>>> import shock_rules as sr
>>> s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(1))
>>> v = sr.view(s, 0)
>>> d = sr.determinize(v, random.Random(2))
>>> d.hand(0) == s.hand(0), sr.view(d, 0) == v
(True, True)
"""

from __future__ import annotations

import random
import weakref
from bisect import bisect
from itertools import combinations
from typing import Final

import attrs

from .._errors import InvalidArgumentError, InvalidStateError, quoted
from .._rules import events as _events
from .._rules.bits import iter_bits
from .._rules.cards import CARDS, Card, mask_of
from .._rules.check import load_state, raw_field
from .._rules.draft import from_fields
from .._rules.edition import ChestCard
from .._rules.events import CardDealt, CardPlayed, Event, RoundEndReason
from .._rules.state import POTION_BITS, Play, State
from .._rules.tables import Tables, tables_for
from .view import HiddenCardDealt, HiddenCardPlayed, PlayerView, SeatView, _view

__all__ = ["determinize"]

# Every non-empty set of suits, as a bitmask, for the Hall check below.
_SUIT_SETS = tuple(
    sum(1 << s for s in combo) for k in range(1, 5) for combo in combinations(range(4), k)
)


# Each suit set with the suits in it.
_SETS_SUITS = tuple((sset, tuple(s for s in range(4) if sset >> s & 1)) for sset in _SUIT_SETS)


def _feasible(left: list[int], cap: list[int], allowed: list[int]) -> bool:
    """Return whether the cards left (counted per suit) can fill the groups exactly.

    Supplies and demands balance, so by Hall's theorem for transportation problems this holds
    iff every set of suits fits in the groups that accept one of its suits.
    """
    # Groups that accept the same suits count as one (usually two or three remain).
    by_mask: dict[int, int] = {}
    for c, a in zip(cap, allowed, strict=True):
        if c:
            by_mask[a] = by_mask.get(a, 0) + c
    groups = tuple(by_mask.items())
    for sset, suits in _SETS_SUITS:
        need = 0
        for s in suits:
            need += left[s]
        if need:
            have = 0
            for a, c in groups:
                if a & sset:
                    have += c
            if need > have:
                return False
    return True


def _tight_suits(left: list[int], cap: list[int], allowed: list[int]) -> int:
    """Return the suits of the sets of suits that exactly fill the groups accepting them.

    With the counts ``left`` and ``cap`` feasible but for one card just taken out of ``left``
    (one more place than cards), putting that card in group ``g`` keeps them feasible iff
    ``allowed[g]`` meets none of these suits: only the sets that group ``g`` serves lose a
    place, and a set can spare one iff it has a free place now (Hall's condition, as in
    :func:`_feasible`). One pass over the sets then decides every group, where testing
    each group with :func:`_feasible` took a pass per group.
    """
    by_mask: dict[int, int] = {}
    for c, a in zip(cap, allowed, strict=True):
        if c:
            by_mask[a] = by_mask.get(a, 0) + c
    groups = tuple(by_mask.items())
    tight = 0
    for sset, suits in _SETS_SUITS:
        need = 0
        for s in suits:
            need += left[s]
        have = 0
        for a, c in groups:
            if a & sset:
                have += c
        if need == have:
            tight |= sset
    return tight


def _assign(
    cards: list[int], cap: list[int], allowed: list[int], rng: random.Random
) -> list[int]:
    """Return a group for each card (by index), filling each group exactly to its capacity.

    Cards are placed in random order; each goes to a group chosen with weight equal to the
    group's free places, among the groups that accept its suit and leave the rest solvable.
    Without constraints this is exactly a uniform deal; with them every consistent placement
    keeps a positive probability.
    """
    left = [0, 0, 0, 0]
    for i in cards:
        left[CARDS[i].suit] += 1
    if sum(cap) != len(cards) or not _feasible(left, cap, allowed):
        raise InvalidStateError("invalid view: the view is inconsistent: its hidden cards"
                                " cannot be placed")
    order = list(cards)
    rng.shuffle(order)
    # Without void suits every placement is feasible: skip the Hall check.
    constrained = any(a != 0b1111 for c, a in zip(cap, allowed, strict=True) if c)
    out = [0] * len(CARDS)
    for i in order:
        s = CARDS[i].suit
        left[s] -= 1
        # The counts stay feasible after each placement, so _tight_suits applies.
        tight = _tight_suits(left, cap, allowed) if constrained else 0
        options: list[int] = []
        cum: list[int] = []  # the cumulative free places of the options
        free = 0
        for g, c in enumerate(cap):
            a = allowed[g]
            if c and a >> s & 1 and not a & tight:
                options.append(g)
                free += c
                cum.append(free)
        # rng.choices(options, weights=free places)[0] with the cumulative weights at hand:
        # the same draw from rng, without the library's list building (a tenth of _assign).
        g = options[bisect(cum, rng.random() * (free + 0.0), 0, len(cum) - 1)]
        cap[g] -= 1
        out[i] = g
    return out


def _pick(mask: int, rng: random.Random) -> int:
    return rng.choice(list(iter_bits(mask)))


def determinize(view: PlayerView, rng: random.Random) -> State:
    """Return a complete state consistent with ``view``, drawing the hidden cards with ``rng``.

    The state has the view's public facts, the viewer's hand and face-down cards, and the
    unseen cards spread over the other hands, the other seats' face-down cards and the
    dungeon deck, respecting hand sizes and void suits; ``view(result, seat) == view``. For a
    spectator view (``seat`` ``None``) every hand and face-down card is drawn. The result
    always passes :func:`~shock_rules.check_state`, and the view it shows the seat is checked
    to be ``view``, field by field. Raise :class:`~shock_rules.InvalidStateError` (a
    ``ValueError``) if no state fits the view (a forged or corrupt view, events included: each
    must be an event whose fields hold their declared types and name seats of the game),
    :class:`~shock_rules.InvalidArgumentError` if ``rng`` is not a ``random.Random``, and
    ``TypeError`` if ``view`` is not a :class:`~shock_rules.PlayerView`. The view's parts are
    taken for what they claim to be (its seats :class:`~shock_rules.SeatView` objects, its
    cards :class:`~shock_rules.Card` objects): a view made by hand with objects of another
    kind there fails as Python fails on them, as views from :func:`~shock_rules.view` and
    :func:`~shock_rules.view_from_json` never do.
    """
    if type(view) is not PlayerView:
        raise TypeError(f"expected a PlayerView, not {type(view).__name__}")
    if not isinstance(rng, random.Random):
        raise InvalidArgumentError(f"invalid rng: expected a random.Random, not {quoted(rng)}")
    state = _determinize(view, rng, True)
    key = id(view)
    known = _SHOWN.get(key)
    if known is not None and known() is view:
        return state
    # The draw places the hidden cards and checks the state, but a forged view can still
    # claim what no state shows (a count that disagrees with the viewer's own cards, no legal
    # actions on its turn): the state must show the view back, field by field. Whether it
    # does depends on the view only (every draw respects the same constraints).
    shown = _view(state, view.seat)
    for field in attrs.fields(PlayerView):
        if getattr(shown, field.name) != getattr(view, field.name):
            raise InvalidStateError(
                f"invalid view: no state shows it: its field {field.name!r} does not fit the"
                f" rest of the view (hidden cards, counts or order)")
    if len(_SHOWN) >= 1024:
        _SHOWN.clear()
    _SHOWN[key] = weakref.ref(view)
    return state


# The views whose draw showed them back, by identity (held weakly, so an id is not reused
# while its entry can match): a loop that draws many states for one view checks it once,
# where the check costs about as much as the draw.
_SHOWN: dict[int, weakref.ref[PlayerView]] = {}


def redeterminize(view: PlayerView, rng: random.Random) -> State:
    """Return another determinization of ``view``, which :func:`determinize` has already
    accepted (internal, for search bots that draw many per decision).

    The draw is the same as ``determinize``'s; only the final ``check_state`` is left out
    (a sixth of a determinization's time). The argument checks and the state check of the
    first draw covered the view; a later draw differs from it only in where the hidden cards
    go, and ``_assign`` places them consistently (tests check that determinizations pass
    ``check_state``).
    """
    return _determinize(view, rng, False)


# The fields of a view, of its seats and of its trick cards that hold one integer each (tuples
# of any length, so that the compiled build keeps one tuple object each: see
# engine._PHASE_KINDS).
_VIEW_INTS: Final[tuple[str, ...]] = (
    "round", "trick_number", "actor", "leader", "round_leader", "last_winner", "deck_size",
    "supply", "revealed", "step",
)
_SEAT_INTS: Final[tuple[str, ...]] = ("seat", "hand_size", "face_down_count", "on_bag", "in_bag")
_TRICK_INTS: Final[tuple[str, ...]] = ("seat", "gems")


def check_view_ints(view: PlayerView) -> None:
    """Raise :class:`InvalidStateError` unless the view's integer fields hold integers (a
    bool is not one: the pure build's state check refuses it, and the compiled build would
    read ``True`` as 1, see ``raw_field``); the bots call it too. Its seats and trick are
    taken for what a view holds (a tuple of :class:`SeatView` and of :class:`TrickCard`): a
    view made by hand with anything else there fails as Python fails on it."""
    checks: list[tuple[object, tuple[str, ...]]] = [(view, _VIEW_INTS)]
    checks += [(s, _SEAT_INTS) for s in view.seats]
    checks += [(p, _TRICK_INTS) for p in view.trick]
    if view.seat is not None:
        checks.append((view, ("seat",)))
    for obj, names in checks:
        for name in names:
            value = raw_field(obj, name)
            if type(value) is not int:
                raise InvalidStateError(
                    f"invalid view: its {name} must be an integer, not {quoted(value)}")


def _event_fields() -> dict[type[Event], tuple[tuple[str, str], ...]]:
    """Return the fields of every event class, by class, with their declared types."""
    found: dict[type[Event], tuple[tuple[str, str], ...]] = {}
    for name in _events.__all__:
        cls = getattr(_events, name)
        if isinstance(cls, type) and attrs.has(cls) and issubclass(cls, Event):
            found[cls] = tuple((f.name, str(f.type)) for f in attrs.fields(cls))
    return found


#: The fields of each event class, with their declared types (as written in events.py).
_EVENT_FIELDS: Final = _event_fields()
# What a field of each declared type must hold exactly (a bool is no integer here either).
_EVENT_KINDS: Final[dict[str, type]] = {
    "int": int, "bool": bool, "str": str, "Card": Card, "ChestCard": ChestCard,
    "RoundEndReason": RoundEndReason,
}


def _check_events(view: PlayerView) -> None:
    """Raise :class:`InvalidStateError` unless every event of the view is an event whose
    fields hold their declared types and name seats of the game, as a loaded view's must.

    The events go into the drawn state as they are (the two hidden kinds get a card), so a
    view made by hand must not slip a value into them that no step makes; the compiled build
    would also turn ``True`` into 1 where a seat is an integer.
    """
    n = view.config.players
    for i, e in enumerate(view.events):
        fields = _EVENT_FIELDS.get(type(e))
        if fields is None:
            raise InvalidStateError(
                f"invalid view: its events[{i}] is not an event but {quoted(e, 60)}")
        for name, declared in fields:
            value = getattr(e, name)
            kind = _EVENT_KINDS.get(declared)
            if kind is not None:
                ok = type(value) is kind
            else:  # GameEnded's scores (a tuple) and winners (a frozenset) of integers
                ok = type(value) is (tuple if declared.startswith("tuple") else frozenset) \
                    and all(type(v) is int for v in value)
            if not ok:
                raise InvalidStateError(
                    f"invalid view: its events[{i}].{name} must be of type {declared}, not"
                    f" {quoted(value, 60)}")
            # The same seat rule as the JSON loader's (-1 is a leader not known yet).
            if name in ("seat", "leader") and not -1 <= value < n:
                raise InvalidStateError(
                    f"invalid view: its events[{i}].{name}: there is no seat {value} with"
                    f" {n} players")
            if name == "winners" and not all(0 <= w < n for w in value):
                raise InvalidStateError(
                    f"invalid view: its events[{i}].winners: expected seats 0-{n - 1}")


def _check_seats(view: PlayerView) -> None:
    """Raise :class:`InvalidStateError` unless the seat numbers the draw goes by are the
    game's: the viewer's (or ``None``), the seats' (0 to n-1, in order), and those of the
    trick's cards, each seat once, a hidden card only another seat's with a face-down card
    (the view's other numbers are checked by the state drawn and shown back)."""
    n = view.config.players
    if view.seat is not None and not 0 <= view.seat < n:
        raise InvalidStateError(f"invalid view: there is no seat {view.seat} with {n} players")
    if [s.seat for s in view.seats] != list(range(n)):
        raise InvalidStateError(f"invalid view: expected seats 0-{n - 1} in order")
    played: set[int] = set()
    for i, p in enumerate(view.trick):
        if not 0 <= p.seat < n or p.seat in played:
            raise InvalidStateError(f"invalid view: its trick[{i}] is of seat {p.seat}: expected"
                                    f" a seat 0-{n - 1} that has not played to the trick")
        played.add(p.seat)
        if p.card is None and (p.seat == view.seat or view.seats[p.seat].face_down_count < 1):
            raise InvalidStateError(f"invalid view: its trick[{i}] hides the card of seat"
                                    f" {p.seat}, which has no face-down card the viewer cannot"
                                    " see")


def _determinize(view: PlayerView, rng: random.Random, check: bool) -> State:
    """Draw the hidden cards of ``view`` and return the state (checked when ``check``)."""
    if check:
        check_view_ints(view)
        _check_seats(view)
        _check_events(view)
        _check_covers(view)
    cfg = view.config
    t = tables_for(cfg)
    n = cfg.players
    me = view.seat
    hands = [0] * n
    face_down = [0] * n
    if me is not None:
        hands[me] = mask_of(view.hand)
        face_down[me] = mask_of(view.own_face_down)
    held = _draw_groups(view, t.deck & ~view.seen_mask, rng)
    trick_card = _split_seats(view, held, hands, face_down, rng)
    trick: list[Play] = []
    trick_mask = 0
    for p in view.trick:
        card = p.card if p.card is not None else CARDS[trick_card[p.seat]]
        trick.append(Play(p.seat, card, p.face_up, p.gems))
        trick_mask |= card.bit
    all_down = 0
    for m in face_down:
        all_down |= m
    pool = held[n]
    seats = view.seats
    fields: dict[str, object] = dict(
        config=cfg, tables=t, phase=view.phase, round=view.round,
        trick_number=view.trick_number, leader=view.leader, actor=view.actor,
        trick=tuple(trick), hand_masks=tuple(hands), pool_mask=pool,
        trump_index=view.trump.index if view.trump is not None else -1,
        discard_mask=mask_of(view.discard) | (all_down & ~trick_mask),
        face_down_masks=tuple(face_down),
        status=tuple(s.status for s in seats), on_bag=tuple(s.on_bag for s in seats),
        in_bag=tuple(s.in_bag for s in seats), supply=view.supply,
        poison_masks=tuple(mask_of(pc.card for pc in s.poisons) for s in seats),
        potion_masks=tuple(mask_of(s.potions) for s in seats),
        potion_on_masks=_potion_on(seats),
        void_suits=tuple(s.void_mask for s in seats),
        chest_deck=_chest_counts(t, view.chest_deck),
        chest_discard=_chest_counts(t, view.chest_discard),
        chest_centre=_chest_counts(t, view.chest_centre), revealed=view.revealed,
        last_winner=view.last_winner, round_leader=view.round_leader,
        events=_drawn_events(view, hands, face_down, pool, trick_card, t.deck, rng),
        step=view.step,
    )
    return load_state(**fields) if check else from_fields(fields)


def _potion_on(seats: tuple[SeatView, ...]) -> tuple[int, ...]:
    """Return the state's ``potion_on_masks``: the poison card each potion lies on, as the
    seats' poisons say (``covered_by``, POTION-6)."""
    on = [0] * len(POTION_BITS)
    for s in seats:
        for pc in s.poisons:
            if pc.covered_by is not None:
                on[POTION_BITS.index(pc.covered_by.bit)] = pc.card.bit
    return tuple(on)


def _check_covers(view: PlayerView) -> None:
    """Raise :class:`InvalidStateError` unless each poison of the view is covered exactly when
    a potion lies on it, that potion is one of its seat's, and lies on that poison only
    (POTION-6; the state drawn is checked for the rest)."""
    for s in view.seats:
        for i, pc in enumerate(s.poisons):
            where = f"its seats[{s.seat}].poisons[{i}]"
            by = pc.covered_by
            if pc.covered and by is None:
                raise InvalidStateError(f"invalid view: {where} is covered, but covered_by names"
                                        " no potion")
            if by is not None and not pc.covered:
                raise InvalidStateError(f"invalid view: {where}.covered_by is {by}, but the"
                                        " poison is not covered")
            if by is not None and by.bit not in POTION_BITS:
                raise InvalidStateError(f"invalid view: {where}.covered_by: {by} is not a potion"
                                        " card")
            if by is not None and by not in s.potions:
                raise InvalidStateError(f"invalid view: {where}.covered_by: {by} is not a potion"
                                        f" in front of seat {s.seat}")
            if by is not None and sum(p.covered_by == by for p in s.poisons) > 1:
                raise InvalidStateError(f"invalid view: {where}.covered_by: {by} lies on"
                                        " another poison card too")


def _draw_groups(view: PlayerView, unseen: int, rng: random.Random) -> list[int]:
    """Spread the unseen cards over groups 0..n-1, what each other seat holds or played face
    down, and group n, the dungeon deck, respecting sizes and shown voids (K9); return each
    group's mask."""
    n = view.config.players
    cap = [0] * (n + 1)
    allowed = [0] * (n + 1)
    for sv in view.seats:
        if sv.seat == view.seat:
            continue
        cap[sv.seat] = sv.hand_size + sv.face_down_count
        allowed[sv.seat] = 0b1111 & ~sv.void_mask
    cap[n] = view.deck_size
    allowed[n] = 0b1111
    group_of = _assign(list(iter_bits(unseen)), cap, allowed, rng)
    held = [0] * (n + 1)
    for i in iter_bits(unseen):
        held[group_of[i]] |= 1 << i
    return held


def _split_seats(view: PlayerView, held: list[int], hands: list[int], face_down: list[int],
                 rng: random.Random) -> dict[int, int]:
    """Split each other seat's drawn cards at random into its face-down cards (the first one
    its card in the trick, when that is hidden) and its hand, filling ``hands`` and
    ``face_down``; return the hidden trick cards by seat."""
    hidden_in_trick = {p.seat for p in view.trick if p.card is None}
    trick_card: dict[int, int] = {}
    for sv in view.seats:
        j = sv.seat
        if j == view.seat:
            continue
        cards = list(iter_bits(held[j]))
        rng.shuffle(cards)
        k = sv.face_down_count
        down = cards[:k]
        if j in hidden_in_trick:
            trick_card[j] = down[0]
        face_down[j] = sum(1 << i for i in down)
        hands[j] = sum(1 << i for i in cards[k:])
    return trick_card


def _chest_counts(t: Tables, cards: tuple[ChestCard, ...]) -> tuple[int, ...]:
    """Return how many of each kind of chest card ``cards`` holds; raise
    :class:`InvalidStateError` for a card the game's edition lacks."""
    out = [0] * len(t.chest_cards)
    for c in cards:
        i = t.chest_index.get(c)
        if i is None:
            raise InvalidStateError(f"invalid view: the chest card {c} is not in the game's"
                                    " edition")
        out[i] += 1
    return tuple(out)


def _drawn_events(view: PlayerView, hands: list[int], face_down: list[int], pool: int,
                  trick_card: dict[int, int], deck: int,
                  rng: random.Random) -> tuple[Event, ...]:
    """Return the view's events with a card for each hidden one, consistent with the drawn
    state (K34 hides which card it was)."""
    events: list[Event] = []
    for e in view.events:
        if type(e) is HiddenCardDealt:
            src = hands[e.seat] or pool or deck
            events.append(CardDealt(e.seat, CARDS[_pick(src, rng)]))
        elif type(e) is HiddenCardPlayed:
            if e.seat in trick_card:
                idx = trick_card[e.seat]
            else:
                idx = _pick(face_down[e.seat] or pool or deck, rng)
            events.append(CardPlayed(e.seat, CARDS[idx], False, e.gems))
        else:
            events.append(e)
    return tuple(events)
