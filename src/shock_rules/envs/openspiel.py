"""An OpenSpiel game: importing this module registers ``python_shock_rules``.

Needs the ``openspiel`` extra (``pip install 'shock-rules[openspiel]'``; it imports ``pyspiel``).

>>> import pyspiel
>>> import shock_rules.envs.openspiel
>>> game = pyspiel.load_game("python_shock_rules", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 36)

The game follows OpenSpiel's Python games (``open_spiel/python/games/kuhn_poker.py``): a
sequential, imperfect-information, general-sum game with *explicit stochastic* chance and
rewards at the end only.

- Parameters: ``players`` (3-5, default 4), ``variant`` (``"standard"`` or ``"simplified"``),
  ``reward`` (``"share"``, the default, or ``"win"``; see :func:`shock_rules.envs.final_rewards`)
  and ``zero_sum`` (subtract the mean reward). The returns are bounded: a share or win reward
  lies in [0, 1] (shifted by ``-1/players`` when zero-sum). A bad parameter raises
  :class:`~shock_rules.ConfigError` with the reason (``pyspiel.load_game`` itself refuses one
  of the wrong type or an unknown name first, with a ``pyspiel.SpielError``).
- Player actions are the fixed decision indexes of :func:`shock_rules.envs.action_index`
  (``num_distinct_actions`` is :data:`~shock_rules.envs.NUM_ACTIONS`).
- Chance nodes list their outcomes with the engine's exact probabilities
  (:func:`shock_rules.chance_outcomes`, given to OpenSpiel as floats). Chance outcomes have
  their own ids: ``deal`` card *i* is *i* (0-43), ``trump`` card *i* is 44 + *i*, the chest card
  of kind *k* (the edition's order) is 88 + *k*, and ``leader`` seat *s* is 88 + K + *s*, with K
  the edition's number of distinct chest cards (7 by default).
- Observation tensors and strings come from the seat's view only
  (:func:`shock_rules.view`): the tensor is :func:`shock_rules.envs.encode` of the view, with
  its fields as named pieces (``observer.dict``); the observation string is the table text of
  the view. The information-state tensor is the same view encoding (it does not recall the
  order of past plays); the information-state string has perfect recall: every step of the
  game as the seat saw it, with other seats' dealt and face-down cards written ``?``.
- ``state.resample_from_infostate(player, sampler)`` draws a state the player cannot tell from
  this one (:func:`shock_rules.determinize` of its view), so OpenSpiel's own information-set
  search plays the game: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (with its default
  checks that an information state always offers the same actions). In a drawn world the
  past is known only as that player saw it: every seat's information-state string tells it
  that way, followed, for the other seats, by the cards the draw gave them. A drawn world has
  no action history of its own (``history()`` is empty): search in it, do not serialize it.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Final

from .._errors import ConfigError, IllegalActionError, check_bool, missing_extra, quoted
from .._info.determinize import determinize
from .._info.view import view
from .._notation.position import format_position
from .._rules.actions import DEAL, LEADER, TRUMP, Action, ActionKind
from .._rules.cards import NUM_CARDS
from .._rules.config import MAX_PLAYERS, MIN_PLAYERS, ROUNDS, GameConfig, Variant
from .._rules.engine import (
    apply,
    chance_outcomes,
    current_player,
    is_chance,
    is_terminal,
    legal_actions,
    new_game,
)
from .._rules.state import CHANCE, Phase, State
from .._rules.tables import tables_for
from ._encoding import (
    NUM_ACTIONS,
    action_index,
    action_of,
    encode_seat_f32,
    layout,
    observation_size,
)
from ._rewards import final_rewards, reward_bounds
from ._text import table_text

# The extra's packages, after the package's own modules so that a missing one can be named
# with the pip command that installs it.
try:
    import numpy as np
    import pyspiel
except ImportError as exc:
    raise missing_extra("shock_rules.envs.openspiel", "openspiel", exc,
                        frozenset({"numpy", "pyspiel"})) from None

__all__ = ["GAME_NAME", "ShockRulesGame", "ShockRulesState", "chance_id", "chance_of"]

#: The name the game is registered under.
GAME_NAME: Final = "python_shock_rules"

_DEFAULTS: Final[dict[str, Any]] = {
    "players": 4, "variant": "standard", "reward": "share", "zero_sum": False,
}
# Upper bounds on one game's length, per round: at most 44 cards dealt and 44 played, one trump
# card, at most 11 tricks with up to 3 chest cards revealed (and as many choices) each, and
# at most one cover per number card; plus the first leader.
_TRICKS: Final = 11
_CHEST_BASE: Final = 2 * NUM_CARDS  # the first chance id of a chest card
_MAX_DECISIONS: Final = ROUNDS * (NUM_CARDS + NUM_CARDS + 3 * _TRICKS)
_MAX_CHANCE: Final = ROUNDS * (NUM_CARDS + 1 + 3 * _TRICKS) + 1

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Shock! Knights & Poisons",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def chance_id(state: State, action: Action) -> int:
    """Return the OpenSpiel id of a chance outcome (see the module's docstring)."""
    kind = action.kind
    if kind is ActionKind.DEAL and action.card is not None:
        return action.card.index
    if kind is ActionKind.TRUMP and action.card is not None:
        return NUM_CARDS + action.card.index
    if kind is ActionKind.CHEST and action.chest_card is not None:
        return _CHEST_BASE + state.tables.chest_index[action.chest_card]
    if kind is ActionKind.LEADER and action.seat is not None:
        return _CHEST_BASE + len(state.tables.chest_cards) + action.seat
    raise IllegalActionError(f"'{action}' is not a chance outcome", action=action)


def chance_of(state: State, outcome: int) -> Action:
    """Return the chance outcome with the OpenSpiel id ``outcome`` at ``state``'s chance node.

    Raise :class:`~shock_rules.IllegalActionError` if no outcome of that kind has that id.
    """
    kinds = len(state.tables.chest_cards)
    base = _CHEST_BASE
    if state.phase is Phase.DEAL and 0 <= outcome < NUM_CARDS:
        return DEAL[outcome]
    if state.phase is Phase.TRUMP and NUM_CARDS <= outcome < base:
        return TRUMP[outcome - NUM_CARDS]
    if state.phase is Phase.CHEST and base <= outcome < base + kinds:
        return Action.chest(state.tables.chest_cards[outcome - base])
    if state.phase is Phase.LEADER and 0 <= outcome - base - kinds < state.config.players:
        return LEADER[outcome - base - kinds]
    raise IllegalActionError(
        f"invalid chance outcome {quoted(outcome)} at a {state.phase.name} step")


class _Frozen:
    """An immutable value that OpenSpiel's ``clone()`` (a deep copy of every attribute) may
    share instead of copying: a game state and the steps that led to it."""

    __slots__ = ("drawn", "eye", "seen", "state", "steps")

    def __init__(self, state: State, steps: tuple[tuple[int, Action], ...],
                 eye: int = -1, seen: int = 0, drawn: tuple[str, ...] = ()) -> None:
        self.state = state
        # (seat concerned, action): the receiving seat for a deal, the actor for a decision.
        self.steps = steps
        # A world drawn by resample_from_infostate: its first ``seen`` steps are known only
        # as seat ``eye`` saw them (the hidden cards of the true game are not this world's),
        # so every seat's information state tells them as ``eye`` does, followed, for the
        # other seats, by what the draw gave them (``drawn``: each seat's hand and face-down
        # cards in that world), which is what they know there.
        self.eye = eye
        self.seen = seen
        self.drawn = drawn

    def __deepcopy__(self, memo: dict[int, object]) -> _Frozen:
        return self


def _check_params(params: object) -> dict[str, Any]:
    """Return the game's parameters with the defaults filled in, if ``params`` is ``None`` or
    a dict of known parameters with a valid ``reward`` and ``zero_sum`` (a bool, not a number
    or a string); else raise :class:`~shock_rules.ConfigError` with the reason. ``players``
    and ``variant`` are checked as the game's :class:`~shock_rules.GameConfig` is made.

    :func:`pyspiel.load_game` refuses a parameter of the wrong type or an unknown name itself
    (a ``pyspiel.SpielError``) before the game is made; this is for a game made directly,
    ``ShockRulesGame({...})``, and for the values' ranges."""
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise ConfigError(f"invalid parameters {quoted(params)}: expected a dict such as"
                          " {'players': 3}")
    unknown = [name for name in params if name not in _DEFAULTS]
    if unknown:
        raise ConfigError(f"unknown parameter {quoted(unknown[0])}: expected one of"
                          f" {', '.join(_DEFAULTS)}")
    p = {**_DEFAULTS, **params}
    if not isinstance(p["reward"], str) or p["reward"] not in ("share", "win"):
        raise ConfigError(f"unknown reward {quoted(p['reward'])}: expected 'share' or 'win'"
                          " (OpenSpiel needs bounded returns)")
    check_bool("zero_sum", p["zero_sum"], ConfigError)
    return p


class ShockRulesGame(pyspiel.Game):
    """The OpenSpiel game of *Shock! Knights & Poisons* (``python_shock_rules``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = _check_params(params)
        config = GameConfig(players=p["players"], variant=Variant.parse(p["variant"]))
        low, high = reward_bounds(config.players, p["reward"], p["zero_sum"], 1.0)
        kinds = len(tables_for(config).chest_cards)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=2 * NUM_CARDS + kinds + MAX_PLAYERS,
            num_players=config.players,
            min_utility=low,
            max_utility=high,
            utility_sum=None,  # general-sum: OpenSpiel wants no declared sum
            max_game_length=_MAX_DECISIONS,
        )
        super().__init__(_GAME_TYPE, info, params or {})
        #: The configuration of the games.
        self.config = config
        #: The reward scheme (``"share"`` or ``"win"``).
        self.reward: str = p["reward"]
        #: Whether the mean reward is subtracted.
        self.zero_sum: bool = p["zero_sum"]

    def new_initial_state(self) -> ShockRulesState:
        """Return the state before the first card is dealt."""
        return ShockRulesState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> ShockRulesObserver:
        """Return an observer of the view: perfect recall for information states."""
        return ShockRulesObserver(
            self.config, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
        )

    def max_chance_nodes_in_history(self) -> int:
        """Return an upper bound on a game's chance steps."""
        return _MAX_CHANCE


class ShockRulesState(pyspiel.State):
    """An OpenSpiel state: a :class:`shock_rules.State` and the steps that led to it."""

    def __init__(self, game: ShockRulesGame) -> None:
        super().__init__(game)
        self._game_config = game.config
        self._reward = game.reward
        self._zero_sum = game.zero_sum
        self._now = _Frozen(new_game(game.config), ())

    @property
    def shock_state(self) -> State:
        """The underlying :class:`shock_rules.State` (the full state, hidden cards too)."""
        return self._now.state

    @property
    def steps(self) -> tuple[tuple[int, Action], ...]:
        """The actions so far, each with its seat: the receiving seat for a deal, the actor for
        a decision, -1 for other chance outcomes."""
        return self._now.steps

    def current_player(self) -> int:
        """Return the seat to decide, or OpenSpiel's CHANCE or TERMINAL id."""
        who = current_player(self._now.state)
        if who is None:
            return int(pyspiel.PlayerId.TERMINAL)
        if who is CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        assert isinstance(who, int)
        return who

    def _legal_actions(self, player: int) -> list[int]:
        """Return the player's legal decision indexes, ascending."""
        s = self._now.state
        if is_chance(s) or is_terminal(s) or player != s.actor:
            return []
        return sorted(action_index(a) for a in legal_actions(s))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Return the chance outcomes' ids and probabilities (ascending ids)."""
        return [(i, float(p)) for i, p in self.exact_chance_outcomes()]

    def exact_chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """Return the chance outcomes' ids with their exact probabilities (ascending ids)."""
        s = self._now.state
        return sorted((chance_id(s, a), p) for a, p in chance_outcomes(s))

    def _apply_action(self, action: int) -> None:
        s = self._now.state
        if is_chance(s):
            act = chance_of(s, int(action))
            seat = s.actor if s.phase is Phase.DEAL else -1
        else:
            act = action_of(int(action))
            seat = s.actor
        now = self._now
        self._now = _Frozen(apply(s, act), (*now.steps, (seat, act)), now.eye, now.seen,
                            now.drawn)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """Return a state of the game drawn uniformly among those ``player_id`` cannot tell
        from this one (:func:`shock_rules.determinize` of its view), as OpenSpiel's
        ``ISMCTSBot`` asks. The hidden cards are drawn with a generator seeded from
        ``probability_sampler()`` (OpenSpiel passes a uniform sampler); the drawn state's
        past is the one ``player_id`` saw, so every seat's information state in it is told as
        ``player_id`` saw it, and ``player_id``'s is this state's."""
        s = self._now.state
        if is_chance(s) or is_terminal(s):
            raise IllegalActionError("a state can be resampled only where a seat decides")
        if type(player_id) is not int or not 0 <= player_id < s.config.players:
            raise IllegalActionError(f"invalid player {quoted(player_id)} to resample for")
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        world = ShockRulesState(self.get_game())
        now = self._now
        drawn = determinize(view(s, player_id), rng)
        if now.eye >= 0:  # a world drawn from a world: its past is still the first eye's
            eye, seen, known = now.eye, now.seen, now.drawn
        else:
            eye, seen = player_id, len(now.steps)
            known = tuple(" ".join(map(str, (*drawn.hand(k), *drawn.face_down(k))))
                          for k in range(s.config.players))
        world._now = _Frozen(drawn, now.steps, eye, seen, known)
        return world

    def _action_to_string(self, player: int, action: int) -> str:
        s = self._now.state
        if player == pyspiel.PlayerId.CHANCE:
            return str(chance_of(s, int(action))) if is_chance(s) else f"chance {action}"
        return str(action_of(int(action)))

    def is_terminal(self) -> bool:
        """Return whether the game is over."""
        return is_terminal(self._now.state)

    def returns(self) -> list[float]:
        """Return the final rewards at the end of the game, zeros before."""
        s = self._now.state
        if not is_terminal(s):
            return [0.0] * s.config.players
        return final_rewards(s.in_bag, self._reward, self._zero_sum)

    def __str__(self) -> str:
        """Return the full position in the package's notation (for debugging)."""
        return format_position(self._now.state)


def _seen(seat: int, who: int, action: Action) -> str:
    """Return how ``seat`` saw one step: a deal to another seat and another seat's face-down
    card show ``?`` (K34)."""
    if action.kind is ActionKind.DEAL:
        return f"deal {action.card if who == seat else '?'} to {who}"
    if action.kind in (ActionKind.WITHDRAW, ActionKind.DOWN) and who != seat:
        return f"{who}: {action.kind.value} ?"
    if who >= 0 and not action.is_chance:
        return f"{who}: {action}"
    return str(action)


class ShockRulesObserver:
    """An OpenSpiel observer (the PyObserver interface) of a seat's view."""

    def __init__(self, config: GameConfig, iig_obs_type: Any,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ConfigError(f"observation parameters are not supported, got {quoted(params)}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(observation_size(config), np.float32)
        self.dict = {f.name: self.tensor[f.offset:f.stop] for f in layout(config)}

    def set_from(self, state: ShockRulesState, player: int) -> None:
        """Fill :attr:`tensor` with the encoding of ``player``'s view of ``state``."""
        # The view's facts, written from the state (no view built), copied without conversion.
        self.tensor[:] = np.frombuffer(encode_seat_f32(state.shock_state, player), np.float32)

    def string_from(self, state: ShockRulesState, player: int) -> str:
        """Return ``player``'s information-state string (perfect recall) or observation
        string (the table of its view)."""
        if self.perfect_recall:
            now = state._now
            past = "|".join(_seen(now.eye if i < now.seen else player, w, a)
                            for i, (w, a) in enumerate(now.steps))
            if now.eye >= 0 and player != now.eye:
                past += f"|drawn {now.drawn[player]}"
            return f"p{player}|{past}"
        return table_text(view(state.shock_state, player))


pyspiel.register_game(_GAME_TYPE, ShockRulesGame)
