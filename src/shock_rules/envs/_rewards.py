"""The final rewards the adapters pay: score shares, win shares or raw scores.

Rewards are paid once, when the game ends (every step before pays 0):

- ``"share"`` (the default): each seat's score over the sum of all scores; if nobody scored,
  every seat gets ``1 / players``. The rewards sum to 1.
- ``"win"``: ``1 / k`` to each of the ``k`` seats with the highest score (ties share the
  victory, K28), 0 to the others; or, when the game names its ``winners`` (Melvin Vs. Kronk:
  the best score among the players still in the game, MK-END-2), to each of those. The
  rewards sum to 1.
- ``"score"``: the raw score, the value of the gems in the seat's bag (general-sum).

With ``zero_sum=True`` the mean reward is subtracted from every seat's, so the rewards sum
to 0 (for ``"share"`` and ``"win"`` that is ``1 / players``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from .._errors import ConfigError, InvalidArgumentError, check_bool, quoted

__all__ = ["REWARDS", "check_reward", "final_rewards", "reward_bounds"]

#: The reward schemes, by name.
REWARDS: Final = ("share", "win", "score")


def check_reward(reward: str) -> str:
    """Return ``reward`` if it names a scheme; raise :class:`~shock_rules.ConfigError`."""
    if not isinstance(reward, str) or reward not in REWARDS:
        raise ConfigError(f"unknown reward {quoted(reward)}: expected one of {', '.join(REWARDS)}")
    return reward


def _check_scores(scores: object) -> Sequence[int]:
    if (not isinstance(scores, Sequence) or isinstance(scores, (str, bytes)) or not scores
            or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0
                       for s in scores)):
        raise InvalidArgumentError(
            f"invalid scores {quoted(scores)}: expected a list of one score (an integer 0 or "
            "more) per seat"
        )
    return scores


def _check_winners(winners: object, n: int) -> set[int]:
    if (not isinstance(winners, Collection) or isinstance(winners, (str, bytes))
            or not winners or not all(type(s) is int and 0 <= s < n for s in winners)):
        raise InvalidArgumentError(
            f"invalid winners {quoted(winners)}: expected a non-empty collection of seats"
            f" 0-{n - 1}")
    return set(winners)


def final_rewards(scores: Sequence[int], reward: str = "share", zero_sum: bool = False,
                  winners: Collection[int] | None = None) -> list[float]:
    """Return each seat's final reward for the final ``scores`` under the scheme ``reward``;
    ``winners``, when given, are the seats that won (for ``"win"``; by default the seats with
    the highest score).

    Raise :class:`~shock_rules.InvalidArgumentError` unless ``scores`` is a non-empty list of
    integers 0 or more and ``winners`` (when given) a non-empty collection of its seats, and
    :class:`~shock_rules.ConfigError` for an unknown ``reward`` or a ``zero_sum`` that is not
    a bool.
    """
    _check_scores(scores)
    check_reward(reward)
    check_bool("zero_sum", zero_sum, ConfigError)
    n = len(scores)
    if winners is None:
        best = max(scores)
        won = {s for s, v in enumerate(scores) if v == best}
    else:
        won = _check_winners(winners, n)
    if reward == "score":
        out = [float(s) for s in scores]
    elif reward == "win":
        out = [1.0 / len(won) if s in won else 0.0 for s in range(n)]
    else:
        total = sum(scores)
        out = [s / total for s in scores] if total > 0 else [1.0 / n] * n
    if zero_sum:
        mean = sum(out) / n
        out = [r - mean for r in out]
    return out


def reward_bounds(players: int, reward: str, zero_sum: bool,
                  max_score: float) -> tuple[float, float]:
    """Return the smallest and largest final reward of a seat (``max_score`` bounds a raw
    score, for the ``"score"`` scheme)."""
    check_reward(reward)
    top = max_score if reward == "score" else 1.0
    if not zero_sum:
        return 0.0, top
    if reward == "score":
        return -top, top
    # A share or win reward minus the mean 1/players.
    return -1.0 / players, 1.0 - 1.0 / players
