"""A chat table: several named players send text commands; each is told only what it may know.

What it shows: how a chat bot (or any text front-end) hosts a game. The table holds the only
full ``State``; players never see it. After every step each player gets the step's events as
its own ``view`` shows them (its own cards named, everyone else's secrets hidden), and the
public channel gets the events as a spectator sees them. Commands are the action notation
(``play 7H``, ``withdraw 3C``, ``reveal``, ``stop``...) plus ``hand``, ``table`` and
``help``; a command out of turn or against the rules gets a private reply with the engine's
own reason, and changes nothing.

In ``main`` three bots stand in for the people: each reads its own view and types the text
of the action it picked, as a person would. One of them also types a mistake.

    python examples/chat_table.py [SEED]
"""

from __future__ import annotations

import random
import sys

import shock_rules as sr

HELP = ("commands: hand, table, help, or an action: play <card>, withdraw <card>, "
        "down <card>, cover <card>, reveal, stop")


class ChatTable:
    """A game hosted in a chat: ``say(name, text)`` takes a player's message; ``outbox``
    collects what the table sends as ``(recipient, text)``, recipient ``None`` for everyone."""

    def __init__(self, names: list[str], seed: int) -> None:
        self.names = names
        self.rng = random.Random(seed)  # the table's dice: chance steps only
        self.state = sr.new_game(sr.GameConfig(players=len(names)))
        self.outbox: list[tuple[str | None, str]] = []
        self._dealt: list[list[str]] = [[] for _ in names]  # each player's cards this deal
        self._advance()

    def seat_of(self, name: str) -> int:
        return self.names.index(name)

    def say(self, name: str, text: str) -> None:
        """Handle one chat message of player ``name``."""
        seat = self.seat_of(name)
        command = text.strip().lower()
        if command == "help":
            self._tell(seat, HELP)
        elif command == "hand":
            mine = sr.view(self.state, seat)
            self._tell(seat, "your hand: " + (" ".join(map(str, mine.hand)) or "(empty)"))
        elif command == "table":
            self._tell(seat, self._table(sr.view(self.state, seat)))
        else:
            try:
                # apply() with the seat refuses out-of-turn actions; the state is untouched.
                self.state = sr.apply(self.state, sr.parse_action(text), seat)
            except sr.ShockError as exc:
                self._tell(seat, f"not done: {exc}")
                return
            self._broadcast()
            self._advance()

    def _table(self, v: sr.PlayerView) -> str:
        rows = [f"{self.names[i]}: {s.in_bag} in the bag, {s.on_bag} on it, {s.status}"
                for i, s in enumerate(v.seats)]
        trump = v.trump if v.trump is not None else "not yet revealed"
        return f"round {v.round}, trick {v.trick_number}, trump {trump}; " + "; ".join(rows)

    def _tell(self, seat: int, text: str) -> None:
        self.outbox.append((self.names[seat], text))

    def _broadcast(self) -> None:
        """Send the last step's events: to each player as its view shows them, and to the
        public channel as a spectator sees them."""
        for seat in range(len(self.names)):
            for event in sr.view(self.state, seat).events:
                if isinstance(event, sr.CardDealt):  # only ever the viewer's own card
                    self._dealt[seat].append(str(event.card))
        for event in sr.spectator_view(self.state).events:
            if not isinstance(event, sr.HiddenCardDealt):  # deals are told privately
                self.outbox.append((None, self._named(sr.describe_event(event))))

    def _named(self, line: str) -> str:
        for seat, name in enumerate(self.names):
            line = line.replace(f"seat {seat}", name)
        return line

    def _advance(self) -> None:
        """Resolve chance steps with the table's dice, then tell the player to act."""
        while sr.is_chance(self.state):
            self.state = sr.apply(self.state, sr.sample_chance(self.state, self.rng))
            self._broadcast()
        for seat, cards in enumerate(self._dealt):
            if cards:
                self._tell(seat, "you are dealt " + " ".join(cards))
                cards.clear()
        if sr.is_terminal(self.state):
            return
        seat = self.state.actor
        options = ", ".join(map(str, sr.view(self.state, seat).legal_actions))
        self._tell(seat, f"your turn: {options}")


def main(seed: int = 3) -> None:
    names = ["Ann", "Bob", "Cy"]
    table = ChatTable(names, seed)
    people = {name: sr.HeuristicBot() for name in names}
    rng = random.Random(seed)
    table.say("Bob", "play 99X")      # a typo: a private reply, nothing changes
    table.say("Cy", "play 6D")        # out of turn: refused the same way
    table.say("Cy", "table")
    while not sr.is_terminal(table.state):
        name = names[table.state.actor]
        own_view = sr.view(table.state, table.seat_of(name))   # what this person can see
        table.say(name, str(people[name].choose(own_view, rng)))
    for recipient, text in table.outbox:
        print(f"[{recipient or 'table'}] {text}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
