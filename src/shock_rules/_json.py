"""JSON documents: configs, editions, states, actions, events and per-player views.

Every document is a JSON object with a ``"schema"`` (:data:`SCHEMA`) and a ``"type"``
(``"config"``, ``"edition"``, ``"state"``, ``"action"``, ``"events"``, ``"view"``,
``"record"``). Documents are meant to be read by people too: cards are written in their
notation (``"7H"``), hands and piles as lists of cards, chest cards as ``"G2/1"`` or
``"P:bee"``, phases and statuses as lowercase words. A config names the default edition
(``"edition": "default"``) or embeds a custom one in the shape of its TOML file.

Loading is strict. A wrong type, an unknown or a missing field, an impossible value or a state
that breaks an invariant of the game (``check_state``) raises
:class:`~shock_rules.InvalidStateError` naming the place in the document and what is wrong;
no other exception escapes a loader (but an action document, which raises
:class:`~shock_rules.InvalidNotationError`).

>>> import shock_rules as sr
>>> state = sr.new_game(sr.GameConfig(players=3, first_leader=0))
>>> text = sr.to_json(state)
>>> state_from_json(text) == state
True
>>> action_from_json(sr.to_json(sr.Action.parse("withdraw 10S")))
Action.parse('withdraw 10S')
>>> state_from_json(text.replace('"round": 1', '"round": 6'))
Traceback (most recent call last):
...
shock_rules.InvalidStateError: invalid state: round 6 is not 1-5
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from types import UnionType
from typing import Any, Final, TypeVar, Union, cast, get_args, get_origin, get_type_hints

import attrs
import cattrs

from ._errors import InvalidNotationError, InvalidStateError, ShockError, quoted
from ._info.determinize import determinize
from ._info.view import HiddenCardDealt, HiddenCardPlayed, PlayerView
from ._reading import (
    Doc,
    fail,
    kind_of,
    load_doc,
    read_bool,
    read_header,
    read_int,
    read_list,
    read_notation,
    read_obj,
    read_str,
)
from ._rules import events as _events
from ._rules.actions import Action, ActionKind, parse_action
from ._rules.cards import Card, Suit, cards_of, parse_card
from ._rules.check import load_state
from ._rules.config import GameConfig, Variant
from ._rules.edition import ChestCard, Edition, parse_chest_card
from ._rules.events import Event, RoundEndReason
from ._rules.state import POTION_BITS, Phase, Play, PoisonCard, State, Status, laid_by_convention
from ._rules.tables import tables_for
from ._shared import SCHEMA as _SCHEMA

__all__ = [
    "SCHEMA",
    "action_from_json",
    "config_from_json",
    "edition_from_json",
    "events_from_json",
    "state_from_json",
    "view_from_json",
]

#: The schema tag written into (and required in) every document.
SCHEMA: Final = _SCHEMA

T = TypeVar("T")


# -- strict readers ------------------------------------------------------------------------------


def read_card(value: object, path: str) -> Card:
    """Return the card written in notation at ``path``."""
    return read_notation(value, path, parse_card)


def read_cards(value: object, path: str) -> int:
    """Return the bitmask of a list of distinct cards."""
    mask = 0
    for i, item in enumerate(read_list(value, path)):
        card = read_card(item, f"{path}[{i}]")
        if mask & card.bit:
            raise fail(f"{path}[{i}]", f"{card} is listed twice")
        mask |= card.bit
    return mask


def read_enum(value: object, path: str, names: Mapping[str, T]) -> T:
    """Return the member named ``value`` among ``names``."""
    text = read_str(value, path)
    if text not in names:
        raise fail(path, f"unknown value {quoted(text)}: expected one of {', '.join(names)}")
    return names[text]


# -- configs and editions ------------------------------------------------------------------------

_PHASES: Final = {p.name.lower(): p for p in Phase}
_STATUSES: Final = {str(s): s for s in Status}
_VARIANTS: Final = {v.value: v for v in Variant}
_SUITS: Final = {s.letter: s for s in Suit}


def edition_to_dict(edition: Edition) -> dict[str, Any]:
    """Return an edition as the mapping of its TOML file (internal)."""
    return edition.to_dict()


def edition_from_data(data: object, path: str) -> Edition:
    """Return the edition embedded at ``path`` (the mapping of its TOML file)."""
    if not isinstance(data, dict):
        raise fail(path, f"expected an object, not {kind_of(data)}")
    try:
        return Edition.from_dict(data, source=path)
    except ShockError as exc:
        raise fail(path, str(exc)) from None


def config_to_dict(config: GameConfig) -> dict[str, object]:
    """Return the fields of a config (without schema tags; internal)."""
    edition: object = "default" if config.edition == Edition.default() \
        else edition_to_dict(config.edition)
    return {"players": config.players, "variant": config.variant.value,
            "first_leader": config.first_leader, "edition": edition}


def config_from_data(data: object, path: str) -> GameConfig:
    """Return the config described at ``path`` (internal)."""
    doc = read_obj(data, path, ("players", "variant", "first_leader", "edition"))
    players = read_int(doc["players"], f"{path}.players", 3, 5)
    variant = read_enum(doc["variant"], f"{path}.variant", _VARIANTS)
    leader = doc["first_leader"]
    first = None if leader is None else read_int(leader, f"{path}.first_leader", 0, players - 1)
    raw = doc["edition"]
    if raw == "default":
        edition = Edition.default()
    elif isinstance(raw, dict):
        edition = edition_from_data(raw, f"{path}.edition")
    else:
        raise fail(f"{path}.edition", "expected \"default\" or an embedded edition object")
    return GameConfig(players=players, variant=variant, edition=edition, first_leader=first)


# -- events --------------------------------------------------------------------------------------

def _event_types() -> dict[str, type[Event]]:
    found: dict[str, type[Event]] = {}
    for name in _events.__all__:
        cls = getattr(_events, name)
        if isinstance(cls, type) and attrs.has(cls) and issubclass(cls, Event):
            found[name] = cls
    # The public forms of secret events, as a player view shows them (K34).
    found["HiddenCardDealt"] = HiddenCardDealt
    found["HiddenCardPlayed"] = HiddenCardPlayed
    return found


#: Every event class by name.
EVENT_TYPES: Final = _event_types()


_REASONS: Final = {r.name.lower(): r for r in RoundEndReason}


@attrs.frozen
class _PoisonDoc:
    """The JSON form of a :class:`PoisonCard`, read and written through this twin: mypyc, which
    compiles the state module, reports the type of ``covered_by`` (a union) as ``type``, where
    the readers and cattrs need ``Card | None``; here ``covered_by`` is also required in a
    document."""

    card: Card
    poison: str
    covered: bool
    covered_by: Card | None


def _make_converter() -> cattrs.Converter:
    """Return the converter that writes events and views (:func:`_class_reader` reads them)."""
    conv = cattrs.Converter()
    conv.register_unstructure_hook(Card, str)
    conv.register_unstructure_hook(ChestCard, str)
    conv.register_unstructure_hook(RoundEndReason, lambda r: r.name.lower())
    conv.register_unstructure_hook_func(_is_frozenset, sorted)
    conv.register_unstructure_hook(PoisonCard, lambda p: conv.unstructure(
        _PoisonDoc(p.card, p.poison, p.covered, p.covered_by)))
    conv.register_unstructure_hook(Phase, lambda p: p.name.lower())
    conv.register_unstructure_hook(Status, str)
    conv.register_unstructure_hook(Suit, lambda s: s.letter)
    conv.register_unstructure_hook(Action, action_to_dict)
    conv.register_unstructure_hook(GameConfig, config_to_dict)
    # A field typed ``Event`` holds some event class: write its name beside its fields.
    conv.register_unstructure_hook_func(lambda t: t is Event, event_to_dict)
    return conv


def _is_frozenset(t: object) -> bool:
    return t is frozenset or get_origin(t) is frozenset


# -- reading attrs classes (events, views) by their declared field types ----------------------

Reader = Callable[[object, str], Any]


def read_chest_card(value: object, path: str) -> ChestCard:
    """Return the chest card written in notation at ``path``."""
    return read_notation(value, path, parse_chest_card)


def read_action_field(value: object, path: str) -> Action:
    """Return the action at ``path`` of a document that is not an action document (a view's
    legal actions): :func:`read_action`, with its error as :class:`InvalidStateError`."""
    try:
        return read_action(value, path)
    except InvalidNotationError as exc:
        text = str(exc)
        if text.startswith("invalid action: "):  # read_action named the place
            raise InvalidStateError("invalid document: " + text.removeprefix(
                "invalid action: ")) from None
        raise fail(path, text) from None


def _read_poison(value: object, path: str) -> PoisonCard:
    doc = _POISON_DOC(value, path)
    return PoisonCard(doc.card, doc.poison, doc.covered, doc.covered_by)


def _reader(t: object) -> Reader:
    """Return the reader of a value of the declared type ``t`` (a field of an event or a
    view): strict JSON types, cards in notation, enums by name, lists for tuples."""
    simple: dict[object, Reader] = {
        int: read_int, bool: read_bool, str: read_str, Card: read_card,
        ChestCard: read_chest_card, GameConfig: config_from_data, Action: read_action_field,
        PoisonCard: _read_poison,
        # Looked up when called: a field typed ``Event`` holds some event class.
        Event: lambda v, p: event_from_data(v, p),
    }
    if t in simple:
        return simple[t]
    for enum_type, names in _ENUM_NAMES:
        if t is enum_type:
            return lambda v, p: read_enum(v, p, names)
    args = get_args(t)
    if get_origin(t) in (UnionType, Union) and len(args) == 2 and type(None) in args:
        inner = _reader(next(a for a in args if a is not type(None)))
        return lambda v, p: None if v is None else inner(v, p)
    if get_origin(t) is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _reader(args[0])
        return lambda v, p: tuple(item(x, f"{p}[{i}]") for i, x in enumerate(read_list(v, p)))
    if get_origin(t) is frozenset:
        return _set_reader(_reader(args[0]))
    if isinstance(t, type) and attrs.has(t):
        return _class_reader(t)
    raise TypeError(f"no reader for the field type {t!r}")  # a type this module lacks: a bug


def _set_reader(member: Reader) -> Reader:
    """Return the reader of a set written as a list whose items ``member`` reads, each once (a
    set's document lists each member once: a repeat would not read back)."""
    def read(value: object, path: str) -> frozenset[object]:
        found: set[object] = set()
        for i, item in enumerate(read_list(value, path)):
            x = member(item, f"{path}[{i}]")
            if x in found:
                raise fail(f"{path}[{i}]", f"{quoted(item)} is listed twice")
            found.add(x)
        return frozenset(found)
    return read


def _class_reader(cls: type[T]) -> Callable[[object, str], T]:
    """Return the reader of an object of the attrs class ``cls``: its fields without a default
    are required, no other key is allowed, and each field is read by its declared type."""
    hints = get_type_hints(cls)
    fields: tuple[attrs.Attribute[Any], ...] = attrs.fields(cast(Any, cls))
    required = tuple(f.name for f in fields if f.default is attrs.NOTHING)
    optional = tuple(f.name for f in fields if f.default is not attrs.NOTHING)
    readers = tuple((f.name, _reader(hints[f.name])) for f in fields)

    def read(value: object, path: str) -> T:
        doc = read_obj(value, path, required, optional)
        return cls(**{name: reader(doc[name], f"{path}.{name}")
                      for name, reader in readers if name in doc})
    return read


# -- actions (protocol 2: an object with the notation, the kind and the kind's fields) -------

#: The field each kind of action carries beside ``notation`` and ``kind``.
ACTION_FIELD: Final = {
    ActionKind.PLAY: "card", ActionKind.WITHDRAW: "card", ActionKind.DOWN: "card",
    ActionKind.COVER: "card", ActionKind.DEAL: "card", ActionKind.TRUMP: "card",
    ActionKind.CHEST: "chest_card", ActionKind.LEADER: "seat",
    ActionKind.REVEAL: None, ActionKind.STOP: None,
}
_KINDS: Final = {k.value: k for k in ActionKind}


def action_to_dict(action: Action) -> dict[str, object]:
    """Return an action as ``{"notation": "play 7H", "kind": "play", "card": "7H"}``
    (internal)."""
    data: dict[str, object] = {"notation": str(action), "kind": action.kind.value}
    field = ACTION_FIELD[action.kind]
    if field == "card":
        data["card"] = str(action.card)
    elif field == "chest_card":
        data["chest_card"] = str(action.chest_card)
    elif field == "seat":
        data["seat"] = action.seat
    return data


def read_action(value: object, path: str, extra: Sequence[str] = ()) -> Action:
    """Return the action at ``path``: its notation (``"play 7H"``) or an object of
    :func:`action_to_dict` (``notation`` may be left out; when given, it must agree). Raise
    :class:`~shock_rules.InvalidNotationError` naming the place if it is malformed; ``extra``
    names further fields the object may hold (internal)."""
    try:
        if isinstance(value, str):
            return parse_action(value)
        if not isinstance(value, dict):
            raise fail(path, "expected an action: its notation such as 'play 7H' or an object"
                             f" such as {{\"kind\": \"play\", \"card\": \"7H\"}}, not"
                             f" {kind_of(value)}")
        if "kind" in value:
            kind = read_enum(value["kind"], f"{path}.kind", _KINDS)
        elif "notation" in value and not set(value) - {"notation", *extra}:
            return parse_action(read_str(value["notation"], f"{path}.notation"))
        else:
            raise fail(path, "missing field 'kind'")
        field = ACTION_FIELD[kind]
        doc = read_obj(value, path, ("kind", *([field] if field else [])), ("notation", *extra))
        text = kind.value
        if field is not None:
            arg = doc[field]
            if field == "seat":
                arg = read_int(arg, f"{path}.seat", 0, 4)
            text += f" {read_str(arg, f'{path}.{field}') if field != 'seat' else arg}"
        try:
            action = parse_action(text)
        except InvalidNotationError as exc:
            raise fail(f"{path}.{field}", str(exc)) from None
        if "notation" in doc:
            notation = read_str(doc["notation"], f"{path}.notation")
            try:
                written = parse_action(notation)
            except InvalidNotationError as exc:
                raise fail(f"{path}.notation", str(exc)) from None
            if written is not action:
                raise fail(f"{path}.notation", f"{notation!r} is not the action of its fields,"
                                               f" {str(action)!r}")
        return action
    except InvalidStateError as exc:
        raise InvalidNotationError(str(exc).replace("invalid document: ", "invalid action: ", 1)
                                   ) from None


def event_to_dict(event: Event) -> dict[str, object]:
    """Return one event as ``{"event": <class name>, <fields>...}`` (internal)."""
    data: dict[str, object] = {"event": type(event).__name__}
    data.update(CONVERTER.unstructure(event))
    if type(event) is _events.RoundStarted and event.leader < 0:
        data["leader"] = None  # protocol 2: "none" is null (the first leader is not known yet)
    return data


def event_from_data(data: object, path: str) -> Event:
    """Return the event described at ``path`` (internal)."""
    if not isinstance(data, dict):
        raise fail(path, f"expected an object, not {kind_of(data)}")
    name = data.get("event")
    if not isinstance(name, str) or name not in EVENT_TYPES:
        raise fail(f"{path}.event", f"unknown event {quoted(name)}")
    fields = {k: v for k, v in data.items() if k not in ("event", "step")}
    if "step" in data:  # protocol 2: the step that caused the event
        read_int(data["step"], f"{path}.step", 0)
    for key, value in fields.items():  # protocol 2: no negative number (no -1) in an event
        if type(value) is int and (value < 0 or (key == "seat" and value > 4)):
            raise fail(f"{path}.{key}", f"{value} is out of range")
        if isinstance(value, list) and any(type(v) is int and v < 0 for v in value):
            raise fail(f"{path}.{key}", "expected numbers of 0 or more")
    if name == "RoundStarted" and fields.get("leader", 0) is None:
        fields["leader"] = -1  # the first leader is not known yet
    return _EVENT_READERS[name](fields, path)


def events_with_step(events: Sequence[Event], step: int) -> list[dict[str, object]]:
    """Return events as documents, each carrying the ``step`` that caused it (internal)."""
    return [{**event_to_dict(e), "step": step} for e in events]


def check_event_seats(events: tuple[Event, ...], players: int, path: str) -> None:
    """Raise :class:`InvalidStateError` if an event names a seat the game does not have
    (events are the log of one step: the rest of them is not checked against the state)."""
    for i, e in enumerate(events):
        for name in ("seat", "leader"):
            value = getattr(e, name, None)
            if value is not None and not -1 <= value < players:
                raise fail(f"{path}[{i}].{name}", f"there is no seat {value} with"
                           f" {players} players")
        winners = getattr(e, "winners", ())
        if not all(0 <= w < players for w in winners):
            raise fail(f"{path}[{i}].winners", f"expected seats 0-{players - 1}")


def events_from_data(data: object, path: str) -> tuple[Event, ...]:
    """Return the list of events at ``path`` (internal)."""
    items = read_list(data, path)
    return tuple(event_from_data(e, f"{path}[{i}]") for i, e in enumerate(items))


#: The converter that writes events and views: cards as notation, enums by name.
CONVERTER: Final = _make_converter()
_ENUM_NAMES: Final = ((Phase, _PHASES), (Status, _STATUSES), (Suit, _SUITS),
                      (RoundEndReason, _REASONS))
_POISON_DOC: Final = _class_reader(_PoisonDoc)
#: The reader of each event class, by name.
_EVENT_READERS: Final = {name: _class_reader(cls) for name, cls in EVENT_TYPES.items()}


# -- states --------------------------------------------------------------------------------------


def _cards_json(mask: int) -> list[str]:
    return [str(c) for c in cards_of(mask)]


def state_to_dict(state: State, *, events: bool = True) -> dict[str, object]:
    """Return the fields of a state (without schema tags; internal)."""
    t = state.tables

    def chest(counts: tuple[int, ...]) -> dict[str, int]:
        return {str(c): k for c, k in zip(t.chest_cards, counts, strict=True)}

    data: dict[str, object] = {
        "config": config_to_dict(state.config),
        "phase": state.phase.name.lower(),
        "round": state.round,
        "trick_number": state.trick_number,
        "step": state.step,
        "leader": seat_or_null(state.leader),
        "actor": seat_or_null(state.actor),
        "round_leader": seat_or_null(state.round_leader),
        "last_winner": seat_or_null(state.last_winner),
        "trump": None if state.trump is None else str(state.trump),
        "hands": [_cards_json(m) for m in state.hand_masks],
        "deck": _cards_json(state.pool_mask),
        "trick": [{"seat": p.seat, "card": str(p.card), "face_up": p.face_up, "gems": p.gems}
                  for p in state.trick],
        "discard": _cards_json(state.discard_mask),
        "face_down": [_cards_json(m) for m in state.face_down_masks],
        "status": [str(s) for s in state.status],
        "on_bag": list(state.on_bag),
        "in_bag": list(state.in_bag),
        "supply": state.supply,
        "poisons": [_cards_json(m) for m in state.poison_masks],
        "covered": [{str(pc.card): str(pc.covered_by) for pc in state.poisons(seat)
                     if pc.covered_by is not None} for seat in range(state.players)],
        "potions": [_cards_json(m) for m in state.potion_masks],
        "void_suits": [[s.letter for s in Suit if m >> s & 1] for m in state.void_suits],
        "chest_deck": chest(state.chest_deck),
        "chest_discard": chest(state.chest_discard),
        "chest_centre": chest(state.chest_centre),
        "revealed": state.revealed,
    }
    if events:
        data["events"] = events_with_step(state.events, state.step)
    return data


def seat_or_null(seat: int) -> int | None:
    """Return a seat field for a document: ``None`` for the engine's -1 (internal)."""
    return None if seat < 0 else seat


_STATE_FIELDS: Final = (
    "config", "step", "phase", "round", "trick_number", "leader", "actor", "round_leader",
    "last_winner", "trump", "hands", "deck", "trick", "discard", "face_down", "status",
    "on_bag", "in_bag", "supply", "poisons", "covered", "potions", "void_suits", "chest_deck",
    "chest_discard", "chest_centre", "revealed",
)


def state_from_data(data: object, path: str) -> State:
    """Return the state described at ``path``, checked against every invariant (internal)."""
    doc = read_obj(data, path, _STATE_FIELDS, ("events",))
    config = config_from_data(doc["config"], f"{path}.config")
    t = tables_for(config)
    n = config.players

    def per_seat(key: str, read: Callable[[object, str], T]) -> tuple[T, ...]:
        items = read_list(doc[key], f"{path}.{key}", n)
        return tuple(read(v, f"{path}.{key}[{i}]") for i, v in enumerate(items))

    def seat_or_none(key: str) -> int:
        if doc[key] is None:  # protocol 2: null, not -1
            return -1
        return read_int(doc[key], f"{path}.{key}", 0, n - 1)

    def gems(value: object, where: str) -> int:
        return read_int(value, where, 0)

    def voids(value: object, where: str) -> int:
        mask = 0
        for i, item in enumerate(read_list(value, where)):
            suit = read_enum(item, f"{where}[{i}]", _SUITS)
            if mask >> suit & 1:
                raise fail(f"{where}[{i}]", f"suit {suit.letter} is listed twice")
            mask |= 1 << suit
        return mask

    def chest(key: str) -> tuple[int, ...]:
        obj = read_obj(doc[key], f"{path}.{key}", [str(c) for c in t.chest_cards])
        return tuple(read_int(obj[str(c)], f"{path}.{key}.{c}", 0, t.chest_counts[i])
                     for i, c in enumerate(t.chest_cards))

    trick: list[Play] = []
    for i, item in enumerate(read_list(doc["trick"], f"{path}.trick", None)):
        where = f"{path}.trick[{i}]"
        p = read_obj(item, where, ("seat", "card", "face_up", "gems"))
        trick.append(Play(read_int(p["seat"], f"{where}.seat", 0, n - 1),
                          read_card(p["card"], f"{where}.card"),
                          read_bool(p["face_up"], f"{where}.face_up"),
                          read_int(p["gems"], f"{where}.gems", 0)))
    trump = None if doc["trump"] is None else read_card(doc["trump"], f"{path}.trump")
    poisons = per_seat("poisons", read_cards)
    potions = per_seat("potions", read_cards)
    events = events_from_data(doc["events"], f"{path}.events") if "events" in doc else ()
    if "events" in doc:
        check_steps(doc["events"], f"{path}.events", read_int(doc["step"], f"{path}.step", 0))
    check_event_seats(events, n, f"{path}.events")
    return load_state(
        config=config, tables=t,
        phase=read_enum(doc["phase"], f"{path}.phase", _PHASES),
        round=read_int(doc["round"], f"{path}.round"),
        trick_number=read_int(doc["trick_number"], f"{path}.trick_number"),
        leader=seat_or_none("leader"), actor=seat_or_none("actor"), trick=tuple(trick),
        hand_masks=per_seat("hands", read_cards),
        pool_mask=read_cards(doc["deck"], f"{path}.deck"),
        trump_index=-1 if trump is None else trump.index,
        discard_mask=read_cards(doc["discard"], f"{path}.discard"),
        face_down_masks=per_seat("face_down", read_cards),
        status=per_seat("status", lambda v, w: read_enum(v, w, _STATUSES)),
        on_bag=per_seat("on_bag", gems), in_bag=per_seat("in_bag", gems),
        supply=read_int(doc["supply"], f"{path}.supply"),
        poison_masks=poisons, potion_masks=potions,
        potion_on_masks=_read_covered(doc["covered"], f"{path}.covered", poisons, potions),
        void_suits=per_seat("void_suits", voids),
        chest_deck=chest("chest_deck"), chest_discard=chest("chest_discard"),
        chest_centre=chest("chest_centre"),
        revealed=read_int(doc["revealed"], f"{path}.revealed", 0, 3),
        last_winner=seat_or_none("last_winner"), round_leader=seat_or_none("round_leader"),
        events=events, step=read_int(doc["step"], f"{path}.step", 0),
    )


def _read_covered(value: object, path: str, poisons: tuple[int, ...],
                  potions: tuple[int, ...]) -> tuple[int, ...]:
    """Return the state's ``potion_on_masks`` from the ``covered`` field: per seat, an object
    naming the potion lying on each covered poison card of the seat (POTION-6)."""
    on = [0] * len(POTION_BITS)
    for seat, item in enumerate(read_list(value, path, len(poisons))):
        where = f"{path}[{seat}]"
        if isinstance(item, list):
            # A document of before the placement was recorded: the covered poison cards only,
            # read as it meant them (the potions in card order on them in card order).
            covered = read_cards(item, where)
            if covered & ~poisons[seat]:
                raise fail(where, f"{cards_of(covered & ~poisons[seat])[0]} is not a poison"
                                  f" card in front of seat {seat}")
            pairs = laid_by_convention(covered, potions[seat])
            if len(pairs) < covered.bit_count():
                raise fail(where, f"seat {seat} has more covered poison cards than potions")
            for potion_bit, poison_bit in pairs:
                on[POTION_BITS.index(potion_bit)] = poison_bit
            continue
        if not isinstance(item, dict):
            raise fail(where, f"expected an object (poison card: potion card), not"
                              f" {kind_of(item)}")
        for key, potion_text in item.items():
            poison = read_card(key, f"{where}.{key}")
            potion = read_card(potion_text, f"{where}.{key}")
            if not poisons[seat] & poison.bit:
                raise fail(f"{where}.{key}", f"{poison} is not a poison card in front of seat"
                                             f" {seat}")
            if potion.bit not in POTION_BITS:
                raise fail(f"{where}.{key}", f"{potion} is not a potion card")
            if not potions[seat] & potion.bit:
                raise fail(f"{where}.{key}", f"{potion} is not a potion in front of seat {seat}")
            k = POTION_BITS.index(potion.bit)
            if on[k]:
                raise fail(f"{where}.{key}", f"{potion} lies on another poison card too")
            on[k] = poison.bit
    return tuple(on)


# -- public API ----------------------------------------------------------------------------------


def state_from_json(text: str | bytes | Doc) -> State:
    """Return the state of a ``"state"`` document (JSON text or parsed data), checked against
    every invariant; raise :class:`~shock_rules.InvalidStateError` if anything is wrong."""
    doc = read_header(load_doc(text), "state", _STATE_FIELDS, ("events",))
    body = {k: v for k, v in doc.items() if k not in ("schema", "type")}
    return state_from_data(body, "state")


def config_from_json(text: str | bytes | Doc) -> GameConfig:
    """Return the config of a ``"config"`` document."""
    fields = ("players", "variant", "first_leader", "edition")
    doc = read_header(load_doc(text), "config", fields)
    return config_from_data({k: doc[k] for k in fields}, "config")


def edition_from_json(text: str | bytes | Doc) -> Edition:
    """Return the edition of an ``"edition"`` document (the TOML file's shape plus tags)."""
    doc = read_header(load_doc(text), "edition", (), ("edition", "gems", "number_cards",
                                                       "chest"))
    return edition_from_data(
        {k: v for k, v in doc.items() if k not in ("schema", "type")}, "edition")


def action_from_json(text: str | bytes | Doc) -> Action:
    """Return the action of an ``"action"`` document (``{"notation": "play 7H", "kind":
    "play", "card": "7H", ...}``, see :func:`action_to_dict`; ``"step"`` may say which step
    the sender saw). Raise :class:`~shock_rules.InvalidNotationError` if it is malformed."""
    try:
        data = load_doc(text)
        read_header(data, "action", (), ("notation", "kind", "card", "chest_card", "seat",
                                         "step"))
    except InvalidStateError as exc:
        raise InvalidNotationError(str(exc)) from None
    assert isinstance(data, dict)
    body = {k: v for k, v in data.items() if k not in ("schema", "type", "step")}
    if "step" in data and (type(data["step"]) is not int or data["step"] < 0):
        raise InvalidNotationError(f"invalid document: action.step: expected a step number,"
                                   f" not {quoted(data['step'])}")
    return read_action(body, "action")


def events_from_json(text: str | bytes | Doc) -> tuple[Event, ...]:
    """Return the events of an ``"events"`` document."""
    doc = read_header(load_doc(text), "events", ("events",))
    return events_from_data(doc["events"], "events.events")


# -- player views --------------------------------------------------------------------------------


_VIEW_SEATS: Final = ("actor", "leader", "round_leader", "last_winner")


def view_to_dict(view: PlayerView) -> dict[str, object]:
    """Return the fields of a player view (without schema tags; internal)."""
    data = CONVERTER.unstructure(view)
    assert isinstance(data, dict)
    # Protocol 2: null for "none", whose turn it is, and the step of every event.
    for key in _VIEW_SEATS:
        data[key] = seat_or_null(data[key])
    data["to_act"] = view.to_act
    data["your_turn"] = view.your_turn
    data["events"] = [{**e, "step": view.step} for e in data["events"]]
    return data


def view_body(doc: dict[str, object]) -> dict[str, object]:
    """Return the fields of a view document in the shape of :class:`PlayerView` (internal)."""
    body = {k: v for k, v in doc.items() if k not in ("schema", "type", "to_act", "your_turn")}
    for key in _VIEW_SEATS:
        if body[key] is None:
            body[key] = -1
        else:
            read_int(body[key], f"view.{key}", 0, 4)
    return body


def check_view_turn(view: PlayerView, doc: dict[str, object]) -> None:
    """Check the redundant turn fields of a view document against its view (internal)."""
    if doc["to_act"] != view.to_act or type(doc["to_act"]) not in (int, type(None)):
        raise fail("view.to_act", f"expected {view.to_act!r}, not {quoted(doc['to_act'])}")
    if doc["your_turn"] is not view.your_turn:
        raise fail("view.your_turn", f"expected {view.your_turn!r}, not {quoted(doc['your_turn'])}")
    check_steps(doc["events"], "view.events", view.step)
    for i, a in enumerate(read_list(doc["legal_actions"], "view.legal_actions")):
        for key in ("notation", "kind"):
            if not isinstance(a, dict) or key not in a:
                raise fail(f"view.legal_actions[{i}]", f"missing field {key!r}")


def check_steps(events: object, path: str, step: int) -> None:
    """Check that every event of a state or view document carries its ``step`` (internal)."""
    for i, e in enumerate(read_list(events, path)):
        if not isinstance(e, dict) or e.get("step") != step:
            raise fail(f"{path}[{i}].step", f"expected the step of the document, {step}")


_VIEW_FIELDS: Final = (*(f.name for f in attrs.fields(PlayerView)), "to_act", "your_turn")
_VIEW_READER: Final = _class_reader(PlayerView)


def view_from_json(text: str | bytes | Doc) -> PlayerView:
    """Return the :class:`~shock_rules.PlayerView` of a ``"view"`` document."""
    doc = read_header(load_doc(text), "view", _VIEW_FIELDS)
    view = _VIEW_READER(view_body(doc), "view")
    n = view.config.players
    if view.seat is not None and not 0 <= view.seat < n:
        raise fail("view.seat", f"there is no seat {view.seat} with {n} players")
    if [s.seat for s in view.seats] != list(range(n)):
        raise fail("view.seats", f"expected seats 0-{n - 1} in order")
    check_view_turn(view, doc)
    check_event_seats(view.events, n, "view.events")
    _check_view(view)
    return view


def _check_view(view: PlayerView) -> None:
    """Raise :class:`InvalidStateError` unless some state that legal play reaches shows
    exactly ``view`` to its seat.

    A state is drawn for the view (:func:`~shock_rules.determinize`, which fails when the hidden
    cards cannot be placed), checked (:func:`~shock_rules.check_state`, through ``load_state``)
    and must show the seat the view, field by field (determinize checks both). Which hidden
    card lies where is not checked by any condition but the suits a seat showed it lacks, which
    the draw respects, so one draw decides: if any state fits, this one does.
    """
    try:
        determinize(view, random.Random(0))
    except InvalidStateError as exc:
        reason = str(exc).removeprefix("invalid view: ")
        raise InvalidStateError(f"invalid document: view: {reason}") from None
