"""``shock-rules melvin demo|simulate``: Melvin Vs. Kronk from the command line, a shorthand.

``shock-rules melvin demo ...`` is ``shock-rules demo --game melvin ...`` and ``shock-rules
melvin simulate ...`` is ``shock-rules simulate --game melvin ...``, with the same options
(:mod:`shock_rules.cli.demo`, :mod:`shock_rules.cli.simulate`).
"""

from __future__ import annotations

import argparse

from . import demo, simulate
from ._args import Parser

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``melvin`` sub-command and its own ``demo`` and ``simulate``."""
    p = sub.add_parser("melvin", help="Melvin Vs. Kronk: demo or simulate (shorthand for"
                                      " --game melvin)",
                       description="Melvin Vs. Kronk, the second game: a demo or a simulation"
                                   " (the same as demo --game melvin, simulate --game melvin).")
    inner = p.add_subparsers(dest="melvin_command", required=True, parser_class=Parser)
    demo.register(inner, game="melvin")
    simulate.register(inner, game="melvin")
