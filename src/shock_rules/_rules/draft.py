"""Deriving the next state: the draft every step changes and freezes, the fast path from a
dict of fields, and shared events (internal).

Every step copies the state's fields into a :class:`Work` (:func:`draft`), lets the rule
modules change them, and freezes the result once (:meth:`Work.freeze`,
:meth:`Work.freeze_with`). In the compiled build both classes are native and the draft copies
the fields one by one; in the pure build a draft *is* a copy of the state's attribute dict,
handed on to the next state when it is frozen. Per-seat fields stay tuples; a rule changes one
seat's entry with :func:`put` (a few hundred nanoseconds), which measured cheaper than
converting every per-seat field to a list and back on each step (about 2 us, see
``benchmarks/``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

from .bits import put
from .config import GameConfig
from .events import Event, Shocked
from .state import NATIVE, Phase, Play, State, Status, covered_mask
from .tables import Tables

_E = TypeVar("_E", bound=Event)
_IN: Final = Status.IN
_new: Final = object.__new__


# These helpers live here, not in state.py or events.py, because this module is compiled in
# the compiled build (those two define attrs classes, which mypyc cannot compile): called
# from compiled code they run without an interpreter frame.


def from_fields(fields: dict[str, object]) -> State:
    """Return the state made of ``fields``, unchecked (the dict must hold exactly the fields of
    :class:`State`; in the pure build the new state owns it)."""
    if NATIVE:
        return State(**fields)  # type: ignore[arg-type]  # the fields of a state, by name
    s = _new(State)
    _set_dict(s, fields)
    return s


# Events are immutable values, so the engine reuses the frequent ones instead of building
# each anew (an attrs constructor costs ~0.3 us; a trick or a chest reveal makes several).
_SHARED: Final[dict[tuple[object, ...], Event]] = {}


def shared(cls: type[_E], *args: object) -> _E:
    """Return the event ``cls(*args)``, made once and shared (its fields must be hashable)."""
    key = (cls, args)
    found = _SHARED.get(key)
    if found is None:
        if len(_SHARED) > 50_000:  # user editions can have many chest cards: stay bounded
            _SHARED.clear()
        found = _SHARED[key] = cls(*args)
    return found  # type: ignore[return-value]  # keyed by its class


def draft(state: State) -> Work:
    """Return a draft of the state after ``state``, with no events yet."""
    if NATIVE:
        return Work(state)
    w = _new(Work)  # a copy of the state's dict, without running Work.__init__
    fields = vars(state).copy()
    fields["events"] = []
    _set_work_dict(w, fields)
    return w


class Work:
    """The fields of :class:`State`, assignable, plus the list of the step's events.

    Make one with :func:`draft`. A draft is used once: :meth:`freeze` gives its fields to the
    new state. In the compiled build it is a native class that copies the state's fields one
    by one (a few nanoseconds each); in the pure build its attribute dict is a copy of the
    state's, handed on to the next state.
    """

    config: GameConfig
    tables: Tables
    phase: Phase
    round: int
    trick_number: int
    leader: int
    actor: int
    trick: tuple[Play, ...]
    hand_masks: tuple[int, ...]
    pool_mask: int
    trump_index: int
    discard_mask: int
    face_down_masks: tuple[int, ...]
    status: tuple[Status, ...]
    on_bag: tuple[int, ...]
    in_bag: tuple[int, ...]
    supply: int
    poison_masks: tuple[int, ...]
    potion_masks: tuple[int, ...]
    potion_on_masks: tuple[int, ...]
    void_suits: tuple[int, ...]
    chest_deck: tuple[int, ...]
    chest_discard: tuple[int, ...]
    chest_centre: tuple[int, ...]
    revealed: int
    last_winner: int
    round_leader: int
    #: The events of the step so far (a tuple in the state, a list while drafting).
    events: list[Event]
    #: The previous state's step count (the frozen state's is one more).
    step: int

    def __init__(self, state: State) -> None:
        # The compiled build's draft (see :func:`draft`): the fields, one by one.
        self.config = state.config
        self.tables = state.tables
        self.phase = state.phase
        self.round = state.round
        self.trick_number = state.trick_number
        self.leader = state.leader
        self.actor = state.actor
        self.trick = state.trick
        self.hand_masks = state.hand_masks
        self.pool_mask = state.pool_mask
        self.trump_index = state.trump_index
        self.discard_mask = state.discard_mask
        self.face_down_masks = state.face_down_masks
        self.status = state.status
        self.on_bag = state.on_bag
        self.in_bag = state.in_bag
        self.supply = state.supply
        self.poison_masks = state.poison_masks
        self.potion_masks = state.potion_masks
        self.potion_on_masks = state.potion_on_masks
        self.void_suits = state.void_suits
        self.chest_deck = state.chest_deck
        self.chest_discard = state.chest_discard
        self.chest_centre = state.chest_centre
        self.revealed = state.revealed
        self.last_winner = state.last_winner
        self.round_leader = state.round_leader
        self.step = state.step
        self.events = []

    def freeze(self) -> State:
        """Return the state this draft describes, with the step's events, one step on."""
        return self.freeze_with(tuple(self.events))

    def freeze_with(self, events: tuple[Event, ...]) -> State:
        """Return the state this draft describes, one step on, with ``events`` as the step's
        events (the draft's own list is left out)."""
        if NATIVE:
            return State(
                config=self.config, tables=self.tables, phase=self.phase, round=self.round,
                trick_number=self.trick_number, leader=self.leader, actor=self.actor,
                trick=self.trick, hand_masks=self.hand_masks, pool_mask=self.pool_mask,
                trump_index=self.trump_index, discard_mask=self.discard_mask,
                face_down_masks=self.face_down_masks, status=self.status, on_bag=self.on_bag,
                in_bag=self.in_bag, supply=self.supply, poison_masks=self.poison_masks,
                potion_masks=self.potion_masks, potion_on_masks=self.potion_on_masks,
                void_suits=self.void_suits, chest_deck=self.chest_deck,
                chest_discard=self.chest_discard, chest_centre=self.chest_centre,
                revealed=self.revealed, last_winner=self.last_winner,
                round_leader=self.round_leader, events=events, step=self.step + 1,
            )
        # The pure build: the draft's dict becomes the state's (from_fields inline: the hot
        # path); the draft is not used again.
        fields = vars(self)
        fields["events"] = events
        fields["step"] += 1
        state = _new(State)
        _set_dict(state, fields)
        return state

    def in_round(self) -> list[int]:
        """Return the seats still in the round."""
        return [i for i, s in enumerate(self.status) if s is _IN]

    def shock_type(self, seat: int) -> int:
        """Return the first poison type whose count (K15) reaches 2 for ``seat``, or -1."""
        poisons = self.poison_masks[seat]
        uncovered = poisons & ~covered_mask(self.potion_on_masks) if poisons else 0
        if not uncovered and not any(self.chest_centre):
            return -1  # nothing counts, so no count reaches 2 (after most tricks)
        t = self.tables
        counts = t.poison_counts(uncovered, t.centre_poisons(self.chest_centre))
        for ptype, count in enumerate(counts):
            if count >= 2:
                return ptype
        return -1

    def shock(self, seat: int, ptype: int) -> None:
        """Shock a seat (K18): its gems on the bag go back to the supply; it leaves the round."""
        lost = self.on_bag[seat]
        self.supply += lost
        self.on_bag = put(self.on_bag, seat, 0)
        self.status = put(self.status, seat, Status.SHOCKED)
        self.events.append(Shocked(seat, self.config.edition.poison_types[ptype], lost))

    def set_phase(self, phase: Phase, actor: int = -1) -> None:
        """Set what the game waits for next."""
        self.phase = phase
        self.actor = actor


def _dict_setter(cls: type) -> Callable[[Any, dict[str, object]], None]:
    """Return the setter of a pure class's ``__dict__`` slot: called directly, it replaces an
    object's attribute dict 20% faster than ``object.__setattr__(obj, "__dict__", ...)``."""
    if NATIVE:  # native classes have no attribute dict; nothing calls the setter there
        return _no_dict
    setter: Callable[[Any, dict[str, object]], None] = next(
        k.__dict__["__dict__"] for k in cls.__mro__ if "__dict__" in k.__dict__).__set__
    return setter


def _no_dict(obj: object, fields: dict[str, object]) -> None:
    raise TypeError(f"a native {type(obj).__name__} has no attribute dict")


_set_dict: Final = _dict_setter(State)
_set_work_dict: Final = _dict_setter(Work)
