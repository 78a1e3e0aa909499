"""The public functional core: ``new_game``, ``legal_actions``, ``chance_outcomes``, ``apply``.

Everything here is pure: no I/O, no clock, no hidden randomness (K6). ``apply`` checks the
action against the rules and raises :class:`~shock_rules.IllegalActionError` (leaving its input
untouched, as every state is immutable) when it is not legal.
"""

# The public functions take ``state: object`` and test it first (see _bad_state); each has one
# overload, which gives type checkers the real type. mypy asks for two ("misc"), hence the
# ``type: ignore`` on each.

from __future__ import annotations

import random
from fractions import Fraction
from typing import Final, TypeVar, overload

from .._errors import (
    ConfigError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidStateError,
    ShockError,
    corrupt,
    quoted,
)
from .actions import (
    COVER,
    DEAL,
    DOWN,
    LEADER,
    PLAY,
    REVEAL,
    STOP,
    TRUMP,
    WITHDRAW,
    Action,
    ActionKind,
)
from .bits import put
from .cards import CARDS, Card, Suit
from .chest import reveal, stop
from .config import GameConfig
from .draft import draft, shared
from .events import (
    CardDealt,
    CardPlayed,
    Event,
    LeaderChosen,
    RoundStarted,
    TrumpRevealed,
    Withdrew,
)
from .pick import pick, pick_pair, picker
from .poison import cover
from .probability import fraction as _fraction
from .round import next_deal_target
from .state import CHANCE, NATIVE, ChanceMarker, Phase, Play, State, Status
from .tables import Tables, tables_for
from .trick import abandon_trick, resolve_trick

_T = TypeVar("_T")

__all__ = [
    "apply",
    "chance_outcomes",
    "current_player",
    "is_chance",
    "is_terminal",
    "legal_actions",
    "new_game",
    "random_playout",
    "resolve_chance",
    "scores",
    "winners",
]

_SUIT_MASKS: Final = tuple(s.mask for s in Suit)
_SUIT_NAMES: Final = tuple(str(s) for s in Suit)
_IS_CHANCE: Final = tuple(
    p in (Phase.DEAL, Phase.TRUMP, Phase.LEADER, Phase.CHEST) for p in Phase
)
_IN: Final = Status.IN
_WITHDRAWN: Final = Status.WITHDRAWN
_SHOCKED: Final = Status.SHOCKED
# Enum members bound once: attribute access on an Enum class costs ~80 ns in Python 3.11.
# Each one ``Final``, as every module constant of the compiled modules: the compiled build keeps
# a ``Final`` name in a C variable, and looks any other one up in the module's dict (~20 ns).
_DEAL_P: Final = Phase.DEAL
_TRUMP_P: Final = Phase.TRUMP
_LEADER_P: Final = Phase.LEADER
_PLAY_P: Final = Phase.PLAY
_COVER_P: Final = Phase.COVER
_CHEST_P: Final = Phase.CHEST
_CHOICE_P: Final = Phase.CHEST_CHOICE
_OVER_P: Final = Phase.OVER
_K_PLAY: Final = ActionKind.PLAY
_K_WITHDRAW: Final = ActionKind.WITHDRAW
_K_DOWN: Final = ActionKind.DOWN
_K_REVEAL: Final = ActionKind.REVEAL
#: :class:`Action`, which ``apply`` tests every action against (a Final name: see above).
_ACTION: Final = Action
# Plays and events are immutable values: the frequent ones are made once and reused. Face-up
# plays are keyed by (seat, card bit, gems), face-down ones by (seat, card bit, gems, False).
_PLAYED: Final[dict[tuple[int, ...], tuple[Play, CardPlayed]]] = {}


def _played(seat: int, card: Card, face_up: bool, gems: int) -> tuple[Play, CardPlayed]:
    key = (seat, card.bit, gems) if face_up else (seat, card.bit, gems, False)
    found = _PLAYED.get(key)
    if found is None:
        found = _PLAYED[key] = (Play(seat, card, face_up, gems),
                                CardPlayed(seat, card, face_up, gems))
    return found


_DEALT: Final = tuple(tuple((CardDealt(seat, c),) for c in CARDS) for seat in range(5))
_TRUMPED: Final = tuple((TrumpRevealed(c),) for c in CARDS)

# Legal actions of each card kind, picked by card mask (see _pick.py).
_PLAYS: Final = picker(PLAY)
_WITHDRAWALS: Final = picker(WITHDRAW)
# The two tables themselves, for the compiled build's pick_pair (Final: see _DEAL_P).
_PLAY_TABLE: Final = PLAY
_WITHDRAW_TABLE: Final = WITHDRAW
_DOWNS: Final = picker(DOWN)
_COVERS: Final = picker(COVER)
_DEALS: Final = picker(DEAL)
_TRUMPS: Final = picker(TRUMP)


def _uniform_pairs(table: tuple[Action, ...]) -> tuple[tuple[tuple[Action, Fraction], ...], ...]:
    """Return, for each k, the (action, 1/k) pair of every card (index 0 is unused)."""
    return ((),) + tuple(
        tuple((a, _fraction(1, k)) for a in table) for k in range(1, len(table) + 1)
    )


# Uniform outcomes over k undealt cards: each card's (action, 1/k) pair is made once per kind
# and k; a pool's pairs are then picked like actions.
_DEAL_PAIRS: Final = _uniform_pairs(DEAL)
_TRUMP_PAIRS: Final = _uniform_pairs(TRUMP)


def _pool(state: State) -> int:
    """Return the dungeon deck's mask when chance deals from it or reveals the trump card."""
    pool = state.pool_mask
    if pool <= 0:  # a forged state's: no outcomes, or a negative mask's wrong ones (DEAL-1)
        raise ValueError(f"pool_mask {pool} holds no card")
    return pool


# -- bad arguments ------------------------------------------------------------------------------


def _bad_state(state: object, exc: BaseException | None = None) -> InvalidStateError:
    """Return the error for a ``state`` argument that is not a valid state.

    The public functions below take ``state: object`` and test its type first: the compiled
    build would otherwise check a ``State`` argument before the body runs and raise a plain
    ``TypeError``. Their overloads give type checkers the real type. Past that test they
    catch what a corrupt state makes them raise (zero-cost ``try`` since Python 3.11) and
    call this.
    """
    if type(state) is not State:
        return InvalidStateError(f"invalid state: expected a State, not {type(state).__name__}")
    return corrupt("state", exc if exc is not None else ValueError("no reason given"))


def _check_rng(rng: object) -> None:
    if not isinstance(rng, random.Random):
        raise InvalidArgumentError(
            f"invalid rng: expected a random.Random, not {type(rng).__name__}")


# -- the game -----------------------------------------------------------------------------------


def new_game(config: GameConfig | None = None) -> State:
    """Return the state before the first card is dealt (round 1; chance deals next).

    >>> s = new_game(GameConfig(players=3, first_leader=0))
    >>> s.round, is_chance(s), len(legal_actions(s))
    (1, True, 36)
    """
    if config is None:
        config = GameConfig()
    if not isinstance(config, GameConfig):
        raise ConfigError(f"new_game() needs a GameConfig, not {quoted(config)}")
    t = tables_for(config)
    n = config.players
    leader = -1 if config.first_leader is None else config.first_leader
    zeros = (0,) * n
    kinds = len(t.chest_counts)
    return State(
        config=config, tables=t, phase=Phase.DEAL, round=1, trick_number=1, leader=leader,
        actor=0, trick=(), hand_masks=zeros, pool_mask=t.deck, trump_index=-1, discard_mask=0,
        face_down_masks=zeros, status=(Status.IN,) * n, on_bag=zeros, in_bag=zeros,
        supply=t.supply, poison_masks=zeros, covered_masks=zeros, potion_masks=zeros,
        void_suits=zeros, chest_deck=t.chest_counts, chest_discard=(0,) * kinds,
        chest_centre=(0,) * kinds, revealed=0, last_winner=-1, round_leader=leader,
        events=(RoundStarted(1, leader),),
    )


@overload  # type: ignore[misc]  # one overload: see _bad_state
def current_player(state: State) -> int | ChanceMarker | None: ...


def current_player(state: object) -> int | ChanceMarker | None:
    """Return the seat that must decide, :data:`CHANCE` at a chance decision, or ``None``
    when the game is over."""
    if type(state) is not State:  # see _bad_state
        raise _bad_state(state)
    try:
        phase = state.phase
        if _IS_CHANCE[phase]:
            return CHANCE
        if phase is _OVER_P:
            return None
        actor: object = state.actor  # an int (the constructor checks); a pure dict may differ
        if type(actor) is not int or not 0 <= actor < state.tables.players:
            raise ValueError(f"no seat to act: actor {quoted(actor)}")
        return actor
    except Exception as exc:
        raise _bad_state(state, exc) from None


@overload  # type: ignore[misc]  # one overload: see _bad_state
def is_chance(state: State) -> bool: ...


def is_chance(state: object) -> bool:
    """Return whether the next action is a chance outcome (K6)."""
    if type(state) is not State:  # see _bad_state
        raise _bad_state(state)
    try:
        return _IS_CHANCE[state.phase]
    except Exception as exc:
        raise _bad_state(state, exc) from None


@overload  # type: ignore[misc]  # one overload: see _bad_state
def is_terminal(state: State) -> bool: ...


def is_terminal(state: object) -> bool:
    """Return whether the game is over (after round 5, K28)."""
    if type(state) is not State:  # see _bad_state
        raise _bad_state(state)
    try:
        return state.phase is _OVER_P
    except AttributeError as exc:
        raise _bad_state(state, exc) from None


@overload  # type: ignore[misc]  # one overload: see _bad_state
def scores(state: State) -> tuple[int, ...]: ...


def scores(state: object) -> tuple[int, ...]:
    """Return each seat's score: the value of the gems in its bag (K28)."""
    if type(state) is not State:  # see _bad_state
        raise _bad_state(state)
    in_bag: object = state.in_bag  # a tuple (the constructor checks), of what may be anything
    if type(in_bag) is not tuple or not all(type(v) is int for v in in_bag):
        raise _bad_state(state, ValueError(f"in_bag {quoted(in_bag)} is no tuple of integers"))
    return in_bag


@overload  # type: ignore[misc]  # one overload: see _bad_state
def winners(state: State) -> frozenset[int]: ...


def winners(state: object) -> frozenset[int]:
    """Return the seats with the highest score (ties share the victory, K28).

    At the end of the game these are the winners; before it, the current leaders.
    """
    if type(state) is not State:  # see _bad_state
        raise _bad_state(state)
    in_bag = scores(state)
    if not in_bag:
        raise _bad_state(state, ValueError("in_bag holds no seat"))
    best = max(in_bag)
    return frozenset(i for i, v in enumerate(in_bag) if v == best)


@overload  # type: ignore[misc]  # one overload: see _bad_state
def legal_actions(state: State) -> tuple[Action, ...]: ...


def legal_actions(state: object) -> tuple[Action, ...]:
    """Return the legal actions, in a deterministic order; at a chance decision, its outcomes;
    at the end of the game, nothing."""
    if type(state) is not State:  # see _bad_state
        raise _bad_state(state)
    try:
        phase = state.phase
        if phase is _PLAY_P:
            seat = state.actor
            hand = state.hand_masks[seat]
            status = state.status[seat]
            if status is _IN:
                plays = hand
                for p in state.trick:  # lead_suit_of() without a call: the lead suit (K8)
                    if p.face_up:
                        follow = hand & _SUIT_MASKS[p.card.suit]
                        if follow:
                            plays = follow  # K9: must follow suit
                        break
                if NATIVE:  # one walk over the bits, in C (see pick_pair)
                    return pick_pair(_PLAY_TABLE, plays, _WITHDRAW_TABLE, hand)
                return _PLAYS(plays) + _WITHDRAWALS(hand)
            _out(status)
            return _DOWNS(hand)
        if phase is _DEAL_P:
            return _DEALS(_pool(state))
        if phase is _CHEST_P:  # the outcomes' actions, checked as they are
            return tuple([a for a, _ in _chest_outcomes(state.tables, state.chest_deck)])
        if phase is _CHOICE_P:
            return (REVEAL, STOP)
        if phase is _COVER_P:
            seat = state.actor
            return _COVERS(state.poison_masks[seat] & ~state.covered_masks[seat])
        if phase is _TRUMP_P:
            return _TRUMPS(_pool(state))
        if phase is _LEADER_P:
            return LEADER[: state.config.players]
        if phase is _OVER_P:
            return ()
        raise ValueError(f"no phase {quoted(phase)}")  # a forged one (a plain int, say)
    except Exception as exc:
        raise _bad_state(state, exc) from None


@overload  # type: ignore[misc]  # one overload: see _bad_state
def chance_outcomes(state: State) -> tuple[tuple[Action, Fraction], ...]: ...


def chance_outcomes(state: object) -> tuple[tuple[Action, Fraction], ...]:
    """Return the outcomes of the chance decision with their exact probabilities (summing to
    exactly 1); an empty tuple when a player must decide or the game is over (K6).

    Dealing and the trump card are uniform over the undealt number cards; chest cards are
    weighted by how many identical cards remain; the first leader is uniform over the seats.
    """
    if type(state) is not State:  # see _bad_state
        raise _bad_state(state)
    try:
        phase = state.phase
        if phase is _DEAL_P:
            pool = state.pool_mask
            if pool <= 0:  # see _pool (inline: the benchmark's most frequent call)
                raise ValueError(f"pool_mask {pool} holds no card")
            return pick(_DEAL_PAIRS[pool.bit_count()], pool)
        if phase is _TRUMP_P:
            pool = _pool(state)
            return pick(_TRUMP_PAIRS[pool.bit_count()], pool)
        if phase is _CHEST_P:
            return _chest_outcomes(state.tables, state.chest_deck)
        if phase is _LEADER_P:
            n = state.config.players
            return tuple((a, _fraction(1, n)) for a in LEADER[:n])
        if phase is _PLAY_P or phase is _OVER_P or phase is _CHOICE_P or phase is _COVER_P:
            return ()
        raise ValueError(f"no phase {quoted(phase)}")  # a forged one (a plain int, say)
    except Exception as exc:
        raise _bad_state(state, exc) from None


def _chest_outcomes(
    t: Tables, deck: tuple[int, ...]
) -> tuple[tuple[Action, Fraction], ...]:
    # The chest deck's contents repeat across games and rounds, so its outcomes are cached
    # with the tables of the game's config.
    cache = t.chest_outcomes
    found = cache.get(deck)
    if found is None:
        if len(cache) > 20_000:
            cache.clear()
        total = sum(deck)
        if total <= 0 or min(deck) < 0:  # a forged deck: no outcomes, or weights below zero
            raise ValueError(f"chest_deck {quoted(deck)} holds no card or a count below zero")
        found = cache[deck] = tuple(
            (Action.chest(c), _fraction(n, total))
            for c, n in zip(t.chest_cards, deck, strict=True)
            if n
        )
    return found


def _illegal(action: Action, seat: int | None, reason: str) -> IllegalActionError:
    who = f"seat {seat} " if seat is not None and seat >= 0 else ""
    return IllegalActionError(f"'{action}' is illegal: {who}{reason}", action=action, seat=seat)


def _expected(state: State) -> str:
    phase = state.phase
    seat = state.actor
    status = state.status
    if type(status) is not tuple:  # as the compiled build reads it (a forged state's list)
        raise TypeError(f"status {quoted(status)} is no tuple")
    if not isinstance(seat, int):  # as the compiled build reads it, not named in a message
        raise TypeError(f"actor {quoted(seat)} is no seat number")
    if phase is Phase.PLAY:
        if status[seat] is _IN:
            return f"seat {seat} must play a card face up or withdraw"
        return f"seat {seat} is out of the round and must play a card face down ('down <card>')"
    return {
        Phase.DEAL: "chance deals a card ('deal <card>')",
        Phase.TRUMP: "chance reveals the trump card ('trump <card>')",
        Phase.LEADER: "chance chooses the first leader ('leader <seat>')",
        Phase.COVER: f"seat {seat} must choose a poison card for its potion ('cover <card>')",
        Phase.CHEST: "chance reveals a chest card ('chest <card>')",
        Phase.CHEST_CHOICE: f"seat {seat} must choose 'reveal' or 'stop'",
        Phase.OVER: "the game is over",
    }[phase]


# The action kinds each phase accepts, indexed by phase. Typed as a tuple of any length: the
# compiled build keeps a constant tuple of fixed shape unboxed and rebuilds it (here nine
# tuples) at every look-up by a variable index, which cost ~150 ns per ``apply``.
_PHASE_KINDS: Final[tuple[tuple[ActionKind, ...], ...]] = (
    (ActionKind.DEAL,),
    (ActionKind.TRUMP,),
    (ActionKind.LEADER,),
    (ActionKind.PLAY, ActionKind.WITHDRAW, ActionKind.DOWN),
    (ActionKind.COVER,),
    (ActionKind.CHEST,),
    (ActionKind.REVEAL, ActionKind.STOP),
    (),
)
assert len(_PHASE_KINDS) == len(Phase)


@overload
def apply(state: State, action: Action) -> State: ...


@overload
def apply(state: State, action: Action, seat: int | ChanceMarker | None) -> State: ...


# The implementation takes ``state: object`` and ``seat: object``: the compiled build checks
# the declared type of an argument before the body runs and would raise TypeError, not the
# errors below (the overloads above give type checkers the real types).
def apply(state: object, action: Action, seat: object = None) -> State:
    """Return the state after ``action``; the input state is never changed.

    ``seat``, when given, is the seat the caller acts for (a seat number, or :data:`CHANCE`
    for a chance outcome); acting out of turn is then an error too. Raise
    :class:`~shock_rules.IllegalActionError` naming the action, the seat and the reason when
    the action is not legal now.

    >>> s = new_game(GameConfig(players=3, first_leader=0))
    >>> apply(s, Action.parse("play 7H"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    shock_rules.IllegalActionError: 'play 7H' is illegal: chance deals a card (...)
    """
    if type(state) is not State:  # see _bad_state
        raise _bad_state(state)
    if type(action) is not _ACTION:
        raise IllegalActionError(
            f"{quoted(action)} is not an Action (parse text with parse_action)")
    try:
        phase = state.phase
        if seat is not None:
            if type(seat) is not int and seat is not CHANCE:
                raise InvalidArgumentError(f"invalid seat {quoted(seat)}: expected a seat number")
            turn = current_player(state)
            if turn is not seat and turn != seat:
                who = "chance" if turn is CHANCE else "nobody (the game is over)" \
                    if turn is None else f"seat {turn}"
                raise _illegal(action, seat if type(seat) is int else None,
                               f"cannot act now: {who} must act")
        if action.kind not in _PHASE_KINDS[phase]:
            raise _illegal(action, None, _expected(state))
        # The step of the phase, the most frequent first. Direct calls, not a table of
        # functions indexed by phase: the compiled build then calls them natively, without a
        # Python-level call and its argument parsing (~50 ns per apply).
        if phase is _DEAL_P:
            after = _deal(state, action)
        elif phase is _PLAY_P:
            after = _play(state, action)
        elif phase is _CHEST_P:
            after = _chest(state, action)
        elif phase is _CHOICE_P:
            after = _chest_choice(state, action)
        elif phase is _TRUMP_P:
            after = _trump(state, action)
        elif phase is _COVER_P:
            after = _cover(state, action)
        elif phase is _LEADER_P:
            after = _leader(state, action)
        else:  # OVER accepts no action kind, so only a phase that is no Phase gets here
            raise _bad_state(state, ValueError(f"no phase {quoted(phase)}"))
        return after  # one step on: every step function freezes a draft (draft.Work.freeze)
    except ShockError:
        raise
    except Exception as exc:
        raise _bad_state(state, exc) from None


def _out(status: object) -> Status:
    """Return a seat's status that is not IN, refusing what no step makes (a forged state's
    plain ``0``, which would read as out of the round)."""
    if status is _WITHDRAWN or status is _SHOCKED:
        return status
    raise TypeError(f"status {quoted(status)} is no Status")


def _play(state: State, action: Action) -> State:
    seat = state.actor
    card = action.card
    assert card is not None
    bit = card.bit
    hands = state.hand_masks
    hand = hands[seat]
    if not hand & bit:
        raise _illegal(action, seat, f"does not hold {card}")
    t = state.tables
    kind = action.kind
    w = draft(state)
    status = state.status
    trick = state.trick
    if kind is _K_PLAY:
        if status[seat] is not _IN:
            raise _illegal(
                action, seat,
                f"is out of the round ({_out(status[seat])}): play face down ('down {card}')",
            )
        for p in trick:  # lead_suit_of() without a call: the lead suit (K8)
            if p.face_up:
                lead = p.card.suit
                if card.suit != lead:
                    if hand & _SUIT_MASKS[lead]:
                        raise _illegal(action, seat, f"must follow {_SUIT_NAMES[lead]}")
                    # K9: not following shows the seat has no card of the lead suit (public).
                    voids = state.void_suits
                    w.void_suits = put(voids, seat, voids[seat] | 1 << lead)
                break
        gems = t.icons[card.index]
        play, played = _PLAYED.get((seat, bit, gems)) or _played(seat, card, True, gems)
        events: tuple[Event, ...] = (played,)
    else:
        gems = t.face_down_gems  # K12
        play, played = _PLAYED.get((seat, bit, gems, False)) or _played(
            seat, card, False, gems
        )
        if kind is _K_WITHDRAW:
            if status[seat] is not _IN:
                raise _illegal(
                    action, seat,
                    f"is out of the round ({_out(status[seat])}): play face down ('down {card}')",
                )
            # K11: gems on the bag go into it; the seat leaves the round and plays face down.
            on_bag = state.on_bag
            banked = on_bag[seat]
            if banked:
                in_bag = state.in_bag
                w.on_bag = put(on_bag, seat, 0)
                w.in_bag = put(in_bag, seat, in_bag[seat] + banked)
            status = put(status, seat, _WITHDRAWN)
            w.status = status
            events = (shared(Withdrew, seat, banked), played)
        else:  # DOWN
            if status[seat] is _IN:
                raise _illegal(action, seat, "is in the round: play a card face up or withdraw")
            _out(status[seat])
            events = (played,)
        fd = state.face_down_masks
        w.face_down_masks = put(fd, seat, fd[seat] | bit)
    trick = trick + (play,)  # not +=, which would extend a forged state's list in place
    w.trick = trick
    new_hands = [*hands]  # put() without a call: the hot path
    new_hands[seat] = hand ^ bit
    w.hand_masks = tuple(new_hands)
    w.supply = state.supply - gems
    w.actor = seat + 1 if seat + 1 < t.players else 0
    if kind is _K_WITHDRAW and _IN not in status:
        w.events = [*events]
        abandon_trick(w)  # K13
        return w.freeze()
    if len(trick) == t.players:
        w.events = [*events]
        resolve_trick(w)
        return w.freeze()
    return w.freeze_with(events)


def _deal(state: State, action: Action) -> State:
    card = action.card
    assert card is not None
    bit = card.bit
    pool = state.pool_mask
    if not pool & bit:
        raise _illegal(action, None, f"{card} is not in the dungeon deck")
    seat = state.actor
    w = draft(state)
    new_hands = [*state.hand_masks]  # put() without a call: the most frequent step
    hand = new_hands[seat]
    new_hands[seat] = hand | bit
    w.hand_masks = hands = tuple(new_hands)
    size = hand.bit_count()
    # DEAL-2: usually the next seat is next; next_deal_target settles the other cases.
    if seat + 1 < len(hands) and hands[seat + 1].bit_count() == size:
        w.actor = seat + 1
    else:
        target = next_deal_target(hands, seat, size, state.tables.hand_size)
        w.actor = target
        if target < 0:
            w.phase = _TRUMP_P
    w.pool_mask = pool ^ bit
    return w.freeze_with(_DEALT[seat][card.index])


def _trump(state: State, action: Action) -> State:
    card = action.card
    assert card is not None
    if not state.pool_mask & card.bit:
        raise _illegal(action, None, f"{card} is not in the dungeon deck")
    w = draft(state)
    w.pool_mask = state.pool_mask ^ card.bit
    w.trump_index = card.index
    if state.leader < 0:
        w.phase, w.actor = _LEADER_P, -1
    else:
        w.phase, w.actor = _PLAY_P, state.leader
    return w.freeze_with(_TRUMPED[card.index])


def _leader(state: State, action: Action) -> State:
    seat = action.seat
    assert seat is not None
    if seat >= state.config.players:
        raise _illegal(action, None, f"there is no seat {seat} with {state.config.players} players")
    w = draft(state)
    w.leader = w.round_leader = w.actor = seat
    w.phase = _PLAY_P
    return w.freeze_with((LeaderChosen(seat),))


def _cover(state: State, action: Action) -> State:
    actor = state.actor
    card = action.card
    assert card is not None
    if not state.poison_masks[actor] & card.bit:
        raise _illegal(action, actor, f"has no poison card {card} in front of it")
    if state.covered_masks[actor] & card.bit:
        raise _illegal(action, actor, f"{card} is already covered")
    w = draft(state)
    cover(w, card.index)
    return w.freeze()


def _chest(state: State, action: Action) -> State:
    kind = state.tables.chest_index.get(action.chest_card, -1)  # type: ignore[arg-type]
    if kind < 0 or not state.chest_deck[kind]:
        raise _illegal(action, None, f"no {action.chest_card} card is left in the chest deck")
    w = draft(state)
    reveal(w, kind)
    return w.freeze()


def _chest_choice(state: State, action: Action) -> State:
    if action.kind is _K_REVEAL:
        w = draft(state)  # K22: another card; nothing else changes
        w.phase = _CHEST_P
        return w.freeze_with(())
    w = draft(state)
    stop(w)
    return w.freeze()


# -- sampling chance --------------------------------------------------------------------------


@overload  # type: ignore[misc]  # one overload: see _bad_state
def sample_chance(state: State, rng: random.Random) -> Action: ...


def sample_chance(state: object, rng: random.Random) -> Action:
    """Return one outcome of the chance decision, drawn with the caller's generator according
    to :func:`chance_outcomes`."""
    if type(state) is not State:  # see _bad_state
        raise _bad_state(state)
    _check_rng(rng)
    try:
        phase = state.phase
        if phase is _DEAL_P:
            return rng.choice(_DEALS(_pool(state)))
        if phase is _TRUMP_P:
            return rng.choice(_TRUMPS(_pool(state)))
        if phase is _CHEST_P:
            deck = state.chest_deck
            if type(deck) is not tuple:  # as the compiled build reads it (a forged list)
                raise TypeError(f"chest_deck {quoted(deck)} is no tuple")
            if min(deck, default=0) < 0:  # a forged deck (see _chest_outcomes)
                raise ValueError(f"chest_deck {quoted(deck)} holds a count below zero")
            kinds = [i for i, n in enumerate(deck) if n]
            i = rng.choices(kinds, weights=[deck[k] for k in kinds])[0]
            return _ACTION.chest(state.tables.chest_cards[i])
        if phase is _LEADER_P:
            return LEADER[rng.randrange(state.config.players)]
        raise IllegalActionError(f"no chance decision is pending: {_expected(state)}")
    except ShockError:
        raise
    except Exception as exc:  # a corrupt state (an empty pool or chest deck, a wrong field)
        raise _bad_state(state, exc) from None


@overload  # type: ignore[misc]  # one overload: see _bad_state
def resolve_chance(state: State, rng: random.Random) -> State: ...


def resolve_chance(state: object, rng: random.Random) -> State:
    """Return the state after sampling chance decisions with ``rng`` until a player must
    decide or the game is over."""
    if type(state) is not State:  # see _bad_state
        raise _bad_state(state)
    _check_rng(rng)
    while is_chance(state):  # which turns a corrupt phase into InvalidStateError
        state = apply(state, sample_chance(state, rng))
    return state


def random_playout(
    config: GameConfig | None = None,
    rng: random.Random | None = None,
    actions: list[Action] | None = None,
) -> State:
    """Return the final state of a game where chance and every player act at random.

    The actions taken (chance included) are appended to ``actions`` when it is given.
    """
    if rng is None:
        rng = random.Random()
    _check_rng(rng)
    if actions is not None and not isinstance(actions, list):
        raise InvalidArgumentError(
            f"invalid actions: expected a list to append to, not {type(actions).__name__}")
    state = new_game(config)
    while state.phase is not _OVER_P:
        if _IS_CHANCE[state.phase]:
            action = sample_chance(state, rng)
        else:
            action = rng.choice(legal_actions(state))
        if actions is not None:
            actions.append(action)
        state = apply(state, action)
    return state
