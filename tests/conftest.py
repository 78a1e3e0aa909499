"""Shared test configuration: Hypothesis profiles.

``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) runs enough examples to matter; the default
``dev`` profile is quicker for local runs. Neither has a deadline: timings belong in
``benchmarks/``, never in pass/fail tests.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "dev", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
