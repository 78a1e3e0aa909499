"""Rounds: dealing, the end of a trick, the end of a round and the next round's set-up.

Clauses: K6 (dealing as chance), K24 (next leader), K25 (round end), K26 (next round in both
variants), K27 (next round's leader), K28 (end of game).
"""

from __future__ import annotations

from typing import Final

from .config import ROUNDS, Variant
from .draft import Work, shared
from .events import GameEnded, GemsBanked, RoundEnded, RoundEndReason, RoundStarted
from .state import Phase, Status

_IN: Final = Status.IN
_PLAY: Final = Phase.PLAY


def deal_target(hands: tuple[int, ...], hand_size: int) -> int:
    """Return the seat that receives the next card, or -1 when every hand is full.

    Cards go one at a time to the seat holding the fewest, the lowest seat first, which is
    dealing round the table from seat 0 (DEAL-2); after an abandoned trick (K13) it tops up
    the hands that kept a card last.
    """
    sizes = list(map(int.bit_count, hands))
    fewest = min(sizes)
    return sizes.index(fewest) if fewest < hand_size else -1


def next_deal_target(hands: tuple[int, ...], seat: int, size: int, hand_size: int) -> int:
    """Return :func:`deal_target` after ``seat``, which held ``size`` cards, was dealt one.

    ``seat`` was the lowest seat holding the fewest cards, so the next one is the first later
    seat still holding ``size`` cards; failing that, every seat holds more and the lowest seat
    with ``size + 1`` cards is next. This is O(1) in the usual round-robin deal.
    """
    for other in range(seat + 1, len(hands)):
        if hands[other].bit_count() == size:
            return other
    if size + 1 >= hand_size:
        return -1
    for other in range(len(hands)):
        if hands[other].bit_count() == size + 1:
            return other
    return -1  # unreachable: ``seat`` itself now holds size + 1 cards


def finish_trick(w: Work) -> None:
    """Close a fully resolved trick (chest challenge included): K25 checks, then K24."""
    w.revealed = 0
    in_round = w.status.count(_IN)
    if in_round == 0:
        end_round(w, RoundEndReason.NOBODY_LEFT)
    elif not any(w.hand_masks):
        end_round(w, RoundEndReason.HANDS_EMPTY)
    elif in_round == 1:
        end_round(w, RoundEndReason.ONE_LEFT)
    else:
        # K24: the winner leads; if shocked, the next seat clockwise still in the round.
        n = w.tables.players
        leader = w.last_winner
        while w.status[leader] is not _IN:  # two or more seats are in the round (K25)
            leader = (leader + 1) % n
        w.trick_number += 1
        w.leader = leader
        w.trick = ()
        w.set_phase(_PLAY, leader)


def end_round(w: Work, reason: RoundEndReason) -> None:
    """End the round (K25): bank the gems of the seats still in it, then set up the next
    round (K26) or end the game (K28)."""
    on_bag = list(w.on_bag)
    in_bag = list(w.in_bag)
    for seat, status in enumerate(w.status):
        gems = on_bag[seat]
        if gems and status is _IN:
            in_bag[seat] += gems
            on_bag[seat] = 0
            w.events.append(shared(GemsBanked, seat, gems))
    w.on_bag = tuple(on_bag)
    w.in_bag = tuple(in_bag)
    w.events.append(shared(RoundEnded, w.round, reason))
    if w.round == ROUNDS:
        w.set_phase(Phase.OVER)
        best = max(w.in_bag)
        w.events.append(
            GameEnded(tuple(w.in_bag), frozenset(i for i, v in enumerate(w.in_bag) if v == best))
        )
        return
    start_next_round(w)



def start_next_round(w: Work) -> None:
    """Set up the next round (K26) with its leader (K27); dealing follows as chance."""
    t = w.tables
    leader = w.last_winner if w.last_winner >= 0 else w.round_leader
    if w.config.variant is Variant.SIMPLIFIED:
        w.hand_masks = (0,) * t.players
    held = 0
    for h in w.hand_masks:
        held |= h
    # Everything not in a hand goes back to the dungeon deck: the pool, the discard pile,
    # the cards in front of players (an abandoned trick's cards are in the discard pile already)
    # and the trump card.
    w.pool_mask = t.deck & ~held
    # The chest deck is complete again; play areas, statuses and the trick are cleared.
    zeros = (0,) * t.players
    no_chest = (0,) * len(t.chest_counts)
    w.chest_deck, w.chest_discard, w.chest_centre = t.chest_counts, no_chest, no_chest
    w.trump_index, w.discard_mask, w.face_down_masks = -1, 0, zeros
    w.poison_masks = w.potion_masks = w.void_suits = zeros
    w.potion_on_masks = (0,) * len(w.potion_on_masks)  # POTION-6: laid until cleared here
    w.status, w.trick, w.trick_number = (Status.IN,) * t.players, (), 1
    w.revealed, w.last_winner = 0, -1
    w.round += 1
    w.leader = leader
    w.round_leader = leader
    w.events.append(shared(RoundStarted, w.round, leader))
    target = deal_target(w.hand_masks, t.hand_size)
    # DEAL-2: during dealing, ``actor`` is the seat that receives the next card.
    w.set_phase(Phase.DEAL if target >= 0 else Phase.TRUMP, target)
