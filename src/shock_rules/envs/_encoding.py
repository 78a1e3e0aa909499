"""The fixed-size encoding of a seat's view, and the fixed indexing of decision actions.

Every adapter of :mod:`shock_rules.envs` observes a game through :func:`encode`, which reads a
:class:`~shock_rules.PlayerView` only -- never the full state -- so an agent cannot learn from
another seat's hand, the undealt cards or another seat's face-down cards (K34). Two positions
that a seat cannot tell apart therefore encode to the same vector for that seat.

Seats are encoded *relative to the viewer*: slot 0 is the viewer, slot 1 the next seat
clockwise, and so on. The per-seat and per-trick-card blocks have 5 slots (the most players);
the slots past the player count stay zero. A one-hot block is all zero when its value is
unknown or absent (no trump card yet, no leader yet, nobody to move).

The layout, in order (``P`` = 5 seat slots, ``K`` = the edition's distinct chest cards, 7 in the
default edition; :func:`layout` lists each field with its offset and size):

=================  ==========  ==============================================================
field              size        content
=================  ==========  ==============================================================
players            3           one-hot: 3, 4 or 5 players
variant            1           1 for the simplified variant, 0 for the standard one
seat               5           one-hot: the viewer's own (absolute) seat number
round              5           one-hot: round 1-5
trick_number       1           the trick within the round, from 1
phase              8           one-hot: :class:`~shock_rules.Phase` (DEAL ... OVER)
to_move            P           one-hot relative seat that must decide now (zero at chance)
my_turn            1           1 when the viewer must decide
leader             P           relative seat that opened the current trick
lead_seat          P           relative seat leading the trick in the rulebook's sense
round_leader       P           relative seat that led the round's first trick
last_winner        P           relative seat that last won a trick this round
trump              44          one-hot: the trump card (card index, see below)
trump_suit         4           one-hot: the trump suit
lead_suit          4           one-hot: the suit of the trick's first face-up card
hand               44          the viewer's hand, one bit per card
own_face_down      44          the cards the viewer played face down this round
discard            44          the face-up cards of the number-card discard pile
trick              5 x 52      per trick card in play order: present (1), relative seat (P),
                               face up (1), the card (44; zero when another seat's card lies
                               face down), gems on it (1)
seats              P x 20      per relative seat: present (1), status one-hot (3: in,
                               withdrawn, shocked), cards in hand (1), face-down cards this
                               round (1), gems on the bag (1), gems in the bag (1), uncovered
                               poison cards per poison type (3), covered ones per type (3),
                               potion cards (1), stored potions (1), void suits (4)
deck_size          1           cards in the dungeon deck
supply             1           the supply's balance (may be negative, K29)
chest_deck         K           chest cards left in the chest deck, per kind
chest_discard      K           chest gem cards in the chest discard pile, per kind
chest_centre       K           chest poison cards in the centre of the table, per kind
revealed           1           chest cards revealed in the current challenge (0-3)
trick_gems         1           the gems on the cards of the current trick
=================  ==========  ==============================================================

Cards are indexed 0-43 suit-major in the rulebook's suit order (hearts, spades, diamonds,
clubs): ``index = 11 * suit + rank - 1``, so 1H is 0, 11H is 10, 1S is 11 and 11C is 43. Chest
kinds follow the edition's order (``GameConfig.edition.chest``). Bits and one-hots are 0/1;
counts are raw (not scaled); only ``supply`` can be negative. Each field declares bounds
(:attr:`Field.low`, :attr:`Field.high`) for an observation space; gem counts are bounded by
:data:`GEM_BOUND`.

Decision actions have fixed indexes, :data:`NUM_ACTIONS` in all (chance outcomes are not agent
actions; the adapters resolve them or, for OpenSpiel, number them separately):

============  =========  ==========================================
indexes       action     meaning
============  =========  ==========================================
0-43          play       play card *i* face up (K35)
44-87         withdraw   leave the round, playing card *i* face down
88-131        down       play card *i* face down when out of the round
132-175       cover      cover poison card *i* with a potion (K16)
176           reveal     reveal another chest card (K22)
177           stop       end the chest challenge (K22)
============  =========  ==========================================
"""

from __future__ import annotations

import array
import operator
from collections.abc import Iterable
from typing import Final

import attrs

from .._errors import (
    ConfigError,
    InvalidArgumentError,
    ShockError,
    check_seat,
    quoted,
)
from .._info.view import PlayerView
from .._rules.actions import COVER, DOWN, PLAY, REVEAL, STOP, WITHDRAW, Action
from .._rules.cards import NUM_CARDS, Card
from .._rules.config import MAX_PLAYERS, MIN_PLAYERS, ROUNDS, GameConfig, Variant
from .._rules.state import Phase, State, Status, not_a_state
from .._rules.tables import Tables, tables_for
from ._observe import write_mask, write_seat

__all__ = [
    "GEM_BOUND",
    "NUM_ACTIONS",
    "EncodingError",
    "Field",
    "action_index",
    "action_mask",
    "action_of",
    "encode",
    "encode_seat",
    "layout",
    "mask_seat",
    "observation_size",
]

#: The number of decision-action indexes (see the module's table).
NUM_ACTIONS: Final = 4 * NUM_CARDS + 2

_DECISIONS: Final[tuple[Action, ...]] = PLAY + WITHDRAW + DOWN + COVER + (REVEAL, STOP)
_INDEX: Final = {a: i for i, a in enumerate(_DECISIONS)}
assert len(_DECISIONS) == NUM_ACTIONS

#: The bound the encoding declares for gem counts (and the supply's deficit). It only sizes the
#: observation space: the supply starts at 280 and a game hands out far fewer gems than this.
GEM_BOUND: Final = 10_000.0

_SLOTS: Final = MAX_PLAYERS
_TRICK_SLOT: Final = 1 + _SLOTS + 1 + NUM_CARDS + 1
_POISON_TYPES: Final = 3  # an edition has exactly three poison types (K30)
_STATUSES: Final = len(Status)
_CARD_AT: Final = 2 + _SLOTS  # where a trick slot's card block starts
_SEAT_SLOT: Final = 1 + _STATUSES + 4 + 2 * _POISON_TYPES + 2 + 4


class EncodingError(ShockError, ValueError):
    """An action index is out of range or not an integer, or a view cannot be encoded (a
    spectator's view)."""


def _check_config(func: str, config: object) -> None:
    """Raise :class:`~shock_rules.ConfigError` unless ``config`` is a :class:`GameConfig`."""
    if not isinstance(config, GameConfig):
        raise ConfigError(f"{func}() needs a GameConfig, not {quoted(config)}")


def _index_of(value: object) -> int | None:
    """Return ``value`` as an action index if it is an integer -- a Python or NumPy integer,
    or a 0-d integer array, as Gymnasium's ``Discrete`` spaces sample them --, else ``None``:
    never a bool (``True`` is not action 1) nor a float (1.5 is not truncated to 1)."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


@attrs.frozen
class Field:
    """One field of the encoding: its name, where it starts and how many entries it has."""

    #: The field's name, as in the module's table.
    name: str
    #: The index of its first entry in the vector.
    offset: int
    #: Its number of entries.
    size: int
    #: The largest value an entry takes (1 for bits and one-hots).
    high: float
    #: The smallest value an entry takes (0 except for the supply, which may be negative, K29).
    low: float = 0.0

    @property
    def stop(self) -> int:
        """The index just past the field's last entry."""
        return self.offset + self.size


def layout(config: GameConfig) -> tuple[Field, ...]:
    """Return the fields of the encoding for games of ``config``, in vector order.

    Only the chest fields depend on the config (on its edition's chest cards). Raise
    :class:`~shock_rules.ConfigError` if ``config`` is not a :class:`~shock_rules.GameConfig`.
    """
    _check_config("layout", config)
    return _plan(tables_for(config)).fields


class _Plan:
    """The layout of one configuration's encoding, made once: its fields, their offsets by
    name and the vector's size (building the fields costs more than encoding a view)."""

    __slots__ = ("fields", "offset", "size", "tables", "zeros")

    def __init__(self, tables: Tables, fields: tuple[Field, ...]) -> None:
        self.tables = tables  # kept alive: the plans are found by the tables' identity
        self.fields = fields
        self.offset = {f.name: f.offset for f in fields}
        self.size = fields[-1].stop
        #: A zero vector of float32 to copy (a slice copy costs less than making one).
        self.zeros = array.array("f", bytes(4 * self.size))


_PLANS: dict[int, _Plan] = {}


def _plan(t: Tables) -> _Plan:
    """Return the layout of games with the lookup tables ``t`` (one per configuration)."""
    found = _PLANS.get(id(t))
    if found is None or found.tables is not t:
        found = _PLANS[id(t)] = _Plan(t, _fields(t))
    return found


def _fields(t: Tables) -> tuple[Field, ...]:
    kinds = len(t.chest_cards)
    chest = float(sum(t.chest_counts))
    cards = float(NUM_CARDS)
    spec: list[tuple[str, int, float, float]] = [
        ("players", MAX_PLAYERS - MIN_PLAYERS + 1, 1.0, 0.0),
        ("variant", 1, 1.0, 0.0),
        ("seat", _SLOTS, 1.0, 0.0),
        ("round", ROUNDS, 1.0, 0.0),
        ("trick_number", 1, cards, 0.0),
        ("phase", len(Phase), 1.0, 0.0),
        ("to_move", _SLOTS, 1.0, 0.0),
        ("my_turn", 1, 1.0, 0.0),
        ("leader", _SLOTS, 1.0, 0.0),
        ("lead_seat", _SLOTS, 1.0, 0.0),
        ("round_leader", _SLOTS, 1.0, 0.0),
        ("last_winner", _SLOTS, 1.0, 0.0),
        ("trump", NUM_CARDS, 1.0, 0.0),
        ("trump_suit", 4, 1.0, 0.0),
        ("lead_suit", 4, 1.0, 0.0),
        ("hand", NUM_CARDS, 1.0, 0.0),
        ("own_face_down", NUM_CARDS, 1.0, 0.0),
        ("discard", NUM_CARDS, 1.0, 0.0),
        ("trick", _SLOTS * _TRICK_SLOT, GEM_BOUND, 0.0),
        ("seats", _SLOTS * _SEAT_SLOT, GEM_BOUND, 0.0),
        ("deck_size", 1, cards, 0.0),
        ("supply", 1, float(t.supply), -GEM_BOUND),
        ("chest_deck", kinds, chest, 0.0),
        ("chest_discard", kinds, chest, 0.0),
        ("chest_centre", kinds, chest, 0.0),
        ("revealed", 1, 3.0, 0.0),
        ("trick_gems", 1, GEM_BOUND, 0.0),
    ]
    fields = []
    offset = 0
    for name, size, high, low in spec:
        fields.append(Field(name, offset, size, high, low))
        offset += size
    return tuple(fields)


def observation_size(config: GameConfig) -> int:
    """Return the length of :func:`encode`'s vector for games of ``config``."""
    _check_config("observation_size", config)
    return _plan(tables_for(config)).size


def encode(view: PlayerView) -> list[float]:
    """Return the fixed-size vector of a seat's view (layout in the module docstring).

    Raise :class:`EncodingError` for a spectator's view: the encoding is a seat's;
    :class:`~shock_rules.InvalidArgumentError` (a ``TypeError``) if ``view`` is not a view.
    """
    if type(view) is not PlayerView:
        raise InvalidArgumentError(f"expected a PlayerView, not {type(view).__name__}")
    seat = view.seat
    if seat is None:
        raise EncodingError("cannot encode a spectator's view: encode a seat's view")
    config = view.config
    n = config.players
    t = tables_for(config)
    plan = _plan(t)
    f = plan.offset
    v = [0.0] * plan.size
    _encode_game(v, f, view, seat, config)
    _encode_turn(v, f, view, seat, n)
    _encode_cards(v, f, view)
    _encode_trick(v, f["trick"], view, seat, n)
    _encode_seats(v, f["seats"], view, seat, n, config.edition.poison_types)
    _encode_counts(v, f, view, t)
    return v


def _one_hot_seat(v: list[float], offset: int, s: int, seat: int, n: int) -> None:
    """Set the one-hot entry of seat ``s`` relative to the viewer ``seat``; none if ``s`` < 0."""
    if s >= 0:
        v[offset + (s - seat) % n] = 1.0


def _bits(v: list[float], offset: int, cards: Iterable[Card]) -> None:
    """Set one entry per card, at ``offset`` plus the card's index."""
    for c in cards:
        v[offset + c.index] = 1.0


def _encode_game(v: list[float], f: dict[str, int], view: PlayerView, seat: int,
                 config: GameConfig) -> None:
    """Encode the game's shape and progress: players, variant, own seat, round, trick, phase."""
    v[f["players"] + config.players - MIN_PLAYERS] = 1.0
    v[f["variant"]] = 1.0 if config.variant is Variant.SIMPLIFIED else 0.0
    v[f["seat"] + seat] = 1.0
    v[f["round"] + view.round - 1] = 1.0
    v[f["trick_number"]] = float(view.trick_number)
    v[f["phase"] + int(view.phase)] = 1.0


def _encode_turn(v: list[float], f: dict[str, int], view: PlayerView, seat: int,
                 n: int) -> None:
    """Encode who must move and who led, relative to the viewer."""
    to_move = view.to_move
    if to_move is not None:
        _one_hot_seat(v, f["to_move"], to_move, seat, n)
    v[f["my_turn"]] = 1.0 if view.my_turn else 0.0
    _one_hot_seat(v, f["leader"], view.leader, seat, n)
    _one_hot_seat(v, f["lead_seat"], view.lead_seat, seat, n)
    _one_hot_seat(v, f["round_leader"], view.round_leader, seat, n)
    _one_hot_seat(v, f["last_winner"], view.last_winner, seat, n)


def _encode_cards(v: list[float], f: dict[str, int], view: PlayerView) -> None:
    """Encode the trump, the lead suit, and the cards the viewer may know (K34)."""
    if view.trump is not None:
        v[f["trump"] + view.trump.index] = 1.0
        v[f["trump_suit"] + int(view.trump.suit)] = 1.0
    lead = view.lead_suit
    if lead is not None:
        v[f["lead_suit"] + int(lead)] = 1.0
    _bits(v, f["hand"], view.hand)
    _bits(v, f["own_face_down"], view.own_face_down)
    _bits(v, f["discard"], view.discard)


def _encode_trick(v: list[float], offset: int, view: PlayerView, seat: int, n: int) -> None:
    """Encode each card of the current trick in its slot, in play order."""
    for i, tc in enumerate(view.trick):
        base = offset + i * _TRICK_SLOT
        v[base] = 1.0
        v[base + 1 + (tc.seat - seat) % n] = 1.0
        v[base + 1 + _SLOTS] = 1.0 if tc.face_up else 0.0
        # Another seat's face-down card is unknown to the viewer (K34): its card block stays 0.
        if tc.card is not None:
            v[base + 2 + _SLOTS + tc.card.index] = 1.0
        v[base + 2 + _SLOTS + NUM_CARDS] = float(tc.gems)


def _encode_seats(v: list[float], offset: int, view: PlayerView, seat: int, n: int,
                  types: tuple[str, ...]) -> None:
    """Encode the public facts of each seat in its slot, relative to the viewer."""
    for sv in view.seats:
        base = offset + ((sv.seat - seat) % n) * _SEAT_SLOT
        v[base] = 1.0
        v[base + 1 + int(sv.status)] = 1.0
        k = base + 1 + len(Status)
        v[k] = float(sv.hand_size)
        v[k + 1] = float(sv.face_down_count)
        v[k + 2] = float(sv.on_bag)
        v[k + 3] = float(sv.in_bag)
        k += 4
        for pc in sv.poisons:
            v[k + types.index(pc.poison) + (_POISON_TYPES if pc.covered else 0)] += 1.0
        k += 2 * _POISON_TYPES
        v[k] = float(len(sv.potions))
        v[k + 1] = float(sv.stored_potions)
        for s in sv.void_suits:
            v[k + 2 + int(s)] = 1.0


def _encode_counts(v: list[float], f: dict[str, int], view: PlayerView, t: Tables) -> None:
    """Encode the deck size, the supply, the chest piles per kind and the gems at stake."""
    v[f["deck_size"]] = float(view.deck_size)
    v[f["supply"]] = float(view.supply)
    for name, cards in (
        ("chest_deck", view.chest_deck),
        ("chest_discard", view.chest_discard),
        ("chest_centre", view.chest_centre),
    ):
        base = f[name]
        for c in cards:
            v[base + t.chest_index[c]] += 1.0
    v[f["revealed"]] = float(view.revealed)
    v[f["trick_gems"]] = float(view.trick_gems)


def encode_seat(state: State, seat: int) -> list[float]:
    """Return :func:`encode` of ``view(state, seat)``, written straight from the state: the
    same vector, entry for entry, from the same facts of the view (K34: the seat's own hand
    and face-down cards, and public facts only), without building the view (the adapters'
    observations: several times faster).

    Raise :class:`~shock_rules.InvalidArgumentError` for a seat that is not one of the game;
    ``TypeError`` if ``state`` is not a :class:`~shock_rules.State`.
    """
    if type(state) is not State:
        raise not_a_state(state)
    seat = check_seat(seat, state.config.players)
    plan = _plan(state.tables)
    v = array.array("d", bytes(8 * plan.size))
    write_seat(v, state, seat, plan.offset, plan.tables.type_masks)
    return v.tolist()


def encode_seat_f32(state: State, seat: int) -> array.array[float]:
    """:func:`encode_seat` as an ``array.array('f')``, for the adapters: numpy wraps it
    without a copy (``np.frombuffer``), where converting a list of Python floats costs as
    much as encoding it. The state and seat are the adapter's own (trusted)."""
    plan = _plan(state.tables)
    v = plan.zeros[:]
    write_seat(v, state, seat, plan.offset, plan.tables.type_masks)
    return v


def mask_seat(state: State, seat: int) -> list[int]:
    """Return :func:`action_mask` of ``view(state, seat).legal_actions``, from the state:
    the seat's legal decisions when it must decide now, else all zero."""
    if type(state) is not State:
        raise not_a_state(state)
    return list(write_mask(state, check_seat(seat, state.config.players), _INDEX))


def mask_seat_bytes(state: State, seat: int) -> bytearray:
    """:func:`mask_seat` as a ``bytearray``, for the adapters (numpy wraps it as int8 without
    a copy). The state and seat are the adapter's own (trusted)."""
    return write_mask(state, seat, _INDEX)


def action_index(action: Action) -> int:
    """Return the fixed index of a decision action (see the module's table).

    Raise :class:`EncodingError` for a chance outcome: it is not an agent's action;
    :class:`~shock_rules.InvalidArgumentError` if ``action`` is not an
    :class:`~shock_rules.Action`.
    """
    if not isinstance(action, Action):
        raise InvalidArgumentError(
            f"invalid action {quoted(action)}: expected an Action (parse text with Action.parse)"
        )
    found = _INDEX.get(action)
    if found is None:
        raise EncodingError(f"invalid action {str(action)!r}: a chance outcome has no index")
    return found


def action_of(index: int) -> Action:
    """Return the decision action with the fixed ``index``.

    Raise :class:`EncodingError` unless ``index`` is an integer 0 to ``NUM_ACTIONS - 1``: a
    Python or NumPy integer (or a 0-d integer array), never a bool or a float.
    """
    i = _index_of(index)
    if i is None or not 0 <= i < NUM_ACTIONS:
        raise EncodingError(
            f"invalid action index {quoted(index)}: expected an integer 0-{NUM_ACTIONS - 1}"
        )
    return _DECISIONS[i]


def action_mask(actions: Iterable[Action]) -> list[int]:
    """Return the 0/1 mask over the :data:`NUM_ACTIONS` indexes of the given legal actions
    (``view.legal_actions``); all zero when the viewer has nothing to decide.

    Raise :class:`~shock_rules.InvalidArgumentError` unless ``actions`` is an iterable of
    :class:`~shock_rules.Action` (and :class:`EncodingError` for a chance outcome).
    """
    if isinstance(actions, str) or not isinstance(actions, Iterable):
        raise InvalidArgumentError(
            f"invalid actions {quoted(actions)}: expected a list of Actions (view.legal_actions)"
        )
    mask = [0] * NUM_ACTIONS
    for a in actions:
        mask[action_index(a)] = 1
    return mask

