"""The public functional core: ``new_game``, ``legal_actions``, ``chance_outcomes``, ``apply``.

Everything here is pure: no I/O, no clock, no hidden randomness (K6). What is legal is
written once, in ``_options`` (a mask of legal arguments per action kind): ``legal_actions``
lists its masks, and ``apply`` accepts an action only if its argument is in them, so it accepts
exactly what ``legal_actions`` lists. Otherwise ``apply`` raises
:class:`~shock_rules.IllegalActionError` (leaving its input untouched, as every state is
immutable), saying which rule left the action out (``_refusal``).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Final

from .._errors import ConfigError, IllegalActionError, InvalidArgumentError, check_seat, quoted
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
from .bits import iter_bits, put
from .cards import CARDS, Card, Suit
from .chest import reveal, stop
from .config import GameConfig
from .draft import Work, draft, shared
from .events import (
    CardDealt,
    CardPlayed,
    LeaderChosen,
    RoundStarted,
    TrumpRevealed,
    Withdrew,
)
from .pick import pick, picker
from .poison import cover
from .probability import fraction as _fraction
from .round import next_deal_target
from .state import (
    CHANCE,
    CHANCE_PHASES,
    POTION_BITS,
    ChanceMarker,
    Phase,
    Play,
    State,
    Status,
    covered_mask,
    lead_suit,
    not_a_state,
)
from .tables import Tables, tables_for
from .trick import abandon_trick, resolve_trick

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
    "seats_to_act",
    "winners",
]

_SUIT_MASKS: Final = tuple(s.mask for s in Suit)
#: Whether each phase is a chance decision, indexed by phase (K6).
_IS_CHANCE: Final = tuple(p in CHANCE_PHASES for p in Phase)
# Enum members as module constants, each Final (compiled: a C variable, not a dict look-up):
# reading one from its class costs ~80 ns on Python 3.11, a constant ~7 ns.
_DEAL: Final = Phase.DEAL
_TRUMP: Final = Phase.TRUMP
_LEADER: Final = Phase.LEADER
_PLAY: Final = Phase.PLAY
_COVER: Final = Phase.COVER
_CHEST: Final = Phase.CHEST
_CHOICE: Final = Phase.CHEST_CHOICE
_OVER: Final = Phase.OVER
_IN: Final = Status.IN
_WITHDRAWN: Final = Status.WITHDRAWN
_K_PLAY: Final = ActionKind.PLAY
_K_WITHDRAW: Final = ActionKind.WITHDRAW
_K_DOWN: Final = ActionKind.DOWN
_K_REVEAL: Final = ActionKind.REVEAL
# Plays and events are immutable values, so the frequent ones are made once and shared
# (an attrs constructor costs ~0.3 us, a step makes one or two).
_PLAYED: Final[dict[tuple[int, ...], tuple[Play, CardPlayed]]] = {}


def _played(seat: int, card: Card, face_up: bool, gems: int) -> tuple[Play, CardPlayed]:
    """Return the play of ``card`` into the trick and its event, made once and shared."""
    key = (seat, card.bit, gems, face_up)
    found = _PLAYED.get(key)
    if found is None:
        found = _PLAYED[key] = (Play(seat, card, face_up, gems),
                                CardPlayed(seat, card, face_up, gems))
    return found


_DEALT: Final = tuple(tuple((CardDealt(seat, c),) for c in CARDS) for seat in range(5))
_TRUMPED: Final = tuple((TrumpRevealed(c),) for c in CARDS)

# Legal actions of each card kind, picked by card mask (see pick.py).
_PLAYS: Final = picker(PLAY)
_WITHDRAWALS: Final = picker(WITHDRAW)
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
        supply=t.supply, poison_masks=zeros, potion_masks=zeros,
        potion_on_masks=(0,) * len(POTION_BITS), void_suits=zeros, chest_deck=t.chest_counts,
        chest_discard=(0,) * kinds, chest_centre=(0,) * kinds, revealed=0, last_winner=-1,
        round_leader=leader,
        events=(RoundStarted(1, leader),),
    )


def current_player(state: State) -> int | ChanceMarker | None:
    """Return the seat that must decide, :data:`CHANCE` at a chance decision, or ``None``
    when the game is over."""
    if type(state) is not State:
        raise not_a_state(state)
    phase = state.phase
    if _IS_CHANCE[phase]:
        return CHANCE
    if phase is _OVER:
        return None
    return state.actor


def is_chance(state: State) -> bool:
    """Return whether the next action is a chance outcome (K6)."""
    if type(state) is not State:
        raise not_a_state(state)
    return _IS_CHANCE[state.phase]


def is_terminal(state: State) -> bool:
    """Return whether the game is over (after round 5, K28)."""
    if type(state) is not State:
        raise not_a_state(state)
    return state.phase is _OVER


def scores(state: State) -> tuple[int, ...]:
    """Return each seat's score: the value of the gems in its bag (K28)."""
    if type(state) is not State:
        raise not_a_state(state)
    return state.in_bag


def winners(state: State) -> frozenset[int]:
    """Return the seats with the highest score (ties share the victory, K28).

    At the end of the game these are the winners; before it, the current leaders.
    """
    best = max(scores(state))
    return frozenset(i for i, v in enumerate(state.in_bag) if v == best)


def legal_actions(state: State, seat: int | None = None) -> tuple[Action, ...]:
    """Return the legal actions, in a deterministic order: at a player's decision, that
    player's; at a chance decision, its outcomes; at the end of the game, nothing.

    With ``seat``, return that seat's legal actions: the same tuple when it is the seat to
    decide (:func:`current_player`), an empty one otherwise, at a chance decision and at the
    end too. A ``seat`` the game does not have (a number out of range, a bool) raises
    :class:`~shock_rules.InvalidArgumentError`; one that is no number, a ``TypeError`` (which
    InvalidArgumentError also is).

    >>> s = new_game(GameConfig(players=3, first_leader=0))
    >>> len(legal_actions(s)), legal_actions(s, 0)
    (36, ())
    """
    if type(state) is not State:
        raise not_a_state(state)
    phase = state.phase
    # Read as an object: the compiled build reads a seat narrowed to ``int`` as a machine
    # integer, which turns True into 1 before check_seat can refuse it.
    asked: object = seat
    if asked is not None:
        check_seat(asked, state.config.players)
        if _IS_CHANCE[phase] or phase is _OVER or asked != state.actor:
            return ()
    first, second, third = _options(state, phase)
    if phase is _PLAY:
        # Each mask's actions, an empty mask skipped: a pick costs ~0.2 us pure even for none.
        acts = _PLAYS(first) if first else ()
        if second:
            acts += _WITHDRAWALS(second)
        return acts + _DOWNS(third) if third else acts
    if phase is _DEAL:
        return _DEALS(first)
    if phase is _CHEST:
        cards = state.tables.chest_cards
        return tuple([Action.chest(cards[kind]) for kind in iter_bits(first)])
    if phase is _CHOICE:
        return (REVEAL, STOP)  # _options allows both (K22)
    if phase is _COVER:
        return _COVERS(first)
    if phase is _TRUMP:
        return _TRUMPS(first)
    if phase is _LEADER:
        return LEADER[: first.bit_length()]  # the seats 0 to players - 1
    return ()  # OVER


def seats_to_act(state: State) -> tuple[int, ...]:
    """Return the seats that may act now, in seat order: the seat to decide at a player's
    decision, none at a chance decision or at the end of the game.

    >>> s = new_game(GameConfig(players=3, first_leader=0))
    >>> seats_to_act(s)
    ()
    """
    if type(state) is not State:
        raise not_a_state(state)
    phase = state.phase
    if _IS_CHANCE[phase] or phase is _OVER:
        return ()
    return (state.actor,)


def chance_outcomes(state: State) -> tuple[tuple[Action, Fraction], ...]:
    """Return the outcomes of the chance decision with their exact probabilities (summing to
    exactly 1); an empty tuple when a player must decide or the game is over (K6).

    Dealing and the trump card are uniform over the undealt number cards; chest cards are
    weighted by how many identical cards remain; the first leader is uniform over the seats.
    """
    if type(state) is not State:
        raise not_a_state(state)
    phase = state.phase
    if phase is _DEAL:
        pool = state.pool_mask
        return pick(_DEAL_PAIRS[pool.bit_count()], pool)
    if phase is _TRUMP:
        pool = state.pool_mask
        return pick(_TRUMP_PAIRS[pool.bit_count()], pool)
    if phase is _CHEST:
        return _chest_outcomes(state.tables, state.chest_deck)
    if phase is _LEADER:
        n = state.config.players
        return tuple((a, _fraction(1, n)) for a in LEADER[:n])
    return ()


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
        found = cache[deck] = tuple(
            (Action.chest(c), _fraction(n, total))
            for c, n in zip(t.chest_cards, deck, strict=True)
            if n
        )
    return found


# -- what is legal now: the one source of legal_actions and apply ---------------------------

# The action kinds each phase takes, indexed by phase, in the order of the masks that
# ``_options`` gives them; padded with None to three, so that the gate of ``apply`` compares
# an action's kind with each slot without a length test. Typed as a tuple of any length: the
# compiled build keeps a constant tuple of fixed shape unboxed and rebuilds it (here nine
# tuples) at every look-up by a variable index, which cost ~150 ns per ``apply``.
_PHASE_KINDS: Final[tuple[tuple[ActionKind | None, ...], ...]] = (
    (ActionKind.DEAL, None, None),
    (ActionKind.TRUMP, None, None),
    (ActionKind.LEADER, None, None),
    (ActionKind.PLAY, ActionKind.WITHDRAW, ActionKind.DOWN),
    (ActionKind.COVER, None, None),
    (ActionKind.CHEST, None, None),
    (ActionKind.REVEAL, ActionKind.STOP, None),
    (None, None, None),
)
assert len(_PHASE_KINDS) == len(Phase)


def _options(state: State, phase: Phase) -> tuple[int, int, int]:
    """Return what may be done now: for each action kind of ``_PHASE_KINDS[phase]``, in that
    order, the mask of its legal arguments (number cards by their bit, the others as
    :func:`_bit` says), 0 for an unused slot.

    ``phase`` is ``state.phase``, which every caller has read already (a State attribute read
    costs ~40 ns in the pure build). ``legal_actions`` lists these masks and the gate of
    ``apply`` tests an action against them, so that ``apply`` accepts exactly what
    ``legal_actions`` lists. At a play, the three masks (face up, withdrawals, face down)
    together are the actor's hand.
    """
    if phase is _DEAL or phase is _TRUMP:
        return state.pool_mask, 0, 0  # DEAL-1: any card of the dungeon deck
    if phase is _PLAY:
        seat = state.actor
        hand = state.hand_masks[seat]
        if state.status[seat] is not _IN:
            return 0, 0, hand  # WITHDRAW-3, K12: out of the round, any card, face down only
        lead = lead_suit(state.trick)
        if lead is not None and hand & _SUIT_MASKS[lead]:
            return hand & _SUIT_MASKS[lead], hand, 0  # K9: follow suit when able; K11: any
        return hand, hand, 0
    if phase is _CHEST:
        return _left_in_chest(state.chest_deck), 0, 0  # K19, K22: a card of the chest deck
    if phase is _CHOICE:
        return 1, 1, 0  # K22: reveal another chest card or stop
    if phase is _COVER:
        seat = state.actor
        # K16: a potion covers one of the seat's poison cards not yet covered.
        return state.poison_masks[seat] & ~covered_mask(state.potion_on_masks), 0, 0
    if phase is _LEADER:
        return (1 << state.config.players) - 1, 0, 0  # K5: any seat
    return 0, 0, 0  # OVER


# The chest cards left in each chest deck met (by contents), made once: a chest step made the
# mask by a loop over the kinds, ~0.5 us in the pure build.
_LEFT: Final[dict[tuple[int, ...], int]] = {}


def _left_in_chest(deck: tuple[int, ...]) -> int:
    """Return the mask of the chest cards (by their index in the edition) that the chest deck
    still holds."""
    mask = _LEFT.get(deck, -1)
    if mask < 0:
        if len(_LEFT) > 20_000:
            _LEFT.clear()
        mask = 0
        for kind, count in enumerate(deck):
            if count:
                mask |= 1 << kind
        _LEFT[deck] = mask
    return mask


def _bit(state: State, action: Action) -> int:
    """Return the bit of the argument of an action without a number card (whose bit is the
    card's) in the masks of :func:`_options`: a chest card's by its index in the edition (0 for
    a chest card the edition does not have), a seat's by its number, bit 0 for ``reveal`` and
    ``stop``."""
    chest_card = action.chest_card
    if chest_card is not None:
        kind = state.tables.chest_index.get(chest_card, -1)
        return 1 << kind if kind >= 0 else 0
    seat = action.seat
    return 1 if seat is None else 1 << seat


def _refusal(state: State, action: Action) -> IllegalActionError:
    """Return the error of an action that the gate of ``apply`` refused, naming the part of
    :func:`_options` that leaves it out. Only a refused action comes here."""
    phase = state.phase
    kind = action.kind
    if kind not in _PHASE_KINDS[phase]:
        return _illegal(action, None, _expected(state))
    seat = state.actor
    card = action.card
    if phase is _PLAY:
        assert card is not None
        up, withdrawals, down = _options(state, phase)
        if not (up | withdrawals | down) & card.bit:
            return _illegal(action, seat, f"does not hold {card}")
        if down:  # out of the round: the hand is the face-down mask (K12)
            return _illegal(action, seat, f"is out of the round ({state.status[seat]}):"
                                          f" play face down ('down {card}')")
        if kind is _K_DOWN:
            return _illegal(action, seat, "is in the round: play a card face up or withdraw")
        # Held, in the round, not a withdrawal: a face-up card off the lead suit (K9).
        return _illegal(action, seat, f"must follow {lead_suit(state.trick)}")
    if phase is _DEAL or phase is _TRUMP:
        return _illegal(action, None, f"{card} is not in the dungeon deck")
    if phase is _COVER:
        assert card is not None
        if not state.poison_masks[seat] & card.bit:
            return _illegal(action, seat, f"has no poison card {card} in front of it")
        return _illegal(action, seat, f"{card} is already covered")
    if phase is _LEADER:
        return _illegal(action, None, f"there is no seat {action.seat} with"
                                      f" {state.config.players} players")
    # CHEST: the other phases refuse no action of a kind they take.
    return _illegal(action, None, f"no {action.chest_card} card is left in the chest deck")


def _illegal(action: Action, seat: int | None, reason: str) -> IllegalActionError:
    who = f"seat {seat} " if seat is not None and seat >= 0 else ""
    return IllegalActionError(f"'{action}' is illegal: {who}{reason}", action=action, seat=seat)


def _expected(state: State) -> str:
    """Return what the game waits for, for the message of an illegal action."""
    phase = state.phase
    seat = state.actor
    if phase is Phase.PLAY:
        if state.status[seat] is Status.IN:
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


# -- applying an action -------------------------------------------------------------------------


def apply(state: State, action: Action, seat: int | ChanceMarker | None = None) -> State:
    """Return the state after ``action``; the input state is never changed.

    ``seat``, when given, is the seat the caller acts for (a seat number, or :data:`CHANCE`
    for a chance outcome); acting out of turn is then an error too. Raise
    :class:`~shock_rules.IllegalActionError` naming the action, the seat and the reason when
    the action is not legal now (not one of :func:`legal_actions`), and ``TypeError`` for a
    state or an action that is no :class:`State` or :class:`Action` (parse text with
    :func:`~shock_rules.parse_action`).

    >>> s = new_game(GameConfig(players=3, first_leader=0))
    >>> apply(s, Action.parse("play 7H"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    shock_rules.IllegalActionError: 'play 7H' is illegal: chance deals a card (...)
    """
    if type(state) is not State:
        raise not_a_state(state)
    if type(action) is not Action:
        raise TypeError(f"expected an Action, not {type(action).__name__} {quoted(action)}"
                        " (parse text with parse_action)")
    if seat is not None:
        _check_turn(state, action, seat)
    # The gate: the action's argument must be in the mask of its kind among the masks that
    # legal_actions lists; the step functions below check nothing.
    phase = state.phase
    kind = action.kind
    kinds = _PHASE_KINDS[phase]
    first, second, third = _options(state, phase)
    mask = (first if kind is kinds[0] else second if kind is kinds[1]
            else third if kind is kinds[2] else 0)
    card = action.card
    bit = card.bit if card is not None else _bit(state, action)
    if not mask & bit:
        raise _refusal(state, action)
    # The step of the phase, the most frequent first; each freezes a draft one step on. Each
    # takes what the gate has read (an attribute of an action or a card costs ~20 ns to read).
    if phase is _DEAL:
        assert card is not None
        return _deal(state, card, bit)
    if phase is _PLAY:
        assert card is not None
        return _play(state, kind, card, bit)
    if phase is _CHEST:
        return _chest(state, bit.bit_length() - 1)  # the chest card's index (see _bit)
    if phase is _CHOICE:
        return _chest_choice(state, kind)
    if phase is _TRUMP:
        assert card is not None
        return _trump(state, card)
    if phase is _COVER:
        assert card is not None
        return _cover(state, card)
    return _leader(state, bit.bit_length() - 1)  # the seat; OVER lets no action through


def _check_turn(state: State, action: Action, seat: object) -> None:
    """Refuse an action taken for ``seat`` when another seat (or chance) must act."""
    if (type(seat) is not int or not 0 <= seat < state.config.players) and seat is not CHANCE:
        raise InvalidArgumentError(f"invalid seat {quoted(seat)}: expected a seat number")
    turn = current_player(state)
    if turn is not seat and turn != seat:
        who = ("chance" if turn is CHANCE else "nobody (the game is over)" if turn is None
               else f"seat {turn}")
        raise _illegal(action, seat if type(seat) is int else None,
                       f"cannot act now: {who} must act")


def _play(state: State, kind: ActionKind, card: Card, bit: int) -> State:
    """A card (``bit``: its bit) into the trick: face up (K8, K9), a withdrawal (K11) or face
    down (K12)."""
    seat = state.actor
    w = draft(state)
    trick = state.trick
    t = state.tables
    if kind is _K_PLAY:
        lead = lead_suit(trick)
        if lead is not None and card.suit != lead:
            # K9: a legal card off the lead suit shows the seat has none of it (public).
            w.void_suits = put(w.void_suits, seat, w.void_suits[seat] | 1 << lead)
        play, played = _played(seat, card, True, t.icons[card.index])
        w.events.append(played)
    else:
        play, played = _played(seat, card, False, t.face_down_gems)  # K12
        if kind is _K_WITHDRAW:
            _withdraw(w, seat)
        w.events.append(played)
        w.face_down_masks = put(w.face_down_masks, seat, w.face_down_masks[seat] | bit)
    w.trick = trick + (play,)
    hands = state.hand_masks
    w.hand_masks = put(hands, seat, hands[seat] ^ bit)
    w.supply -= play.gems
    w.actor = seat + 1 if seat + 1 < t.players else 0
    if kind is _K_WITHDRAW and _IN not in w.status:
        abandon_trick(w)  # K13
    elif len(w.trick) == t.players:
        resolve_trick(w)
    return w.freeze()


def _withdraw(w: Work, seat: int) -> None:
    """K11: the seat's gems on the bag go into it and it leaves the round."""
    banked = w.on_bag[seat]
    if banked:
        w.on_bag = put(w.on_bag, seat, 0)
        w.in_bag = put(w.in_bag, seat, w.in_bag[seat] + banked)
    w.status = put(w.status, seat, _WITHDRAWN)
    w.events.append(shared(Withdrew, seat, banked))


def _deal(state: State, card: Card, bit: int) -> State:
    """The next card (``bit``: its bit) is dealt to the seat whose turn it is (K6, DEAL-2)."""
    seat = state.actor
    w = draft(state)
    held = state.hand_masks
    hand = held[seat]
    w.hand_masks = hands = put(held, seat, hand | bit)
    size = hand.bit_count()
    # DEAL-2: usually the next seat is next; next_deal_target settles the other cases.
    if seat + 1 < len(hands) and hands[seat + 1].bit_count() == size:
        w.actor = seat + 1
    else:
        target = next_deal_target(hands, seat, size, state.tables.hand_size)
        w.actor = target
        if target < 0:
            w.phase = _TRUMP
    w.pool_mask = state.pool_mask ^ bit
    return w.freeze_with(_DEALT[seat][card.index])


def _trump(state: State, card: Card) -> State:
    w = draft(state)
    w.pool_mask = state.pool_mask ^ card.bit
    w.trump_index = card.index
    if state.leader < 0:
        w.phase, w.actor = _LEADER, -1
    else:
        w.phase, w.actor = _PLAY, state.leader
    return w.freeze_with(_TRUMPED[card.index])


def _leader(state: State, seat: int) -> State:
    w = draft(state)
    w.leader = w.round_leader = w.actor = seat
    w.phase = _PLAY
    return w.freeze_with((LeaderChosen(seat),))


def _cover(state: State, card: Card) -> State:
    w = draft(state)
    cover(w, card.index)
    return w.freeze()


def _chest(state: State, kind: int) -> State:
    """The chest card of index ``kind`` in the edition is revealed (K19, K22)."""
    w = draft(state)
    reveal(w, kind)
    return w.freeze()


def _chest_choice(state: State, kind: ActionKind) -> State:
    if kind is _K_REVEAL:
        w = draft(state)  # K22: another card; nothing else changes
        w.phase = _CHEST
        return w.freeze_with(())
    w = draft(state)
    stop(w)
    return w.freeze()


# -- sampling chance --------------------------------------------------------------------------


def sample_chance(state: State, rng: random.Random) -> Action:
    """Return one outcome of the chance decision, drawn with the caller's generator according
    to :func:`chance_outcomes`; raise :class:`~shock_rules.IllegalActionError` when a player
    must decide or the game is over."""
    if type(state) is not State:
        raise not_a_state(state)
    _check_rng(rng)
    phase = state.phase
    if phase is _DEAL:
        return rng.choice(_DEALS(state.pool_mask))
    if phase is _TRUMP:
        return rng.choice(_TRUMPS(state.pool_mask))
    if phase is _CHEST:
        deck = state.chest_deck
        kinds = [i for i, n in enumerate(deck) if n]
        i = rng.choices(kinds, weights=[deck[k] for k in kinds])[0]
        return Action.chest(state.tables.chest_cards[i])
    if phase is _LEADER:
        return LEADER[rng.randrange(state.config.players)]
    raise IllegalActionError(f"no chance decision is pending: {_expected(state)}")


def resolve_chance(state: State, rng: random.Random) -> State:
    """Return the state after sampling chance decisions with ``rng`` until a player must
    decide or the game is over."""
    _check_rng(rng)
    while is_chance(state):
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
    while state.phase is not _OVER:
        if _IS_CHANCE[state.phase]:
            action = sample_chance(state, rng)
        else:
            action = rng.choice(legal_actions(state))
        if actions is not None:
            actions.append(action)
        state = apply(state, action)
    return state
