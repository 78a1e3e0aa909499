"""The immutable game state and its readable accessors.

A :class:`State` is a frozen, hashable value. Hands and piles are stored as ``int`` bitmasks of
card indexes (see ``shock_rules._rules.cards``); the methods and properties below present them as
:class:`~shock_rules.Card` objects for front-ends. States are produced by
:func:`~shock_rules.new_game` and :func:`~shock_rules.apply`; build them by hand only in tests.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Final, Protocol

import attrs

from .._errors import InvalidArgumentError, InvalidStateError, check_seat, guards, quoted
from .cards import CARDS, Card, Suit, cards_of, count_of
from .config import GameConfig
from .edition import ChestCard
from .events import Event
from .tables import Tables

__all__ = ["CHANCE", "ChanceMarker", "Phase", "Play", "PoisonCard", "State", "Status"]


class Phase(enum.IntEnum):
    """What the game is waiting for."""

    #: Chance deals the next number card (K6).
    DEAL = 0
    #: Chance reveals the trump card.
    TRUMP = 1
    #: Chance chooses the first leader (K5).
    LEADER = 2
    #: A seat plays a card into the trick.
    PLAY = 3
    #: A trick winner chooses which poison card a potion covers (K16).
    COVER = 4
    #: Chance reveals a chest card (K19, K22).
    CHEST = 5
    #: The revealer decides whether to reveal another chest card (K22).
    CHEST_CHOICE = 6
    #: The game is over.
    OVER = 7


CHANCE_PHASES: Final = frozenset({Phase.DEAL, Phase.TRUMP, Phase.LEADER, Phase.CHEST})


class Status(enum.IntEnum):
    """A seat's standing in the current round."""

    IN = 0
    WITHDRAWN = 1
    SHOCKED = 2

    def __str__(self) -> str:
        return self.name.lower()


class ChanceMarker(enum.Enum):
    """The type of :data:`CHANCE`."""

    CHANCE = "chance"

    def __repr__(self) -> str:
        return "CHANCE"


#: What :func:`~shock_rules.current_player` returns at a chance decision.
CHANCE: Final = ChanceMarker.CHANCE


@attrs.frozen
class Play:
    """A card in the current trick: who played it, whether face up, and the gems on it."""

    seat: int
    card: Card
    face_up: bool
    gems: int


@attrs.frozen
class PoisonCard:
    """A poison number card in front of a seat, and whether a potion covers it."""

    card: Card
    poison: str
    covered: bool


def _eqfalse() -> object:
    return attrs.field(eq=False, repr=False)


# The state is a frozen attrs class whose fields live in its attribute dict, not in slots:
# the engine's hot path derives the next state by copying the previous one's dict and
# replacing a few entries (``draft.fields_of``/``draft.from_fields``), which measured 0.3 us
# against 1.5 us for the frozen constructor (benchmarks/). Its one slot, ``_hash``, caches the hash
# *outside* that dict, so a derived state never inherits its parent's hash; pickling leaves
# it out too (``__getstate__``), as hashes of strings differ between processes.
@attrs.frozen(repr=False, slots=False)
class State:
    """A complete game state: public facts and hidden cards alike.

    Raw fields hold bitmasks and indexes (suffixes ``_mask``/``_masks``/``_index``); the
    accessors below turn them into cards. Per-seat fields are tuples indexed by seat.
    The hash is computed once per state and kept (transposition tables hash states often).
    """

    __slots__ = ("__dict__", "__weakref__", "_hash")

    #: The game's configuration.
    config: GameConfig
    #: Lookup tables derived from the config (shared; not part of equality).
    tables: Tables = attrs.field(eq=False, repr=False)
    #: What the game waits for.
    phase: Phase
    #: The round, 1-5.
    round: int
    #: The trick within the round, from 1.
    trick_number: int
    #: The seat that opened the current trick, where its order of play starts (-1 before the
    #: first leader is known). If it withdraws, the lead passes on: see :attr:`lead_seat`.
    leader: int
    #: The seat to decide (PLAY, COVER, CHEST_CHOICE) or the chest revealer (CHEST); else -1.
    actor: int
    #: The cards played into the current trick, in play order.
    trick: tuple[Play, ...]
    #: Each seat's hand.
    hand_masks: tuple[int, ...]
    #: Number cards not dealt this round (the dungeon deck, an unordered pool: K6).
    pool_mask: int
    #: The trump card's index, or -1 before it is revealed.
    trump_index: int
    #: The number-card discard pile (face-up and face-down cards).
    discard_mask: int
    #: Per seat, the cards it played face down this round (in the trick or the discard pile).
    face_down_masks: tuple[int, ...]
    #: Per seat: in the round, withdrawn or shocked.
    status: tuple[Status, ...]
    #: Per seat, gems on the bag (at risk).
    on_bag: tuple[int, ...]
    #: Per seat, gems in the bag (safe; the score).
    in_bag: tuple[int, ...]
    #: The supply's balance (K29; may go below zero).
    supply: int
    #: Per seat, poison number cards in its play area.
    poison_masks: tuple[int, ...]
    #: Per seat, which of those poison cards a potion covers.
    covered_masks: tuple[int, ...]
    #: Per seat, potion cards in its play area (used or stored).
    potion_masks: tuple[int, ...]
    #: Per seat, suits it showed it lacks this round (did not follow suit).
    void_suits: tuple[int, ...]
    #: Chest cards still in the chest deck, counted per kind of ``tables.chest_cards``.
    chest_deck: tuple[int, ...]
    #: Chest gem cards in the chest discard pile, per kind.
    chest_discard: tuple[int, ...]
    #: Chest poison cards in the centre of the table, per kind.
    chest_centre: tuple[int, ...]
    #: Chest cards revealed in the current challenge (0-3).
    revealed: int
    #: The last seat to win a trick this round, or -1 (K27).
    last_winner: int
    #: The leader of the round's first trick, or -1 before it is known (K27).
    round_leader: int
    #: What the step that produced this state caused (not part of equality).
    events: tuple[Event, ...] = attrs.field(eq=False, repr=False)
    #: How many actions (chance included) were applied since :func:`~shock_rules.new_game`;
    #: history like :attr:`events`, so not part of equality. A state loaded from a position
    #: starts at 0.
    step: int = attrs.field(default=0, eq=False, repr=False)

    def __getstate__(self) -> dict[str, object]:
        return self.__dict__

    def __repr__(self) -> str:
        try:
            return (
                f"<State round {self.round} trick {self.trick_number} {self.phase.name.lower()}"
                f" actor {self.actor} players {self.config.players}"
                f" {self.config.variant.value}>"
            )
        except Exception:  # a state changed by hand: repr must not fail where it is shown
            return "<State (corrupt: check_state says why)>"

    # -- readable accessors --------------------------------------------------------------------

    @property
    @guards("state")
    def players(self) -> int:
        """The number of seats."""
        return self.config.players

    @property
    @guards("state")
    def trump(self) -> Card | None:
        """The trump card, or ``None`` before it is revealed."""
        return CARDS[self.trump_index] if self.trump_index >= 0 else None

    @property
    @guards("state")
    def trump_suit(self) -> Suit | None:
        """The trump suit, or ``None`` before the trump card is revealed."""
        return CARDS[self.trump_index].suit if self.trump_index >= 0 else None

    @property
    @guards("state")
    def lead_suit(self) -> Suit | None:
        """The suit of the first face-up card of the current trick, if any (K8)."""
        for p in self.trick:
            if p.face_up:
                return p.card.suit
        return None

    @property
    @guards("state")
    def lead_seat(self) -> int:
        """The leader of the current trick in the rulebook's sense, or -1 outside a trick.

        :attr:`leader` is the seat that opened the trick (the order of play starts there). If
        the leader withdraws, the next player clockwise still in the round becomes the leader
        of that trick and sets the lead suit (WITHDRAW-4, K8): once a card is face up, this is
        the seat that played the first one; before, the first seat from :attr:`leader`
        clockwise that is still in the round.
        """
        return _lead_seat(self.phase, self.leader, self.trick, self.status)

    @guards("state")
    def hand(self, seat: int) -> tuple[Card, ...]:
        """Return a seat's hand, in card order."""
        return cards_of(self.hand_masks[check_seat(seat, self.config.players)])

    @guards("state")
    def hand_size(self, seat: int) -> int:
        """Return how many cards a seat holds."""
        return count_of(self.hand_masks[check_seat(seat, self.config.players)])

    @guards("state")
    def seat_status(self, seat: int) -> Status:
        """Return whether a seat is in the round, withdrawn or shocked."""
        return self.status[check_seat(seat, self.config.players)]

    @guards("state")
    def in_round(self) -> tuple[int, ...]:
        """Return the seats still in the round."""
        return tuple(i for i, s in enumerate(self.status) if s is Status.IN)

    @guards("state")
    def poisons(self, seat: int) -> tuple[PoisonCard, ...]:
        """Return the poison number cards in front of a seat, covered or not."""
        ed = self.config.edition
        seat = check_seat(seat, self.config.players)
        return tuple(
            PoisonCard(c, ed.poison_type(c) or "", bool(self.covered_masks[seat] & c.bit))
            for c in cards_of(self.poison_masks[seat])
        )

    @guards("state")
    def potions(self, seat: int) -> tuple[Card, ...]:
        """Return the potion cards in front of a seat (used and stored)."""
        return cards_of(self.potion_masks[check_seat(seat, self.config.players)])

    @guards("state")
    def stored_potions(self, seat: int) -> int:
        """Return how many potions a seat keeps for later (K16)."""
        seat = check_seat(seat, self.config.players)
        return count_of(self.potion_masks[seat]) - count_of(self.covered_masks[seat])

    @guards("state")
    def poison_count(self, seat: int, poison: str) -> int:
        """Return a seat's count of a poison type (K15): its uncovered poison cards of the
        type plus the chest poison cards of the type in the centre.

        Chest poisons affect only the players in the round (rulebook, *Withdrawal*: a player
        out of the round is not affected by new poison cards), so for a seat out of the round
        the count is its uncovered poison cards alone (POISON-3).
        """
        seat = check_seat(seat, self.config.players)
        types = self.config.edition.poison_types
        if type(poison) is not str or poison not in types:
            raise InvalidArgumentError(
                f"invalid poison {quoted(poison)}: expected one of {', '.join(types)}")
        t = types.index(poison)
        mask = self.poison_masks[seat] & ~self.covered_masks[seat] & self.tables.type_masks[t]
        if self.status[seat] is not Status.IN:
            return mask.bit_count()
        return mask.bit_count() + sum(
            n for n, p in zip(self.chest_centre, self.tables.chest_poison, strict=True) if p == t
        )

    @property
    @guards("state")
    def discard(self) -> tuple[Card, ...]:
        """Return the number-card discard pile (face-up and face-down cards)."""
        return cards_of(self.discard_mask)

    @guards("state")
    def face_down(self, seat: int) -> tuple[Card, ...]:
        """Return the cards a seat played face down this round (trick or discard pile)."""
        return cards_of(self.face_down_masks[check_seat(seat, self.config.players)])

    @property
    @guards("state")
    def deck_size(self) -> int:
        """The number of cards in the dungeon deck."""
        return count_of(self.pool_mask)

    @property
    @guards("state")
    def chest_deck_size(self) -> int:
        """The number of cards in the chest deck."""
        return sum(self.chest_deck)

    def _chest_list(self, counts: tuple[int, ...]) -> tuple[ChestCard, ...]:
        # Each count is at most the chest deck's own (a corrupt state could ask for 10**12
        # cards, and views list these).
        full = self.tables.chest_counts
        if len(counts) != len(full) or not all(
                type(n) is int and 0 <= n <= m for n, m in zip(counts, full, strict=True)):
            raise InvalidStateError(
                f"invalid state: chest counts {quoted(counts)} do not fit the chest deck"
                f" {quoted(full)}")
        return tuple(
            c for c, n in zip(self.tables.chest_cards, counts, strict=True) for _ in range(n)
        )

    @property
    @guards("state")
    def chest_centre_cards(self) -> tuple[ChestCard, ...]:
        """The chest poison cards in the centre of the table."""
        return self._chest_list(self.chest_centre)

    @property
    @guards("state")
    def chest_discard_cards(self) -> tuple[ChestCard, ...]:
        """The chest gem cards in the chest discard pile."""
        return self._chest_list(self.chest_discard)

    @property
    @guards("state")
    def chest_deck_cards(self) -> tuple[ChestCard, ...]:
        """The chest cards still in the chest deck (public: K34)."""
        return self._chest_list(self.chest_deck)

    @property
    @guards("state")
    def trick_gems(self) -> int:
        """The gems on the cards of the current trick."""
        return sum(p.gems for p in self.trick)


class _TrickPlay(Protocol):
    """A card of a trick: who played it, and whether face up (a Play or a view's TrickCard)."""

    @property
    def seat(self) -> int: ...

    @property
    def face_up(self) -> bool: ...


def _lead_seat(
    phase: Phase, leader: int, trick: Sequence[_TrickPlay], status: Sequence[Status]
) -> int:
    """Return the current trick's leader in the rulebook's sense (see ``State.lead_seat``)."""
    if phase is not Phase.PLAY or leader < 0:
        return -1
    for p in trick:
        if p.face_up:
            return p.seat
    n = len(status)
    for i in range(n):
        seat = (leader + i) % n
        if status[seat] is Status.IN:
            return seat
    return -1


# attrs' hash of the fields that take part in equality, computed on a state's first hash and
# then kept in its ``_hash`` slot: 2.4 us against 0.05 us for a cached one.
_fields_hash: Final = State.__hash__
_get_hash: Final = State._hash.__get__  # type: ignore[attr-defined]
_set_hash: Final = State._hash.__set__  # type: ignore[attr-defined]


def _cached_hash(self: State) -> int:
    try:
        return _get_hash(self)  # type: ignore[no-any-return]
    except AttributeError:  # the first hash of this state
        h: int = _fields_hash(self)
        _set_hash(self, h)
        return h


State.__hash__ = _cached_hash  # type: ignore[assignment,method-assign]

_new = object.__new__
# The setter of State's ``__dict__`` slot, called directly: 20% faster than
# ``object.__setattr__(s, "__dict__", ...)``, which looks the slot up on every call.
_set_dict: Final = next(
    k.__dict__["__dict__"] for k in State.__mro__ if "__dict__" in k.__dict__
).__set__


def expect_state(value: object) -> None:
    """Raise :class:`~shock_rules.InvalidStateError` unless ``value`` is a :class:`State`
    (an argument check of the public functions off the hot path)."""
    if type(value) is not State:
        raise InvalidStateError(f"invalid state: expected a State, not {type(value).__name__}")
