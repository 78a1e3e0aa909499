"""``shock-rules simulate``: many games between bots, with win rates and their confidence.

Each game ``g`` draws all its randomness (chance and the bots' choices) from its own generator
seeded with ``(seed, g)``, so the results depend only on the arguments, never on ``--jobs`` or
the order in which worker processes finish.

The *lineup* names one bot per slot. With rotation (the default) slot ``i`` sits at seat
``(i + g) % players`` in game ``g``, so seat order favours no slot. A shared victory (K28)
counts as ``1/k`` of a win for each of the ``k`` winners, so the win rates of a game sum to 1
and equal strength means ``1/players``.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
from collections.abc import Sequence
from typing import Any, TextIO

from .._json import SCHEMA, config_to_dict
from .._rules.config import GameConfig, Variant
from .._rules.events import Shocked, Withdrew
from .._rules.state import State
from ..bots import Bot, make_bot, play_game

__all__ = ["GameResult", "SlotStats", "run_simulation", "simulate_command"]

#: z for a two-sided 95% confidence interval.
Z95 = 1.959963984540054

# One game's result: the slot at each seat, and per slot its score, its share of the win,
# its withdrawals and its shocks.
GameResult = dict[str, Any]


def lineup_of(names: Sequence[str], players: int) -> list[str]:
    """Return one bot name per slot: the names given, the last one filling the other slots.

    Raise :class:`ValueError` for too many names or an unknown bot.
    """
    names = [n.strip().lower() for n in names if n.strip()]
    if not names:
        raise ValueError("--bots needs at least one bot name")
    if len(names) > players:
        raise ValueError(f"--bots names {len(names)} bots for {players} players")
    for n in names:
        make_bot(n)  # validates the name
    return names + [names[-1]] * (players - len(names))


def game_seed(seed: int, game: int) -> str:
    """Return the seed of game ``game`` of a simulation (text seeds hash the same everywhere)."""
    return f"shock-rules-simulate:{seed}:{game}"


def play_one(task: tuple[GameConfig, tuple[str, ...], int, int, bool]) -> GameResult:
    """Play game ``g`` of a simulation and return its result (runs in worker processes)."""
    config, lineup, seed, g, rotate = task
    n = config.players
    rng = random.Random(game_seed(seed, g))
    shift = g % n if rotate else 0
    slot_at = [(seat - shift) % n for seat in range(n)]
    bots: list[Bot] = [make_bot(lineup[slot_at[seat]]) for seat in range(n)]
    withdrawals = [0] * n
    shocks = [0] * n

    def count(state: State) -> None:
        for e in state.events:
            if type(e) is Withdrew:
                withdrawals[slot_at[e.seat]] += 1
            elif type(e) is Shocked:
                shocks[slot_at[e.seat]] += 1

    state = play_game(config, bots, rng, on_step=count)
    best = max(state.in_bag)
    winners = [s for s in range(n) if state.in_bag[s] == best]
    score = [0] * n
    share = [0.0] * n
    for seat in range(n):
        score[slot_at[seat]] = state.in_bag[seat]
        if seat in winners:
            share[slot_at[seat]] = 1.0 / len(winners)
    return {"game": g, "slot_at_seat": slot_at, "scores": score, "win_share": share,
            "withdrawals": withdrawals, "shocks": shocks}


def _mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Return the mean and a 95% confidence interval (normal approximation with the sample
    standard deviation; exact enough for the hundreds of games a simulation plays)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0, 1.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


SlotStats = dict[str, Any]


def summarize(lineup: Sequence[str], results: Sequence[GameResult]) -> tuple[list[SlotStats],
                                                                              list[SlotStats]]:
    """Return the statistics per slot and per bot name (a bot in several slots is averaged per
    game over its slots before the confidence interval is taken)."""
    games = len(results)

    def stats(label: str, bot: str, slots: list[int]) -> SlotStats:
        k = len(slots)
        share = [sum(r["win_share"][s] for s in slots) / k for r in results]
        rate, lo, hi = _mean_ci(share)
        return {
            "slot": label, "bot": bot, "games": games,
            "wins": round(sum(share) * k, 6),
            "win_rate": round(rate, 6), "ci95": [round(lo, 6), round(hi, 6)],
            "mean_score": round(sum(r["scores"][s] for r in results for s in slots)
                                / (games * k), 4),
            "withdrawals_per_game": round(sum(r["withdrawals"][s] for r in results
                                              for s in slots) / (games * k), 4),
            "shocks_per_game": round(sum(r["shocks"][s] for r in results for s in slots)
                                     / (games * k), 4),
        }

    per_slot = [stats(str(i), name, [i]) for i, name in enumerate(lineup)]
    per_bot = [stats("all", name, [i for i, x in enumerate(lineup) if x == name])
               for name in dict.fromkeys(lineup)]
    return per_slot, per_bot


def run_simulation(config: GameConfig, lineup: Sequence[str], games: int, seed: int,
                   jobs: int = 1, rotate: bool = True,
                   progress: Any = None) -> dict[str, Any]:
    """Play ``games`` games and return the results document (plain data, JSON-ready).

    ``progress``, when given, is called with the number of games finished so far.
    """
    tasks = [(config, tuple(lineup), seed, g, rotate) for g in range(games)]
    results: list[GameResult] = []
    if jobs <= 1 or games <= 1:
        for t in tasks:
            results.append(play_one(t))
            if progress is not None:
                progress(len(results))
    else:
        # spawn: the same behaviour on every platform, and no fork of a threaded parent.
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(min(jobs, games)) as pool:
            chunk = max(1, min(8, games // (4 * jobs)))
            for r in pool.imap(play_one, tasks, chunksize=chunk):
                results.append(r)
                if progress is not None:
                    progress(len(results))
    per_slot, per_bot = summarize(lineup, results)
    return {
        "schema": SCHEMA,
        "type": "simulation",
        "config": config_to_dict(config),
        "games": games,
        "seed": seed,
        "rotate": rotate,
        "lineup": list(lineup),
        "win_counting": "a shared victory counts 1/k of a win for each of its k winners",
        "slots": per_slot,
        "bots": per_bot,
        "results": [{"scores": r["scores"], "slot_at_seat": r["slot_at_seat"]}
                    for r in results],
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def print_table(doc: dict[str, Any], out: TextIO) -> None:
    """Print the results as a table (rich)."""
    from rich.console import Console
    from rich.table import Table

    console = Console(file=out, width=None if out.isatty() else 100, highlight=False)
    cfg = doc["config"]
    title = (f"{doc['games']} games, {cfg['players']} players, {cfg['variant']} variant, "
             f"seed {doc['seed']}" + (", seats rotated" if doc["rotate"] else ""))
    table = Table(title=title, caption=f"equal strength: {_pct(1 / cfg['players'])}; "
                  "shared wins count fractionally; CI: 95%, normal approximation")
    for col in ("slot", "bot", "win rate", "95% CI", "mean score", "withdrawals/game",
                "shocks/game"):
        table.add_column(col, justify="left" if col in ("slot", "bot") else "right")
    rows = list(doc["slots"])
    if len(doc["bots"]) < len(doc["slots"]):
        rows += [b for b in doc["bots"]
                 if sum(1 for s in doc["slots"] if s["bot"] == b["bot"]) > 1]
    for r in rows:
        lo, hi = r["ci95"]
        table.add_row(r["slot"], r["bot"], _pct(r["win_rate"]), f"{_pct(lo)}-{_pct(hi)}",
                      f"{r['mean_score']:.1f}", f"{r['withdrawals_per_game']:.2f}",
                      f"{r['shocks_per_game']:.2f}")
    console.print(table)


def simulate_command(players: int, variant: Variant, names: Sequence[str], games: int,
                     seed: int, jobs: int, rotate: bool, out_path: str | None,
                     out: TextIO, err: TextIO) -> int:
    """Run ``shock-rules simulate``; return the exit status."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    config = GameConfig(players=players, variant=variant)
    lineup = lineup_of(names, players)
    console = Console(file=err)
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True,
                  disable=not err.isatty()) as bar:
        task = bar.add_task("playing", total=games)
        doc = run_simulation(config, lineup, games, seed, jobs, rotate,
                             progress=lambda done: bar.update(task, completed=done))
    print_table(doc, out)
    if out_path is not None:
        with open(out_path, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        print(f"results written to {out_path}", file=out)
    return 0
