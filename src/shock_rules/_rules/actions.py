"""Actions: what a player decides, and what chance decides, with their text notation.

Player decisions (K35): ``play 7H`` (face up), ``withdraw 7H`` (leave the round, playing 7H
face down), ``down 7H`` (face down, when out of the round), ``cover 7S`` (which poison card a
potion covers), ``reveal`` / ``stop`` (another chest card, or not).

Chance decisions (K6): ``deal 7H`` (the next card dealt), ``trump 7H`` (the trump card),
``chest G2/1`` or ``chest P:bee`` (the chest card revealed), ``leader 2`` (the first leader).

Actions are interned: ``Action.play(card) is Action.parse("play 7H")`` when ``card`` is 7H.

The notation is ASCII. Verbs and card letters may be in any case, and spaces around the verb
and its argument (one or more) are ignored: ``"  PLAY   7h "`` reads as ``play 7H``. Any other
character -- another kind of space, a digit of another script, a letter that only turns into
an ASCII one in upper case (``ſ``) -- makes the text invalid. ``str(action)`` writes the
canonical form, which every parser reads back.
"""

from __future__ import annotations

import enum
from typing import Final

import attrs

from .._errors import InvalidNotationError, quoted
from .cards import CARDS, Card, parse_card
from .edition import ChestCard, parse_chest_card

__all__ = ["Action", "ActionKind", "parse_action"]


class ActionKind(enum.Enum):
    """What an action does. The value is the notation's verb."""

    PLAY = "play"
    WITHDRAW = "withdraw"
    DOWN = "down"
    COVER = "cover"
    REVEAL = "reveal"
    STOP = "stop"
    DEAL = "deal"
    TRUMP = "trump"
    CHEST = "chest"
    LEADER = "leader"

    @property
    def is_chance(self) -> bool:
        """Whether actions of this kind are chance outcomes rather than player decisions."""
        return self in _CHANCE_KINDS

    @property
    def order(self) -> int:
        """Position of this kind in the deterministic order of legal actions."""
        return _KIND_ORDER[self]


_CHANCE_KINDS: Final = frozenset(
    {ActionKind.DEAL, ActionKind.TRUMP, ActionKind.CHEST, ActionKind.LEADER}
)
_KIND_ORDER: Final = {k: i for i, k in enumerate(ActionKind)}
_CARD_KINDS: Final = (
    ActionKind.PLAY, ActionKind.WITHDRAW, ActionKind.DOWN, ActionKind.COVER,
    ActionKind.DEAL, ActionKind.TRUMP,
)


@attrs.frozen(repr=False, order=False, cache_hash=True)
class Action:
    """One action. Build with the named constructors or :meth:`parse`.

    >>> Action.parse("play 7H") is Action.play(Card.parse("7H"))
    True
    >>> str(Action.chest(ChestCard.parse("P:bee")))
    'chest P:bee'
    """

    #: What the action does.
    kind: ActionKind
    #: The number card, for card actions (play, withdraw, down, cover, deal, trump).
    card: Card | None = None
    #: The chest card, for ``chest`` actions.
    chest_card: ChestCard | None = None
    #: The seat, for ``leader`` actions.
    seat: int | None = None

    def __attrs_post_init__(self) -> None:
        # A hand-built action is checked once, when it is made (the engine's own actions are
        # the interned ones below, made at import): its kind, and exactly the field it needs.
        kind = self.kind
        if type(kind) is not ActionKind:
            raise InvalidNotationError(
                f"invalid action kind {quoted(kind)}: expected an ActionKind")
        card, chest_card, seat = self.card, self.chest_card, self.seat
        if kind in _CARD_KINDS:
            ok = type(card) is Card and chest_card is None and seat is None
            need = "a card (and nothing else)"
        elif kind is ActionKind.CHEST:
            ok = type(chest_card) is ChestCard and card is None and seat is None
            need = "a chest card (and nothing else)"
        elif kind is ActionKind.LEADER:
            ok = type(seat) is int and 0 <= seat < 5 and card is None and chest_card is None
            need = "a seat 0-4 (and nothing else)"
        else:
            ok = card is None and chest_card is None and seat is None
            need = "no argument"
        if not ok:
            raise InvalidNotationError(
                f"invalid {kind.value} action (card={quoted(card, 40)},"
                f" chest_card={quoted(chest_card, 40)}, seat={quoted(seat, 40)}):"
                f" it takes {need}")

    @property
    def is_chance(self) -> bool:
        """Whether this is a chance outcome rather than a player decision."""
        return self.kind in _CHANCE_KINDS

    # Named constructors return the interned instances.
    @staticmethod
    def play(card: Card) -> Action:
        """Return ``play <card>``: play the card face up."""
        return PLAY[_index(card)]

    @staticmethod
    def withdraw(card: Card) -> Action:
        """Return ``withdraw <card>``: leave the round, playing the card face down (K11)."""
        return WITHDRAW[_index(card)]

    @staticmethod
    def down(card: Card) -> Action:
        """Return ``down <card>``: play the card face down while out of the round (K12)."""
        return DOWN[_index(card)]

    @staticmethod
    def cover(card: Card) -> Action:
        """Return ``cover <card>``: a potion covers this poison card (K16)."""
        return COVER[_index(card)]

    @staticmethod
    def reveal() -> Action:
        """Return ``reveal``: reveal another chest card (K22)."""
        return REVEAL

    @staticmethod
    def stop() -> Action:
        """Return ``stop``: end the chest challenge (K22)."""
        return STOP

    @staticmethod
    def deal(card: Card) -> Action:
        """Return the chance outcome ``deal <card>``."""
        return DEAL[_index(card)]

    @staticmethod
    def trump(card: Card) -> Action:
        """Return the chance outcome ``trump <card>``."""
        return TRUMP[_index(card)]

    @staticmethod
    def chest(card: ChestCard) -> Action:
        """Return the chance outcome ``chest <chest card>``."""
        if type(card) is not ChestCard:
            raise InvalidNotationError(f"invalid chest card {quoted(card)}: expected a ChestCard")
        found = _CHEST.get(card)
        if found is None:
            found = _CHEST.setdefault(card, Action(ActionKind.CHEST, chest_card=card))
        return found

    @staticmethod
    def leader(seat: int) -> Action:
        """Return the chance outcome ``leader <seat>``."""
        if type(seat) is not int or not 0 <= seat < 5:
            raise InvalidNotationError(f"invalid seat {quoted(seat)}: expected 0-4")
        return LEADER[seat]

    @classmethod
    def parse(cls, text: str) -> Action:
        """Return the action written in its notation; see :func:`parse_action`."""
        return parse_action(text)

    def sort_key(self) -> tuple[int, int, tuple[int, int, int, str]]:
        """The key of the deterministic order of :func:`~shock_rules.legal_actions`."""
        if self.card is not None:
            return (_KIND_ORDER[self.kind], self.card.index, (0, 0, 0, ""))
        if self.chest_card is not None:
            return (_KIND_ORDER[self.kind], 0, self.chest_card.sort_key())
        return (_KIND_ORDER[self.kind], self.seat or 0, (0, 0, 0, ""))

    def __lt__(self, other: Action) -> bool:
        return self.sort_key() < other.sort_key()

    def __str__(self) -> str:
        if self.card is not None:
            return f"{self.kind.value} {self.card}"
        if self.chest_card is not None:
            return f"chest {self.chest_card}"
        if self.seat is not None:
            return f"leader {self.seat}"
        return self.kind.value

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


def _index(card: Card) -> int:
    if type(card) is not Card:
        raise InvalidNotationError(f"invalid card {quoted(card)}: expected a Card")
    return card.index


PLAY: Final = tuple(Action(ActionKind.PLAY, c) for c in CARDS)
WITHDRAW: Final = tuple(Action(ActionKind.WITHDRAW, c) for c in CARDS)
DOWN: Final = tuple(Action(ActionKind.DOWN, c) for c in CARDS)
COVER: Final = tuple(Action(ActionKind.COVER, c) for c in CARDS)
DEAL: Final = tuple(Action(ActionKind.DEAL, c) for c in CARDS)
TRUMP: Final = tuple(Action(ActionKind.TRUMP, c) for c in CARDS)
REVEAL: Final = Action(ActionKind.REVEAL)
STOP: Final = Action(ActionKind.STOP)
LEADER: Final = tuple(Action(ActionKind.LEADER, seat=i) for i in range(5))
_CHEST: dict[ChestCard, Action] = {}
_BY_KIND: Final = {
    ActionKind.PLAY: PLAY, ActionKind.WITHDRAW: WITHDRAW, ActionKind.DOWN: DOWN,
    ActionKind.COVER: COVER, ActionKind.DEAL: DEAL, ActionKind.TRUMP: TRUMP,
}
_VERBS: Final = {k.value: k for k in ActionKind}
_SEATS: Final = {str(i): i for i in range(5)}


def parse_action(text: str) -> Action:
    """Return the action written as ``<verb> [<argument>]``; raise
    :class:`InvalidNotationError` if the text is malformed.

    >>> parse_action("withdraw 10s")
    Action.parse('withdraw 10S')
    >>> parse_action("leader 2").seat
    2
    """
    if not isinstance(text, str):
        raise InvalidNotationError(
            f"invalid action {quoted(text)}: expected text such as 'play 7H'")
    if not text.isascii():  # see the module docstring: no other spaces, digits or letters
        raise InvalidNotationError(
            f"invalid action {quoted(text)}: the notation is ASCII (such as 'play 7H')")
    parts = text.split()
    if not parts or parts[0].lower() not in _VERBS:
        raise InvalidNotationError(
            f"invalid action {quoted(text)}: expected one of "
            + ", ".join(sorted(_VERBS))
            + " (e.g. 'play 7H')"
        )
    kind = _VERBS[parts[0].lower()]
    args = parts[1:]
    if kind in (ActionKind.REVEAL, ActionKind.STOP):
        if args:
            raise InvalidNotationError(
                f"invalid action {quoted(text)}: '{kind.value}' takes no argument")
        return REVEAL if kind is ActionKind.REVEAL else STOP
    if len(args) != 1:
        raise InvalidNotationError(
            f"invalid action {quoted(text)}: '{kind.value}' takes exactly one argument"
        )
    arg = args[0]
    try:
        if kind is ActionKind.CHEST:
            return Action.chest(parse_chest_card(arg))
        if kind is ActionKind.LEADER:
            if arg not in _SEATS:
                raise InvalidNotationError(f"invalid seat {quoted(arg)}: expected 0-4")
            return LEADER[_SEATS[arg]]
        return _BY_KIND[kind][parse_card(arg).index]
    except InvalidNotationError as exc:
        raise InvalidNotationError(f"invalid action {quoted(text)}: {exc}") from None
