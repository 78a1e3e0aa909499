"""Card data as an edition: the default, loading, validation, and playing with another one
(SETUP-7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest

import shock_rules as sr

from ._helpers import SUITS_4, edition_with, events, run, start

pytestmark = pytest.mark.rule("SETUP-7")


def _data() -> dict[str, Any]:
    return sr.Edition.default().to_dict()


def test_the_default_edition_is_provisional_with_the_ruled_data() -> None:
    ed = sr.Edition.default()
    assert ed.provisional is True and ed.name == "default"
    assert ed.poison_types == ("jellyfish", "bee", "spider")
    assert ed.poison_type(sr.Card.parse("7S")) == "jellyfish"
    assert ed.poison_type(sr.Card.parse("7H")) == "bee"
    assert ed.poison_type(sr.Card.parse("7D")) == "spider"
    assert ed.poison_type(sr.Card.parse("7C")) is None
    assert ed.potions == sr.parse_cards("5C 7C")
    assert {str(c) for c, n in ed.gem_icons if n == 1} == {
        f"{r}{s}" for r in (1, 2, 3, 4) for s in "HSDC"
    }
    assert all(n == 1 for _, n in ed.gem_icons)
    assert ed.supply_total == 280 and ed.chest_size == 24


def test_an_edition_round_trips_through_its_data_and_a_file(tmp_path: Path) -> None:
    ed = sr.Edition.default()
    assert sr.Edition.from_dict(ed.to_dict()) == ed
    path = tmp_path / "mine.toml"
    path.write_text(
        """
[edition]
name = "mine"
provisional = false

[[gems]]
name = "clear"
value = 1
count = 100

[number_cards]
poison_types = ["wasp", "snake", "newt"]
potions = ["7C", "5C"]
[number_cards.poisons]
7H = "wasp"
7S = "snake"
7D = "newt"
[number_cards.gem_icons]
2H = 2

[[chest]]
kind = "gem"
large = 5
small = 2
count = 3

[[chest]]
kind = "poison"
poison = "wasp"
large = 2
count = 1
""",
        encoding="utf-8",
    )
    ed = sr.Edition.load(path)
    assert (ed.name, ed.provisional, ed.supply_total, ed.chest_size) == ("mine", False, 100, 4)
    assert ed.icons(sr.Card.parse("2H")) == 2 and ed.icons(sr.Card.parse("1H")) == 0
    assert ed.poison_type(sr.Card.parse("7H")) == "wasp" and ed.is_potion(sr.Card.parse("5C"))
    assert [str(c) for c, _ in ed.chest] == ["G5/2", "P2:wasp"]


def test_a_game_plays_with_the_data_of_its_edition() -> None:
    # 2 gem icons on 2H and none elsewhere; the 7 of spades is the bee and the 7 of hearts the
    # jellyfish (the pairing is edition data, K30); one jellyfish chest card that pays 3 gems,
    # and one gem card.
    ed = edition_with(
        gem_icons={"2H": 2},
        poisons={"7H": "jellyfish", "7S": "bee", "7D": "spider"},
        chest=[{"kind": "poison", "poison": "jellyfish", "large": 3, "count": 1},
               {"kind": "gem", "large": 1, "small": 0, "count": 1}],
    )
    state = run(start(SUITS_4, "10C", edition=ed), "play 2H; play 7S; play 8D")
    assert state.supply == ed.supply_total - 2
    state = run(state, "play 9C")
    # Seat 3 wins with its trump and takes 7S, a bee in this edition.
    assert events(state, sr.PoisonTaken) == [sr.PoisonTaken(3, sr.Card.parse("7S"), "bee")]
    state = run(state, "chest P3:jellyfish")
    assert events(state, sr.GemsGained) == [sr.GemsGained(3, 3)]
    assert state.on_bag == (0, 0, 0, 5)
    assert [state.poison_count(s, "jellyfish") for s in range(4)] == [1, 1, 1, 1]
    # The second card empties the chest deck, so the challenge ends (K23).
    state = run(state, "reveal; chest G1/0")
    assert (state.phase, state.on_bag) == (sr.Phase.PLAY, (0, 0, 0, 6))
    # 7H is the jellyfish here: with the chest jellyfish in the centre, seat 3 stands at 2.
    state = run(state, "play 8C; play 7H; play 8S; play 9D")
    assert events(state, sr.Shocked) == [sr.Shocked(3, "jellyfish", 6)]


def _broken(change: str, value: object) -> dict[str, Any]:
    data = _data()
    where, _, key = change.rpartition(".")
    table: Any = data
    for part in where.split(".") if where else []:
        table = table[part]
    table[key] = value
    return data


@pytest.mark.parametrize(
    ("change", "value", "message"),
    [
        ("colour", 1, "the file: unknown key 'colour'"),
        ("edition.year", 2025, "[edition]: unknown key 'year'"),
        ("edition.name", "", "name must be a non-empty string"),
        ("edition.provisional", "yes", "provisional must be true or false"),
        ("number_cards.poisons", {"7H": "wasp"}, "unknown poison type 'wasp'"),
        ("number_cards.poisons", {"7H": "bee", "5C": "spider"},
         "5C: the poison cards are exactly 7H, 7S and 7D"),
        ("number_cards.poisons", {"7H": "bee", "7S": "jellyfish"},
         "gives no poison type to 7D"),
        ("number_cards.poisons", {"7H": "bee", "7S": "bee", "7D": "spider"},
         "poison type 'bee' is on two 7s"),
        ("number_cards.poison_types", ["bee", "spider"], "exactly three poison types"),
        ("number_cards.potions", ["5C"], "potions must be exactly 5C and 7C"),
        ("number_cards.potions", ["5C", "7C", "1C"], "potions must be exactly 5C and 7C"),
        ("number_cards.poisons", {"7Z": "bee"}, "'7Z' is not a number card"),
        ("number_cards.gem_icons", {"1H": -1}, "must be an integer 0-99, not -1"),
        ("number_cards.gem_icons", {"1H": 100}, "must be an integer 0-99, not 100"),
        ("number_cards.gem_icons", {"1H": 1.5}, "must be an integer 0-99, not 1.5"),
        ("number_cards.poison_types", ["bee", "bee"], "lists a type twice"),
        ("number_cards.poison_types", ["Bee"], "must be a lowercase name"),
        ("number_cards.potions", ["5C", "5C"], "lists a card twice"),
        ("gems", [{"name": "clear", "value": 0, "count": 5}], "value must be an integer >= 1"),
        ("gems", [{"name": "clear", "value": 1, "count": 0}], "the gem supply is empty"),
        ("chest", [{"kind": "poison", "poison": "wasp", "count": 1}], "unknown poison type"),
        ("chest", [{"kind": "gold", "large": 1, "count": 1}], "kind must be 'gem' or 'poison'"),
        ("chest", [{"kind": "poison", "poison": "bee", "small": 1, "count": 1}],
         "a poison card has no small gem icons"),
        ("chest", [{"kind": "gem", "large": 1, "small": 0, "count": 0}],
         "count must be an integer 1-999"),
    ],
)
def test_invalid_editions_are_rejected(change: str, value: object, message: str) -> None:
    with pytest.raises(sr.EditionError, match=message.replace("[", r"\[").replace(".", r"\.")):
        sr.Edition.from_dict(_broken(change, value))


def test_missing_sections_and_malformed_toml_are_rejected(tmp_path: Path) -> None:
    data = _data()
    del data["chest"]
    with pytest.raises(sr.EditionError, match=r"missing \[chest\]"):
        sr.Edition.from_dict(data)
    with pytest.raises(sr.EditionError, match="not valid TOML"):
        sr.Edition.from_toml("[edition\nname = 'x'")
    with pytest.raises(sr.EditionError, match="cannot read"):
        sr.Edition.load(tmp_path / "absent.toml")
    # An edition error is a configuration error.
    assert issubclass(sr.EditionError, sr.ConfigError)


def test_an_edition_file_must_be_a_regular_file_of_bounded_size(tmp_path: Path) -> None:
    # A record names its edition by path: a device or a FIFO must not be read (it would use
    # up memory or block), nor a file beyond the size bound.
    import os

    from shock_rules._rules.edition import MAX_EDITION_BYTES

    big = tmp_path / "big.toml"
    big.write_text("# padding\n" * (MAX_EDITION_BYTES // 10 + 1))
    cases = [(big, "larger than"), (tmp_path, "cannot read")]
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo.toml"
        os.mkfifo(fifo)
        cases.append((fifo, "not a regular file"))
    if Path("/dev/zero").exists():
        cases.append((Path("/dev/zero"), "not a regular file"))
    for path, reason in cases:
        with pytest.raises(sr.EditionError, match=reason):
            sr.Edition.load(path)
    record = tmp_path / "game.txt"
    record.write_text('[Players "3"]\n[Variant "standard"]\n[Edition "big.toml"]\n')
    with pytest.raises(sr.InvalidNotationError, match="larger than"):
        sr.parse_record(record.read_text(), base_dir=tmp_path)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("gems", [sr.Edition.default().gems[0]], "its gems must be a tuple of GemKind objects"),
    ("gems", (1, 2), "its gems must be a tuple of GemKind objects"),
    ("chest", (("G2/1", 3),), r"its chest must be a tuple of \(ChestCard, count\) pairs"),
    ("potions", ("5C", "7C"), "its potions must be a tuple of Card objects"),
    ("gem_icons", ((10**5000, 1),), r"its gem_icons must be a tuple of \(Card, icons\) pairs"),
    ("poisons", None, r"its poisons must be a tuple of \(Card, poison type\) pairs"),
    ("name", 10**5000, "name must be a non-empty string"),
], ids=["gems-list", "gems-ints", "chest-text", "potions-text", "icons-huge-int", "poisons-none",
        "name-huge-int"])
def test_an_edition_made_from_fields_of_the_wrong_kind_is_refused_by_name(
        field: str, value: Any, message: str) -> None:
    with pytest.raises(sr.EditionError, match=message):
        attrs.evolve(sr.Edition.default(), **{field: value})


def test_a_bug_planted_in_the_edition_check_is_not_reported_as_bad_fields(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # An edition made from its fields is checked by from_dict(); nothing relabels what else
    # goes wrong there as the fields' fault.
    def broken(*args: object, **kwargs: object) -> sr.Edition:
        raise ZeroDivisionError("planted")

    monkeypatch.setattr(sr.Edition, "from_dict", broken)
    with pytest.raises(ZeroDivisionError, match="planted"):
        attrs.evolve(sr.Edition.default(), name="house")
