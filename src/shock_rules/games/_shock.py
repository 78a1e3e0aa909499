"""Shock! Knights & Poisons on the game contract: the package's core, as one :class:`Game`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from .._errors import InvalidNotationError, ShockError, quoted
from .._info.view import PlayerView, spectator_view, view, visible_events
from .._json import (
    action_from_json,
    action_to_dict,
    config_from_json,
    config_to_dict,
    edition_from_data,
    event_to_dict,
    events_from_json,
    read_action,
    state_from_json,
    state_to_dict,
    view_from_json,
    view_to_dict,
)
from .._notation.transcript import describe_event
from .._reading import header
from .._rules.actions import Action, parse_action
from .._rules.check import check_state
from .._rules.config import GameConfig, Variant
from .._rules.edition import Edition
from .._rules.engine import (
    apply,
    chance_outcomes,
    is_chance,
    is_terminal,
    legal_actions,
    new_game,
    random_playout,
    resolve_chance,
    sample_chance,
    scores,
    seats_to_act,
    winners,
)
from .._rules.events import Event, Shocked, Withdrew
from .._rules.state import State
from .._schemas import SCHEMA_NAMES, schema
from ..svg import view as picture
from ._contract import Game

__all__ = ["SHOCK", "config_from_headers", "config_headers"]

#: The headers of a text record that describe a Shock! config.
HEADERS: Final = ("Players", "Variant", "FirstLeader", "Edition")


def config_headers(config: GameConfig, edition_ref: str | None = None) -> tuple[tuple[str, str],
                                                                                 ...]:
    """Return the headers of a text record for ``config``: ``Players``, ``Variant``,
    ``FirstLeader`` (a seat, or ``"chance"``) and ``Edition`` (``"default"``, the path
    ``edition_ref`` it will be read from, or the edition embedded as one line of JSON)."""
    if config.edition == Edition.default():
        edition = "default"
    elif edition_ref is not None:
        edition = edition_ref
    else:
        edition = json.dumps(config.edition.to_dict(), separators=(",", ":"))
    first = "chance" if config.first_leader is None else str(config.first_leader)
    return (("Players", str(config.players)), ("Variant", config.variant.value),
            ("FirstLeader", first), ("Edition", edition))


def config_from_headers(values: Mapping[str, tuple[str, int]],
                        base_dir: Path | None) -> GameConfig:
    """Return the config a text record's headers describe (``values``: each header's text and
    line); an ``Edition`` path is read relative to ``base_dir`` (default: the current
    directory). Raise :class:`~shock_rules.InvalidNotationError` naming the line of a wrong
    header, or a missing one."""
    for key in ("Players", "Variant"):
        if key not in values:
            raise InvalidNotationError(f"the record has no [{key} \"...\"] header")

    def bad(key: str, message: str) -> InvalidNotationError:
        return InvalidNotationError(f"line {values[key][1]}: [{key}]: {message}")

    players_text = values["Players"][0]
    if players_text not in ("3", "4", "5"):
        raise bad("Players", f"expected 3, 4 or 5, not {quoted(players_text)}")
    players = int(players_text)
    try:
        variant = Variant.parse(values["Variant"][0])
    except ShockError as exc:
        raise bad("Variant", str(exc)) from None
    first: int | None = None
    if "FirstLeader" in values and values["FirstLeader"][0] != "chance":
        text = values["FirstLeader"][0]
        if text not in [str(i) for i in range(players)]:
            raise bad("FirstLeader",
                      f"expected a seat 0-{players - 1} or 'chance', not {quoted(text)}")
        first = int(text)
    edition = Edition.default()
    ref = values.get("Edition", ("default", 0))[0]
    if ref.startswith("{"):
        try:
            edition = edition_from_data(json.loads(ref), "edition")
        except (ValueError, RecursionError) as exc:
            raise bad("Edition", f"the embedded edition is invalid: {exc}") from None
    elif ref != "default":
        try:
            edition = Edition.load(Path(base_dir or ".") / ref)
        except ShockError as exc:
            raise bad("Edition", str(exc)) from None
    return GameConfig(players=players, variant=variant, edition=edition, first_leader=first)


def _annotate(state: State, action: Action) -> tuple[str | None, str | None]:
    # A heading for each round, and the seat of each decision (its notation names none).
    return f"round {state.round}", None if action.is_chance else f"seat {state.actor}"


def _tally(event: Event) -> tuple[str, int] | None:
    if type(event) is Withdrew:
        return "withdrawals", event.seat
    if type(event) is Shocked:
        return "shocks", event.seat
    return None


def _document(kind: str, body: dict[str, object]) -> dict[str, object]:
    return {**header(kind), **body}


def _events_document(events: tuple[Event, ...], step: int | None = None) -> dict[str, object]:
    listed = [event_to_dict(e) if step is None else {**event_to_dict(e), "step": step}
              for e in events]
    return _document("events", {"events": listed})


def _read_action(doc: Any) -> Action:
    # Notation, a whole "action" document, or an action object of a view's legal actions.
    if isinstance(doc, str):
        return read_action(doc, "action")
    if isinstance(doc, Mapping) and ("type" in doc or "schema" in doc):
        return action_from_json(doc)
    return read_action(doc, "action")


#: Shock! Knights & Poisons.
SHOCK: Final[Game[GameConfig, State, Action, PlayerView]] = Game(
    name="shock", title="Shock! Knights & Poisons", players=range(3, 6), simultaneous=False,
    config_type=GameConfig, state_type=State, action_type=Action, view_type=PlayerView,
    event_type=Event,
    module="shock_rules",
    new_game=new_game, legal_actions=legal_actions, seats_to_act=seats_to_act, apply=apply,
    is_chance=is_chance, chance_outcomes=chance_outcomes, sample_chance=sample_chance,
    resolve_chance=resolve_chance, is_terminal=is_terminal, scores=scores, winners=winners,
    check_state=check_state, random_playout=random_playout,
    view=view, spectator_view=spectator_view, visible_events=visible_events,
    describe_event=describe_event, parse_action=parse_action,
    config_document=lambda c: _document("config", config_to_dict(c)),
    state_document=lambda s: _document("state", state_to_dict(s)),
    action_document=lambda a: _document("action", action_to_dict(a)),
    view_document=lambda v: _document("view", view_to_dict(v)),
    events_document=_events_document,
    read_config=config_from_json, read_state=state_from_json, read_action=_read_action,
    read_view=view_from_json, read_events=events_from_json,
    schema_names=SCHEMA_NAMES, schema=schema,
    config_headers=config_headers, config_from_headers=config_from_headers,
    header_names=HEADERS, annotate=_annotate,
    tallies=("withdrawals", "shocks"), tally=_tally, picture=picture,
)
