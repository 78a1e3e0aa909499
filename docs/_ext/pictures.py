"""Sphinx extension: the pictures of the players' page, drawn by ``shock_rules.svg`` at build
time from positions the engine reaches.

``{shock-picture} NAME`` puts the picture NAME in the page as inline SVG. Every picture comes from
one scripted game of four players (the deal below, diamonds trump), played through the engine:
each scene applies its actions and checks that the step did what the page's text says
(a trick won, a poison covered, a shock...), so a change of the rules that would make the text
wrong stops the build instead of drawing a different picture.

``{melvin-picture} NAME`` does the same for Melvin Vs. Kronk's players' page
(``docs/melvin/play.md``): one scripted game of four players, played through
``shock_rules.melvin`` with every chance step given, each part checked against the events the
page tells, in words (``melvin.describe_event``).
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
from shock_rules import melvin as mk
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
    return out


def _draw(state: sr.State, seat: int | None) -> str:
    return svg.view(sr.spectator_view(state) if seat is None else sr.view(state, seat))


# -- Melvin Vs. Kronk ---------------------------------------------------------------------------

#: The game of docs/melvin/play.md, four players, step by step: each part's name, its actions
#: from the previous part (MK-NOTATION-1), and every event they cause, in the words of
#: ``melvin.describe_event`` and in order, but the turn-ups the actions name: ``S flip VN`` is
#: seat S turning up a VN, with the chance step that gives the face (``reveal VN``) when the
#: card comes from a shuffled part, else a check that the known card is a VN. Nothing happens
#: that a part does not promise: no race, penalty, special or elimination the page leaves out.
MELVIN_SCRIPT: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("deal", "dealer 3",
     ("seat 3 deals (seat 0 12, seat 1 12, seat 2 12, seat 3 12); seat 0 begins",)),
    ("turn-up", "0 flip V4; 1 flip V9; 2 flip V1", ()),
    ("match", "3 flip V9", ()),
    ("award", "2 slap; gem G2; gem Toalha",
     ("seat 2 slaps first: a match (seat 3 made it)", "seat 2 sees the Gem cards G2 Toalha")),
    ("collect", "2 award Toalha give 3",
     ("seat 2 keeps Toalha", "seat 2 gives G2 to seat 3",
      "seat 2 puts 4 discarded cards under its draw pile")),
    ("wrong-slap",
     "2 flip V6; 3 flip V11; 0 flip V2; 3 slap; penalty Cartas; reveal V5; reveal V8; reveal V12",
     ("seat 3 slaps with no match", "seat 3 takes the penalty Cartas",
      "seat 3 gives its V5 to seat 0", "seat 3 gives its V8 to seat 1",
      "seat 3 gives its V12 to seat 2")),
    ("toalha", "1 flip V3; 2 flip V7; 2 toalha 3; reveal V10; reveal V4; reveal V12",
     ("seat 2 plays Toalha on seat 3", "seat 3 gives its V10 to seat 2",
      "seat 3 gives its V4 to seat 2", "seat 3 gives its V12 to seat 2")),
    ("race-2", "3 flip V8; 0 flip V8; 0 slap; gem Amuleto; gem G1; 0 award Amuleto give 1",
     ("seat 0 slaps first: a match (seat 0 made it)", "seat 0 sees the Gem cards Amuleto G1",
      "seat 0 keeps Amuleto", "seat 0 gives G1 to seat 1",
      "seat 0 puts 7 discarded cards under its draw pile",
      "the penalties end: Cartas go back to the Penalty deck")),
    ("amuleto", "0 flip V6; 1 flip V6; 1 slap; gem G3; gem G1; 0 amuleto; reveal V2",
     ("seat 1 slaps first: a match (seat 1 made it)", "seat 1 sees the Gem cards G3 G1",
      "seat 0 plays Amuleto Orc: the slap does not count, seat 1 turns up again",
      "seat 1 puts its V6 back under its draw pile", "seat 1 turns up V2 (nobody's turn)")),
    ("race-3", "2 flip V11; 3 flip V12; 0 flip V10; 1 flip V12; 1 slap; 1 award G3 give 2",
     ("seat 1 slaps first: a match (seat 1 made it)", "seat 1 sees the Gem cards G3 G1",
      "seat 1 keeps G3", "seat 1 gives G1 to seat 2",
      "seat 1 puts 6 discarded cards under its draw pile")),
    ("race-4",
     "1 flip V7; 2 flip V1; 3 flip V3; 0 flip V7; 1 slap; gem Oculos; gem G2;"
     " 1 award Oculos give 0",
     ("seat 1 slaps first: a match (seat 0 made it)", "seat 1 sees the Gem cards Oculos G2",
      "seat 1 keeps Oculos", "seat 1 gives G2 to seat 0",
      "seat 1 puts 4 discarded cards under its draw pile")),
    ("last-card", "1 flip V9; 2 flip V5; 3 flip V11", ()),
    ("eliminated", "0 flip V5; 0 slap; gem G1; gem Orcolar; 0 award Orcolar give 2",
     ("seat 0 slaps first: a match (seat 0 made it)", "seat 0 sees the Gem cards G1 Orcolar",
      "seat 0 keeps Orcolar", "seat 0 gives G1 to seat 2",
      "seat 0 puts 4 discarded cards under its draw pile", "seat 3 is eliminated")),
    ("oculos", "1 oculos 3 G2",
     ("seat 1 plays Oculos Geek on seat 3", "seat 1 takes G2 from seat 3")),
    ("orcolar", "0 flip V4; 1 flip V8; 2 flip V4; 2 slap; gem G3; gem G2; 0 orcolar",
     ("seat 2 slaps first: a match (seat 2 made it)", "seat 2 sees the Gem cards G3 G2",
      "seat 0 plays Orcolar and takes the Gem cards", "seat 0 sees the Gem cards G3 G2")),
    ("race-6", "0 award G3 give 2",
     ("seat 0 keeps G3", "seat 0 gives G2 to seat 2",
      "seat 2 puts 3 discarded cards under its draw pile")),
    ("race-7", "2 flip V9; 0 flip V2; 1 flip V6; 2 flip V2; 0 slap; gem G3; gem G1;"
     " 0 award G3 give 2",
     ("seat 0 slaps first: a match (seat 2 made it)", "seat 0 sees the Gem cards G3 G1",
      "seat 0 keeps G3", "seat 0 gives G1 to seat 2",
      "seat 0 puts 4 discarded cards under its draw pile")),
    ("race-8", "0 flip V1; 1 flip V1; 1 slap; gem G2; gem G1; 1 award G2 give 2",
     ("seat 1 slaps first: a match (seat 1 made it)", "seat 1 sees the Gem cards G2 G1",
      "seat 1 keeps G2", "seat 1 gives G1 to seat 2",
      "seat 1 puts 2 discarded cards under its draw pile")),
    ("end", "1 flip V10; 2 flip V10; 0 slap; gem G2; gem G1; 0 award G2 give 2",
     ("seat 0 slaps first: a match (seat 2 made it)", "seat 0 sees the Gem cards G2 G1",
      "seat 0 keeps G2", "seat 0 gives G1 to seat 2",
      "seat 0 puts 2 discarded cards under its draw pile",
      "the game ends: the Gem deck is empty; scores 10 8 7 0; winner 0")),
)

#: What the page says of a part's position beyond its events, and the check of it.
MELVIN_FACTS: dict[str, tuple[str, Callable[[mk.State], bool]]] = {
    "deal": ("twelve cards in every draw pile, seat 0 to turn up",
             lambda s: [s.draw_size(i) for i in range(4)] == [12] * 4 and s.to_move == 0),
    "turn-up": ("no match, seat 3 to turn up",
                lambda s: not mk.match_shows(s) and s.to_move == 3),
    "match": ("seats 1 and 3 show V9, and only they",
              lambda s: s.tops() == (4, 9, 1, 9)),
    "wrong-slap": ("seat 3 has 7 cards left and Cartas para todos in force",
                   lambda s: s.draw_size(3) == 7 and s.penalties[3] == ("Cartas",)),
    "toalha": ("seat 3 has 4 cards left, seat 2 17", lambda s: s.draw_size(3) == 4
               and s.draw_size(2) == 17),
    "amuleto": ("no match, still seat 2's turn", lambda s: not mk.match_shows(s)
                and s.to_move == 2),
    "last-card": ("seat 3's draw pile is empty, seat 3 still in the game, seat 0 to move",
                  lambda s: s.draw_size(3) == 0 and s.in_game[3] and s.to_move == 0),
    "eliminated": ("seat 1 may play Óculos Geek on seat 3, who holds G2",
                   lambda s: s.oculos == (3,) and s.gems[3] == ("G2",)
                   and "Oculos" in s.gems[1]),
}

#: Whose view each picture of the page is drawn from (``None``: a spectator's).
MELVIN_SEATS: dict[str, int | None] = {
    "deal": None, "turn-up": None, "match": None, "award": 2, "collect": 2, "wrong-slap": None,
    "toalha": 2, "amuleto": 0, "last-card": None, "eliminated": 1, "orcolar": 0, "end": None,
}


def _melvin_step(state: mk.State, text: str) -> mk.State:
    """The state after one action of the script: ``S flip VN`` (a turn-up of a VN, its face
    given by chance or checked), or any action in notation."""
    words = text.split(" ")
    if len(words) != 3 or words[1] != "flip":
        return mk.apply(state, mk.parse_action(text))
    state = mk.apply(state, mk.parse_action(f"{words[0]} flip"))
    if state.phase is mk.Phase.TURN_UP:  # from a shuffled part: chance gives its face
        return mk.apply(state, mk.parse_action(f"reveal {words[2]}"))
    face = state.tops()[int(words[0])]
    if f"V{face}" != words[2]:
        raise ExtensionError(f"'{text}': the card turned up is V{face}")
    return state


def _melvin_scenes() -> dict[str, mk.State]:
    """Every part of the scripted game, played and checked (MELVIN_SCRIPT, MELVIN_FACTS)."""
    state = mk.new_game(mk.GameConfig(players=4))
    scenes = {}
    for name, actions, promised in MELVIN_SCRIPT:
        told: list[str] = []
        for text in actions.split("; "):
            state = _melvin_step(state, text)
            told += [mk.describe_event(e) for e in state.events
                     if not (isinstance(e, mk.CardTurnedUp) and e.turn)]
        if tuple(told) != promised:
            raise ExtensionError(f"melvin picture {name!r}: the game told {told}, the page"
                                 f" says {list(promised)}: update docs/melvin/play.md and"
                                 " this script")
        if name in MELVIN_FACTS and not MELVIN_FACTS[name][1](state):
            raise ExtensionError(f"melvin picture {name!r}: the page says"
                                 f" {MELVIN_FACTS[name][0]!r}, which no longer holds")
        scenes[name] = state
    return scenes


def _melvin_pictures() -> dict[str, Callable[[], str]]:
    scenes = _melvin_scenes()
    return {name: functools.partial(_melvin_draw, scenes[name], seat)
            for name, seat in MELVIN_SEATS.items()}


def _melvin_draw(state: mk.State, seat: int | None) -> str:
    return svg.view(mk.spectator_view(state) if seat is None else mk.view(state, seat))


class _Picture(SphinxDirective):
    """``{KIND NAME}``: the named picture of a set, inline."""

    required_arguments = 1
    #: The attribute of the Sphinx application holding the set, and its pictures' classes.
    pictures = ""
    classes = ""

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        pictures = getattr(self.env.app, self.pictures)
        if name not in pictures:
            raise self.error(f"no picture {name!r}: expected one of {sorted(pictures)}")
        html = f'<div class="{self.classes}" data-picture="{name}">{pictures[name]()}</div>'
        return [nodes.raw("", html, format="html")]


class ShockPicture(_Picture):
    """``{shock-picture} NAME``: a picture of Shock!'s players' page (or another), inline."""

    pictures = "shock_pictures"
    classes = "shock-picture"


class MelvinPicture(_Picture):
    """``{melvin-picture} NAME``: a picture of Melvin Vs. Kronk's players' page, inline."""

    pictures = "melvin_pictures"
    classes = "shock-picture melvin-picture"


def setup(app: Sphinx) -> dict[str, Any]:
    app.shock_pictures = _pictures()  # type: ignore[attr-defined]
    app.melvin_pictures = _melvin_pictures()  # type: ignore[attr-defined]
    app.add_directive("shock-picture", ShockPicture)
    app.add_directive("melvin-picture", MelvinPicture)
    app.add_css_file("pictures.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
