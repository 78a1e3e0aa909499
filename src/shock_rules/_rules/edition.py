"""Card data as an *edition*: gem icons, the poison type of each poison 7, chest cards, the gem
supply.

No rulebook lists which number cards show a gem icon, the icon counts of the gem chest cards,
or which creature is printed on which poison 7 (ruling K4). Which cards are poisons (7H, 7S,
7D) and potions (5C, 7C) is a rule (K1): an edition must say exactly that. Those facts are data: an
:class:`Edition` is loaded from a TOML file, validated, and handed to the engine through
:class:`~shock_rules.GameConfig`. The package ships the provisional default edition of rulings
K29-K33 (``editions/default.toml``).
"""

from __future__ import annotations

import contextvars
import enum
import functools
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Final

import attrs

from .._errors import EditionError, InvalidArgumentError, InvalidNotationError, quoted
from .cards import Card, parse_card

__all__ = ["ChestCard", "ChestKind", "Edition", "GemKind", "parse_chest_card"]

_NAME_RE: Final = re.compile(r"[a-z][a-z0-9_-]{0,31}", re.ASCII)

# Which number cards are poisons and potions is a rule, not edition data (K1): an edition says
# only which poison type each poison 7 carries (K30), three distinct types.
POISON_SEVENS: Final = tuple(parse_card(c) for c in ("7H", "7S", "7D"))
POTIONS: Final = tuple(parse_card(c) for c in ("5C", "7C"))


class ChestKind(enum.Enum):
    """The two kinds of chest card."""

    GEM = "gem"
    POISON = "poison"


#: The most gem icons a chest card may show on one side: the notation writes up to three
#: digits (``G999/999``), so that every edition's records and positions read back.
MAX_CHEST_ICONS: Final = 999
#: The most identical chest cards an edition may hold (a position writes ``*<n>`` with up to
#: three digits).
MAX_CHEST_COUNT: Final = 999
#: The most gem icons on a number card, which keeps every bag within the six digits a
#: position writes for it (45 tricks of five cards and three chest cards at most).
MAX_CARD_ICONS: Final = 99
#: The largest edition file :meth:`Edition.load` reads, in bytes (the default edition's file is
#: about 2 KB; a file within every other bound stays far below this).
MAX_EDITION_BYTES: Final = 1 << 20


def _icons(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or not 0 <= value <= MAX_CHEST_ICONS:
        raise EditionError(
            f"{attribute.name} must be an integer 0-{MAX_CHEST_ICONS}, not {quoted(value)}")


def _kind(instance: object, attribute: attrs.Attribute[ChestKind], value: ChestKind) -> None:
    if type(value) is not ChestKind:
        raise EditionError(f"a chest card's kind must be a ChestKind, not {quoted(value)}")


# cache_hash: the engine looks chest cards up by value on every chest reveal.
@attrs.frozen(repr=False, cache_hash=True)
class ChestCard:
    """A chest card. Gem cards are written ``G<large>/<small>``; poison cards ``P:<type>``.

    A poison card whose revealer gains other than one gem is written ``P<large>:<type>``.

    >>> ChestCard.parse("G2/1")
    ChestCard.parse('G2/1')
    >>> ChestCard.parse("P:bee").poison
    'bee'
    """

    #: Gem card or poison card.
    kind: ChestKind = attrs.field(validator=_kind)
    #: Gems gained by the revealer (the large icons; 1 on a poison card), 0-999.
    large: int = attrs.field(validator=_icons)
    #: Gems gained by every other player still in the round (gem cards only), 0-999.
    small: int = attrs.field(default=0, validator=_icons)
    #: The poison type of a poison card; ``None`` on a gem card.
    poison: str | None = None

    def __attrs_post_init__(self) -> None:
        if self.kind is ChestKind.GEM and self.poison is not None:
            raise EditionError("a gem chest card has no poison type")
        if self.kind is ChestKind.POISON:
            if not isinstance(self.poison, str) or not _NAME_RE.fullmatch(self.poison):
                raise EditionError(
                    f"invalid poison type {quoted(self.poison)} on a poison chest card")
            if self.small:
                raise EditionError("a poison chest card has no small gem icons")

    @property
    def is_poison(self) -> bool:
        """Whether this is a poison chest card."""
        return self.kind is ChestKind.POISON

    @classmethod
    def parse(cls, text: str) -> ChestCard:
        """Return the chest card written in its notation (``G2/1``, ``P:bee``)."""
        return parse_chest_card(text)

    def __str__(self) -> str:
        if self.kind is ChestKind.GEM:
            return f"G{self.large}/{self.small}"
        return f"P:{self.poison}" if self.large == 1 else f"P{self.large}:{self.poison}"

    def __repr__(self) -> str:
        return f"ChestCard.parse({str(self)!r})"

    def sort_key(self) -> tuple[int, int, int, str]:
        """A key that orders gem cards before poison cards, then by icons and type."""
        return (0 if self.kind is ChestKind.GEM else 1, self.large, self.small, self.poison or "")


# Numbers without leading zeros, in ASCII digits (re.ASCII: \d would match other scripts).
_NUM: Final = r"(0|[1-9][0-9]{0,2})"
_CHEST_RE: Final = re.compile(
    rf"(?:G{_NUM}/{_NUM}|P{_NUM}?:([a-z][a-z0-9_-]{{0,31}}))", re.ASCII)


def parse_chest_card(text: str) -> ChestCard:
    """Return the chest card written ``G<large>/<small>`` or ``P[<large>]:<type>``.

    The notation is ASCII and case-sensitive (``G``, ``P``, a lowercase poison type), numbers
    0-999 without leading zeros; spaces around it are ignored.
    """
    if not isinstance(text, str):
        raise InvalidNotationError(
            f"invalid chest card {quoted(text)}: expected text such as 'G2/1'")
    m = _CHEST_RE.fullmatch(text.strip()) if text.isascii() else None
    if m is None:
        raise InvalidNotationError(
            f"invalid chest card {quoted(text)}: expected G<large>/<small> (e.g. G2/1) "
            "or P:<poison type> (e.g. P:bee)"
        )
    if m.group(4) is not None:
        return ChestCard(ChestKind.POISON, int(m.group(3) or 1), 0, m.group(4))
    return ChestCard(ChestKind.GEM, int(m.group(1)), int(m.group(2)))


@attrs.frozen
class GemKind:
    """A colour of gem in the supply: its name, value and how many the box holds."""

    name: str
    value: int
    count: int


def _err(source: str, message: str) -> EditionError:
    return EditionError(f"edition {source}: {message}")


def _expect_int(source: str, where: str, value: object, minimum: int,
                maximum: int | None = None) -> int:
    if type(value) is not int or value < minimum or (maximum is not None and value > maximum):
        bounds = f">= {minimum}" if maximum is None else f"{minimum}-{maximum}"
        raise _err(source, f"{where} must be an integer {bounds}, not {quoted(value)}")
    return value


def _expect_keys(source: str, where: str, table: object, allowed: set[str]) -> Mapping[str, Any]:
    if not isinstance(table, Mapping):
        raise _err(source, f"{where} must be a table")
    unknown = [key for key in table if key not in allowed]
    if unknown:
        raise _err(source, f"{where}: unknown key {quoted(unknown[0])}")
    return table


def _card(source: str, where: str, text: object) -> Card:
    try:
        if not isinstance(text, str):
            raise InvalidNotationError(text)
        return parse_card(text)
    except InvalidNotationError:
        raise _err(source, f"{where}: {quoted(text)} is not a number card (like '7H')") from None


def _card_arg(card: Card) -> Card:
    if type(card) is not Card:
        raise InvalidArgumentError(f"expected a Card, not {quoted(card)}")
    return card


# Set while from_dict() builds an edition it has checked (see Edition.__attrs_post_init__).
_CHECKED: Final[contextvars.ContextVar[bool]] = contextvars.ContextVar("_CHECKED", default=False)


@attrs.frozen(cache_hash=True)
class Edition:
    """Validated card data. Build one with :meth:`default`, :meth:`load` or :meth:`from_toml`.

    >>> ed = Edition.default()
    >>> ed.provisional, ed.supply_total, ed.chest_size
    (True, 280, 24)
    """

    #: A short name for the edition.
    name: str
    #: Whether the data is provisional (not yet checked against physical cards).
    provisional: bool
    #: Free text describing the edition.
    description: str
    #: The gem colours of the supply.
    gems: tuple[GemKind, ...]
    #: The poison types, in the edition's order.
    poison_types: tuple[str, ...]
    #: The poison number cards and their types, in card order.
    poisons: tuple[tuple[Card, str], ...]
    #: The potion number cards, in card order.
    potions: tuple[Card, ...]
    #: Gem icon counts of the number cards that have any, in card order.
    gem_icons: tuple[tuple[Card, int], ...]
    #: The distinct chest cards and how many of each the chest deck holds.
    chest: tuple[tuple[ChestCard, int], ...]

    def __attrs_post_init__(self) -> None:
        # An edition made from its fields is checked as from_dict() checks a file: the fields
        # must be what from_dict() makes of self.to_dict() (cards sorted, each chest card once).
        if _CHECKED.get():
            return
        _check_items(self)  # what to_dict() reads of each field; from_dict() checks the rest
        checked = Edition.from_dict(self.to_dict(), source=quoted(self.name))
        if checked != self:
            raise EditionError(f"edition {quoted(self.name)}: its fields are not in the form"
                               " Edition.from_dict() gives them (cards sorted, each chest card"
                               " once)")

    @property
    def supply_total(self) -> int:
        """The total value of the gem supply at the start of the game (K29: 280)."""
        return sum(g.value * g.count for g in self.gems)

    @property
    def chest_size(self) -> int:
        """The number of chest cards."""
        return sum(n for _, n in self.chest)

    def icons(self, card: Card) -> int:
        """Return the number of gem icons printed on a number card."""
        return dict(self.gem_icons).get(_card_arg(card), 0)

    def poison_type(self, card: Card) -> str | None:
        """Return the poison type of a poison number card, or ``None``."""
        return dict(self.poisons).get(_card_arg(card))

    def is_potion(self, card: Card) -> bool:
        """Return whether a number card is a potion."""
        return _card_arg(card) in self.potions

    def split_gems(self, value: int) -> dict[str, int]:
        """Return how to pay ``value`` with the fewest gems (rulebook Withdrawal, Note 1).

        >>> Edition.default().split_gems(27)
        {'gold': 2, 'red': 1, 'clear': 2}
        """
        if type(value) is not int or value < 0:
            raise InvalidArgumentError(
                f"cannot split {quoted(value)} into gems: expected an integer >= 0")
        out: dict[str, int] = {}
        for g in sorted(self.gems, key=lambda g: -g.value):
            out[g.name], value = divmod(value, g.value)
        if value:
            raise InvalidArgumentError(
                f"cannot split into gems of values {[g.value for g in self.gems]}")
        return out

    # -- loading -----------------------------------------------------------------------------

    @classmethod
    def default(cls) -> Edition:
        """Return the shipped default edition (provisional data, rulings K30-K33)."""
        return _default()

    @classmethod
    def load(cls, path: str | Path) -> Edition:
        """Return the edition read from a TOML file; raise :class:`EditionError` if invalid,
        or if the path is not a regular file (a device, a FIFO, a directory) or holds more
        than :data:`MAX_EDITION_BYTES` (1 MiB)."""
        if not isinstance(path, str | Path):
            raise EditionError(f"edition {quoted(path)}: expected a file path")
        p = Path(path)
        where = repr(str(p))[:82]
        try:
            text = _read_edition_file(p, where).decode("utf-8")
        except EditionError:
            raise
        except OSError as exc:
            raise EditionError(f"edition {where}: cannot read: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise EditionError(f"edition {where}: not UTF-8 text ({exc.reason} at byte"
                               f" {exc.start})") from None
        except ValueError as exc:  # a path holding a NUL character
            raise EditionError(f"edition {where}: cannot read: {exc}") from None
        return cls.from_toml(text, source=where)

    @classmethod
    def from_toml(cls, text: str, *, source: str = "<text>") -> Edition:
        """Return the edition written in TOML; raise :class:`EditionError` if invalid."""
        if not isinstance(text, str):
            raise _err(source, f"expected TOML text, not {type(text).__name__}")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise _err(source, f"not valid TOML: {exc}") from None
        return cls.from_dict(data, source=source)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "<data>") -> Edition:
        """Return the edition described by a mapping shaped like the TOML file."""
        # The sections are checked in file order, so the first error reported stays the same.
        top = _top_level(source, data)
        name, provisional, description = _meta_section(source, top["edition"])
        gems = _gems_section(source, top["gems"])
        nc = _expect_keys(
            source, "[number_cards]", top["number_cards"],
            {"poison_types", "poisons", "potions", "gem_icons"},
        )
        poison_types = _poison_types(source, nc.get("poison_types"))
        poisons = _poisons(source, nc.get("poisons", {}), poison_types)
        potions = _potions(source, nc.get("potions", []))
        icons = _gem_icons(source, nc.get("gem_icons", {}))
        chest = _chest_section(source, top["chest"], poison_types)
        token = _CHECKED.set(True)  # checked above: no need for __attrs_post_init__'s check
        try:
            return cls(
                name=name,
                provisional=provisional,
                description=description,
                gems=tuple(gems),
                poison_types=poison_types,
                poisons=tuple(sorted(poisons.items())),
                potions=tuple(sorted(potions)),
                gem_icons=tuple(sorted(icons.items())),
                chest=tuple(sorted(chest.items(), key=lambda kv: kv[0].sort_key())),
            )
        finally:
            _CHECKED.reset(token)

    def to_dict(self) -> dict[str, Any]:
        """Return the mapping that :meth:`from_dict` reads (the TOML file's shape)."""
        chest: list[dict[str, Any]] = []
        for card, count in self.chest:
            if card.is_poison:
                chest.append({"kind": "poison", "poison": card.poison, "large": card.large,
                              "count": count})
            else:
                chest.append({"kind": "gem", "large": card.large, "small": card.small,
                              "count": count})
        return {
            "edition": {"name": self.name, "provisional": self.provisional,
                        "description": self.description},
            "gems": [{"name": g.name, "value": g.value, "count": g.count} for g in self.gems],
            "number_cards": {
                "poison_types": list(self.poison_types),
                "poisons": {str(c): t for c, t in self.poisons},
                "potions": [str(c) for c in self.potions],
                "gem_icons": {str(c): n for c, n in self.gem_icons},
            },
            "chest": chest,
        }


#: The fields of an edition that hold items, with what :meth:`Edition.to_dict` reads of each
#: item: an object of a class, or a pair (a tuple of two) whose first item is of the class.
_ITEMS: Final[tuple[tuple[str, type, bool, str], ...]] = (
    ("gems", GemKind, False, "GemKind objects"),
    ("poison_types", object, False, "poison types"),
    ("poisons", Card, True, "(Card, poison type) pairs"),
    ("potions", Card, False, "Card objects"),
    ("gem_icons", Card, True, "(Card, icons) pairs"),
    ("chest", ChestCard, True, "(ChestCard, count) pairs"),
)


def _check_items(edition: Edition) -> None:
    """Raise :class:`EditionError` unless each field of ``edition`` that holds items is a
    tuple of what :meth:`Edition.to_dict` reads (an edition made from its fields, which
    :meth:`Edition.from_dict` then checks as it checks a file)."""
    for name, kind, pairs, what in _ITEMS:
        value = getattr(edition, name)
        if not isinstance(value, tuple) or not all(
                type(x) is tuple and len(x) == 2 and isinstance(x[0], kind) if pairs
                else isinstance(x, kind) for x in value):
            raise EditionError(f"edition {quoted(edition.name)}: its {name} must be a tuple of"
                               f" {what}, not {quoted(value)}")


def _top_level(source: str, data: object) -> Mapping[str, Any]:
    """Return the document's top-level table once it holds exactly the four sections."""
    top = _expect_keys(source, "the file", data, {"edition", "gems", "number_cards", "chest"})
    for key in ("edition", "gems", "number_cards", "chest"):
        if key not in top:
            raise _err(source, f"missing [{key}]")
    return top


def _meta_section(source: str, raw: object) -> tuple[str, bool, str]:
    """Return the name, provisional flag and description of the [edition] section."""
    meta = _expect_keys(source, "[edition]", raw, {"name", "provisional", "description"})
    name = meta.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _err(source, "[edition] name must be a non-empty string")
    provisional = meta.get("provisional", False)
    if not isinstance(provisional, bool):
        raise _err(source, "[edition] provisional must be true or false")
    description = meta.get("description", "")
    if not isinstance(description, str):
        raise _err(source, "[edition] description must be a string")
    return name, provisional, description


def _gems_section(source: str, raw: object) -> list[GemKind]:
    """Return the gem colours of the [[gems]] list: distinct names, a supply worth something."""
    if not isinstance(raw, list) or not raw:
        raise _err(source, "[[gems]] must list at least one gem colour")
    gems: list[GemKind] = []
    for i, item in enumerate(raw):
        g = _expect_keys(source, f"gems[{i}]", item, {"name", "value", "count"})
        gname = g.get("name")
        if not isinstance(gname, str) or not gname:
            raise _err(source, f"gems[{i}] name must be a non-empty string")
        if any(k.name == gname for k in gems):
            raise _err(source, f"gems[{i}]: gem colour {quoted(gname)} is listed twice")
        gems.append(
            GemKind(
                gname,
                _expect_int(source, f"gems[{i}] value", g.get("value"), 1),
                _expect_int(source, f"gems[{i}] count", g.get("count"), 0),
            )
        )
    if sum(g.value * g.count for g in gems) <= 0:
        raise _err(source, "the gem supply is empty")
    return gems


def _poison_types(source: str, raw: object) -> tuple[str, ...]:
    """Return the poison types of [number_cards]: three distinct lowercase names (K30)."""
    if not isinstance(raw, list) or not raw:
        raise _err(source, "[number_cards] poison_types must list at least one poison type")
    for t in raw:
        if not isinstance(t, str) or not _NAME_RE.fullmatch(t):
            raise _err(
                source,
                f"poison type {quoted(t)} must be a lowercase name (letters, digits, - or _)"
            )
    if len(set(raw)) != len(raw):
        raise _err(source, "[number_cards] poison_types lists a type twice")
    if len(raw) != len(POISON_SEVENS):
        raise _err(
            source, "[number_cards] poison_types must list exactly three poison types, "
            f"one per poison 7 (K30), not {len(raw)}"
        )
    return tuple(raw)


def _poisons(source: str, raw: object, poison_types: tuple[str, ...]) -> dict[Card, str]:
    """Return the poison type of each poison 7 from [number_cards.poisons] (K1, K30)."""
    if not isinstance(raw, Mapping):
        raise _err(source, "[number_cards.poisons] must map cards to poison types")
    poisons: dict[Card, str] = {}
    for k, v in raw.items():
        card = _card(source, "[number_cards.poisons]", k)
        if v not in poison_types:
            raise _err(source, f"[number_cards.poisons] {k}: unknown poison type {quoted(v)}")
        if card in poisons:
            raise _err(source, f"[number_cards.poisons] lists {card} twice")
        # K1: the poison cards are fixed by the rules, whatever the edition says.
        if card not in POISON_SEVENS:
            raise _err(
                source, f"[number_cards.poisons] {k}: the poison cards are exactly 7H, 7S "
                "and 7D (K1)"
            )
        # K30: each poison 7 carries a different creature.
        if v in poisons.values():
            raise _err(
                source, f"[number_cards.poisons] {k}: poison type {quoted(v)} is on two 7s; "
                "each poison 7 carries a different type (K30)"
            )
        poisons[card] = v
    missing = [str(c) for c in POISON_SEVENS if c not in poisons]
    if missing:
        raise _err(
            source, f"[number_cards.poisons] gives no poison type to {', '.join(missing)} "
            "(the poison cards are exactly 7H, 7S and 7D, K1)"
        )
    return poisons


def _potions(source: str, raw: object) -> list[Card]:
    """Return the potion cards of [number_cards] potions: exactly 5C and 7C (K1)."""
    if not isinstance(raw, list):
        raise _err(source, "[number_cards] potions must be a list of cards")
    potions = [_card(source, "[number_cards] potions", p) for p in raw]
    if len(set(potions)) != len(potions):
        raise _err(source, "[number_cards] potions lists a card twice")
    if set(potions) != set(POTIONS):
        raise _err(
            source, "[number_cards] potions must be exactly 5C and 7C (K1), not "
            f"{[str(c) for c in sorted(potions)]}"
        )
    return potions


def _gem_icons(source: str, raw: object) -> dict[Card, int]:
    """Return the gem icon counts of [number_cards.gem_icons], leaving out cards with none."""
    if not isinstance(raw, Mapping):
        raise _err(source, "[number_cards.gem_icons] must map cards to icon counts")
    icons: dict[Card, int] = {}
    for k, v in raw.items():
        card = _card(source, "[number_cards.gem_icons]", k)
        if card in icons:
            raise _err(source, f"[number_cards.gem_icons] lists {card} twice")
        n = _expect_int(source, f"[number_cards.gem_icons] {k}", v, 0, MAX_CARD_ICONS)
        if n:
            icons[card] = n
    return icons


def _chest_section(source: str, raw: object,
                   poison_types: tuple[str, ...]) -> dict[ChestCard, int]:
    """Return how many of each chest card the [[chest]] list holds, entries of one card added."""
    if not isinstance(raw, list):
        raise _err(source, "[[chest]] must be a list of chest cards")
    chest: dict[ChestCard, int] = {}
    for i, item in enumerate(raw):
        c = _expect_keys(
            source, f"chest[{i}]", item, {"kind", "large", "small", "poison", "count"}
        )
        kind = c.get("kind")
        count = _expect_int(source, f"chest[{i}] count", c.get("count"), 1, MAX_CHEST_COUNT)
        ccard = _chest_card(source, i, kind, c, poison_types)
        chest[ccard] = chest.get(ccard, 0) + count
        # A position writes a chest card's count in three digits at most.
        if chest[ccard] > MAX_CHEST_COUNT:
            raise _err(source, f"chest[{i}]: more than {MAX_CHEST_COUNT} {ccard} cards")
    return chest


def _chest_card(source: str, i: int, kind: object, c: Mapping[str, Any],
                poison_types: tuple[str, ...]) -> ChestCard:
    """Return the chest card of kind ``kind`` that entry ``i`` of [[chest]] describes."""
    if kind == "gem":
        if "poison" in c:
            raise _err(source, f"chest[{i}]: a gem card has no poison type")
        return ChestCard(
            ChestKind.GEM,
            _expect_int(source, f"chest[{i}] large", c.get("large"), 0, MAX_CHEST_ICONS),
            _expect_int(source, f"chest[{i}] small", c.get("small", 0), 0, MAX_CHEST_ICONS),
        )
    if kind == "poison":
        if "small" in c:
            raise _err(source, f"chest[{i}]: a poison card has no small gem icons")
        ptype = c.get("poison")
        if ptype not in poison_types:
            raise _err(source, f"chest[{i}]: unknown poison type {quoted(ptype)}")
        return ChestCard(
            ChestKind.POISON,
            _expect_int(source, f"chest[{i}] large", c.get("large", 1), 0, MAX_CHEST_ICONS),
            0,
            ptype,
        )
    raise _err(source, f"chest[{i}] kind must be 'gem' or 'poison', not {quoted(kind)}")


@functools.cache
def _default() -> Edition:
    text = resources.files("shock_rules").joinpath("editions/default.toml").read_text("utf-8")
    return Edition.from_toml(text, source="'default'")


def _read_edition_file(path: Path, where: str) -> bytes:
    """Return the bytes of an edition file: a regular file of at most MAX_EDITION_BYTES.

    A record names its edition by path, so the path may come from anyone: a device such as
    ``/dev/zero`` would otherwise be read until memory runs out, and a FIFO would block
    forever. The file is opened without blocking and checked before it is read.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with open(fd, "rb", closefd=True) as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise EditionError(f"edition {where}: not a regular file")
        data = f.read(MAX_EDITION_BYTES + 1)
    if len(data) > MAX_EDITION_BYTES:
        raise EditionError(f"edition {where}: larger than {MAX_EDITION_BYTES} bytes")
    return data
