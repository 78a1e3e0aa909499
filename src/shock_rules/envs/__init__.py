"""Adapters to the frameworks game-AI research trains in, each behind its own extra.

- :mod:`shock_rules.envs.pettingzoo` (extra ``pettingzoo``): an AEC environment of the whole
  table, ``env(players=4, variant="standard", render_mode=None)``, agents ``player_0``...;
  and ``parallel_env(game="melvin", players=4)``, a parallel environment of Melvin Vs. Kronk
  where every agent acts at every step and the actions race.
- :mod:`shock_rules.envs.openspiel` (extra ``openspiel``): importing it registers the Python
  game ``python_shock_rules`` with explicit chance nodes and their exact probabilities.
- :mod:`shock_rules.envs.gymnasium` (extra ``gymnasium``): one seat against bots, registered
  as ``ShockRules-v0``.

This package itself imports no framework (nor numpy): ``import shock_rules.envs`` works with
none installed, and only the module of an adapter needs its extra. What the adapters share
lives here, in pure Python:

- :func:`encode` turns a seat's :class:`~shock_rules.PlayerView` -- never the full state --
  into a fixed-size vector whose fields :func:`layout` lists (the table is in the module
  ``shock_rules.envs._encoding`` and in the documentation's *Environments* page);
  :func:`encode_seat` writes the same vector straight from a state for one seat (the view's
  facts only, without building the view: what the adapters observe), and :func:`mask_seat`
  the same mask as :func:`action_mask` of the view's legal actions;
- :func:`action_index` and :func:`action_of` number the decision actions ``0`` to
  :data:`NUM_ACTIONS` ``- 1`` (play, withdraw, down and cover a card; reveal; stop), and
  :func:`action_mask` marks the legal ones;
- :func:`final_rewards` is what the adapters pay at the end of a game (score shares by default,
  win shares or raw scores, optionally zero-sum);
- for Melvin Vs. Kronk, :func:`encode_melvin` turns a seat's :class:`shock_rules.melvin.View`
  into a vector whose fields :func:`melvin_layout` lists, and :func:`melvin_action_index`,
  :func:`melvin_action_of` and :func:`melvin_action_mask` number a seat's decisions ``0`` to
  :data:`NUM_MELVIN_ACTIONS` ``- 1``, index :data:`MELVIN_WAIT` (0) being *wait* (the table is
  in the module ``shock_rules.envs._melvin``).

>>> import random
>>> import shock_rules as sr
>>> from shock_rules.envs import action_of, encode, observation_size
>>> s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(3))
>>> v = sr.view(s, s.actor)
>>> len(encode(v)) == observation_size(v.config)
True
>>> from shock_rules.envs import encode_seat
>>> encode_seat(s, s.actor) == encode(v)
True
>>> action_of(176), action_of(0)
(Action.parse('reveal'), Action.parse('play 1H'))
"""

from __future__ import annotations

from .._public import publish
from ._encoding import (
    GEM_BOUND,
    NUM_ACTIONS,
    EncodingError,
    Field,
    action_index,
    action_mask,
    action_of,
    encode,
    encode_seat,
    layout,
    mask_seat,
    observation_size,
)
from ._melvin import (
    MELVIN_WAIT,
    NUM_MELVIN_ACTIONS,
    encode_melvin,
    melvin_action_index,
    melvin_action_mask,
    melvin_action_of,
    melvin_layout,
    melvin_observation_size,
)
from ._rewards import REWARDS, final_rewards

__all__ = [
    "GEM_BOUND",
    "MELVIN_WAIT",
    "NUM_ACTIONS",
    "NUM_MELVIN_ACTIONS",
    "REWARDS",
    "EncodingError",
    "Field",
    "action_index",
    "action_mask",
    "action_of",
    "encode",
    "encode_melvin",
    "encode_seat",
    "final_rewards",
    "layout",
    "mask_seat",
    "melvin_action_index",
    "melvin_action_mask",
    "melvin_action_of",
    "melvin_layout",
    "melvin_observation_size",
    "observation_size",
]

publish(__name__, globals(), __all__)
