"""The immutable game state and its readable accessors.

A :class:`State` is a frozen, hashable value. Hands and piles are stored as ``int`` bitmasks of
card indexes (see ``shock_rules._rules.cards``); the methods and properties below present them as
:class:`~shock_rules.Card` objects for front-ends. States are produced by
:func:`~shock_rules.new_game`, :func:`~shock_rules.apply` and the loaders, which check them.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any, ClassVar, Final, Protocol

import attrs

from .. import _pictures
from .._errors import InvalidArgumentError, InvalidStateError, check_seat, quoted
from .._shared import CHANCE as _CHANCE
from .._shared import ChanceMarker
from .cards import CARDS, Card, Suit, cards_of
from .config import GameConfig
from .edition import POTIONS, ChestCard
from .events import Event
from .tables import Tables

__all__ = ["CHANCE", "POTION_BITS", "ChanceMarker", "Phase", "Play", "PoisonCard", "State",
           "Status", "covered_mask", "laid_by_convention", "lead_seat", "lead_suit",
           "not_a_state", "poison_counts", "unchecked_replace"]


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


#: What :func:`~shock_rules.current_player` returns at a chance decision (the marker both
#: games share, defined in ``_shared``).
CHANCE: Final = _CHANCE


@attrs.frozen
class Play:
    """A card in the current trick: who played it, whether face up, and the gems on it."""

    seat: int
    card: Card
    face_up: bool
    gems: int


@attrs.frozen
class PoisonCard:
    """A poison number card in front of a seat, whether a potion covers it, and which one.

    Which potion lies on which poison is recorded in the state and public (K34, POTION-6): a
    potion laid on a poison stays there until the round's cards are cleared. So
    ``covered_by`` is part of the card's value, in equality and hashing like its other fields.
    """

    card: Card
    poison: str
    covered: bool
    #: The potion card lying on it (``None`` when uncovered).
    covered_by: Card | None = None


#: The bit of each potion card, in card order (5C, 7C; K1): the order of
#: :attr:`State.potion_on_masks`.
POTION_BITS: Final[tuple[int, ...]] = tuple(c.bit for c in POTIONS)


def covered_mask(potion_on_masks: tuple[int, ...]) -> int:
    """Return the mask of the poison cards that some potion lies on (K16, POTION-6): the union
    of ``potion_on_masks`` (a poison card is in one play area, so a seat's covered cards are
    its poison cards within this mask).

    >>> from shock_rules import Card
    >>> covered_mask((Card.parse("7S").bit, 0)) == Card.parse("7S").bit
    True
    """
    mask = 0
    for on in potion_on_masks:
        mask |= on
    return mask


def laid_by_convention(covered: int, potions: int) -> list[tuple[int, int]]:
    """Return ``(potion bit, poison bit)`` pairs for a seat whose covered poison cards are
    ``covered`` and whose potions are ``potions``, placed as documents and positions written
    before the placement was recorded meant it: covered poisons in card order carry the
    seat's potions in card order (5C first). A reader of such old forms uses it; fewer potions
    than covered poisons leaves some poisons without one (the caller refuses that).

    >>> from shock_rules import Card
    >>> bit = lambda text: Card.parse(text).bit
    >>> laid_by_convention(bit("7S"), bit("5C") | bit("7C")) == [(bit("5C"), bit("7S"))]
    True
    """
    held = [b for b in POTION_BITS if potions & b]
    poisons = [1 << i for i in range(covered.bit_length()) if covered >> i & 1]
    return list(zip(held, poisons, strict=False))


# The state is one class for both builds. The compiled build makes it a native class: its
# fields are ``Final`` attributes read at a fixed offset (compiled playouts run at about 0.6 of
# their speed with a dict-backed state). The pure build keeps them in the attribute dict, which lets
# ``draft.py`` derive the next state by copying one dict; the ``_hash`` slot keeps the cached
# hash outside that dict, so a derived state never inherits its parent's hash.
class State:
    """A complete game state: public facts and hidden cards alike.

    Raw fields hold bitmasks and indexes (suffixes ``_mask``/``_masks``/``_index``); the
    accessors below turn them into cards. Per-seat fields are tuples indexed by seat.
    States are immutable and hashable (the hash is computed once per state). Equality leaves
    out :attr:`tables`, :attr:`events` and :attr:`step`.

    States come from :func:`~shock_rules.new_game`, :func:`~shock_rules.apply` and the
    loaders (JSON, positions, records, pickles), which run :func:`~shock_rules.check_state`;
    :meth:`replace` runs it too. The constructor itself checks nothing: the package trusts the
    states it made, and one built by hand past those gates is the caller's responsibility.
    """

    # The pure build's layout (mypyc ignores ``__slots__``: native attributes are slots).
    __slots__ = ("__dict__", "__weakref__", "_hash")

    _hash: int
    #: What ``attrs.fields(State)`` reads (set below the class), so that ``attrs.asdict``
    #: works on a state.
    __attrs_attrs__: ClassVar[tuple[attrs.Attribute[Any], ...]]

    # The one declaration of the fields: names, types and meanings. FIELDS below lists the
    # names in this order; equality, hashing, pickling and replace() follow from it.
    def __init__(
        self,
        *,
        config: GameConfig,
        tables: Tables,
        phase: Phase,
        round: int,
        trick_number: int,
        leader: int,
        actor: int,
        trick: tuple[Play, ...],
        hand_masks: tuple[int, ...],
        pool_mask: int,
        trump_index: int,
        discard_mask: int,
        face_down_masks: tuple[int, ...],
        status: tuple[Status, ...],
        on_bag: tuple[int, ...],
        in_bag: tuple[int, ...],
        supply: int,
        poison_masks: tuple[int, ...],
        potion_masks: tuple[int, ...],
        potion_on_masks: tuple[int, ...],
        void_suits: tuple[int, ...],
        chest_deck: tuple[int, ...],
        chest_discard: tuple[int, ...],
        chest_centre: tuple[int, ...],
        revealed: int,
        last_winner: int,
        round_leader: int,
        events: tuple[Event, ...] = (),
        step: int = 0,
    ) -> None:
        #: The game's configuration.
        self.config: Final = config
        #: Lookup tables derived from the config (shared; not part of equality).
        self.tables: Final = tables
        #: What the game waits for.
        self.phase: Final = phase
        #: The round, 1-5.
        self.round: Final = round
        #: The trick within the round, from 1.
        self.trick_number: Final = trick_number
        #: The seat that opened the current trick, where its order of play starts (-1 before the
        #: first leader is known). If it withdraws, the lead passes on: see :attr:`lead_seat`.
        self.leader: Final = leader
        #: The seat to decide (PLAY, COVER, CHEST_CHOICE) or the chest revealer (CHEST); the
        #: seat receiving the next card while dealing (DEAL-2); else -1.
        self.actor: Final = actor
        #: The cards played into the current trick, in play order.
        self.trick: Final = trick
        #: Each seat's hand.
        self.hand_masks: Final = hand_masks
        #: Number cards not dealt this round (the dungeon deck, an unordered pool: K6).
        self.pool_mask: Final = pool_mask
        #: The trump card's index, or -1 before it is revealed.
        self.trump_index: Final = trump_index
        #: The number-card discard pile (face-up and face-down cards).
        self.discard_mask: Final = discard_mask
        #: Per seat, the cards it played face down this round (in the trick or the discard pile).
        self.face_down_masks: Final = face_down_masks
        #: Per seat: in the round, withdrawn or shocked.
        self.status: Final = status
        #: Per seat, gems on the bag (at risk).
        self.on_bag: Final = on_bag
        #: Per seat, gems in the bag (safe; the score).
        self.in_bag: Final = in_bag
        #: The supply's balance (K29; may go below zero).
        self.supply: Final = supply
        #: Per seat, poison number cards in its play area.
        self.poison_masks: Final = poison_masks
        #: Per seat, potion cards in its play area (laid on a poison or stored).
        self.potion_masks: Final = potion_masks
        #: Per potion card, in card order (5C, 7C: :data:`POTION_BITS`), the bit of the poison
        #: card it lies on, or 0 while it lies on none (stored, or not taken this round). A
        #: potion is laid once and stays until the round's cards are cleared (POTION-6).
        self.potion_on_masks: Final = potion_on_masks
        #: Per seat, suits it showed it lacks this round (did not follow suit).
        self.void_suits: Final = void_suits
        #: Chest cards still in the chest deck, counted per kind of ``tables.chest_cards``.
        self.chest_deck: Final = chest_deck
        #: Chest gem cards in the chest discard pile, per kind.
        self.chest_discard: Final = chest_discard
        #: Chest poison cards in the centre of the table, per kind.
        self.chest_centre: Final = chest_centre
        #: Chest cards revealed in the current challenge (0-3).
        self.revealed: Final = revealed
        #: The last seat to win a trick this round, or -1 (K27).
        self.last_winner: Final = last_winner
        #: The leader of the round's first trick, or -1 before it is known (K27).
        self.round_leader: Final = round_leader
        #: What the step that produced this state caused (not part of equality).
        self.events: Final = events
        #: How many actions (chance included) were applied since :func:`~shock_rules.new_game`;
        #: history like :attr:`events`, so not part of equality. A state loaded from a position
        #: starts at 0.
        self.step: Final = step

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def __eq__(self, other: object) -> bool:
        if type(other) is not State:
            return NotImplemented
        return self is other or _key(self) == _key(other)

    def __ne__(self, other: object) -> bool:
        if type(other) is not State:
            return NotImplemented
        return not (self is other or _key(self) == _key(other))

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:  # the first hash of this state (transposition tables hash often)
            h = hash(_key(self))
            object.__setattr__(self, "_hash", h)
            return h

    def replace(self, **changes: object) -> State:
        """Return a copy of this state with the fields named in ``changes`` changed, checked
        with :func:`~shock_rules.check_state` (``copy.replace`` does the same).

        Raise :class:`~shock_rules.InvalidArgumentError` for a name that is no field, and
        :class:`~shock_rules.InvalidStateError` when the result is no state legal play reaches.
        """
        state = unchecked_replace(self, **changes)
        check(state)
        return state

    def __replace__(self, **changes: object) -> State:
        # ``copy.replace`` (Python 3.13) calls this (a method: mypyc compiles no alias).
        return self.replace(**changes)

    def __reduce__(self) -> tuple[object, ...]:
        # By the field values, so that the cached hash is never pickled (hashes of strings
        # differ between processes), a pickle loads in either build, and loading checks it.
        return (_unpickle, (_values(self),))

    def __repr__(self) -> str:
        return (
            f"<State round {self.round} trick {self.trick_number} {self.phase.name.lower()}"
            f" actor {self.actor} players {self.config.players} {self.config.variant.value}>"
        )

    def _repr_svg_(self) -> str | None:
        """Jupyter shows the state as a picture of the whole table, every hand face up
        (:func:`shock_rules.svg.table`)."""
        return _pictures.picture(self)

    # -- readable accessors --------------------------------------------------------------------

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.config.players

    @property
    def trump(self) -> Card | None:
        """The trump card, or ``None`` before it is revealed."""
        return CARDS[self.trump_index] if self.trump_index >= 0 else None

    @property
    def trump_suit(self) -> Suit | None:
        """The trump suit, or ``None`` before the trump card is revealed."""
        return CARDS[self.trump_index].suit if self.trump_index >= 0 else None

    @property
    def lead_suit(self) -> Suit | None:
        """The suit of the first face-up card of the current trick, if any (K8)."""
        return lead_suit(self.trick)

    @property
    def lead_seat(self) -> int:
        """The leader of the current trick in the rulebook's sense, or -1 outside a trick.

        :attr:`leader` is the seat that opened the trick (the order of play starts there). If
        the leader withdraws, the next player clockwise still in the round becomes the leader
        of that trick and sets the lead suit (WITHDRAW-4, K8): once a card is face up, this is
        the seat that played the first one; before, the first seat from :attr:`leader`
        clockwise that is still in the round.
        """
        return lead_seat(self.phase, self.leader, self.trick, self.status)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """Return a seat's hand, in card order."""
        return cards_of(self.hand_masks[check_seat(seat, self.config.players)])

    def hand_size(self, seat: int) -> int:
        """Return how many cards a seat holds."""
        return self.hand_masks[check_seat(seat, self.config.players)].bit_count()

    def seat_status(self, seat: int) -> Status:
        """Return whether a seat is in the round, withdrawn or shocked."""
        return self.status[check_seat(seat, self.config.players)]

    def in_round(self) -> tuple[int, ...]:
        """Return the seats still in the round."""
        return tuple(i for i, s in enumerate(self.status) if s is Status.IN)

    @property
    def covered_masks(self) -> tuple[int, ...]:
        """Per seat, which of its poison cards a potion covers (derived from
        :attr:`potion_on_masks`)."""
        covered = covered_mask(self.potion_on_masks)
        return tuple([m & covered for m in self.poison_masks])

    def poisons(self, seat: int) -> tuple[PoisonCard, ...]:
        """Return the poison number cards in front of a seat, covered or not, each with the
        potion lying on it (POTION-6)."""
        ed = self.config.edition
        seat = check_seat(seat, self.config.players)
        on = self.potion_on_masks
        out = []
        for c in cards_of(self.poison_masks[seat]):
            potion = next((POTIONS[k] for k, m in enumerate(on) if m == c.bit), None)
            out.append(PoisonCard(c, ed.poison_type(c) or "", potion is not None, potion))
        return tuple(out)

    def potions(self, seat: int) -> tuple[Card, ...]:
        """Return the potion cards in front of a seat (laid on a poison and stored)."""
        return cards_of(self.potion_masks[check_seat(seat, self.config.players)])

    def stored_potions(self, seat: int) -> int:
        """Return how many potions a seat keeps for later: those lying on no poison (K16)."""
        held = self.potion_masks[check_seat(seat, self.config.players)]
        return sum(1 for bit, on in zip(POTION_BITS, self.potion_on_masks, strict=True)
                   if held & bit and not on)

    def poison_count(self, seat: int, poison: str) -> int:
        """Return a seat's count of a poison type (K15): its uncovered poison cards of the
        type plus, while it is in the round, the chest poison cards of the type in the centre
        (a seat out of the round is not affected by new poison cards: POISON-3)."""
        seat = check_seat(seat, self.config.players)
        types = self.config.edition.poison_types
        if type(poison) is not str or poison not in types:
            raise InvalidArgumentError(
                f"invalid poison {quoted(poison)}: expected one of {', '.join(types)}")
        return poison_counts(self, seat)[types.index(poison)]

    @property
    def discard(self) -> tuple[Card, ...]:
        """Return the number-card discard pile (face-up and face-down cards)."""
        return cards_of(self.discard_mask)

    def face_down(self, seat: int) -> tuple[Card, ...]:
        """Return the cards a seat played face down this round (trick or discard pile)."""
        return cards_of(self.face_down_masks[check_seat(seat, self.config.players)])

    @property
    def deck_size(self) -> int:
        """The number of cards in the dungeon deck."""
        return self.pool_mask.bit_count()

    @property
    def chest_deck_size(self) -> int:
        """The number of cards in the chest deck."""
        return sum(self.chest_deck)

    @property
    def chest_centre_cards(self) -> tuple[ChestCard, ...]:
        """The chest poison cards in the centre of the table."""
        return self.tables.chest_list(self.chest_centre)

    @property
    def chest_discard_cards(self) -> tuple[ChestCard, ...]:
        """The chest gem cards in the chest discard pile."""
        return self.tables.chest_list(self.chest_discard)

    @property
    def chest_deck_cards(self) -> tuple[ChestCard, ...]:
        """The chest cards still in the chest deck (public: K34)."""
        return self.tables.chest_list(self.chest_deck)

    @property
    def trick_gems(self) -> int:
        """The gems on the cards of the current trick."""
        return sum(p.gems for p in self.trick)


class _TrickPlay(Protocol):
    """A card of a trick: who played it, whether face up, and the card when it is shown (a
    Play, or a view's TrickCard)."""

    @property
    def seat(self) -> int: ...

    @property
    def face_up(self) -> bool: ...

    @property
    def card(self) -> Card | None: ...


def lead_suit(trick: Sequence[_TrickPlay]) -> Suit | None:
    """Return the suit of the first face-up card of a trick, or ``None`` (K8): a face-down
    card never sets the lead suit."""
    for p in trick:
        if p.face_up and p.card is not None:
            return p.card.suit
    return None


def lead_seat(
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


def poison_counts(state: State, seat: int) -> list[int]:
    """Return a seat's count of each poison type (K15); the centre counts only while the seat
    is in the round (POISON-3)."""
    t = state.tables
    centre = (t.centre_poisons(state.chest_centre) if state.status[seat] is Status.IN
              else [0] * len(t.type_masks))
    return t.poison_counts(
        state.poison_masks[seat] & ~covered_mask(state.potion_on_masks), centre)


#: State's fields, in the constructor's order.
FIELDS: Final[tuple[str, ...]] = (
    "config", "tables", "phase", "round", "trick_number", "leader", "actor", "trick",
    "hand_masks", "pool_mask", "trump_index", "discard_mask", "face_down_masks", "status",
    "on_bag", "in_bag", "supply", "poison_masks", "potion_masks", "potion_on_masks", "void_suits",
    "chest_deck", "chest_discard", "chest_centre", "revealed", "last_winner", "round_leader",
    "events", "step",
)
#: The fields that equality and the hash leave out (shared tables and history).
_NOT_EQ: Final = frozenset({"tables", "events", "step"})
# C-level getters of a state's field values: a key or a pickle reads them in one call.
_key: Final = attrgetter(*(name for name in FIELDS if name not in _NOT_EQ))
_values: Final = attrgetter(*FIELDS)

# ``attrs.fields(State)`` and so ``attrs.asdict`` read this description, made by attrs from
# the same names (set by name: mypyc compiles no assignment to it).
setattr(State, "__attrs_attrs__", getattr(  # noqa: B009, B010
    attrs.make_class("State", {name: attrs.field(eq=name not in _NOT_EQ) for name in FIELDS},
                     frozen=True),
    "__attrs_attrs__"))


def not_a_state(value: object) -> TypeError:
    """Return the error for an argument that is no :class:`State`: a ``TypeError``, as Python
    raises for an argument of the wrong type (the compiled build's own check raises one too)."""
    return TypeError(f"expected a State, not {type(value).__name__}")


def unchecked_replace(state: State, **changes: object) -> State:
    """Return ``state`` with the fields in ``changes`` changed and NOT checked: for tests that
    need a state no legal play reaches (the package never calls it on outside data).

    Raise :class:`~shock_rules.InvalidArgumentError` for a name that is no field.
    """
    unknown = sorted(set(changes) - set(FIELDS))
    if unknown:
        raise InvalidArgumentError(
            f"invalid field {quoted(unknown[0])}: a State has no such field")
    fields: dict[str, Any] = dict(zip(FIELDS, _values(state), strict=True))
    fields.update(changes)
    return State(**fields)


def _no_check(state: State) -> None:
    raise RuntimeError("check_state is not installed (shock_rules._rules.check sets it)")


#: The check of :meth:`State.replace` and of unpickling: ``check.check_state``, which installs
#: itself here when imported (it reads the rule modules, which read this one, so this module
#: cannot import it).
check: Callable[[State], None] = _no_check


def _unpickle(values: tuple[Any, ...]) -> State:
    """Return the pickled state of these field values, checked (a pickle is outside data)."""
    if type(values) is not tuple or len(values) != len(FIELDS):
        raise InvalidStateError("invalid state: a pickle of a State holds its field values")
    state = State(**dict(zip(FIELDS, values, strict=True)))
    check(state)
    return state


class _Blank:
    """An object that takes any attribute (the pure build's constructor writes on one)."""


#: Whether :class:`State` is a native class (the compiled build), with no attribute dict: the
#: one fact about the build that the package reads (``draft.py`` derives states by it).
NATIVE: Final = "__dict__" not in vars(State)

if not NATIVE:
    # The pure build's constructor: ``State.__setattr__`` refuses every write, so the class's
    # own ``__init__`` writes the fields on a blank object, whose dict becomes the state's.
    _init = State.__init__

    @functools.wraps(_init)  # help() and IDEs show the declaration's signature
    def _pure_init(self: State, **fields: Any) -> None:
        blank = object.__new__(_Blank)
        _init(blank, **fields)  # type: ignore[arg-type]  # writes the fields on the blank
        object.__setattr__(self, "__dict__", blank.__dict__)

    def _refuse_delete(self: State, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    # By setattr: mypy refuses an assignment to a method.
    setattr(State, "__init__", _pure_init)  # noqa: B010
    setattr(State, "__delattr__", _refuse_delete)  # noqa: B010
