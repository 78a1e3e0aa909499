"""A plain-text table of a view, for the adapters' ``render_mode="ansi"``."""

from __future__ import annotations

from .._info.view import PlayerView
from .._rules.state import Status

__all__ = ["table_text"]

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
