"""Chest odds: what the next chest card means for the seat that reveals it (K19-K22, K34).

The chest deck's contents are public (K34): every chest card not yet in the discard pile or
the centre is in the deck, and each is equally likely to come next (K6). So a seat about to
decide whether to reveal another chest card (K22) can compute exactly how likely the next card
is to shock it, and how its gems on the bag change on average.

>>> import shock_rules as sr
>>> s = sr.deal_hands(sr.new_game(sr.GameConfig(players=3, first_leader=0)),
...                   ["2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
...                    "2D 3D 4D 5D 6D 7D 8D 9D 10D"], trump="2C")
>>> s = sr.apply_all(s, "play 10H; play 2S; play 2D; chest G2/1")
>>> odds = chest_odds(sr.view(s, 0))   # 2 gems on its bag (2S, 2D) + 2 from G2/1
>>> odds.shock, odds.gain, odds.cards
(Fraction(0, 1), Fraction(42, 23), 23)
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from .._errors import InvalidArgumentError, quoted
from .._rules.state import Status
from .view import PlayerView

__all__ = ["ChestOdds", "chest_odds"]


@attrs.frozen
class ChestOdds:
    """The odds of the next chest card for one seat (see :func:`chest_odds`)."""

    #: The seat the odds are for.
    seat: int
    #: The number of cards in the chest deck.
    cards: int
    #: The probability that the next card is a poison card (of any type).
    poison: Fraction
    #: The probability that the next card shocks the seat (K21, K18).
    shock: Fraction
    #: The expected change of the seat's gems on the bag if it reveals the next card: the
    #: large icons it gains, less everything on the bag when the card shocks it.
    gain: Fraction
    #: The seat's gems on the bag now (what a shock would cost, before the card's own gem).
    at_risk: int
    #: For each poison type, the seat's count now (K15): uncovered poison number cards of the
    #: type in front of it plus chest poison cards of the type in the centre.
    counts: tuple[tuple[str, int], ...]

    @property
    def safe(self) -> bool:
        """Whether the next card cannot shock the seat."""
        return self.shock == 0


def chest_odds(view: PlayerView, seat: int | None = None) -> ChestOdds:
    """Return the odds of the next chest card for ``seat`` (default: the view's own seat).

    A gem card adds its large icons to the revealer's bag (K20). A poison card first gives its
    large icons (1), then poisons the revealer (K21): if the revealer's count of that type
    (K15) is already 1 or more, it reaches 2 and the revealer is shocked, losing every gem on
    its bag, the card's gem included (K18). Potions never cover chest poisons (K15), so stored
    potions do not change the odds. With an empty chest deck nothing is revealed (K23) and
    every value is zero.

    Raise :class:`~shock_rules.InvalidArgumentError` (a ``ValueError``) for a spectator view
    without ``seat``, or a seat that is not in the round (a seat out of the round reveals no
    chest card); ``TypeError`` if ``view`` is not a view.
    """
    if type(view) is not PlayerView:
        raise TypeError(f"expected a PlayerView, not {type(view).__name__}")
    if seat is None:
        seat = view.seat
    if seat is None or type(seat) is not int or not 0 <= seat < view.players:
        raise InvalidArgumentError(f"chest_odds() needs a seat of the game, not {quoted(seat)}")
    return _odds(view, seat)


def _odds(view: PlayerView, seat: int) -> ChestOdds:
    me = view.seats[seat]
    if me.status is not Status.IN:
        raise InvalidArgumentError(
            f"seat {seat} is out of the round ({me.status}): it reveals no chest card")
    types = view.config.edition.poison_types
    counts = {t: 0 for t in types}
    for pc in me.poisons:
        if not pc.covered:
            counts[pc.poison] += 1
    for card in view.chest_centre:
        if card.poison is not None:
            counts[card.poison] += 1
    deck = view.chest_deck
    total = len(deck)
    if not total:
        zero = Fraction(0)
        return ChestOdds(seat, 0, zero, zero, zero, me.on_bag, tuple(counts.items()))
    poison = shock = gain = 0
    for card in deck:
        if card.poison is None:
            gain += card.large
            continue
        poison += 1
        if counts[card.poison] >= 1:
            shock += 1
            gain -= me.on_bag  # the card's own gem is gained, then lost with the rest
        else:
            gain += card.large
    return ChestOdds(
        seat, total, Fraction(poison, total), Fraction(shock, total), Fraction(gain, total),
        me.on_bag, tuple(counts.items()),
    )
