"""The steps of Melvin Vs. Kronk's ``apply``: a :class:`Draft` of the state, changed clause by
clause by the step of the action, then frozen into the next state.

``apply`` (``_engine.py``) hands a step only an action :func:`~shock_rules.melvin.legal_actions`
lists, so nothing here checks what the gate checked.
"""

from __future__ import annotations

from typing import Final

import attrs

from ._cards import (
    Action,
    Amuleto,
    Award,
    ChooseDealer,
    DrawGem,
    DrawPenalty,
    Flip,
    Oculos,
    Orcolar,
    Reveal,
    Slap,
    Toalha,
)
from ._events import (
    AmuletoPlayed,
    CardMoved,
    CardReturned,
    CardTurnedUp,
    DealerChosen,
    Eliminated,
    EndReason,
    Event,
    GameEnded,
    GemGiven,
    GemKept,
    GemsSeen,
    GemTaken,
    MatchSlapped,
    OculosPlayed,
    OrcolarPlayed,
    PenaltiesReturned,
    PenaltyTaken,
    PilesCollected,
    ToalhaPlayed,
    WrongSlap,
)
from ._state import AwardWindow, Pending, Phase, State, best_seats, match, score_gems

__all__ = ["Draft", "step"]

_GEM_PENDING: Final = Pending(Phase.GEM)
_MOVE_PENDING: Final = Pending(Phase.MOVE)


class Draft:
    """A state being changed by one step: its fields, per-seat ones as lists, and the step's
    events."""

    def __init__(self, s: State) -> None:
        self.config = s.config
        self.dealer = s.dealer
        self.pool = list(s.pool)
        self.hidden = list(s.hidden)
        self.known = [list(k) for k in s.known]
        self.discards = [list(d) for d in s.discards]
        self.clock = s.clock
        self.gem_top = list(s.gem_top)
        self.gem_pool = list(s.gem_pool)
        self.penalty_deck = list(s.penalty_deck)
        self.gems = [list(g) for g in s.gems]
        self.played = list(s.played)
        self.penalties = [list(p) for p in s.penalties]
        self.in_game = list(s.in_game)
        self.to_move = s.to_move
        self.flipped = s.flipped
        self.pending = s.pending
        self.transfers = list(s.transfers)
        self.award = s.award
        self.oculos = list(s.oculos)
        self.end_reason = s.end_reason
        self.events: list[Event] = []
        self.step = s.step + 1

    def draw_size(self, seat: int) -> int:
        return self.hidden[seat] + len(self.known[seat])

    def freeze(self) -> State:
        return State(
            config=self.config, dealer=self.dealer, pool=tuple(self.pool),
            hidden=tuple(self.hidden), known=tuple(map(tuple, self.known)),
            discards=tuple(map(tuple, self.discards)), clock=self.clock,
            gem_top=tuple(self.gem_top), gem_pool=tuple(self.gem_pool),
            penalty_deck=tuple(self.penalty_deck), gems=tuple(map(tuple, self.gems)),
            played=tuple(self.played), penalties=tuple(map(tuple, self.penalties)),
            in_game=tuple(self.in_game), to_move=self.to_move, flipped=self.flipped,
            pending=self.pending, transfers=tuple(self.transfers), award=self.award,
            oculos=tuple(self.oculos), end_reason=self.end_reason, events=tuple(self.events),
            step=self.step)


def _deal(w: Draft, dealer: int) -> None:
    # M3: one card at a time clockwise from the dealer's left, so the first (cards mod n)
    # seats from the dealer's left get one card more. Faces stay unseen in the pool.
    n = w.config.players
    total = sum(w.pool)
    for k in range(n):
        w.hidden[(dealer + 1 + k) % n] = total // n + (1 if k < total % n else 0)
    w.dealer = dealer
    w.pending = None
    w.events.append(DealerChosen(dealer, tuple(w.hidden)))
    _pass_turn(w, dealer + 1)  # R3: the player to the dealer's left begins


def _pass_turn(w: Draft, start: int) -> None:
    """M31: the turn goes to the first seat clockwise from ``start`` still in the game with a
    card to turn up (none: nobody is to move)."""
    n = w.config.players
    w.flipped = 0
    for k in range(n):
        s = (start + k) % n
        if w.in_game[s] and w.draw_size(s):
            w.to_move = s
            return
    w.to_move = None


def _lost_card(w: Draft, seat: int) -> None:
    """M31: the seat to move that loses its last draw-pile card outside an award window passes
    the turn clockwise; any other seat keeps its place in the rotation."""
    if w.award is None and seat == w.to_move and not w.draw_size(seat):
        _pass_turn(w, seat + 1)


def _turn_up(w: Draft, seat: int, by_turn: bool) -> None:
    if w.hidden[seat]:
        w.pending = Pending(Phase.TURN_UP, seat, by_turn)  # M4: its face is a chance step
        return
    _place(w, seat, w.known[seat].pop(0), by_turn)


def _reveal(w: Draft, face: int) -> None:
    p = w.pending
    assert p is not None
    w.pending = None
    w.pool[face - 1] -= 1
    if p.phase is Phase.TURN_UP:
        w.hidden[p.seat] -= 1
        _place(w, p.seat, face, p.by_turn)
        return
    src, dst = w.transfers.pop(0)  # M19: a card moved from a shuffled part
    w.hidden[src] -= 1
    w.known[dst].append(face)
    w.events.append(CardMoved(src, dst, face))
    _lost_card(w, src)
    _run_transfers(w)


def _place(w: Draft, seat: int, face: int, by_turn: bool) -> None:
    w.clock += 1
    w.discards[seat].append((face, w.clock))
    w.events.append(CardTurnedUp(seat, face, by_turn))
    w.oculos = []  # M26: any turn-up closes Óculos Geek's window
    if by_turn:
        w.flipped += 1
        # M28: Jogue duas seguidas is checked at each turn-up; an empty pile ends the turn.
        if not ("Duas" in w.penalties[seat] and w.flipped < 2 and w.draw_size(seat)):
            _pass_turn(w, seat + 1)
    else:
        _lost_card(w, seat)  # MK-SPECIAL-3: nobody's turn, so the turn stays where it was
    _end_check(w)


def _end_check(w: Draft) -> None:
    # M12: nobody in the game has a card to turn up and no match shows.
    if (w.award is None and w.pending is None and not w.transfers and w.end_reason is None
            and not any(w.in_game[s] and w.draw_size(s) for s in range(w.config.players))
            and not match(w.discards)):
        _end(w, EndReason.NO_MOVE)


def _end(w: Draft, reason: EndReason) -> None:
    w.end_reason = reason
    w.oculos = []  # M26: the end closes everything
    points = score_gems(w.gems)
    w.events.append(GameEnded(points, best_seats(points, w.in_game), reason))


def _run_transfers(w: Draft) -> None:
    # M19: cards go under the receiver one by one, the top first; a card from a shuffled part
    # gets its face by a chance step then. A source out of cards ends its transfers.
    while w.transfers:
        src, dst = w.transfers[0]
        if not w.draw_size(src):
            w.transfers.pop(0)
            continue
        if w.hidden[src]:
            w.pending = _MOVE_PENDING
            return
        face = w.known[src].pop(0)
        w.known[dst].append(face)
        w.transfers.pop(0)
        w.events.append(CardMoved(src, dst, face))
        _lost_card(w, src)
    _end_check(w)


def _slap(w: Draft, seat: int) -> None:
    if not match(w.discards):
        # R8, M9, M27: a wrong slap draws a Penalty card, or does nothing with the deck empty.
        w.events.append(WrongSlap(seat))
        if w.penalty_deck:
            w.pending = Pending(Phase.PENALTY, seat)
        return
    tops = [d[-1] if d else None for d in w.discards]
    faces = [t[0] for t in tops if t is not None]
    # M21: the card that made the match is the most recent turn-up among the matching tops.
    maker = max((s for s, t in enumerate(tops) if t is not None and faces.count(t[0]) > 1),
                key=lambda s: w.discards[s][-1][1])
    w.events.append(MatchSlapped(seat, maker))
    gems_left = len(w.gem_top) + len(w.gem_pool)
    w.award = AwardWindow(winner=seat, maker=maker, drawn=(), to_draw=min(2, gems_left),
                          taker=seat)
    _draw_gems(w)


def _draw_gems(w: Draft) -> None:
    # M22: the Gem cards are drawn at once (known ones from the top first) and shown to the
    # winner.
    aw = w.award
    assert aw is not None
    drawn = list(aw.drawn)
    while len(drawn) < aw.to_draw and w.gem_top:
        drawn.append(w.gem_top.pop(0))
    w.award = attrs.evolve(aw, drawn=tuple(drawn))
    if len(drawn) < aw.to_draw:
        w.pending = _GEM_PENDING
        return
    w.pending = None
    w.events.append(GemsSeen(aw.winner, tuple(drawn)))


def _draw_gem(w: Draft, card: str) -> None:
    aw = w.award
    assert aw is not None
    w.gem_pool.remove(card)
    w.award = attrs.evolve(aw, drawn=(*aw.drawn, card))
    _draw_gems(w)


def _draw_penalty(w: Draft, card: str) -> None:
    p = w.pending
    assert p is not None
    w.pending = None
    seat = p.seat
    w.penalty_deck.remove(card)
    w.penalties[seat].append(card)
    w.events.append(PenaltyTaken(seat, card))
    if card == "Cartas":
        n = w.config.players
        # M9, M20: clockwise from the penalised player's left, skipping eliminated seats.
        w.transfers = [(seat, (seat + k) % n) for k in range(1, n) if w.in_game[(seat + k) % n]]
        _run_transfers(w)


def _award(w: Draft, act: Award) -> None:
    aw = w.award
    assert aw is not None
    w.gems[act.seat].append(act.keep)
    w.events.append(GemKept(act.seat, act.keep))
    rest = list(aw.drawn)
    rest.remove(act.keep)
    if rest:
        assert act.give is not None
        w.gems[act.give].append(rest[0])
        w.events.append(GemGiven(act.seat, act.give, rest[0]))
    _count_slap(w, aw.winner)


def _count_slap(w: Draft, winner: int) -> None:
    # M24: piles collected, penalties returned, eliminations, then the end checks.
    n = w.config.players
    collected = [f for k in range(n) for f, _ in w.discards[(winner + k) % n]]  # M8, M18
    w.known[winner] += collected
    w.discards = [[] for _ in range(n)]
    w.events.append(PilesCollected(winner, len(collected)))
    in_force = [p for ps in w.penalties for p in ps]
    if in_force:  # M10: every Penalty card in force goes back to the deck, shuffled
        w.penalty_deck = sorted(w.penalty_deck + in_force)
        w.penalties = [[] for _ in range(n)]
        w.events.append(PenaltiesReturned(tuple(in_force)))
    w.award = None
    _pass_turn(w, winner)  # M8, M31: the winner plays next
    out = [s for s in range(n) if s != winner and w.in_game[s] and not w.draw_size(s)]
    for s in out:  # M11: an empty draw pile at a slap one did not win
        w.in_game[s] = False
        w.events.append(Eliminated(s))
    w.oculos = [s for s in out if w.gems[s]]  # M26: Óculos Geek may take from them
    if not w.gem_top and not w.gem_pool:
        _end(w, EndReason.GEMS_GONE)  # M15
    elif sum(w.in_game) <= 2:
        _end(w, EndReason.FEW_PLAYERS)  # M15: one slap may eliminate several
    else:
        _end_check(w)


def _toalha(w: Draft, seat: int, target: int) -> None:
    w.gems[seat].remove("Toalha")
    w.played.append("Toalha")
    w.events.append(ToalhaPlayed(seat, target))
    w.transfers = [(target, seat)] * 3  # M13, M19: the top 3 (fewer if fewer), top first
    _run_transfers(w)


def _orcolar(w: Draft, seat: int) -> None:
    aw = w.award
    assert aw is not None
    w.gems[seat].remove("Orcolar")
    w.played.append("Orcolar")
    w.award = attrs.evolve(aw, taker=seat, special_played=True)
    w.events.append(OrcolarPlayed(seat))
    w.events.append(GemsSeen(seat, aw.drawn))  # M30: its player sees the cards it takes


def _amuleto(w: Draft, seat: int) -> None:
    aw = w.award
    assert aw is not None
    m = aw.maker
    w.gems[seat].remove("Amuleto")
    w.played.append("Amuleto")
    w.events.append(AmuletoPlayed(seat, m))
    w.gem_top = list(aw.drawn) + w.gem_top  # M22: back on top of the Gem deck, in order
    w.award = None  # the slap does not count: no gems, no piles, penalties stay (M13)
    face, _ = w.discards[m].pop()
    w.known[m].append(face)  # M13: the card that made the match goes under its draw pile
    w.events.append(CardReturned(m, face))
    to_move = w.to_move
    if to_move is not None and not w.draw_size(to_move):
        _pass_turn(w, to_move + 1)  # M31: the turn is settled when the window closes
    _turn_up(w, m, False)  # M22: nobody's turn, so the turn does not change


def _oculos(w: Draft, act: Oculos) -> None:
    w.gems[act.seat].remove("Oculos")
    w.played.append("Oculos")
    w.gems[act.target].remove(act.card)
    w.gems[act.seat].append(act.card)
    w.events.append(OculosPlayed(act.seat, act.target))
    w.events.append(GemTaken(act.seat, act.target, act.card))
    w.oculos = [t for t in w.oculos if w.gems[t]]  # M26: a target needs a Gem card left


def step(w: Draft, action: Action) -> None:
    """Change the draft ``w`` by the step of ``action`` (a legal one)."""
    if isinstance(action, Flip):
        _turn_up(w, action.seat, True)
    elif isinstance(action, Slap):
        _slap(w, action.seat)
    elif isinstance(action, Reveal):
        _reveal(w, action.face)
    elif isinstance(action, Award):
        _award(w, action)
    elif isinstance(action, DrawGem):
        _draw_gem(w, action.card)
    elif isinstance(action, DrawPenalty):
        _draw_penalty(w, action.card)
    elif isinstance(action, ChooseDealer):
        _deal(w, action.dealer)
    elif isinstance(action, Toalha):
        _toalha(w, action.seat, action.target)
    elif isinstance(action, Orcolar):
        _orcolar(w, action.seat)
    elif isinstance(action, Amuleto):
        _amuleto(w, action.seat)
    else:
        assert isinstance(action, Oculos)
        _oculos(w, action)
