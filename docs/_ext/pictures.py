"""Sphinx extension: the pictures of the players' page, drawn by ``shock_rules.svg`` at build
time from positions the engine reaches.

``{shock-picture} NAME`` puts the picture NAME in the page as inline SVG. Every picture comes from
one scripted game of four players (the deal below, diamonds trump), played through the engine:
each scene applies its actions and checks that the step did what the page's text says
(a trick won, a poison covered, a shock...), so a change of the rules that would make the text
wrong stops the build instead of drawing a different picture.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective

import shock_rules as sr
from shock_rules import svg

HANDS = (
    "10H 7S 2H 1C 2C 3C 4C 6C 8C",
    "3H 9S 1H 5H 1S 2S 3S 4S 9C",
    "4H 5C 7H 8H 9H 1D 2D 3D 4D",
    "6H 8S 5S 6S 10S 5D 6D 8D 9D",
)

#: The game, step by step: each scene's name, the actions that lead to it from the previous
#: scene, and the events its last step must have produced.
SCRIPT: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("deal", "", ("TrumpRevealed",)),
    ("trick", "play 10H; play 3H; play 4H", ("CardPlayed",)),
    ("won", "play 6H", ("CardPlayed", "TrickWon")),
    ("chest", "chest P:jellyfish", ("ChestRevealed", "GemsGained")),
    ("potion", "stop; play 7S; play 9S; play 5C; play 8S",
     ("CardPlayed", "TrickWon", "PoisonTaken", "PotionTaken", "PoisonCovered")),
    ("shock", "chest P:bee; stop; play 5H; play 7H; play 5D; play 2H",
     ("CardPlayed", "TrickWon", "PoisonTaken", "Shocked")),
    ("withdraw", "withdraw 8C", ("Withdrew", "CardPlayed")),
    ("round-end", "play 1S; withdraw 1D; down 9D; chest G2/1; stop",
     ("ChestStopped", "GemsBanked", "RoundEnded", "RoundStarted")),
)

#: Whose view each scene is drawn from (``None``: a spectator's).
SEATS: dict[str, int | None] = {
    "deal": 0, "trick": 3, "won": 0, "chest": 0, "potion": 1, "shock": None, "withdraw": 0,
    "round-end": 1,
}


def _scenes() -> dict[str, sr.State]:
    state = sr.deal_hands(sr.new_game(sr.GameConfig(players=4, first_leader=0)), list(HANDS),
                          trump="10D")
    scenes = {}
    for name, actions, expected in SCRIPT:
        if actions:
            state = sr.apply_all(state, actions)
        got = tuple(type(e).__name__ for e in state.events)
        if got != expected:
            raise ExtensionError(f"picture {name!r}: the step made {got}, the page says"
                                 f" {expected}: update docs/play.md and this script")
        scenes[name] = state
    return scenes


def _pictures() -> dict[str, Callable[[], str]]:
    scenes = _scenes()
    out: dict[str, Callable[[], str]] = {
        "cards": lambda: svg.hand("2H 3S 4D 10C 7H 7S 7D 5C 7C"),
    }
    # The view of docs/api/svg.md's notebook session (the same deal and seed).
    first = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4, first_leader=0)),
                              random.Random(2026))
    out["notebook"] = lambda: svg.view(sr.view(first, 0))
    for name, seat in SEATS.items():
        out[name] = functools.partial(_draw, scenes[name], seat)
    out["melvin-match"] = _melvin_match
    return out


def _melvin_match() -> str:
    """Melvin Vs. Kronk: a spectator's view of four players' piles with two equal faces on top
    (a match), from a real position of the engine after a scripted start."""
    from shock_rules import melvin as mk

    state = mk.apply(mk.new_game(mk.GameConfig(players=4)), mk.ChooseDealer(3))
    for action in ("0 flip", "reveal V7", "1 flip", "reveal V2", "2 flip", "reveal V9",
                   "3 flip", "reveal V2"):
        state = mk.apply(state, mk.parse_action(action))
    if not mk.match_shows(state):
        raise ExtensionError(f"picture 'melvin-match': no match shows ({state.tops()})")
    return svg.view(mk.spectator_view(state))


def _draw(state: sr.State, seat: int | None) -> str:
    return svg.view(sr.spectator_view(state) if seat is None else sr.view(state, seat))


class ShockPicture(SphinxDirective):
    """``{shock-picture} NAME``: the named picture, inline."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        pictures = self.env.app.shock_pictures  # type: ignore[attr-defined]
        if name not in pictures:
            raise self.error(f"no picture {name!r}: expected one of {sorted(pictures)}")
        html = f'<div class="shock-picture" data-picture="{name}">{pictures[name]()}</div>'
        return [nodes.raw("", html, format="html")]


def setup(app: Sphinx) -> dict[str, Any]:
    app.shock_pictures = _pictures()  # type: ignore[attr-defined]
    app.add_directive("shock-picture", ShockPicture)
    app.add_css_file("pictures.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
