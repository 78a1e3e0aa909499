"""An information-set Monte Carlo tree search bot.

:class:`MCTSBot` decides from a :class:`~shock_rules.PlayerView` only. Each iteration draws a
*determinization* -- a full state consistent with the view (:func:`~shock_rules.determinize`)
-- and plays it forward: the bot's decision is searched as below, the other seats follow a
fast heuristic policy, and chance is sampled (K6). The playout stops at
the end of the current round (or the game) and is scored by the bot's standing.

At the root, by default (``paired=True``), every candidate action is played out on the same
determinization with the same stream of chance outcomes (common random numbers), the bot's
later decisions in the playout follow the heuristic too (flat Monte Carlo over the root
actions), and the best mean wins: with a budget of tens of playouts, the luck of the deal and
of the chest otherwise swamps the differences between actions, and a tree below the root,
with a few dozen visits per root action, would mostly try the bot's later actions at random.
Measured (benchmarks/strength.py, 400 games against three heuristic bots, equal strength
25%, docs/performance.md): plain UCT with 50 playouts won 27-30%; paired with a UCT tree below
the root, 120 playouts, 36.6%; paired root-only, 120 playouts, 42.6% on the same games, and
48.4% with 330 playouts, which the compiled build makes in the same think time. With
``paired=False`` the bot's decisions follow a tree of its action sequences (UCT, with
availability counts because the legal actions differ between determinizations), the root
included, and the most visited action is chosen.

``MCTSBot(seconds=0.2)`` bounds the time of a decision as well, for front-ends that must
answer promptly. The clock starts when :meth:`MCTSBot.choose` is called (the first
determinization counts) and is read after each round of playouts (one playout per root action
when paired, else one playout); the search stops when another round as long as the last one
would end past the budget. A decision therefore takes at most the budget unless a round takes
longer than the one before it, and then overruns by less than that round (a few milliseconds
with 4 players). The first round is always completed, so that every root action has a
playout. ``benchmarks/mcts_speed.py --seconds 0.2`` measures the time taken, and
:attr:`MCTSBot.playouts` says how many playouts the last decision made.

Only the decisions that shape the game are searched: which card to play face up, whether to
withdraw (with the heuristic's choice of face-down card) and whether to reveal another chest
card. Face-down cards while out of the round and potion covers follow the heuristic.

>>> import random
>>> import shock_rules as sr
>>> s = sr.resolve_chance(sr.new_game(sr.GameConfig(players=4)), random.Random(3))
>>> v = sr.view(s, sr.current_player(s))
>>> MCTSBot(iterations=20).choose(v, random.Random(1)) in v.legal_actions
True
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect
from collections.abc import Callable
from itertools import accumulate
from typing import Final

from .._errors import check_bool, check_int, check_number
from .._info.determinize import determinize, redeterminize
from .._info.view import PlayerView
from .._rules.actions import WITHDRAW, Action, ActionKind
from .._rules.engine import apply, legal_actions, sample_chance
from .._rules.state import Phase, State, Status
from .._rules.tables import Tables
from .base import check_choice
from .heuristic import CAUTION, HeuristicBot, card_tables, state_policy

__all__ = ["MCTSBot"]

#: The clock of the time budget (a module attribute, so that tests can drive it).
_clock: Callable[[], float] = time.perf_counter

_CHEST_P: Final = Phase.CHEST
_OVER_P: Final = Phase.OVER
# Of any length, so that the compiled build keeps one tuple object (see engine._PHASE_KINDS).
_CHANCE: Final[tuple[Phase, ...]] = (Phase.DEAL, Phase.TRUMP, Phase.LEADER, Phase.CHEST)


class _Node:
    """Statistics of one of the bot's action sequences (open loop: the other seats' moves and
    chance between its decisions are not part of the node)."""

    __slots__ = ("avail", "children", "value", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.value = 0.0
        self.avail = 0
        self.children: dict[Action, _Node] = {}


class _Clock:
    """The time budget of one decision: started when made, read after each round of playouts
    (see the module docstring)."""

    __slots__ = ("deadline", "last")

    def __init__(self, seconds: float) -> None:
        self.last = _clock()
        self.deadline = self.last + seconds

    def stop(self) -> bool:
        """Return whether to stop now: when another round as long as the last one would end
        past the deadline."""
        now = _clock()
        if now + (now - self.last) > self.deadline:
            return True
        self.last = now
        return False


class MCTSBot:
    """An information-set MCTS bot (see the module docstring).

    ``iterations`` bounds the playouts per decision (when ``paired``, rounded up to whole
    rounds of one playout per root action); ``seconds``, when given, bounds
    the time of a decision too (the search stops at whichever comes first, see the module
    docstring for how closely the time is kept; a time budget makes results depend on the
    machine's speed, an iteration budget does not). ``exploration`` is the UCT constant.
    """

    name = "mcts"

    # The settings are declared ``object`` and checked here (see _errors.check_int).
    def __init__(self, iterations: object = 120, seconds: object = None,
                 exploration: object = 0.5, caution: object = CAUTION,
                 paired: object = True) -> None:
        paired = check_bool("paired", paired)
        budget = None if seconds is None else check_number("seconds", seconds, positive=True)
        self._fallback = HeuristicBot(caution)  # it checks caution
        #: The most playouts per decision.
        self.iterations = check_int("iterations", iterations, 1)
        #: The most time spent per decision, or ``None``.
        self.seconds = budget
        #: The UCT exploration constant (rewards lie in [0, 1]).
        self.exploration = check_number("exploration", exploration, 0.0)
        #: Whether root actions are compared on shared determinizations and chance streams.
        self.paired = paired
        #: The playouts of the last decision (0 when the heuristic decided it, or when it had
        #: one legal action): with a time budget, how many the budget allowed.
        self.playouts = 0
        self._policy: Callable[[State], Action] = state_policy(self._fallback.caution)

    def __repr__(self) -> str:
        return (f"MCTSBot(iterations={self.iterations}, seconds={self.seconds}, "
                f"exploration={self.exploration})")

    # -- which decisions are searched ---------------------------------------------------------

    def _candidates(self, state: State) -> tuple[Action, ...]:
        """The actions the search considers at one of the bot's decisions in ``state``, or an
        empty tuple when the heuristic decides (face-down plays, covers, forced moves)."""
        phase = state.phase
        if phase is Phase.CHEST_CHOICE:
            return legal_actions(state)
        if phase is not Phase.PLAY or state.status[state.actor] is not Status.IN:
            return ()
        acts = legal_actions(state)
        plays = tuple(a for a in acts if a.kind is ActionKind.PLAY)
        if not state.on_bag[state.actor]:
            # Withdrawing with nothing on the bag banks nothing and forfeits the round (K11).
            return plays if len(plays) > 1 else ()
        dump = card_tables(state.tables).dump(state.hand_masks[state.actor])
        return (*plays, WITHDRAW[dump])

    # -- the search ---------------------------------------------------------------------------

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Return the action the search rates best (see the module docstring)."""
        acts = check_choice(view, rng).legal_actions
        self.playouts = 0
        if len(acts) == 1:
            return acts[0]
        clock = None if self.seconds is None else _Clock(self.seconds)
        me = view.seat
        assert me is not None
        first = determinize(view, rng)
        if not self._candidates(first):
            return self._fallback.choose(view, rng)
        root = _Node()
        if self.paired:
            self.playouts = self._paired_search(root, view, first, me, rng, clock)
            # Every root action was played out equally often: take the best mean.
            best = max(root.children.items(),
                       key=lambda kv: (kv[1].value / max(kv[1].visits, 1), kv[1].visits))
            return best[0]
        for it in range(self.iterations):
            state = first if it == 0 else redeterminize(view, rng)
            self._iterate(root, state, me, rng)
            self.playouts = it + 1
            if clock is not None and clock.stop():
                break
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value))
        return best[0]

    def _paired_search(self, root: _Node, view: PlayerView, first: State, me: int,
                       rng: random.Random, clock: _Clock | None) -> int:
        """Play every root action out on the same determinization with the same stream of
        chance (common random numbers), so that the comparison between root actions is not
        drowned by the luck of the deal and of the chest; below the root, the heuristic.
        Return the number of playouts."""
        cands = self._candidates(first)
        done = 0
        state = first
        while done < self.iterations:
            seed = rng.getrandbits(64)
            for action in cands:
                # Only the root is searched: a UCT tree of a few dozen visits per root action
                # would mostly try the bot's later actions at random (measured: 42.6% against
                # 36.6% at 120 playouts, docs/performance.md).
                reward = self._playout(apply(state, action), me, state.round,
                                       random.Random(seed))
                child = root.children.get(action)
                if child is None:
                    child = root.children[action] = _Node()
                child.visits += 1
                child.value += reward
                done += 1
            if clock is not None and clock.stop():
                break
            state = redeterminize(view, rng)
        return done

    def _iterate(self, root: _Node, state: State, me: int, rng: random.Random) -> None:
        """One UCT iteration: down the tree of the bot's decisions, one node added, then a
        playout; its reward is added along the path."""
        rnd = state.round
        policy = self._policy
        node = root
        path = [root]
        while state.round == rnd:
            phase = state.phase
            if phase in _CHANCE:
                state = _chance(state, rng)
                continue
            if phase is _OVER_P:
                break
            if state.actor != me:
                state = apply(state, policy(state))
                continue
            cands = self._candidates(state)
            if len(cands) < 2:
                state = apply(state, policy(state) if not cands else cands[0])
                continue
            action = self._select(node, cands, rng)
            state = apply(state, action)
            child = node.children.get(action)
            if child is None:
                child = node.children[action] = _Node()
                child.avail = 1
                path.append(child)
                break  # expanded: the rest is a playout
            path.append(child)
            node = child
        reward = self._playout(state, me, rnd, rng)
        for n in path:
            n.visits += 1
            n.value += reward

    def _playout(self, state: State, me: int, rnd: int, rng: random.Random) -> float:
        """Play round ``rnd`` out from ``state``, every seat by the heuristic and chance by
        ``rng``, and return the bot's reward."""
        policy = self._policy
        while state.round == rnd:
            phase = state.phase
            if phase in _CHANCE:
                state = _chance(state, rng)
            elif phase is _OVER_P:
                break
            else:
                state = apply(state, policy(state))
        return _reward(state, me, rnd)

    def _select(self, node: _Node, cands: tuple[Action, ...], rng: random.Random) -> Action:
        """UCT with availability counts: an action's exploration term uses how often it was
        available, not the parent's visits (ISMCTS)."""
        untried = [a for a in cands if a not in node.children]
        for a in cands:
            c = node.children.get(a)
            if c is not None:
                c.avail += 1
        if untried:
            return rng.choice(untried)
        k = self.exploration

        def ucb(a: Action) -> float:
            ch = node.children[a]
            return ch.value / ch.visits + k * math.sqrt(math.log(max(ch.avail, 1)) / ch.visits)

        return max(cands, key=ucb)


# Per (tables, chest deck): the cumulative weights, their total and the actions of the chest
# kinds left, as random.choices builds them in sample_chance.
_CHEST_DRAWS: dict[tuple[Tables, tuple[int, ...]],
                   tuple[list[int], float, int, list[Action]]] = {}


def _chance(state: State, rng: random.Random) -> State:
    """Apply ``sample_chance(state, rng)``'s outcome (a chest card without its list building:
    the same draw)."""
    if state.phase is _CHEST_P:
        return apply(state, _chest_draw(state.tables, state.chest_deck, rng))
    return apply(state, sample_chance(state, rng))


def _chest_draw(t: Tables, deck: tuple[int, ...], rng: random.Random) -> Action:
    """Return ``sample_chance``'s chest card for this chest deck: the same draw from ``rng``
    (one ``random()``, as ``random.choices`` with these weights makes it)."""
    found = _CHEST_DRAWS.get((t, deck))
    if found is None:
        if len(_CHEST_DRAWS) > 20_000:
            _CHEST_DRAWS.clear()
        kinds = [i for i, n in enumerate(deck) if n]
        cum = list(accumulate(deck[k] for k in kinds))
        found = _CHEST_DRAWS[(t, deck)] = (
            cum, cum[-1] + 0.0, len(kinds) - 1, [Action.chest(t.chest_cards[k]) for k in kinds])
    cum, total, hi, acts = found
    return acts[bisect(cum, rng.random() * total, 0, hi)]


def _reward(state: State, me: int, rnd: int) -> float:
    """Score a playout's end in [0, 1]: at the end of the game 1 for a win (shared wins
    split, K28), else 0; at the end of a round, the bot's lead over the best other seat,
    squashed, softer when more rounds remain."""
    bags = [a + b for a, b in zip(state.in_bag, state.on_bag, strict=True)]
    mine = bags[me]
    best_other = max(b for s, b in enumerate(bags) if s != me)
    if state.phase is Phase.OVER:
        if mine < best_other:
            return 0.0
        return 1.0 / sum(1 for b in bags if b == mine) if mine == best_other else 1.0
    rounds_left = 5 - rnd
    scale = 6.0 + 5.0 * rounds_left
    x = -(mine - best_other) / scale
    if x > 700.0:
        # Far behind, as an edition with huge gem values allows: math.exp would overflow,
        # and the reward is below 1e-304 anyway.
        return 0.0
    return 1.0 / (1.0 + math.exp(x))
