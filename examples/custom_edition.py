"""Custom edition: load card data from a TOML file and play games with it.

What it shows: card data is data, not code. ``Edition.load`` reads and validates an edition
file (a bad file raises ``EditionError`` naming what is wrong); a ``GameConfig`` carries it;
the engine, the views and the records all follow it. Here a heuristic bot plays three random
bots with the house edition of ``custom_edition.toml`` and with the default one, and the
record of a game names its edition so that it replays the same.

    python examples/custom_edition.py
"""

from __future__ import annotations

import random
from pathlib import Path

import shock_rules as sr

HERE = Path(__file__).resolve().parent


def average_winning_score(edition: sr.Edition, games: int = 20) -> float:
    config = sr.GameConfig(players=4, edition=edition)
    bots: list[sr.Bot] = [sr.HeuristicBot(), sr.RandomBot(), sr.RandomBot(), sr.RandomBot()]
    total = 0
    for seed in range(games):
        final = sr.play_game(config, bots, random.Random(seed))
        total += max(sr.scores(final))
    return total / games


def main() -> None:
    house = sr.Edition.load(HERE / "custom_edition.toml")
    print(f"edition {house.name!r}: poison types {', '.join(house.poison_types)}")
    for edition in (sr.Edition.default(), house):
        print(f"{edition.name}: the winner scores {average_winning_score(edition):.1f} "
              f"gems on average over 20 games")

    # A record of a game with the house edition replays to the same end.
    config = sr.GameConfig(players=3, edition=house, first_leader=0)
    actions: list[sr.Action] = []
    final = sr.random_playout(config, random.Random(7), actions)
    record = sr.record_game(config, actions, result=True)
    again = sr.replay(sr.parse_record(sr.format_record(record)))[-1]
    print(f"a recorded house game replays to scores {list(sr.scores(again))}: "
          f"{'same' if again == final else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
