"""The Gymnasium space of the view encoding, shared by the PettingZoo and Gymnasium adapters
(both extras install ``gymnasium``)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from .._rules.config import GameConfig
from ._encoding import layout, observation_size

__all__ = ["observation_box"]


def observation_box(config: GameConfig) -> spaces.Box:
    """Return the :class:`gymnasium.spaces.Box` of :func:`~shock_rules.envs.encode`'s vector
    for games of ``config`` (float32; each field's bounds from :func:`~shock_rules.envs.layout`).
    """
    size = observation_size(config)
    low = np.zeros(size, np.float32)
    high = np.zeros(size, np.float32)
    for f in layout(config):
        low[f.offset:f.stop] = f.low
        high[f.offset:f.stop] = f.high
    return spaces.Box(low=low, high=high, dtype=np.float32)
