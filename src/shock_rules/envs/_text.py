"""A plain-text table of a view, for the adapters' ``render_mode="ansi"``."""

from __future__ import annotations

from collections.abc import Iterable

from .._info.view import PlayerView
from .._rules.state import Status
from ..melvin import Event, View, describe_event

__all__ = ["melvin_table_text", "table_text"]

_COLUMNS = ("seat", "status", "hand", "on bag", "in bag", "poisons", "potions", "void")


def table_text(view: PlayerView) -> str:
    """Return the table of ``view`` as lines of text: the round, trick, trump and chest, one row
    per seat (``>`` marks the seat to move), the current trick and, for a seat's view, its
    hand. It shows only what the view holds."""
    trump = f"{view.trump} ({view.trump.suit})" if view.trump is not None else "-"
    centre = " ".join(str(c) for c in view.chest_centre) or "-"
    head = (f"Round {view.round}/5, trick {view.trick_number}, {view.phase.name.lower()}"
            f"  trump {trump}  deck {view.deck_size}  chest deck {view.chest_deck_size}"
            f"  centre {centre}")
    rows = [list(_COLUMNS)]
    for s in view.seats:
        poisons = " ".join(f"{pc.card}{'(covered)' if pc.covered else ''}"
                           for pc in s.poisons) or "-"
        rows.append([
            f"{'>' if s.seat == view.to_move else ' '}{s.seat}",
            {Status.IN: "in", Status.WITHDRAWN: "withdrawn", Status.SHOCKED: "shocked"}[s.status],
            str(s.hand_size), str(s.on_bag), str(s.in_bag), poisons,
            " ".join(str(c) for c in s.potions) or "-",
            "".join(x.letter for x in s.void_suits) or "-",
        ])
    widths = [max(len(r[i]) for r in rows) for i in range(len(_COLUMNS))]
    lines = [head] + ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                      for r in rows]
    trick = "  ".join(
        f"{p.seat}: " + ((str(p.card) if p.face_up else f"{p.card} face down")
                         if p.card is not None else "face down") + f" ({p.gems})"
        for p in view.trick) or "(no card yet)"
    lines.append(f"trick: {trick}")
    if view.seat is not None:
        lines.append(f"seat {view.seat} hand: {' '.join(str(c) for c in view.hand) or '-'}")
    return "\n".join(lines) + "\n"


_MELVIN_COLUMNS = ("seat", "status", "draw", "discard", "top", "gems", "penalties")


def melvin_table_text(view: View, events: Iterable[Event] = ()) -> str:
    """Return a Melvin Vs. Kronk view as lines of text: the step, phase and decks, one row per
    seat (``>`` marks the seat to move), the open award window and *Óculos Geek* targets, and
    one line per event of ``events`` (as the viewer may see them: the caller filters them). It
    shows only what the view holds."""
    played = " ".join(view.played) or "-"
    head = (f"Melvin Vs. Kronk, step {view.step}, {view.phase.value}  gem deck"
            f" {view.gem_deck_size}  penalty deck {view.penalty_deck_size}  played {played}")
    rows = [list(_MELVIN_COLUMNS)]
    for s in range(view.players):
        top = view.tops[s]
        gems = view.gems[s]
        rows.append([
            f"{'>' if s == view.to_move else ' '}{s}", "in" if view.in_game[s] else "out",
            str(view.draw_sizes[s]), str(view.discard_sizes[s]),
            "-" if top is None else f"V{top}",
            str(view.gem_counts[s]) + ("" if gems is None else f" ({' '.join(gems) or '-'})"),
            " ".join(view.penalties[s]) or "-",
        ])
    widths = [max(len(r[i]) for r in rows) for i in range(len(_MELVIN_COLUMNS))]
    lines = [head] + ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                      for r in rows]
    if view.award_winner is not None:
        drawn = "" if view.award_drawn is None else f": {' '.join(view.award_drawn)}"
        lines.append(f"award: seat {view.award_winner} won the slap, seat {view.award_taker}"
                     f" takes the Gem cards{drawn}")
    if view.oculos_targets:
        lines.append("oculos: seats " + " ".join(map(str, view.oculos_targets))
                     + " may lose a Gem card to an Oculos Geek")
    lines += [f"  {describe_event(e)}" for e in events]
    return "\n".join(lines) + "\n"
