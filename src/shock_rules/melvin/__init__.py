"""Melvin Vs. Kronk, the project's second game: a real-time card-slapping game modelled as a
pure state machine (M5). See ``docs/melvin/index.md`` for the clauses.

>>> import random
>>> from shock_rules import melvin
>>> final = melvin.random_playout(melvin.GameConfig(players=4), random.Random(3))
>>> melvin.is_terminal(final)
True
"""

from ._bots import Bot, RandomBot, ReactionBot, simulate
from ._cards import (
    PENALTIES,
    SPECIALS,
    Action,
    Amuleto,
    Award,
    ChooseDealer,
    DrawGem,
    DrawPenalty,
    Edition,
    Flip,
    GameConfig,
    Oculos,
    Orcolar,
    Reveal,
    Slap,
    Toalha,
    gem_value,
    load_edition,
    parse_action,
)
from ._engine import (
    AwardWindow,
    Event,
    State,
    apply,
    chance_outcomes,
    check_state,
    is_chance,
    is_terminal,
    legal_actions,
    match_shows,
    new_game,
    random_playout,
    resolve_chance,
    sample_chance,
    scores,
    winners,
)
from ._json import (
    action_from_json,
    action_to_json,
    state_from_json,
    state_to_json,
    view_to_json,
)
from ._view import View, spectator_view, view

__all__ = [
    "PENALTIES",
    "SPECIALS",
    "Action",
    "Amuleto",
    "Award",
    "AwardWindow",
    "Bot",
    "ChooseDealer",
    "DrawGem",
    "DrawPenalty",
    "Edition",
    "Event",
    "Flip",
    "GameConfig",
    "Oculos",
    "Orcolar",
    "RandomBot",
    "ReactionBot",
    "Reveal",
    "Slap",
    "State",
    "Toalha",
    "View",
    "action_from_json",
    "action_to_json",
    "apply",
    "chance_outcomes",
    "check_state",
    "gem_value",
    "is_chance",
    "is_terminal",
    "legal_actions",
    "load_edition",
    "match_shows",
    "new_game",
    "parse_action",
    "random_playout",
    "resolve_chance",
    "sample_chance",
    "scores",
    "simulate",
    "spectator_view",
    "state_from_json",
    "state_to_json",
    "view",
    "view_to_json",
    "winners",
]
