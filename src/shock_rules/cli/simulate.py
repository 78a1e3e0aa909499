"""``shock-rules simulate``: many games between bots, with win rates and their confidence.

The games are played by :func:`shock_rules.simulation.run_simulation` (whose docstring says how
games are seeded, how seats rotate, how shared wins count and how the confidence intervals are
made): the results depend only on the arguments, never on ``--jobs``, the backend or the order
in which games finish. ``--backend ray`` spreads the games over a Ray cluster (``--address``;
without one, Ray starts embedded on this machine).

While the games run, a progress bar (games done, rate, time left) is drawn on standard error
when it is a terminal and ``--quiet`` is not given. ``--out FILE`` is checked to be writable
before the first game (exit status 1 if not).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Sequence
from typing import Any, Final, TextIO

from .. import games
from ..bots import bot_names
from ..simulation import lineup_of, run_simulation, start_ray
from ._args import (
    PROG,
    checked_names,
    clip_message,
    game_args,
    game_config,
    jobs_default,
    names_arg,
    path_text,
    positive_arg,
    quote,
    report,
    seed_arg,
    unwritable,
)

#: The lineup ``--bots`` gives when it is left out, per game: a heuristic bot against random
#: ones; a fast reaction bot (0.3 s) against ordinary ones (0.4 s).
DEFAULT_BOTS: Final = {"shock": ["heuristic", "random"], "melvin": ["reaction:0.3", "reaction"]}

__all__ = ["register", "simulate_command"]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def print_table(doc: dict[str, Any], out: TextIO) -> None:
    """Print the results as a table (rich)."""
    from rich.console import Console
    from rich.table import Table

    console = Console(file=out, width=None if out.isatty() else 110, highlight=False)
    cfg = doc["config"]
    game = games.get(doc.get("game", "shock"))
    variant = f", {cfg['variant']} variant" if "variant" in cfg else ""
    title = (f"{game.title}: {doc['games']} games, {cfg['players']} players{variant}, "
             f"seed {doc['seed']}" + (", seats rotated" if doc["rotate"] else ""))
    tallies = doc.get("tallies", ["withdrawals", "shocks"])
    table = Table(title=title, caption=f"equal strength: {_pct(1 / cfg['players'])}; "
                  "shared wins count fractionally; CI: 95%, Wilson score interval; "
                  f"{', '.join(t.replace('_', ' ') for t in tallies)}: per game")
    for col in ("slot", "bot", "win rate", "95% CI", "mean score",
                *(t.replace("_", " ") for t in tallies)):
        table.add_column(col, justify="left" if col in ("slot", "bot") else "right",
                         no_wrap=col in ("bot", "95% CI"),
                         min_width=max(len(w) for w in col.split()))
    rows = list(doc["slots"])
    if len(doc["bots"]) < len(doc["slots"]):
        rows += [b for b in doc["bots"]
                 if sum(1 for s in doc["slots"] if s["bot"] == b["bot"]) > 1]
    for r in rows:
        lo, hi = r["ci95"]
        slot, bot = r["slot"], r["bot"]
        if slot == "all":  # a bot in several slots, pooled: name the slots it sums up
            slot = ",".join(str(s["slot"]) for s in doc["slots"] if s["bot"] == bot)
            bot = f"{bot} (pooled)"
        table.add_row(slot, bot, _pct(r["win_rate"]), f"{_pct(lo)}-{_pct(hi)}",
                      f"{r['mean_score']:.1f}",
                      *(f"{r[f'{t}_per_game']:.2f}" for t in tallies))
    console.print(table)


def simulate_command(config: object, names: Sequence[str], count: int,
                     seed: int, jobs: int, rotate: bool, out_path: str | None,
                     out: TextIO, err: TextIO, *, quiet: bool = False,
                     backend: str = "local", address: str | None = None) -> int:
    """Run ``shock-rules simulate`` for ``count`` games of the game ``config`` configures;
    return the exit status.

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

    game = games.of(config)
    lineup = lineup_of(names, game.players_of(config), game.name)
    console = Console(file=err)
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  RateColumn(), "elapsed", TimeElapsedColumn(), "left", TimeRemainingColumn(),
                  console=console, transient=True,
                  disable=quiet or not err.isatty()) as bar:
        task = bar.add_task("playing", total=count)
        doc = run_simulation(config, lineup, count, seed, jobs, rotate,
                             progress=lambda done: bar.update(task, completed=done),
                             backend=backend, address=address)
    print_table(doc, out)
    if out_path is not None:
        with open(out_path, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        print(f"results written to {out_path}", file=out)
    return 0


def register(sub: argparse._SubParsersAction[Any], game: str = "shock") -> None:
    """Add the ``simulate`` sub-command to the command's sub-parsers (``game``: the default
    of ``--game``)."""
    p = sub.add_parser("simulate", help="play many games between bots and compare them",
                       description=("Play many games between bots and compare them, with 95% "
                                    "confidence intervals."))
    game_args(p, game)
    p.add_argument("--games", type=positive_arg("--games"), default=200,
                   help="number of games (default 200)")
    p.add_argument("--bots", type=names_arg, default=None,
                   help="one bot per slot, comma-separated; the last fills the other slots. "
                        "shock: random, heuristic, mcts ('mcts:N' sets its iterations; "
                        "default heuristic,random); melvin: random, reaction ('reaction:0.3' "
                        "sets its mean reaction time in seconds; default reaction:0.3,reaction)")
    p.add_argument("--seed", type=seed_arg, default=0, help="random seed (default 0)")
    p.add_argument("--jobs", type=positive_arg("--jobs"), default=jobs_default(),
                   help="worker processes (default: all cores); results do not depend on it")
    p.add_argument("--no-rotate", dest="rotate", action="store_false",
                   help="keep each slot at its seat (default: rotate seats every game)")
    p.add_argument("--out", metavar="FILE", default=None,
                   help="write the results as JSON; checked before the first game")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local: worker processes on this machine (default); ray: batches of "
                        "games on a Ray cluster (pip install 'shock-rules[ray]')")
    p.add_argument("--address", metavar="ADDR", default=None,
                   help="the Ray cluster to use with --backend ray ('auto', 'ray://HOST:PORT'); "
                        "default: start Ray on this machine with --jobs CPUs")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress bar (there is none either when stderr is no terminal)")
    p.set_defaults(run=_run, parser=p)


def _run(args: argparse.Namespace) -> int:
    try:
        import rich  # noqa: F401
    except ImportError:
        args.parser.error("'simulate' needs the rich package: pip install 'shock-rules[cli]'")
    if args.address is not None and args.backend != "ray":
        args.parser.error("--address needs --backend ray")
    if args.backend == "ray" and importlib.util.find_spec("ray") is None:
        args.parser.error("--backend ray needs Ray: pip install 'shock-rules[ray]'")
    config = game_config(args)
    bots = checked_names(args, args.bots or DEFAULT_BOTS.get(args.game)
                         or list(bot_names(args.game)[:1]))
    if len(bots) > args.players:
        args.parser.error(f"--bots names {len(bots)} bots for {args.players} players")
    if args.out is not None and (why := unwritable(args.out)) is not None:
        return report("simulate", f"cannot write {path_text(args.out)}: {why}", 1)
    stop_ray = None
    if args.backend == "ray":
        try:
            # Started here, so that a bad address is one line of error; the simulation then
            # uses this Ray session and leaves it to us to end.
            stop_ray = start_ray(args.address, args.jobs)
        except KeyboardInterrupt:
            print(f"\n{PROG} simulate: interrupted", file=sys.stderr)
            return 130
        except (ValueError, RuntimeError, OSError) as exc:
            # What Ray raises for an address it cannot use: ValueError for one it cannot
            # parse ("", "1.2.3.4") or a ray:// one without ray[client], RuntimeError for an
            # unknown scheme ("nonsense://x"), ConnectionError when no cluster runs ("auto");
            # start_ray's own ConnectionError when nothing answers at host:port.
            where = "" if args.address is None else f" at {quote(args.address)}"
            return report("simulate", f"cannot start or reach Ray{where}:"
                          f" {clip_message(str(exc) or type(exc).__name__)}", 2)
    try:
        return simulate_command(config, bots, args.games, args.seed,
                                args.jobs, args.rotate, args.out, sys.stdout, sys.stderr,
                                quiet=args.quiet, backend=args.backend, address=args.address)
    except KeyboardInterrupt:
        print(f"\n{PROG} simulate: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:
        if args.out is None:  # not a file's error (a Ray connection's, say)
            return report("simulate", clip_message(str(exc) or type(exc).__name__), 1)
        return report("simulate", f"cannot write {path_text(args.out)}: "
                      f"{exc.strerror or exc}", 1)
    finally:
        if stop_ray is not None:
            stop_ray()
