"""A Hypothesis state machine that plays a game step by step: chance steps, player steps and
attempted illegal steps, checking the game's invariants after every rule.

Besides :func:`shock_rules._rules.check.check_state`, the machine checks its own invariants
(GEM-1, SETUP-2, SHOCK-1, WITHDRAW-3, INFO-2) and step-to-step facts: bags never shrink, the
round never goes back, and seats out of the round stay out with nothing on their bags.
"""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from shock_rules import (
    CHANCE,
    GameConfig,
    IllegalActionError,
    Phase,
    State,
    Status,
    apply,
    current_player,
    is_chance,
    is_terminal,
    legal_actions,
    new_game,
)
from shock_rules._rules.check import check_state
from strategies import configs, draw_action

from ._support import (
    GAME_EXAMPLES,
    GAME_HEALTH_CHECKS,
    deck_mask,
    poison_count,
    round_ended,
    targeted_illegal,
)


class GameMachine(RuleBasedStateMachine):
    """Plays one game; ``state`` is the current position."""

    def __init__(self) -> None:
        super().__init__()
        self.state: State = new_game(GameConfig(players=3, first_leader=0))
        self.steps = 0

    @initialize(config=configs())
    def start(self, config: GameConfig) -> None:
        self.state = new_game(config)

    def _advance(self, nxt: State) -> None:
        prev = self.state
        self.steps += 1
        # Bags never shrink; the round never goes back (WITHDRAW-2, SHOCK-2, GAME-1).
        assert all(a <= b for a, b in zip(prev.in_bag, nxt.in_bag, strict=True))
        assert nxt.round >= prev.round
        if not round_ended(nxt):
            for seat, status in enumerate(prev.status):
                if status is not Status.IN:  # out of the round until it ends (K12, K18)
                    assert nxt.status[seat] is status and nxt.on_bag[seat] == 0
        self.state = nxt

    @precondition(lambda self: is_chance(self.state))
    @rule(data=st.data())
    def chance_step(self, data: st.DataObject) -> None:
        """Resolve the pending chance decisions, each outcome drawn (K6)."""
        while is_chance(self.state):
            self._advance(apply(self.state, draw_action(data, self.state)))

    @precondition(lambda self: isinstance(current_player(self.state), int))
    @rule(data=st.data())
    def player_step(self, data: st.DataObject) -> None:
        """One decision of the seat to act, made for that seat."""
        seat = current_player(self.state)
        assert isinstance(seat, int)
        self._advance(apply(self.state, draw_action(data, self.state), seat=seat))

    @rule(data=st.data())
    def illegal_step(self, data: st.DataObject) -> None:
        """An illegal action (or a legal one for the wrong seat) is rejected, changing
        nothing."""
        state = self.state
        copy = state.replace()
        before = hash(state)
        candidates = targeted_illegal(state)
        action = data.draw(st.sampled_from(candidates), label="illegal")
        turn = current_player(state)
        seat = None
        legal = legal_actions(state)
        wrong_seat: bool = bool(legal) and data.draw(st.booleans(), label="wrong seat?")
        if wrong_seat:
            action = data.draw(st.sampled_from(legal), label="legal action")
            others = [s for s in range(state.config.players) if s != turn]
            seat = data.draw(st.sampled_from(others), label="wrong seat")
        with pytest.raises(IllegalActionError):
            apply(state, action, seat=seat)
        assert state == copy and hash(state) == before

    @invariant()
    def state_is_valid(self) -> None:
        s = self.state
        check_state(s)
        ed = s.config.edition
        # GEM-1 and SETUP-2, recomputed here.
        trick = sum(p.gems for p in s.trick)
        assert s.supply + trick + sum(s.on_bag) + sum(s.in_bag) == ed.supply_total
        union = s.pool_mask | s.discard_mask | sum(p.card.bit for p in s.trick)
        for masks in (s.hand_masks, s.poison_masks, s.potion_masks):
            for m in masks:
                union |= m
        if s.trump_index >= 0:
            union |= 1 << s.trump_index
        assert union == deck_mask(s.config)
        # SHOCK-1: nobody in the round stands at 2, but a winner choosing its cover.
        for seat in range(s.players):
            if s.status[seat] is Status.IN and not (s.phase is Phase.COVER and s.actor == seat):
                assert all(poison_count(s, seat, t) < 2 for t in ed.poison_types)
        # INFO-2: who acts, and whether anything can.
        turn = current_player(s)
        assert (turn is None) == is_terminal(s) == (legal_actions(s) == ())
        assert (turn is CHANCE) == is_chance(s)


GameMachine.TestCase.settings = settings(
    max_examples=max(GAME_EXAMPLES // 2, min(GAME_EXAMPLES, 20)), stateful_step_count=400,
    deadline=None, suppress_health_check=GAME_HEALTH_CHECKS,
)
TestGameMachine = pytest.mark.rule("GEM-1")(
    pytest.mark.rule("SHOCK-1")(pytest.mark.rule("INFO-2")(GameMachine.TestCase))
)
