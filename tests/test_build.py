"""The two builds: pure Python, or the rule modules compiled by mypyc (``hatch_build.py``);
and the extras that install what the tests need."""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import random
import re
import runpy
import tomllib
from pathlib import Path

import pytest

import shock_rules as sr

ROOT = Path(__file__).resolve().parent.parent
HOOK = runpy.run_path(str(ROOT / "hatch_build.py"))
COMPILED_MODULES: tuple[str, ...] = HOOK["COMPILED_MODULES"]


def _module_names() -> list[str]:
    return [m.removesuffix(".py").replace("/", ".") for m in COMPILED_MODULES]


def _is_extension(name: str) -> bool:
    path = str(importlib.import_module(name).__file__)
    return path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_compiled_says_whether_the_rule_modules_are_extensions() -> None:
    assert type(sr.COMPILED) is bool
    # All of them or none: a build never mixes compiled and pure rule modules.
    assert {_is_extension(name) for name in _module_names()} == {sr.COMPILED}
    assert "COMPILED" in sr.__all__


def test_the_expected_build_is_running() -> None:
    # CI sets SHOCK_RULES_EXPECT_COMPILED for each of its two runs, so that a compiled run
    # that silently imported the pure sources fails instead of testing the pure build twice.
    expected = os.environ.get("SHOCK_RULES_EXPECT_COMPILED")
    if expected is not None:
        assert sr.COMPILED is (expected == "1")


def test_the_state_is_native_exactly_in_the_compiled_build() -> None:
    src = ROOT / "src"
    assert all((src / m).is_file() for m in COMPILED_MODULES)
    assert "shock_rules/_rules/state.py" in COMPILED_MODULES
    from shock_rules._rules.draft import draft
    from shock_rules._rules.state import FIELDS, NATIVE

    assert NATIVE is sr.COMPILED
    s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(1))
    # Native: no attribute dict, the fields in slots; pure: the fields in the dict.
    assert hasattr(s, "__dict__") is not sr.COMPILED
    if not sr.COMPILED:
        assert list(vars(s)) == list(FIELDS)
    w = draft(s)
    after = w.freeze()
    # A draft frozen unchanged is the same state one step on, with no events.
    assert after == s and after is not s
    assert (after.step, after.events) == (s.step + 1, ())
    if not sr.COMPILED:
        assert vars(w) is vars(after) is not vars(s)  # the draft's dict went to the new state


def test_the_hook_compiles_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SHOCK_RULES_COMPILE", raising=False)
    assert HOOK["compile_requested"]() is False
    monkeypatch.setenv("SHOCK_RULES_COMPILE", "1")
    assert HOOK["compile_requested"]() is True


def test_only_a_compiled_build_asks_for_mypy(monkeypatch: pytest.MonkeyPatch) -> None:
    import hatchling.build

    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("SHOCK_RULES_COMPILE", raising=False)
    assert hatchling.build.get_requires_for_build_wheel() == []
    monkeypatch.setenv("SHOCK_RULES_COMPILE", "1")
    needs = hatchling.build.get_requires_for_build_wheel()
    assert "mypy>=1.8" in needs and "setuptools>=61" in needs


def _requirements(extras: dict[str, list[str]], name: str) -> set[str]:
    """Return the requirements an extra brings, through the extras it names
    (``shock-rules[cli,server]``)."""
    found: set[str] = set()
    for req in extras[name]:
        own = re.fullmatch(r"shock-rules\[(.+)\]", req)
        if own is None:
            found.add(req)
        else:
            for extra in own.group(1).split(","):
                found |= _requirements(extras, extra)
    return found


def test_all_brings_every_other_extra_so_that_no_test_skips() -> None:
    # README's test command installs [test,all]: an extra left out of [all] (as [docs] was, so
    # that the docs' pictures went untested) would skip its tests with no one noticing.
    with open(ROOT / "pyproject.toml", "rb") as f:
        extras: dict[str, list[str]] = tomllib.load(f)["project"]["optional-dependencies"]
    everything = _requirements(extras, "all")
    for name in set(extras) - {"all", "test", "dev"}:  # test tools; dev is [test,all]
        assert _requirements(extras, name) <= everything, f"[all] leaves out [{name}]"
    assert _requirements(extras, "dev") == _requirements(extras, "test") | everything
