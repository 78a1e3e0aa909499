"""Every public function, given any input, returns a result or raises a typed error.

Each public function of ``shock_rules.__all__`` is called with valid arguments but one, which is
replaced by each value of a battery of bad inputs (nothing, numbers, odd text, huge text,
bytes, objects of the wrong kind). What escapes is a :class:`~shock_rules.ShockError`, or a
``TypeError`` for a state, view or action argument of the wrong Python type (the Python norm,
in both builds): no ``AttributeError``, ``IndexError``, ``UnicodeDecodeError``...
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

import shock_rules as sr

_BOT_FUNCTIONS = {"play_game"}


def _mid_game() -> sr.State:
    rng = random.Random(4)
    s = sr.new_game(sr.GameConfig(players=4))
    while not (s.trick_number == 3 and s.phase is sr.Phase.PLAY and s.trick):
        s = sr.apply(s, sr.sample_chance(s, rng) if sr.is_chance(s)
                     else rng.choice(sr.legal_actions(s)))
        if sr.is_terminal(s):
            s = sr.new_game(sr.GameConfig(players=4))
    return s


STATE = _mid_game()
VIEW = sr.view(STATE, STATE.actor)
RECORD = sr.record_game(sr.GameConfig(players=3, first_leader=0),
                        [sr.Action.parse("deal 2H")])

#: A valid argument for each parameter name of the public functions.
VALID: dict[str, Callable[[], Any]] = {
    "state": lambda: STATE,
    "action": lambda: sr.legal_actions(STATE)[0],
    "actions": lambda: None,
    "seat": lambda: None,
    "text": lambda: "play 7H",
    "rng": lambda: random.Random(0),
    "view": lambda: VIEW,
    "config": lambda: sr.GameConfig(players=3),
    "record": lambda: RECORD,
    "events": lambda: STATE.events,
    "event": lambda: STATE.events[0],
    "hands": lambda: ["2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
                      "2D 3D 4D 5D 6D 7D 8D 9D 10D"],
    "trump": lambda: "2C",
    "leader": lambda: None,
    "name": lambda: "random",
    "bots": lambda: [sr.RandomBot(), sr.RandomBot(), sr.RandomBot()],
    "data": lambda: sr.to_dict(STATE),
    "obj": lambda: STATE,
    "headers": lambda: None,
    "on_step": lambda: None,
    "base_dir": lambda: None,
}


class _Weird:
    """An object of no kind the package knows, with a misleading attribute or two."""

    phase = sr.Phase.PLAY
    players = 3

    def __str__(self) -> str:
        return "play 7H"


BAD: list[Any] = [
    # -10**5000 and (10**5000,): integers past Python's limit of digits that repr() shows.
    None, 0, -1, 7, 10**30, -10**5000, 1.5, float("nan"), True, "", " ", "x" * 100_000, "²", "٣",
    "7ſ", "leader ²", "play 7H\x00", b"\xff\xfe", bytearray(b"{}"), [], [None], {}, {"a": 1},
    (), (10**5000,), object(), _Weird(), sr.Phase.PLAY, sr.Status.IN, STATE, VIEW, RECORD,
    sr.Action.parse("stop"), sr.Card.parse("7H"), sr.GameConfig(), random.Random(1),
    Path("/nonexistent/edition.toml"), lambda: None,
]


def _id(value: Any) -> str | None:
    """The test id of a bad value: pytest's own, but for an integer too long to print."""
    return "huge-int" if type(value) is int and value.bit_length() > 1000 else None


def _public_functions() -> list[tuple[str, Callable[..., Any]]]:
    # isroutine, not isfunction: in the compiled build the engine's functions are built-in
    # functions, and they must meet bad arguments the same way.
    return [(name, getattr(sr, name)) for name in sr.__all__
            if inspect.isroutine(getattr(sr, name))]


def _cases() -> list[tuple[str, str]]:
    out = []
    for name, func in _public_functions():
        for param in inspect.signature(func).parameters.values():
            out.append((name, param.name))
    return out


def _call(func: Callable[..., Any], replace: str, value: Any) -> None:
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for param in inspect.signature(func).parameters.values():
        if param.name == replace:
            arg = value
        elif param.default is not inspect.Parameter.empty:
            continue
        else:
            arg = VALID[param.name]()
        if param.kind is inspect.Parameter.KEYWORD_ONLY:
            kwargs[param.name] = arg
        else:
            args.append(arg)
    try:
        func(*args, **kwargs)
    except sr.ShockError:
        pass
    except TypeError:
        if replace not in _TYPED or isinstance(value, _TYPED[replace]):
            raise


#: The parameters whose argument of the wrong Python type raises TypeError (see the guide),
#: with the types they take.
_TYPED: dict[str, tuple[type, ...]] = {
    "state": (sr.State,), "view": (sr.PlayerView,), "action": (sr.Action,),
    "seat": (int, type(sr.CHANCE), type(None)),
}


def test_every_required_parameter_has_a_valid_argument() -> None:
    required = {p.name for _, f in _public_functions()
                for p in inspect.signature(f).parameters.values()
                if p.default is inspect.Parameter.empty}
    assert required <= set(VALID)


@pytest.mark.parametrize(("name", "param"), _cases())
def test_bad_arguments_raise_shock_errors_only(name: str, param: str) -> None:
    func = getattr(sr, name)
    for value in BAD:
        try:
            _call(func, param, value)
        except Exception as exc:  # pragma: no cover - the failure report
            raise AssertionError(f"{name}({param}={value!r:.60}) raised {exc!r:.200}") from exc


@pytest.mark.parametrize("value", BAD, ids=_id)
def test_classmethod_parsers_raise_shock_errors_only(value: Any) -> None:
    for parse in (sr.Suit.parse, sr.Card.parse, sr.Card.from_index, sr.ChestCard.parse,
                  sr.Action.parse, sr.Action.leader, sr.Action.play, sr.Action.chest,
                  sr.Variant.parse, sr.Edition.load, sr.Edition.from_toml, sr.Edition.from_dict,
                  sr.Edition.default().split_gems, sr.Edition.default().icons,
                  sr.Edition.default().poison_type, sr.Edition.default().is_potion):
        try:
            parse(value)
        except sr.ShockError:
            pass
        except Exception as exc:  # pragma: no cover - the failure report
            raise AssertionError(f"{parse.__qualname__}({value!r:.60}) raised {exc!r:.200}") \
                from exc


@pytest.mark.parametrize("value", BAD, ids=_id)
def test_constructors_raise_shock_errors_only(value: Any) -> None:
    makers: list[Callable[[Any], object]] = [
        lambda v: sr.Card(v, sr.Suit.HEARTS), lambda v: sr.Card(7, v),
        lambda v: sr.Action(v), lambda v: sr.Action(sr.ActionKind.PLAY, v),
        lambda v: sr.Action(sr.ActionKind.LEADER, seat=v),
        lambda v: sr.Action(sr.ActionKind.CHEST, chest_card=v),
        lambda v: sr.ChestCard(v, 1), lambda v: sr.ChestCard(sr.ChestKind.GEM, v),
        lambda v: sr.ChestCard(sr.ChestKind.POISON, 1, 0, v),
        lambda v: sr.GameConfig(players=v), lambda v: sr.GameConfig(variant=v),
        lambda v: sr.GameConfig(edition=v), lambda v: sr.GameConfig(first_leader=v),
        lambda v: sr.GameRecord(v, ()), lambda v: sr.GameRecord(sr.GameConfig(), v),
        lambda v: sr.GameRecord(sr.GameConfig(), (), v),
        lambda v: attrs.evolve(sr.Edition.default(), name=v),
        lambda v: attrs.evolve(sr.Edition.default(), gems=v),
        lambda v: attrs.evolve(sr.Edition.default(), chest=v),
        lambda v: attrs.evolve(sr.Edition.default(), poison_types=v),
    ]
    for make in makers:
        try:
            make(value)
        except sr.ShockError:
            pass
        except Exception as exc:  # pragma: no cover - the failure report
            raise AssertionError(f"constructor with {value!r:.60} raised {exc!r:.200}") from exc


def test_errors_quote_a_short_piece_of_a_huge_input() -> None:
    huge = "x" * 1_000_000
    doc = sr.to_dict(STATE)
    doc["phase"] = huge
    record = f'[Players "3"]\n[Variant "{huge}"]\n'
    calls: list[Callable[[], object]] = [
        lambda: sr.parse_action(huge), lambda: sr.parse_card(huge),
        lambda: sr.parse_chest_card(huge), lambda: sr.parse_position(huge),
        lambda: sr.parse_record(huge), lambda: sr.parse_record(record),
        lambda: sr.state_from_json(doc), lambda: sr.Suit.parse(huge),
        lambda: sr.Variant.parse(huge), lambda: sr.make_bot(huge),
        lambda: sr.from_dict({"type": huge}),
    ]
    for call in calls:
        with pytest.raises(sr.ShockError) as info:
            call()
        assert len(str(info.value)) < 500, str(info.value)[:200]


def test_an_event_made_by_hand_with_a_wrong_field_fails_as_python_fails() -> None:
    # Events read from JSON are checked; one built directly is the caller's object, and
    # nothing relabels what goes wrong with it (docs/architecture.md, "Checked where it
    # enters"): the formatter's own error surfaces.
    bad_event = sr.RoundEnded(round=1, reason="x")  # type: ignore[arg-type]
    with pytest.raises(AttributeError, match="value"):
        sr.describe_event(bad_event)
    with pytest.raises(AttributeError, match="value"):
        sr.transcript([bad_event])
    # What is no event at all is still refused by name.
    with pytest.raises(sr.InvalidArgumentError, match="expected an event"):
        sr.describe_event("round 1 ended")  # type: ignore[arg-type]
