"""What a seat, or a spectator, may see of a state (M14, M30)."""

from __future__ import annotations

from dataclasses import dataclass

from ._engine import Event, State, _check_seat, _mover

__all__ = ["View", "spectator_view", "view"]


@dataclass(frozen=True)
class View:
    """A state as ``seat`` sees it (``None``: a spectator). ``gems[s]`` is a seat's Gem cards
    when visible to the viewer, else ``None``; ``gem_counts`` are public (M14)."""

    seat: int | None
    players: int
    tops: tuple[int | None, ...]
    discard_sizes: tuple[int, ...]
    draw_sizes: tuple[int, ...]
    gem_counts: tuple[int, ...]
    gems: tuple[tuple[str, ...] | None, ...]
    penalties: tuple[tuple[str, ...], ...]
    gem_deck_size: int
    penalty_deck_size: int
    in_game: tuple[bool, ...]
    to_move: int | None
    award_winner: int | None
    award_taker: int | None
    award_drawn: tuple[str, ...] | None
    oculos_targets: tuple[int, ...]
    over: bool
    events: tuple[str, ...]


def _visible(e: Event, seat: int | None) -> bool:
    return e.seats is None or (seat is not None and seat in e.seats)


def view(state: State, seat: int | None) -> View:
    """What ``seat`` sees: its own Gem cards only, everyone's at the end (M14, M30); the drawn
    Gem cards if it takes them; the Gem cards of an Óculos Geek target if it holds the card
    (M13); never draw-pile contents or deck order."""
    if not isinstance(state, State):
        raise TypeError(f"view expects a State, not {type(state).__name__}")
    if seat is not None:
        _check_seat(state, seat)
    n = state.players
    gems: list[tuple[str, ...] | None] = []
    for s in range(n):
        seen = state.over or s == seat or (
            s in state.oculos and seat is not None and state.in_game[seat]
            and "Oculos" in state.gems[seat])
        gems.append(state.gems[s] if seen else None)
    aw = state.award
    drawn = aw.drawn if aw is not None and seat == aw.taker and state.pending is None else None
    return View(
        seat=seat, players=n, tops=state.tops(),
        discard_sizes=tuple(len(d) for d in state.discards),
        draw_sizes=tuple(state.draw_size(s) for s in range(n)),
        gem_counts=tuple(len(g) for g in state.gems), gems=tuple(gems),
        penalties=state.penalties, gem_deck_size=state.gem_deck_size,
        penalty_deck_size=len(state.penalty_deck), in_game=state.in_game,
        to_move=None if state.over or state.award else _mover(state),
        award_winner=aw.winner if aw else None, award_taker=aw.taker if aw else None,
        award_drawn=drawn, oculos_targets=state.oculos, over=state.over,
        events=tuple(e.text for e in state.events if _visible(e, seat)))


def spectator_view(state: State) -> View:
    """What a spectator sees: the public part only."""
    return view(state, None)
