"""Melvin Vs. Kronk's cards, actions, configuration and edition data, as frozen values with a
text notation (``parse_action(str(a)) == a``)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

from shock_rules._errors import ConfigError, InvalidNotationError, quoted

__all__ = [
    "PENALTIES", "SPECIALS", "Action", "Amuleto", "Award", "ChooseDealer", "DrawGem",
    "DrawPenalty", "Edition", "Flip", "GameConfig", "Oculos", "Orcolar", "Reveal", "Slap",
    "Toalha", "gem_value", "load_edition", "parse_action",
]

#: The four special Gem cards (R10), by their notation.
SPECIALS = ("Oculos", "Toalha", "Orcolar", "Amuleto")
#: The four Penalty cards (R8): Mão para trás, Olho fechado, Cartas para todos, Jogue duas
#: seguidas.
PENALTIES = ("Mao", "Olho", "Cartas", "Duas")


def gem_value(card: str) -> int:
    """The gems a kept Gem card is worth: a plain card ``G1``..``G3`` its number, a special 1
    (M2)."""
    if card in SPECIALS:
        return 1
    if len(card) == 2 and card[0] == "G" and card[1] in "123":
        return int(card[1])
    raise InvalidNotationError(f"not a Gem card: {quoted(card)}")


@dataclass(frozen=True)
class Edition:
    """Card data (M2), provisional: Versus faces and copies, the Gem deck, the Penalty deck."""

    faces: int
    copies: int
    gems: tuple[str, ...]
    penalties: tuple[str, ...]


def load_edition(name: str = "default") -> Edition:
    """Load an edition file shipped in ``shock_rules/melvin/editions``."""
    try:
        text = resources.files("shock_rules.melvin").joinpath(
            "editions", f"{name}.toml").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError) as exc:
        raise ConfigError(f"no Melvin edition {quoted(name)}") from exc
    data = tomllib.loads(text)
    gems: list[str] = []
    for value, count in sorted(data["gems"]["plain"].items()):
        gems += [f"G{int(value)}"] * int(count)
    gems += list(data["gems"]["specials"])
    ed = Edition(int(data["versus"]["faces"]), int(data["versus"]["copies"]), tuple(gems),
                 tuple(data["penalties"]["cards"]))
    for g in ed.gems:
        gem_value(g)
    if not set(ed.penalties) <= set(PENALTIES) or ed.faces < 1 or ed.copies < 1:
        raise ConfigError(f"invalid Melvin edition {quoted(name)}")
    return ed


@dataclass(frozen=True)
class GameConfig:
    """A game's configuration: 3 to 6 players (M1) and the edition's name (M2)."""

    players: int = 4
    edition: str = "default"

    def __post_init__(self) -> None:
        if type(self.players) is not int or not 3 <= self.players <= 6:
            raise ConfigError(f"Melvin Vs. Kronk needs 3 to 6 players (M1), not "
                              f"{quoted(self.players)}")


# -- actions ----------------------------------------------------------------------------------
# Chance actions (M3, M4) have no seat; player actions name the acting seat first.


@dataclass(frozen=True)
class ChooseDealer:
    """Chance: the dealer (M3)."""
    dealer: int

    def __str__(self) -> str:
        return f"dealer {self.dealer}"


@dataclass(frozen=True)
class Reveal:
    """Chance: the face of a card taken from a shuffled part of a draw pile (M4, M19)."""
    face: int

    def __str__(self) -> str:
        return f"reveal V{self.face}"


@dataclass(frozen=True)
class DrawGem:
    """Chance: the Gem card drawn from the deck (M4, M22)."""
    card: str

    def __str__(self) -> str:
        return f"gem {self.card}"


@dataclass(frozen=True)
class DrawPenalty:
    """Chance: the Penalty card drawn after a wrong slap (M4, M9)."""
    card: str

    def __str__(self) -> str:
        return f"penalty {self.card}"


@dataclass(frozen=True)
class Flip:
    """Turn up the top card of one's draw pile (R3)."""
    seat: int

    def __str__(self) -> str:
        return f"{self.seat} flip"


@dataclass(frozen=True)
class Slap:
    """Slap the Gem deck (R4, R8)."""
    seat: int

    def __str__(self) -> str:
        return f"{self.seat} slap"


@dataclass(frozen=True)
class Award:
    """The taker of a slap's Gem cards keeps ``keep`` and gives the other to ``give`` (M7);
    ``give`` is ``None`` when only one card was drawn."""
    seat: int
    keep: str
    give: int | None

    def __str__(self) -> str:
        tail = "" if self.give is None else f" give {self.give}"
        return f"{self.seat} award {self.keep}{tail}"


@dataclass(frozen=True)
class Toalha:
    """Play *Toalha*: steal up to 3 draw-pile cards of ``target`` (M13, M19)."""
    seat: int
    target: int

    def __str__(self) -> str:
        return f"{self.seat} toalha {self.target}"


@dataclass(frozen=True)
class Orcolar:
    """Play *Orcolar* in an award window (M13)."""
    seat: int

    def __str__(self) -> str:
        return f"{self.seat} orcolar"


@dataclass(frozen=True)
class Amuleto:
    """Play *Amuleto Orc* in an award window (M13, M21)."""
    seat: int

    def __str__(self) -> str:
        return f"{self.seat} amuleto"


@dataclass(frozen=True)
class Oculos:
    """Play *Óculos Geek*: take ``card`` from the eliminated ``target`` (M13, M26)."""
    seat: int
    target: int
    card: str

    def __str__(self) -> str:
        return f"{self.seat} oculos {self.target} {self.card}"


Action = (ChooseDealer | Reveal | DrawGem | DrawPenalty | Flip | Slap | Award | Toalha | Orcolar
          | Amuleto | Oculos)
CHANCE_TYPES = (ChooseDealer, Reveal, DrawGem, DrawPenalty)
ACTION_TYPES = CHANCE_TYPES + (Flip, Slap, Award, Toalha, Orcolar, Amuleto, Oculos)


def _int(word: str, text: str) -> int:
    # ASCII digits only: str.isdigit() also takes digits int() cannot read ("²").
    if (not (word.isascii() and word.isdigit()) or (len(word) > 1 and word[0] == "0")
            or len(word) > 3):
        raise InvalidNotationError(f"not a number: {quoted(word)} in {quoted(text)}")
    return int(word)


def _seat(word: str, text: str) -> int:
    """A seat number: 0 to 5, as a game has at most six players (MK-SETUP-1)."""
    seat = _int(word, text)
    if seat > 5:
        raise InvalidNotationError(f"not a seat: {quoted(word)} in {quoted(text)} (seats are"
                                   " 0 to 5)")
    return seat


def _gem(word: str, text: str) -> str:
    try:
        gem_value(word)
    except InvalidNotationError:
        raise InvalidNotationError(f"not a Gem card: {quoted(word)} in {quoted(text)}") from None
    return word


def parse_action(text: str) -> Action:
    """Parse an action's notation, e.g. ``"2 slap"``, ``"reveal V7"``, ``"1 award G3 give 2"``."""
    if not isinstance(text, str):
        raise TypeError(f"parse_action expects a str, not {type(text).__name__}")
    w = text.split(" ")
    bad = InvalidNotationError(f"not a Melvin action: {quoted(text)}")
    if len(w) == 2 and w[0] == "dealer":
        return ChooseDealer(_seat(w[1], text))
    if len(w) == 2 and w[0] == "reveal" and w[1][:1] == "V":
        face = _int(w[1][1:], text)
        if face < 1:
            raise bad  # faces are numbered from 1 (MK-SETUP-2)
        return Reveal(face)
    if len(w) == 2 and w[0] == "gem":
        return DrawGem(_gem(w[1], text))
    if len(w) == 2 and w[0] == "penalty":
        if w[1] not in PENALTIES:
            raise bad
        return DrawPenalty(w[1])
    if len(w) < 2:
        raise bad
    seat = _seat(w[0], text)
    rest = w[1:]
    if rest == ["flip"]:
        return Flip(seat)
    if rest == ["slap"]:
        return Slap(seat)
    if rest == ["orcolar"]:
        return Orcolar(seat)
    if rest == ["amuleto"]:
        return Amuleto(seat)
    if len(rest) == 2 and rest[0] == "toalha":
        return Toalha(seat, _seat(rest[1], text))
    if len(rest) == 3 and rest[0] == "oculos":
        return Oculos(seat, _seat(rest[1], text), _gem(rest[2], text))
    if len(rest) == 2 and rest[0] == "award":
        return Award(seat, _gem(rest[1], text), None)
    if len(rest) == 4 and rest[0] == "award" and rest[2] == "give":
        return Award(seat, _gem(rest[1], text), _seat(rest[3], text))
    raise bad
