"""Shared helpers of the scenario tests: scripted deals and step-by-step application.

Every scenario starts from hands chosen with :func:`shock_rules.deal_hands`, so nothing is
random. :func:`run` applies a script like :func:`shock_rules.apply_all` does, but also checks
every invariant (``check_state``) after every step, so a scenario also proves that each
intermediate state is valid.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, TypeVar

import shock_rules as sr
from shock_rules._rules.check import check_state

E = TypeVar("E", bound=sr.Event)

# One suit per seat (4 players, ranks 1-10): nobody but the leader ever holds the lead suit, so
# every card may be played face up at any time, and with clubs as trump seat 3 wins whenever it
# plays face up, while otherwise the first face-up card wins (only its player holds that suit).
SUITS_4 = (
    "1H 2H 3H 4H 5H 6H 7H 8H 9H",
    "1S 2S 3S 4S 5S 6S 7S 8S 9S",
    "1D 2D 3D 4D 5D 6D 7D 8D 9D",
    "1C 2C 3C 4C 5C 6C 7C 8C 9C",
)  # undealt: 10H 10S 10D 10C

# The same for 3 players (ranks 2-10); clubs are all undealt.
SUITS_3 = (
    "2H 3H 4H 5H 6H 7H 8H 9H 10H",
    "2S 3S 4S 5S 6S 7S 8S 9S 10S",
    "2D 3D 4D 5D 6D 7D 8D 9D 10D",
)


def start(
    hands: Sequence[str],
    trump: str,
    *,
    leader: int = 0,
    variant: sr.Variant = sr.Variant.STANDARD,
    edition: sr.Edition | None = None,
) -> sr.State:
    """Return a new game (first leader ``leader``) dealt exactly ``hands``, trump revealed."""
    config = sr.GameConfig(
        players=len(hands), variant=variant, first_leader=leader,
        edition=edition if edition is not None else sr.Edition.default(),
    )
    state = sr.deal_hands(sr.new_game(config), list(hands), trump=trump)
    check_state(state)
    return state


def run(state: sr.State, script: str) -> sr.State:
    """Return the state after the actions of ``script`` (separated by ``;``), checking every
    invariant after each step."""
    for text in (a.strip() for a in re.split(r"[;\n]", script)):
        if text:
            state = sr.apply(state, sr.Action.parse(text))
            check_state(state)
    return state


def events(state: sr.State, kind: type[E]) -> list[E]:
    """Return the events of one kind caused by the step that produced ``state``."""
    return [e for e in state.events if isinstance(e, kind)]


def collect(start_state: sr.State, script: str) -> tuple[sr.State, list[sr.Event]]:
    """Return the state after ``script`` and every event of its steps, in order."""
    out: list[sr.Event] = []
    state = start_state
    for text in (a.strip() for a in re.split(r"[;\n]", script)):
        if text:
            state = sr.apply(state, sr.Action.parse(text))
            check_state(state)
            out.extend(state.events)
    return state, out


def cards(text: str) -> tuple[sr.Card, ...]:
    """Return the cards of a text like ``"7H 5C"``, in card order."""
    return tuple(sorted(sr.parse_cards(text), key=lambda c: c.index))


def mask(text: str) -> int:
    """Return the bitmask of the cards of a text like ``"7H 5C"``."""
    m = 0
    for c in sr.parse_cards(text):
        m |= c.bit
    return m


def acts(text: str) -> tuple[sr.Action, ...]:
    """Return the actions of a text like ``"play 7H; withdraw 5C"``, in the given order."""
    return tuple(sr.Action.parse(a) for a in text.split(";") if a.strip())


def edition_with(**changes: Any) -> sr.Edition:
    """Return the default edition with some top-level sections of its data replaced."""
    data = sr.Edition.default().to_dict()
    for key, value in changes.items():
        if key in data["number_cards"]:
            data["number_cards"][key] = value
        else:
            data[key] = value
    return sr.Edition.from_dict(data)


# Chest cards revealed by seat 3 in the nine tricks of :func:`full_round_script`.
FULL_ROUND_CHEST = ("G3/0",) * 4 + ("G4/0",) * 2 + ("G1/1",) * 3


def full_round_script(leader: int) -> str:
    """Return the script of a whole round on SUITS_4 with clubs as trump, led by seat 0 or 3.

    In trick k every seat plays its card of rank k, so seat 3 wins every trick with a trump:
    it takes 4 gems in each of tricks 1-4 (every card has a gem icon), stores 5C in trick 5,
    takes 7H, 7S, 7D and 7C in trick 7 and covers 7H and 7S with its two potions. Its chest
    cards are ``FULL_ROUND_CHEST`` and it stops after each. Totals, by hand: seat 3 gets
    16 trick gems + 4x3 + 2x4 + 3x1 = 39; seats 0-2 get 1 from each G1/1, 3 each; the supply
    gives 48 (280 -> 232).
    """
    steps = []
    for k in range(1, 10):
        # Seat 3 wins every trick, so it leads all but the first one.
        order = "HSDC" if k == 1 and leader == 0 else "CHSD"
        steps += [f"play {k}{s}" for s in order]
        if k == 7:
            steps += ["cover 7H", "cover 7S"]
        steps += [f"chest {FULL_ROUND_CHEST[k - 1]}", "stop"]
    return "; ".join(steps)
