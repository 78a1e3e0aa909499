"""Game records: text and JSON round trips, replay rebuilding every state (K6: a config and its
actions reproduce a game), and errors that name the line where a record goes wrong."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shock_rules as sr
from shock_rules import from_json, to_json
from shock_rules.record import (
    GameRecord,
    RecordError,
    format_record,
    parse_record,
    record_from_json,
    record_game,
    replay,
)
from strategies import configs, game_steps

# One suit per seat with 3 players (ranks 2-10, K3), so any card may be played face up.
HANDS_3 = ["2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
           "2C 3C 4C 5C 6C 7C 8C 9C 10C"]

# Dealing goes one card at a time to the seat with fewest cards, lowest seat first, so the 27
# cards alternate seat 0, 1, 2; then the trump card is revealed.
DEAL_3 = [f"deal {card}" for trio in zip(*(h.split() for h in HANDS_3), strict=True)
          for card in trio] + ["trump 2D"]

SHORT_RECORD = """\
[Players "3"]
[Variant "standard"]
[FirstLeader "0"]
[Edition "default"]
[Seat0 "Ann"]   # free headers are kept

""" + "\n".join(DEAL_3) + """
play 10H   # seat 0 leads hearts
play 2S    # seat 1 cannot follow (K9)

play 3C
"""


def full_game(seed: int, config: sr.GameConfig) -> tuple[list[sr.Action], sr.State]:
    actions: list[sr.Action] = []
    end = sr.random_playout(config, random.Random(seed), actions)
    return actions, end


def test_short_record_replays_to_the_scripted_state() -> None:
    record = parse_record(SHORT_RECORD)
    assert record.config == sr.GameConfig(players=3, first_leader=0)
    assert record.headers == (("Seat0", "Ann"),)
    assert len(record.actions) == 27 + 1 + 3
    states = replay(record)
    assert len(states) == len(record.actions) + 1
    dealt = sr.deal_hands(sr.new_game(record.config), HANDS_3, trump="2D")
    expected = sr.apply_all(dealt, "play 10H; play 2S; play 3C")
    assert states[-1] == expected
    # Seat 0 won with 10H (lead suit, no trump played); 2S and 3C carry one gem each (K33).
    assert states[-1].on_bag == (2, 0, 0) and states[-1].phase is sr.Phase.CHEST


@settings(max_examples=10)
@given(st.data())
def test_recorded_games_round_trip_as_text_and_json(data: st.DataObject) -> None:
    config = data.draw(configs(), label="config")
    steps = list(game_steps(data, config))
    record = record_game(config, [s.action for s in steps], {"Event": "fuzz"}, result=True)
    text = format_record(record)
    again = parse_record(text)
    assert again == record
    assert record_from_json(to_json(record)) == record
    assert from_json(to_json(record)) == record
    states = replay(again)
    assert states[0] == sr.new_game(config)
    assert states[1:] == [s.next for s in steps]


def test_result_header_holds_the_final_scores() -> None:
    config = sr.GameConfig(players=4, variant="simplified")
    actions, end = full_game(3, config)
    record = record_game(config, actions, result=True)
    assert record.header("Result") == " ".join(str(v) for v in end.in_bag)
    assert replay(record)[-1].phase is sr.Phase.OVER


def test_wrong_result_is_an_error() -> None:
    config = sr.GameConfig(players=3)
    actions, end = full_game(4, config)
    wrong = " ".join(str(v + 1) for v in end.in_bag)
    with pytest.raises(RecordError, match="differs from the replay"):
        replay(GameRecord(config, actions, {"Result": wrong}))


def test_truncated_record_with_a_result_names_its_last_line() -> None:
    config = sr.GameConfig(players=3, first_leader=1)
    actions, _ = full_game(6, config)
    text = format_record(record_game(config, actions, result=True))
    lines = text.splitlines()
    cut = "\n".join(lines[:-5]) + "\n"
    last_action_line = max(i for i, line in enumerate(lines[:-5], 1)
                           if line.split("#")[0].strip() and not line.startswith("["))
    with pytest.raises(RecordError, match=f"line {last_action_line}.*before the game is over") \
            as info:
        replay(parse_record(cut))
    assert info.value.line == last_action_line


def test_illegal_action_names_its_line() -> None:
    # After seat 0 leads 10H it is seat 1's turn, and 2H is in seat 0's hand, not seat 1's.
    text = SHORT_RECORD.replace("play 2S    # seat 1 cannot follow (K9)", "play 2H")
    lines = text.splitlines()
    line = lines.index("play 2H") + 1
    with pytest.raises(RecordError, match=f"line {line}: 'play 2H' is illegal: seat 1") as info:
        replay(parse_record(text))
    assert info.value.line == line and isinstance(info.value, sr.IllegalActionError)
    assert info.value.index == 29


def test_illegal_action_without_text_names_its_number() -> None:
    with pytest.raises(RecordError, match="action 1: 'play 7H' is illegal"):
        record_game(sr.GameConfig(players=3), ["play 7H"])


@pytest.mark.parametrize(("text", "message"), [
    ('[Players "3"]\n[Variant "standard"]\nplay 7Q\n', "line 3: invalid action 'play 7Q'"),
    ('[Players "3"]\n[Variant "standard"]\n\nfly away\n', "line 4: invalid action"),
    ('[Players "3"]\n[Variant standard]\n', "line 2: malformed header"),
    ('[Players "3"]\n[Players "3"]\n', "line 2: header 'Players' is given twice"),
    ('[Players "6"]\n[Variant "standard"]\n', r"line 1: \[Players\]: expected 3, 4 or 5"),
    ('[Players "3"]\n[Variant "strict"]\n', r"line 2: \[Variant\]: unknown variant"),
    ('[Players "3"]\n[Variant "standard"]\n[FirstLeader "3"]\n', r"line 3: \[FirstLeader\]"),
    ('[Variant "standard"]\n', r"no \[Players"),
    ('[Players "3"]\n[Variant "standard"]\ndeal 2H\n[Date "x"]\n', "line 4: a header after"),
    ('[Players "3"]\n[Variant "standard"]\n[Edition "{broken"]\n', r"line 3: \[Edition\]"),
])
def test_malformed_text_names_its_line(text: str, message: str) -> None:
    with pytest.raises(sr.InvalidNotationError, match=message):
        parse_record(text)


HOUSE_TOML = """\
[edition]
name = "house"
description = "three gems on the 10 of hearts"

[[gems]]
name = "clear"
value = 1
count = 280

[number_cards]
poison_types = ["jellyfish", "bee", "spider"]
potions = ["5C", "7C"]

[number_cards.poisons]
7S = "jellyfish"
7H = "bee"
7D = "spider"

[number_cards.gem_icons]
10H = 3

[[chest]]
kind = "gem"
large = 2
small = 1
count = 10
"""


def _house_edition() -> sr.Edition:
    return sr.Edition.from_toml(HOUSE_TOML)


def test_custom_edition_embedded_or_by_path(tmp_path: Path) -> None:
    config = sr.GameConfig(players=3, first_leader=0, edition=_house_edition())
    record = record_game(config, DEAL_3 + ["play 10H"])
    embedded = parse_record(format_record(record))
    assert embedded == record
    # K33 replaced: 10H carries three gem icons in this edition.
    assert replay(embedded)[-1].trick[0].gems == 3

    (tmp_path / "house.toml").write_text(HOUSE_TOML, encoding="utf-8")
    text = format_record(record, edition_ref="house.toml")
    assert '[Edition "house.toml"]' in text
    assert parse_record(text, base_dir=tmp_path) == record
    with pytest.raises(sr.InvalidNotationError, match=r"\[Edition\].*cannot read"):
        parse_record(text, base_dir=tmp_path / "elsewhere")


def test_headers_are_escaped_and_validated() -> None:
    record = record_game(sr.GameConfig(players=3), [], {"Seat0": 'Ann "A" \\ B',
                                                        "Event": "Game #3"})
    text = format_record(record)
    assert '[Seat0 "Ann \\"A\\" \\\\ B"]' in text
    assert parse_record(text).header("Seat0") == 'Ann "A" \\ B'
    assert parse_record(text).header("Event") == "Game #3"  # not a comment inside quotes
    with pytest.raises(ValueError, match="invalid header name"):
        GameRecord(sr.GameConfig(), [], {"Players": "4"})
    with pytest.raises(ValueError, match="one line"):
        GameRecord(sr.GameConfig(), [], {"Note": "a\nb"})


def test_record_json_is_strict() -> None:
    doc = {"schema": "shock-rules/2", "type": "record",
           "config": {"players": 3, "variant": "standard", "first_leader": None,
                      "edition": "default"},
           "headers": {"Seat0": "Ann"}, "actions": ["deal 2H", "dance"]}
    with pytest.raises(sr.InvalidStateError, match=r"record\.actions\[1\]"):
        record_from_json(doc)
    doc["actions"] = ["deal 2H"]
    doc["headers"] = {"Seat0": 5}
    with pytest.raises(sr.InvalidStateError, match=r"record\.headers\.Seat0"):
        record_from_json(doc)
    doc["headers"] = {}
    assert record_from_json(doc) == GameRecord(sr.GameConfig(players=3),
                                               [sr.Action.parse("deal 2H")])


def test_many_free_headers_are_kept_and_a_repeat_far_apart_is_found() -> None:
    # Headers are checked for repeats with a set: 50,000 of them parse in well under a second
    # (a scan of the earlier ones took minutes, so a small hostile file hung `replay`).
    many = "".join(f'[H{i} "x"]\n' for i in range(50_000))
    record = parse_record(many + '[Players "3"]\n[Variant "standard"]\n')
    assert len(record.headers) == 50_000
    assert record.headers[-1] == ("H49999", "x") and record.header("H123") == "x"
    with pytest.raises(sr.InvalidNotationError, match="line 50001: header 'H0' is given twice"):
        parse_record(many + '[H0 "again"]\n')
