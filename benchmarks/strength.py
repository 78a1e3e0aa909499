#!/usr/bin/env python3
"""Bot strength: one strong bot against three weaker ones, seats rotated (not run in CI).

Two matches by default: ``mcts`` against three ``heuristic`` bots, and ``heuristic`` against
three ``random`` bots, 4 players. The strong bot's win rate is reported with a 95% confidence
interval (normal approximation) against the 25% that equal strength would give; a shared
victory counts as ``1/k`` of a win for each of its ``k`` winners (K28), so win rates of a game
add up to 1. The games run on all cores and are seeded per game, so the numbers do not depend
on ``--jobs``.

    python benchmarks/strength.py [--mcts-games 400] [--heuristic-games 1000]
                                  [--mcts-iterations 120] [--variant standard] [--jobs 2]

With ``--ismcts GAMES`` (and the ``openspiel`` extra), it also pits ``MCTSBot`` against
OpenSpiel's own ``ISMCTSBot`` (random rollouts, UCT c = 2) at one table with two heuristic bots,
seats rotated: once at equal playouts (``--ismcts-simulations``, default the MCTS iterations),
once at equal time (ISMCTS given as many simulations as fit in the mean time MCTS took per
decision, measured in the first match). Each bot's win rate comes with its 95% interval.
"""

from __future__ import annotations

import argparse
import os
import time

import shock_rules as sr
from shock_rules.simulation import run_simulation


def match(strong: str, weak: str, games: int, variant: sr.Variant, jobs: int,
          seed: int) -> None:
    """Play one match and print the strong bot's results."""
    config = sr.GameConfig(players=4, variant=variant)
    t0 = time.perf_counter()
    doc = run_simulation(config, [strong, weak, weak, weak], games, seed, jobs, rotate=True)
    dt = time.perf_counter() - t0
    s = doc["slots"][0]
    weak_row = next(b for b in doc["bots"] if b["bot"] == weak)
    lo, hi = s["ci95"]
    verdict = "stronger" if lo > 0.25 else "weaker" if hi < 0.25 else "not distinguishable"
    print(f"{strong} vs 3 x {weak} ({variant.value}, {games} games, {dt:.0f}s): "
          f"win rate {s['win_rate']:.1%} [95% CI {lo:.1%}-{hi:.1%}] vs 25% -> {verdict}; "
          f"mean score {s['mean_score']:.1f} (each {weak}: {weak_row['mean_score']:.1f}); "
          f"withdrawals/game {s['withdrawals_per_game']:.2f}, "
          f"shocks/game {s['shocks_per_game']:.2f}", flush=True)


def _ismcts_game(task: tuple[int, int, int, int]) -> tuple[list[float], list[float], list[int]]:
    """Play one game: seat ``rotation`` is MCTSBot, the next ISMCTSBot, the others heuristic.
    Return each bot's share of the win, its thinking seconds and its decisions, in the order
    mcts, ismcts, heuristic (both heuristic seats pooled)."""
    import random

    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from shock_rules.envs import action_index
    from shock_rules.envs.openspiel import GAME_NAME

    seed, rotation, iterations, simulations = task
    game = pyspiel.load_game(GAME_NAME, {"players": 4})
    np_rng = np.random.RandomState(seed)
    rng = random.Random(seed)
    ours = sr.MCTSBot(iterations=iterations)
    theirs = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np_rng), 2.0,
                              max(1, simulations), random_state=np_rng)
    heuristic = sr.HeuristicBot()
    kind = {rotation % 4: 0, (rotation + 1) % 4: 1, (rotation + 2) % 4: 2,
            (rotation + 3) % 4: 2}
    spent, decided = [0.0, 0.0, 0.0], [0, 0, 0]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(np_rng.choice(ids, p=probs)))
            continue
        seat = state.current_player()
        k = kind[seat]
        t0 = time.perf_counter()
        if k == 1:
            action = int(theirs.step(state))
        else:
            bot = ours if k == 0 else heuristic
            action = action_index(bot.choose(sr.view(state.shock_state, seat), rng))
        spent[k] += time.perf_counter() - t0
        decided[k] += 1
        state.apply_action(action)
    winners = sr.winners(state.shock_state)
    share = [0.0, 0.0, 0.0]
    for seat in winners:
        share[kind[seat]] += 1 / len(winners)
    return share, spent, decided


def ismcts_match(games: int, iterations: int, simulations: int, jobs: int, seed: int,
                 label: str) -> float:
    """Play MCTSBot against ISMCTSBot; print both win rates; return MCTS's seconds per
    decision."""
    import math
    from concurrent.futures import ProcessPoolExecutor

    tasks = [(seed * 100_003 + g, g % 4, iterations, simulations) for g in range(games)]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        results = list(pool.map(_ismcts_game, tasks))
    dt = time.perf_counter() - t0
    names = (f"MCTSBot({iterations})", f"ISMCTSBot({simulations})", "heuristic (each)")
    print(f"{label}: {games} games, {dt:.0f}s; 4 players, 2 heuristic bots; 25% = equal",
          flush=True)
    per_decision = 0.0
    for k, name in enumerate(names):
        wins = [r[0][k] / (2 if k == 2 else 1) for r in results]
        rate = sum(wins) / games
        sd = math.sqrt(sum((w - rate) ** 2 for w in wins) / max(1, games - 1))
        half = 1.96 * sd / math.sqrt(games)
        spent = sum(r[1][k] for r in results)
        decided = sum(r[2][k] for r in results)
        ms = 1000 * spent / max(1, decided)
        if k == 0:
            per_decision = spent / max(1, decided)
        low, high = max(0.0, rate - half), min(1.0, rate + half)
        print(f"  {name:<22} win rate {rate:6.1%} [95% CI {low:.1%}-{high:.1%}]"
              f"  {ms:6.1f} ms per decision", flush=True)
    return per_decision


def ismcts_speed(seconds: float) -> float:
    """Return ISMCTSBot's simulations per second on this game (4 players, early positions)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from shock_rules.envs.openspiel import GAME_NAME

    game = pyspiel.load_game(GAME_NAME, {"players": 4})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 20,
                           random_state=rng)
    done, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while state.is_chance_node() or len(state.legal_actions()) < 2:
            if state.is_chance_node():
                ids, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(ids, p=probs)))
            else:
                state.apply_action(state.legal_actions()[0])
        bot.step(state)
        done += 20
    return done / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--mcts-games", type=int, default=400)
    ap.add_argument("--heuristic-games", type=int, default=1000)
    ap.add_argument("--mcts-iterations", type=int, default=120)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ismcts", type=int, default=0, metavar="GAMES",
                    help="also play MCTSBot against OpenSpiel's ISMCTSBot, GAMES per match")
    ap.add_argument("--ismcts-simulations", type=int, default=None)
    args = ap.parse_args()
    variant = sr.Variant.parse(args.variant)
    if args.heuristic_games:
        match("heuristic", "random", args.heuristic_games, variant, args.jobs, args.seed)
    if args.mcts_games:
        match(f"mcts:{args.mcts_iterations}", "heuristic", args.mcts_games, variant, args.jobs,
              args.seed)
    if args.ismcts:
        sims = args.ismcts_simulations or args.mcts_iterations
        per_decision = ismcts_match(args.ismcts, args.mcts_iterations, sims, args.jobs,
                                    args.seed, "equal playouts")
        rate = ismcts_speed(3.0)
        timed = max(1, round(rate * per_decision))
        print(f"ISMCTSBot: {rate:.0f} simulations/s, so {timed} fit in MCTSBot's"
              f" {1000 * per_decision:.1f} ms", flush=True)
        ismcts_match(args.ismcts, args.mcts_iterations, timed, args.jobs, args.seed + 1,
                     "equal time")


if __name__ == "__main__":
    main()
