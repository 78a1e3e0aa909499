"""``shock-rules play``: a person plays in the terminal against bots.

The program resolves chance with its seeded generator (K6); the bots decide from their own
views (K34); the person sees only their own view: the table is drawn from
:func:`~shock_rules.view` of their seat. Legal actions are listed numbered; the person answers
with a number or the notation (``play 7H``, or just ``7H`` when that names one action). Before
deciding whether to reveal another chest card the exact odds of the next card are shown
(:func:`~shock_rules.chest_odds`). End of input leaves with status 0, Ctrl-C with 130.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.table import Table

from .._errors import ShockError
from .._info.odds import chest_odds
from .._info.view import HiddenCardDealt, HiddenCardPlayed, PlayerView, view
from .._notation.transcript import describe_event
from .._rules.actions import Action, ActionKind
from .._rules.cards import Card, Suit
from .._rules.config import GameConfig, Variant
from .._rules.engine import apply, sample_chance, winners
from .._rules.events import CardDealt, Event, RoundStarted
from .._rules.state import CHANCE_PHASES, Phase, State, Status
from ..bots import Bot, make_bot
from ..record import format_record, record_game

__all__ = ["parse_choice", "play_command"]

_SUIT_STYLE = {Suit.HEARTS: "red", Suit.DIAMONDS: "magenta", Suit.SPADES: "blue",
               Suit.CLUBS: "green"}


class _Quit(Exception):
    """The person asked to leave."""


def _card(card: Card) -> str:
    return f"[{_SUIT_STYLE[card.suit]}]{card}[/]"


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(_card(c) for c in cards) if cards else "-"


def parse_choice(text: str, actions: Sequence[Action]) -> Action:
    """Return the action the person typed: a number from the list (1-based), an action in
    notation, or a card that names exactly one action. Raise :class:`ValueError` with a
    message for anything else."""
    text = text.strip()
    if not text:
        raise ValueError("type the number of an action, or an action such as 'play 7H'")
    if text.isdigit():
        k = int(text)
        if 1 <= k <= len(actions):
            return actions[k - 1]
        raise ValueError(f"there is no action {k}: choose 1-{len(actions)}")
    try:
        action = Action.parse(text)
    except ShockError:
        action = None
    if action is not None:
        if action in actions:
            return action
        raise ValueError(f"'{action}' is not legal now")
    try:
        card = Card.parse(text)
    except ShockError:
        raise ValueError(f"cannot read {text!r}: type a number 1-{len(actions)} or an action "
                         "such as 'play 7H'") from None
    # A bare card means playing it (face up, or face down when out of the round).
    named = [a for a in actions if a.card == card and a.kind is not ActionKind.WITHDRAW]
    if len(named) == 1:
        return named[0]
    if any(a.card == card for a in actions):
        return next(a for a in actions if a.card == card)
    raise ValueError(f"{card} is not playable now")


def _describe(event: Event, me: int) -> str | None:
    if isinstance(event, CardDealt | HiddenCardDealt):
        return None
    if isinstance(event, HiddenCardPlayed):
        return f"seat {event.seat} plays a card face down ({event.gems} gem(s) on it)"
    line = describe_event(event)
    if line.startswith(f"seat {me} "):
        return f"seat {me} (you) " + line[len(f"seat {me} "):]
    return line


class _Game:
    def __init__(self, config: GameConfig, me: int, bots: dict[int, Bot], seed: int,
                 inp: TextIO, out: TextIO) -> None:
        self.config = config
        self.me = me
        self.bots = bots
        self.rng = random.Random(seed)
        self.seed = seed
        self.inp = inp
        self.out = out
        tty = out.isatty()
        # Not a terminal (a pipe, a file, a test): 100 columns, no colour codes, no wrapping.
        self.console = Console(file=out, width=None if tty else 100, highlight=False,
                               force_terminal=None if tty else False, soft_wrap=not tty)
        self.actions: list[Action] = []
        self.state = self._new()

    def _new(self) -> State:
        from .._rules.engine import new_game

        return new_game(self.config)

    def print(self, text: str = "") -> None:
        self.console.print(text)

    def ask(self, prompt: str) -> str:
        self.console.print(prompt, end="")
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
        trump = f"{_card(v.trump)} ({v.trump.suit})" if v.trump is not None else "-"
        poisons_left: dict[str, int] = {}
        for c in v.chest_deck:
            if c.poison is not None:
                poisons_left[c.poison] = poisons_left.get(c.poison, 0) + 1
        left = ", ".join(f"{k} {n}" for k, n in sorted(poisons_left.items())) or "none"
        centre = " ".join(str(c) for c in v.chest_centre) or "-"
        self.print(f"\n[bold]Round {v.round}/5, trick {v.trick_number}[/]  trump {trump}  "
                   f"chest deck {v.chest_deck_size} (poisons left: {left})  centre {centre}")
        table = Table(show_edge=False, pad_edge=False)
        for col in ("seat", "player", "status", "hand", "on bag", "in bag", "poisons",
                    "potions", "void"):
            table.add_column(col)
        for s in v.seats:
            poisons = " ".join(f"{pc.card}{'(covered)' if pc.covered else ''}"
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
            f"{p.seat}: " + ((_card(p.card) if p.face_up else f"{p.card} face down")
                             if p.card is not None else "face down") + f" ({p.gems})"
            for p in v.trick) or "(no card yet)"
        self.print(f"trick: {trick}")
        self.print(f"your hand: {_cards(v.hand)}")

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

    def human_turn(self, v: PlayerView) -> Action:
        self.draw(v)
        acts = v.legal_actions
        if v.phase is Phase.CHEST_CHOICE:
            odds = chest_odds(v)
            self.print(f"chest odds: next card shocks you {odds.shock} "
                       f"({float(odds.shock):.0%}); poison {odds.poison}; expected change of "
                       f"your {odds.at_risk} gems on the bag: {float(odds.gain):+.2f}")
        for k, a in enumerate(acts, 1):
            self.print(f"  {k:>2}. {a}")
        while True:
            text = self.ask(f"seat {self.me}, your action [1-{len(acts)}, or 'quit']: ")
            if text.strip().lower() in ("q", "quit", "exit"):
                raise _Quit
            try:
                return parse_choice(text, acts)
            except ValueError as exc:
                self.print(f"[red]{exc}[/]")

    def run(self) -> None:
        state = self.state
        self.show_events(state)
        while state.phase is not Phase.OVER:
            if state.phase in CHANCE_PHASES:
                action = sample_chance(state, self.rng)
            else:
                seat = state.actor
                v = view(state, seat)
                if seat == self.me:
                    action = self.human_turn(v)
                else:
                    action = self.bots[seat].choose(v, self.rng)
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
    except OSError as exc:
        game.print(f"[red]cannot save the record to {path}: {exc.strerror}[/]")
        return
    game.print(f"the game record is saved to {path}")


def play_command(players: int, variant: Variant, seat: int, bot_names: Sequence[str],
                 seed: int | None, save: str | None, inp: TextIO, out: TextIO) -> int:
    """Run ``shock-rules play``; return the exit status."""
    if seed is None:
        seed = random.randrange(2**32)
    others = [s for s in range(players) if s != seat]
    names = list(bot_names) + [bot_names[-1]] * (len(others) - len(bot_names))
    bots = {s: make_bot(n) for s, n in zip(others, names, strict=True)}
    config = GameConfig(players=players, variant=variant)
    game = _Game(config, seat, bots, seed, inp, out)
    game.print(f"Shock! Knights & Poisons - {players} players, {variant.value} variant, "
               f"seed {seed}. You are seat {seat}; "
               + ", ".join(f"seat {s}: {b.name}" for s, b in bots.items()) + ".")
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
    end = game.state
    best = winners(end)
    table = Table(title="final scores")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("score", justify="right")
    for s in range(players):
        table.add_row(str(s), game.name(s), str(end.in_bag[s]) + (" *" if s in best else ""))
    game.console.print(table)
    game.print("you win!" if seat in best and len(best) == 1 else
               "you share the victory!" if seat in best else "you lose.")
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
