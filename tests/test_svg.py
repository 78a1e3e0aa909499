"""shock_rules.svg: pictures of cards, hands, views and states as SVG text, and ``_repr_svg_``.

The pictures are read back as XML: every card drawn names itself (``data-card``), so the tests
check what a picture shows -- the right cards, their gem icons and marks, and, for a view,
nothing the view does not hold (K34)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shock_rules as sr
from shock_rules import svg
from strategies import random_editions, random_step

NS = "{http://www.w3.org/2000/svg}"


def _parse(picture: str) -> ET.Element:
    root = ET.fromstring(picture)  # raises on text that is not well-formed XML
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    return root


def _cards(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if g.get("class") == "card"]


def _shown(root: ET.Element) -> list[str]:
    return [g.get("data-card", "") for g in _cards(root)]


def _gem_icons(g: ET.Element) -> int:
    return sum(1 for _ in g.iter(f"{NS}polygon"))


def _title(g: ET.Element) -> str:
    title = g.find(f"{NS}title")
    assert title is not None and title.text is not None
    return title.text


def _random_states(seed: int, players: int, every: int = 1) -> list[sr.State]:
    """The states of one seeded random game, every ``every``-th one."""
    rng = random.Random(seed)
    state = sr.new_game(sr.GameConfig(players=players))
    out = [state]
    while not sr.is_terminal(state):
        state = random_step(state, rng, withdraw_odds=12)
        out.append(state)
    return out[::every]


# -- one card and a hand ------------------------------------------------------------------------


@pytest.mark.parametrize("text", [str(sr.Card.from_index(i)) for i in range(44)])
def test_a_card_shows_its_suit_colour_index_and_gem_icons(text: str) -> None:
    card = sr.Card.parse(text)
    root = _parse(svg.card(card))
    (g,) = _cards(root)
    assert g.get("data-card") == text
    rect = g.find(f"{NS}rect")
    assert rect is not None and rect.get("fill") == svg.SUIT_COLOURS[card.suit]
    texts = [t.text for t in g.iter(f"{NS}text")]
    assert str(card.rank) in texts
    assert _gem_icons(g) == sr.Edition.default().icons(card)
    assert _title(g).startswith(f"{card.rank} of {card.suit}")


@pytest.mark.parametrize(("text", "mark", "word"), [
    ("7H", "☠", "bee"), ("7S", "☠", "jellyfish"), ("7D", "☠", "spider"),
    ("5C", "⚗", "potion"), ("7C", "⚗", "potion"),
])
def test_poisons_and_potions_carry_their_mark_and_name(text: str, mark: str, word: str) -> None:
    (g,) = _cards(_parse(svg.card(text)))
    texts = [t.text for t in g.iter(f"{NS}text")]
    assert mark in texts and word in texts
    assert word in _title(g)


def test_an_ordinary_card_carries_no_mark() -> None:
    for text in ("7C", "6H", "10S"):
        texts = [t.text for t in _parse(svg.card(text)).iter(f"{NS}text")]
        assert "☠" not in texts
    assert "⚗" not in [t.text for t in _parse(svg.card("6H")).iter(f"{NS}text")]


@settings(max_examples=25, deadline=None)
@given(edition=random_editions(), index=st.integers(0, 43))
def test_a_card_shows_the_gem_icons_and_poison_type_of_its_edition(
        edition: sr.Edition, index: int) -> None:
    card = sr.Card.from_index(index)
    (g,) = _cards(_parse(svg.card(card, edition=edition)))
    assert _gem_icons(g) == edition.icons(card)
    poison = edition.poison_type(card)
    assert (poison is not None) == ("☠" in [t.text for t in g.iter(f"{NS}text")])
    if poison is not None:
        assert poison in _title(g)


def test_a_hand_draws_its_cards_in_the_order_given() -> None:
    assert _shown(_parse(svg.hand("10S 2H 7C"))) == ["10S", "2H", "7C"]
    cards = [sr.Card.parse(t) for t in ("3D", "11C")]
    assert _shown(_parse(svg.hand(cards))) == ["3D", "11C"]
    assert _shown(_parse(svg.hand(()))) == []


@pytest.mark.parametrize("bad", ["7X", "12H", "7H 8Q", 7, None, [sr.Card.parse("7H"), "zz"]])
def test_something_that_is_not_cards_is_refused(bad: object) -> None:
    with pytest.raises(sr.InvalidNotationError):
        svg.hand(bad)  # type: ignore[arg-type]
    if not isinstance(bad, list):
        with pytest.raises(sr.InvalidNotationError):
            svg.card(bad)  # type: ignore[arg-type]


def test_a_wrong_edition_or_a_wrong_object_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="Edition"):
        svg.card("7H", edition="default")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="PlayerView"):
        svg.view(sr.new_game(sr.GameConfig(players=3)))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="State"):
        svg.table(sr.view(sr.new_game(sr.GameConfig(players=3)), 0))  # type: ignore[arg-type]


# -- views and tables -----------------------------------------------------------------------------


def _known(v: sr.PlayerView) -> set[str]:
    """Every card a view lets its viewer see."""
    known = {str(c) for c in v.hand} | {str(c) for c in v.own_face_down}
    known |= {str(t.card) for t in v.trick if t.card is not None}
    if v.trump is not None:
        known.add(str(v.trump))
    for s in v.seats:
        known |= {str(p.card) for p in s.poisons} | {str(c) for c in s.potions}
    return known


@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 4), (3, 5)])
def test_a_view_shows_its_own_hand_and_nothing_it_does_not_hold(seed: int, players: int) -> None:
    for state in _random_states(seed, players, every=3):
        for seat in [*range(players), None]:
            v = sr.spectator_view(state) if seat is None else sr.view(state, seat)
            root = _parse(svg.view(v))
            shown = _shown(root)
            assert set(shown) <= _known(v), (state, seat, set(shown) - _known(v))
            assert {str(c) for c in v.hand} <= set(shown)
            # Every hidden card is a back: the other hands, the face-down cards of others.
            backs = [g for g in root.iter(f"{NS}g") if g.get("class") == "back"]
            hidden_trick = sum(1 for t in v.trick if t.card is None)
            hidden_hands = sum(s.hand_size for s in v.seats if s.seat != seat)
            assert len(backs) == hidden_trick + hidden_hands


@pytest.mark.parametrize(("seed", "players"), [(4, 3), (5, 5)])
def test_a_table_shows_every_hand_and_every_card_of_the_trick(seed: int, players: int) -> None:
    for state in _random_states(seed, players, every=5):
        shown = _shown(_parse(svg.table(state)))
        for seat in range(players):
            assert {str(c) for c in state.hand(seat)} <= set(shown)
        assert {str(p.card) for p in state.trick} <= set(shown)
        assert not [g for g in _parse(svg.table(state)).iter(f"{NS}g")
                    if g.get("class") == "back"]


def test_a_covered_poison_has_its_potion_on_it_and_the_header_says_who_acts(
        potion_on_poison: sr.State) -> None:
    state = potion_on_poison
    root = _parse(svg.view(sr.view(state, 2)))
    seat1 = next(g for g in root.iter(f"{NS}g") if g.get("data-seat") == "1")
    poisons = [g for g in _cards(seat1)]
    assert [g.get("data-card") for g in poisons] == ["7S", "5C"]
    assert "(covered)" in _title(poisons[0]) and "covering 7S" in _title(poisons[1])
    chest = [g.get("data-chest") for g in root.iter(f"{NS}g") if g.get("class") == "chest"]
    assert chest == ["P:jellyfish"]
    header = "".join(t.text or "" for t in root.iter(f"{NS}text"))
    assert "Round 1 of 5 · trick 2 · seat 1 to reveal a chest card" in header


def test_the_seat_to_act_is_framed() -> None:
    state = sr.resolve_chance(sr.new_game(sr.GameConfig(players=3, first_leader=2)),
                              random.Random(0))
    root = _parse(svg.view(sr.view(state, 0)))
    frames = {g.get("data-seat"): g.find(f"{NS}rect") for g in root.iter(f"{NS}g")
              if g.get("class") == "seat"}
    widths = {seat: rect.get("stroke-width") for seat, rect in frames.items() if rect is not None}
    assert widths == {"0": "1", "1": "1", "2": "3"}


# -- Jupyter --------------------------------------------------------------------------------------


def test_cards_views_and_states_show_as_their_pictures_in_jupyter() -> None:
    state = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(9))
    card = state.hand(0)[0]
    assert card._repr_svg_() == svg.card(card)
    v = sr.view(state, 1)
    assert v._repr_svg_() == svg.view(v)
    assert state._repr_svg_() == svg.table(state)
    assert sr.spectator_view(state)._repr_svg_() == svg.view(sr.spectator_view(state))


# -- Melvin Vs. Kronk --------------------------------------------------------------------------


def _melvin_seats(picture: str) -> dict[int, ET.Element]:
    root = _parse(picture)
    return {int(g.get("data-seat", "-1")): g for g in root.iter(f"{NS}g")
            if g.get("class") == "seat"}


def _of(seat: ET.Element, kind: str, key: str) -> list[str]:
    return [g.get(key, "") for g in seat.iter(f"{NS}g") if g.get("class") == kind]


@pytest.mark.parametrize("seed", range(4))
def test_a_melvin_view_shows_piles_tops_its_gems_and_penalties_and_nothing_else(
        seed: int) -> None:
    from shock_rules import melvin as mk

    rng = random.Random(seed)
    state = mk.new_game(mk.GameConfig(players=3 + seed))
    hidden = matches = 0
    while not mk.is_terminal(state):
        acts = mk.legal_actions(state)
        useful = [a for a in acts if not isinstance(a, mk.Slap) or mk.match_shows(state)]
        state = mk.apply(state, mk.sample_chance(state, rng) if mk.is_chance(state)
                         else rng.choice(useful or list(acts)))
        for seat in [None, *range(state.players)]:
            v = mk.spectator_view(state) if seat is None else mk.view(state, seat)
            seats = _melvin_seats(svg.view(v))
            assert sorted(seats) == list(range(v.players))
            for s, g in seats.items():
                # Only the Gem cards the view shows are drawn face up; the others as backs.
                shown = v.gems[s]
                assert _of(g, "gem-card", "data-gem") == list(shown or ())
                backs = len(_of(g, "gem-back", "class"))
                assert backs == (0 if shown is not None else v.gem_counts[s])
                hidden += backs
                top = v.tops[s]
                assert _of(g, "versus", "data-face") == ([] if top is None else [f"V{top}"])
                assert _of(g, "penalty", "data-penalty") == list(v.penalties[s])
            matches += v.match_shows
    assert hidden and matches
    seats = _melvin_seats(svg.table(state))
    assert [_of(seats[s], "gem-card", "data-gem") for s in range(state.players)] == [
        list(g) for g in state.gems]
    assert "winner" in svg.table(state)


def test_a_melvin_view_and_state_show_as_their_pictures_in_jupyter() -> None:
    from shock_rules import melvin as mk

    state = mk.random_playout(mk.GameConfig(players=3), random.Random(1))
    assert state._repr_svg_() == svg.table(state)
    assert mk.view(state, 1)._repr_svg_() == svg.view(mk.view(state, 1))
