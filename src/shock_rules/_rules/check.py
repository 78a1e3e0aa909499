"""Checks that a state is one that legal play can reach (used by every loader and by tests).

:func:`check_state` raises :class:`~shock_rules.InvalidStateError` with a message naming the
first broken condition. States made by :func:`~shock_rules.apply` always pass; a forged or
corrupt state (from JSON, a position, a forged view) is rejected before it can be played on.

**What is checked.** Write ``n`` for the seats, ``H`` for the hand size, ``k`` for the
trick number, and call a trick *finished* once it is resolved (or abandoned).

1. *Shape*: field types and ranges; every number card in play is in exactly one place
   (a hand, the dungeon deck, the trump card, the trick, the discard pile, a play area);
   each potion lies on nothing or on one poison card of the seat holding it, never two
   potions on one poison (POTION-6);
   every chest card in exactly one of deck, discard pile and centre, gem cards never in
   the centre and poison cards never in the discard pile; the gems of the supply, the
   trick and the bags add up to the edition's supply; gems on a trick card match its icons
   or the face-down gems.
2. *Set-up* (deal, trump, leader phases): nothing on the table, every seat in the round,
   the chest deck full, no void shown; while dealing, the hand sizes are ones the dealing
   order produces (DEAL-2) from empty hands or, in the standard variant after round 1,
   from the hands the last round left (equal, or one card more for the seats that did
   not play an abandoned last trick, VAR-1, WITHDRAW-5); full hands once the trump card
   is due; the first leader is the config's, or chance's before it is chosen.
3. *Cards played*: every seat plays one card into every trick (TRICK-1), so the hands
   hold ``H - (k - 1)`` cards in trick ``k`` (one fewer for a seat that played in it), and
   ``H - k`` between tricks; the discard pile and the play areas hold exactly the cards of
   the finished tricks; a poison or potion card in the discard pile was played face down
   (TRICK-8). When the game is over, the hands fit the last trick, played out or
   abandoned from its leader up to a withdrawal (WITHDRAW-5).
4. *Statuses and face-down cards*: a seat in the round has played nothing face down; a
   withdrawn seat has played a face-down card (its withdrawal); a shocked seat played a
   card face up in a finished trick and still has a poison count of 2 (its play area does
   not change once it is out, and the centre only grows); in the current trick exactly
   the seats in the round play face up, in seat order from the leader; a seat's
   face-down cards are its own.
5. *Suits* (K9): a seat's hand and face-down cards and its card in the trick hold no suit
   it showed it lacks; a seat that played off the lead suit in the current trick has that
   void recorded; a recorded void needs a face-up play of the seat and a face-up card of
   that suit this round.
6. *Winners and leaders*: trick 1 has no last winner and is led by the round's leader
   (LEAD-2); after ``w`` won tricks the last winner played face up in the ``w``-th; each
   trick began with at least two seats in the round (ROUND-3) and is led by the first of
   them clockwise from the last winner (LEAD-1); the seats holding poison or potion cards
   each won a trick, so there are at most ``w`` of them; no gems are on a bag before a
   trick is won; in round 1 only a withdrawn seat has gems in its bag. A seat's potions are
   laid as one trick lays them (POTION-6: in card order, on the poisons in card order or,
   with fewer potions than poisons, on the poisons it chose), or else the seat won two
   tricks: so it needs two won tricks, and two face-up plays, for such a placement.
7. *Poisons and potions* (K15-K17): nobody in the round has a poison count of 2 but the
   winner choosing a cover; no seat keeps a potion beside an uncovered poison card but that
   winner, who has fewer potions than uncovered poison cards.
8. *Chest* (CHEST-1 to CHEST-5): the cards revealed this round number at most 3 per
   finished challenge plus the current challenge's, and, while cards are left, at least
   one per finished trick whose winner was not shocked by it; a challenge is in progress
   only with its winner in the round and cards left.
9. *Turn*: the actor is the seat the phase names (the next to play, the winner choosing
   a cover or revealing, the seat receiving the next card), or none while chance reveals
   the trump card or the first leader, and at the end; the end comes in round 5 only,
   with every gem banked and the round over (ROUND-1 to ROUND-3).

**Why this is enough.** The engine records a state's history only through these fields,
and the conditions above are the rules' constraints on them. Given a state that passes,
a history reaching it is built as follows. Earlier rounds leave only the bags, the supply,
the round's leader and, in the standard variant, the cards left in hand; the sizes of
those hands are checked (2), and their cards are free because each deal is uniform over
the undealt cards. In the current round the face-down cards are attributed to their
seats, and each seat's face-down plays are the last ones of its round (4), which fixes
for every finished trick who played face up; the face-up cards of the discard pile are
anonymous, so they can be dealt to those seats and ordered into tricks, a trick won by a
seat of (6) taking the poison and potion cards of that seat's play area (two tricks when
one would lay its potions otherwise than they lie: the first takes a laid potion with the
poison it lies on), and the last-won trick by the last winner; the conditions on suits
(5) give each recorded void a trick to show it in. The chest cards revealed are spread
over the finished challenges within the bounds of (8). Which seat's earlier plays were
face up, who won which trick and which card they held are not recorded anywhere else, so
no further fact can contradict this history.

What is *not* decided exactly, by a referee's decision: the amount of each seat's gems
(on and in its bag) beyond the conservation of the supply (1) and the bounds of (6) --
any amount reachable by some run of icons and chest cards is accepted; and whether the
anonymous face-up cards of the discard pile can be ordered into tricks whose winners
under the trump suit are exactly the seats that (6) requires -- the checker does not
search for such an order.

Each condition is checked by the functions below named after it; their docstrings cite the
numbered conditions above and the rules' clauses.
"""

from __future__ import annotations

from typing import Any, Final

from .._errors import InvalidStateError, quoted
from . import state as _state
from .bits import iter_bits
from .cards import CARDS, Card, Suit
from .config import ROUNDS, GameConfig, Variant
from .events import Event
from .round import deal_target
from .state import POTION_BITS, Phase, Play, State, Status, covered_mask
from .tables import Tables, tables_for

__all__ = ["check_state", "load_state"]


def load_state(**fields: Any) -> State:
    """Return the state made of ``fields`` (every field of :class:`State`, by name), checked
    with :func:`check_state`: the one way in for states built from outside data (JSON
    documents, positions, determinizations)."""
    state = State(**fields)
    check_state(state)
    return state


# The number cards of each set of suits (a void-suits mask), to test face-down cards (K9).
_VOID_CARDS: Final = tuple(
    sum(0x7FF << (11 * s) for s in range(4) if v >> s & 1) for v in range(16)
)


def _fail(msg: str) -> InvalidStateError:
    return InvalidStateError(f"invalid state: {msg}")


def check_state(state: object) -> None:
    """Return ``None`` if legal play from :func:`~shock_rules.new_game` can reach ``state``;
    raise :class:`~shock_rules.InvalidStateError` naming the first broken condition otherwise.

    A value that is not a :class:`~shock_rules.State`, or a state with fields of the wrong
    type, raises the same error, never another exception. The conditions, and why they are
    enough, are listed in the docstring of this function's module, ``shock_rules._rules.check``.
    """
    if type(state) is not State:
        raise InvalidStateError(f"invalid state: expected a State, not {type(state).__name__}")
    _check(state)


# Typed as tuples of any length, so that the compiled build keeps one tuple object each
# (see engine._PHASE_KINDS).
_PER_SEAT: Final[tuple[str, ...]] = ("hand_masks", "face_down_masks", "status", "on_bag", "in_bag",
                    "poison_masks", "potion_masks", "void_suits")
_INT: Final = frozenset({int})
#: The State fields that hold one integer each.
_STATE_INTS: Final[tuple[str, ...]] = (
    "round", "trick_number", "leader", "actor", "pool_mask", "trump_index", "discard_mask",
    "supply", "revealed", "last_winner", "round_leader", "step",
)


#: Far beyond any field of a game: a bound that keeps every number a message quotes printable
#: (``str()`` refuses an int of more than 4,300 digits).
_LIMIT: Final = 1 << 64


def _small(values: tuple[int, ...]) -> bool:
    """Return whether every value lies within :data:`_LIMIT` of zero."""
    return all(-_LIMIT < v < _LIMIT for v in values)


def raw_field(obj: object, name: str) -> object:
    """Return the attribute ``name`` of ``obj`` as a plain object, for type checks: compiled
    code reads an attribute declared ``int`` unboxed, so a bool stored there (``True`` for 1)
    would pass for an int, where the pure build sees the bool."""
    return getattr(obj, name)


#: The fields of :class:`Tables` that tables_for derives from a config (its cache is left out).
_TABLE_FIELDS: Final[tuple[str, ...]] = (
    "config", "players", "hand_size", "face_down_gems", "deck", "icons", "poison_of",
    "poison_cards", "potion_cards", "type_masks", "chest_cards", "chest_index", "chest_counts",
    "chest_poison", "supply", "suit_masks",
)


def _same_tables(tables: Tables, t: Tables) -> bool:
    """Return whether ``tables`` hold what ``t`` holds."""
    return all(getattr(tables, name) == getattr(t, name) for name in _TABLE_FIELDS)


def _place(i: int, n: int) -> str:
    """Return the name of the ``i``-th place of a number card, as listed by ``_check_places``."""
    if i < 3:
        return ("the dungeon deck", "the discard pile", "the trump card")[i]
    if i == 3 + 3 * n:
        return "the trick"
    seat, what = divmod(i - 3, 3)
    return f"seat {seat}'s " + ("hand", "poison cards", "potion cards")[what]


def _check(state: State) -> None:
    """Every condition (1-9), in order: the first broken one is the one reported."""
    t = _check_types(state)
    _check_ranges(state, t)
    trick_mask = _check_places(state, t)
    _check_play_areas(state, t, trick_mask)
    centre = _check_chest_cards(state, t)
    _check_gems(state, t)
    _check_poison_counts(state, t, centre)
    in_round = _check_round_facts(state, t)
    ph = state.phase
    if ph is Phase.DEAL or ph is Phase.TRUMP or ph is Phase.LEADER:
        _check_setup(state, t, in_round)
        return
    if state.trump_index < 0:
        raise _fail("the trump card is not revealed")
    if not 0 <= state.leader < t.players or state.round_leader < 0:
        raise _fail("the trick has no leader")
    _check_round(state, t, in_round, trick_mask)


def _check_types(state: State) -> Tables:
    """Shape (1): the config, tables and events, and the type of every other field."""
    cfg = state.config
    if type(cfg) is not GameConfig:
        raise _fail(f"config must be a GameConfig, not {quoted(cfg)}")
    t = tables_for(cfg)
    n = cfg.players
    tables = raw_field(state, "tables")
    # One Tables per config in use, but tables_for's cache is bounded: a state made before
    # its config's tables were evicted holds tables equal to, not identical with, today's.
    if tables is not t and (type(tables) is not Tables or not _same_tables(tables, t)):
        raise _fail("tables do not match the config")
    events = raw_field(state, "events")
    if type(events) is not tuple or not all(isinstance(e, Event) for e in events):
        raise _fail("the events must be a tuple of events")
    for name in _PER_SEAT:
        value = getattr(state, name)
        if type(value) is not tuple or len(value) != n:
            raise _fail(f"{name} must hold one entry per seat ({n})")
    if {*map(type, state.hand_masks + state.face_down_masks + state.on_bag + state.in_bag
             + state.poison_masks + state.potion_masks + state.void_suits)} != _INT:
        raise _fail("the per-seat fields must hold integers")
    potion_on = state.potion_on_masks
    if type(potion_on) is not tuple or len(potion_on) != len(POTION_BITS) or (
            {*map(type, potion_on)} != _INT):
        raise _fail(f"potion_on_masks must hold an integer per potion card ({len(POTION_BITS)})")
    if {type(raw_field(state, name)) for name in _STATE_INTS} != _INT:
        raise _fail("the round, trick, seats, masks, supply, chest count and step must be integers")
    if not _small(state.hand_masks + state.face_down_masks + state.on_bag + state.in_bag
                  + state.poison_masks + state.potion_masks + state.void_suits + potion_on
                  + tuple(getattr(state, name) for name in _STATE_INTS)):
        raise _fail("a number is far out of range (no field of a game comes near 2**64)")
    trick = state.trick
    if type(trick) is not tuple or not all(
            type(p) is Play and type(p.card) is Card and type(raw_field(p, "seat")) is int
            and type(raw_field(p, "face_up")) is bool and type(raw_field(p, "gems")) is int
            and _small((p.seat, p.gems)) for p in trick):
        raise _fail("the trick must be a tuple of plays")
    if type(state.phase) is not Phase:
        raise _fail(f"unknown phase {quoted(state.phase)}")
    return t


def _check_ranges(state: State, t: Tables) -> None:
    """Shape (1) and suits (5): the step, round, trick, seats and voids in range; K9 in hand."""
    n = t.players
    H = t.hand_size
    if state.step < 0:
        raise _fail(f"step {state.step} is below 0 (the actions applied since the game began)")
    if not 1 <= state.round <= ROUNDS:
        raise _fail(f"round {state.round} is not 1-{ROUNDS}")
    for s in state.status:
        if type(s) is not Status:
            raise _fail(f"unknown status {quoted(s)}")
    if not 1 <= state.trick_number <= H:
        raise _fail(f"trick {state.trick_number} is not 1-{H}")
    if not -1 <= state.leader < n or not -1 <= state.actor < n:
        raise _fail("the leader or the seat to act is not a seat")
    hands = state.hand_masks
    voids = state.void_suits
    for seat in range(n):
        if not 0 <= voids[seat] < 16:
            raise _fail(f"seat {seat}'s void suits are not a set of suits")
        # K9: a seat shows a void only when it holds no card of the suit, and no card is
        # dealt during a round, so it still holds none.
        held = hands[seat] & _VOID_CARDS[voids[seat]]
        if held:
            suit = CARDS[held.bit_length() - 1].suit
            raise _fail(f"seat {seat} showed it has no {suit} but holds one")


def _trick_mask(state: State) -> int:
    """Shape (1): return the cards of the trick, each there once."""
    trick_mask = 0
    for p in state.trick:
        if p.card.bit & trick_mask:
            raise _fail(f"{p.card} is in the trick twice")
        trick_mask |= p.card.bit
    return trick_mask


def _check_places(state: State, t: Tables) -> int:
    """Shape (1): every number card in play is in exactly one place (CARDS-1); return the
    trick's cards."""
    n = t.players
    trump = state.trump_index
    if not -1 <= trump < len(CARDS):
        raise _fail(f"trump index {trump} is not a card")
    trick_mask = _trick_mask(state)
    deck = t.deck
    seen = 0
    for i, mask in enumerate((state.pool_mask, state.discard_mask,
                              CARDS[trump].bit if trump >= 0 else 0,
                              *(m for seat in range(n)
                                for m in (state.hand_masks[seat], state.poison_masks[seat],
                                          state.potion_masks[seat])),
                              trick_mask)):
        if mask < 0 or mask & ~deck:
            raise _fail(f"{_place(i, n)} holds a card that is not in play with {n} players")
        if mask & seen:
            dup = CARDS[(mask & seen).bit_length() - 1]
            raise _fail(f"{dup} is in {_place(i, n)} and somewhere else")
        seen |= mask
    if seen != deck:
        missing = CARDS[(deck & ~seen).bit_length() - 1]
        raise _fail(f"{missing} is missing")
    return trick_mask


def _check_play_areas(state: State, t: Tables, trick_mask: int) -> None:
    """Shape (1) and face-down cards (4): face-down cards are played cards of one seat each;
    play areas hold poison and potion cards, and the potions lie on their seats' poisons."""
    fd_all = 0
    on_table = state.discard_mask | trick_mask
    for seat in range(t.players):
        fd = state.face_down_masks[seat]
        if fd & ~on_table or fd & fd_all:
            raise _fail(f"seat {seat}'s face-down cards are not its own cards of the discard "
                        "pile or the trick")
        fd_all |= fd
        poisons = state.poison_masks[seat]
        potions = state.potion_masks[seat]
        if poisons & ~t.poison_cards:
            raise _fail(f"seat {seat} has a non-poison card among its poison cards")
        if potions & ~t.potion_cards:
            raise _fail(f"seat {seat} has a non-potion card among its potion cards")
    _check_potion_places(state, t)


def _check_potion_places(state: State, t: Tables) -> None:
    """Shape (1): each potion lies on nothing or on one poison card, no two potions on one,
    and a potion lies only on a poison card in front of the seat that holds it (K16,
    POTION-6)."""
    taken = 0
    for k, on in enumerate(state.potion_on_masks):
        potion = CARDS[POTION_BITS[k].bit_length() - 1]
        if on < 0 or on & (on - 1):
            raise _fail(f"the potion {potion} lies on several cards (potion_on_masks[{k}])")
        if on and not on & t.poison_cards:
            i = on.bit_length() - 1
            raise _fail(f"the potion {potion} lies on {CARDS[i] if i < len(CARDS) else 'no card'},"
                        " which is not a poison card")
        if on & taken:
            raise _fail(f"two potions lie on the poison card {CARDS[on.bit_length() - 1]}")
        taken |= on
    for k, on in enumerate(state.potion_on_masks):
        if not on:
            continue
        potion = CARDS[POTION_BITS[k].bit_length() - 1]
        card = CARDS[on.bit_length() - 1]
        owner = next((s for s in range(t.players) if state.potion_masks[s] & POTION_BITS[k]),
                     -1)
        if owner < 0:
            raise _fail(f"the potion {potion} lies on {card}, but no seat has {potion} in"
                        " front of it")
        if not state.poison_masks[owner] & on:
            raise _fail(f"seat {owner}'s potion {potion} lies on {card}, which is not a"
                        f" poison card in front of seat {owner}")


def tricks_needed(state: State, seat: int) -> int:
    """Winners (6) and potions (7): return how many won tricks the seat's play area needs:
    none when it is empty; one when a single trick lays its potions as they lie; else two
    (one trick lays a potion, a later one brings the rest).

    A single trick lays the potions in card order (POTION-6): on the poisons in card order
    when there are at least as many potions (POTION-3), else each on the poison the seat
    chooses (POTION-4), the later ones waiting while it chooses.
    """
    poisons = state.poison_masks[seat]
    held = state.potion_masks[seat]
    if not poisons | held:
        return 0
    on = [m for bit, m in zip(POTION_BITS, state.potion_on_masks, strict=True) if held & bit]
    laid = sum(1 for m in on if m)
    choosing = state.phase is Phase.COVER and seat == state.actor
    if laid < min(len(on), poisons.bit_count()) and not choosing:
        return 1  # a potion waits beside an uncovered poison: condition 7 refuses it (K16)
    if len(on) >= poisons.bit_count():
        in_order = [1 << i for i in iter_bits(poisons)]
        one = on == in_order + [0] * (len(on) - len(in_order))
    else:
        one = all(on[:laid]) and not any(on[laid:])
    return 1 if one else 2


def _check_chest_cards(state: State, t: Tables) -> list[int]:
    """Shape (1): each chest card is in one of deck, discard pile and centre (CHEST-6), gem
    cards never in the centre, poison cards never discarded; return the centre's poison
    counts per poison type."""
    kinds = len(t.chest_counts)
    chest = (state.chest_deck, state.chest_discard, state.chest_centre)
    for name, v in zip(("chest_deck", "chest_discard", "chest_centre"), chest, strict=True):
        if type(v) is not tuple or len(v) != kinds or (v and {*map(type, v)} != _INT) \
                or any(x < 0 for x in v) or not _small(v):
            raise _fail(f"{name} must count each of the {kinds} kinds of chest card")
    centre = [0] * len(t.type_masks)
    for k in range(kinds):
        total = state.chest_deck[k] + state.chest_discard[k] + state.chest_centre[k]
        if total != t.chest_counts[k]:
            raise _fail(
                f"there are {total} {t.chest_cards[k]} chest cards, not {t.chest_counts[k]}"
            )
        if t.chest_poison[k] < 0:
            if state.chest_centre[k]:
                raise _fail(f"a gem chest card {t.chest_cards[k]} is in the centre")
        else:
            if state.chest_discard[k]:
                raise _fail(f"a poison chest card {t.chest_cards[k]} is in the chest discard"
                            " pile")
            centre[t.chest_poison[k]] += state.chest_centre[k]
    return centre


def _check_gems(state: State, t: Tables) -> None:
    """Shape (1): gems are never negative, on a bag only in the round, on a trick card as its
    icons or the face-down gems, and add up to the edition's supply (K29)."""
    n = t.players
    for seat in range(n):
        if state.on_bag[seat] < 0 or state.in_bag[seat] < 0:
            raise _fail(f"seat {seat} has a negative number of gems")
        if state.status[seat] is not Status.IN and state.on_bag[seat]:
            raise _fail(f"seat {seat} is out of the round but has gems on its bag")
    trick_gems = 0
    for p in state.trick:
        if not 0 <= p.seat < n:
            raise _fail(f"seat {p.seat} in the trick does not exist")
        expected = t.icons[p.card.index] if p.face_up else t.face_down_gems
        if p.gems != expected:
            raise _fail(f"{p.card} in the trick carries {p.gems} gems, not {expected}")
        trick_gems += p.gems
    total = state.supply + trick_gems + sum(state.on_bag) + sum(state.in_bag)
    if total != t.supply:
        raise _fail(f"gems do not add up: supply, trick and bags hold {total}, not {t.supply}")


def _check_poison_counts(state: State, t: Tables, centre: list[int]) -> None:
    """Poisons (7): nobody in the round has a poison count of 2 but a winner choosing a cover
    (K17)."""
    covered = covered_mask(state.potion_on_masks)
    for seat in range(t.players):
        if state.status[seat] is not Status.IN:
            continue
        if state.phase is Phase.COVER and seat == state.actor:
            continue
        uncovered = state.poison_masks[seat] & ~covered
        for mask, in_centre in zip(t.type_masks, centre, strict=True):
            count = (uncovered & mask).bit_count() + in_centre
            if count >= 2:
                raise _fail(f"seat {seat} is in the round with a poison count of {count}")


def _check_round_facts(state: State, t: Tables) -> list[int]:
    """Shape (1), set-up (2) and winners (6): the last winner, round leader and challenge in
    range; round 1's leader and bags; return the seats in the round."""
    n = t.players
    if not -1 <= state.last_winner < n or not -1 <= state.round_leader < n:
        raise _fail("last winner or round leader is not a seat")
    if not 0 <= state.revealed <= 3:
        raise _fail(f"{state.revealed} chest cards revealed in one challenge")
    if state.round == 1:
        first = state.config.first_leader
        if first is not None and state.round_leader != first:
            raise _fail(f"round 1 is led by seat {first} (the config's first leader),"
                        f" not seat {state.round_leader}")
        for seat in range(n):
            # Gems reach a bag only when their seat withdraws or the round ends (WITHDRAW-2,
            # ROUND-5): in round 1 only a seat that withdrew has any.
            if state.in_bag[seat] and state.status[seat] is not Status.WITHDRAWN:
                raise _fail(f"seat {seat} has gems in its bag in round 1 without withdrawing")
    elif state.round_leader < 0:
        raise _fail("a round after the first has no leader")
    return [s for s in range(n) if state.status[s] is Status.IN]


def _check_setup(state: State, t: Tables, in_round: list[int]) -> None:
    """Set-up (2) and turn (9): dealing, the trump card, the first leader (DEAL-2, DEAL-3)."""
    cfg = state.config
    ph = state.phase
    # The leader is unknown only before the first leader is chosen by chance (K5).
    unknown = state.round == 1 and cfg.first_leader is None
    if ph is not Phase.LEADER and ((state.leader == -1) != unknown
                                   or state.round_leader != state.leader):
        raise _fail("wrong leader while the cards are dealt")
    if state.last_winner != -1 or state.trick_number != 1:
        raise _fail("a trick is recorded before the round's play")
    # K26: a round starts with the chest cards reshuffled and nothing shown yet.
    if state.chest_deck != t.chest_counts or state.revealed or any(state.void_suits):
        raise _fail("before play the chest deck is full and no seat has shown a void")
    if state.trick or state.discard_mask or any(state.poison_masks) or any(state.potion_masks):
        raise _fail("cards are on the table before the round's play begins")
    if len(in_round) != t.players or any(state.on_bag):
        raise _fail("before play every seat is in the round with no gems on its bag")
    if ph is Phase.DEAL:
        _check_deal(state, t)
        return
    if any(h.bit_count() != t.hand_size for h in state.hand_masks) or (
            ph is Phase.TRUMP) != (state.trump_index == -1):
        raise _fail("hands must be full and the trump card unrevealed before it is revealed")
    if ph is Phase.LEADER and (state.round != 1 or state.leader != -1
                               or cfg.first_leader is not None or state.round_leader != -1):
        raise _fail("only the first round's leader is a chance decision")
    if state.actor != -1:
        raise _fail(f"seat {state.actor} is named to act at a chance decision")


def _check_deal(state: State, t: Tables) -> None:
    """Set-up (2) and turn (9): the next card goes to the seat with fewest, and the hands are
    ones dealing makes (DEAL-2, VAR-1)."""
    H = t.hand_size
    if state.trump_index != -1 or state.actor != deal_target(state.hand_masks, H) \
            or state.actor < 0:
        raise _fail("dealing must give the next card to the seat with fewest cards")
    sizes = [h.bit_count() for h in state.hand_masks]
    later = state.round > 1 and state.config.variant is Variant.STANDARD
    if not _dealt_so_far(sizes, H, later, state.round_leader):
        raise _fail(f"hand sizes {sizes} cannot occur while dealing (DEAL-2, VAR-1)")


def _dealt_so_far(sizes: list[int], H: int, later: bool, round_leader: int) -> bool:
    """Return whether hands of these sizes occur while dealing (DEAL-2).

    Cards go one at a time to the lowest seat holding the fewest. From equal hands (a fresh
    deal, or the hands a round left when every seat played its last trick) the seats
    ``0..i-1`` then hold one card more than the others. In the standard variant (``later``:
    a round after the first) a round that ended with an abandoned trick (WITHDRAW-5) leaves
    one card more to the seats that had not played in it: a run of ``n - j`` seats clockwise
    just before that trick's leader ``l``, where ``j >= 2`` seats (every seat then in the
    round, the last of them withdrawing) had played. The new round's leader
    (``round_leader``) is then ``l`` itself or one of those seats: the lead of the abandoned
    trick passed from the last winner over seats out of the round only (LEAD-1). Those seats
    are topped up first, lowest first.
    """
    n = len(sizes)
    c = min(sizes)
    big = {s for s in range(n) if sizes[s] != c}
    if c >= H or any(sizes[s] != c + 1 for s in big):
        return False
    if big == set(range(len(big))):
        return True
    if not later or c + 1 > H - 1:
        return False
    for lead in range(n):
        for j in range(2, n):
            rest = {(lead + j + i) % n for i in range(n - j)}  # did not play the trick
            if not rest <= big or (round_leader != lead and round_leader not in rest):
                continue
            others = sorted(set(range(n)) - rest)
            topped = sorted(big - rest)
            if topped == others[: len(topped)]:
                return True
    return False


def _check_round(state: State, t: Tables, in_round: list[int], trick_mask: int) -> None:
    """Conditions 3-9 for the round in play: what the finished tricks and the current one
    must have left."""
    n = t.players
    hands = [h.bit_count() for h in state.hand_masks]
    card_in_trick = [0] * n
    for p in state.trick:
        card_in_trick[p.seat] = p.card.bit
    done = _finished_plays(state, t, hands, card_in_trick)
    areas, needed = _check_played(state, t, done)
    up, began = _check_statuses(state, t, done, card_in_trick, trick_mask)
    faceup_now, shown_now = _check_trick(state, n)
    fd_all = 0
    for fd in state.face_down_masks:
        fd_all |= fd
    # K9: a void is shown by a face-up play off the lead suit: in a finished trick, or now.
    _check_voids(state, t, up, shown_now, (state.discard_mask & ~fd_all) | areas | faceup_now)
    won = _tricks_won(state, t, hands, done, up, began, in_round)
    _check_winners(state, t, won, needed, up)
    _check_leader(state, t, won, began)
    # Gems: nothing reaches a bag before a trick is won (TRICK-7, CHEST-2).
    if won == 0 and any(state.on_bag):
        raise _fail("a seat has gems on its bag before any trick was won")
    self_shocks = _check_shocks(state, t)
    finished, current = _challenges(state, t, won, in_round)
    _check_chest_revealed(state, t, finished, current, self_shocks)


def _finished_plays(state: State, t: Tables, hands: list[int],
                    card_in_trick: list[int]) -> list[int]:
    """Cards played (3): return how many cards each seat played in the round's finished
    tricks, which the hand sizes say (TRICK-1: one card per seat per trick)."""
    n = t.players
    H = t.hand_size
    k = state.trick_number
    ph = state.phase
    if ph is Phase.PLAY:
        if state.trick and len(state.trick) >= n:
            raise _fail("the trick is complete but unresolved")
        for seat in range(n):
            want = H - (k - 1) - (1 if card_in_trick[seat] else 0)
            if hands[seat] != want:
                raise _fail(f"seat {seat} holds {hands[seat]} cards in trick {k}, not {want}"
                            " (one card per seat per trick, TRICK-1)")
        return [k - 1] * n
    if ph is Phase.OVER:
        if state.trick or state.actor != -1:
            raise _fail("nothing is left to play once the game is over")
        done = [H - h for h in hands]
        if any(not k - 1 <= d <= k for d in done):
            raise _fail(f"hand sizes {hands} do not fit a round ended in trick {k}")
        return done
    if state.trick:
        raise _fail("a resolved trick still has cards")
    for seat in range(n):
        if hands[seat] != H - k:
            raise _fail(f"seat {seat} holds {hands[seat]} cards after trick {k}, not {H - k}"
                        " (one card per seat per trick, TRICK-1)")
    return [k] * n


def _check_played(state: State, t: Tables, done: list[int]) -> tuple[int, int]:
    """Cards played (3): the discard pile and the play areas hold the finished tricks' cards,
    poison and potion cards there only face down (TRICK-8); return the play areas' cards and
    how many won tricks they need (:func:`tricks_needed`)."""
    areas = 0
    winners = 0
    for seat in range(t.players):
        areas |= state.poison_masks[seat] | state.potion_masks[seat]
        winners += tricks_needed(state, seat)
    discard = state.discard_mask
    played = discard.bit_count() + areas.bit_count()
    if played != sum(done):
        raise _fail(f"the discard pile and the play areas hold {played} cards, but the finished"
                    f" tricks of the round hold {sum(done)} (TRICK-8)")
    fd_all = 0
    for fd in state.face_down_masks:
        fd_all |= fd
    # TRICK-8: the winner takes the poison and potion cards played face up.
    if discard & (t.poison_cards | t.potion_cards) & ~fd_all:
        raise _fail("a poison or potion card played face up lies in the discard pile (TRICK-8)")
    return areas, winners


def _check_statuses(state: State, t: Tables, done: list[int], card_in_trick: list[int],
                    trick_mask: int) -> tuple[list[int], list[int]]:
    """Statuses and face-down cards (4), suits (5): return each seat's face-up cards in
    finished tricks (``up``) and the last trick it began in the round (``began``)."""
    # WITHDRAW-1, WITHDRAW-3, SHOCK-1: a seat plays face up while in the round and face down
    # from the trick it withdraws in, or from the trick after its shock.
    n = t.players
    up = [0] * n
    began = [0] * n
    for seat in range(n):
        fd = state.face_down_masks[seat]
        mine = fd & trick_mask
        if mine and mine != card_in_trick[seat]:
            raise _fail(f"seat {seat}'s face-down cards include another seat's card of the trick")
        down = (fd & state.discard_mask).bit_count()
        if down > done[seat]:
            raise _fail(f"seat {seat} played {down} cards face down in {done[seat]} finished"
                        " tricks")
        up[seat] = done[seat] - down
        st = state.status[seat]
        if st is Status.IN:
            if fd:
                raise _fail(f"seat {seat} is in the round but played face down (WITHDRAW-3)")
            began[seat] = state.trick_number
        elif st is Status.WITHDRAWN:
            if not fd:
                raise _fail(f"seat {seat} withdrew but played no card face down (WITHDRAW-1)")
            began[seat] = up[seat] + 1
        else:
            if not up[seat]:
                raise _fail(f"seat {seat} is shocked but played no card face up in a finished"
                            " trick (SHOCK-1)")
            began[seat] = up[seat]
        if fd & _VOID_CARDS[state.void_suits[seat]]:
            raise _fail(f"seat {seat} played face down a card of a suit it showed it lacks (K9)")
    return up, began


def _check_trick(state: State, n: int) -> tuple[int, list[int]]:
    """Statuses (4) and suits (5) in the current trick: face up exactly for the seats in the
    round, in seat order from the leader, following suit (TRICK-3, K9); return its face-up
    cards and the void each seat shows in it."""
    faceup_now = 0
    shown_now = [0] * n
    lead = -1
    for i, p in enumerate(state.trick):
        seat = p.seat
        status = state.status[seat]
        if seat != (state.leader + i) % n:
            raise _fail("the trick's cards are not in seat order from its leader")
        if p.face_up != (status is Status.IN):
            raise _fail(f"seat {seat} played face {'up' if p.face_up else 'down'} but is"
                        f" {status} (WITHDRAW-3)")
        if p.face_up == bool(state.face_down_masks[seat] & p.card.bit):
            raise _fail(f"{p.card} is recorded face {'up' if p.face_up else 'down'} wrongly")
        suit = p.card.suit
        voids = state.void_suits[seat]
        if voids >> suit & 1:
            raise _fail(f"seat {seat} played {p.card} after showing it has no {Suit(suit)} (K9)")
        if p.face_up:
            faceup_now |= p.card.bit
            if lead < 0:
                lead = suit
            elif suit != lead:
                if not voids >> lead & 1:
                    raise _fail(f"seat {seat} did not follow {Suit(lead)} but is not recorded as"
                                " lacking it (TRICK-3, K9)")
                shown_now[seat] = 1 << lead
    return faceup_now, shown_now


def _check_voids(state: State, t: Tables, up: list[int], shown_now: list[int],
                 faceup_played: int) -> None:
    """Suits (5): a recorded void needs a face-up play of the seat off the lead suit and a
    face-up card of that suit this round (K9)."""
    for seat in range(t.players):
        voids = state.void_suits[seat]
        if not voids:
            continue
        if not up[seat] and voids & ~shown_now[seat]:
            raise _fail(f"seat {seat} shows a void but never played off the lead suit (K9)")
        for v in range(4):
            if voids >> v & 1 and not faceup_played & t.suit_masks[v]:
                raise _fail(f"seat {seat} shows it has no {Suit(v)}, but no {Suit(v)}"
                            " card was led face up this round (K9)")


def _tricks_won(state: State, t: Tables, hands: list[int], done: list[int], up: list[int],
                began: list[int], in_round: list[int]) -> int:
    """Winners (6) and turn (9): return how many tricks of the round were won (TRICK-4); at
    the end, the round is over (ROUND-1 to ROUND-3) or its last trick abandoned."""
    k = state.trick_number
    ph = state.phase
    if ph is Phase.PLAY:
        return k - 1
    if ph is not Phase.OVER:
        return k
    lw = state.last_winner
    if lw >= 0 and up[lw] == k and all(d == k for d in done):
        if len(in_round) > 1 and any(hands):
            raise _fail("the game ended with two players still in a round with cards to"
                        " play (ROUND-1 to ROUND-3)")
        return k
    _check_abandoned(state, t, hands, done, began, in_round)
    return k - 1


def _check_abandoned(state: State, t: Tables, hands: list[int], done: list[int],
                     began: list[int], in_round: list[int]) -> None:
    """Cards played (3): a game that ended in an unfinished trick k ended with everyone left
    withdrawing in it, from its leader on (WITHDRAW-5)."""
    # The seats after the last of them, all out of the round already, kept their card.
    n = t.players
    k = state.trick_number
    leader = state.leader
    if in_round:
        raise _fail(f"trick {k} was not finished, yet seat {in_round[0]} is in the round")
    j = 0
    while j < n and done[(leader + j) % n] == k:
        j += 1
    last = (leader + j - 1) % n
    if j == 0 or any(done[(leader + i) % n] == k for i in range(j, n)):
        raise _fail(f"hand sizes {hands} do not fit trick {k} played from its leader")
    if state.status[last] is not Status.WITHDRAWN or began[last] != k:
        raise _fail(f"the abandoned trick {k} does not end with a withdrawal"
                    " (WITHDRAW-5)")
    for i in range(j, n):
        if began[(leader + i) % n] >= k:
            raise _fail(f"seat {(leader + i) % n} kept its card in the abandoned"
                        f" trick {k} but was in the round (WITHDRAW-5)")


def _check_winners(state: State, t: Tables, won: int, needed: int, up: list[int]) -> None:
    """Winners (6): the last winner played face up in the last won trick (TRICK-4); only
    winners hold poison and potion cards (TRICK-8), in as many tricks as their potions'
    placement needs (POTION-6)."""
    lw = state.last_winner
    if won == 0:
        if lw != -1:
            raise _fail(f"seat {lw} is the last trick winner, but no trick was won this round")
    elif lw < 0 or up[lw] != won:
        raise _fail(f"the winner of trick {won} must have played face up in it, and seat {lw}"
                    " did not (TRICK-4)")
    if needed > won:
        raise _fail(f"the poison and potion cards in front of the seats need {needed} won"
                    f" tricks, more than the {won} won (TRICK-8, POTION-6)")
    for seat in range(t.players):
        need = tricks_needed(state, seat)
        if need > up[seat]:
            raise _fail(f"seat {seat} holds poison or potion cards but won no trick (TRICK-8)"
                        if need == 1 else
                        f"seat {seat}'s potions lie as no single trick lays them (POTION-6),"
                        f" but it played face up in {up[seat]} finished trick only")


def _check_leader(state: State, t: Tables, won: int, began: list[int]) -> None:
    """Winners and leaders (6): a trick begins with at least two seats in the round
    (ROUND-3); its leader is the first of them clockwise from the last winner (LEAD-1), or
    the round's leader (LEAD-2)."""
    n = t.players
    k = state.trick_number
    if sum(b >= k for b in began) < 2:
        raise _fail(f"trick {k} began with fewer than two seats in the round (ROUND-3)")
    if k == 1:
        want = state.round_leader
    elif won == k - 1:  # the last winner won the trick before this one
        want = state.last_winner
        while began[want] < k:
            want = (want + 1) % n
    else:  # this trick's winner is known, not the last one's: a seat that was in the round
        want = state.leader if began[state.leader] >= k else -1
    if state.leader != want:
        raise _fail(f"trick {k} is led by seat {state.leader}, "
                    + (f"not seat {want}" if want >= 0 else "which was not in the round")
                    + " (LEAD-1, LEAD-2)")


def _check_shocks(state: State, t: Tables) -> int:
    """Statuses (4) and potions (7): a shocked seat's poison count reached 2 and its play
    area has not changed since (SHOCK-1, SHOCK-2); potions are applied at once (K16, POTION-3).
    Return how many shocked seats keep an uncovered poison card."""
    centre = t.centre_poisons(state.chest_centre)
    covered = covered_mask(state.potion_on_masks)
    self_shocks = 0
    for seat in range(t.players):
        uncovered = state.poison_masks[seat] & ~covered
        if state.status[seat] is Status.SHOCKED:
            if max(t.poison_counts(uncovered, centre)) < 2:
                raise _fail(f"seat {seat} is shocked, but no poison count of it reaches 2"
                            " (SHOCK-1, SHOCK-2)")
            self_shocks += uncovered != 0
        stored = state.potion_masks[seat].bit_count() - (
            state.poison_masks[seat] & covered).bit_count()
        if stored and uncovered and not (state.phase is Phase.COVER and seat == state.actor):
            raise _fail(f"seat {seat} keeps a potion beside an uncovered poison card (K16)")
    return self_shocks


def _challenges(state: State, t: Tables, won: int, in_round: list[int]) -> tuple[int, int]:
    """Chest (8) and turn (9): the seat to act fits the phase; return how many chest
    challenges are finished and how many cards the current one revealed."""
    ph = state.phase
    if ph is Phase.PLAY:
        if state.revealed:
            raise _fail("a chest challenge is recorded during a trick")
        if not in_round:
            raise _fail("nobody is in the round while it goes on")
        if state.actor != (state.leader + len(state.trick)) % t.players:
            raise _fail(f"seat {state.actor} plays out of turn")
        return state.trick_number - 1, 0
    if ph is Phase.OVER:
        if state.revealed:
            raise _fail("the game can only end after round 5 with every gem banked")
        return won, 0
    _check_winner_acts(state, t)
    return state.trick_number - 1, state.revealed


def _check_winner_acts(state: State, t: Tables) -> None:
    """Poisons (7), chest (8) and turn (9) between tricks: the winner in the round covers a
    poison card or reveals chest cards, when there is one to cover or cards left (K16,
    CHEST-1, CHEST-4)."""
    ph = state.phase
    actor = state.actor
    if not 0 <= actor < t.players or state.status[actor] is not Status.IN:
        raise _fail("the seat deciding after the trick is not in the round")
    if actor != state.last_winner:
        raise _fail("only the trick's winner covers poisons or reveals chest cards")
    if ph is Phase.COVER:
        if state.revealed:
            raise _fail("potions are applied before the chest challenge")
        covered = state.poison_masks[actor] & covered_mask(state.potion_on_masks)
        stored = state.potion_masks[actor].bit_count() - covered.bit_count()
        uncovered = state.poison_masks[actor] & ~covered
        if not 0 < stored < uncovered.bit_count():
            raise _fail("a cover choice is asked only with fewer potions than poison cards")
    elif ph is Phase.CHEST and (state.revealed >= 3 or not any(state.chest_deck)):
        raise _fail("no chest card can be revealed now")
    elif ph is Phase.CHEST_CHOICE and (not 1 <= state.revealed <= 2
                                      or not any(state.chest_deck)):
        raise _fail("the optional chest reveal is offered only after the first or second"
                    " card, with cards left")


def _check_chest_revealed(state: State, t: Tables, finished: int, current: int,
                          self_shocks: int) -> None:
    """Chest (8): each finished challenge revealed one to three cards, or none when the deck
    was empty or the winner was shocked by its own trick (CHEST-1, CHEST-4, CHEST-5)."""
    # A winner shocked by its own trick is left shocked with an uncovered poison card, so
    # ``self_shocks`` bounds the finished challenges that revealed nothing with cards left.
    left = sum(state.chest_deck)
    shown = sum(t.chest_counts) - left
    if not current <= shown <= 3 * finished + current:
        raise _fail(f"{shown} chest cards were revealed in {finished} finished challenges and"
                    f" {current} now: at most 3 per challenge (CHEST-4)")
    if left and shown < current + finished - self_shocks:
        raise _fail(f"only {shown} chest cards were revealed after {finished} tricks: each winner"
                    " still in the round reveals one (CHEST-1)")


# State.replace and unpickling run this check (state.py cannot import this module, which reads
# the rule modules that read it).
_state.check = check_state
