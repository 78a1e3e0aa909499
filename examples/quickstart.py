"""Quickstart: one whole game of four random players, printed as a readable transcript.

What it shows: the five calls a game is made of -- ``new_game``, ``legal_actions``,
``apply``, ``sample_chance`` (dealing, the trump card, chest cards and the first leader are
chance steps with exact probabilities) and the events each step leaves on the new state,
turned into English by ``describe_event``. The same seed gives the same game everywhere.

    python examples/quickstart.py [SEED]
"""

from __future__ import annotations

import random
import sys

import shock_rules as sr


def main(seed: int = 1) -> None:
    rng = random.Random(seed)
    state = sr.new_game(sr.GameConfig(players=4, variant=sr.Variant.STANDARD))
    print(sr.describe_event(state.events[0]))  # every state carries its events: "round 1 ..."
    while not sr.is_terminal(state):
        if sr.is_chance(state):
            action = sr.sample_chance(state, rng)       # chance: deal, trump, chest, leader
        else:
            action = rng.choice(sr.legal_actions(state))  # a player: play, withdraw, ...
        state = sr.apply(state, action)   # a new state; the old one is unchanged
        for event in state.events:        # what this step caused
            print(sr.describe_event(event))
    best = ", ".join(f"seat {s}" for s in sorted(sr.winners(state)))
    print(f"final scores {list(sr.scores(state))}; winner(s): {best}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
