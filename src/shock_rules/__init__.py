"""shock_rules: a complete, typed, pure rules engine for *Shock! Knights & Poisons*.

>>> import random
>>> import shock_rules as sr
>>> state = sr.new_game(sr.GameConfig(players=4))
>>> state = sr.resolve_chance(state, random.Random(7))   # deal, reveal trump, pick a leader
>>> sr.current_player(state) in range(4)
True
"""

from ._actions import Action, ActionKind, parse_action
from ._cards import Card, Suit, parse_card
from ._config import GameConfig, Variant
from ._determinize import determinize
from ._edition import ChestCard, ChestKind, Edition, GemKind, parse_chest_card
from ._engine import (
    apply,
    chance_outcomes,
    current_player,
    is_chance,
    is_terminal,
    legal_actions,
    new_game,
    random_playout,
    resolve_chance,
    sample_chance,
    scores,
    winners,
)
from ._errors import (
    ConfigError,
    EditionError,
    IllegalActionError,
    InvalidNotationError,
    InvalidStateError,
    ShockError,
)
from ._events import (
    CardDealt,
    CardPlayed,
    ChestRevealed,
    ChestStopped,
    Event,
    GameEnded,
    GemsBanked,
    GemsGained,
    LeaderChosen,
    PoisonCovered,
    PoisonTaken,
    PotionTaken,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    Shocked,
    TrickAbandoned,
    TrickWon,
    TrumpRevealed,
    Withdrew,
)
from ._json import (
    SCHEMA,
    action_from_json,
    config_from_json,
    edition_from_json,
    events_from_json,
    from_dict,
    from_json,
    state_from_json,
    to_dict,
    to_json,
    view_from_json,
)
from ._position import format_position, parse_position
from ._record import (
    GameRecord,
    RecordError,
    format_record,
    parse_record,
    record_from_json,
    record_game,
    replay,
)
from ._script import apply_all, deal_hands, parse_cards
from ._state import CHANCE, ChanceMarker, Phase, Play, PoisonCard, State, Status
from ._view import (
    HiddenCardDealt,
    HiddenCardPlayed,
    PlayerView,
    SeatView,
    TrickCard,
    spectator_view,
    view,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE", "Action", "ActionKind", "Card", "CardDealt", "CardPlayed", "ChanceMarker",
    "ChestCard", "ChestKind", "ChestRevealed", "ChestStopped", "ConfigError", "Edition",
    "EditionError", "Event", "GameConfig", "GameEnded", "GemKind", "GemsBanked", "GemsGained",
    "IllegalActionError", "InvalidNotationError", "InvalidStateError", "LeaderChosen", "Phase",
    "Play", "PoisonCard", "PoisonCovered", "PoisonTaken", "PotionTaken", "RoundEndReason",
    "RoundEnded", "RoundStarted", "ShockError", "Shocked", "State", "Status", "Suit",
    "TrickAbandoned", "TrickWon", "TrumpRevealed", "Variant", "Withdrew", "__version__",
    "apply", "apply_all", "chance_outcomes", "deal_hands", "parse_cards", "current_player", "is_chance", "is_terminal", "legal_actions",
    "new_game", "parse_action", "parse_card", "parse_chest_card", "random_playout",
    "resolve_chance", "sample_chance", "scores", "winners",
    "HiddenCardDealt", "HiddenCardPlayed", "PlayerView", "SeatView", "TrickCard",
    "determinize", "spectator_view", "view",
    "SCHEMA", "GameRecord", "RecordError", "action_from_json", "config_from_json",
    "edition_from_json", "events_from_json", "format_position", "format_record", "from_dict",
    "from_json", "parse_position", "parse_record", "record_from_json", "record_game", "replay",
    "state_from_json", "to_dict", "to_json", "view_from_json",
]
