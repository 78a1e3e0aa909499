"""Random whole games, every step checked against the game's invariants.

For 3, 4 and 5 players under both variants, random games are played with a random policy that
withdraws rarely (7% of the plays of a player in the round), so that tricks, poisons, potions,
shocks and chest challenges all happen. After every step the state is checked independently of
the engine's own bookkeeping: cards and chest cards each in exactly one place, gems conserved
(K29), nobody in the round at a poison count of 2 except a winner choosing a cover (K17),
nothing on the bag of a player out of the round (K18, K11), bag totals never decreasing,
``apply`` leaving its input unchanged, chance probabilities summing to exactly 1 (K6), and no
legal action exactly at the end; a potion, once laid on a poison card, stays there until the
round's cards are cleared (POTION-6). Every game is then replayed from its action list and must give
an equal state (K6: a game is reproduced from its configuration and its actions).

``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) plays 200 games per combination, ``ci-compiled``
(the compiled build's run) 50; otherwise 20.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Iterator

import attrs
import pytest

import shock_rules as sr
from shock_rules._rules.check import check_state

GAMES = {"ci": 200, "ci-compiled": 50}.get(os.environ.get("HYPOTHESIS_PROFILE", ""), 20)
WITHDRAW_RATE = 0.07

COMBINATIONS = [
    (players, variant) for players in (3, 4, 5) for variant in sr.Variant
]


def _policy(state: sr.State, rng: random.Random) -> sr.Action:
    """Return a random action: chance by its probabilities; players mostly play face up."""
    if sr.is_chance(state):
        return sr.sample_chance(state, rng)
    actions = sr.legal_actions(state)
    if state.phase is sr.Phase.PLAY and state.status[state.actor] is sr.Status.IN:
        withdraws = [a for a in actions if a.kind is sr.ActionKind.WITHDRAW]
        plays = [a for a in actions if a.kind is sr.ActionKind.PLAY]
        return rng.choice(withdraws if rng.random() < WITHDRAW_RATE else plays)
    return rng.choice(actions)


class Checker:
    """Checks every state of one game, from data computed without the engine's tables."""

    def __init__(self, config: sr.GameConfig) -> None:
        ed = config.edition
        self.deck = 0
        for i in range(44):
            card = sr.Card.from_index(i)
            if card.rank in config_ranks(config.players):
                self.deck |= card.bit
        self.type_masks = {t: 0 for t in ed.poison_types}
        for card, t in ed.poisons:
            self.type_masks[t] |= card.bit
        self.chest = ed.chest
        self.supply = ed.supply_total
        self.best_bags = (0,) * config.players

    def check(self, state: sr.State) -> None:
        check_state(state)
        n = state.players
        # Every number card in play is in exactly one place.
        places = [state.pool_mask, state.discard_mask, *state.hand_masks,
                  *state.poison_masks, *state.potion_masks, *(p.card.bit for p in state.trick)]
        if state.trump is not None:
            places.append(state.trump.bit)
        seen = 0
        for m in places:
            assert not m & seen, "a number card is in two places"
            seen |= m
        assert seen == self.deck, "a number card is missing"
        # Every chest card is in exactly one place.
        for (card, count), k in zip(self.chest, range(len(self.chest)), strict=True):
            here = state.chest_deck[k] + state.chest_discard[k] + state.chest_centre[k]
            assert here == count, f"{here} {card} chest cards, not {count}"
        # Gems are conserved (K29).
        total = state.supply + sum(p.gems for p in state.trick) + sum(state.on_bag) \
            + sum(state.in_bag)
        assert total == self.supply, "gems are not conserved"
        centre = {t: 0 for t in self.type_masks}
        for card in state.chest_centre_cards:
            assert card.poison is not None
            centre[card.poison] += 1
        for seat in range(n):
            if state.status[seat] is not sr.Status.IN:
                assert state.on_bag[seat] == 0, f"seat {seat} is out with gems on its bag"
                continue
            if state.phase is sr.Phase.COVER and state.actor == seat:
                continue
            uncovered = state.poison_masks[seat] & ~state.covered_masks[seat]
            for t, tmask in self.type_masks.items():
                count = (uncovered & tmask).bit_count() + centre[t]
                assert count < 2, f"seat {seat} is in the round at {t} {count}"
        # Bags never lose gems.
        assert all(a <= b for a, b in zip(self.best_bags, state.in_bag, strict=True))
        self.best_bags = state.in_bag
        # Chance outcomes: the legal actions, with probabilities summing to exactly 1.
        outcomes = sr.chance_outcomes(state)
        if sr.is_chance(state):
            assert tuple(a for a, _ in outcomes) == sr.legal_actions(state)
            common = math.lcm(*(p.denominator for _, p in outcomes))
            assert sum(p.numerator * (common // p.denominator) for _, p in outcomes) == common
        else:
            assert outcomes == ()
        assert (sr.legal_actions(state) == ()) == sr.is_terminal(state)


def check_potions_stay(before: sr.State, after: sr.State) -> None:
    """POTION-6: a potion laid on a poison stays there until the round's cards are cleared
    (K26), as the state and the views (whose seats every viewer sees alike) show it."""
    cleared = any(isinstance(e, sr.RoundEnded) for e in after.events) \
        and after.phase is not sr.Phase.OVER
    for was, now in zip(before.potion_on_masks, after.potion_on_masks, strict=True):
        assert now == (0 if cleared else was or now), "a laid potion moved"
    # (the views are drawn where the play areas changed: drawing one every step doubled the
    # test's time)
    if (before.potion_on_masks, before.poison_masks) != (after.potion_on_masks,
                                                         after.poison_masks):
        assert all(sv.poisons == after.poisons(sv.seat)
                   for sv in sr.spectator_view(after).seats)


def config_ranks(players: int) -> range:
    """The ranks in play by the rulebook (Setup 6), written out independently."""
    return {3: range(2, 11), 4: range(1, 11), 5: range(1, 12)}[players]


def _play(config: sr.GameConfig, seed: int) -> Iterator[tuple[sr.State, sr.Action]]:
    rng = random.Random(seed)
    state = sr.new_game(config)
    while not sr.is_terminal(state):
        action = _policy(state, rng)
        yield state, action
        before, before_hash = attrs.astuple(state, recurse=False), hash(state)
        after = sr.apply(state, action)
        assert attrs.astuple(state, recurse=False) == before and hash(state) == before_hash
        state = after
    yield state, sr.Action.stop()


@pytest.mark.rule("GEM-1")
@pytest.mark.rule("DEAL-1")
@pytest.mark.parametrize(("players", "variant"), COMBINATIONS)
def test_random_games_keep_every_invariant(players: int, variant: sr.Variant) -> None:
    config = sr.GameConfig(players=players, variant=variant)
    stats = {"shocks": 0, "withdrawals": 0, "covers": 0, "rounds": 0}
    for game in range(GAMES):
        seed = players * 1_000_000 + (variant is sr.Variant.SIMPLIFIED) * 100_000 + game
        checker = Checker(config)
        actions: list[sr.Action] = []
        state = prev = sr.new_game(config)
        for state, action in _play(config, seed):
            try:
                checker.check(state)
                check_potions_stay(prev, state)
            except (AssertionError, sr.InvalidStateError) as exc:
                raise AssertionError(f"seed {seed}, step {len(actions)}: {exc}") from exc
            if sr.is_terminal(state):
                break
            prev = state
            actions.append(action)
            stats["shocks"] += sum(isinstance(e, sr.Shocked) for e in state.events)
            stats["withdrawals"] += action.kind is sr.ActionKind.WITHDRAW
            stats["covers"] += action.kind is sr.ActionKind.COVER
            stats["rounds"] += any(isinstance(e, sr.RoundEnded) for e in state.events)
        assert state.round == 5 and state.phase is sr.Phase.OVER
        # Determinism: replaying the recorded actions gives an equal state.
        replay = sr.new_game(config)
        for action in actions:
            replay = sr.apply(replay, action)
        assert replay == state and hash(replay) == hash(state), f"seed {seed}"
    # The policy reaches the deep rules (a sanity check of the test itself).
    assert stats["shocks"] > 0 and stats["withdrawals"] > 0
