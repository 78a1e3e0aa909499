"""``python -m shock_rules.cli``: the ``shock-rules`` command."""

from __future__ import annotations

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
