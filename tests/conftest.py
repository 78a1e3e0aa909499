"""Shared test configuration: Hypothesis profiles, and a slow machine's allowance for Ray.

``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) runs enough examples to matter, derandomized so
that the gate gives the same verdict on the same code; ``ci-compiled`` (the compiled build's
run in ``.ci/run``) is as derandomized with fewer examples (60 at most): that run checks that the
two builds agree, the deep search was done by the first; the default ``dev`` profile is quicker
and random, so local runs keep exploring new examples. Neither has a deadline: timings belong
in ``benchmarks/``, never in pass/fail tests.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow],
    print_blob=True, derandomize=True,
)
settings.register_profile(
    "ci-compiled", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow],
    print_blob=True, derandomize=True,
)
settings.register_profile(
    "dev", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# The Ray tests start Ray embedded (and a subprocess or two). On a loaded machine its GCS may
# take longer to come up than Ray's defaults allow (30 s for the GCS port, 5 s per connection
# attempt), which failed a run with "Timed out while waiting for GCS to become available". Ray
# reads these RAY_* settings from the environment of the processes it starts; a value set by
# the person running the tests wins.
os.environ.setdefault("RAY_gcs_server_port_wait_time_s", "180")
os.environ.setdefault("RAY_gcs_rpc_server_connect_timeout_s", "60")


@pytest.fixture
def frozen_heap() -> Iterator[None]:
    """Leave every object made before the test out of the garbage collector's passes
    (``gc.freeze``) until it ends: a test that calls ``gc.collect()`` hundreds of times, so that
    freed memory is reused at once, then scans only its own objects, not the whole suite's heap
    (about 0.1 s a call late in a run). What it collects is the same."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
