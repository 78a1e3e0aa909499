# What this example shows
# -----------------------
# A real, if small, learning loop on the Gymnasium adapter (``ShockRules-v0``), with numpy only:
# a linear softmax policy over the legal actions, trained by the cross-entropy method against
# three random bots, ends up winning clearly more often than the random bot does in the same
# seat against the same opponents. The heuristic bot's win rate is printed alongside for scale.
#
# The policy sees only what the environment gives an agent: the observation vector (the
# encoding of its own view, shock_rules.envs.encode) and the action mask. Each legal action gets
# a few features read from those (its kind, the card's rank, whether the card is a trump, the
# gems at risk on the agent's bag, the chest cards already revealed...), and the policy's
# logits are a weighted sum of them. Everything is seeded, so a run is reproducible.
#
# Run:  python examples/train_random_vs_heuristic.py [--generations 5 --eval-games 300]
# Needs: pip install 'shock-rules[gymnasium]'

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

try:
    import gymnasium
    import numpy as np
except ImportError:
    sys.exit("this example needs Gymnasium: pip install 'shock-rules[gymnasium]'")

import shock_rules as sr
import shock_rules.envs.gymnasium
from shock_rules.envs import NUM_ACTIONS, action_index, action_of, layout

PLAYERS = 4
SEAT = 0
KINDS = ("play", "withdraw", "down", "cover", "reveal", "stop")
NUM_FEATURES = len(KINDS) + 12

Policy = Callable[[np.ndarray[Any, Any], np.ndarray[Any, Any], Any], int]


def make_env(reward: str = "win") -> Any:
    """Return the environment: seat 0 against three random bots; the final reward is 1/k for
    a win shared by k (``"win"``) or the agent's share of all gems banked (``"share"``)."""
    return gymnasium.make("ShockRules-v0", players=PLAYERS, seat=SEAT, opponents="random",
                          reward=reward).unwrapped


def _offsets() -> dict[str, int]:
    return {f.name: f.offset for f in layout(sr.GameConfig(players=PLAYERS))}


OFF = _offsets()
# Per-action constants: the kind, the card's rank / 11 and suit (or -1 for reveal / stop).
KIND_OF = np.array([min(i // 44, 4) if i < 176 else 4 + (i - 176) for i in range(NUM_ACTIONS)])
RANK_OF = np.zeros(NUM_ACTIONS)
SUIT_OF = -np.ones(NUM_ACTIONS, dtype=int)
for _i in range(NUM_ACTIONS):
    _card = action_of(_i).card
    if _card is not None:
        RANK_OF[_i] = _card.rank / 11
        SUIT_OF[_i] = int(_card.suit)


def features(obs: np.ndarray[Any, Any], legal: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Return one row of features per legal action index, read from the observation."""
    n = len(legal)
    x = np.zeros((n, NUM_FEATURES))
    x[np.arange(n), KIND_OF[legal]] = 1.0
    trump = obs[OFF["trump_suit"]:OFF["trump_suit"] + 4]
    lead = obs[OFF["lead_suit"]:OFF["lead_suit"] + 4]
    own = OFF["seats"]  # slot 0 is the agent itself: present, status(3), hand, down, on bag,
    on_bag = obs[own + 6] / 10.0  # in bag, uncovered poisons (3), covered poisons (3), ...
    poisoned = obs[own + 8:own + 11].sum()
    worst = obs[own + 8:own + 11].max()
    centre = obs[OFF["chest_centre"]:OFF["chest_centre"] + 7].sum()
    slot = 20
    still_in = sum(obs[own + slot * i + 1] for i in range(1, PLAYERS))
    revealed = obs[OFF["revealed"]]
    trick_gems = obs[OFF["trick_gems"]] / 5.0
    suits = SUIT_OF[legal]
    has_suit = suits >= 0
    k = len(KINDS)
    x[:, k] = RANK_OF[legal]
    x[has_suit, k + 1] = trump[suits[has_suit]]
    x[has_suit, k + 2] = lead[suits[has_suit]]
    withdraw = KIND_OF[legal] == 1
    reveal = KIND_OF[legal] == 4
    x[:, k + 3] = withdraw * on_bag  # withdrawing banks the gems at risk
    x[:, k + 4] = withdraw * worst  # ... before a poison shocks the agent
    x[:, k + 5] = withdraw * poisoned
    x[:, k + 6] = withdraw * still_in / PLAYERS
    x[:, k + 7] = withdraw * trick_gems
    x[:, k + 8] = reveal * on_bag  # revealing risks them
    x[:, k + 9] = reveal * revealed
    x[:, k + 10] = reveal * (worst + centre / 2)
    x[:, k + 11] = (KIND_OF[legal] == 0) * RANK_OF[legal] * trick_gems
    return x


def linear_policy(theta: np.ndarray[Any, Any]) -> Policy:
    """Return the greedy linear policy with weights ``theta``: the legal action with the
    highest score (the first on ties). Greedy play makes a candidate's result over seeded games
    depend on its weights only, which keeps the search's comparisons fair."""

    def act(obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any], rng: Any) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[int(np.argmax(features(obs, legal) @ theta))])

    return act


def bot_policy(env: Any, bot: sr.Bot) -> Policy:
    """Return a bot of the package playing the agent's seat through the same environment (it
    reads the seat's view, as bots do; the learned policy reads the observation vector)."""

    def act(obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any], rng: Any) -> int:
        view = sr.view(env.state_now, SEAT)
        return action_index(bot.choose(view, random.Random(int(rng.integers(2**31)))))

    return act


def play(env: Any, policy: Policy, seed: int, rng: Any) -> float:
    """Return the agent's reward (its share of the win) over one seeded game."""
    obs, info = env.reset(seed=seed)
    while True:
        obs, reward, done, _, info = env.step(policy(obs, info["action_mask"], rng))
        if done:
            return float(reward)


def win_rate(env: Any, policy: Policy, seeds: Sequence[int], rng_seed: int) -> float:
    """Return the mean reward (the win rate, ties shared) over the seeded games."""
    rng = np.random.default_rng(rng_seed)
    return float(np.mean([play(env, policy, s, rng) for s in seeds]))


def train(generations: int, population: int, games: int, seed: int) -> np.ndarray[Any, Any]:
    """Return the weights the cross-entropy method finds: each generation samples
    ``population`` weight vectors around the mean, plays each on the same ``games`` seeded
    games, and moves the mean and spread towards the best quarter."""
    env = make_env("share")  # the share of the gems says more per game than a win or a loss
    rng = np.random.default_rng(seed)
    mean = np.zeros(NUM_FEATURES)
    std = np.full(NUM_FEATURES, 1.5)
    elite = max(2, population // 4)
    for g in range(generations):
        thetas = mean + std * rng.standard_normal((population, NUM_FEATURES))
        # The same training games for every candidate of every generation (common random
        # numbers): candidates differ only by their weights, not by their luck. The evaluation
        # below uses other games.
        seeds = [10_000 + i for i in range(games)]
        scores = [win_rate(env, linear_policy(t), seeds, seed + g) for t in thetas]
        best = thetas[np.argsort(scores)[-elite:]]
        # Move half-way to the elite: a noisy generation cannot throw the search far off.
        mean = 0.5 * mean + 0.5 * best.mean(axis=0)
        std = 0.5 * std + 0.5 * best.std(axis=0) + 0.05
        print(f"generation {g + 1}: share of the gems banked, best candidate {max(scores):.2f},"
              f" mean {np.mean(scores):.2f}")
    return mean


def evaluate(theta: np.ndarray[Any, Any], games: int, heuristic: bool = True
             ) -> dict[str, float]:
    """Return the win rates (ties shared) in seat 0 against three random bots of the learned
    policy, the random bot and (with ``heuristic``) the heuristic bot, over the same ``games``
    seeded games."""
    env = make_env()
    seeds = [1_000_000 + i for i in range(games)]
    players = {"learned": linear_policy(theta), "random": bot_policy(env, sr.RandomBot())}
    if heuristic:
        players["heuristic"] = bot_policy(env, sr.HeuristicBot())
    return {name: win_rate(env, policy, seeds, 1) for name, policy in players.items()}


def margin(p: float, q: float, games: int) -> float:
    """Return how many standard errors the win rate ``p`` lies above ``q`` (two proportions)."""
    se = math.sqrt((p * (1 - p) + q * (1 - q)) / games) or 1e-9
    return (p - q) / se


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    """Train, evaluate and print the win rates; return them (and the margin in standard errors)."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--generations", type=int, default=5)
    ap.add_argument("--population", type=int, default=12)
    ap.add_argument("--games", type=int, default=10, help="games per candidate")
    ap.add_argument("--eval-games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-heuristic", action="store_true", help="skip the heuristic's games")
    args = ap.parse_args(argv)
    theta = train(args.generations, args.population, args.games, args.seed)
    rates = evaluate(theta, args.eval_games, heuristic=not args.no_heuristic)
    rates["margin_se"] = margin(rates["learned"], rates["random"], args.eval_games)
    print(f"win rate in seat 0 against 3 random bots, {args.eval_games} games:")
    for name in ("learned", "random", "heuristic"):
        if name in rates:
            print(f"  {name:9s} {rates[name]:.3f}")
    print(f"learned - random = {rates['learned'] - rates['random']:+.3f} "
          f"({rates['margin_se']:.1f} standard errors)")
    return rates


if __name__ == "__main__":
    main()
