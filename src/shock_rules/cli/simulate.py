"""``shock-rules simulate``: many games between bots, with win rates and their confidence.

Each game ``g`` draws all its randomness (chance and the bots' choices) from its own generator
seeded with ``(seed, g)``, so the results depend only on the arguments, never on ``--jobs`` or
the order in which worker processes finish.

The *lineup* names one bot per slot. With rotation (the default) slot ``i`` sits at seat
``(i + g) % players`` in game ``g``, so seat order favours no slot. A shared victory (K28)
counts as ``1/k`` of a win for each of the ``k`` winners, so the win rates of a game sum to 1
and equal strength means ``1/players``.

A win rate is the mean of the per-game win shares; its 95% confidence interval is the Wilson
score interval with that mean and the number of games. For whole wins this is the usual
interval for a proportion, right at 0 and 100% too (0 wins in 20 games: 0.0%-16.1%, where
the normal approximation claims 0.0%-0.0%). Fractional shares only make it wider than it
need be: a per-game value between 0 and 1 with mean ``p`` has a variance of at most
``p(1 - p)``, the variance the Wilson interval assumes. A bot in several slots is averaged per
game over its slots first, and the same holds.

While the games run, a progress bar (games done, rate, time left) is drawn on standard error
when it is a terminal and ``--quiet`` is not given. ``--out FILE`` is checked to be writable
before the first game (exit status 1 if not).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .._json import config_to_dict
from .._rules.config import GameConfig, Variant
from .._rules.events import Shocked, Withdrew
from .._rules.state import State
from ..bots import Bot, make_bot, play_game
from ._args import (
    PROG,
    bots_arg,
    common_args,
    jobs_default,
    path_text,
    positive_arg,
    report,
    seed_arg,
    unwritable,
)

__all__ = ["GameResult", "SlotStats", "register", "run_simulation", "simulate_command",
           "wilson"]

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


def wilson(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval ``(low, high)`` of a proportion ``p`` observed in
    ``n`` trials (``n = 0``: the whole range 0-1)."""
    if n <= 0:
        return 0.0, 1.0
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(max(0.0, p * (1 - p) / n + z2n / (4 * n)))
    return max(0.0, centre - half), min(1.0, centre + half)


def _mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Return the mean of per-game win shares (each 0-1) and its 95% Wilson interval (see the
    module docstring for why it holds for fractional shares)."""
    n = len(values)
    mean = sum(values) / n if n else 0.0
    lo, hi = wilson(mean, n)
    return mean, lo, hi


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
        "schema": "shock-rules/1",
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
                  "shared wins count fractionally; CI: 95%, Wilson score interval")
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
                     out: TextIO, err: TextIO, *, quiet: bool = False) -> int:
    """Run ``shock-rules simulate``; return the exit status.

    The progress bar is drawn on ``err`` when it is a terminal, unless ``quiet``.
    """
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        """Games per second, once there is a rate to show."""

        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:.1f} games/s",
                        style="progress.data.speed")

    config = GameConfig(players=players, variant=variant)
    lineup = lineup_of(names, players)
    console = Console(file=err)
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  RateColumn(), "elapsed", TimeElapsedColumn(), "left", TimeRemainingColumn(),
                  console=console, transient=True,
                  disable=quiet or not err.isatty()) as bar:
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


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``simulate`` sub-command to the command's sub-parsers."""
    p = sub.add_parser("simulate", help="play many games between bots and compare them")
    common_args(p)
    p.add_argument("--games", type=positive_arg("--games"), default=200,
                   help="number of games (default 200)")
    p.add_argument("--bots", type=bots_arg, default=["heuristic", "random"],
                   help="one bot per slot, comma-separated; the last fills the other slots "
                        "(default heuristic,random; 'mcts:N' sets its iterations)")
    p.add_argument("--seed", type=seed_arg, default=0, help="random seed (default 0)")
    p.add_argument("--jobs", type=positive_arg("--jobs"), default=jobs_default(),
                   help="worker processes (default: all cores); results do not depend on it")
    p.add_argument("--no-rotate", dest="rotate", action="store_false",
                   help="keep each slot at its seat (default: rotate seats every game)")
    p.add_argument("--out", metavar="FILE", default=None,
                   help="write the results as JSON; checked before the first game")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress bar (there is none either when stderr is no terminal)")
    p.set_defaults(run=_run, parser=p)


def _run(args: argparse.Namespace) -> int:
    try:
        import rich  # noqa: F401
    except ImportError:
        args.parser.error("'simulate' needs the rich package: pip install 'shock-rules[cli]'")
    if len(args.bots) > args.players:
        args.parser.error(f"--bots names {len(args.bots)} bots for {args.players} players")
    if args.out is not None and (why := unwritable(args.out)) is not None:
        return report("simulate", f"cannot write {path_text(args.out)}: {why}", 1)
    try:
        return simulate_command(args.players, args.variant, args.bots, args.games, args.seed,
                                args.jobs, args.rotate, args.out, sys.stdout, sys.stderr,
                                quiet=args.quiet)
    except KeyboardInterrupt:
        print(f"\n{PROG} simulate: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:
        return report("simulate", f"cannot write {path_text(args.out or '')}: "
                      f"{exc.strerror or exc}", 1)
