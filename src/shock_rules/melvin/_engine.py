"""Melvin Vs. Kronk's rules: ``new_game``, ``legal_actions``, ``apply`` and chance (MK-ACT-1).

Everything here is pure: no I/O, no clock, no hidden randomness. ``apply`` accepts exactly the
actions :func:`legal_actions` lists (chance outcomes at a chance step), so legality is written
once; a refused action gets an :class:`~shock_rules.IllegalActionError` whose reason
:func:`_refusal` finds, and its input state is never changed (states are frozen).

A step copies the state into a :class:`_Draft` (its fields as lists), changes it clause by
clause, appending the step's events, and freezes it into the next state.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Final

import attrs

from shock_rules._errors import IllegalActionError, InvalidArgumentError, check_seat, quoted
from shock_rules._shared import CHANCE, ChanceMarker

from ._cards import (
    ACTION_TYPES,
    Action,
    Amuleto,
    Award,
    ChooseDealer,
    DrawGem,
    DrawPenalty,
    Flip,
    GameConfig,
    Oculos,
    Orcolar,
    Reveal,
    Slap,
    Toalha,
    gem_value,
    load_edition,
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
from ._state import AwardWindow, Pending, Phase, State

__all__ = [
    "apply", "chance_outcomes", "is_chance", "is_terminal", "legal_actions", "match_shows",
    "new_game", "not_a_state", "random_playout", "resolve_chance", "sample_chance", "scores",
    "seats_to_act", "winners",
]

_DEAL_PENDING: Final = Pending(Phase.DEAL)
_GEM_PENDING: Final = Pending(Phase.GEM)
_MOVE_PENDING: Final = Pending(Phase.MOVE)


def not_a_state(value: object) -> TypeError:
    """Return the error for an argument that should have been a :class:`State`."""
    return TypeError(f"expected a Melvin Vs. Kronk State, not {type(value).__name__}"
                     f" {quoted(value, 40)}")


def _check_rng(rng: object) -> random.Random:
    if not isinstance(rng, random.Random):
        raise InvalidArgumentError(
            f"invalid rng: expected a random.Random, not {type(rng).__name__}")
    return rng


# -- the game -----------------------------------------------------------------------------------


def new_game(config: GameConfig | None = None) -> State:
    """Return the state before the deal: chance chooses the dealer next (MK-SETUP-3).

    >>> s = new_game(GameConfig(players=3))
    >>> s.phase, len(legal_actions(s))
    (<Phase.DEAL: 'deal'>, 3)
    """
    if config is None:
        config = GameConfig()
    if not isinstance(config, GameConfig):
        raise TypeError(f"new_game() needs a Melvin GameConfig, not {type(config).__name__}")
    ed = load_edition(config.edition)
    n = config.players
    return State(
        config=config, dealer=None, pool=(ed.copies,) * ed.faces, hidden=(0,) * n,
        known=((),) * n, discards=((),) * n, clock=0, gem_top=(), gem_pool=tuple(sorted(ed.gems)),
        penalty_deck=tuple(sorted(ed.penalties)), gems=((),) * n, played=(), penalties=((),) * n,
        in_game=(True,) * n, to_move=None, flipped=0, pending=_DEAL_PENDING, transfers=(),
        award=None, oculos=(), end_reason=None)


def is_terminal(state: State) -> bool:
    """Return whether the game is over (MK-END-1)."""
    if type(state) is not State:
        raise not_a_state(state)
    return state.end_reason is not None


def is_chance(state: State) -> bool:
    """Return whether chance acts next (MK-HIDDEN-1)."""
    if type(state) is not State:
        raise not_a_state(state)
    return state.pending is not None


def match_shows(state: State) -> bool:
    """Return whether two or more discard-pile tops show the same face (MK-SLAP-1)."""
    if type(state) is not State:
        raise not_a_state(state)
    return _match(state.discards)


def _match(discards: tuple[tuple[tuple[int, int], ...], ...] | list[list[tuple[int, int]]]
           ) -> bool:
    faces = [d[-1][0] for d in discards if d]
    return len(faces) != len(set(faces))


def _scores(gems: tuple[tuple[str, ...], ...] | list[list[str]]) -> tuple[int, ...]:
    return tuple(sum(gem_value(g) for g in gs) for gs in gems)


def _winners(scores: tuple[int, ...], in_game: tuple[bool, ...] | list[bool]) -> frozenset[int]:
    # MK-END-2: the highest score among the players still in the game; a tie is shared.
    best = max(s for s, live in zip(scores, in_game, strict=True) if live)
    return frozenset(s for s, v in enumerate(scores) if in_game[s] and v == best)


def scores(state: State) -> tuple[int, ...]:
    """Return each seat's gems: the value of its kept Gem cards, an eliminated seat's too
    (MK-END-2)."""
    if type(state) is not State:
        raise not_a_state(state)
    return _scores(state.gems)


def winners(state: State) -> frozenset[int]:
    """Return the seats still in the game with the highest score (a tie is a shared win); before
    the end, the current leaders (MK-END-2)."""
    if type(state) is not State:
        raise not_a_state(state)
    return _winners(_scores(state.gems), state.in_game)


# -- what may happen ------------------------------------------------------------------------------


def legal_actions(state: State, seat: int | None = None) -> tuple[Action, ...]:
    """Return every action ``apply`` accepts now: at a chance step its outcomes, else every
    seat's decisions (MK-ACT-1), in seat order; with a ``seat``, that seat's decisions only
    (none at a chance step). At the end of the game, nothing.

    >>> s = apply(new_game(GameConfig(players=3)), ChooseDealer(0))
    >>> [str(a) for a in legal_actions(s, 1)]
    ['1 flip', '1 slap']
    """
    if type(state) is not State:
        raise not_a_state(state)
    if seat is not None:
        check_seat(seat, state.config.players)
    if state.end_reason is not None:
        return ()
    if state.pending is not None:
        return () if seat is not None else tuple(a for a, _ in chance_outcomes(state))
    if seat is not None:
        return tuple(_seat_actions(state, seat))
    out: list[Action] = []
    for s in range(state.config.players):
        out += _seat_actions(state, s)
    return tuple(out)


def _seat_actions(state: State, s: int) -> list[Action]:
    if not state.in_game[s]:
        return []  # M25: only players still in the game act
    n = state.config.players
    mine = state.gems[s]
    aw = state.award
    out: list[Action] = []
    if aw is None:
        if s == state.to_move:
            out.append(Flip(s))  # MK-TURN-1: the seat to move always has a card outside a window
        out.append(Slap(s))  # M27: a slap with no match is legal too
    else:
        if s == aw.taker:
            out += _awards(state, aw)
        if not aw.special_played and s != aw.winner:  # M13: any other holder; the first counts
            if "Orcolar" in mine:
                out.append(Orcolar(s))
            if "Amuleto" in mine:
                out.append(Amuleto(s))
    if "Toalha" in mine:  # M13, M26: a target still in the game with a draw-pile card
        out += [Toalha(s, t) for t in range(n)
                if t != s and state.in_game[t] and state.draw_size(t) > 0]
    if "Oculos" in mine:  # M26: a target of the open window, one card of each face
        for t in state.oculos:
            out += [Oculos(s, t, c) for c in dict.fromkeys(state.gems[t])]
    return out


def _awards(state: State, aw: AwardWindow) -> list[Action]:
    # M7, M22, M23: keep one drawn card, give the other to another seat still in the game (the
    # slap's winner when the Orcolar player takes them); one card drawn is simply taken.
    t = aw.taker
    if len(aw.drawn) == 1:
        return [Award(t, aw.drawn[0])]
    gives = ([aw.winner] if t != aw.winner
             else [g for g in range(state.config.players) if state.in_game[g] and g != t])
    return [Award(t, keep, g) for keep in dict.fromkeys(aw.drawn) for g in gives]


def seats_to_act(state: State) -> tuple[int, ...]:
    """Return the seats that may act now, in seat order: every seat with a legal decision
    (several at once: MK-ACT-1); none at a chance step or the end."""
    return tuple(sorted({a.actor for a in legal_actions(state) if a.actor is not None}))


def chance_outcomes(state: State) -> tuple[tuple[Action, Fraction], ...]:
    """Return the outcomes of the pending chance step with their exact probabilities (summing
    to 1): the dealer, uniform (MK-SETUP-3); a face, by the unseen copies of each face; a Gem or
    Penalty card, by how many of each are left (MK-HIDDEN-1). None when players act."""
    if type(state) is not State:
        raise not_a_state(state)
    p = state.pending
    if p is None:
        return ()
    if p.phase is Phase.DEAL:
        n = state.config.players
        return tuple((ChooseDealer(s), Fraction(1, n)) for s in range(n))
    if p.phase is Phase.TURN_UP or p.phase is Phase.MOVE:
        total = sum(state.pool)
        return tuple((Reveal(f + 1), Fraction(c, total)) for f, c in enumerate(state.pool) if c)
    deck = state.gem_pool if p.phase is Phase.GEM else state.penalty_deck
    make = DrawGem if p.phase is Phase.GEM else DrawPenalty
    return tuple((make(card), Fraction(deck.count(card), len(deck)))
                 for card in dict.fromkeys(deck))


def sample_chance(state: State, rng: random.Random) -> Action:
    """Return one outcome of the pending chance step drawn with ``rng``, each with the
    probability :func:`chance_outcomes` gives it; raise
    :class:`~shock_rules.IllegalActionError` when no chance step is pending."""
    if type(state) is not State:
        raise not_a_state(state)
    _check_rng(rng)
    p = state.pending
    if p is None:
        raise IllegalActionError(f"no chance step is pending: {_waits_for(state)}")
    if p.phase is Phase.DEAL:
        return ChooseDealer(rng.randrange(state.config.players))
    if p.phase is Phase.GEM:
        # One card of the multiset, each equally likely: a card's odds are its count / size.
        return DrawGem(state.gem_pool[rng.randrange(len(state.gem_pool))])
    if p.phase is Phase.PENALTY:
        return DrawPenalty(state.penalty_deck[rng.randrange(len(state.penalty_deck))])
    k = rng.randrange(sum(state.pool))  # one unseen card, each equally likely (MK-HIDDEN-1)
    for face, count in enumerate(state.pool):
        if k < count:
            return Reveal(face + 1)
        k -= count
    raise AssertionError("the pool holds fewer cards than its counts")


def resolve_chance(state: State, rng: random.Random) -> State:
    """Return the state after sampling chance steps with ``rng`` until players may act or the
    game is over (the same as Shock!'s)."""
    _check_rng(rng)
    while is_chance(state):
        state = apply(state, sample_chance(state, rng))
    return state


# -- apply ----------------------------------------------------------------------------------------


def apply(state: State, action: Action, seat: int | ChanceMarker | None = None) -> State:
    """Return the state after ``action``; ``state.events`` tells what happened. The input
    state is never changed.

    ``seat``, when given, is who the caller acts for: the action's own seat, or
    :data:`~shock_rules.CHANCE` for a chance outcome. Raise
    :class:`~shock_rules.IllegalActionError` naming the action and the reason when it is not
    legal now, and ``TypeError`` for a state or an action of the wrong type (parse text with
    :func:`~shock_rules.melvin.parse_action`).

    >>> s = new_game(GameConfig(players=3))
    >>> apply(s, Flip(1))
    Traceback (most recent call last):
    ...
    shock_rules.IllegalActionError: '1 flip' is illegal: chance chooses the dealer
    """
    if type(state) is not State:
        raise not_a_state(state)
    if type(action) not in ACTION_TYPES:
        raise TypeError(f"expected a Melvin action, not {type(action).__name__}"
                        f" {quoted(action, 40)} (parse text with parse_action)")
    if seat is not None:
        _check_actor(action, seat, state.config.players)
    if action not in legal_actions(state):
        raise _refusal(state, action)
    w = _Draft(state)
    _step(w, action)
    return w.freeze()


def _check_actor(action: Action, seat: object, players: int) -> None:
    if seat is not CHANCE:
        check_seat(seat, players)
    who = CHANCE if action.is_chance else action.actor
    if seat != who:
        by = "chance" if seat is CHANCE else f"seat {seat}"
        owner = "chance" if who is CHANCE else f"seat {who}"
        raise IllegalActionError(f"'{action}' is illegal: {by} cannot act for {owner}",
                                 action=action, seat=seat if type(seat) is int else None)


def _step(w: _Draft, action: Action) -> None:
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


# -- why an action is refused ------------------------------------------------------------------


def _waits_for(state: State) -> str:
    """What the game waits for, in words (for the message of a refused action)."""
    p = state.pending
    if state.end_reason is not None:
        return f"the game is over ({state.end_reason.value})"
    if p is None:
        aw = state.award
        if aw is not None:
            return f"seat {aw.taker} must choose which Gem card to keep"
        return "the players act"
    return {
        Phase.DEAL: "chance chooses the dealer",
        Phase.TURN_UP: f"chance gives the face of the card seat {p.seat} turns up",
        Phase.MOVE: "chance gives the face of the card being moved",
        Phase.GEM: "chance draws a Gem card",
        Phase.PENALTY: f"chance draws seat {p.seat}'s Penalty card",
    }[p.phase]


def _refusal(state: State, action: Action) -> IllegalActionError:
    """Return the error of an action that :func:`legal_actions` does not list, saying which
    rule leaves it out."""
    seat = action.actor
    return IllegalActionError(f"'{action}' is illegal: {_why(state, action)}", action=action,
                              seat=seat)


def _why(state: State, action: Action) -> str:
    if state.end_reason is not None or state.pending is not None:
        if action.is_chance and state.pending is not None:
            return f"it is not an outcome of this chance step ({_waits_for(state)})"
        return _waits_for(state)
    if action.is_chance:
        return "no chance step is pending: the players act"
    seat = action.actor
    assert seat is not None
    if seat >= state.config.players:
        return f"there is no seat {seat} in a {state.config.players}-player game"
    if not state.in_game[seat]:
        return f"seat {seat} is out of the game (M25)"
    aw = state.award
    if isinstance(action, (Flip, Slap)):
        if aw is not None:
            return ("an award window is open: nobody turns up a card or slaps until its Gem"
                    " cards are handed out (M22)")
        if state.to_move is None:
            return "nobody has a card to turn up"
        return f"it is seat {state.to_move}'s turn to turn up a card (MK-TURN-1)"
    if isinstance(action, Award):
        return _why_award(state, action)
    if isinstance(action, (Orcolar, Amuleto)):
        name = "Orcolar" if isinstance(action, Orcolar) else "Amuleto"
        if name not in state.gems[seat]:
            return f"seat {seat} holds no {name}"
        if aw is None:
            return f"{name} is played in an award window only (M13)"
        if seat == aw.winner:
            return f"the slap's winner cannot play {name} on its own slap (M13)"
        return "Orcolar or Amuleto Orc was already played in this award window (M13)"
    if isinstance(action, Toalha):
        t = action.target
        if "Toalha" not in state.gems[seat]:
            return f"seat {seat} holds no Toalha"
        if t == seat:
            return "Toalha steals from another player"
        if t >= state.config.players or not state.in_game[t]:
            return f"seat {t} is not in the game (M26)"
        return f"seat {t} has no draw-pile card to steal (M26)"
    assert isinstance(action, Oculos)
    if "Oculos" not in state.gems[seat]:
        return f"seat {seat} holds no Oculos"
    if action.target not in state.oculos:
        return (f"Óculos Geek takes from a player eliminated at the last slap, holding Gem"
                f" cards, before the next turn-up; seat {action.target} is not one (M26)")
    return f"seat {action.target} holds no {action.card}"


def _why_award(state: State, action: Award) -> str:
    aw = state.award
    if aw is None:
        return "no award window is open"
    if action.seat != aw.taker:
        return f"seat {aw.taker} takes this slap's Gem cards"
    if action.keep not in aw.drawn:
        return f"{action.keep} was not drawn (drawn: {' '.join(aw.drawn)})"
    if len(aw.drawn) == 1:
        return f"one Gem card was drawn: it is simply kept ('{action.seat} award {action.keep}')"
    g = action.give
    if g is None:
        return "two Gem cards were drawn: name the seat that gets the other one"
    if aw.taker != aw.winner and g != aw.winner:
        return f"the Orcolar player gives the other card to the slap's winner, seat {aw.winner}"
    if g == action.seat:
        return "the other Gem card goes to another player (M7)"
    return f"seat {g} is not in the game (M23)"


# -- the steps --------------------------------------------------------------------------------


class _Draft:
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


def _deal(w: _Draft, dealer: int) -> None:
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


def _pass_turn(w: _Draft, start: int) -> None:
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


def _lost_card(w: _Draft, seat: int) -> None:
    """M31: the seat to move that loses its last draw-pile card outside an award window passes
    the turn clockwise; any other seat keeps its place in the rotation."""
    if w.award is None and seat == w.to_move and not w.draw_size(seat):
        _pass_turn(w, seat + 1)


def _turn_up(w: _Draft, seat: int, by_turn: bool) -> None:
    if w.hidden[seat]:
        w.pending = Pending(Phase.TURN_UP, seat, by_turn)  # M4: its face is a chance step
        return
    _place(w, seat, w.known[seat].pop(0), by_turn)


def _reveal(w: _Draft, face: int) -> None:
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


def _place(w: _Draft, seat: int, face: int, by_turn: bool) -> None:
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


def _end_check(w: _Draft) -> None:
    # M12: nobody in the game has a card to turn up and no match shows.
    if (w.award is None and w.pending is None and not w.transfers and w.end_reason is None
            and not any(w.in_game[s] and w.draw_size(s) for s in range(w.config.players))
            and not _match(w.discards)):
        _end(w, EndReason.NO_MOVE)


def _end(w: _Draft, reason: EndReason) -> None:
    w.end_reason = reason
    w.oculos = []  # M26: the end closes everything
    points = _scores(w.gems)
    w.events.append(GameEnded(points, _winners(points, w.in_game), reason))


def _run_transfers(w: _Draft) -> None:
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


def _slap(w: _Draft, seat: int) -> None:
    if not _match(w.discards):
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


def _draw_gems(w: _Draft) -> None:
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


def _draw_gem(w: _Draft, card: str) -> None:
    aw = w.award
    assert aw is not None
    w.gem_pool.remove(card)
    w.award = attrs.evolve(aw, drawn=(*aw.drawn, card))
    _draw_gems(w)


def _draw_penalty(w: _Draft, card: str) -> None:
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


def _award(w: _Draft, act: Award) -> None:
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


def _count_slap(w: _Draft, winner: int) -> None:
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


def _toalha(w: _Draft, seat: int, target: int) -> None:
    w.gems[seat].remove("Toalha")
    w.played.append("Toalha")
    w.events.append(ToalhaPlayed(seat, target))
    w.transfers = [(target, seat)] * 3  # M13, M19: the top 3 (fewer if fewer), top first
    _run_transfers(w)


def _orcolar(w: _Draft, seat: int) -> None:
    aw = w.award
    assert aw is not None
    w.gems[seat].remove("Orcolar")
    w.played.append("Orcolar")
    w.award = attrs.evolve(aw, taker=seat, special_played=True)
    w.events.append(OrcolarPlayed(seat))
    w.events.append(GemsSeen(seat, aw.drawn))  # M30: its player sees the cards it takes


def _amuleto(w: _Draft, seat: int) -> None:
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


def _oculos(w: _Draft, act: Oculos) -> None:
    w.gems[act.seat].remove("Oculos")
    w.played.append("Oculos")
    w.gems[act.target].remove(act.card)
    w.gems[act.seat].append(act.card)
    w.events.append(OculosPlayed(act.seat, act.target))
    w.events.append(GemTaken(act.seat, act.target, act.card))
    w.oculos = [t for t in w.oculos if w.gems[t]]  # M26: a target needs a Gem card left


# -- whole games -------------------------------------------------------------------------------


def random_playout(config: GameConfig | None = None, rng: random.Random | None = None,
                   actions: list[Action] | None = None, *, max_steps: int = 100_000) -> State:
    """Return the final state of a game where chance and the players act at random.

    A wrong slap is chosen only one time in twenty (or when nothing else is legal), so that
    games end quickly (M5: a race goes to whoever acts first). The actions taken, chance
    included, are appended to ``actions`` when it is given. Raise ``RuntimeError`` if the game
    has not ended after ``max_steps`` actions.
    """
    if rng is None:
        rng = random.Random()
    _check_rng(rng)
    if actions is not None and not isinstance(actions, list):
        raise InvalidArgumentError(
            f"invalid actions: expected a list to append to, not {type(actions).__name__}")
    state = new_game(config)
    for _ in range(max_steps):
        if state.end_reason is not None:
            return state
        if state.pending is not None:
            action = sample_chance(state, rng)
        else:
            acts = legal_actions(state)
            match = _match(state.discards)
            useful = [a for a in acts if match or not isinstance(a, Slap)]
            action = rng.choice(useful if useful and rng.random() < 0.95 else acts)
        if actions is not None:
            actions.append(action)
        state = apply(state, action)
    raise RuntimeError(f"random_playout did not finish in {max_steps} steps")
