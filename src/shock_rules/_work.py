"""A mutable working copy of a state, used while one step resolves a trick, a chest challenge
or a round change (internal).

The frequent steps (a card played mid-trick, a card dealt) build the next :class:`State`
directly; the rarer, many-sided steps copy the state into a :class:`Work`, let the rule modules
change it, and freeze it once. Per-seat fields are lists here and tuples in the state.
"""

from __future__ import annotations

from ._config import GameConfig, Tables
from ._events import Event
from ._state import Phase, Play, State, Status, from_fields


class Work:
    """The fields of :class:`State`, mutable, plus the events of the step."""

    __slots__ = (
        "actor", "chest_centre", "chest_deck", "chest_discard", "config", "covered",
        "discard", "events", "face_down", "hands", "in_bag", "last_winner", "leader", "on_bag",
        "phase", "poisons", "pool", "potions", "revealed", "round", "round_leader", "status",
        "supply", "tables", "trick", "trick_number", "trump", "voids",
    )

    def __init__(self, s: State, events: list[Event]) -> None:
        d = s.__dict__  # State keeps its fields in its attribute dict (see _state.py)
        self.config: GameConfig = d["config"]
        self.tables: Tables = d["tables"]
        self.phase: Phase = d["phase"]
        self.round: int = d["round"]
        self.trick_number: int = d["trick_number"]
        self.leader: int = d["leader"]
        self.actor: int = d["actor"]
        self.trick: tuple[Play, ...] = d["trick"]
        self.hands: list[int] = list(d["hand_masks"])
        self.pool: int = d["pool_mask"]
        self.trump: int = d["trump_index"]
        self.discard: int = d["discard_mask"]
        self.face_down: list[int] = list(d["face_down_masks"])
        self.status: list[Status] = list(d["status"])
        self.on_bag: list[int] = list(d["on_bag"])
        self.in_bag: list[int] = list(d["in_bag"])
        self.supply: int = d["supply"]
        self.poisons: list[int] = list(d["poison_masks"])
        self.covered: list[int] = list(d["covered_masks"])
        self.potions: list[int] = list(d["potion_masks"])
        self.voids: list[int] = list(d["void_suits"])
        self.chest_deck: list[int] = list(d["chest_deck"])
        self.chest_discard: list[int] = list(d["chest_discard"])
        self.chest_centre: list[int] = list(d["chest_centre"])
        self.revealed: int = d["revealed"]
        self.last_winner: int = d["last_winner"]
        self.round_leader: int = d["round_leader"]
        self.events = events

    def freeze(self) -> State:
        """Return the state this working copy describes, with the step's events."""
        return from_fields({
            "config": self.config, "tables": self.tables, "phase": self.phase,
            "round": self.round, "trick_number": self.trick_number, "leader": self.leader,
            "actor": self.actor, "trick": self.trick, "hand_masks": tuple(self.hands),
            "pool_mask": self.pool, "trump_index": self.trump, "discard_mask": self.discard,
            "face_down_masks": tuple(self.face_down), "status": tuple(self.status),
            "on_bag": tuple(self.on_bag), "in_bag": tuple(self.in_bag), "supply": self.supply,
            "poison_masks": tuple(self.poisons), "covered_masks": tuple(self.covered),
            "potion_masks": tuple(self.potions), "void_suits": tuple(self.voids),
            "chest_deck": tuple(self.chest_deck), "chest_discard": tuple(self.chest_discard),
            "chest_centre": tuple(self.chest_centre), "revealed": self.revealed,
            "last_winner": self.last_winner, "round_leader": self.round_leader,
            "events": tuple(self.events),
        })

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
