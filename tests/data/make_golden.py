"""Make the golden games of ``tests/data/golden/``: run ``python tests/data/make_golden.py``.

Each golden game is two files:

- ``<name>.actions``: the configuration as ``key: value`` header lines, a blank line, then
  every action of the game in notation, one per line, chance outcomes included (K6: a game is
  reproduced exactly from its configuration and its actions);
- ``<name>.transcript``: a readable account of the game made from the engine's events
  (:func:`shock_rules.describe_event`), with each hand after dealing and the gems
  after every trick.

``tests/test_golden.py`` replays every ``.actions`` file and compares the transcript it makes
with the stored one. After an intended change of the engine's behaviour or of the transcript's
wording, run this script again and review the diff of ``tests/data/golden/`` before committing.

The seeded games use :class:`random.Random` only to choose the actions written to the
``.actions`` files; replaying never needs the generator.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from shock_rules import (
    Action,
    ActionKind,
    Edition,
    GameConfig,
    GameEnded,
    Phase,
    RoundEnded,
    Shocked,
    State,
    Status,
    TrickAbandoned,
    TrickWon,
    Variant,
    apply,
    deal_hands,
    is_chance,
    is_terminal,
    legal_actions,
    new_game,
    parse_action,
    sample_chance,
)
from shock_rules._notation.transcript import describe_event

__all__ = ["GOLDEN", "parse_actions_file", "play_actions", "render", "write_actions_file"]

#: Where the golden files live.
GOLDEN = Path(__file__).resolve().parent / "golden"

#: A seat in the round withdraws on about one decision in this many in the seeded games.
WITHDRAW_ODDS = 15


# -- the .actions format --------------------------------------------------------------------


def write_actions_file(config: GameConfig, actions: Sequence[Action], title: str) -> str:
    """Return the text of an ``.actions`` file."""
    if config.edition != Edition.default():
        raise ValueError("golden games use the default edition")
    leader = "none" if config.first_leader is None else str(config.first_leader)
    lines = [
        f"# {title}",
        "# Regenerate with: python tests/data/make_golden.py",
        f"players: {config.players}",
        f"variant: {config.variant.value}",
        f"first_leader: {leader}",
        "edition: default",
        "",
        *(str(a) for a in actions),
    ]
    return "\n".join(lines) + "\n"


def parse_actions_file(text: str) -> tuple[GameConfig, list[Action]]:
    """Return the configuration and the actions of an ``.actions`` file's text."""
    header, _, body = text.partition("\n\n")
    fields: dict[str, str] = {}
    for line in header.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"bad header line {line!r}: expected 'key: value'")
        fields[key.strip()] = value.strip()
    if fields.get("edition", "default") != "default":
        raise ValueError("golden games use the default edition")
    leader = fields.get("first_leader", "none")
    config = GameConfig(
        players=int(fields["players"]),
        variant=Variant.parse(fields["variant"]),
        first_leader=None if leader == "none" else int(leader),
    )
    actions = [parse_action(line) for line in body.splitlines() if line.strip()]
    return config, actions


# -- the transcript ---------------------------------------------------------------------------


def _hands(state: State) -> str:
    return "; ".join(
        f"seat {seat}: " + " ".join(str(c) for c in state.hand(seat))
        for seat in range(state.players)
    )


def _gems(state: State) -> str:
    return (f"gems on bags {list(state.on_bag)}, in bags {list(state.in_bag)}, "
            f"supply {state.supply}")


def render(config: GameConfig, actions: Iterable[Action]) -> list[str]:
    """Return the transcript lines of the game played with ``actions`` from a new game."""
    state = new_game(config)
    lines = [
        f"game: {config.players} players, {config.variant.value} variant, "
        f"first leader {'drawn by chance' if config.first_leader is None else config.first_leader}",
    ]
    lines += [f"  {describe_event(e)}" for e in state.events]
    dealt = 0
    for action in actions:
        if action.kind is ActionKind.DEAL:
            state = apply(state, action)
            dealt += 1
            continue
        if dealt:
            lines.append(f"{dealt} cards dealt; hands: {_hands(state)}")
            dealt = 0
        who = "chance" if is_chance(state) else f"seat {state.actor}"
        state = apply(state, action)
        lines.append(f"> {who}: {action}")
        lines += [f"  {describe_event(e)}" for e in state.events]
        if any(isinstance(e, TrickWon | TrickAbandoned | Shocked | RoundEnded | GameEnded)
               for e in state.events):
            lines.append(f"  [{_gems(state)}]")
    if dealt:
        lines.append(f"{dealt} cards dealt; hands: {_hands(state)}")
    if not is_terminal(state):
        lines.append("(the game is not over)")
    return lines


def play_actions(config: GameConfig, actions: Iterable[Action]) -> State:
    """Return the state reached by applying ``actions`` to a new game."""
    state = new_game(config)
    for action in actions:
        state = apply(state, action)
    return state


# -- making the games -------------------------------------------------------------------------


def _bot_action(state: State, rng: random.Random) -> Action:
    if is_chance(state):
        return sample_chance(state, rng)
    legal = legal_actions(state)
    if state.phase is Phase.PLAY and state.status[state.actor] is Status.IN:
        withdraw = rng.randrange(WITHDRAW_ODDS) == 0
        kind = ActionKind.WITHDRAW if withdraw else ActionKind.PLAY
        legal = tuple(a for a in legal if a.kind is kind)
    return rng.choice(legal)


def seeded_game(config: GameConfig, seed: int) -> list[Action]:
    """Return the actions of a whole game chosen with ``random.Random(seed)``."""
    return finish(new_game(config), [], random.Random(seed))


def finish(state: State, actions: list[Action], rng: random.Random) -> list[Action]:
    """Return ``actions`` extended with seeded actions that play ``state`` to the end."""
    while not is_terminal(state):
        action = _bot_action(state, rng)
        actions.append(action)
        state = apply(state, action)
    return actions


def scripted_game() -> list[Action]:
    """Return the actions of a 3-player standard game that hits, in its first two rounds, a
    cover choice (K16), a chest poison shocking several players at once (K21) and everyone
    left in the round withdrawing during a trick (K13); seeded play finishes it."""
    config = GameConfig(players=3, variant=Variant.STANDARD, first_leader=0)
    actions: list[Action] = []

    def run(state: State, steps: str) -> State:
        for text in (t.strip() for t in steps.split(";")):
            if text:
                action = parse_action(text)
                actions.append(action)
                state = apply(state, action)
        return state

    def deal(state: State, hands: list[str], trump: str) -> State:
        # deal_hands chooses the chance outcomes; record them by diffing the hands.
        before = [state.hand_masks[s] for s in range(state.players)]
        after = deal_hands(state, hands, trump=trump)
        state_now = state
        while state_now.phase is Phase.DEAL:
            seat = state_now.actor
            new = after.hand_masks[seat] & ~state_now.hand_masks[seat] & ~before[seat]
            card = min((c for c in after.hand(seat) if c.bit & new), key=lambda c: c.index)
            state_now = run(state_now, f"deal {card}")
        state_now = run(state_now, f"trump {trump}")
        assert state_now == after
        return state_now

    state = new_game(config)
    # Round 1. Seat 0 holds every heart; seats 1 and 2 none, so they may play anything.
    state = deal(state, [
        "2H 3H 4H 5H 6H 7H 8H 9H 10H",
        "2S 3S 4S 5S 6S 7S 8S 9S 10S",
        "2C 3C 4C 5C 6C 8C 9C 10C 2D",
    ], trump="3D")
    # Seat 0 wins 7H (bee) and 7S (jellyfish) with one potion (5C): it chooses what to cover.
    state = run(state, "play 7H; play 7S; play 5C; cover 7H")
    # Its chest: a gem card, then two bee poisons: the second shocks all three at once.
    state = run(state, "chest G1/1; reveal; chest P:bee; reveal; chest P:bee")
    assert state.round == 2
    # Round 2 (standard: hands carry over; one card each is dealt).
    hands = [" ".join(str(c) for c in state.hand(s)) for s in range(3)]
    state = deal(state, [hands[0] + " 4D", hands[1] + " 5D", hands[2] + " 6D"], trump="10D")
    # Seat 2 withdraws at once; seat 0 wins the trick and opens the chest.
    state = run(state, "play 2H; play 2S; withdraw 2C; chest G2/1; stop")
    # Everyone left withdraws: the trick has no winner; seat 2 keeps its card (K13).
    state = run(state, "withdraw 3H; withdraw 3S")
    assert state.round == 3
    return finish(state, actions, random.Random(2024))


def games() -> dict[str, tuple[str, GameConfig, list[Action]]]:
    """Return the golden games by name: (title, configuration, actions)."""
    g3 = GameConfig(players=3, variant=Variant.STANDARD, first_leader=1)
    g4 = GameConfig(players=4, variant=Variant.SIMPLIFIED)
    g5 = GameConfig(players=5, variant=Variant.STANDARD, first_leader=0)
    scripted = GameConfig(players=3, variant=Variant.STANDARD, first_leader=0)
    return {
        "3p-standard": ("3 players, standard variant, seeded play (seed 3)", g3,
                        seeded_game(g3, 3)),
        "4p-simplified": ("4 players, simplified variant, first leader by chance, seeded "
                          "play (seed 4)", g4, seeded_game(g4, 4)),
        "5p-standard": ("5 players, standard variant, seeded play (seed 5)", g5,
                        seeded_game(g5, 5)),
        "3p-scripted": ("3 players, standard: a cover choice, a simultaneous chest shock, "
                        "everyone withdrawing (K13); seeded play (seed 2024) from round 3",
                        scripted, scripted_game()),
    }


def main(argv: Sequence[str] = ()) -> int:
    """Write every golden game's ``.actions`` and ``.transcript`` files."""
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, (title, config, actions) in games().items():
        text = write_actions_file(config, actions, title)
        again, parsed = parse_actions_file(text)
        assert again == config and parsed == actions
        (GOLDEN / f"{name}.actions").write_text(text, encoding="utf-8")
        lines = render(config, actions)
        (GOLDEN / f"{name}.transcript").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {name}: {len(actions)} actions, {len(lines)} transcript lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
