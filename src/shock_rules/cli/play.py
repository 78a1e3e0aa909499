"""``shock-rules play``: a person plays in the terminal against bots.

The program resolves chance with its seeded generator (K6); the bots decide from their own
views (K34); the person sees only their own view: the table is drawn from
:func:`~shock_rules.view` of their seat. Legal actions are listed numbered, the withdrawals
as one entry that then asks which card to play face down; the person answers with a number,
the notation (``play 7H``, or just ``7H`` when that names one action), ``w`` to withdraw,
``help`` or ``?`` for the commands and the table's columns, or ``quit``. An action the engine
refuses is answered with the engine's reason. Before deciding whether to reveal another chest
card the exact odds of the next card are shown (:func:`~shock_rules.chest_odds`).

The bots' moves are paced (:data:`BOT_DELAY` seconds each; ``--fast``: none), and a bot that
thinks longer than :data:`THINKING_AFTER` seconds shows that it is thinking.

``--save FILE`` is checked to be writable before the game starts (exit status 1 if not); the
record is written when the game ends or is abandoned. End of input or ``quit`` leaves with
status 0, Ctrl-C with 130.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal, TextIO

from .._errors import IllegalActionError, ShockError
from .._info.odds import chest_odds
from .._info.view import HiddenCardDealt, HiddenCardPlayed, PlayerView, view
from .._notation.transcript import describe_event
from .._rules.actions import Action, ActionKind
from .._rules.cards import Card, Suit
from .._rules.config import GameConfig, Variant
from .._rules.edition import Edition
from .._rules.engine import apply, new_game, sample_chance, winners
from .._rules.events import CardDealt, Event, RoundStarted
from .._rules.state import CHANCE_PHASES, Phase, State, Status
from ..bots import BOTS, Bot, make_bot
from ..record import format_record, record_game
from ._args import (
    bots_arg,
    clip,
    common_args,
    path_text,
    plural,
    quote,
    report,
    seat_arg,
    seed_arg,
    unwritable,
)

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["BOT_DELAY", "HELP", "THINKING_AFTER", "WITHDRAW", "menu", "parse_choice",
           "play_command", "register"]

#: Seconds a bot's move waits before it is shown, so that a person can follow the table
#: (``--fast``: no wait). Time the bot spent deciding counts towards it.
BOT_DELAY: Final = 0.5
#: A bot decision that takes longer than this many seconds shows "seat N is thinking...".
THINKING_AFTER: Final = 0.3

#: The one menu entry that stands for every withdrawal; choosing it asks which card.
WITHDRAW: Final = "withdraw"
Choice = Action | Literal["withdraw"]

#: What ``help`` and ``?`` print.
HELP: Final = """\
At your turn, type one of:
  a number         the action of that number in the list
  play 7H          an action in notation (also: down 7H, cover 7S, reveal, stop)
  7H               a card alone plays it, when that names one action
  w, withdraw      withdraw from the round: bank the gems on your bag and play a card of your
                   choice face down (you are then asked which); 'withdraw 7H' does it at once
  help, ?          this help
  quit, q          leave the game (it is abandoned; --save still writes its record)
The table, one row per seat ('>' marks the seat to act):
  seat, player     the seat number and who sits there
  status           in (still in the round), withdrawn or shocked (both out of the round)
  hand             how many cards the seat holds
  on bag           gems on its bag this round: at risk until it withdraws or the round ends
  in bag           gems safe in its bag: the score
  poisons          poison number cards in front of it; (covered by 5C): that potion covers it
  potions          potion cards in front of it
  void             suits it showed it lacks this round by not following suit
Above the table: the round and trick, the trump card, the chest deck (cards left and the
poisons among them) and the chest cards in the centre. Below it: the trick so far, each card
with the seat that played it and the gems on it, and your hand, where ◆ marks a gem icon
(a gem on the card when you play it face up), ☠ a poison and ⚗ a potion."""

_SUIT_STYLE: Final = {Suit.HEARTS: "red", Suit.DIAMONDS: "magenta", Suit.SPADES: "blue",
                      Suit.CLUBS: "green"}


class _Quit(Exception):
    """The person asked to leave."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` sub-command to the command's sub-parsers."""
    p = sub.add_parser("play", help="play in the terminal against bots",
                       description="Play in the terminal against bots (the [cli] extra).")
    common_args(p)
    p.add_argument("--seat", type=seat_arg, default=0, help="your seat (default 0)")
    p.add_argument("--bots", type=bots_arg, default=["heuristic"],
                   help="bots for the other seats in seat order, comma-separated; the last "
                        f"fills the rest ({', '.join(BOTS)}; 'mcts:N' sets its iterations;"
                        " default heuristic)")
    p.add_argument("--seed", type=seed_arg, default=None, help="random seed (default: random)")
    p.add_argument("--save", metavar="FILE", default=None,
                   help="write the game record (text form) to FILE; checked before the game")
    p.add_argument("--fast", action="store_true",
                   help="show the bots' moves at once (default: a short pause before each)")
    p.set_defaults(run=_run, parser=p)


def _run(args: argparse.Namespace) -> int:
    try:
        import rich  # noqa: F401
    except ImportError:
        args.parser.error("'play' needs the rich package: pip install 'shock-rules[cli]'")
    if args.seat >= args.players:
        args.parser.error(f"--seat must be 0-{args.players - 1} with {args.players} players, "
                          f"not {args.seat}")
    if len(args.bots) > args.players - 1:
        args.parser.error(f"--bots names {len(args.bots)} bots for {args.players - 1} other "
                          "seats")
    if args.save is not None and (why := unwritable(args.save)) is not None:
        return report("play", f"cannot write {path_text(args.save)}: {why}", 1)
    return play_command(args.players, args.variant, args.seat, args.bots, args.seed, args.save,
                        sys.stdin, sys.stdout, delay=0.0 if args.fast else BOT_DELAY,
                        think_after=THINKING_AFTER)


def _card(card: Card) -> str:
    return f"[{_SUIT_STYLE[card.suit]}]{card}[/]"


def _marks(edition: Edition, card: Card) -> str:
    """Return a card's marks in the hand: ◆ per gem icon (K33), ☠ for a poison, ⚗ for a potion."""
    return ("◆" * edition.icons(card) + ("☠" if edition.poison_type(card) else "")
            + ("⚗" if edition.is_potion(card) else ""))


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(_card(c) for c in cards) if cards else "-"


def menu(actions: Sequence[Action]) -> list[Choice]:
    """Return the numbered entries of the action menu: every legal action but the
    withdrawals, then one :data:`WITHDRAW` entry for all of them (so the menu is not twice the
    hand)."""
    entries: list[Choice] = [a for a in actions if a.kind is not ActionKind.WITHDRAW]
    if len(entries) < len(actions):
        entries.append(WITHDRAW)
    return entries


def parse_choice(text: str, actions: Sequence[Action],
                 reason: Callable[[Action], str | None] | None = None) -> Choice:
    """Return what the person typed: an entry of :func:`menu` by its number (1-based),
    :data:`WITHDRAW` for ``w``, an action in notation, or a card that names exactly one action.

    Raise :class:`ValueError` with a message for anything else; an action that is not legal
    is explained by ``reason(action)`` (the engine's own words) when given.
    """
    entries = menu(actions)
    text = text.strip()
    if not text:
        raise ValueError("type the number of an action, or an action such as 'play 7H' "
                         "('help' explains)")
    if text.isascii() and text.isdigit():
        k = int(text)
        if 1 <= k <= len(entries):
            return entries[k - 1]
        raise ValueError(f"there is no action {clip(text)}: choose 1-{len(entries)}")
    if text.lower() in ("w", "withdraw"):
        if WITHDRAW in entries:
            return WITHDRAW
        raise ValueError("you cannot withdraw now")

    def refused(action: Action) -> ValueError:
        why = reason(action) if reason is not None else None
        return ValueError(why or f"'{action}' is not legal now")

    try:
        action = Action.parse(text)
    except (ShockError, ValueError):  # ValueError: digits int() refuses (e.g. 'leader ²')
        action = None
    if action is not None:
        if action in actions:
            return action
        raise refused(action)
    try:
        card = Card.parse(text)
    except ShockError:
        raise ValueError(f"cannot read {quote(text)}: type a number 1-{len(entries)}, an "
                         "action such as 'play 7H', or 'help'") from None
    # A bare card means playing it (face up, or face down when out of the round).
    named = [a for a in actions if a.card == card and a.kind is not ActionKind.WITHDRAW]
    if len(named) == 1:
        return named[0]
    if any(a.card == card for a in actions):
        return next(a for a in actions if a.card == card)
    # Explain with the kind of card action the menu offers (face down when out of the round).
    kinds = {a.kind for a in actions}
    make = next((k for k in (ActionKind.DOWN, ActionKind.COVER) if k in kinds), ActionKind.PLAY)
    raise refused({ActionKind.DOWN: Action.down, ActionKind.COVER: Action.cover,
                   ActionKind.PLAY: Action.play}[make](card))


def _describe(event: Event, me: int) -> str | None:
    if isinstance(event, CardDealt | HiddenCardDealt):
        return None
    if isinstance(event, HiddenCardPlayed):
        return f"seat {event.seat} plays a card face down ({plural(event.gems, 'gem')} on it)"
    line = describe_event(event)
    if line.startswith(f"seat {me} "):
        return f"seat {me} (you) " + line[len(f"seat {me} "):]
    return line


def _engine_reason(state: State, action: Action) -> str | None:
    """Return why the engine refuses ``action`` in ``state`` (its error message), or None."""
    try:
        apply(state, action)
    except IllegalActionError as exc:
        return str(exc)
    return None


class _Game:
    def __init__(self, config: GameConfig, me: int, bots: dict[int, Bot], seed: int,
                 inp: TextIO, out: TextIO, delay: float, think_after: float,
                 sleep: Callable[[float], None]) -> None:
        from rich.console import Console

        self.config = config
        self.me = me
        self.bots = bots
        self.rng = random.Random(seed)
        self.seed = seed
        self.inp = inp
        self.out = out
        self.delay = delay
        self.think_after = think_after
        self.sleep = sleep
        self.tty = out.isatty()
        # Not a terminal (a pipe, a file, a test): 100 columns, no colour codes, no wrapping.
        self.console: Console = Console(file=out, width=None if self.tty else 100,
                                        highlight=False,
                                        force_terminal=None if self.tty else False,
                                        soft_wrap=not self.tty)
        self.actions: list[Action] = []
        self.state = new_game(config)

    def print(self, text: str = "") -> None:
        """Print text with rich markup (the program's own text only)."""
        self.console.print(text)

    def say(self, text: str, style: str | None = None) -> None:
        """Print text that may hold the person's input: no markup is read in it."""
        self.console.print(text, markup=False, style=style)

    def ask(self, prompt: str) -> str:
        self.console.print(prompt, end="", markup=False)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise EOFError
        if not self.inp.isatty():
            self.out.write(line if line.endswith("\n") else line + "\n")  # echo piped input
        return line.rstrip("\n")

    # -- drawing ---------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return "you" if seat == self.me else f"{self.bots[seat].name}"

    def draw(self, v: PlayerView) -> None:
        from rich.table import Table

        trump = f"{_card(v.trump)} ({v.trump.suit})" if v.trump is not None else "-"
        poisons_left: dict[str, int] = {}
        for c in v.chest_deck:
            if c.poison is not None:
                poisons_left[c.poison] = poisons_left.get(c.poison, 0) + 1
        left = ", ".join(f"{k} {n}" for k, n in sorted(poisons_left.items())) or "none"
        # In words: a person reads "spider poison", not the notation's P:spider.
        centre = ", ".join(f"{c.poison} poison" if c.is_poison else
                           f"gems {c.large} for the revealer, {c.small} for the others"
                           for c in v.chest_centre) or "-"
        # Two short lines rather than one that a terminal of 80 columns breaks mid-phrase.
        self.print(f"\n[bold]Round {v.round}/5, trick {v.trick_number}[/] · trump {trump}")
        self.print(f"chest: {plural(v.chest_deck_size, 'card')} (poisons: {left})"
                   f" · centre: {centre}")
        table = Table(show_edge=False, pad_edge=False)
        for col in ("seat", "player", "status", "hand", "on bag", "in bag", "poisons",
                    "potions", "void"):
            table.add_column(col)
        for s in v.seats:
            poisons = " ".join(f"{pc.card}{f'(covered by {pc.covered_by})' if pc.covered else ''}"
                               for pc in s.poisons) or "-"
            status = {Status.IN: "in", Status.WITHDRAWN: "withdrawn",
                      Status.SHOCKED: "[red]shocked[/]"}[s.status]
            table.add_row(
                f"{'>' if s.seat == v.actor else ' '}{s.seat}", self.name(s.seat), status,
                str(s.hand_size), str(s.on_bag), str(s.in_bag), poisons,
                " ".join(str(c) for c in s.potions) or "-",
                "".join(x.letter for x in s.void_suits) or "-")
        self.console.print(table)
        trick = "  ".join(
            f"seat {p.seat}: " + ((_card(p.card) if p.face_up else f"{p.card} face down")
                             if p.card is not None else "face down")
            + f" ({plural(p.gems, 'gem')})"
            for p in v.trick) or "(no card yet)"
        self.print(f"trick: {trick}")
        ed = v.config.edition
        self.print("your hand: " + " ".join(_card(c) + _marks(ed, c) for c in v.hand))

    def show_events(self, state: State) -> None:
        v = view(state, self.me)
        for e in v.events:
            if isinstance(e, RoundStarted):
                self.print(f"\n[bold]== Round {e.round}[/]")
                continue
            line = _describe(e, self.me)
            if line is not None:
                self.print(f"  {line}")

    # -- turns -----------------------------------------------------------------------------

    def show_menu(self, v: PlayerView) -> list[Choice]:
        entries = menu(v.legal_actions)
        for k, entry in enumerate(entries, 1):
            if entry == WITHDRAW:
                self.print(f"  {k:>2}. withdraw (bank your gems; then choose the card to play "
                           "face down)")
            else:
                self.print(f"  {k:>2}. {entry}")
        return entries

    def human_turn(self, v: PlayerView) -> Action:
        self.draw(v)
        acts = v.legal_actions
        if v.phase is Phase.CHEST_CHOICE:
            odds = chest_odds(v)
            self.print(f"chest odds: next card shocks you {odds.shock} "
                       f"({float(odds.shock):.0%}); poison {odds.poison}; expected change of "
                       f"your {plural(odds.at_risk, 'gem')} on the bag: "
                       f"{float(odds.gain):+.2f}")
        entries = self.show_menu(v)
        while True:
            text = self.ask(f"seat {self.me}, your action [1-{len(entries)}, 'help' or "
                            "'quit']: ")
            word = text.strip().lower()
            if word in ("q", "quit", "exit"):
                raise _Quit
            if word in ("help", "?", "h"):
                self.say(HELP)
                self.show_menu(v)
                continue
            try:
                choice = parse_choice(text, acts, lambda a: _engine_reason(self.state, a))
            except ValueError as exc:
                self.say(str(exc), style="red")
                continue
            if choice != WITHDRAW:
                assert isinstance(choice, Action)
                return choice
            picked = self.ask_withdrawal(acts)
            if picked is not None:
                return picked
            self.show_menu(v)

    def ask_withdrawal(self, acts: Sequence[Action]) -> Action | None:
        """Ask which card to play face down when withdrawing; ``None``: back to the menu."""
        options = [a for a in acts if a.kind is ActionKind.WITHDRAW]
        self.print("withdraw: your gems on the bag go into it, and you play one card of your "
                   "hand face down")
        self.print("  " + "  ".join(f"{k}. {a.card}" for k, a in enumerate(options, 1)))
        while True:
            text = self.ask(f"which card? [1-{len(options)} or a card; Enter: back]: ").strip()
            if not text:
                return None
            if text.lower() in ("q", "quit", "exit"):
                raise _Quit
            if text.isascii() and text.isdigit() and 1 <= int(text) <= len(options):
                return options[int(text) - 1]
            try:
                card = Card.parse(text.split()[-1])
            except (ShockError, ValueError):
                card = None
            chosen = [a for a in options if a.card == card]
            if chosen:
                return chosen[0]
            self.say(f"{quote(text)} is not a card you can withdraw with: choose 1-"
                       f"{len(options)} or one of {' '.join(str(a.card) for a in options)}")

    def bot_turn(self, seat: int, v: PlayerView) -> Action:
        """Return the bot's decision, saying so when it thinks long; pace its move."""
        bot = self.bots[seat]
        start = time.monotonic()
        result: list[Action] = []
        failure: list[BaseException] = []

        def decide() -> None:
            try:
                result.append(bot.choose(v, self.rng))
            except BaseException as exc:  # handed to the main thread below
                failure.append(exc)

        # The decision runs in a thread so that the table can say "thinking" while it runs;
        # a daemon thread, so that Ctrl-C during a long search ends the program at once.
        worker = threading.Thread(target=decide, daemon=True)
        worker.start()
        worker.join(self.think_after)
        if worker.is_alive():
            message = f"seat {seat} ({bot.name}) is thinking..."
            if self.tty:
                with self.console.status(message):
                    while worker.is_alive():
                        worker.join(0.1)
            else:
                self.print(message)
                while worker.is_alive():
                    worker.join(0.1)
        if failure:
            raise failure[0]
        left = self.delay - (time.monotonic() - start)
        if left > 0:
            self.sleep(left)
        return result[0]

    def run(self) -> None:
        state = self.state
        self.show_events(state)
        while state.phase is not Phase.OVER:
            if state.phase in CHANCE_PHASES:
                action = sample_chance(state, self.rng)
            else:
                seat = state.actor
                v = view(state, seat)
                action = self.human_turn(v) if seat == self.me else self.bot_turn(seat, v)
            self.actions.append(action)
            state = apply(state, action)
            self.state = state
            self.show_events(state)

    def record_text(self) -> str:
        headers = {f"Seat{s}": ("you" if s == self.me else self.bots[s].name)
                   for s in range(self.config.players)}
        headers["Seed"] = str(self.seed)
        over = self.state.phase is Phase.OVER
        return format_record(record_game(self.config, self.actions, headers, result=over))


def _save(game: _Game, path: str) -> None:
    try:
        Path(path).write_text(game.record_text(), encoding="utf-8")
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        game.say(f"cannot save the record to {path_text(path)}: {why}", style="red")
        return
    game.say(f"the game record is saved to {path}")


def play_command(players: int, variant: Variant, seat: int, bot_names: Sequence[str],
                 seed: int | None, save: str | None, inp: TextIO, out: TextIO, *,
                 delay: float = BOT_DELAY, think_after: float = THINKING_AFTER,
                 sleep: Callable[[float], None] | None = None) -> int:
    """Run ``shock-rules play``; return the exit status.

    ``delay`` paces each bot move (seconds, through ``sleep``); a bot decision longer than
    ``think_after`` seconds is announced. The caller checks that ``save`` is writable.
    """
    sleep = sleep or time.sleep
    if seed is None:
        seed = random.randrange(2**32)
    others = [s for s in range(players) if s != seat]
    names = list(bot_names) + [bot_names[-1]] * (len(others) - len(bot_names))
    bots = {s: make_bot(n) for s, n in zip(others, names, strict=True)}
    config = GameConfig(players=players, variant=variant)
    game = _Game(config, seat, bots, seed, inp, out, delay, think_after, sleep)
    game.print(f"Shock! Knights & Poisons - {players} players, {variant.value} variant, "
               f"seed {seed}. You are seat {seat}; "
               + ", ".join(f"seat {s}: {b.name}" for s, b in bots.items())
               + ". Type 'help' at your turn for the commands and the table's columns.")
    try:
        game.run()
    except KeyboardInterrupt:
        game.print("\ninterrupted: the game is abandoned")
        if save:
            _save(game, save)
        return 130
    except (EOFError, _Quit) as exc:
        game.print(("\n" if isinstance(exc, EOFError) else "")
                   + "you left: the game is abandoned")
        if save:
            _save(game, save)
        return 0
    _final(game)
    if save:
        _save(game, save)
        return 0
    try:
        path = game.ask("save the game record? type a file name, or press Enter to skip: ")
        while path.strip():
            target = path.strip()
            # Never replace an existing file without asking.
            if not Path(target).exists() or game.ask(
                    f"{target} exists: replace it? [y/N] ").strip().lower() in ("y", "yes"):
                _save(game, target)
                break
            path = game.ask("type another file name, or press Enter to skip: ")
    except (EOFError, KeyboardInterrupt):
        return 0
    return 0


def _final(game: _Game) -> None:
    from rich.table import Table

    end = game.state
    best = winners(end)
    table = Table(title="final scores")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("score", justify="right")
    for s in range(game.config.players):
        table.add_row(str(s), game.name(s), str(end.in_bag[s]) + (" *" if s in best else ""))
    game.console.print(table)
    me = game.me
    game.print("you win!" if me in best and len(best) == 1 else
               "you share the victory!" if me in best else "you lose.")
