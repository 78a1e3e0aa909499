"""Per-player views: exactly what one seat (or a spectator) may know (K34).

A :class:`PlayerView` is the only thing a client, a bot or a remote player should receive. It
holds the public facts of the position, and, for a seat, that seat's own hand and the identity
of the cards it played face down. It never holds another seat's hand, the undealt cards of the
dungeon deck, or the identity of another seat's face-down card -- not even in its events, which
is where secrets usually leak (boardgame.io's long-open bug): a card dealt to another seat
becomes :class:`HiddenCardDealt` and another seat's face-down card :class:`HiddenCardPlayed`.

>>> import shock_rules as sr
>>> s = sr.deal_hands(sr.new_game(sr.GameConfig(players=3, first_leader=0)),
...                   ["2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
...                    "2D 3D 4D 5D 6D 7D 8D 9D 10D"], trump="2C")
>>> s = sr.apply_all(s, "play 10H; withdraw 2S")
>>> v = sr.view(s, 2)
>>> [str(c) for c in v.hand][:3], v.to_move, v.trick[1].card is None
(['2D', '3D', '4D'], 2, True)
>>> v.events
(Withdrew(seat=1, banked=0), HiddenCardPlayed(seat=1, gems=2))
>>> sr.view(s, 1).trick[1].card
Card.parse('2S')
"""

from __future__ import annotations

import attrs

from .. import _pictures
from .._errors import check_seat
from .._rules.actions import Action
from .._rules.cards import CARDS, Card, Suit, cards_of
from .._rules.config import GameConfig
from .._rules.edition import ChestCard
from .._rules.engine import legal_actions
from .._rules.events import CardDealt, CardPlayed, Event, HiddenCardDealt, HiddenCardPlayed
from .._rules.state import (
    CHANCE_PHASES,
    Phase,
    PoisonCard,
    State,
    Status,
    lead_seat,
    lead_suit,
    not_a_state,
)
from .._rules.tables import tables_for

__all__ = [
    "HiddenCardDealt",
    "HiddenCardPlayed",
    "PlayerView",
    "SeatView",
    "TrickCard",
    "spectator_view",
    "view",
]


# -- the parts of a view ----------------------------------------------------------------------


@attrs.frozen
class TrickCard:
    """A card of the current trick as a seat sees it."""

    #: The seat that played it.
    seat: int
    #: The card; ``None`` when it lies face down and the viewer did not play it (K34).
    card: Card | None
    #: Whether it was played face up.
    face_up: bool
    #: The gems on it.
    gems: int


@attrs.frozen
class SeatView:
    """The public facts about one seat (K34)."""

    #: The seat's number.
    seat: int
    #: In the round, withdrawn or shocked.
    status: Status
    #: How many cards it holds.
    hand_size: int
    #: How many cards it played face down this round (in the trick or the discard pile).
    face_down_count: int
    #: Gems on its bag (at risk).
    on_bag: int
    #: Gems in its bag (safe; public because they go in in plain sight, K34).
    in_bag: int
    #: The poison number cards in front of it, covered or not.
    poisons: tuple[PoisonCard, ...]
    #: The potion cards in front of it (used and stored).
    potions: tuple[Card, ...]
    #: The suits it showed it lacks this round by not following suit (K9).
    void_suits: tuple[Suit, ...]

    @property
    def stored_potions(self) -> int:
        """How many of its potions are kept for later (K16)."""
        return len(self.potions) - sum(p.covered for p in self.poisons)

    @property
    def void_mask(self) -> int:
        """The void suits as a bitmask of suit numbers (``1 << suit``)."""
        return sum(1 << s for s in self.void_suits)


@attrs.frozen
class PlayerView:
    """What one seat (or, with ``seat`` ``None``, a spectator) knows of a position (K34).

    Build one with :func:`view` or :func:`spectator_view`. Views are frozen, hashable and equal
    by value: two positions that a seat cannot tell apart give that seat equal views.
    """

    #: The game's configuration (public).
    config: GameConfig
    #: The seat whose view this is, or ``None`` for a spectator.
    seat: int | None
    #: The round, 1-5.
    round: int
    #: The trick within the round, from 1.
    trick_number: int
    #: What the game waits for.
    phase: Phase
    #: The seat to decide or reveal chest cards, or receiving the next card while dealing; -1
    #: when none.
    actor: int
    #: The seat that opened the current trick (-1 before the first leader is known); see
    #: :attr:`lead_seat`.
    leader: int
    #: The leader of the round's first trick, or -1 (K27).
    round_leader: int
    #: The last seat to win a trick this round, or -1.
    last_winner: int
    #: The trump card, or ``None`` before it is revealed.
    trump: Card | None
    #: The current trick in play order; other seats' face-down cards hidden.
    trick: tuple[TrickCard, ...]
    #: The face-up cards of the number-card discard pile, in card order.
    discard: tuple[Card, ...]
    #: The public facts of every seat, indexed by seat.
    seats: tuple[SeatView, ...]
    #: The number of cards in the dungeon deck (their identities are hidden).
    deck_size: int
    #: The supply's balance (K29).
    supply: int
    #: The chest cards still in the chest deck (public, K34), in card order.
    chest_deck: tuple[ChestCard, ...]
    #: The chest gem cards in the chest discard pile.
    chest_discard: tuple[ChestCard, ...]
    #: The chest poison cards in the centre of the table.
    chest_centre: tuple[ChestCard, ...]
    #: Chest cards revealed in the current challenge (0-3).
    revealed: int
    #: The viewer's hand, in card order (empty for a spectator).
    hand: tuple[Card, ...]
    #: The cards the viewer played face down this round (trick or discard pile), in card order.
    own_face_down: tuple[Card, ...]
    #: The viewer's legal actions when it must decide; otherwise empty.
    legal_actions: tuple[Action, ...]
    #: The events of the step that produced the position, as the viewer saw them.
    events: tuple[Event, ...]
    #: How many actions (chance included) were applied since the game began: the step that
    #: produced the position, and caused :attr:`events`.
    step: int = 0

    def _repr_svg_(self) -> str | None:
        """Jupyter shows the view as a picture of the table (:func:`shock_rules.svg.view`)."""
        return _pictures.picture(self)

    # -- readable accessors --------------------------------------------------------------------

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.config.players

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now, or ``None`` at a chance decision or the game's end."""
        if self.phase in CHANCE_PHASES or self.phase is Phase.OVER:
            return None
        return self.actor

    @property
    def is_chance(self) -> bool:
        """Whether chance acts next (K6)."""
        return self.phase in CHANCE_PHASES

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase is Phase.OVER

    @property
    def to_act(self) -> int | None:
        """The seat that must decide now, or ``None`` at a chance decision or the game's end
        (while dealing, :attr:`actor` is the seat receiving the next card: chance acts)."""
        return self.to_move

    @property
    def your_turn(self) -> bool:
        """Whether the viewer must decide now."""
        return self.seat is not None and self.to_move == self.seat

    @property
    def my_turn(self) -> bool:
        """Whether the viewer must decide now (the same as :attr:`your_turn`)."""
        return self.your_turn

    @property
    def trump_suit(self) -> Suit | None:
        """The trump suit, or ``None`` before the trump card is revealed."""
        return self.trump.suit if self.trump is not None else None

    @property
    def lead_suit(self) -> Suit | None:
        """The suit of the first face-up card of the current trick, if any (K8)."""
        return lead_suit(self.trick)

    @property
    def lead_seat(self) -> int:
        """The leader of the current trick in the rulebook's sense, or -1 outside a trick;
        see :attr:`State.lead_seat <shock_rules.State.lead_seat>` (WITHDRAW-4)."""
        return lead_seat(
            self.phase, self.leader, self.trick, tuple(s.status for s in self.seats)
        )

    def status(self, seat: int) -> Status:
        """Return whether a seat is in the round, withdrawn or shocked."""
        return self.seats[check_seat(seat, self.config.players)].status

    def hand_size(self, seat: int) -> int:
        """Return how many cards a seat holds."""
        return self.seats[check_seat(seat, self.config.players)].hand_size

    def in_round(self) -> tuple[int, ...]:
        """Return the seats still in the round."""
        return tuple(s.seat for s in self.seats if s.status is Status.IN)

    def poisons(self, seat: int) -> tuple[PoisonCard, ...]:
        """Return the poison number cards in front of a seat."""
        return self.seats[check_seat(seat, self.config.players)].poisons

    @property
    def chest_deck_size(self) -> int:
        """The number of cards in the chest deck."""
        return len(self.chest_deck)

    @property
    def trick_gems(self) -> int:
        """The gems on the cards of the current trick."""
        return sum(p.gems for p in self.trick)

    @property
    def seen_mask(self) -> int:
        """The bitmask of the number cards in play whose place the viewer knows."""
        m = 0
        for c in self.hand + self.own_face_down + self.discard:
            m |= c.bit
        if self.trump is not None:
            m |= self.trump.bit
        for p in self.trick:
            if p.card is not None:
                m |= p.card.bit
        for s in self.seats:
            for pc in s.poisons:
                m |= pc.card.bit
            for c in s.potions:
                m |= c.bit
        return m

    @property
    def unseen(self) -> tuple[Card, ...]:
        """The cards in play whose place the viewer does not know: they are in other hands,
        face down under other seats' gems, or in the dungeon deck."""
        return cards_of(tables_for(self.config).deck & ~self.seen_mask)


# -- building views -----------------------------------------------------------------------------


def _public_event(event: Event, seat: int | None) -> Event:
    # K34: a dealt card and a face-down card are known only to their seat.
    if type(event) is CardDealt and event.seat != seat:
        return HiddenCardDealt(event.seat)
    if type(event) is CardPlayed and not event.face_up and event.seat != seat:
        return HiddenCardPlayed(event.seat, event.gems)
    return event


def visible_events(events: tuple[Event, ...], seat: int | None) -> tuple[Event, ...]:
    """Return ``events`` as ``seat`` (``None``: a spectator) may see them (K34; internal)."""
    return tuple(_public_event(e, seat) for e in events)


def _view(state: State, seat: int | None) -> PlayerView:
    n = state.config.players
    all_down = 0
    for m in state.face_down_masks:
        all_down |= m
    trick = tuple(
        TrickCard(p.seat, p.card if p.face_up or p.seat == seat else None, p.face_up, p.gems)
        for p in state.trick
    )
    seats = tuple(
        SeatView(
            seat=i,
            status=state.status[i],
            hand_size=state.hand_masks[i].bit_count(),
            face_down_count=state.face_down_masks[i].bit_count(),
            on_bag=state.on_bag[i],
            in_bag=state.in_bag[i],
            poisons=state.poisons(i),
            potions=cards_of(state.potion_masks[i]),
            void_suits=tuple(s for s in Suit if state.void_suits[i] >> s & 1),
        )
        for i in range(n)
    )
    mine = seat is not None and state.phase not in CHANCE_PHASES and state.phase is not Phase.OVER \
        and state.actor == seat
    return PlayerView(
        config=state.config,
        seat=seat,
        round=state.round,
        trick_number=state.trick_number,
        phase=state.phase,
        actor=state.actor,
        leader=state.leader,
        round_leader=state.round_leader,
        last_winner=state.last_winner,
        trump=CARDS[state.trump_index] if state.trump_index >= 0 else None,
        trick=trick,
        discard=cards_of(state.discard_mask & ~all_down),
        seats=seats,
        deck_size=state.pool_mask.bit_count(),
        supply=state.supply,
        chest_deck=state.chest_deck_cards,
        chest_discard=state.chest_discard_cards,
        chest_centre=state.chest_centre_cards,
        revealed=state.revealed,
        hand=cards_of(state.hand_masks[seat]) if seat is not None else (),
        own_face_down=cards_of(state.face_down_masks[seat]) if seat is not None else (),
        legal_actions=legal_actions(state) if mine else (),
        events=tuple(_public_event(e, seat) for e in state.events),
        step=state.step,
    )


def view(state: State, seat: int) -> PlayerView:
    """Return what ``seat`` knows of ``state``: the public facts (K34), its own hand and
    face-down cards, its legal actions when it must decide, and the last step's events with
    other seats' secrets hidden.

    Raise :class:`~shock_rules.InvalidArgumentError` if ``seat`` is not a seat of the game,
    and ``TypeError`` if ``state`` is not a :class:`~shock_rules.State`.
    """
    if type(state) is not State:
        raise not_a_state(state)
    return _view(state, check_seat(seat, state.config.players))


def spectator_view(state: State) -> PlayerView:
    """Return what a spectator knows of ``state``: only the public facts (K34); no hand, no
    face-down card's identity, no legal actions."""
    if type(state) is not State:
        raise not_a_state(state)
    return _view(state, None)
