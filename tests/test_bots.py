"""Bots: legal actions only, decisions from a PlayerView only, and sensible play on forced
positions (K9, K11, K15-K17, K21, K22, K34)."""

from __future__ import annotations

import collections
import itertools
import random
from collections.abc import Callable

import attrs
import pytest

import shock_rules as sr
from shock_rules._rules.state import unchecked_replace
from shock_rules.bots import BOTS, Bot, HeuristicBot, MCTSBot, RandomBot, make_bot, play_game
from shock_rules.bots import mcts as mcts_module
from shock_rules.bots.heuristic import _info_from_state, _info_from_view, state_policy

A = sr.Action.parse


def _start(hands: tuple[str, ...], trump: str, leader: int = 0) -> sr.State:
    config = sr.GameConfig(players=len(hands), first_leader=leader)
    return sr.deal_hands(sr.new_game(config), list(hands), trump=trump)


class _Checked:
    """Wraps a bot: checks that it receives a PlayerView of its own seat and answers with one
    of that view's legal actions, which must be the engine's legal actions."""

    def __init__(self, bot: Bot, seat: int, state_ref: list[sr.State]) -> None:
        self.bot = bot
        self.name = bot.name
        self.seat = seat
        self.state_ref = state_ref
        self.calls = 0

    def choose(self, view: sr.PlayerView, rng: random.Random) -> sr.Action:
        assert type(view) is sr.PlayerView and view.seat == self.seat and view.my_turn
        state = self.state_ref[0]
        assert view == sr.view(state, self.seat)
        action = self.bot.choose(view, rng)
        assert isinstance(action, sr.Action) and action in sr.legal_actions(state)
        self.calls += 1
        return action


@pytest.mark.rule("INFO-2")
@pytest.mark.parametrize("variant", list(sr.Variant))
@pytest.mark.parametrize("players", [3, 4, 5])
def test_bots_return_legal_actions_from_their_own_view(players: int, variant: sr.Variant) -> None:
    rng = random.Random(players * 10 + len(variant.value))
    config = sr.GameConfig(players=players, variant=variant)
    for game in range(3):
        ref = [sr.new_game(config)]
        kinds: list[Bot] = [HeuristicBot(), RandomBot(0.2)]
        bots = [_Checked(kinds[(s + game) % 2], s, ref) for s in range(players)]
        state = ref[0]
        while not sr.is_terminal(state):
            if sr.is_chance(state):
                action = sr.sample_chance(state, rng)
            else:
                action = bots[state.actor].choose(sr.view(state, state.actor), rng)
            state = ref[0] = sr.apply(state, action)
        assert sum(b.calls for b in bots) > 20


@pytest.mark.rule("INFO-1")
def test_the_rollout_policy_reads_only_what_its_seat_may_know() -> None:
    # Two states that the acting seat cannot tell apart (a determinization of its view) get
    # the same decision: the policy ignores the other hands and the undealt cards (K34).
    policy = state_policy()
    rng = random.Random(11)
    compared = 0
    for players in (3, 4, 5):
        state = sr.new_game(sr.GameConfig(players=players))
        while not sr.is_terminal(state) and compared < 150 * (players - 2):
            if sr.is_chance(state):
                state = sr.apply(state, sr.sample_chance(state, rng))
                continue
            seat = state.actor
            other = sr.determinize(sr.view(state, seat), rng)
            assert sr.view(other, seat) == sr.view(state, seat)
            assert policy(other) == policy(state)
            compared += 1
            state = sr.apply(state, policy(state))
    assert compared > 300


_PLAY_FACTS = ("hand", "in_round", "bag", "mine", "stored", "counts", "most", "chest", "trump",
               "plays", "beaters", "trick_gems", "up_cards", "later", "extra", "unseen",
               "unseen_total", "trump_share")


@pytest.mark.rule("INFO-1")
def test_the_facts_built_from_a_state_are_those_of_the_seats_view() -> None:
    # At a face-up play (where the policy reads the most), the facts the heuristic builds from
    # the full state equal those built from the acting seat's view (K34).
    rng = random.Random(4)
    compared = 0
    for game in range(12):
        config = sr.GameConfig(players=3 + game % 3, variant=list(sr.Variant)[game // 3 % 2])
        state = sr.new_game(config)
        while not sr.is_terminal(state):
            if sr.is_chance(state):
                state = sr.apply(state, sr.sample_chance(state, rng))
                continue
            seat = state.actor
            if state.phase is sr.Phase.PLAY and state.status[seat] is sr.Status.IN:
                a, b = _info_from_state(state), _info_from_view(sr.view(state, seat))
                assert [getattr(a, f) for f in _PLAY_FACTS] == \
                    [getattr(b, f) for f in _PLAY_FACTS], state
                compared += 1
            state = sr.apply(state, rng.choice(sr.legal_actions(state)))
    assert compared > 250


@pytest.mark.parametrize("caution", [0.25, 0.0, 1.0])
def test_the_rollout_policy_decides_as_the_bot_on_the_seats_view(caution: float) -> None:
    # On thousands of states of games between the heuristic and random moves (3-5 players,
    # both variants, and an edition with twice the chest poisons), the rollout policy on the
    # state chooses a legal action, the one HeuristicBot chooses on the acting seat's view:
    # search rollouts play as the bot whose strength was measured.
    policy = state_policy(caution)
    bot = HeuristicBot(caution)
    rng = random.Random(17)
    kinds: collections.Counter[sr.ActionKind] = collections.Counter()
    standard = sr.Edition.default()
    doc = standard.to_dict()
    doc["chest"] = [{**c, "count": c["count"] * 2 if c["kind"] == "poison" else
                     max(1, c["count"] // 2)} for c in doc["chest"]]
    poison_heavy = sr.Edition.from_dict(doc)
    compared = 0
    for game in range(36):
        config = sr.GameConfig(players=3 + game % 3, variant=list(sr.Variant)[game // 3 % 2],
                               edition=poison_heavy if game % 4 == 3 else standard)
        state = sr.new_game(config)
        while not sr.is_terminal(state):
            if sr.is_chance(state):
                state = sr.apply(state, sr.sample_chance(state, rng))
                continue
            action = policy(state)
            v = sr.view(state, state.actor)
            assert action in v.legal_actions
            assert action == bot.choose(v, rng), state
            kinds[action.kind] += 1
            compared += 1
            if compared % 5 == 0:
                # Rarer inputs: a big bag at risk (withdrawals, stops), an empty chest deck.
                seat = state.actor
                for other in (
                    unchecked_replace(state, on_bag=tuple(
                        40 if j == seat else b for j, b in enumerate(state.on_bag))),
                    unchecked_replace(state, chest_deck=(0,) * len(state.chest_deck)),
                ):
                    assert policy(other) == bot.choose(sr.view(other, seat), rng), other
            if rng.random() < 0.3:
                action = rng.choice(sr.legal_actions(state))
            state = sr.apply(state, action)
    assert compared > 2500
    # Every kind of decision was met, withdrawals and both chest choices included.
    assert all(kinds[k] > 3 for k in (sr.ActionKind.PLAY, sr.ActionKind.WITHDRAW,
                                       sr.ActionKind.DOWN, sr.ActionKind.REVEAL,
                                       sr.ActionKind.STOP)), kinds


def test_heuristic_bot_beats_random_bots() -> None:
    # A smoke-level strength check (the measured numbers are in benchmarks/strength.py):
    # over 40 seeded games the heuristic seat wins far more than the 25% of equal strength.
    wins = 0.0
    for g in range(40):
        bots: list[Bot] = [RandomBot() for _ in range(4)]
        bots[g % 4] = HeuristicBot()
        end = play_game(sr.GameConfig(players=4), bots, random.Random(g))
        w = sr.winners(end)
        wins += (g % 4 in w) / len(w)
    assert wins / 40 > 0.45


# -- forced positions -------------------------------------------------------------------------


def test_heuristic_covers_the_poison_that_would_shock_it() -> None:
    # Trick 1: seat 0 wins and reveals P:jellyfish (jellyfish count 1 for everyone, K21), stops.
    # Trick 2: seat 0 leads 7H (bee); seat 1 plays 7S (jellyfish), seat 2 the potion 5C.
    # Seat 0 takes two poison cards and one potion: it chooses what to cover (K16). Leaving
    # 7S uncovered makes jellyfish 2 (shock, K17); leaving 7H makes bee 1 only.
    hands = ("2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
             "2C 3C 4C 5C 6C 8C 9C 10C 2D")
    s = sr.apply_all(_start(hands, trump="7D"),
                     "play 10H; play 2S; play 2C; chest P:jellyfish; stop; "
                     "play 7H; play 7S; play 5C")
    assert s.phase is sr.Phase.COVER and s.actor == 0
    assert HeuristicBot().choose(sr.view(s, 0), random.Random(0)) == A("cover 7S")
    assert state_policy()(s) == A("cover 7S")


def test_heuristic_ducks_a_trick_whose_poison_would_shock_it() -> None:
    # Trick 1: seat 1 wins with 10S and reveals P:bee: every seat in the round has bee 1.
    # Trick 2: seat 1 leads 7H (bee). Seat 2 must follow hearts with 3H or 10H; 10H would win
    # (seat 0's hearts stop at 9H, and nobody holds a club trump), take 7H and shock it.
    hands = ("2H 4H 5H 6H 8H 9H 2S 3S 4S", "7H 5S 6S 7S 8S 9S 10S 2D 3D",
             "3H 10H 4D 5D 6D 7D 8D 9D 10D")
    s = sr.apply_all(_start(hands, trump="2C"),
                     "play 4S; play 10S; play 4D; chest P:bee; stop; play 7H")
    assert s.actor == 2 and s.poison_count(2, "bee") == 1
    assert HeuristicBot().choose(sr.view(s, 2), random.Random(0)) == A("play 3H")
    assert state_policy()(s) == A("play 3H")


def test_heuristic_wins_a_safe_trick_with_its_cheapest_winning_card() -> None:
    # Seat 2 plays last to 4H, 8H: 9H and 10H both win for sure; 5H loses. Winning is safe
    # (no poison) and pays the trick's gem plus a chest card, so it plays 9H, keeping 10H.
    hands = ("4H 2S 3S 4S 5S 6S 8S 9S 10S", "8H 2D 3D 4D 5D 6D 8D 9D 10D",
             "5H 9H 10H 2H 3H 6H 7H 7S 7D")
    s = sr.apply_all(_start(hands, trump="2C"), "play 4H; play 8H")
    assert HeuristicBot().choose(sr.view(s, 2), random.Random(0)) == A("play 9H")
    assert state_policy()(s) == A("play 9H")


def _with_bag(v: sr.PlayerView, seat: int, gems: int) -> sr.PlayerView:
    seats = tuple(attrs.evolve(s, on_bag=gems) if s.seat == seat else s for s in v.seats)
    return attrs.evolve(v, seats=seats)


def test_heuristic_reveals_when_cheap_and_stops_when_much_is_at_risk() -> None:
    # After P:bee one deadly card is left among 23 (K21); with 3 gems at risk the expected
    # gain is positive, with 40 it is not (see test_odds for the exact values).
    hands = ("2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
             "2D 3D 4D 5D 6D 7D 8D 9D 10D")
    s = sr.apply_all(_start(hands, trump="2C"), "play 10H; play 2S; play 2D; chest P:bee")
    v = sr.view(s, 0)
    assert v.seats[0].on_bag == 3
    bot = HeuristicBot()
    assert bot.choose(v, random.Random(0)) == A("reveal")
    assert bot.choose(_with_bag(v, 0, 40), random.Random(0)) == A("stop")
    policy = state_policy()
    assert policy(s) == A("reveal")
    assert policy(unchecked_replace(s, on_bag=(40, *s.on_bag[1:]))) == A("stop")


def test_heuristic_withdraws_a_big_bag_when_every_chest_poison_type_is_live() -> None:
    # Each poison type has one card in the centre and one left in the deck: any chest card
    # anyone reveals may shock the seat (K21). With 40 gems on its bag it withdraws (K11),
    # dumping its weakest card; with nothing on its bag it stays.
    hands = ("2H 3H 4H 5H 6H 7H 8H 9H 10H", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
             "2D 3D 4D 5D 6D 7D 8D 9D 10D")
    s = sr.apply_all(_start(hands, trump="2C"),
                     "play 10H; play 2S; play 2D; chest P:bee; reveal; chest P:spider; "
                     "reveal; chest P:jellyfish")
    assert s.phase is sr.Phase.PLAY and s.actor == 0
    v = sr.view(s, 0)
    bot = HeuristicBot()
    assert bot.choose(_with_bag(v, 0, 40), random.Random(0)) == A("withdraw 2H")
    assert bot.choose(_with_bag(v, 0, 0), random.Random(0)).kind is sr.ActionKind.PLAY
    # The rollout policy, on the state itself.
    policy = state_policy()
    assert policy(unchecked_replace(s, on_bag=(40, *s.on_bag[1:]))) == A("withdraw 2H")
    assert policy(unchecked_replace(s, on_bag=(0, *s.on_bag[1:]))).kind is sr.ActionKind.PLAY


def test_heuristic_never_withdraws_with_nothing_on_its_bag() -> None:
    # Withdrawing banks the bag (K11): with an empty bag it only forfeits the round.
    rng = random.Random(5)
    bot = HeuristicBot()
    seen = 0
    for _ in range(30):
        end_actions: list[sr.Action] = []
        sr.random_playout(sr.GameConfig(players=4), rng, end_actions)
        state = sr.new_game(sr.GameConfig(players=4))
        for a in end_actions:
            if sr.current_player(state) not in (sr.CHANCE, None) \
                    and state.phase is sr.Phase.PLAY and state.status[state.actor] is sr.Status.IN \
                    and state.on_bag[state.actor] == 0:
                choice = bot.choose(sr.view(state, state.actor), rng)
                assert choice.kind is not sr.ActionKind.WITHDRAW
                seen += 1
            state = sr.apply(state, a)
    assert seen > 100


# -- MCTS and the registry ----------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(sr.Variant))
def test_mcts_with_a_tiny_budget_returns_legal_actions(variant: sr.Variant) -> None:
    rng = random.Random(4)
    bot = MCTSBot(iterations=6)
    for players in (3, 5):
        state = sr.new_game(sr.GameConfig(players=players, variant=variant))
        decisions = 0
        while not sr.is_terminal(state) and decisions < 12:
            if sr.is_chance(state):
                state = sr.apply(state, sr.sample_chance(state, rng))
                continue
            action = bot.choose(sr.view(state, state.actor), rng)
            assert action in sr.legal_actions(state)
            state = sr.apply(state, action)
            decisions += 1


def test_mcts_time_budget_and_arguments() -> None:
    s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(2))
    v = sr.view(s, s.actor)
    assert MCTSBot(iterations=10**6, seconds=0.05).choose(v, random.Random(0)) in v.legal_actions
    with pytest.raises(ValueError,
                       match="invalid iterations 0: expected an integer of at least 1"):
        MCTSBot(iterations=0)
    with pytest.raises(ValueError, match="invalid seconds 0: expected a number above 0"):
        MCTSBot(seconds=0)
    with pytest.raises(ValueError, match="not this seat's turn"):
        MCTSBot().choose(sr.view(s, (s.actor + 1) % 4), random.Random(0))


@pytest.mark.parametrize(("make", "kwargs"), [
    (MCTSBot, {"iterations": "120"}), (MCTSBot, {"iterations": 120.0}),
    (MCTSBot, {"seconds": "0.2"}),
    (MCTSBot, {"exploration": None}), (MCTSBot, {"exploration": float("nan")}),
    (MCTSBot, {"caution": "high"}), (MCTSBot, {"paired": 1}),
    (HeuristicBot, {"caution": None}), (HeuristicBot, {"reveal_margin": "0.25"}),
    (HeuristicBot, {"caution": float("inf")}), (RandomBot, {"withdraw_rate": "0.1"}),
])
def test_bots_refuse_settings_of_the_wrong_kind_when_made(
        make: Callable[..., object], kwargs: dict[str, object]) -> None:
    # Refused at once, not at the first decision of a game. Both builds raise a TypeError:
    # InvalidArgumentError, or the compiled build's own check of an int, float or bool
    # parameter, which comes first there.
    with pytest.raises(TypeError):
        make(**kwargs)


def test_bots_refuse_settings_out_of_range_when_made() -> None:
    # The same wording as the other argument checks of the package (simulation.wilson, ...).
    with pytest.raises(ValueError, match=r"invalid exploration -0\.5: expected a number of at "
                                         r"least 0\.0"):
        MCTSBot(exploration=-0.5)
    with pytest.raises(ValueError, match=r"invalid withdraw_rate -0\.1: expected a number of at "
                                         r"least 0\.0"):
        RandomBot(-0.1)
    with pytest.raises(ValueError, match=r"invalid withdraw_rate 1\.5: expected a number of at "
                                         r"most 1\.0"):
        RandomBot(1.5)
    assert MCTSBot(iterations=1, seconds=1, exploration=0, caution=1).seconds == 1


def test_the_bots_check_their_settings_with_the_package_argument_checks() -> None:
    # One check for the bots' settings and simulation's arguments (shock_rules._errors).
    # The bots call check_int and check_number directly.
    from shock_rules import _errors

    assert _errors.check_int("n", 3, 0) == 3
    assert type(_errors.check_number("x", 2, 0.0, 2.0)) is float
    for value in (True, False):
        with pytest.raises(sr.InvalidArgumentError, match="expected an integer"):
            _errors.check_int("n", value)
        with pytest.raises(sr.InvalidArgumentError, match="expected a finite number"):
            _errors.check_number("x", value)


@pytest.mark.parametrize("paired", [True, False])
def test_mcts_is_reproducible_with_the_same_generator(paired: bool) -> None:
    s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(9))
    v = sr.view(s, s.actor)
    a = MCTSBot(iterations=30, paired=paired).choose(v, random.Random(1))
    assert a in v.legal_actions
    assert a == MCTSBot(iterations=30, paired=paired).choose(v, random.Random(1))


def _searched_positions() -> list[sr.PlayerView]:
    # Decisions with a choice from seeded heuristic games, 3-5 players, both variants.
    out: list[sr.PlayerView] = []
    bot = HeuristicBot()
    for players in (3, 4, 5):
        for variant in sr.Variant:
            rng = random.Random(players * 7 + len(variant.value))
            state = sr.new_game(sr.GameConfig(players=players, variant=variant))
            goal = 4 * (1 + (players - 3) * 2 + (variant is sr.Variant.SIMPLIFIED))
            k = 0
            while not sr.is_terminal(state) and len(out) < goal:
                if sr.is_chance(state):
                    state = sr.apply(state, sr.sample_chance(state, rng))
                    continue
                v = sr.view(state, state.actor)
                if len(v.legal_actions) > 1:
                    if k % 7 == 3:
                        out.append(v)
                    k += 1
                state = sr.apply(state, bot.choose(v, rng))
    return out


# The decisions of MCTSBot(iterations=30) on _searched_positions(), position i searched with
# random.Random(i), as the search decided before its playouts were made faster (the rollout
# policy on states, the chest draws), the paired ones since only its root is searched (the
# heuristic below it): a faster search must search the same way.
_PAIRED = (
    "reveal; play 8S; reveal; play 7H; reveal; play 9H; reveal; play 6S; play 8H; "
    "reveal; play 1H; play 6C; play 3C; reveal; reveal; withdraw 1H; play 6S; play 1C; "
    "play 7D; play 6H; play 1S; play 10D; play 5H; down 6S"
)
_UNPAIRED = (
    "reveal; play 2S; stop; play 5H; stop; play 9H; reveal; play 8S; play 8H; reveal; "
    "play 6H; play 9C; play 7C; reveal; stop; play 9D; play 6S; play 1H; play 8D; play 4H; "
    "play 1S; play 4D; play 10H; down 6S"
)


@pytest.mark.parametrize(("paired", "expected"), [(True, _PAIRED), (False, _UNPAIRED)])
def test_mcts_decides_as_the_search_it_was_measured_with(paired: bool, expected: str) -> None:
    views = _searched_positions()
    assert len(views) == 24
    got = [MCTSBot(iterations=30, paired=paired).choose(v, random.Random(i))
           for i, v in enumerate(views)]
    assert got == [A(a) for a in expected.split("; ")]


def test_rollout_chest_draws_are_those_of_sample_chance() -> None:
    # The search draws chest cards from cached weights; from the same generator state it must
    # draw what sample_chance draws, and leave the generator in the same state.
    rng = random.Random(23)
    decks = 0
    for _ in range(40):
        state = sr.new_game(sr.GameConfig(players=4))
        while not sr.is_terminal(state):
            if state.phase is sr.Phase.CHEST:
                decks += 1
                for k in range(5):
                    a, b = random.Random(k), random.Random(k)
                    assert mcts_module._chest_draw(state.tables, state.chest_deck, a) \
                        == sr.sample_chance(state, b)
                    assert a.getstate() == b.getstate()
            action = (sr.sample_chance(state, rng) if sr.is_chance(state)
                      else rng.choice(sr.legal_actions(state)))
            state = sr.apply(state, action)
    assert decks > 200


@pytest.mark.parametrize("paired", [True, False])
def test_mcts_time_budget_stops_the_search_at_the_first_reading_past_it(
        paired: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # A clock that advances one second at each reading: it is read when choose() starts and
    # after each round of playouts (one per root action when paired), and the search stops
    # when another round of one second would end past the budget: a 3.5-second budget allows
    # three rounds, ending at second 3, whatever the iteration budget.
    s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(2))
    v = sr.view(s, s.actor)
    cands = len(MCTSBot()._candidates(s))  # the searched root actions
    assert cands > 1
    roots = cands if paired else 1
    ticks = itertools.count()
    monkeypatch.setattr(mcts_module, "_clock", lambda: float(next(ticks)))
    bot = MCTSBot(iterations=10**6, seconds=3.5, paired=paired)
    assert bot.choose(v, random.Random(0)) in v.legal_actions
    assert bot.playouts == 3 * roots
    # A budget already spent still plays every root action out once.
    bot = MCTSBot(iterations=10**6, seconds=1e-9, paired=paired)
    assert bot.choose(v, random.Random(0)) in v.legal_actions
    assert bot.playouts == roots


def test_mcts_without_a_time_budget_never_reads_the_clock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The iteration budget alone bounds the search (and a stopped clock would not end it).
    def no_clock() -> float:
        raise AssertionError("the clock was read")

    monkeypatch.setattr(mcts_module, "_clock", no_clock)
    s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(2))
    cands = len(MCTSBot()._candidates(s))
    # Paired, whole rounds of one playout per root action: the budget rounded up to a round.
    playouts = -(-30 // cands) * cands
    bot = MCTSBot(iterations=30)
    bot.choose(sr.view(s, s.actor), random.Random(0))
    assert bot.playouts == playouts
    monkeypatch.setattr(mcts_module, "_clock", lambda: 0.0)
    bot = MCTSBot(iterations=30, seconds=0.2)
    bot.choose(sr.view(s, s.actor), random.Random(0))
    assert bot.playouts == playouts
    # Unpaired, one playout per iteration; a decision the heuristic takes makes none.
    bot = MCTSBot(iterations=7, paired=False)
    bot.choose(sr.view(s, s.actor), random.Random(0))
    assert bot.playouts == 7


def test_mcts_ducks_the_trick_whose_poison_would_shock_it() -> None:
    # The position of test_heuristic_ducks_a_trick_whose_poison_would_shock_it: 10H wins 7H
    # and shocks seat 2 (bee 2, K17) whatever the hidden cards are, so every playout of
    # 10H ends the round with seat 2 out; 3H keeps it in.
    hands = ("2H 4H 5H 6H 8H 9H 2S 3S 4S", "7H 5S 6S 7S 8S 9S 10S 2D 3D",
             "3H 10H 4D 5D 6D 7D 8D 9D 10D")
    s = sr.apply_all(_start(hands, trump="2C"),
                     "play 4S; play 10S; play 4D; chest P:bee; stop; play 7H")
    v = sr.view(s, 2)
    assert MCTSBot(iterations=20).choose(v, random.Random(0)) == A("play 3H")


def test_bot_registry() -> None:
    assert set(BOTS) == {"random", "heuristic", "mcts"}
    for name in BOTS:
        bot = make_bot(name)
        assert bot.name == name and isinstance(bot, Bot)
    assert isinstance(make_bot("MCTS:7"), MCTSBot)
    assert make_bot("mcts:7").iterations == 7  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown bot 'alphago'"):
        make_bot("alphago")
    with pytest.raises(ValueError, match="only mcts takes a budget"):
        make_bot("random:5")


def test_bots_refuse_a_view_without_a_decision() -> None:
    s = sr.new_game(sr.GameConfig(players=3))
    for bot in (RandomBot(), HeuristicBot()):
        with pytest.raises(ValueError, match="no legal actions"):
            bot.choose(sr.view(s, 0), random.Random(0))
    with pytest.raises(ValueError, match="withdraw_rate"):
        RandomBot(1.5)


def test_play_game_records_a_replayable_game() -> None:
    from shock_rules.record import record_game, replay

    config = sr.GameConfig(players=3, variant=sr.Variant.SIMPLIFIED)
    actions: list[sr.Action] = []
    end = play_game(config, [HeuristicBot(), RandomBot(), HeuristicBot()], random.Random(3),
                    actions)
    assert sr.is_terminal(end)
    assert replay(record_game(config, actions))[-1] == end
    with pytest.raises(ValueError, match="needs 3 bots"):
        play_game(config, [RandomBot()], random.Random(0))


def test_mcts_decides_with_the_largest_gem_values_an_edition_allows() -> None:
    # Bags of thousands of gems once overflowed the playout reward's exp().
    d = sr.Edition.default().to_dict()
    d["chest"] = [{"kind": "gem", "large": 999, "small": 999, "count": 999}]
    config = sr.GameConfig(players=3, edition=sr.Edition.from_dict(d))
    rng = random.Random(1)
    s = sr.new_game(config)
    bot = MCTSBot(iterations=3)
    while not sr.is_terminal(s) and s.round < 3:
        if sr.is_chance(s):
            s = sr.apply(s, sr.sample_chance(s, rng))
        else:
            v = sr.view(s, s.actor)
            a = bot.choose(v, rng)
            assert a in v.legal_actions
            s = sr.apply(s, a)
    assert max(s.in_bag) + max(s.on_bag) > 1000


@pytest.mark.parametrize("make", [
    lambda: RandomBot(-1), lambda: RandomBot(1.5), lambda: RandomBot(float("nan")),
    lambda: RandomBot(True), lambda: HeuristicBot(None), lambda: HeuristicBot("x"),
    lambda: HeuristicBot(reveal_margin=float("inf")), lambda: MCTSBot(iterations=0),
    lambda: MCTSBot(iterations=True), lambda: MCTSBot(iterations=1.5),
    lambda: MCTSBot(iterations=None), lambda: MCTSBot(seconds=-1), lambda: MCTSBot(seconds=0),
    lambda: MCTSBot(exploration=-1), lambda: MCTSBot(exploration=None),
    lambda: MCTSBot(paired=0), lambda: MCTSBot(caution="x"),
    # Past a float's range, and past the digits Python will show in the message.
    lambda: RandomBot(10**400), lambda: MCTSBot(exploration=10**400),
    lambda: MCTSBot(iterations=-10**5000), lambda: HeuristicBot(-10**5000),
])
def test_a_bad_setting_is_refused_with_a_typed_error_in_either_build(
        make: Callable[[], object]) -> None:
    with pytest.raises(sr.InvalidArgumentError, match="invalid"):
        make()


@pytest.mark.parametrize("bot", [RandomBot(), HeuristicBot(), MCTSBot(iterations=4)],
                         ids=lambda b: b.name)
def test_a_bot_refuses_what_it_cannot_decide_on(bot: Bot) -> None:
    s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(2))
    me = sr.current_player(s)
    assert isinstance(me, int)
    rng = random.Random(0)
    for view, arg in [(sr.view(s, (me + 1) % 4), rng), (sr.spectator_view(s), rng),
                      (None, rng), (s, rng), (sr.view(s, me), None), (sr.view(s, me), 7)]:
        with pytest.raises(sr.InvalidArgumentError):
            bot.choose(view, arg)  # type: ignore[arg-type]
    assert bot.choose(sr.view(s, me), rng) in sr.legal_actions(s)


def test_make_bot_names_what_is_wrong_with_a_budget() -> None:
    for name, reason in [("mcts:0", "from 1 to"), ("mcts:", "from 1 to"),
                         ("mcts:99999999999", "from 1 to"), ("heuristic:5", "only mcts")]:
        with pytest.raises(sr.InvalidArgumentError, match=reason):
            make_bot(name)
    assert make_bot("mcts:7").iterations == 7  # type: ignore[attr-defined]
