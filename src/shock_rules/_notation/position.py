"""A one-line position notation (like chess FEN) holding a complete state, hidden cards included.

A position is twelve fields separated by single spaces::

    game  round.trick  phase[@actor]  leader,round_leader,last_winner  trump
    hands  seats  areas  face_down  trick  discard  chest

``game``
    players, variant (``std`` or ``simp``), then ``L<seat>`` if the first leader is fixed,
    then ``~`` if the edition is not the default one (then pass the config to parse it).
``round.trick``
    the round (1-5) and the trick within it.
``phase[@actor]``
    ``deal``, ``trump``, ``leader``, ``play``, ``cover``, ``chest``, ``choice`` (another chest
    card or not) or ``over``; ``@<seat>`` names the actor, when there is one.
``leader,round_leader,last_winner``
    seats, ``-`` for none.
``trump``
    the trump card, ``-`` before it is revealed.
``hands``, ``areas``, ``face_down``
    one entry per seat, separated by ``/``: the cards of the hand; the cards in front of the
    seat (its poison cards, each covered one followed by the potion lying on it in brackets,
    then its stored potions: ``7H(7C)7S`` or ``7S(5C)7C``, POTION-6); the cards it played face
    down this round. Cards are written back to back (``2H10S7C``); ``-`` is an empty list.
``seats``
    per seat, separated by ``/``: ``i`` (in the round), ``w`` (withdrawn) or ``s`` (shocked),
    gems in the bag, ``+`` gems on the bag, then ``v`` and the suits it showed it lacks, if any.
``trick``
    the cards of the current trick in play order, ``_`` before a face-down card (the seats and
    the gems on the cards follow from the leader and the rules).
``discard``
    the number-card discard pile.
``chest``
    ``<chest discard>|<chest centre>|<cards revealed in this challenge>``, chest cards separated
    by commas, ``*<n>`` for n identical cards.

The dungeon deck, the chest deck and the supply are what the other fields leave over.

>>> import shock_rules as sr
>>> s = sr.deal_hands(sr.new_game(sr.GameConfig(players=3, first_leader=0)),
...                   ["2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
...                    "2D 3D 4D 5D 6D 7D 8D 9D 10D"], trump="2C")
>>> s = sr.apply_all(s, "play 10H; withdraw 2S")
>>> print(format_position(s))  # doctest: +NORMALIZE_WHITESPACE
3stdL0 1.1 play@2 0,0,- 2C 2H3H4H5H6H7H8H9H/3S4S5S6S7S8S9S10S/2D3D4D5D6D7D8D9D10D
i0+0/w0+0/i0+0 -/-/- -/2S/- 10H_2S - -|-|0
>>> parse_position(format_position(s)) == s
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from .._errors import (
    ConfigError,
    InvalidNotationError,
    InvalidStateError,
    ShockError,
    quoted,
)
from .._rules.cards import CARDS, Suit, cards_of, parse_card
from .._rules.check import load_state
from .._rules.config import GameConfig, Variant
from .._rules.edition import ChestCard, Edition, parse_chest_card
from .._rules.state import POTION_BITS, Phase, Play, State, Status, laid_by_convention, not_a_state
from .._rules.tables import Tables, tables_for

__all__ = ["format_position", "parse_position"]

_PHASE_NAMES: Final = {
    Phase.DEAL: "deal", Phase.TRUMP: "trump", Phase.LEADER: "leader", Phase.PLAY: "play",
    Phase.COVER: "cover", Phase.CHEST: "chest", Phase.CHEST_CHOICE: "choice", Phase.OVER: "over",
}
_PHASES: Final = {v: k for k, v in _PHASE_NAMES.items()}
_STATUS_LETTERS: Final = {Status.IN: "i", Status.WITHDRAWN: "w", Status.SHOCKED: "s"}
_STATUSES: Final = {v: k for k, v in _STATUS_LETTERS.items()}
_VARIANTS: Final = {Variant.STANDARD: "std", Variant.SIMPLIFIED: "simp"}

_CARD: Final = r"(?:1[01]|[1-9])[HSDC]"
_CARD_RE: Final = re.compile(_CARD, re.ASCII)
_SEAT: Final = r"(?:[0-4]|-)"
_FIELDS: Final = {
    "game": re.compile(r"([345])(std|simp)(?:L([0-4]))?(~)?"),
    "progress": re.compile(r"([1-9])\.([1-9][0-9]?)"),
    "phase": re.compile(r"(deal|trump|leader|play|cover|chest|choice|over)(?:@([0-4]))?"),
    "leaders": re.compile(f"({_SEAT}),({_SEAT}),({_SEAT})"),
    "trump": re.compile(f"({_CARD}|-)"),
    "hands": re.compile(f"(?:{_CARD})+|-"),
    "seats": re.compile(r"([iws])(0|[1-9][0-9]{0,5})\+(0|[1-9][0-9]{0,5})(?:v([HSDC]{1,4}))?"),
    "areas": re.compile(rf"(?:{_CARD}(?:\({_CARD}\))?)+|-"),
    "face_down": re.compile(f"(?:{_CARD})+|-"),
    "trick": re.compile(f"(?:_?{_CARD})+|-"),
    "discard": re.compile(f"(?:{_CARD})+|-"),
    "chest": re.compile(r"([^|\s]+)\|([^|\s]+)\|([0-3])"),
}
_PER_SEAT: Final = ("hands", "seats", "areas", "face_down")


def _cards(mask: int) -> str:
    return "".join(str(c) for c in cards_of(mask)) or "-"


def _seat(value: int) -> str:
    return "-" if value < 0 else str(value)


def format_position(state: State) -> str:
    """Return the one-line position of ``state`` (see the module docstring)."""
    if type(state) is not State:
        raise not_a_state(state)
    cfg = state.config
    t = state.tables
    game = f"{cfg.players}{_VARIANTS[cfg.variant]}"
    if cfg.first_leader is not None:
        game += f"L{cfg.first_leader}"
    if cfg.edition != Edition.default():
        game += "~"
    phase = _PHASE_NAMES[state.phase] + (f"@{state.actor}" if state.actor >= 0 else "")
    seats = []
    areas = []
    for seat in range(cfg.players):
        voids = "".join(s.letter for s in Suit if state.void_suits[seat] >> s & 1)
        seats.append(f"{_STATUS_LETTERS[state.status[seat]]}{state.in_bag[seat]}"
                     f"+{state.on_bag[seat]}{'v' + voids if voids else ''}")
        laid = 0
        area = ""
        for pc in state.poisons(seat):
            area += str(pc.card)
            if pc.covered_by is not None:
                area += f"({pc.covered_by})"
                laid |= pc.covered_by.bit
        area += "".join(str(c) for c in cards_of(state.potion_masks[seat] & ~laid))
        areas.append(area or "-")

    def chest(counts: tuple[int, ...]) -> str:
        items = [f"{c}*{n}" if n > 1 else str(c)
                 for c, n in zip(t.chest_cards, counts, strict=True) if n]
        return ",".join(items) or "-"

    trick = "".join(f"{'' if p.face_up else '_'}{p.card}" for p in state.trick) or "-"
    return " ".join([
        game,
        f"{state.round}.{state.trick_number}",
        phase,
        f"{_seat(state.leader)},{_seat(state.round_leader)},{_seat(state.last_winner)}",
        "-" if state.trump is None else str(state.trump),
        "/".join(_cards(m) for m in state.hand_masks),
        "/".join(seats),
        "/".join(areas),
        "/".join(_cards(m) for m in state.face_down_masks),
        trick,
        _cards(state.discard_mask),
        f"{chest(state.chest_discard)}|{chest(state.chest_centre)}|{state.revealed}",
    ])


def _match(name: str, text: str) -> re.Match[str]:
    m = _FIELDS[name].fullmatch(text) if text.isascii() else None
    if m is None:
        raise InvalidNotationError(f"invalid position: malformed {name} field {quoted(text)}")
    return m


def _mask(text: str, where: str) -> int:
    mask = 0
    last = -1
    for token in _CARD_RE.findall(text):
        card = parse_card(token)
        if mask & card.bit:
            raise InvalidStateError(f"invalid position: {card} is listed twice in {where}")
        if card.index < last:
            raise InvalidNotationError(
                f"invalid position: the cards of {where} are not in card order (2H before 3H,"
                " hearts, spades, diamonds, clubs)")
        last = card.index
        mask |= card.bit
    return mask


def _config(m: re.Match[str], config: GameConfig | None) -> GameConfig:
    players = int(m.group(1))
    variant = Variant.STANDARD if m.group(2) == "std" else Variant.SIMPLIFIED
    first = None if m.group(3) is None else int(m.group(3))
    custom = m.group(4) is not None
    if config is None:
        if custom:
            raise InvalidStateError(
                "invalid position: it uses an edition other than the default one: pass its"
                " config to parse it")
        try:
            return GameConfig(players=players, variant=variant, first_leader=first)
        except ShockError as exc:
            raise InvalidStateError(f"invalid position: {exc}") from None
    default = config.edition == Edition.default()
    if (config.players, config.variant, config.first_leader, not default) != (
            players, variant, first, custom):
        raise InvalidStateError(
            f"invalid position: its game field {m.group(0)!r} does not match the config")
    return config


def parse_position(text: str, config: GameConfig | None = None) -> State:
    """Return the state a position describes.

    ``config`` must be given when the position uses an edition other than the default one,
    and must then match the position's game field. Raise
    :class:`~shock_rules.InvalidNotationError` if the text is malformed, and
    :class:`~shock_rules.InvalidStateError` if it describes an impossible state.
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"invalid position {quoted(text)}: expected text")
    if config is not None and not isinstance(config, GameConfig):
        raise ConfigError(f"parse_position() needs a GameConfig or None, not {quoted(config)}")
    raw = _split_fields(text)
    cfg = _config(_match("game", raw["game"]), config)
    n = cfg.players
    t = tables_for(cfg)
    seat_fields = _seat_fields(raw, n)
    progress = _match("progress", raw["progress"])
    phase_m = _match("phase", raw["phase"])
    leaders = [-1 if v == "-" else int(v) for v in _match("leaders", raw["leaders"]).groups()]
    trump_text = _match("trump", raw["trump"]).group(1)
    trick_text = _match("trick", raw["trick"]).group(0)
    discard = _mask(_match("discard", raw["discard"]).group(0), "the discard pile")
    chest_m = _match("chest", raw["chest"])

    hands = tuple(_mask(h, f"seat {i}'s hand") for i, h in enumerate(seat_fields["hands"]))
    face_down = tuple(_mask(h, f"seat {i}'s face-down cards")
                      for i, h in enumerate(seat_fields["face_down"]))
    status, in_bag, on_bag, voids = _seat_states(seat_fields["seats"])
    poisons, potions, potion_on = _play_areas(seat_fields["areas"], t)
    leader = leaders[0]
    trick = _trick(trick_text, leader, n, t)
    chest_discard = _chest_counts(chest_m.group(1), t.chest_index, "chest discard")
    chest_centre = _chest_counts(chest_m.group(2), t.chest_index, "chest centre")
    chest_deck = tuple(full - a - b for full, a, b in
                       zip(t.chest_counts, chest_discard, chest_centre, strict=True))
    trump = -1 if trump_text == "-" else parse_card(trump_text).index
    placed = _placed(discard, trump, (*hands, *poisons, *potions), trick)
    trick_gems = sum(p.gems for p in trick)
    return load_state(
        config=cfg, tables=t, phase=_PHASES[phase_m.group(1)],
        round=int(progress.group(1)), trick_number=int(progress.group(2)), leader=leader,
        actor=-1 if phase_m.group(2) is None else int(phase_m.group(2)), trick=tuple(trick),
        hand_masks=hands, pool_mask=t.deck & ~placed, trump_index=trump, discard_mask=discard,
        face_down_masks=face_down, status=tuple(status), on_bag=tuple(on_bag),
        in_bag=tuple(in_bag), supply=t.supply - trick_gems - sum(on_bag) - sum(in_bag),
        poison_masks=tuple(poisons), potion_masks=tuple(potions), potion_on_masks=potion_on,
        void_suits=tuple(voids), chest_deck=chest_deck, chest_discard=chest_discard,
        chest_centre=chest_centre, revealed=int(chest_m.group(3)), last_winner=leaders[2],
        round_leader=leaders[1], events=(),
    )


def _split_fields(text: str) -> dict[str, str]:
    """Return the position's fields by name, checking there are exactly twelve."""
    parts = text.split(" ")
    names = list(_FIELDS)
    if len(parts) != len(names):
        raise InvalidNotationError(
            f"invalid position {quoted(text)}: expected {len(names)} fields separated by single"
            " spaces,"
            f" not {len(parts)}")
    return dict(zip(names, parts, strict=True))


def _seat_fields(raw: Mapping[str, str], n: int) -> dict[str, list[str]]:
    """Return the entries of each per-seat field, one per seat, each checked well-formed."""
    seat_fields: dict[str, list[str]] = {}
    for name in _PER_SEAT:
        items = raw[name].split("/")
        if len(items) != n:
            raise InvalidNotationError(
                f"invalid position: the {name} field has {len(items)} entries, not one per seat"
                f" ({n})")
        for item in items:
            if name == "areas" and "*" in item:
                # A position of before the placement was recorded: 7H* for a covered poison.
                if "(" in item or not _OLD_AREA.fullmatch(item):
                    raise InvalidNotationError(
                        f"invalid position: malformed areas field {quoted(item)}: a covered"
                        " poison card is followed by the potion lying on it, as 7H(5C)"
                        " (POTION-6), or, in a position of before, by '*' alone")
                continue
            _match(name, item)
        seat_fields[name] = items
    return seat_fields


def _seat_states(items: list[str]) -> tuple[list[Status], list[int], list[int], list[int]]:
    """Return the statuses, gems in and on the bags, and void-suit masks of the seats field."""
    status: list[Status] = []
    in_bag: list[int] = []
    on_bag: list[int] = []
    voids: list[int] = []
    for item in items:
        sm = _match("seats", item)
        status.append(_STATUSES[sm.group(1)])
        in_bag.append(int(sm.group(2)))
        on_bag.append(int(sm.group(3)))
        v = 0
        for letter in sm.group(4) or "":
            bit = 1 << Suit.parse(letter)
            if v & bit:
                raise InvalidStateError(f"invalid position: suit {letter} is listed twice")
            v |= bit
        voids.append(v)
    return status, in_bag, on_bag, voids


def _play_areas(items: list[str], t: Tables) -> tuple[list[int], list[int], tuple[int, ...]]:
    """Return the poison and potion masks of the areas field, one each per seat, and the
    poison card each potion lies on (``potion_on_masks``)."""
    poisons: list[int] = []
    potions: list[int] = []
    on = [0] * len(POTION_BITS)
    for i, item in enumerate(items):
        where = f"seat {i}'s play area"
        if "*" in item:
            item = _old_area(item, where, t)
        # The cards outside brackets, in card order; then the potions in brackets.
        area = _mask(re.sub(rf"\({_CARD}\)", "", item), where)
        laid = 0
        for poison, potion in re.findall(rf"({_CARD})\(({_CARD})\)", item):
            card, on_it = parse_card(poison), parse_card(potion)
            if not card.bit & t.poison_cards or on_it.bit not in POTION_BITS:
                raise InvalidStateError(f"invalid position: in {where}, {on_it} lies on {card}:"
                                        " only a potion lies on a poison card")
            if (area | laid) & on_it.bit:
                raise InvalidStateError(f"invalid position: {on_it} is listed twice in {where}")
            laid |= on_it.bit
            on[POTION_BITS.index(on_it.bit)] = card.bit
        area |= laid
        # Only poison cards and potions are ever placed in front of a seat.
        if area & ~(t.poison_cards | t.potion_cards):
            bad = cards_of(area & ~(t.poison_cards | t.potion_cards))[0]
            raise InvalidStateError(
                f"invalid position: {bad} in front of seat {i} is neither a poison nor a potion")
        poisons.append(area & t.poison_cards)
        potions.append(area & t.potion_cards)
    return poisons, potions, tuple(on)


#: A play area as positions wrote it before the placement was recorded (``7H*5C``).
_OLD_AREA: Final = re.compile(rf"(?:{_CARD}\*?)+")


def _old_area(item: str, where: str, t: Tables) -> str:
    """Return a play area of the older form (``7H*`` for a covered poison) in today's, its
    potions placed as it meant them (:func:`laid_by_convention`)."""
    cards = _mask(item.replace("*", ""), where)
    covered = _mask("".join(re.findall(rf"({_CARD})\*", item)), where)
    if covered & ~t.poison_cards:
        bad = cards_of(covered & ~t.poison_cards)[0]
        raise InvalidStateError(f"invalid position: in {where}, {bad} is marked covered but is"
                                " not a poison card")
    pairs = laid_by_convention(covered, cards & t.potion_cards)
    if len(pairs) < covered.bit_count():
        raise InvalidStateError(f"invalid position: {where} has more covered poison cards than"
                                " potions")
    on = {poison: potion for potion, poison in pairs}
    laid = sum(on.values())
    return "".join(f"{c}({CARDS[on[c.bit].bit_length() - 1]})" if c.bit in on else str(c)
                   for c in cards_of(cards & ~laid))


def _trick(text: str, leader: int, n: int, t: Tables) -> list[Play]:
    """Return the plays of the trick field: seats follow from the leader, gems from the cards."""
    trick: list[Play] = []
    for i, token in enumerate(re.findall(f"_?{_CARD}", text)):
        card = parse_card(token.lstrip("_"))
        up = not token.startswith("_")
        gems = t.icons[card.index] if up else t.face_down_gems
        trick.append(Play((leader + i) % n, card, up, gems))
    return trick


def _placed(discard: int, trump: int, masks: tuple[int, ...], trick: list[Play]) -> int:
    """Return the mask of the cards the fields place outside the dungeon deck."""
    placed = discard | (0 if trump < 0 else CARDS[trump].bit)
    for m in masks:
        placed |= m
    for p in trick:
        placed |= p.card.bit
    return placed


def _chest_counts(text: str, index: Mapping[ChestCard, int], where: str) -> tuple[int, ...]:
    counts = [0] * len(index)
    if text == "-":
        return tuple(counts)
    last = -1
    for item in text.split(","):
        name, _, times = item.partition("*")
        if _ and not re.fullmatch(r"[1-9][0-9]{0,2}", times, re.ASCII):
            raise InvalidNotationError(f"invalid position: malformed count in {quoted(item)}")
        try:
            card = parse_chest_card(name)
        except InvalidNotationError as exc:
            raise InvalidNotationError(f"invalid position: {exc}") from None
        if card not in index:
            raise InvalidStateError(f"invalid position: {card} is not a chest card of the edition")
        if counts[index[card]]:
            raise InvalidStateError(f"invalid position: {card} is listed twice in the {where}")
        if str(card) != name or index[card] < last or (_ and times == "1"):
            raise InvalidNotationError(
                f"invalid position: {quoted(item)} in the {where} is not written as the position"
                " writes it (each chest card once, in the edition's order, '*<n>' for n > 1)")
        last = index[card]
        counts[index[card]] = int(times) if _ else 1
    return tuple(counts)

