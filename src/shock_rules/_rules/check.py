"""Checks that a state obeys every invariant of the game (used by tests and by loaders).

:func:`check_state` raises :class:`~shock_rules.InvalidStateError` with a message naming the
first broken invariant. States made by :func:`~shock_rules.apply` always pass; a forged or
corrupt state (from JSON, say) is rejected before it can be played on.
"""

from __future__ import annotations

from typing import Any

from .._errors import InvalidStateError
from .cards import CARDS, Suit
from .config import ROUNDS, tables_for
from .round import deal_target
from .state import Phase, State, Status

__all__ = ["check_state", "load_state"]


def load_state(**fields: Any) -> State:
    """Return the state made of ``fields`` (every field of :class:`State`, by name), checked
    with :func:`check_state`: the one way in for states built from outside data (JSON
    documents, positions, determinizations)."""
    state = State(**fields)
    check_state(state)
    return state


def _fail(msg: str) -> InvalidStateError:
    return InvalidStateError(f"invalid state: {msg}")


def check_state(state: State) -> None:
    """Raise :class:`InvalidStateError` if ``state`` breaks an invariant of the game.

    A corrupt state (wrong types, say) raises the same error, never another exception.
    """
    try:
        _check(state)
    except InvalidStateError:
        raise
    except Exception as exc:  # a corrupt state must not crash the checker's caller
        raise InvalidStateError(f"invalid state: {exc}") from exc


def _check(state: State) -> None:
    cfg = state.config
    t = tables_for(cfg)
    n = cfg.players
    H = t.hand_size
    if state.tables is not t and state.tables != t:
        raise _fail("tables do not match the config")
    per_seat = {
        "hand_masks": state.hand_masks, "face_down_masks": state.face_down_masks,
        "status": state.status, "on_bag": state.on_bag, "in_bag": state.in_bag,
        "poison_masks": state.poison_masks, "covered_masks": state.covered_masks,
        "potion_masks": state.potion_masks, "void_suits": state.void_suits,
    }
    for name, value in per_seat.items():
        if not isinstance(value, tuple) or len(value) != n:
            raise _fail(f"{name} must hold one entry per seat ({n})")
    if not isinstance(state.phase, Phase):
        raise _fail(f"unknown phase {state.phase!r}")
    if not 1 <= state.round <= ROUNDS:
        raise _fail(f"round {state.round} is not 1-{ROUNDS}")
    for s in state.status:
        if not isinstance(s, Status):
            raise _fail(f"unknown status {s!r}")
    if not 1 <= state.trick_number <= H:
        raise _fail(f"trick {state.trick_number} is not 1-{H}")
    if not -1 <= state.leader < n or not -1 <= state.actor < n:
        raise _fail("the leader or the seat to act is not a seat")
    for seat in range(n):
        for suit in range(4):
            # K9: a seat shows a void only when it holds no card of the suit, and no card is
            # dealt during a round, so it still holds none.
            if state.void_suits[seat] >> suit & 1 and state.hand_masks[seat] & t.suit_masks[suit]:
                raise _fail(f"seat {seat} showed it has no {Suit(suit)} but holds one")

    # Cards: every number card in play is in exactly one place (CARDS-1).
    places: list[tuple[str, int]] = [("the dungeon deck", state.pool_mask),
                                     ("the discard pile", state.discard_mask)]
    if state.trump_index >= 0:
        if state.trump_index >= len(CARDS):
            raise _fail(f"trump index {state.trump_index} is not a card")
        places.append(("the trump card", CARDS[state.trump_index].bit))
    elif state.trump_index != -1:
        raise _fail(f"trump index {state.trump_index} is not a card")
    for seat in range(n):
        places.append((f"seat {seat}'s hand", state.hand_masks[seat]))
        places.append((f"seat {seat}'s poison cards", state.poison_masks[seat]))
        places.append((f"seat {seat}'s potion cards", state.potion_masks[seat]))
    trick_mask = 0
    for p in state.trick:
        if p.card.bit & trick_mask:
            raise _fail(f"{p.card} is in the trick twice")
        trick_mask |= p.card.bit
    places.append(("the trick", trick_mask))
    seen = 0
    for name, mask in places:
        if mask < 0 or mask & ~t.deck:
            raise _fail(f"{name} holds a card that is not in play with {n} players")
        if mask & seen:
            dup = CARDS[(mask & seen).bit_length() - 1]
            raise _fail(f"{dup} is in {name} and somewhere else")
        seen |= mask
    if seen != t.deck:
        missing = CARDS[(t.deck & ~seen).bit_length() - 1]
        raise _fail(f"{missing} is missing")
    fd_all = 0
    for seat in range(n):
        fd = state.face_down_masks[seat]
        if fd & ~(state.discard_mask | trick_mask) or fd & fd_all:
            raise _fail(f"seat {seat}'s face-down cards are not its own cards of the discard "
                        "pile or the trick")
        fd_all |= fd
        if state.poison_masks[seat] & ~t.poison_cards:
            raise _fail(f"seat {seat} has a non-poison card among its poison cards")
        if state.potion_masks[seat] & ~t.potion_cards:
            raise _fail(f"seat {seat} has a non-potion card among its potion cards")
        cov = state.covered_masks[seat]
        if cov & ~state.poison_masks[seat]:
            raise _fail(f"seat {seat} has a covered card that is not its poison card")
        if cov.bit_count() > state.potion_masks[seat].bit_count():
            raise _fail(f"seat {seat} has more covered poison cards than potions")
        if not 0 <= state.void_suits[seat] < 16:
            raise _fail(f"seat {seat}'s void suits are not a set of suits")

    # Chest cards (CHEST-6).
    kinds = len(t.chest_counts)
    for name in ("chest_deck", "chest_discard", "chest_centre"):
        v = getattr(state, name)
        if not isinstance(v, tuple) or len(v) != kinds or any(x < 0 for x in v):
            raise _fail(f"{name} must count each of the {kinds} kinds of chest card")
    for k in range(kinds):
        total = state.chest_deck[k] + state.chest_discard[k] + state.chest_centre[k]
        if total != t.chest_counts[k]:
            raise _fail(
                f"there are {total} {t.chest_cards[k]} chest cards, not {t.chest_counts[k]}"
            )
        if t.chest_poison[k] < 0 and state.chest_centre[k]:
            raise _fail(f"a gem chest card {t.chest_cards[k]} is in the centre")
        if t.chest_poison[k] >= 0 and state.chest_discard[k]:
            raise _fail(f"a poison chest card {t.chest_cards[k]} is in the chest discard pile")

    # Gems (K29).
    for seat in range(n):
        if state.on_bag[seat] < 0 or state.in_bag[seat] < 0:
            raise _fail(f"seat {seat} has a negative number of gems")
        if state.status[seat] is not Status.IN and state.on_bag[seat]:
            raise _fail(f"seat {seat} is out of the round but has gems on its bag")
    trick_gems = 0
    for p in state.trick:
        if p.seat not in range(n):
            raise _fail(f"seat {p.seat} in the trick does not exist")
        expected = t.icons[p.card.index] if p.face_up else t.face_down_gems
        if p.gems != expected:
            raise _fail(f"{p.card} in the trick carries {p.gems} gems, not {expected}")
        trick_gems += p.gems
    total = state.supply + trick_gems + sum(state.on_bag) + sum(state.in_bag)
    if total != t.supply:
        raise _fail(f"gems do not add up: supply, trick and bags hold {total}, not {t.supply}")

    # Poison counts (K17): nobody in the round stands at 2, but a winner choosing a cover.
    for seat in range(n):
        if state.status[seat] is not Status.IN:
            continue
        if state.phase is Phase.COVER and seat == state.actor:
            continue
        for ptype in range(len(t.type_masks)):
            count = (state.poison_masks[seat] & ~state.covered_masks[seat]
                     & t.type_masks[ptype]).bit_count()
            count += sum(c for k, c in enumerate(state.chest_centre) if t.chest_poison[k] == ptype)
            if count >= 2:
                raise _fail(f"seat {seat} is in the round with a poison count of {count}")
        stored = state.potion_masks[seat].bit_count() - state.covered_masks[seat].bit_count()
        uncovered = state.poison_masks[seat] & ~state.covered_masks[seat]
        if stored and uncovered and not (state.phase is Phase.COVER and seat == state.actor):
            raise _fail(f"seat {seat} keeps a potion beside an uncovered poison card (K16)")

    # Phase and turn.
    ph = state.phase
    if not -1 <= state.last_winner < n or not -1 <= state.round_leader < n:
        raise _fail("last winner or round leader is not a seat")
    if not 0 <= state.revealed <= 3:
        raise _fail(f"{state.revealed} chest cards revealed in one challenge")
    in_round = [s for s in range(n) if state.status[s] is Status.IN]
    if ph is Phase.DEAL or ph is Phase.TRUMP:
        # The leader is unknown only before the first leader is chosen by chance (K5).
        unknown = state.round == 1 and cfg.first_leader is None
        if (state.leader == -1) != unknown or state.round_leader != state.leader:
            raise _fail("wrong leader while the cards are dealt")
        if state.last_winner != -1 or state.trick_number != 1:
            raise _fail("a trick is recorded before the round's play")
    if ph is Phase.DEAL or ph is Phase.TRUMP or ph is Phase.LEADER:
        # K26: a round starts with the chest cards reshuffled and nothing shown yet.
        if state.chest_deck != t.chest_counts or state.revealed or any(state.void_suits):
            raise _fail("before play the chest deck is full and no seat has shown a void")
        if state.trick or state.discard_mask or any(state.poison_masks) or any(state.potion_masks):
            raise _fail("cards are on the table before the round's play begins")
        if len(in_round) != n or any(state.on_bag):
            raise _fail("before play every seat is in the round with no gems on its bag")
        if ph is Phase.DEAL:
            if state.trump_index != -1 or state.actor != deal_target(state.hand_masks, H) \
                    or state.actor < 0:
                raise _fail("dealing must give the next card to the seat with fewest cards")
        elif any(h.bit_count() != H for h in state.hand_masks) or (
                ph is Phase.TRUMP) != (state.trump_index == -1):
            raise _fail("hands must be full and the trump card unrevealed before it is revealed")
        if ph is Phase.LEADER and (state.round != 1 or state.leader != -1):
            raise _fail("only the first round's leader is a chance decision")
        return
    if state.trump_index < 0:
        raise _fail("the trump card is not revealed")
    if not 0 <= state.leader < n or state.round_leader < 0:
        raise _fail("the trick has no leader")
    if ph is Phase.OVER:
        if state.round != ROUNDS or state.trick or any(state.on_bag) or state.revealed:
            raise _fail("the game can only end after round 5 with every gem banked")
        return
    if len(in_round) < 1:
        raise _fail("nobody is in the round while it goes on")
    if ph is Phase.PLAY:
        if len(state.trick) >= n:
            raise _fail("the trick is complete but unresolved")
        if state.actor != (state.leader + len(state.trick)) % n:
            raise _fail(f"seat {state.actor} plays out of turn")
        if state.trick == () and (len(in_round) < 2 or state.status[state.leader] is not Status.IN):
            raise _fail("a trick starts with at least two seats in the round, led by one of them")
        sizes = {h.bit_count() for h in state.hand_masks}
        played = {(state.leader + i) % n for i in range(len(state.trick))}
        for i, p in enumerate(state.trick):
            if p.seat != (state.leader + i) % n:
                raise _fail("the trick's cards are not in seat order from its leader")
            if p.face_up and state.status[p.seat] is not Status.IN:
                raise _fail(f"seat {p.seat} played face up but is out of the round")
            if p.face_up == bool(state.face_down_masks[p.seat] & p.card.bit):
                raise _fail(f"{p.card} is recorded face {'up' if p.face_up else 'down'} wrongly")
        if len({state.hand_masks[s].bit_count() + (s in played) for s in range(n)}) != 1:
            raise _fail("hands are not equal in size at the start of the trick")
        if 0 in sizes and not played:
            raise _fail("a trick starts with empty hands")
        if state.revealed:
            raise _fail("a chest challenge is recorded during a trick")
        return
    # COVER, CHEST, CHEST_CHOICE: between tricks, the trick already resolved.
    if state.trick:
        raise _fail("a resolved trick still has cards")
    if not 0 <= state.actor < n or state.status[state.actor] is not Status.IN:
        raise _fail("the seat deciding after the trick is not in the round")
    if state.actor != state.last_winner:
        raise _fail("only the trick's winner covers poisons or reveals chest cards")
    if ph is Phase.CHEST and (state.revealed >= 3 or not any(state.chest_deck)):
        raise _fail("no chest card can be revealed now")
    if ph is Phase.CHEST_CHOICE and not 1 <= state.revealed <= 2:
        raise _fail("the optional chest reveal is offered only after the first or second card")
    if ph is Phase.COVER:
        stored = state.potion_masks[state.actor].bit_count() \
            - state.covered_masks[state.actor].bit_count()
        uncovered = state.poison_masks[state.actor] & ~state.covered_masks[state.actor]
        if not 0 < stored < uncovered.bit_count():
            raise _fail("a cover choice is asked only with fewer potions than poison cards")
