"""Real-time tables (Melvin Vs. Kronk) at the protocol's host: actions judged against the
state they meet, races lost answered ``too_late`` (M5, M22, M27), and the fairness policy's
judge with an injected clock: lag compensation within a window, arrival order beyond it, a
held flip, the claim rate limit and round-trip estimates. Every time here is given, so each
test states the exact outcome the policy promises."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
import referencing

from shock_rules import InvalidArgumentError, games
from shock_rules import melvin as mk
from shock_rules.protocol import SCHEMA_NAMES as PROTOCOL_SCHEMAS
from shock_rules.protocol import (
    ClaimLimit,
    FairnessPolicy,
    RaceJudge,
    RoundTrip,
    StaleStepError,
    Table,
    TooLateError,
    error_document,
    schema,
)

MELVIN = games.get("melvin")


def _contested(state: mk.State) -> bool:
    return bool(MELVIN.contested(state))


def race_table(*, covering: bool, players: int = 3) -> Table:
    """A table whose state shows a match, where the seat to move's next card covers it
    (``covering``) or leaves a match showing; found over seeds (chance is drawn from the seed
    and the step, so a probe table from the same state draws the same card)."""
    for n in range(500):
        seed = f"race{n}"
        table = Table(mk.GameConfig(players=players), seed=seed)
        for _ in range(40):
            state = table.state
            if state.phase is not mk.Phase.PLAY or state.to_move is None:
                break
            if _contested(state):
                probe = Table(state=state, seed=seed)
                probe.act(state.to_move, mk.Flip(state.to_move))
                if _contested(probe.state) != covering:
                    return table
                break
            table.act(state.to_move, mk.Flip(state.to_move))
    raise AssertionError("no such table in 500 seeds")


def slapper(table: Table, *avoid: int) -> int:
    """A seat still in the game that is neither the seat to move nor one of ``avoid``."""
    state = table.state
    return next(s for s in range(state.players)
                if state.in_game[s] and s != state.to_move and s not in avoid)


def validator() -> jsonschema.Draft202012Validator:
    schemas = [schema(name) for name in PROTOCOL_SCHEMAS]
    registry: referencing.Registry[Any] = referencing.Registry().with_resources(
        (s["$id"], referencing.Resource.from_contents(s)) for s in schemas)
    return jsonschema.Draft202012Validator(schema("error"), registry=registry)


# -- the table: judged against the state the action meets ---------------------------------


def test_the_loser_of_a_slap_race_is_too_late_naming_the_winner() -> None:
    # M5: the first applied slap after a match wins; the other was legal on its view.
    table = race_table(covering=False)
    k = table.step
    first, second = slapper(table), slapper(table, slapper(table))
    table.act(first, {"notation": f"{first} slap", "step": k})
    assert table.state.award is not None and table.state.award.winner == first
    with pytest.raises(TooLateError) as caught:
        table.act(second, {"notation": f"{second} slap", "step": k})
    assert caught.value.winner == first and caught.value.sent == k
    doc = error_document(caught.value, table.step)
    assert doc["code"] == "too_late" and doc["winner"] == first
    assert doc["message"] == (f"'{second} slap' is too late: seat {first} came first"
                              f" ('{first} slap')")
    validator().validate(json.loads(json.dumps(doc)))


def test_a_flip_that_covered_the_match_makes_a_slap_too_late_not_a_wrong_slap() -> None:
    # M27: a wrong slap is a slap with no match; this seat saw one, so it costs nothing.
    table = race_table(covering=True)
    k, mover = table.step, table.state.to_move
    assert mover is not None
    seat = slapper(table)
    table.act(mover, {"notation": f"{mover} flip", "step": k})
    assert not _contested(table.state)
    before = table.state
    with pytest.raises(TooLateError) as caught:
        table.act(seat, {"notation": f"{seat} slap", "step": k})
    assert caught.value.winner == mover
    assert table.state is before and table.state.penalties[seat] == ()


def test_a_slap_with_no_step_is_judged_in_arrival_order_a_wrong_slap_then() -> None:
    # M27: with no view said, the slap meets a state with no match: a Penalty card (R8).
    table = race_table(covering=True)
    mover = table.state.to_move
    assert mover is not None
    seat = slapper(table)
    table.act(mover, f"{mover} flip")
    table.act(seat, f"{seat} slap")
    assert len(table.state.penalties[seat]) == 1


def test_a_slap_decided_on_an_older_view_that_still_meets_a_match_wins_it() -> None:
    # Not refused as stale: a flip that left a match showing does not end the race.
    table = race_table(covering=False)
    k, mover = table.step, table.state.to_move
    assert mover is not None
    seat = slapper(table)
    table.act(mover, {"notation": f"{mover} flip", "step": k})
    assert _contested(table.state) and table.step > k
    table.act(seat, {"notation": f"{seat} slap", "step": k})
    assert table.state.award is not None and table.state.award.winner == seat


def test_a_message_sent_twice_plays_once() -> None:
    table = race_table(covering=False)
    k, seat = table.step, slapper(table)
    table.act(seat, {"notation": f"{seat} slap", "step": k})
    with pytest.raises(StaleStepError, match="applied already"):
        table.act(seat, {"notation": f"{seat} slap", "step": k})


def test_a_step_not_reached_yet_is_refused() -> None:
    table = race_table(covering=False)
    seat = slapper(table)
    with pytest.raises(StaleStepError):
        table.act(seat, {"notation": f"{seat} slap", "step": table.step + 1})


def test_turn_based_tables_keep_refusing_stale_steps() -> None:
    import shock_rules as sr

    table = Table(sr.GameConfig(players=3, first_leader=0), seed="s")
    legal = table.view_document(0)["legal_actions"]
    assert isinstance(legal, list)
    table.act(0, {**legal[0], "step": table.step})
    with pytest.raises(StaleStepError):
        table.act(1, {"notation": "play 2H", "step": table.step - 1})
    assert table.state_at(table.step - 1) is None  # a turn-based table keeps no history


# -- the judge: lag compensation with an injected clock ------------------------------------


def judged(table: Table, fairness: FairnessPolicy, rtts: dict[int, float]) -> RaceJudge:
    """A judge that showed every seat the table's current (contested) view at time 0."""
    judge = RaceJudge(MELVIN, fairness)
    for seat, rtt in rtts.items():
        judge.round_trip(seat, rtt)
        judge.shown(seat, table.step, 0.0)
    return judge


def settle(judge: RaceJudge, table: Table, now: float) -> list[tuple[int, str]]:
    """Apply what the judge gives back at ``now``: each seat with ``"applied"`` or the
    error's code."""
    out = []
    while (a := judge.next(table, now)) is not None:
        try:
            table.act(a.seat, a.action, step=a.step)
            out.append((a.seat, "applied"))
        except Exception as exc:
            out.append((a.seat, str(error_document(exc)["code"])))
    return out


def lagged(rtt: float, reaction: float) -> float:
    """When a slap arrives: half the round trip down, the reaction, half back up."""
    return rtt / 2 + reaction + rtt / 2


def test_the_slower_connection_that_reacted_faster_wins_within_the_window() -> None:
    # Seat A has 20 ms of round trip and reacts in 250 ms; seat B has 150 ms and reacts in
    # 200 ms. A's slap arrives first (270 ms against 350 ms), but B won at the table.
    table = race_table(covering=False)
    a, b = slapper(table), slapper(table, slapper(table))
    judge = judged(table, FairnessPolicy(), {a: 0.020, b: 0.150})
    k = table.step
    judge.arrive(table, a, mk.Slap(a), k, lagged(0.020, 0.250), rtt=0.020)
    # Held: B could still arrive with a smaller reaction until 150 ms + 250 ms.
    assert settle(judge, table, 0.27) == []
    assert judge.deadline(table) == pytest.approx(0.40)
    at = lagged(0.150, 0.200)
    judge.arrive(table, b, mk.Slap(b), k, at, rtt=0.150)
    assert [judge.reaction(table, x) for x in judge.held] == [pytest.approx(0.25),
                                                              pytest.approx(0.20)]
    assert settle(judge, table, at) == [(b, "applied"), (a, "too_late")]
    assert table.state.award is not None and table.state.award.winner == b


def test_the_arrival_policy_gives_the_race_to_the_first_slap_to_arrive() -> None:
    table = race_table(covering=False)
    a, b = slapper(table), slapper(table, slapper(table))
    judge = judged(table, FairnessPolicy("arrival"), {a: 0.020, b: 0.150})
    k = table.step
    judge.arrive(table, a, mk.Slap(a), k, lagged(0.020, 0.250), rtt=0.020)
    assert settle(judge, table, 0.27) == [(a, "applied")]
    judge.arrive(table, b, mk.Slap(b), k, lagged(0.150, 0.200), rtt=0.150)
    assert settle(judge, table, 0.35) == [(b, "too_late")]


def test_compensation_stops_at_the_window() -> None:
    # B's round trip is 400 ms: only 250 ms of it is given back, so its 200 ms reaction counts
    # as 350 ms, slower than A's 250 ms: A wins, and is applied once B could no longer beat it.
    table = race_table(covering=False)
    a, b = slapper(table), slapper(table, slapper(table))
    judge = judged(table, FairnessPolicy(window=0.25), {a: 0.020, b: 0.400})
    k = table.step
    judge.arrive(table, a, mk.Slap(a), k, lagged(0.020, 0.250), rtt=0.020)
    assert judge.deadline(table) == pytest.approx(0.50)
    assert settle(judge, table, 0.49) == []
    assert settle(judge, table, 0.50) == [(a, "applied")]
    judge.arrive(table, b, mk.Slap(b), k, lagged(0.400, 0.200), rtt=0.400)
    assert settle(judge, table, 0.60) == [(b, "too_late")]


def test_no_action_is_held_longer_than_the_window() -> None:
    # A seat shown the race late (it connected at 0.9 s) cannot hold the first slap for more
    # than the window.
    table = race_table(covering=False)
    a, b = slapper(table), slapper(table, slapper(table))
    judge = judged(table, FairnessPolicy(), {a: 0.0})
    judge.round_trip(b, 0.2)
    judge.shown(b, table.step, 0.9)
    judge.arrive(table, a, mk.Slap(a), table.step, 1.0, rtt=0.0)
    assert judge.deadline(table) == pytest.approx(1.25)


def test_a_flip_that_arrives_first_waits_for_a_slap_that_came_first_at_the_table() -> None:
    # The seat to move (20 ms) flips 260 ms after the match showed, covering it; seat B
    # (150 ms) slapped at 200 ms. The flip is held; B wins; the flip is then too late (M22).
    table = race_table(covering=True)
    mover = table.state.to_move
    assert mover is not None
    b = slapper(table)
    judge = judged(table, FairnessPolicy(), {mover: 0.020, b: 0.150})
    k = table.step
    judge.arrive(table, mover, mk.Flip(mover), k, lagged(0.020, 0.260), rtt=0.020)
    assert settle(judge, table, 0.28) == []
    at = lagged(0.150, 0.200)
    judge.arrive(table, b, mk.Slap(b), k, at, rtt=0.150)
    assert settle(judge, table, at) == [(b, "applied"), (mover, "too_late")]


def test_a_slap_on_a_view_older_than_the_window_is_judged_alone() -> None:
    # The seat to move (no lag) flips 30 ms after the match showed, covering it; it is held
    # while seat B (150 ms) could still have slapped first, then applied. B's slap on the
    # covered match arrives 300 ms after the table left that view: past the 250 ms window,
    # judged on the state it meets alone, a wrong slap (M27).
    table = race_table(covering=True)
    mover = table.state.to_move
    assert mover is not None
    b = slapper(table)
    judge = judged(table, FairnessPolicy(), {mover: 0.0, b: 0.150})
    k = table.step
    judge.arrive(table, mover, mk.Flip(mover), k, 0.03, rtt=0.0)
    assert settle(judge, table, 0.03) == []
    assert judge.deadline(table) == pytest.approx(0.18)
    assert settle(judge, table, 0.18) == [(mover, "applied")]
    for seat in (mover, b):
        judge.shown(seat, table.step, 0.18)
    late = judge.arrive(table, b, mk.Slap(b), k, 0.18 + 0.30, rtt=0.150)
    assert late.step is None
    assert settle(judge, table, 0.48) == [(b, "applied")]
    assert len(table.state.penalties[b]) == 1


def test_a_slap_on_a_view_within_the_window_is_too_late_not_a_penalty() -> None:
    table = race_table(covering=True)
    mover = table.state.to_move
    assert mover is not None
    b = slapper(table)
    judge = judged(table, FairnessPolicy(), {mover: 0.0, b: 0.150})
    k = table.step
    judge.arrive(table, mover, mk.Flip(mover), k, 0.03, rtt=0.0)
    assert settle(judge, table, 0.18) == [(mover, "applied")]
    for seat in (mover, b):
        judge.shown(seat, table.step, 0.18)
    judge.arrive(table, b, mk.Slap(b), k, 0.18 + 0.20, rtt=0.150)
    assert settle(judge, table, 0.38) == [(b, "too_late")]
    assert table.state.penalties[b] == ()


def test_a_step_the_seat_was_never_shown_is_not_honoured() -> None:
    table = race_table(covering=False)
    a = slapper(table)
    judge = RaceJudge(MELVIN)
    assert judge.arrive(table, a, mk.Slap(a), table.step - 1, 0.1).step is None
    assert judge.arrive(table, a, mk.Slap(a), table.step, 0.1).step == table.step


# -- rate limits, round trips, the policy's values -----------------------------------------


def test_flooding_slaps_locks_the_seat_out_for_the_cooldown() -> None:
    limit = ClaimLimit(per_second=3, cooldown=2.0)
    assert [limit.take(1, at=0.0) for _ in range(3)] == [None, None, None]
    assert limit.take(1, at=0.1) == pytest.approx(2.1)  # the fourth in a burst: locked out
    assert limit.take(1, at=2.0) == pytest.approx(2.1)  # still locked (the bucket refilled)
    assert limit.take(2, at=0.1) is None  # another seat is not
    assert limit.take(1, at=2.1) is None
    # Three a second, kept up, is never locked out.
    steady = ClaimLimit(per_second=3, cooldown=2.0)
    assert all(steady.take(0, at=t / 3) is None for t in range(30))


def test_round_trips_are_the_median_of_answered_pings() -> None:
    ids = iter(str(n) for n in range(10))
    rtt = RoundTrip(samples=3, ids=lambda: next(ids))
    assert rtt.estimate is None
    for sent, answered in ((0.0, 0.1), (1.0, 1.12), (2.0, 2.9)):
        assert rtt.pong(rtt.ping(sent), answered)
    assert rtt.estimate == pytest.approx(0.12)  # one late answer does not move it
    assert not rtt.pong("nope", 3.0) and not rtt.pong(None, 3.0)
    capped = RoundTrip(cap=0.5, ids=lambda: "x")
    capped.pong(capped.ping(0.0), 5.0)
    assert capped.estimate == 0.5


@pytest.mark.parametrize("bad", [{"policy": "fastest"}, {"window": -0.1}, {"window": 2.0},
                                 {"window": float("nan")}, {"window": "0.25"}])
def test_a_fairness_policy_refuses_what_it_cannot_mean(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidArgumentError):
        FairnessPolicy(**bad)  # type: ignore[arg-type]
