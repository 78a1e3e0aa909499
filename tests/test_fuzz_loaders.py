"""Fuzzing every loader with fixed seeds: mutated JSON state documents, positions, records and
view documents either load into something valid or raise a ShockError.

Each test mutates documents of reachable states (from seeded games over several configs and
editions) with a seeded ``random.Random``, so a run is deterministic. For every mutated input:

- the loader returns, or raises a subclass of :class:`~shock_rules.ShockError` (no other
  exception: an untyped one fails the test);
- what loads passes :func:`~shock_rules.check_state` and re-serialises to the input (for JSON
  documents up to the order of lists of cards and suits, which are sets, and the case of card
  text; for records, to a text that parses back to the same record).

The counts (10,000 states and positions, 2,000 records and views) are multiplied by the
environment variable ``SHOCK_FUZZ_SCALE`` (default 1) for longer runs.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import random
from typing import Any

import shock_rules as sr

SCALE = float(os.environ.get("SHOCK_FUZZ_SCALE", "1"))
STATES = int(10_000 * SCALE)
POSITIONS = int(10_000 * SCALE)
RECORDS = int(2_000 * SCALE)
VIEWS = int(2_000 * SCALE)

_CARDS = [str(sr.Card.from_index(i)) for i in range(44)]
_ODD = [None, True, False, 0, -1, 1, 2, 3, 9, 10**12, -(10**12), 1.5, "", "x", "7h", "7ſ",
        "٣", "²", "G2/1", "P:bee", "in", "play", [], {}, ["7H"], {"7H": 1}]
_TEXT_BITS = list("0123456789HSDChsdc-/_*|,+@.~ ivwsxLG:P") + ["ſ", "٣", "²", "\u00a0", "\t",
                                                              "\n", "play", "deal", "#", '"']


def _edition(seed: int) -> sr.Edition:
    rng = random.Random(seed)
    types = ["bee", "spider", "jellyfish"]
    rng.shuffle(types)
    chest = [{"kind": "gem", "large": rng.randrange(5), "small": rng.randrange(3),
              "count": rng.randrange(1, 4)} for _ in range(rng.randrange(1, 4))]
    chest += [{"kind": "poison", "poison": t, "large": rng.randrange(3), "count": 1}
              for t in types[: rng.randrange(4)]]
    return sr.Edition.from_dict({
        "edition": {"name": f"fuzz{seed}"},
        "gems": [{"name": "g", "value": 1, "count": rng.randrange(20, 200)}],
        "number_cards": {
            "poison_types": types,
            "poisons": dict(zip(["7H", "7S", "7D"], types, strict=True)),
            "potions": ["5C", "7C"],
            "gem_icons": {c: rng.randrange(1, 4) for c in rng.sample(_CARDS, 12)},
        },
        "chest": chest,
    })


@functools.cache
def _configs() -> list[sr.GameConfig]:
    out = []
    for i, players in enumerate((3, 4, 5, 3, 4, 5)):
        out.append(sr.GameConfig(
            players=players, variant=list(sr.Variant)[i % 2],
            first_leader=None if i % 3 else i % players,
            edition=sr.Edition.default() if i < 3 else _edition(i)))
    return out


def _game(config: sr.GameConfig, seed: int) -> tuple[list[sr.Action], list[sr.State]]:
    rng = random.Random(seed)
    state = sr.new_game(config)
    actions: list[sr.Action] = []
    states = [state]
    while not sr.is_terminal(state):
        if sr.is_chance(state):
            action = sr.sample_chance(state, rng)
        else:
            legal = sr.legal_actions(state)
            stay = [a for a in legal if a.kind is not sr.ActionKind.WITHDRAW]
            action = rng.choice(stay if stay and rng.randrange(12) else legal)
        state = sr.apply(state, action)
        actions.append(action)
        states.append(state)
    return actions, states


@functools.cache
def _games() -> list[tuple[sr.GameConfig, list[sr.Action], list[sr.State]]]:
    return [(c, *_game(c, seed)) for seed, c in enumerate(_configs() * 2)]


@functools.cache
def _samples() -> list[sr.State]:
    """States of every phase, from every game (a few hundred)."""
    rng = random.Random(7)
    out = []
    for _, _, states in _games():
        by_phase: dict[sr.Phase, list[sr.State]] = {}
        for s in states:
            by_phase.setdefault(s.phase, []).append(s)
        for group in by_phase.values():
            out.extend(rng.sample(group, min(len(group), 6)))
    return out


# -- JSON mutations --------------------------------------------------------------------------


def _slots(node: Any, out: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    if isinstance(node, dict):
        for key in node:
            out.append((node, key))
            _slots(node[key], out)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            out.append((node, i))
            _slots(item, out)
    return out


def _mutate_doc(doc: dict[str, Any], rng: random.Random) -> str:
    """Return the JSON text of ``doc`` after one to three random mutations."""
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        # Events are a third of a document's values: mutate the rest four times in five.
        keys = [k for k in doc if k != "events"] if rng.randrange(5) else list(doc)
        slots: list[tuple[Any, Any]] = []
        for key in keys:
            slots.append((doc, key))
            _slots(doc[key], slots)
        kind = rng.randrange(9)
        c, k = rng.choice(slots)
        value = c[k]
        if kind == 0 and isinstance(c, dict):
            del c[k]
        elif kind == 0:
            c.pop(k)
        elif kind == 1:
            c[k] = copy.deepcopy(rng.choice(_ODD))
        elif kind == 2 and type(value) is int:
            c[k] = value + rng.choice((-2, -1, 1, 2, 5))
        elif kind == 3:
            cards = [(c2, k2) for c2, k2 in slots if c2[k2] in _CARDS]
            if cards:
                c1, k1 = rng.choice(cards)
                c2, k2 = rng.choice(cards)
                c1[k1], c2[k2] = c2[k2], c1[k1]
        elif kind == 4 and isinstance(value, list):
            value.append(copy.deepcopy(rng.choice(value)) if value else rng.choice(_CARDS))
        elif kind == 5 and value in _CARDS:
            c[k] = rng.choice(_CARDS)
        elif kind == 6 and isinstance(value, list) and value:
            value.pop(rng.randrange(len(value)))
        elif kind == 7 and isinstance(value, str):
            c[k] = rng.choice(("in", "withdrawn", "shocked", "play", "cover", "chest", "over",
                               "deal", "trump", "choice", "leader"))
        elif kind == 8 and isinstance(c, dict):
            c[rng.choice(("x", "events", "seat", "card"))] = copy.deepcopy(rng.choice(_ODD))
    text = json.dumps(doc)
    if rng.randrange(40) == 0:
        text = text[: rng.randrange(len(text))]
    return text


def _canon(node: Any) -> Any:
    """Return a JSON tree with lists of cards or suits sorted, card text in capitals and an
    embedded edition replaced by the edition it describes (its optional keys have defaults)."""
    if isinstance(node, dict) and set(node) == {"edition", "gems", "number_cards", "chest"}:
        return sr.Edition.from_dict(node)
    if isinstance(node, dict):
        return {k: _canon(v) for k, v in node.items()}
    if isinstance(node, list):
        items = [_canon(v) for v in node]
        if items and all(isinstance(v, str) and v in _CARDS for v in items):
            return sorted(items, key=_CARDS.index)
        if items and all(isinstance(v, str) and v in "HSDC" and v for v in items):
            return sorted(items, key="HSDC".index)
        return items
    if isinstance(node, str) and node.upper() in _CARDS:
        return node.upper()
    return node


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def test_mutated_state_documents() -> None:
    rng = random.Random(2026)
    samples = _samples()
    docs = [sr.to_dict(s) for s in samples]
    accepted = 0
    for i in range(STATES):
        j = rng.randrange(len(docs))
        text = _mutate_doc(copy.deepcopy(docs[j]), rng)
        try:
            loaded = sr.state_from_json(text)
        except sr.ShockError:
            continue
        except Exception as exc:  # pragma: no cover - the failure report
            raise AssertionError(f"mutation {i}: {exc!r} escaped for {text[:300]}") from exc
        accepted += 1
        sr.check_state(loaded)
        data = _old_covered(_loads(text))
        again = sr.to_dict(loaded, events=isinstance(data, dict) and "events" in data)
        assert _canon(again) == _canon(data), f"mutation {i} does not re-serialise: {text[:300]}"
    print(f"states: {accepted} of {STATES} accepted")
    assert 0 < accepted < STATES


def _old_covered(data: Any) -> Any:
    """Return a state document with its seats' ``covered`` of the older form (a list of covered
    poison cards, which the reader still takes) in today's: the seat's potions in card order
    on its covered poisons in card order (POTION-6's older convention)."""
    if not isinstance(data, dict) or not isinstance(data.get("covered"), list):
        return data
    order = lambda text: sr.Card.parse(text).index  # noqa: E731 - a sort key
    for seat, item in enumerate(data["covered"]):
        if isinstance(item, list):
            potions = sorted(data["potions"][seat], key=order)
            data["covered"][seat] = dict(zip(sorted(item, key=order), potions, strict=False))
    return data


# -- positions -------------------------------------------------------------------------------


def _mutate_text(text: str, rng: random.Random) -> str:
    for _ in range(rng.choice((1, 1, 2, 3))):
        i = rng.randrange(len(text) + 1)
        j = min(len(text), i + rng.randrange(4))
        piece = "".join(rng.choice(_TEXT_BITS) for _ in range(rng.randrange(3)))
        if rng.randrange(6) == 0 and " " in text:  # move a whole field's contents
            fields = text.split(" ")
            a, b = rng.randrange(len(fields)), rng.randrange(len(fields))
            fields[a] = fields[b]
            text = " ".join(fields)
        else:
            text = text[:i] + piece + text[j:]
    return text


def test_mutated_positions() -> None:
    rng = random.Random(2027)
    samples = _samples()
    texts = [(sr.format_position(s), s.config) for s in samples]
    accepted = 0
    for i in range(POSITIONS):
        text, config = texts[rng.randrange(len(texts))]
        mutated = _mutate_text(text, rng)
        try:
            loaded = sr.parse_position(mutated, config)
        except sr.ShockError:
            continue
        except Exception as exc:  # pragma: no cover - the failure report
            raise AssertionError(f"mutation {i}: {exc!r} escaped for {mutated!r}") from exc
        accepted += 1
        sr.check_state(loaded)
        assert sr.format_position(loaded) == mutated, f"mutation {i}: {mutated!r}"
    print(f"positions: {accepted} of {POSITIONS} accepted")
    assert 0 < accepted < POSITIONS


# -- records ---------------------------------------------------------------------------------


@functools.cache
def _records() -> list[str]:
    """Record texts of game openings (the first 40-120 actions) and of two whole games."""
    rng = random.Random(5)
    out = []
    for n, (config, actions, _) in enumerate(_games()):
        cut = len(actions) if n < 2 else rng.randrange(40, 120)
        record = sr.record_game(config, actions[:cut], {"Seat0": "Zoë"})
        out.append(sr.format_record(record))
    return out


def _mutate_record(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.choice((1, 1, 2))):
        kind = rng.randrange(5)
        i = rng.randrange(len(lines))
        if kind == 0:
            lines[i] = _mutate_text(lines[i], rng)
        elif kind == 1:
            del lines[i]
        elif kind == 2:
            lines.insert(i, rng.choice(lines))
        elif kind == 3:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines[i] = rng.choice(("leader ²", "deal 7ſ", "[Players \"٣\"]", "play ٣H",
                                   "[Edition \"/nonexistent\"]", "[Edition \"{}\"]", "stop",
                                   "[Result \"0 0 0\"]", "chest P:bee", "reveal"))
    return "\n".join(lines)


def test_mutated_records() -> None:
    rng = random.Random(2028)
    texts = _records()
    accepted = 0
    for i in range(RECORDS):
        mutated = _mutate_record(texts[rng.randrange(len(texts))], rng)
        try:
            record = sr.parse_record(mutated)
            states = sr.replay(record)
        except sr.ShockError:
            continue
        except Exception as exc:  # pragma: no cover - the failure report
            raise AssertionError(f"mutation {i}: {exc!r} escaped for {mutated[:300]!r}") from exc
        accepted += 1
        sr.check_state(states[-1])
        again = sr.format_record(record)
        assert sr.parse_record(again) == record, f"mutation {i}"
    print(f"records: {accepted} of {RECORDS} accepted")
    assert 0 < accepted < RECORDS


# -- views -----------------------------------------------------------------------------------


def test_mutated_view_documents() -> None:
    rng = random.Random(2029)
    samples = _samples()
    docs = []
    for s in samples[::3]:
        seat = rng.randrange(s.players)
        docs.append(sr.to_dict(sr.view(s, seat) if rng.randrange(4) else sr.spectator_view(s)))
    accepted = 0
    for i in range(VIEWS):
        text = _mutate_doc(copy.deepcopy(docs[rng.randrange(len(docs))]), rng)
        try:
            loaded = sr.view_from_json(text)
        except sr.ShockError:
            continue
        except Exception as exc:  # pragma: no cover - the failure report
            raise AssertionError(f"mutation {i}: {exc!r} escaped for {text[:300]}") from exc
        accepted += 1
        sr.check_state(sr.determinize(loaded, random.Random(i)))
        assert _canon(sr.to_dict(loaded)) == _canon(_loads(text)), f"mutation {i}: {text[:300]}"
    print(f"views: {accepted} of {VIEWS} accepted")
    assert 0 < accepted < VIEWS
