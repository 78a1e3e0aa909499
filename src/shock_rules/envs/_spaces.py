"""The Gymnasium spaces of the view encodings, shared by the PettingZoo and Gymnasium adapters
(both extras install ``gymnasium``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from gymnasium import spaces

from .._rules.config import GameConfig
from ..melvin import GameConfig as MelvinConfig
from ._encoding import Field, layout
from ._melvin import melvin_layout

__all__ = ["melvin_observation_box", "observation_box"]


def _box(fields: Sequence[Field]) -> spaces.Box:
    """Return the float32 box of a vector of ``fields``, each entry within its field's bounds."""
    size = fields[-1].stop
    low = np.zeros(size, np.float32)
    high = np.zeros(size, np.float32)
    for f in fields:
        low[f.offset:f.stop] = f.low
        high[f.offset:f.stop] = f.high
    return spaces.Box(low=low, high=high, dtype=np.float32)


def observation_box(config: GameConfig) -> spaces.Box:
    """Return the :class:`gymnasium.spaces.Box` of :func:`~shock_rules.envs.encode`'s vector
    for games of ``config`` (float32; each field's bounds from :func:`~shock_rules.envs.layout`).
    """
    return _box(layout(config))


def melvin_observation_box(config: MelvinConfig) -> spaces.Box:
    """Return the :class:`gymnasium.spaces.Box` of
    :func:`~shock_rules.envs.encode_melvin`'s vector for Melvin Vs. Kronk games of ``config``
    (float32; each field's bounds from :func:`~shock_rules.envs.melvin_layout`)."""
    return _box(melvin_layout(config))
