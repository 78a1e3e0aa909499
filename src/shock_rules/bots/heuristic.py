"""The heuristic bot: sensible play from a view, and the same policy on full states for search
rollouts.

:class:`HeuristicBot` weighs the gems on its bag against the poison danger (its poison counts,
the chest poisons in the centre and those left in the chest deck), wins tricks cheaply when that
is safe, avoids tricks whose poisons would shock it, dumps its weakest cards face down, covers
its most dangerous poison and reveals chest cards by :func:`~shock_rules.chest_odds`.

The decisions read a small set of facts (:class:`_Info`) that is built either from a
:class:`~shock_rules.PlayerView` or, for search rollouts (:func:`state_policy`), straight from a
state for the acting seat; either way it holds only what that seat's view shows (K34), so the
bot and the rollout policy decide alike.

>>> import random
>>> import shock_rules as sr
>>> s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(3))
>>> seat = sr.current_player(s)
>>> action = HeuristicBot().choose(sr.view(s, seat), random.Random(0))
>>> action in sr.legal_actions(s)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from .._errors import check_number
from .._info.view import PlayerView, TrickCard
from .._rules.actions import COVER, DOWN, PLAY, REVEAL, STOP, WITHDRAW, Action
from .._rules.bits import iter_bits
from .._rules.cards import CARDS, RANKS
from .._rules.state import Phase, Play, State, Status, covered_mask
from .._rules.tables import Tables, tables_for
from .base import check_choice

__all__ = ["CAUTION", "HeuristicBot", "state_policy"]

#: What staying in the round is worth beyond this trick, in gems (a rough average of the
#: small chest icons and trick gems a seat collects; what a shock forfeits besides the bag).
_FUTURE: Final = 2.0
#: The default weight of the danger terms: how much a shock is feared beyond its expected
#: cost. Tuned by self-play (1,200 seeded games per setting, one bot against three at 1.0:
#: 0.2 won 45%, 0.3 42%, 0.6 37%, 1.5 12%; against three at 0.25, 0.15-0.25 were level).
CAUTION: Final = 0.25
#: Cost per rank of spending a card (keeps strong cards; in the standard variant they carry
#: over to the next round, K2).
_CARD_COST: Final = 0.06
#: The trick key of a trump card is this plus its rank: above every card of the lead suit.
_TRUMP_KEY: Final = 2 * RANKS
#: The caches below are cleared when they grow past this many entries.
_CACHE_SIZE: Final = 50_000

_IN: Final = Status.IN
_PLAY_P: Final = Phase.PLAY
_CHOICE_P: Final = Phase.CHEST_CHOICE
_COVER_P: Final = Phase.COVER


# -- per-config constants -----------------------------------------------------------------------


class _CardTables:
    """Per-card constants of the heuristic for one config, and caches of what many decisions
    share (internal)."""

    __slots__ = ("above", "chest_kinds", "chests", "cost", "counts", "dumps", "gems_first",
                 "keep", "no_chest", "suit", "t", "trump_key")

    def __init__(self, t: Tables) -> None:
        self.t = t
        #: How much each card is worth keeping: its rank, 3 more for a potion (K16).
        self.keep = tuple(float(c.rank) + (3.0 if c.bit & t.potion_cards else 0.0)
                          for c in CARDS)
        #: The score term of spending each card.
        self.cost = tuple(-_CARD_COST * k for k in self.keep)
        self.suit = tuple(int(c.suit) for c in CARDS)
        self.trump_key = tuple(_TRUMP_KEY + c.rank for c in CARDS)
        #: The cards of each card's suit above it.
        self.above = tuple(t.suit_masks[c.suit] & ~((1 << (c.index + 1)) - 1) for c in CARDS)
        #: (kind, large icons, poison type or -1) of each chest card kind.
        self.chest_kinds = tuple(
            (kind, card.large, t.chest_poison[kind]) for kind, card in enumerate(t.chest_cards)
        )
        # When the gem kinds come first, _chest_value may add their terms as integers first
        # and get the same float as adding term by term in chest order.
        kinds = [p for _, _, p in self.chest_kinds]
        self.gems_first = kinds == sorted(kinds, key=lambda p: p >= 0)
        self.dumps: dict[int, int] = {}
        self.counts: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
        self.chests: dict[tuple[int, ...], _Chest] = {}
        self.no_chest = _Chest(self, (0,) * len(t.chest_cards))

    def dump(self, hand: int) -> int:
        """Return the card of ``hand`` least worth keeping, to play face down (cached)."""
        found = self.dumps.get(hand)
        if found is None:
            if len(self.dumps) > _CACHE_SIZE:
                self.dumps.clear()
            keep = self.keep
            found = self.dumps[hand] = min(iter_bits(hand), key=lambda idx: (keep[idx], idx))
        return found

    def seat_counts(self, mine: int, centre: tuple[int, ...]) -> tuple[int, ...]:
        """Return the poison counts from uncovered poisons and the chest centre (K15, cached)."""
        found = self.counts.get((mine, centre))
        if found is None:
            if len(self.counts) > _CACHE_SIZE:
                self.counts.clear()
            t = self.t
            found = self.counts[(mine, centre)] = tuple(
                t.poison_counts(mine, t.centre_poisons(centre)))
        return found

    def chest(self, deck: tuple[int, ...]) -> _Chest:
        """Return the summary of a chest deck, by chest kind (cached)."""
        found = self.chests.get(deck)
        if found is None:
            if len(self.chests) > _CACHE_SIZE:
                self.chests.clear()
            found = self.chests[deck] = _Chest(self, deck)
        return found


class _Chest:
    """A chest deck as the heuristic reads it: the total, the gem cards' sum (when they come
    first in chest order) and the kinds left."""

    __slots__ = ("gems", "kinds", "poisons", "total")

    def __init__(self, ct: _CardTables, deck: tuple[int, ...]) -> None:
        self.total = sum(deck)
        #: (count, large icons, poison type or -1, whether more than one is left) of every
        #: kind left, in chest order.
        self.kinds = tuple((deck[k], large, p, deck[k] > 1)
                           for k, large, p in ct.chest_kinds if deck[k])
        if ct.gems_first:
            self.gems: float | None = float(sum(n * large for n, large, p, _ in self.kinds
                                                if p < 0))
            self.poisons = tuple(k for k in self.kinds if k[2] >= 0)
        else:
            self.gems = None
            self.poisons = ()


_CARD_TABLES: dict[Tables, _CardTables] = {}


def card_tables(t: Tables) -> _CardTables:
    """Return the heuristic's per-card constants for these tables (cached)."""
    found = _CARD_TABLES.get(t)
    if found is None:
        if len(_CARD_TABLES) >= 64:  # as many as tables_for() keeps
            _CARD_TABLES.clear()
        found = _CARD_TABLES[t] = _CardTables(t)
    return found


# -- what a decision reads ----------------------------------------------------------------------


class _Info:
    """The facts one decision reads: the seat's own cards and public facts only (K34). The
    builders fill only what the phase's decision reads; the rest keeps these defaults."""

    __slots__ = (
        "bag", "beaters", "chest", "counts", "ct", "extra", "hand", "in_round", "later", "mine",
        "most", "phase", "plays", "stored", "trick_gems", "trump", "trump_share", "unseen",
        "unseen_total", "up_cards",
    )

    def __init__(self, ct: _CardTables, phase: Phase) -> None:
        self.ct = ct
        self.phase = phase
        self.hand = 0
        self.in_round = False
        self.bag = 0  # gems on the seat's bag
        self.mine = 0  # its uncovered poison number cards
        self.stored = 0  # its potions not yet used to cover a poison (K16)
        self.counts: tuple[int, ...] = ()  # its count of each poison type (K15)
        self.most = 0  # the highest of the counts
        self.chest = ct.no_chest
        self.trump = -1  # the trump suit
        self.plays = 0  # the cards it may play face up (K9)
        self.beaters = 0  # those of them that beat the trick's face-up cards so far
        self.trick_gems = 0
        self.up_cards = 0  # the face-up cards of the trick
        # Filled only when some card beats the trick, as only winning reads them:
        # (hand size, void suits as bits) of each seat in the round that plays after this one,
        self.later: list[tuple[int, int]] = []
        # the gems each seat yet to play adds to the trick: a face-down card's gems for seats
        # out of the round (K10, K12), a guess of 0.3 for the others,
        self.extra: list[float] = []
        # and the cards whose place the seat does not know.
        self.unseen = 0
        self.unseen_total = 0
        self.trump_share = 0.0  # the share of trumps among the unseen cards


def _read_trick(i: _Info, trick: Sequence[Play] | Sequence[TrickCard]) -> int:
    """Fill the trick facts and the cards that may play and beat; return the seats played."""
    ct = i.ct
    suit_masks = ct.t.suit_masks
    trump = i.trump
    lead = best = -1
    gems = up = played = 0
    for p in trick:
        played |= 1 << p.seat
        gems += p.gems
        card = p.card
        if p.face_up and card is not None:
            c = card.index
            up |= 1 << c
            cs = ct.suit[c]
            if lead < 0:
                lead = cs
            key = ct.trump_key[c] if cs == trump else c % RANKS + 1 if cs == lead else -1
            if key > best:
                best = key
    i.trick_gems = gems
    i.up_cards = up
    plays = beaters = i.hand
    if lead >= 0:
        follow = plays & suit_masks[lead]
        if follow:
            plays = follow  # K9: must follow suit
        # Only a higher trump beats a trump; else a trump or a higher card of the lead suit.
        trumps = suit_masks[trump] if trump >= 0 else 0
        if best >= _TRUMP_KEY:
            beaters = plays & trumps & ~((1 << (trump * RANKS + best - _TRUMP_KEY)) - 1)
        else:
            beaters = plays & (trumps | suit_masks[lead] & ~((1 << (lead * RANKS + best)) - 1))
    i.plays = plays
    i.beaters = beaters
    return played


def _set_unseen(i: _Info, unseen: int) -> None:
    """Fill the unseen cards and the share of trumps among them."""
    total = unseen.bit_count()
    i.unseen = unseen
    i.unseen_total = total
    if total and i.trump >= 0:
        i.trump_share = (unseen & i.ct.t.suit_masks[i.trump]).bit_count() / total


def _info_from_view(v: PlayerView) -> _Info:
    """Return the facts of the view's seat."""
    seat = v.seat
    assert seat is not None
    ct = card_tables(tables_for(v.config))
    t = ct.t
    i = _Info(ct, v.phase)
    me = v.seats[seat]
    i.hand = sum(c.bit for c in v.hand)
    i.in_round = me.status is _IN
    i.bag = me.on_bag
    i.mine = sum(pc.card.bit for pc in me.poisons if not pc.covered)
    centre = [0] * len(t.chest_cards)
    for c in v.chest_centre:
        centre[t.chest_index[c]] += 1
    i.counts = ct.seat_counts(i.mine, tuple(centre))
    i.most = max(i.counts, default=0)
    deck = [0] * len(t.chest_cards)
    for c in v.chest_deck:
        deck[t.chest_index[c]] += 1
    i.chest = ct.chest(tuple(deck))
    i.stored = me.stored_potions
    i.trump = ct.suit[v.trump.index] if v.trump is not None else -1
    played = _read_trick(i, v.trick)
    if not i.beaters:
        return i
    for s in v.seats:
        if s.seat != seat and not played >> s.seat & 1:
            if s.status is _IN:
                i.later.append((max(1, s.hand_size), s.void_mask))
                i.extra.append(0.3)
            else:
                i.extra.append(float(t.face_down_gems))
    _set_unseen(i, t.deck & ~v.seen_mask)
    return i


def _info_from_state(s: State) -> _Info:
    """Return the acting seat's facts from a full state, reading only what its view shows."""
    seat = s.actor
    ct = card_tables(s.tables)
    t = ct.t
    phase = s.phase
    i = _Info(ct, phase)
    i.hand = s.hand_masks[seat]
    i.in_round = s.status[seat] is _IN
    if phase is _PLAY_P and not i.in_round:
        return i  # a card face down: the hand is all that decision reads
    i.bag = s.on_bag[seat]
    covered = s.poison_masks[seat] & covered_mask(s.potion_on_masks)
    i.mine = s.poison_masks[seat] & ~covered
    i.counts = ct.seat_counts(i.mine, s.chest_centre)
    i.most = max(i.counts, default=0)
    i.chest = ct.chest(s.chest_deck)
    if phase is not _PLAY_P:
        return i
    i.stored = s.potion_masks[seat].bit_count() - covered.bit_count()
    i.trump = ct.suit[s.trump_index] if s.trump_index >= 0 else -1
    played = _read_trick(i, s.trick)
    if not i.beaters:
        return i  # the facts below are read only by a card that could win the trick
    status = s.status
    hands = s.hand_masks  # read for their sizes only, which are public (K34)
    for o in range(t.players):
        if o != seat and not played >> o & 1:
            if status[o] is _IN:
                i.later.append((max(1, hands[o].bit_count()), s.void_suits[o]))
                i.extra.append(0.3)
            else:
                i.extra.append(float(t.face_down_gems))
    _set_unseen(i, t.deck & ~_seen(s, seat))
    return i


def _seen(s: State, seat: int) -> int:
    """Return the cards whose place ``seat`` knows (PlayerView.seen_mask, from the state)."""
    # Other seats' face-down cards are hidden, in the trick or the discard pile (K34).
    others_down = 0
    for j, m in enumerate(s.face_down_masks):
        if j != seat:
            others_down |= m
    seen = s.hand_masks[seat] | (s.discard_mask & ~others_down) | s.face_down_masks[seat]
    if s.trump_index >= 0:
        seen |= 1 << s.trump_index
    for p in s.trick:
        if p.face_up or p.seat == seat:
            seen |= p.card.bit
    for m in s.poison_masks:
        seen |= m
    for m in s.potion_masks:
        seen |= m
    return seen


# -- the decisions ------------------------------------------------------------------------------


def _chest_value(chest: _Chest, counts: Sequence[int], bag: int, caution: float) -> float:
    """Return the expected change of ``bag`` from one chest card revealed (K20, K21)."""
    if not chest.total:
        return 0.0
    if chest.gems is not None:  # the gem kinds' terms, summed once per chest deck
        value = chest.gems
        kinds = chest.poisons
    else:
        value = 0.0
        kinds = chest.kinds
    for n, large, p, left in kinds:
        if p < 0:
            value += n * large
        elif counts[p] >= 1:
            value -= n * (bag + _FUTURE * caution)
        else:
            # Not deadly now, but the type's count becomes 1 for everyone: a later card of
            # the same type would shock (K21). Charge part of the bag for that risk.
            value += n * (large - (0.3 * bag * caution if left else 0.0))
    return value / chest.total


def _shock_share(chest: _Chest, counts: Sequence[int]) -> float:
    """Return the share of the chest deck that would shock a seat with these counts (K21)."""
    if not chest.total:
        return 0.0
    bad = 0
    for n, _, p, _ in chest.kinds:
        if p >= 0 and counts[p] >= 1:
            bad += n
    return bad / chest.total


def _after_win(t: Tables, counts: Sequence[int], new_poisons: int, potions: int,
               poisons: int) -> list[int]:
    """Return the poison counts after taking ``new_poisons`` and covering with ``potions``."""
    won = list(counts)
    poison_of = t.poison_of
    for c in iter_bits(new_poisons):
        won[poison_of[c]] += 1
    if potions:
        # The potions cover number poisons (K16): spend them where a count reaches 2 (K17).
        for c in sorted(iter_bits(poisons), key=lambda c: -won[poison_of[c]]):
            if potions and won[poison_of[c]] >= 2:
                won[poison_of[c]] -= 1
                potions -= 1
    return won


def _hold_chance(i: _Info, idx: int) -> float:
    """Estimate the chance that ``idx``, beating the trick now, still wins it."""
    # Only the seats in the round that play after this one may beat it: the others play face
    # down (K12).
    total = i.unseen_total
    if not i.later or not total:
        return 1.0
    ct = i.ct
    cs = ct.suit[idx]
    unseen = i.unseen
    higher = (unseen & ct.above[idx]).bit_count() / total
    trumps = i.trump_share if cs != i.trump else 0.0
    hold = 1.0
    for size, void in i.later:
        beat = 1.0 - (1.0 - higher) ** size
        if trumps:
            # A seat void in the suit (K9) may trump; otherwise only if it lacks the suit.
            lacks = 1.0 if void >> cs & 1 else (
                1.0 - (unseen & ct.t.suit_masks[cs]).bit_count() / total) ** size
            beat += (1.0 - beat) * lacks * (1.0 - (1.0 - trumps) ** size)
        hold *= 1.0 - beat
    return hold


class _Policy:
    """The heuristic's decisions over an :class:`_Info`; called on a state, the rollout
    policy of :func:`state_policy`."""

    __slots__ = ("caution", "reveal_margin")

    def __init__(self, caution: float = CAUTION, reveal_margin: float = 0.25) -> None:
        self.caution = caution
        self.reveal_margin = reveal_margin

    def __call__(self, state: State) -> Action:
        """Decide for the state's acting seat from what that seat may know (K34)."""
        return self.choose(_info_from_state(state))

    def choose(self, i: _Info) -> Action:
        """Decide in the info's phase."""
        phase = i.phase
        if phase is _PLAY_P:
            if i.in_round:
                return self.play(i)
            return DOWN[i.ct.dump(i.hand)]  # out of the round: the card least worth keeping
        if phase is _CHOICE_P:
            return self.reveal(i)
        if phase is _COVER_P:
            return self.cover(i)
        raise ValueError(f"no decision in phase {phase.name.lower()}")

    def reveal(self, i: _Info) -> Action:
        """Reveal another chest card when its expected gain beats the shock risk (K22)."""
        value = _chest_value(i.chest, i.counts, i.bag, self.caution)
        shock = _shock_share(i.chest, i.counts)
        return REVEAL if value > self.reveal_margin + shock * _FUTURE else STOP

    def cover(self, i: _Info) -> Action:
        """Cover the poison card whose type is most dangerous (K16)."""
        # The highest count first, then the most chest poisons of its type left to reveal.
        poison_of = i.ct.t.poison_of
        kinds = i.chest.kinds

        def danger(idx: int) -> tuple[int, int, int]:
            """Rank a poison card by its type's danger."""
            p = poison_of[idx]
            return (i.counts[p], sum(n for n, _, q, _ in kinds if q == p), -idx)

        return COVER[max(iter_bits(i.mine), key=danger)]

    def play(self, i: _Info) -> Action:
        """Play the best-scoring card face up, or withdraw when staying scores below zero."""
        best_score = 0.0
        best_idx = -1
        m = i.plays
        while m:  # ascending: ties go to the lower card
            low = m & -m
            m ^= low
            idx = low.bit_length() - 1
            score = self._score(i, idx, low)
            if best_idx < 0 or score > best_score:
                best_score = score
                best_idx = idx
        bag = i.bag
        if bag > 0:
            # Staying risks the bag to chest poisons revealed by others this trick (K21)
            # besides what the card's own outcome risks; withdrawing banks it (K11).
            q = _shock_share(i.chest, i.counts)
            others = 1.2 * q * (bag + _FUTURE) * self.caution
            stay = best_score - others + (0.6 if i.hand.bit_count() > 1 else 0.0)
            if stay < 0:
                return WITHDRAW[i.ct.dump(i.hand)]
        return PLAY[best_idx]

    def _score(self, i: _Info, idx: int, bit: int) -> float:
        """Return the score of playing ``idx`` (``bit`` is ``1 << idx``) face up."""
        # What winning with it is worth times the chance it holds, less the cost of spending it.
        score = i.ct.cost[idx]
        poison = bit & i.ct.t.poison_cards
        if bit & i.beaters:
            hold = _hold_chance(i, idx)
            score += hold * self._win_value(i, idx)
            if poison:
                score += (1 - hold) * 0.4
        elif poison:
            score += 0.4  # a poison given to an opponent (rulebook, Poisons)
        return score

    def _win_value(self, i: _Info, idx: int) -> float:
        """Return the expected change of the bag if ``idx`` wins the trick (K14-K21)."""
        # Its gems, the mandatory chest card, and the poisons and potions it takes.
        t = i.ct.t
        # A float from the start: the compiled build keeps a float variable as a C double.
        gems = float(i.trick_gems + t.icons[idx])
        for g in i.extra:
            gems += g
        taken = (1 << idx) | i.up_cards
        new_poisons = taken & t.poison_cards
        potions = i.stored + (taken & t.potion_cards).bit_count()
        counts: Sequence[int] = i.counts
        most = i.most
        # Without new poisons the counts change only where a potion covers a count of 2.
        if new_poisons or (potions and most >= 2):
            counts = _after_win(t, counts, new_poisons, potions, (i.mine | taken) & t.poison_cards)
            most = max(counts, default=0)
        if most >= 2:
            return -(i.bag + _FUTURE) * self.caution  # K17: shocked before the chest
        return gems + _chest_value(i.chest, counts, int(i.bag + gems), self.caution)


class HeuristicBot:
    """A bot that plays by rules of thumb (see the module docstring); deterministic.

    ``caution`` scales how much it fears losing its bag (:data:`CAUTION` by default);
    ``reveal_margin`` is the expected gain, in gems, that another chest card must promise.
    """

    name = "heuristic"

    # The settings are declared ``object`` and checked here (see _errors.check_int).
    def __init__(self, caution: object = CAUTION, reveal_margin: object = 0.25) -> None:
        self._p = _Policy(check_number("caution", caution),
                          check_number("reveal_margin", reveal_margin))

    @property
    def caution(self) -> float:
        """How much the bot fears losing its bag."""
        return self._p.caution

    @property
    def reveal_margin(self) -> float:
        """The expected gain, in gems, that another chest card must promise."""
        return self._p.reveal_margin

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Return the heuristic's action for the view's seat."""
        acts = check_choice(view, rng).legal_actions
        if len(acts) == 1:
            return acts[0]
        return self._p.choose(_info_from_view(view))

    def __repr__(self) -> str:
        return f"HeuristicBot(caution={self._p.caution}, reveal_margin={self._p.reveal_margin})"


def state_policy(caution: float = CAUTION) -> Callable[[State], Action]:
    """Return the heuristic as a policy on full states, for search rollouts: it reads only what
    the acting seat may know (K34), and decides as :class:`HeuristicBot` on that seat's view."""
    return _Policy(caution)
