"""Give public objects their public path.

The package's classes and functions are defined in private modules (``shock_rules._rules.state``
and so on) and re-exported by a public one. :func:`publish` sets their ``__module__`` to the
public module, so that tracebacks, ``repr`` and the API docs say ``shock_rules.State`` and
``shock_rules.IllegalActionError``, never a private path. Pickling still works: the public
module holds every published name.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping

__all__ = ["PUBLIC_MODULES", "publish"]

#: The package's public modules: an object already shown under one of these keeps its path.
PUBLIC_MODULES = frozenset({
    "shock_rules", "shock_rules.bots", "shock_rules.cli", "shock_rules.protocol",
    "shock_rules.record", "shock_rules.simulation", "shock_rules.envs", "shock_rules.server",
    "shock_rules.envs.pettingzoo", "shock_rules.envs.openspiel", "shock_rules.envs.gymnasium",
    "shock_rules.melvin", "shock_rules.games",
})


def publish(module: str, namespace: Mapping[str, object], names: Iterable[str]) -> None:
    """Set ``__module__`` to ``module`` for the classes and functions of ``names`` that are
    defined below ``module`` in a module that is not public itself.

    In the compiled build (:data:`shock_rules.COMPILED`) the functions of the compiled modules
    are built-in functions, whose ``__module__`` is set alike."""
    for name in names:
        obj = namespace[name]
        if not (inspect.isclass(obj) or inspect.isfunction(obj) or inspect.isbuiltin(obj)):
            continue
        home = getattr(obj, "__module__", None)
        if not isinstance(home, str):
            continue
        if home.startswith(module + ".") and home not in PUBLIC_MODULES:
            obj.__module__ = module
