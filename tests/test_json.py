"""JSON documents: round trips of configs, editions, states of every phase, actions, events and
views, the readable shape of a state document, and strict loading with clear errors."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import shock_rules as sr
from shock_rules import (
    SCHEMA,
    action_from_json,
    config_from_json,
    edition_from_json,
    events_from_json,
    from_json,
    state_from_json,
    to_dict,
    to_json,
    view_from_json,
)
from shock_rules._info.view import spectator_view, view

HANDS_3 = ["2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
           "2C 3C 4C 5C 6C 7C 8C 9C 10C"]


def custom_edition() -> sr.Edition:
    data = sr.Edition.default().to_dict()
    data["edition"] = {"name": "house", "provisional": False, "description": "two gems on 10s"}
    data["number_cards"]["gem_icons"] = {"10H": 2, "10S": 2, "1C": 1}
    data["chest"] = [{"kind": "gem", "large": 5, "small": 2, "count": 3},
                     {"kind": "poison", "poison": "bee", "large": 0, "count": 1}]
    return sr.Edition.from_dict(data)


def playout_states(config: sr.GameConfig, seed: int) -> list[sr.State]:
    rng = random.Random(seed)
    state = sr.new_game(config)
    states = [state]
    while not sr.is_terminal(state):
        if sr.is_chance(state):
            action = sr.sample_chance(state, rng)
        else:
            legal = sr.legal_actions(state)
            # Withdraw rarely so that rounds get deep (chest challenges, poisons, potions).
            keep = [a for a in legal if a.kind is not sr.ActionKind.WITHDRAW]
            action = rng.choice(keep if keep and rng.random() < 0.95 else legal)
        state = sr.apply(state, action)
        states.append(state)
    return states


CONFIGS = [
    sr.GameConfig(players=3),
    sr.GameConfig(players=4, variant="simplified", first_leader=1),
    sr.GameConfig(players=5, first_leader=4),
    sr.GameConfig(players=4, edition=custom_edition()),
]


@pytest.fixture(scope="module")
def states() -> list[sr.State]:
    out: list[sr.State] = []
    for i, config in enumerate(CONFIGS):
        out += playout_states(config, i)
    # A potion choice (K16) is rare at random: script one. Seat 0 wins 7H, 7S and 5C.
    s = sr.deal_hands(sr.new_game(sr.GameConfig(players=3, first_leader=0)), HANDS_3, "2D")
    out.append(sr.apply_all(s, "play 7H; play 7S; play 5C"))
    return out


def test_states_of_every_phase_round_trip(states: list[sr.State]) -> None:
    assert {s.phase for s in states} == set(sr.Phase)
    for s in states:
        back = state_from_json(to_json(s))
        assert back == s
        assert back.events == s.events
        assert state_from_json(to_json(s, events=False)).events == ()


def test_views_round_trip(states: list[sr.State]) -> None:
    for s in states[::7]:
        for v in (view(s, 0), view(s, s.players - 1), spectator_view(s)):
            assert view_from_json(to_json(v)) == v


@pytest.mark.parametrize("config", CONFIGS)
def test_configs_round_trip(config: sr.GameConfig) -> None:
    text = to_json(config)
    assert config_from_json(text) == config
    assert from_json(text) == config


def test_default_edition_is_referenced_custom_embedded() -> None:
    assert to_dict(sr.GameConfig())["edition"] == "default"
    embedded = to_dict(sr.GameConfig(edition=custom_edition()))["edition"]
    assert isinstance(embedded, dict) and embedded["edition"]["name"] == "house"


@pytest.mark.parametrize("edition", [sr.Edition.default(), custom_edition()])
def test_editions_round_trip(edition: sr.Edition) -> None:
    assert edition_from_json(to_json(edition)) == edition


def test_actions_round_trip() -> None:
    texts = ["play 7H", "withdraw 10S", "down 1C", "cover 7D", "reveal", "stop", "deal 11C",
             "trump 2D", "chest G2/1", "chest P:bee", "chest P0:bee", "leader 4"]
    for text in texts:
        action = sr.Action.parse(text)
        doc = to_dict(action)
        assert doc["schema"] == SCHEMA and doc["type"] == "action"
        assert doc["notation"] == str(action) and doc["kind"] == text.split()[0]
        assert action_from_json(json.dumps(doc)) is action or action_from_json(doc) == action


def test_events_round_trip(states: list[sr.State]) -> None:
    events = [e for s in states for e in s.events]
    kinds = {type(e).__name__ for e in events}
    # Every kind of event the engine emits occurs in these games.
    assert {"CardDealt", "TrumpRevealed", "LeaderChosen", "RoundStarted", "CardPlayed",
            "Withdrew", "TrickWon", "PoisonTaken", "PotionTaken", "ChestRevealed", "GemsGained",
            "ChestStopped", "GemsBanked", "RoundEnded", "GameEnded", "Shocked"} <= kinds
    assert events_from_json(to_json(events)) == tuple(events)


def test_state_document_is_readable() -> None:
    s = sr.deal_hands(sr.new_game(sr.GameConfig(players=3, first_leader=0)), HANDS_3, "2D")
    s = sr.apply_all(s, "play 2H; play 3S")
    doc: dict[str, Any] = to_dict(s)
    assert doc["schema"] == SCHEMA and doc["type"] == "state"
    assert doc["phase"] == "play" and doc["actor"] == 2 and doc["trump"] == "2D"
    assert doc["hands"][0] == ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"]
    # K33: 2H and 3S each carry one gem icon, so one gem each from the supply (280 - 2).
    assert doc["trick"] == [{"seat": 0, "card": "2H", "face_up": True, "gems": 1},
                            {"seat": 1, "card": "3S", "face_up": True, "gems": 1}]
    assert doc["supply"] == 278
    # K9: seat 1 did not follow hearts, which shows it has none.
    assert doc["void_suits"] == [[], ["H"], []]
    assert doc["chest_deck"] == {"G1/1": 6, "G2/1": 6, "G3/0": 4, "G4/0": 2, "P:bee": 2,
                                 "P:jellyfish": 2, "P:spider": 2}
    assert doc["events"] == [{"event": "CardPlayed", "seat": 1, "card": "3S", "face_up": True,
                              "gems": 1, "step": s.step}]


# -- strict loading -------------------------------------------------------------------------


def base_doc() -> dict[str, Any]:
    s = sr.deal_hands(sr.new_game(sr.GameConfig(players=3, first_leader=0)), HANDS_3, "2D")
    return to_dict(sr.apply_all(s, "play 2H; withdraw 3S"))


def _set(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        doc[key] = value
    return change


def _do(fn: Callable[[dict[str, Any]], object]) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        fn(doc)
    return change


def _gem_on_withdrawn_bag(doc: dict[str, Any]) -> None:
    # Seat 1 withdrew; a gem moved from the supply onto its bag keeps the sum (K29) right.
    doc["on_bag"][1] = 1
    doc["supply"] -= 1


BAD: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("unknown field", _set("colour", "red"), "unknown field 'colour'"),
    ("missing field", _do(lambda d: d.pop("supply")), "missing field 'supply'"),
    ("wrong schema", _set("schema", "shock-rules/0"), "expected 'shock-rules/2'"),
    ("wrong type tag", _set("type", "config"), "expected 'state'"),
    ("round as text", _set("round", "1"), r"state\.round: expected an integer"),
    ("round as bool", _set("round", True), r"state\.round: expected an integer"),
    ("float gems", _do(lambda d: d["in_bag"].__setitem__(0, 1.0)), r"in_bag\[0\]"),
    ("negative gems", _do(lambda d: d["in_bag"].__setitem__(0, -1)), r"in_bag\[0\]"),
    ("unknown phase", _set("phase", "lunch"), "unknown value 'lunch'"),
    ("unknown status", _do(lambda d: d["status"].__setitem__(0, "asleep")), "'asleep'"),
    ("bad card", _do(lambda d: d["hands"][0].__setitem__(0, "12H")), "invalid card '12H'"),
    ("card twice in a hand", _do(lambda d: d["hands"][0].__setitem__(1, "3H")),
     "3H is listed twice"),
    ("card in two places", _do(lambda d: d["hands"][1].append("3H")), "somewhere else"),
    ("missing card", _do(lambda d: d["deck"].pop()), "is missing"),
    ("card not in play", _do(lambda d: d["deck"].append("1H")), "not in play with 3 players"),
    ("seat list too short", _do(lambda d: d["on_bag"].pop()), "expected 3 items"),
    # K29: gems are conserved; one gem made out of nothing breaks the sum.
    ("gems out of nothing", _do(lambda d: d["in_bag"].__setitem__(2, 1)), "do not add up"),
    # K11: a withdrawn seat keeps no gems on its bag.
    ("withdrawn with gems on bag", _do(_gem_on_withdrawn_bag), "out of the round"),
    ("bad chest key", _do(lambda d: d["chest_deck"].__setitem__("G9/9", 0)),
     "unknown field 'G9/9'"),
    ("too many chest cards", _do(lambda d: d["chest_deck"].__setitem__("G4/0", 3)),
     r"out of range 0\.\.2"),
    ("event of unknown kind", _set("events", [{"event": "Exploded"}]), "unknown event"),
    ("event with a bad field", _set("events", [{"event": "Withdrew", "seat": "x", "banked": 0}]),
     "expected an integer"),
    ("trick card gems", _do(lambda d: d["trick"][0].__setitem__("gems", 0)),
     "carries 0 gems, not 1"),
    ("void suit twice", _do(lambda d: d["void_suits"].__setitem__(1, ["H", "H"])),
     "listed twice"),
    ("trick number", _set("trick_number", 0), "trick 0 is not 1-9"),
    ("edition", _do(lambda d: d["config"].__setitem__("edition", "deluxe")),
     "expected \"default\" or an embedded edition"),
    ("players", _do(lambda d: d["config"].__setitem__("players", 6)), r"out of range 3\.\.5"),
]


@pytest.mark.parametrize(("name", "change", "message"), BAD, ids=[b[0] for b in BAD])
def test_invalid_documents_raise_invalid_state_error(
    name: str, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    doc = base_doc()
    state_from_json(json.dumps(doc))  # the unchanged document loads
    bad = copy.deepcopy(doc)
    change(bad)
    with pytest.raises(sr.InvalidStateError, match=message):
        state_from_json(json.dumps(bad))


@pytest.mark.parametrize("text", ["", "{", "[]", "null", "42", '{"schema": 1}', "\x00"])
def test_malformed_text_raises_invalid_state_error(text: str) -> None:
    with pytest.raises(sr.InvalidStateError):
        state_from_json(text)
    with pytest.raises(sr.InvalidStateError):
        from_json(text)


def test_other_loaders_are_strict() -> None:
    with pytest.raises(sr.InvalidNotationError, match="invalid action 'play 99X'"):
        action_from_json({"schema": SCHEMA, "type": "action", "notation": "play 99X"})
    with pytest.raises(sr.InvalidStateError, match="first_leader"):
        config_from_json({"schema": SCHEMA, "type": "config", "players": 3,
                          "variant": "standard", "first_leader": 3, "edition": "default"})
    with pytest.raises(sr.InvalidStateError, match="missing"):
        edition_from_json({"schema": SCHEMA, "type": "edition"})
    with pytest.raises(sr.InvalidStateError, match="unknown document type"):
        from_json('{"schema": "shock-rules/2", "type": "pizza"}')
    doc = to_dict(spectator_view(sr.new_game()))
    doc["seat"] = 7
    with pytest.raises(sr.InvalidStateError, match="no seat 7"):
        view_from_json(doc)


@pytest.mark.parametrize("kind", ["[]", "[\"state\"]", "{}", "{\"a\": 1}", "null", "7"])
def test_a_document_type_that_is_not_a_string_is_refused(kind: str) -> None:
    # A list or an object cannot be looked up among the types (it is not hashable): the
    # reader must still answer with its own error, not with Python's TypeError.
    text = '{"schema": "shock-rules/2", "type": ' + kind + "}"
    with pytest.raises(sr.InvalidStateError, match="unknown document type"):
        from_json(text)
    with pytest.raises(sr.InvalidStateError, match="unknown document type"):
        sr.from_dict(json.loads(text))


def test_unsupported_objects_are_not_written() -> None:
    with pytest.raises(TypeError, match="cannot write"):
        to_dict(object())


def test_loader_checks_what_check_state_leaves_alone() -> None:
    # K9: seat 1 played 3S on a heart lead, showing it has no hearts; a swap of two cards
    # between the hands of seats 0 and 1 then gives it a heart.
    s = sr.deal_hands(sr.new_game(sr.GameConfig(players=3, first_leader=0)), HANDS_3, "2D")
    doc: dict[str, Any] = to_dict(sr.apply_all(s, "play 2H; play 3S"))
    assert doc["void_suits"][1] == ["H"]
    state_from_json(doc)
    doc["hands"][0][0], doc["hands"][1][0] = doc["hands"][1][0], doc["hands"][0][0]
    with pytest.raises(sr.InvalidStateError, match="showed it has no hearts but holds one"):
        state_from_json(doc)
    # K26: while cards are dealt the chest deck is full.
    fresh: dict[str, Any] = to_dict(sr.new_game(sr.GameConfig(players=3)))
    state_from_json(fresh)
    fresh["chest_deck"]["G1/1"] = 5
    fresh["chest_discard"]["G1/1"] = 1
    with pytest.raises(sr.InvalidStateError, match="chest deck is full"):
        state_from_json(fresh)


def _both_potions_one_covered() -> sr.State:
    """Seat 3 took 7H with 7C, then 5C: 7C stays on 7H and 5C is stored (POTION-6)."""
    from rules._helpers import SUITS_4, run, start
    return run(start(SUITS_4, "10C"), "play 7H; play 8S; play 8D; play 7C; chest G3/0; stop;"
                                      " play 5C; play 6H; play 6S; play 6D")


@pytest.mark.rule("POTION-6")
def test_a_view_document_says_which_potion_covers_each_poison() -> None:
    state = _both_potions_one_covered()
    doc = json.loads(sr.to_json(sr.view(state, 1)))
    body = doc.get("view", doc)
    assert body["seats"][3]["poisons"] == [
        {"card": "7H", "poison": "bee", "covered": True, "covered_by": "7C"}]
    assert body["seats"][3]["potions"] == ["5C", "7C"]
    loaded = sr.view_from_json(json.dumps(doc))
    assert loaded == sr.view(state, 1)
    assert loaded.seats[3].poisons[0].covered_by == sr.Card.parse("7C")


@pytest.mark.rule("POTION-6")
def test_a_view_document_may_show_the_other_reachable_placement() -> None:
    # 5C on 7H with 7C stored is the placement of another history (both potions taken with
    # 7H in one trick): a valid view, which differs from the real one.
    doc = json.loads(sr.to_json(sr.view(_both_potions_one_covered(), 1)))
    doc.get("view", doc)["seats"][3]["poisons"][0]["covered_by"] = "5C"
    other = sr.view_from_json(json.dumps(doc))
    assert other.seats[3].poisons[0].covered_by == sr.Card.parse("5C")
    assert other != sr.view(_both_potions_one_covered(), 1)


@pytest.mark.rule("POTION-6")
@pytest.mark.parametrize(("covered", "covered_by", "message"), [
    (True, None, r"poisons\[0\] is covered, but covered_by names no potion"),
    (False, "7C", r"poisons\[0\]\.covered_by is 7C, but the poison is not covered"),
    (True, "2H", r"poisons\[0\]\.covered_by: 2H is not a potion card"),
])
def test_a_view_document_with_a_forged_placement_is_refused(
        covered: bool, covered_by: str | None, message: str) -> None:
    doc = json.loads(sr.to_json(sr.view(_both_potions_one_covered(), 1)))
    poison = doc.get("view", doc)["seats"][3]["poisons"][0]
    poison["covered"], poison["covered_by"] = covered, covered_by
    with pytest.raises(sr.InvalidStateError, match=r"invalid document: view: its seats\[3\]\."
                                                   + message):
        sr.view_from_json(json.dumps(doc))


@pytest.mark.rule("POTION-6")
def test_a_state_document_records_which_potion_lies_on_which_poison() -> None:
    state = _both_potions_one_covered()
    doc: dict[str, Any] = to_dict(state)
    assert doc["covered"] == [{}, {}, {}, {"7H": "7C"}]
    assert doc["potions"][3] == ["5C", "7C"]
    back = state_from_json(json.dumps(doc))
    assert back == state and back.poisons(3) == state.poisons(3)
    # The other reachable placement reads as another state.
    doc["covered"][3] = {"7H": "5C"}
    other = state_from_json(json.dumps(doc))
    assert other != state and other.poisons(3)[0].covered_by == sr.Card.parse("5C")


def _cover(seat: int, value: object) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        doc["covered"][seat] = value
    return change


@pytest.mark.rule("POTION-6")
@pytest.mark.parametrize(("change", "message"), [
    # (a list is the older form: its cards must still be the seat's poisons)
    (_cover(3, ["7S"]), r"state\.covered\[3\]: 7S is not a poison card in front of seat 3"),
    (_cover(3, {"7H": "2H"}), r"state\.covered\[3\]\.7H: 2H is not a potion card"),
    (_cover(3, {"7H": "9X"}), r"state\.covered\[3\]\.7H: invalid card '9X'"),
    (_cover(3, {"9X": "7C"}), r"state\.covered\[3\]\.9X: invalid card '9X'"),
    (_cover(3, {"7S": "7C"}), r"covered\[3\]\.7S: 7S is not a poison card in front of seat 3"),
    (_cover(2, {"7H": "7C"}), r"covered\[2\]\.7H: 7H is not a poison card in front of seat 2"),
    (_do(lambda d: d["potions"].__setitem__(3, ["5C"]) or d["potions"][0].append("7C")),
     r"covered\[3\]\.7H: 7C is not a potion in front of seat 3"),
    # A covered poison with no potion: 7H is left out of "covered"; 5C then waits beside it.
    (_cover(3, {}), "seat 3 keeps a potion beside an uncovered poison card"),
], ids=["list", "not a potion", "bad card", "bad key", "not its poison", "other seat",
        "other's potion", "uncovered"])
def test_a_state_document_with_a_forged_placement_is_refused(
        change: Callable[[dict[str, Any]], None], message: str) -> None:
    doc = to_dict(_both_potions_one_covered())
    change(doc)
    with pytest.raises(sr.InvalidStateError, match=message):
        state_from_json(json.dumps(doc))


def test_the_poison_covered_event_names_its_potion_in_json() -> None:
    event = sr.PoisonCovered(3, sr.Card.parse("7H"), sr.Card.parse("7C"))
    doc = json.loads(sr.to_json([event]))
    found = [e for e in doc["events"] if e["event"] == "PoisonCovered"]
    assert found == [{"event": "PoisonCovered", "seat": 3, "card": "7H", "potion": "7C"}]
    loaded = sr.events_from_json(json.dumps(doc))[0]
    assert isinstance(loaded, sr.PoisonCovered) and loaded.potion == sr.Card.parse("7C")


def _nested(depth: int) -> list[Any]:
    outer: list[Any] = []
    inner = outer
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return outer


def test_a_document_nested_deeper_than_python_recurses_is_refused() -> None:
    # Data handed over as a dict (JSON text that deep, json.loads refuses) may hold a list
    # nested past Python's recursion limit: quoting it in the error must not recurse either.
    deep = _nested(100_000)
    state = sr.apply_all(sr.deal_hands(sr.new_game(sr.GameConfig(players=3, first_leader=0)),
                                       HANDS_3, "2D"), "play 2H; withdraw 3S")
    docs: list[dict[str, Any]] = [
        to_dict(state), to_dict(view(state, 2)), to_dict(state.config),
        to_dict(state.config.edition), to_dict(list(state.events)),
        to_dict(sr.record_game(state.config, [])), to_dict(sr.Action.parse("play 7H"))]
    for doc in docs:
        places = [(doc, key) for key in doc]
        places += [(doc["events"][0], key) for key in doc.get("events", [{}])[0]]
        for where, key in places:
            saved, where[key] = where[key], deep
            with pytest.raises(sr.ShockError):
                sr.from_dict(doc)
            where[key] = saved
        sr.from_dict(doc)  # restored: it loads


def test_a_set_of_an_event_lists_each_member_once() -> None:
    # GameEnded's winners are a set: a seat written twice would not read back as written.
    doc: dict[str, Any] = to_dict([sr.GameEnded((5, 3, 5), frozenset({0, 2}))])
    assert events_from_json(doc) == (sr.GameEnded((5, 3, 5), frozenset({0, 2})),)
    doc["events"][0]["winners"] = [0, 0]
    with pytest.raises(sr.InvalidStateError, match=r"events\[0\]\.winners\[1\]: 0 is listed twice"):
        events_from_json(doc)


def test_a_state_document_of_before_the_placement_reads_as_it_meant(
        potion_on_poison: sr.State) -> None:
    # Documents written before the placement was recorded list each seat's covered poison
    # cards: they read with the potions in card order on them in card order, the convention
    # they were written under.
    state = potion_on_poison
    doc = json.loads(sr.to_json(state))
    assert doc["covered"] == [{}, {"7S": "5C"}, {}, {}]
    doc["covered"] = [[], ["7S"], [], []]
    assert sr.from_json(json.dumps(doc)) == state
    for covered, reason in (([[], ["7S"], ["7H"], []], "7H is not a poison card in front"),
                            ([["5C"], [], [], []], "5C is not a poison card in front")):
        doc["covered"] = covered
        with pytest.raises(sr.InvalidStateError, match=reason):
            sr.from_json(json.dumps(doc))
