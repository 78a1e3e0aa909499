"""Bad arguments to the public functions of shock_rules.simulation raise typed errors."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

import shock_rules as sr
from shock_rules import simulation as sim

CONFIG = sr.GameConfig(players=3)
LINEUP = ["heuristic", "random", "random"]


def run(**kwargs: Any) -> dict[str, Any]:
    args: dict[str, Any] = {"config": CONFIG, "lineup": ["random"], "games": 1, "seed": 1}
    args.update(kwargs)
    return sim.run_simulation(**args)


def result() -> dict[str, Any]:
    return sim.play_one((CONFIG, tuple(LINEUP), 1, 0, True))


BAD: list[tuple[str, Callable[[], object], type[sr.ShockError], str]] = [
    ("wilson(None, 3)", lambda: sim.wilson(None, 3), sr.InvalidArgumentError,  # type: ignore[arg-type]
     "invalid p None"),
    ("wilson(nan, 3)", lambda: sim.wilson(math.nan, 3), sr.InvalidArgumentError, "invalid p nan"),
    ("wilson(1.5, 3)", lambda: sim.wilson(1.5, 3), sr.InvalidArgumentError, "invalid p 1.5"),
    ("wilson(0.5, 2.5)", lambda: sim.wilson(0.5, 2.5), sr.InvalidArgumentError,  # type: ignore[arg-type]
     "invalid n 2.5"),
    ("wilson(0.5, True)", lambda: sim.wilson(0.5, True), sr.InvalidArgumentError,
     "invalid n True"),
    ("wilson(0.5, -1)", lambda: sim.wilson(0.5, -1), sr.InvalidArgumentError,
     "invalid n -1: expected an integer of at least 0"),
    ("wilson(z=0)", lambda: sim.wilson(0.5, 3, 0), sr.InvalidArgumentError,
     "invalid z 0: expected a number above 0"),
    ("lineup_of(None, 4)", lambda: sim.lineup_of(None, 4),  # type: ignore[arg-type]
     sr.InvalidArgumentError, "invalid names None"),
    ("lineup_of('random', 4)", lambda: sim.lineup_of("random", 4), sr.InvalidArgumentError,
     "invalid names 'random'"),
    ("lineup_of([None], 4)", lambda: sim.lineup_of([None], 4),  # type: ignore[list-item]
     sr.InvalidArgumentError, "expected a list of bot names"),
    ("lineup_of([], 4)", lambda: sim.lineup_of([], 4), sr.InvalidArgumentError,
     "at least one bot name"),
    ("lineup_of(too many)", lambda: sim.lineup_of(["random"] * 4, 3), sr.InvalidArgumentError,
     "too long for 3 players"),
    ("lineup_of(['nobody'], 4)", lambda: sim.lineup_of(["nobody"], 4), sr.InvalidArgumentError,
     "unknown bot 'nobody'"),
    ("lineup_of(players=None)", lambda: sim.lineup_of(["random"], None),  # type: ignore[arg-type]
     sr.InvalidArgumentError, "invalid players None"),
    ("lineup_of(players=True)", lambda: sim.lineup_of(["random"], True),
     sr.InvalidArgumentError, "invalid players True"),
    ("lineup_of(players=9)", lambda: sim.lineup_of(["random"], 9), sr.InvalidArgumentError,
     "invalid players 9"),
    ("summarize(['random'], None)", lambda: sim.summarize(["random"], None),  # type: ignore[arg-type]
     sr.InvalidArgumentError, "invalid results None"),
    ("summarize(lineup, [])", lambda: sim.summarize(LINEUP, []), sr.InvalidArgumentError,
     "no results"),
    ("summarize(None, results)", lambda: sim.summarize(None, [result()]),  # type: ignore[arg-type]
     sr.InvalidArgumentError, "invalid lineup None"),
    ("summarize(short lineup)", lambda: sim.summarize(["random"], [result()]),
     sr.InvalidArgumentError, "invalid result"),
    ("summarize([{}])", lambda: sim.summarize(LINEUP, [{}]), sr.InvalidArgumentError,
     "invalid result"),
    ("game_seed(None, 0)", lambda: sim.game_seed(None, 0),  # type: ignore[arg-type]
     sr.InvalidArgumentError, "invalid seed None"),
    ("game_seed(1, -1)", lambda: sim.game_seed(1, -1), sr.InvalidArgumentError,
     "invalid game -1: expected an integer of at least 0"),
    ("play_one(None)", lambda: sim.play_one(None),  # type: ignore[arg-type]
     sr.InvalidArgumentError, "invalid task None"),
    ("play_one(bad config)", lambda: sim.play_one((None, tuple(LINEUP), 1, 0, True)),
     sr.ConfigError, "needs a game's config"),
    ("play_one(short lineup)", lambda: sim.play_one((CONFIG, ("random",), 1, 0, True)),
     sr.InvalidArgumentError, "invalid lineup"),
    ("play_one(rotate=1)", lambda: sim.play_one((CONFIG, tuple(LINEUP), 1, 0, 1)),  # type: ignore[arg-type]
     sr.InvalidArgumentError, "invalid rotate 1"),
    ("play_batch(None)", lambda: sim.play_batch(None),  # type: ignore[arg-type]
     sr.InvalidArgumentError, "invalid tasks None"),
    ("run_simulation(None, ...)", lambda: run(config=None), sr.ConfigError,
     r"run_simulation\(\) needs a game's config .*, not None"),
    ("run_simulation(lineup=None)", lambda: run(lineup=None), sr.InvalidArgumentError,
     "invalid names None"),
    ("run_simulation(games=0)", lambda: run(games=0), sr.InvalidArgumentError,
     "invalid games 0: expected an integer of at least 1"),
    ("run_simulation(games=2.5)", lambda: run(games=2.5), sr.InvalidArgumentError,
     "invalid games 2.5: expected an integer"),
    ("run_simulation(games=True)", lambda: run(games=True), sr.InvalidArgumentError,
     "invalid games True"),
    ("run_simulation(jobs='2')", lambda: run(jobs="2"), sr.InvalidArgumentError,
     "invalid jobs '2'"),
    ("run_simulation(batch=1.5)", lambda: run(batch=1.5), sr.InvalidArgumentError,
     "invalid batch 1.5"),
    ("run_simulation(backend='x')", lambda: run(backend="x"), sr.InvalidArgumentError,
     "unknown backend 'x'"),
    ("run_simulation(backend=None)", lambda: run(backend=None), sr.InvalidArgumentError,
     "unknown backend None"),
    ("run_simulation(seed=None)", lambda: run(seed=None), sr.InvalidArgumentError,
     "invalid seed None: expected an integer"),
    ("run_simulation(seed=1.5)", lambda: run(seed=1.5), sr.InvalidArgumentError,
     "invalid seed 1.5"),
    ("run_simulation(seed=True)", lambda: run(seed=True), sr.InvalidArgumentError,
     "invalid seed True"),
    ("run_simulation(rotate='no')", lambda: run(rotate="no"), sr.InvalidArgumentError,
     "invalid rotate 'no'"),
    ("run_simulation(progress=1)", lambda: run(progress=1), sr.InvalidArgumentError,
     "invalid progress 1"),
    ("run_simulation(address=1)", lambda: run(backend="ray", address=1),
     sr.InvalidArgumentError, "invalid address 1"),
]


@pytest.mark.parametrize(("call", "error", "message"), [(c, e, m) for _, c, e, m in BAD],
                         ids=[name for name, *_ in BAD])
def test_bad_arguments_raise_typed_errors(call: Callable[[], object],
                                          error: type[sr.ShockError], message: str) -> None:
    with pytest.raises(error, match=message):
        call()


def test_good_arguments_still_work() -> None:
    assert sim.wilson(0.0, 20) == pytest.approx((0.0, 0.1611), abs=1e-4)
    assert sim.wilson(1, 0) == (0.0, 1.0)
    assert sim.lineup_of(("Random ", "heuristic"), 3) == ["random", "heuristic", "heuristic"]
    per_slot, per_bot = sim.summarize(LINEUP, [result()])
    assert len(per_slot) == 3 and len(per_bot) == 2
    doc = run(games=2, seed=-7, batch=None)
    assert doc["seed"] == -7 and len(doc["results"]) == 2


def test_a_long_bad_argument_is_quoted_short() -> None:
    with pytest.raises(sr.InvalidArgumentError) as exc:
        run(seed="9" * 10_000)
    assert len(str(exc.value)) < 200


def test_a_huge_integer_is_refused_with_a_typed_error() -> None:
    # Past a float's range (OverflowError from float()) and past the digits Python will show
    # (ValueError from repr()): refused all the same, and quoted short.
    with pytest.raises(sr.InvalidArgumentError, match=r"invalid p 1000.*too large for a float"):
        sim.wilson(10**400, 3)
    with pytest.raises(sr.InvalidArgumentError,
                       match="invalid n <int too large to show>: expected an integer of at"):
        sim.wilson(0.5, -10**5000)
    with pytest.raises(sr.InvalidArgumentError, match="invalid seed <list too large to show>"):
        run(seed=[10**5000])
