"""JSON documents of Melvin Vs. Kronk's actions, states and views.

An action is its notation (MK-NOTATION-1), a JSON string of the form
``schemas/action.schema.json``. A state document holds every field, hidden ones included: it is
for saving and debugging, never for a client, which gets a view document only (MK-INFO-1); their
forms are ``schemas/state.schema.json`` and ``schemas/view.schema.json``. ``state_from_json``
checks the document and the state (``check_state``) and raises :class:`InvalidStateError` for
anything no legal play reaches.
"""

from __future__ import annotations

import json
from typing import Any

from shock_rules._errors import InvalidStateError, quoted

from ._cards import Action, GameConfig, parse_action
from ._engine import AwardWindow, Event, State, check_state
from ._view import View

__all__ = ["action_from_json", "action_to_json", "state_from_json", "state_to_json",
           "view_to_json"]

FORMAT = "shock-rules/melvin-state/1"


def action_to_json(action: Action) -> str:
    return json.dumps(str(action))


def action_from_json(text: str) -> Action:
    value = json.loads(text)
    if not isinstance(value, str):
        raise InvalidStateError(f"an action document is a string, not {quoted(value)}")
    return parse_action(value)


def _state_dict(s: State) -> dict[str, Any]:
    aw = s.award
    return {
        "format": FORMAT, "players": s.players, "edition": s.config.edition,
        "dealer": s.dealer, "pool": list(s.pool), "hidden": list(s.hidden),
        "known": [list(k) for k in s.known],
        "discards": [[list(c) for c in d] for d in s.discards], "clock": s.clock,
        "gem_top": list(s.gem_top), "gem_pool": list(s.gem_pool),
        "penalty_deck": list(s.penalty_deck), "gems": [list(g) for g in s.gems],
        "played": list(s.played), "penalties": [list(p) for p in s.penalties],
        "in_game": list(s.in_game), "turn": s.turn, "flipped": s.flipped,
        "pending": None if s.pending is None else list(s.pending),
        "transfers": [list(t) for t in s.transfers],
        "award": None if aw is None else {
            "winner": aw.winner, "maker": aw.maker, "drawn": list(aw.drawn),
            "to_draw": aw.to_draw, "taker": aw.taker, "special_played": aw.special_played},
        "oculos": list(s.oculos), "over": s.over,
        "events": [{"text": e.text, "seats": None if e.seats is None else list(e.seats)}
                   for e in s.events],
    }


def state_to_json(state: State) -> str:
    """The whole state, hidden fields included (for saving, not for clients)."""
    return json.dumps(_state_dict(state), ensure_ascii=False, sort_keys=True)


def _ints(v: Any) -> tuple[int, ...]:
    if not isinstance(v, list) or not all(type(x) is int for x in v):
        raise InvalidStateError(f"expected a list of integers, not {quoted(v)}")
    return tuple(v)


def _strs(v: Any) -> tuple[str, ...]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise InvalidStateError(f"expected a list of strings, not {quoted(v)}")
    return tuple(v)


def _opt_int(v: Any) -> int | None:
    if v is not None and type(v) is not int:
        raise InvalidStateError(f"expected an integer or null, not {quoted(v)}")
    return v


def _bool(v: Any) -> bool:
    if not isinstance(v, bool):
        raise InvalidStateError(f"expected true or false, not {quoted(v)}")
    return v


def _int(v: Any) -> int:
    if type(v) is not int:
        raise InvalidStateError(f"expected an integer, not {quoted(v)}")
    return v


def _pending(v: Any) -> tuple[object, ...] | None:
    if v is None:
        return None
    ok = isinstance(v, list) and v and (
        v == ["dealer"] or v == ["gem"] or v == ["move"]
        or (len(v) == 2 and v[0] == "penalty" and type(v[1]) is int)
        or (len(v) == 3 and v[0] == "flip" and type(v[1]) is int and isinstance(v[2], bool)))
    if not ok:
        raise InvalidStateError(f"not a pending chance step: {quoted(v)}")
    return tuple(v)


def state_from_json(text: str) -> State:
    """Read a state document; raise :class:`InvalidStateError` for a malformed or impossible
    one."""
    try:
        d = json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise InvalidStateError(f"not JSON: {exc}") from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise InvalidStateError(f"not a {FORMAT} document")
    try:
        config = GameConfig(players=_int(d["players"]), edition=str(d["edition"]))
        aw = d["award"]
        award = None if aw is None else AwardWindow(
            winner=_int(aw["winner"]), maker=_int(aw["maker"]), drawn=_strs(aw["drawn"]),
            to_draw=_int(aw["to_draw"]), taker=_int(aw["taker"]),
            special_played=_bool(aw["special_played"]))
        events = tuple(Event(str(e["text"]), None if e["seats"] is None else _ints(e["seats"]))
                       for e in d["events"])
        state = State(
            config=config, dealer=_opt_int(d["dealer"]), pool=_ints(d["pool"]),
            hidden=_ints(d["hidden"]), known=tuple(_ints(k) for k in d["known"]),
            discards=tuple(tuple(_pair(c) for c in p) for p in d["discards"]),
            clock=_int(d["clock"]), gem_top=_strs(d["gem_top"]), gem_pool=_strs(d["gem_pool"]),
            penalty_deck=_strs(d["penalty_deck"]), gems=tuple(_strs(g) for g in d["gems"]),
            played=_strs(d["played"]), penalties=tuple(_strs(p) for p in d["penalties"]),
            in_game=tuple(_bool(b) for b in d["in_game"]), turn=_int(d["turn"]),
            flipped=_int(d["flipped"]), pending=_pending(d["pending"]),
            transfers=tuple(_pair(t) for t in d["transfers"]), award=award,
            oculos=_ints(d["oculos"]), over=_bool(d["over"]), events=events)
    except InvalidStateError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidStateError(f"malformed Melvin state document: {exc!r}") from None
    if set(d) - set(_state_dict(state)):
        raise InvalidStateError(f"unknown fields: {sorted(set(d) - set(_state_dict(state)))}")
    try:
        check_state(state)
    except (IndexError, KeyError, ValueError) as exc:
        if isinstance(exc, InvalidStateError):
            raise
        raise InvalidStateError(f"impossible Melvin state: {exc!r}") from None
    return state


def _pair(v: Any) -> tuple[int, int]:
    t = _ints(v)
    if len(t) != 2:
        raise InvalidStateError(f"expected a pair of integers, not {quoted(v)}")
    return (t[0], t[1])


def view_to_json(v: View) -> str:
    """A view as sent to a client: only what its seat may see (MK-INFO-1)."""
    return json.dumps({
        "format": "shock-rules/melvin-view/1", "seat": v.seat, "players": v.players,
        "tops": list(v.tops), "discard_sizes": list(v.discard_sizes),
        "draw_sizes": list(v.draw_sizes), "gem_counts": list(v.gem_counts),
        "gems": [None if g is None else list(g) for g in v.gems],
        "penalties": [list(p) for p in v.penalties], "gem_deck_size": v.gem_deck_size,
        "penalty_deck_size": v.penalty_deck_size, "in_game": list(v.in_game),
        "to_move": v.to_move, "award_winner": v.award_winner, "award_taker": v.award_taker,
        "award_drawn": None if v.award_drawn is None else list(v.award_drawn),
        "oculos_targets": list(v.oculos_targets), "over": v.over, "events": list(v.events),
    }, ensure_ascii=False, sort_keys=True)
