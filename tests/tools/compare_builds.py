#!/usr/bin/env python3
"""Forged states, both builds: where do the pure and the compiled build answer differently?

Takes positions of random games (every phase, 3-5 players), forges each field of each one with
bad values (``attrs.evolve``: what no step makes), calls the public readers of a state on it
and records what each does: a result, a typed error (its class), a raw exception or a hang.
In the compiled build a value of the wrong kind for its field makes no state at all: the case
records what the constructor raised, under the reader name ``State``.
With ``--other`` it runs itself in that interpreter too (say, an environment with the compiled
build) and prints where the two differ, by function, field and outcome.

    python tests/tools/compare_builds.py --other /tmp/venv-compiled/bin/python

It exits 1 if either build hangs or raises an exception that is not a ``ShockError`` (the
guide's promise for a forged state), and 0 otherwise: differences between the builds are
reported, not failed on, as the pure build's ``apply`` carries fields a step does not read into
the next state (the guide: only ``check_state`` checks a state in full). A run takes about 10 s
per build; ``tests/test_forged_sweep.py`` runs a smaller one in each build's suite.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

import shock_rules as sr

#: Values no step puts in a field: wrong types, out of range, wrong lengths, lists for tuples,
#: tuples holding a list or a set (unhashable).
BAD: tuple[object, ...] = (
    None, -1, 0, 1, 3, 99, 10**30, -(10**30), True, 1.5, "x", (), (0,), (-1,) * 5, [0, 0, 0],
    (None,) * 5, (10**20,) * 5, (True,) * 5, sr.Phase.OVER, sr.Phase.DEAL, sr.Status.SHOCKED,
    (0, 0, 0, 0, [0]), (0, {0}, 0),
)


def positions(games: int, seed: int) -> list[sr.State]:
    """The first state of each phase in each game, some others at random, the end, and a
    cover (random play rarely makes one: a winner needs fewer potions than two poisons)."""
    rng = random.Random(seed)
    out = [sr.apply_all(sr.deal_hands(
        sr.new_game(sr.GameConfig(players=3, first_leader=0)),
        ["2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
         "2C 3C 4C 5C 6C 7C 8C 9C 10C"], trump="2D"), "play 7H; play 7S; play 5C")]
    assert out[0].phase is sr.Phase.COVER
    for g in range(games):
        s = sr.new_game(sr.GameConfig(players=3 + g % 3))
        seen = set()
        while not sr.is_terminal(s):
            if s.phase not in seen or rng.random() < 0.01:
                seen.add(s.phase)
                out.append(s)
            s = sr.apply(s, sr.sample_chance(s, rng) if sr.is_chance(s)
                         else rng.choice(sr.legal_actions(s)))
        out.append(s)
    return out


def readers(s: sr.State, orig: sr.State) -> dict[str, Callable[[], object]]:
    """The public readers of a state, called on the forged ``s`` of ``orig``."""
    legal = sr.legal_actions(orig)
    return {
        "legal_actions": lambda: sr.legal_actions(s),
        "chance_outcomes": lambda: sr.chance_outcomes(s),
        "is_chance": lambda: sr.is_chance(s),
        "is_terminal": lambda: sr.is_terminal(s),
        "current_player": lambda: sr.current_player(s),
        "apply": lambda: sr.apply(s, legal[0]) if legal else None,
        "sample_chance": lambda: sr.sample_chance(s, random.Random(1)),
        "resolve_chance": lambda: sr.resolve_chance(s, random.Random(1)),
        "view": lambda: sr.view(s, 0),
        "spectator_view": lambda: sr.spectator_view(s),
        "to_json": lambda: sr.to_json(s),
        "format_position": lambda: sr.format_position(s),
        "check_state": lambda: sr.check_state(s),
        "scores": lambda: sr.scores(s),
        "winners": lambda: sr.winners(s),
        "repr": lambda: repr(s),
        "hash": lambda: hash(s),
        "equal": lambda: s == orig,
    }


def _timeout(signum: int, frame: object) -> None:
    raise TimeoutError


def outcome(call: Callable[[], object]) -> str:
    """What a call did: ``OK`` (a state as ``OK-valid`` or ``OK-invalid`` by ``check_state``),
    a ShockError's class, ``RAW-<class>`` for any other exception, or ``HANG`` (5 s)."""
    signal.alarm(5)
    try:
        result = call()
    except TimeoutError:
        return "HANG"
    except sr.ShockError as exc:
        return type(exc).__name__
    except Exception as exc:
        return f"RAW-{type(exc).__name__}"
    finally:
        signal.alarm(0)
    if isinstance(result, sr.State):
        try:
            sr.check_state(result)
        except sr.ShockError:
            return "OK-invalid"
        return "OK-valid"
    return "OK"


def sweep(games: int, seed: int) -> dict[str, str]:
    """Every case's outcome, keyed ``position|phase|field|bad value index|reader``."""
    before = signal.signal(signal.SIGALRM, _timeout)
    evolve: Any = attrs.evolve  # values of any type: the point of the sweep
    out = {}
    try:
        for i, orig in enumerate(positions(games, seed)):
            for field in attrs.fields(sr.State):
                for j, bad in enumerate(BAD):
                    key = f"{i}|{orig.phase.name}|{field.name}|{j}"
                    try:
                        s = evolve(orig, **{field.name: bad})
                    except sr.ShockError as exc:  # the compiled build: a field of the wrong kind
                        out[f"{key}|State"] = type(exc).__name__
                        continue
                    except Exception as exc:
                        out[f"{key}|State"] = f"RAW-{type(exc).__name__}"
                        continue
                    for name, call in readers(s, orig).items():
                        out[f"{key}|{name}"] = outcome(call)
    finally:
        signal.signal(signal.SIGALRM, before)
    return out


def report(name: str, results: dict[str, str]) -> int:
    """Print the hangs and raw exceptions of one build; return how many there were."""
    broken = Counter(
        (key.split("|")[4], key.split("|")[2], got) for key, got in results.items()
        if got == "HANG" or got.startswith("RAW-")
    )
    print(f"{name} ({sr.__file__ if name == 'this build' else 'other'}): {len(results)} cases,"
          f" {sum(broken.values())} hangs or raw exceptions")
    for (reader, field, got), n in broken.most_common(20):
        print(f"  {n:6d}  {reader}({field}): {got}")
    return sum(broken.values())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--other", help="the other build's interpreter, to compare with")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--emit", type=Path, help=argparse.SUPPRESS)  # used by --other's run
    args = ap.parse_args()
    mine = sweep(args.games, args.seed)
    if args.emit:
        args.emit.write_text(json.dumps({"compiled": sr.COMPILED, "results": mine}))
        return 0
    print(f"this build: {'compiled' if sr.COMPILED else 'pure'}")
    bad = report("this build", mine)
    if not args.other:
        return 1 if bad else 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "other.json"
        subprocess.run([args.other, __file__, "--games", str(args.games), "--seed",
                        str(args.seed), "--emit", str(path)], check=True)
        doc = json.loads(path.read_text())
    theirs: dict[str, str] = doc["results"]
    print(f"other build: {'compiled' if doc['compiled'] else 'pure'}")
    bad += report("other build", theirs)
    differ = Counter(
        (key.split("|")[4], key.split("|")[2], got, theirs.get(key, "-"))
        for key, got in mine.items() if theirs.get(key) != got
    )
    print(f"the builds differ in {sum(differ.values())} of {len(mine)} cases"
          " (reader(field): this build / other build):")
    for (reader, field, got, other), n in differ.most_common():
        print(f"  {n:6d}  {reader}({field}): {got} / {other}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
