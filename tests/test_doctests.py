"""The examples in the package's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import shock_rules

# The package itself too: the classes it publishes (``__module__ == "shock_rules"``) have their
# docstring examples found there, not in the private module that defines them.
MODULES = ["shock_rules", *sorted(
    name for _, name, _ in pkgutil.walk_packages(shock_rules.__path__, "shock_rules.")
)]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest example(s) failed in {name}"
