"""Every public function of ``shock_rules.melvin`` meets bad arguments with the package's
typed errors (a ``ShockError``), or ``TypeError`` for an argument of the wrong Python type
where the function takes one of the game's objects; never another exception."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from typing import Any

import pytest

from shock_rules import ShockError
from shock_rules import melvin as mk

from ._helpers import dealt

STATE = mk.apply(dealt(), mk.Flip(1))  # a chance step: a turn-up's face
PLAY = mk.apply(STATE, mk.Reveal(5))

#: A valid argument for each parameter name of the public functions.
VALID: dict[str, Callable[[], Any]] = {
    "state": lambda: PLAY, "action": lambda: mk.legal_actions(PLAY)[0], "seat": lambda: None,
    "text": lambda: "1 flip", "rng": lambda: random.Random(0), "config": lambda: PLAY.config,
    "name": lambda: "default", "card": lambda: "G2", "events": lambda: PLAY.events,
    "event": lambda: PLAY.events[0], "view": lambda: mk.view(PLAY, 1),
    "players": lambda: 4, "actions": lambda: None, "max_steps": lambda: 100_000,
}

BAD: list[Any] = [
    None, 0, -1, 7, 10**30, 1.5, float("nan"), True, "", "x" * 10_000, "²", b"\xff", [], {},
    (), object(), mk.Flip(1), STATE, mk.GameConfig(), random.Random(1), lambda: None,
]

#: The parameters whose argument of the wrong Python type raises TypeError.
TYPED: dict[str, tuple[type, ...]] = {
    "state": (mk.State,), "action": (mk.Action,), "text": (str,), "view": (mk.View,),
    "event": (mk.Event,), "events": (tuple,),
}


def _functions() -> list[tuple[str, Callable[..., Any]]]:
    return [(n, getattr(mk, n)) for n in mk.__all__
            if inspect.isfunction(getattr(mk, n)) or inspect.isbuiltin(getattr(mk, n))]


CASES = [(n, p.name) for n, f in _functions() for p in inspect.signature(f).parameters.values()]


@pytest.mark.parametrize(("name", "param"), CASES)
def test_bad_arguments_raise_shock_errors_only(name: str, param: str) -> None:
    func = dict(_functions())[name]
    for value in BAD:
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        for p in inspect.signature(func).parameters.values():
            if p.name == param:
                arg = value
            elif p.default is not inspect.Parameter.empty:
                continue
            else:
                arg = VALID[p.name]()
            if p.kind is inspect.Parameter.KEYWORD_ONLY or p.default is not p.empty:
                kwargs[p.name] = arg
            else:
                args.append(arg)
        try:
            func(*args, **kwargs)
        except ShockError:
            pass
        except TypeError:
            assert param in TYPED and not isinstance(value, TYPED[param]), (name, param, value)
        except RuntimeError:
            # random_playout's own limit: a game that did not end in max_steps steps.
            assert name == "random_playout" and param == "max_steps"
