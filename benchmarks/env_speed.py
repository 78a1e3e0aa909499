#!/usr/bin/env python3
"""Environment steps per second of the adapters, beside other games' through the same loop.

One random driver for every environment: at each step it picks uniformly among the legal
actions of the action mask (seeded), and starts a new game when one ends. Measured side by
side, in interleaved rounds of ``--seconds`` each (the machine is shared: medians of
``--rounds`` rounds, with their spread):

- our PettingZoo AEC environment (``shock_rules.envs.pettingzoo.env``, wrapped as PettingZoo's
  classic games are) against PettingZoo's own ``texas_holdem_v4`` (RLCard;
  ``pip install 'pettingzoo[classic]'``), with the ratio;
- our Gymnasium environment (``ShockRules-v0``, one seat against heuristic bots, whose moves
  happen inside a step);
- our OpenSpiel game (``python_shock_rules``) against OpenSpiel's ``oh_hell`` (C++), each
  driven from Python through ``pyspiel`` with the information-state tensor read at every
  decision, as an agent would (``oh_hell`` has no observation tensor), chance outcomes sampled
  by their probabilities.

With ``--game melvin`` it measures our PettingZoo parallel environment of Melvin Vs. Kronk
instead (``shock_rules.envs.pettingzoo.parallel_env``): at each step every agent picks
uniformly among the legal indexes of its mask (the wait index included), and the steps per
second count parallel steps (each one every agent's action).

    python benchmarks/env_speed.py [--rounds 5] [--seconds 2] [--players 4] [--game melvin]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np


def pettingzoo_loop(make: Callable[[], object], seconds: float, seed: int) -> float:
    """Steps per second of a PettingZoo AEC environment under the random driver."""
    env = make()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)  # type: ignore[attr-defined]
    steps, t0 = 0, time.perf_counter()
    while True:
        for _agent in env.agent_iter():  # type: ignore[attr-defined]
            obs, _, terminated, truncated, _ = env.last()  # type: ignore[attr-defined]
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)  # type: ignore[attr-defined]
            steps += 1
            if steps % 64 == 0 and time.perf_counter() - t0 >= seconds:
                return steps / (time.perf_counter() - t0)
        env.reset(seed=int(rng.integers(1 << 30)))  # type: ignore[attr-defined]


def parallel_loop(make: Callable[[], object], seconds: float, seed: int) -> float:
    """Parallel steps per second of a PettingZoo parallel environment under the random
    driver (every agent a legal index of its mask)."""
    env = make()
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)  # type: ignore[attr-defined]
    steps, t0 = 0, time.perf_counter()
    while True:
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
        obs, _, _, _, _ = env.step(actions)  # type: ignore[attr-defined]
        steps += 1
        if not env.agents:  # type: ignore[attr-defined]
            obs, _ = env.reset(seed=int(rng.integers(1 << 30)))  # type: ignore[attr-defined]
        if steps % 64 == 0 and time.perf_counter() - t0 >= seconds:
            return steps / (time.perf_counter() - t0)


def melvin_main(args: argparse.Namespace) -> None:
    """Measure the Melvin Vs. Kronk parallel environment alone (``--game melvin``)."""
    from shock_rules.envs.pettingzoo import parallel_env

    rates = []
    for r in range(args.rounds):
        rates.append(parallel_loop(lambda: parallel_env(players=args.players), args.seconds,
                                   args.seed + r))
        print(f"round {r + 1}/{args.rounds} done", flush=True)
    print(_summary(f"shock_rules Melvin parallel ({args.players} players)", rates))


def gymnasium_loop(players: int, seconds: float, seed: int) -> float:
    """Steps per second of ``ShockRules-v0`` under the random driver."""
    import gymnasium

    import shock_rules.envs.gymnasium  # noqa: F401 -- registers ShockRules-v0

    env = gymnasium.make("ShockRules-v0", players=players)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps, t0 = 0, time.perf_counter()
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            _, info = env.reset(seed=int(rng.integers(1 << 30)))
        if steps % 64 == 0 and time.perf_counter() - t0 >= seconds:
            return steps / (time.perf_counter() - t0)


def openspiel_loop(game: object, seconds: float, seed: int) -> float:
    """Decisions per second of an OpenSpiel game driven from Python, reading the deciding
    player's information-state tensor at every decision; chance sampled by its
    probabilities."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    steps, t0 = 0, time.perf_counter()
    while True:
        if state.is_terminal():
            state = game.new_initial_state()  # type: ignore[attr-defined]
        elif state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(ids, p=np.asarray(probs) / sum(probs))))
        else:
            state.information_state_tensor(state.current_player())
            state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1
            if steps % 64 == 0 and time.perf_counter() - t0 >= seconds:
                return steps / (time.perf_counter() - t0)


def _summary(name: str, rates: list[float]) -> str:
    return (f"{name:<40} {statistics.median(rates):>9,.0f} steps/s"
            f"  (rounds {min(rates):,.0f}-{max(rates):,.0f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", choices=("shock", "melvin"), default="shock")
    args = ap.parse_args()
    if args.game == "melvin":
        melvin_main(args)
        return

    from pettingzoo.classic import texas_holdem_v4

    from shock_rules.envs import pettingzoo as ours_pz

    runs: dict[str, Callable[[int], float]] = {
        f"shock_rules PettingZoo ({args.players} players)": lambda s: pettingzoo_loop(
            lambda: ours_pz.env(players=args.players), args.seconds, s),
        "PettingZoo texas_holdem_v4 (2 players)": lambda s: pettingzoo_loop(
            texas_holdem_v4.env, args.seconds, s),
        f"shock_rules Gymnasium ({args.players} players)": lambda s: gymnasium_loop(
            args.players, args.seconds, s),
    }
    try:
        import pyspiel

        import shock_rules.envs.openspiel  # noqa: F401 -- registers python_shock_rules

        ours_os = pyspiel.load_game("python_shock_rules", {"players": args.players})
        oh_hell = pyspiel.load_game("oh_hell", {"players": args.players})
        runs[f"shock_rules OpenSpiel ({args.players} players)"] = (
            lambda s: openspiel_loop(ours_os, args.seconds, s))
        runs[f"OpenSpiel oh_hell ({args.players} players)"] = (
            lambda s: openspiel_loop(oh_hell, args.seconds, s))
    except ImportError:
        print("(no OpenSpiel: pip install 'shock-rules[openspiel]' for its rows)")
    rates: dict[str, list[float]] = {name: [] for name in runs}
    for r in range(args.rounds):  # interleaved, so that every row sees the same machine
        for name, run in runs.items():
            rates[name].append(run(args.seed + r))
        print(f"round {r + 1}/{args.rounds} done", flush=True)
    for name in runs:
        print(_summary(name, rates[name]))
    ours, theirs = list(runs)[:2]
    ratios = [a / b for a, b in zip(rates[ours], rates[theirs], strict=True)]
    print(f"PettingZoo: shock_rules / texas_holdem_v4 = {statistics.median(ratios):.2f}x"
          f" (rounds {min(ratios):.2f}-{max(ratios):.2f})")
    names = list(runs)
    if len(names) == 5:
        ratios = [a / b for a, b in zip(rates[names[3]], rates[names[4]], strict=True)]
        print(f"OpenSpiel: shock_rules / oh_hell = {statistics.median(ratios):.2f}x"
              f" (rounds {min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    main()
