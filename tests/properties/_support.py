"""Shared helpers of the property tests: settings for whole-game properties and independent
re-computations of rule quantities (so the properties do not trust the engine's own helpers).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from hypothesis import HealthCheck, settings

from shock_rules import (
    Action,
    ActionKind,
    Card,
    ChestCard,
    Event,
    GameConfig,
    Phase,
    RoundEnded,
    State,
    Status,
    Variant,
)

__all__ = [
    "GAME_EXAMPLES",
    "GAME_HEALTH_CHECKS",
    "VARIANTS",
    "deck_mask",
    "events_of",
    "game_settings",
    "poison_count",
    "round_ended",
    "targeted_illegal",
    "universe",
]

#: Whole games cost about 20-40 ms each with every check, so game-level properties run a third
#: of the profile's examples, but never fewer than 100 when the profile asks for more (CI: 300
#: -> 100 per variant) and never more than the profile (dev: 40).
GAME_EXAMPLES = min(settings().max_examples, max(100, settings().max_examples // 3))

#: Every property runs under both rules variants (K2).
VARIANTS = tuple(Variant)

E = TypeVar("E", bound=Event)


#: A whole game is a large example by nature (hundreds of drawn choices even when every choice
#: is the simplest), so the large-base-example health check does not apply to it.
GAME_HEALTH_CHECKS = [HealthCheck.large_base_example, HealthCheck.too_slow]


def game_settings() -> settings:
    """Return the settings of a whole-game property (see :data:`GAME_EXAMPLES`)."""
    return settings(
        max_examples=GAME_EXAMPLES, deadline=None, suppress_health_check=GAME_HEALTH_CHECKS
    )


def deck_mask(config: GameConfig) -> int:
    """Return the bitmask of the number cards in play (SETUP-2), computed from the rulebook:
    3 players drop the 1s and 11s, 4 players the 11s, 5 players use all 44 cards."""
    low, high = {3: (2, 10), 4: (1, 10), 5: (1, 11)}[config.players]
    mask = 0
    for i in range(44):
        card = Card.from_index(i)
        if low <= card.rank <= high:
            mask |= card.bit
    return mask


def poison_count(state: State, seat: int, poison: str) -> int:
    """Return a seat's count of ``poison`` as POISON-2 / K15 defines it: its uncovered poison
    number cards of that type plus the chest poison cards of that type in the centre."""
    ed = state.config.edition
    cards = 0
    for card, ptype in ed.poisons:
        if ptype == poison and state.poison_masks[seat] & card.bit \
                and not state.covered_masks[seat] & card.bit:
            cards += 1
    centre = sum(1 for c in state.chest_centre_cards if c.poison == poison)
    return cards + centre


def events_of(events: Iterable[Event], kind: type[E]) -> list[E]:
    """Return the events of one type, in order."""
    return [e for e in events if isinstance(e, kind)]


def round_ended(state: State) -> bool:
    """Return whether the step that produced ``state`` ended a round."""
    return any(isinstance(e, RoundEnded) for e in state.events)


_CARDS = tuple(Card.from_index(i) for i in range(44))
_CARD_KINDS = (ActionKind.PLAY, ActionKind.WITHDRAW, ActionKind.DOWN, ActionKind.COVER,
               ActionKind.DEAL, ActionKind.TRUMP)
_CTORS = {ActionKind.PLAY: Action.play, ActionKind.WITHDRAW: Action.withdraw,
          ActionKind.DOWN: Action.down, ActionKind.COVER: Action.cover,
          ActionKind.DEAL: Action.deal, ActionKind.TRUMP: Action.trump}
#: A chest card no test edition holds (large icons 9).
_ALIEN_CHEST = ChestCard.parse("G9/9")


def universe(config: GameConfig) -> tuple[Action, ...]:
    """Return every action that can be written for this config's edition, and one more."""
    acts = [_CTORS[k](c) for k in _CARD_KINDS for c in _CARDS]
    acts += [Action.chest(c) for c, _ in config.edition.chest] + [Action.chest(_ALIEN_CHEST)]
    acts += [Action.leader(seat) for seat in range(5)]
    return (*acts, Action.reveal(), Action.stop())


def targeted_illegal(state: State) -> list[Action]:
    """Return actions that break one specific rule in ``state`` (none of them legal)."""
    n = state.config.players
    out: list[Action] = []
    held = state.hand_masks[state.actor] if 0 <= state.actor < n else 0
    in_play = state.tables.deck
    not_held = [c for c in _CARDS if in_play & c.bit and not held & c.bit]
    some_held = [c for c in _CARDS if held & c.bit]
    anywhere = [c for c in _CARDS if in_play & c.bit]
    if state.phase is Phase.PLAY:
        out += [Action.play(not_held[0]), Action.withdraw(not_held[-1]), Action.down(not_held[0])]
        if state.status[state.actor] is Status.IN:
            out.append(Action.down(some_held[0]))  # in the round: face up or withdraw
            lead = state.lead_suit
            if lead is not None and any(c.suit is lead for c in some_held):
                out += [Action.play(c) for c in some_held if c.suit is not lead]  # K9
        else:
            out += [Action.play(some_held[0]), Action.withdraw(some_held[0])]  # K12
        # Chance outcomes at a player's decision.
        out += [Action.deal(anywhere[0]), Action.trump(anywhere[0]), Action.leader(0),
                Action.reveal(), Action.cover(anywhere[0])]
        out += [Action.chest(c) for c, _ in state.config.edition.chest[:1]]
    elif state.phase in (Phase.DEAL, Phase.TRUMP, Phase.LEADER, Phase.CHEST):
        # Decisions at a chance node, and outcomes that chance cannot produce now.
        out += [Action.play(anywhere[0]), Action.withdraw(anywhere[-1]),
                Action.down(anywhere[0]), Action.cover(anywhere[0]), Action.reveal(),
                Action.stop(), Action.chest(_ALIEN_CHEST)]
        dealt = [c for c in anywhere if not state.pool_mask & c.bit]
        if dealt:
            out += [Action.deal(dealt[0]), Action.trump(dealt[-1])]
        out += [Action.deal(c) for c in _CARDS if not in_play & c.bit][:1]
        if n < 5:
            out.append(Action.leader(n))
        for (card, _), left in zip(state.config.edition.chest, state.chest_deck, strict=True):
            if not left:
                out.append(Action.chest(card))
    elif state.phase is Phase.COVER:
        out += [Action.cover(c) for c in anywhere
                if not state.poison_masks[state.actor] & ~state.covered_masks[state.actor]
                & c.bit][:3]
        out += [Action.reveal(), Action.play(anywhere[0]), Action.deal(anywhere[0])]
    elif state.phase is Phase.CHEST_CHOICE:
        out += [Action.play(anywhere[0]), Action.cover(anywhere[0]), Action.leader(0)]
    else:  # OVER: nothing is legal any more
        out += [Action.play(anywhere[0]), Action.deal(anywhere[0]), Action.reveal(),
                Action.stop(), Action.leader(0)]
        out += [Action.chest(c) for c, _ in state.config.edition.chest[:1]]
    return out
