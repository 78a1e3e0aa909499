"""Melvin Vs. Kronk's rules: ``new_game``, ``legal_actions``, ``apply`` and chance (MK-ACT-1).

Everything here is pure: no I/O, no clock, no hidden randomness. ``apply`` accepts exactly the
actions :func:`legal_actions` lists (chance outcomes at a chance step), so legality is written
once; a refused action gets an :class:`~shock_rules.IllegalActionError` whose reason
:func:`_refusal` finds, and its input state is never changed (states are frozen).

A step copies the state into a draft (its fields as lists), changes it clause by clause,
appending the step's events, and freezes it into the next state (``_steps.py``).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Final

from shock_rules._errors import (
    ConfigError,
    IllegalActionError,
    InvalidArgumentError,
    check_int,
    check_seat,
    quoted,
)
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
    load_edition,
)
from ._state import AwardWindow, Pending, Phase, State, best_seats, match, score_gems
from ._steps import Draft, step

__all__ = [
    "apply", "chance_outcomes", "is_chance", "is_terminal", "legal_actions", "match_shows",
    "new_game", "not_a_state", "random_playout", "resolve_chance", "sample_chance", "scores",
    "seats_to_act", "winners",
]

_DEAL_PENDING: Final = Pending(Phase.DEAL)


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
        raise ConfigError(f"new_game() needs a Melvin GameConfig, not {quoted(config, 40)}")
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
    return match(state.discards)


def scores(state: State) -> tuple[int, ...]:
    """Return each seat's gems: the value of its kept Gem cards, an eliminated seat's too
    (MK-END-2)."""
    if type(state) is not State:
        raise not_a_state(state)
    return score_gems(state.gems)


def winners(state: State) -> frozenset[int]:
    """Return the seats still in the game with the highest score (a tie is a shared win); before
    the end, the current leaders (MK-END-2)."""
    if type(state) is not State:
        raise not_a_state(state)
    return best_seats(score_gems(state.gems), state.in_game)


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
    w = Draft(state)
    step(w, action)
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
    check_int("max_steps", max_steps, 1)
    state = new_game(config)
    for _ in range(max_steps):
        if state.end_reason is not None:
            return state
        if state.pending is not None:
            action = sample_chance(state, rng)
        else:
            acts = legal_actions(state)
            shows = match(state.discards)
            useful = [a for a in acts if shows or not isinstance(a, Slap)]
            action = rng.choice(useful if useful and rng.random() < 0.95 else acts)
        if actions is not None:
            actions.append(action)
        state = apply(state, action)
    raise RuntimeError(f"random_playout did not finish in {max_steps} steps")
