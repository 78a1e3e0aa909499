"""The public functional core: ``new_game``, ``legal_actions``, ``chance_outcomes``, ``apply``.

Everything here is pure: no I/O, no clock, no hidden randomness (K6). ``apply`` checks the
action against the rules and raises :class:`~shock_rules.IllegalActionError` (leaving its input
untouched, as every state is immutable) when it is not legal.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Final

from ._actions import (
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
from ._cards import RANKS, Suit
from ._chest import choose, reveal
from ._config import GameConfig, tables_for
from ._errors import IllegalActionError
from ._events import (
    CardDealt,
    CardPlayed,
    Event,
    LeaderChosen,
    RoundStarted,
    TrumpRevealed,
    Withdrew,
)
from ._poison import cover
from ._round import deal_target
from ._state import CHANCE, ChanceMarker, Phase, Play, State, Status
from ._trick import abandon_trick, lead_suit_of, resolve_trick
from ._work import Work

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

# -- building tuples of actions from bitmasks ------------------------------------------------
# A hand is a 44-bit mask; its actions are the concatenation of four per-suit tuples, each
# built once per (kind, suit, 11-bit chunk) and then reused.
_CHUNKS: dict[int, list[list[tuple[Action, ...] | None]]] = {}


def _actions_of(table: tuple[Action, ...], mask: int) -> tuple[Action, ...]:
    cache = _CHUNKS.get(id(table))
    if cache is None:
        cache = _CHUNKS[id(table)] = [[None] * 2048 for _ in range(4)]
    out: tuple[Action, ...] = ()
    for s in range(4):
        chunk = (mask >> (RANKS * s)) & 0x7FF
        if chunk:
            acts = cache[s][chunk]
            if acts is None:
                acts = cache[s][chunk] = tuple(
                    table[RANKS * s + r] for r in range(RANKS) if chunk >> r & 1
                )
            out += acts
    return out


_FRACTIONS: dict[tuple[int, int], Fraction] = {}


def _fraction(num: int, den: int) -> Fraction:
    f = _FRACTIONS.get((num, den))
    if f is None:
        f = _FRACTIONS[(num, den)] = Fraction(num, den)
    return f


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
        from ._errors import ConfigError

        raise ConfigError(f"new_game() needs a GameConfig, not {config!r}")
    t = tables_for(config)
    n = config.players
    leader = -1 if config.first_leader is None else config.first_leader
    zeros = (0,) * n
    kinds = len(t.chest_counts)
    return State(
        config, t, Phase.DEAL, 1, 1, leader, 0, (), zeros, t.deck, -1, 0, zeros,
        (Status.IN,) * n, zeros, zeros, t.supply, zeros, zeros, zeros, zeros,
        t.chest_counts, (0,) * kinds, (0,) * kinds, 0, -1, leader,
        (RoundStarted(1, leader),),
    )


def current_player(state: State) -> int | ChanceMarker | None:
    """Return the seat that must decide, :data:`CHANCE` at a chance decision, or ``None``
    when the game is over."""
    phase = state.phase
    if _IS_CHANCE[phase]:
        return CHANCE
    if phase is Phase.OVER:
        return None
    return state.actor


def is_chance(state: State) -> bool:
    """Return whether the next action is a chance outcome (K6)."""
    return _IS_CHANCE[state.phase]


def is_terminal(state: State) -> bool:
    """Return whether the game is over (after round 5, K28)."""
    return state.phase is Phase.OVER


def scores(state: State) -> tuple[int, ...]:
    """Return each seat's score: the value of the gems in its bag (K28)."""
    return state.in_bag


def winners(state: State) -> frozenset[int]:
    """Return the seats with the highest score (ties share the victory, K28).

    At the end of the game these are the winners; before it, the current leaders.
    """
    best = max(state.in_bag)
    return frozenset(i for i, v in enumerate(state.in_bag) if v == best)


def legal_actions(state: State) -> tuple[Action, ...]:
    """Return the legal actions, in a deterministic order; at a chance decision, its outcomes;
    at the end of the game, nothing."""
    phase = state.phase
    if phase is Phase.PLAY:
        seat = state.actor
        hand = state.hand_masks[seat]
        if state.status[seat] is _IN:
            plays = hand
            lead = lead_suit_of(state.trick)
            if lead >= 0 and hand & _SUIT_MASKS[lead]:
                plays = hand & _SUIT_MASKS[lead]  # K9: must follow suit
            return _actions_of(PLAY, plays) + _actions_of(WITHDRAW, hand)
        return _actions_of(DOWN, hand)
    if phase is Phase.DEAL:
        return _actions_of(DEAL, state.pool_mask)
    if phase is Phase.CHEST:
        return tuple(
            Action.chest(c)
            for c, n in zip(state.tables.chest_cards, state.chest_deck, strict=True)
            if n
        )
    if phase is Phase.CHEST_CHOICE:
        return (REVEAL, STOP)
    if phase is Phase.COVER:
        seat = state.actor
        return _actions_of(COVER, state.poison_masks[seat] & ~state.covered_masks[seat])
    if phase is Phase.TRUMP:
        return _actions_of(TRUMP, state.pool_mask)
    if phase is Phase.LEADER:
        return LEADER[: state.config.players]
    return ()


def chance_outcomes(state: State) -> tuple[tuple[Action, Fraction], ...]:
    """Return the outcomes of the chance decision with their exact probabilities (summing to
    exactly 1); an empty tuple when a player must decide or the game is over (K6).

    Dealing and the trump card are uniform over the undealt number cards; chest cards are
    weighted by how many identical cards remain; the first leader is uniform over the seats.
    """
    phase = state.phase
    if phase is Phase.DEAL or phase is Phase.TRUMP:
        acts = _actions_of(DEAL if phase is Phase.DEAL else TRUMP, state.pool_mask)
        p = _fraction(1, len(acts))
        return tuple([(a, p) for a in acts])
    if phase is Phase.CHEST:
        total = sum(state.chest_deck)
        return tuple(
            (Action.chest(c), _fraction(n, total))
            for c, n in zip(state.tables.chest_cards, state.chest_deck, strict=True)
            if n
        )
    if phase is Phase.LEADER:
        n = state.config.players
        return tuple((a, _fraction(1, n)) for a in LEADER[:n])
    return ()


def _illegal(action: Action, seat: int | None, reason: str) -> IllegalActionError:
    who = f"seat {seat} " if seat is not None and seat >= 0 else ""
    return IllegalActionError(f"'{action}' is illegal: {who}{reason}", action=action, seat=seat)


def _expected(state: State) -> str:
    phase = state.phase
    seat = state.actor
    if phase is Phase.PLAY:
        if state.status[seat] is _IN:
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


_PHASE_KINDS: Final = {
    Phase.DEAL: (ActionKind.DEAL,),
    Phase.TRUMP: (ActionKind.TRUMP,),
    Phase.LEADER: (ActionKind.LEADER,),
    Phase.PLAY: (ActionKind.PLAY, ActionKind.WITHDRAW, ActionKind.DOWN),
    Phase.COVER: (ActionKind.COVER,),
    Phase.CHEST: (ActionKind.CHEST,),
    Phase.CHEST_CHOICE: (ActionKind.REVEAL, ActionKind.STOP),
    Phase.OVER: (),
}


def apply(state: State, action: Action, seat: int | None = None) -> State:
    """Return the state after ``action``; the input state is never changed.

    ``seat``, when given, is the seat the caller acts for; acting out of turn is then an
    error too. Raise :class:`~shock_rules.IllegalActionError` naming the action, the seat and
    the reason when the action is not legal now.

    >>> s = new_game(GameConfig(players=3, first_leader=0))
    >>> apply(s, Action.parse("play 7H"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    shock_rules._errors.IllegalActionError: 'play 7H' is illegal: chance deals a card (...)
    """
    if type(action) is not Action:
        raise IllegalActionError(f"{action!r} is not an Action (parse text with parse_action)")
    phase = state.phase
    actor = state.actor
    if seat is not None:
        turn = current_player(state)
        if turn is not seat and turn != seat:
            who = "chance" if turn is CHANCE else "nobody (the game is over)" if turn is None \
                else f"seat {turn}"
            raise _illegal(action, seat, f"it is not this seat's turn: {who} must act")
    kind = action.kind
    if kind not in _PHASE_KINDS[phase]:
        raise _illegal(action, None, _expected(state))
    if phase is Phase.PLAY:
        return _play(state, action)
    if phase is Phase.DEAL:
        return _deal(state, action)
    if phase is Phase.CHEST:
        kind_index = state.tables.chest_index.get(action.chest_card, -1)  # type: ignore[arg-type]
        if kind_index < 0 or not state.chest_deck[kind_index]:
            raise _illegal(action, None, f"no {action.chest_card} card is left in the chest deck")
        w = Work(state, [])
        reveal(w, kind_index)
        return w.freeze()
    if phase is Phase.CHEST_CHOICE:
        w = Work(state, [])
        choose(w, kind is ActionKind.REVEAL)
        return w.freeze()
    if phase is Phase.COVER:
        bit = action.card.bit  # type: ignore[union-attr]
        if not state.poison_masks[actor] & bit:
            raise _illegal(action, actor, f"has no poison card {action.card} in front of it")
        if state.covered_masks[actor] & bit:
            raise _illegal(action, actor, f"{action.card} is already covered")
        w = Work(state, [])
        cover(w, action.card.index)  # type: ignore[union-attr]
        return w.freeze()
    if phase is Phase.TRUMP:
        return _trump(state, action)
    return _leader(state, action)


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
    trick = state.trick
    status = state.status
    voids = state.void_suits
    face_down = state.face_down_masks
    on_bag = state.on_bag
    in_bag = state.in_bag
    events: list[Event] = []
    if status[seat] is _IN:
        if kind is ActionKind.PLAY:
            lead = lead_suit_of(trick)
            if lead >= 0 and card.suit != lead:
                if hand & _SUIT_MASKS[lead]:
                    raise _illegal(action, seat, f"must follow {_SUIT_NAMES[lead]}")
                # K9: not following shows the seat has no card of the lead suit (public).
                voids = voids[:seat] + (voids[seat] | 1 << lead,) + voids[seat + 1:]
            gems = t.icons[card.index]
            face_up = True
        elif kind is ActionKind.WITHDRAW:
            # K11: gems on the bag go into it; the seat leaves the round and plays face down.
            banked = on_bag[seat]
            on_bag = on_bag[:seat] + (0,) + on_bag[seat + 1:]
            in_bag = in_bag[:seat] + (in_bag[seat] + banked,) + in_bag[seat + 1:]
            status = status[:seat] + (Status.WITHDRAWN,) + status[seat + 1:]
            events.append(Withdrew(seat, banked))
            gems = t.face_down_gems
            face_up = False
        else:
            raise _illegal(action, seat, "is in the round: play a card face up or withdraw")
    else:
        if kind is not ActionKind.DOWN:
            raise _illegal(
                action, seat,
                f"is out of the round ({status[seat]}): play face down ('down {card}')",
            )
        gems = t.face_down_gems  # K12
        face_up = False
    if not face_up:
        face_down = face_down[:seat] + (face_down[seat] | bit,) + face_down[seat + 1:]
    events.append(CardPlayed(seat, card, face_up, gems))
    trick = (*trick, Play(seat, card, face_up, gems))
    n = t.players
    nxt = State(
        state.config, t, Phase.PLAY, state.round, state.trick_number, state.leader,
        (seat + 1) % n, trick, hands[:seat] + (hand ^ bit,) + hands[seat + 1:], state.pool_mask,
        state.trump_index, state.discard_mask, face_down, status, on_bag, in_bag,
        state.supply - gems, state.poison_masks, state.covered_masks, state.potion_masks, voids,
        state.chest_deck, state.chest_discard, state.chest_centre, state.revealed,
        state.last_winner, state.round_leader, tuple(events),
    )
    if kind is ActionKind.WITHDRAW and _IN not in status:
        w = Work(nxt, events)
        abandon_trick(w)  # K13
        return w.freeze()
    if len(trick) == n:
        w = Work(nxt, events)
        resolve_trick(w)
        return w.freeze()
    return nxt


def _deal(state: State, action: Action) -> State:
    card = action.card
    assert card is not None
    if not state.pool_mask & card.bit:
        raise _illegal(action, None, f"{card} is not in the dungeon deck")
    seat = state.actor
    hands = state.hand_masks
    hands = hands[:seat] + (hands[seat] | card.bit,) + hands[seat + 1:]
    target = deal_target(hands, state.tables.hand_size)
    return State(
        state.config, state.tables, Phase.DEAL if target >= 0 else Phase.TRUMP, state.round,
        state.trick_number, state.leader, target, state.trick,
        hands, state.pool_mask ^ card.bit, state.trump_index, state.discard_mask,
        state.face_down_masks, state.status, state.on_bag, state.in_bag, state.supply,
        state.poison_masks, state.covered_masks, state.potion_masks, state.void_suits,
        state.chest_deck, state.chest_discard, state.chest_centre, state.revealed,
        state.last_winner, state.round_leader, (CardDealt(seat, card),),
    )


def _trump(state: State, action: Action) -> State:
    card = action.card
    assert card is not None
    if not state.pool_mask & card.bit:
        raise _illegal(action, None, f"{card} is not in the dungeon deck")
    w = Work(state, [TrumpRevealed(card)])
    w.pool ^= card.bit
    w.trump = card.index
    if w.leader < 0:
        w.set_phase(Phase.LEADER)
    else:
        w.set_phase(Phase.PLAY, w.leader)
    return w.freeze()


def _leader(state: State, action: Action) -> State:
    seat = action.seat
    assert seat is not None
    if seat >= state.config.players:
        raise _illegal(action, None, f"there is no seat {seat} with {state.config.players} players")
    w = Work(state, [LeaderChosen(seat)])
    w.leader = w.round_leader = seat
    w.set_phase(Phase.PLAY, seat)
    return w.freeze()


# -- sampling chance --------------------------------------------------------------------------


def sample_chance(state: State, rng: random.Random) -> Action:
    """Return one outcome of the chance decision, drawn with the caller's generator according
    to :func:`chance_outcomes`."""
    phase = state.phase
    if phase is Phase.DEAL or phase is Phase.TRUMP:
        return rng.choice(_actions_of(DEAL if phase is Phase.DEAL else TRUMP, state.pool_mask))
    if phase is Phase.CHEST:
        kinds = [i for i, n in enumerate(state.chest_deck) if n]
        i = rng.choices(kinds, weights=[state.chest_deck[k] for k in kinds])[0]
        return Action.chest(state.tables.chest_cards[i])
    if phase is Phase.LEADER:
        return LEADER[rng.randrange(state.config.players)]
    raise IllegalActionError(f"no chance decision is pending: {_expected(state)}")


def resolve_chance(state: State, rng: random.Random) -> State:
    """Return the state after sampling chance decisions with ``rng`` until a player must
    decide or the game is over."""
    while _IS_CHANCE[state.phase]:
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
    state = new_game(config)
    while state.phase is not Phase.OVER:
        if _IS_CHANCE[state.phase]:
            action = sample_chance(state, rng)
        else:
            action = rng.choice(legal_actions(state))
        if actions is not None:
            actions.append(action)
        state = apply(state, action)
    return state
