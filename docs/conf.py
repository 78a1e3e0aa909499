"""Sphinx configuration of the shock_rules documentation.

Build with warnings as errors, as CI does:
``python -m sphinx -W --keep-going -b html docs docs/_build/html``.
"""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import shock_rules  # noqa: E402

project = "shock_rules"
author = "shock_rules developers"
copyright = "2026, shock_rules developers"
release = shock_rules.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "traceability",
    "pictures",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# No network: no intersphinx, and nothing else that fetches at build time.
html_theme = "furo"
html_static_path = ["_static"]
html_title = f"shock_rules {release}"

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}

# The same flags as tests/test_docs_examples.py, which runs these examples under pytest.
doctest_default_flags = doctest.ELLIPSIS
# Docstring examples (shown by autodoc) are run by tests/test_doctests.py in their modules;
# here only the ```{doctest}``` blocks of the pages are run.
doctest_test_doctest_blocks = ""
