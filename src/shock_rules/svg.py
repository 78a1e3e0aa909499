"""Pictures of cards, hands and tables, as SVG text.

Each function returns one ``<svg>`` element as a string, with no dependency: write it to a
``.svg`` file, put it in a web page, or let Jupyter show it (a :class:`~shock_rules.Card`, a
:class:`~shock_rules.PlayerView` and a :class:`~shock_rules.State` show as these pictures there,
through ``_repr_svg_``).

- :func:`card` draws one number card: its suit's colour (those of the online edition: hearts
  yellow, spades blue, diamonds red, clubs green), its gem icons, and a mark on a poison (☠ and
  its type) or a potion (⚗).
- :func:`hand` draws a row of cards.
- :func:`view` draws a table as one seat (or a spectator) sees it: the round, the trump card,
  the trick (other seats' face-down cards as card backs), the chest, and every seat with its
  bag, its poisons (with the potion covering each), its potions and its hand -- the viewer's own
  face up, the others' as backs. It shows nothing the view does not hold.
- :func:`table` draws a whole state the same way, every hand and face-down card shown: a
  referee's picture, for analysis and documentation, never for a player.

Every card drawn carries its notation (``data-card="7H"``) and a ``<title>`` in words, for
screen readers and tests.

>>> import shock_rules as sr
>>> from shock_rules import svg
>>> picture = svg.card(sr.Card.parse("7H"))
>>> picture.startswith("<svg") and 'data-card="7H"' in picture and "bee" in picture
True
>>> svg.hand("2H 5C 10S").count("data-card=")
3
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from . import _pictures
from . import melvin as mk
from ._errors import quoted
from ._info.view import PlayerView, SeatView, spectator_view
from ._notation.script import parse_cards
from ._rules.cards import Card, Suit, parse_card
from ._rules.edition import ChestCard, Edition
from ._rules.state import Phase, PoisonCard, State, Status, not_a_state

__all__ = ["SUIT_COLOURS", "card", "hand", "table", "view"]

#: The suits' colours, as the online edition prints them (hearts yellow, spades blue, diamonds
#: red, clubs green); the browser table uses the same.
SUIT_COLOURS: Final[dict[Suit, str]] = {
    Suit.HEARTS: "#f2c200",
    Suit.SPADES: "#1f63c6",
    Suit.DIAMONDS: "#d32f2f",
    Suit.CLUBS: "#2e8b3a",
}
_SYMBOLS: Final = {Suit.HEARTS: "♥", Suit.SPADES: "♠", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
# Dark ink on the yellow of hearts, white on the other three (legible contrast on each).
_INK_ON: Final = {Suit.HEARTS: "#3a2c00", Suit.SPADES: "#ffffff", Suit.DIAMONDS: "#ffffff",
                  Suit.CLUBS: "#ffffff"}
_INK: Final = "#1d1d24"
_PAPER: Final = "#f6f3ec"
_ACCENT: Final = "#6a3fb5"
_POISON: Final = "#1d1d24"
_POTION: Final = "#2e8b3a"
_SHOCK: Final = "#b3261e"
_FONT: Final = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"

# A card's size, and the room a row of cards takes.
_CW: Final = 56
_CH: Final = 80
_GAP: Final = 6
_STEP: Final = 40  # a hand's cards overlap: only the corner index shows
_BACK_STEP: Final = 10


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _text(x: float, y: float, text: str, *, size: float = 12, fill: str = _INK,
          weight: str = "normal", anchor: str = "start") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{fill}"'
            f' font-weight="{weight}" text-anchor="{anchor}">{_esc(text)}</text>')


def _document(width: float, height: float, body: str, title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}"'
            f' viewBox="0 0 {width:g} {height:g}" role="img" aria-label="{_esc(title)}"'
            f' font-family="{_esc(_FONT)}"><title>{_esc(title)}</title>{body}</svg>')


# -- one card ---------------------------------------------------------------------------------


def _card_words(c: Card, edition: Edition) -> str:
    words = f"{c.rank} of {c.suit}"
    poison = edition.poison_type(c)
    if poison is not None:
        words += f", a {poison} poison"
    elif edition.is_potion(c):
        words += ", a potion"
    icons = edition.icons(c)
    if icons:
        words += f", {icons} gem icon{'s' if icons > 1 else ''}"
    return words


def _gem(cx: float, cy: float, r: float = 5, fill: str = "#dff3ff") -> str:
    return (f'<polygon points="{cx:g},{cy - r:g} {cx + r * 0.8:g},{cy:g} {cx:g},{cy + r:g}'
            f' {cx - r * 0.8:g},{cy:g}" fill="{fill}" stroke="{_INK}" stroke-width="0.8"/>')


def _gems(x: float, cy: float, count: int, fill: str = "#dff3ff", *,
          centred: bool = False) -> str:
    """``count`` gem icons in a row from ``x`` (or centred on it); past four, one icon and the
    number."""
    if count <= 0:
        return ""
    if count > 4:
        x0 = x - 8 if centred else x
        return _gem(x0, cy, fill=fill) + _text(x0 + 7, cy + 4, f"×{count}", size=10,
                                               fill=_INK, weight="bold")
    x0 = x - (count - 1) * 5 if centred else x
    return "".join(_gem(x0 + 10 * i, cy, fill=fill) for i in range(count))


def _badge(x: float, y: float, symbol: str, fill: str, ink: str) -> str:
    return (f'<circle cx="{x:g}" cy="{y:g}" r="8" fill="{fill}" stroke="#ffffff"'
            f' stroke-width="1.5"/>' + _text(x, y + 4, symbol, size=10, fill=ink, anchor="middle"))


def _card(x: float, y: float, c: Card, edition: Edition, *, note: str = "",
          face_down: bool = False) -> str:
    """One face-up card at ``(x, y)``: colour, index, gem icons, poison or potion mark.

    Everything that tells cards apart sits in the left 40 units, which a hand's overlapping
    cards leave visible."""
    ink = _INK_ON[c.suit]
    symbol = _SYMBOLS[c.suit]
    poison = edition.poison_type(c)
    potion = edition.is_potion(c)
    ring = _POISON if poison is not None else _POTION if potion else _INK
    words = _card_words(c, edition) + (f" ({note})" if note else "")
    parts = [
        f'<g class="card" data-card="{c}" transform="translate({x:g},{y:g})">',
        f"<title>{_esc(words)}</title>",
        f'<rect x="0.5" y="0.5" width="{_CW - 1}" height="{_CH - 1}" rx="6"'
        f' fill="{SUIT_COLOURS[c.suit]}" stroke="{ring}"'
        f' stroke-width="{2.5 if poison is not None or potion else 1}"/>',
        _text(5, 16, str(c.rank), size=15, fill=ink, weight="bold"),
        _text(5, 30, symbol, size=13, fill=ink),
        _text(_CW - 14, 48, symbol, size=24, fill=ink, anchor="middle"),
        _gems(9, _CH - 9, edition.icons(c)),
    ]
    if poison is not None:
        parts.append(_badge(13, 43, "☠", _POISON, "#ffffff"))
        parts.append(_text(4, _CH - 22, poison, size=8.5, fill=ink, weight="bold"))
    elif potion:
        parts.append(_badge(13, 43, "⚗", "#ffffff", _POTION))
        parts.append(_text(4, _CH - 22, "potion", size=8.5, fill=ink, weight="bold"))
    if face_down:
        # A card its viewer knows but played face down: the card, under a veil of the backs.
        parts.append(f'<rect x="0.5" y="0.5" width="{_CW - 1}" height="{_CH - 1}" rx="6"'
                     f' fill="{_ACCENT}" fill-opacity="0.6" stroke="{_ACCENT}"'
                     ' stroke-width="2" stroke-dasharray="4 3"/>')
        parts.append(_text(_CW / 2, _CH / 2 + 4, "face down", size=9, fill="#ffffff",
                           weight="bold", anchor="middle"))
    parts.append("</g>")
    return "".join(parts)


def _back(x: float, y: float, *, gems: int = -1, words: str = "a card face down") -> str:
    """A card back; with ``gems`` >= 0, the gems lying on it (a face-down card of a trick)."""
    parts = [
        f'<g class="back" transform="translate({x:g},{y:g})"><title>{_esc(words)}</title>',
        f'<rect x="0.5" y="0.5" width="{_CW - 1}" height="{_CH - 1}" rx="6" fill="{_ACCENT}"'
        f' stroke="{_INK}"/>',
        f'<rect x="5" y="5" width="{_CW - 10}" height="{_CH - 10}" rx="4" fill="none"'
        f' stroke="#ffffff" stroke-opacity="0.45" stroke-dasharray="3 3"/>',
        _text(_CW / 2, _CH / 2 + 6, "?", size=18, fill="#ffffff", anchor="middle"),
    ]
    if gems >= 0:
        parts.append(_gems(_CW / 2, _CH - 12, gems, centred=True))
    parts.append("</g>")
    return "".join(parts)


def _chest_card(x: float, y: float, c: ChestCard) -> str:
    """A chest card: gems for the revealer (large) and the others (small), or a poison."""
    if c.is_poison:
        body = (f'<rect x="0.5" y="0.5" width="{_CW - 1}" height="{_CH - 1}" rx="6"'
                f' fill="{_POISON}"/>' + _text(_CW / 2, 34, "☠", size=22, fill="#ffffff",
                                               anchor="middle")
                + _text(_CW / 2, 56, str(c.poison), size=10, fill="#ffffff", anchor="middle"))
        words = f"a chest {c.poison} poison: poisons everyone still in the round"
    else:
        body = (f'<rect x="0.5" y="0.5" width="{_CW - 1}" height="{_CH - 1}" rx="6"'
                f' fill="#fff8e1" stroke="#b08900"/>'
                + _gems(_CW / 2, 26, c.large, "#7fd3ff", centred=True)
                + _text(_CW / 2, 46, "you", size=9, fill=_INK, anchor="middle")
                + _gems(_CW / 2, 60, c.small, centred=True)
                + _text(_CW / 2, 74, "others" if c.small else "", size=9, fill=_INK,
                        anchor="middle"))
        words = (f"a chest gem card: {c.large} for the revealer, {c.small} for every other"
                 " player in the round")
    return (f'<g class="chest" data-chest="{_esc(str(c))}" transform="translate({x:g},{y:g})">'
            f"<title>{_esc(words)}</title>{body}</g>")


def _check_edition(edition: Edition | None) -> Edition:
    if edition is None:
        return Edition.default()
    if type(edition) is not Edition:
        raise TypeError(f"edition must be an Edition, not {quoted(edition)}")
    return edition


def card(c: Card | str, *, edition: Edition | None = None) -> str:
    """Return the picture of one number card, a :class:`~shock_rules.Card` or its notation
    (``"7H"``), with its gem icons and poison type from ``edition`` (the default edition when
    not given).

    Raise :class:`~shock_rules.InvalidNotationError` for anything else."""
    c = c if isinstance(c, Card) else parse_card(c)
    ed = _check_edition(edition)
    return _document(_CW + 4, _CH + 4, _card(2, 2, c, ed), _card_words(c, ed))


def hand(cards: Iterable[Card] | str, *, edition: Edition | None = None) -> str:
    """Return the picture of a row of cards, in the order given: :class:`~shock_rules.Card`
    objects, or their notation in one string (``"2H 5C 10S"``).

    Raise :class:`~shock_rules.InvalidNotationError` for anything that is not cards."""
    row = parse_cards(cards)
    ed = _check_edition(edition)
    width = max(1, len(row)) * (_CW + _GAP) - _GAP + 4
    body = "".join(_card(2 + i * (_CW + _GAP), 2, c, ed) for i, c in enumerate(row))
    words = ", ".join(str(c) for c in row) or "no cards"
    return _document(width, _CH + 4, body, f"a hand: {words}")


# -- a table ----------------------------------------------------------------------------------


@attrs.frozen
class _Scene:
    """What a table picture shows: a view, plus the cards a referee may also see."""

    view: PlayerView
    #: Each seat's hand when shown, else ``None`` (drawn as backs).
    hands: tuple[tuple[Card, ...] | None, ...]
    #: The trick's cards, face-down ones included where shown.
    trick: tuple[Card | None, ...]
    title: str


_WIDTH: Final = 860
_HEADER: Final = 34
_CENTRE: Final = 128
_ROW: Final = 118
_PANEL: Final = 178


def _waiting_for(v: PlayerView) -> str:
    """What the game waits for, in words."""
    who = "you" if v.actor == v.seat else f"seat {v.actor}"
    return {
        Phase.DEAL: "the cards are being dealt",
        Phase.TRUMP: "the trump card is turned up next",
        Phase.LEADER: "the first leader is drawn next",
        Phase.PLAY: f"{who} to play",
        Phase.COVER: f"{who} to choose what a potion covers",
        Phase.CHEST: f"{who} to reveal a chest card",
        Phase.CHEST_CHOICE: f"{who} to reveal another chest card or stop",
        Phase.OVER: "the game is over",
    }[v.phase]


def _header(v: PlayerView, title: str) -> str:
    line = f"Round {v.round} of 5 · trick {v.trick_number} · {_waiting_for(v)}"
    return (f'<rect x="0" y="0" width="{_WIDTH}" height="{_HEADER}" fill="{_INK}"/>'
            + _text(12, 22, line, size=14, fill="#ffffff", weight="bold")
            + _text(_WIDTH - 12, 22, title, size=12, fill="#d9d3c5", anchor="end"))


def _centre(scene: _Scene, ed: Edition, top: float) -> str:
    v = scene.view
    parts = [f'<rect x="6" y="{top + 4:g}" width="{_WIDTH - 12}" height="{_CENTRE - 8}"'
             f' rx="8" fill="#ffffff" stroke="#d9d3c5"/>']
    y = top + 30
    parts.append(_text(18, top + 22, "Trump", size=11, weight="bold"))
    if v.trump is not None:
        parts.append(_card(18, y, v.trump, ed, note="the trump card"))
    else:
        parts.append(_text(18, y + 40, "not yet", size=11, fill="#777777"))
    x = 100
    parts.append(_text(x, top + 22, f"Trick {v.trick_number}", size=11, weight="bold"))
    if not v.trick:
        parts.append(_text(x, y + 40, "no card played yet", size=11, fill="#777777"))
    for i, (tc, shown) in enumerate(zip(v.trick, scene.trick, strict=True)):
        cx = x + i * (_CW + 10)
        if shown is not None and tc.face_up:
            parts.append(_card(cx, y, shown, ed, note=f"played by seat {tc.seat}"))
        elif shown is not None:
            parts.append(_card(cx, y, shown, ed, face_down=True,
                               note=f"played face down by seat {tc.seat}"))
        else:
            parts.append(_back(cx, y, gems=tc.gems, words=f"played face down by seat {tc.seat}"))
        parts.append(_text(cx + _CW / 2, y + _CH + 12, f"seat {tc.seat}", size=10,
                           anchor="middle"))
    # The chest: its poisons in the centre, what is left, the decks and the supply.
    cx = _WIDTH - 350
    parts.append(_text(cx, top + 22, "Chest centre", size=11, weight="bold"))
    if not v.chest_centre:
        parts.append(_text(cx, y + 40, "no chest poison", size=11, fill="#777777"))
    for i, chest in enumerate(v.chest_centre[:3]):
        parts.append(_chest_card(cx + i * (_CW + 6), y, chest))
    facts = [f"chest deck: {len(v.chest_deck)} cards",
             f"dungeon deck: {v.deck_size} cards",
             f"supply: {v.supply} gems"]
    if v.revealed:
        facts.insert(0, f"revealed this challenge: {v.revealed}")
    for i, fact in enumerate(facts):
        parts.append(_text(_WIDTH - 150, y + 12 + 18 * i, fact, size=11))
    return "".join(parts)


_STATUS_WORDS: Final = {Status.IN: "in the round", Status.WITHDRAWN: "withdrawn",
                        Status.SHOCKED: "shocked"}


def _poisons(x: float, y: float, poisons: Sequence[PoisonCard], potions: Sequence[Card],
             ed: Edition) -> tuple[str, float]:
    """A seat's poisons, each with the potion lying on it, then its stored potions."""
    parts = []
    for p in poisons:
        parts.append(_card(x, y, p.card, ed, note="covered" if p.covered else "uncovered"))
        if p.covered_by is not None:
            # The potion lies on the poison, leaving the poison's corner and mark in sight.
            parts.append(_card(x + 34, y + 8, p.covered_by, ed, note=f"covering {p.card}"))
            x += 34
        x += _CW + _GAP
    covering = {p.covered_by for p in poisons}
    for c in potions:
        if c not in covering:
            parts.append(_card(x, y, c, ed, note="stored"))
            x += _CW + _GAP
    return "".join(parts), x


def _seat(scene: _Scene, s: SeatView, ed: Edition, top: float) -> str:
    v = scene.view
    acting = v.to_move == s.seat
    parts = [f'<g class="seat" data-seat="{s.seat}">',
             f'<rect x="6" y="{top + 3:g}" width="{_WIDTH - 12}" height="{_ROW - 6}" rx="8"'
             f' fill="#ffffff" stroke="{_ACCENT if acting else "#d9d3c5"}"'
             f' stroke-width="{3 if acting else 1}"/>']
    name = f"Seat {s.seat}" + (" (you)" if s.seat == v.seat else "")
    parts.append(_text(18, top + 24, name, size=14, weight="bold"))
    status_fill = _SHOCK if s.status is Status.SHOCKED else "#555555"
    parts.append(_text(18, top + 42, _STATUS_WORDS[s.status], size=12, fill=status_fill))
    parts.append(_gem(24, top + 58) + _text(34, top + 62, f"{s.on_bag} on the bag (at risk)",
                                            size=11))
    parts.append(_gem(24, top + 76, fill="#7fd3ff")
                 + _text(34, top + 80, f"{s.in_bag} in the bag (safe)", size=11))
    if s.face_down_count:
        parts.append(_text(18, top + 98, f"{s.face_down_count} played face down", size=10,
                           fill="#777777"))
    y = top + (_ROW - _CH) / 2 - 4
    x = _PANEL
    shown = scene.hands[s.seat]
    if shown is not None:
        for i, c in enumerate(shown):
            parts.append(_card(x + i * _STEP, y, c, ed, note=f"in seat {s.seat}'s hand"))
        x += max(0, len(shown) - 1) * _STEP + (_CW if shown else 0)
    else:
        for i in range(s.hand_size):
            parts.append(_back(x + i * _BACK_STEP, y, words=f"a card in seat {s.seat}'s hand"))
        x += max(0, s.hand_size - 1) * _BACK_STEP + (_CW if s.hand_size else 0)
    parts.append(_text(_PANEL, top + _ROW - 8, f"{s.hand_size} in hand", size=10,
                       fill="#777777"))
    if s.poisons or s.potions:
        drawn, _ = _poisons(max(x + 24, _WIDTH - 300), y, s.poisons, s.potions, ed)
        parts.append(drawn)
    parts.append("</g>")
    return "".join(parts)


def _draw(scene: _Scene) -> str:
    v = scene.view
    ed = v.config.edition
    height = _HEADER + _CENTRE + _ROW * v.players + 6
    parts = [f'<rect x="0" y="0" width="{_WIDTH}" height="{height}" fill="{_PAPER}"/>',
             _header(v, scene.title), _centre(scene, ed, _HEADER)]
    for s in v.seats:
        parts.append(_seat(scene, s, ed, _HEADER + _CENTRE + _ROW * s.seat))
    words = f"{scene.title}: round {v.round}, trick {v.trick_number}"
    return _document(_WIDTH, height, "".join(parts), words)


def view(player_view: PlayerView | mk.View) -> str:
    """Return the picture of a table as ``player_view`` shows it: for Shock!, the viewer's own
    hand and face-down cards, every other hand as card backs; for Melvin Vs. Kronk (a
    :class:`shock_rules.melvin.View`), every pile, the discard tops, the Gem cards the viewer
    may see (backs for the others) and the penalties in force. Nothing the view does not hold.

    Raise ``TypeError`` for anything but a :class:`~shock_rules.PlayerView` or a Melvin view."""
    if type(player_view) is mk.View:
        return _melvin(player_view)
    if type(player_view) is not PlayerView:
        raise TypeError(f"expected a PlayerView or a melvin.View, not {quoted(player_view)}")
    v = player_view
    hands = tuple(v.hand if s == v.seat else None for s in range(v.players))
    # The viewer knows its own face-down card in the trick (K34); a TrickCard carries it.
    title = f"seat {v.seat}'s view" if v.seat is not None else "a spectator's view"
    return _draw(_Scene(v, hands, tuple(tc.card for tc in v.trick), title))


def table(state: State | mk.State) -> str:
    """Return the picture of a whole state: for Shock!, every hand and every face-down card
    of the trick shown; for Melvin Vs. Kronk, every seat's Gem cards. A referee's picture, for
    analysis and documentation: send players :func:`view`.

    Raise ``TypeError`` for anything but a :class:`~shock_rules.State` or a Melvin state."""
    if type(state) is mk.State:
        return _melvin(attrs.evolve(mk.spectator_view(state), gems=state.gems),
                       "the whole table")
    if type(state) is not State:
        raise not_a_state(state)
    v = spectator_view(state)
    hands = tuple(state.hand(s) for s in range(state.players))
    return _draw(_Scene(v, hands, tuple(p.card for p in state.trick), "the whole table"))


# -- Melvin Vs. Kronk ---------------------------------------------------------------------------

_MK_ROW: Final = 104
_MK_CENTRE: Final = 92
#: The penalties' names in words (MK-PEN-1 to 3).
_PENALTY_WORDS: Final = {"Mao": "Mão para trás", "Olho": "Olho fechado",
                         "Cartas": "Cartas para todos", "Duas": "Jogue duas seguidas"}
_SPECIAL_WORDS: Final = {"Oculos": "Óculos Geek", "Toalha": "Toalha", "Orcolar": "Orcolar",
                         "Amuleto": "Amuleto Orc"}
_MK_WAITS: Final = {
    mk.Phase.DEAL: "the dealer is drawn next", mk.Phase.TURN_UP: "a card is being turned up",
    mk.Phase.MOVE: "a card is being moved", mk.Phase.GEM: "Gem cards are being drawn",
    mk.Phase.PENALTY: "a Penalty card is being drawn", mk.Phase.OVER: "the game is over",
}


def _versus(x: float, y: float, face: int, *, hit: bool, words: str) -> str:
    """A Versus card face up: its face, large; gold when it is part of a match (MK-SLAP-1)."""
    return (f'<g class="versus" data-face="V{face}" transform="translate({x:g},{y:g})">'
            f"<title>{_esc(words)}</title>"
            f'<rect x="0.5" y="0.5" width="{_CW - 1}" height="{_CH - 1}" rx="6"'
            f' fill="{"#f2c200" if hit else "#ffffff"}" stroke="{_SHOCK if hit else _INK}"'
            f' stroke-width="{3 if hit else 1}"/>'
            + _text(_CW / 2, _CH / 2 + 9, f"V{face}", size=24, weight="bold", anchor="middle")
            + "</g>")


def _gem_card(x: float, y: float, card: str | None, words: str) -> str:
    """A Gem card, 36 by 52: its gems (a special's name), or its back when hidden."""
    if card is None:
        return (f'<g class="gem-back" transform="translate({x:g},{y:g})"><title>{_esc(words)}'
                f'</title><rect x="0.5" y="0.5" width="35" height="51" rx="4" fill="#2e8b3a"'
                f' stroke="{_INK}"/>' + _text(18, 31, "?", size=14, fill="#ffffff",
                                               anchor="middle") + "</g>")
    special = card in mk.SPECIALS
    label = _SPECIAL_WORDS[card].split()[0][:7] if special else card
    return (f'<g class="gem-card" data-gem="{_esc(card)}" transform="translate({x:g},{y:g})">'
            f"<title>{_esc(words)}</title>"
            f'<rect x="0.5" y="0.5" width="35" height="51" rx="4"'
            f' fill="{"#efe3ff" if special else "#e8f8ff"}" stroke="{_INK}"/>'
            + _gems(18, 16, mk.gem_value(card), centred=True)
            + _text(18, 42, label, size=9 if special else 12, weight="bold", anchor="middle")
            + "</g>")


def _melvin_seat(v: mk.View, seat: int, top: float, matched: set[int]) -> str:
    acting = v.to_move == seat and v.phase is mk.Phase.PLAY
    out = not v.in_game[seat]
    status = "out of the game" if out else "to move" if acting else "in the game"
    if v.end_reason is not None and seat in _melvin_winners(v):
        status = "winner"
    parts = [f'<g class="seat" data-seat="{seat}">',
             f'<rect x="6" y="{top + 3:g}" width="{_WIDTH - 12}" height="{_MK_ROW - 6}" rx="8"'
             f' fill="{"#eeeeee" if out else "#ffffff"}"'
             f' stroke="{_ACCENT if acting else "#d9d3c5"}" stroke-width="{3 if acting else 1}"/>',
             _text(18, top + 24, f"Seat {seat}" + (" (you)" if seat == v.seat else ""),
                   size=14, weight="bold"),
             _text(18, top + 42, status, size=12, fill=_SHOCK if out else "#555555",
                   weight="bold" if status == "winner" else "normal")]
    for i, p in enumerate(v.penalties[seat]):
        parts.append(f'<g class="penalty" data-penalty="{p}"><title>penalty in force:'
                     f' {_esc(_PENALTY_WORDS[p])}</title>'
                     f'<rect x="18" y="{top + 50 + 16 * i:g}" width="140" height="14" rx="7"'
                     f' fill="{_SHOCK}"/>' + _text(88, top + 61 + 16 * i, _PENALTY_WORDS[p],
                                                   size=9, fill="#ffffff", anchor="middle")
                     + "</g>")
    y = top + (_MK_ROW - _CH) / 2 - 3
    size = v.draw_sizes[seat]
    if size:
        parts.append(_back(_PANEL, y, words=f"seat {seat}'s draw pile: {size} cards"))
    parts.append(_text(_PANEL + _CW / 2, top + _MK_ROW - 6, f"draw {size}", size=10,
                       anchor="middle", fill="#777777"))
    face = v.tops[seat]
    if face is not None:
        hit = seat in matched
        parts.append(_versus(_PANEL + 70, y, face, hit=hit,
                             words=f"seat {seat}'s discard top: V{face}"
                                   + (" (part of a match)" if hit else "")))
    parts.append(_text(_PANEL + 70 + _CW / 2, top + _MK_ROW - 6,
                       f"discards {v.discard_sizes[seat]}", size=10, anchor="middle",
                       fill="#777777"))
    x = _PANEL + 160
    shown = v.gems[seat]
    cards: Sequence[str | None] = shown if shown is not None else [None] * v.gem_counts[seat]
    for i, card in enumerate(cards):
        words = (f"a Gem card of seat {seat}" if card is None
                 else f"seat {seat}'s Gem card {card}")
        parts.append(_gem_card(x + i * 40, y + 14, card, words))
    if shown is not None:
        parts.append(_text(x, top + 18, f"{sum(mk.gem_value(g) for g in shown)} gems",
                           size=11, weight="bold"))
    parts.append("</g>")
    return "".join(parts)


def _melvin_winners(v: mk.View) -> set[int]:
    """The winners a finished game's view shows (everyone's Gem cards are public then)."""
    points = {s: sum(mk.gem_value(g) for g in gems) for s, gems in enumerate(v.gems)
              if gems is not None and v.in_game[s]}
    best = max(points.values(), default=0)
    return {s for s, p in points.items() if p == best}


def _melvin_centre(v: mk.View, top: float) -> str:
    parts = [f'<rect x="6" y="{top + 4:g}" width="{_WIDTH - 12}" height="{_MK_CENTRE - 8}"'
             f' rx="8" fill="#ffffff" stroke="#d9d3c5"/>',
             _gem_card(20, top + 18, None, f"the Gem deck: {v.gem_deck_size} cards"),
             _text(66, top + 40, f"Gem deck: {v.gem_deck_size}", size=12, weight="bold"),
             _text(66, top + 58, f"Penalty deck: {v.penalty_deck_size}", size=11)]
    x = 260
    if v.award_winner is not None:
        taker = v.award_taker
        line = (f"seat {v.award_winner} won the slap"
                + (f"; seat {taker} takes the Gem cards" if taker != v.award_winner else ""))
        parts.append(_text(x, top + 26, line, size=12, weight="bold"))
        for i, card in enumerate(v.award_drawn or ()):
            parts.append(_gem_card(x + i * 40, top + 32, card, f"drawn Gem card {card}"))
    # Below the award's line, which runs from x = 260 to the right (it overlapped "played"
    # with an Orcolar player's taker named); the drawn cards stay left of x = 340.
    if v.played:
        words = ", ".join(_SPECIAL_WORDS[p] for p in v.played)
        parts.append(_text(_WIDTH - 18, top + 50, f"played: {words}", size=11, anchor="end"))
    if v.end_reason is not None:
        parts.append(_text(_WIDTH - 18, top + 70, f"over: {v.end_reason.value}", size=11,
                           anchor="end", fill=_SHOCK))
    return "".join(parts)


def _melvin(v: mk.View, title: str | None = None) -> str:
    if title is None:
        title = f"seat {v.seat}'s view" if v.seat is not None else "a spectator's view"
    faces = [f for f in v.tops if f is not None]
    matched = {s for s, f in enumerate(v.tops) if f is not None and faces.count(f) > 1}
    wait = _MK_WAITS.get(v.phase) or (
        f"seat {v.award_taker} to hand out the Gem cards" if v.phase is mk.Phase.AWARD
        else "nobody to move" if v.to_move is None else f"seat {v.to_move} to turn up a card")
    line = f"Melvin Vs. Kronk · step {v.step} · {wait}" + (" · a match!" if matched else "")
    height = _HEADER + _MK_CENTRE + _MK_ROW * v.players + 6
    parts = [f'<rect x="0" y="0" width="{_WIDTH}" height="{height}" fill="{_PAPER}"/>',
             f'<rect x="0" y="0" width="{_WIDTH}" height="{_HEADER}" fill="{_INK}"/>',
             _text(12, 22, line, size=14, fill="#ffffff", weight="bold"),
             _text(_WIDTH - 12, 22, title, size=12, fill="#d9d3c5", anchor="end"),
             _melvin_centre(v, _HEADER)]
    for seat in range(v.players):
        parts.append(_melvin_seat(v, seat, _HEADER + _MK_CENTRE + _MK_ROW * seat, matched))
    return _document(_WIDTH, height, "".join(parts), f"Melvin Vs. Kronk, {title}")


_pictures.register(Card, card)
_pictures.register(PlayerView, view)
_pictures.register(State, table)
_pictures.register(mk.View, view)
_pictures.register(mk.State, table)
