"""States and views of the right class whose fields hold what no step makes (``attrs.evolve``
with a wrong value, an object built by hand): every public function that reads one raises
:class:`~shock_rules.InvalidStateError`, in both builds alike. None hangs, none builds an
unbounded list, none changes its input, and the accessors refuse a seat the game lacks."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar, cast

import attrs
import pytest

import shock_rules as sr
from shock_rules import InvalidArgumentError, InvalidStateError, check_state, simulation
from shock_rules.protocol import BadSeatError, Table

_T = TypeVar("_T")


def forge(obj: _T, **changes: object) -> _T:
    """Return ``attrs.evolve(obj, **changes)``: values of any type, the point of these tests."""
    evolve: Any = attrs.evolve
    return cast(_T, evolve(obj, **changes))


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


def _choice_state() -> sr.State:
    """A state where the chest's revealer chooses whether to reveal another card."""
    for kind in (c for c, n in zip(CHEST.tables.chest_cards, CHEST.chest_deck, strict=True)
                 if n):
        s = sr.apply(CHEST, sr.Action.chest(kind))
        if s.phase is sr.Phase.CHEST_CHOICE:
            return s
    raise AssertionError("no chest card leads to the choice")


def test_the_fixtures_are_in_the_phases_the_cases_need() -> None:
    assert PLAY.phase is sr.Phase.PLAY and PLAY.actor == 2
    assert CHEST.phase is sr.Phase.CHEST
    assert COVER.phase is sr.Phase.COVER
    assert _choice_state().phase is sr.Phase.CHEST_CHOICE


@pytest.mark.parametrize("make", [
    # Statuses equal to Status.IN but not the member: the next leader was searched for ever.
    lambda: sr.apply(forge(COVER, status=(0, 0, 0)), sr.legal_actions(COVER)[0]),
    lambda: sr.apply(forge(_choice_state(), status=(False, False, False)),
                     sr.Action.parse("stop")),
], ids=["cover", "stop"])
def test_statuses_that_are_no_status_are_refused_not_looped_on(
        make: Callable[[], object]) -> None:
    # The pure build finds no seat to lead; the compiled build's typed read of a status
    # refuses the 0 at once.
    with pytest.raises(InvalidStateError,
                       match=r"no seat in the round to lead|Status object expected"):
        make()


@pytest.mark.parametrize("field", ["chest_deck", "chest_centre", "chest_discard"])
@pytest.mark.parametrize("count", [10**12, 1 << 200, 7, -1])
def test_a_chest_count_past_the_chest_deck_is_refused_before_it_is_listed(
        field: str, count: int) -> None:
    forged = forge(PLAY, **{field: (count, *getattr(PLAY, field)[1:])})
    for read in (lambda: sr.spectator_view(forged), lambda: sr.view(forged, 2),
                 lambda: getattr(forged, field + "_cards")):
        with pytest.raises(InvalidStateError, match="do not fit the chest deck"):
            read()


_Reader = Callable[[sr.State], object]
#: What reads a chance decision's deck.
_CHANCE_READERS: dict[str, _Reader] = {
    "chance_outcomes": sr.chance_outcomes,
    "legal_actions": sr.legal_actions,
    "sample_chance": lambda s: sr.sample_chance(s, random.Random(0)),
}
#: What reads every card mask.
_MASK_READERS: dict[str, _Reader] = {
    "to_json": sr.to_json,
    "view": lambda s: sr.view(s, 0),
    "spectator_view": sr.spectator_view,
}


def _readings(base: sr.State, field: str, bads: tuple[object, ...],
              readers: dict[str, _Reader]) -> dict[str, Callable[[], object]]:
    """Each reader called on ``base`` with ``field`` forged to each of ``bads``, by name."""
    def reading(read: _Reader, bad: object) -> Callable[[], object]:
        return lambda: read(forge(base, **{field: bad}))

    return {f"{name} at {base.phase.name}, {field} {bad!r}": reading(read, bad)
            for bad in bads for name, read in readers.items()}


def _forged_state_calls() -> dict[str, Callable[[], object]]:
    rng = random.Random(0)
    return {
        "view, no hands": lambda: sr.view(forge(PLAY, hand_masks=()), 0),
        "spectator_view, no trick": lambda: sr.spectator_view(forge(PLAY, trick=None)),
        "to_json, no leader": lambda: sr.to_json(forge(PLAY, leader=None)),
        "to_json, float hands": lambda: sr.to_json(
            forge(PLAY, hand_masks=tuple(float(m) for m in PLAY.hand_masks))),
        "to_json, a supply too long to write": lambda: sr.to_json(
            forge(PLAY, supply=10**5000)),
        "format_position, no statuses": lambda: sr.format_position(
            forge(PLAY, status=())),
        "winners, no scores": lambda: sr.winners(forge(PLAY, in_bag=())),
        "winners, scores in a list": lambda: sr.winners(forge(PLAY, in_bag=[0, 0, 0])),
        "scores in a list": lambda: sr.scores(forge(PLAY, in_bag=[0, 0, 0])),
        "scores, a bool": lambda: sr.scores(forge(PLAY, in_bag=(0, True, 0))),
        "sample_chance, no chest deck": lambda: sr.sample_chance(
            forge(CHEST, chest_deck=()), rng),
        "sample_chance, the chest deck a list": lambda: sr.sample_chance(
            forge(CHEST, chest_deck=list(CHEST.chest_deck)), rng),
        "sample_chance, no chance and the statuses a list": lambda: sr.sample_chance(
            forge(PLAY, status=list(PLAY.status)), rng),
        "resolve_chance, no phase": lambda: sr.resolve_chance(
            forge(CHEST, phase=None), rng),
        "current_player, a bool actor": lambda: sr.current_player(
            forge(PLAY, actor=True)),
        "current_player, no actor": lambda: sr.current_player(forge(PLAY, actor=None)),
        "current_player, seat 9": lambda: sr.current_player(forge(PLAY, actor=9)),
        # The pool is read as a mask: a negative or empty one must not give outcomes that
        # do not sum to 1 (a negative mask's bits would pick cards of the wrong count).
        **_readings(DEAL, "pool_mask", (0, -5, -(1 << 43), 1 << 50), _CHANCE_READERS),
        **_readings(TRUMP, "pool_mask", (0, -5, -(1 << 43), 1 << 50), _CHANCE_READERS),
        # Chest counts are weights: none may be below zero, and some must be above.
        **_readings(CHEST, "chest_deck", (tuple(-n for n in CHEST.chest_deck),
                                          (0,) * len(CHEST.chest_deck),
                                          (5, -3, *CHEST.chest_deck[2:])), _CHANCE_READERS),
        # A phase that is no Phase (an IntEnum, so a plain int compares equal) is refused,
        # not read as a decision with nothing to choose.
        **_readings(PLAY, "phase", (3, 99, None, "x"), {"legal_actions": sr.legal_actions}),
        **_readings(DEAL, "phase", (0, 99, None, "x"), {"chance_outcomes": sr.chance_outcomes}),
        # A mask read card by card: below zero it has endless set bits, and None or ()
        # would read as no card, writing a document that is not the state.
        **_readings(PLAY, "pool_mask", (None, ()), _MASK_READERS),
        **_readings(PLAY, "discard_mask", (-1,), _MASK_READERS),
        **{name: call
           for field in ("hand_masks", "poison_masks", "potion_masks", "face_down_masks")
           for name, call in _readings(PLAY, field, ((None,) * 3, (-1,) * 3),
                                       _MASK_READERS).items()},
        # Asking chance to act at a seat's decision names the seat: a forged one is refused.
        **_readings(_choice_state(), "actor", (None, 1.5, "x", ()),
                    {"sample_chance": _CHANCE_READERS["sample_chance"]}),
        # A status that is no Status (a plain 0 equals IN but is not it) is refused, not
        # read as out of the round: no face-down plays for a seat still in it.
        **_readings(PLAY, "status", ((0, 0, 0), (1, 1, 1), (None,) * 3), {
            "legal_actions": sr.legal_actions,
            "apply down": lambda s: sr.apply(s, sr.parse_action("down 2C")),
            "apply play": lambda s: sr.apply(s, sr.parse_action("play 2C"))}),
        "apply, the trick a list": lambda: sr.apply(
            forge(PLAY, trick=list(PLAY.trick)), sr.legal_actions(PLAY)[0]),
    }


@pytest.mark.parametrize("name", list(_forged_state_calls()))
def test_a_forged_state_gets_an_invalid_state_error(name: str) -> None:
    with pytest.raises(InvalidStateError, match="invalid state"):
        _forged_state_calls()[name]()


def test_apply_leaves_a_forged_list_as_it_was() -> None:
    trick = list(PLAY.trick)
    with pytest.raises(InvalidStateError):
        sr.apply(forge(PLAY, trick=trick), sr.legal_actions(PLAY)[0])
    assert trick == list(PLAY.trick)


def test_check_state_refuses_tables_that_only_claim_to_be_equal() -> None:
    class Equal:
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = object.__hash__

    # Not a Tables: the compiled build makes no state with it, the pure build's check refuses it.
    with pytest.raises(InvalidStateError,
                       match=r"its tables must be a Tables, not Equal|tables do not match"):
        check_state(forge(PLAY, tables=Equal()))
    # The tables of another game: a state is made, and check_state refuses it.
    other = sr.new_game(sr.GameConfig(players=5)).tables
    with pytest.raises(InvalidStateError, match="tables do not match"):
        check_state(forge(PLAY, tables=other))


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
            check_state(state.replace(tables=other))


def test_check_state_refuses_events_that_are_not_a_tuple_of_events() -> None:
    events: object
    for events in ([], ("no event",), (None,)):
        # The compiled build's constructor refuses a list already (see above).
        if sr.COMPILED and type(events) is not tuple:
            continue
        with pytest.raises(InvalidStateError, match="events must be a tuple of events"):
            check_state(forge(PLAY, events=events))


VIEW = sr.view(PLAY, 2)


def _forged_view_calls() -> dict[str, Callable[[], object]]:
    rng = random.Random(0)
    return {
        "heuristic, no round": lambda: sr.HeuristicBot().choose(
            forge(VIEW, round=None), rng),
        "heuristic, no deck size": lambda: sr.HeuristicBot().choose(
            forge(VIEW, deck_size=None), rng),
        "heuristic, a text of actions": lambda: sr.HeuristicBot().choose(
            forge(VIEW, legal_actions="x"), rng),
        "random, a text of actions": lambda: sr.RandomBot().choose(
            forge(VIEW, legal_actions="x"), rng),
        "random, a bool of actions": lambda: sr.RandomBot().choose(
            forge(VIEW, legal_actions=True), rng),
        "mcts, a list of actions": lambda: sr.MCTSBot(iterations=5).choose(
            forge(VIEW, legal_actions=list(VIEW.legal_actions)), rng),
        "mcts, a bool seat": lambda: sr.MCTSBot(iterations=5).choose(
            forge(VIEW, round=True), rng),
        "to_json, a supply too long to write": lambda: sr.to_json(forge(VIEW, supply=10**5000)),
        "chest_odds, no config": lambda: sr.chest_odds(forge(VIEW, config=None)),
        "unseen, no hand": lambda: forge(VIEW, hand=None).unseen,
        "lead_seat, no seats": lambda: forge(VIEW, seats=None).lead_seat,
    }


@pytest.mark.parametrize("name", list(_forged_view_calls()))
def test_a_forged_view_gets_an_invalid_state_error(name: str) -> None:
    with pytest.raises(InvalidStateError, match="invalid view"):
        _forged_view_calls()[name]()


def test_the_bots_still_decide_on_a_true_view() -> None:
    rng = random.Random(0)
    for bot in (sr.RandomBot(), sr.HeuristicBot(), sr.MCTSBot(iterations=5)):
        assert bot.choose(VIEW, rng) in VIEW.legal_actions


@pytest.mark.parametrize("seat", [3, -1, True, None, 1.0, 10**30, "0"])
def test_the_accessors_refuse_a_seat_the_game_lacks(seat: object) -> None:
    reads: list[Callable[[object], object]] = [
        PLAY.hand, PLAY.hand_size, PLAY.seat_status, PLAY.poisons, PLAY.potions,  # type: ignore[list-item]
        PLAY.stored_potions, PLAY.face_down, VIEW.status, VIEW.hand_size, VIEW.poisons,  # type: ignore[list-item]
        lambda s: PLAY.poison_count(s, "bee"),  # type: ignore[call-overload]
    ]
    for read in reads:
        with pytest.raises(InvalidArgumentError, match="invalid seat"):
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


@pytest.mark.parametrize(("change", "reads"), [
    ({"trick": (None,)}, ["lead_suit", "lead_seat", "trick_gems"]),
    ({"trump_index": 99}, ["trump", "trump_suit"]),
    ({"chest_deck": (None,)}, ["chest_deck_size"]),  # chest_deck_cards: see above
    ({"discard_mask": -1}, ["discard"]),
    ({"pool_mask": -1}, ["deck_size"]),
])
def test_the_properties_of_a_forged_state_raise_invalid_state_error(
        change: dict[str, object], reads: list[str]) -> None:
    forged = forge(PLAY, **change)
    for name in reads:
        with pytest.raises(InvalidStateError, match="invalid state: the state is corrupt"):
            getattr(forged, name)
        getattr(PLAY, name)  # the true state reads


@pytest.mark.parametrize(("change", "reads"), [
    ({"config": None}, ["players"]),
    ({"trump": "7H"}, ["trump_suit"]),
    ({"trick": None}, ["lead_suit", "trick_gems"]),
    ({"chest_deck": None}, ["chest_deck_size"]),
    ({"phase": [3]}, ["to_move", "is_chance", "your_turn", "my_turn", "to_act"]),
])
def test_the_properties_of_a_forged_view_raise_invalid_state_error(
        change: dict[str, object], reads: list[str]) -> None:
    forged = forge(VIEW, **change)
    for name in reads:
        with pytest.raises(InvalidStateError, match="invalid view: the view is corrupt"):
            getattr(forged, name)
        getattr(VIEW, name)


def test_a_forged_state_still_has_a_repr() -> None:
    # repr is what a traceback, a debugger or a log shows: it must not raise itself.
    assert repr(forge(PLAY, round=10**5000)) == "<State (corrupt: check_state says why)>"
    assert repr(PLAY).startswith("<State round 1 trick 1 play actor 2")


_PLAY_FIELDS = [a.name for a in attrs.fields(sr.State)]


@pytest.mark.parametrize(("field", "bad", "kind"), [
    ("phase", None, "a Phase"), ("phase", 3, "a Phase"), ("config", None, "a GameConfig"),
    ("round", True, "an int"), ("round", 1.0, "an int"), ("step", "0", "an int"),
    ("trick", [], "a tuple"), ("hand_masks", None, "a tuple"), ("events", [], "a tuple"),
])
def test_a_field_of_the_wrong_kind_is_refused_where_the_build_can(
        field: str, bad: object, kind: str) -> None:
    args = [bad if name == field else getattr(PLAY, name) for name in _PLAY_FIELDS]
    if sr.COMPILED:
        # Typed slots: no such state is made, however it is made (attrs.evolve, by keyword or
        # by position).
        with pytest.raises(InvalidStateError,
                           match=f"invalid state: its {field} must be {kind}"):
            forge(PLAY, **{field: bad})
        with pytest.raises(InvalidStateError, match=f"its {field} must be {kind}"):
            sr.State(*args)
    else:
        # The pure build makes the state as it always did; check_state refuses it.
        for forged in (forge(PLAY, **{field: bad}), sr.State(*args)):
            assert getattr(forged, field) is bad
            with pytest.raises(InvalidStateError, match="invalid state"):
                check_state(forged)
    assert sr.State(*[getattr(PLAY, name) for name in _PLAY_FIELDS]) == PLAY
