"""The guide's promise for states changed by hand, swept: whatever field of whatever phase is
forged, with whatever bad value, no public reader of a state hangs or lets out an exception
that is not a ``ShockError`` (``tests/tools/compare_builds.py`` also compares the builds)."""

from __future__ import annotations

import shock_rules as sr
from tools.compare_builds import BAD, sweep


def test_no_forged_field_hangs_or_escapes_as_a_raw_exception() -> None:
    results = sweep(games=3, seed=5)
    broken = sorted((k, v) for k, v in results.items() if v == "HANG" or v.startswith("RAW-"))
    assert not broken, broken[:20]
    # The sweep reached every phase and forged every field with every bad value.
    keys = [k.split("|") for k in results]
    assert {phase for _, phase, *_ in keys} == {p.name for p in sr.Phase}
    assert {field for _, _, field, *_ in keys} >= {"phase", "pool_mask", "status", "trick"}
    assert {int(j) for *_, j, _ in keys} == set(range(len(BAD)))
    # Typed errors and real results both occur: the readers were really called. In the
    # compiled build values of the wrong kind made no state (the constructor refused them), and
    # only those; the pure build made every state.
    assert {"OK", "InvalidStateError"} <= set(results.values())
    refused = {k for k, v in results.items() if k.endswith("|State")}
    assert bool(refused) is sr.COMPILED
    assert all(results[k] == "InvalidStateError" for k in refused)
    assert not any(k.endswith("|State") for k in results if "|phase|" in k
                   and isinstance(BAD[int(k.split("|")[3])], sr.Phase))
