"""What a seat, or a spectator, may see of a state (MK-INFO-1).

A :class:`View` is the only thing a player, a bot or a client should receive: every discard
top and pile size, every draw-pile size, every seat's count of Gem cards and its penalties in
force, the decks' sizes; the values of the viewer's own Gem cards; the drawn Gem cards to the
slap's winner and to the *Orcolar* player who takes them (M30); an *Óculos Geek* target's Gem
cards to a holder while its window is open; everyone's Gem cards at the end. Never the contents
of a draw pile or the order of a deck, not even in its events.
"""

from __future__ import annotations

import attrs

from shock_rules import _pictures
from shock_rules._errors import check_seat

from ._cards import Action, GameConfig
from ._engine import legal_actions, not_a_state
from ._events import EndReason, Event, visible_events
from ._state import Phase, State

__all__ = ["View", "spectator_view", "view"]


@attrs.frozen
class View:
    """A position as one seat (``seat`` ``None``: a spectator) sees it (MK-INFO-1)."""

    #: The game's configuration (public).
    config: GameConfig
    #: The viewer's seat, or ``None`` for a spectator.
    seat: int | None
    #: How many actions were applied since the game began: the step of this position.
    step: int
    #: What the game waits for.
    phase: Phase
    #: The seat whose turn it is to turn up a card (MK-TURN-1), or ``None``.
    to_move: int | None
    #: The face on top of each discard pile, or ``None`` for an empty pile.
    tops: tuple[int | None, ...]
    #: How many cards each discard pile holds.
    discard_sizes: tuple[int, ...]
    #: How many cards each draw pile holds.
    draw_sizes: tuple[int, ...]
    #: How many Gem cards each seat keeps (public, M14).
    gem_counts: tuple[int, ...]
    #: Each seat's Gem cards when the viewer may see them, else ``None`` (M14, M30).
    gems: tuple[tuple[str, ...] | None, ...]
    #: Each seat's penalties in force, by name, in the order taken (M30).
    penalties: tuple[tuple[str, ...], ...]
    #: The special Gem cards played so far, in order.
    played: tuple[str, ...]
    #: How many cards the Gem deck holds.
    gem_deck_size: int
    #: How many cards the Penalty deck holds.
    penalty_deck_size: int
    #: Which seats are still in the game.
    in_game: tuple[bool, ...]
    #: The winner of the slap whose award window is open, or ``None``.
    award_winner: int | None
    #: Who takes that slap's Gem cards (the winner, or the *Orcolar* player), or ``None``.
    award_taker: int | None
    #: The Gem cards drawn at that slap, to its winner and its taker only (M30), else ``None``.
    award_drawn: tuple[str, ...] | None
    #: The eliminated seats an *Óculos Geek* may take a Gem card from now (MK-SPECIAL-4).
    oculos_targets: tuple[int, ...]
    #: Why the game ended, or ``None``.
    end_reason: EndReason | None
    #: The viewer's legal actions now (several seats may act at once, MK-ACT-1).
    legal_actions: tuple[Action, ...]
    #: The events of the step that made the position, as the viewer may see them.
    events: tuple[Event, ...]

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.config.players

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.end_reason is not None

    @property
    def is_chance(self) -> bool:
        """Whether chance acts next."""
        return self.phase.is_chance

    @property
    def match_shows(self) -> bool:
        """Whether two or more discard tops show the same face (MK-SLAP-1)."""
        faces = [f for f in self.tops if f is not None]
        return len(faces) != len(set(faces))

    def _repr_svg_(self) -> str | None:
        """Jupyter shows the view as a picture of the table (:func:`shock_rules.svg.view`)."""
        return _pictures.picture(self)


def _view(state: State, seat: int | None) -> View:
    n = state.config.players
    over = state.end_reason is not None
    peek = (seat is not None and state.in_game[seat] and "Oculos" in state.gems[seat])
    gems = tuple(g if over or s == seat or (peek and s in state.oculos) else None
                 for s, g in enumerate(state.gems))
    aw = state.award
    drawn = None
    if (aw is not None and seat in (aw.winner, aw.taker)
            and (state.pending is None or state.pending.phase is not Phase.GEM)):
        drawn = aw.drawn  # M30: to the slap's winner, and to the Orcolar player who takes them
    return View(
        config=state.config, seat=seat, step=state.step, phase=state.phase,
        to_move=None if over else state.to_move, tops=state.tops(),
        discard_sizes=tuple(len(d) for d in state.discards),
        draw_sizes=tuple(state.draw_size(s) for s in range(n)),
        gem_counts=tuple(len(g) for g in state.gems), gems=gems, penalties=state.penalties,
        played=state.played, gem_deck_size=state.gem_deck_size,
        penalty_deck_size=len(state.penalty_deck), in_game=state.in_game,
        award_winner=None if aw is None else aw.winner,
        award_taker=None if aw is None else aw.taker, award_drawn=drawn,
        oculos_targets=state.oculos, end_reason=state.end_reason,
        legal_actions=() if seat is None else legal_actions(state, seat),
        events=visible_events(state.events, seat))


def view(state: State, seat: int) -> View:
    """Return what ``seat`` may see of ``state`` (MK-INFO-1). Raise
    :class:`~shock_rules.InvalidArgumentError` for a seat that is not one of the game, and
    ``TypeError`` for what is not a state."""
    if type(state) is not State:
        raise not_a_state(state)
    return _view(state, check_seat(seat, state.config.players))


def spectator_view(state: State) -> View:
    """Return what a spectator may see of ``state``: the public part only."""
    if type(state) is not State:
        raise not_a_state(state)
    return _view(state, None)
