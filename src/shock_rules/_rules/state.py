"""The immutable game state and its readable accessors.

A :class:`State` is a frozen, hashable value. Hands and piles are stored as ``int`` bitmasks of
card indexes (see ``shock_rules._rules.cards``); the methods and properties below present them as
:class:`~shock_rules.Card` objects for front-ends. States are produced by
:func:`~shock_rules.new_game` and :func:`~shock_rules.apply`; build them by hand only in tests.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Final, Protocol, TypeVar, cast, overload

import attrs
from attrs import NOTHING

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


_T = TypeVar("_T")
#: The class the constructor tests a config against, as a ``Final`` name: the compiled build
#: would look the imported name up in the module's dict at every step.
_GAME_CONFIG: Final = GameConfig


# The compiled build's constructor checks the kind of each field, so that a state with a field
# of the wrong kind cannot be made there (``attrs.evolve(state, phase=None)`` raises
# InvalidStateError): its fields are typed slots, which could not hold one, and mypyc's own
# check would raise a plain TypeError. The pure build keeps what it is given, as it always did:
# such a state is made, and every public function that reads it raises InvalidStateError (see
# the guide's *Bad input*). Values (a phase of 99, a seat out of range, a tuple of the wrong
# length) are check_state's business in both builds.
def _wrong(name: str, value: object, kind: str) -> InvalidStateError:
    return InvalidStateError(
        f"invalid state: its {name} must be {kind}, not {type(value).__name__} {quoted(value)}")


def _int(name: str, value: object) -> int:
    if NATIVE and type(value) is not int:  # not a bool either: no count, mask or seat
        raise _wrong(name, value, "an int")
    return value  # type: ignore[return-value]  # checked in the compiled build (see above)


def _tuple(name: str, value: object) -> tuple[Any, ...]:
    if NATIVE and type(value) is not tuple:
        raise _wrong(name, value, "a tuple")
    return value  # type: ignore[return-value]  # checked in the compiled build (see above)


def _instance(name: str, value: object, kind: type[_T]) -> _T:
    if NATIVE and not isinstance(value, kind):
        raise _wrong(name, value, f"a {kind.__name__}")
    return value  # type: ignore[return-value]  # checked in the compiled build (see above)


# The state is one class for both builds, written so that the compiled build makes it a
# native class: its fields are ``Final`` attributes, which compiled code reads at a fixed offset
# instead of looking them up (about a fifth of a compiled playout went to such look-ups). In
# the pure build it is a regular class whose fields live in its attribute dict: the engine
# derives the next state by copying the previous one's dict (``draft.py``), which measured
# 0.3 us against 1.5 us for the constructor. Its one slot there, ``_hash``, caches the hash
# *outside* that dict, so a derived state never inherits its parent's hash.
class State:
    """A complete game state: public facts and hidden cards alike.

    Raw fields hold bitmasks and indexes (suffixes ``_mask``/``_masks``/``_index``); the
    accessors below turn them into cards. Per-seat fields are tuples indexed by seat.
    States are immutable; the hash is computed once per state and kept (transposition
    tables hash states often). Equality leaves out :attr:`tables`, :attr:`events` and
    :attr:`step`. ``attrs.fields``, ``attrs.evolve`` and ``attrs.asdict`` work on states.
    """

    # The pure build's layout (mypyc ignores ``__slots__``: native attributes are slots).
    __slots__ = ("__dict__", "__weakref__", "_hash")

    _hash: int
    #: What ``attrs.fields(State)`` reads (set below the class): type checkers then take a
    #: state for an attrs instance in ``attrs.fields`` and ``attrs.asdict``.
    __attrs_attrs__: ClassVar[tuple[attrs.Attribute[Any], ...]]

    def __init__(
        self,
        config: object,
        tables: object,
        phase: object,
        round: object,
        trick_number: object,
        leader: object,
        actor: object,
        trick: object,
        hand_masks: object,
        pool_mask: object,
        trump_index: object,
        discard_mask: object,
        face_down_masks: object,
        status: object,
        on_bag: object,
        in_bag: object,
        supply: object,
        poison_masks: object,
        covered_masks: object,
        potion_masks: object,
        void_suits: object,
        chest_deck: object,
        chest_discard: object,
        chest_centre: object,
        revealed: object,
        last_winner: object,
        round_leader: object,
        events: object,
        step: object = 0,
    ) -> None:
        #: The game's configuration.
        self.config: Final[GameConfig] = _instance("config", config, _GAME_CONFIG)
        #: Lookup tables derived from the config (shared; not part of equality).
        self.tables: Final[Tables] = _instance("tables", tables, Tables)
        #: What the game waits for.
        self.phase: Final[Phase] = _instance("phase", phase, Phase)
        #: The round, 1-5.
        self.round: Final[int] = _int("round", round)
        #: The trick within the round, from 1.
        self.trick_number: Final[int] = _int("trick_number", trick_number)
        #: The seat that opened the current trick, where its order of play starts (-1 before the
        #: first leader is known). If it withdraws, the lead passes on: see :attr:`lead_seat`.
        self.leader: Final[int] = _int("leader", leader)
        #: The seat to decide (PLAY, COVER, CHEST_CHOICE) or the chest revealer (CHEST); else -1.
        self.actor: Final[int] = _int("actor", actor)
        #: The cards played into the current trick, in play order.
        self.trick: Final[tuple[Play, ...]] = _tuple("trick", trick)
        #: Each seat's hand.
        self.hand_masks: Final[tuple[int, ...]] = _tuple("hand_masks", hand_masks)
        #: Number cards not dealt this round (the dungeon deck, an unordered pool: K6).
        self.pool_mask: Final[int] = _int("pool_mask", pool_mask)
        #: The trump card's index, or -1 before it is revealed.
        self.trump_index: Final[int] = _int("trump_index", trump_index)
        #: The number-card discard pile (face-up and face-down cards).
        self.discard_mask: Final[int] = _int("discard_mask", discard_mask)
        #: Per seat, the cards it played face down this round (in the trick or the discard pile).
        self.face_down_masks: Final[tuple[int, ...]] = _tuple("face_down_masks", face_down_masks)
        #: Per seat: in the round, withdrawn or shocked.
        self.status: Final[tuple[Status, ...]] = _tuple("status", status)
        #: Per seat, gems on the bag (at risk).
        self.on_bag: Final[tuple[int, ...]] = _tuple("on_bag", on_bag)
        #: Per seat, gems in the bag (safe; the score).
        self.in_bag: Final[tuple[int, ...]] = _tuple("in_bag", in_bag)
        #: The supply's balance (K29; may go below zero).
        self.supply: Final[int] = _int("supply", supply)
        #: Per seat, poison number cards in its play area.
        self.poison_masks: Final[tuple[int, ...]] = _tuple("poison_masks", poison_masks)
        #: Per seat, which of those poison cards a potion covers.
        self.covered_masks: Final[tuple[int, ...]] = _tuple("covered_masks", covered_masks)
        #: Per seat, potion cards in its play area (used or stored).
        self.potion_masks: Final[tuple[int, ...]] = _tuple("potion_masks", potion_masks)
        #: Per seat, suits it showed it lacks this round (did not follow suit).
        self.void_suits: Final[tuple[int, ...]] = _tuple("void_suits", void_suits)
        #: Chest cards still in the chest deck, counted per kind of ``tables.chest_cards``.
        self.chest_deck: Final[tuple[int, ...]] = _tuple("chest_deck", chest_deck)
        #: Chest gem cards in the chest discard pile, per kind.
        self.chest_discard: Final[tuple[int, ...]] = _tuple("chest_discard", chest_discard)
        #: Chest poison cards in the centre of the table, per kind.
        self.chest_centre: Final[tuple[int, ...]] = _tuple("chest_centre", chest_centre)
        #: Chest cards revealed in the current challenge (0-3).
        self.revealed: Final[int] = _int("revealed", revealed)
        #: The last seat to win a trick this round, or -1 (K27).
        self.last_winner: Final[int] = _int("last_winner", last_winner)
        #: The leader of the round's first trick, or -1 before it is known (K27).
        self.round_leader: Final[int] = _int("round_leader", round_leader)
        #: What the step that produced this state caused (not part of equality).
        self.events: Final[tuple[Event, ...]] = _tuple("events", events)
        #: How many actions (chance included) were applied since :func:`~shock_rules.new_game`;
        #: history like :attr:`events`, so not part of equality. A state loaded from a position
        #: starts at 0.
        self.step: Final[int] = _int("step", step)

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def _key(self) -> tuple[object, ...]:
        """The fields that take part in equality and the hash."""
        return (
            self.config, self.phase, self.round, self.trick_number, self.leader, self.actor,
            self.trick, self.hand_masks, self.pool_mask, self.trump_index, self.discard_mask,
            self.face_down_masks, self.status, self.on_bag, self.in_bag, self.supply,
            self.poison_masks, self.covered_masks, self.potion_masks, self.void_suits,
            self.chest_deck, self.chest_discard, self.chest_centre, self.revealed, self.last_winner,
            self.round_leader,
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not State:
            return NotImplemented
        return self is other or self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        if type(other) is not State:
            return NotImplemented
        return not (self is other or self._key() == other._key())

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:  # the first hash of this state: 2.4 us, against 0.05 us
            try:
                h = hash(self._key())
            except Exception:  # a state forged with a list or a set inside a field, say
                raise self._unhashable() from None
            object.__setattr__(self, "_hash", h)
            return h

    def _unhashable(self) -> InvalidStateError:
        """Return the error for a state whose equality key cannot be hashed, naming the first
        field at fault (the engine never makes one: only a state forged by hand)."""
        for name, _ in FIELDS:
            if name in _NOT_EQ:
                continue
            value = getattr(self, name)
            try:
                hash(value)
            except Exception as exc:
                return InvalidStateError(
                    f"invalid state: its {name} cannot be hashed ({exc}): {quoted(value)}")
        return InvalidStateError("invalid state: it cannot be hashed")

    def replace(self, **changes: object) -> State:
        """Return a copy of this state with the fields named in ``changes`` changed, as
        ``attrs.evolve`` does, but typed for type checkers (which do not take ``State`` for an
        attrs class). For tests and hand-made positions: the result is not checked beyond
        the kinds of its fields (see :func:`~shock_rules.check_state`).

        Raise :class:`~shock_rules.InvalidArgumentError` for a name that is no field, and
        :class:`~shock_rules.InvalidStateError` for a value of the wrong kind.
        """
        unknown = sorted(set(changes) - _FIELD_NAMES)
        if unknown:
            raise InvalidArgumentError(
                f"invalid field {quoted(unknown[0])}: a State has no such field")
        fields = {name: getattr(self, name) for name, _ in FIELDS}
        fields.update(changes)
        return State(**fields)

    def __replace__(self, **changes: object) -> State:
        # ``copy.replace`` (Python 3.13) calls this (a method: mypyc compiles no alias).
        return self.replace(**changes)

    def __reduce__(self) -> tuple[object, ...]:
        # By the constructor, so that the hash is never pickled (hashes of strings differ
        # between processes) and a pickle loads in either build.
        return (State, (
            self.config, self.tables, self.phase, self.round, self.trick_number, self.leader,
            self.actor, self.trick, self.hand_masks, self.pool_mask, self.trump_index,
            self.discard_mask, self.face_down_masks, self.status, self.on_bag, self.in_bag,
            self.supply, self.poison_masks, self.covered_masks, self.potion_masks, self.void_suits,
            self.chest_deck, self.chest_discard, self.chest_centre, self.revealed, self.last_winner,
            self.round_leader, self.events, self.step,
        ))

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
    def players(self) -> int:
        """The number of seats."""
        return self._players()

    @guards("state")  # under a method: mypyc compiles no decorator under a property
    def _players(self) -> int:
        return self.config.players

    @property
    def trump(self) -> Card | None:
        """The trump card, or ``None`` before it is revealed."""
        return self._trump()

    @guards("state")  # under a method: mypyc compiles no decorator under a property
    def _trump(self) -> Card | None:
        return CARDS[self.trump_index] if self.trump_index >= 0 else None

    @property
    def trump_suit(self) -> Suit | None:
        """The trump suit, or ``None`` before the trump card is revealed."""
        return self._trump_suit()

    @guards("state")  # under a method: mypyc compiles no decorator under a property
    def _trump_suit(self) -> Suit | None:
        return CARDS[self.trump_index].suit if self.trump_index >= 0 else None

    @property
    def lead_suit(self) -> Suit | None:
        """The suit of the first face-up card of the current trick, if any (K8)."""
        return self._lead_suit()

    @guards("state")  # under a method: mypyc compiles no decorator under a property
    def _lead_suit(self) -> Suit | None:
        for p in self.trick:
            if p.face_up:
                return p.card.suit
        return None

    @property
    def lead_seat(self) -> int:
        """The leader of the current trick in the rulebook's sense, or -1 outside a trick.

        :attr:`leader` is the seat that opened the trick (the order of play starts there). If
        the leader withdraws, the next player clockwise still in the round becomes the leader
        of that trick and sets the lead suit (WITHDRAW-4, K8): once a card is face up, this is
        the seat that played the first one; before, the first seat from :attr:`leader`
        clockwise that is still in the round.
        """
        return self._lead_seat()

    @guards("state")  # under a method: mypyc compiles no decorator under a property
    def _lead_seat(self) -> int:
        return _lead_seat(self.phase, self.leader, self.trick, self.status)

    # The seat accessors take ``seat: object`` and check it (check_seat): the compiled build
    # would check an ``int`` argument itself and raise TypeError, not InvalidArgumentError.
    # One overload each gives type checkers the real type; mypy asks for two ("misc").
    @overload  # type: ignore[misc]
    def hand(self, seat: int) -> tuple[Card, ...]: ...

    @guards("state")
    def hand(self, seat: object) -> tuple[Card, ...]:
        """Return a seat's hand, in card order."""
        return cards_of(self.hand_masks[check_seat(seat, self.config.players)])

    @overload  # type: ignore[misc]  # one overload: see hand
    def hand_size(self, seat: int) -> int: ...

    @guards("state")
    def hand_size(self, seat: object) -> int:
        """Return how many cards a seat holds."""
        return count_of(self.hand_masks[check_seat(seat, self.config.players)])

    @overload  # type: ignore[misc]  # one overload: see hand
    def seat_status(self, seat: int) -> Status: ...

    @guards("state")
    def seat_status(self, seat: object) -> Status:
        """Return whether a seat is in the round, withdrawn or shocked."""
        return self.status[check_seat(seat, self.config.players)]

    @guards("state")
    def in_round(self) -> tuple[int, ...]:
        """Return the seats still in the round."""
        return tuple(i for i, s in enumerate(self.status) if s is Status.IN)

    @overload  # type: ignore[misc]  # one overload: see hand
    def poisons(self, seat: int) -> tuple[PoisonCard, ...]: ...

    @guards("state")
    def poisons(self, seat: object) -> tuple[PoisonCard, ...]:
        """Return the poison number cards in front of a seat, covered or not."""
        ed = self.config.edition
        seat = check_seat(seat, self.config.players)
        return tuple(
            PoisonCard(c, ed.poison_type(c) or "", bool(self.covered_masks[seat] & c.bit))
            for c in cards_of(self.poison_masks[seat])
        )

    @overload  # type: ignore[misc]  # one overload: see hand
    def potions(self, seat: int) -> tuple[Card, ...]: ...

    @guards("state")
    def potions(self, seat: object) -> tuple[Card, ...]:
        """Return the potion cards in front of a seat (used and stored)."""
        return cards_of(self.potion_masks[check_seat(seat, self.config.players)])

    @overload  # type: ignore[misc]  # one overload: see hand
    def stored_potions(self, seat: int) -> int: ...

    @guards("state")
    def stored_potions(self, seat: object) -> int:
        """Return how many potions a seat keeps for later (K16)."""
        seat = check_seat(seat, self.config.players)
        return count_of(self.potion_masks[seat]) - count_of(self.covered_masks[seat])

    @overload  # type: ignore[misc]  # one overload: see hand
    def poison_count(self, seat: int, poison: str) -> int: ...

    @guards("state")
    def poison_count(self, seat: object, poison: str) -> int:
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
    def discard(self) -> tuple[Card, ...]:
        """Return the number-card discard pile (face-up and face-down cards)."""
        return self._discard()

    @guards("state")  # under a method: mypyc compiles no decorator under a property
    def _discard(self) -> tuple[Card, ...]:
        return cards_of(self.discard_mask)

    @overload  # type: ignore[misc]  # one overload: see hand
    def face_down(self, seat: int) -> tuple[Card, ...]: ...

    @guards("state")
    def face_down(self, seat: object) -> tuple[Card, ...]:
        """Return the cards a seat played face down this round (trick or discard pile)."""
        return cards_of(self.face_down_masks[check_seat(seat, self.config.players)])

    @property
    def deck_size(self) -> int:
        """The number of cards in the dungeon deck."""
        return self._deck_size()

    @guards("state")  # under a method: mypyc compiles no decorator under a property
    def _deck_size(self) -> int:
        return count_of(self.pool_mask)

    @property
    def chest_deck_size(self) -> int:
        """The number of cards in the chest deck."""
        return self._chest_deck_size()

    @guards("state")  # under a method: mypyc compiles no decorator under a property
    def _chest_deck_size(self) -> int:
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
    def chest_centre_cards(self) -> tuple[ChestCard, ...]:
        """The chest poison cards in the centre of the table."""
        return self._chest_centre_cards()

    @guards("state")  # under a method: mypyc compiles no decorator under a property
    def _chest_centre_cards(self) -> tuple[ChestCard, ...]:
        return self._chest_list(self.chest_centre)

    @property
    def chest_discard_cards(self) -> tuple[ChestCard, ...]:
        """The chest gem cards in the chest discard pile."""
        return self._chest_discard_cards()

    @guards("state")  # under a method: mypyc compiles no decorator under a property
    def _chest_discard_cards(self) -> tuple[ChestCard, ...]:
        return self._chest_list(self.chest_discard)

    @property
    def chest_deck_cards(self) -> tuple[ChestCard, ...]:
        """The chest cards still in the chest deck (public: K34)."""
        return self._chest_deck_cards()

    @guards("state")  # under a method: mypyc compiles no decorator under a property
    def _chest_deck_cards(self) -> tuple[ChestCard, ...]:
        return self._chest_list(self.chest_deck)

    @property
    def trick_gems(self) -> int:
        """The gems on the cards of the current trick."""
        return self._trick_gems()

    @guards("state")  # under a method: mypyc compiles no decorator under a property
    def _trick_gems(self) -> int:
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


#: Whether :class:`State` is a native class (the compiled build), with no attribute dict.
NATIVE: Final = "__dict__" not in vars(State)

#: State's fields, in the constructor's order, with their types as annotated.
FIELDS: Final[tuple[tuple[str, str], ...]] = (
    ("config", "GameConfig"),
    ("tables", "Tables"),
    ("phase", "Phase"),
    ("round", "int"),
    ("trick_number", "int"),
    ("leader", "int"),
    ("actor", "int"),
    ("trick", "tuple[Play, ...]"),
    ("hand_masks", "tuple[int, ...]"),
    ("pool_mask", "int"),
    ("trump_index", "int"),
    ("discard_mask", "int"),
    ("face_down_masks", "tuple[int, ...]"),
    ("status", "tuple[Status, ...]"),
    ("on_bag", "tuple[int, ...]"),
    ("in_bag", "tuple[int, ...]"),
    ("supply", "int"),
    ("poison_masks", "tuple[int, ...]"),
    ("covered_masks", "tuple[int, ...]"),
    ("potion_masks", "tuple[int, ...]"),
    ("void_suits", "tuple[int, ...]"),
    ("chest_deck", "tuple[int, ...]"),
    ("chest_discard", "tuple[int, ...]"),
    ("chest_centre", "tuple[int, ...]"),
    ("revealed", "int"),
    ("last_winner", "int"),
    ("round_leader", "int"),
    ("events", "tuple[Event, ...]"),
    ("step", "int"),
)
_FIELD_NAMES: Final = frozenset(name for name, _ in FIELDS)
#: The fields that equality and the hash leave out (shared tables and history).
_NOT_EQ: Final = frozenset({"tables", "events", "step"})

# ``attrs.fields(State)`` and so ``attrs.evolve`` and ``attrs.asdict`` read this description,
# made by attrs from the same fields (set by name: mypyc compiles no assignment to it).
_SPEC: Final[dict[str, object]] = {}
for _name, _kind in FIELDS:
    _SPEC[_name] = attrs.field(type=cast(Any, _kind), eq=_name not in _NOT_EQ,
                               repr=_name not in _NOT_EQ, default=0 if _name == "step" else NOTHING)
setattr(State, "__attrs_attrs__", getattr(  # noqa: B009, B010
    attrs.make_class("State", _SPEC, frozen=True),
    "__attrs_attrs__"))

_new = object.__new__


class _Blank:
    """An object that takes any attribute (see :func:`_pure_init`)."""


def _set_dict_unavailable(state: State, fields: dict[str, object]) -> None:
    raise TypeError("a native State has no attribute dict")


if NATIVE:
    _set_dict: Callable[[State, dict[str, object]], None] = _set_dict_unavailable
else:
    # The setter of State's ``__dict__`` slot, called directly: 20% faster than
    # ``object.__setattr__(s, "__dict__", ...)``, which looks the slot up on every call.
    _set_dict = next(
        k.__dict__["__dict__"] for k in State.__mro__ if "__dict__" in k.__dict__
    ).__set__
    _init = State.__init__

    def _pure_init(self: State, *args: Any, **kwargs: Any) -> None:
        # The pure build's constructor: the class's own ``__init__`` writes its fields on a
        # blank object (``State.__setattr__`` refuses every write), whose dict becomes the
        # state's.
        blank = _new(_Blank)
        _init(blank, *args, **kwargs)  # type: ignore[arg-type]
        _set_dict(self, blank.__dict__)

    def _refuse_delete(self: State, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    # By setattr: mypy refuses an assignment to a method.
    setattr(State, "__init__", _pure_init)  # noqa: B010
    setattr(State, "__delattr__", _refuse_delete)  # noqa: B010


def expect_state(value: object) -> None:
    """Raise :class:`~shock_rules.InvalidStateError` unless ``value`` is a :class:`State`
    (an argument check of the public functions off the hot path)."""
    if type(value) is not State:
        raise InvalidStateError(f"invalid state: expected a State, not {type(value).__name__}")
