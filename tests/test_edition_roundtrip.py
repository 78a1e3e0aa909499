"""Every loadable edition round-trips: a game played with it writes records, positions and JSON
documents that read back to the same record, states and config.

Editions are drawn over the whole range an edition may take (SETUP-7): chest icons 0-999 and up
to 999 identical chest cards (what the notation writes), card icons 0-99, any poison type name
the notation reads, gem colours and edition names in any text.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shock_rules as sr

_CARDS = [str(sr.Card.from_index(i)) for i in range(44)]
_TYPE = st.from_regex(r"[a-z][a-z0-9_-]{0,31}", fullmatch=True)


@st.composite
def wide_editions(draw: st.DrawFn) -> sr.Edition:
    types = draw(st.lists(_TYPE, min_size=3, max_size=3, unique=True), label="poison types")
    icons = st.integers(0, 999)
    chest = draw(st.lists(st.one_of(
        st.fixed_dictionaries({"kind": st.just("gem"), "large": icons, "small": icons,
                               "count": st.integers(1, 999)}),
        st.fixed_dictionaries({"kind": st.just("poison"), "poison": st.sampled_from(types),
                               "large": icons, "count": st.integers(1, 999)}),
    ), max_size=5, unique_by=lambda c: (c["kind"], c["large"], c.get("small"),
                                         c.get("poison"))), label="chest")
    data: dict[str, Any] = {
        "edition": {"name": draw(st.text(min_size=1).filter(str.strip), label="name"),
                    "provisional": draw(st.booleans()), "description": draw(st.text())},
        "gems": [{"name": draw(st.text(min_size=1), label="gem name"),
                  "value": draw(st.integers(1, 10**6)), "count": draw(st.integers(1, 10**6))}],
        "number_cards": {
            "poison_types": types,
            "poisons": dict(zip(["7H", "7S", "7D"], types, strict=True)),
            "potions": ["5C", "7C"],
            "gem_icons": draw(st.dictionaries(st.sampled_from(_CARDS), st.integers(0, 99)),
                              label="icons"),
        },
        "chest": chest,
    }
    return sr.Edition.from_dict(data)


@pytest.mark.rule("SETUP-7")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edition=wide_editions(), players=st.sampled_from([3, 4, 5]),
       variant=st.sampled_from(list(sr.Variant)), seed=st.integers(0, 2**32 - 1))
def test_a_game_with_any_edition_round_trips(edition: sr.Edition, players: int,
                                            variant: sr.Variant, seed: int) -> None:
    config = sr.GameConfig(players=players, variant=variant, edition=edition)
    assert sr.edition_from_json(sr.to_json(edition)) == edition
    assert sr.config_from_json(sr.to_json(config)) == config
    rng = random.Random(seed)
    actions: list[sr.Action] = []
    end = sr.random_playout(config, rng, actions)
    record = sr.record_game(config, actions, {"Seat0": "Zoë"}, result=True)
    text = sr.format_record(record)
    assert sr.parse_record(text) == record
    assert sr.replay(sr.parse_record(text))[-1] == end
    assert sr.record_from_json(sr.to_json(record)) == record
    states = sr.replay(record)
    for s in rng.sample(states, 12) + [end]:
        sr.check_state(s)
        assert sr.parse_position(sr.format_position(s), config) == s
        assert sr.state_from_json(sr.to_json(s)) == s
        v = sr.view(s, rng.randrange(players))
        assert sr.view_from_json(sr.to_json(v)) == v


def test_editions_the_notation_cannot_carry_are_refused() -> None:
    base = sr.Edition.default().to_dict()
    changes: list[tuple[Callable[[dict[str, Any]], object], str]] = [
        (lambda d: d["chest"].append({"kind": "gem", "large": 1000, "small": 0, "count": 1}),
         "0-999"),
        (lambda d: d["chest"].append({"kind": "gem", "large": 1, "small": 0, "count": 1000}),
         "1-999"),
        (lambda d: d["number_cards"]["gem_icons"].update({"2H": 100}), "0-99"),
        (lambda d: d["number_cards"].update(poison_types=["bee\n", "spider", "jellyfish"]),
         "lowercase name"),
    ]
    for change, message in changes:
        data = sr.Edition.default().to_dict()
        data["chest"] = [dict(c) for c in base["chest"]]
        change(data)
        with pytest.raises(sr.EditionError, match=message):
            sr.Edition.from_dict(data)


def test_edition_files_that_are_not_text_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(b"\xff\xfe[edition]\n")
    with pytest.raises(sr.EditionError, match="not UTF-8"):
        sr.Edition.load(path)
    with pytest.raises(sr.EditionError, match="expected a file path"):
        sr.Edition.load(None)  # type: ignore[arg-type]
    record = f'[Players "3"]\n[Variant "standard"]\n[Edition "{path}"]\n'
    with pytest.raises(sr.InvalidNotationError, match="not UTF-8"):
        sr.parse_record(record)
