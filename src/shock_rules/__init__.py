"""shock_rules: the rules of *Shock! Knights & Poisons* as a pure, typed Python engine.

A game is a sequence of immutable :class:`State` values. Five calls carry a whole game:

- ``new_game(GameConfig(players=4))`` returns the state before the first card is dealt;
- ``legal_actions(state)`` lists what may happen next (at a chance step, its outcomes);
  ``seats_to_act(state)`` says which seats may act (``legal_actions(state, seat)``: theirs);
- ``apply(state, action)`` returns the next state, or raises :class:`IllegalActionError`
  saying why (the input state is never changed);
- ``sample_chance(state, rng)`` draws a chance outcome (deal, trump card, chest card, first
  leader) with its exact probability; ``chance_outcomes(state)`` lists them all;
- ``view(state, seat)`` is what one seat may know: send views, never states, to players.

Around the core: ``shock_rules.bots`` (computer players and a game loop), ``shock_rules.record``
(game records and replay), JSON documents (``to_json``/``from_json``), a one-line position
notation, determinization and chest odds, and the ``shock-rules`` command (``shock_rules.cli``).
A second game, *Melvin Vs. Kronk*, is ``shock_rules.melvin``, with the same calls; the layers
above the rules serve both through the game contract of ``shock_rules.games``.

The rules are written down as numbered clauses (``SETUP-1``, ``TRICK-3``...) and the project's
rulings as ``K1``-``K35`` in the documentation's *Rules* section (``docs/rules/`` in the source
repository); docstrings cite both.

>>> import random
>>> import shock_rules as sr
>>> state = sr.new_game(sr.GameConfig(players=4))
>>> state = sr.resolve_chance(state, random.Random(7))   # deal, reveal trump, pick a leader
>>> sr.current_player(state) in range(4)
True
"""

# svg registers the pictures that Card, PlayerView and State show in Jupyter (_repr_svg_).
from . import svg as svg
from ._documents import from_dict, from_json, to_dict, to_json
from ._errors import (
    ConfigError,
    EditionError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidNotationError,
    InvalidStateError,
    ShockError,
)
from ._info.determinize import determinize
from ._info.odds import ChestOdds, chest_odds
from ._info.view import (
    HiddenCardDealt,
    HiddenCardPlayed,
    PlayerView,
    SeatView,
    TrickCard,
    spectator_view,
    view,
)
from ._json import (
    SCHEMA,
    action_from_json,
    config_from_json,
    edition_from_json,
    events_from_json,
    state_from_json,
    view_from_json,
)
from ._notation.position import format_position, parse_position
from ._notation.script import apply_all, deal_hands, parse_cards
from ._notation.transcript import describe_event, transcript
from ._public import publish
from ._rules import engine as _engine
from ._rules.actions import Action, ActionKind, parse_action
from ._rules.cards import Card, Suit, parse_card
from ._rules.check import check_state
from ._rules.config import GameConfig, Variant
from ._rules.edition import ChestCard, ChestKind, Edition, GemKind, parse_chest_card
from ._rules.engine import (
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
    seats_to_act,
    winners,
)
from ._rules.events import (
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
from ._rules.state import CHANCE, ChanceMarker, Phase, Play, PoisonCard, State, Status
from .bots import Bot, HeuristicBot, MCTSBot, RandomBot, RealTimeBot, make_bot, play_game
from .record import (
    GameRecord,
    RecordError,
    format_record,
    parse_record,
    record_from_json,
    record_game,
    replay,
)

__version__ = "0.1.0"

#: Whether this is the compiled build: the rule modules built as C extensions by mypyc
#: (``SHOCK_RULES_COMPILE=1 pip install shock-rules``), not the pure-Python package. Both
#: builds play by the same rules and pass the same tests; the compiled one is faster.
COMPILED: bool = not _engine.__file__.endswith(".py")

__all__ = [
    "CHANCE",
    "COMPILED",
    "SCHEMA",
    "Action",
    "ActionKind",
    "Bot",
    "Card",
    "CardDealt",
    "CardPlayed",
    "ChanceMarker",
    "ChestCard",
    "ChestKind",
    "ChestOdds",
    "ChestRevealed",
    "ChestStopped",
    "ConfigError",
    "Edition",
    "EditionError",
    "Event",
    "GameConfig",
    "GameEnded",
    "GameRecord",
    "GemKind",
    "GemsBanked",
    "GemsGained",
    "HeuristicBot",
    "HiddenCardDealt",
    "HiddenCardPlayed",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidNotationError",
    "InvalidStateError",
    "LeaderChosen",
    "MCTSBot",
    "Phase",
    "Play",
    "PlayerView",
    "PoisonCard",
    "PoisonCovered",
    "PoisonTaken",
    "PotionTaken",
    "RandomBot",
    "RealTimeBot",
    "RecordError",
    "RoundEndReason",
    "RoundEnded",
    "RoundStarted",
    "SeatView",
    "ShockError",
    "Shocked",
    "State",
    "Status",
    "Suit",
    "TrickAbandoned",
    "TrickCard",
    "TrickWon",
    "TrumpRevealed",
    "Variant",
    "Withdrew",
    "__version__",
    "action_from_json",
    "apply",
    "apply_all",
    "chance_outcomes",
    "check_state",
    "chest_odds",
    "config_from_json",
    "current_player",
    "deal_hands",
    "describe_event",
    "determinize",
    "edition_from_json",
    "events_from_json",
    "format_position",
    "format_record",
    "from_dict",
    "from_json",
    "is_chance",
    "is_terminal",
    "legal_actions",
    "make_bot",
    "new_game",
    "parse_action",
    "parse_card",
    "parse_cards",
    "parse_chest_card",
    "parse_position",
    "parse_record",
    "play_game",
    "random_playout",
    "record_from_json",
    "record_game",
    "replay",
    "resolve_chance",
    "sample_chance",
    "scores",
    "seats_to_act",
    "spectator_view",
    "state_from_json",
    "to_dict",
    "to_json",
    "transcript",
    "view",
    "view_from_json",
    "winners",
]

publish(__name__, globals(), __all__)
