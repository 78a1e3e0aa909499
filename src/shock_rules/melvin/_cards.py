"""Melvin Vs. Kronk's cards, actions, configuration and edition data, as frozen values with a
text notation (``parse_action(str(a)) == a``, MK-NOTATION-1)."""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any, ClassVar, Final

import attrs

from shock_rules._errors import ConfigError, EditionError, InvalidNotationError, quoted

__all__ = [
    "MAX_PLAYERS", "MIN_PLAYERS", "PENALTIES", "SPECIALS", "Action", "Amuleto", "Award",
    "ChooseDealer", "DrawGem", "DrawPenalty", "Edition", "Flip", "GameConfig", "Oculos",
    "Orcolar", "Reveal", "Slap", "Toalha", "gem_value", "load_edition", "parse_action",
]

#: The four special Gem cards (R10), by their notation.
SPECIALS: Final = ("Oculos", "Toalha", "Orcolar", "Amuleto")
#: The four Penalty cards (R8): Mão para trás, Olho fechado, Cartas para todos, Jogue duas
#: seguidas.
PENALTIES: Final = ("Mao", "Olho", "Cartas", "Duas")
#: The fewest and the most players (M1).
MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 6


def gem_value(card: str) -> int:
    """Return the gems a kept Gem card is worth: a plain card ``G1``..``G3`` its number, a
    special 1 (M2); raise :class:`~shock_rules.InvalidNotationError` for anything else."""
    if card in SPECIALS:
        return 1
    if isinstance(card, str) and len(card) == 2 and card[0] == "G" and card[1] in "123":
        return int(card[1])
    raise InvalidNotationError(f"not a Gem card: {quoted(card)}")


@attrs.frozen
class Edition:
    """Card data (M2), provisional: Versus faces and copies, the Gem deck, the Penalty deck."""

    #: The name it was loaded by (``"default"``).
    name: str
    #: How many Versus faces (``V1`` to ``V<faces>``).
    faces: int
    #: How many copies of each face.
    copies: int
    #: The Gem cards, plain ones first, in notation.
    gems: tuple[str, ...]
    #: The Penalty cards, in notation.
    penalties: tuple[str, ...]


def _read(data: dict[str, Any], name: str) -> Edition:
    """Return the edition a TOML file's data describes, refusing anything else."""
    def need(ok: bool, what: str) -> None:
        if not ok:
            raise EditionError(f"invalid Melvin edition {quoted(name)}: {what}")

    versus, gem_data, pen = data.get("versus"), data.get("gems"), data.get("penalties")
    need(isinstance(versus, dict) and isinstance(gem_data, dict) and isinstance(pen, dict),
         "expected the tables [versus], [gems] and [penalties]")
    assert isinstance(versus, dict) and isinstance(gem_data, dict) and isinstance(pen, dict)
    faces, copies = versus.get("faces"), versus.get("copies")
    need(type(faces) is int and type(copies) is int and 1 <= faces <= 99 and 1 <= copies <= 99,
         "versus.faces and versus.copies must be integers 1 to 99")
    assert isinstance(faces, int) and isinstance(copies, int)
    plain, specials, cards = gem_data.get("plain"), gem_data.get("specials"), pen.get("cards")
    need(isinstance(plain, dict) and all(k in ("1", "2", "3") and type(v) is int and 0 <= v <= 99
                                         for k, v in plain.items()),
         "gems.plain maps a value 1 to 3 to a count")
    need(isinstance(specials, list) and all(s in SPECIALS for s in specials)
         and len(set(specials)) == len(specials), "gems.specials lists distinct special cards")
    need(isinstance(cards, list) and all(c in PENALTIES for c in cards),
         "penalties.cards lists Penalty cards")
    assert isinstance(plain, dict) and isinstance(specials, list) and isinstance(cards, list)
    gems = [f"G{value}" for value, count in sorted(plain.items()) for _ in range(count)]
    need(len(gems) + len(specials) >= 1, "the Gem deck is empty")
    return Edition(name, faces, copies, tuple(gems + specials), tuple(cards))


def load_edition(name: str = "default") -> Edition:
    """Return an edition shipped in ``shock_rules/melvin/editions``; raise
    :class:`~shock_rules.ConfigError` for an unknown name."""
    if not isinstance(name, str) or not name.isidentifier() or len(name) > 64:
        raise ConfigError(f"no Melvin edition {quoted(name)}")
    return _load(name)


@functools.lru_cache(maxsize=8)
def _load(name: str) -> Edition:
    # Editions are immutable: each file is read once (a config checks its edition when made).
    try:
        text = resources.files("shock_rules.melvin").joinpath(
            "editions", f"{name}.toml").read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"no Melvin edition {quoted(name)}") from None
    return _read(tomllib.loads(text), name)


def _check_players(instance: object, attribute: object, value: object) -> None:
    if type(value) is not int or not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise ConfigError(f"Melvin Vs. Kronk needs 3 to 6 players (M1), not {quoted(value)}")


def _check_edition(instance: object, attribute: object, value: object) -> None:
    if not isinstance(value, str):
        raise ConfigError(f"no Melvin edition {quoted(value)}: expected an edition's name")
    load_edition(value)


@attrs.frozen
class GameConfig:
    """A game's configuration: 3 to 6 players (M1) and the edition's name (M2).

    >>> GameConfig(players=5)
    GameConfig(players=5, edition='default')
    """

    #: The number of players, 3 to 6 (MK-SETUP-1).
    players: int = attrs.field(default=4, validator=_check_players)
    #: The name of the edition file (MK-SETUP-2).
    edition: str = attrs.field(default="default", validator=_check_edition)


# -- actions ----------------------------------------------------------------------------------
# Chance outcomes (M3, M4) have no seat; a player action names its seat first in notation.


def _seat(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    # A seat is 0 to 5, as a game has at most six players (MK-SETUP-1).
    if type(value) is not int or not 0 <= value < MAX_PLAYERS:
        raise InvalidNotationError(f"invalid {attribute.name} {quoted(value)}: expected a seat"
                                   f" 0 to {MAX_PLAYERS - 1}")


def _gem(instance: object, attribute: attrs.Attribute[str], value: object) -> None:
    if not isinstance(value, str):
        raise InvalidNotationError(f"not a Gem card: {quoted(value)}")
    gem_value(value)


@attrs.frozen
class Action:
    """The base class of Melvin Vs. Kronk's actions; :meth:`parse` reads any of them."""

    #: The notation's verb (``"flip"``, ``"reveal"``...).
    kind: ClassVar[str] = ""
    #: Whether actions of this class are chance outcomes rather than a seat's decision.
    is_chance: ClassVar[bool] = False

    @property
    def actor(self) -> int | None:
        """The seat that takes this action, or ``None`` for a chance outcome."""
        return None

    @staticmethod
    def parse(text: str) -> Action:
        """Return the action written ``text`` (see :func:`parse_action`)."""
        return parse_action(text)


@attrs.frozen
class ChooseDealer(Action):
    """Chance: the dealer (M3)."""

    kind: ClassVar[str] = "dealer"
    is_chance: ClassVar[bool] = True
    #: The dealing seat.
    dealer: int = attrs.field(validator=_seat)

    def __str__(self) -> str:
        return f"dealer {self.dealer}"


@attrs.frozen
class Reveal(Action):
    """Chance: the face of a card taken from a shuffled part of a draw pile (M4, M19)."""

    kind: ClassVar[str] = "reveal"
    is_chance: ClassVar[bool] = True
    #: The face, from 1.
    face: int

    def __attrs_post_init__(self) -> None:
        if type(self.face) is not int or not 1 <= self.face <= 999:
            raise InvalidNotationError(f"invalid face {quoted(self.face)}: expected 1 to 999")

    def __str__(self) -> str:
        return f"reveal V{self.face}"


@attrs.frozen
class DrawGem(Action):
    """Chance: the Gem card drawn from the deck (M4, M22)."""

    kind: ClassVar[str] = "gem"
    is_chance: ClassVar[bool] = True
    #: The Gem card, in notation.
    card: str = attrs.field(validator=_gem)

    def __str__(self) -> str:
        return f"gem {self.card}"


@attrs.frozen
class DrawPenalty(Action):
    """Chance: the Penalty card drawn after a wrong slap (M4, M9)."""

    kind: ClassVar[str] = "penalty"
    is_chance: ClassVar[bool] = True
    #: The Penalty card, in notation.
    card: str

    def __attrs_post_init__(self) -> None:
        if self.card not in PENALTIES:
            raise InvalidNotationError(f"not a Penalty card: {quoted(self.card)}")

    def __str__(self) -> str:
        return f"penalty {self.card}"


@attrs.frozen
class _SeatAction(Action):
    #: The seat that acts.
    seat: int = attrs.field(validator=_seat)

    @property
    def actor(self) -> int | None:
        return self.seat

    def __str__(self) -> str:
        return f"{self.seat} {self.kind}"


@attrs.frozen
class Flip(_SeatAction):
    """Turn up the top card of one's draw pile (R3)."""

    kind: ClassVar[str] = "flip"


@attrs.frozen
class Slap(_SeatAction):
    """Slap the Gem deck (R4, R8)."""

    kind: ClassVar[str] = "slap"


@attrs.frozen
class Orcolar(_SeatAction):
    """Play *Orcolar* in an award window (M13)."""

    kind: ClassVar[str] = "orcolar"


@attrs.frozen
class Amuleto(_SeatAction):
    """Play *Amuleto Orc* in an award window (M13, M21)."""

    kind: ClassVar[str] = "amuleto"


@attrs.frozen
class Award(_SeatAction):
    """The taker of a slap's Gem cards keeps ``keep`` and gives the other to ``give`` (M7);
    ``give`` is ``None`` when only one card was drawn."""

    kind: ClassVar[str] = "award"
    #: The Gem card kept.
    keep: str = attrs.field(validator=_gem)
    #: The seat that receives the other card, or ``None`` with one card drawn.
    give: int | None = attrs.field(
        default=None, validator=attrs.validators.optional(_seat))

    def __str__(self) -> str:
        tail = "" if self.give is None else f" give {self.give}"
        return f"{self.seat} award {self.keep}{tail}"


@attrs.frozen
class Toalha(_SeatAction):
    """Play *Toalha*: steal up to 3 draw-pile cards of ``target`` (M13, M19)."""

    kind: ClassVar[str] = "toalha"
    #: The seat robbed.
    target: int = attrs.field(validator=_seat)

    def __str__(self) -> str:
        return f"{self.seat} toalha {self.target}"


@attrs.frozen
class Oculos(_SeatAction):
    """Play *Óculos Geek*: take ``card`` from the eliminated ``target`` (M13, M26)."""

    kind: ClassVar[str] = "oculos"
    #: The eliminated seat.
    target: int = attrs.field(validator=_seat)
    #: The Gem card taken.
    card: str = attrs.field(validator=_gem)

    def __str__(self) -> str:
        return f"{self.seat} oculos {self.target} {self.card}"


#: Every concrete action class, chance outcomes first.
ACTION_TYPES: Final = (ChooseDealer, Reveal, DrawGem, DrawPenalty, Flip, Slap, Award, Toalha,
                       Orcolar, Amuleto, Oculos)
_SIMPLE: Final = {c.kind: c for c in (Flip, Slap, Orcolar, Amuleto)}


def _int(word: str, text: str) -> int:
    # ASCII digits only: str.isdigit() also takes digits int() cannot read ("²").
    if (not (word.isascii() and word.isdigit()) or (len(word) > 1 and word[0] == "0")
            or len(word) > 3):
        raise InvalidNotationError(f"not a number: {quoted(word)} in {quoted(text)}")
    return int(word)


def _seat_word(word: str, text: str) -> int:
    """A seat number: 0 to 5, as a game has at most six players (MK-SETUP-1)."""
    seat = _int(word, text)
    if seat >= MAX_PLAYERS:
        raise InvalidNotationError(f"not a seat: {quoted(word)} in {quoted(text)} (seats are"
                                   " 0 to 5)")
    return seat


def _gem_word(word: str, text: str) -> str:
    if word not in SPECIALS and not (len(word) == 2 and word[0] == "G" and word[1] in "123"):
        raise InvalidNotationError(f"not a Gem card: {quoted(word)} in {quoted(text)}")
    return word


def parse_action(text: str) -> Action:
    """Return the action written ``text`` (MK-NOTATION-1), e.g. ``"2 slap"``, ``"reveal V7"``,
    ``"1 award G3 give 2"``; raise :class:`~shock_rules.InvalidNotationError` for anything
    else, and ``TypeError`` for what is not a string.

    >>> parse_action("1 award G3 give 2")
    Award(seat=1, keep='G3', give=2)
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_action expects a str, not {type(text).__name__}")
    w = text.split(" ")
    bad = InvalidNotationError(f"not a Melvin action: {quoted(text)}")
    if len(w) == 2 and w[0] == "dealer":
        return ChooseDealer(_seat_word(w[1], text))
    if len(w) == 2 and w[0] == "reveal" and w[1][:1] == "V":
        face = _int(w[1][1:], text)
        if face < 1:
            raise bad  # faces are numbered from 1 (MK-SETUP-2)
        return Reveal(face)
    if len(w) == 2 and w[0] == "gem":
        return DrawGem(_gem_word(w[1], text))
    if len(w) == 2 and w[0] == "penalty":
        if w[1] not in PENALTIES:
            raise bad
        return DrawPenalty(w[1])
    if len(w) < 2:
        raise bad
    seat = _seat_word(w[0], text)
    rest = w[1:]
    if len(rest) == 1 and rest[0] in _SIMPLE:
        return _SIMPLE[rest[0]](seat)
    if len(rest) == 2 and rest[0] == "toalha":
        return Toalha(seat, target=_seat_word(rest[1], text))
    if len(rest) == 3 and rest[0] == "oculos":
        return Oculos(seat, target=_seat_word(rest[1], text), card=_gem_word(rest[2], text))
    if len(rest) == 2 and rest[0] == "award":
        return Award(seat, keep=_gem_word(rest[1], text))
    if len(rest) == 4 and rest[0] == "award" and rest[2] == "give":
        return Award(seat, keep=_gem_word(rest[1], text), give=_seat_word(rest[3], text))
    raise bad
