"""The gate: a state is checked where it enters (loaders, ``State.replace``, pickles) and
trusted inside. Arguments are checked where they are bad data (a seat, a poison type); an
argument of the wrong Python type raises ``TypeError``; a bug inside the engine surfaces as its
own exception with its traceback, not as a complaint about the caller's state."""

from __future__ import annotations

import json
import pickle
import random
import traceback
from collections.abc import Callable
from typing import Any

import pytest

import shock_rules as sr
from shock_rules import InvalidArgumentError, InvalidStateError, check_state, simulation
from shock_rules._rules.state import unchecked_replace
from shock_rules.protocol import BadSeatError, Table

HANDS = ["2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
         "2C 3C 4C 5C 6C 7C 8C 9C 10C"]
START = sr.deal_hands(sr.new_game(sr.GameConfig(players=3, first_leader=0)), HANDS, trump="2D")
#: Chance deals the first card of the game.
DEAL = sr.new_game(sr.GameConfig(players=3, first_leader=0))


def _trump_state() -> sr.State:
    """A state where chance reveals the trump card."""
    s, rng = DEAL, random.Random(0)
    while s.phase is not sr.Phase.TRUMP:
        s = sr.apply(s, sr.sample_chance(s, rng))
    return s


TRUMP = _trump_state()
#: Seat 2 to play, seat 1 withdrawn.
PLAY = sr.apply_all(START, "play 10H; withdraw 2S")
#: Seat 0 won the trick: a chest card is revealed next.
CHEST = sr.apply_all(START, "play 10H; play 2S; play 2C")
#: Seat 0 won two potions and two poisons: it chooses which poison card a potion covers.
COVER = sr.apply_all(START, "play 7H; play 7S; play 5C")


VIEW = sr.view(PLAY, 2)


def test_check_state_refuses_tables_that_only_claim_to_be_equal() -> None:
    class Equal:
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = object.__hash__

    if not sr.COMPILED:  # the compiled build's typed fields take no such object at all
        with pytest.raises(InvalidStateError, match="tables do not match"):
            check_state(unchecked_replace(PLAY, tables=Equal()))
    # The tables of another game: a state is made, and check_state refuses it.
    other = sr.new_game(sr.GameConfig(players=5)).tables
    with pytest.raises(InvalidStateError, match="tables do not match"):
        check_state(unchecked_replace(PLAY, tables=other))


def test_check_state_takes_tables_equal_to_the_configs_after_the_cache_let_them_go() -> None:
    # tables_for keeps the tables of 64 configs: a state may outlive its tables' cache entry.
    from shock_rules._rules.check import _TABLE_FIELDS
    from shock_rules._rules.tables import Tables, tables_for

    state = sr.apply_all(START, "play 10H")
    fields_read = {name for name in dir(state.tables)  # its fields, in either build
                   if not name.startswith("_") and not callable(getattr(state.tables, name))}
    assert {*_TABLE_FIELDS, "chest_outcomes"} == fields_read
    tables_for.cache_clear()
    assert state.tables is not tables_for(state.config)
    check_state(state)
    fields: dict[str, Any] = {name: getattr(state.tables, name) for name in _TABLE_FIELDS}
    for name, changed in (("supply", state.tables.supply + 1), ("deck", 1), ("icons", ())):
        other = Tables(**{**fields, name: changed})
        with pytest.raises(InvalidStateError, match="tables do not match"):
            check_state(unchecked_replace(state, tables=other))


def test_check_state_refuses_events_that_are_not_a_tuple_of_events() -> None:
    events: object
    for events in ([], ("no event",), (None,)):
        if sr.COMPILED and type(events) is not tuple:
            continue  # the compiled build's typed fields take no list at all
        with pytest.raises(InvalidStateError, match="events must be a tuple of events"):
            check_state(unchecked_replace(PLAY, events=events))


@pytest.mark.parametrize("seat", [3, -1, True, None, 1.0, 10**30, "0"])
def test_the_accessors_refuse_a_seat_the_game_lacks(seat: object) -> None:
    reads: list[Callable[[Any], object]] = [
        PLAY.hand, PLAY.hand_size, PLAY.seat_status, PLAY.poisons, PLAY.potions,
        PLAY.stored_potions, PLAY.face_down, VIEW.status, VIEW.hand_size, VIEW.poisons,
        lambda s: PLAY.poison_count(s, "bee"),
    ]
    if sr.COMPILED and type(seat) is bool:
        return  # the compiled build's typed int argument takes a bool as the integer it equals
    for read in reads:
        if isinstance(seat, int):  # a number that is no seat of the game (a bool included)
            with pytest.raises(InvalidArgumentError, match="invalid seat"):
                read(seat)
        else:  # the wrong Python type: TypeError (InvalidArgumentError is one too)
            with pytest.raises(TypeError):
                read(seat)
    # A seat of the game is read as before.
    assert PLAY.hand_size(2) == VIEW.hand_size(2) == len(PLAY.hand(2))


def test_an_unknown_poison_type_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="invalid poison 'nope': expected one of"):
        PLAY.poison_count(0, "nope")
    assert PLAY.poison_count(0, "bee") == 0


def test_a_seat_or_a_seed_too_large_to_print_gets_its_error() -> None:
    with pytest.raises(BadSeatError, match="invalid seat <int too large to show>"):
        Table(sr.GameConfig(players=3)).view(10**5000)
    with pytest.raises(InvalidArgumentError, match="at most 100 digits"):
        simulation.run_simulation(sr.GameConfig(players=3), ["random"], 1, 10**5000)
    assert simulation.game_seed(-(10**99), 0).endswith(f"{-(10**99)}:0")


@pytest.mark.parametrize(("field", "bad"), [
    ("phase", 3), ("round", 6), ("round", True), ("actor", 7), ("supply", -10**30),
    ("hand_masks", (1, 2)), ("status", (0, 0, 0)), ("pool_mask", -1), ("step", -1),
    ("chest_deck", (99,) * 8), ("trick", ("7H",)),
])
def test_replace_refuses_what_no_state_holds_and_leaves_the_state(field: str, bad: object) -> None:
    # A wrong value is refused by the check; one of the wrong Python type may be refused by
    # the compiled build's typed fields first (TypeError), before any check.
    if sr.COMPILED and type(bad) is bool:
        return  # the compiled build's typed int field stores a bool as the integer it equals
    before = sr.to_json(PLAY)
    with pytest.raises((InvalidStateError, TypeError)):
        PLAY.replace(**{field: bad})
    assert sr.to_json(PLAY) == before


def test_a_pickled_state_is_checked_when_it_loads() -> None:
    assert pickle.loads(pickle.dumps(PLAY)) == PLAY
    forged = unchecked_replace(PLAY, supply=PLAY.supply + 1)
    with pytest.raises(InvalidStateError, match="gems do not add up"):
        pickle.loads(pickle.dumps(forged))


@pytest.mark.skipif(sr.COMPILED, reason="compiled code calls the helper natively, past the patch")
def test_a_bug_planted_in_a_private_rule_helper_surfaces_with_its_traceback(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The engine relabels nothing: a maintainer's bug is not reported as the caller's state.
    from shock_rules._rules import trick

    def broken(*args: Any) -> Any:
        raise ZeroDivisionError("planted")

    monkeypatch.setattr(trick, "trick_winner", broken)
    state = sr.apply_all(START, "play 10H; play 2S")
    with pytest.raises(ZeroDivisionError, match="planted") as info:
        sr.apply(state, sr.parse_action("play 2C"))
    frames = [f.name for f in traceback.extract_tb(info.value.__traceback__)]
    assert frames[-3:] == ["_play", "resolve_trick", "broken"]


@pytest.mark.parametrize("call", [
    lambda s: sr.apply(s, sr.parse_action("play 7H")), sr.legal_actions, sr.spectator_view,
    sr.chance_outcomes, lambda s: sr.sample_chance(s, random.Random(1)), sr.format_position,
])
def test_a_state_of_the_wrong_python_type_is_a_type_error(call: Callable[[Any], object]) -> None:
    bad: object
    for bad in ({}, None, "state", VIEW):
        with pytest.raises(TypeError):
            call(bad)


@pytest.mark.parametrize("field",
                         ["round", "supply", "step", "trump_index", "on_bag", "chest_deck"])
def test_numbers_too_large_to_print_are_refused_with_the_typed_error(field: str) -> None:
    # check_state trusts no value it is given: a number of 5,000 digits (which str() refuses)
    # is refused before any message would quote it.
    value = getattr(PLAY, field)
    huge = (10**5000, *value[1:]) if isinstance(value, tuple) else 10**5000
    with pytest.raises(InvalidStateError, match=r"far out of range|chest"):
        PLAY.replace(**{field: huge})


# -- the loaders relabel nothing either -----------------------------------------------------------

#: A game with an edition of its own, so that every document of it embeds the edition.
HOUSE = sr.GameConfig(players=3, first_leader=0,
                      edition=sr.Edition.from_dict({**sr.Edition.default().to_dict(),
                                                    "edition": {"name": "house"}}))
HOUSE_STATE = sr.apply_all(sr.deal_hands(sr.new_game(HOUSE), HANDS, trump="2D"), "play 10H")
#: A document of each kind that reads the edition, by the loader that reads it.
EDITION_READERS: list[tuple[Callable[[Any], object], dict[str, Any]]] = [
    (sr.state_from_json, sr.to_dict(HOUSE_STATE)),
    (sr.config_from_json, sr.to_dict(HOUSE)),
    (sr.edition_from_json, sr.to_dict(HOUSE.edition)),
    (sr.record_from_json, sr.to_dict(sr.record_game(HOUSE, [sr.Action.parse("deal 2H")]))),
    (sr.view_from_json, sr.to_dict(sr.view(HOUSE_STATE, 1))),
    (sr.from_dict, sr.to_dict(HOUSE_STATE)),
]


def _planted(error: type[Exception]) -> Callable[..., Any]:
    def broken(*args: object, **kwargs: object) -> Any:
        raise error("planted")
    return broken


def _frames(exc: BaseException) -> list[str]:
    return [f.name for f in traceback.extract_tb(exc.__traceback__)]


@pytest.mark.parametrize(("load", "doc"), EDITION_READERS,
                         ids=[f"{load.__name__}" for load, _ in EDITION_READERS])
@pytest.mark.parametrize("error", [ZeroDivisionError, KeyError, TypeError])
def test_a_bug_planted_in_the_edition_reader_is_not_reported_as_a_bad_document(
        monkeypatch: pytest.MonkeyPatch, load: Callable[[Any], object], doc: dict[str, Any],
        error: type[Exception]) -> None:
    # The document is valid: a reader failing on it is a bug, shown as it is, with its
    # traceback, not as an InvalidStateError blaming the document.
    load(doc)
    monkeypatch.setattr(sr.Edition, "from_dict", _planted(error))
    with pytest.raises(error, match="planted") as info:
        load(doc)
    assert not isinstance(info.value, sr.ShockError)
    assert _frames(info.value)[-1] == "broken"
    # As JSON text too.
    with pytest.raises(error, match="planted"):
        (sr.from_json if load is sr.from_dict else load)(json.dumps(doc))


@pytest.mark.parametrize("kind", ["events", "state", "view"])
def test_a_bug_planted_in_the_event_reader_is_not_reported_as_a_bad_document(
        monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    from shock_rules import _json

    state = sr.apply_all(START, "play 10H; withdraw 2S")
    load, doc = {"events": (sr.events_from_json, sr.to_dict(list(state.events))),
                 "state": (sr.state_from_json, sr.to_dict(state)),
                 "view": (sr.view_from_json, sr.to_dict(sr.view(state, 2)))}[kind]
    assert load(doc)
    monkeypatch.setattr(_json, "event_from_data", _planted(KeyError))
    with pytest.raises(KeyError, match="planted") as info:
        load(doc)
    assert _frames(info.value)[-1] == "broken"


def test_a_bug_planted_in_the_view_check_is_not_reported_as_a_bad_document(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from shock_rules import _json

    doc = sr.to_dict(VIEW)
    assert sr.view_from_json(doc) == VIEW
    monkeypatch.setattr(_json, "determinize", _planted(ZeroDivisionError))
    with pytest.raises(ZeroDivisionError, match="planted"):
        sr.view_from_json(doc)
    with pytest.raises(ZeroDivisionError, match="planted"):
        sr.from_json(json.dumps(doc))


def test_a_bug_planted_in_the_event_formatter_is_not_reported_as_a_bad_event(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from shock_rules._notation import transcript

    event = PLAY.events[0]
    assert sr.describe_event(event)
    monkeypatch.setattr(transcript, "_describe", _planted(ZeroDivisionError))
    with pytest.raises(ZeroDivisionError, match="planted") as info:
        sr.describe_event(event)
    assert _frames(info.value)[-2:] == ["describe_event", "broken"]
    with pytest.raises(ZeroDivisionError, match="planted"):
        sr.transcript([event])
