"""Melvin Vs. Kronk's rules: an immutable state and a pure ``apply`` (M5).

The unseen Versus cards are kept as one pool of face counts, and each draw pile as a number of
shuffled (unseen) cards on top of a known part (MK-HIDDEN-1, a project decision): nobody has
seen a dealt card, so the face of a card taken from any shuffled part has probability (copies of
that face unseen) / (cards unseen), exactly the chance step M4 asks for.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from shock_rules._errors import IllegalActionError, InvalidArgumentError, InvalidStateError

from ._cards import (
    ACTION_TYPES,
    CHANCE_TYPES,
    Action,
    Amuleto,
    Award,
    ChooseDealer,
    DrawGem,
    DrawPenalty,
    Edition,
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

__all__ = [
    "AwardWindow", "Event", "State", "apply", "chance_outcomes", "check_state", "is_chance",
    "is_terminal", "legal_actions", "match_shows", "new_game", "random_playout",
    "resolve_chance", "sample_chance", "scores", "winners",
]


@lru_cache(maxsize=8)
def _edition(name: str) -> Edition:
    return load_edition(name)


@dataclass(frozen=True)
class Event:
    """Something that happened in a step. ``seats`` lists who may see it; ``None`` means
    everyone (MK-INFO-1)."""

    text: str
    seats: tuple[int, ...] | None = None


@dataclass(frozen=True)
class AwardWindow:
    """The award window of a correct slap (M22): the Gem cards drawn so far, who takes them
    (the winner, or the *Orcolar* player), and whether a special was played in it."""

    winner: int
    maker: int
    drawn: tuple[str, ...]
    to_draw: int
    taker: int
    special_played: bool = False


@dataclass(frozen=True)
class State:
    """A position. Piles: ``hidden[s]`` shuffled cards on top of ``known[s]`` (top first);
    ``discards[s]`` holds (face, turn-up stamp) pairs, bottom first."""

    config: GameConfig
    dealer: int | None
    pool: tuple[int, ...]
    hidden: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[tuple[int, int], ...], ...]
    clock: int
    gem_top: tuple[str, ...]
    gem_pool: tuple[str, ...]
    penalty_deck: tuple[str, ...]
    gems: tuple[tuple[str, ...], ...]
    played: tuple[str, ...]
    penalties: tuple[tuple[str, ...], ...]
    in_game: tuple[bool, ...]
    turn: int
    flipped: int
    pending: tuple[object, ...] | None
    transfers: tuple[tuple[int, int], ...]
    award: AwardWindow | None
    oculos: tuple[int, ...]
    over: bool
    events: tuple[Event, ...] = ()

    @property
    def players(self) -> int:
        return self.config.players

    def draw_size(self, seat: int) -> int:
        return self.hidden[seat] + len(self.known[seat])

    def tops(self) -> tuple[int | None, ...]:
        """The face on top of each discard pile (``None`` when empty)."""
        return tuple(d[-1][0] if d else None for d in self.discards)

    @property
    def gem_deck_size(self) -> int:
        return len(self.gem_top) + len(self.gem_pool)


def _set(t: tuple[object, ...], i: int, v: object) -> tuple[object, ...]:
    return t[:i] + (v,) + t[i + 1:]


def _sorted_add(t: tuple[str, ...], item: str) -> tuple[str, ...]:
    return tuple(sorted(t + (item,)))


def _sorted_remove(t: tuple[str, ...], item: str) -> tuple[str, ...]:
    lst = list(t)
    lst.remove(item)
    return tuple(lst)


# -- setup ------------------------------------------------------------------------------------


def new_game(config: GameConfig) -> State:
    """The state before the deal: a chance step chooses the dealer (M3)."""
    if not isinstance(config, GameConfig):
        raise TypeError(f"new_game expects a GameConfig, not {type(config).__name__}")
    ed = _edition(config.edition)
    n = config.players
    return State(
        config=config, dealer=None, pool=(ed.copies,) * ed.faces, hidden=(0,) * n,
        known=((),) * n, discards=((),) * n, clock=0, gem_top=(),
        gem_pool=tuple(sorted(ed.gems)), penalty_deck=tuple(sorted(ed.penalties)),
        gems=((),) * n, played=(), penalties=((),) * n, in_game=(True,) * n, turn=0,
        flipped=0, pending=("dealer",), transfers=(), award=None, oculos=(), over=False)


def _deal(state: State, dealer: int) -> State:
    # M3: one card at a time clockwise from the dealer's left, so the first (48 mod n) seats
    # from the dealer's left get one card more. Faces stay unseen in the pool (MK-HIDDEN-1).
    n = state.players
    total = sum(state.pool)
    hidden = [0] * n
    for k in range(total):
        hidden[(dealer + 1 + k) % n] += 1
    return replace(state, dealer=dealer, hidden=tuple(hidden), turn=(dealer + 1) % n,
                   pending=None, events=(Event(f"seat {dealer} deals; seat {(dealer + 1) % n}"
                                               " begins"),))


# -- queries ----------------------------------------------------------------------------------


def is_terminal(state: State) -> bool:
    return state.over


def is_chance(state: State) -> bool:
    return state.pending is not None


def match_shows(state: State) -> bool:
    """Two or more discard-pile tops show the same face (M6)."""
    faces = [f for f in state.tops() if f is not None]
    return len(faces) != len(set(faces))


def _mover(state: State) -> int | None:
    # M11, M29: the seat to move is the first in-game seat with draw-pile cards, clockwise
    # from the seat whose turn it is.
    n = state.players
    for k in range(n):
        s = (state.turn + k) % n
        if state.in_game[s] and state.draw_size(s) > 0:
            return s
    return None


def _check_seat(state: State, seat: int) -> None:
    if type(seat) is not int or not 0 <= seat < state.players:
        raise InvalidArgumentError(f"no seat {seat!r} in a {state.players}-player game")


def legal_actions(state: State, seat: int | None = None) -> list[Action]:
    """The legal player actions of ``seat``, or of every seat (M5), sorted by their notation.
    A chance or finished state has none."""
    if not isinstance(state, State):
        raise TypeError(f"legal_actions expects a State, not {type(state).__name__}")
    if seat is not None:
        _check_seat(state, seat)
    if state.over or state.pending is not None:
        return []
    seats = range(state.players) if seat is None else [seat]
    out: list[Action] = []
    mover = _mover(state)
    aw = state.award
    for s in seats:
        if not state.in_game[s]:
            continue  # M25
        mine = state.gems[s]
        if aw is None:
            if s == mover:
                out.append(Flip(s))
            out.append(Slap(s))  # M27: a wrong slap is legal too
        else:
            if s == aw.taker:
                if len(aw.drawn) == 1:
                    out.append(Award(s, aw.drawn[0], None))
                else:
                    gives = ([aw.winner] if aw.taker != aw.winner
                             else [t for t in range(state.players)
                                   if state.in_game[t] and t != s])  # M23
                    for keep in sorted(set(aw.drawn)):
                        out += [Award(s, keep, g) for g in gives]
            if not aw.special_played and s != aw.winner:  # M13: any other holder, first counts
                if "Orcolar" in mine:
                    out.append(Orcolar(s))
                if "Amuleto" in mine:
                    out.append(Amuleto(s))
        if "Toalha" in mine:  # M13, M26
            out += [Toalha(s, t) for t in range(state.players)
                    if t != s and state.in_game[t] and state.draw_size(t) > 0]
        if "Oculos" in mine:
            for t in state.oculos:
                out += [Oculos(s, t, c) for c in sorted(set(state.gems[t]))]
    return sorted(out, key=lambda a: (getattr(a, "seat", -1), str(a)))


def chance_outcomes(state: State) -> list[tuple[Action, Fraction]]:
    """The outcomes of a chance state with their exact probabilities (M3, M4)."""
    if not isinstance(state, State):
        raise TypeError(f"chance_outcomes expects a State, not {type(state).__name__}")
    p = state.pending
    if p is None:
        return []
    kind = p[0]
    if kind == "dealer":
        return [(ChooseDealer(s), Fraction(1, state.players)) for s in range(state.players)]
    if kind in ("flip", "move"):
        total = sum(state.pool)
        return [(Reveal(f + 1), Fraction(c, total)) for f, c in enumerate(state.pool) if c]
    if kind == "gem":
        counts = Counter(state.gem_pool)
        return [(DrawGem(c), Fraction(k, len(state.gem_pool))) for c, k in sorted(counts.items())]
    counts = Counter(state.penalty_deck)
    return [(DrawPenalty(c), Fraction(k, len(state.penalty_deck)))
            for c, k in sorted(counts.items())]


def sample_chance(state: State, rng: random.Random) -> Action:
    """Draw one chance outcome with ``rng``."""
    outcomes = chance_outcomes(state)
    if not outcomes:
        raise IllegalActionError("not a chance state")
    total = sum((p for _, p in outcomes), Fraction(0))
    x = Fraction(rng.randrange(total.denominator), total.denominator) * total.numerator
    for a, p in outcomes:
        if x < p:
            return a
        x -= p
    return outcomes[-1][0]


def resolve_chance(state: State, rng: random.Random) -> State:
    return apply(state, sample_chance(state, rng))


def scores(state: State) -> tuple[int, ...]:
    """Each seat's kept gems (M15); an eliminated seat's count too (M25)."""
    return tuple(sum(gem_value(g) for g in gs) for gs in state.gems)


def winners(state: State) -> tuple[int, ...]:
    """The seats still in the game with the highest score; a tie is a shared win (M15)."""
    sc = scores(state)
    live = [s for s in range(state.players) if state.in_game[s]]
    best = max(sc[s] for s in live)
    return tuple(s for s in live if sc[s] == best)


# -- steps ------------------------------------------------------------------------------------


def _turn_up(state: State, seat: int, by_turn: bool, events: list[Event]) -> State:
    if state.hidden[seat] > 0:
        return replace(state, pending=("flip", seat, by_turn))  # M4
    face = state.known[seat][0]
    state = replace(state, known=_set(state.known, seat, state.known[seat][1:]))  # type: ignore[arg-type]
    return _place(state, seat, face, by_turn, events)


def _place(state: State, seat: int, face: int, by_turn: bool, events: list[Event]) -> State:
    clock = state.clock + 1
    disc = state.discards[seat] + ((face, clock),)
    events.append(Event(f"seat {seat} turns up V{face}"))
    state = replace(state, discards=_set(state.discards, seat, disc),  # type: ignore[arg-type]
                    clock=clock, oculos=(), pending=None)  # M26: a turn-up closes Óculos
    if by_turn:
        flipped = (state.flipped if seat == state.turn else 0) + 1
        # M28: Jogue duas seguidas is checked at each turn-up; an empty pile ends the turn.
        if "Duas" in state.penalties[seat] and flipped < 2 and state.draw_size(seat) > 0:
            state = replace(state, turn=seat, flipped=flipped)
        else:
            state = replace(state, turn=(seat + 1) % state.players, flipped=0)
    return _end_check(state, events)


def _end_check(state: State, events: list[Event]) -> State:
    # M12: nobody in the game can turn up a card and no match shows.
    if (state.award is None and state.pending is None and not state.transfers
            and _mover(state) is None and not match_shows(state) and not state.over):
        events.append(Event("no card left to turn up: the game ends"))
        return replace(state, over=True, oculos=())  # M26: the end closes everything
    return state


def _run_transfers(state: State, events: list[Event]) -> State:
    # M19: cards go under the receiver one by one; a card from a shuffled part gets its face
    # by a chance step then.
    while state.transfers:
        src, dst = state.transfers[0]
        if state.draw_size(src) == 0:
            state = replace(state, transfers=state.transfers[1:])
            continue
        if state.hidden[src] > 0:
            return replace(state, pending=("move",))
        face = state.known[src][0]
        known = _set(state.known, src, state.known[src][1:])
        known = _set(known, dst, state.known[dst] + (face,))
        events.append(Event(f"seat {src} gives a draw-pile card to seat {dst}"))
        state = replace(state, known=known, transfers=state.transfers[1:])  # type: ignore[arg-type]
    return _end_check(state, events)


def _draw_gems(state: State, events: list[Event]) -> State:
    aw = state.award
    assert aw is not None
    while len(aw.drawn) < aw.to_draw and state.gem_top:
        aw = replace(aw, drawn=aw.drawn + (state.gem_top[0],))
        state = replace(state, gem_top=state.gem_top[1:], award=aw)
    if len(aw.drawn) < aw.to_draw:
        return replace(state, pending=("gem",))
    events.append(Event(f"seat {aw.winner} draws {' '.join(aw.drawn)}", (aw.taker,)))
    return replace(state, pending=None)


def _slap(state: State, seat: int, events: list[Event]) -> State:
    if not match_shows(state):
        # R8, M9, M27: a wrong slap draws a Penalty card, or does nothing with the deck empty.
        events.append(Event(f"seat {seat} slaps wrongly"))
        if not state.penalty_deck:
            return state
        return replace(state, pending=("penalty", seat))
    tops = state.tops()
    counts = Counter(f for f in tops if f is not None)
    # M21: the card that made the match is the most recent turn-up among the matching tops.
    maker = max((s for s, f in enumerate(tops) if f is not None and counts[f] > 1),
                key=lambda s: state.discards[s][-1][1])
    events.append(Event(f"seat {seat} slaps first: a match"))
    aw = AwardWindow(winner=seat, maker=maker, drawn=(), to_draw=min(2, state.gem_deck_size),
                     taker=seat)
    return _draw_gems(replace(state, award=aw), events)


def _penalty(state: State, seat: int, card: str, events: list[Event]) -> State:
    events.append(Event(f"seat {seat} takes the penalty {card}"))
    state = replace(state, penalty_deck=_sorted_remove(state.penalty_deck, card),
                    penalties=_set(state.penalties, seat,  # type: ignore[arg-type]
                                   _sorted_add(state.penalties[seat], card)),
                    pending=None)
    if card == "Cartas":
        n = state.players
        # M9, M20: clockwise from the penalised player's left, skipping eliminated seats.
        order = [(seat + k) % n for k in range(1, n)]
        state = replace(state, transfers=tuple((seat, q) for q in order if state.in_game[q]))
        return _run_transfers(state, events)
    return state


def _award(state: State, act: Award, events: list[Event]) -> State:
    aw = state.award
    assert aw is not None
    gems = list(state.gems)
    gems[act.seat] = _sorted_add(gems[act.seat], act.keep)
    rest = list(aw.drawn)
    rest.remove(act.keep)
    if rest:
        assert act.give is not None
        gems[act.give] = _sorted_add(gems[act.give], rest[0])
        events.append(Event(f"seat {act.seat} keeps a Gem card, gives one to seat {act.give}"))
        # M14: each seat sees its own Gem cards only, so the receiver does not learn the kept one.
        events.append(Event(f"seat {act.seat} keeps {act.keep}, gives {rest[0]}", (act.seat,)))
        events.append(Event(f"seat {act.give} receives {rest[0]}", (act.give,)))
    else:
        events.append(Event(f"seat {act.seat} keeps the last Gem card"))
    w = aw.winner
    n = state.players
    # M8, M18, M24: piles under the winner, own first then clockwise, first-discarded first.
    collected: tuple[int, ...] = ()
    for k in range(n):
        collected += tuple(f for f, _ in state.discards[(w + k) % n])
    known = _set(state.known, w, state.known[w] + collected)
    # M10: penalties end; all Penalty cards go back to the deck (shuffled: kept as a multiset).
    deck = tuple(sorted(state.penalty_deck + sum(state.penalties, ())))
    state = replace(state, gems=tuple(gems), known=known,  # type: ignore[arg-type]
                    discards=((),) * n, penalty_deck=deck, penalties=((),) * n, award=None,
                    turn=w, flipped=0)
    # M11: every other player with an empty draw pile is eliminated.
    out = [s for s in range(n) if s != w and state.in_game[s] and state.draw_size(s) == 0]
    in_game = tuple(state.in_game[s] and s not in out for s in range(n))
    for s in out:
        events.append(Event(f"seat {s} is eliminated"))
    state = replace(state, in_game=in_game, oculos=tuple(s for s in out if state.gems[s]))
    # M15: the end checks.
    if state.gem_deck_size == 0 or sum(in_game) <= 2:
        events.append(Event("the game ends"))
        return replace(state, over=True, oculos=())
    return _end_check(state, events)


def _amuleto(state: State, seat: int, events: list[Event]) -> State:
    aw = state.award
    assert aw is not None
    m = aw.maker
    events.append(Event(f"seat {seat} plays Amuleto Orc: the slap does not count"))
    # M22: the drawn Gem cards go back on top of the deck in the same order.
    face = state.discards[m][-1][0]
    state = replace(
        state, gems=_set(state.gems, seat, _sorted_remove(state.gems[seat], "Amuleto")),  # type: ignore[arg-type]
        played=_sorted_add(state.played, "Amuleto"), gem_top=aw.drawn + state.gem_top,
        award=None, discards=_set(state.discards, m, state.discards[m][:-1]),  # type: ignore[arg-type]
        known=_set(state.known, m, state.known[m] + (face,)))  # type: ignore[arg-type]
    # M13, M22: the maker turns up the next card; nobody's turn, so the turn does not change.
    return _turn_up(state, m, False, events)


def apply(state: State, action: Action) -> State:
    """The state after ``action``; ``state.events`` tells what happened."""
    if not isinstance(state, State):
        raise TypeError(f"apply expects a State, not {type(state).__name__}")
    if not isinstance(action, ACTION_TYPES):
        raise TypeError(f"apply expects a Melvin action, not {type(action).__name__}")
    events: list[Event] = []
    if state.pending is not None:
        legal = [a for a, _ in chance_outcomes(state)]
        if action not in legal:
            raise IllegalActionError(f"{action} is not an outcome of this chance step")
        new = _apply_chance(replace(state, events=()), action, events)
    else:
        if state.over:
            raise IllegalActionError(f"{action}: the game is over")
        if action not in legal_actions(state):
            raise IllegalActionError(f"{action} is not legal now: {_why(state, action)}")
        new = _apply_player(replace(state, events=()), action, events)
    return replace(new, events=tuple(events))


def _why(state: State, action: Action) -> str:
    if isinstance(action, CHANCE_TYPES):
        return "it is a chance outcome and no chance step is pending"
    seat = getattr(action, "seat", None)
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
        return "no such seat"
    if seat is not None and not state.in_game[seat]:
        return "that seat is out of the game (M25)"
    if state.award is not None and isinstance(action, (Flip, Slap)):
        return "an award window is open (M22)"
    if isinstance(action, Flip):
        return f"it is seat {_mover(state)}'s turn to turn up a card"
    return "the rules do not allow it here"


def _apply_chance(state: State, action: Action, events: list[Event]) -> State:
    p = state.pending
    assert p is not None
    if isinstance(action, ChooseDealer):
        return _deal(state, action.dealer)
    if isinstance(action, Reveal):
        pool = _set(state.pool, action.face - 1, state.pool[action.face - 1] - 1)
        if p[0] == "flip":
            seat, by_turn = p[1], p[2]
            assert isinstance(seat, int) and isinstance(by_turn, bool)
            state = replace(state, pool=pool,  # type: ignore[arg-type]
                            hidden=_set(state.hidden, seat, state.hidden[seat] - 1))  # type: ignore[arg-type]
            return _place(state, seat, action.face, by_turn, events)
        src, dst = state.transfers[0]
        events.append(Event(f"seat {src} gives a draw-pile card to seat {dst}"))
        events.append(Event(f"the card moved is V{action.face}", ()))  # M30: nobody sees it
        state = replace(state, pool=pool,  # type: ignore[arg-type]
                        hidden=_set(state.hidden, src, state.hidden[src] - 1),  # type: ignore[arg-type]
                        known=_set(state.known, dst, state.known[dst] + (action.face,)),  # type: ignore[arg-type]
                        transfers=state.transfers[1:], pending=None)
        return _run_transfers(state, events)
    if isinstance(action, DrawGem):
        aw = state.award
        assert aw is not None
        state = replace(state, gem_pool=_sorted_remove(state.gem_pool, action.card),
                        award=replace(aw, drawn=aw.drawn + (action.card,)))
        return _draw_gems(state, events)
    assert isinstance(action, DrawPenalty)
    seat = p[1]
    assert isinstance(seat, int)
    return _penalty(state, seat, action.card, events)


def _apply_player(state: State, action: Action, events: list[Event]) -> State:
    if isinstance(action, Flip):
        return _turn_up(state, action.seat, True, events)
    if isinstance(action, Slap):
        return _slap(state, action.seat, events)
    if isinstance(action, Award):
        return _award(state, action, events)
    s = action.seat  # type: ignore[union-attr]
    gems = state.gems
    if isinstance(action, Toalha):
        events.append(Event(f"seat {s} plays Toalha on seat {action.target}"))
        state = replace(state, gems=_set(gems, s, _sorted_remove(gems[s], "Toalha")),  # type: ignore[arg-type]
                        played=_sorted_add(state.played, "Toalha"),
                        transfers=((action.target, s),) * 3)
        return _run_transfers(state, events)
    if isinstance(action, Orcolar):
        aw = state.award
        assert aw is not None
        events.append(Event(f"seat {s} plays Orcolar and takes the Gem cards"))
        events.append(Event(f"the Gem cards are {' '.join(aw.drawn)}", (s,)))
        return replace(state, gems=_set(gems, s, _sorted_remove(gems[s], "Orcolar")),  # type: ignore[arg-type]
                       played=_sorted_add(state.played, "Orcolar"),
                       award=replace(aw, taker=s, special_played=True))
    if isinstance(action, Amuleto):
        return _amuleto(state, s, events)
    assert isinstance(action, Oculos)
    t = action.target
    events.append(Event(f"seat {s} plays Oculos Geek on seat {t}"))
    events.append(Event(f"seat {s} takes {action.card} from seat {t}", (s, t)))
    g = list(gems)
    g[s] = _sorted_remove(g[s], "Oculos")
    g[t] = _sorted_remove(g[t], action.card)
    g[s] = _sorted_add(g[s], action.card)
    return replace(state, gems=tuple(g), played=_sorted_add(state.played, "Oculos"), oculos=())


# -- whole games and checks ----------------------------------------------------------------------


def random_playout(config: GameConfig, rng: random.Random, max_steps: int = 100_000) -> State:
    """Play a game to its end with random choices. Flips and correct slaps are preferred over
    wrong slaps and specials so that games end quickly (M5: a race goes to whoever acts first)."""
    state = new_game(config)
    for _ in range(max_steps):
        if state.over:
            return state
        if is_chance(state):
            state = resolve_chance(state, rng)
            continue
        acts = legal_actions(state)
        useful = [a for a in acts if not isinstance(a, Slap) or match_shows(state)]
        pool = useful if useful and rng.random() < 0.95 else acts
        state = apply(state, rng.choice(pool))
    raise RuntimeError("random_playout did not finish")


def check_state(state: State) -> None:
    """Raise :class:`InvalidStateError` if the state breaks an invariant (M16)."""
    if not isinstance(state, State):
        raise TypeError(f"check_state expects a State, not {type(state).__name__}")
    ed = _edition(state.config.edition)
    n = state.players
    shapes = [state.hidden, state.known, state.discards, state.gems, state.penalties,
              state.in_game]
    if any(len(x) != n for x in shapes) or len(state.pool) != ed.faces:
        raise InvalidStateError("per-seat fields do not match the number of players")
    if any(c < 0 for c in state.pool) or any(h < 0 for h in state.hidden):
        raise InvalidStateError("a negative card count")
    # M16: Versus cards, counted by face.
    faces = Counter({f + 1: c for f, c in enumerate(state.pool) if c})
    for s in range(n):
        faces.update(state.known[s])
        faces.update(f for f, _ in state.discards[s])
    if state.dealer is not None:
        if sum(state.pool) != sum(state.hidden):
            raise InvalidStateError("unseen cards do not match the shuffled pile parts")
        if faces != Counter({f: ed.copies for f in range(1, ed.faces + 1)}):
            raise InvalidStateError("Versus cards are not conserved (M16)")
    gems: Counter[str] = Counter(state.gem_top + state.gem_pool + state.played)
    for g in state.gems:
        gems.update(g)
    if state.award is not None:
        gems.update(state.award.drawn)
    if gems != Counter(ed.gems):
        raise InvalidStateError("Gem cards are not conserved (M16)")
    pens = Counter(state.penalty_deck + sum(state.penalties, ()))
    if pens != Counter(ed.penalties):
        raise InvalidStateError("Penalty cards are not conserved (M16)")
    if sum(state.in_game) < 2 or (sum(state.in_game) <= 2 and not state.over):
        raise InvalidStateError("too few players in the game (M15)")
    # Seats and counters that apply() indexes with: checked so that a document read from
    # outside (state_from_json) can never make a step fail with an IndexError.
    seats = range(n)
    if state.turn not in seats or state.flipped not in (0, 1) or (
            state.dealer is not None and state.dealer not in seats):
        raise InvalidStateError("turn, dealer or cards turned this turn out of range")
    stamps = [c for d in state.discards for _, c in d]
    if any(not 1 <= c <= state.clock for c in stamps) or len(set(stamps)) != len(stamps):
        raise InvalidStateError("discard stamps out of order")
    if any(src not in seats or dst not in seats for src, dst in state.transfers):
        raise InvalidStateError("a transfer names no seat")
    if any(s not in seats or state.in_game[s] for s in state.oculos):
        raise InvalidStateError("an Óculos Geek target must be an eliminated seat (M26)")
    p = state.pending
    if p is not None and p[0] in ("flip", "penalty"):
        who = p[1]
        if type(who) is not int or who not in seats or not state.in_game[who]:
            raise InvalidStateError("a pending chance step names no seat in the game")
        if p[0] == "flip" and not state.hidden[who]:
            raise InvalidStateError("a pending turn-up from a pile with no unseen card")
    drawing = state.award is not None and len(state.award.drawn) < state.award.to_draw
    if (p == ("gem",)) != drawing:
        raise InvalidStateError("a pending Gem draw without an award window, or the reverse")
    if p == ("move",) and not state.transfers:
        raise InvalidStateError("a pending move without a transfer")
    if p is None and state.transfers:
        raise InvalidStateError("transfers left without a pending move")
    aw = state.award
    if aw is not None and (
            aw.winner not in seats or aw.maker not in seats or aw.taker not in seats
            or not state.in_game[aw.winner] or not state.in_game[aw.taker]
            or not 1 <= aw.to_draw <= 2 or len(aw.drawn) > aw.to_draw
            or (aw.taker != aw.winner) != aw.special_played or not state.discards[aw.maker]):
        raise InvalidStateError("an impossible award window")
    if state.over and (p is not None or aw is not None):
        raise InvalidStateError("a finished game with a step pending")
