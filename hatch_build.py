"""Build hook: compile the rule modules with mypyc when ``SHOCK_RULES_COMPILE=1`` is set.

A plain ``pip install .`` builds the pure package and needs no compiler; with
``SHOCK_RULES_COMPILE=1 pip install .`` the wheel also holds C extensions of the modules in
:data:`COMPILED_MODULES` (their ``.py`` sources stay in the wheel, next to the extensions, which
Python imports first). The build dependencies of the compiled build (mypy, which ships mypyc,
and setuptools, which drives the C compiler) are asked for only when the switch is on.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The environment variable that turns compilation on ("1", "true" or "yes").
SWITCH = "SHOCK_RULES_COMPILE"

#: The modules compiled by mypyc, as paths below ``src/``: the state and the draft a step is
#: built on (native classes in this build: see ``docs/architecture.md``), the rule modules of a
#: step, the checks that loaders and determinizations run, the search bot with the
#: heuristic policy of its playouts and its determinizations, and the environments'
#: observations (every step of an adapter writes one). ``events.py`` (attrs classes)
#: and ``probability.py`` (a ``Fraction`` subclass that sets a slot in ``__new__``) stay pure.
COMPILED_MODULES = (
    "shock_rules/_rules/bits.py",
    "shock_rules/_rules/tables.py",
    "shock_rules/_rules/engine.py",
    "shock_rules/_rules/trick.py",
    "shock_rules/_rules/chest.py",
    "shock_rules/_rules/poison.py",
    "shock_rules/_rules/round.py",
    "shock_rules/_rules/pick.py",
    "shock_rules/_rules/draft.py",
    "shock_rules/_rules/state.py",
    "shock_rules/_rules/check.py",
    "shock_rules/_info/determinize.py",
    "shock_rules/bots/heuristic.py",
    "shock_rules/bots/mcts.py",
    "shock_rules/envs/_observe.py",
)

_SETUP = """
import sys
from mypyc.build import mypycify
from setuptools import setup
setup(
    name="shock-rules-compiled",
    ext_modules=mypycify(sys.argv[1:], opt_level="3", group_name="shock_rules"),
    script_args=["build_ext", "--inplace"],
)
"""


def compile_requested() -> bool:
    """Return whether the environment asks for the compiled build."""
    return os.environ.get(SWITCH, "").strip().lower() in {"1", "true", "yes"}


class CompileHook(BuildHookInterface):  # type: ignore[misc]
    """Compiles :data:`COMPILED_MODULES` into the wheel when :data:`SWITCH` is set."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        """Return the extra build dependencies: mypy and setuptools for a compiled build."""
        if not compile_requested():
            return []
        # mypyc type-checks the modules, so the runtime dependencies' types must be there too.
        return ["mypy>=1.8", "setuptools>=61", *self.metadata.core.dependencies]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile the modules and add their extensions to the wheel (editable installs and
        sdists stay pure)."""
        if not compile_requested() or self.target_name != "wheel" or version == "editable":
            return
        # The sources are compiled in a copy, so that no extension lands in the source tree
        # (where an editable install or the tests would import it).
        self._work = Path(tempfile.mkdtemp(prefix="shock-rules-mypyc-"))
        work = self._work / "src"
        shutil.copytree(Path(self.root) / "src" / "shock_rules", work / "shock_rules")
        subprocess.run([sys.executable, "-c", _SETUP, *COMPILED_MODULES], cwd=work, check=True)
        built = sorted(
            p for p in work.rglob("*")
            if p.suffix in {".so", ".pyd"} and "build" not in p.relative_to(work).parts
        )
        if not built:
            raise RuntimeError("mypyc produced no extension modules")
        for p in built:
            build_data["force_include"][str(p)] = p.relative_to(work).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the compilation's working copy."""
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
