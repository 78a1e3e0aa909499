"""The heuristic bot: sensible play from a view, and the same policy on full states for search
rollouts.

:class:`HeuristicBot` weighs the gems on its bag against the poison danger (its poison counts,
the chest poisons in the centre and those left in the chest deck), wins tricks cheaply when that
is safe, avoids tricks whose poisons would shock it, dumps its weakest cards face down, covers
its most dangerous poison and reveals chest cards by :func:`~shock_rules.chest_odds`.

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

from .._errors import InvalidStateError, check_number, quoted
from .._info.view import PlayerView
from .._rules.actions import DOWN, PLAY, REVEAL, STOP, WITHDRAW, Action, ActionKind
from .._rules.bits import iter_bits
from .._rules.cards import CARDS, RANKS, mask_of
from .._rules.config import Variant
from .._rules.engine import legal_actions
from .._rules.state import Phase, State, Status
from .._rules.tables import Tables, tables_for
from .base import check_choice

__all__ = ["CAUTION", "HeuristicBot", "state_policy"]


# -- what the heuristic reads -----------------------------------------------------------------

_TRUMP_KEY: Final = 2 * RANKS


class _Info:
    """The facts a decision needs, as bitmasks and lists: the seat's own cards and the public
    facts only (K34), built from a view or, for search rollouts, from a state."""

    __slots__ = (
        "chest", "counts", "deck_size", "hand", "hand_sizes", "legal", "on_bag", "phase",
        "players", "poisons_mine", "potions_stored", "round", "seat", "standard", "status",
        "tables", "trick", "trump", "unseen", "voids",
    )

    def __init__(self, tables: Tables) -> None:
        self.seat = 0
        self.players = 0
        self.phase = Phase.PLAY
        self.round = 1
        self.standard = True
        self.hand = 0
        # (seat, card index or -1 when hidden, face up, gems) for each card of the trick
        self.trick: list[tuple[int, int, bool, int]] = []
        self.trump = -1
        self.status: tuple[Status, ...] = ()
        self.on_bag: tuple[int, ...] = ()
        self.hand_sizes: list[int] = []
        self.voids: list[int] = []
        self.counts: list[int] = []  # the seat's count of each poison type (K15)
        self.poisons_mine = 0  # its uncovered poison number cards
        self.potions_stored = 0
        self.chest: list[int] = []  # chest deck, per kind of tables.chest_cards
        self.unseen = 0  # cards whose place the seat does not know
        self.deck_size = 0
        self.legal: tuple[Action, ...] = ()
        self.tables = tables


def _info_from_view(v: PlayerView) -> _Info:
    t = tables_for(v.config)
    i = _Info(t)
    seat = v.seat
    assert seat is not None
    i.seat = seat
    i.players = v.players
    i.phase = v.phase
    i.round = v.round
    i.standard = v.config.variant is Variant.STANDARD
    i.hand = mask_of(v.hand)
    i.trick = [(p.seat, p.card.index if p.card is not None else -1, p.face_up, p.gems)
               for p in v.trick]
    i.trump = int(v.trump.suit) if v.trump is not None else -1
    i.status = tuple(s.status for s in v.seats)
    i.on_bag = tuple(s.on_bag for s in v.seats)
    i.hand_sizes = [s.hand_size for s in v.seats]
    i.voids = [s.void_mask for s in v.seats]
    types = v.config.edition.poison_types
    counts = [0] * len(types)
    mine = 0
    for pc in v.seats[seat].poisons:
        if not pc.covered:
            counts[types.index(pc.poison)] += 1
            mine |= pc.card.bit
    for c in v.chest_centre:
        if c.poison is not None:
            counts[types.index(c.poison)] += 1
    i.counts = counts
    i.poisons_mine = mine
    i.potions_stored = v.seats[seat].stored_potions
    chest = [0] * len(t.chest_cards)
    for c in v.chest_deck:
        chest[t.chest_index[c]] += 1
    i.chest = chest
    i.unseen = t.deck & ~v.seen_mask
    i.deck_size = v.deck_size
    i.legal = v.legal_actions
    return i


def _info_from_state(s: State) -> _Info:
    """Build the acting seat's information from a full state, reading only what that seat may
    know (its hand and face-down cards, and the public facts)."""
    t = s.tables
    seat = s.actor
    i = _Info(t)
    i.seat = seat
    i.players = t.players
    i.phase = s.phase
    i.round = s.round
    i.standard = s.config.variant is Variant.STANDARD
    i.hand = s.hand_masks[seat]
    i.trick = [(p.seat, p.card.index if p.face_up or p.seat == seat else -1, p.face_up, p.gems)
               for p in s.trick]
    i.trump = CARDS[s.trump_index].suit if s.trump_index >= 0 else -1
    i.status = s.status
    i.on_bag = s.on_bag
    i.hand_sizes = [h.bit_count() for h in s.hand_masks]
    i.voids = list(s.void_suits)
    mine = s.poison_masks[seat] & ~s.covered_masks[seat]
    counts = [(mine & m).bit_count() for m in t.type_masks]
    for kind, n in enumerate(s.chest_centre):
        if n and t.chest_poison[kind] >= 0:
            counts[t.chest_poison[kind]] += n
    i.counts = counts
    i.poisons_mine = mine
    i.potions_stored = s.potion_masks[seat].bit_count() - s.covered_masks[seat].bit_count()
    i.chest = list(s.chest_deck)
    i.unseen = t.deck & ~_seen(s, seat)
    i.deck_size = s.pool_mask.bit_count()
    return i


# -- the heuristic ----------------------------------------------------------------------------

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


class _Heuristic:
    """The decisions of :class:`HeuristicBot`, over an :class:`_Info` (internal)."""

    def __init__(self, caution: float = CAUTION, reveal_margin: float = 0.25) -> None:
        self.caution = caution
        self.reveal_margin = reveal_margin

    # chest ---------------------------------------------------------------------------------

    def _chest_value(self, i: _Info, counts: list[int], bag: int) -> tuple[float, float]:
        """Return (expected change of the bag, probability of a shock) for one chest card
        revealed by this seat with ``bag`` on its bag and these poison counts (K20, K21)."""
        t = i.tables
        total = sum(i.chest)
        if not total:
            return 0.0, 0.0
        value = 0.0
        shock = 0
        for kind, n in enumerate(i.chest):
            if not n:
                continue
            card = t.chest_cards[kind]
            p = t.chest_poison[kind]
            if p < 0:
                value += n * card.large
            elif counts[p] >= 1:
                shock += n
                value -= n * (bag + _FUTURE * self.caution)
            else:
                # Not deadly now, but the type's count becomes 1 for everyone: a later card
                # of the same type would shock (K21). Charge part of the bag for that risk.
                left = i.chest[kind] - 1
                value += n * (card.large - (0.3 * bag * self.caution if left else 0.0))
        return value / total, shock / total

    def _shock_per_reveal(self, i: _Info) -> float:
        """The chance that one chest card revealed by anyone shocks this seat (K21)."""
        t = i.tables
        total = sum(i.chest)
        if not total:
            return 0.0
        bad = sum(n for kind, n in enumerate(i.chest)
                  if n and t.chest_poison[kind] >= 0
                  and i.counts[t.chest_poison[kind]] >= 1)
        return bad / total

    def reveal(self, i: _Info) -> Action:
        """Reveal another chest card when its expected gain beats the shock risk (K22)."""
        value, shock = self._chest_value(i, i.counts, i.on_bag[i.seat])
        return REVEAL if value > self.reveal_margin + shock * _FUTURE else STOP

    # cover ---------------------------------------------------------------------------------

    def cover(self, i: _Info) -> Action:
        """Cover the poison card whose type is most dangerous: the highest count, then the
        most chest poisons of its type left in the chest deck (K16)."""
        t = i.tables

        def danger(a: Action) -> tuple[int, int, int]:
            assert a.card is not None
            p = t.poison_of[a.card.index]
            left = sum(n for kind, n in enumerate(i.chest)
                       if t.chest_poison[kind] == p)
            return (i.counts[p], left, -a.card.index)

        return max(i.legal, key=danger)

    # cards ---------------------------------------------------------------------------------

    def _keep_value(self, i: _Info, idx: int) -> float:
        """How much a card is worth keeping: its rank, more for a trump-suit card this round
        and for potions (K16)."""
        card = CARDS[idx]
        v = float(card.rank)
        if card.bit & i.tables.potion_cards:
            v += 3.0
        return v

    def dump(self, i: _Info, mask: int) -> int:
        """Return the card to play face down: the one least worth keeping. In the simplified
        variant hands are discarded at the round's end (K2), so any card would do."""
        return min(iter_bits(mask), key=lambda idx: (self._keep_value(i, idx), idx))

    def _key(self, idx: int, lead: int, trump: int) -> int:
        card = CARDS[idx]
        if card.suit == trump:
            return _TRUMP_KEY + card.rank
        if card.suit == lead:
            return card.rank
        return -1

    def _hold_chance(self, i: _Info, idx: int, lead: int) -> float:
        """Estimate the chance that ``idx``, if it beats the trick now, still wins after the
        seats that play after this one (only seats in the round play face up)."""
        n = i.players
        played = {s for s, _, _, _ in i.trick}
        later = [s for s in range(n) if s != i.seat and s not in played
                 and i.status[s] is Status.IN]
        if not later:
            return 1.0
        card = CARDS[idx]
        unseen = i.unseen
        total = unseen.bit_count()
        if not total:
            return 1.0
        t = i.tables
        suit_mask = t.suit_masks[card.suit]
        above = suit_mask & ~((1 << (idx + 1)) - 1)
        higher = (unseen & above).bit_count() / total
        trumps = 0.0
        if card.suit != i.trump and i.trump >= 0:
            trumps = (unseen & t.suit_masks[i.trump]).bit_count() / total
        p = 1.0
        for s in later:
            size = max(1, i.hand_sizes[s])
            beat = 1.0 - (1.0 - higher) ** size
            if trumps:
                void = bool(i.voids[s] >> card.suit & 1)
                lacks = 1.0 if void else (1.0 - (unseen & suit_mask).bit_count() / total) ** size
                beat += (1.0 - beat) * lacks * (1.0 - (1.0 - trumps) ** size)
            p *= 1.0 - beat
        return p

    def _win_value(self, i: _Info, idx: int) -> float:
        """The expected change of the bag if ``idx`` wins the trick: its gems, the mandatory
        chest card, and the poisons and potions it takes (K14-K21)."""
        t = i.tables
        bag = i.on_bag[i.seat]
        # A float from the start (the int converts exactly): the compiled build keeps a float
        # variable as a C double and refuses to store an int in it.
        gems = float(sum(g for _, _, _, g in i.trick) + t.icons[idx])
        played = {s for s, _, _, _ in i.trick}
        for s in range(i.players):
            if s != i.seat and s not in played:
                gems += t.face_down_gems if i.status[s] is not Status.IN else 0.3
        taken = 1 << idx
        for _, c, up, _ in i.trick:
            if up and c >= 0:
                taken |= 1 << c
        poisons = (i.poisons_mine | taken) & t.poison_cards
        new_poisons = taken & t.poison_cards
        potions = i.potions_stored + (taken & t.potion_cards).bit_count()
        counts = list(i.counts)
        for c in iter_bits(new_poisons):
            counts[t.poison_of[c]] += 1
        # K16: the potions cover number poisons; use them where a count reaches 2.
        for c in sorted(iter_bits(poisons), key=lambda c: -counts[t.poison_of[c]]):
            if potions and counts[t.poison_of[c]] >= 2:
                counts[t.poison_of[c]] -= 1
                potions -= 1
        if max(counts, default=0) >= 2:
            return -(bag + _FUTURE) * self.caution  # K17: shocked before the chest
        chest, _ = self._chest_value(i, counts, int(bag + gems))
        return gems + chest

    def _play_scores(self, i: _Info) -> list[tuple[float, int]]:
        lead = -1
        best = -1
        for _, c, up, _ in i.trick:
            if up:
                if lead < 0:
                    lead = CARDS[c].suit
                best = max(best, self._key(c, lead, i.trump))
        t = i.tables
        out: list[tuple[float, int]] = []
        for a in i.legal:
            if a.kind is not ActionKind.PLAY:
                continue
            assert a.card is not None
            idx = a.card.index
            my_lead = lead if lead >= 0 else CARDS[idx].suit
            key = self._key(idx, my_lead, i.trump)
            score = -_CARD_COST * self._keep_value(i, idx)
            if key > best:
                p = self._hold_chance(i, idx, my_lead)
                score += p * self._win_value(i, idx)
                if a.card.bit & t.poison_cards:
                    score += (1 - p) * 0.4
            elif a.card.bit & t.poison_cards:
                score += 0.4  # a poison given to an opponent (rulebook, Poisons)
            out.append((score, idx))
        return out

    def play(self, i: _Info) -> Action:
        """Choose a card to play face up, or to withdraw."""
        if i.status[i.seat] is not Status.IN:
            return DOWN[self.dump(i, i.hand)]
        scores = self._play_scores(i)
        best_score, best_idx = max(scores, key=lambda si: (si[0], -si[1]))
        bag = i.on_bag[i.seat]
        if bag > 0:
            # Staying risks the bag to chest poisons revealed by others this trick (K21)
            # besides what the card's own outcome risks; withdrawing banks it (K11).
            q = self._shock_per_reveal(i)
            others = 1.2 * q * (bag + _FUTURE) * self.caution
            tricks_left = i.hand.bit_count()
            stay = best_score - others + (0.6 if tricks_left > 1 else 0.0)
            if stay < 0:
                return WITHDRAW[self.dump(i, i.hand)]
        return PLAY[best_idx]

    def choose(self, i: _Info) -> Action:
        if i.phase is Phase.PLAY:
            return self.play(i)
        if i.phase is Phase.CHEST_CHOICE:
            return self.reveal(i)
        if i.phase is Phase.COVER:
            return self.cover(i)
        raise ValueError(f"no decision in phase {i.phase.name.lower()}")


class HeuristicBot:
    """A bot that plays by rules of thumb (see the module docstring); deterministic.

    ``caution`` scales how much it fears losing its bag (:data:`CAUTION` by default);
    ``reveal_margin`` is the expected gain, in gems, that another chest card must promise.
    """

    name = "heuristic"

    # The settings are declared ``object`` and checked here (see _errors.check_int).
    def __init__(self, caution: object = CAUTION, reveal_margin: object = 0.25) -> None:
        self._h = _Heuristic(check_number("caution", caution),
                             check_number("reveal_margin", reveal_margin))

    @property
    def caution(self) -> float:
        """How much the bot fears losing its bag."""
        return self._h.caution

    @property
    def reveal_margin(self) -> float:
        """The expected gain, in gems, that another chest card must promise."""
        return self._h.reveal_margin

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Return the heuristic's action for the view's seat."""
        acts = check_choice(view, rng).legal_actions
        if len(acts) == 1:
            return acts[0]
        try:
            return self._h.choose(_info_from_view(view))
        except Exception as exc:  # a view made by hand that no state shows
            raise InvalidStateError(f"invalid view: {quoted(exc)}") from None

    def __repr__(self) -> str:
        return f"HeuristicBot(caution={self._h.caution}, reveal_margin={self._h.reveal_margin})"


# -- the same policy on full states, fast ------------------------------------------------------


class _CardTables:
    """Per-card constants of the heuristic for one config, computed once (internal)."""

    __slots__ = ("above", "chest_kinds", "chests", "cost", "counts", "dumps", "gems_first",
                 "keep", "suit", "t", "trump_key")

    def __init__(self, t: Tables) -> None:
        h = _Heuristic()
        dummy = _Info(t)
        #: _Heuristic._keep_value of each card index.
        self.keep = tuple(h._keep_value(dummy, c.index) for c in CARDS)
        #: The score term of spending each card, as _play_scores computes it.
        self.cost = tuple(-_CARD_COST * k for k in self.keep)
        self.suit = tuple(int(c.suit) for c in CARDS)
        self.trump_key = tuple(_TRUMP_KEY + c.rank for c in CARDS)
        #: The cards of each card's suit above it.
        self.above = tuple(t.suit_masks[c.suit] & ~((1 << (c.index + 1)) - 1) for c in CARDS)
        #: (kind, large icons, poison type or -1) of each chest card kind.
        self.chest_kinds = tuple(
            (kind, card.large, t.chest_poison[kind]) for kind, card in enumerate(t.chest_cards)
        )
        #: Whether the chest's gem cards come before its poison cards (see chest()).
        kinds = [p for _, _, p in self.chest_kinds]
        self.gems_first = kinds == sorted(kinds, key=lambda p: p >= 0)
        self.t = t
        #: _Heuristic.dump by hand mask, filled as hands are met.
        self.dumps: dict[int, int] = {}
        #: The poison counts by (uncovered poisons of the seat, chest centre), and the chest
        #: summaries by chest deck (see counts() and chest()).
        self.counts: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
        self.chests: dict[tuple[int, ...], _Chest] = {}

    def dump(self, mask: int) -> int:
        """Return the card _Heuristic.dump plays face down from ``mask``."""
        found = self.dumps.get(mask)
        if found is None:
            if len(self.dumps) > 50_000:
                self.dumps.clear()
            keep = self.keep
            found = self.dumps[mask] = min(iter_bits(mask), key=lambda idx: (keep[idx], idx))
        return found

    def seat_counts(self, state: State, seat: int) -> tuple[int, ...]:
        """Return _info_from_state's poison counts of ``seat``: its uncovered poison cards
        and the chest poisons in the centre, per type (K15)."""
        mine = state.poison_masks[seat] & ~state.covered_masks[seat]
        centre = state.chest_centre
        found = self.counts.get((mine, centre))
        if found is None:
            if len(self.counts) > 50_000:
                self.counts.clear()
            t = self.t
            counts = [(mine & m).bit_count() for m in t.type_masks]
            poison = t.chest_poison
            for kind, n in enumerate(centre):
                if n and poison[kind] >= 0:
                    counts[poison[kind]] += n
            found = self.counts[(mine, centre)] = tuple(counts)
        return found

    def chest(self, deck: tuple[int, ...]) -> _Chest:
        """Return the summary of a chest deck that _StatePolicy's chest value reads."""
        found = self.chests.get(deck)
        if found is None:
            if len(self.chests) > 50_000:
                self.chests.clear()
            found = self.chests[deck] = _Chest(self, deck)
        return found


class _Chest:
    """A chest deck as _Heuristic._chest_value reads it: the total, the gem cards' sum (when
    they come first, their terms add up exactly, as integers) and the poison kinds left."""

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


_IN: Final = Status.IN
_PLAY_P: Final = Phase.PLAY
_CHOICE_P: Final = Phase.CHEST_CHOICE


class _StatePolicy:
    """The heuristic on full states, for search rollouts (see :func:`state_policy`).

    It decides exactly as ``_Heuristic.choose(_info_from_state(state))`` (a test compares them
    on thousands of states), but reads the state directly, computes per decision only what
    that decision needs (the unseen cards only when a card could win the trick, the potions'
    cover only when a poison is taken or a count of 2 is at stake) and takes per-card
    constants, poison counts and chest summaries from per-config caches. Every float
    is computed by the same operations in the same order as in :class:`_Heuristic`, so that
    near-ties break the same way.
    """

    def __init__(self, caution: float = CAUTION, reveal_margin: float = 0.25) -> None:
        self.h = _Heuristic(caution, reveal_margin)
        self.caution = caution
        self.reveal_margin = reveal_margin

    def __call__(self, state: State) -> Action:
        phase = state.phase
        if phase is _PLAY_P:
            seat = state.actor
            if state.status[seat] is _IN:
                return self.play(state)
            # Out of the round: a card face down, the one least worth keeping (one card: the
            # only legal action either way).
            return DOWN[card_tables(state.tables).dump(state.hand_masks[seat])]
        if phase is _CHOICE_P:
            return self.reveal(state)
        acts = legal_actions(state)
        if len(acts) == 1:
            return acts[0]
        i = _info_from_state(state)
        i.legal = acts
        return self.h.choose(i)

    def _chest_value(self, chest: _Chest, counts: Sequence[int], bag: int) -> float:
        # _Heuristic._chest_value's expected change of the bag, term by term.
        if not chest.total:
            return 0.0
        caution = self.caution
        if chest.gems is not None:
            value = chest.gems
            for n, large, p, left in chest.poisons:
                if counts[p] >= 1:
                    value -= n * (bag + _FUTURE * caution)
                else:
                    value += n * (large - (0.3 * bag * caution if left else 0.0))
            return value / chest.total
        value = 0.0
        for n, large, p, left in chest.kinds:
            if p < 0:
                value += n * large
            elif counts[p] >= 1:
                value -= n * (bag + _FUTURE * caution)
            else:
                value += n * (large - (0.3 * bag * caution if left else 0.0))
        return value / chest.total

    def reveal(self, state: State) -> Action:
        """_Heuristic.reveal on a state."""
        seat = state.actor
        ct = card_tables(state.tables)
        chest = ct.chest(state.chest_deck)
        counts = ct.seat_counts(state, seat)
        value = self._chest_value(chest, counts, state.on_bag[seat])
        shock = _shock_share(chest, counts)
        return REVEAL if value > self.reveal_margin + shock * _FUTURE else STOP

    def play(self, state: State) -> Action:
        """_Heuristic.play for a seat in the round: a card face up, or withdraw."""
        t = state.tables
        ct = card_tables(t)
        suit_of = ct.suit
        trump_key = ct.trump_key
        seat = state.actor
        hand = state.hand_masks[seat]
        trump = suit_of[state.trump_index] if state.trump_index >= 0 else -1
        # The trick: its lead suit and best key (_Heuristic._key), gems, face-up cards, seats.
        lead = -1
        best = -1
        trick_gems = 0
        up_cards = 0
        played = 0
        for p in state.trick:
            played |= 1 << p.seat
            trick_gems += p.gems
            if p.face_up:
                c = p.card.index
                up_cards |= 1 << c
                if lead < 0:
                    lead = suit_of[c]
                cs = suit_of[c]
                key = trump_key[c] if cs == trump else c % RANKS + 1 if cs == lead else -1
                if key > best:
                    best = key
        plays = hand
        if lead >= 0:
            follow = hand & t.suit_masks[lead]
            if follow:
                plays = follow  # K9, as legal_actions
        poison_cards = t.poison_cards
        potion_cards = t.potion_cards
        caution = self.caution
        bag = state.on_bag[seat]
        cost = ct.cost
        counts = ct.seat_counts(state, seat)
        base_max = max(counts, default=0)
        chest = ct.chest(state.chest_deck)
        chest_total = chest.total
        chest_gems = chest.gems if chest_total else None  # no chest card: _chest_value
        chest_poisons = chest.poisons
        # Filled when a card could win the trick (_hold_chance and _win_value).
        ready = False
        later: list[tuple[int, int]] = []
        unseen = total = 0
        trumps = 0.0
        extra: list[float] = []
        mine = stored = 0
        best_score = 0.0
        best_idx = -1
        m = plays
        while m:
            low = m & -m
            m ^= low
            idx = low.bit_length() - 1
            cs = suit_of[idx]
            my_lead = lead if lead >= 0 else cs
            key = trump_key[idx] if cs == trump else idx % RANKS + 1 if cs == my_lead else -1
            score = cost[idx]
            if key > best:
                if not ready:
                    ready = True
                    status = state.status
                    hands = state.hand_masks
                    voids = state.void_suits
                    fdg = t.face_down_gems
                    for s in range(t.players):
                        if s != seat and not played >> s & 1:
                            if status[s] is _IN:
                                later.append((max(1, hands[s].bit_count()), voids[s]))
                                extra.append(0.3)
                            else:
                                extra.append(fdg)
                    unseen = t.deck & ~_seen(state, seat)
                    total = unseen.bit_count()
                    if total and trump >= 0:
                        trumps = (unseen & t.suit_masks[trump]).bit_count() / total
                    mine = state.poison_masks[seat] & ~state.covered_masks[seat]
                    stored = (state.potion_masks[seat].bit_count()
                              - state.covered_masks[seat].bit_count())
                # _Heuristic._hold_chance
                if not later or not total:
                    hold = 1.0
                else:
                    suit_mask = t.suit_masks[cs]
                    higher = (unseen & ct.above[idx]).bit_count() / total
                    tr = trumps if cs != trump else 0.0
                    hold = 1.0
                    for size, void in later:
                        beat = 1.0 - (1.0 - higher) ** size
                        if tr:
                            lacks = 1.0 if void >> cs & 1 else (
                                1.0 - (unseen & suit_mask).bit_count() / total) ** size
                            beat += (1.0 - beat) * lacks * (1.0 - (1.0 - tr) ** size)
                        hold *= 1.0 - beat
                # _Heuristic._win_value
                gems = float(trick_gems + t.icons[idx])  # as in _Heuristic._win_value
                for g in extra:
                    gems += g
                taken = low | up_cards
                new_poisons = taken & poison_cards
                potions = stored + (taken & potion_cards).bit_count()
                # Without new poisons the counts change only where a potion covers a count
                # of 2 or more (_after_win).
                won: Sequence[int]
                if new_poisons or (potions and base_max >= 2):
                    won = _after_win(t, counts, new_poisons, potions, (mine | taken) & poison_cards)
                    shocked = max(won, default=0) >= 2
                else:
                    won = counts
                    shocked = base_max >= 2
                if shocked:
                    win = -(bag + _FUTURE) * caution  # K17: shocked before the chest
                elif chest_gems is not None:
                    # _chest_value inlined: the most frequent call of a rollout.
                    value = chest_gems
                    worth = int(bag + gems)
                    for n, large, pt, left in chest_poisons:
                        if won[pt] >= 1:
                            value -= n * (worth + _FUTURE * caution)
                        else:
                            value += n * (large - (0.3 * worth * caution if left else 0.0))
                    win = gems + value / chest_total
                else:
                    win = gems + self._chest_value(chest, won, int(bag + gems))
                score += hold * win
                if low & poison_cards:
                    score += (1 - hold) * 0.4
            elif low & poison_cards:
                score += 0.4  # a poison given to an opponent (rulebook, Poisons)
            if best_idx < 0 or score > best_score:
                best_score = score
                best_idx = idx
        if bag > 0:
            # _Heuristic.play: staying risks the bag to chest poisons revealed by others.
            q = _shock_share(chest, counts)
            others = 1.2 * q * (bag + _FUTURE) * caution
            stay = best_score - others + (0.6 if hand.bit_count() > 1 else 0.0)
            if stay < 0:
                return WITHDRAW[ct.dump(hand)]
        return PLAY[best_idx]


def _after_win(t: Tables, counts: Sequence[int], new_poisons: int, potions: int,
               poisons: int) -> list[int]:
    """Return the poison counts after taking ``new_poisons`` with ``potions`` potions to
    cover ``poisons`` (_Heuristic._win_value)."""
    won = list(counts)
    poison_of = t.poison_of
    for c in iter_bits(new_poisons):
        won[poison_of[c]] += 1
    if potions:
        # K16: the potions cover number poisons; use them where a count reaches 2.
        for c in sorted(iter_bits(poisons), key=lambda c: -won[poison_of[c]]):
            if potions and won[poison_of[c]] >= 2:
                won[poison_of[c]] -= 1
                potions -= 1
    return won


def _shock_share(chest: _Chest, counts: Sequence[int]) -> float:
    """Return the share of the chest deck that would shock a seat with these counts (K21)."""
    if not chest.total:
        return 0.0
    bad = 0
    for n, _, p, _ in chest.kinds:
        if p >= 0 and counts[p] >= 1:
            bad += n
    return bad / chest.total


def _seen(s: State, seat: int) -> int:
    """Return the cards whose place ``seat`` knows: its hand and face-down cards, the face-up
    discard pile, the trump card, the face-up cards of the trick and every play area."""
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


def state_policy(caution: float = CAUTION) -> Callable[[State], Action]:
    """Return the heuristic as a fast policy on full states, for search rollouts: it reads only
    what the acting seat may know (K34), and decides as :class:`HeuristicBot` would on that
    seat's view."""
    return _StatePolicy(caution)
