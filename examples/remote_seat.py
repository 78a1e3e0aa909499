"""A remote seat: a host and a player process that talk only in protocol documents.

What it shows: the ``shock-rules/2`` protocol (``shock_rules.protocol``) over a pipe. The host
runs the game in a ``Table`` and starts the remote seat as a child process; they exchange one
JSON document per line on the child's stdin and stdout. The remote seat imports nothing from
``shock_rules``: it reads ``view`` documents (``your_turn``, ``step``, ``legal_actions``),
``events`` documents (what it missed since its last turn, each event with its step) and
``error`` documents, and answers with ``action`` documents built from one of its
``legal_actions`` -- as a client in any language would. Once, on purpose, it sends an action
for an old step, and the host answers with a ``stale_step`` error; the other seats are bots at
the host.

    python examples/remote_seat.py [SEED]          # the host (starts the remote seat)
    python examples/remote_seat.py --seat SEED     # the remote seat (reads stdin)
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

REMOTE = 1  # the seat played by the child process


def remote_seat(seed: int) -> None:
    """The player: read documents from stdin, answer each view that says ``your_turn``."""
    rng = random.Random(seed)
    seen = -1        # the last step this seat has heard of
    mistake = True   # send one stale action, to see the host refuse it
    refused: list[str] = []
    for line in sys.stdin:
        doc: dict[str, Any] = json.loads(line)
        if doc["type"] == "events":
            seen = max([seen, *(e["step"] for e in doc["events"])])
        elif doc["type"] == "error":
            refused.append(doc["code"])  # the host sends the view again: decide on it
        elif doc["type"] == "view":
            seen = doc["step"]
            if doc["phase"] == "over":
                print(json.dumps({"refused": refused, "last_step": seen}), flush=True)
                return
            if doc["your_turn"]:
                choice = rng.choice(doc["legal_actions"])  # {"notation", "kind", "card"...}
                step = doc["step"] - 1 if mistake else doc["step"]
                mistake = False
                reply = {"schema": doc["schema"], "type": "action", "step": step, **choice}
                print(json.dumps(reply), flush=True)


def host(seed: int) -> None:
    """The host: a Table, bots for the local seats, and the remote seat over a pipe."""
    import shock_rules as sr
    from shock_rules import protocol

    table = protocol.Table(sr.GameConfig(players=4), rng=random.Random(seed))
    bots = [sr.HeuristicBot() for _ in range(4)]
    rng = random.Random(seed)
    child = subprocess.Popen([sys.executable, __file__, "--seat", str(seed)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdin is not None and child.stdout is not None
    sent: dict[str, int] = {}
    told = -1  # the last step the remote seat was told about

    def send(doc: dict[str, object]) -> None:
        assert child.stdin is not None
        sent[str(doc["type"])] = sent.get(str(doc["type"]), 0) + 1
        child.stdin.write(json.dumps(doc) + "\n")
        child.stdin.flush()

    def catch_up() -> None:
        # What happened since the remote seat last heard, as it may see it, then its view.
        nonlocal told
        send(table.events_document(REMOTE, told))
        send(table.view_document(REMOTE))
        told = table.step

    turns = errors = 0
    while not table.is_over:
        seat = table.to_act
        assert seat is not None
        if seat != REMOTE:
            table.act(seat, bots[seat].choose(table.view(seat), rng))
            continue
        catch_up()
        while table.to_act == REMOTE:  # until the remote seat's action is taken
            reply = child.stdout.readline()
            try:
                message = protocol.read_document(reply)
                table.act(REMOTE, message)
                turns += 1
            except sr.ShockError as exc:
                errors += 1
                send(protocol.error_document(exc, table.step))
                send(table.view_document(REMOTE))
    catch_up()  # the end of the game: the remote seat says what it saw, and leaves
    last = json.loads(child.stdout.readline())
    child.stdin.close()
    child.wait(timeout=30)
    print(f"remote seat {REMOTE} took {turns} turns over the pipe; {errors} message refused"
          f" ({', '.join(last['refused'])}); it last heard of step {last['last_step']}")
    print("documents sent to it: " + ", ".join(f"{n} {k}" for k, n in sorted(sent.items())))
    scores = sr.scores(table.state)
    print("final scores: " + " ".join(map(str, scores)) + f" after {table.step} steps")
    print("winners: " + ", ".join(f"seat {s}" for s in sorted(sr.winners(table.state))))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--seat"]:
        remote_seat(int(sys.argv[2]))
    else:
        host(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
