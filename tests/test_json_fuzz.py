"""Fuzzing the loaders: valid documents of reachable states, mutated at random (a key deleted or
added, a value of another type, a number replaced, cards swapped or duplicated, text cut short),
either load into a state that passes every invariant check or raise InvalidStateError, never
another exception. The same holds for mutated position strings (InvalidNotationError allowed)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import shock_rules as sr
from shock_rules import state_from_json, to_dict
from shock_rules._notation.position import format_position, parse_position
from shock_rules._rules.check import check_state
from strategies import configs, game_steps

#: Each example plays part of a game, so run at most 100 of them (CI), fewer in the dev profile.
EXAMPLES = min(settings().max_examples, 100)
#: Mutations tried on each document.
MUTATIONS = 8

_CARD_RE = re.compile(r"(?:1[01]|[1-9])[HSDC]")
_ALL_CARDS = [str(sr.Card.from_index(i)) for i in range(44)]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-300, 300) | st.floats(allow_nan=False)
    | st.text(max_size=4) | st.sampled_from(_ALL_CARDS),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=2),
    max_leaves=4,
)

Slot = tuple[Any, Any]  # (container, key or index)


def slots(node: Any) -> Iterator[Slot]:
    """Yield every (container, key) of a JSON tree, depth first."""
    if isinstance(node, dict):
        for key in list(node):
            yield node, key
            yield from slots(node[key])
    elif isinstance(node, list):
        for i in range(len(node)):
            yield node, i
            yield from slots(node[i])


def containers(node: Any) -> Iterator[Any]:
    """Yield every object and list of a JSON tree."""
    if isinstance(node, dict | list):
        yield node
        for child in node.values() if isinstance(node, dict) else node:
            yield from containers(child)


@st.composite
def reachable_states(draw: st.DrawFn) -> sr.State:
    """Return a state of a drawn game: after a drawn number of steps, play on until a drawn
    phase (or the end), so that states in tricks and chest challenges are common even though
    dealing is a third of a game's steps."""
    config = draw(configs(), label="config")
    limit = draw(st.sampled_from(range(301)), label="steps")  # uniform, unlike integers()
    target = draw(st.sampled_from(list(sr.Phase)), label="phase")
    data = draw(st.data())
    state = sr.new_game(config)
    for i, step in enumerate(game_steps(data, config)):
        if i >= limit and step.state.phase is target:
            break
        state = step.next
    return state


def mutate(draw: st.DataObject, doc: dict[str, Any]) -> str:
    """Return the JSON text of ``doc`` after one random mutation (``doc`` is changed)."""
    kind = draw.draw(st.sampled_from(["delete", "add", "retype", "number", "swap", "duplicate",
                                      "card", "truncate"]), label="mutation")
    every = list(slots(doc))
    if kind == "truncate":
        text = json.dumps(doc)
        return text[: draw.draw(st.integers(0, len(text) - 1), label="cut")]
    if kind == "delete":
        keyed = [(c, k) for c, k in every if isinstance(c, dict)] + [(doc, "schema")]
        c, k = draw.draw(st.sampled_from(keyed), label="delete")
        del c[k]
    elif kind == "add":
        target = draw.draw(st.sampled_from(list(containers(doc))), label="into")
        value = draw.draw(json_values, label="value")
        if isinstance(target, dict):
            target[draw.draw(st.text(max_size=8), label="key")] = value
        else:
            target.insert(draw.draw(st.integers(0, len(target)), label="at"), value)
    elif kind == "retype":
        c, k = draw.draw(st.sampled_from(every), label="slot")
        c[k] = draw.draw(json_values, label="value")
    elif kind == "number":
        numbers = [(c, k) for c, k in every if type(c[k]) is int]
        c, k = draw.draw(st.sampled_from(numbers), label="slot")
        c[k] = draw.draw(st.sampled_from([c[k] + 1, c[k] - 1, -c[k], 0]) | st.integers(-50, 400),
                         label="number")
    else:
        cards = [(c, k) for c, k in every if isinstance(c[k], str) and _CARD_RE.fullmatch(c[k])]
        if not cards:
            return json.dumps(doc)
        c, k = draw.draw(st.sampled_from(cards), label="card")
        if kind == "swap":
            c2, k2 = draw.draw(st.sampled_from(cards), label="other card")
            c[k], c2[k2] = c2[k2], c[k]
        elif kind == "duplicate":
            lists = [x for x in containers(doc) if isinstance(x, list)]
            target = draw.draw(st.sampled_from(lists), label="into")
            target.append(c[k])
        else:
            c[k] = draw.draw(st.sampled_from(_ALL_CARDS), label="new card")
    return json.dumps(doc)


@settings(max_examples=EXAMPLES)
@given(reachable_states(), st.data())
def test_mutated_state_documents_load_valid_or_raise(state: sr.State, data: st.DataObject) -> None:
    original = to_dict(state)
    assert state_from_json(json.dumps(original)) == state
    for _ in range(MUTATIONS):
        text = mutate(data, copy.deepcopy(original))
        try:
            loaded = state_from_json(text)
        except sr.InvalidStateError:
            continue
        check_state(loaded)  # whatever loads is a valid state


@settings(max_examples=EXAMPLES)
@given(reachable_states(), st.data())
def test_mutated_positions_parse_valid_or_raise(state: sr.State, data: st.DataObject) -> None:
    text = format_position(state)
    alphabet = sorted(set(text) | set("0123456789HSDC-/_*|,+@.~ ivwsxL"))
    for _ in range(MUTATIONS):
        i = data.draw(st.integers(0, len(text)), label="at")
        j = data.draw(st.integers(i, min(len(text), i + 3)), label="to")
        piece = data.draw(st.text(alphabet, max_size=3), label="insert")
        mutated = text[:i] + piece + text[j:]
        try:
            loaded = parse_position(mutated, state.config)
        except (sr.InvalidNotationError, sr.InvalidStateError):
            continue
        check_state(loaded)
