"""A mutable working copy of a state, used while one step resolves a trick, a chest challenge
or a round change (internal).

The frequent steps (a card played mid-trick, a card dealt) build the next :class:`State`
directly; the rarer, many-sided steps copy the state into a :class:`Work`, let the rule modules
change it, and freeze it once. Per-seat fields are lists here and tuples in the state.
"""

from __future__ import annotations

from ._config import Tables
from ._events import Event
from ._state import Phase, Play, State, Status


class Work:
    """The fields of :class:`State`, mutable, plus the events of the step."""

    __slots__ = (
        "actor", "chest_centre", "chest_deck", "chest_discard", "config", "covered",
        "discard", "events", "face_down", "hands", "in_bag", "last_winner", "leader", "on_bag",
        "phase", "poisons", "pool", "potions", "revealed", "round", "round_leader", "status",
        "supply", "tables", "trick", "trick_number", "trump", "voids",
    )

    def __init__(self, s: State, events: list[Event]) -> None:
        self.config = s.config
        self.tables: Tables = s.tables
        self.phase = s.phase
        self.round = s.round
        self.trick_number = s.trick_number
        self.leader = s.leader
        self.actor = s.actor
        self.trick: tuple[Play, ...] = s.trick
        self.hands = list(s.hand_masks)
        self.pool = s.pool_mask
        self.trump = s.trump_index
        self.discard = s.discard_mask
        self.face_down = list(s.face_down_masks)
        self.status = list(s.status)
        self.on_bag = list(s.on_bag)
        self.in_bag = list(s.in_bag)
        self.supply = s.supply
        self.poisons = list(s.poison_masks)
        self.covered = list(s.covered_masks)
        self.potions = list(s.potion_masks)
        self.voids = list(s.void_suits)
        self.chest_deck = list(s.chest_deck)
        self.chest_discard = list(s.chest_discard)
        self.chest_centre = list(s.chest_centre)
        self.revealed = s.revealed
        self.last_winner = s.last_winner
        self.round_leader = s.round_leader
        self.events = events

    def freeze(self) -> State:
        """Return the state this working copy describes, with the step's events."""
        return State(
            self.config, self.tables, self.phase, self.round, self.trick_number, self.leader,
            self.actor, self.trick, tuple(self.hands), self.pool, self.trump, self.discard,
            tuple(self.face_down), tuple(self.status), tuple(self.on_bag), tuple(self.in_bag),
            self.supply, tuple(self.poisons), tuple(self.covered), tuple(self.potions),
            tuple(self.voids), tuple(self.chest_deck), tuple(self.chest_discard),
            tuple(self.chest_centre), self.revealed, self.last_winner, self.round_leader,
            tuple(self.events),
        )

    def in_round(self) -> list[int]:
        """Return the seats still in the round."""
        return [i for i, s in enumerate(self.status) if s is Status.IN]

    def poison_count(self, seat: int, ptype: int) -> int:
        """Return a seat's count of poison type ``ptype`` (K15)."""
        t = self.tables
        n = (self.poisons[seat] & ~self.covered[seat] & t.type_masks[ptype]).bit_count()
        for kind, count in enumerate(self.chest_centre):
            if count and t.chest_poison[kind] == ptype:
                n += count
        return n

    def shock(self, seat: int, ptype: int) -> None:
        """Shock a seat (K18): its gems on the bag go back to the supply; it leaves the round."""
        from ._events import Shocked

        lost = self.on_bag[seat]
        self.supply += lost
        self.on_bag[seat] = 0
        self.status[seat] = Status.SHOCKED
        self.events.append(Shocked(seat, self.config.edition.poison_types[ptype], lost))

    def set_phase(self, phase: Phase, actor: int = -1) -> None:
        """Set what the game waits for next."""
        self.phase = phase
        self.actor = actor
