"""Shared test configuration: Hypothesis profiles.

``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) runs enough examples to matter, derandomized so
that the gate gives the same verdict on the same code; the default ``dev`` profile is quicker
and random, so local runs keep exploring new examples. Neither has a deadline: timings belong
in ``benchmarks/``, never in pass/fail tests.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow],
    print_blob=True, derandomize=True,
)
settings.register_profile(
    "dev", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
