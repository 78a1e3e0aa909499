"""The examples in the package's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import shock_rules

# The package itself too: the classes it publishes (``__module__ == "shock_rules"``) have their
# docstring examples found there, not in the private module that defines them.
MODULES = ["shock_rules", *sorted(
    name for _, name, _ in pkgutil.walk_packages(shock_rules.__path__, "shock_rules.")
)]

# The modules that need an extra's package (a module, or a package and everything in it);
# without the package their examples are skipped, as with only the [test] extra installed.
NEEDS = {
    "shock_rules.envs.gymnasium": "gymnasium",
    "shock_rules.envs.openspiel": "pyspiel",
    "shock_rules.envs.pettingzoo": "pettingzoo",
    "shock_rules.envs._spaces": "gymnasium",
    "shock_rules.server": "starlette",
}


def _need(name: str) -> str | None:
    """Return the package the module ``name`` needs beyond the core, or None."""
    for prefix, package in NEEDS.items():
        if name == prefix or name.startswith(prefix + "."):
            return package
    return None


def test_the_server_modules_are_skipped_without_starlette() -> None:
    assert _need("shock_rules.server") == _need("shock_rules.server._app") == "starlette"
    assert _need("shock_rules.serverless") is None and _need("shock_rules.record") is None


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    need = _need(name)
    if need is not None and importlib.util.find_spec(need) is None:
        pytest.skip(f"{name} needs {need}")
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest example(s) failed in {name}"
