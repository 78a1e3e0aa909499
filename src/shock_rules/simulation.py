"""Simulations: many seeded games between bots, on this machine or on a Ray cluster.

:func:`run_simulation` plays a *lineup* -- one bot name per slot, as :func:`~shock_rules.bots.
make_bot` knows them -- for a number of games of either game (the one its config configures)
and returns a results document (plain data, JSON-ready): per slot and per bot the win rate
with its 95% confidence interval, mean score, the game's tallies per game (Shock!'s
withdrawals and shocks; Melvin Vs. Kronk's matches won, wrong slaps and eliminations), and
every game's scores. ``shock-rules simulate`` is this function with a table and a progress
bar.

Each game ``g`` draws all its randomness (chance and the bots' choices) from its own generator
seeded with ``(seed, g)``, so the results depend only on the arguments: never on ``jobs``, on
the backend, on the size of the Ray cluster or on the order in which games finish.

With rotation (the default) slot ``i`` sits at seat ``(i + g) % players`` in game ``g``, so
seat order favours no slot. A shared victory (K28) counts as ``1/k`` of a win for each of the
``k`` winners, so the win rates of a game sum to 1 and equal strength means ``1/players``.

A win rate is the mean of the per-game win shares; its 95% confidence interval is the Wilson
score interval with that mean and the number of games. For whole wins this is the usual
interval for a proportion, right at 0 and 100% too (0 wins in 20 games: 0.0%-16.1%, where
the normal approximation claims 0.0%-0.0%). Fractional shares only make it wider than it
need be: a per-game value between 0 and 1 with mean ``p`` has a variance of at most
``p(1 - p)``, the variance the Wilson interval assumes. A bot in several slots is averaged per
game over its slots first, and the same holds.

Backends:

- ``"local"``: ``jobs=1`` plays in this process; more jobs use worker processes, which never
  take Ctrl-C (SIGINT): this process alone gets its ``KeyboardInterrupt``, and the workers end
  with it.
- ``"ray"`` (the ``[ray]`` extra): batches of games are Ray tasks. With ``address=None``, Ray is
  started embedded on this machine with ``jobs`` CPUs and shut down afterwards; with an address
  (``"auto"``, or ``"ray://head:10001"``) the games run on that cluster, whose workers need
  ``shock-rules`` installed in the same version. A Ray session the caller already started is
  used as it is.

>>> import shock_rules as sr
>>> doc = run_simulation(sr.GameConfig(players=3), ["heuristic", "random"], games=4, seed=1)
>>> doc["games"], [s["bot"] for s in doc["slots"]]
(4, ['heuristic', 'random', 'random'])
>>> from shock_rules import melvin
>>> doc = run_simulation(melvin.GameConfig(players=3), ["reaction:0.2", "reaction"], games=4,
...                      seed=1)
>>> doc["game"], doc["tallies"]
('melvin', ['matches_won', 'wrong_slaps', 'eliminated'])
"""

from __future__ import annotations

import math
import multiprocessing
import multiprocessing.pool
import random
import signal
import socket
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from multiprocessing import resource_tracker
from typing import Any, Final

from . import games as _games
from ._errors import (
    InvalidArgumentError,
    check_bool,
    check_int,
    check_number,
    quoted,
)
from ._shared import SCHEMA
from .bots import Bot, make_bot, play_game
from .games import AnyGame

__all__ = [
    "BACKENDS", "GameResult", "SlotStats", "game_seed", "lineup_of", "play_batch", "play_one",
    "run_simulation", "summarize", "wilson",
]

#: z for a two-sided 95% confidence interval.
Z95 = 1.959963984540054

# One game's result: the slot at each seat, and per slot its score, its share of the win,
# its withdrawals and its shocks.
GameResult = dict[str, Any]


def _check_list(name: str, value: object, what: str) -> Sequence[Any]:
    """Return ``value`` if it is a list or tuple (a sequence, not a string)."""
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)):
        raise InvalidArgumentError(f"invalid {name} {quoted(value)}: expected a list of {what}")
    return value


def _game_of(func: str, config: object) -> AnyGame:
    """Return the game ``config`` configures; raise :class:`~shock_rules.ConfigError` for what
    is no game's configuration."""
    return _games.config_game(config, f"{func}()")


def lineup_of(names: Sequence[str], players: int, game: str = "shock") -> list[str]:
    """Return one bot name per slot: the names given, the last one filling the other slots.

    Raise :class:`~shock_rules.InvalidArgumentError` (a ``ValueError``) for no names, too
    many names, an unknown bot of ``game`` (a registered game's name), names that are not a
    list of strings or a player count the game does not take.
    """
    _check_list("names", names, "bot names")
    if not all(isinstance(n, str) for n in names):
        raise InvalidArgumentError(
            f"invalid names {quoted(names)}: expected a list of bot names (strings)"
        )
    check_int("players", players)
    counts = _games.get(game).players
    if players not in counts:
        raise InvalidArgumentError(
            f"invalid players {quoted(players)}: expected {counts[0]} to {counts[-1]}"
        )
    names = [n.strip().lower() for n in names if n.strip()]
    if not names:
        raise InvalidArgumentError("a lineup needs at least one bot name")
    if len(names) > players:
        raise InvalidArgumentError(
            f"a lineup of {len(names)} bots is too long for {players} players"
        )
    for n in names:
        make_bot(n, game)  # validates the name
    return names + [names[-1]] * (players - len(names))


def game_seed(seed: int, game: int) -> str:
    """Return the seed of game ``game`` of a simulation (text seeds hash the same everywhere).

    Raise :class:`~shock_rules.InvalidArgumentError` unless both are integers (``game`` 0 or
    more)."""
    _check_seed(seed)
    check_int("game", game, 0)
    return f"shock-rules-simulate:{seed}:{game}"


#: The largest seed, in absolute value: a seed is written into every game's seed text, and
#: Python refuses to write an integer of more than 4,300 digits.
MAX_SEED: Final = 10**100 - 1


def _check_seed(seed: object) -> int:
    value = check_int("seed", seed)
    if not -MAX_SEED <= value <= MAX_SEED:
        raise InvalidArgumentError(
            f"invalid seed {quoted(value)}: expected an integer of at most 100 digits")
    return value


def play_one(task: tuple[object, tuple[str, ...], int, int, bool]) -> GameResult:
    """Play game ``g`` of a simulation and return its result (runs in worker processes).

    ``task`` is ``(config, lineup, seed, g, rotate)`` (the config of any registered game):
    raise :class:`~shock_rules.InvalidArgumentError` (or :class:`~shock_rules.ConfigError` for
    the config) if it is not. Besides scores and win shares, the result counts each of the
    game's tallies per slot (Shock!'s withdrawals and shocks, Melvin's matches won...)."""
    if not isinstance(task, tuple) or len(task) != 5:
        raise InvalidArgumentError(
            f"invalid task {quoted(task)}: expected (config, lineup, seed, game, rotate)"
        )
    config, lineup, seed, g, rotate = task
    game = _game_of("play_one", config)
    n = game.players_of(config)
    _check_list("lineup", lineup, "bot names")
    if len(lineup) != n:
        raise InvalidArgumentError(f"invalid lineup {quoted(lineup)}: expected {n} bot names")
    game_seed(seed, g)  # checks both
    check_bool("rotate", rotate)
    rng = random.Random(game_seed(seed, g))
    shift = g % n if rotate else 0
    slot_at = [(seat - shift) % n for seat in range(n)]
    bots: list[Bot] = [make_bot(lineup[slot_at[seat]], game) for seat in range(n)]
    tallies = {name: [0] * n for name in game.tallies}

    def count(state: Any) -> None:
        for e in state.events:
            counted = game.tally(e)
            if counted is not None:
                tallies[counted[0]][slot_at[counted[1]]] += 1

    state = play_game(config, bots, rng, on_step=count)
    points = game.scores(state)
    winners = game.winners(state)
    score = [0] * n
    share = [0.0] * n
    for seat in range(n):
        score[slot_at[seat]] = points[seat]
        if seat in winners:
            share[slot_at[seat]] = 1.0 / len(winners)
    return {"game": g, "slot_at_seat": slot_at, "scores": score, "win_share": share,
            **tallies}


def wilson(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval ``(low, high)`` of a proportion ``p`` observed in
    ``n`` trials (``n = 0``: the whole range 0-1).

    Raise :class:`~shock_rules.InvalidArgumentError` unless ``p`` is a number 0 to 1, ``n`` an
    integer 0 or more and ``z`` a finite number above 0."""
    check_number("p", p)
    if not 0.0 <= p <= 1.0:
        raise InvalidArgumentError(f"invalid p {quoted(p)}: expected a proportion 0 to 1")
    check_int("n", n, 0)
    check_number("z", z, positive=True)
    if n == 0:
        return 0.0, 1.0
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(max(0.0, p * (1 - p) / n + z2n / (4 * n)))
    return max(0.0, centre - half), min(1.0, centre + half)


def _mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Return the mean of per-game win shares (each 0-1) and its 95% Wilson interval (see the
    module docstring for why it holds for fractional shares)."""
    n = len(values)
    # Clamped: a sum of shares could round a hair past 1, which wilson refuses.
    mean = min(1.0, max(0.0, sum(values) / n)) if n else 0.0
    lo, hi = wilson(mean, n)
    return mean, lo, hi


SlotStats = dict[str, Any]

#: What every game's result holds per slot, besides the game's own tallies.
_PER_SLOT: Final = ("scores", "win_share")
#: The fields of a result that are not per slot.
_NOT_PER_SLOT: Final = ("game", "slot_at_seat")


def tallies_of(results: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """Return the names of the tallies :func:`play_one` counted in ``results`` (Shock!'s
    ``withdrawals`` and ``shocks``...), in their order."""
    first: Mapping[str, Any] = (results[0] if results and isinstance(results[0], Mapping)
                                else {})
    return tuple(k for k in first if k not in _PER_SLOT and k not in _NOT_PER_SLOT)


def _check_results(lineup: object, results: object) -> None:
    """Raise :class:`~shock_rules.InvalidArgumentError` unless ``lineup`` is a list of bot
    names and ``results`` a non-empty list of :func:`play_one` results for it (each with the
    same tallies)."""
    lineup = _check_list("lineup", lineup, "bot names")
    if not lineup or not all(isinstance(n, str) for n in lineup):
        raise InvalidArgumentError(
            f"invalid lineup {quoted(lineup)}: expected a list of bot names (strings)"
        )
    results = _check_list("results", results, "game results")
    if not results:
        raise InvalidArgumentError("no results to summarize: expected at least one game")
    n = len(lineup)
    keys = (*_PER_SLOT, *tallies_of(results))
    for r in results:
        ok = isinstance(r, Mapping) and all(
            isinstance(r.get(key), Sequence) and len(r[key]) == n
            and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                    and math.isfinite(x) for x in r[key])
            for key in keys) and tallies_of([r]) == keys[len(_PER_SLOT):]
        if not ok:
            raise InvalidArgumentError(
                f"invalid result {quoted(r)}: expected a result of play_one, with"
                f" {', '.join(keys)} for each of the {n} slots"
            )


def summarize(lineup: Sequence[str], results: Sequence[GameResult]) -> tuple[list[SlotStats],
                                                                              list[SlotStats]]:
    """Return the statistics per slot and per bot name (a bot in several slots is averaged per
    game over its slots before the confidence interval is taken).

    Raise :class:`~shock_rules.InvalidArgumentError` unless ``lineup`` is a list of bot names
    and ``results`` a non-empty list of :func:`play_one` results for as many slots."""
    _check_results(lineup, results)
    games = len(results)
    tallies = tallies_of(results)

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
            **{f"{t}_per_game": round(sum(r[t][s] for r in results for s in slots)
                                      / (games * k), 4) for t in tallies},
        }

    per_slot = [stats(str(i), name, [i]) for i, name in enumerate(lineup)]
    per_bot = [stats("all", name, [i for i, x in enumerate(lineup) if x == name])
               for name in dict.fromkeys(lineup)]
    return per_slot, per_bot


BACKENDS: Final = ("local", "ray")


def run_simulation(config: object, lineup: Sequence[str], games: int, seed: int,
                   jobs: int = 1, rotate: bool = True,
                   progress: Callable[[int], object] | None = None, *,
                   backend: str = "local", address: str | None = None,
                   batch: int | None = None) -> dict[str, Any]:
    """Play ``games`` games and return the results document (plain data, JSON-ready).

    ``lineup`` names one bot per slot; the last name fills the slots left (see
    :func:`lineup_of`). ``backend="local"`` plays the
    games in this process (``jobs=1``) or in ``jobs`` worker processes; ``backend="ray"`` sends
    them in seeded batches of ``batch`` games to a Ray cluster at ``address`` (``None``: Ray
    started embedded on this machine, with ``jobs`` workers). The document is the same for the
    same arguments whatever the backend, ``jobs`` or ``batch``: each game draws its randomness
    from its own seed (:func:`game_seed`). ``progress``, when given, is called with the
    number of games finished so far.

    ``config`` is any registered game's configuration (:mod:`shock_rules.games`): Shock!'s
    :class:`~shock_rules.GameConfig` or Melvin Vs. Kronk's, whose races the bots' reaction
    times decide (:func:`~shock_rules.bots.play_game`); the lineup names that game's bots.

    Raise :class:`~shock_rules.ConfigError` if ``config`` is no game's configuration and
    :class:`~shock_rules.InvalidArgumentError` (a
    ``ValueError``) for any other bad argument: ``games``, ``jobs`` and ``batch`` must be
    positive integers and ``seed`` an integer (``None`` is refused: the document must be
    reproducible from its arguments), ``rotate`` a bool, ``progress`` ``None`` or a function,
    ``backend`` one of :data:`BACKENDS` and ``address`` ``None`` or a string.
    """
    game = _game_of("run_simulation", config)
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise InvalidArgumentError(
            f"unknown backend {quoted(backend)}: expected one of {', '.join(BACKENDS)}"
        )
    counts = (("games", games), ("jobs", jobs)) + (() if batch is None else (("batch", batch),))
    for name, value in counts:
        check_int(name, value, 1)
    _check_seed(seed)
    check_bool("rotate", rotate)
    if progress is not None and not callable(progress):
        raise InvalidArgumentError(
            f"invalid progress {quoted(progress)}: expected None or a function"
        )
    if address is not None and not isinstance(address, str):
        raise InvalidArgumentError(
            f"invalid address {quoted(address)}: expected None or a string such as 'auto'"
        )
    lineup = lineup_of(lineup, game.players_of(config), game.name)
    tasks = [(config, tuple(lineup), seed, g, rotate) for g in range(games)]
    if backend == "ray":
        results = _on_ray(tasks, jobs, address, batch, progress)
    else:
        results = _on_processes(tasks, jobs, progress)
    per_slot, per_bot = summarize(lineup, results)
    return {
        "schema": SCHEMA,
        "type": "simulation",
        "game": game.name,
        "config": {k: v for k, v in game.config_document(config).items()
                   if k not in ("schema", "game", "type")},
        "tallies": list(game.tallies),
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


Task = tuple[object, tuple[str, ...], int, int, bool]


def _on_processes(tasks: list[Task], jobs: int,
                  progress: Callable[[int], object] | None) -> list[GameResult]:
    results: list[GameResult] = []
    if jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            results.append(play_one(t))
            if progress is not None:
                progress(len(results))
        return results
    with _worker_pool(min(jobs, len(tasks))) as pool:
        chunk = max(1, min(8, len(tasks) // (4 * jobs)))
        for r in pool.imap(play_one, tasks, chunksize=chunk):
            results.append(r)
            if progress is not None:
                progress(len(results))
    return results


@contextmanager
def _worker_pool(processes: int) -> Iterator[multiprocessing.pool.Pool]:
    """Yield a pool of ``processes`` worker processes that never take SIGINT; leaving it
    terminates them.

    A terminal's Ctrl-C goes to every process of its foreground group: this process alone
    answers it (its KeyboardInterrupt leaves the pool), where each busy worker printed its own
    traceback under ``Process SpawnPoolWorker-N:``. A worker ignores SIGINT from its
    initializer on, and before that, while it starts and imports, it holds SIGINT blocked
    (see :func:`_sigint_held`).
    """
    # spawn: the same behaviour on every platform, and no fork of a threaded parent.
    ctx = multiprocessing.get_context("spawn")
    with _sigint_held() as release, ctx.Pool(processes, _ignore_sigint) as pool:
        release()  # a Ctrl-C held back is raised here, and the pool terminated
        yield pool


@contextmanager
def _sigint_held() -> Iterator[Callable[[], None]]:
    """Hold back SIGINT while this thread starts processes; yield the function that lets it
    go, raising the KeyboardInterrupt of a Ctrl-C held back (leaving lets it go too).

    SIGINT is blocked in this thread (POSIX), and the processes it starts inherit the block
    through exec; in the main thread, a SIGINT that another thread takes meanwhile (the
    progress bar's) is noted instead of raised in the middle of starting a worker.
    """
    held: list[int] = []
    # Only the main thread may set a handler (and restore it: None is one set outside Python).
    main = (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is not None)
    handler = signal.signal(signal.SIGINT, lambda signum, _: held.append(signum)) if main else None
    blocking = hasattr(signal, "pthread_sigmask")
    if blocking:
        resource_tracker.ensure_running()  # its first start unblocks SIGINT: start it before
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    released = False

    def release() -> None:
        nonlocal released
        if released:
            return
        released = True
        if blocking:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        if main:
            signal.signal(signal.SIGINT, handler)
        if held:
            raise KeyboardInterrupt

    try:
        yield release
    finally:
        release()


def _ignore_sigint() -> None:
    """The pool's initializer: the worker ignores SIGINT (see :func:`_worker_pool`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def play_batch(tasks: Sequence[Task]) -> list[GameResult]:
    """Play a batch of games of a simulation (the unit of work sent to a Ray worker)."""
    _check_list("tasks", tasks, "tasks")
    return [play_one(t) for t in tasks]


def start_ray(address: str | None, jobs: int) -> Callable[[], None]:
    """Start Ray embedded (``address`` ``None``, with ``jobs`` CPUs) or connect to the cluster
    at ``address``, unless Ray already runs; return the function that ends the session (a
    no-op when Ray already ran). For a caller that wants Ray's own errors of a bad address
    before any game (the ``simulate`` command); :func:`run_simulation` then uses the session.
    Raise :class:`RuntimeError` without Ray installed, :class:`ConnectionError` when nothing
    accepts a connection at a ``host:port`` or ``ray://host:port`` address within
    :data:`CONNECT_TIMEOUT` seconds, and Ray's own errors otherwise.
    """
    try:
        import ray  # the [ray] extra
    except ImportError:
        raise RuntimeError("the ray backend needs Ray: pip install 'shock-rules[ray]'") from None
    if ray.is_initialized():
        return _no_shutdown
    if address is not None:
        _check_reachable(address)
    # Embedded (address None) or a cluster; quiet: this is a library call, not a console.
    ray.init(address=address, num_cpus=jobs if address is None else None,
             include_dashboard=False, log_to_driver=False, configure_logging=False)
    shutdown: Callable[[], None] = ray.shutdown
    return shutdown


#: How long :func:`start_ray` waits for a cluster's address to accept a connection, in seconds.
CONNECT_TIMEOUT: Final = 10.0


def _check_reachable(address: str) -> None:
    """Raise :class:`ConnectionError` when nothing accepts a TCP connection at a ``host:port``
    address (also behind ``ray://``). Ray itself retries such an address for about two
    minutes before it gives up; ``"auto"``, ``"local"`` and forms Ray rejects at once are left
    to Ray."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not (port.isascii() and port.isdigit()):
        return
    if not 0 < int(port) < 65536:
        raise InvalidArgumentError(f"invalid address {quoted(address)}: the port must be 1-65535")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT).close()
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__
        raise ConnectionError(f"nothing answers at {quoted(address)} ({why})") from None


def _no_shutdown() -> None:
    """End nothing: Ray ran before :func:`start_ray` was called."""


def _on_ray(tasks: list[Task], jobs: int, address: str | None, batch: int | None,
            progress: Callable[[int], object] | None) -> list[GameResult]:
    stop = start_ray(address, jobs)
    import ray  # the [ray] extra, there once start_ray returned

    try:
        size = batch or max(1, min(50, len(tasks) // (4 * jobs)))
        remote = ray.remote(play_batch)
        pending = {remote.remote(tasks[i:i + size]): i for i in range(0, len(tasks), size)}
        by_game: dict[int, GameResult] = {}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                del pending[ref]
                for r in ray.get(ref):
                    by_game[r["game"]] = r
            if progress is not None:
                progress(len(by_game))
        # Batches finish in any order; the document lists games in their own order.
        return [by_game[g] for g in range(len(tasks))]
    finally:
        stop()
