"""Write real protocol documents of whole seeded games, for checking the JSON Schemas and the
TypeScript types from outside Python (web/scripts/validate.mjs and documents-ts.mjs).

    python web/scripts/documents.py OUTDIR [--every K]

Plays one game each of 3, 4 and 5 players through a :class:`shock_rules.protocol.Table`, the
seats sending action documents as a remote client would (each one of its view's legal actions,
picked at random), and writes every kind of document the protocol has, one JSON document a
line, in ``OUTDIR/<type>.jsonl``:

- ``view``: every seat's and the spectator's view at every K-th step (default 1: every step,
  chance steps included), replayed from the game's record;
- ``state``: the state at every K-th step (every fifth without its events);
- ``action``: every action sent (with the step of the view it was decided on, without it, or as
  its notation alone), and every action of the record (chance outcomes included) as the package
  writes it;
- ``events``: what each seat missed since its last decision, every seat's and the spectator's
  whole game, and the events of single steps as the package writes them (without steps);
- ``error``: the answers to real mistakes: a wrong turn, a stale step, a malformed message, an
  unreadable action, no such seat, an illegal action, an action after the game's end (and the
  answers of a host that cannot act now and of a host's bug), and a slap that lost a race at
  a Melvin table (``too_late``);
- ``record``, ``config``: each game's record (whole, with headers, and cut short) and config.

``OUTDIR/summary.json`` counts them, with the event kinds, action kinds, error codes and phases
the documents hold, so that a test can tell that the games reached every corner.

The games are seeded: the same package writes the same documents.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import shock_rules as sr
from shock_rules import melvin, protocol

Doc = dict[str, Any]

#: The seed of each game, by number of players: seeds whose games reach every event, action
#: kind and phase between them (a trick abandoned, a potion's cover choice...). Should a change
#: of the rules move the games away from a corner, more games are played (see all_games).
SEEDS = {3: 3, 4: 33, 5: 7}

#: How many further games all_games may play, at most, looking for what is missing.
EXTRA_GAMES = 60

#: What the documents must hold between them: every event, action kind and phase.
EVENT_KINDS = frozenset(
    name for name in dir(sr) if isinstance(getattr(sr, name), type)
    and issubclass(getattr(sr, name), sr.Event) and getattr(sr, name) is not sr.Event)
ACTION_KINDS = frozenset(k.value for k in sr.ActionKind)
PHASES = frozenset(p.name.lower() for p in sr.Phase)

#: Every number card, to find one that a seat does not hold (an illegal play).
ALL_CARDS = [f"{rank}{suit}" for suit in "HSDC" for rank in range(1, 12)]


def custom_edition() -> sr.Edition:
    """The default card data under another name: a config then embeds it (not "default")."""
    data = sr.Edition.default().to_dict()
    data["edition"] = {"name": "documents", "provisional": True,
                       "description": "The default data, embedded by web/scripts/documents.py."}
    return sr.Edition.from_dict(data)


def configs() -> list[sr.GameConfig]:
    """The configs of the games (the 4-player one embeds a custom edition, so that the schema
    and the type of an embedded edition are checked on a real one too)."""
    return [
        sr.GameConfig(players=3, first_leader=0),
        sr.GameConfig(players=4, edition=custom_edition()),
        sr.GameConfig(players=5, variant=sr.Variant.SIMPLIFIED),
    ]


def reached(table: protocol.Table) -> set[str]:
    """The events, action kinds and phases of a game (from its record)."""
    found: set[str] = set()
    for state in sr.replay(table.record()):
        found.add(state.phase.name.lower())
        found.update(type(e).__name__ for e in state.events)
        # What a seat sees of another's secret cards.
        found.update(type(e).__name__ for e in sr.view(state, 0).events)
    found.update(a.kind.value for a in table.record().actions)
    return found


def all_games(docs: Documents) -> list[protocol.Table]:
    """Play the seeded game of each config; then, while something of EVENT_KINDS,
    ACTION_KINDS or PHASES is still missing, further seeded games, keeping those that reach
    some of it (a game that adds nothing writes no documents)."""
    wanted = set(EVENT_KINDS | ACTION_KINDS | PHASES)
    tables = []
    for config in configs():
        tables.append(play(config, SEEDS[config.players], docs))
        wanted -= reached(tables[-1])
    for extra in range(EXTRA_GAMES):
        if not wanted:
            break
        config = configs()[extra % 3]
        trial = Documents()
        table = play(config, 1000 + extra, trial)
        if wanted & reached(table):
            wanted -= reached(table)
            tables.append(table)
            docs.extend(trial)
    if wanted:
        print(f"documents: no game reached {sorted(wanted)}", file=sys.stderr)
    return tables


class Documents:
    """The documents written so far, by type."""

    def __init__(self) -> None:
        self.by_type: dict[str, list[Doc]] = {}

    def add(self, doc: dict[str, object]) -> None:
        kind = doc["type"]
        assert isinstance(kind, str)
        self.by_type.setdefault(kind, []).append(doc)

    def extend(self, other: Documents) -> None:
        for kind, items in other.by_type.items():
            self.by_type.setdefault(kind, []).extend(items)

    def refused(self, table: protocol.Table, attempt: Callable[[], object],
                code: str, *, with_step: bool = True) -> None:
        """Write the error document of a mistake, which must be refused with ``code``."""
        try:
            attempt()
        except Exception as exc:  # the host's answer to any exception: an error document
            doc = protocol.error_document(exc, table.step if with_step else None)
            if doc["code"] != code:
                raise AssertionError(f"expected {code}, got {doc}") from exc
            self.add(doc)
        else:
            raise AssertionError(f"the table took a mistake that should be {code}")


def choose(actions: list[Doc], rng: random.Random) -> Doc:
    """A random legal action, mostly not a withdrawal (random withdrawals end rounds early and
    leave the later phases unvisited)."""
    stay = [a for a in actions if a["kind"] != "withdraw"]
    return rng.choice(stay if stay and rng.random() < 0.9 else actions)


def play(config: sr.GameConfig, seed: int, docs: Documents) -> protocol.Table:
    """Play one game with seats sending action documents; write what they send and receive."""
    rng = random.Random(seed)
    table = protocol.Table(config, rng=random.Random(seed))
    n = config.players
    docs.add(sr.to_dict(config))
    last_seen = dict.fromkeys(range(n), -1)
    turn = 0
    while not table.is_over:
        seat = table.to_act
        assert seat is not None
        view: Doc = table.view_document(seat)
        docs.add(table.events_document(seat, last_seen[seat]))
        last_seen[seat] = table.step
        choice = choose(view["legal_actions"], rng)
        message: Doc = {"schema": sr.SCHEMA, "type": "action", "step": table.step, **choice}
        if turn % 10 == 0:
            provoke(table, seat, view, message, docs)
        # The three forms a client may send: the choice with its step, without it, and the
        # notation alone (each one a real message that the table takes).
        if turn % 3 == 1:
            del message["step"]
        elif turn % 3 == 2:
            message = {"schema": sr.SCHEMA, "type": "action", "step": table.step,
                       "notation": choice["notation"]}
        docs.add(message)
        table.act(seat, message)
        turn += 1
    docs.refused(table, lambda: table.act(0, "play 2H"), "game_over")
    return table


def provoke(table: protocol.Table, seat: int, view: Doc, message: Doc, docs: Documents) -> None:
    """Send the table the mistakes clients make, each refused with its error document."""
    n = len(view["seats"])
    other = (seat + 1) % n
    docs.refused(table, lambda: table.act(other, message), "not_your_turn")
    docs.refused(table, lambda: table.act(seat, {**message, "step": table.step - 1}),
                 "stale_step")
    docs.refused(table, lambda: protocol.read_document('{"schema": "shock-rules/2", "type"'),
                 "bad_document")
    docs.refused(table, lambda: table.act(seat, {"schema": "shock-rules/1", "type": "action",
                                                 "notation": message.get("notation")}),
                 "bad_document", with_step=False)
    docs.refused(table, lambda: table.act(seat, "play 99X"), "bad_notation")
    docs.refused(table, lambda: table.act(seat, {"kind": "play", "seat": 1}), "bad_notation")
    docs.refused(table, lambda: table.act(n + 2, message), "bad_seat")
    missing = next(c for c in ALL_CARDS if c not in view["hand"])
    docs.refused(table, lambda: table.act(seat, f"play {missing}"), "illegal_action")
    # A host that cannot act now (a table server whose database is away): nothing done.
    docs.refused(table, lambda: _away(), "unavailable")
    # A host's bug: reported as an internal error, without its details.
    docs.refused(table, lambda: _fail(), "internal_error")


def lost_race(docs: Documents) -> None:
    """Race two seats of a Melvin table to slap one match, both on the view that showed it:
    the second is refused ``too_late``, naming the first (a real-time game's answer)."""
    table = protocol.Table(melvin.GameConfig(players=3), seed="too-late")
    while not (melvin.match_shows(table.state) and table.state.phase is melvin.Phase.PLAY):
        mover = table.state.to_move
        table.act(mover, f"{mover} flip")
    step = table.step
    first, second = (s for s in range(3) if s != table.state.to_move)
    table.act(first, {"notation": f"{first} slap", "step": step})
    docs.refused(table, lambda: table.act(second, {"notation": f"{second} slap", "step": step}),
                 "too_late")


def _fail() -> None:
    raise RuntimeError("a bug in the host")


def _away() -> None:
    raise protocol.UnavailableError("the database cannot be reached: try again in a moment")


def replayed(table: protocol.Table, docs: Documents, every: int) -> None:
    """Write every seat's and the spectator's view and the state at every ``every``-th step,
    the whole game's events for each seat, and the game's records and actions."""
    record = table.record()
    n = record.config.players
    for state in sr.replay(record):
        if state.step % every:
            continue
        docs.add(sr.to_dict(state, events=state.step % 5 != 0))
        for seat in range(n):
            docs.add(sr.to_dict(sr.view(state, seat)))
        docs.add(sr.to_dict(sr.spectator_view(state)))
        if state.events and state.step % 7 == 0:
            docs.add(sr.to_dict(state.events))  # the events as the package writes them
    for seat in [*range(n), None]:
        docs.add(table.events_document(seat))
    for action in record.actions:
        docs.add(sr.to_dict(action))
    headers = {f"Seat{seat}": f"Player {seat}" for seat in range(n)}
    docs.add(sr.to_dict(sr.record_game(record.config, record.actions, headers, result=True)))
    docs.add(sr.to_dict(sr.GameRecord(record.config, record.actions[: len(record.actions) // 2])))


def summary(docs: Documents) -> dict[str, Any]:
    """Count the documents, and what they hold that a test wants to see covered."""
    events: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for doc in docs.by_type.get("view", []) + docs.by_type.get("events", []):
        events.update(e["event"] for e in doc["events"])
    for doc in docs.by_type.get("action", []):
        kinds[doc.get("kind", "notation only")] += 1
    for doc in docs.by_type.get("view", []):
        kinds.update(a["kind"] for a in doc["legal_actions"])
    return {
        "counts": {kind: len(items) for kind, items in sorted(docs.by_type.items())},
        "event_kinds": dict(sorted(events.items())),
        "action_kinds": dict(sorted(kinds.items())),
        "error_codes": dict(sorted(Counter(d["code"] for d in docs.by_type["error"]).items())),
        "phases": sorted({d["phase"] for d in docs.by_type["state"]}),
        "missing": sorted((EVENT_KINDS | ACTION_KINDS | PHASES)
                          - set(events) - set(kinds) - {d["phase"] for d in docs.by_type["state"]}),
        "players": sorted({d["players"] for d in docs.by_type["config"]}),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--every", type=int, default=1,
                        help="write views and states at every K-th step only (default: 1)")
    args = parser.parse_args(argv)
    if args.every < 1:
        parser.error("--every must be 1 or more")
    docs = Documents()
    for table in all_games(docs):
        replayed(table, docs, args.every)
    lost_race(docs)
    args.outdir.mkdir(parents=True, exist_ok=True)
    for old in args.outdir.glob("*.jsonl"):
        old.unlink()  # a type no longer written must not linger from an earlier run
    for kind, items in docs.by_type.items():
        with (args.outdir / f"{kind}.jsonl").open("w", encoding="utf-8") as out:
            for doc in items:
                out.write(json.dumps(doc) + "\n")
    info = summary(docs)
    (args.outdir / "summary.json").write_text(json.dumps(info, indent=2) + "\n", "utf-8")
    print(json.dumps(info["counts"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
