"""Melvin Vs. Kronk on the game contract: ``shock_rules.melvin``, as one :class:`Game`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from .. import melvin as mk
from .._errors import InvalidNotationError, quoted
from .._reading import header
from ..melvin._json import (
    GAME,
    action_to_dict,
    config_to_dict,
    events_to_dict,
    read_action,
    state_to_dict,
    view_to_dict,
)
from ..svg import view as picture
from ._contract import Game

__all__ = ["MELVIN"]

#: The headers of a text record that describe a Melvin config.
HEADERS: Final = ("Players", "Edition")


def config_headers(config: mk.GameConfig, edition_ref: str | None = None
                   ) -> tuple[tuple[str, str], ...]:
    """Return a text record's headers for ``config``: ``Players`` and ``Edition`` (the name
    of a shipped edition: ``edition_ref``, a file of Shock!'s custom editions, means
    nothing here)."""
    return ("Players", str(config.players)), ("Edition", config.edition)


def config_from_headers(values: Mapping[str, tuple[str, int]],
                        base_dir: Path | None) -> mk.GameConfig:
    """Return the config of a text record's headers; raise
    :class:`~shock_rules.InvalidNotationError` naming the line of a wrong or missing one."""
    if "Players" not in values:
        raise InvalidNotationError("the record has no [Players \"...\"] header")
    players, line = values["Players"]
    if players not in ("3", "4", "5", "6"):
        raise InvalidNotationError(f"line {line}: [Players]: expected 3 to 6, not"
                                   f" {quoted(players)}")
    edition, line = values.get("Edition", ("default", 0))
    if edition != "default":
        raise InvalidNotationError(f"line {line}: [Edition]: no Melvin edition"
                                   f" {quoted(edition)}: expected 'default'")
    return mk.GameConfig(players=int(players), edition=edition)


def _annotate(state: mk.State, action: mk.Action) -> tuple[str | None, str | None]:
    # Every decision names its seat in notation: a record needs no comment to be read.
    return None, None


def _tally(event: mk.Event) -> tuple[str, int] | None:
    if isinstance(event, mk.MatchSlapped):
        return "matches_won", event.seat
    if isinstance(event, mk.WrongSlap):
        return "wrong_slaps", event.seat
    if isinstance(event, mk.Eliminated):
        return "eliminated", event.seat
    return None


def _document(kind: str, body: dict[str, object]) -> dict[str, object]:
    return {**header(kind, GAME), **body}


def _events_document(events: tuple[mk.Event, ...], step: int | None = None
                     ) -> dict[str, object]:
    return _document("events", {"events": events_to_dict(events, step)})


def _contested(state: mk.State) -> bool:
    # M5, M22: a slap wins while a match shows in play; in an award window nobody slaps.
    return state.phase is mk.Phase.PLAY and mk.match_shows(state)


def _is_claim(action: mk.Action) -> bool:
    return isinstance(action, mk.Slap)


def _read_action(doc: Any) -> mk.Action:
    if isinstance(doc, str):
        return mk.parse_action(doc)
    if isinstance(doc, Mapping) and not {"schema", "game", "type"} & set(doc):
        # An object of a view's legal_actions, untagged, as a client sends it back (the
        # protocol reads Shock!'s the same way).
        return read_action(dict(doc), "action")
    return mk.action_from_json(doc)


#: Melvin Vs. Kronk.
MELVIN: Final[Game[mk.GameConfig, mk.State, mk.Action, mk.View]] = Game(
    name="melvin", title="Melvin Vs. Kronk", players=range(3, 7), simultaneous=True,
    config_type=mk.GameConfig, state_type=mk.State, action_type=mk.Action, view_type=mk.View,
    event_type=mk.Event,
    module="shock_rules.melvin",
    new_game=mk.new_game, legal_actions=mk.legal_actions, seats_to_act=mk.seats_to_act,
    apply=mk.apply, is_chance=mk.is_chance, chance_outcomes=mk.chance_outcomes,
    sample_chance=mk.sample_chance, resolve_chance=mk.resolve_chance,
    is_terminal=mk.is_terminal, scores=mk.scores, winners=mk.winners,
    check_state=mk.check_state, random_playout=mk.random_playout,
    contested=_contested, is_claim=_is_claim,
    view=mk.view, spectator_view=mk.spectator_view, visible_events=mk.visible_events,
    describe_event=mk.describe_event, parse_action=mk.parse_action,
    config_document=lambda c: _document("config", config_to_dict(c)),
    state_document=lambda s: _document("state", state_to_dict(s)),
    action_document=lambda a: _document("action", action_to_dict(a)),
    view_document=lambda v: _document("view", view_to_dict(v)),
    events_document=_events_document,
    read_config=mk.config_from_json, read_state=mk.state_from_json, read_action=_read_action,
    read_view=mk.view_from_json, read_events=mk.events_from_json,
    schema_names=mk.SCHEMA_NAMES, schema=mk.schema,
    config_headers=config_headers, config_from_headers=config_from_headers,
    header_names=HEADERS, annotate=_annotate,
    tallies=("matches_won", "wrong_slaps", "eliminated"), tally=_tally, picture=picture,
)
