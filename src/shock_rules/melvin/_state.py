"""Melvin Vs. Kronk's immutable state, and the small values it is made of.

The unseen Versus cards are kept as one pool of face counts, and each draw pile as a number of
shuffled (unseen) cards on top of a known part (MK-HIDDEN-1, a project decision): nobody has
seen a dealt card, so the face of a card taken from any shuffled part has probability (copies of
that face unseen) / (cards unseen), exactly the chance step M4 asks for.
"""

from __future__ import annotations

import enum

import attrs

from shock_rules import _pictures

from ._cards import GameConfig, gem_value
from ._events import EndReason, Event

__all__ = ["AwardWindow", "Pending", "Phase", "State", "best_seats", "match", "score_gems"]


class Phase(enum.Enum):
    """What the game waits for: a chance step (the first five), the players, or nothing."""

    #: Chance chooses the dealer (MK-SETUP-3).
    DEAL = "deal"
    #: Chance gives the face of a card turned up from a shuffled part (MK-HIDDEN-1).
    TURN_UP = "turn_up"
    #: Chance gives the face of a card moved from a shuffled part (MK-HIDDEN-1, M19).
    MOVE = "move"
    #: Chance draws a Gem card for a slap's award (MK-SLAP-2).
    GEM = "gem"
    #: Chance draws a Penalty card for a wrong slap (MK-SLAP-3).
    PENALTY = "penalty"
    #: The players: the seat to move turns up a card, anyone may slap, specials may be played.
    PLAY = "play"
    #: An award window is open (MK-SLAP-2): its taker chooses, specials may be played.
    AWARD = "award"
    #: The game is over (MK-END-1).
    OVER = "over"

    @property
    def is_chance(self) -> bool:
        """Whether chance acts in this phase."""
        return self in _CHANCE_PHASES


_CHANCE_PHASES = frozenset({Phase.DEAL, Phase.TURN_UP, Phase.MOVE, Phase.GEM, Phase.PENALTY})


@attrs.frozen
class Pending:
    """The chance step a state waits for: its ``phase`` (one of the chance phases), the seat it
    concerns (the seat turning up a card or drawing a penalty; -1 otherwise) and, for a
    turn-up, whether it is a turn's (``by_turn``) or *Amuleto Orc*'s, which is nobody's."""

    phase: Phase
    seat: int = -1
    by_turn: bool = False


@attrs.frozen
class AwardWindow:
    """The award window of a correct slap (M22): its ``winner``, the seat whose turn-up made
    the match (``maker``, M21), the Gem cards drawn so far and how many are to be drawn, who
    takes them (the winner, or the *Orcolar* player), and whether *Orcolar* or *Amuleto Orc*
    was played in it (only the first counts, M13)."""

    winner: int
    maker: int
    drawn: tuple[str, ...]
    to_draw: int
    taker: int
    special_played: bool = False


@attrs.frozen
class State:
    """A position of Melvin Vs. Kronk. Build one with :func:`~shock_rules.melvin.new_game` and
    :func:`~shock_rules.melvin.apply`; read one with :func:`~shock_rules.melvin.state_from_json`.

    Every secret is here (the faces of known draw-pile parts, the Gem cards of every seat): send
    a seat its :func:`~shock_rules.melvin.view`, never a state. Two states are equal when they
    are the same position, however they were reached (``events`` and ``step`` are left out).
    """

    #: The game's configuration.
    config: GameConfig
    #: The dealer, or ``None`` before the deal (MK-SETUP-3).
    dealer: int | None
    #: The unseen Versus cards, by face: ``pool[f - 1]`` copies of face ``f`` (MK-HIDDEN-1).
    pool: tuple[int, ...]
    #: Per seat, how many shuffled (unseen) cards lie on top of its draw pile.
    hidden: tuple[int, ...]
    #: Per seat, the faces of the known part of its draw pile under the shuffled part, top
    #: first (collected piles, moved cards, M8, M19).
    known: tuple[tuple[int, ...], ...]
    #: Per seat, its discard pile as (face, turn-up stamp) pairs, bottom first; only the top
    #: shows (R3).
    discards: tuple[tuple[tuple[int, int], ...], ...]
    #: How many cards were turned up so far: the stamp of the latest turn-up (M21).
    clock: int
    #: Gem cards on top of the Gem deck in a known order (returned by *Amuleto Orc*, M22).
    gem_top: tuple[str, ...]
    #: The rest of the Gem deck, shuffled: a multiset, in notation order.
    gem_pool: tuple[str, ...]
    #: The Penalty deck, shuffled: a multiset, in notation order.
    penalty_deck: tuple[str, ...]
    #: Per seat, its kept Gem cards in the order it got them.
    gems: tuple[tuple[str, ...], ...]
    #: The special Gem cards played, in the order they were played (they left the game).
    played: tuple[str, ...]
    #: Per seat, the Penalty cards in force on it, in the order it took them.
    penalties: tuple[tuple[str, ...], ...]
    #: Per seat, whether it is still in the game (MK-ELIM-1).
    in_game: tuple[bool, ...]
    #: The seat to move: the one whose turn it is to turn up a card, fixed when the turn
    #: passes and when that seat loses its last draw-pile card (MK-TURN-1); ``None`` when no
    #: seat still in the game has a card to turn up then.
    to_move: int | None
    #: Cards the seat to move turned up so far in this turn (*Jogue duas seguidas*, MK-PEN-3).
    flipped: int
    #: The chance step the state waits for, or ``None``.
    pending: Pending | None
    #: Cards still to move face down, one by one, as (from, to) seats (M19).
    transfers: tuple[tuple[int, int], ...]
    #: The open award window, or ``None`` (MK-SLAP-2).
    award: AwardWindow | None
    #: The eliminated seats whose Gem cards an *Óculos Geek* may take now (MK-SPECIAL-4).
    oculos: tuple[int, ...]
    #: Why the game ended, or ``None`` while it goes on (MK-END-1).
    end_reason: EndReason | None
    #: The events of the step that made this state (secrets included).
    events: tuple[Event, ...] = attrs.field(default=(), eq=False)
    #: How many actions (chance outcomes included) were applied since the game began.
    step: int = attrs.field(default=0, eq=False)

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.config.players

    @property
    def phase(self) -> Phase:
        """What the game waits for."""
        if self.pending is not None:
            return self.pending.phase
        if self.end_reason is not None:
            return Phase.OVER
        return Phase.PLAY if self.award is None else Phase.AWARD

    @property
    def over(self) -> bool:
        """Whether the game is over."""
        return self.end_reason is not None

    def draw_size(self, seat: int) -> int:
        """Return how many cards ``seat``'s draw pile holds."""
        return self.hidden[seat] + len(self.known[seat])

    def tops(self) -> tuple[int | None, ...]:
        """Return the face on top of each discard pile (``None`` when empty)."""
        return tuple(d[-1][0] if d else None for d in self.discards)

    @property
    def gem_deck_size(self) -> int:
        """The number of cards in the Gem deck."""
        return len(self.gem_top) + len(self.gem_pool)

    def _repr_svg_(self) -> str | None:
        """Jupyter shows the state as a picture of the table (:func:`shock_rules.svg.view`)."""
        return _pictures.picture(self)


def match(discards: tuple[tuple[tuple[int, int], ...], ...] | list[list[tuple[int, int]]]
           ) -> bool:
    """Return whether two or more of the discard piles' tops show the same face (M6)."""
    faces = [d[-1][0] for d in discards if d]
    return len(faces) != len(set(faces))


def score_gems(gems: tuple[tuple[str, ...], ...] | list[list[str]]) -> tuple[int, ...]:
    """Return each seat's score: the value of its kept Gem cards (MK-END-2)."""
    return tuple(sum(gem_value(g) for g in gs) for gs in gems)


def best_seats(scores: tuple[int, ...], in_game: tuple[bool, ...] | list[bool]) -> frozenset[int]:
    # MK-END-2: the highest score among the players still in the game; a tie is shared.
    best = max(s for s, live in zip(scores, in_game, strict=True) if live)
    return frozenset(s for s, v in enumerate(scores) if in_game[s] and v == best)
