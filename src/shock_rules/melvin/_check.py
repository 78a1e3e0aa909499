"""The conditions every state that legal play reaches meets (MK-CONS-1 and the rest).

:func:`check_state` is the gate of states made outside the engine (a document read by
``state_from_json``, a position set up by hand with ``attrs.evolve``): it refuses, with
:class:`~shock_rules.InvalidStateError` saying which condition fails, anything ``apply`` could
not work on. States made by ``new_game`` and ``apply`` meet them by construction.
"""

from __future__ import annotations

from collections import Counter

from shock_rules._errors import InvalidStateError

from ._cards import PENALTIES, SPECIALS, Edition, load_edition
from ._engine import not_a_state
from ._state import Phase, State, match

__all__ = ["check_state"]


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise InvalidStateError(f"invalid Melvin state: {message}")


def check_state(state: State) -> None:
    """Raise :class:`~shock_rules.InvalidStateError` naming the first condition ``state``
    breaks: the shape of its fields, the conservation of every card (MK-CONS-1), and how the
    turn, the chance step, the award window and the end fit together. ``TypeError`` for what
    is not a state."""
    if type(state) is not State:
        raise not_a_state(state)
    ed = load_edition(state.config.edition)
    _check_shapes(state, ed)
    _check_cards(state, ed)
    _check_seats(state)
    _check_turn(state)
    _check_pending(state)
    _check_award(state)


def _check_shapes(s: State, ed: Edition) -> None:
    n = s.config.players
    _need(all(len(x) == n for x in (s.hidden, s.known, s.discards, s.gems, s.penalties,
                                    s.in_game)), f"every per-seat field needs {n} entries")
    _need(len(s.pool) == ed.faces, f"the pool counts {ed.faces} faces")
    _need(all(0 <= c <= ed.copies for c in s.pool), "a face's count is out of range")
    _need(all(h >= 0 for h in s.hidden), "a negative number of unseen cards")
    faces = range(1, ed.faces + 1)
    _need(all(f in faces for k in s.known for f in k), "a known card's face is out of range")
    _need(all(f in faces for d in s.discards for f, _ in d),
          "a discarded card's face is out of range")
    stamps = [c for d in s.discards for _, c in d]
    _need(all(1 <= c <= s.clock for c in stamps) and len(set(stamps)) == len(stamps),
          "turn-up stamps must be distinct and at most the clock")
    _need(all(sorted(d, key=lambda x: x[1]) == list(d) for d in s.discards),
          "a discard pile's stamps must grow from its bottom up")
    _need(list(s.gem_pool) == sorted(s.gem_pool), "the Gem deck's unseen part is a multiset,"
          " written in notation order")
    _need(list(s.penalty_deck) == sorted(s.penalty_deck), "the Penalty deck is a multiset,"
          " written in notation order")
    _need(all(p in SPECIALS for p in s.played), "only special Gem cards are played")
    _need(all(p in PENALTIES for ps in s.penalties for p in ps), "an unknown Penalty card")


def _check_cards(s: State, ed: Edition) -> None:
    # MK-CONS-1 (M16): every card is in exactly one place.
    if s.dealer is None:
        _need(not any(s.hidden) and not any(s.known) and not any(s.discards) and s.clock == 0,
              "no card is dealt before the dealer is chosen")
        _need(s.pool == (ed.copies,) * ed.faces, "every Versus card is unseen before the deal")
    else:
        _need(sum(s.pool) == sum(s.hidden), "the unseen cards must be the shuffled parts of"
              " the draw piles")
        faces = Counter({f + 1: c for f, c in enumerate(s.pool) if c})
        for seat in range(s.config.players):
            faces.update(s.known[seat])
            faces.update(f for f, _ in s.discards[seat])
        _need(faces == Counter({f: ed.copies for f in range(1, ed.faces + 1)}),
              "Versus cards are not conserved (MK-CONS-1)")
    gems = Counter(s.gem_top + s.gem_pool + s.played)
    for g in s.gems:
        gems.update(g)
    if s.award is not None:
        gems.update(s.award.drawn)
    _need(gems == Counter(ed.gems), "Gem cards are not conserved (MK-CONS-1)")
    pens = Counter(s.penalty_deck)
    for p in s.penalties:
        pens.update(p)
    _need(pens == Counter(ed.penalties), "Penalty cards are not conserved (MK-CONS-1)")


def _check_seats(s: State) -> None:
    n = s.config.players
    seats = range(n)
    live = sum(s.in_game)
    _need(live >= 1, "somebody is still in the game: a slap's winner is never eliminated")
    _need(live >= 3 or s.end_reason is not None,
          "with two or fewer players left the game is over (MK-END-1)")
    for seat in seats:
        if not s.in_game[seat]:
            _need(not s.draw_size(seat) and not s.discards[seat] and not s.penalties[seat],
                  f"seat {seat} is out of the game: it holds no Versus card and no penalty")
    _need(s.dealer is None or s.dealer in seats, "the dealer is not a seat")
    _need(all(t in seats and not s.in_game[t] and s.gems[t] for t in s.oculos)
          and len(set(s.oculos)) == len(s.oculos),
          "an Óculos Geek target is an eliminated seat holding Gem cards (M26)")
    _need(all(a in seats and b in seats and a != b and s.in_game[a] and s.in_game[b]
              for a, b in s.transfers), "a card moves between two seats in the game")


def _check_turn(s: State) -> None:
    t = s.to_move
    _need(t is None or (t in range(s.config.players) and s.in_game[t]),
          "the seat to move is a seat still in the game")
    _need(s.flipped in (0, 1), "the seat to move turns up at most two cards a turn")
    if s.end_reason is not None or s.award is not None or s.dealer is None:
        return  # the turn is settled when the window closes (M31); it means nothing at the end
    anyone = any(s.in_game[x] and s.draw_size(x) for x in range(s.config.players))
    _need((t is not None) == anyone, "the seat to move is the one with a card to turn up"
          " (MK-TURN-1)")
    _need(t is None or s.draw_size(t) > 0, "the seat to move has a card to turn up")
    _need(not s.flipped or (t is not None and "Duas" in s.penalties[t]),
          "a second card in a turn needs Jogue duas seguidas (MK-PEN-3)")


def _check_pending(s: State) -> None:
    p = s.pending
    if s.end_reason is not None:
        _need(p is None and s.award is None and not s.transfers and not s.oculos,
              "a finished game has nothing pending")
        return
    _need(s.dealer is not None or (p is not None and p.phase is Phase.DEAL),
          "before the deal, chance chooses the dealer")
    _need(not s.transfers or (p is not None and p.phase is Phase.MOVE),
          "cards left to move wait for a chance step")
    if p is None:
        return
    phase = p.phase
    _need(phase.is_chance, f"{phase.value} is not a chance step")
    if phase is Phase.DEAL:
        _need(s.dealer is None, "the dealer is chosen once")
    elif phase is Phase.TURN_UP:
        _need(p.seat in range(s.config.players) and s.in_game[p.seat] and s.hidden[p.seat] > 0,
              "a card is turned up from an unseen part of a pile of a seat in the game")
        _need(not p.by_turn or p.seat == s.to_move, "a turn's card is the seat to move's")
    elif phase is Phase.MOVE:
        _need(bool(s.transfers) and s.hidden[s.transfers[0][0]] > 0,
              "a card moved by chance comes from an unseen part")
    elif phase is Phase.GEM:
        aw = s.award
        _need(aw is not None and len(aw.drawn) < aw.to_draw and not s.gem_top
              and bool(s.gem_pool), "a Gem card is drawn for an award window")
    else:
        _need(p.seat in range(s.config.players) and s.in_game[p.seat] and bool(s.penalty_deck),
              "a Penalty card is drawn for a seat in the game")


def _check_award(s: State) -> None:
    aw = s.award
    if aw is None:
        return
    seats = range(s.config.players)
    _need(aw.winner in seats and aw.taker in seats and aw.maker in seats
          and s.in_game[aw.winner] and s.in_game[aw.taker], "an award's seats are in the game")
    _need(1 <= aw.to_draw <= 2 and len(aw.drawn) <= aw.to_draw, "an award draws 1 or 2 cards")
    _need(len(aw.drawn) == aw.to_draw or (s.pending is not None and s.pending.phase is Phase.GEM),
          "an award's cards are drawn at once (M22)")
    _need((aw.taker != aw.winner) == aw.special_played,
          "only Orcolar takes the cards from the winner (M13)")
    _need(match(s.discards) and bool(s.discards[aw.maker]),
          "an award window keeps the match it was opened for (M22)")
