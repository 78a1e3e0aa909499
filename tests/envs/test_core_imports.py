"""The core and ``shock_rules.envs`` never import an adapter's framework (nor numpy)."""

from __future__ import annotations

import subprocess
import sys

FRAMEWORKS = ("gymnasium", "numpy", "open_spiel", "pettingzoo", "pyspiel")


def test_importing_the_core_and_envs_loads_no_framework() -> None:
    # A fresh interpreter: this test process may have loaded the frameworks already.
    code = (
        "import sys, shock_rules, shock_rules.envs, shock_rules.bots, shock_rules.record\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FRAMEWORKS!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
