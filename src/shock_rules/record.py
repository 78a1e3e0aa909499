"""Game records: a configuration and every action of a game, chance outcomes included.

Since the engine holds no hidden randomness (K6), a config and its list of actions reproduce
a game exactly; :func:`replay` rebuilds every state. A record also carries free headers
(players' names, a date, the result).

The text form is PGN-like: headers in brackets, then one action per line in the action
notation. ``#`` starts a comment that runs to the end of the line; blank lines are ignored.

.. code-block:: text

    [Players "3"]
    [Variant "standard"]
    [FirstLeader "0"]
    [Edition "default"]
    [Seat0 "Ann"]

    # round 1
    deal 2H
    deal 2S
    ...
    play 10H  # seat 0

A record of another game than Shock! opens with its ``Game`` header (``[Game "melvin"]``); a
record without one is Shock!'s. The game's own headers describe its config: Shock!'s
``Players``, ``Variant``, ``FirstLeader`` (a seat, or ``"chance"``) and ``Edition``; Melvin Vs.
Kronk's ``Players`` and ``Edition``. Shock!'s ``Edition`` is ``"default"``, a path to an
edition TOML file (relative to the record's directory; a regular file of at most 1 MiB, see
:meth:`~shock_rules.Edition.load`), or the edition embedded as one line of JSON. A record
from an untrusted source can name any file the process may read: parse such records with
edition paths you trust, or embed the edition. If a ``Result`` header is present (the final
scores, by seat, separated by spaces) the replay must end the game with those scores.

>>> import random
>>> import shock_rules as sr
>>> config = sr.GameConfig(players=3, first_leader=0)
>>> actions: list[sr.Action] = []
>>> end = sr.random_playout(config, random.Random(5), actions)
>>> record = record_game(config, actions, {"Seat0": "Ann"}, result=True)
>>> record2 = parse_record(format_record(record))
>>> record2 == record, replay(record2)[-1] == end
(True, True)
>>> from shock_rules import melvin
>>> end = melvin.random_playout(melvin.GameConfig(players=3), random.Random(5), actions := [])
>>> text = format_record(record_game(melvin.GameConfig(players=3), actions, result=True))
>>> text.splitlines()[:3]
['[Game "melvin"]', '[Players "3"]', '[Edition "default"]']
>>> replay(parse_record(text))[-1] == end
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

import attrs

from . import games
from ._errors import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidNotationError,
    ShockError,
    quoted,
)
from ._reading import fail, load_doc, read_list, read_notation, read_obj, read_str
from ._shared import SCHEMA
from .games import AnyGame

__all__ = [
    "GameRecord",
    "RecordError",
    "format_record",
    "parse_record",
    "record_from_json",
    "record_game",
    "replay",
]

#: Headers that describe a record's game and config, in any game; they are not kept among a
#: record's free headers.
CONFIG_HEADERS: Final = ("Game", *dict.fromkeys(
    h for name in games.names() for h in games.get(name).header_names))
_KEY_RE: Final = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,31}$")
_HEADER_RE: Final = re.compile(
    r'\[([A-Za-z][A-Za-z0-9_]{0,31})[ \t]+"((?:[^"\\]|\\.)*)"\][ \t]*(?:#.*)?', re.ASCII)


class RecordError(IllegalActionError):
    """A record does not replay: an action is illegal where it stands, or the record ends
    before its stated result. ``line`` is the record's text line (1-based) when known."""

    def __init__(self, message: str, *, action: object = None, seat: int | None = None,
                 line: int | None = None, index: int | None = None) -> None:
        super().__init__(message, action=action, seat=seat)
        #: The line of the text record where the replay stopped, when the record came from text.
        self.line = line
        #: The position (0-based) of the offending action in the record, when there is one.
        self.index = index


def _headers(value: Mapping[str, str] | Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    try:
        items = list(value.items()) if isinstance(value, Mapping) else list(value)
        pairs = [(key, text) for key, text in items]
    except ShockError:
        raise
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"invalid headers {quoted(value)}: expected (name, text) pairs") from None
    seen: set[str] = set()
    for key, text in pairs:
        if not isinstance(key, str) or not _KEY_RE.fullmatch(key) or key in CONFIG_HEADERS:
            raise InvalidArgumentError(f"invalid header name {quoted(key)}")
        # One line of text, as the text form writes it (str.splitlines() ends lines at more
        # characters than newlines).
        if not isinstance(text, str) or text.splitlines() not in ([], [text]):
            raise InvalidArgumentError(f"header {quoted(key)} must be one line of text")
        if key in seen:
            raise InvalidArgumentError(f"header {quoted(key)} is given twice")
        seen.add(key)
    return tuple(pairs)


def _game_of(config: object) -> AnyGame:
    return games.config_game(config, "a record")


def _check_config(instance: object, attribute: object, value: object) -> None:
    _game_of(value)


def _tuple(value: Iterable[Any]) -> tuple[Any, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise InvalidArgumentError(f"a record holds a list of actions, not {quoted(value)}")
    return tuple(value)


@attrs.frozen
class GameRecord:
    """A config of any registered game, every action of the game in order (chance outcomes
    included) and free headers. Records may stop before the game ends (a game in
    progress)."""

    #: The game's configuration (its game: :attr:`game`).
    config: Any = attrs.field(validator=_check_config)
    #: Every action, chance outcomes included, in order.
    actions: tuple[Any, ...] = attrs.field(converter=_tuple)
    #: Free headers as (name, value) pairs in order, e.g. ``("Seat0", "Ann")``.
    headers: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_headers)
    #: The text line of each action, when the record was parsed from text (not compared).
    lines: tuple[int, ...] | None = attrs.field(default=None, eq=False, repr=False)

    @actions.validator
    def _check_actions(self, attribute: object, value: object) -> None:
        kind = _game_of(self.config).action_type
        assert isinstance(value, tuple)  # made one by the converter
        for a in value:
            if not isinstance(a, kind):
                raise InvalidArgumentError(
                    f"a record holds actions, not {quoted(a)} (parse text with parse_action)")

    @property
    def game(self) -> str:
        """The name of the record's game in :mod:`shock_rules.games` (``"shock"``)."""
        return _game_of(self.config).name

    def header(self, name: str, default: str | None = None) -> str | None:
        """Return the value of a free header, or ``default``."""
        return dict(self.headers).get(name, default)


def record_game(
    config: Any,
    actions: Iterable[Any],
    headers: Mapping[str, str] | None = None,
    *,
    result: bool = False,
) -> GameRecord:
    """Return the record of a game played from ``config`` (of any registered game) with
    ``actions`` (objects or notation). The actions are replayed to check them;
    ``result=True`` adds a ``Result`` header with the final scores (the game must be over).
    Raise :class:`RecordError` if an action is illegal."""
    game = _game_of(config)
    if isinstance(actions, str | bytes) or not isinstance(actions, Iterable):
        raise InvalidArgumentError(f"record_game() needs a list of actions, not {quoted(actions)}")
    if headers is not None and not isinstance(headers, Mapping):
        raise InvalidArgumentError(f"record_game() needs headers as a mapping, not"
                                   f" {quoted(headers)}")
    acts = tuple(a if isinstance(a, game.action_type) else game.parse_action(a)
                 for a in actions)
    record = GameRecord(config, acts, dict(headers or {}))
    states = replay(record)
    if result:
        end = states[-1]
        if not game.is_terminal(end):
            raise RecordError("cannot state a result: the game is not over",
                              index=len(acts))
        record = attrs.evolve(
            record, headers=(*[h for h in record.headers if h[0] != "Result"],
                             ("Result", " ".join(map(str, game.scores(end))))))
    return record


def _where(record: GameRecord, index: int) -> str:
    if record.lines is not None and index < len(record.lines):
        return f"line {record.lines[index]}"
    return f"action {index + 1}"


def replay(record: GameRecord) -> list[Any]:
    """Return every state of the record: the new game, then the state after each action.

    Raise :class:`RecordError` naming the line (or action number) where the replay stopped
    when an action is illegal there, or when a ``Result`` header is given and the record ends
    before the game does, or with other scores. Every state passes the game's
    ``check_state``: each is made by its ``apply``.
    """
    if not isinstance(record, GameRecord):
        raise InvalidArgumentError(f"replay() needs a GameRecord, not {quoted(record)}")
    game = _game_of(record.config)
    state = game.new_game(record.config)
    states = [state]
    for i, action in enumerate(record.actions):
        try:
            state = game.apply(state, action)
        except IllegalActionError as exc:
            line = record.lines[i] if record.lines is not None and i < len(record.lines) else None
            raise RecordError(f"{_where(record, i)}: {exc}", action=action, seat=exc.seat,
                              line=line, index=i) from None
        states.append(state)
    stated = record.header("Result")
    if stated is not None:
        last_line = record.lines[-1] if record.lines else None
        if not game.is_terminal(state):
            seats = game.seats_to_act(state)
            who = ("chance" if game.is_chance(state)
                   else "seat " + " or ".join(map(str, seats)))
            raise RecordError(
                f"the record ends after {len(record.actions)} actions"
                f"{f' (line {last_line})' if last_line else ''} before the game is over:"
                f" {who} must act", line=last_line, index=len(record.actions))
        scores = " ".join(map(str, game.scores(state)))
        if stated.split() != scores.split():
            raise RecordError(f"the stated result {quoted(stated)} differs from the replay's"
                              f" {quoted(scores)}", line=last_line, index=len(record.actions))
    return states


# -- text form -------------------------------------------------------------------------------


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def format_record(record: GameRecord, *, edition_ref: str | None = None,
                  annotate: bool = True) -> str:
    """Return the record as text (see the module docstring).

    A custom edition (Shock!'s) is embedded as JSON, unless ``edition_ref`` names the file it
    will be read from. ``annotate`` adds comments where the game gives them: Shock!'s round at
    its start and the seat of each player decision (they are ignored when the text is read
    back).
    """
    if not isinstance(record, GameRecord):
        raise InvalidArgumentError(f"format_record() needs a GameRecord, not {quoted(record)}")
    if edition_ref is not None and (not isinstance(edition_ref, str)
                                    or edition_ref.splitlines() != [edition_ref]
                                    or edition_ref.startswith("{") or edition_ref == "default"):
        raise InvalidArgumentError(
            f"invalid edition_ref {quoted(edition_ref)}: expected a file path on one line")
    game = _game_of(record.config)
    lines = [] if game.name == "shock" else [f"[Game {_quote(game.name)}]"]
    lines += [f"[{k} {_quote(v)}]" for k, v in game.config_headers(record.config, edition_ref)]
    lines += [f"[{k} {_quote(v)}]" for k, v in record.headers]
    lines.append("")
    state = game.new_game(record.config) if annotate else None
    shown = None
    for action in record.actions:
        text = str(action)
        if state is not None:
            heading, comment = game.annotate(state, action)
            if heading is not None and heading != shown:
                lines.append(f"# {heading}")
                shown = heading
            if comment is not None:
                text = f"{text:<12} # {comment}"
            try:
                state = game.apply(state, action)
            except IllegalActionError:
                state = None  # an illegal record is written as it is, without annotations
        lines.append(text)
    return "\n".join(lines) + "\n"


def parse_record(text: str, *, base_dir: str | Path | None = None) -> GameRecord:
    """Return the record written in ``text``; an ``Edition`` path is read relative to
    ``base_dir`` (default: the current directory).

    Raise :class:`~shock_rules.InvalidNotationError` naming the line of a malformed header
    or action, an unknown game, or a missing config header. The actions are not replayed
    here: call :func:`replay`.
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"a record must be text, not {type(text).__name__}")
    if base_dir is not None and not isinstance(base_dir, str | Path):
        raise InvalidArgumentError(f"parse_record() needs base_dir as a path, not"
                                   f" {quoted(base_dir)}")
    config_values: dict[str, tuple[str, int]] = {}
    free: list[tuple[str, str]] = []
    free_keys: set[str] = set()  # a set, not a scan of ``free``: hostile records have many
    texts: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("["):
            if texts:
                raise InvalidNotationError(f"line {number}: a header after the actions")
            m = _HEADER_RE.fullmatch(line)
            if m is None:
                raise InvalidNotationError(
                    f"line {number}: malformed header {quoted(line)}: expected [Name \"value\"]")
            key, value = m.group(1), _unquote(m.group(2))
            if key in config_values or key in free_keys:
                raise InvalidNotationError(f"line {number}: header {quoted(key)} is given twice")
            if key in CONFIG_HEADERS:
                config_values[key] = (value, number)
            else:
                free.append((key, value))
                free_keys.add(key)
            continue
        line = line.split("#", 1)[0].strip()
        if line:
            texts.append((number, line))
    game = _record_game(config_values)
    for key, (_, number) in config_values.items():
        if key != "Game" and key not in game.header_names:
            raise InvalidNotationError(f"line {number}: [{key}] is no header of a {game.name}"
                                       " record")
    actions = []
    for number, line in texts:
        try:
            actions.append(game.parse_action(line))
        except InvalidNotationError as exc:
            raise InvalidNotationError(f"line {number}: {exc}") from None
    base = None if base_dir is None else Path(base_dir)
    config = game.config_from_headers(config_values, base)
    return GameRecord(config, actions, tuple(free), tuple(n for n, _ in texts))


def _record_game(values: Mapping[str, tuple[str, int]]) -> AnyGame:
    """Return the game a text record's ``Game`` header names (none: Shock!)."""
    if "Game" not in values:
        return games.get("shock")
    name, number = values["Game"]
    if name not in games.names():
        raise InvalidNotationError(f"line {number}: [Game]: unknown game {quoted(name)}:"
                                   f" expected one of {', '.join(games.names())}")
    return games.get(name)


# -- JSON form -------------------------------------------------------------------------------


def record_to_dict(record: GameRecord) -> dict[str, object]:
    """Return the fields of a record's JSON document (without schema tags; internal): for
    another game than Shock!, its ``"game"`` first."""
    game = _game_of(record.config)
    config = {k: v for k, v in game.config_document(record.config).items()
              if k not in ("schema", "game", "type")}
    return {**({} if game.name == "shock" else {"game": game.name}), "config": config,
            "headers": dict(record.headers), "actions": [str(a) for a in record.actions]}


def record_from_json(text: str | bytes | Mapping[str, object]) -> GameRecord:
    """Return the record of a ``"record"`` JSON document; raise
    :class:`~shock_rules.InvalidStateError` if it is malformed (the actions are not replayed)."""
    doc = read_obj(load_doc(text), "record", ("schema", "type", "config", "headers", "actions"),
                   ("game",))
    if doc["schema"] != SCHEMA:
        raise fail("record.schema", f"expected {quoted(SCHEMA)}, not {quoted(doc['schema'])}")
    if doc["type"] != "record":
        raise fail("record.type", f"expected 'record', not {quoted(doc['type'])}")
    name = doc.get("game", "shock")
    if name not in games.names():
        raise fail("record.game", f"unknown game {quoted(name)}: expected one of"
                   f" {', '.join(games.names())}")
    game = games.get(str(name))
    tags = {k: v for k, v in game.config_document(game.config()).items()
            if k in ("schema", "game", "type")}
    body = doc["config"]
    if not isinstance(body, dict) or set(tags) & set(body):
        raise fail("record.config", "expected an object of the config's fields")
    config = game.read_config({**tags, **body})
    heads = doc["headers"]
    if not isinstance(heads, dict):
        raise fail("record.headers", "expected an object of header names and texts")
    actions = [read_notation(item, f"record.actions[{i}]", game.parse_action)
               for i, item in enumerate(read_list(doc["actions"], "record.actions"))]
    try:
        headers = _headers((k, read_str(v, f"record.headers.{k}")) for k, v in heads.items())
    except InvalidArgumentError as exc:  # a header name or text no record takes
        raise fail("record.headers", str(exc)) from None
    return GameRecord(config, actions, headers)

