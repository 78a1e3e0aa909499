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
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from shock_rules import State

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


@pytest.fixture
def potion_on_poison() -> State:
    """Return the position of the worked example of docs/rules/poisons.md: four players, a
    jellyfish chest poison in the centre, and seat 1 just took 7S with the potion 5C, which
    covers it (POTION-1, POTION-6)."""
    import shock_rules as sr

    hands = ["10H 7S 2H 1C 2C 3C 4C 6C 8C", "3H 9S 1H 5H 1S 2S 3S 4S 9C",
             "4H 5C 7H 8H 9H 1D 2D 3D 4D", "6H 8S 5S 6S 10S 5D 6D 8D 9D"]
    state = sr.deal_hands(sr.new_game(sr.GameConfig(players=4, first_leader=0)), hands,
                          trump="10D")
    return sr.apply_all(state, "play 10H; play 3H; play 4H; play 6H; chest P:jellyfish; stop;"
                               " play 7S; play 9S; play 5C; play 8S")
